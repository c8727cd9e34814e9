"""Online learners with full information (Agarwal & Singh): regret compared with their Algorithm 1
(negative entropy over the Laplace tree, Cor. 3.2, strict calibration); the rest is shared with
the bandit kind (:mod:`audit.kinds.online`).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

from audit.kinds.online import OnlineKind

__all__ = ["KIND", "OnlineFullKind"]


class OnlineFullKind(OnlineKind):
    """An online learner that sees every loss vector."""

    name = "online_full"
    help = "an online learner with full information (regret vs Agarwal & Singh's Algorithm 1)"
    feedback = "full"
    reference_text = "Agarwal & Singh's Algorithm 1 (full information)"


KIND = OnlineFullKind()
