"""Sajed & Sheffet (ICML 2019) experiment ``sec5``: the paper's experiments (Sec. 5), DP-SE
(Algorithm 3) against the DP-UCB baseline in both calibrations on the instances C1-C4.
Overview in :mod:`audit.papers.sajed_sheffet.reproduce`.

Proof note: ``proofs_notes/audit/reproduce_sajed_sheffet.md``.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import numpy as np

from audit.papers.sajed_sheffet.repro_cells import (
    _PAPER_T,
    _SPEC_EPSILONS,
    PAPER_RATIO_CLAIM,
    SPEC_DPSE_TABLE,
    CellSpec,
    Sec5Config,
    SpecCellStore,
    _report,
    _split_rows,
)
from audit.reproduce.report import ExperimentReport
from audit.results import to_jsonable
from audit.stats import (
    OrderVerdict,
    SequentialPlan,
    all_orders,
    is_constant_sample,
    welch_order,
)
from reference._typing import FloatArray, IntArray
from reference.engine.mab import regret_checkpoints
from reference.validation import check_int_at_least, check_positive

__all__ = [
    "reproduce_sec5",
]


# --------------------------------------------------------------------------------------------
# sec5: DP-SE vs DP-UCB
# --------------------------------------------------------------------------------------------


def _sec5_specs(config: Sec5Config) -> list[CellSpec]:
    settings = tuple((i, e) for i in config.instances for e in config.epsilons)
    specs: list[CellSpec] = []
    for K in config.Ks:
        specs.append(
            CellSpec(f"dpse_K{K}", "dpse", config.T, K, settings, config.runs, config.seed, "dpse")
        )
        main = CellSpec(f"dpucb_K{K}", "dpucb", config.T, K, settings, config.runs, config.seed,
                        "dpucb", calibrations=tuple(config.calibrations))  # fmt: skip
        specs.append(main)
        specs += [
            dataclasses.replace(
                main, name=_width_cell(K, factor), calibrations=("per_tree",), width_factor=factor
            )
            for factor in config.width_factors
            if factor != 1.0  # the main cell
        ]
        if config.dpse_paper_T > 0 and config.prefix_rounds > 0 and config.prefix_K == K:
            specs.append(
                CellSpec(
                    f"dpucb_paperT_prefix_K{K}",
                    "dpucb",
                    config.dpse_paper_T,
                    K,
                    tuple((i, config.prefix_epsilon) for i in config.instances),
                    config.prefix_runs,
                    config.seed,
                    "dpucb",
                    calibrations=tuple(config.calibrations),
                    checkpoints=False,
                    rounds=config.prefix_rounds,
                )
            )
        if config.dpse_paper_T > 0:
            specs.append(
                CellSpec(
                    f"dpse_paperT_K{K}",
                    "dpse",
                    config.dpse_paper_T,
                    K,
                    settings,
                    config.dpse_paper_runs,
                    config.seed,
                    "dpse_paper_T",
                    checkpoints=False,
                )
            )
    return specs


def _width_cell(K: int, factor: float) -> str:
    """Name of the DP-UCB cell with ``γ`` times ``factor`` (``ε`` per tree)."""
    return f"dpucb_K{K}_width{factor:g}"


FAMILY_CONFIDENCE = 0.95
"""Familywise level of the Sec. 5 verdicts: each setting's interval is at ``1 − 0.05/m`` for the
``m`` settings of a calibration (Bonferroni), so the whole table of verdicts is right with
probability ``≥ 0.95``."""


def _order(smaller: FloatArray, larger: FloatArray, confidence: float) -> OrderVerdict:
    """:func:`~audit.stats.welch_order`; two constant samples (:func:`~audit.stats.
    is_constant_sample`: DP-SE's regret is often the same sum of gaps in every run) have no
    interval, and the setting needs more runs."""
    if is_constant_sample(smaller) and is_constant_sample(larger):
        gap = float(np.mean(larger) - np.mean(smaller))
        return OrderVerdict("needs more runs", gap, gap, gap, confidence)
    return welch_order(smaller, larger, confidence)


def _verdicts(dpse: FloatArray, ucb: FloatArray, confidence: float) -> dict[str, dict[str, Any]]:
    """The paper's Sec. 5 statement on one setting: ``E[DP-UCB] ≥ 5·E[DP-SE]`` (Welch interval of
    ``E[DP-UCB] − 5·E[DP-SE]``, the runs of the two algorithms being independent) and the weaker
    ``E[DP-SE] < E[DP-UCB]``."""
    five = _order(PAPER_RATIO_CLAIM * dpse, ucb, confidence)
    better = _order(dpse, ucb, confidence)
    return {"at_least_5x": to_jsonable(five), "dpse_better": to_jsonable(better)}


def _stats(values: FloatArray) -> dict[str, float]:
    v = np.asarray(values, dtype=np.float64)
    sd = float(v.std(ddof=1)) if v.size > 1 else 0.0
    return {"mean": float(v.mean()), "sd": sd, "se": sd / math.sqrt(v.size)}


def reproduce_sec5(config: Sec5Config, out: Path, *, executor: str = "serial") -> ExperimentReport:
    """Run Sec. 5 (cells into ``out``): the report of ``sec5.json``, ``.png`` and ``.md``."""
    check_int_at_least("runs", config.runs, 2)
    out.mkdir(parents=True, exist_ok=True)
    n_set = len(config.instances) * len(config.epsilons)
    plan = _plan(config, len(config.Ks) * n_set)  # checked before anything runs
    for factor in config.width_factors:
        check_positive("width_factors", factor)
    store = SpecCellStore(out / "sec5_cells")
    cells = store.run(_sec5_specs(config), executor)
    marks = regret_checkpoints(config.T)
    settings: list[dict[str, Any]] = []
    per_setting = 1.0 - (1.0 - FAMILY_CONFIDENCE) / (len(config.Ks) * n_set)
    if plan is not None:
        per_setting = plan.confidence
    orders: dict[str, dict[str, list[OrderVerdict]]] = {
        cal: {"at_least_5x": [], "dpse_better": []} for cal in config.calibrations
    }
    for K in config.Ks:
        blocks: dict[str, dict[str, list[FloatArray]]] = {}
        dpse = cells[f"dpse_K{K}"]
        blocks["dpse"] = {
            "final": _split_rows(dpse["final"], n_set, config.runs),
            "curve": _split_rows(dpse["regret"], n_set, config.runs),
        }
        ucb = cells[f"dpucb_K{K}"]
        size = n_set * config.runs
        for c, cal in enumerate(config.calibrations):  # one block of rows per calibration
            rows = slice(c * size, (c + 1) * size)
            blocks[f"dpucb_{cal}"] = {
                "final": _split_rows(ucb["final"][rows], n_set, config.runs),
                "curve": _split_rows(ucb["regret"][rows], n_set, config.runs),
            }
        paper_T = (
            _split_rows(cells[f"dpse_paperT_K{K}"]["final"], n_set, config.dpse_paper_runs)
            if config.dpse_paper_T > 0
            else None
        )
        for j, (instance, eps) in enumerate(
            (i, e) for i in config.instances for e in config.epsilons
        ):
            entry: dict[str, Any] = {"instance": instance, "K": K, "epsilon": eps}
            dpse_final = blocks["dpse"]["final"][j]
            ucb_finals: dict[str, FloatArray] = {
                cal: blocks[f"dpucb_{cal}"]["final"][j] for cal in config.calibrations
            }
            if plan is not None:
                dpse_final, ucb_finals, entry["sequential"] = _extend_setting(
                    config, store, executor, plan, (K, instance, eps), dpse_final, ucb_finals
                )
                entry["runs"] = int(dpse_final.size)
            dpse_stats = _stats(dpse_final)
            entry["dpse"] = dpse_stats
            entry["curves"] = {k: b["curve"][j].mean(axis=0).tolist() for k, b in blocks.items()}
            for cal in config.calibrations:
                ucb_final = ucb_finals[cal]
                ucb_stats = _stats(ucb_final)
                entry[f"dpucb_{cal}"] = ucb_stats
                entry[f"ratio_{cal}"] = ucb_stats["mean"] / dpse_stats["mean"]
                entry[f"verdicts_{cal}"] = _verdicts(dpse_final, ucb_final, per_setting)
                for claim in ("at_least_5x", "dpse_better"):
                    orders[cal][claim].append(OrderVerdict(**entry[f"verdicts_{cal}"][claim]))
            if paper_T is not None:
                entry["dpse_paper_T"] = _stats(paper_T[j])
                spec_row = SPEC_DPSE_TABLE.get((instance, K))
                if spec_row is not None and eps in _SPEC_EPSILONS:
                    ref_mean, ref_sd = spec_row[_SPEC_EPSILONS.index(eps)]
                    ours = entry["dpse_paper_T"]
                    tol = 0.5 + 3.0 * math.hypot(ours["se"], ref_sd / math.sqrt(30))
                    entry["spec_dpse"] = {
                        "mean": ref_mean,
                        "sd": ref_sd,
                        "agrees": abs(ours["mean"] - ref_mean) <= tol,
                    }
            settings.append(entry)
    summary: dict[str, Any] = {}
    for cal in config.calibrations:
        ratios = np.array([s[f"ratio_{cal}"] for s in settings])
        summary[cal] = {
            "min_ratio": float(ratios.min()),
            "median_ratio": float(np.median(ratios)),
            "max_ratio": float(ratios.max()),
            "settings_at_least_5x": int(np.sum(ratios >= PAPER_RATIO_CLAIM)),
            "settings_dpse_better": int(np.sum(ratios > 1.0)),
            "settings": int(ratios.size),
        }
        for claim in ("at_least_5x", "dpse_better"):
            found = [o.verdict for o in orders[cal][claim]]
            summary[cal][claim] = {
                "verdict_all_settings": all_orders(orders[cal][claim]),
                "holds": found.count("holds"),
                "fails": found.count("fails"),
                "needs_more_runs": found.count("needs more runs"),
                "per_setting_confidence": per_setting,
                "family_confidence": FAMILY_CONFIDENCE,
            }
    spec_checked = [s["spec_dpse"]["agrees"] for s in settings if "spec_dpse" in s]
    prefix = _prefix_bounds(config, cells, settings)
    widths = (
        _width_sensitivity(config, cells, settings, per_setting) if config.width_factors else {}
    )
    payload: dict[str, Any] = {
        "checkpoints": marks.tolist(),
        "settings": settings,
        "summary": summary,
        "spec_dpse_table_agreement": {"agree": int(sum(spec_checked)), "of": len(spec_checked)},
        "paper_T_ratio_lower_bounds": prefix,
        "width_sensitivity": widths,
    }
    return _report(
        "sec5",
        config,
        payload,
        store,
        lambda plt: _sec5_plot(plt, config, settings, marks),
        _sec5_markdown,
    )


def _plan(config: Sec5Config, settings: int) -> SequentialPlan | None:
    """The plan of ``config.looks`` (``None`` without looks), its family level shared by the
    ``settings`` (Bonferroni): every look's interval is at ``1 − 0.05/(settings · looks)``."""
    if not config.looks:
        return None
    plan = SequentialPlan(tuple(config.looks), (1.0 - FAMILY_CONFIDENCE) / settings)
    if plan.looks[0] != config.runs:
        raise ValueError(f"looks must start at runs = {config.runs}, got {list(config.looks)}")
    return plan


