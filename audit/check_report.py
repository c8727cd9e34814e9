"""The report of ``privonline check``: privacy and utility verdicts, the overall verdict and its exit
code, and the report's files (``check.json``, ``check.md``, ``check.png``).

:class:`CheckReport` holds what the check found (the audits, the regret comparison, a crash or
the time limit that stopped it, what the target printed); :data:`EXIT_CODES` maps its overall
verdict to the command's exit code.
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from audit.kinds.base import Kind, RegretResult
from audit.protocols import PrivacyClaim
from audit.results import (
    SCHEMA_VERSION,
    PrivacyAuditResult,
    produced_by,
    produced_by_line,
    to_jsonable,
)
from audit.watchdog import OUTPUT_HEAD, OUTPUT_TAIL, CapturedOutput
from reference.files import atomic_savefig, atomic_write_text, prepare_output_dir, write_json

__all__ = ["EXIT_CODES", "CheckReport", "Verdict"]

Verdict = Literal["pass", "PRIVACY VIOLATION", "UTILITY FAILURE", "CRASHED", "inconclusive"]

EXIT_CODES: dict[Verdict, int] = {
    "pass": 0,
    "PRIVACY VIOLATION": 1,
    "UTILITY FAILURE": 3,
    "CRASHED": 4,
    "inconclusive": 5,
}
"""The exit code of each overall verdict (2 is a usage error: the check could not start)."""


def _fence(text: str) -> str:
    """A Markdown code fence longer than any run of backticks in ``text``."""
    longest, run = 0, 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)


def _together(
    *results: PrivacyAuditResult | None,
) -> Literal["VIOLATION", "pass", "inconclusive"] | None:
    """The verdict of privacy audits together: ``"VIOLATION"`` if any rejected its claim, else
    ``"pass"`` if any had the power a pass promises, else ``"inconclusive"`` (``None``: none)."""
    audits = [a for a in results if a is not None]
    if not audits:
        return None
    if any(a.violation for a in audits):
        return "VIOLATION"
    return "pass" if any(a.verdict == "pass" for a in audits) else "inconclusive"


def _stages(audit: PrivacyAuditResult) -> str:
    """One line on a staged audit's stages (:mod:`audit.methods.staged`), or ``""``."""
    stages = audit.details.get("stages")
    if not stages:
        return ""
    runs = ", ".join(str(s["runs"]) for s in stages)
    return (
        f"{len(stages)} stage(s) of {runs} runs per stream, ended by "
        f"{audit.details.get('ended_by')}"
    )


def _code_block(text: str) -> list[str]:
    fence = _fence(text)
    return [fence, text.rstrip(), fence, ""]


