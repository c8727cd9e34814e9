"""Agarwal & Singh reproductions (issue 10, experiments): tiny configurations, resume, refusal, fits.

* the three experiments write ``<name>.json`` (round-trips), ``<name>.png`` and ``<name>.md``;
* rerunning reuses every finished cell (counted, and the cell files are not rewritten: same
  ``mtime_ns``) and gives the same report; a changed config is refused;
* cells agree with independent derivations: the non-private FTRL regret on the minimax instance
  equals a closed-form recomputation of exponential weights; the EXP2 non-private parameters are
  Thm 4.1's formulas at ``λ = 0``; the BLO loss sequence lies in the declared loss set;
* :func:`scaling_fits` recovers a known exponent and a known slope against a theorem form on
  synthetic data generated from the form (fixed seed), and flags growth faster than the form.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from audit.reproduce_agarwal_singh import (
    BLOConfig,
    FTPLConfig,
    FullInfoConfig,
    MABConfig,
    blo_losses,
    build_parser,
    cell_seed,
    ftpl_sigma,
    ftrl_cell,
    full_info_losses,
    mab_nonprivate_parameters,
    main,
    reproduce_as_blo,
    reproduce_as_ftpl,
    reproduce_as_ftrl,
    reproduce_as_mab,
    scaling_fits,
)
from reference.agarwal_singh.theorems import (
    cor32_parameters,
    cor32_regret_bound,
    thm35_sigma_strict,
)

INF = math.inf
TINY_FTRL = FullInfoConfig(
    horizons=(16, 64, 256), epsilons=(0.5, 2.0, INF), dims=(2, 4), dim_T=64, runs=3
)
TINY_MAB = MABConfig(horizons=(64, 256), epsilons=(0.5, 2.0, INF), dims=(2, 3), dim_T=64, runs=2)
TINY_FTPL = FTPLConfig(horizons=(16, 64), epsilons=(1.0, 10.0, INF), dims=(2, 4), dim_T=16, runs=3)
TINY_BLO = BLOConfig(horizons=(32, 128), epsilons=(1.0, 4.0, INF), dims=(2, 3), dim_T=32, runs=2)


def _mtimes(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in sorted(folder.iterdir())}


@pytest.mark.parametrize(
    ("name", "run", "config"),
    [
        ("as_ftrl", reproduce_as_ftrl, TINY_FTRL),
        ("as_ftpl", reproduce_as_ftpl, TINY_FTPL),
        ("as_mab", reproduce_as_mab, TINY_MAB),
        ("as_blo", reproduce_as_blo, TINY_BLO),
    ],
)
def test_tiny_run_writes_files_and_resumes(
    tmp_path: Path, name: str, run: object, config: object
) -> None:
    assert callable(run)
    report = run(config, tmp_path)
    for suffix in ("json", "png", "md"):
        assert (tmp_path / f"{name}.{suffix}").stat().st_size > 0
    assert (tmp_path / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    stored = json.loads((tmp_path / f"{name}.json").read_text())
    assert stored == json.loads(json.dumps(stored))  # plain JSON (inf as a string)
    assert stored["experiment"] == name
    assert stored["cells_computed"] > 0
    cells = tmp_path / f"{name}_cells"
    assert len(list(cells.glob("*.json"))) == stored["cells_computed"]
    visits = stored["cells_computed"] + stored["cells_reused"]  # shared cells are reused at once
    before = _mtimes(cells)
    again = run(config, tmp_path)
    assert again["cells_computed"] == 0
    assert again["cells_reused"] == visits
    assert _mtimes(cells) == before  # no cell rewritten
    assert again["results"] == report["results"]
    assert "| fit |" in (tmp_path / f"{name}.md").read_text()


def test_changed_config_is_refused(tmp_path: Path) -> None:
    reproduce_as_mab(TINY_MAB, tmp_path)
    with pytest.raises(ValueError, match="config changed"):
        reproduce_as_mab(MABConfig(**{**TINY_MAB.__dict__, "runs": 3}), tmp_path)
    with pytest.raises(ValueError, match="config changed"):
        reproduce_as_mab(MABConfig(**{**TINY_MAB.__dict__, "seed": 1}), tmp_path)


def test_same_seed_same_result_and_common_numbers_across_epsilon() -> None:
    seed = cell_seed(7, "as_ftrl", 1, 2, 64)
    a = ftrl_cell("gap", 2, 64, 1.0, 4, "strict", seed)
    b = ftrl_cell("gap", 2, 64, 1.0, 4, "strict", cell_seed(7, "as_ftrl", 1, 2, 64))
    assert a == b
    c = ftrl_cell("gap", 2, 64, 1.0, 4, "strict", cell_seed(8, "as_ftrl", 1, 2, 64))
    assert a["regret"] != c["regret"]


def test_nonprivate_ftrl_matches_closed_form_exponential_weights() -> None:
    """At ε = ∞ Alg. 1 is exponential weights on exact prefix sums: recompute it by hand."""
    T, N = 256, 3
    for instance in ("minimax", "gap"):
        losses = full_info_losses(instance, N, T)
        cell = ftrl_cell(instance, N, T, INF, 2, "strict", cell_seed(0, "as_ftrl", 0, N, T))
        eta = math.sqrt(math.log(N) / (2 * T))  # η* = √(D_R/(2TG²)), D_R = ln N, G² = 1
        prefix = np.vstack([np.zeros(N), np.cumsum(losses, axis=0)[:-1]])
        w = np.exp(-eta * (prefix - prefix.min(axis=1, keepdims=True)))
        x = w / w.sum(axis=1, keepdims=True)
        expected = float(np.sum(x * losses) - losses.sum(axis=0).min())
        assert cell["regret"] == pytest.approx([expected, expected], rel=1e-10)
        assert cell["eta"] == pytest.approx(eta, rel=1e-14)
        # certified bound at ε = ∞: D_R/η + 2ηT = 2√(2T ln N)
        assert cell["bound_certified"] == pytest.approx(2 * math.sqrt(2 * T * math.log(N)))


def test_private_ftrl_cell_uses_cor32_strict_scale_and_bound() -> None:
    T, N, eps = 64, 2, 0.5
    cell = ftrl_cell("gap", N, T, eps, 3, "strict", cell_seed(0, "as_ftrl", 1, N, T))
    # strict: λ = Δ₁(Y)·h/ε with Y = [0,1]^N (Δ₁ = N) and h = ⌈log₂ T⌉ = 6 (actions view)
    assert cell["lam"] == pytest.approx(N * 6 / eps)
    params = cor32_parameters("experts", N, T, eps, experts_losses="box01")
    assert cell["bound_certified"] == pytest.approx(cor32_regret_bound(params, T))
    assert len(cell["regret"]) == 3 and len(set(cell["regret"])) == 3


def test_ftpl_sigma_is_thm35_strict_and_its_regret_branch() -> None:
    N, T = 4, 1000
    regret_branch = math.sqrt(T / (math.sqrt(N) * math.log(T)))  # ‖Y‖₂ √(T/(√N ln T))
    assert ftpl_sigma(N, T, INF, 1e-5) == pytest.approx(regret_branch)
    assert ftpl_sigma(N, T, 0.5, 1e-5) == thm35_sigma_strict(0.5, 1e-5, T, N, 1.0, 2.0)
    assert ftpl_sigma(N, T, 0.5, 1e-5) > regret_branch  # the privacy branch is active here


def test_mab_nonprivate_parameters_are_thm41_at_zero_noise() -> None:
    N, T = 4, 1000
    eta, gamma = mab_nonprivate_parameters(N, T)
    lam = 0.0
    factor = 1 + 2 * lam**2 * math.log(N * T)
    assert eta == pytest.approx(math.sqrt(math.log(N) / (2 * N * T * factor)))
    assert gamma == pytest.approx(eta * N * math.sqrt(factor))


def test_blo_losses_lie_in_the_declared_loss_set() -> None:
    losses = blo_losses(3, 500, np.random.default_rng(1))
    assert np.all(np.abs(losses).sum(axis=1) <= 1.0 + 1e-12)  # ‖l_t‖₁ ≤ ‖Y‖₁ = 1
    assert np.all(np.linalg.norm(losses, axis=1) <= 1.0 + 1e-12)  # M = 1 on the unit ball
    drift = losses.mean(axis=0)
    # mean (1/N)/2 per coordinate; s.e. of a coordinate ≤ 0.5/√500 ≈ 0.022: 6 s.e. margin
    assert np.all(np.abs(drift - 0.5 / 3) < 0.14)


def test_scaling_fit_recovers_known_exponents_on_synthetic_data() -> None:
    """Synthetic regret = 3·f(T)·exp(noise) with f the Cor. 3.2 certified form (f ~ √T at large T):
    the slope against the form is 1 (within its CI) and the bare T exponent is the form's own."""
    rng = np.random.default_rng(2024)
    T = np.array([2.0**k for k in range(8, 17, 2)])
    form = np.array(
        [cor32_regret_bound(cor32_parameters("experts", 2, int(t), 1.0), int(t)) for t in T]
    )
    regrets = 3.0 * form * np.exp(0.05 * rng.standard_normal((10, T.size)))
    fit = scaling_fits("synthetic", T, {"cor32": form}, regrets, stated_exponent=0.5)
    slope = fit["forms"]["cor32"]
    assert slope["ci_low"] <= 1.0 <= slope["ci_high"]
    assert abs(slope["slope"] - 1.0) < 0.05
    assert slope["consistent"]
    own = float(np.polyfit(np.log(T), np.log(form), 1)[0])  # the form's own exponent
    low, high = fit["exponent_ci"]
    assert low <= own <= high
    # a pure power law T^0.5 is recovered exactly in the bare exponent
    pure = 2.0 * np.sqrt(T) * np.exp(0.05 * rng.standard_normal((10, T.size)))
    fit = scaling_fits("pure", T, {"sqrt": np.sqrt(T)}, pure, stated_exponent=0.5)
    assert fit["exponent_ci"][0] <= 0.5 <= fit["exponent_ci"][1] and fit["exponent_matches"]