def _extend_setting(
    config: Sec5Config,
    store: SpecCellStore,
    executor: str,
    plan: SequentialPlan,
    setting: tuple[int, str, float],
    dpse: FloatArray,
    ucb: dict[str, FloatArray],
) -> tuple[FloatArray, dict[str, FloatArray], dict[str, dict[str, Any]]]:
    """One setting's runs extended look by look while one of its verdicts needs more runs: the
    next look's runs of both algorithms (the seeds after its first ones, cells of their own), up
    to the plan's cap; the final samples and each verdict's :meth:`SequentialPlan.status`."""
    K, instance, eps = setting
    cals: tuple[str, ...] = tuple(config.calibrations)
    ucb = dict(ucb)
    while True:
        runs = int(dpse.size)
        verdicts = {cal: _verdicts(dpse, ucb[cal], plan.confidence) for cal in cals}
        undecided = any(v["verdict"] == "needs more runs" for d in verdicts.values()
                        for v in d.values())  # fmt: skip
        if not undecided or runs == plan.cap:
            break
        more = plan.looks[plan.look(runs)] - runs
        tag = f"K{K}_{instance}_e{eps:g}_runs{runs}to{runs + more}"
        one = ((instance, eps),)
        new = store.run([
            CellSpec(f"more_dpse_{tag}", "dpse", config.T, K, one, more, config.seed, "dpse",
                     checkpoints=False, first_run=runs),
            CellSpec(f"more_dpucb_{tag}", "dpucb", config.T, K, one, more, config.seed, "dpucb",
                     calibrations=cals, checkpoints=False, first_run=runs),
        ], executor)  # fmt: skip
        dpse = np.concatenate([dpse, new[f"more_dpse_{tag}"]["final"]])
        for c, cal in enumerate(cals):
            added = new[f"more_dpucb_{tag}"]["final"][c * more : (c + 1) * more]
            ucb[cal] = np.concatenate([ucb[cal], added])
    status = {
        cal: {claim: plan.status(v["verdict"], runs) for claim, v in verdicts[cal].items()}
        for cal in cals
    }
    return dpse, ucb, status


