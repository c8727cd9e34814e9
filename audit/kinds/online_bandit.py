"""Online learners with bandit feedback (Agarwal & Singh): regret compared with their Algorithm 4
over EXP2 with uniform exploration (Thm 4.1's proof-consistent parameters), privacy designs of
8 to 32 rounds; the rest is shared with the full-information kind (:mod:`audit.kinds.online`).
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
    design_horizons = (8, 16, 32)
    """Longer than the full-information designs: a bandit learner built with Thm 4.1's
    parameters (Algorithm 4's reference among them) has an exploration rate ``γ > 1``, and
    refuses to run, below ``T = 8`` at ``N = 5`` (at ε = 0.5, 1 and 2)."""
    reference_text = "Agarwal & Singh's Algorithm 4 over EXP2 (bandit feedback)"


KIND = OnlineBanditKind()