@dataclass
class CheckReport:
    """Everything ``privonline check`` found, with separate privacy and utility verdicts.

    ``privacy`` is the audit of the policy's actions (or of the mechanism); ``release`` the audit
    of what a :class:`~audit.protocols.ReleasingPolicy` releases, if it exposes that.  ``privacy``
    is ``None`` only when the target crashed (or was stopped) before its privacy audit finished;
    ``crash`` is then the traceback of what it raised (or of the check that refused its outputs,
    e.g. NaN actions), or what stopped it: ``limit`` says which time limit, in which call.
    ``claim`` is ``None`` only when the module of a mechanism's ``--pair`` crashed (the claim's
    relation is the pair's).  ``target_output`` is what the target printed; ``reference_note``
    why the regret reference was chosen, when the user did not choose it; ``kind`` the
    :class:`~audit.kinds.base.Kind` checked, which renders ``regret``.  ``stated_privacy`` and
    ``stated_release`` are the same audits against the calibration the target states, when it
    differs from the claim: reported beside, never in the verdict (which follows the claim).
    """

    target: str
    claim: PrivacyClaim | None
    privacy: PrivacyAuditResult | None
    regret: RegretResult | None
    runtime_seconds: float
    crash: str | None = None
    stated: dict[str, float] | None = None
    release: PrivacyAuditResult | None = None
    target_output: CapturedOutput | None = None
    limit: dict[str, Any] | None = None
    reference_note: str | None = None
    kind: Kind | None = None
    stated_privacy: PrivacyAuditResult | None = None
    stated_release: PrivacyAuditResult | None = None

    @property
    def calibration_note(self) -> str | None:
        """How the claim compares with the calibration the target states (its ``epsilon`` and
        ``delta`` attributes, :func:`stated_calibration`); ``None`` if it states none."""
        if not self.stated or self.claim is None:
            return None
        claimed = {"epsilon": self.claim.epsilon, "delta": self.claim.delta}
        differ = {k: v for k, v in self.stated.items() if not math.isclose(v, claimed[k])}
        stated = ", ".join(f"{k} = {v:g}" for k, v in self.stated.items())
        if not differ:
            return f"the claim matches the calibration the target states ({stated})"
        return (
            f"the claim differs from the calibration the target states ({stated}): both are "
            "audited and reported below; the verdict and exit code follow the claim"
        )

    @property
    def privacy_verdict(self) -> Literal["VIOLATION", "pass", "inconclusive"] | None:
        """The verdict of the privacy audits together: ``"VIOLATION"`` if either rejected the
        claim, else ``"pass"`` if either had the power a pass promises
        (:attr:`~audit.results.PrivacyAuditResult.verdict`), else ``"inconclusive"``."""
        return _together(self.privacy, self.release)

    @property
    def stated_privacy_verdict(self) -> Literal["VIOLATION", "pass", "inconclusive"] | None:
        """:attr:`privacy_verdict` of the audits against the calibration the target states
        (``None`` when it states none, or the same as the claim)."""
        return _together(self.stated_privacy, self.stated_release)

    @property
    def utility_verdict(self) -> Literal["pass", "FAIL"] | None:
        """The regret comparison's verdict (``None`` for a mechanism, or if it never ran)."""
        if self.regret is None:
            return None
        return "pass" if self.regret.passed else "FAIL"

    @property
    def verdict(self) -> Verdict:
        """The overall verdict, in this order: a privacy violation found stands even if the
        target crashed (or was stopped) later; then a crash; then a utility failure; then
        ``"inconclusive"`` when the privacy audit could not have caught a violation of the size a
        pass promises."""
        if self.privacy_verdict == "VIOLATION":
            return "PRIVACY VIOLATION"
        if self.crash is not None or self.privacy is None:
            return "CRASHED"
        if self.utility_verdict == "FAIL":
            return "UTILITY FAILURE"
        return "inconclusive" if self.privacy_verdict == "inconclusive" else "pass"

    @property
    def exit_code(self) -> int:
        """:data:`EXIT_CODES` of :attr:`verdict`."""
        return EXIT_CODES[self.verdict]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report."""
        regret = None if self.regret is None else self._kind.regret_json(self.regret)
        return {
            "schema_version": SCHEMA_VERSION,
            "produced_by": produced_by(),
            "kind": "third_party_check",
            "target": self.target,
            "claim": None if self.claim is None else to_jsonable(self.claim),
            "verdict": self.verdict,
            "exit_code": self.exit_code,
            "privacy_verdict": self.privacy_verdict,
            "utility_verdict": self.utility_verdict,
            "privacy": None if self.privacy is None else self.privacy.to_dict(),
            "release": None if self.release is None else self.release.to_dict(),
            "stated_privacy": None
            if self.stated_privacy is None
            else self.stated_privacy.to_dict(),
            "stated_release": None
            if self.stated_release is None
            else self.stated_release.to_dict(),
            "stated_privacy_verdict": self.stated_privacy_verdict,
            "regret": regret,
            "reference_note": self.reference_note,
            "crash": self.crash,
            "limit": self.limit,
            "target_output": None
            if self.target_output is None
            else to_jsonable(self.target_output),
            "stated_calibration": self.stated,
            "calibration_note": self.calibration_note,
            "golden": "not applicable to an implementation object (`privonline golden` checks "
            "the formulas)",
            "runtime_seconds": self.runtime_seconds,
        }

    def summary(self) -> str:
        """A few lines: the verdict and exit code, one line per audit and for the regret
        comparison (the rows of :meth:`markdown`'s table), and the last line of a crash."""
        lines = [
            f"privonline check {self.target}: {self.verdict} (exit code {self.exit_code})",
            *self._audit_rows(),
            *self._regret_rows(),
        ]
        if self.crash is not None:
            lines.append(f"stopped: {self.crash.strip().splitlines()[-1]}")
        return "\n".join(lines)

    def _audit_rows(self) -> list[str]:
        rows = []
        for audit, what in (
            (self.privacy, "privacy"),
            (self.release, "release-level privacy"),
            (self.stated_privacy, "privacy (the target's stated calibration)"),
            (self.stated_release, "release-level privacy (the target's stated calibration)"),
        ):
            if audit is None or self.claim is None:
                continue
            claim = audit.claim  # the claim, or the calibration the target states
            power = (
                f", would catch ε ≥ {audit.detectable_epsilon:.3g}"
                + (" on its event" if audit.method == "black_box" else "")
                if audit.detectable_epsilon is not None
                else f", would catch δ(ε_claim) ≥ {audit.detectable_delta:.3g}"
                if audit.detectable_delta is not None
                else ""
            )
            stages = _stages(audit)
            rows.append(
                f"| {audit.method.replace('_', ' ')} {what} vs ({claim.epsilon:g}, "
                f"{claim.delta:g}), {claim.relation} | ε lower bound "
                f"{audit.epsilon_lower_bound:.3g}, p = {audit.p_value:.3g}{power}"
                f"{'; ' + stages if stages else ''} | "
                f"{'**VIOLATION**' if audit.violation else audit.verdict} |"
            )
        return rows

    @property
    def _kind(self) -> Kind:
        if self.kind is None:
            raise ValueError("kind must name the kind of a report with a regret comparison")
        return self.kind

    def _regret_rows(self) -> list[str]:
        return [] if self.regret is None else self._kind.regret_rows(self.regret)

    def _power_note(self) -> list[str]:
        """What a black box's "would catch ε ≥ D on its event" promises, when a row says it."""
        audits = (self.privacy, self.release, self.stated_privacy, self.stated_release)
        if not any(
            a is not None and a.method == "black_box" and a.detectable_epsilon is not None
            for a in audits
        ):
            return []
        return [
            '"Would catch ε ≥ D on its event": a target whose probability of the audited event '
            "is `e^D · P' + δ` is rejected with probability ≥ 0.95 at these sample sizes. A leakier "
            "target can also move `P'`; measured, the promise held at the mechanism level for "
            "pure-ε claims and can fall short at δ > 0 (proof notes `black_box_event.md`, `calibration.md`).",
            "",
        ]

    def markdown(self) -> str:
        """A short human-readable report."""
        claim = self.claim
        lines = [
            f"# privonline check: `{self.target}`",
            "",
            produced_by_line(),
            "",
            f"Verdict: **{self.verdict}** (exit code {self.exit_code}; "
            f"{self.runtime_seconds:.0f} s).",
            "",
            *([f"Claim: {claim.label}.", ""] if claim is not None and claim.label else []),
            *([f"Calibration: {self.calibration_note}.", ""] if self.calibration_note else []),
            *([f"Reference: {self.reference_note}.", ""] if self.reference_note else []),
            "| check | result | verdict |",
            "|---|---|---|",
            *self._audit_rows(),
            *self._regret_rows(),
            "",
            *self._power_note(),
            "Golden vectors do not apply to an implementation object (`privonline golden` checks "
            "the formulas).",
            "",
        ]
        if self.regret is not None:
            lines += ["![regret](check.png)", ""]
        for audit, what in (
            (self.privacy, "Streams"),
            (self.release, "Record streams (release level)"),
        ):
            search = None if audit is None else audit.details.get("search")
            if search is None:
                continue
            judged = "; ".join(
                f"{j['candidate']}: ε_LB {j['epsilon_lower_bound']:.3g}, {j['verdict']}"
                for j in search["judged"]
            )
            lines += [
                f"{what} searched: {', '.join(search['screened'])}; judged ({search['family']}): "
                f"{judged}.",
                "",
            ]
        if self.limit is not None and self.crash is not None:
            lines += ["## Stopped by a time limit", "", self.crash.rstrip(), ""]
        elif self.crash is not None:
            lines += ["## The target crashed", "", *_code_block(self.crash)]
        if self.target_output is not None:
            out = self.target_output
            cut = (
                f", cut to its first {OUTPUT_HEAD} and last {OUTPUT_TAIL}" if out.truncated else ""
            )
            lines += [
                "## What the target printed",
                "",
                f"Its stdout and stderr together ({out.size} bytes{cut}):",
                "",
                *_code_block(out.text),
            ]
        return "\n".join(lines)

    def write(self, out: Path) -> None:
        """Write ``check.json``, ``check.md`` and ``check.png`` into ``out``."""
        prepare_output_dir(out)
        write_json(out / "check.json", self.to_dict())
        atomic_write_text(out / "check.md", self.markdown())
        if self.regret is None:
            return
        fig, ax = plt.subplots(figsize=(4.5, 3.5))
        labels = ["candidate", "reference"]
        ax.bar(labels, [self.regret.candidate_mean, self.regret.reference_mean])
        ax.set_ylabel("mean final regret")
        ax.set_title("regret on the same environments")
        fig.tight_layout()
        atomic_savefig(fig, out / "check.png", dpi=110)
        plt.close(fig)
