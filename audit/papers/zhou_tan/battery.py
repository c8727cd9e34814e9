"""Privacy and correctness audits of the Zhou & Tan reference (``reference/zhou_tan``).

Paper: Zhou & Tan, "Local Differential Privacy for Bayesian Optimization" (AAAI 2021); locators
are the paper's own section, theorem, lemma and algorithm-line numbers.
Proof note: ``proofs_notes/audit/zhou_tan.md``.

Privacy (pure ϵ-LDP of CTL(ϵ), Curator 1 and Lemma 1, Sec. 4.1, and of the learner's transcript):

* :func:`ctl_closed_form_audit` -- the exact privacy curve of a (possibly broken) randomiser on a
  pair of raw rewards: two Laplace laws ``μ = |c(y) − c(y')|/𝓛`` apart (``c`` = the clip map, or
  the identity if clipping is missing), ``δ(ε) = max(0, 1 − e^{(ε − μ)/2})``
  (:func:`reference.accounting.laplace.laplace_delta`).
* :func:`ctl_white_box_audits` -- sampled privacy losses of the *reference* randomiser
  (:func:`reference.zhou_tan.mechanism.ctl_privatize`) read through its Laplace density, tested by
  :func:`audit.methods.white_box.privacy_loss_audit` (the engine of :class:`audit.papers.shariff_sheffet.cases.LossCase`).
* :func:`ctl_black_box_audits` -- the event audit (:func:`audit.methods.black_box.event_audit`,
  Clopper–Pearson) on the reference randomiser's outputs only.
* :func:`learner_transcript_audit` -- end to end: LDP-TGP-UCB run through the reference
  :class:`~reference.zhou_tan.environment.Curator` on two reward streams that differ only in user 1's
  raw reward (``B + R`` vs ``−(B + R)``); black-box event audit on the arms the learner chooses.

Every privacy test is run against two claims: the printed pure ``ϵ`` (Lemma 1) and the exact
guarantee of the correct mechanism at ``δ* = 10⁻³`` (``ε*(δ*) = ϵ + 2 ln(1 − δ*)``, tight for
Laplace, so the correct mechanism has *no* slack at ``δ = 0``).  A bug counts as caught when the exact
claim is rejected.  Broken randomisers (built from the reference with mis-set parameters):

* ``wrong_sensitivity`` -- scale ``(B+R)/ϵ`` instead of ``2(B+R)/ϵ`` (sensitivity taken as ``B+R``);
* ``missing_clipping`` -- Curator 1 verbatim (``clip=False``) fed a Student-t reward (Sec. 5.1: the
  heavy-tailed experiments), whose support is ``ℝ``, so Lemma 1's ``|y| ≤ B+R`` fails;
* learner ``raw_rewards`` -- the learner fed raw rewards (curator bypassed).

Correctness (MC1, MC2, MC3):

* :func:`tgp_confidence_event_audit` -- Eq. (21) for LDP-TGP-UCB (Alg. 2, Thm 3):
  ``|f − μ̂_t| ≤ β_{t+1}σ_t`` for all ``t ≤ T`` and ``x`` w.p. ``≥ 1 − δ``; broken: the
  IGP-UCB width of [6] for the raw noise ``R`` (the Laplace noise forgotten in ``β``).
* :func:`ata_confidence_event_audit` -- Thm 2 for LDP-ATA-GP-UCB (Alg. 1):
  ``|f − μ̃_t| ≤ β_{t+1}σ̃_t`` for all ``t ≤ T`` and ``x`` w.p. ``≥ 1 − δ``, built like the TGP
  audit; broken: the same IGP-UCB width (the Laplace noise forgotten in ``β``).
* :func:`nystrom_lemma8_audit` -- Lemma 8 (App. D.3): the Nyström dictionary of Alg. 4 is
  ε-accurate and ``m_n ≤ 6ρ(1+1/λ)qγ_n`` for all ``n ≤ N`` w.p. ``≥ 1 − δ`` at
  ``q = 6ρ ln(2T/δ)/ε²``; broken: ``q = ln T/ε²`` of [7]'s code (too few dictionary points).
* :func:`moma_confidence_event_audit` -- Thm 4 / Cor. 1 for LDP-MoMA-GP-UCB (Alg. 3), the final
  event of the proof (Eqs. 10/22, MC3 (iv)): ``|f − μ̃_n| ≤ β_{n+1}σ̃_n`` for all epochs
  ``n ≤ N`` and ``x`` w.p. ``≥ 1 − δ``; broken: ``β_{n+1} = B(1 + 1/√(1−ε))`` (the robust
  radius ``3γ/√λ`` forgotten).
* :func:`lemma92_variance_ratio_audit` -- Lemma 9.2 (MC3 (v)): ``σ̃_n ≤ ρσ_n`` for all ``x``
  on the ε-accuracy event (a deterministic implication), and for all ``n ≤ N`` w.p. ``≥ 1 − δ``
  at Lemma 8's ``q``; broken: ``q = 1`` (too few dictionary points), for which the unconditional
  claim is rejected.
* :func:`lemma10_radius_audit` -- Lemma 10 (App. D.3): one ridge estimator leaves the radius
  ``γ = (9mc)^{1/2}`` w.p. ``≤ 19/81``; broken: ``c`` without the Laplace variance.
* :func:`lemma11_count_audit` -- Lemma 11's Hoeffding step (proof of Lemma 11, App. D.3) with the corrected constant
  ``e^{−k/72}`` (passes) and the printed ``e^{−k/24}`` (rejected: T-9).
* :func:`mom_selection_audit` -- Lemma 11's conclusion through
  :func:`~reference.zhou_tan.robust.median_of_means_select`; broken: ``argmax`` instead of
  ``argmin`` of the median distances.

:func:`run_zhou_tan_battery` runs all of it and returns the results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from audit.cases import Tagged, caught_by_exact_or_accuracy
from audit.methods.binomial import RunAuditResult
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
    BROKEN_NAMES,
    Lemma92Variant,
    MomaWidthVariant,
    NystromVariant,
    WidthVariant,
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
    "run_zhou_tan_battery",
    "tagged_results",
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
            "lemma92_rounds",
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


def run_zhou_tan_battery(
    config: ZhouTanConfig | None = None,
) -> list[PrivacyAuditResult | RunAuditResult]:
    """Every Zhou & Tan audit, correct cases and broken ones, in a fixed order.

    Privacy results (:class:`PrivacyAuditResult`) carry ``details["broken"]``; a result whose name
    contains one of :data:`BROKEN_NAMES` is a deliberately broken case (expected: violation of the
    exact claim), every other one is expected to pass.  No family-wise correction is applied here:
    each test is at level ``1 − config.confidence``; the caller may apply Holm over the p-values.
    """
    c = ZhouTanConfig() if config is None else check_instance("config", config, ZhouTanConfig)
    params = c.params
    out: list[PrivacyAuditResult | RunAuditResult] = []
    printed, exact = ctl_claims(params)
    pairs: Sequence[tuple[str, NeighbouringPair[FloatArray]]] = (
        ("worst_case", worst_case_pair(params)),
        ("student_t", student_t_pair(params, c.student_t_df, c.student_t_quantile)),
    )
    for rand in ctl_variants(params):
        for pair_name, pair in pairs:
            if rand.name == "missing_clipping" and pair_name == "worst_case":
                continue  # clipping is a no-op inside the range
            for claim in (printed, exact):
                out.append(
                    ctl_closed_form_audit(
                        rand,
                        pair,
                        claim,
                        name=f"ctl_{rand.name} {pair_name} exact vs {claim.label}",
                    )
                )
            for res in ctl_white_box_audits(
                rand,
                pair,
                params,
                samples=c.mechanism_samples,
                seed=seed_for(c.seed, f"ctl_{rand.name}/{pair_name}/white_box"),
                confidence=c.confidence,
                pair_name=pair_name,
            ) + ctl_black_box_audits(
                rand,
                pair,
                params,
                samples=c.mechanism_samples,
                seed=seed_for(c.seed, f"ctl_{rand.name}/{pair_name}/black_box"),
                confidence=c.confidence,
                pair_name=pair_name,
            ):
                res.details["broken"] = rand.broken
                res.details["pair"] = pair.description
                out.append(res)
    for variant in ("ctl", "raw_rewards"):
        out.extend(
            learner_transcript_audit(
                params,
                variant,
                runs=c.learner_runs,
                rounds=c.learner_rounds,
                seed=seed_for(c.seed, f"learner_transcript/{variant}"),
                confidence=c.confidence,
            )
        )
    for width in ("theory", "width_ignores_laplace"):
        out.append(
            tgp_confidence_event_audit(
                params,
                width,
                runs=c.confidence_runs,
                rounds=c.confidence_rounds,
                seed=c.seed,
                confidence=c.confidence,
            )
        )
    ata_widths: tuple[WidthVariant, ...] = ("theory", "width_ignores_laplace")
    for ata_width in ata_widths:
        out.append(
            ata_confidence_event_audit(
                params,
                ata_width,
                runs=c.ata_runs,
                rounds=c.ata_rounds,
                seed=c.seed,
                confidence=c.confidence,
                eps_nys=c.eps_nys,
            )
        )
    nys_variants: tuple[NystromVariant, ...] = ("theory_q", "q_ref7_too_few")
    for nys in nys_variants:
        out.append(
            nystrom_lemma8_audit(
                nys,
                runs=c.nystrom_runs,
                rounds=c.nystrom_rounds,
                seed=c.seed,
                confidence=c.confidence,
                eps_nys=c.eps_nys,
                delta=c.nystrom_delta,
            )
        )
    moma_widths: tuple[MomaWidthVariant, ...] = ("theory", "width_drops_radius")
    for moma_width in moma_widths:
        out.append(
            moma_confidence_event_audit(
                LDPParams(c.moma_eps, c.B, c.R),
                moma_width,
                runs=c.moma_runs,
                rounds=c.moma_rounds,
                seed=c.seed,
                confidence=c.confidence,
                eps_nys=c.eps_nys,
            )
        )
    l92_variants: tuple[Lemma92Variant, ...] = ("theory_q", "q_one")
    for l92 in l92_variants:
        out.extend(
            lemma92_variance_ratio_audit(
                l92,
                runs=c.lemma92_runs,
                rounds=c.lemma92_rounds,
                seed=c.seed,
                confidence=c.confidence,
                eps_nys=c.eps_nys,
                delta=c.nystrom_delta,
            )
        )
    for radius in ("paper", "c_without_laplace"):
        out.append(
            lemma10_radius_audit(
                params,
                radius,
                estimators=c.lemma10_estimators,
                seed=c.seed,
                confidence=c.confidence,
            )
        )
    for bound in ("corrected", "paper"):
        out.append(
            lemma11_count_audit(
                params,
                bound,
                k=c.lemma11_k,
                p=c.lemma11_p,
                runs=c.lemma11_runs,
                seed=c.seed,
                confidence=c.confidence,
            )
        )
    for selection in ("argmin", "argmax"):
        out.append(
            mom_selection_audit(
                params,
                selection,
                k=c.lemma11_k,
                p=c.lemma11_p,
                runs=c.mom_runs,
                seed=c.seed,
                confidence=c.confidence,
            )
        )
    return out


def tagged_results(seed: int, quick: bool) -> list[Tagged]:
    """The battery as ``privonline audit papers`` runs it (:mod:`audit.papers`): every result,
    tagged with the broken variant named in it (:data:`BROKEN_NAMES`) and whether its rejection
    catches it."""
    config = ZhouTanConfig(seed=seed, mechanism_samples=50_000 if quick else 200_000)
    out: list[Tagged] = []
    for r in run_zhou_tan_battery(config):
        bug = next((b for b in BROKEN_NAMES if b in r.name), None)
        out.append((r, bug, caught_by_exact_or_accuracy(r, bug)))
    return out
