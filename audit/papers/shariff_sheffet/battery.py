"""The default privacy-audit battery, the bug zoo runner, and their reports.

:func:`run_privacy_battery` audits the Shariff & Sheffet mechanisms -- per-node mechanisms, the
whole tree (node-level view) and Algorithm 1 end to end on t-neighbouring streams -- against both
the printed claim and the exact guarantee of the correct mechanism: its :func:`cases` are run by
:func:`audit.cases.run_cases` with Holm's family-wise correction over all privacy tests
(:class:`audit.familywise.Holm`).  It also reports
the *slack* of each printed calibration: the exact ε at the claimed δ next to the claimed ε.

Proof note: ``proofs_notes/audit/zoo_and_battery.md``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from audit.cases import AuditCase, AuditResult, CaseReport, CaseRow, case_seed, run_cases
from audit.familywise import Holm
from audit.mechanisms import NodeViewMechanism, SymmetricGaussianMatrixMechanism, gaussian_mu
from audit.methods.billboard import billboard_audit
from audit.methods.binomial import RunAuditResult
from audit.methods.black_box import event_audit_from_samples
from audit.methods.scaling import ScalingFit
from audit.methods.stream import (
    Algorithm1Policy,
    action_count_features,
    collect_transcripts,
    worst_case_streams,
)
from audit.papers.shariff_sheffet.cases import (
    DELTA_STAR,
    FACTORIZED_STEPS,
    LossCase,
    TreeConfig,
    factorized_case,
    gaussian_tree_case,
    laplace_case,
    wishart_epsilon_bound,
    wishart_tree_case,
)
from audit.papers.shariff_sheffet.regret import (
    regret_containment_audit,
    regret_scaling_in_n,
    regret_scaling_in_privacy,
)
from audit.papers.shariff_sheffet.theorems import (
    TreeSourceSpec,
    confidence_ellipsoid_audit,
    proof_failure_rate,
    regularizer_run_audit,
)
from audit.protocols import PrivacyClaim
from audit.reproduce.report import Table
from audit.results import (
    SCHEMA_VERSION,
    PrivacyAuditResult,
    produced_by,
    produced_by_line,
    to_jsonable,
)
from reference.accounting import gaussian_epsilon
from reference.files import atomic_savefig, atomic_write_text, write_json
from reference.rng import seed_for
from reference.shariff_sheffet.regularizers import (
    VARIANTS,
    FactorizedStatistics,
    PrivacyParameters,
    ProblemConstants,
    Variant,
    make_factorized_regularizer,
    regularizer_spec,
)
from reference.shariff_sheffet.simulation import make_policy
from reference.tree import TreeAggregator
from reference.validation import check_in_range, check_int_at_least

__all__ = [
    "BatteryConfig",
    "BatteryReport",
    "SlackRow",
    "cases",
    "quick_accuracy_audits",
    "run_privacy_battery",
    "slack_table",
]


@dataclass(frozen=True)
class BatteryConfig:
    """Budget and seeds of the default battery (defaults run in about a minute on 2 cores)."""

    tree: TreeConfig = field(default_factory=TreeConfig)
    white_box_samples: int = 200_000
    black_box_samples: int = 200_000
    stream_n: int = 16
    stream_runs: int = 1000
    accuracy_runs: int = 30
    family_alpha: float = 0.05
    seed: int = 2026

    def __post_init__(self) -> None:
        check_int_at_least("white_box_samples", self.white_box_samples, 100)
        check_int_at_least("black_box_samples", self.black_box_samples, 100)
        check_int_at_least("stream_n", self.stream_n, 2)
        check_int_at_least("stream_runs", self.stream_runs, 4)
        check_int_at_least("accuracy_runs", self.accuracy_runs, 3)
        check_in_range("family_alpha", self.family_alpha, 0.0, 1.0)


@dataclass(frozen=True)
class SlackRow:
    """Exact ε of a correct mechanism at a δ, next to the printed claim."""

    mechanism: str
    n: int
    d: int
    claimed_epsilon: float
    claimed_delta: float
    delta: float
    exact_epsilon: float
    exact_is_upper_bound: bool


@dataclass
class BatteryReport:
    """One battery run: its :class:`~audit.cases.CaseReport` (the verdicts: Holm over the privacy
    tests, every accuracy and regret test at its own level), plus what this paper's report adds --
    the slack table and the regret scaling fits."""

    config: BatteryConfig
    cases: CaseReport
    slack: list[SlackRow]
    runtime_seconds: float
    scaling: list[ScalingFit] = field(default_factory=list)

    @property
    def _privacy_rows(self) -> list[CaseRow]:
        return [r for r in self.cases.rows if r.kind == "privacy"]

    @property
    def results(self) -> list[PrivacyAuditResult]:
        """The privacy tests, in order."""
        return [r.result for r in self._privacy_rows if isinstance(r.result, PrivacyAuditResult)]

    @property
    def holm_pvalues(self) -> list[float]:
        """Holm-adjusted p-values of the privacy tests."""
        return [
            r.adjusted_p_value if r.adjusted_p_value is not None else float(r.result.p_value)
            for r in self._privacy_rows
            if isinstance(r.result, PrivacyAuditResult)
        ]

    @property
    def holm_reject(self) -> list[bool]:
        """Family-wise verdicts of the privacy tests."""
        return [r.rejected for r in self._privacy_rows]

    @property
    def accuracy(self) -> list[RunAuditResult]:
        """The accuracy and regret-containment tests."""
        return [r.result for r in self.cases.rows if isinstance(r.result, RunAuditResult)]

    @property
    def violations(self) -> list[str]:
        """Names of the privacy tests rejected after the family-wise correction, of the
        accuracy and regret audits that rejected their theorem, and of inconsistent scaling fits."""
        privacy = [r.name for r in self._privacy_rows if r.rejected]
        accuracy = [r.name for r in self.cases.rows if r.kind == "accuracy" and r.rejected]
        return privacy + accuracy + [f.name for f in self.scaling if not f.consistent]

    def to_dict(self) -> dict[str, Any]:
        tests = []
        for r, p_adj, rej in zip(self.results, self.holm_pvalues, self.holm_reject, strict=True):
            row = r.to_dict()
            row["holm_p_value"] = p_adj
            row["family_violation"] = rej
            tests.append(row)
        return {
            "schema_version": SCHEMA_VERSION,
            "produced_by": produced_by(),
            "kind": "privacy_battery",
            "config": to_jsonable(self.config),
            "family_wise": {
                "method": self.cases.strategy.method,
                "alpha": self.cases.strategy.alpha,
            },
            "verdict": "VIOLATION" if self.violations else "pass",
            "violations": self.violations,
            "tests": tests,
            "slack": to_jsonable(self.slack),
            "accuracy": to_jsonable(self.accuracy),
            "regret_scaling": to_jsonable(self.scaling),
            "runtime_seconds": self.runtime_seconds,
        }

    def summary_table(self) -> str:
        """A Markdown table of the results."""
        header = (
            "test", "method", "claim (ε, δ)", "ε lower bound", "δ(ε_claim) [lower, upper]", "p",
            "Holm p", "verdict",
        )  # fmt: skip
        rows = []
        for r, p_adj, rej in zip(self.results, self.holm_pvalues, self.holm_reject, strict=True):
            d = r.delta_at_claim
            dtext = (
                f"{d.delta_estimate:.3g} [{d.delta_lower:.3g}, {d.delta_upper:.3g}]" if d else "–"
            )
            rows.append((
                r.name, r.method, f"({r.claim.epsilon:.4g}, {r.claim.delta:.3g}) {r.claim.label}",
                f"{r.epsilon_lower_bound:.4g}", dtext, f"{r.p_value:.3g}", f"{p_adj:.3g}",
                "**VIOLATION**" if rej else "pass",
            ))  # fmt: skip
        return "\n".join(Table(header, tuple(rows)).lines())

    def slack_markdown(self) -> str:
        """A Markdown table of the slack rows (the exact ε at each δ next to the printed claim)."""
        header = ("mechanism", "n", "d", "claimed (ε, δ)", "δ", "exact ε at δ")
        rows = tuple(
            (
                s.mechanism, f"{s.n:.3g}", f"{s.d}", f"({s.claimed_epsilon:g}, {s.claimed_delta:g})",
                f"{s.delta:g}",
                f"{'≤ ' if s.exact_is_upper_bound and s.exact_epsilon > 0 else ''}{s.exact_epsilon:.4g}",
            )
            for s in self.slack
        )  # fmt: skip
        return "\n".join(Table(header, rows).lines())

    def accuracy_markdown(self) -> str:
        """A Markdown table of the accuracy audits (failing runs and slack quantiles)."""
        header = (
            "audit", "failing runs", "nominal rate", "CP bounds",
            "slack (1%, 50%, 99% of ratio to bound)", "verdict",
        )  # fmt: skip
        rows = tuple(
            (
                a.name, f"{a.failures}/{a.runs}", f"{a.nominal_failure_rate:.3g}",
                f"[{a.failure_rate_lower:.3g}, {a.failure_rate_upper:.3g}]",
                "; ".join(f"{k}: {q[0]:.3g}, {q[1]:.3g}, {q[2]:.3g}" for k, q in a.slack.items()),
                "**VIOLATION**" if a.violation else "pass",
            )
            for a in self.accuracy
        )  # fmt: skip
        return "\n".join(Table(header, rows).lines())

    def scaling_markdown(self) -> str:
        """A Markdown table of the regret scaling fits."""
        header = (
            "fit", "slope vs theorem's form (CI)", "p(slope > 1)", "bare power exponent",
            "theorem's exponent", "verdict",
        )  # fmt: skip
        rows = tuple(
            (
                f.name, f"{f.slope:.3f} [{f.ci_low:.3f}, {f.ci_high:.3f}]",
                f"{f.pvalue_above_one:.3g}", f"{f.bare_power_exponent:.3f}", f.theorem_exponent,
                "pass" if f.consistent else "**INCONSISTENT**",
            )
            for f in self.scaling
        )  # fmt: skip
        return "\n".join(Table(header, rows).lines())

    def write(self, out: Path) -> None:
        """Write ``report.json``, ``report.md`` and ``privacy_curves.png`` into ``out``."""
        out.mkdir(parents=True, exist_ok=True)
        write_json(out / "report.json", self.to_dict(), indent=2)
        verdict = "VIOLATION" if self.violations else "pass"
        md = [
            "# privonline privacy audit battery",
            "",
            produced_by_line(),
            "",
            f"Verdict: **{verdict}** (Holm, family-wise α = {self.config.family_alpha}); "
            f"{len(self.results)} tests in {self.runtime_seconds:.1f} s; seed {self.config.seed}.",
            "",
            "Each mechanism is audited against the paper's printed claim and against the exact "
            f'guarantee of the correct mechanism at δ* = {DELTA_STAR:g} ("exact").',
            "",
            self.summary_table(),
            "",
            "## Slack of the printed calibrations",
            "",
            self.slack_markdown(),
            "",
            "## Accuracy and regret against the theorems (quick)",
            "",
            self.accuracy_markdown(),
            "",
            self.scaling_markdown(),
            "",
            "![privacy curves](privacy_curves.png)",
            "",
        ]
        atomic_write_text(out / "report.md", "\n".join(md))
        _plot_curves(self.results, out / "privacy_curves.png")


def _plot_curves(results: list[PrivacyAuditResult], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = [r for r in results if r.curve and "exact" in r.claim.label]
    if not curves:
        return
    cols = min(3, len(curves))
    rows = math.ceil(len(curves) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), squeeze=False)
    for ax, r in zip(axes.ravel(), curves, strict=False):
        eps = np.array([p.epsilon for p in r.curve])
        ax.plot(eps, [p.delta_estimate for p in r.curve], label="estimated δ(ε)")
        ax.fill_between(
            eps,
            [p.delta_lower for p in r.curve],
            [p.delta_upper for p in r.curve],
            alpha=0.3,
            label=f"{r.confidence:.0%} bounds",
        )
        ax.plot([r.claim.epsilon], [r.claim.delta], "rx", label="exact claim")
        ax.set_yscale("log")
        ax.set_ylim(
            bottom=max(
                1e-6,
                min(p.delta_estimate for p in r.curve if p.delta_estimate > 0)
                if any(p.delta_estimate > 0 for p in r.curve)
                else 1e-6,
            )
        )
        ax.set_xlabel("ε")
        ax.set_ylabel("δ")
        ax.set_title(r.name.split(" vs ")[0], fontsize=9)
        ax.legend(fontsize=7)
    for ax in axes.ravel()[len(curves) :]:
        ax.axis("off")
    fig.tight_layout()
    atomic_savefig(fig, path, dpi=110)
    plt.close(fig)


# --------------------------------------------------------------------------------------------
# slack
# --------------------------------------------------------------------------------------------


def slack_table(configs: list[TreeConfig] | None = None) -> list[SlackRow]:
    """Exact ε at δ ∈ {claimed δ, 1e-3, 1e-5} for the Gaussian tree (closed form) and at
    δ ∈ {claimed δ, 1e-3} for the Wishart tree (a Monte-Carlo upper bound), per configuration.

    Default configurations: a tiny one (n = 1000, d = 2) and the paper's D.2 one
    (n = 5·10⁷, d = 5), both at ε = 1, δ = 0.1.
    """
    configs = configs or [TreeConfig(), TreeConfig(n=5 * 10**7, d=5)]
    rows: list[SlackRow] = []
    for c in configs:
        x, xp = c.replacement_difference()
        mu = math.sqrt(c.used_nodes) * gaussian_mu(x - xp, c.sigma)
        for delta in (c.delta, 1e-3, 1e-5):
            rows.append(
                SlackRow(
                    "gaussian tree",
                    c.n,
                    c.d,
                    c.epsilon,
                    c.delta,
                    delta,
                    gaussian_epsilon(delta, mu=mu),
                    False,
                )
            )
        for delta in (c.delta, 1e-3):
            rows.append(
                SlackRow(
                    "wishart tree",
                    c.n,
                    c.d,
                    c.epsilon,
                    c.delta,
                    delta,
                    wishart_epsilon_bound(c.k, c.p, c.used_nodes, delta=delta, samples=400_000),
                    True,
                )
            )
    return rows


# --------------------------------------------------------------------------------------------
# the battery
# --------------------------------------------------------------------------------------------


def _node_view_feature(difference: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """Black-box feature of the node view: ``Σ_j ⟨O_j, D⟩`` (the direction of the pair)."""

    def feature(outputs: np.ndarray) -> np.ndarray:
        return np.asarray(np.einsum("snij,ij->s", outputs, difference), dtype=np.float64)

    return feature


def _stream_tests(config: BatteryConfig, seed: int, confidence: float) -> list[PrivacyAuditResult]:
    n, t = config.stream_n, 1
    stream_tree = TreeConfig(n=n, d=2, epsilon=config.tree.epsilon, delta=config.tree.delta)
    x, xp = stream_tree.replacement_difference()
    mu = math.sqrt(stream_tree.used_nodes) * gaussian_mu(x - xp, stream_tree.sigma)
    exact_eps: dict[str, float] = {
        "gaussian": gaussian_epsilon(DELTA_STAR, mu=mu),
        "wishart": wishart_epsilon_bound(stream_tree.k, stream_tree.p, stream_tree.used_nodes),
    }
    exact_eps["wishart_unshifted"] = exact_eps["wishart"]
    constants = ProblemConstants(d=2)
    privacy = PrivacyParameters(config.tree.epsilon, config.tree.delta)
    s, sp = worst_case_streams(n, t)
    out: list[PrivacyAuditResult] = []
    variants: tuple[Variant, ...] = ("gaussian", "wishart", "wishart_unshifted")
    for variant in variants:
        variant_seed = seed_for(seed, f"algorithm1_{variant}_stream")

        def factory(h: int, rng: np.random.Generator, v: Variant = variant) -> Any:
            return make_policy(v, constants, h, 1.0 / h, rng, privacy)

        policy = Algorithm1Policy(factory, f"Algorithm 1, {variant}, n={n}")
        trans, trans_p = collect_transcripts(
            policy, s, sp, t, runs=config.stream_runs, seed=variant_seed
        )
        claims = [
            PrivacyClaim(privacy.epsilon, privacy.delta, "t_neighbouring", "printed (ε, δ)"),
            PrivacyClaim(
                exact_eps[variant], DELTA_STAR, "t_neighbouring", f"exact at δ={DELTA_STAR:g}"
            ),
        ]
        for claim in claims:
            out.append(
                event_audit_from_samples(
                    trans,
                    trans_p,
                    claim,
                    name=f"algorithm1_{variant}_stream vs {claim.label}",
                    mechanism=repr(policy),
                    features=action_count_features(2),
                    confidence=confidence,
                    seed=variant_seed,
                )
            )
    return out


def cases(
    config: BatteryConfig | None = None, *, scaling: list[ScalingFit] | None = None
) -> list[AuditCase]:
    """The battery (module docstring) as :class:`~audit.cases.AuditCase`, every one correct: the
    white box of each node and tree mechanism, the billboard, the black boxes, Algorithm 1's
    streams, then the accuracy and regret-containment audits.  Each case's seed is named after it;
    the regret case appends its scaling fits to ``scaling`` when given."""
    config = config or BatteryConfig()
    confidence = 1.0 - config.family_alpha
    tree = config.tree
    loss_cases: list[LossCase] = [
        gaussian_tree_case(
            tree, name="gaussian_node", description="Gaussian node, paper σ_noise", per_node=True
        ),
        wishart_tree_case(
            tree, name="wishart_node", description=f"Wishart node, paper k={tree.k}", per_node=True
        ),
        gaussian_tree_case(
            tree,
            name="gaussian_tree",
            description=f"Gaussian tree, node view of leaf 1 ({tree.used_nodes} nodes)",
        ),
        wishart_tree_case(
            tree,
            name="wishart_tree",
            description=f"Wishart tree, node view of leaf 1 ({tree.used_nodes} nodes)",
        ),
        laplace_case(name="laplace"),
        factorized_case(
            tree,
            name="factorized",
            description=f"factorized source (beyond the paper), transcript of {FACTORIZED_STEPS} rows",
        ),
    ]
    by_name = {case.name: case for case in loss_cases}
    out: list[AuditCase] = []
    for case in loss_cases:

        def white_box(seed: np.random.SeedSequence, case: LossCase = case) -> list[AuditResult]:
            return list(
                case.audit_claims(
                    [case.printed, case.exact],
                    samples=config.white_box_samples,
                    seed=case_seed(seed),  # = seed_for(config.seed, case name)
                    confidence=confidence,
                )
            )

        out.append(AuditCase(case.name, "correct", white_box))

    def black_box_gaussian(seed: np.random.SeedSequence) -> list[AuditResult]:
        x, xp = tree.replacement_difference()
        mech = NodeViewMechanism(
            SymmetricGaussianMatrixMechanism(tree.p, tree.sigma), tree.used_nodes
        )
        s = case_seed(seed)
        rng_p, rng_q = (np.random.default_rng(c) for c in np.random.SeedSequence(s).spawn(2))
        out_p = mech.sample(x, rng_p, config.black_box_samples)
        out_q = mech.sample(xp, rng_q, config.black_box_samples)
        case = by_name["gaussian_tree"]
        return [
            event_audit_from_samples(
                out_p,
                out_q,
                claim,
                name=f"gaussian_tree_black_box vs {claim.label}",
                mechanism=repr(mech),
                features=_node_view_feature(x - xp),
                confidence=confidence,
                seed=s,
            )
            for claim in (case.printed, case.exact)
        ]

    def black_box_laplace(seed: np.random.SeedSequence) -> list[AuditResult]:
        case, s = by_name["laplace"], case_seed(seed)
        rng = np.random.default_rng(s)
        scale = 1.0 / tree.epsilon
        out_p = rng.laplace(0.0, scale, size=config.black_box_samples)
        out_q = 1.0 + rng.laplace(0.0, scale, size=config.black_box_samples)
        return [
            event_audit_from_samples(
                out_p,
                out_q,
                case.printed,
                name="laplace_black_box vs printed pure ε",
                mechanism=case.description,
                confidence=confidence,
                seed=s,
            )
        ]

    def billboard(seed: np.random.SeedSequence) -> list[AuditResult]:
        return [
            billboard_audit(
                TreeAggregator,
                seed=case_seed(seed),
                name="gaussian_tree_billboard",
                confidence=confidence,
                replicates=max(1000, config.black_box_samples // 20),
            )
        ]

    def streams(seed: np.random.SeedSequence) -> list[AuditResult]:
        return list(_stream_tests(config, case_seed(seed), confidence))

    # accuracy (9 tests) and regret (4 containment + 2 scaling): one Bonferroni family
    family_confidence = 1.0 - config.family_alpha / (ACCURACY_TESTS + 6)

    def accuracy(seed: np.random.SeedSequence) -> list[AuditResult]:
        return list(
            quick_accuracy_audits(
                seed=case_seed(seed), runs=config.accuracy_runs, confidence=family_confidence
            )
        )

    def regret(seed: np.random.SeedSequence) -> list[AuditResult]:
        containment, fits = quick_regret_audits(
            seed=case_seed(seed), runs=config.accuracy_runs, confidence=family_confidence
        )
        if scaling is not None:
            scaling.extend(fits)
        return list(containment)

    return [
        *out,
        AuditCase("gaussian_tree_billboard", "correct", billboard),
        AuditCase("gaussian_tree_black_box", "correct", black_box_gaussian),
        AuditCase("laplace_black_box", "correct", black_box_laplace),
        AuditCase("algorithm1_stream", "correct", streams),
        AuditCase("accuracy", "correct", accuracy),
        AuditCase("regret", "correct", regret),
    ]


def run_privacy_battery(
    config: BatteryConfig | None = None, *, progress: bool = True
) -> BatteryReport:
    """Run the default battery (:func:`cases`) with :func:`audit.cases.run_cases`: Holm at
    ``config.family_alpha`` over the privacy tests; the slack table and the scaling fits beside."""
    config = config or BatteryConfig()
    t0 = time.perf_counter()
    scaling: list[ScalingFit] = []
    bar = tqdm(total=None, disable=not progress, desc="privacy audits")

    def ticking(case: AuditCase) -> AuditCase:
        def run(seed: np.random.SeedSequence) -> Sequence[AuditResult]:
            results = case.run(seed)
            bar.update(1)
            return results

        return dataclasses.replace(case, run=run)

    battery = [ticking(c) for c in cases(config, scaling=scaling)]
    bar.total = len(battery)
    report = run_cases(battery, seed=config.seed, strategy=Holm(config.family_alpha))
    bar.close()
    return BatteryReport(
        config=config,
        cases=report,
        slack=slack_table(),
        runtime_seconds=time.perf_counter() - t0,
        scaling=scaling,
    )


def quick_regret_audits(
    *, seed: int, runs: int = 30, confidence: float = 0.99
) -> tuple[list[RunAuditResult], list[ScalingFit]]:
    """Theorem 5 containment at n = 500 (d = 3, K = 9, Δ = 0.1) for the four variants, ``runs``
    runs each; the non-private regret along runs of n = 2000 fitted against Theorem 5's form
    (``max(4, runs // 2)`` runs); and the tight Gaussian variant's private excess regret over
    ``ε ∈ {0.5, …, 8}`` at n = 3000 against Theorem 6's private term (``max(4, runs // 3)`` runs);
    each test at ``confidence``."""
    privacy = PrivacyParameters(1.0, 0.1)
    containment = [
        regret_containment_audit(
            variant,
            d=3,
            num_arms=9,
            gap=0.1,
            n=500,
            runs=runs,
            seed=seed_for(seed, f"thm5_containment_{variant}"),
            privacy=None if variant == "nonprivate" else privacy,
            confidence=confidence,
        )
        for variant in VARIANTS
    ]
    scaling = regret_scaling_in_n(
        "nonprivate",
        d=3,
        num_arms=9,
        gap=0.1,
        n=2000,
        runs=max(4, runs // 2),
        seed=seed_for(seed, "scaling_in_n_nonprivate"),
        confidence=confidence,
    )
    in_epsilon = regret_scaling_in_privacy(
        "gaussian",
        epsilons=(0.5, 1.0, 2.0, 4.0, 8.0),
        d=3,
        num_arms=9,
        gap=0.1,
        n=3000,
        runs=max(4, runs // 3),
        seed=seed_for(seed, "scaling_in_privacy_gaussian"),
        calibration="tight",
        confidence=confidence,
    )
    return containment, [scaling, in_epsilon]


ACCURACY_TESTS = 9
"""Tests of :func:`quick_accuracy_audits`: Definition 3 for four sources, the ellipsoid for five."""


def quick_accuracy_audits(
    *, seed: int, runs: int = 30, family_alpha: float = 0.05, confidence: float | None = None
) -> list[RunAuditResult]:
    """Definition 3 over whole runs (n = 32, α = 0.5) for the three private sources of the paper
    and the factorized one, and the Prop. 4 ellipsoid (n = 60, α = 0.1, ``runs // 3`` runs) for
    all five.  The nine binomial tests run at ``confidence`` (default ``1 − family_alpha/9``,
    Bonferroni)."""
    if confidence is None:
        confidence = 1.0 - family_alpha / ACCURACY_TESTS
    n, alpha, d = 32, 0.5, 2
    constants = ProblemConstants(d=d)
    privacy = PrivacyParameters(1.0, 0.1)
    out: list[RunAuditResult] = []
    private: tuple[Variant, ...] = ("gaussian", "wishart", "wishart_unshifted")
    for variant in private:
        _, claimed = regularizer_spec(variant, constants, n, alpha, privacy)
        out.append(
            regularizer_run_audit(
                TreeSourceSpec.of_variant(variant, constants, n, alpha, privacy),
                claimed,
                n,
                proof_failure_rate(variant, alpha),
                runs=runs,
                seed=seed_for(seed, f"definition3_run_{variant}"),
                name=f"definition3_run_{variant}",
                confidence=confidence,
            )
        )
    _, factorized_bounds = regularizer_spec(
        "factorized", constants, n, alpha, privacy, calibration="tight"
    )

    def factorized(rng: np.random.Generator) -> FactorizedStatistics:
        return make_factorized_regularizer(constants, n, alpha, rng, privacy)

    out.append(
        regularizer_run_audit(
            factorized,
            factorized_bounds,
            n,
            proof_failure_rate("factorized", alpha),
            runs=runs,
            seed=seed_for(seed, "definition3_run_factorized"),
            name="definition3_run_factorized",
            confidence=confidence,
        )
    )
    variants: tuple[Variant, ...] = ("nonprivate", *private, "factorized")
    for variant in variants:
        out.append(
            confidence_ellipsoid_audit(
                variant,
                d=d,
                num_arms=4,
                gap=0.1,
                n=60,
                alpha=0.1,
                runs=max(1, runs // 3),
                seed=seed_for(seed, f"confidence_ellipsoid_{variant}"),
                privacy=privacy,
                confidence=confidence,
                calibration="tight" if variant == "factorized" else "paper",
            )
        )
    return out


# --------------------------------------------------------------------------------------------
# the zoo
# --------------------------------------------------------------------------------------------
