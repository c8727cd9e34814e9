"""Input search: StatDP's patterns and the screen-then-audit search with family-wise control."""

from __future__ import annotations

import numpy as np
import pytest

from audit.familywise import Bonferroni, Holm
from audit.methods.black_box import event_audit
from audit.methods.pairs import search_pairs, statdp_patterns
from audit.protocols import NeighbouringPair, PrivacyClaim
from reference._typing import FloatArray


class NoisyMax:
    """Report-noisy-max: the index of the largest ``x_i + Lap(scale)``; ε-DP with
    ``scale = 2/ε`` for sensitivity-1 queries (Dwork & Roth, Claim 3.9 with its factor 2)."""

    def __init__(self, scale: float) -> None:
        self.scale = scale

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        noisy = data[None, :] + rng.laplace(0.0, self.scale, size=(size, data.size))
        return np.asarray(np.argmax(noisy, axis=1), dtype=np.float64)


def test_statdp_patterns_are_neighbours_of_sensitivity_one() -> None:
    pairs = statdp_patterns(5)
    assert len(pairs) == 8 and len({p.description for p in pairs}) == 8
    for p in pairs:
        assert np.max(np.abs(p.x - p.x_prime)) <= 1.0
    with pytest.raises(ValueError, match="length"):
        statdp_patterns(1)


def test_search_finds_the_violating_pattern_and_keeps_the_family_level() -> None:
    # noisy max with half the noise its ε = 1 claim needs: the search must reject; with the
    # right noise it must not (scale 2/ε is the correct calibration)
    claim = PrivacyClaim(1.0, 0.0)

    def tester(mech: NoisyMax):  # type: ignore[no-untyped-def]
        return lambda pair, n, s: event_audit(mech, pair, claim, samples=n, seed=s)

    bad = search_pairs(
        statdp_patterns(5),
        tester(NoisyMax(1.0)),
        screen_samples=5_000,
        samples=50_000,
        seed=3,
        top=2,
    )
    assert bad.violation and bad.best.epsilon_lower_bound > 1.0
    good = search_pairs(
        statdp_patterns(5),
        tester(NoisyMax(2.0)),
        screen_samples=5_000,
        samples=50_000,
        seed=3,
        top=2,
        strategy=Bonferroni(0.05),
    )
    assert not good.violation and len(good.audits) == 2 and len(good.screening) == 8


def test_search_arguments_are_checked() -> None:
    def tester(pair: NeighbouringPair[FloatArray], n: int, s: int):  # type: ignore[no-untyped-def]
        raise AssertionError("never called")

    pairs = statdp_patterns(3)
    with pytest.raises(ValueError, match="top"):
        search_pairs(pairs, tester, screen_samples=10, samples=10, seed=1, top=99)
    with pytest.raises(ValueError, match="candidates"):
        search_pairs([], tester, screen_samples=10, samples=10, seed=1)
    with pytest.raises(ValueError, match="strategy"):
        search_pairs(pairs, tester, screen_samples=10, samples=10, seed=1, strategy=0.05)  # type: ignore[arg-type]
    assert Holm(0.05).alpha == 0.05
