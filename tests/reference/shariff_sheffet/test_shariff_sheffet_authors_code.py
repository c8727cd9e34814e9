"""The constants of the authors' code (``reference.shariff_sheffet.authors_code``).

Golden values: the authors' formulas evaluated at the App. D.2 setting (``d = 5``, ``K = 25``,
``n = 5·10⁷``, ``ε = 1``, ``δ = 0.1``, ``L̃ = √2``); the ``ρ_min`` values and the D.3 grid ends are the
ones the authors' notebook prints (``Gaussian 92208.7``, ``Wishart 2.22336e5``,
``Wishart(Unshifted) 1.28101e7``, ``Gaussian(Opt) 71629.3``, ``Wishart(Opt) 2.07393e5``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.noise import NodeNoise, SymmetricGaussianNoise, WishartNoise
from reference.shariff_sheffet.authors_code import (
    authors_alpha,
    authors_base_bounds,
    authors_d3_rho_grid,
    authors_gaussian_bounds,
    authors_node_privacy,
    authors_opt_rho_min,
    authors_regret_objective,
    authors_release_alpha,
    authors_shifted,
    authors_wishart_degrees_of_freedom,
    authors_wishart_shifted_bounds,
    authors_wishart_unshifted_bounds,
)
from reference.shariff_sheffet.bounds import (
    RegularizerBounds,
    gaussian_noise_std,
    wishart_degrees_of_freedom,
)
from reference.shariff_sheffet.regularizers import (
    OPT_VARIANTS,
    PrivacyParameters,
    ProblemConstants,
    Variant,
    default_alpha,
    regularizer_spec,
)
from reference.tree import tree_depth

D, N, EPS, DELTA = 5, 5 * 10**7, 1.0, 0.1
L_TILDE = math.sqrt(2.0)
M = tree_depth(N)
ALPHA_RELEASE = 1.0 / (2.0 * N) / 2.0**26


def _close(value: float, golden: float, digits: int = 6) -> bool:
    """``value`` rounds to ``golden`` at ``digits`` significant digits."""
    return float(f"{value:.{digits}g}") == float(f"{golden:.{digits}g}")


def _authors_spec(variant: Variant) -> tuple[NodeNoise | None, RegularizerBounds]:
    """The noise law and bounds of ``variant`` in the authors' calibration at the D.2 setting."""
    return regularizer_spec(
        variant,
        ProblemConstants(d=D),
        N,
        authors_alpha(N),
        PrivacyParameters(EPS, DELTA),
        calibration="authors_code",
    )


def test_tree_depth_and_release_alpha_at_d2() -> None:
    assert M == 27
    assert authors_alpha(N) == 1.0 / (2 * N)
    assert authors_release_alpha(authors_alpha(N), N) == pytest.approx(1.4901161e-16, rel=1e-7)


def test_degrees_of_freedom_at_d2_and_the_printed_k() -> None:
    eps0, delta0 = authors_node_privacy(EPS, DELTA, M)
    assert _close(eps0, 0.028664, 5) and _close(delta0, 0.1 / 28, 6)
    assert authors_wishart_degrees_of_freedom(D, M, EPS, DELTA) == 239_278
    assert wishart_degrees_of_freedom(D, M, EPS, DELTA) == 139_115  # Sec. 4.1 as printed


def test_node_privacy_composes_back_to_epsilon_delta() -> None:
    """Advanced composition at the authors' split: ``√(2m ln(1/δ'))ε₀ + mε₀(e^ε₀ − 1) ≤ ε`` and
    ``mδ₀ + δ' = δ`` (the privacy of the authors' tree, App. A.2's argument)."""
    eps0, delta0 = authors_node_privacy(EPS, DELTA, M)
    fail = DELTA / (M + 1)
    composed = math.sqrt(2 * M * math.log(1 / fail)) * eps0 + M * eps0 * math.expm1(eps0)
    assert composed <= EPS
    assert M * delta0 + fail == pytest.approx(DELTA, abs=1e-15)
    assert authors_node_privacy(0.5, 0.01, 1) == (0.5, 0.01)


@pytest.mark.parametrize(
    ("name", "rho_min", "rho_max", "gamma", "shift"),
    [
        ("gaussian", 92_208.7, 276_626, 28.2691, 184_417),
        ("wishart", 222_336, 444_673, 115.647, -1.25877e7),
        ("wishart_unshifted", 1.28101e7, 1.30324e7, 15.2358, 0.0),
        ("gaussian_opt", 71_629.3, 256_047, 32.0740, 163_838),
        ("wishart_opt", 207_393, 429_729, 119.741, -1.26027e7),
    ],
)
def test_bounds_at_d2_match_the_authors_values(
    name: str, rho_min: float, rho_max: float, gamma: float, shift: float
) -> None:
    _, bounds = _authors_spec(name)  # type: ignore[arg-type]
    assert _close(bounds.rho_min, rho_min)
    assert _close(bounds.rho_max, rho_max)
    assert _close(bounds.gamma, gamma)
    assert bounds.shift == 0.0 if shift == 0.0 else _close(bounds.shift, shift)


