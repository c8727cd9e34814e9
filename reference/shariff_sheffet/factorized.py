"""A regularizer source for Algorithm 1 whose Gram releases come from a factorization mechanism.

Beyond the paper: Sec. 4's tree is replaced by a :class:`~reference.factorization.BLT`
factorization of the prefix-sum matrix (symmetric Gaussian ``z_t``, one per round), whose worst
release at ``n = 5·10⁷`` carries about a quarter of the tight Gaussian tree's noise at the same
``(ε, δ)``.  Privacy: ``μ = ‖c_{0..n−2}‖·L̃²/σ`` GDP under adaptive rows (Denisov et al. 2022,
Thm 2.1); Definition 3's bounds by Prop. 11's argument at the release's standard deviation.

Proof note: ``proofs_notes/shariff_sheffet/factorized_regularizer.md``.
"""

from __future__ import annotations

import numpy as np

from reference._typing import FloatArray
from reference.accounting import gaussian_mu_for
from reference.factorization import BLT, BLTNoiseStream, optimal_blt
from reference.rng import SeedLike, as_generator
from reference.shariff_sheffet.bounds import RegularizerBounds, gaussian_bounds_for_release_std
from reference.shariff_sheffet.regularizers import (
    PrivacyParameters,
    ProblemConstants,
    RewardPolicy,
    _PrivateGramSource,
    gaussian_node_noise,
)
from reference.validation import (
    check_alpha,
    check_choice,
    check_instance,
    check_int_at_least,
    check_positive,
    check_size,
)

__all__ = [
    "FactorizedStatistics",
    "factorized_bounds",
    "factorized_mu",
    "factorized_noise_std",
    "make_factorized_regularizer",
    "released_steps",
]


def released_steps(n: int) -> int:
    """Inputs that reach a release Algorithm 1 reads: ``n − 1`` (round ``t`` reads the prefix of
    ``t − 1`` rows; round ``n``'s row is never read).  ``n ≥ 2``."""
    n = check_size("n", n, 2)  # the strategy is fitted to n - 1 steps (optimal_blt)
    return n - 1


def _strategy(n: int, blt: BLT | None) -> BLT:
    steps = released_steps(n)
    return optimal_blt(max(steps, 2)) if blt is None else check_instance("blt", blt, BLT)


def factorized_mu(sigma_noise: float, n: int, L_tilde: float, blt: BLT) -> float:
    """Exact GDP ``μ = ‖c_{0..n−2}‖ · L̃²/σ_noise`` of the releases Algorithm 1 reads."""
    sigma_noise = check_positive("sigma_noise", sigma_noise)
    L_tilde = check_positive("L_tilde", L_tilde)
    blt = check_instance("blt", blt, BLT)
    return blt.sensitivity(released_steps(n)) * L_tilde**2 / sigma_noise


def factorized_noise_std(
    n: int, L_tilde: float, epsilon: float, delta: float, blt: BLT | None = None
) -> float:
    """The smallest ``σ_noise`` of each ``z_t`` meeting ``(ε, δ)``: ``‖c_{0..n−2}‖ · L̃²/μ*``.

    ``blt`` defaults to :func:`~reference.factorization.optimal_blt` at ``n − 1`` steps.
    """
    L_tilde = check_positive("L_tilde", L_tilde)
    blt = _strategy(n, blt)
    return blt.sensitivity(released_steps(n)) * L_tilde**2 / gaussian_mu_for(epsilon, delta)


def factorized_bounds(
    d: int,
    n: int,
    L_tilde: float,
    epsilon: float,
    delta: float,
    alpha: float,
    blt: BLT | None = None,
) -> RegularizerBounds:
    """Definition 3's bounds: Prop. 11's at the worst release's standard deviation
    ``σ_noise · ‖row_{n−1}(A C⁻¹)‖`` (:func:`~reference.shariff_sheffet.bounds.gaussian_bounds_for_release_std`)."""
    alpha = check_alpha(alpha)
    blt = _strategy(n, blt)
    sigma = factorized_noise_std(n, L_tilde, epsilon, delta, blt)
    return gaussian_bounds_for_release_std(d, sigma * blt.error(released_steps(n)), n, alpha)