def _width_sensitivity(
    config: Sec5Config,
    cells: dict[str, dict[str, FloatArray]],
    settings: list[dict[str, Any]],
    per_setting: float,
) -> dict[str, Any]:
    """'≥ 5×' against DP-UCB (``ε`` per tree) with ``γ`` times each width factor (1 included,
    from the main cells), setting by setting at the table's Bonferroni level on the first look's
    runs (``config.runs``; the width cells get no added runs), and per ``ε`` the least factor of
    the grid at which it holds in every setting (``None``: at none)."""
    n_set = len(config.instances) * len(config.epsilons)
    factors = sorted({1.0, *config.width_factors})
    per_factor: dict[float, list[dict[str, Any]]] = {f: [] for f in factors}
    for K in config.Ks:
        dpse = _split_rows(cells[f"dpse_K{K}"]["final"], n_set, config.runs)
        for factor in factors:
            if factor == 1.0:
                ucb = _split_rows(cells[f"dpucb_K{K}"]["final"][: n_set * config.runs], n_set,
                                  config.runs)  # fmt: skip
            else:
                ucb = _split_rows(cells[_width_cell(K, factor)]["final"], n_set, config.runs)
            for j, (instance, eps) in enumerate(
                (i, e) for i in config.instances for e in config.epsilons
            ):
                verdict = _verdicts(dpse[j], ucb[j], per_setting)["at_least_5x"]["verdict"]
                per_factor[factor].append({
                    "instance": instance, "K": K, "epsilon": eps,
                    "ratio": float(np.mean(ucb[j]) / np.mean(dpse[j])), "at_least_5x": verdict,
                })  # fmt: skip
    by_epsilon: dict[str, Any] = {}
    for eps in config.epsilons:
        row: dict[str, Any] = {}
        for factor in factors:
            found = [r["at_least_5x"] for r in per_factor[factor] if r["epsilon"] == eps]
            row[f"{factor:g}"] = {v: found.count(v) for v in ("holds", "fails", "needs more runs")}
        size = sum(1 for r in per_factor[1.0] if r["epsilon"] == eps)
        everywhere = [f for f in factors if row[f"{f:g}"]["holds"] == size]
        by_epsilon[f"{eps:g}"] = {"counts": row, "least_factor_holding_everywhere": (
            min(everywhere) if everywhere else None)}  # fmt: skip
    return {
        "factors": factors,
        "per_setting_confidence": per_setting,
        "by_epsilon": by_epsilon,
        "settings": {f"{f:g}": per_factor[f] for f in factors},
    }


