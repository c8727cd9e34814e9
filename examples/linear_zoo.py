"""A zoo of third-party-style private LinUCB policies (Shariff & Sheffet Algorithm 1), plain numpy.

Planted bugs :class:`LaplaceTreeLinUCB`, :class:`NonSymmetrisedLaplaceLinUCB`,
:class:`NoiseReusedLinUCB`, :class:`DeltaMismatchLinUCB`, :class:`NonPrivateLinUCB`, and the correct
:class:`GaussianTreeLinUCBWithRelease`.  Each is an :class:`audit.protocols.StreamPolicy`; those
with ``release_mechanism()`` are :class:`audit.protocols.ReleasingPolicy` too, on the ``(n, d + 1)``
stream of rows ``(x, y)``, releasing the tree's noisy node sums (:mod:`examples.zoo_trees`)::

    privonline check examples.linear_zoo:laplace_tree --path . --epsilon 1 --delta 0.1
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reference._typing import FloatArray
from reference.shariff_sheffet.bounds import RegularizerBounds, gaussian_bounds_for_sigma
from reference.shariff_sheffet.tight import gaussian_tight_noise_std

from .good_policy import GaussianTreeLinUCB
from .zoo_trees import (
    GaussianNodeSums,
    LaplaceNodeSums,
    SharedNoiseNodeSums,
    decomposition,
    gram_features,
    levels,
)

__all__ = [
    "DeltaMismatchLinUCB",
    "GaussianTreeLinUCBWithRelease",
    "LaplaceTreeLinUCB",
    "NoiseReusedLinUCB",
    "NonPrivateLinUCB",
    "NonSymmetrisedLaplaceLinUCB",
    "delta_mismatch",
    "gaussian_tree",
    "laplace_tree",
    "noise_reused",
    "non_private",
    "non_symmetrised",
]

L_TILDE = math.sqrt(2.0)
"""``L̃ = √(L² + B̃²)`` with ``L = B̃ = 1``: the norm bound of a row ``(x, y)`` (Sec. 4)."""


def _ucb_choice(
    released: FloatArray, arms: FloatArray, ridge: float, floor: float, alpha: float
) -> int:
    """Algorithm 1's choice from a released Gram block: ``V = G̃[:d, :d] + ridge·I`` (eigenvalues
    clipped at ``floor``), ``θ = V⁻¹ũ`` and ``argmax ⟨x, θ⟩ + β‖x‖_{V⁻¹}`` with the
    self-normalised ``β = √(2 log(2/α) + log det V − d log floor) + √(2 ridge)``."""
    d = arms.shape[1]
    lam, Q = np.linalg.eigh(released[:d, :d] + ridge * np.eye(d))
    lam = np.maximum(lam, floor)
    theta = Q @ ((Q.T @ released[:d, d]) / lam)
    radicand = 2 * math.log(2 / alpha) + float(np.sum(np.log(lam))) - d * math.log(floor)
    beta = math.sqrt(max(radicand, 0.0)) + math.sqrt(2 * ridge)
    width = np.sqrt(np.sum((arms @ Q) ** 2 / lam, axis=1))
    return int(np.argmax(arms @ theta + beta * width))


def _symmetric_from_triu(values: FloatArray, p: int) -> FloatArray:
    """The symmetric ``p × p`` matrix whose upper triangle (row-major) is ``values``."""
    out = np.zeros((p, p))
    out[np.triu_indices(p)] = values
    return out + np.triu(out, 1).T


def _gaussian_triu_std(sigma: float, p: int) -> FloatArray:
    """Per-entry std of the upper triangle of ``Z = (Z' + Z'ᵀ)/√2``, ``Z'`` i.i.d. ``N(0, σ²)``:
    ``√2 σ`` on the diagonal, ``σ`` off it (the entries are independent)."""
    rows, cols = np.triu_indices(p)
    return np.where(rows == cols, math.sqrt(2.0) * sigma, sigma)


class LaplaceTreeLinUCB:
    """BUG: a Laplace tree over the Gram matrices that ignores the Gram matrix's sensitivity.

    Each released node's upper triangle gets independent ``Lap(levels/ε)`` noise, ``levels =
    (n − 1).bit_length()`` the nodes a row enters -- the scale for a counter whose record moves
    each entry by at most 1 *in total*.  But one row ``v = (x, y)`` moves the upper triangle of
    ``vvᵀ`` by up to ``Δ₁ = sup ‖triu(vvᵀ − v'v'ᵀ)‖₁``: ``Δ₁ = 3`` at ``d = 1`` (``v = (1, 1)``
    against ``v' = 0``), ≈ 4.65 at ``d = 2`` and ≈ 5.65 at ``d = 3`` (numerical maximisation).
    Claimed pure ε (``δ = 0``); really ``ε·Δ₁``: ε = 3 for a claimed 1 at ``d = 1``.  The Laplace tree
    needs scale ``levels·Δ₁/ε`` (Sec. 4's tree mechanism: noise calibrated to the node's
    sensitivity; the paper itself uses Wishart or Gaussian noise, Sec. 4.1-4.2).
    ``release_mechanism()``: exact Laplace density of the independent node sums (upper
    triangles, node-major).  ``δ = 0``: a pure-ε claim, whose regret the check compares with the
    non-private Algorithm 1 (no private reference calibrates to ``δ = 0``).
    """

    def __init__(self, epsilon: float = 1.0) -> None:
        if not epsilon > 0.0:
            raise ValueError(f"epsilon must be > 0, got {epsilon}")
        self.epsilon, self.delta = float(epsilon), 0.0

    def __repr__(self) -> str:
        return f"{type(self).__name__}(epsilon={self.epsilon})"

    def node_scale(self, n: int) -> float:
        """The (too small) Laplace scale of every node entry: ``levels/ε``."""
        return levels(n) / self.epsilon

    def release_mechanism(self) -> LaplaceNodeSums:
        """The node sums with independent ``Lap(levels/ε)`` entries (white box)."""
        return LaplaceNodeSums(
            gram_features, lambda n, m: self.node_scale(n), f"{self!r}.release_mechanism()"
        )

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        n = len(decision_sets)
        d = int(np.asarray(decision_sets[0]).shape[1])
        p, alpha, b = d + 1, 1.0 / max(n, 2), self.node_scale(n)
        # operator-norm bound of a release's noise: p × (largest of n p² sums of `levels` Laplaces)
        bound = p * b * math.sqrt(2 * levels(n)) * math.log(2 * n * p * p / alpha)
        gram = np.zeros((p, p))
        noise_of: dict[tuple[int, int], FloatArray] = {}  # drawn once per node, when first used
        actions = np.zeros(n, dtype=np.int64)
        for s in range(n):
            noise = np.zeros((p, p))
            for block in decomposition(s):
                if block not in noise_of:
                    draw = rng.laplace(0.0, b, size=p * (p + 1) // 2)
                    noise_of[block] = _symmetric_from_triu(draw, p)
                noise = noise + noise_of[block]
            arms = np.asarray(decision_sets[s], dtype=np.float64)
            actions[s] = _ucb_choice(gram + noise, arms, 2 * bound, bound, alpha)
            row = np.append(arms[actions[s]], float(reward_tables[s][actions[s]]))
            gram = gram + np.outer(row, row)
        return actions


TRIANGLE_SENSITIVITY = {1: 3.0, 2: 4.650470252, 3: 5.645431075}
"""``Δ₁(d) = sup ‖triu(vvᵀ − v'v'ᵀ)‖₁`` over rows ``v = (x, y)``, ``‖x‖₂ ≤ 1``, ``|y| ≤ 1``: the ℓ₁
sensitivity of the upper triangle (diagonal included) of a row's Gram matrix, by numerical
maximisation (300 Nelder–Mead starts).  At ``d = 1`` it is 3 exactly (``(1, 1)`` against ``0``)."""

WEIGHTED_SENSITIVITY = {1: 4.0, 2: 7.098076211, 3: 9.490385652}
"""The same supremum with every off-diagonal entry counted twice (``Σ_i |Δ_ii| + 2 Σ_{i<j}
|Δ_ij|``): the ℓ₁ sensitivity of the full Gram matrix, which a noise matrix with independent
entries above and below the diagonal must be calibrated to."""


class NonSymmetrisedLaplaceLinUCB:
    """BUG: a Laplace tree whose node noise matrix is not symmetrised.

    Each node draws a full ``p × p`` matrix of independent ``Lap(b)`` entries with the scale of a
    *symmetric* noise matrix, ``b = levels·Δ₁(d)/ε`` (:data:`TRIANGLE_SENSITIVITY`: each entry of
    the upper triangle once), and the policy then makes the noisy Gram matrix symmetric,
    ``G̃ ← (G̃ + G̃ᵀ)/2``, before reading ``V`` and ``ũ`` from it.  An off-diagonal entry thus
    carries the average of two independent ``Lap(b)`` draws, whose density falls like
    ``e^{−2|z|/b}``: the privacy loss of a change ``Δ`` of that entry tends to ``2|Δ|/b``, twice
    what the calibration assumed.  Really ``ε·W(d)/Δ₁(d)`` (:data:`WEIGHTED_SENSITIVITY`):
    ``4/3 ε`` at ``d = 1``, ``1.53 ε`` at ``d = 2``, ``1.68 ε`` at ``d = 3`` (Sec. 4's tree
    mechanism: each node's noise calibrated to the sensitivity of what is released).  Claimed pure
    ε (``δ = 0``); no ``release_mechanism()``: only its actions are visible.
    """

    def __init__(self, epsilon: float = 1.0) -> None:
        if not epsilon > 0.0:
            raise ValueError(f"epsilon must be > 0, got {epsilon}")
        self.epsilon, self.delta = float(epsilon), 0.0

    def __repr__(self) -> str:
        return f"{type(self).__name__}(epsilon={self.epsilon})"

    def node_scale(self, n: int, d: int) -> float:
        """The Laplace scale of every entry: ``levels·Δ₁(d)/ε``."""
        if d not in TRIANGLE_SENSITIVITY:
            raise ValueError(f"d must be one of {sorted(TRIANGLE_SENSITIVITY)}, got {d}")
        return levels(n) * TRIANGLE_SENSITIVITY[d] / self.epsilon

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        n = len(decision_sets)
        d = int(np.asarray(decision_sets[0]).shape[1])
        p, alpha, b = d + 1, 1.0 / max(n, 2), self.node_scale(n, d)
        bound = p * b * math.sqrt(2 * levels(n)) * math.log(2 * n * p * p / alpha)
        gram = np.zeros((p, p))
        noise_of: dict[tuple[int, int], FloatArray] = {}
        actions = np.zeros(n, dtype=np.int64)
        for s in range(n):
            noise = np.zeros((p, p))
            for block in decomposition(s):
                if block not in noise_of:
                    noise_of[block] = rng.laplace(0.0, b, size=(p, p))  # the bug: no symmetry
                noise = noise + noise_of[block]
            noisy = gram + noise
            arms = np.asarray(decision_sets[s], dtype=np.float64)
            actions[s] = _ucb_choice((noisy + noisy.T) / 2.0, arms, 2 * bound, bound, alpha)
            row = np.append(arms[actions[s]], float(reward_tables[s][actions[s]]))
            gram = gram + np.outer(row, row)
        return actions


class GaussianTreeLinUCBWithRelease(GaussianTreeLinUCB):
    """Correct: :class:`examples.good_policy.GaussianTreeLinUCB` (Algorithm 1 with the Gaussian
    tree, Sec. 4.2) plus ``release_mechanism()``.

    The releases are the node sums plus independent, data-free padding noise, so the independent
    noisy node sums are a sufficient statistic: the mechanism outputs them (upper triangles,
    node-major) with the exact Gaussian density of the node noise ``Z = (Z' + Z'ᵀ)/√2`` (std
    ``√2 σ`` on the diagonal, ``σ`` off it, :meth:`calibration`'s ``σ``).  Really
    ``√(levels)·L̃²/σ``-GDP (``proofs_notes/shariff_sheffet/tight_gaussian.md``), far inside
    the claim at the paper's ``σ``.
    """

    def triu_std(self, n: int, m: int) -> FloatArray:
        """Per-entry noise std of a node's upper triangle for ``n`` records of width ``m``."""
        sigma = self.calibration(n, m - 1, 1 + (n - 1).bit_length())[0]
        return _gaussian_triu_std(sigma, m)

    def release_mechanism(self) -> GaussianNodeSums:
        """The node sums with the node noise's exact Gaussian density (white box)."""
        return GaussianNodeSums(gram_features, self.triu_std, f"{self!r}.release_mechanism()")


class DeltaMismatchLinUCB(GaussianTreeLinUCBWithRelease):
    """BUG: states ``(ε, δ) = (1, 0.1)`` but its noise is calibrated for ``δ = 0.5``.

    The author switched to the *tight* Gaussian-tree calibration (the least ``σ`` for the claim by
    exact accounting: ``σ = √(levels)·L̃²/μ*(ε, δ)``, ``μ*`` the GDP parameter meeting ``(ε, δ)``,
    Sec. 4.2 and ``proofs_notes/shariff_sheffet/tight_gaussian.md``) and left ``calibration_delta``
    at a tuning run's 0.5.  (With the paper's loose ``σ`` such a mismatch would stay private.)
    Really ``μ = μ*(1, 0.5) = 1.97``-GDP: at ``ε = 1`` its ``δ`` is 0.5 (five times the claim);
    at ``δ = 0.1`` its ε is 3.72 (:func:`reference.accounting.gaussian_epsilon`).
    ``release_mechanism()``: exact Gaussian density (inherited).
    """

    def __init__(
        self, epsilon: float = 1.0, delta: float = 0.1, calibration_delta: float = 0.5
    ) -> None:
        super().__init__(epsilon, delta)
        self.calibration_delta = calibration_delta

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(epsilon={self.epsilon}, delta={self.delta}, "
            f"calibration_delta={self.calibration_delta})"
        )

    def calibration(self, n: int, d: int, m: int) -> tuple[float, RegularizerBounds]:
        """The tight ``σ`` at ``(ε, calibration_delta)`` -- not at the stated ``δ`` -- and
        Proposition 11's bounds at it."""
        n = max(n, 2)
        sigma = gaussian_tight_noise_std(n, L_TILDE, self.epsilon, self.calibration_delta)
        return sigma, gaussian_bounds_for_sigma(d, m, sigma, n, 1.0 / n)


class NoiseReusedLinUCB(GaussianTreeLinUCB):
    """BUG: the Gaussian tree of :class:`examples.good_policy.GaussianTreeLinUCB` with one noise
    matrix ``Z₀`` drawn once per run and reused for every node (and every padding term).

    Sec. 4's tree mechanism draws each node's noise independently; here release ``s`` is
    ``G_s + c_s σ Z₀`` with ``c_s = popcount(s) + √(m − popcount(s))``, so
    ``release_1/c_1 − release_3/c_3`` is noise-free and shows day 1's row exactly: no finite ε
    (``δ = 1`` at every ε once ``n ≥ 4``).  The author believes the noise independent, so
    ``release_mechanism()`` is black box only: its outputs are the releases ``s = 1 .. n − 1``
    (upper triangles, release-major).
    """

    def __init__(self, epsilon: float = 1.0, delta: float = 0.1) -> None:
        super().__init__(epsilon, delta)
        self._shared: FloatArray | None = None

    def _symmetric_noise(self, rng: np.random.Generator, p: int, scale: float) -> Any:
        if self._shared is None:  # the bug: a cached draw
            self._shared = np.asarray(super()._symmetric_noise(rng, p, 1.0), dtype=np.float64)
        return scale * self._shared

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        self._shared = None  # one draw per run
        return super().run(decision_sets, reward_tables, rng)

    def release_mechanism(self) -> SharedNoiseNodeSums:
        """The releases ``s = 1 .. n − 1``, each carrying ``c_s σ`` times the shared ``Z₀``."""

        def copies(n: int) -> FloatArray:
            m = 1 + (n - 1).bit_length()
            sigma = self.calibration(n, 1, m)[0]  # σ depends on m, ε and δ only
            pops = np.array([s.bit_count() for s in range(1, n)], dtype=np.float64)
            return np.asarray((pops + np.sqrt(m - pops)) * sigma, dtype=np.float64)

        def noise(rng: np.random.Generator, size: int, q: int) -> FloatArray:
            p = round((math.sqrt(8 * q + 1) - 1) / 2)
            return rng.standard_normal((size, q)) * _gaussian_triu_std(1.0, p)

        return SharedNoiseNodeSums(
            gram_features,
            noise,
            lambda n: [decomposition(s) for s in range(1, n)],
            copies,
            f"{self!r}.release_mechanism()",
        )


class NonPrivateLinUCB:
    """BUG: plain ridge LinUCB (``λ = 1``, no noise at all) that claims ``(ε, δ) = (1, 0.1)``.

    Every action is a deterministic function of the exact Gram matrix, so one changed day
    changes later actions with probability 1: no finite ε (Shariff & Sheffet Algorithm 1 with
    the non-private ridge ``H_t = I``; its privacy comes only from the noisy regularizer of lines
    4 and 9, Sec. 4).
    """

    def __init__(self, epsilon: float = 1.0, delta: float = 0.1) -> None:
        self.epsilon, self.delta = epsilon, delta

    def __repr__(self) -> str:
        return f"{type(self).__name__}(epsilon={self.epsilon}, delta={self.delta})"

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        n = len(decision_sets)
        d = int(np.asarray(decision_sets[0]).shape[1])
        gram = np.zeros((d + 1, d + 1))
        actions = np.zeros(n, dtype=np.int64)
        for s in range(n):
            arms = np.asarray(decision_sets[s], dtype=np.float64)
            actions[s] = _ucb_choice(gram, arms, 1.0, 1.0, 1.0 / max(n, 2))
            row = np.append(arms[actions[s]], float(reward_tables[s][actions[s]]))
            gram = gram + np.outer(row, row)
        return actions


laplace_tree = LaplaceTreeLinUCB()
noise_reused = NoiseReusedLinUCB()
delta_mismatch = DeltaMismatchLinUCB()
non_private = NonPrivateLinUCB()
non_symmetrised = NonSymmetrisedLaplaceLinUCB()
gaussian_tree = GaussianTreeLinUCBWithRelease()
