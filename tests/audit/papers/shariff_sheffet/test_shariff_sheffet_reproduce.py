"""Smoke tests of the App. D reproductions and Fig. 1 (tiny sizes; the documented reduced scale
runs in ``nox -s reproduce``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from audit.cli import main as privonline_main
from audit.papers.shariff_sheffet.repro_d2 import _indistinguishable, compare_with_printed
from audit.papers.shariff_sheffet.repro_d3 import _d3_no_effect_verdict
from audit.papers.shariff_sheffet.repro_fig1 import Fig1Config, reproduce_fig1
from audit.papers.shariff_sheffet.reproduce import (
    D1Config,
    D2AuthorsConfig,
    D2Config,
    D3AuthorsConfig,
    D3Config,
    ScalingConfig,
    d3_rho_grid,
    reproduce_d1,
    reproduce_d2,
    reproduce_d3,
    reproduce_scaling,
)
from audit.reproduce.report import ExperimentReport, write_report
from audit.results import SCHEMA_VERSION
from audit.stats import SequentialPlan
from reference.shariff_sheffet.regularizers import (
    PrivacyParameters,
    ProblemConstants,
    regularizer_spec,
)


def _written(report: ExperimentReport, out: Path) -> dict[str, Any]:
    """Write ``report`` into ``out`` as the command line does; its JSON document."""
    write_report(report, out)
    return report.to_dict()


def test_d1_writes_fit_plot_and_comparison(tmp_path: Path) -> None:
    config = D1Config(n=150, dims=(3, 5), runs=3, block_size=2, reward_models=("rademacher",))
    report = _written(reproduce_d1(config, tmp_path, executor="serial"), tmp_path)
    fit = report["results"]["rademacher"]["fit"]
    assert fit["ci_low"] <= fit["slope"] <= fit["ci_high"]
    assert len(report["results"]["rademacher"]["final_regret"]["5"]) == 3
    assert (tmp_path / "d1.png").stat().st_size > 0
    assert "roughly 2" in (tmp_path / "d1.md").read_text()
    assert json.loads((tmp_path / "d1.json").read_text())["experiment"] == "D.1"
    (check,) = report["checks"]
    low, high = fit["ci_low"], fit["ci_high"]
    expected = (
        "holds"
        if low >= 1.5 and high <= 2.5
        else "fails"
        if high < 1.5 or low > 2.5
        else "needs more runs"
    )
    assert check["verdict"] == expected and check["band"] == [1.5, 2.5]
    # Fig. 2: the mean regret curve per d ends at the mean final regret and never decreases
    curves = report["results"]["rademacher"]["mean_curve"]
    assert report["checkpoints"][-1] == 150
    for d, curve in curves.items():
        assert curve[-1] == pytest.approx(
            np.mean(report["results"]["rademacher"]["final_regret"][d])
        )
        assert np.all(np.diff(curve) >= -1e-12)


def test_fig1_draws_a_decision_set_in_its_band(tmp_path: Path) -> None:
    """Fig. 1: K = 1000 unit actions around θ* = (1,1,1)/√3, one optimal at 0.75, the rest in
    [−0.75, 0.65]; every check holds; a narrower band is refused by the sampler."""
    report = _written(reproduce_fig1(Fig1Config(), tmp_path), tmp_path)
    assert all(c["holds"] for c in report["checks"]) and len(report["checks"]) == 4
    arms, means = np.array(report["arms"]), np.array(report["means"])
    assert arms.shape == (1000, 3)
    theta = np.ones(3) / np.sqrt(3.0)
    np.testing.assert_allclose(arms @ theta, means, rtol=0, atol=1e-12)
    assert np.sum(means == means.max()) == 1 and means.max() == pytest.approx(0.75, abs=1e-12)
    assert np.delete(means, np.argmax(means)).min() >= -0.75
    assert np.delete(means, np.argmax(means)).max() <= 0.65
    with pytest.raises(ValueError, match="theta"):
        reproduce_fig1(Fig1Config(theta=(0.0, 0.0, 0.0)), tmp_path)
    with pytest.raises(ValueError, match="gap"):
        reproduce_fig1(Fig1Config(gap=1.6), tmp_path)


def test_d2_checks_and_resume(tmp_path: Path) -> None:
    config = D2Config(n=200, d=3, gaps=(0.0,), runs=2, block_size=1)
    report = _written(reproduce_d2(config, tmp_path, executor="serial"), tmp_path)
    cell = report["results"]["0.0"]
    assert set(cell) == {
        "nonprivate",
        "gaussian",
        "wishart",
        "wishart_unshifted",
        "gaussian_tight",
        "wishart_tight",
        "factorized",
    }
    assert "within 2×" in (tmp_path / "d2.md").read_text()
    assert "| 0.0 | factorized |" in (tmp_path / "d2.md").read_text()
    gates = [c for c in report["checks"] if c["gate"]]
    assert gates and all(c["holds"] for c in gates)  # NonPrivate smallest, even at n = 200
    # a second invocation loads every finished block and reproduces the numbers exactly
    again = reproduce_d2(config, tmp_path, executor="serial").to_dict()
    assert again["results"] == report["results"]
    # strict JSON (no NaN/Infinity tokens) with a schema version
    stored = json.loads((tmp_path / "d2.json").read_text(), parse_constant=_refuse_constant)
    assert stored["schema_version"] == SCHEMA_VERSION
    assert "At the reduced horizon" in (tmp_path / "d2.md").read_text()
    # a subset without the tight cells (as --set writes it): no empty tight-utility table
    subset = dataclasses.replace(
        config,
        variants=("nonprivate", "gaussian"),
        tight_gaussian=False,
        tight_wishart=False,
        factorized=False,
    )
    report = _written(reproduce_d2(subset, tmp_path, executor="serial"), tmp_path)
    assert set(report["results"]["0.0"]) == {"nonprivate", "gaussian"}
    assert "within 2×" not in (tmp_path / "d2.md").read_text()
    assert "within 3×" not in (tmp_path / "d2.md").read_text()
    # NonPrivate and the factorized source alone (more runs for 'within 3×'): no paper claim to
    # check, the ratio table still written (this subset used to crash on an empty conjunction)
    beyond = dataclasses.replace(subset, variants=("nonprivate",), factorized=True)
    report = _written(reproduce_d2(beyond, tmp_path, executor="serial"), tmp_path)
    assert set(report["results"]["0.0"]) == {"nonprivate", "factorized"}
    assert not [c for c in report["checks"] if "smallest" in c["claim"]]
    assert "| 0.0 | factorized |" in (tmp_path / "d2.md").read_text()
    assert "| paper's claim |" not in (tmp_path / "d2.md").read_text()  # no empty claims table


def test_d2_authors_code_runs_the_authors_variants_paired_with_d2(tmp_path: Path) -> None:
    config = dataclasses.replace(D2AuthorsConfig(), n=300, d=3, gaps=(0.0,), runs=2, block_size=2)
    report = _written(reproduce_d2(config, tmp_path, executor="serial"), tmp_path)
    assert report["config"]["compat"] == "authors_code"
    cell = report["results"]["0.0"]
    assert set(cell) == {
        "nonprivate",
        "gaussian",
        "wishart",
        "wishart_unshifted",
        "gaussian_opt",
        "wishart_opt",
        "wishart_authors_tree",
        "wishart_authors_constants",
        "wishart_unshifted_authors_tree",
        "wishart_unshifted_authors_constants",
    }
    text = (tmp_path / "d2_authors.md").read_text()
    assert "roshanshariff/PrivateBandits.jl" in text and "| wishart_opt |" in text
    # the paper's claims are judged on its four variants only (the Opt and ablation cells apart)
    claims = {c["claim"]: c for c in report["checks"]}
    worst = claims["Δ = 0: WishartUnshifted worst"]
    assert {d["smaller"] for d in worst["differences"]} == {"nonprivate", "gaussian", "wishart"}
    # NonPrivate is the same algorithm in both modes, on the same seeds: equal to d2's
    printed = reproduce_d2(
        D2Config(n=300, d=3, gaps=(0.0,), runs=2, block_size=2, variants=("nonprivate",),
                 tight_gaussian=False, tight_wishart=False, factorized=False),
        tmp_path / "printed",
        executor="serial",
    ).to_dict()  # fmt: skip
    assert printed["results"]["0.0"]["nonprivate"] == cell["nonprivate"]


def test_d3_authors_code_uses_the_authors_grid_and_pairs_with_d3(tmp_path: Path) -> None:
    config = D3AuthorsConfig(n=300, d=3, gaps=(0.0,), grid=(0.0, 1.0), runs=2, block_size=2)
    report = _written(reproduce_d3(config, tmp_path, executor="serial"), tmp_path)
    assert report["config"]["compat"] == "authors_code"
    assert (tmp_path / "d3_authors.md").exists()
    assert report["rho_min_grid"] != d3_rho_grid(dataclasses.replace(config, compat="paper"))
    paper = d3_rho_grid(D3AuthorsConfig.paper())
    assert [float(f"{r:.4g}") for r in paper] == [2.539e4, 3.614e7]  # experiment3.jl's ends
    with pytest.raises(ValueError, match="compat must be"):
        d3_rho_grid(D3Config(compat="authors"))  # type: ignore[arg-type]


def test_compare_with_printed_pairs_runs_and_refuses_unpaired_reports() -> None:
    conf = {"n": 10, "d": 2, "epsilon": 1.0, "delta": 0.1, "seed": 3}
    authors = {
        "config": {**conf, "compat": "authors_code"},
        "results": {"0.0": {"wishart": {"final": [12.0, 14.0, 13.0]}, "wishart_opt": {}}},
    }
    printed = {
        "config": conf,
        "results": {"0.0": {"wishart": {"final": [10.0, 11.0, 10.5, 99.0]}}},
    }
    (row,) = compare_with_printed(authors, printed)
    assert row["runs"] == 3 and row["variant"] == "wishart"
    assert row["difference"] == pytest.approx(2.5, abs=1e-12)
    assert row["authors_code"] == "above"
    assert row["ratio"] == pytest.approx(13.0 / 10.5, rel=1e-12)
    with pytest.raises(ValueError, match=r"not paired: config \['seed'\]"):
        compare_with_printed(authors, {**printed, "config": {**conf, "seed": 4}})
    with pytest.raises(ValueError, match="d2_authors report"):
        compare_with_printed(printed, printed)


def test_d2_compat_refuses_mixed_configurations(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="tight_gaussian, tight_wishart and factorized"):
        reproduce_d2(dataclasses.replace(D2AuthorsConfig(), tight_gaussian=True), tmp_path)
    with pytest.raises(ValueError, match="need compat='authors_code'"):
        reproduce_d2(D2Config(variants=("wishart_opt",)), tmp_path)
    with pytest.raises(ValueError, match="compat must be"):
        reproduce_d2(D2Config(compat="authors"), tmp_path)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ablation needs"):
        reproduce_d2(D2Config(ablation=True), tmp_path)
    assert not any(tmp_path.iterdir())


def _refuse_constant(token: str) -> None:
    raise ValueError(f"non-standard JSON token {token}")


def test_d2_refuses_a_single_run_before_any_work(tmp_path: Path) -> None:
    # one run has no standard error: the report used to carry NaN for every final_se
    with pytest.raises(ValueError, match="runs must be an integer >= 2, got 1"):
        reproduce_d2(D2Config(n=200, d=3, gaps=(0.0,), runs=1), tmp_path / "d2")
    assert not (tmp_path / "d2").exists()


def test_reproduce_cli_rejects_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert privonline_main(["reproduce", "d4"]) == 2
    assert (
        "experiments must be among fig1, d1, d2, d2_authors, d3, d3_authors, scaling"
        in capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as exc:
        privonline_main(["reproduce", "--runs", "1"])
    assert exc.value.code == 2
    assert "argument --runs: must be an integer >= 2" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        privonline_main(["reproduce", "--executor", "thread"])
    assert exc.value.code == 2
    assert "argument --executor: must be 'serial', 'processes' or a Dask" in capsys.readouterr().err


@pytest.mark.parametrize("paper", ["zhou-tan", "agarwal-singh", "sajed-sheffet"])
def test_reproduce_routes_the_other_papers(paper: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        privonline_main(["reproduce", paper, "--help"])
    assert exit_info.value.code == 0
    assert f"privonline reproduce {paper}" in capsys.readouterr().out


def test_d3_regret_vs_shift_writes_its_report(tmp_path: Path) -> None:
    config = D3Config(n=120, d=3, grid=(0.0, 1.0), runs=2, block_size=1)
    rhos = d3_rho_grid(config)
    # the grid's ends are the Gaussian ρ_min (Υ) and the unshifted Wishart ρ_min at this n
    constants, privacy = ProblemConstants(d=3), PrivacyParameters(1.0, 0.1)
    _, g = regularizer_spec("gaussian", constants, 120, 1 / 120, privacy)
    _, w = regularizer_spec("wishart_unshifted", constants, 120, 1 / 120, privacy)
    assert rhos == pytest.approx([g.rho_min, w.rho_min], rel=1e-12)
    report = _written(reproduce_d3(config, tmp_path, executor="serial"), tmp_path)
    assert set(report["final_regret_mean"]) == {"gaussian", "wishart"}
    assert len(report["final_regret_mean"]["wishart"]["0.1"]) == 2
    assert (tmp_path / "d3.png").stat().st_size > 0 and "max / min" in (
        tmp_path / "d3.md"
    ).read_text()
    # per-run finals kept; each mechanism's claim has a Welch verdict on the per-run effects
    runs = report["final_regret"]["wishart"]["0.0"]
    assert [len(r) for r in runs] == [2, 2]  # grid point, run
    assert len(report["checks"]) == 4  # per mechanism: 'more at the small gap', 'none at the large'
    for check in report["checks"]:
        assert check["verdict"] in {"holds", "fails", "needs more runs"}
        centre = check.get("difference", check.get("mean_log_ratio"))
        if check["ci_95"] is not None:
            assert check["ci_95"][0] <= centre <= check["ci_95"][1]
    # the signed effect at the largest gap, by hand: ln(R(first ρ)/R(last ρ)) per run
    large = np.array(report["final_regret"]["wishart"]["0.1"])
    no_effect = next(
        c for c in report["checks"] if c["claim"].startswith("wishart: the shift does")
    )
    assert no_effect["mean_log_ratio"] == pytest.approx(float(np.mean(np.log(large[0] / large[1]))))
    assert (no_effect["verdict"] == "fails") == (
        no_effect["ci_95"][0] > 0 or no_effect["ci_95"][1] < 0
    )


def test_scaling_writes_its_report_and_resumes_from_its_cells(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = ScalingConfig(
        n=300, d=2, num_arms=4, dims=(2, 3), epsilons=(1.0, 4.0), gaps=(0.1,),
        privacy_cells=(("gaussian", "tight"),), runs=3,
    )  # fmt: skip
    report = _written(reproduce_scaling(config, tmp_path), tmp_path)
    keys = [row["key"] for row in report["fits"]]
    assert keys[:2] == [
        "eps_gaussian_tight_gap0.1",
        "eps_gaussian_tight_gap0.1_planted_eps_squared",
    ]
    assert {row["gate"] for row in report["fits"]} == {"consistent", "inconsistent", "report"}
    assert all(row["holds"] for row in report["fits"] if row["gate"] == "report")
    assert (tmp_path / "scaling.png").stat().st_size > 0
    assert "| fit | b |" in (tmp_path / "scaling.md").read_text()

    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("a cached scaling cell was recomputed")

    for name in ("regret_scaling_in_privacy", "regret_scaling_in_dimension", "regret_scaling_in_n"):
        monkeypatch.setattr(f"audit.papers.shariff_sheffet.repro_scaling.{name}", must_not_run)
    assert reproduce_scaling(config, tmp_path).to_dict() == report


def test_d3_no_effect_verdict_false_alarms_and_power() -> None:
    """'The shift does not matter at the largest gap': with no effect (both grid ends drawn from
    one log-normal law, sd 0.1 in log, 5 runs) the verdict says "fails" in 5.07% of 20 000 seeded
    batches, the nominal 5% of a two-sided 95% interval within sampling error; a planted effect of ×1.6 (the
    Gaussian tree's at the paper's n) is caught in every one of 200 batches."""
    rng = np.random.default_rng(2027)

    def batch(factor: float) -> list[list[float]]:
        base = 1e4 * np.exp(0.1 * rng.standard_normal(5))
        return [list(base * factor * np.exp(0.1 * rng.standard_normal(5))), list(base)]

    alarms = [_d3_no_effect_verdict(batch(1.0))["verdict"] == "fails" for _ in range(20_000)]
    assert np.mean(alarms) <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 20_000)
    assert all(_d3_no_effect_verdict(batch(1.6))["verdict"] == "fails" for _ in range(200))
    assert _d3_no_effect_verdict([[1.0], [1.0]])["verdict"] == "needs more runs"


def test_d2_equivalence_claim_decides_and_keeps_its_error_rate() -> None:
    """D.2's "indistinguishable" claim: equal means hold, a 2× gap fails, few noisy runs need more
    runs, and at the edge of the band (true ratio 0.8) "holds" is rare: its rate, simulated with
    fixed seeds, stays near the 2.5% the one-sided tail of the 95% interval allows."""

    def one_look(unshifted: Any, shifted: Any) -> str:
        plan = SequentialPlan((len(unshifted),))
        return str(_indistinguishable(list(unshifted), list(shifted), plan)["verdict"])

    rng = np.random.default_rng(20240)
    base = 1000.0 + 50.0 * rng.standard_normal(40)
    assert one_look(base * 1.01, base) == "holds"
    assert one_look(base * 0.5, base) == "fails"
    noisy = base[:3] * np.array([0.3, 1.8, 1.0])
    assert one_look(noisy, base[:3]) == "needs more runs"
    # broken variant: reading a non-rejection of "no difference" as equivalence would pass this
    assert one_look(noisy, base[:3]) != "holds"
    false_holds = 0
    trials = 2000
    for _ in range(trials):
        shifted = 1000.0 + 100.0 * rng.standard_normal(5)
        unshifted = 0.8 * shifted + 20.0 * rng.standard_normal(5)
        false_holds += one_look(unshifted, shifted) == "holds"
    assert false_holds / trials <= 0.04  # nominal 0.025; Monte-Carlo s.e. 0.0035


def _sequential_equivalence(
    rng: np.random.Generator, ratio: float, plan: SequentialPlan, noise: float
) -> tuple[str, int]:
    """One simulated D.2 equivalence claim run through ``plan``: (final verdict, runs used)."""
    shifted = 1000.0 + 100.0 * rng.standard_normal(plan.cap)
    unshifted = ratio * shifted + noise * rng.standard_normal(plan.cap)
    for runs in plan.looks:
        check = _indistinguishable(list(unshifted[:runs]), list(shifted[:runs]), plan)
        if check["sequential"]["state"] != "more runs":
            return str(check["verdict"]), runs
    raise AssertionError("a plan always ends at its cap")


def test_d2_equivalence_sequential_plan_keeps_its_level_and_decides() -> None:
    """The looks 5, 10, 20, 35 of the committed D.2 plan, with stopping at the first decided look.
    At the band's edge (true ratio 0.8) the rate of a false "holds" stays at or under the nominal
    2.5% (one tail of α = 0.05) by simulation with fixed seeds (measured 2.15%); the broken rule --
    every look at 95% -- exceeds it (7.85%); an equal pair (ratio 1) noisy enough to need later
    looks is decided "holds" by the cap in ≥ 95% of trials."""
    plan = SequentialPlan((5, 10, 20, 35))
    naive = [SequentialPlan((runs,)) for runs in plan.looks]
    rng = np.random.default_rng(20241)
    trials = 2000
    false_holds = naive_false_holds = 0
    for _ in range(trials):
        child = np.random.default_rng(rng.integers(2**63))
        false_holds += _sequential_equivalence(child, 0.8, plan, 20.0)[0] == "holds"
        # broken: each look judged at 95% as if it were the only one
        shifted = 1000.0 + 100.0 * child.standard_normal(plan.cap)
        unshifted = 0.8 * shifted + 20.0 * child.standard_normal(plan.cap)
        naive_false_holds += any(
            _indistinguishable(list(unshifted[: p.cap]), list(shifted[: p.cap]), p)["verdict"]
            == "holds"
            for p in naive
        )
    assert false_holds / trials <= 0.025 + 0.008  # Monte-Carlo s.e. ≈ 0.0035
    assert naive_false_holds / trials > 0.04
    assert naive_false_holds > 1.5 * false_holds
    decided = [_sequential_equivalence(rng, 1.0, plan, 150.0) for _ in range(400)]
    assert sum(v == "holds" for v, _ in decided) / len(decided) >= 0.95
    assert sum(runs > plan.looks[0] for _, runs in decided) > 100  # later looks do the work


def test_d2_equivalence_plan_checks_its_runs() -> None:
    from audit.papers.shariff_sheffet.repro_d2 import D2AuthorsConfig, equivalence_plan

    paper = D2AuthorsConfig.paper()
    assert equivalence_plan(paper).looks == (5, 10, 20, 35)
    assert equivalence_plan(dataclasses.replace(paper, equivalence_runs=20)).cap == 35
    assert equivalence_plan(D2AuthorsConfig()).looks == (6,)  # one look at runs, 95%
    with pytest.raises(ValueError, match=r"^equivalence_runs must be one of the planned"):
        equivalence_plan(dataclasses.replace(paper, equivalence_runs=7))
    with pytest.raises(ValueError, match=r"^equivalence_runs must be 0 or at least runs=10"):
        equivalence_plan(dataclasses.replace(paper, runs=10, equivalence_runs=5))
