"""The classic benchmark: samplers, exact ε against independent Monte Carlo, and today's black box."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import integrate, stats

from audit.benchmarks.classic import (
    CASES,
    MECHANISMS,
    PATTERNS,
    exact_epsilon,
    oracle_epsilon,
    svt34_features,
)
from audit.benchmarks.exact import (
    bloom_report_laws,
    discrete_epsilon,
    laplace_loss_binned_laws,
    noisy_max_index_law,
    noisy_max_value_binned_laws,
    oracle_event_bound,
    svt_answers_law,
    svt_bits_law,
    svt_first_above_law,
    svt_no_query_noise_law,
    svt_released_value_epsilon,
    svt_released_value_log_density,
    svt_released_value_ratio_range,
    truncated_geometric_law,
)
from audit.benchmarks.mechanisms import (
    LaplaceParallel,
    PrefixSum,
    Rappor,
    ReportNoisyMax,
    SparseVector,
    SVT34Parallel,
    TruncatedGeometric,
    lyu_svt,
    murmur3_32,
)
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
        "TruncatedGeometric": (64,),
        "Rappor": (64, 20),
        "OneTimeRappor": (64, 20),
        "LaplaceParallel": (64, 20),
        "SVT34Parallel": (64, 3, d),
    }.get(name, (64,) if name.startswith("ReportNoisyMax") else (64, d))
    assert out.shape == expected
    if name in ("ReportNoisyMax1", "ReportNoisyMax2"):
        assert set(np.unique(out)) <= set(range(d))
    if name == "TruncatedGeometric":
        assert set(np.unique(out)) <= set(range(6))
    if "Rappor" in name:
        assert set(np.unique(out)) <= {0.0, 1.0}
    if name.startswith("SVT") or name == "NumericalSVT":
        codes = out[:, 0, :] if out.ndim == 3 else out
        assert set(np.unique(codes)) <= {-1.0, 0.0, 1.0}
        if name in ("SVT1", "SVT2", "SVT3", "SVT4"):  # c = 1: nothing answered after the first ⊤
            assert (np.sum(codes == 1.0, axis=1) <= 1).all()
    if name == "SVT34Parallel":  # c = 2 in both parts: at most two ⊤, then "not answered"
        for codes in (out[:, 0, :], out[:, 2, :]):
            assert set(np.unique(codes)) <= {-1.0, 0.0, 1.0}
            assert (np.sum(codes == 1.0, axis=1) <= 2).all()
        assert svt34_features(out).shape == (64, 5 * d)


def test_every_mechanism_has_its_patterns_and_metadata() -> None:
    assert len(MECHANISMS) == 20
    for bench in MECHANISMS.values():
        assert bench.claim.epsilon == 0.1 and bench.claim.delta == 0.0
        assert bench.citation and bench.true_privacy and bench.exact_note
        for pattern in bench.patterns:
            pair = CASES[f"{bench.name}/{pattern}"].pair
            diff = np.abs(pair.x - pair.x_prime)
            assert diff.max() == 1.0  # each query moves by at most 1
    assert len(CASES) == 2 * (3 + 4) + 8 * (11 + 2)
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
    # DP-Sniper's additions: GeoSample with k = ⌈ln 20⌉ = 3 moves every outcome by 1 + 2⁻³
    assert exact_epsilon("TruncatedGeometric/one_above") == pytest.approx(
        math.log(9 / 8), abs=1e-12
    )
    assert exact_epsilon("TruncatedGeometric/one_below") == pytest.approx(
        math.log(9 / 8), abs=1e-12
    )
    # RAPPOR: ln(P[1 | set]/P[1 | unset]) per differing Bloom bit (1 and 0: 6 bits, 1 and 2: 5)
    per_bit = {"Rappor": math.log(0.5125 / 0.4875), "OneTimeRappor": math.log(0.525 / 0.475)}
    for mech, bit in per_bit.items():
        assert exact_epsilon(f"{mech}/one_below") == pytest.approx(6 * bit, abs=1e-12)
        assert exact_epsilon(f"{mech}/one_above") == pytest.approx(5 * bit, abs=1e-12)
    assert exact_epsilon("LaplaceParallel/one_above") == pytest.approx(0.1, abs=1e-12)
    assert exact_epsilon("PrefixSum/one_below") == pytest.approx(0.1, abs=1e-12)
    assert exact_epsilon("PrefixSum/x_shape") == pytest.approx(1.0, abs=1e-12)  # ‖Δ‖₁ = 10
    # SVT34Parallel, one query moved: Alg. 3's released value moves its density by 1/b_ν = 1/40,
    # Alg. 4's answers approach 1/b_ν = 3/40 in the tail. All moved: Alg. 3's left tail of "⊤ at
    # the last two" is 10/b_ν = 0.25; Alg. 4's answers, every query moved by 1, are its threshold
    # moved by 1 and approach 1/b_ρ = 0.025
    assert 0.0999 < exact_epsilon("SVT34Parallel/one_above") <= 0.1  # type: ignore[operator]
    assert exact_epsilon("SVT34Parallel/all_above") == pytest.approx(0.275, abs=1e-5)
    # Lyu et al.: Alg. 4 with c = 2 is 0.325-DP, and adding Alg. 3 only adds to it here
    assert 0.3125 < exact_epsilon("SVT34Parallel/half_half") < 0.325 + 0.25  # type: ignore[operator]
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
    assert len(correct) == 46
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
    "name",
    [
        "NoisyHist2/one_above",
        "SVT5/one_above",
        "SVT5/x_shape",
        "ReportNoisyMax3/all_above",
        "PrefixSum/all_below",
    ],
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


def test_truncated_geometric_samples_the_folded_geometric_law() -> None:
    mech = TruncatedGeometric(0.1, 5)
    assert mech.k == 3 and mech.denominator == 17 * 9**4
    alpha = Fraction(8, 9)
    for c in range(6):
        # Step 2's integer CDF is the two-sided geometric law with its tails folded, exactly
        pmf = [
            Fraction(b - a, mech.denominator)
            for a, b in itertools.pairwise([0, *mech.cdf_numerators(c)])
        ]
        folded = [(1 - alpha) / (1 + alpha) * alpha ** abs(z - c) for z in range(6)]
        folded[0], folded[5] = alpha**c / (1 + alpha), alpha ** (5 - c) / (1 + alpha)
        assert pmf == folded
        law = truncated_geometric_law(c, 5, mech.k)
        np.testing.assert_allclose(np.exp(law), [float(v) for v in folded], rtol=1e-13, atol=0.0)
    law = truncated_geometric_law(1, 5, mech.k)
    _assert_law_matches(
        {np.array([float(z)]).tobytes(): float(np.exp(v)) for z, v in enumerate(law)},
        mech.sample(np.array([1.0]), _rng("geo"), 200_000)[:, None],
    )


def test_murmur3_and_the_bloom_filters_are_dp_snipers() -> None:
    # Appleby's MurmurHash3 x86_32 reference values (unsigned), and mmh3's signed hash of "foo"
    for data, seed, expected in (
        (b"", 0, 0),
        (b"", 1, 0x514E28B7),
        (b"", 0xFFFFFFFF, 0x81F16F39),
        (b"\0\0\0\0", 0, 0x2362F9DE),
        (b"Hello, world!", 0x9747B28C, 0x24884CBA),
        (b"The quick brown fox jumps over the lazy dog", 0x9747B28C, 0x2FA826CD),
    ):
        assert murmur3_32(data, seed) % 2**32 == expected
    assert murmur3_32(b"foo") == -156908512
    # DP-Sniper's filters, mmh3.hash(str(v), seed=i) % 20 for i < 4 (checked against mmh3 5.3.1)
    filters = [np.flatnonzero(Rappor().bloom_bits(v)).tolist() for v in (0, 1, 2)]
    assert filters == [[0, 11, 18], [3, 10, 13], [7, 10, 11, 19]]


@pytest.mark.parametrize("name", ["Rappor", "OneTimeRappor"])
def test_rappor_law_matches_the_sampler(name: str) -> None:
    mech = MECHANISMS[name].mechanism
    assert isinstance(mech, Rappor)
    bits, bits_other = mech.bloom_bits(1), mech.bloom_bits(0)
    log_p, _ = bloom_report_laws(bits, bits_other, *mech.one_probabilities)
    assert np.exp(log_p).sum() == pytest.approx(1.0, abs=1e-12)
    differ = np.flatnonzero(bits != bits_other)
    outcomes = itertools.product((0.0, 1.0), repeat=differ.size)
    draws = mech.sample(np.array([1.0]), _rng(name), 200_000)
    _assert_law_matches(
        {np.array(o).tobytes(): float(np.exp(v)) for o, v in zip(outcomes, log_p, strict=True)},
        draws[:, differ],
    )
    # a bit set in both filters is reported 1 with P[1 | set] under either value
    both = int(np.flatnonzero((bits == 1.0) & (mech.bloom_bits(2) == 1.0))[0])
    p_set = mech.one_probabilities[0]
    se = math.sqrt(p_set * (1 - p_set) / len(draws))
    assert abs(float(draws[:, both].mean()) - p_set) <= 5 * se


@pytest.mark.parametrize("name", ["LaplaceParallel/one_above", "PrefixSum/half_half"])
def test_binned_privacy_loss_law_matches_the_sampler(name: str) -> None:
    case = CASES[name]
    mech = case.bench.mechanism
    assert isinstance(mech, LaplaceParallel | PrefixSum) and case.bench.law is not None
    log_p, log_q = case.bench.law(case.pair.x, case.pair.x_prime)
    assert np.exp(log_p).sum() == pytest.approx(1.0, abs=1e-12)
    assert np.exp(log_q).sum() == pytest.approx(1.0, abs=1e-12)
    # the sup ratio of the binned loss reaches the exact ε to within a bin per moved entry
    exact = exact_epsilon(name)
    assert exact is not None and exact - 2e-3 * exact <= discrete_epsilon(log_p, log_q) <= exact
    # the binned loss recomputed from draws: K = Σ_i round(g_i(y_i)/h)
    out = mech.sample(case.pair.x, _rng(name), 100_000)
    if isinstance(mech, PrefixSum):
        x, xp, noisy = case.pair.x, case.pair.x_prime, np.diff(out, axis=1, prepend=0.0)
    else:
        x, xp, noisy = np.full(20, case.pair.x[0]), np.full(20, case.pair.x_prime[0]), out
    moved = x != xp
    h = float(np.min(np.abs(x - xp)[moved])) / (mech.scale * 200)
    loss = (np.abs(noisy - xp) - np.abs(noisy - x))[:, moved] / mech.scale
    k = np.rint(loss / h).sum(axis=1) + (len(log_p) - 1) // 2  # index into the law
    cdf = np.cumsum(np.exp(log_p))
    edges = np.searchsorted(cdf, np.linspace(0.1, 0.9, 9))  # about ten groups of outcomes
    for lo, hi in itertools.pairwise([0, *edges.tolist(), len(log_p)]):
        prob = float(np.exp(log_p[lo:hi]).sum())
        freq = float(np.mean((k >= lo) & (k < hi)))
        assert abs(freq - prob) <= 5.0 * math.sqrt(prob * (1 - prob) / len(k)) + 1e-9, (lo, hi)


def test_dp_sniper_additions_check_their_parameters_and_keep_the_oracle_below_exact() -> None:
    with pytest.raises(ValueError, match="epsilon must be in"):
        TruncatedGeometric(2.5)
    with pytest.raises(ValueError, match="below 2"):
        TruncatedGeometric(0.001, 40)
    with pytest.raises(ValueError, match="data must hold a count in"):
        TruncatedGeometric().sample(np.array([6.0]), np.random.default_rng(0), 2)
    with pytest.raises(ValueError, match="data must hold integers"):
        Rappor().sample(np.array([0.5]), np.random.default_rng(0), 2)
    with pytest.raises(ValueError, match="f must be in"):
        Rappor(f=1.5)
    with pytest.raises(ValueError, match="f must be finite"):
        Rappor(f=math.nan)
    with pytest.raises(ValueError, match="epsilon_per_copy"):
        LaplaceParallel(20, 0.0)
    with pytest.raises(ValueError, match="threshold"):
        SVT34Parallel(threshold=math.inf)
    with pytest.raises(ValueError, match="count must be in"):
        truncated_geometric_law(6, 5, 3)
    with pytest.raises(ValueError, match="bits_prime"):
        bloom_report_laws(np.ones(3), np.ones(2), 0.5, 0.4)
    with pytest.raises(ValueError, match="scale"):
        laplace_loss_binned_laws(np.ones(2), np.zeros(2), math.nan)
    p, q = laplace_loss_binned_laws(np.ones(2), np.ones(2), 1.0)  # nothing moves: one outcome
    assert p.tolist() == q.tolist() == [0.0]
    for name in (
        "TruncatedGeometric/one_above",
        "Rappor/one_below",
        "OneTimeRappor/one_above",
        "LaplaceParallel/one_below",
        "PrefixSum/all_above",
    ):
        exact = exact_epsilon(name)
        bounds = [oracle_epsilon(name, n) for n in (10**4, 10**6, 10**9)]
        assert exact is not None and all(b is not None for b in bounds)
        assert bounds[0] < bounds[1] < bounds[2] <= exact, name  # type: ignore[operator]
    assert oracle_epsilon("SVT34Parallel/half_half", 10**6) is None
    with pytest.raises(ValueError, match="c must be 1 or 2"):
        svt_released_value_ratio_range(np.ones(2), np.zeros(2), 1.0, 1.0, 1.0, 3)
    with pytest.raises(ValueError, match="too many answer vectors"):
        svt_answers_law(np.ones(40), 1.0, 1.0, 1.0, 8)


def test_answers_law_with_cutoff_matches_the_sampler() -> None:
    alg4 = SVT34Parallel().parts[1]
    x = PATTERNS["half_half"](10)[1]
    outcomes, log_p = svt_answers_law(x, 1.0, alg4.rho_scale, alg4.nu_scale, 2)
    assert len(outcomes) == 1 + 10 + 45
    assert np.exp(log_p).sum() == pytest.approx(1.0, abs=1e-9)
    _assert_law_matches(
        {o.tobytes(): float(np.exp(v)) for o, v in zip(outcomes, log_p, strict=True)},
        alg4.sample(x, _rng("svt4 c=2"), 200_000),
    )
    # with c = 1 it is the first-⊤ law ("no ⊤" first here, last there)
    svt4 = lyu_svt(4, 0.1, c=1, threshold=1.0)
    _, one = svt_answers_law(x, 1.0, svt4.rho_scale, svt4.nu_scale, 1)
    first = svt_first_above_law(x, 1.0, svt4.rho_scale, svt4.nu_scale)
    np.testing.assert_allclose(one, np.r_[first[-1:], first[:-1]], rtol=0.0, atol=1e-12)


def _brute_ratio_range(
    x: FloatArray, xp: FloatArray, threshold: float, b_rho: float, b_nu: float
) -> tuple[float, float]:
    """Alg. 3 with c = 2 on three queries: ``H_S`` by adaptive quadrature, the two released values
    on a two-dimensional grid (through the data points)."""

    def log_h(v: FloatArray, below: list[int], s: float) -> float:
        def integrand(r: float) -> float:
            out = math.exp(-abs(r) / b_rho) / (2.0 * b_rho)
            for k in below:
                u = r + threshold - v[k]
                out *= 0.5 * math.exp(u / b_nu) if u < 0 else 1.0 - 0.5 * math.exp(-u / b_nu)
            return out

        lo, hi = (min(s, -1.0) - 3000.0, s) if math.isfinite(s) else (-3001.0, 3000.0)
        kinks = [k for k in (0.0, *(v[j] - threshold for j in below)) if lo < k < hi]
        value = integrate.quad(integrand, lo, hi, epsabs=0, epsrel=1e-11, limit=500, points=kinks)
        return math.log(value[0])

    m = np.unique(np.concatenate([np.linspace(-1500.0, 2500.0, 161), [0.0, 1.0, 2.0]]))
    a = (np.abs(m[None, :] - xp[:, None]) - np.abs(m[None, :] - x[:, None])) / b_nu

    def d(below: list[int]) -> FloatArray:
        return np.array(
            [log_h(x, below, v - threshold) - log_h(xp, below, v - threshold) for v in m]
        )

    none = log_h(x, [0, 1, 2], math.inf) - log_h(xp, [0, 1, 2], math.inf)
    ratios = [np.array([none])]
    for i in range(3):
        ratios.append(a[i] + d([k for k in range(3) if k != i]))
    for i, j in ((0, 1), (0, 2), (1, 2)):
        at_min = d([k for k in range(j) if k != i])[np.minimum.outer(range(m.size), range(m.size))]
        ratios.append((a[i][:, None] + a[j][None, :] + at_min).ravel())
    every = np.concatenate(ratios)
    return float(every.min()), float(every.max())


def test_released_value_ratio_range_reduces_two_values_to_one() -> None:
    # c = 1: the released-value ε of Lyu Alg. 3, from the same density
    svt3 = lyu_svt(3, 0.1, c=1, threshold=1.0)
    x, xp = PATTERNS["x_shape"](10)
    lo, hi = svt_released_value_ratio_range(x, xp, 1.0, svt3.rho_scale, svt3.nu_scale, 1)
    exact = svt_released_value_epsilon(x, xp, 1.0, svt3.rho_scale, svt3.nu_scale)
    assert max(hi, -lo) == pytest.approx(exact, abs=1e-12)
    # c = 2: the one-dimensional supremum against a brute-force two-dimensional one (SVT34's scales)
    for x, xp in (
        (np.ones(3), np.array([2.0, 0.0, 2.0])),
        (np.array([1.0, 0.0, 1.0]), np.zeros(3)),
    ):
        reduced = svt_released_value_ratio_range(x, xp, 1.0, 20.0, 40.0, 2)
        np.testing.assert_allclose(reduced, _brute_ratio_range(x, xp, 1.0, 20.0, 40.0), atol=1e-9)


def test_the_main_jobs_benchmark_names_registered_mechanisms_and_leaves_out_only_the_slow_ones() -> (
    None
):
    import ast

    noxfile = (Path(__file__).resolve().parents[3] / "noxfile.py").read_text(encoding="utf-8")
    tree = ast.parse(noxfile)
    (value,) = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "MAIN_JOB_BENCHMARK" for t in node.targets)
    ]
    listed = ast.literal_eval(value)
    assert set(listed) <= set(MECHANISMS)
    assert set(MECHANISMS) - set(listed) == {"Rappor", "OneTimeRappor", "SVT34Parallel"}