def test_noise_laws_at_d2() -> None:
    wishart, _ = _authors_spec("wishart")
    gaussian, _ = _authors_spec("gaussian_opt")
    assert isinstance(wishart, WishartNoise)
    assert isinstance(gaussian, SymmetricGaussianNoise)
    assert wishart.degrees_of_freedom == 239_278
    assert wishart.scale == pytest.approx(2.0, abs=1e-15)
    assert _close(gaussian.sigma, 153.344)
    assert gaussian.sigma == gaussian_noise_std(M, L_TILDE, EPS, DELTA)


def test_d3_grid_matches_experiment3() -> None:
    grid = authors_d3_rho_grid(D, N, L_TILDE, EPS, DELTA)
    golden = (2.539e4, 7.163e4, 2.021e5, 5.703e5, 1.609e6, 4.540e6, 1.281e7, 3.614e7)
    assert len(grid) == 8
    assert all(_close(g, v, 4) for g, v in zip(grid, golden, strict=True))
    # the grid's c = 0 and c = 1 points are the smallest (GaussianOpt) and largest (unshifted) rho_min
    assert _close(grid[1], 71_629.3) and _close(grid[6], 1.28101e7)


def test_opt_is_the_minimiser_of_the_authors_objective() -> None:
    """The Opt ``ρ*`` beats every nearby shift and the printed variants' ``ρ_min`` on the objective
    (evaluated, as ``OptShifted`` does, at ``α = 1/(2n)`` with bounds at ``α/n``)."""
    alpha = authors_alpha(N)
    for mechanism in ("gaussian", "wishart"):
        base = authors_base_bounds(mechanism, D, N, L_TILDE, EPS, DELTA, alpha / N)
        best = authors_opt_rho_min(mechanism, D, N, L_TILDE, EPS, DELTA)

        def value(rho: float, base: RegularizerBounds = base) -> float:
            return authors_regret_objective(authors_shifted(base, rho), N, D, alpha)

        for factor in (0.9, 0.99, 1.01, 1.1):
            assert value(best) <= value(best * factor)
        assert value(best) <= value(base.rho_min)


def test_objective_is_the_first_line_of_theorem_5s_proof() -> None:
    bounds = RegularizerBounds(rho_min=4.0, rho_max=9.0, gamma=2.0, shift=0.0)
    n, d, alpha = 100, 2, 0.01
    growth = n / (d * 4.0)
    beta = math.sqrt(2 * math.log(2 / alpha) + d * math.log(9 / 4 + growth)) + 3.0 + 2.0
    expected = 0.75 * beta * math.sqrt(8 * d * n * math.log1p(growth))
    assert authors_regret_objective(bounds, n, d, alpha) == pytest.approx(expected, rel=1e-14)


@settings(max_examples=60, deadline=None)
@given(
    d=st.integers(1, 12),
    log2_n=st.integers(4, 40),
    epsilon=st.floats(0.05, 4.0),
    delta=st.floats(1e-8, 0.3),
)
def test_shifted_wishart_has_rho_max_twice_rho_min(
    d: int, log2_n: int, epsilon: float, delta: float
) -> None:
    n = 2**log2_n
    m = tree_depth(n)
    k = authors_wishart_degrees_of_freedom(d, m, epsilon, delta)
    assert k >= d + 1
    released = authors_release_alpha(authors_alpha(n), n)
    shifted = authors_wishart_shifted_bounds(d, m, k, 1.5, released)
    unshifted = authors_wishart_unshifted_bounds(d, m, k, 1.5, released)
    assert shifted.rho_max == pytest.approx(2.0 * shifted.rho_min, rel=1e-9)
    # Eq. (4)'s form: the shift is -c with c = rho_min - rho'_min
    assert shifted.shift == pytest.approx(shifted.rho_min - unshifted.rho_min, rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    rho=st.floats(1.0, 1e6),
    spread=st.floats(1.0, 5.0),
    gamma=st.floats(0.0, 100.0),
    shift=st.floats(-1e6, 1e6),
    target=st.floats(0.1, 1e7),
)
def test_authors_shift_moves_rho_and_shift_together(
    rho: float, spread: float, gamma: float, shift: float, target: float
) -> None:
    base = RegularizerBounds(rho_min=rho, rho_max=rho * spread, gamma=gamma, shift=shift)
    moved = authors_shifted(base, target)
    assert moved.rho_min == target
    assert moved.rho_max - moved.rho_min == pytest.approx(base.rho_max - base.rho_min, rel=1e-9)
    assert moved.shift - base.shift == pytest.approx(target - rho, rel=1e-12, abs=1e-6)
    assert moved.gamma == pytest.approx(gamma * math.sqrt(rho / target), rel=1e-12)
    same = authors_shifted(base, rho)
    assert same == base


