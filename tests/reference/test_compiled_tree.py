"""Cross-checks of the compiled tree mechanism (``reference.engine.compiled.tree``).

With the same generators the compiled loop must give the release noise of the numpy engine
(``reference.engine.tree.BatchedTreeNoise``: symmetric Gaussian bit for bit, Wishart to rounding)
and of the reference ``TreeAggregator`` (Shariff & Sheffet App. A.2) with ``release()`` before
every ``insert()``, under hypothesis over ``n``, ``p``, the law, the pad mode and the chosen counts;
results must not depend on threads or chunking.  Deterministic: fixed seeds, derandomised
hypothesis.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.engine.compiled import tree as compiled_tree
from reference.engine.compiled.tree import tree_noise_compiled
from reference.engine.tree import BatchedTreeNoise
from reference.noise import GaussianVectorNoise, NodeNoise, SymmetricGaussianNoise, WishartNoise
from reference.tree import PadMode, TreeAggregator

# Wishart entries are O(m·dof·scale) here; the loop and matmul differ by a few ulps of that size
_WISHART_ATOL = 1e-12


def _batched(n: int, noise: NodeNoise, seeds: list[int], pad: PadMode) -> np.ndarray:
    tree = BatchedTreeNoise(n, noise, [np.random.default_rng(s) for s in seeds], pad=pad)
    out = []
    for t in range(n):
        out.append(tree.release_noise())
        if t < n - 1:
            tree.insert()
    return np.stack(out, axis=1)


def _law(kind: str, p: int) -> NodeNoise:
    return WishartNoise(p, p + 2, 0.6) if kind == "wishart" else SymmetricGaussianNoise(p, 1.3)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    n=st.integers(1, 70),
    p=st.integers(1, 4),
    kind=st.sampled_from(["wishart", "gaussian"]),
    pad=st.sampled_from(["fresh", "none"]),
    data=st.data(),
)
def test_compiled_tree_equals_numpy_engine_and_reference(
    n: int, p: int, kind: str, pad: PadMode, data: st.DataObject
) -> None:
    noise = _law(kind, p)
    counts = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="counts"))
    seeds = [5, 6, 7]
    got = tree_noise_compiled(n, noise, seeds, pad=pad, counts=counts, workers=2)
    want = _batched(n, noise, seeds, pad)[:, counts]
    if kind == "gaussian":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=0.0, atol=_WISHART_ATOL)
    # the reference tree of replicate 1, and the generator state it leaves
    rng_ref, rng_got = np.random.default_rng(6), np.random.default_rng(6)
    tree = TreeAggregator(n, noise, rng_ref, pad=pad)
    ref = []
    for t in range(n):
        ref.append(tree.release().noise)
        if t < n - 1:
            tree.insert(np.zeros((p, p)))
    one = tree_noise_compiled(n, noise, [rng_got], pad=pad, workers=1)
    np.testing.assert_allclose(one[0], np.stack(ref), rtol=0.0, atol=_WISHART_ATOL)
    assert rng_ref.bit_generator.state == rng_got.bit_generator.state


def test_compiled_tree_ignores_threads_and_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    noise = WishartNoise(3, 5, 1.0)
    a = tree_noise_compiled(100, noise, [30, 31, 32], workers=1)
    monkeypatch.setattr(compiled_tree, "CHUNK_ROUNDS", 7)
    b = tree_noise_compiled(100, noise, [30, 31, 32], workers=2)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n": 0}, ValueError, "n"),
        ({"noise": GaussianVectorNoise((2,), 1.0)}, TypeError, "BatchedTreeNoise"),
        ({"noise": "wishart"}, ValueError, "noise"),
        ({"pad": "zero"}, ValueError, "pad"),
        ({"rngs": []}, ValueError, "at least one"),
        ({"rngs": [None]}, ValueError, r"rngs\[0\]"),
        ({"counts": [3, 2]}, ValueError, "strictly increasing"),
        ({"counts": [10]}, ValueError, r"\[0, 9\]"),
        ({"counts": []}, ValueError, "non-empty"),
    ],
)
def test_compiled_tree_rejects_bad_input(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    args: dict[str, object] = {"n": 10, "noise": WishartNoise(2, 3, 1.0), "rngs": [1, 2]}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        tree_noise_compiled(**args)  # type: ignore[arg-type]


def test_shared_generator_is_refused() -> None:
    g = np.random.default_rng(0)
    with pytest.raises(ValueError, match="distinct"):
        tree_noise_compiled(4, WishartNoise(2, 3, 1.0), [g, g])
