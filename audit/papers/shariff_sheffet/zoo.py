"""The Shariff & Sheffet bug zoo: power and false-alarm rates of the audits, measured by repetition.

:func:`run_zoo` runs every loss case of :func:`audit.papers.shariff_sheffet.cases.privacy_zoo`
``reps`` times (white box against the printed and the exact claim) and
:func:`run_billboard_zoo` the billboard cases; each :class:`ZooRow` holds the rejection counts
with Clopper–Pearson bounds on both rates.  :func:`shift_forgotten_audit` is the accuracy-event
audit of the "shift forgotten" bug (``privonline audit zoo``).

Proof note: ``proofs_notes/audit/zoo_and_battery.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tqdm.auto import tqdm

from audit.methods.billboard import RedrawingTree, billboard_audit
from audit.methods.binomial import RunAuditResult
from audit.papers.shariff_sheffet.accuracy import regularizer_accuracy_audit
from audit.papers.shariff_sheffet.cases import (
    LossCase,
    TreeConfig,
    privacy_zoo,
)
from audit.stats import clopper_pearson
from reference.noise import WishartNoise
from reference.rng import named_seed
from reference.shariff_sheffet.bounds import (
    wishart_shifted_bounds,
)
from reference.tree import TreeAggregator
from reference.validation import check_int_at_least

__all__ = ["ZooRow", "run_billboard_zoo", "run_zoo", "shift_forgotten_audit"]


@dataclass(frozen=True)
class ZooRow:
    """Detection counts of one case over ``reps`` independent audits (``rejected_printed`` is
    ``None`` for cases that have no printed claim, such as the scaled billboard setting)."""

    name: str
    description: str
    broken: bool
    reps: int
    rejected_exact: int
    rejected_printed: int | None
    rate_exact_lower: float
    rate_exact_upper: float

    @property
    def rate_exact(self) -> float:
        return self.rejected_exact / self.reps


def run_zoo(
    *,
    reps: int = 60,
    samples: int = 100_000,
    seed: int = 11,
    confidence: float = 0.95,
    cases: list[LossCase] | None = None,
    progress: bool = False,
) -> list[ZooRow]:
    """Audit every zoo case ``reps`` times (independent seeds) against its exact and printed claims.

    ``rate_exact_lower``/``upper`` are 95% one-sided Clopper–Pearson bounds on the rejection rate
    (power for broken cases, false-alarm rate for correct ones).
    """
    reps = check_int_at_least("reps", reps, 1)
    rows: list[ZooRow] = []
    for case in cases or privacy_zoo():
        rep_seeds = named_seed(seed, case.name).generate_state(reps)
        hits_exact = hits_printed = 0
        for s in tqdm(rep_seeds, disable=not progress, desc=case.name, leave=False):
            claims = [case.exact] if case.printed == case.exact else [case.exact, case.printed]
            results = case.audit_claims(
                claims, samples=samples, seed=int(s), confidence=confidence, curve=False
            )
            hits_exact += int(results[0].violation)
            hits_printed += int(results[-1].violation)
        low, _ = clopper_pearson(hits_exact, reps, 0.05)
        _, high = clopper_pearson(hits_exact, reps, 0.05)
        rows.append(
            ZooRow(
                case.name, case.description, case.broken, reps, hits_exact, hits_printed, low, high
            )
        )
    return rows


def shift_forgotten_audit(
    config: TreeConfig | None = None, *, releases: int = 200, seed: int = 5, forget: bool = True
) -> RunAuditResult:
    """The "shift forgotten" bug: the shifted-Wishart bounds of Prop. 9 claimed for a release whose
    ``−cI`` shift was not applied.  Audited through the accuracy event (Definition 3): the bounds
    are evaluated at ``α = 0.5`` so the nominal per-release failure rate is testable
    (``3α/4n`` with the paper's union bound, R-ACCT)."""
    c = config or TreeConfig()
    alpha = 0.5
    bounds = wishart_shifted_bounds(c.d, c.m, c.k, c.L_tilde, c.n, alpha)
    noise = WishartNoise(c.p, c.k, c.L_tilde**2)
    return regularizer_accuracy_audit(
        noise,
        c.m,
        c.d,
        bounds,
        3.0 * alpha / (4.0 * c.n),
        releases=releases,
        seed=seed,
        name="wishart_shift_forgotten" if forget else "wishart_shifted",
        shift=0.0 if forget else None,
    )


def run_billboard_zoo(
    *, reps: int = 60, seed: int = 12, replicates: int = 20_000, progress: bool = False
) -> list[ZooRow]:
    """Power against the "node noise redrawn at each use" bug, and false alarms on the correct
    tree, through the billboard audit (:mod:`audit.methods.billboard`) with ``replicates``
    transcripts per side; same bounds as :func:`run_zoo`.  ``2·10⁴`` catches the bug in 60/60
    (largest p = 1.1·10⁻⁷); with an earlier, weaker black box ``10⁴`` missed it once in 60
    (``proofs_notes/audit/billboard.md``)."""
    reps = check_int_at_least("reps", reps, 1)
    rows: list[ZooRow] = []
    cases: list[tuple[str, str, bool, Any]] = [
        ("tree_billboard", "correct tree, billboard view (n=256, μ=0.5)", False, TreeAggregator),
        (
            "tree_node_noise_redrawn",
            "tree that redraws node noise at every release",
            True,
            RedrawingTree,
        ),
    ]
    for name, description, broken, factory in cases:
        hits = 0
        for s in tqdm(
            named_seed(seed, name).generate_state(reps),
            disable=not progress,
            desc=name,
            leave=False,
        ):
            result = billboard_audit(factory, seed=int(s), name=name, replicates=replicates)
            hits += int(result.violation)
        low, _ = clopper_pearson(hits, reps, 0.05)
        _, high = clopper_pearson(hits, reps, 0.05)
        rows.append(ZooRow(name, description, broken, reps, hits, None, low, high))
    return rows
