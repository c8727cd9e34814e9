"""Tests of the tree-based aggregation mechanism (reference/tree.py).

Node counts are exact: they are checked against independent set arithmetic on leaf ranges.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.methods.billboard import RedrawingTree
from reference._typing import FloatArray
from reference.noise import RandomSource, SymmetricGaussianNoise, ZeroNoise
from reference.tree import (
    TreeAggregator,
    dyadic_decomposition,
    node_leaf_range,
    nodes_containing_leaf,
    nodes_used_by_leaf,
    tree_depth,
)


class TaggedNoise:
    """A noise law whose every draw is a distinct one-hot vector, so releases reveal which draws
    they contain.  Padding draws are tagged with a negative id in a separate counter."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.node_draws = 0
        self.pad_draws: list[int] = []

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.size + 1,)

    def sample(self, rng: RandomSource) -> FloatArray:
        out = np.zeros(self.size + 1)
        out[self.node_draws] = 1.0
        self.node_draws += 1
        return out

    def sample_sum(self, rng: RandomSource, j: int) -> FloatArray:
        self.pad_draws.append(j)
        out = np.zeros(self.size + 1)
        out[self.size] = float(j)  # last coordinate counts padding terms
        return out


def test_tree_depth_matches_paper_definition() -> None:
    # m = 1 + ceil(log2 n): n=1 -> 1, n=2 -> 2, n=3,4 -> 3, n=5..8 -> 4, n=5e7 -> 1 + 26 = 27
    assert [tree_depth(n) for n in (1, 2, 3, 4, 5, 8, 9)] == [1, 2, 3, 3, 4, 4, 5]
    assert tree_depth(5 * 10**7) == 27  # 2^25 = 33554432 < 5e7 <= 2^26 = 67108864
    assert tree_depth(2**60) == 61 and tree_depth(2**60 + 1) == 62
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        tree_depth(0)


def test_dyadic_decomposition_example_from_docstring() -> None:
    # s = 6 = 110b: leaves [1, 4] (node (2, 1)) and [5, 6] (node (1, 3))
    assert dyadic_decomposition(6) == ((2, 1), (1, 3))
    assert [node_leaf_range(node) for node in dyadic_decomposition(6)] == [(1, 4), (5, 6)]
    assert dyadic_decomposition(0) == ()
    with pytest.raises(ValueError, match="s must be an integer >= 0"):
        dyadic_decomposition(-1)


@given(st.integers(min_value=1, max_value=2**40))
def test_prefix_nodes_partition_prefix_exactly(n: int) -> None:
    m = tree_depth(n)
    s = n - 1  # the largest prefix Algorithm 1 ever releases (round t = n)
    for prefix in {s, s // 2, max(s - 1, 0), (1 << (s.bit_length() - 1)) - 1 if s else 0}:
        nodes = dyadic_decomposition(prefix)
        ranges = sorted(node_leaf_range(node) for node in nodes)
        # contiguous, disjoint, starting at 1, ending at prefix
        expected_start = 1
        for first, last in ranges:
            assert first == expected_start
            expected_start = last + 1
        assert expected_start == prefix + 1
        assert len(nodes) == bin(prefix).count("1")
        assert len(nodes) <= m - 1  # popcount(s) <= m - 1 for s <= n - 1
        assert all(level < m - 1 for level, _ in nodes)  # level m-1 never used


@given(st.integers(min_value=1, max_value=2**30), st.data())
def test_each_leaf_lies_in_exactly_m_nodes_on_its_path(n: int, data: st.DataObject) -> None:
    m = tree_depth(n)
    leaf = data.draw(st.integers(min_value=1, max_value=n))
    path = nodes_containing_leaf(leaf, m)
    assert len(path) == m
    assert [level for level, _ in path] == list(range(m))
    for node in path:
        first, last = node_leaf_range(node)
        assert first <= leaf <= last
    # the root covers every leaf of the horizon
    assert node_leaf_range(path[-1])[1] >= n


@given(st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=2**32 - 1))
def test_zero_noise_tree_returns_exact_prefix_sums(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    items = rng.normal(size=(n, 2, 2))
    tree = TreeAggregator(n, ZeroNoise((2, 2)), rng)
    np.testing.assert_array_equal(tree.release().value, np.zeros((2, 2)))
    for s in range(1, n + 1):
        tree.insert(items[s - 1])
        np.testing.assert_allclose(
            tree.release().value, items[:s].sum(axis=0), rtol=1e-12, atol=1e-12
        )
        np.testing.assert_allclose(
            tree.exact_prefix(), items[:s].sum(axis=0), rtol=1e-12, atol=1e-12
        )


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 13, 64, 100])
def test_node_noise_drawn_once_and_reused_and_padding_independent(n: int) -> None:
    m = tree_depth(n)
    noise = TaggedNoise(size=2 * n + 1)
    tree = TreeAggregator(n, noise, np.random.default_rng(0))
    draw_of_node: dict[tuple[int, int], int] = {}
    for s in range(n + 1):
        if s:
            before = noise.node_draws
            tree.insert(np.zeros(noise.shape))
            # nodes completing at leaf s: levels j with 2^j | s (and j < m)
            completing = [(j, s >> j) for j in range(m) if s % (1 << j) == 0]
            assert noise.node_draws - before == len(completing)
            for offset, node in enumerate(completing):
                draw_of_node[node] = before + offset
        release = tree.release()
        used = np.flatnonzero(release.noise[:-1])
        assert sorted(used.tolist()) == sorted(draw_of_node[node] for node in release.nodes)
        assert np.all(release.noise[:-1][used] == 1.0)  # each node's draw counted once
        assert release.noise[-1] == release.pad_terms == m - len(release.nodes)
        assert release.noise_terms == m
    # every complete node drew exactly one noise: sum_j floor(n / 2^j) draws in total
    assert noise.node_draws == sum(n >> j for j in range(m))


