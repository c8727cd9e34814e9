"""Mechanisms: an :class:`~audit.protocols.Mechanism` audited on the neighbouring pair ``--pair``
names, under the pair's relation, in white box when it declares its density
(:func:`audit.methods.white_box.white_box_audit`), else in black box
(:func:`audit.methods.black_box.event_audit`); no regret.
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from audit.kinds.base import CheckRun, CheckSettings, Kind, stated_claim
from audit.methods.black_box import event_audit
from audit.methods.white_box import white_box_audit
from audit.protocols import DensityMechanism, Mechanism, OnlinePolicy, PrivacyClaim, StreamPolicy

__all__ = ["KIND", "MechanismKind"]


class MechanismKind(Kind):
    """The mechanism kind (module docstring)."""

    name = "mechanism"
    help = (
        "a mechanism on the neighbouring pair --pair names (the default with --pair; white box "
        "with log_density, else black box; no regret)"
    )
    protocol = Mechanism
    protocol_text = "an audit.protocols.Mechanism (sample(data, rng, size))"
    takes_pair = True
    reference_text = "a mechanism has no regret"

    @property
    def suggestion(self) -> str:
        """A mechanism is asked for by its pair."""
        return "--pair module:attribute (a NeighbouringPair)"

    def check_target(self, target: Any, spec: str, kinds: Sequence[Kind] = ()) -> None:
        """A policy given with a pair is refused: policies are audited on streams."""
        if isinstance(target, StreamPolicy | OnlinePolicy):
            raise ValueError(
                f"pair (--pair) is for mechanisms only: target {spec!r} is a policy, audited on "
                "the t-neighbouring streams of its kind; drop --pair"
            )
        super().check_target(target, spec, kinds)

    def audit(
        self,
        target: Any,
        claim: PrivacyClaim,
        settings: CheckSettings,
        run: CheckRun,
        stated: dict[str, float] | None = None,
    ) -> None:
        """The white-box audit with a density, else the black-box event audit, on the pair;
        against the calibration the target ``stated`` too when it differs from the claim (same
        seed: the same outputs)."""
        assert run.pair is not None
        white = isinstance(target, DensityMechanism)
        audit = white_box_audit if white else event_audit
        other = stated_claim(claim, stated)
        for what, against in (("privacy", claim), ("stated_privacy", other)):
            if against is None:
                continue
            run.stage(f"{what.replace('_', ' ')}: the mechanism on its pair")
            result = audit(
                target, run.pair, against, samples=settings.samples, seed=settings.seed,
                name=f"{run.target} {'white' if white else 'black'} box",
                confidence=settings.confidence,
            )  # fmt: skip
            run.send(what, result)


KIND = MechanismKind()
