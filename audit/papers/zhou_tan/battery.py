"""Privacy and correctness audits of the Zhou & Tan reference (``reference/zhou_tan``, AAAI 2021).

Privacy (pure ϵ-LDP of CTL(ϵ), Curator 1 and Lemma 1, Sec. 4.1, and of the learner's transcript):
closed-form, white-box and black-box audits of the randomiser and the end-to-end audit of the
arms of LDP-TGP-, LDP-ATA- and LDP-MoMA-GP-UCB, each against the printed ``ϵ`` and the exact guarantee at ``δ* = 10⁻³``; broken:
wrong sensitivity, missing clipping, raw rewards.  Correctness (MC1-MC3): the confidence events of
Eq. (21) (Alg. 2, Thm 3), Thm 2 (Alg. 1) and Thm 4 / Cor. 1 (Alg. 3), Lemma 8 (App. D.3),
Lemma 9.2, Lemma 10, Lemma 11 (corrected constant) and median-of-means selection, each with a
broken variant.  :func:`run_zhou_tan_battery` runs all of it and returns the results.

Proof note: ``proofs_notes/audit/zhou_tan.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from audit.cases import AuditCase, AuditResult, CaseReport, Role, case_seed, run_cases
from audit.familywise import FamilyWise, PerTest
from audit.papers.zhou_tan.accuracy import (
    ata_confidence_event_audit,
    lemma10_radius_audit,
    lemma11_count_audit,
    lemma92_variance_ratio_audit,
    mom_selection_audit,
    moma_confidence_event_audit,
    nystrom_lemma8_audit,
    tgp_confidence_event_audit,
)
from audit.papers.zhou_tan.cases import (
    CTLRandomiser,
    LearnerName,
    LearnerVariant,
    Lemma92Variant,
    ctl_black_box_audits,
    ctl_claims,
    ctl_closed_form_audit,
    ctl_variants,
    ctl_white_box_audits,
    learner_transcript_audit,
    student_t_pair,
    worst_case_pair,
)
from audit.protocols import NeighbouringPair
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray
from reference.rng import check_seed, seed_for
from reference.validation import check_in_range, check_instance, check_int_at_least, check_positive
from reference.zhou_tan.mechanism import LDPParams

__all__ = [
    "ZhouTanConfig",
    "cases",
    "papers_cases",
    "run_zhou_tan_battery",
]


@dataclass(frozen=True)
class ZhouTanConfig:
    """Parameters of the battery: LDP parameters ``(ϵ, B, R)`` (Sec. 5.1: ``B = R = 1``),
    sample sizes, seeds and the confidence ``1 − β`` of every single test."""

    eps: float = 1.0
    B: float = 1.0
    R: float = 1.0
    confidence: float = 0.999
    mechanism_samples: int = 200_000
    learner_runs: int = 1000
    learner_rounds: int = 4
    moma_learner_rounds: int = 8
    confidence_runs: int = 100
    confidence_rounds: int = 40
    ata_runs: int = 100
    ata_rounds: int = 40
    eps_nys: float = 0.5
    nystrom_runs: int = 50
    nystrom_rounds: int = 300
    nystrom_delta: float = 0.2
    lemma10_estimators: int = 4000
    lemma11_runs: int = 20_000
    lemma11_k: int = 100
    lemma11_p: float = 0.249
    mom_runs: int = 300
    moma_runs: int = 40
    moma_rounds: int = 3000
    moma_eps: float = 0.5
    lemma92_runs: int = 50
    lemma92_rounds: int = 100
    seed: int = 20261123
    student_t_df: float = 3.0
    student_t_quantile: float = 0.999

    def __post_init__(self) -> None:
        LDPParams(self.eps, self.B, self.R)  # checks eps, B and R
        check_in_range("confidence", self.confidence, 0.0, 1.0)
        for count in (
            "mechanism_samples", "learner_runs", "confidence_runs", "ata_runs", "nystrom_runs",
            "lemma10_estimators", "lemma11_runs", "mom_runs", "moma_runs", "lemma92_runs",
        ):  # fmt: skip
            check_int_at_least(count, getattr(self, count), 1)
        for rounds in (
            "learner_rounds", "confidence_rounds", "ata_rounds", "nystrom_rounds", "moma_rounds",
            "lemma92_rounds", "moma_learner_rounds",
        ):  # fmt: skip
            check_int_at_least(rounds, getattr(self, rounds), 2)
        check_in_range("eps_nys", self.eps_nys, 0.0, 1.0)
        check_positive("moma_eps", self.moma_eps)  # the LDP epsilon of the MoMA audit
        check_in_range("nystrom_delta", self.nystrom_delta, 0.0, 1.0)
        check_int_at_least("lemma11_k", self.lemma11_k, 2)
        check_in_range("lemma11_p", self.lemma11_p, 0.0, 0.25)
        check_seed(self.seed, "seed")
        check_positive("student_t_df", self.student_t_df)
        check_in_range("student_t_quantile", self.student_t_quantile, 0.5, 1.0)

    @property
    def params(self) -> LDPParams:
        """The correct CTL parameters (clipping on)."""
        return LDPParams(self.eps, self.B, self.R)


# --------------------------------------------------------------------------------------------
# The battery
# --------------------------------------------------------------------------------------------


def _role(bug: str | None) -> Role:
    return "correct" if bug is None else "broken"


def _ctl_cases(c: ZhouTanConfig) -> list[AuditCase]:
    """Per randomiser and pair: the closed form (no draws), the white box and the black box."""
    params = c.params
    printed, exact = ctl_claims(params)
    pairs: Sequence[tuple[str, NeighbouringPair[FloatArray]]] = (
        ("worst_case", worst_case_pair(params)),
        ("student_t", student_t_pair(params, c.student_t_df, c.student_t_quantile)),
    )
    out: list[AuditCase] = []
    for rand in ctl_variants(params):
        bug = rand.name if rand.broken else None
        for pair_name, pair in pairs:
            if rand.name == "missing_clipping" and pair_name == "worst_case":
                continue  # clipping is a no-op inside the range
            stem = f"ctl_{rand.name}/{pair_name}"

            def closed_form(
                _seed: np.random.SeedSequence,
                rand: CTLRandomiser = rand,
                pair: NeighbouringPair[FloatArray] = pair,
                pair_name: str = pair_name,
            ) -> list[AuditResult]:
                return [
                    ctl_closed_form_audit(
                        rand,
                        pair,
                        claim,
                        name=f"ctl_{rand.name} {pair_name} closed form vs {claim.label}",
                    )
                    for claim in (printed, exact)
                ]

            def sampled(
                seed: np.random.SeedSequence,
                audits: Callable[..., list[PrivacyAuditResult]],
                rand: CTLRandomiser = rand,
                pair: NeighbouringPair[FloatArray] = pair,
                pair_name: str = pair_name,
            ) -> list[AuditResult]:
                results = audits(
                    rand,
                    pair,
                    params,
                    samples=c.mechanism_samples,
                    seed=case_seed(seed),  # = seed_for(c.seed, case name)
                    confidence=c.confidence,
                    pair_name=pair_name,
                )
                for res in results:
                    res.details["broken"] = rand.broken
                    res.details["pair"] = pair.description
                return list(results)

            out += [
                AuditCase(f"{stem}/closed_form", _role(bug), closed_form, bug),
                AuditCase(
                    f"{stem}/white_box",
                    _role(bug),
                    functools.partial(sampled, audits=ctl_white_box_audits),
                    bug,
                ),
                AuditCase(
                    f"{stem}/black_box",
                    _role(bug),
                    functools.partial(sampled, audits=ctl_black_box_audits),
                    bug,
                ),
            ]
    return out


def _learner_cases(c: ZhouTanConfig) -> list[AuditCase]:
    """The transcript audit of each LDP learner (TGP, ATA, MoMA), with CTL and with raw rewards."""
    out = []
    variants: tuple[tuple[LearnerVariant, str | None], ...] = (
        ("ctl", None),
        ("raw_rewards", "raw_rewards"),
    )
    learners: tuple[tuple[LearnerName, str, int], ...] = (
        ("tgp", "learner_transcript", c.learner_rounds),
        ("ata", "learner_transcript_ata", c.learner_rounds),
        ("moma", "learner_transcript_moma", c.moma_learner_rounds),
    )
    for learner, stem, rounds in learners:
        for variant, bug in variants:

            def run(
                seed: np.random.SeedSequence,
                variant: LearnerVariant = variant,
                learner: LearnerName = learner,
                rounds: int = rounds,
            ) -> list[AuditResult]:
                return list(
                    learner_transcript_audit(
                        c.params,
                        variant,
                        runs=c.learner_runs,
                        rounds=rounds,
                        seed=case_seed(seed),  # = seed_for(c.seed, case name)
                        confidence=c.confidence,
                        learner=learner,
                    )
                )

            # one bug name per learner, so that each learner's raw-reward twin must be caught
            named = None if bug is None else (bug if learner == "tgp" else f"{learner}_{bug}")
            out.append(AuditCase(f"{stem}/{variant}", _role(named), run, named))
    return out


def _accuracy_cases(c: ZhouTanConfig) -> list[AuditCase]:
    """The correctness audits (module docstring), each a correct case and its broken twin, each
    drawing from its own name-keyed seed (:func:`audit.cases.case_seed`); the two Lemma 9.2 cases
    of one variant read one run, seeded by the variant's name."""
    common: dict[str, Any] = {"confidence": c.confidence}
    nys: dict[str, Any] = {"eps_nys": c.eps_nys, **common}
    lemma11: dict[str, Any] = {"k": c.lemma11_k, "p": c.lemma11_p, **common}
    params, moma = (c.params,), (LDPParams(c.moma_eps, c.B, c.R),)
    width = ("theory", "width_ignores_laplace")
    cases = [
        *_twins("tgp_confidence_event", tgp_confidence_event_audit, params, width, width[1],
                runs=c.confidence_runs, rounds=c.confidence_rounds, **common),
        *_twins("ata_confidence_event", ata_confidence_event_audit, params, width, width[1],
                runs=c.ata_runs, rounds=c.ata_rounds, **nys),
        *_twins("nystrom_lemma8", nystrom_lemma8_audit, (), ("theory_q", "q_ref7_too_few"),
                "q_ref7_too_few", runs=c.nystrom_runs, rounds=c.nystrom_rounds,
                delta=c.nystrom_delta, **nys),
        *_twins("moma_confidence_event", moma_confidence_event_audit, moma,
                ("theory", "width_drops_radius"), "width_drops_radius", runs=c.moma_runs,
                rounds=c.moma_rounds, **nys),
    ]  # fmt: skip
    lemma92: tuple[tuple[Lemma92Variant, str | None], ...] = (
        ("theory_q", None),
        ("q_one", "q_one_unconditional"),
    )
    for l92, bug in lemma92:
        # one run gives both results: the implication on the accuracy event (which holds for any
        # q: a correct claim) and the unconditional claim (the bug for q = 1)
        both = _once(
            functools.partial(
                lemma92_variance_ratio_audit, l92, runs=c.lemma92_runs, rounds=c.lemma92_rounds,
                delta=c.nystrom_delta, seed=seed_for(c.seed, f"lemma92/{l92}"), **nys,
            )
        )  # fmt: skip
        cases += [
            AuditCase(f"lemma92/{l92}/on_accurate", "correct", _part(both, 0)),
            AuditCase(f"lemma92/{l92}/unconditional", _role(bug), _part(both, 1), bug),
        ]
    return [
        *cases,
        *_twins("lemma10_radius", lemma10_radius_audit, params, ("paper", "c_without_laplace"),
                "c_without_laplace", estimators=c.lemma10_estimators, **common),
        *_twins("lemma11_count", lemma11_count_audit, params, ("corrected", "paper"),
                "lemma11_paper_constant", runs=c.lemma11_runs, **lemma11),
        *_twins("mom_selection", mom_selection_audit, params, ("argmin", "argmax"), "mom_argmax",
                runs=c.mom_runs, **lemma11),
    ]  # fmt: skip


