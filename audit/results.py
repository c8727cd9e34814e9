"""Typed, printable, JSON-serialisable results of privacy audits.

One :class:`PrivacyAuditResult` per test, in the spirit of scipy's named results and statsmodels'
results objects: the numbers a reviewer needs (claim, estimate, confidence bounds, p-value, sample
size, seed, runtime) and a :meth:`~PrivacyAuditResult.summary`.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import importlib.metadata
import platform
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from audit.protocols import PrivacyClaim
from reference.files import dumps_json, produced_by, source_revision, to_jsonable

__all__ = [
    "INCONCLUSIVE_FACTOR",
    "POWER",
    "SCHEMA_VERSION",
    "AuditMethod",
    "CurvePoint",
    "PrivacyAuditResult",
    "Verdict",
    "package_versions",
    "produced_by",
    "produced_by_line",
    "source_revision",
    "to_jsonable",
]

SCHEMA_VERSION = 2
"""Version of the JSON report schema; bumped on any incompatible change (2: three-valued
``verdict`` and the power statement ``detectable_epsilon`` / ``detectable_delta``)."""

VERSIONED_PACKAGES = ("privonline", "numpy", "scipy", "numba", "statsmodels", "scikit-learn")


def package_versions() -> dict[str, str]:
    """Python's version and those of the packages a measurement depends on (``"not installed"``
    where absent), recorded in every benchmark, calibration and reproduction report."""
    versions = {"python": platform.python_version()}
    for package in VERSIONED_PACKAGES:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = "not installed"
    return versions


def produced_by_line() -> str:
    """The line every Markdown report carries: the privonline version and source revision that
    produced it, so that a cited number can be traced to its code."""
    made = produced_by()
    return f"Produced by privonline {made['privonline']} at revision `{made['revision']}`."


AuditMethod: TypeAlias = Literal["white_box", "black_box", "closed_form"]
Verdict: TypeAlias = Literal["VIOLATION", "pass", "inconclusive"]

POWER = 0.95
"""The probability with which a power statement's violation would have been caught."""

INCONCLUSIVE_FACTOR = 2.0
"""A black-box test that did not reject passes only if it would have caught, with probability
``≥ 0.95``, a violation up to ``INCONCLUSIVE_FACTOR · max(ε_claim, 0.05)`` on the event it audited
(``detectable_epsilon``); a weaker power statement is ``"inconclusive"``, never a pass."""


@dataclass(frozen=True)
class CurvePoint:
    """One point of an estimated privacy curve ``ε ↦ δ(ε) = max(δ_{P‖Q}(ε), δ_{Q‖P}(ε))``."""

    epsilon: float
    delta_estimate: float
    delta_lower: float
    delta_upper: float


