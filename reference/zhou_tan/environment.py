"""Finite-arm environments, the curator between users and learner, and the trial loop (Sec. 2, Sec. 5).

Paper: Zhou & Tan, "Local Differential Privacy for Bayesian Optimization" (AAAI 2021); locators
are the paper's own section, theorem, lemma and algorithm-line numbers.

Protocol (Sec. 2): the learner picks ``x_t``; user ``t`` produces ``y_t = f(x_t) + η_t``; the curator
(CTL(ϵ) for the LDP algorithms, identity for the non-private ones) turns it into ``ȳ_t``; only
``ȳ_t`` reaches the learner.  Regret (Eq. 2) uses the true ``f``.

Proof note: ``proofs_notes/zhou_tan/environment_experiments.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from reference._typing import FloatArray, IntArray
from reference.rng import SeedLike, as_generator
from reference.validation import (
    check_array,
    check_callable,
    check_instance,
    check_int_at_least,
    check_nonempty,
    check_positive,
    check_psd,
    check_size,
)

__all__ = [
    "Curator",
    "FiniteArmEnvironment",
    "NoiseModel",
    "Policy",
    "RKHSFunction",
    "StudentTNoise",
    "SubWeibullGaussianNoise",
    "TrialResult",
    "UniformNoise",
    "run_trial",
    "sample_rkhs_function",
]


@runtime_checkable
class NoiseModel(Protocol):
    """Additive reward noise ``η``: ``sample(n, rng)`` returns ``n`` i.i.d. draws."""

    def sample(self, n: int, rng: np.random.Generator) -> FloatArray: ...


class UniformNoise:
    """``η ~ U[−R, R]`` (LDP experiments, Sec. 5.1: ``R = 1``); zero mean, ``|η| ≤ R``."""

    def __init__(self, R: float) -> None:
        self.R = check_positive("R", R)

    def sample(self, n: int, rng: np.random.Generator | SeedLike) -> FloatArray:
        rng = as_generator(rng)
        return rng.uniform(
            -self.R, self.R, size=check_size("n", n, 0, item_bytes=8, what="a noise draw")
        )


class StudentTNoise:
    """``η ~ Student-t(df)`` (non-private heavy-tailed experiments, Sec. 5.1: ``df = 3``, variance 3)."""

    def __init__(self, df: float) -> None:
        self.df = check_positive("df", df)

    def sample(self, n: int, rng: np.random.Generator | SeedLike) -> FloatArray:
        rng = as_generator(rng)
        return rng.standard_t(
            self.df, size=check_size("n", n, 0, item_bytes=8, what="a noise draw")
        )


class SubWeibullGaussianNoise:
    """``η ~ N(0, σ²)``: sub-Weibull with ``θ = 1/2`` (Eq. 6), tails ``(a, b, θ) =
    (2, 1/(2σ²), 1/2)`` since ``P(|η| ≥ x) ≤ 2 exp(−x²/(2σ²))``; unbounded, unlike the noise of the
    LDP experiments."""

    def __init__(self, sigma: float) -> None:
        self.sigma = check_positive("sigma", sigma)

    @property
    def tail(self) -> tuple[float, float, float]:
        """``(a, b, θ)`` of Eq. 6."""
        return 2.0, 1.0 / (2.0 * self.sigma**2), 0.5

    def sample(self, n: int, rng: np.random.Generator | SeedLike) -> FloatArray:
        rng = as_generator(rng)
        return rng.normal(
            0.0, self.sigma, size=check_size("n", n, 0, item_bytes=8, what="a noise draw")
        )


class FiniteArmEnvironment:
    """Arms ``0..n−1`` with mean rewards ``f`` and additive noise; ``pull`` returns raw rewards ``y``.

    Only a :class:`Curator` should call :meth:`pull`; the learner never sees raw rewards.
    """

    def __init__(
        self, f: FloatArray, noise: NoiseModel, rng: np.random.Generator | SeedLike
    ) -> None:
        rng = as_generator(rng)
        self.f = check_nonempty("f", check_array("f", f, ndim=1), what="arm").copy()
        self.noise = check_instance("noise", noise, NoiseModel)
        self._rng = rng

    @property
    def n_arms(self) -> int:
        return int(self.f.size)

    @property
    def best_value(self) -> float:
        return float(np.max(self.f))

    def pull(self, arm: int, n: int) -> FloatArray:
        """``n`` raw rewards ``y = f(arm) + η`` (``n`` separate users)."""
        a = check_int_at_least("arm", arm, 0)
        if a >= self.n_arms:
            raise ValueError(f"arm must be in [0, {self.n_arms - 1}], got {arm!r}")
        return np.asarray(self.f[a] + self.noise.sample(n, self._rng), dtype=np.float64)


class Curator:
    """Between users and learner: ``mechanism`` (e.g. :class:`~.mechanism.ConvertToLaplace`) or identity."""

    def __init__(self, mechanism: Callable[[FloatArray], FloatArray] | None) -> None:
        self.mechanism = None if mechanism is None else check_callable("mechanism", mechanism)
        self.n_rewards = 0

    def respond(self, env: FiniteArmEnvironment, arm: int, n: int) -> FloatArray:
        """``n`` rewards of ``arm`` from ``env`` (an environment with ``pull(arm, n)``), through
        the mechanism."""
        if not callable(getattr(env, "pull", None)):
            raise ValueError(f"env must be an environment with pull(arm, n), got {env!r:.80}")
        y = env.pull(arm, n)
        self.n_rewards += int(y.size)
        return y if self.mechanism is None else self.mechanism(y)


@runtime_checkable
class Policy(Protocol):
    """A learner: ``next_query() -> (arm, number of plays)``, then ``observe(arm, rewards)``."""

    def next_query(self) -> tuple[int, int]: ...

    def observe(self, arm: int, rewards: FloatArray) -> None: ...


@dataclass(frozen=True)
class TrialResult:
    """Arms played (one per round), instantaneous and cumulative regret ``f(x*) − f(x_t)`` (Eq. 2)."""

    arms: IntArray
    inst_regret: FloatArray
    cum_regret: FloatArray
    n_rewards: int


def run_trial(env: FiniteArmEnvironment, policy: Policy, curator: Curator, T: int) -> TrialResult:
    """Run ``T`` rounds (user-rewards).  A query for ``k`` plays uses ``min(k, rounds left)`` rounds."""
    check_instance("env", env, FiniteArmEnvironment)
    check_instance("policy", policy, Policy)
    check_instance("curator", curator, Curator)
    T_ = check_size("T", T, 1, item_bytes=16, what="a round's arm and reward")
    arms: list[int] = []
    while len(arms) < T_:
        arm, n = policy.next_query()
        n = min(n, T_ - len(arms))
        rewards = curator.respond(env, arm, n)
        policy.observe(arm, rewards)
        arms.extend([arm] * n)
    arr = np.asarray(arms, dtype=np.int64)
    inst = env.best_value - env.f[arr]
    return TrialResult(arr, inst, np.cumsum(inst), curator.n_rewards)


@dataclass(frozen=True)
class RKHSFunction:
    """``f = Σ_i a_i k(·, x_i)`` on a finite domain: values, support indices, coefficients, norms."""

    values: FloatArray
    support: IntArray
    coef: FloatArray
    rkhs_norm: float
    sup_norm: float


def sample_rkhs_function(
    K: FloatArray, n_support: int, rng: np.random.Generator | SeedLike
) -> RKHSFunction:
    """Synthetic objective of Sec. 5.1: ``a_i ~ U[−1, 1]``, support points uniform on ``𝒟``.

    ``‖f‖²_ℋ = aᵀ K_supp a`` (repeated support points are summed, so the norm is that of the
    function).  The paper sets ``B = max|f|`` (the sup norm, what privacy needs); the regret theory
    needs the RKHS norm.  Both are returned.
    """
    rng = as_generator(rng)
    Kd = check_array("K", K, ndim=2)
    if Kd.shape[0] == 0 or Kd.shape[0] != Kd.shape[1]:
        raise ValueError(f"K must be a non-empty square matrix, got shape {Kd.shape}")
    check_psd("K", Kd)  # a kernel matrix; otherwise ‖f‖²_ℋ = aᵀ K a can be negative
    p = check_size(
        "n_support", n_support, 1, item_bytes=16, what="a support point and its coefficient"
    )
    support = rng.integers(0, Kd.shape[0], size=p).astype(np.int64)
    coef = rng.uniform(-1.0, 1.0, size=p)
    values = Kd[:, support] @ coef
    norm2 = float(coef @ Kd[np.ix_(support, support)] @ coef)
    return RKHSFunction(
        np.asarray(values, dtype=np.float64),
        support,
        coef,
        float(np.sqrt(max(norm2, 0.0))),
        float(np.max(np.abs(values))),
    )