def _twins(
    stem: str,
    audit: Callable[..., AuditResult],
    lead: tuple[Any, ...],
    variants: tuple[str, str],
    bug: str,
    **kwargs: Any,
) -> list[AuditCase]:
    """``audit(*lead, variant, **kwargs)`` for the correct variant and for the broken one (whose
    case names ``bug``), cases ``<stem>/<variant>``; the audits check the variant names."""
    return [
        AuditCase(
            f"{stem}/{variant}",
            _role(b),
            _single(functools.partial(audit, *lead, variant, **kwargs)),
            b,
        )
        for variant, b in ((variants[0], None), (variants[1], bug))
    ]


def _single(
    run: Callable[..., AuditResult],
) -> Callable[[np.random.SeedSequence], list[AuditResult]]:
    """The case's tester: ``run`` with the case's name-keyed integer seed."""
    return lambda seed: [run(seed=case_seed(seed))]


def _once(run: Callable[[], Sequence[AuditResult]]) -> Callable[[], Sequence[AuditResult]]:
    """``run`` computed on first call and remembered (two cases read one run)."""
    memo: list[Sequence[AuditResult]] = []

    def get() -> Sequence[AuditResult]:
        if not memo:
            memo.append(run())
        return memo[0]

    return get


def _part(
    run: Callable[[], Sequence[AuditResult]], index: int
) -> Callable[[np.random.SeedSequence], list[AuditResult]]:
    return lambda _seed: [run()[index]]