def _prefix_bounds(
    config: Sec5Config, cells: dict[str, dict[str, FloatArray]], settings: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Lower bounds on the paper-scale DP-UCB/DP-SE ratio from DP-UCB's first rounds (class doc)."""
    name = f"dpucb_paperT_prefix_K{config.prefix_K}"
    if name not in cells or config.prefix_epsilon not in config.epsilons:
        return []
    arrays = cells[name]
    n_inst = len(config.instances)
    size = n_inst * config.prefix_runs
    bounds: list[dict[str, Any]] = []
    for j, instance in enumerate(config.instances):
        entry = next(
            s
            for s in settings
            if (s["instance"], s["K"], s["epsilon"])
            == (instance, config.prefix_K, config.prefix_epsilon)
        )
        dpse_mean = float(entry["dpse_paper_T"]["mean"])
        row: dict[str, Any] = {
            "instance": instance,
            "K": config.prefix_K,
            "epsilon": config.prefix_epsilon,
            "T": config.dpse_paper_T,
            "rounds_simulated": config.prefix_rounds,
            "dpse_final_regret_at_T": dpse_mean,
        }
        for c, cal in enumerate(config.calibrations):
            block = arrays["final"][c * size : (c + 1) * size]
            runs = _split_rows(block, n_inst, config.prefix_runs)[j]
            prefix_mean = float(runs.mean())
            row[f"dpucb_{cal}_regret_after_prefix"] = _stats(runs)
            row[f"ratio_lower_bound_{cal}"] = prefix_mean / dpse_mean
            row[f"at_least_5x_established_{cal}"] = prefix_mean / dpse_mean >= PAPER_RATIO_CLAIM
        bounds.append(row)
    return bounds


def _sec5_plot(
    plt: Any, config: Sec5Config, settings: list[dict[str, Any]], marks: IntArray
) -> Any:
    eps = 0.25 if 0.25 in config.epsilons else config.epsilons[0]
    rows, cols = len(config.Ks), len(config.instances)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
    styles = {"dpse": "-", "dpucb_per_tree": "--", "dpucb_split": ":"}
    labels = {
        "dpse": "DP-SE",
        "dpucb_per_tree": "DP-UCB (ε per tree)",
        "dpucb_split": "DP-UCB (ε/K)",
    }
    for s in settings:
        if s["epsilon"] != eps:
            continue
        ax = axes[config.Ks.index(s["K"])][config.instances.index(s["instance"])]
        for key, curve in s["curves"].items():
            ax.plot(marks, curve, styles.get(key, "-"), label=labels.get(key, key))
        ax.set_title(f"{s['instance']}, K = {s['K']}, ε = {eps}", fontsize=9)
        ax.set_xlabel("t")
        ax.set_ylabel("mean pseudo-regret")
        ax.ticklabel_format(style="sci", scilimits=(0, 0))
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"Sajed & Sheffet Sec. 5, T = {config.T:.0e}, {config.runs} runs")
    fig.tight_layout()
    return fig


