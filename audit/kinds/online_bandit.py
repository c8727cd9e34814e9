"""Online learners with bandit feedback (Agarwal & Singh): regret compared with their Algorithm 4
over EXP2 with uniform exploration (Thm 4.1's proof-consistent parameters); the rest is shared
with the full-information kind (:mod:`audit.kinds.online`).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

from audit.kinds.online import OnlineKind

__all__ = ["KIND", "OnlineBanditKind"]


class OnlineBanditKind(OnlineKind):
    """An online learner that sees only the loss of the point it played."""

    name = "online_bandit"
    help = (
        "an online learner with bandit feedback (regret vs Agarwal & Singh's Algorithm 4 over EXP2)"
    )
    feedback = "bandit"
    reference_text = "Agarwal & Singh's Algorithm 4 over EXP2 (bandit feedback)"


KIND = OnlineBanditKind()
