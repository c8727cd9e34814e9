"""The classic benchmark: samplers, exact ε against independent Monte Carlo, and today's black box."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from audit.benchmarks.classic import CASES, MECHANISMS, PATTERNS, exact_epsilon, oracle_epsilon
from audit.benchmarks.exact import (
    discrete_epsilon,
    noisy_max_index_law,
    noisy_max_value_binned_laws,
    oracle_event_bound,
    svt_bits_law,
    svt_first_above_law,
    svt_no_query_noise_law,
    svt_released_value_log_density,
)
from audit.benchmarks.mechanisms import ReportNoisyMax, SparseVector, lyu_svt
from audit.benchmarks.run import main, run_benchmark, run_search, select_cases
from audit.cli import main as cli_main
from audit.methods.black_box import event_audit
from audit.results import SCHEMA_VERSION
from reference._typing import FloatArray
from reference.rng import named_seed, seed_for

SEED = 2026


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(named_seed(SEED, name))


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_outputs_have_one_shape_per_output_and_follow_the_seed(name: str) -> None:
    bench = MECHANISMS[name]
    x = PATTERNS[bench.patterns[0]](bench.dimension)[0]
    out = bench.mechanism.sample(x, _rng(name), 64)
    again = bench.mechanism.sample(x, _rng(name), 64)
    assert out.dtype == np.float64 and np.isfinite(out).all()
    np.testing.assert_array_equal(out, again)
    d = bench.dimension
    expected = {
        "LaplaceMechanism": (64,),
        "NoisyHist1": (64, d),
        "NoisyHist2": (64, d),
        "SVT3": (64, 2, d),
        "NumericalSVT": (64, 2, d),
    }.get(name, (64,) if name.startswith("ReportNoisyMax") else (64, d))
    assert out.shape == expected
    if name in ("ReportNoisyMax1", "ReportNoisyMax2"):
        assert set(np.unique(out)) <= set(range(d))
    if name.startswith("SVT") or name == "NumericalSVT":
        codes = out[:, 0, :] if out.ndim == 3 else out
        assert set(np.unique(codes)) <= {-1.0, 0.0, 1.0}
        if name in ("SVT1", "SVT2", "SVT3", "SVT4"):  # c = 1: nothing answered after the first ⊤
            assert (np.sum(codes == 1.0, axis=1) <= 1).all()


def test_every_mechanism_has_its_patterns_and_metadata() -> None:
    assert len(MECHANISMS) == 14
    for bench in MECHANISMS.values():
        assert bench.claim.epsilon == 0.1 and bench.claim.delta == 0.0
        assert bench.citation and bench.true_privacy and bench.exact_note
        for pattern in bench.patterns:
            pair = CASES[f"{bench.name}/{pattern}"].pair
            diff = np.abs(pair.x - pair.x_prime)
            assert diff.max() == 1.0  # each query moves by at most 1
    assert len(CASES) == 2 * 3 + 8 * 11
    with pytest.raises(ValueError, match="algorithm must be in"):
        lyu_svt(7)
    with pytest.raises(ValueError, match="epsilon"):
        ReportNoisyMax(-1.0)


def _mc_frequencies(keys: FloatArray) -> dict[bytes, float]:
    rows, counts = np.unique(keys, axis=0, return_counts=True)
    return {r.tobytes(): c / len(keys) for r, c in zip(rows, counts, strict=True)}


def _assert_law_matches(law: dict[bytes, float], draws: FloatArray) -> None:
    """Every outcome's frequency within 5 standard errors of its exact probability (+1e-9)."""
    freq = _mc_frequencies(draws)
    n = len(draws)
    assert set(freq) <= set(law)
    for key, p in law.items():
        se = math.sqrt(p * (1.0 - p) / n)
        assert abs(freq.get(key, 0.0) - p) <= 5.0 * se + 1e-9, (np.frombuffer(key), p)


@pytest.mark.parametrize("noise", ["laplace", "exponential"])
def test_noisy_max_index_law_matches_monte_carlo(noise: str) -> None:
    mech = ReportNoisyMax(0.1, noise, "index")  # type: ignore[arg-type]
    x = np.array([1.0, 0.0, 2.0, 2.0, 0.0])
    law = noisy_max_index_law(x, mech.scale, noise)
    assert math.isclose(float(np.exp(law).sum()), 1.0, rel_tol=1e-9)
    draws = mech.sample(x, _rng("rnm " + noise), 200_000)
    _assert_law_matches(
        {np.array([float(i)]).tobytes(): float(np.exp(v)) for i, v in enumerate(law)},
        draws[:, None],
    )