def test_scaling_fit_flags_growth_beyond_the_form() -> None:
    rng = np.random.default_rng(5)
    T = np.array([2.0**k for k in range(8, 15)])
    linear = 0.1 * T * np.exp(0.05 * rng.standard_normal((8, T.size)))
    fit = scaling_fits("linear", T, {"sqrt": np.sqrt(T)}, linear, stated_exponent=0.5)
    assert not fit["forms"]["sqrt"]["consistent"]
    assert not fit["exponent_consistent"]
    assert fit["forms"]["sqrt"]["slope"] == pytest.approx(2.0, abs=0.1)
    negative = linear.copy()
    negative[0, 0] = -1.0
    assert not scaling_fits("neg", T, {"sqrt": np.sqrt(T)}, negative, stated_exponent=0.5)["fitted"]


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser("prog")
    args = parser.parse_args(["as_mab", "--runs", "3", "--paper-scale"])
    assert args.experiments == ["as_mab"] and args.runs == 3 and args.paper_scale
    assert parser.parse_args([]).out == Path("results/reproduce")
    assert main(["nope", "--out", str(tmp_path)]) == 2
    assert main(["as_mab", "--runs", "1", "--out", str(tmp_path)]) == 2
    assert "error" in capsys.readouterr().err


def test_paper_configs_are_the_spec_sizes() -> None:
    assert FullInfoConfig.paper().horizons[-1] == 2**20
    assert FullInfoConfig.paper().runs == 200
    assert MABConfig.paper().dims == (2, 10, 50)
    assert BLOConfig.paper().horizons == (2**12, 2**14, 2**16, 2**18, 2**20)
