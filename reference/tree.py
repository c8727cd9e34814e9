"""Tree-based (binary / dyadic) aggregation mechanism for private prefix sums.

Shariff & Sheffet (NeurIPS 2018), Sec. 1.3, Sec. 4 and App. A.2; Algorithm 2 of Agarwal & Singh
(ICML 2017).  Node ``(j, i)`` covers leaves ``[(i-1)·2^j + 1, i·2^j]``; its noise is drawn once,
when it completes.  A prefix ``[1..s]`` is the union of the nodes of :func:`dyadic_decomposition`,
at most ``m = 1 + ⌈log₂ n⌉`` (Sec. 4).  ``pad="fresh"`` (default) pads every release to exactly
``m`` node noises as Proposition 9 needs (resolution R-PAD); ``pad="none"`` is the literal
"at most m" release.  :class:`PanPrivateTree` is the tree of the authors' public code
(``tree="pan_private"``; not described in the paper).

Proof note: ``proofs_notes/shariff_sheffet/tree_mechanism.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np

from reference._typing import FloatArray
from reference.noise import NodeNoise
from reference.rng import NoiseStreams, SeedLike, as_generator
from reference.validation import (
    check_array,
    check_choice,
    check_instance,
    check_int_at_least,
    check_size,
)

__all__ = [
    "TREE_MODES",
    "Node",
    "PadMode",
    "PanPrivateTree",
    "Release",
    "TreeAggregator",
    "TreeMode",
    "check_tree_mode",
    "dyadic_decomposition",
    "node_leaf_range",
    "nodes_containing_leaf",
    "nodes_used_by_leaf",
    "tree_depth",
]

Node: TypeAlias = tuple[int, int]
"""A tree node ``(level j, index i)``, covering leaves ``(i-1)·2^j + 1 .. i·2^j``."""

PadMode: TypeAlias = Literal["fresh", "none"]

TreeMode: TypeAlias = Literal["dyadic", "pan_private"]
"""Which tree releases the prefix sums: ``"dyadic"`` (:class:`TreeAggregator`, the paper's) or
``"pan_private"`` (:class:`PanPrivateTree`, the authors' code)."""
TREE_MODES: tuple[TreeMode, ...] = ("dyadic", "pan_private")


def check_tree_mode(tree: TreeMode, pad: PadMode = "fresh") -> TreeMode:
    """Require ``tree`` in :data:`TREE_MODES` and, with ``"pan_private"``, ``pad="fresh"`` (that
    tree releases exactly ``m`` draws: there is nothing to leave unpadded); return ``tree``."""
    check_choice("tree", tree, TREE_MODES)
    if tree == "pan_private" and pad != "fresh":
        raise ValueError(
            "pad must be 'fresh' with tree='pan_private': that tree releases exactly m noise "
            f"draws (there is nothing to pad or to leave unpadded), got pad={pad!r}"
        )
    return tree


def tree_depth(n: int) -> int:
    """Number of tree levels ``m = 1 + ⌈log₂ n⌉`` for a horizon of ``n ≥ 1`` leaves.

    Shariff & Sheffet Sec. 4 (``m := 1 + ⌈log₂ n⌉``; App. A.2 writes ``⌈log(n) + 1⌉``, the same
    number).  Computed in exact integer arithmetic: ``⌈log₂ n⌉ = (n - 1).bit_length()``, so the
    result is exact for any ``n`` (a float ``log2`` is off by one for some ``n`` near ``2^53``).
    """
    check_int_at_least("n", n, 1)
    return 1 + (n - 1).bit_length()


def node_leaf_range(node: Node) -> tuple[int, int]:
    """First and last leaf (1-based, inclusive) covered by ``node = (j, i)``."""
    if isinstance(node, str) or not isinstance(node, tuple | list) or len(node) != 2:
        raise ValueError(f"node must be a pair (level j, index i), got {node!r}")
    level, index = node
    check_int_at_least("node level", level, 0)
    check_int_at_least("node index", index, 1)
    return (index - 1) * 2**level + 1, index * 2**level


def dyadic_decomposition(s: int) -> tuple[Node, ...]:
    """The complete nodes whose disjoint union is the prefix ``[1..s]``, highest level first.

    For the binary expansion ``s = Σ_j b_j 2^j`` the nodes are ``{(j, ⌊s / 2^j⌋) : b_j = 1}``;
    e.g. ``s = 6 = 110₂`` gives ``((2, 1), (1, 3))``, i.e. leaves ``[1, 4]`` and ``[5, 6]``.
    ``s = 0`` (the empty prefix) gives no node.  The number of nodes is ``popcount(s)``.
    """
    check_int_at_least("s", s, 0)
    return tuple((j, s >> j) for j in reversed(range(s.bit_length())) if (s >> j) & 1)


def nodes_containing_leaf(leaf: int, m: int) -> tuple[Node, ...]:
    """The ``m`` nodes on the path from ``leaf`` to the root of a depth-``m`` tree, level 0 first.

    Node ``(j, ⌈leaf / 2^j⌉)`` at each level ``j = 0..m-1``: a change in one round's contribution
    changes exactly these ``m`` node sums (App. A.2: "the partial sums stored at no more than m
    nodes ... are different").
    """
    leaf = check_int_at_least("leaf", leaf, 1)
    m = check_size("m", m, 1, item_bytes=128, what="a node (j, k)")
    if (leaf - 1).bit_length() > m - 1:  # leaf > 2^(m-1), without computing 2^(m-1)
        raise ValueError(f"leaf must be in [1, 2^(m-1)] = [1, {2 ** (m - 1)}], got {leaf}")
    return tuple((j, -(-leaf // 2**j)) for j in range(m))


def nodes_used_by_leaf(leaf: int, n: int) -> tuple[Node, ...]:
    """The nodes containing ``leaf`` that some release ``s ∈ [0, n − 1]`` actually sums, level 0 first.

    Node ``(j, i)`` enters the dyadic decomposition of ``s`` iff ``i = ⌊s/2^j⌋`` and bit ``j`` of
    ``s`` is set, i.e. iff ``i`` is odd and ``i·2^j ≤ s``.  So of the ``m`` nodes on the leaf's path
    (:func:`nodes_containing_leaf`) only those with an odd index completing by leaf ``n − 1`` are
    used.  Leaf 1 is the worst case: it is in ``⌊log₂(n − 1)⌋ + 1 = m − 1`` used nodes (``n ≥ 2``).
    This count is the number of node mechanisms a user's privacy loss composes over.
    """
    check_int_at_least("n", n, 1)
    check_int_at_least("leaf", leaf, 1)
    if leaf > n:
        raise ValueError(f"leaf must be in [1, n] = [1, {n}], got {leaf}")
    path = nodes_containing_leaf(leaf, tree_depth(n))
    return tuple((j, i) for j, i in path if i % 2 == 1 and i * 2**j <= n - 1)


@dataclass(frozen=True)
class Release:
    """One noisy prefix sum released by :class:`TreeAggregator` (or :class:`PanPrivateTree`, whose
    releases have ``nodes = ()`` and count all their draws in ``pad_terms``).

    Attributes:
        count: ``s``, the number of leaves summed (round ``t = s + 1`` of Algorithm 1 sees it).
        value: the released noisy prefix ``Σ_{ℓ ≤ s} item_ℓ + noise``.
        noise: the accumulated noise of this release (audits read ``H_t``, ``h_t`` off it).
        nodes: the tree nodes whose (noisy) values were summed, :func:`dyadic_decomposition` of ``s``.
        pad_terms: number of extra independent node-noise terms added by padding.
    """

    count: int
    value: FloatArray
    noise: FloatArray
    nodes: tuple[Node, ...]
    pad_terms: int

    @property
    def noise_terms(self) -> int:
        """Number of node-noise terms in ``noise`` (``m`` whenever padding is on)."""
        return len(self.nodes) + self.pad_terms


class TreeAggregator:
    """Streaming binary-tree mechanism over items of a fixed shape (Shariff & Sheffet App. A.2).

    Args:
        n: horizon, the maximum number of leaves (``>= 1``); fixes ``m = 1 + ⌈log₂ n⌉``.
        noise: the node-noise law; its ``shape`` is the shape of every item.
        rng: the generator that draws every node and padding noise.  The tree splits it once into
            :class:`~reference.rng.NoiseStreams` (one child per primitive draw), so that the
            engine's block draws reproduce this tree draw for draw (:mod:`reference.rng`).
        pad: ``"fresh"`` (default) pads every release to exactly ``m`` noise terms with independent
            draws; ``"none"`` releases the bare dyadic sum (``popcount(s)`` terms).

    Memory is ``O(m)`` items: for each level, the open partial data sum and the latest complete node
    (its data sum and its noise, the noise drawn once at completion and reused by every release that
    uses the node).
    """

    def __init__(
        self,
        n: int,
        noise: NodeNoise,
        rng: np.random.Generator | SeedLike,
        *,
        pad: PadMode = "fresh",
    ) -> None:
        rng = as_generator(rng)
        self.n = check_int_at_least("n", n, 1)
        check_choice("pad", pad, ("fresh", "none"))
        self.m = tree_depth(n)
        self.noise = check_instance("noise", noise, NodeNoise)
        self.pad: PadMode = pad
        self._streams = NoiseStreams.split(rng)
        self._shape = tuple(noise.shape)
        self.count = 0
        self._open = [np.zeros(self._shape) for _ in range(self.m)]
        self._node_data: list[FloatArray | None] = [None] * self.m
        self._node_noise: list[FloatArray | None] = [None] * self.m
        self._total = np.zeros(self._shape)
        self._release: Release | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of every item and of every release."""
        return self._shape

    def insert(self, item: FloatArray) -> None:
        """Insert the next leaf ``ℓ = count + 1`` and complete the nodes that end at it.

        Node ``(j, ℓ / 2^j)`` completes when ``2^j`` divides ``ℓ``; its noise is drawn now, once.
        """
        value = check_array("item", item, shape=self._shape)
        if self.count >= self.n:
            raise ValueError(
                f"the tree holds at most n={self.n} leaves (its horizon), got leaf {self.n + 1}"
            )
        self.count += 1
        leaf = self.count
        self._total = self._total + value
        for j in range(self.m):
            self._open[j] = self._open[j] + value
        for j in range(self.m):
            if leaf % (2**j) == 0:
                self._node_data[j] = self._open[j]
                self._node_noise[j] = self.noise.sample(self._streams)
                self._open[j] = np.zeros(self._shape)
        self._release = None

    def release(self) -> Release:
        """The noisy sum of all leaves inserted so far.

        The release for a given count is computed once (its padding drawn once) and returned again
        on repeated calls until the next :meth:`insert`.
        """
        if self._release is not None:
            return self._release
        s = self.count
        nodes = dyadic_decomposition(s)
        data = np.zeros(self._shape)
        noise = np.zeros(self._shape)
        for level, _index in nodes:
            node_data = self._node_data[level]
            node_noise = self._node_noise[level]
            if node_data is None or node_noise is None:  # pragma: no cover - invariant
                raise RuntimeError(f"node at level {level} used before completion")
            data = data + node_data
            noise = noise + node_noise
        pad_terms = self.m - len(nodes) if self.pad == "fresh" else 0
        if pad_terms > 0:
            noise = noise + self.noise.sample_sum(self._streams, pad_terms)
        self._release = Release(
            count=s, value=data + noise, noise=noise, nodes=nodes, pad_terms=pad_terms
        )
        return self._release

    def exact_prefix(self) -> FloatArray:
        """The exact (noise-free) sum of all inserted leaves -- for tests and audits only."""
        return self._total.copy()

    def completed_nodes(self) -> dict[Node, tuple[FloatArray, FloatArray]]:
        """The latest complete node at each level: ``{node: (data sum, noise)}`` -- audits only."""
        out: dict[Node, tuple[FloatArray, FloatArray]] = {}
        for level in range(self.m):
            data = self._node_data[level]
            noise = self._node_noise[level]
            if data is not None and noise is not None:
                index = (self.count >> level) if level else self.count
                out[(level, index)] = (data.copy(), noise.copy())
        return out


class PanPrivateTree:
    """The "pan-private" tree of the authors' code, over items of a fixed shape.

    Shariff & Sheffet (Sec. 4) release ``M_t`` as "the sum of at most m such counters" of a
    binary tree, and Proposition 9 needs exactly ``m = 1 + ⌈log₂ n⌉`` noise terms in every
    release (what :class:`TreeAggregator` gives with ``pad="fresh"``).  The code that produced
    their App. D figures (repository ``roshanshariff/PrivateBandits.jl``, file
    ``src/DifferentialPrivacy.jl``, ``PanPrivTreeStrategy``, commit ``49417f1``) uses instead this
    tree, which the paper does not describe.  It keeps ``m`` states ``S[1..m]``; with ``c`` the
    insertion count (modulo ``2^{m−1}``), ``leafpos = 1 + popcount(c)`` and
    ``newaccum = leafpos + tz(c)`` (``= m`` when ``c = 0``), inserting ``x``:

    1. adds ``x`` (no noise) to ``S[newaccum..m]``;
    2. adds one fresh noise draw to ``S[newaccum]``;
    3. sets ``S[i] = S[i+1] + `` a fresh draw, for ``i = newaccum−1`` down to ``leafpos``;

    and the release is ``S[leafpos]`` of the last insertion.  The tree starts with one insertion of
    nothing (an empty noisy leaf, ``m`` draws), so data row ``s`` is insertion ``c = s mod 2^{m−1}``
    and the release after ``s`` rows reads ``S[1 + popcount(s mod 2^{m−1})]``.  Every release is
    the exact prefix plus exactly ``m`` independent draws (the initial root draw is in all of
    them; consecutive releases share ``m − 2`` draws on average); an insertion makes
    ``tz(c) + 1`` draws (2 on average).  The noise never depends on the data, so this class keeps
    the exact prefix and the noise parts ``N[1..m]`` of the states apart: release ``= prefix +
    N[leafpos]``.  The one exception: when ``n = 2^{m−1}`` the ``n``-th insertion wraps to
    ``c = 0`` (as in the authors' code) and the release after it, which Algorithm 1 never reads,
    holds ``2m`` draws (the root has gathered ``m`` by then).

    A :class:`Release` of this tree has ``nodes = ()`` (it sums no dyadic node) and
    ``pad_terms`` = the number of independent draws in its noise (``noise_terms``, ``m``).

    Args:
        n: horizon, the maximum number of leaves (``>= 1``); fixes ``m = 1 + ⌈log₂ n⌉``.
        noise: the law of each draw; its ``shape`` is the shape of every item.
        rng: split once into :class:`~reference.rng.NoiseStreams`; each draw is one
            ``noise.sample`` from them, in the order above (the initial ``m`` draws at
            construction, ``S[m]`` first, then downward), so the engines reproduce it draw for draw.

    Proof note: ``proofs_notes/shariff_sheffet/tree_mechanism.md``.
    """

    def __init__(self, n: int, noise: NodeNoise, rng: np.random.Generator | SeedLike) -> None:
        rng = as_generator(rng)
        self.n = check_int_at_least("n", n, 1)
        self.m = tree_depth(n)
        self.noise = check_instance("noise", noise, NodeNoise)
        self._streams = NoiseStreams.split(rng)
        self._shape = tuple(noise.shape)
        self._mask = (1 << (self.m - 1)) - 1
        self.count = 0
        self._noise = [np.zeros(self._shape) for _ in range(self.m)]  # N[1..m], 0-based
        self._terms = [0] * self.m
        self._total = np.zeros(self._shape)
        self._accumulate_noise(0)  # the empty noisy leaf: m draws

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of every item and of every release."""
        return self._shape

    def _accumulate_noise(self, c: int) -> None:
        """Steps 2 and 3 of an insertion at count ``c`` (the data part is the exact prefix)."""
        leafpos = c.bit_count()  # 0-based
        newaccum = leafpos + ((c & -c).bit_length() - 1 if c else self.m - 1)
        self._noise[newaccum] = self._noise[newaccum] + self.noise.sample(self._streams)
        self._terms[newaccum] += 1
        for i in range(newaccum - 1, leafpos - 1, -1):
            self._noise[i] = self._noise[i + 1] + self.noise.sample(self._streams)
            self._terms[i] = self._terms[i + 1] + 1

    def insert(self, item: FloatArray) -> None:
        """Insert leaf ``count + 1`` (insertion count ``c = (count + 1) mod 2^{m−1}``, the empty
        leaf being insertion 0): ``tz(c) + 1`` draws (``m`` when ``c = 0``)."""
        value = check_array("item", item, shape=self._shape)
        if self.count >= self.n:
            raise ValueError(
                f"the tree holds at most n={self.n} leaves (its horizon), got leaf {self.n + 1}"
            )
        self.count += 1
        self._total = self._total + value
        self._accumulate_noise(self.count & self._mask)

    def release(self) -> Release:
        """The noisy sum of the leaves inserted so far: the exact prefix plus ``N[leafpos]``,
        ``leafpos = 1 + popcount(count mod 2^{m−1})``.  Draws nothing (the same value again until
        the next :meth:`insert`)."""
        leafpos = (self.count & self._mask).bit_count()
        noise = self._noise[leafpos].copy()
        return Release(
            count=self.count,
            value=self._total + noise,
            noise=noise,
            nodes=(),
            pad_terms=self._terms[leafpos],
        )

    def exact_prefix(self) -> FloatArray:
        """The exact (noise-free) sum of all inserted leaves -- for tests and audits only."""
        return self._total.copy()
