"""Private bandits of Agarwal & Singh: the reduction (Alg. 4), EXP2 with exploration (Alg. 5), runner.

Paper: Algorithm 4, Algorithm 5, Lemma 4.2, Lemma 4.3 (Sec. 4), Theorem 4.1.
:class:`PrivateBanditReduction` (Alg. 4) wraps any bandit learner, which sees ``l_t`` only through
the scalar ``<l_t, x̃_t> + <Z_t, x̃_t>``, ``Z_t ~ Lap^N(λ)`` drawn fresh after ``x̃_t`` is fixed
(ε-DP when ``λ = Δ_B/ε``, Lemma 4.2).  :class:`EXP2Exploration` (Alg. 5) on the simplex vertices
with exploration ``μ``.  Oblivious adversary only; ``record=True`` keeps the forwarded scalars
and ``Z_t`` in :attr:`PrivateBanditReduction.trace` for audits.

Proof note: ``proofs_notes/agarwal_singh/alg4_lemma42_reduction.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from reference._typing import FloatArray, IntArray
from reference.agarwal_singh.environments import pseudo_regret_mab
from reference.noise import LaplaceNoise, NodeNoise
from reference.rng import SeedLike, as_generator
from reference.validation import (
    check_array,
    check_bool,
    check_finite,
    check_in_range,
    check_instance,
    check_positive,
    check_size,
)

__all__ = [
    "BanditLearner",
    "BanditRun",
    "EXP2Exploration",
    "PrivateBanditReduction",
    "ReductionTrace",
    "run_bandit",
]


@runtime_checkable
class BanditLearner(Protocol):
    """A bandit learner: publish an action, then receive only a scalar feedback."""

    @property
    def dim(self) -> int:
        """Dimension ``N`` of the actions."""
        ...

    def act(self) -> FloatArray:
        """The action ``x̃_t ∈ X`` (MAB: the one-hot vector ``e_{i_t}``)."""
        ...

    def update(self, feedback: float) -> None:
        """Receive the scalar feedback for the last action."""
        ...

    def sampling_distribution(self) -> FloatArray | None:
        """The distribution ``p_t`` the last action was drawn from (MAB), or None."""
        ...


class EXP2Exploration:
    """Algorithm 5, "EXP2 with exploration μ", actions = simplex vertices ``e_i``.

    ``q_1`` uniform; ``p_t = (1 − γ) q_t + γ μ``; play ``i_t ~ p_t``; estimate
    ``l̂_t = P_t^+ e_{i_t} e_{i_t}^T l_t = (y_t / p_t(i_t)) e_{i_t}`` (``P_t = diag(p_t)``, ``y_t`` the
    scalar feedback); ``q_{t+1}(i) ∝ exp(−η l̂_t(i)) q_t(i)``.  Kept as log-weights with
    max-subtraction (noisy feedback can be large and negative).  The paper writes ``l̃_t`` for the
    estimator; here ``l̂_t``.

    Args:
        N: number of arms (``≥ 2``).
        eta: learning rate ``η > 0``.
        gamma: mixing coefficient ``γ ∈ (0, 1]`` (the paper needs "T, N large enough").
        rng: generator for the arm draws.
        mu: exploration distribution (default uniform); every entry ``> 0`` so ``P_t`` is invertible.
    """

    def __init__(
        self,
        N: int,
        eta: float,
        gamma: float,
        rng: np.random.Generator | SeedLike,
        mu: FloatArray | None = None,
    ) -> None:
        rng = as_generator(rng)
        self.N = check_size("N", N, 2, item_bytes=8, what="an arm's weight")
        self.eta = check_positive("eta", eta)
        self.gamma = check_in_range("gamma", gamma, 0.0, 1.0, high_open=False)
        if mu is None:
            self.mu = np.full(self.N, 1.0 / self.N)
        else:
            self.mu = check_array("mu", mu, shape=(self.N,))
            if np.any(self.mu <= 0) or abs(float(self.mu.sum()) - 1.0) > 1e-12:
                raise ValueError("mu must be a distribution with every entry > 0")
        self._rng = rng
        self._log_weights = np.zeros(self.N)
        self._last: tuple[int, FloatArray] | None = None

    @property
    def dim(self) -> int:
        return self.N

    @property
    def q(self) -> FloatArray:
        """Current exponential weights ``q_t`` (normalised)."""
        shifted = self._log_weights - np.max(self._log_weights)
        weights = np.exp(shifted)
        return np.asarray(weights / weights.sum(), dtype=np.float64)

    @property
    def p(self) -> FloatArray:
        """Current sampling distribution ``p_t = (1 − γ) q_t + γ μ`` (Algorithm 5, line 3)."""
        return np.asarray((1.0 - self.gamma) * self.q + self.gamma * self.mu, dtype=np.float64)

    def act(self) -> FloatArray:
        if self._last is not None:
            raise RuntimeError("act() called twice without update()")
        p = self.p
        arm = int(self._rng.choice(self.N, p=p))
        self._last = (arm, p)
        action = np.zeros(self.N)
        action[arm] = 1.0
        return action

    def estimate(self, feedback: float) -> FloatArray:
        """The estimator ``l̂_t = (y_t/p_t(i_t)) e_{i_t}`` for the pending action (Algorithm 5, line 4)."""
        if self._last is None:
            raise RuntimeError("estimate() needs a pending action: call act() first")
        arm, p = self._last
        out = np.zeros(self.N)
        out[arm] = check_finite("feedback", feedback) / p[arm]
        return out

    def update(self, feedback: float) -> None:
        """Exponential-weights update with ``l̂_t`` (Algorithm 5, line 5)."""
        l_hat = self.estimate(feedback)
        self._log_weights = self._log_weights - self.eta * l_hat
        self._log_weights -= np.max(self._log_weights)
        self._last = None

    def sampling_distribution(self) -> FloatArray | None:
        return None if self._last is None else self._last[1].copy()


@dataclass
class ReductionTrace:
    """Audit-only record of Algorithm 4: the noise vectors ``Z_t`` and forwarded scalars."""

    noise: list[FloatArray] = field(default_factory=list)
    forwarded: list[float] = field(default_factory=list)


class PrivateBanditReduction:
    """Algorithm 4, ``A'(A, D)``: private bandit learner from a non-private one.

    Round ``t`` (the paper's loop "t = 0 to T" is read as ``t = 1..T``): receive
    ``x̃_t`` from ``A`` and publish it; receive ``<l_t, x̃_t>``; draw ``Z_t ~ D = Lap^N(λ)`` (fresh,
    after ``x̃_t`` is fixed); forward ``<l_t, x̃_t> + <Z_t, x̃_t>`` to ``A``.

    Args:
        inner: the non-private bandit learner ``A``.
        noise: ``Lap^N(λ)`` with ``noise.shape == (N,)``.
        rng: generator for the ``Z_t`` (keep it separate from ``inner``'s).
        record: keep ``Z_t`` and the forwarded scalars in :attr:`trace` (audits only).
    """

    def __init__(
        self,
        inner: BanditLearner,
        noise: LaplaceNoise,
        rng: np.random.Generator | SeedLike,
        *,
        record: bool = False,
    ) -> None:
        rng = as_generator(rng)
        check_instance("inner", inner, BanditLearner)
        check_instance("noise", noise, NodeNoise)
        check_bool("record", record)
        if noise.shape != (inner.dim,):
            raise ValueError(f"noise.shape must be ({inner.dim},), got {noise.shape}")
        self.inner = inner
        self.noise = noise
        self._rng = rng
        self._action: FloatArray | None = None
        self.trace: ReductionTrace | None = ReductionTrace() if record else None

    @property
    def dim(self) -> int:
        return self.inner.dim

    def act(self) -> FloatArray:
        """Alg. 4, line 2: ``x̃_t`` from ``A``, published."""
        if self._action is not None:
            raise RuntimeError("act() called twice without update()")
        self._action = self.inner.act()
        return self._action.copy()

    def update(self, feedback: float) -> None:
        """Alg. 4, lines 3–5: ``feedback = <l_t, x̃_t>``; forwards ``feedback + <Z_t, x̃_t>``."""
        if self._action is None:
            raise RuntimeError("update() needs a pending action: call act() first")
        value = check_finite("feedback", feedback)
        Z = self.noise.sample(self._rng)
        forwarded = value + float(Z @ self._action)
        if self.trace is not None:
            self.trace.noise.append(Z)
            self.trace.forwarded.append(forwarded)
        self._action = None
        self.inner.update(forwarded)

    def sampling_distribution(self) -> FloatArray | None:
        return self.inner.sampling_distribution()


@dataclass(frozen=True)
class BanditRun:
    """Result of :func:`run_bandit`.

    Attributes:
        actions: ``(T, N)`` published actions ``x̃_t``.
        arms: ``(T,)`` index of the played vertex (``−1`` if the action is not a vertex).
        incurred: ``(T,)`` losses ``<l_t, x̃_t>``.
        probs: ``(T, N)`` sampling distributions ``p_t`` (None if the learner has none).
        regret: realised regret against the best fixed vertex ``min_i Σ_t l_t(i)``.
        pseudo_regret: ``Σ_t <p_t, l_t> − min_i Σ_t l_t(i)`` (None without ``probs``).
    """

    actions: FloatArray
    arms: IntArray
    incurred: FloatArray
    probs: FloatArray | None
    regret: float
    pseudo_regret: float | None


def run_bandit(
    learner: BanditLearner,
    losses: FloatArray,
    *,
    loss_bounds: tuple[float, float] = (0.0, 1.0),
) -> BanditRun:
    """Play the oblivious sequence ``losses`` ``(T, N)`` with bandit feedback ``<l_t, x̃_t>``.

    The comparator is the best fixed simplex vertex (MAB, Thm 4.1).  Every loss entry must lie in
    ``loss_bounds``, the range the learner's privacy calibration assumes: Thm 4.1's ``[0, 1]``
    (sensitivity ``Δ_B = 1``) by default.  Losses in ``[−1, 1]`` double ``Δ_B``, so they need a
    learner calibrated for it (e.g. ``thm41_parameters(..., loss_range="sym")``) and
    ``loss_bounds=(-1.0, 1.0)``; played silently under the default they would spend ``2ε``.
    """
    check_instance("learner", learner, BanditLearner)
    losses = check_array("losses", losses, shape=(None, learner.dim))
    if losses.shape[0] < 1:
        raise ValueError("losses must contain at least one round")
    if (
        not isinstance(loss_bounds, tuple)
        or len(loss_bounds) != 2
        or not all(isinstance(b, int | float) and not isinstance(b, bool) for b in loss_bounds)
        or not (math.isfinite(loss_bounds[0]) and math.isfinite(loss_bounds[1]))
        or not loss_bounds[0] < loss_bounds[1]
    ):
        raise ValueError(
            f"loss_bounds must be a pair (low, high) of finite numbers with low < high, got "
            f"{loss_bounds!r:.80}"
        )
    low, high = float(loss_bounds[0]), float(loss_bounds[1])
    if losses.min() < low or losses.max() > high:
        raise ValueError(
            f"losses must lie in loss_bounds = [{low}, {high}] (the range the privacy "
            f"calibration assumes), got values from {losses.min()!r} to {losses.max()!r}; pass "
            "loss_bounds=(-1.0, 1.0) only with a learner calibrated for losses in [-1, 1]"
        )
    actions: list[FloatArray] = []
    probs: list[FloatArray] = []
    have_probs = True
    for loss in losses:
        action = learner.act()
        p = learner.sampling_distribution()
        if p is None:
            have_probs = False
        else:
            probs.append(p)
        actions.append(action)
        learner.update(float(loss @ action))
    A = np.stack(actions)
    incurred = np.einsum("tn,tn->t", A, losses)
    is_vertex = np.isclose(A.max(axis=1), 1.0) & np.isclose(np.abs(A).sum(axis=1), 1.0)
    arms = np.where(is_vertex, np.argmax(A, axis=1), -1).astype(np.int64)
    best = float(np.min(losses.sum(axis=0)))
    P = np.stack(probs) if have_probs else None
    pseudo = float(pseudo_regret_mab(P, losses)) if P is not None else None
    return BanditRun(
        actions=A,
        arms=arms,
        incurred=incurred,
        probs=P,
        regret=float(incurred.sum() - best),
        pseudo_regret=pseudo,
    )