@pytest.mark.parametrize("algorithm", [1, 4])
def test_first_above_law_matches_the_sampler(algorithm: int) -> None:
    mech = lyu_svt(algorithm, 0.1, c=1, threshold=1.0)
    x = PATTERNS["half_half"](10)[1]
    law = np.exp(svt_first_above_law(x, mech.threshold, mech.rho_scale, mech.nu_scale))
    assert math.isclose(float(law.sum()), 1.0, rel_tol=1e-9)
    codes = mech.sample(x, _rng(f"svt{algorithm}"), 200_000)
    first = np.where((codes == 1.0).any(axis=1), np.argmax(codes == 1.0, axis=1), 10)
    _assert_law_matches(
        {np.array([float(i)]).tobytes(): float(p) for i, p in enumerate(law)},
        first[:, None].astype(np.float64),
    )


def test_bits_and_no_noise_laws_match_the_sampler() -> None:
    x = PATTERNS["x_shape"](10)[0]
    svt6 = lyu_svt(6, 0.1, threshold=1.0)
    outcomes, log_p = svt_bits_law(x, 1.0, svt6.rho_scale, svt6.nu_scale)
    assert math.isclose(float(np.exp(log_p).sum()), 1.0, rel_tol=1e-9)
    _assert_law_matches(
        {o.tobytes(): float(np.exp(v)) for o, v in zip(outcomes, log_p, strict=True)},
        svt6.sample(x, _rng("svt6"), 100_000),
    )
    svt5 = lyu_svt(5, 0.1, threshold=1.0)
    law5 = svt_no_query_noise_law(x, 1.0, svt5.rho_scale)
    _assert_law_matches(
        {np.array(k).tobytes(): math.exp(v) for k, v in law5.items()},
        svt5.sample(x, _rng("svt5"), 100_000),
    )


def test_released_value_density_matches_the_sampler_and_the_answer_law() -> None:
    mech = lyu_svt(3, 0.1, c=1, threshold=1.0)
    x = PATTERNS["half_half"](10)[1]
    v = np.linspace(-1100.0, 1100.0, 400_001)
    density = np.exp(svt_released_value_log_density(x, 1.0, mech.rho_scale, mech.nu_scale, v))
    law = np.exp(svt_first_above_law(x, 1.0, mech.rho_scale, mech.nu_scale))
    # integrating out the value gives the answer law of the same thresholds and noises
    np.testing.assert_allclose(np.trapezoid(density, v, axis=1), law[:-1], atol=3e-5)
    out = mech.sample(x, _rng("svt3"), 200_000)
    codes, values = out[:, 0, :], out[:, 1, :]
    first = np.argmax(codes == 1.0, axis=1)
    top = (codes == 1.0).any(axis=1)
    released = values[np.arange(len(out)), first]
    for i in (0, 5):
        for lo, hi in ((-60.0, 0.0), (0.0, 30.0), (30.0, 120.0)):
            inside = (v >= lo) & (v <= hi)
            p = float(np.trapezoid(density[i, inside], v[inside]))
            freq = float(np.mean(top & (first == i) & (released >= lo) & (released < hi)))
            assert abs(freq - p) <= 5.0 * math.sqrt(p * (1 - p) / len(out)) + 1e-4, (i, lo, p)


def test_exact_epsilons_agree_with_closed_forms() -> None:
    assert exact_epsilon("LaplaceMechanism/one_above") == pytest.approx(0.1)
    assert exact_epsilon("NoisyHist2/one_below") == pytest.approx(10.0)
    # max of d = 5 Laplace(2/ε) shifted by 1: the left tail ratio e^{d·ε/2}, the right e^{ε/2}
    assert exact_epsilon("ReportNoisyMax3/all_above") == pytest.approx(0.25, abs=1e-9)
    assert exact_epsilon("ReportNoisyMax3/one_above") == pytest.approx(0.05, abs=1e-9)
    # argmax with exponential noise: this pattern reaches the claimed ε (tight, to quadrature)
    assert exact_epsilon("ReportNoisyMax2/one_below_rest_above") == pytest.approx(0.1, abs=1e-6)
    assert exact_epsilon("ReportNoisyMax1/all_above") == pytest.approx(0.0, abs=1e-9)
    assert exact_epsilon("ReportNoisyMax4/one_above") == math.inf
    assert exact_epsilon("SVT5/one_above") == math.inf
    # Lyu et al.: Alg. 4 is ((1 + 6c)/4)ε-DP, 0.175 at c = 1; its worst pattern comes close
    assert 0.17 < exact_epsilon("SVT4/half_half") <= 0.175  # type: ignore[operator]
    # Alg. 3, c = 1: the left tail of "⊤ at the last query" moves by (n − 1 + 1)/b_ν = 10/20
    assert exact_epsilon("SVT3/all_above") == pytest.approx(0.5, abs=1e-9)
    assert exact_epsilon("NumericalSVT/one_above") is None
    for name, case in CASES.items():
        if case.correct and case.bench.exact is not None and "SVT6" not in name:
            assert exact_epsilon(name) <= 0.1 + 1e-6, name  # type: ignore[operator]


