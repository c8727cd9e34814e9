"""Shariff & Sheffet App. D.2 (``privonline reproduce shariff-sheffet d2``): the four variants of
Algorithm 1 over time at ``Δ ∈ {0, 0.1}`` (NonPrivate smallest is the gate), beside the tight
calibrations and the factorized source (beyond the paper).  Overview in
:mod:`audit.papers.shariff_sheffet.reproduce`.

Proof note: ``proofs_notes/audit/regret.md``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from scipy import stats

from audit.papers.shariff_sheffet.repro_common import app_d_report, panel_row
from audit.reproduce.report import Check, ExperimentReport
from audit.stats import SequentialPlan, all_orders, paired_order
from reference._typing import FloatArray, IntArray
from reference.engine.blocks import run_blocks
from reference.engine.linucb import default_checkpoints
from reference.engine.tasks import GapBatchTask
from reference.shariff_sheffet.authors_code import (
    AUTHORS_COMMIT,
    AUTHORS_REPOSITORY,
    authors_wishart_degrees_of_freedom,
)
from reference.shariff_sheffet.bounds import gaussian_noise_std, wishart_degrees_of_freedom
from reference.shariff_sheffet.regularizers import (
    OPT_VARIANTS,
    VARIANTS,
    Calibration,
    PrivacyParameters,
    ProblemConstants,
    Variant,
    default_alpha,
    regularizer_spec,
)
from reference.shariff_sheffet.tight import (
    gaussian_tight_noise_std,
    wishart_tight_degrees_of_freedom,
)
from reference.tree import TreeMode, tree_depth
from reference.validation import check_array, check_int_at_least

__all__ = ["Compat", "D2AuthorsConfig", "D2Config", "compare_with_printed", "reproduce_d2"]

Compat = Literal["paper", "authors_code"]
"""What runs: the algorithm as the paper prints it, or as the authors' code implements it."""


@dataclass(frozen=True)
class D2Config:
    """App. D.2: the four variants over time (reduced scale by default)."""

    n: int = 100_000
    d: int = 5
    gaps: tuple[float, ...] = (0.0, 0.1)
    runs: int = 6
    epsilon: float = 1.0
    delta: float = 0.1
    variants: tuple[Variant, ...] = VARIANTS
    seed: int = 20182
    block_size: int = 6
    tight_gaussian: bool = True
    tight_wishart: bool = True
    factorized: bool = True
    """Also run the factorized source (beyond the paper: a BLT factorization of the Gram stream
    in place of the tree, :mod:`reference.shariff_sheffet.factorized`)."""
    compat: Compat = "paper"
    """``"authors_code"``: every private variant with the constants (``calibration=
    "authors_code"``) and the tree (``tree="pan_private"``) of the authors' code, which made the
    paper's figure (:mod:`reference.shariff_sheffet.authors_code`); NonPrivate is the same in both
    (``ρ = 1``, ``α = 1/n``).  The tight and factorized cells are beyond the paper and not in the
    authors' code: they must be off."""
    ablation: bool = False
    """With ``compat="authors_code"``: also Wishart and WishartUnshifted at ``Δ = 0`` with only the
    authors' tree (printed constants) and with only the authors' constants (the paper's tree), so
    that the outcome can be attributed to one or the other."""
    equivalence_looks: tuple[int, ...] = ()
    """The planned looks (cumulative runs, the last one the cap) of the claim "at Δ = 0.1
    WishartUnshifted is indistinguishable from Wishart" (:class:`audit.stats.SequentialPlan`:
    every look at level ``1 − 0.05/L``).  Empty: one look, at ``runs``, at 95%."""
    equivalence_runs: int = 0
    """Runs of that claim's two cells (Wishart and WishartUnshifted at Δ = 0.1): a planned look
    ``≥ runs``; ``0``: ``runs``.  Other claims use the first ``runs`` of them (same seeds)."""

    @classmethod
    def paper(cls) -> D2Config:
        """The paper's D.2: n = 5·10⁷; 35 runs per (variant, gap) as in the authors' code (the
        paper does not say how many)."""
        return cls(n=50_000_000, runs=35, block_size=35)


