"""Release-level audit: candidate record streams and the searched white/black-box audit."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy import stats

from audit.methods.release import release_audit, release_mechanism, release_streams
from audit.protocols import PrivacyClaim
from reference._typing import FloatArray

CLAIM = PrivacyClaim(1.0, 0.0, "t_neighbouring")


class GramSum:
    """The stream's Gram matrix ``Σ vvᵀ`` plus Laplace noise of scale ``b`` on every entry."""

    def __init__(self, b: float) -> None:
        self.b = b

    def _gram(self, data: FloatArray) -> FloatArray:
        return np.asarray(np.einsum("ti,tj->ij", data, data).ravel(), dtype=np.float64)

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        g = self._gram(data)
        return g + rng.laplace(0.0, self.b, size=(size, g.size))

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        z = np.asarray(outputs) - self._gram(data)
        return np.asarray(stats.laplace.logpdf(z, scale=self.b).sum(axis=1), dtype=np.float64)


class BlackBoxGramSum(GramSum):
    """The same aggregator without a declared law (audited in black box)."""

    log_density = None  # type: ignore[assignment]


def test_record_streams_differ_on_one_day_with_records_in_the_domain() -> None:
    pairs = release_streams("linear", 8, 3, seed=1)
    assert [p.description for p in pairs] == [
        f"{name} at day {t}"
        for t in (1, 4)
        for name in ("opposite contexts", "full row vs zero row", "reward flipped")
    ]
    for pair in pairs:
        differ = np.flatnonzero(np.any(pair.x != pair.x_prime, axis=1))
        assert len(differ) == 1 and pair.relation == "t_neighbouring"
        for records in (pair.x, pair.x_prime):
            assert np.all(np.linalg.norm(records[:, :-1], axis=1) <= 1.0 + 1e-12)
            assert np.all(np.abs(records[:, -1]) <= 1.0)
    assert len(release_streams("multi_armed", 8, 5)) == 2
    assert len(release_streams("online", 8, 4, days=(3,))) == 2
    assert release_streams("online", 8, 4, days=(3,), loss_set="linf_ball")[0].x[2].min() == 1.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "tree"}, "kind must be one of"),
        ({"n": 1}, "n must be"),
        ({"m": 1}, "m must be"),
        ({"days": (0,)}, r"days must be integers in \[1, n\]"),
        ({"days": (9,)}, r"days must be integers in \[1, n\]"),
    ],
)
def test_bad_record_stream_arguments_name_the_parameter(
    kwargs: dict[str, Any], message: str
) -> None:
    args: dict[str, Any] = {"kind": "linear", "n": 8, "m": 3} | kwargs
    with pytest.raises(ValueError, match=message):
        release_streams(**args)


# the largest ℓ₁ change of vvᵀ over linear records at d = 2: (√2 + 1)²
SENSITIVITY = (math.sqrt(2.0) + 1.0) ** 2


def test_a_correctly_calibrated_aggregator_passes_in_white_box() -> None:
    result = release_audit(
        GramSum(SENSITIVITY / CLAIM.epsilon), "linear", CLAIM, n=8, m=3, samples=4000, seed=3,
        confidence=0.95,
    )  # fmt: skip
    assert result.method == "white_box" and not result.violation
    assert result.verdict == "pass"
    assert len(result.details["search"]["screened"]) == 6


def test_an_aggregator_that_ignores_the_gram_sensitivity_is_caught() -> None:
    # noise for sensitivity 1: the real pure ε is (√2 + 1)² ≈ 5.8
    white = release_audit(
        GramSum(1.0 / CLAIM.epsilon), "linear", CLAIM, n=8, m=3, samples=4000, seed=3,
        confidence=0.95,
    )  # fmt: skip
    assert white.violation and white.epsilon_lower_bound > 2.0
    assert "full row vs zero row" in white.name
    black = release_audit(
        BlackBoxGramSum(1.0 / CLAIM.epsilon), "linear", CLAIM, n=8, m=3, samples=4000, seed=3,
        confidence=0.95,
    )  # fmt: skip
    assert black.method == "black_box" and black.violation


def test_the_same_seed_gives_the_same_release_audit() -> None:
    def run() -> float:
        return release_audit(
            BlackBoxGramSum(2.0), "linear", CLAIM, n=8, m=3, samples=400, seed=5,
            confidence=0.95,
        ).epsilon_lower_bound  # fmt: skip

    assert run() == run()


class Releasing:
    def __init__(self, mechanism: object) -> None:
        self.mechanism = mechanism

    def release_mechanism(self) -> object:
        return self.mechanism


class Wrapper:
    def __init__(self, inner: object) -> None:
        self.inner = inner


def test_the_release_mechanism_is_read_through_wrappers_and_checked() -> None:
    mechanism = GramSum(1.0)
    assert release_mechanism(Wrapper(Releasing(mechanism))) is mechanism
    assert release_mechanism(Wrapper(object())) is None
    with pytest.raises(ValueError, match=r"release_mechanism\(\) must return"):
        release_mechanism(Releasing("not a mechanism"))


def test_a_claim_under_another_relation_is_refused() -> None:
    with pytest.raises(ValueError, match=r"claim\.relation must be 't_neighbouring'"):
        release_audit(
            GramSum(1.0), "linear", PrivacyClaim(1.0, 0.0), n=8, m=3, samples=40, seed=0,
            confidence=0.95,
        )  # fmt: skip
