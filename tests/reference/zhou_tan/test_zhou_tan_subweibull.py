"""Tests of TGP-UCB for sub-Weibull noise (Sec. 4.3, remark after Eq. 6; no constants printed).

Checks: with Laplace tails the variant *is* LDP-TGP-UCB's theory preset (levels and widths equal);
the level makes the truncation probability at most ``1/t`` (exactly ``1/t`` for Laplace and for a
``θ = 2`` law, below it for Gaussian noise); bad tails are refused by name.  The confidence event
of Eq. 21 under unbounded Gaussian noise is checked by Monte Carlo next to MC1
(``test_zhou_tan_algorithms.py::test_subweibull_tgp_confidence_event_monte_carlo``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reference.zhou_tan import algorithms as al
from reference.zhou_tan.environment import SubWeibullGaussianNoise, sample_rkhs_function
from reference.zhou_tan.kernels import se_kernel, unit_grid
from reference.zhou_tan.mechanism import LDPParams, ldp_reward_second_moment
from reference.zhou_tan.schedules import subweibull_tgp_beta, subweibull_trunc_level

P_REJECT = 1e-6


def _kernel_and_f(seed: int) -> tuple[np.ndarray, np.ndarray, float]:
    X = unit_grid(60)
    K = se_kernel(X, X, 0.2)
    fn = sample_rkhs_function(K, 60, np.random.default_rng(seed))
    return K, fn.values, fn.sup_norm


def test_laplace_tails_give_ldp_tgp_theory_preset() -> None:
    K, _f, B = _kernel_and_f(1)
    p = LDPParams(1.0, B, 1.0)
    K2 = ldp_reward_second_moment(p.B, p.R, p.eps)
    T, lam, delta = 80, 1.5, 0.05
    ldp = al.make_ldp_tgp_ucb(K, p, lam, delta, T, np.random.default_rng(0))
    sub = al.make_subweibull_tgp_ucb(
        K, p.B, p.B + p.R, (1.0, 1.0 / p.lap_scale, 1.0), K2, lam, delta, T,
        np.random.default_rng(0),
    )  # fmt: skip
    for t in range(1, T + 1):
        assert sub.trunc_level(t) == pytest.approx(ldp.trunc_level(t), rel=1e-12)
        assert sub.beta(t) == pytest.approx(ldp.beta(t), rel=1e-12)


@given(
    sigma=st.floats(0.05, 20.0),
    t=st.integers(1, 10**9),
    s=st.floats(0.0, 10.0),
)
@settings(max_examples=200)
def test_level_bounds_the_truncation_probability_by_one_over_t(
    sigma: float, t: int, s: float
) -> None:
    """``P(|η| > b_t − s) ≤ 1/t`` from the exact tails: Gaussian (``θ = 1/2``, below ``1/t``),
    Laplace (``θ = 1``, equal for ``t ≥ 1``) and ``η = ±E²``, ``E ~ Exp(1)`` (``θ = 2``,
    ``P(|η| ≥ x) = exp(−√x)``, equal)."""
    gauss = SubWeibullGaussianNoise(sigma)
    level = subweibull_trunc_level(t, s, *gauss.tail) - s
    assert 2.0 * stats.norm.sf(level / sigma) <= 1.0 / t * (1 + 1e-12)
    lap = subweibull_trunc_level(t, s, 1.0, 1.0 / sigma, 1.0) - s
    assert math.exp(-lap / sigma) == pytest.approx(1.0 / t, rel=1e-9)
    heavy = subweibull_trunc_level(t, s, 1.0, 1.0, 2.0) - s
    assert math.exp(-math.sqrt(heavy)) == pytest.approx(1.0 / t, rel=1e-9)
    # the level grows like (ln t)^θ (the paper's b_t = O((ln t)^θ))
    assert level == pytest.approx(math.sqrt(2.0 * sigma**2 * max(math.log(2.0 * t), 0.0)))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"tail": (1.0, 1.0)}, "tail must be a tuple"),
        ({"tail": (1.0, -1.0, 1.0)}, "b must be"),
        ({"tail": (1.0, 1.0, 0.0)}, "theta must be"),
        ({"tail": (math.nan, 1.0, 1.0)}, "a must be"),
        ({"signal_bound": -1.0}, "signal_bound must be"),
        ({"K2": 0.0}, "K2 must be"),
        ({"delta": 1.5}, "delta"),
    ],
)
def test_bad_tails_and_bounds_are_refused(kwargs: dict[str, object], match: str) -> None:
    K, _f, B = _kernel_and_f(2)
    args: dict[str, object] = {
        "K": K, "B": B, "signal_bound": B, "tail": (2.0, 0.5, 0.5), "K2": B**2 + 1.0,
        "lam": 1.0, "delta": 0.05, "T": 10, "rng": np.random.default_rng(0),
    }  # fmt: skip
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        al.make_subweibull_tgp_ucb(**args)  # type: ignore[arg-type]


def test_width_by_hand() -> None:
    t, B, s, lam, delta, g, K2 = 10, 2.0, 3.0, 2.0, 0.1, 4.0, 9.0
    b_prev = s + (math.log(2 * 9) * 0.5) ** 0.5  # tails (2, 2, 1/2) at t − 1 = 9
    hand = (
        B
        + 2 * math.sqrt(2) / math.sqrt(lam) * b_prev * math.sqrt(g + math.log(1 / delta))
        + math.sqrt(K2 * (math.log(9) + 1)) / math.sqrt(lam)
    )
    got = subweibull_tgp_beta(t, B, s, 2.0, 2.0, 0.5, lam, delta, g, K2)
    assert got == pytest.approx(hand, rel=1e-12)
