"""Third-party-style online learners for ``privonline check --kind online_full`` / ``online_bandit``.

Written apart from privonline's reference in plain numpy (Agarwal & Singh, ICML 2017):
``TreeFTRLExperts`` is Algorithm 1 with negative entropy on the simplex over its own binary tree
of Laplace node sums, calibrated by the loss set's ℓ₁ diameter (ε-DP); ``RadiusTreeFTRL`` is the
same calibrated by the radius ``‖Y‖₁`` (Thm 3.1's printed scale), which for the centred
``Y = [−1, 1]^N`` really gives ``2ε``; ``PrivateEXP3`` is Algorithm 4's reduction (Laplace noise on
the scalar feedback) over EXP3 (ε-DP); ``ExponentialWeights`` is noiseless FTRL (not private).
Each declares its loss set in ``loss_set`` (``"box01"``: ``[0, 1]^N``; ``"linf_ball"``:
``[−1, 1]^N``), the set its claim is made for and the audit should draw neighbours from.
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

LOSS_SETS = ("box01", "linf_ball")
"""Loss sets the learners accept: ``[0, 1]^N`` and ``[−1, 1]^N``."""


def _check_epsilon(epsilon: float) -> float:
    if not (isinstance(epsilon, int | float) and 0.0 < epsilon < math.inf):
        raise ValueError(f"epsilon must be in (0, inf), got {epsilon!r}")
    return float(epsilon)


def _check_loss_set(loss_set: str) -> str:
    if loss_set not in LOSS_SETS:
        raise ValueError(f"loss_set must be one of {LOSS_SETS}, got {loss_set!r}")
    return loss_set


def _check_losses(losses: Any, loss_set: str) -> np.ndarray:
    """Losses ``(n, N)``, ``N ≥ 2``, finite and inside the declared loss set (never clipped)."""
    arr = np.asarray(losses, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 2:
        raise ValueError(f"losses must have shape (n, N) with n >= 1, N >= 2, got {arr.shape}")
    low = 0.0 if loss_set == "box01" else -1.0
    if not np.isfinite(arr).all() or arr.min() < low or arr.max() > 1.0:
        raise ValueError(f"losses must lie in the declared loss set {loss_set!r} = [{low:g}, 1]^N")
    return arr


def _softmax_min(values: np.ndarray, eta: float) -> np.ndarray:
    """``x_i ∝ exp(−η v_i)``, with max-subtraction."""
    logits = -eta * values
    weights = np.exp(logits - logits.max())
    return np.asarray(weights / weights.sum())


# ------------------------------------------------------------------------------------------------
# The binary tree over the losses of rounds 1 .. n − 1 (x_t uses l_1 .. l_{t−1}; l_n is never used)
# ------------------------------------------------------------------------------------------------


def tree_nodes(leaves: int) -> list[tuple[int, int]]:
    """Nodes ``(level j, index k)``, the dyadic blocks ``[k·2^j + 1, (k + 1)·2^j]`` inside
    ``[1, leaves]``, by level then index."""
    return [
        (level, k) for level in range(max(leaves, 1).bit_length()) for k in range(leaves >> level)
    ]


def tree_levels(leaves: int) -> int:
    """Levels of the tree over ``leaves`` leaves: the most nodes one leaf lies in (at least 1)."""
    return max(1, leaves.bit_length())


def prefix_nodes(s: int) -> list[tuple[int, int]]:
    """The nodes whose blocks tile ``[1, s]`` (one per set bit of ``s``)."""
    out, start = [], 0
    for level in reversed(range(s.bit_length())):
        if s >> level & 1:
            out.append((level, start >> level))
            start += 1 << level
    return out


def node_sums(losses: np.ndarray, nodes: list[tuple[int, int]]) -> np.ndarray:
    """Exact sums of the loss vectors of each node's block, shape ``(len(nodes), N)``."""
    return np.array([losses[k << j : (k + 1) << j].sum(axis=0) for j, k in nodes])