def test_gaussian_bounds_are_prop_11_at_the_release_alpha() -> None:
    sigma = gaussian_noise_std(M, L_TILDE, EPS, DELTA)
    bounds = authors_gaussian_bounds(D, M, sigma, ALPHA_RELEASE)
    log_term = math.log(1 / ALPHA_RELEASE)
    upsilon = sigma * math.sqrt(2 * M) * (4 * math.sqrt(D) + 2 * log_term)
    assert bounds.rho_min == pytest.approx(upsilon, rel=1e-14)
    assert bounds.shift == pytest.approx(2 * upsilon, rel=1e-14)


def test_default_alpha() -> None:
    assert default_alpha("nonprivate", 100) == 0.01
    assert default_alpha("wishart", 100) == 0.01
    assert default_alpha("nonprivate", 100, "authors_code") == 0.01
    assert default_alpha("wishart", 100, "authors_code") == 0.005
    with pytest.raises(ValueError, match="n >= 2"):
        default_alpha("gaussian", 1)


@pytest.mark.parametrize("variant", OPT_VARIANTS)
@pytest.mark.parametrize("calibration", ["paper", "tight"])
def test_opt_variants_need_the_authors_calibration(variant: str, calibration: str) -> None:
    with pytest.raises(ValueError, match=r"calibration='authors_code'.*calibration="):
        regularizer_spec(
            variant,  # type: ignore[arg-type]
            ProblemConstants(d=D),
            1000,
            0.001,
            PrivacyParameters(EPS, DELTA),
            calibration=calibration,  # type: ignore[arg-type]
        )


def test_refusals_name_the_parameter() -> None:
    common = (ProblemConstants(d=D), 1000, 0.001, PrivacyParameters(EPS, DELTA))
    with pytest.raises(ValueError, match="factorized"):
        regularizer_spec("factorized", *common, calibration="authors_code")
    with pytest.raises(ValueError, match="target_rho_min"):
        regularizer_spec("wishart_opt", *common, calibration="authors_code", target_rho_min=1e5)
    with pytest.raises(ValueError, match="calibration"):
        regularizer_spec("wishart", *common, calibration="author")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="privacy"):
        regularizer_spec("gaussian", *common[:3], None, calibration="authors_code")
    with pytest.raises(ValueError, match="epsilon too large"):
        authors_wishart_degrees_of_freedom(D, 2, 10.0, 0.1)
    with pytest.raises(ValueError, match="alpha_release"):
        authors_gaussian_bounds(D, M, 1.0, float("nan"))
    with pytest.raises(ValueError, match="k too small"):
        authors_wishart_unshifted_bounds(D, 1, D + 1, 1.0, 1e-12)


def test_target_rho_min_reshifts_the_authors_base() -> None:
    """App. D.3 in the authors' code: ``shifted(Mechanism; ρmin)`` of the *unshifted* Wishart."""
    common = (ProblemConstants(d=D), N, authors_alpha(N), PrivacyParameters(EPS, DELTA))
    _, moved = regularizer_spec("wishart", *common, calibration="authors_code", target_rho_min=3e7)
    base = authors_base_bounds("wishart", D, N, L_TILDE, EPS, DELTA, ALPHA_RELEASE)
    assert moved == authors_shifted(base, 3e7)
    assert moved.gamma == pytest.approx(base.gamma * math.sqrt(base.rho_min / 3e7), rel=1e-14)


def test_the_three_paths_agree_in_the_authors_calibration() -> None:
    """Reference, numpy engine and compiled engine make the same choices on the same seeds."""
    from reference.engine import run_gap_batch
    from reference.engine.compiled import run_gap_compiled
    from reference.shariff_sheffet.simulation import run_gap_experiment

    privacy = PrivacyParameters(EPS, DELTA)
    for variant, tree in (("wishart_opt", "pan_private"), ("gaussian", "dyadic")):
        kwargs = dict(
            d=3, num_arms=6, gap=0.1, n=400, privacy=privacy, calibration="authors_code", tree=tree
        )
        ref = run_gap_experiment(variant, seed=7, **kwargs)  # type: ignore[arg-type]
        batch = run_gap_batch(variant, seeds=[7], trace=True, **kwargs)  # type: ignore[arg-type]
        fast = run_gap_compiled(variant, seeds=[7], trace=True, **kwargs)  # type: ignore[arg-type]
        assert batch.actions is not None and fast.actions is not None
        assert np.array_equal(ref.actions, batch.actions[0])
        assert np.array_equal(ref.actions, fast.actions[0])
        assert fast.final_regret[0] == pytest.approx(ref.cumulative_regret[-1], abs=1e-9)
