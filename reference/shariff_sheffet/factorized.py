"""The calibration of the factorized regularizer source for Algorithm 1 (the source itself,
:class:`~reference.shariff_sheffet.regularizers.FactorizedStatistics`, is with the others).

Beyond the paper: Sec. 4's tree is replaced by a :class:`~reference.factorization.BLT`
factorization of the prefix-sum matrix (symmetric Gaussian ``z_t``, one per round), whose worst
release at ``n = 5·10⁷`` carries about a quarter of the tight Gaussian tree's noise at the same
``(ε, δ)``.  Privacy: ``μ = ‖c_{0..n−2}‖·L̃²/σ`` GDP under adaptive rows (Denisov et al. 2022,
Thm 2.1); Definition 3's bounds by Prop. 11's argument at the release's standard deviation.

Proof note: ``proofs_notes/shariff_sheffet/factorized_regularizer.md``.
"""

from __future__ import annotations

from reference.accounting import gaussian_mu_for
from reference.factorization import BLT, optimal_blt
from reference.shariff_sheffet.bounds import RegularizerBounds, gaussian_bounds_for_release_std
from reference.validation import (
    check_alpha,
    check_instance,
    check_positive,
    check_size,
)

__all__ = [
    "factorized_bounds",
    "factorized_mu",
    "factorized_noise_std",
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