@dataclass(frozen=True)
class D2AuthorsConfig(D2Config):
    """App. D.2 as the authors' code ran it (``compat="authors_code"``): the paper's four variants
    and the code's GaussianOpt and WishartOpt, with the tree/constants ablation (reduced scale by
    default).  Its runs share their seeds with :class:`D2Config`'s, so each cell is paired with
    the printed algorithm's cell of the same variant."""

    variants: tuple[Variant, ...] = (*VARIANTS, *OPT_VARIANTS)
    tight_gaussian: bool = False
    tight_wishart: bool = False
    factorized: bool = False
    compat: Compat = "authors_code"
    ablation: bool = True

    @classmethod
    def paper(cls) -> D2AuthorsConfig:
        """n = 5·10⁷ and 5 runs per cell (the authors ran 35); the Δ = 0.1 equivalence claim is
        judged at the looks 5, 10, 20, 35 runs (cap: the authors' 35)."""
        return cls(n=50_000_000, runs=5, block_size=5, equivalence_looks=(5, 10, 20, 35))


def _paired_ratio(
    numerator: FloatArray, denominator: FloatArray, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Ratio of means of paired runs and its delta-method interval at ``confidence`` with the
    Student-t quantile of :func:`audit.stats.paired_order`: ``r = mean(a)/mean(b)``,
    ``se = sd(a − r·b)/(√R · mean(b))``."""
    a = check_array("numerator", numerator, ndim=1)
    b = check_array("denominator", denominator, shape=(a.size,))
    if a.size < 2:
        raise ValueError(f"numerator must hold at least 2 paired runs, got {a.size}")
    if b.mean() <= 0.0:
        raise ValueError(f"denominator must have a positive mean, got {b.mean()}")
    r = float(a.mean() / b.mean())
    se = float(np.std(a - r * b, ddof=1) / (math.sqrt(a.size) * b.mean()))
    half = float(stats.t.ppf(0.5 + confidence / 2.0, a.size - 1)) * se
    return r, r - half, r + half


def _d2_factorized_lines(results: dict[str, dict[str, Any]]) -> list[str]:
    """The utility table of the factorized source against the tight tree and NonPrivate; "within
    3×" is the paired order ``E[private] < 3·E[NonPrivate]`` (:func:`audit.stats.paired_order`)."""
    rows = []
    for gap_key, gap_cell in results.items():
        if not {"nonprivate", "factorized"} <= gap_cell.keys():
            continue
        base = np.array(gap_cell["nonprivate"]["final"])
        cells = [c for c in ("gaussian", "gaussian_tight", "factorized") if c in gap_cell]
        for name in cells:
            private = np.array(gap_cell[name]["final"])
            r, low, high = _paired_ratio(private, base)
            verdict = paired_order(private, 3.0 * base).verdict
            rows.append(f"| {gap_key} | {name} | {r:.2f} [{low:.2f}, {high:.2f}] | {verdict} |")
    if not rows:
        return []
    return [
        "",
        "Beyond the paper: the factorized source (a BLT factorization of the Gram stream in "
        "place of the tree, same (ε, δ), exact GDP). Ratio of mean final regret to NonPrivate "
        "on the same runs, with 95% delta-method intervals (Student t); goal: within 3×, judged "
        "by the paired 95% Student-t interval of 3·NonPrivate − private (holds above 0, fails "
        "below, else needs more runs).",
        "",
        "| Δ | source | private / NonPrivate [95%] | within 3× |",
        "|---|---|---|---|",
        *rows,
    ]


def _d2_results(
    config: D2Config, marks: IntArray, out: Path, executor: str
) -> dict[str, dict[str, Any]]:
    """Run every cell of D.2 (a variant or a calibration, per gap) into ``out/runs``: per gap and
    cell label, the mean and standard-error curves at ``marks``, the final regrets, their mean and
    standard error, and the repairs."""
    results: dict[str, dict[str, Any]] = {}
    for gap in config.gaps:
        cell: dict[str, Any] = {}
        for label, variant, calibration, tree in _d2_cells(config, gap):
            private = variant != "nonprivate"
            task = GapBatchTask(
                variant, d=config.d, num_arms=config.d**2, gap=gap, n=config.n,
                epsilon=config.epsilon if private else None,
                delta=config.delta if private else None,
                checkpoints=tuple(int(t) for t in marks),
                calibration=calibration,
                tree=tree,
            )  # fmt: skip
            arrays = run_blocks(
                task,
                seed=config.seed + round(1000 * gap),  # every variant sees the same runs
                replicates=_cell_runs(config, gap, label),
                block_size=config.block_size,
                executor=executor,
                out_dir=out / "runs" / f"{_report_name(config)}_gap{gap}_{label}",
            )
            curves = arrays["cumulative_regret"]
            final = curves[:, -1]
            cell[label] = {
                "mean_curve": curves.mean(axis=0).tolist(),
                "se_curve": (curves.std(axis=0, ddof=1) / math.sqrt(len(final))).tolist(),
                "final": final.tolist(),
                "final_mean": float(final.mean()),
                "final_se": float(final.std(ddof=1) / math.sqrt(len(final))),
                "repairs": int(arrays["repairs"].sum()),
            }
        results[str(gap)] = cell
    return results


def _cell_runs(config: D2Config, gap: float, label: str) -> int:
    """Runs of one cell: ``equivalence_runs`` for the Δ = 0.1 equivalence claim's two cells
    (when set), else ``runs``."""
    if gap == 0.1 and label in EQUIVALENCE_CELLS and config.equivalence_runs:
        return config.equivalence_runs
    return config.runs


def _d2_cells(config: D2Config, gap: float) -> list[tuple[str, Variant, Calibration, TreeMode]]:
    """The cells of one gap: label, variant, calibration and tree."""
    if config.compat == "paper":
        cells: list[tuple[str, Variant, Calibration, TreeMode]] = [
            (v, v, "paper", "dyadic") for v in config.variants
        ]
        if config.tight_gaussian:
            cells.append(("gaussian_tight", "gaussian", "tight", "dyadic"))
        if config.tight_wishart:
            cells.append(("wishart_tight", "wishart", "tight", "dyadic"))
        if config.factorized:
            cells.append(("factorized", "factorized", "tight", "dyadic"))
        return cells
    cells = [
        (v, v, "paper", "dyadic") if v == "nonprivate" else (v, v, "authors_code", "pan_private")
        for v in config.variants
    ]
    if config.ablation and gap == 0.0:
        for v in ("wishart_unshifted", "wishart"):
            cells.append((f"{v}_authors_tree", v, "paper", "pan_private"))
            cells.append((f"{v}_authors_constants", v, "authors_code", "dyadic"))
    return cells


def _report_name(config: D2Config) -> str:
    """``d2``, or ``d2_authors`` for the authors' code (its reports and its run folders)."""
    return "d2_authors" if config.compat == "authors_code" else "d2"


def _check_compat(config: D2Config) -> None:
    if config.compat not in ("paper", "authors_code"):
        raise ValueError(f"compat must be 'paper' or 'authors_code', got {config.compat!r}")
    if config.compat == "paper":
        if config.ablation:
            raise ValueError("ablation needs compat='authors_code' (it ablates the authors' code)")
        bad = [v for v in config.variants if v in OPT_VARIANTS]
        if bad:
            raise ValueError(
                f"variants {bad} exist only in the authors' code: they need compat='authors_code'"
            )
    elif config.tight_gaussian or config.tight_wishart or config.factorized:
        raise ValueError(
            "compat='authors_code' runs the authors' code: tight_gaussian, tight_wishart and "
            "factorized (beyond the paper, not in that code) must be False"
        )


def reproduce_d2(config: D2Config, out: Path, *, executor: str = "processes") -> ExperimentReport:
    """Run D.2 (runs into ``out``): the report of ``d2.json``, ``.png`` and ``.md`` (with
    ``compat="authors_code"``: ``d2_authors``).

    ``config.runs`` must be at least 2: the report has standard errors.
    """
    check_int_at_least("runs", config.runs, 2)
    _check_compat(config)
    plan = equivalence_plan(config)
    out.mkdir(parents=True, exist_ok=True)
    marks = default_checkpoints(config.n, per_decade=10)
    results = _d2_results(config, marks, out, executor)
    checks = _d2_checks(results, plan)
    payload: dict[str, Any] = {
        "checkpoints": marks.tolist(),
        "results": results,
    }

    def draw(plt: Any) -> Any:
        fig, axes = panel_row(plt, len(config.gaps))
        for ax, (gap_key, gap_cell) in zip(axes, results.items(), strict=True):
            for name, res in gap_cell.items():
                mean, se = np.array(res["mean_curve"]), np.array(res["se_curve"])
                ax.plot(marks, mean, label=name)
                ax.fill_between(marks, mean - se, mean + se, alpha=0.2)
            ax.set_title(f"D.2: Δ = {gap_key}")
            ax.set_xlabel("t")
            ax.set_ylabel("cumulative regret")
            ax.legend()
        fig.tight_layout()
        return fig

    lines = _d2_lines(config, results, checks)
    return app_d_report(
        _report_name(config),
        "D.2 (authors' code)" if config.compat == "authors_code" else "D.2",
        config,
        draw,
        lines,
        checks=[Check.from_record(c) for c in checks],
        payload=payload,
        layout=("checkpoints", "results", "checks"),
    )


def _d2_lines(
    config: D2Config, results: dict[str, dict[str, Any]], checks: list[dict[str, Any]]
) -> list[str]:
    """The Markdown of D.2: the final regrets, the tight calibrations' utility, the factorized
    source's and the paper's claims with their verdicts."""
    lines = [
        "# D.2 reproduction: the four variants over time",
        "",
        f"n = {config.n}, d = {config.d}, K = {config.d**2}, ε = {config.epsilon}, "
        f"δ = {config.delta}, α = "
        f"{'1/n' if config.compat == 'paper' else '1/(2n) (private), 1/n (NonPrivate)'}, "
        f"{config.runs} runs per cell (paper: n = 5·10⁷; 35 runs in "
        "the authors' code, the paper does not say).",
        "",
        *_authors_lines(config),
        "| Δ | variant | final regret (mean ± s.e.) |",
        "|---|---|---|",
    ]
    for gap_key, gap_cell in results.items():
        for name, res in gap_cell.items():
            lines.append(
                f"| {gap_key} | {name} | {res['final_mean']:.1f} ± {res['final_se']:.1f} |"
            )
    if config.tight_gaussian or config.tight_wishart:
        lines += [
            "",
            "Utility of the tight calibration: the trees with the least noise that meet the "
            "same (ε, δ) -- Gaussian by exact GDP accounting, Wishart by the certified PLD "
            "accountant (`reference.shariff_sheffet.tight`).  Aim: tight private regret within "
            "2× of NonPrivate.",
            "",
            _calibration_line(config),
            "",
            "| Δ | mechanism | paper / NonPrivate | tight / NonPrivate | tight / paper | "
            "within 2× |",
            "|---|---|---|---|---|---|",
        ]
    for gap_key, gap_cell in results.items():
        for mech in ("gaussian", "wishart"):
            if {"nonprivate", mech, f"{mech}_tight"} <= gap_cell.keys():
                base = gap_cell["nonprivate"]["final_mean"]
                paper_r = gap_cell[mech]["final_mean"]
                tight_r = gap_cell[f"{mech}_tight"]["final_mean"]
                lines.append(
                    f"| {gap_key} | {mech} | {paper_r / base:.1f} | {tight_r / base:.2f} | "
                    f"{tight_r / paper_r:.3f} | {'yes' if tight_r <= 2 * base else 'no'} |"
                )
    lines += _d2_factorized_lines(results)
    if checks:
        lines += [
            "",
            "| paper's claim | on the means | paired intervals over the runs (95% unless "
            "stated) | gate |",
            "|---|---|---|---|",
        ]
    for check in checks:
        gate = "gate" if check["gate"] else "reported"
        intervals = "; ".join(_difference_text(d) for d in check["differences"])
        if "ratio" in check:
            low, high = check["ratio_ci"] if "ratio_ci" in check else check["ratio_ci_95"]
            intervals += f"; ratio {check['ratio']:.3g} ∈ [{low:.3g}, {high:.3g}]"
        if "sequential" in check:
            seq = check["sequential"]
            intervals += f" (look {seq['look']}, {seq['runs']} runs: {seq['state']})"
        lines.append(
            f"| {check['claim']} | {'holds' if check['holds'] else 'does not hold'} | "
            f"**{check['verdict']}**: {intervals} | {gate} |"
        )
    lines += [
        f"Sequential rule of the equivalence claim: {c['sequential']['rule']}."
        for c in checks
        if "sequential" in c
    ]
    lines += [
        "",
        "None of the paper's claims applies to these cells (NonPrivate beside sources beyond the "
        "paper only)."
        if not checks
        else "At the reduced horizon the private variants are in their linear phase "
        "(t ≲ d·ρ_min/L²), so their ordering need not match the paper's long-horizon curves; only "
        "'NonPrivate smallest' is a gate."
        if config.n < D2Config.paper().n
        else "At the paper's horizon; only 'NonPrivate smallest' is a gate, the other claims are "
        "reported with their verdicts.",
    ]
    return lines


def _difference_text(d: Mapping[str, Any]) -> str:
    """``larger − smaller ∈ [low, high]``, with the level when it is not 95%."""
    low, high = d["ci"] if "ci" in d else d["ci_95"]
    level = f" ({100 * d['confidence']:.4g}%)" if d.get("confidence", 0.95) != 0.95 else ""
    return f"{d['larger']} − {d['smaller']} ∈ [{low:.4g}, {high:.4g}]{level}"


def _authors_lines(config: D2Config) -> list[str]:
    """What the authors'-code mode changes, with its constants at this configuration."""
    if config.compat != "authors_code":
        return []
    n, d = config.n, config.d
    m = tree_depth(n)
    consts, privacy = ProblemConstants(d=d), PrivacyParameters(config.epsilon, config.delta)
    k_code = authors_wishart_degrees_of_freedom(d, m, config.epsilon, config.delta)
    k_paper = wishart_degrees_of_freedom(d, m, config.epsilon, config.delta)
    rows = []
    for v in config.variants:
        if v == "nonprivate":
            continue
        alpha = default_alpha(v, n, "authors_code")
        _, code = regularizer_spec(v, consts, n, alpha, privacy, calibration="authors_code")
        printed = (
            regularizer_spec(v, consts, n, 1.0 / n, privacy)[1].rho_min if v in VARIANTS else None
        )
        rows.append(
            f"| {v} | {code.rho_min:.6g} | {'—' if printed is None else f'{printed:.6g}'} | "
            f"{code.gamma:.4g} | {code.shift:.6g} |"
        )
    return [
        f"**The authors' code** (`{AUTHORS_REPOSITORY}` at `{AUTHORS_COMMIT}`), not the printed "
        "algorithm, in every private cell: its tree (each release the exact prefix plus exactly "
        "m noise draws that persist between releases, an initial noisy empty leaf), its "
        f"k = {k_code} (printed: {k_paper}), α = 1/(2n) in β_t with the noise bounds at "
        "α/2^⌈log₂ n⌉ per release, the shifted Wishart's γ of Claim 20, and its GaussianOpt / "
        "WishartOpt (the shift minimising the first line of Theorem 5's proof; not in the paper's "
        "figure).  NonPrivate is the same in both.  The privacy is the same (ε, δ): the larger k "
        "only adds noise; the other constants are public.  Runs share their seeds with the "
        "printed algorithm's D.2, so cells of the same variant are paired.",
        "",
        "| variant | ρ_min (authors' code) | ρ_min (printed) | γ | shift |",
        "|---|---|---|---|---|",
        *rows,
        "",
        *(
            [
                "Ablation at Δ = 0: `<variant>_authors_tree` is the authors' tree with the "
                "printed constants, `<variant>_authors_constants` the authors' constants on the "
                "paper's tree.",
                "",
            ]
            if config.ablation
            else []
        ),
    ]


def compare_with_printed(
    authors: Mapping[str, Any], printed: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Per gap and variant of both reports, the paired final regret "authors' code − printed".

    ``authors`` and ``printed`` are the JSON of a ``d2_authors`` and a ``d2`` report (as
    :func:`json.load` gives them).  Their runs share their seeds run by run when the two
    configurations agree in ``n``, ``d``, ``ε``, ``δ`` and ``seed`` (checked; a mismatch raises);
    the first ``min(R_authors, R_printed)`` runs are compared.  Each row: the means, their ratio,
    the mean paired difference and its 95% Student-t interval (:func:`audit.stats.paired_order`),
    and whether the authors' code is significantly above, below, or not distinguished.
    """
    keys = ("n", "d", "epsilon", "delta", "seed")
    a_conf, p_conf = authors["config"], printed["config"]
    if a_conf.get("compat") != "authors_code":
        raise ValueError("authors must be a d2_authors report (config.compat 'authors_code')")
    if p_conf.get("compat", "paper") != "paper":
        raise ValueError("printed must be a d2 report of the printed algorithm (compat 'paper')")
    differ = [k for k in keys if a_conf[k] != p_conf[k]]
    if differ:
        raise ValueError(f"the two reports' runs are not paired: config {differ} differ")
    rows: list[dict[str, Any]] = []
    for gap, cell in authors["results"].items():
        for variant in VARIANTS:
            if variant not in cell or variant not in printed["results"].get(gap, {}):
                continue
            a = np.array(cell[variant]["final"], dtype=np.float64)
            b = np.array(printed["results"][gap][variant]["final"], dtype=np.float64)
            runs = min(a.size, b.size)
            a, b = a[:runs], b[:runs]
            order = paired_order(b, a)  # holds: authors' code above the printed algorithm
            rows.append(
                {
                    "gap": gap,
                    "variant": variant,
                    "runs": runs,
                    "authors_mean": float(a.mean()),
                    "printed_mean": float(b.mean()),
                    "ratio": float(a.mean() / b.mean()),
                    "difference": order.difference,
                    "ci_95": [order.ci_low, order.ci_high],
                    "authors_code": {"holds": "above", "fails": "below"}.get(
                        order.verdict, "not distinguished"
                    ),
                }
            )
    return rows


def _calibration_line(config: D2Config) -> str:
    """The calibrated noise next to the paper's, for the report (``L̃ = √2``: ``‖x‖, |y| ≤ 1``)."""
    n, d, eps, dlt = config.n, config.d, config.epsilon, config.delta
    m = tree_depth(n)
    L_tilde = ProblemConstants(d=d).L_tilde
    return (
        f"Noise: Gaussian σ_noise {gaussian_noise_std(m, L_tilde, eps, dlt):.2f} (paper) vs "
        f"{gaussian_tight_noise_std(n, L_tilde, eps, dlt):.2f} (tight); Wishart k "
        f"{wishart_degrees_of_freedom(d, m, eps, dlt)} (paper) vs "
        f"{wishart_tight_degrees_of_freedom(d, n, eps, dlt)} (tight)."
    )


def _printed_variant(label: str) -> bool:
    """Whether a D.2 cell is one of the paper's four variants at its printed calibration."""
    return label in VARIANTS


EQUIVALENCE_MARGIN = (0.8, 1.25)
"""Two variants' regrets are "indistinguishable" when the ratio of their means lies in this band
(the 80–125 % rule of average bioequivalence), judged by the 95% interval of the ratio."""


EQUIVALENCE_CELLS = ("wishart_unshifted", "wishart")
"""The two Δ = 0.1 cells of the equivalence claim (the runs of :attr:`D2Config.equivalence_runs`)."""


def equivalence_plan(config: D2Config) -> SequentialPlan:
    """The sequential plan of the Δ = 0.1 equivalence claim: the configured looks, or one look at
    ``runs`` (95%).  The claim's runs must be one of its looks, ``≥ runs``."""
    claim_runs = config.equivalence_runs or config.runs
    plan = SequentialPlan(config.equivalence_looks or (claim_runs,))
    if claim_runs < config.runs:
        raise ValueError(
            f"equivalence_runs must be 0 or at least runs={config.runs}, got {claim_runs}"
        )
    if claim_runs not in plan.looks:
        raise ValueError(
            f"equivalence_runs must be one of the planned equivalence_looks {plan.looks}, got "
            f"{claim_runs}"
        )
    return plan


def _indistinguishable(
    unshifted: list[float], shifted: list[float], plan: SequentialPlan
) -> dict[str, Any]:
    """D.2's "at Δ = 0.1 WishartUnshifted is indistinguishable from Wishart", as an equivalence
    claim: holds when the paired interval of ``E[unshifted]/E[shifted]`` (:func:`_paired_ratio`,
    at the plan's level) lies inside :data:`EQUIVALENCE_MARGIN`, fails when it lies outside, else
    needs more runs (absence of a difference is never read off a non-rejection); ``sequential``
    says whether the plan decided it, asks for more runs, or reached its cap."""
    low_margin, high_margin = EQUIVALENCE_MARGIN
    ratio, low, high = _paired_ratio(np.asarray(unshifted), np.asarray(shifted), plan.confidence)
    verdict: str
    if low_margin <= low and high <= high_margin:
        verdict = "holds"
    elif high < low_margin or low > high_margin:
        verdict = "fails"
    else:
        verdict = "needs more runs"
    order = paired_order(unshifted, shifted, plan.confidence)
    return {
        "claim": "Δ = 0.1: WishartUnshifted indistinguishable from Wishart (mean ratio in "
        f"[{low_margin}, {high_margin}])",
        "holds": low_margin <= ratio <= high_margin,
        "gate": False,
        "verdict": verdict,
        "ratio": ratio,
        "ratio_ci": [low, high],
        "confidence": plan.confidence,
        "sequential": plan.status(verdict, len(unshifted)),
        "differences": [
            {
                "smaller": "wishart_unshifted",
                "larger": "wishart",
                "mean": order.difference,
                "ci": [order.ci_low, order.ci_high],
                "confidence": plan.confidence,
            }
        ],
    }


def _d2_checks(
    results: dict[str, dict[str, Any]], plan: SequentialPlan | None = None
) -> list[dict[str, Any]]:
    """The paper's qualitative D.2 claims: ``holds`` on the mean final regrets, and a ``verdict``
    (holds, fails, needs more runs) from 95% paired Student-t intervals of the differences over
    the runs, which share their environments (:func:`audit.stats.paired_order`).  A pair of
    cells with different numbers of runs is compared on its common first runs (same seeds); the
    Δ = 0.1 equivalence claim is judged under ``plan`` (default: one look at its runs, 95%)."""
    checks: list[dict[str, Any]] = []

    def claim(text: str, pairs: list[tuple[str, str]], gate: bool, final: dict[str, Any]) -> None:
        def paired(a: str, b: str) -> tuple[list[float], list[float]]:
            runs = min(len(final[a]), len(final[b]))
            return final[a][:runs], final[b][:runs]

        orders = [paired_order(*paired(a, b)) for a, b in pairs]
        checks.append(
            {
                "claim": text,
                "holds": all(np.mean(paired(a, b)[0]) < np.mean(paired(a, b)[1]) for a, b in pairs),
                "gate": gate,
                "verdict": all_orders(orders),
                "differences": [
                    {
                        "smaller": a,
                        "larger": b,
                        "mean": o.difference,
                        "ci_95": [o.ci_low, o.ci_high],
                    }
                    for (a, b), o in zip(pairs, orders, strict=True)
                ],
            }
        )

    for gap, cell in results.items():
        final = {v: r["final"] for v, r in cell.items()}
        if "nonprivate" in final and len(final) > 1:
            # the paper's claims are about its four variants; the tight ones and the factorized
            # source (beyond the paper) are reported apart
            others = [v for v in final if v != "nonprivate" and _printed_variant(v)]
            if others:  # NonPrivate beside only sources beyond the paper: no claim of the paper
                pairs = [("nonprivate", v) for v in others]
                claim(f"Δ = {gap}: NonPrivate has the smallest regret", pairs, True, final)
        for mech in ("gaussian", "wishart"):
            if {mech, f"{mech}_tight"} <= final.keys():
                text = f"Δ = {gap}: tight {mech} (same (ε, δ)) below paper {mech}"
                claim(text, [(f"{mech}_tight", mech)], False, final)
        if {"gaussian", "wishart"} <= final.keys():
            claim(f"Δ = {gap}: Gaussian below Wishart", [("gaussian", "wishart")], False, final)
        if gap == "0.1" and set(EQUIVALENCE_CELLS) <= final.keys():
            unshifted, shifted = (final[v] for v in EQUIVALENCE_CELLS)
            look = SequentialPlan((len(unshifted),)) if plan is None else plan
            checks.append(_indistinguishable(unshifted, shifted, look))
        if gap == "0.0" and {"wishart", "wishart_unshifted", "gaussian"} <= final.keys():
            rest = [v for v in final if v != "wishart_unshifted" and _printed_variant(v)]
            pairs = [(v, "wishart_unshifted") for v in rest]
            claim("Δ = 0: WishartUnshifted worst", pairs, False, final)
    return checks