def test_release_is_cached_until_next_insert() -> None:
    tree = TreeAggregator(4, SymmetricGaussianNoise(2, 1.0), np.random.default_rng(1))
    first = tree.release()
    assert tree.release() is first  # padding drawn once per release
    tree.insert(np.eye(2))
    assert tree.release() is not first


def test_pad_none_releases_bare_dyadic_sum() -> None:
    noise = TaggedNoise(size=20)
    tree = TreeAggregator(8, noise, np.random.default_rng(0), pad="none")
    for _ in range(7):
        tree.insert(np.zeros(noise.shape))
    release = tree.release()
    assert release.nodes == ((2, 1), (1, 3), (0, 7))
    assert release.pad_terms == 0 and release.noise_terms == 3
    assert noise.pad_draws == []


def test_broken_tree_that_redraws_node_noise_is_detected() -> None:
    """The reuse check above must fail for a tree that redraws a node's noise at each release
    (the broken tree of the billboard audit's zoo)."""

    noise = TaggedNoise(size=64)
    tree = RedrawingTree(8, noise, np.random.default_rng(0))
    tree.insert(np.zeros(noise.shape))
    tree.insert(np.zeros(noise.shape))
    first = tree.release()
    tree.insert(np.zeros(noise.shape))
    second = tree.release()
    # node (1, 1) = leaves [1, 2] is used by both releases: a correct tree gives the same draw
    shared_first = set(np.flatnonzero(first.noise[:-1]).tolist())
    shared_second = set(np.flatnonzero(second.noise[:-1]).tolist())
    assert not shared_first & shared_second  # the redrawing tree shares no draw: detectable


def test_gaussian_release_noise_has_m_terms_variance() -> None:
    # release noise = sum of m symmetrised Gaussians: off-diagonal variance m σ², diagonal 2 m σ².
    # 4000 independent releases at s = 5 (n = 8, m = 4), σ = 1.5; the sample variance of a normal
    # sample has relative s.e. sqrt(2/(N-1)) = 0.0224; we accept within 5 s.e. (false-alarm rate
    # < 1e-6 per entry) -- a tree with one padding term too few (3 terms) is off by 25% = 11 s.e.
    sigma, n, reps = 1.5, 8, 4000
    rng = np.random.default_rng(2024)
    off, diag = np.empty(reps), np.empty(reps)
    for r in range(reps):
        tree = TreeAggregator(n, SymmetricGaussianNoise(2, sigma), rng)
        for _ in range(5):
            tree.insert(np.zeros((2, 2)))
        noise = tree.release().noise
        off[r], diag[r] = noise[0, 1], noise[0, 0]
    m = tree_depth(n)
    se = np.sqrt(2.0 / (reps - 1))
    assert abs(off.var(ddof=1) / (m * sigma**2) - 1.0) < 5 * se
    assert abs(diag.var(ddof=1) / (2 * m * sigma**2) - 1.0) < 5 * se
    assert (
        abs(off.var(ddof=1) / ((m - 1) * sigma**2) - 1.0) > 5 * se
    )  # the broken count is rejected


def test_bad_input_is_rejected_with_parameter_names() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        TreeAggregator(0, ZeroNoise((2,)), rng)
    with pytest.raises(ValueError, match="pad must be"):
        TreeAggregator(4, ZeroNoise((2,)), rng, pad="persistent")  # type: ignore[arg-type]
    tree = TreeAggregator(2, ZeroNoise((2,)), rng)
    with pytest.raises(ValueError, match=r"item must have shape \(2\)"):
        tree.insert(np.zeros(3))
    with pytest.raises(ValueError, match="item must contain only finite values"):
        tree.insert(np.array([1.0, np.nan]))
    tree.insert(np.zeros(2))
    tree.insert(np.zeros(2))
    with pytest.raises(ValueError, match="at most n=2 leaves"):
        tree.insert(np.zeros(2))
    with pytest.raises(ValueError, match="leaf must be in"):
        nodes_containing_leaf(9, 4)


def test_completed_nodes_reports_latest_node_per_level() -> None:
    tree = TreeAggregator(8, ZeroNoise((1,)), np.random.default_rng(0))
    for value in (1.0, 2.0, 3.0):
        tree.insert(np.array([value]))
    nodes = tree.completed_nodes()
    # after 3 leaves: (0, 3) = leaf 3, (1, 1) = leaves 1..2; no complete level-2 node yet
    assert set(nodes) == {(0, 3), (1, 1)}
    assert nodes[(0, 3)][0][0] == 3.0 and nodes[(1, 1)][0][0] == 3.0


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 13, 64, 100])
def test_nodes_used_by_leaf_matches_brute_force_over_releases(n: int) -> None:
    # brute force: the nodes containing the leaf that occur in some dyadic decomposition s < n
    for leaf in range(1, n + 1):
        used: set[tuple[int, int]] = set()
        for s in range(n):
            for node in dyadic_decomposition(s):
                first, last = node_leaf_range(node)
                if first <= leaf <= last:
                    used.add(node)
        assert set(nodes_used_by_leaf(leaf, n)) == used
    if n >= 2:  # leaf 1 is the worst case: m - 1 used nodes
        assert len(nodes_used_by_leaf(1, n)) == tree_depth(n) - 1
        assert all(len(nodes_used_by_leaf(t, n)) <= tree_depth(n) - 1 for t in range(1, n + 1))