def test_exponential_noisy_max_value_has_a_support_gap() -> None:
    # why ReportNoisyMax4 is ∞-DP: under x' = (2, ..., 2) the output is never below 2
    mech = MECHANISMS["ReportNoisyMax4"].mechanism
    pair = CASES["ReportNoisyMax4/all_above"].pair
    low = mech.sample(pair.x, _rng("rnm4 x"), 2_000_000) < 2.0
    assert low.any()
    assert (mech.sample(pair.x_prime, _rng("rnm4 x'"), 100_000) >= 2.0).all()


def test_correct_mechanisms_raise_no_false_alarm_at_a_fixed_seed() -> None:
    # each audit rejects a true claim with probability ≤ 0.05; at this seed none does
    correct = [c for c in CASES.values() if c.correct]
    assert len(correct) == 44
    for case in correct:
        result = event_audit(
            case.bench.mechanism,
            case.pair,
            case.claim,
            samples=4000,
            seed=seed_for(SEED, case.name),
            features=case.bench.features,
        )
        assert not result.violation, (case.name, result.epsilon_lower_bound)


@pytest.mark.parametrize(
    "name", ["NoisyHist2/one_above", "SVT5/one_above", "SVT5/x_shape", "ReportNoisyMax3/all_above"]
)
def test_broken_variants_are_caught_at_a_fixed_seed(name: str) -> None:
    case = CASES[name]
    samples = 200_000 if "ReportNoisyMax3" in name else 4000
    result = event_audit(
        case.bench.mechanism, case.pair, case.claim, samples=samples, seed=seed_for(SEED, name)
    )
    assert result.violation and result.epsilon_lower_bound <= exact_epsilon(name)  # type: ignore[operator]