def cases(config: ZhouTanConfig | None = None) -> list[AuditCase]:
    """Every Zhou & Tan audit (module docstring) as an :class:`~audit.cases.AuditCase`, correct
    and broken, in a fixed order: the CTL randomiser (closed form, white box, black box per pair),
    the learner transcript, then the correctness audits."""
    c = ZhouTanConfig() if config is None else check_instance("config", config, ZhouTanConfig)
    return _ctl_cases(c) + _learner_cases(c) + _accuracy_cases(c)


def run_zhou_tan_battery(
    config: ZhouTanConfig | None = None, *, strategy: FamilyWise | None = None
) -> CaseReport:
    """Run :func:`cases` with :func:`audit.cases.run_cases` from ``config.seed``.  The default
    ``strategy`` is :class:`~audit.familywise.PerTest` at ``1 − config.confidence``: every test at
    its own level, as the proof note's error rates state (Bonferroni over the family); pass
    :class:`~audit.familywise.Holm` for a family-wise verdict."""
    c = ZhouTanConfig() if config is None else check_instance("config", config, ZhouTanConfig)
    strategy = PerTest(1.0 - c.confidence) if strategy is None else strategy
    return run_cases(cases(c), seed=c.seed, strategy=strategy)


def papers_cases(seed: int, quick: bool) -> list[AuditCase]:
    """The battery as ``privonline audit papers`` runs it (:mod:`audit.papers.combined`) for the
    root ``seed``; ``quick`` uses smaller mechanism samples."""
    return cases(ZhouTanConfig(seed=seed, mechanism_samples=50_000 if quick else 200_000))
