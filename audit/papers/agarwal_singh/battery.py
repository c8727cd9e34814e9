"""Privacy and accuracy audits of the Agarwal & Singh reference (ICML 2017).

Neighbours are those of Definition 2.1 (replace-one, worst case ``t₀ = 1``).  Every mechanism is
audited against the ``printed`` claim (Lemma 3.3, Thm 3.1, Lemma 4.2; Thm A.1 / Thm 3.5) and the
``exact`` guarantee of the correct (strict) mechanism at ``δ* = 10⁻³``; a bug counts as caught
when the exact claim is rejected.  Audits: the Laplace tree (node view white box, releases black
box), private FTRL (Algorithm 1), the bandit reduction (Algorithm 4; canary and EXP2, Algorithm 5),
the Gaussian tree and private FTPL (Algorithm 3); broken variants reuse noise, miscount nodes or
use too little noise.  Holm over every privacy test of :func:`run_agarwal_singh_battery`; accuracy
against Lemma 3.3.

Proof note: ``proofs_notes/audit/agarwal_singh.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from audit.cases import AuditCase, AuditResult, CaseReport, Role, case_seed, run_cases
from audit.familywise import FamilyWise, Holm
from audit.papers.agarwal_singh.accuracy import accuracy_cases
from audit.papers.agarwal_singh.cases import (
    AgarwalSinghAuditConfig,
    AgarwalSinghCase,
    _config_or_default,
    ftrl_action_cases,
    tree_node_view_cases,
    tree_release_cases,
)
from audit.papers.agarwal_singh.cases import Role as AgarwalSinghRole
from audit.papers.agarwal_singh.gaussian import ftpl_action_cases, gaussian_release_cases
from audit.papers.agarwal_singh.reduction import (
    dense_canary_cases,
    exp2_reduction_cases,
    reduction_canary_cases,
)
from audit.results import PrivacyAuditResult
from audit.stats import clopper_pearson
from reference.rng import as_seed_sequence, named_seed
from reference.validation import (
    check_bool,
    check_size,
)

__all__ = [
    "PowerRow",
    "cases",
    "papers_cases",
    "privacy_cases",
    "run_agarwal_singh_battery",
    "run_agarwal_singh_power",
]


def privacy_cases(config: AgarwalSinghAuditConfig | None = None) -> list[AgarwalSinghCase]:
    """Every case, in a fixed order: tree node view, tree releases, FTRL actions, reduction
    canary, Gaussian tree, FTPL actions, reduction around EXP2, dense canary on the cube (each new
    group appended last so
    that the battery's and the power runs' per-case seeds of the earlier cases do not move)."""
    c = _config_or_default(config)
    return (
        tree_node_view_cases(c)
        + tree_release_cases(c)
        + ftrl_action_cases(c)
        + reduction_canary_cases(c)
        + gaussian_release_cases(c)
        + ftpl_action_cases(c)
        + exp2_reduction_cases(c)
        + dense_canary_cases(c)
    )


def _samples_for(case: AgarwalSinghCase, config: AgarwalSinghAuditConfig) -> int:
    if case.method == "white_box":
        return config.white_box_samples
    if case.name.startswith("reduction_exp2"):
        return config.exp2_samples
    if case.name.startswith("reduction"):
        return config.bandit_samples
    return config.black_box_samples


def _case_role(case: AgarwalSinghCase) -> tuple[Role, str | None]:
    """The case's role and bug in :mod:`audit.cases`: a paper-calibrated case whose claims the exact
    accountant predicts to hold is a correct mechanism here; one predicted to fail one of them is the
    paper's erratum; a broken variant's bug is shared by its views (node view, releases)."""
    base = case.name.removesuffix("_node_view").removesuffix("_releases")
    if case.role == "broken":
        return "broken", base
    predicted = case.expected_printed_violation or case.expected_exact_violation
    if case.role == "paper" and predicted:
        return "paper_calibration", f"{base} (paper calibration, erratum)"
    return "correct", None


def _audit_case(case: AgarwalSinghCase, config: AgarwalSinghAuditConfig) -> AuditCase:
    """``case`` as an :class:`~audit.cases.AuditCase`: one draw per side tested against the printed
    and the exact claim at confidence ``1 − family_alpha``; a rejection counts for power exactly
    where the exact accountant predicts a violation (``details["expected_violation"]``)."""

    def run(seed: np.random.SeedSequence) -> list[PrivacyAuditResult]:
        results = case.audit_claims(
            [case.printed, case.exact],
            samples=_samples_for(case, config),
            seed=case_seed(seed),  # = seed_for(root, case.name): seeds follow names
            confidence=1.0 - config.family_alpha,
        )
        out = []
        for r in results:
            details = dict(r.details)
            details["expected_violation"] = case.expected_violation(r.claim)
            out.append(dataclasses.replace(r, details=details))
        return out

    def counts_for_power(result: AuditResult, _bug: str | None) -> bool:
        return isinstance(result, PrivacyAuditResult) and case.expected_violation(result.claim)

    role, bug = _case_role(case)
    return AuditCase(case.name, role, run, bug, counts_for_power)


def _accuracy_case(config: AgarwalSinghAuditConfig) -> AuditCase:
    """The accuracy audits of the correct tree (:func:`accuracy_cases`, seeded by
    ``config.seed`` as before the case runner)."""
    return AuditCase("accuracy", "correct", lambda _seed: accuracy_cases(config))


def cases(
    config: AgarwalSinghAuditConfig | None = None,
    *,
    include_broken: bool = True,
    names: Sequence[str] | None = None,
) -> list[AuditCase]:
    """Every privacy case (:func:`privacy_cases`, or those in ``names``; the broken variants only
    with ``include_broken``) as :class:`~audit.cases.AuditCase`, then the accuracy audits."""
    c = _config_or_default(config)
    include_broken = check_bool("include_broken", include_broken)
    every = privacy_cases(c)
    _check_names(names, every)
    chosen = [
        _audit_case(k, c)
        for k in every
        if (include_broken or not k.broken) and (names is None or k.name in names)
    ]
    return [*chosen, _accuracy_case(c)]


def _check_names(names: Sequence[str] | None, cases: Sequence[AgarwalSinghCase]) -> None:
    """``names`` is ``None`` (every case) or a non-empty sequence of known case names: an unknown
    or misspelt name is refused rather than silently skipped."""
    if names is None:
        return
    if isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise ValueError(f"names must be a sequence of case names, got {names!r:.80}")
    if len(names) == 0:
        raise ValueError("names must hold at least one case name (None runs every case)")
    known = [k.name for k in cases]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"names must be case names among {known}, got unknown {unknown}")


def run_agarwal_singh_battery(
    config: AgarwalSinghAuditConfig | None = None,
    *,
    include_broken: bool = False,
    names: Sequence[str] | None = None,
    strategy: FamilyWise | None = None,
) -> CaseReport:
    """Audit the correct and the paper-calibrated mechanisms against their printed and exact
    claims (:func:`cases`), run by :func:`audit.cases.run_cases` with ``strategy`` (default
    Holm at ``config.family_alpha``) over the privacy tests of correct cases.

    The paper-calibrated Laplace cases are the paper's errata: expected to be rejected against the
    printed pure ε (their exact ε is ``h·Δ₁/λ > ε``), and ``report.missed`` lists those that were
    not.  ``include_broken`` adds the deliberately broken variants (power demonstration);
    ``names`` restricts the privacy cases to the named ones."""
    c = _config_or_default(config)
    strategy = Holm(c.family_alpha) if strategy is None else strategy
    return run_cases(
        cases(c, include_broken=include_broken, names=names), seed=c.seed, strategy=strategy
    )


@dataclass(frozen=True)
class PowerRow:
    """Rejections of one case's exact and printed claims over ``reps`` independent audits, with
    one-sided 95% Clopper–Pearson bounds on the exact-claim rejection rate (power for broken cases,
    false-alarm rate for correct ones)."""

    name: str
    role: AgarwalSinghRole
    method: str
    reps: int
    rejected_exact: int
    rejected_printed: int
    rate_exact_lower: float
    rate_exact_upper: float


def run_agarwal_singh_power(
    config: AgarwalSinghAuditConfig | None = None,
    *,
    reps: int = 60,
    seed: int = 13,
    names: Sequence[str] | None = None,
) -> list[PowerRow]:
    """Audit every case (or those in ``names``) ``reps`` times with independent seeds: case ``c``'s
    repetitions take the first ``reps`` words of ``named_seed(seed, c)``, so they follow its name,
    not its place in the list."""
    c = _config_or_default(config)
    reps = check_size("reps", reps, 1, item_bytes=8, what="a repetition's result")
    as_seed_sequence(seed, "seed")
    every = privacy_cases(c)
    _check_names(names, every)
    chosen = [k for k in every if names is None or k.name in names]
    rows = []
    for case in chosen:
        hits_exact = hits_printed = 0
        # seeds follow names: a case's repetitions do not depend on which other cases run
        for s in named_seed(seed, case.name).generate_state(reps):
            exact, printed = case.audit_claims(
                [case.exact, case.printed],
                samples=_samples_for(case, c),
                seed=int(s),
                confidence=c.confidence,
            )
            hits_exact += int(exact.violation)
            hits_printed += int(printed.violation)
        low, high = clopper_pearson(hits_exact, reps, 0.05)
        rows.append(
            PowerRow(case.name, case.role, case.method, reps, hits_exact, hits_printed, low, high)
        )
    return rows


def papers_cases(seed: int, quick: bool) -> list[AuditCase]:
    """The battery as ``privonline audit papers`` runs it (:mod:`audit.papers.combined`): every
    case, broken variants included, for the root ``seed``; ``quick`` uses smaller samples."""
    sizes = (
        # black-box samples stay at 200k: below that the paper-FTRL erratum loses its power
        {"white_box_samples": 20_000, "bandit_samples": 5_000} if quick else {}
    )
    return cases(AgarwalSinghAuditConfig(seed=seed, **sizes), include_broken=True)