class FactorizedStatistics(_PrivateGramSource):
    """Private statistics ``M_{t−1} + N_{t−1}`` with ``N`` from a :class:`BLTNoiseStream`.

    The same contract as :class:`~reference.shariff_sheffet.regularizers.TreeStatistics`: rows
    ``v = (x_t, y_t)`` with ``‖x‖ ≤ L`` and ``|y| ≤ B̃`` (or clipped, R-CLIP), ``V_t`` the top-left
    block plus ``shift·I``, at most ``n`` rows (the horizon the privacy and the bounds were
    computed for; the tree refuses a leaf beyond it too).  Round 1 reads the empty prefix,
    noise-free (``H_1 = shift·I``).

    Args:
        constants: the problem constants.
        blt: the strategy.
        sigma_noise: per-entry scale of each ``z_t = (Z' + Z'ᵀ)/√2``.
        bounds: the accuracy bounds (they include the shift).
        rng: generator of the ``z_t``.
        n: the horizon, ``≥ 2``.
        reward_policy: ``"raise"`` or ``"clip"``.
    """

    def __init__(
        self,
        constants: ProblemConstants,
        blt: BLT,
        sigma_noise: float,
        bounds: RegularizerBounds,
        rng: np.random.Generator | SeedLike,
        *,
        n: int,
        reward_policy: RewardPolicy = "raise",
    ) -> None:
        generator = as_generator(rng)
        self.n = check_int_at_least("n", n, 2)
        self.constants = check_instance("constants", constants, ProblemConstants)
        check_instance("bounds", bounds, RegularizerBounds)
        check_choice("reward_policy", reward_policy, ("raise", "clip"))
        law = gaussian_node_noise(constants.d, check_positive("sigma_noise", sigma_noise))
        self.noise = BLTNoiseStream(check_instance("blt", blt, BLT), law, generator)
        self._bounds = bounds
        self._gram = np.zeros((constants.d + 1, constants.d + 1))
        self.reward_policy = reward_policy
        self.clip_events = 0

    def _release(self) -> tuple[FloatArray, FloatArray]:
        noise = self.noise.total
        return self._gram + noise, noise

    def update(self, x: FloatArray, y: float) -> None:
        if self.noise.count >= self.n:
            raise ValueError(f"cannot record more than n={self.n} rounds (the source's horizon)")
        row = self._row(x, y)
        self._gram = self._gram + np.outer(row, row)
        self.noise.advance()


def make_factorized_regularizer(
    constants: ProblemConstants,
    n: int,
    alpha: float,
    rng: np.random.Generator | SeedLike,
    privacy: PrivacyParameters,
    *,
    blt: BLT | None = None,
    reward_policy: RewardPolicy = "raise",
) -> FactorizedStatistics:
    """The factorized source at the least noise meeting ``privacy`` (module docstring).

    Args:
        constants: problem constants (``L̃`` from them).
        n: horizon, ``≥ 2``.
        alpha: failure probability of the accuracy bounds, in ``(0, 1)``.
        rng: generator of the mechanism noise.
        privacy: the target ``(ε, δ)``.
        blt: the strategy; default :func:`~reference.factorization.optimal_blt` at ``n − 1``.
        reward_policy: what to do with ``|y| > B̃``.
    """
    generator = as_generator(rng)
    check_instance("constants", constants, ProblemConstants)
    check_instance("privacy", privacy, PrivacyParameters)
    blt = _strategy(n, blt)
    sigma = factorized_noise_std(n, constants.L_tilde, privacy.epsilon, privacy.delta, blt)
    bounds = factorized_bounds(
        constants.d, n, constants.L_tilde, privacy.epsilon, privacy.delta, alpha, blt
    )
    return FactorizedStatistics(
        constants, blt, sigma, bounds, generator, n=n, reward_policy=reward_policy
    )
