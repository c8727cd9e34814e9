"""Tests of ``audit.papers.sajed_sheffet.reproduce`` on tiny configurations (seconds).

Checks: both experiments write their JSON, PNG and Markdown; the JSON round-trips; a rerun reuses
every finished cell (no cell recomputed, cell files untouched) and gives the same report; a cell
written with another configuration is refused; the DP-SE paper-scale cell reproduces the C1/K=5
value computed by hand (``(2743 + 11676 + 48362)·0.2``); the ratio table is the ratio
of the per-setting means; the two-term fit and the form fits recover known coefficients and a
known exponent on synthetic data generated from Theorem 4.3's form (fixed seed); the Sec. 4 form by
hand; the command line's argument errors.  ``stopping``: the Algorithm 1 fast path gives the
reference ``dp_nas``'s halting times; a tiny run writes and resumes; on the ``1/ε`` grid the correct
rules are consistent with Theorem 3.3's form and never exceed it, while the planted rule (noise
``∝ 1/ε²``) is flagged by the slope test and by the exceedance test; the exceedance p-value by hand.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from audit.methods.scaling import fit_against_form
from audit.papers import by_name
from audit.papers.sajed_sheffet.repro_cells import Sec5Config, Thm43Config
from audit.papers.sajed_sheffet.repro_sec5 import _verdicts, reproduce_sec5
from audit.papers.sajed_sheffet.repro_stopping import bound_exceedance_test, reproduce_stopping
from audit.papers.sajed_sheffet.repro_stopping_times import (
    StoppingConfig,
)
from audit.papers.sajed_sheffet.repro_thm43 import (
    reproduce_thm43,
    thm43_linear_fit,
    thm43_proof_form,
)
from audit.papers.sajed_sheffet.reproduce import EXPERIMENTS
from audit.reproduce.command import main as reproduce
from audit.reproduce.report import ExperimentReport, write_report
from audit.results import to_jsonable
from reference.engine.mab import section5_means

TINY_SEC5 = Sec5Config(
    T=1_500,
    runs=2,
    instances=("C1", "C2"),
    Ks=(3, 5),
    epsilons=(0.25, 1.0),
    dpse_paper_T=50_000_000,
    dpse_paper_runs=2,
    prefix_rounds=2_000,
    prefix_runs=2,
    seed=1,
)
TINY_THM43 = Thm43Config(
    Ts=(10**6, 10**7),
    runs=3,
    instances=("C1", "C2", "C3"),
    Ks=(3, 5),
    epsilons=(0.1, 1.0),
    fit_T=10**7,
    fit_K=5,
    fit_epsilon=1.0,
    seed=2,
)


def _written(report: ExperimentReport, out: Path) -> dict[str, Any]:
    """Write ``report`` into ``out`` as the command line does, check the three files; its JSON."""
    write_report(report, out)
    for suffix in ("json", "png", "md"):
        assert (out / f"{report.name}.{suffix}").stat().st_size > 0
    return report.to_dict()


def test_sec5_tiny_run_writes_outputs_resumes_and_refuses_other_configs(tmp_path: Path) -> None:
    report = _written(reproduce_sec5(TINY_SEC5, tmp_path), tmp_path)
    cells = sorted((tmp_path / "sec5_cells").glob("*.npz"))
    assert len(cells) == 2 * 3 + 1 and report["cells"] == {"computed": 7, "reused": 0}
    loaded = json.loads((tmp_path / "sec5.json").read_text())
    assert loaded == json.loads(json.dumps(to_jsonable(report)))
    assert len(loaded["settings"]) == 2 * 2 * 2
    mtimes = {p: p.stat().st_mtime_ns for p in cells}
    again = reproduce_sec5(TINY_SEC5, tmp_path).to_dict()
    assert again["cells"] == {"computed": 0, "reused": 7}
    assert {p: p.stat().st_mtime_ns for p in cells} == mtimes
    assert again["settings"] == report["settings"]
    with pytest.raises(ValueError, match="another configuration"):
        reproduce_sec5(Sec5Config(**{**TINY_SEC5.__dict__, "runs": 3}), tmp_path)
    # By hand: C1/K=5 at T = 5·10⁷ is deterministic, (r_1 + r_2 + r_3)·0.05·4.
    c1k5 = next(
        s for s in report["settings"] if (s["instance"], s["K"], s["epsilon"]) == ("C1", 5, 0.25)
    )
    assert c1k5["dpse_paper_T"]["mean"] == pytest.approx((2743 + 11676 + 48362) * 0.2, rel=1e-12)
    assert c1k5["spec_dpse"]["agrees"]
    for s in report["settings"]:
        for cal in TINY_SEC5.calibrations:
            assert s[f"ratio_{cal}"] == pytest.approx(s[f"dpucb_{cal}"]["mean"] / s["dpse"]["mean"])
        # every curve ends at the final regret and never decreases
        for curve in s["curves"].values():
            assert np.all(np.diff(curve) >= -1e-9)
        assert s["curves"]["dpse"][-1] == pytest.approx(s["dpse"]["mean"])
    # Paper-scale lower bounds: DP-UCB's first 2000 rounds at T = 5·10⁷ are (nearly) round-robin,
    # so the prefix regret is close to 2000 · mean gap, bounded by 2000 · max gap.
    bounds = report["paper_T_ratio_lower_bounds"]
    assert [b["instance"] for b in bounds] == ["C1", "C2"]
    for b in bounds:
        gaps = 0.75 - section5_means(b["instance"], 5)
        for cal in TINY_SEC5.calibrations:
            prefix = b[f"dpucb_{cal}_regret_after_prefix"]["mean"]
            assert 0.5 * 2_000 * gaps.mean() < prefix <= 2_000 * gaps.max()
            assert b[f"ratio_lower_bound_{cal}"] == pytest.approx(
                prefix / b["dpse_final_regret_at_T"]
            )
    # verdicts: Welch intervals of E[UCB] − 5·E[SE] and E[UCB] − E[SE], read as holds/fails/more
    for cal in TINY_SEC5.calibrations:
        for claim, factor in (("at_least_5x", 5.0), ("dpse_better", 1.0)):
            tally = report["summary"][cal][claim]
            assert tally["holds"] + tally["fails"] + tally["needs_more_runs"] == 8
            for s in report["settings"]:
                v = s[f"verdicts_{cal}"][claim]
                gap = s[f"dpucb_{cal}"]["mean"] - factor * s["dpse"]["mean"]
                assert v["difference"] == pytest.approx(gap, rel=1e-9, abs=1e-9)
                assert v["ci_low"] <= v["difference"] <= v["ci_high"]
                expected = "holds" if v["ci_low"] > 0 else "fails" if v["ci_high"] < 0 else None
                assert v["verdict"] == (expected or "needs more runs")
            if tally["fails"]:
                assert tally["verdict_all_settings"] == "fails"
    md = (tmp_path / "sec5.md").read_text()
    assert "≥ 5×" in md and "per_tree" in md and "split" in md
    assert "The paper's statement, setting by setting" in md


def test_thm43_tiny_run_writes_outputs_and_resumes(tmp_path: Path) -> None:
    report = _written(reproduce_thm43(TINY_THM43, tmp_path), tmp_path)
    assert report["cells"] == {"computed": 4, "reused": 0}
    loaded = json.loads((tmp_path / "thm43.json").read_text())
    assert loaded == json.loads(json.dumps(to_jsonable(report)))
    assert set(report["scaling_fits"]) == {
        f"{v} / {f}" for v in ("log T", "K", "1/ε") for f in ("proof", "paper")
    }
    lin = report["linear_fit"]
    assert lin["c1_ci"][0] <= lin["c1"] <= lin["c1_ci"][1]
    again = reproduce_thm43(TINY_THM43, tmp_path).to_dict()
    assert again["cells"] == {"computed": 0, "reused": 4}
    assert again["linear_fit"] == report["linear_fit"]
    with pytest.raises(ValueError, match="fit_T"):
        reproduce_thm43(Thm43Config(**{**TINY_THM43.__dict__, "fit_T": 5}), tmp_path)


def test_thm43_proof_form_by_hand() -> None:
    # gaps (0, 0.5, 0.25), T = 100, K = 3, ε = 2
    expected = math.log(100 * 3 * math.log(2.0)) * (2.0 + 0.5) + math.log(
        100 * 3 * math.log(4.0)
    ) * (4.0 + 0.5)
    assert thm43_proof_form([0.0, 0.5, 0.25], 100, 2.0) == pytest.approx(expected, rel=1e-14)
    with pytest.raises(ValueError, match="gaps"):
        thm43_proof_form([0.0, 0.0], 100, 1.0)


def test_linear_fit_recovers_known_coefficients_on_synthetic_data() -> None:
    """Data from ``c₁ x_gap + c₂ x_privacy`` (c₁ = 40, c₂ = 7) plus 2% noise: both in the 95% CIs."""
    rng = np.random.default_rng(123)
    x_gap = np.repeat(rng.uniform(100.0, 5_000.0, size=40), 5)
    x_priv = np.repeat(rng.uniform(50.0, 3_000.0, size=40), 5)
    y = (40.0 * x_gap + 7.0 * x_priv) * (1.0 + 0.02 * rng.standard_normal(x_gap.size))
    fit = thm43_linear_fit(x_gap, x_priv, y)
    assert fit["c1_ci"][0] <= 40.0 <= fit["c1_ci"][1]
    assert fit["c2_ci"][0] <= 7.0 <= fit["c2_ci"][1]
    assert fit["consistent"] and fit["positive"]
    too_big = thm43_linear_fit(x_gap, x_priv, 10.0 * (400.0 * x_gap + 70.0 * x_priv))
    assert not too_big["consistent"]  # c₁ = 4000 > 3·1024


def test_form_fit_recovers_a_known_exponent_on_synthetic_data() -> None:
    """``regret = 30 f^b`` with ``b = 0.8`` (f the Sec. 4 form over K) and log-normal noise."""
    rng = np.random.default_rng(7)
    Ks = np.array([3, 5, 10, 20])
    form = np.array([thm43_proof_form(np.r_[0.0, np.full(K - 1, 0.05)], 10**7, 0.25) for K in Ks])
    regrets = 30.0 * form[None, :] ** 0.8 * np.exp(0.05 * rng.standard_normal((12, Ks.size)))
    fit = fit_against_form("synthetic", Ks.astype(float), form, regrets, theorem_exponent="1")
    assert fit.ci_low <= 0.8 <= fit.ci_high
    assert fit.consistent
    steep = fit_against_form("steep", Ks.astype(float), form, regrets**1.5, theorem_exponent="1")
    assert steep.ci_low <= 1.2 <= steep.ci_high and not steep.consistent


def test_command_line_errors_and_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    sec5 = EXPERIMENTS[0]
    assert sec5.make_config(paper_scale=False, runs=None, n=None) == Sec5Config()
    assert all(e.parallel and e.gate is None for e in EXPERIMENTS)  # reported, not gated
    main = functools.partial(reproduce, by_name("sajed_sheffet"))
    assert main(["nope"], "x") == 2
    assert "error" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["sec5", "--runs", "1"], "x")
    assert exc.value.code == 2
    assert "argument --runs" in capsys.readouterr().err
    assert Sec5Config.paper().T == 50_000_000 and Sec5Config.paper().runs == 30
    assert Thm43Config.paper().runs == 30


TINY_STOPPING = StoppingConfig(
    alpha=0.5,
    epsilon=0.05,
    alphas=(0.1, 0.5),
    epsilons=(0.025, 0.05, 0.1, 0.2),
    ranges=(1.0, 2.0),
    runs=4,
    seed=3,
)


def test_stopping_tiny_run_flags_the_planted_rule_and_resumes(tmp_path: Path) -> None:
    """Slope test (one-sided 5%, clustered by replicate) on the ``1/ε`` grid against Thm 3.3's
    ``t_U``.  Known-good Algorithm 1: slope 1.01 [0.94, 1.08], consistent.  Broken (noise ∝ 1/ε²):
    slope 2.39 [2.31, 2.47], inconsistent (power: the CI lies 1.3 above 1).  Algorithm 2 halts only
    at powers of two and here every replicate halts at the same check, so its CI has zero width
    (reported, not a sampling statement): its planted slope 2.44 is still flagged; its correct
    slope (1.22) is not asserted.  Exceedance test (level 5%): no correct run exceeds ``τ_E`` or
    ``t_U``; the planted rule exceeds ``τ_E`` in 16 of 16 runs (p ≈ 1.5e-21)."""
    report = _written(reproduce_stopping(TINY_STOPPING, tmp_path), tmp_path)
    n_cells = 2 * 4  # 2 rules × (α, ε correct, ε planted, R)
    assert report["cells"] == {"computed": n_cells, "reused": 0}
    loaded = json.loads((tmp_path / "stopping.json").read_text())
    assert loaded == json.loads(json.dumps(to_jsonable(report)))
    fits = report["scaling_fits"]
    assert len(fits) == n_cells * 2
    good = fits["alg1 / correct / 1/ε / thm33"]
    assert good["consistent"] and not good["zero_width_ci"]
    bad = fits["alg1 / planted_eps2 / 1/ε / thm33"]
    assert not bad["consistent"] and bad["ci_low"] > 1.5 and not bad["zero_width_ci"]
    degenerate = fits["alg2 / correct / 1/ε / thm33"]
    assert degenerate["zero_width_ci"] and degenerate["replicates_identical"]
    assert "alg2 / correct / 1/ε / thm33" in report["summary"]["zero_width_fits"]
    for rule in ("alg1", "alg2"):
        assert report["planted_flagged"][rule] == {"thm33": True, "tau_E": True}
        assert fits[f"{rule} / planted_eps2 / 1/ε / tau_E"]["bound_violated"]
        assert fits[f"{rule} / planted_eps2 / 1/ε / thm33"]["slope"] > 2.0
    for key, f in fits.items():
        if "/ correct /" in key:
            assert f["max_over_form"] <= 1.0 and not f["bound_violated"]  # τ ≤ τ_E ≤ t_U
    md = (tmp_path / "stopping.md").read_text()
    assert "planted_eps2" in md and "Theorem 3.3" in md and "zero-width CI" in md
    again = reproduce_stopping(TINY_STOPPING, tmp_path).to_dict()
    assert again["cells"] == {"computed": 0, "reused": n_cells}
    assert again["scaling_fits"] == report["scaling_fits"]
    with pytest.raises(ValueError, match="another configuration"):
        reproduce_stopping(StoppingConfig(**{**TINY_STOPPING.__dict__, "runs": 3}), tmp_path)
    with pytest.raises(ValueError, match="epsilon must be one of"):
        reproduce_stopping(StoppingConfig(**{**TINY_STOPPING.__dict__, "epsilon": 0.3}), tmp_path)


def test_bound_exceedance_test_by_hand() -> None:
    taus = np.array([[10.0, 20.0], [30.0, 5.0], [10.0, 50.0]])
    form = np.array([20.0, 40.0])
    out = bound_exceedance_test(taus, form, 0.1)
    # two exceedances (30 > 20, 50 > 40) in 6 runs: p = Pr[Binomial(6, 0.1) ≥ 2]
    k = 2
    assert out["exceedances"] == k and out["runs_total"] == 6
    p = sum(math.comb(6, j) * 0.1**j * 0.9 ** (6 - j) for j in range(k, 7))
    assert out["exceedance_pvalue"] == pytest.approx(p, rel=1e-12)
    assert out["bound_violated"] == (p < 0.05)
    assert bound_exceedance_test(taus, 100.0 + form, 0.1)["exceedance_pvalue"] == 1.0


def test_stopping_registered_in_command_line() -> None:
    assert "stopping" in [e.name for e in EXPERIMENTS]
    assert StoppingConfig.paper().runs == 30 and StoppingConfig().runs == 10


def test_sec5_width_factors_add_paired_cells_and_the_sensitivity_table(tmp_path: Path) -> None:
    """``width_factors`` add one DP-UCB cell per K and factor (ε per tree, the main runs' seeds),
    reuse the cells stored without them, and give per ε the counts and the least factor at which
    '≥ 5×' holds everywhere."""
    base = reproduce_sec5(TINY_SEC5, tmp_path).to_dict()
    config = Sec5Config(**{**TINY_SEC5.__dict__, "width_factors": (0.5, 4.0)})
    report = _written(reproduce_sec5(config, tmp_path), tmp_path)
    assert report["cells"] == {"computed": 2 * 2, "reused": 7}
    assert report["settings"] == base["settings"]
    widths = report["width_sensitivity"]
    assert widths["factors"] == [0.5, 1.0, 4.0]
    at_one = {(r["instance"], r["K"], r["epsilon"]): r["ratio"] for r in widths["settings"]["1"]}
    for s in report["settings"]:
        assert at_one[(s["instance"], s["K"], s["epsilon"])] == pytest.approx(s["ratio_per_tree"])
    for eps in ("0.25", "1"):
        entry = widths["by_epsilon"][eps]
        assert all(sum(c.values()) == 2 * 2 for c in entry["counts"].values())
        least = entry["least_factor_holding_everywhere"]
        assert least is None or entry["counts"][f"{least:g}"]["holds"] == 4
    assert "## Width sensitivity" in (tmp_path / "sec5.md").read_text()
    with pytest.raises(ValueError, match="width_factors"):
        reproduce_sec5(Sec5Config(**{**TINY_SEC5.__dict__, "width_factors": (0.0,)}), tmp_path)


def test_sec5_verdicts_catch_a_short_ratio_and_keep_false_claims_rare() -> None:
    """Per setting, '≥ 5×' from Welch's interval of E[UCB] − 5·E[SE] (5 runs each, noise sd 3%):
    a true ratio of 8 holds and 3 fails in every one of 200 seeded batches; at exactly 5× it says
    "holds" in 2.1% of 4000 batches (nominal 2.5%: one side of a 95% interval)."""
    rng = np.random.default_rng(2028)

    def verdict(ratio: float) -> str:
        dpse = 1e4 * (1 + 0.03 * rng.standard_normal(5))
        ucb = ratio * 1e4 * (1 + 0.03 * rng.standard_normal(5))
        return str(_verdicts(dpse, ucb, 0.95)["at_least_5x"]["verdict"])

    assert all(verdict(8.0) == "holds" for _ in range(200))
    assert all(verdict(3.0) == "fails" for _ in range(200))
    false_holds = np.mean([verdict(5.0) == "holds" for _ in range(4000)])
    assert false_holds <= 0.025 + 3 * np.sqrt(0.025 * 0.975 / 4000)


def test_sec5_looks_extend_only_undecided_settings_with_the_following_seeds(tmp_path: Path) -> None:
    """With ``looks`` a setting whose verdict needs more runs gets the next look's runs (cells of
    their own, the seeds after its first ones: the same runs a larger first look would have had),
    every interval is at the plan's level, and each verdict records its plan status."""
    config = Sec5Config(**{**TINY_SEC5.__dict__, "looks": (2, 4)})
    report = reproduce_sec5(config, tmp_path).to_dict()
    m = len(TINY_SEC5.Ks) * len(TINY_SEC5.instances) * len(TINY_SEC5.epsilons)
    level = report["summary"]["per_tree"]["at_least_5x"]["per_setting_confidence"]
    assert level == pytest.approx(1 - 0.05 / (m * 2))
    for s in report["settings"]:
        statuses = [st for by in s["sequential"].values() for st in by.values()]
        assert s["runs"] in (2, 4) and all(st["runs"] == s["runs"] for st in statuses)
        if s["runs"] == 2:  # stopped at the first look: every verdict decided there
            assert all(st["state"] == "decided" for st in statuses)
    extended = [s for s in report["settings"] if s["runs"] == 4]
    assert extended, "the tiny grid must have a setting that needs more runs"
    s = extended[0]
    wide = Sec5Config(**{**TINY_SEC5.__dict__, "runs": 4, "instances": (s["instance"],),
                         "Ks": (s["K"],), "epsilons": (s["epsilon"],)})  # fmt: skip
    direct = reproduce_sec5(wide, tmp_path / "wide").to_dict()["settings"][0]
    assert direct["dpse"]["mean"] == pytest.approx(s["dpse"]["mean"], rel=1e-12)
    assert direct["dpucb_per_tree"]["mean"] == pytest.approx(s["dpucb_per_tree"]["mean"], rel=1e-12)
    with pytest.raises(ValueError, match="looks must start at runs"):
        reproduce_sec5(Sec5Config(**{**TINY_SEC5.__dict__, "looks": (3, 6)}), tmp_path / "bad")
    assert not (tmp_path / "bad" / "sec5_cells").exists()
