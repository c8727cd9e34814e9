"""Oblivious loss sequences and regret for Agarwal & Singh's experiments.

Every generator returns a fixed ``(T, N)`` array, built before any learner runs (oblivious
adversary: the paper's guarantees cover only this case).  Random generators take a
:class:`numpy.random.Generator`; deterministic ones take none.

Regret (Sec. 2): ``Σ_t <l_t, x_t> − min_{x∈X} Σ_t <l_t, x> = Σ_t <l_t, x_t> + h_X(−Σ_t l_t)`` with
``h_X`` the support function of ``X``.

Proof note: ``proofs_notes/agarwal_singh/environments_regret.md``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from reference._typing import FloatArray
from reference.agarwal_singh.sets import DecisionSet, LossSet
from reference.rng import SeedLike, as_generator
from reference.validation import (
    check_array,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_nonempty,
    check_size,
)

__all__ = [
    "best_fixed_action",
    "cube_signed_basis",
    "experts_bernoulli",
    "experts_minimax",
    "ftl_trap",
    "mab_constant_gap",
    "mab_switching",
    "pseudo_regret_mab",
    "regret_full_info",
    "single_change_neighbours",
    "sphere_drift",
    "worst_case_replacement",
]


# --------------------------------------------------------------------------------------------
# Full-information sequences
# --------------------------------------------------------------------------------------------


def experts_minimax(N: int, T: int) -> FloatArray:
    """Deterministic minimax-type experts instance ``l_t = (1/2 − √(ln N/T), 1/2, …, 1/2)``;
    losses in ``[0, 1]``, expert 1 best by ``√(T ln N)`` in total.  ``N ≥ 2``,
    ``T ≥ 4 ln N`` (so the first loss is ``≥ 0``)."""
    N = check_size("N", N, 2, item_bytes=8, what="a loss entry")
    T = check_size("T", T, 1, item_bytes=8 * N, what="a round's losses")
    gap = math.sqrt(math.log(N) / T)
    if gap > 0.5:
        raise ValueError(f"T must be >= 4 ln N = {4 * math.log(N):.3f}, got {T}")
    losses = np.full((T, N), 0.5)
    losses[:, 0] = 0.5 - gap
    return losses


def experts_bernoulli(means: FloatArray, T: int, rng: np.random.Generator | SeedLike) -> FloatArray:
    """I.i.d. ``l_t(i) ~ Bernoulli(means[i])``; losses in ``{0, 1}``."""
    rng = as_generator(rng)
    means = check_nonempty("means", check_array("means", means, ndim=1), what="expert")
    if np.any(means < 0) or np.any(means > 1):
        raise ValueError("means must lie in [0, 1]")
    T = check_size("T", T, 1, item_bytes=8 * means.size, what="a round's losses")
    return np.asarray(rng.random((T, means.size)) < means, dtype=np.float64)


def ftl_trap(T: int) -> FloatArray:
    """The classic two-expert sequence that makes Follow-the-Leader suffer linear regret:
    ``l_1 = (1/2, 0)``, then alternately ``(0, 1)`` and ``(1, 0)``.  Losses in ``[0, 1]``; a
    regularised leader (Alg. 1) has ``O(√T)`` regret on it."""
    T = check_size("T", T, 1, item_bytes=16, what="a round's losses")
    losses = np.empty((T, 2))
    losses[0] = (0.5, 0.0)
    for t in range(1, T):
        losses[t] = (0.0, 1.0) if t % 2 == 1 else (1.0, 0.0)
    return losses


def sphere_drift(N: int, T: int, drift: float, rng: np.random.Generator | SeedLike) -> FloatArray:
    """``l_t = drift·e_1 + (1 − drift) ξ_t``, ``ξ_t`` uniform on the unit sphere;
    ``‖l_t‖₂ ≤ 1``.  ``drift ∈ [0, 1]``."""
    rng = as_generator(rng)
    N = check_size("N", N, 1, item_bytes=8, what="a loss entry")
    T = check_size("T", T, 1, item_bytes=8 * N, what="a round's losses")
    drift = check_in_range("drift", drift, 0.0, 1.0, low_open=False, high_open=False)
    xi = rng.standard_normal((T, N))
    xi /= np.linalg.norm(xi, axis=1, keepdims=True)
    u = np.zeros(N)
    u[0] = 1.0
    return np.asarray(drift * u + (1.0 - drift) * xi, dtype=np.float64)


def cube_signed_basis(
    N: int, T: int, bias: float, rng: np.random.Generator | SeedLike
) -> FloatArray:
    """``l_t = s_t e_{j_t}``, ``j_t`` uniform on ``[N]``, ``P(s_t = +1) = 1/2 + bias·(−1)^{j_t}``
    with 1-based ``j_t``; ``‖l_t‖₁ = 1``.  ``bias ∈ [0, 1/2]``."""
    rng = as_generator(rng)
    N = check_size("N", N, 1, item_bytes=8, what="a loss entry")
    T = check_size("T", T, 1, item_bytes=8 * N, what="a round's losses")
    bias = check_in_range("bias", bias, 0.0, 0.5, low_open=False, high_open=False)
    j = rng.integers(0, N, size=T)
    p_plus = 0.5 + bias * np.where((j + 1) % 2 == 0, 1.0, -1.0)
    s = np.where(rng.random(T) < p_plus, 1.0, -1.0)
    losses = np.zeros((T, N))
    losses[np.arange(T), j] = s
    return losses


# --------------------------------------------------------------------------------------------
# Bandit sequences
# --------------------------------------------------------------------------------------------


def mab_constant_gap(N: int, T: int, best: float = 0.1, other: float = 0.5) -> FloatArray:
    """Deterministic ``l_t = (best, other, …, other)`` (scaling instance with a constant gap)."""
    N = check_size("N", N, 2, item_bytes=8, what="a loss entry")
    T = check_size("T", T, 1, item_bytes=8 * N, what="a round's losses")
    best = check_in_range("best", best, -1.0, 1.0, low_open=False, high_open=False)
    other = check_in_range("other", other, -1.0, 1.0, low_open=False, high_open=False)
    losses = np.full((T, N), other)
    losses[:, 0] = best
    return losses


def mab_switching(N: int, T: int, gap: float, switches: Sequence[int]) -> FloatArray:
    """Deterministic switching instance: losses ``1/2`` except the current best arm at
    ``1/2 − gap``; the best arm is ``k mod N`` on the ``k``-th segment delimited by ``switches``
    (strictly increasing rounds in ``[1, T−1]``, 0-based starts)."""
    N = check_size("N", N, 2, item_bytes=8, what="a loss entry")
    T = check_size("T", T, 1, item_bytes=8 * N, what="a round's losses")
    gap = check_in_range("gap", gap, 0.0, 0.5, low_open=False, high_open=False)
    if isinstance(switches, str | bytes) or not isinstance(switches, Sequence | np.ndarray):
        raise ValueError(f"switches must be a sequence of rounds, got {switches!r:.80}")
    bounds = [0, *[check_int_at_least(f"switches[{i}]", s, 1) for i, s in enumerate(switches)], T]
    if any(b >= c for b, c in itertools.pairwise(bounds)):
        raise ValueError(f"switches must be strictly increasing in [1, T-1], got {list(switches)}")
    losses = np.full((T, N), 0.5)
    for k, (start, stop) in enumerate(itertools.pairwise(bounds)):
        losses[start:stop, k % N] = 0.5 - gap
    return losses


# --------------------------------------------------------------------------------------------
# Neighbouring sequences (Definition 2.1) for privacy audits
# --------------------------------------------------------------------------------------------


def worst_case_replacement(loss_set: LossSet) -> tuple[FloatArray, FloatArray]:
    """A pair ``(l, l') ∈ Y²`` at ℓ₁ distance ``Δ₁(Y)`` (worst-case neighbours for ``N > 1``).

    ``l1_ball``: ``±r e_1``; ``l2_ball``: ``±r·1/√N``; ``linf_ball``: ``±r·1``; ``box01``:
    ``r·1`` vs ``0``.
    """
    n, r = check_instance("loss_set", loss_set, LossSet).dim, loss_set.r
    if loss_set.kind == "l1_ball":
        plus = np.zeros(n)
        plus[0] = r
        return plus, -plus
    if loss_set.kind == "l2_ball":
        plus = np.full(n, r / math.sqrt(n))
        return plus, -plus
    if loss_set.kind == "linf_ball":
        plus = np.full(n, r)
        return plus, -plus
    return np.full(n, r), np.zeros(n)


def single_change_neighbours(
    base: FloatArray, t0: int, replacement: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """``(L, L')`` differing only in round ``t0`` (1-based), Definition 2.1:
    ``L = base``, ``L'`` = ``base`` with row ``t0`` replaced.  Inputs are not modified."""
    base = check_nonempty("base", check_array("base", base, ndim=2), what="round")
    t0 = check_int_at_least("t0", t0, 1)
    if t0 > base.shape[0]:
        raise ValueError(f"t0 must be in [1, T] = [1, {base.shape[0]}], got {t0}")
    replacement = check_array("replacement", replacement, shape=(base.shape[1],))
    other = base.copy()
    other[t0 - 1] = replacement
    return base.copy(), other


# --------------------------------------------------------------------------------------------
# Regret
# --------------------------------------------------------------------------------------------


def best_fixed_action(losses: FloatArray, decision_set: DecisionSet) -> FloatArray:
    """``argmin_{x∈X} <Σ_t l_t, x>`` (via the linear oracle)."""
    check_instance("decision_set", decision_set, DecisionSet)
    losses = check_array("losses", losses, shape=(None, decision_set.dim))
    check_nonempty("losses", losses, what="round")
    return decision_set.linear_argmin(losses.sum(axis=0))


def regret_full_info(
    actions: FloatArray, losses: FloatArray, decision_set: DecisionSet
) -> FloatArray:
    """Realised regret ``Σ_t <l_t, x_t> − min_{x∈X} <Σ_t l_t, x>`` (Sec. 2).

    ``actions`` has shape ``(T, ..., N)`` (replicate axes in the middle), ``losses`` ``(T, N)``;
    the result has the replicate shape.  ``min_{x∈X} <c, x> = −h_X(−c)``.
    """
    check_instance("decision_set", decision_set, DecisionSet)
    losses = check_array("losses", losses, shape=(None, decision_set.dim))
    check_nonempty("losses", losses, what="round")
    actions = check_array("actions", actions)
    if actions.shape[0] != losses.shape[0] or actions.shape[-1] != decision_set.dim:
        raise ValueError(
            f"actions must have shape (T, ..., N) = ({losses.shape[0]}, ..., {decision_set.dim}), "
            f"got {actions.shape}"
        )
    incurred = np.einsum("t...n,tn->...", actions, losses)
    best = -decision_set.support(-losses.sum(axis=0))
    return np.asarray(incurred - best, dtype=np.float64)


def pseudo_regret_mab(probs: FloatArray, losses: FloatArray) -> FloatArray:
    """``Σ_t <p_t, l_t> − min_i Σ_t l_t(i)`` for sampling distributions ``probs`` ``(T, ..., N)``:
    the expected regret given the learner's distributions, without arm-sampling noise.

    Each ``probs[t, ..., :]`` must be a distribution on the ``N`` arms: entries in ``[0, 1]``
    summing to 1 (within ``1e-9``, the rounding of a normalised vector)."""
    losses = check_array("losses", losses, ndim=2)
    probs = check_array("probs", probs)
    if probs.ndim < 2 or probs.shape[0] != losses.shape[0] or probs.shape[-1] != losses.shape[1]:
        raise ValueError(f"probs must have shape (T, ..., N) matching losses {losses.shape}")
    if np.any(probs < 0.0) or np.any(probs > 1.0):
        raise ValueError("probs must hold probabilities in [0, 1]")
    if np.any(np.abs(probs.sum(axis=-1) - 1.0) > 1e-9):
        raise ValueError("probs must be distributions: every row must sum to 1")
    expected = np.einsum("t...n,tn->...", probs, losses)
    return np.asarray(expected - np.min(losses.sum(axis=0)), dtype=np.float64)