def test_run_writes_the_table_and_the_cli_refuses_unknown_cases(tmp_path: Path) -> None:
    table = run_benchmark(2000, SEED, ["NoisyHist2", "SVT1/one_above"])
    assert [r.name for r in table.rows] == [
        "NoisyHist2/one_above",
        "NoisyHist2/one_below",
        "SVT1/one_above",
    ]
    assert table.rows[0].outcome == "caught" and table.rows[2].pair_violates is False
    again = run_benchmark(2000, SEED, ["SVT1/one_above"])  # seeds follow names, not positions
    assert again.rows[0].epsilon_lower_bound == table.rows[2].epsilon_lower_bound
    assert main(["--n", "2000", "--cases", "NoisyHist1", "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["schema_version"] == SCHEMA_VERSION and len(report["rows"]) == 2
    assert "| NoisyHist1/one_above | yes |" in (tmp_path / "report.md").read_text()
    # the same runner behind the privonline command line, into its own folder
    out = tmp_path / "cli"
    assert cli_main(["audit", "benchmark", "--n", "2000", "--cases", "NoisyHist2/one_above",
                     "--out", str(out)]) == 0  # fmt: skip
    assert json.loads((out / "report.json").read_text())["rows"][0]["outcome"] == "caught"
    with pytest.raises(ValueError, match="unknown"):
        select_cases(["NoSuchMechanism"])
    with pytest.raises(SystemExit):
        main(["--cases", "NoSuchMechanism", "--out", str(tmp_path)])


def test_pair_search_judges_each_mechanism_over_its_patterns(tmp_path: Path) -> None:
    rows = run_search(4000, SEED, ["NoisyHist2", "LaplaceMechanism", "SVT1"])
    by_name = {r.mechanism: r for r in rows}
    assert [r.mechanism for r in rows] == ["LaplaceMechanism", "NoisyHist2", "SVT1"]
    assert by_name["NoisyHist2"].outcome == "caught"
    assert by_name["SVT1"].candidates == 8 and len(by_name["SVT1"].chosen) == 2
    assert by_name["LaplaceMechanism"].outcome == "pass" and by_name["SVT1"].outcome == "pass"
    alone = run_search(4000, SEED, ["SVT1"])  # seeds follow the mechanism's name
    assert alone[0].epsilon_lower_bounds == by_name["SVT1"].epsilon_lower_bounds
    stored = run_search(4000, SEED, ["SVT1"], store=tmp_path)
    assert stored[0].p_values == alone[0].p_values
    assert (tmp_path / "search__SVT1.json").exists()


def test_an_interrupted_run_resumes_from_its_stored_cases(tmp_path: Path) -> None:
    store = tmp_path / "cases"
    first = run_benchmark(2000, SEED, ["SVT1/one_above"], store=store)
    cell = store / "SVT1__one_above.json"
    record = json.loads(cell.read_text())
    record["result"]["epsilon_lower_bound"] = 123.0  # a marker: a rerun must read, not recompute
    cell.write_text(json.dumps(record))
    again = run_benchmark(2000, SEED, ["SVT1/one_above"], store=store)
    assert first.rows[0].epsilon_lower_bound != 123.0
    assert again.rows[0].epsilon_lower_bound == 123.0
    with pytest.raises(ValueError, match="another configuration"):
        run_benchmark(3000, SEED, ["SVT1/one_above"], store=store)


def test_binned_laws_are_the_exact_laws_and_the_oracle_stays_below_the_exact_epsilon() -> None:
    p, q = noisy_max_value_binned_laws(np.array([1.0]), np.array([2.0]), 10.0, "laplace")
    assert np.exp(p).sum() == pytest.approx(1.0, abs=1e-12)
    assert np.exp(q).sum() == pytest.approx(1.0, abs=1e-12)
    assert discrete_epsilon(p, q) == pytest.approx(0.1, abs=1e-6)  # Laplace(10): |Δ| / b
    p, q = noisy_max_value_binned_laws(np.ones(5), np.full(5, 2.0), 20.0, "laplace")
    assert discrete_epsilon(p, q) == pytest.approx(0.25, abs=1e-4)  # RNM3 all above: d·ε/2
    p, q = noisy_max_value_binned_laws(np.ones(5), np.full(5, 2.0), 20.0, "exponential")
    assert math.isinf(discrete_epsilon(p, q))  # RNM4: the support gap
    # the oracle grows with n towards the exact ε and never passes it
    for name in ("LaplaceMechanism/one_above", "SVT4/half_half", "ReportNoisyMax1/x_shape"):
        exact = exact_epsilon(name)
        assert exact is not None
        bounds = [oracle_epsilon(name, n) for n in (10**4, 10**6, 10**9)]
        assert all(b is not None for b in bounds)
        assert bounds[0] < bounds[1] < bounds[2] <= exact  # type: ignore[operator]
        assert exact - bounds[2] < 0.1 * exact  # type: ignore[operator]
    assert oracle_epsilon("NumericalSVT/all_above", 10**6) is None  # no law computed
    # SVT3's released values on cells of the quadrature grid (trapezoid masses)
    case = CASES["SVT3/all_above"]
    p, q = case.bench.law(case.pair.x, case.pair.x_prime)  # type: ignore[misc]
    assert np.exp(p).sum() == pytest.approx(1.0, abs=1e-4)
    assert discrete_epsilon(p, q) == pytest.approx(0.5, abs=1e-6)
    # by hand: two outcomes, the event {0}: ln(P̲/P̄') with the beta quantiles at β/2
    log_p, log_q = np.log([0.6, 0.4]), np.log([0.4, 0.6])
    by_hand = math.log(stats.beta.ppf(0.025, 600, 401) / stats.beta.ppf(0.975, 401, 600))
    assert oracle_event_bound(log_p, log_q, 1000, 0.05) == pytest.approx(by_hand, rel=1e-9)


def test_samplers_and_exact_laws_check_their_parameters() -> None:
    with pytest.raises(ValueError, match="c must be"):
        SparseVector(0.1, 0, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="nu_scale"):
        SparseVector(0.1, 1, 1.0, 1.0, -1.0)
    with pytest.raises(ValueError, match="data"):
        lyu_svt(1).sample(np.array([[1.0]]), np.random.default_rng(0), 3)
    with pytest.raises(ValueError, match="scale"):
        noisy_max_index_law(np.ones(3), -1.0, "laplace")
    with pytest.raises(ValueError, match="noise"):
        noisy_max_index_law(np.ones(3), 1.0, "gauss")
    with pytest.raises(ValueError, match="x must have at least one query"):
        svt_first_above_law(np.array([]), 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="threshold"):
        svt_bits_law(np.ones(2), math.nan, 1.0, 1.0)
