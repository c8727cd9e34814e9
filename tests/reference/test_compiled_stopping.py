"""Cross-checks of the compiled DP-NAS (``reference.engine.compiled.stopping``).

With the same generators the compiled loop must give exactly what the reference
``reference.sajed_sheffet.stopping.dp_nas`` gives on the two-point stream (Sajed & Sheffet
Algorithm 1): halting time, release and the generators' final states, under hypothesis over
``R, μ, α, β, ε`` and the cap, halted or not; results must not depend on the threads.
Deterministic: fixed seeds, derandomised hypothesis.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.engine.compiled.stopping import dp_nas_two_point_compiled
from reference.sajed_sheffet.stopping import SampleStream, TwoPointDistribution, dp_nas


def _reference(
    R: float, mu: float, alpha: float, beta: float, eps: float, data: int, noise: int, t_max: int
) -> tuple[bool, int, float, np.random.Generator, np.random.Generator]:
    data_rng, noise_rng = np.random.default_rng(data), np.random.default_rng(noise)
    stream = SampleStream.from_distribution(TwoPointDistribution(R, mu), data_rng)
    res = dp_nas(stream, range_R=R, alpha=alpha, beta=beta, epsilon=eps, rng=noise_rng, t_max=t_max)
    estimate = math.nan if res.estimate is None else res.estimate
    return res.halted, res.samples_used, estimate, data_rng, noise_rng


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    R=st.sampled_from([0.5, 1.0, 3.0]),
    mu_frac=st.sampled_from([-1.0, -0.6, 0.0, 0.4, 1.0]),
    alpha=st.sampled_from([0.2, 0.5, 0.9]),
    beta=st.sampled_from([0.01, 0.1, 0.5]),
    eps=st.sampled_from([0.5, 2.0, 8.0]),
    t_max=st.sampled_from([1, 7, 500, 20_000]),
    seed=st.integers(0, 2**32 - 1),
)
def test_compiled_dp_nas_equals_reference(
    R: float, mu_frac: float, alpha: float, beta: float, eps: float, t_max: int, seed: int
) -> None:
    """Halting time, release and generator states equal the reference's, halted or not."""
    mu = mu_frac * R
    seeds = [(seed, seed + 1), (seed + 2, seed + 3)]
    gens = [(np.random.default_rng(d), np.random.default_rng(n)) for d, n in seeds]
    got = dp_nas_two_point_compiled(
        R, mu, alpha=alpha, beta=beta, epsilon=eps, rngs=gens, t_max=t_max
    )
    for i, (d, n) in enumerate(seeds):
        halted, used, estimate, data_rng, noise_rng = _reference(
            R, mu, alpha, beta, eps, d, n, t_max
        )
        assert bool(got.halted[i]) == halted
        assert int(got.samples_used[i]) == used
        if halted:
            assert got.estimate[i] == estimate
        else:
            assert math.isnan(got.estimate[i])
        assert gens[i][0].bit_generator.state == data_rng.bit_generator.state
        assert gens[i][1].bit_generator.state == noise_rng.bit_generator.state


def test_compiled_dp_nas_halts_on_long_runs_and_ignores_threads() -> None:
    """Halting times near 10⁵ (the stopping grid's range) equal the reference's; one thread or two,
    seeds or generators, the same result."""
    R, mu, alpha, beta, eps = 1.0, 0.5, 0.5, 0.05, 0.1
    seeds = [
        (np.random.SeedSequence(7, spawn_key=(i, 0)), np.random.SeedSequence(7, spawn_key=(i, 1)))
        for i in range(3)
    ]
    one = dp_nas_two_point_compiled(
        R, mu, alpha=alpha, beta=beta, epsilon=eps, rngs=seeds, t_max=10**6, workers=1
    )
    two = dp_nas_two_point_compiled(
        R, mu, alpha=alpha, beta=beta, epsilon=eps, rngs=seeds, t_max=10**6, workers=2
    )
    for field in ("halted", "samples_used", "estimate"):
        np.testing.assert_array_equal(getattr(one, field), getattr(two, field))
    assert one.halted.all() and one.samples_used.min() > 1000
    data, noise = seeds[0]
    ref = dp_nas(
        SampleStream.from_distribution(TwoPointDistribution(R, mu), np.random.default_rng(data)),
        range_R=R,
        alpha=alpha,
        beta=beta,
        epsilon=eps,
        rng=np.random.default_rng(noise),
        t_max=10**6,
    )
    assert ref.halting_time == one.samples_used[0] and ref.estimate == one.estimate[0]


def test_shared_generators_run_in_order() -> None:
    """One generator feeding every run (data and noise alike): the runs consume it one after the
    other, as consecutive reference calls do."""
    shared = np.random.default_rng(3)
    got = dp_nas_two_point_compiled(
        1.0, 0.8, alpha=0.5, beta=0.1, epsilon=4.0, rngs=[(shared, shared)] * 3, t_max=5000
    )
    ref_rng = np.random.default_rng(3)
    for i in range(3):
        res = dp_nas(
            SampleStream.from_distribution(TwoPointDistribution(1.0, 0.8), ref_rng),
            range_R=1.0,
            alpha=0.5,
            beta=0.1,
            epsilon=4.0,
            rng=ref_rng,
            t_max=5000,
        )
        assert res.samples_used == got.samples_used[i]
    assert shared.bit_generator.state == ref_rng.bit_generator.state


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"range_R": 0.0}, "range_R"),
        ({"mu": 2.0}, "mu"),
        ({"alpha": 1.0}, "alpha"),
        ({"beta": math.nan}, "beta"),
        ({"epsilon": -1.0}, "epsilon"),
        ({"t_max": 0}, "t_max"),
        ({"rngs": [(1,)]}, r"rngs\[0\]"),
        ({"rngs": [(1, None)]}, r"rngs\[0\]\[1\]"),
        ({"rngs": "ab"}, "rngs"),
        ({"rngs": []}, "at least one"),
    ],
)
def test_compiled_dp_nas_rejects_bad_input(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {
        "range_R": 1.0,
        "mu": 0.5,
        "alpha": 0.5,
        "beta": 0.1,
        "epsilon": 1.0,
        "rngs": [(1, 2)],
        "t_max": 10,
    }
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        dp_nas_two_point_compiled(**args)  # type: ignore[arg-type]