class TreeRelease:
    """What the tree learner's aggregator releases, as a white-box mechanism on loss streams.

    ``sample(losses, rng, size)``: ``size`` draws of every node's noisy sum, flattened (shape
    ``(size, nodes·N)``); ``log_density``: their exact Laplace density (independent node noise of
    scale ``learner.node_scale(n)``).  The published points are post-processing of these sums.
    """

    def __init__(self, learner: TreeFTRLExperts) -> None:
        self.learner = learner

    def __repr__(self) -> str:
        return f"TreeRelease({self.learner!r})"

    def _parts(self, data: Any) -> tuple[np.ndarray, float]:
        losses = _check_losses(data, self.learner.loss_set)
        n = losses.shape[0]
        return node_sums(losses, tree_nodes(n - 1)), self.learner.node_scale(n, losses.shape[1])

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> np.ndarray:
        sums, scale = self._parts(data)
        noisy = sums + rng.laplace(0.0, scale, (size, *sums.shape))
        return noisy.reshape(size, -1)

    def log_density(self, data: Any, outputs: np.ndarray) -> np.ndarray:
        sums, scale = self._parts(data)
        z = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1) - sums.ravel()
        return np.asarray((-np.abs(z) / scale - math.log(2.0 * scale)).sum(axis=1))