@dataclass(frozen=True)
class PrivacyAuditResult:
    """The outcome of one privacy test of one mechanism against one claim.

    Attributes:
        name: the test's name (unique within a battery).
        mechanism: a description of the audited mechanism.
        method: ``"white_box"`` (sampled privacy loss), ``"black_box"`` (event counts) or
            ``"closed_form"`` (exact formula, no sampling).
        claim: the claimed ``(ε, δ)`` and relation.
        violation: ``True`` when the test rejects the claim at its confidence level.
        p_value: p-value of ``H₀: the claim holds on this neighbouring pair`` (super-uniform
            under ``H₀``).
        confidence: ``1 − β``, the level at which ``violation`` and the bounds are stated.
        epsilon_lower_bound: a ``1 − β`` lower confidence bound on the smallest ``ε`` that is
            valid at ``claim.delta`` for this pair (``-inf`` when there is no evidence).
        delta_at_claim: estimate and bounds of ``δ(claim.epsilon)`` (white box), or ``None``.
        curve: estimated privacy curve (white box), possibly empty.
        samples: number of mechanism outputs (or privacy-loss draws) per side.
        seed: the root seed of the test.
        runtime_seconds: wall-clock time of the test.
        details: method-specific extras (event chosen, counts, ...).
        detectable_epsilon: the power statement of a black-box test: a mechanism whose
            probability of the audited event under ``x`` is ``e^ε · P'[S] + δ_claim`` with
            ``ε ≥ detectable_epsilon`` would have been rejected with probability ``≥ 0.95`` at
            this sample size (``inf``: no violation on that event was detectable).
        detectable_delta: the power statement of a white-box test: a mechanism whose privacy
            loss, like this one's, gives ``δ(ε_claim) ≥ detectable_delta`` would have been
            rejected with probability ``≥ 0.95`` at this sample size.
        pass_factor: the violation a ``"pass"`` promises to catch, as a multiple of
            ``max(ε_claim, 0.05)`` (``None``: :data:`INCONCLUSIVE_FACTOR`); a staged audit that
            promises more sets it (:mod:`audit.methods.staged`).
    """

    name: str
    mechanism: str
    method: AuditMethod
    claim: PrivacyClaim
    violation: bool
    p_value: float
    confidence: float
    epsilon_lower_bound: float
    delta_at_claim: CurvePoint | None
    curve: tuple[CurvePoint, ...]
    samples: int
    seed: int | None
    runtime_seconds: float
    details: dict[str, Any] = field(default_factory=dict)
    detectable_epsilon: float | None = None
    detectable_delta: float | None = None
    pass_factor: float | None = None

    @property
    def verdict(self) -> Verdict:
        """``"VIOLATION"`` (the claim is rejected), ``"pass"`` (not rejected, and the test had the
        power its statement gives: see :data:`INCONCLUSIVE_FACTOR`; a closed-form test always has)
        or ``"inconclusive"`` (not rejected, but the test could not have caught a violation of
        the size a pass promises, so its silence is no evidence)."""
        if self.violation:
            return "VIOLATION"
        if self.method == "closed_form":
            return "pass"
        if self.detectable_epsilon is not None:
            factor = INCONCLUSIVE_FACTOR if self.pass_factor is None else self.pass_factor
            limit = factor * max(self.claim.epsilon, 0.05)
            return "pass" if self.detectable_epsilon <= limit else "inconclusive"
        if self.detectable_delta is not None:
            return "pass" if self.detectable_delta < 1.0 else "inconclusive"
        return "inconclusive"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dictionary (see :func:`to_jsonable`) tagged with the schema version."""
        out: dict[str, Any] = to_jsonable(self)
        out["schema_version"] = SCHEMA_VERSION
        out["verdict"] = self.verdict
        return out

    def to_json(self) -> str:
        """The result as a JSON string."""
        return dumps_json(self.to_dict())

    def summary(self) -> str:
        """A short human-readable report."""
        c = self.claim
        lines = [
            f"{self.name}: {self.verdict}",
            f"  mechanism      {self.mechanism}",
            f"  method         {self.method}, {self.samples} samples per side, seed {self.seed}",
            f"  claim          (ε={c.epsilon:.6g}, δ={c.delta:.3g}) under {c.relation}"
            + (f" [{c.label}]" if c.label else ""),
            f"  ε lower bound  {self.epsilon_lower_bound:.6g} at confidence {self.confidence:.4g}",
            f"  p-value        {self.p_value:.4g}",
        ]
        if self.detectable_epsilon is not None:
            lines.append(
                f"  power          would catch ε ≥ {self.detectable_epsilon:.4g} on the audited "
                "event with probability ≥ 0.95"
            )
        if self.detectable_delta is not None:
            lines.append(
                f"  power          would catch δ(ε_claim) ≥ {self.detectable_delta:.4g} with "
                "probability ≥ 0.95"
            )
        if self.delta_at_claim is not None:
            d = self.delta_at_claim
            lines.append(
                f"  δ(ε_claim)     {d.delta_estimate:.4g} in [{d.delta_lower:.4g}, {d.delta_upper:.4g}]"
            )
        lines.append(f"  runtime        {self.runtime_seconds:.2f} s")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()