def _width_markdown(widths: dict[str, Any]) -> list[str]:
    """The width-sensitivity section of ``sec5.md`` (none without width factors)."""
    if not widths:
        return []
    lines: list[str] = []
    factors = [f"{f:g}" for f in widths["factors"]]
    lines += [
        "",
        "## Width sensitivity: '≥ 5×' against DP-UCB (ε per tree) with γ times c",
        "",
        "The paper states no DP-UCB width; γ here is a reconstruction (a union bound over the "
        "K·T releases). Every column reruns DP-UCB on the main runs' seeds with γ times c "
        "(privacy does not depend on c: γ only post-processes the releases); each cell "
        "counts the settings at that ε where '≥ 5×' holds / fails / needs more runs, at the "
        "table's Bonferroni level, on the first look's runs for every c (so with `looks` "
        "the c = 1 column can differ from the table above, whose undecided settings got "
        "more runs). Last column: the least c of this grid at which it holds in every "
        "setting.",
        "",
        "| ε | " + " | ".join(f"c = {f}" for f in factors) + " | least c, all hold |",
        "|---|" + "---|" * len(factors) + "---|",
    ]
    for eps, entry in widths["by_epsilon"].items():
        cells_text = " | ".join(
            "{holds} / {fails} / {more}".format(
                holds=entry["counts"][f]["holds"],
                fails=entry["counts"][f]["fails"],
                more=entry["counts"][f]["needs more runs"],
            )
            for f in factors
        )
        least = entry["least_factor_holding_everywhere"]
        lines.append(f"| {eps} | {cells_text} | {'none' if least is None else f'{least:g}'} |")
    return lines