class TreeFTRLExperts:
    """Full-information FTRL with ``R(x) = Σ x_i log x_i`` on the simplex (Agarwal & Singh
    Algorithm 1, Cor. 3.2): ``x_t ∝ exp(−η L̃_{t−1})`` with ``L̃_{t−1}`` the noisy prefix sum of
    ``l_1 .. l_{t−1}`` read off a binary tree (its own code) whose every node adds
    ``Lap(λ)^N``.  A loss lies in at most ``h = ⌊log₂(n − 1)⌋ + 1`` nodes and moves each node's sum
    by at most ``Δ₁(Y)`` in ℓ₁ (``N`` for ``[0, 1]^N``, ``2N`` for ``[−1, 1]^N``), so
    ``λ = Δ₁(Y)·h/ε`` makes the node sums, hence the points, ε-DP.  ``η`` defaults to Cor. 3.2's
    ``√(ln N/(2n))``."""

    def __init__(
        self, epsilon: float = 1.0, loss_set: str = "box01", eta: float | None = None
    ) -> None:
        self.epsilon = _check_epsilon(epsilon)
        self.delta = 0.0
        self.loss_set = _check_loss_set(loss_set)
        if eta is not None and not (isinstance(eta, int | float) and 0.0 < eta < math.inf):
            raise ValueError(f"eta must be in (0, inf) or None, got {eta!r}")
        self.eta = eta

    def __repr__(self) -> str:
        return f"{type(self).__name__}(epsilon={self.epsilon}, loss_set={self.loss_set!r})"

    def sensitivity(self, dim: int) -> float:
        """ℓ₁ distance a changed loss moves one node's sum by: the diameter ``Δ₁(Y)``."""
        return float(dim if self.loss_set == "box01" else 2 * dim)

    def node_scale(self, n: int, dim: int) -> float:
        """Laplace scale ``λ`` of every node for ``n`` rounds of dimension ``dim``."""
        return self.sensitivity(dim) * tree_levels(n - 1) / self.epsilon

    def release_mechanism(self) -> TreeRelease:
        """The tree's noisy node sums as a :class:`TreeRelease`."""
        return TreeRelease(self)

    def play(self, losses: Any, rng: np.random.Generator) -> np.ndarray:
        arr = _check_losses(losses, self.loss_set)
        n, dim = arr.shape
        eta = self.eta if self.eta is not None else math.sqrt(math.log(dim) / (2.0 * n))
        scale = self.node_scale(n, dim)
        leaves = n - 1
        noisy: dict[tuple[int, int], np.ndarray] = {}
        points = np.empty((n, dim))
        for t in range(1, n + 1):
            total = sum((noisy[node] for node in prefix_nodes(t - 1)), np.zeros(dim))
            points[t - 1] = _softmax_min(total, eta)
            if t <= leaves:  # l_t arrives: close the nodes whose block ends at t
                for level in range(tree_levels(leaves)):
                    if t % (1 << level) == 0:
                        block = arr[t - (1 << level) : t].sum(axis=0)
                        noisy[(level, t // (1 << level) - 1)] = block + rng.laplace(0.0, scale, dim)
        return points


class RadiusTreeFTRL(TreeFTRLExperts):
    """:class:`TreeFTRLExperts` calibrated with the radius ``‖Y‖₁ = N`` instead of the diameter
    (Thm 3.1's printed ``λ = ‖Y‖₁ log T/ε`` sensitivity).  Planted bug: for the centred default
    ``loss_set="linf_ball"`` (``Δ₁ = 2N``) the points are only ``2ε``-DP; on ``[0, 1]^N`` radius
    and diameter agree and it is correct."""

    def __init__(
        self, epsilon: float = 1.0, loss_set: str = "linf_ball", eta: float | None = None
    ) -> None:
        super().__init__(epsilon, loss_set, eta)

    def sensitivity(self, dim: int) -> float:
        return float(dim)


class ExponentialWeights:
    """Noiseless FTRL with negative entropy (exponential weights on the exact cumulative loss,
    ``η`` as in :class:`TreeFTRLExperts`): **not private**, each point is a deterministic function
    of the past losses."""

    def __init__(self, loss_set: str = "box01") -> None:
        self.loss_set = _check_loss_set(loss_set)

    def __repr__(self) -> str:
        return f"ExponentialWeights(loss_set={self.loss_set!r})"

    def play(self, losses: Any, rng: np.random.Generator) -> np.ndarray:
        arr = _check_losses(losses, self.loss_set)
        n, dim = arr.shape
        eta = math.sqrt(math.log(dim) / (2.0 * n))
        before = np.vstack([np.zeros(dim), np.cumsum(arr, axis=0)[:-1]])
        return np.array([_softmax_min(row, eta) for row in before])


# ------------------------------------------------------------------------------------------------
# Bandit feedback
# ------------------------------------------------------------------------------------------------


class BanditTranscript:
    """What :class:`PrivateEXP3` releases, as a white-box mechanism on loss streams: per draw the
    arms ``i_1 .. i_n`` then the noisy feedbacks ``ỹ_1 .. ỹ_n`` (shape ``(size, 2n)``).  Its density
    is ``Π_t p_t(i_t) · Lap(ỹ_t − l_t(i_t); λ)``, ``p_t`` a function of the earlier transcript
    (counting measure on arms, Lebesgue on feedbacks)."""

    def __init__(self, learner: PrivateEXP3) -> None:
        self.learner = learner

    def __repr__(self) -> str:
        return f"BanditTranscript({self.learner!r})"

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` independent transcripts at once (the law of :meth:`PrivateEXP3.transcript`:
        the arm by inversion of ``p_t``'s distribution function, then its Laplace feedback)."""
        losses = _check_losses(data, self.learner.loss_set)
        n, dim = losses.shape
        eta, gamma, scale = self.learner.parameters(n, dim)
        log_w = np.zeros((size, dim))
        arms, noisy = np.empty((size, n), dtype=np.int64), np.empty((size, n))
        rows = np.arange(size)
        for t in range(n):
            w = np.exp(log_w - log_w.max(axis=1, keepdims=True))
            p = (1.0 - gamma) * w / w.sum(axis=1, keepdims=True) + gamma / dim
            cdf = np.cumsum(p, axis=1)
            u = rng.random(size) * cdf[:, -1:].ravel()
            i = np.minimum((cdf < u[:, None]).sum(axis=1), dim - 1)
            y = losses[t, i] + rng.laplace(0.0, scale, size)
            log_w[rows, i] -= eta * y / p[rows, i]
            arms[:, t], noisy[:, t] = i, y
        return np.concatenate([arms.astype(np.float64), noisy], axis=1)

    def log_density(self, data: Any, outputs: np.ndarray) -> np.ndarray:
        losses = _check_losses(data, self.learner.loss_set)
        n, dim = losses.shape
        out = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), 2 * n)
        arms_f, noisy = out[:, :n], out[:, n:]
        valid = np.all((arms_f == np.round(arms_f)) & (arms_f >= 0) & (arms_f < dim), axis=1)
        arms = np.where(valid[:, None], arms_f, 0).astype(np.int64)
        eta, gamma, scale = self.learner.parameters(n, dim)
        log_w = np.zeros((len(out), dim))
        total = np.zeros(len(out))
        rows = np.arange(len(out))
        for t in range(n):
            w = np.exp(log_w - log_w.max(axis=1, keepdims=True))
            p = (1.0 - gamma) * w / w.sum(axis=1, keepdims=True) + gamma / dim
            i = arms[:, t]
            z = noisy[:, t] - losses[t, i]
            total += np.log(p[rows, i]) - np.abs(z) / scale - math.log(2.0 * scale)
            log_w[rows, i] -= eta * noisy[:, t] / p[rows, i]
        return np.where(valid, total, -np.inf)


class PrivateEXP3:
    """Bandit learner: Agarwal & Singh Algorithm 4's reduction over EXP3 (exponential weights on
    importance-weighted loss estimates, uniform exploration ``γ``).  Each round it publishes the
    vertex ``e_{i_t}``, ``i_t ~ p_t = (1 − γ) q_t + γ/N``, receives ``l_t(i_t)`` and uses only
    ``ỹ_t = l_t(i_t) + Lap(Δ_B/ε)`` (``Δ_B`` the range of one coordinate: 1 on ``[0, 1]^N``, 2 on
    ``[−1, 1]^N``).  A loss enters one ``ỹ_t`` only, so the ``ỹ``, hence the points, are ε-DP.
    ``η`` and ``γ`` follow Thm 4.1 as printed:
    ``η = √(ln N/(2NT(1 + 2λ² ln NT)))``, ``γ = min(1, ηN√(1 + 2λ² ln NT))``."""

    def __init__(self, epsilon: float = 1.0, loss_set: str = "box01") -> None:
        self.epsilon = _check_epsilon(epsilon)
        self.delta = 0.0
        self.loss_set = _check_loss_set(loss_set)

    def __repr__(self) -> str:
        return f"PrivateEXP3(epsilon={self.epsilon}, loss_set={self.loss_set!r})"

    def parameters(self, n: int, dim: int) -> tuple[float, float, float]:
        """``(η, γ, λ)`` for ``n`` rounds and ``dim`` arms."""
        scale = (1.0 if self.loss_set == "box01" else 2.0) / self.epsilon
        factor = 1.0 + 2.0 * scale**2 * math.log(dim * n)
        eta = math.sqrt(math.log(dim) / (2.0 * dim * n * factor))
        return eta, min(1.0, eta * dim * math.sqrt(factor)), scale

    def release_mechanism(self) -> BanditTranscript:
        """The (arm, noisy feedback) transcript as a :class:`BanditTranscript`."""
        return BanditTranscript(self)

    def transcript(self, losses: Any, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """One run: the arms played and the noisy feedbacks ``ỹ_t``."""
        arr = _check_losses(losses, self.loss_set)
        n, dim = arr.shape
        eta, gamma, scale = self.parameters(n, dim)
        log_w = np.zeros(dim)
        arms = np.empty(n, dtype=np.int64)
        noisy = np.empty(n)
        for t in range(n):
            w = np.exp(log_w - log_w.max())
            p = (1.0 - gamma) * w / w.sum() + gamma / dim
            i = int(rng.choice(dim, p=p))
            y = float(arr[t, i]) + float(rng.laplace(0.0, scale))  # only <l_t, x_t> is read
            log_w[i] -= eta * y / p[i]
            arms[t], noisy[t] = i, y
        return arms, noisy

    def play(self, losses: Any, rng: np.random.Generator) -> np.ndarray:
        arms, _ = self.transcript(losses, rng)
        return np.asarray(np.eye(np.asarray(losses).shape[1])[arms], dtype=np.float64)