def _sec5_markdown(config: Sec5Config, report: dict[str, Any]) -> tuple[str, ...]:
    cals = config.calibrations
    lines = [
        "# Sajed & Sheffet Sec. 5 reproduction: DP-SE vs DP-UCB",
        "",
        f"T = {config.T}, β = 1/T, {config.runs} runs per setting, Bernoulli instances "
        f"{', '.join(config.instances)}, K ∈ {list(config.Ks)}, ε ∈ {list(config.epsilons)}. "
        f"Paper: T = 5·10⁷, 30 runs. Both algorithms run on the compiled engine "
        "(`reference.engine.compiled`, the reference's choices on the same seeds); "
        + (
            "this is the paper's scale."
            if config.T == _PAPER_T
            else "at the reduced T the comparison is at a shorter horizon than the paper's: "
            "DP-UCB's confidence width γ/n_a (γ ∝ log^2 T/ε) keeps it close to round-robin for "
            "most of the horizon and DP-SE has not finished its epochs for large K, so the ratios "
            "are not the paper's."
        ),
        "",
        "DP-UCB calibrations: `per_tree` (ε per tree) is the correct and sufficient one for "
        "event-level ε-DP (each reward enters one arm's tree; parallel composition); `split` "
        "(ε/K per tree) is K times noisier than needed.",
        "",
        "## Ratio DP-UCB / DP-SE (mean final regret) beside the paper's claim '≥ 5×' (Sec. 5)",
        "",
        "| calibration | min | median | max | settings ≥ 5× | DP-SE better | settings |",
        "|---|---|---|---|---|---|---|",
    ]
    for cal in cals:
        s = report["summary"][cal]
        lines.append(
            f"| {cal} | {s['min_ratio']:.2f} | {s['median_ratio']:.2f} | {s['max_ratio']:.2f} | "
            f"{s['settings_at_least_5x']} | {s['settings_dpse_better']} | {s['settings']} |"
        )
    first = report["summary"][cals[0]]["at_least_5x"]
    lines += [
        "",
        "## The paper's statement, setting by setting",
        "",
        "'DP-SE beats DP-UCB by ≥ 5×' read per setting as `E[DP-UCB] ≥ 5·E[DP-SE]` (Welch interval "
        "of `E[DP-UCB] − 5·E[DP-SE]`; the two algorithms run on independent seeds), and the weaker "
        "'DP-SE better' as `E[DP-SE] < E[DP-UCB]`. Each interval is at "
        f"{100 * first['per_setting_confidence']:.3f}% (Bonferroni over the "
        f"{report['summary'][cals[0]]['settings']} settings), so every verdict of a row is right "
        f"with probability ≥ {100 * first['family_confidence']:.0f}%. 'all settings' holds only if "
        "every setting holds and fails if any setting fails.",
    ]
    if config.looks:
        extended = [s for s in report["settings"] if s.get("runs", config.runs) > config.runs]
        capped = sum(
            status["state"] == "undecided at the cap"
            for s in report["settings"]
            for by_claim in s.get("sequential", {}).values()
            for status in by_claim.values()
        )
        lines += [
            "",
            f"Runs added in planned looks {list(config.looks)} (cap {config.looks[-1]}): a "
            "setting with a verdict that needs more runs gets the next look's runs of both "
            "algorithms, and every look's interval is at the level above, the family level "
            "shared by the settings and the looks (Bonferroni), so the verdicts at whichever "
            f"look each setting stopped are right together with probability ≥ "
            f"{100 * first['family_confidence']:.0f}%. {len(extended)} settings got more runs; "
            f"{capped} verdicts are undecided at the cap.",
        ]
    lines += [
        "",
        "| calibration | statement | all settings | holds | fails | needs more runs |",
        "|---|---|---|---|---|---|",
    ]
    for cal in cals:
        for claim, label in (("at_least_5x", "≥ 5×"), ("dpse_better", "DP-SE better")):
            v = report["summary"][cal][claim]
            lines.append(
                f"| {cal} | {label} | **{v['verdict_all_settings']}** | {v['holds']} | "
                f"{v['fails']} | {v['needs_more_runs']} |"
            )
    head = "| instance | K | ε | DP-SE | " + " | ".join(f"DP-UCB {c} | ratio {c}" for c in cals)
    lines += [
        "",
        "## Final regret (mean ± s.e.)",
        "",
        "A ratio marked ✗ fails '≥ 5×' in its setting, ? needs more runs; unmarked holds.",
        "",
        head + " |",
        "|---" * (3 + 1 + 2 * len(cals)) + "|",
    ]
    for s in report["settings"]:
        row = f"| {s['instance']} | {s['K']} | {s['epsilon']} | {s['dpse']['mean']:.0f} ± {s['dpse']['se']:.0f} |"
        for c in cals:
            u = s[f"dpucb_{c}"]
            mark = {"holds": "", "fails": " ✗", "needs more runs": " ?"}[
                s[f"verdicts_{c}"]["at_least_5x"]["verdict"]
            ]
            row += f" {u['mean']:.0f} ± {u['se']:.0f} | {s[f'ratio_{c}']:.2f}{mark} |"
        lines.append(row)
    if config.dpse_paper_T > 0:
        agree = report["spec_dpse_table_agreement"]
        lines += [
            "",
            f"## DP-SE at T = {config.dpse_paper_T} ({config.dpse_paper_runs} runs, fast path) "
            "against the project's regression table (the paper prints no numbers)",
            "",
            f"Agreement within 0.5 + 3 combined standard errors: {agree['agree']} of {agree['of']}.",
            "",
            "| instance | K | ε | here mean (sd) | spec mean (sd) | agrees |",
            "|---|---|---|---|---|---|",
        ]
        for s in report["settings"]:
            if "spec_dpse" in s:
                o, r = s["dpse_paper_T"], s["spec_dpse"]
                lines.append(
                    f"| {s['instance']} | {s['K']} | {s['epsilon']} | {o['mean']:.0f} ({o['sd']:.0f}) "
                    f"| {r['mean']:.0f} ({r['sd']:.0f}) | {'yes' if r['agrees'] else 'no'} |"
                )
    if report["paper_T_ratio_lower_bounds"]:
        b0 = report["paper_T_ratio_lower_bounds"][0]
        lines += [
            "",
            f"## Paper scale: lower bounds on the ratio at T = {b0['T']} (K = {b0['K']}, "
            f"ε = {b0['epsilon']})",
            "",
            f"DP-UCB run with the paper's horizon (its tree depth and γ) for its first "
            f"{b0['rounds_simulated']} rounds only; its regret never decreases, so its regret "
            "after these rounds over DP-SE's final regret at the paper's T is a lower bound on the "
            "paper-scale ratio. A bound ≥ 5 establishes the paper's claim in that setting; a "
            "smaller one does not refute it.",
            "",
            "| instance | DP-SE final | "
            + " | ".join(f"DP-UCB {c} after prefix | ratio ≥ ({c})" for c in cals)
            + " |",
            "|---|---|" + "---|---|" * len(cals),
        ]
        for b in report["paper_T_ratio_lower_bounds"]:
            row = f"| {b['instance']} | {b['dpse_final_regret_at_T']:.0f} |"
            for c in cals:
                row += (
                    f" {b[f'dpucb_{c}_regret_after_prefix']['mean']:.0f} | "
                    f"{b[f'ratio_lower_bound_{c}']:.2f} |"
                )
            lines.append(row)
    lines += _width_markdown(report.get("width_sensitivity") or {})
    lines += [
        "",
        "Curve shapes (paper Sec. 5): DP-SE's regret is piecewise linear (flat once every "
        "suboptimal arm is eliminated); DP-UCB's is smooth (see `sec5.png`).",
    ]
    return tuple(lines)
