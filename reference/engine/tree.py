"""The tree mechanism's noise for ``R`` replicates at once (optimized path of :mod:`reference.tree`).

:class:`BatchedTreeNoise` advances ``R`` independent copies of the noise process of
:class:`reference.tree.TreeAggregator` (Shariff & Sheffet Sec. 4, App. A.2) in lock-step; replicate
``r`` consumes exactly the primitive draws of ``TreeAggregator(n, noise, rngs[r], pad=pad)`` with
``release()`` before every ``insert()``, so releases agree to rounding
(``tests/reference/test_engine.py``).  :class:`BatchedPanPrivateNoise` does the same for
:class:`reference.tree.PanPrivateTree` (the tree of the authors' code).  Only the noise is tracked:
callers keep the exact prefix sum.

Proof note: ``proofs_notes/shariff_sheffet/tree_mechanism.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from reference._typing import FloatArray, IntArray
from reference.noise import (
    GaussianVectorNoise,
    LaplaceNoise,
    NodeNoise,
    SymmetricGaussianNoise,
    WishartNoise,
    ZeroNoise,
    bartlett_chi2_df,
    bartlett_wishart,
    symmetrize,
)
from reference.rng import NoiseStreams, SeedLike, as_generator
from reference.tree import PadMode, dyadic_decomposition, tree_depth
from reference.validation import check_choice, check_instance, check_int_array, check_int_at_least

__all__ = ["BatchedPanPrivateNoise", "BatchedTreeNoise", "draw_noise_sums"]


def draw_noise_sums(
    noise: NodeNoise, streams: Sequence[NoiseStreams], terms: IntArray
) -> FloatArray:
    """For every replicate, the draws ``noise.sample_sum(streams[r], terms[i])`` for ``i = 0..D−1``.

    Returns shape ``(R, D, *noise.shape)``.  Each replicate's primitive draws are made in one call
    per primitive, in the order the reference makes them one by one, and assembled with the same
    functions (:func:`~reference.noise.bartlett_wishart`, :func:`~reference.noise.symmetrize`).
    """
    check_instance("noise", noise, NodeNoise)
    if isinstance(streams, str | bytes) or not isinstance(streams, Sequence):
        raise ValueError(f"streams must be a sequence of NoiseStreams, got {streams!r:.80}")
    if len(streams) == 0:
        raise ValueError("streams must hold at least one NoiseStreams (one per replicate)")
    for i, stream in enumerate(streams):
        check_instance(f"streams[{i}]", stream, NoiseStreams)
    terms = check_int_array("terms", terms, None, ndim=1)
    if np.any(terms < 1):
        raise ValueError("terms must all be >= 1")
    R, D = len(streams), int(terms.size)
    shape = tuple(noise.shape)
    if D == 0:
        return np.zeros((R, 0, *shape))
    if isinstance(noise, WishartNoise):
        p, k = noise.dim, noise.degrees_of_freedom
        q = p * (p - 1) // 2
        dfs = np.stack([bartlett_chi2_df(p, float(j * k)) for j in terms.tolist()])
        normals = np.stack([s.normal.standard_normal(D * q).reshape(D, q) for s in streams])
        chi2 = np.stack([s.gamma.chisquare(dfs.ravel()).reshape(D, p) for s in streams])
        return bartlett_wishart(chi2, normals, noise.scale)
    if isinstance(noise, SymmetricGaussianNoise):
        scales = np.array([noise.sigma * math.sqrt(j) for j in terms.tolist()])
        z = np.stack([s.normal.standard_normal((D, *shape)) for s in streams])
        return symmetrize(scales[None, :, None, None] * z)
    if isinstance(noise, GaussianVectorNoise):
        scales = np.array([noise.sigma * math.sqrt(j) for j in terms.tolist()])
        z = np.stack([s.normal.standard_normal((D, *shape)) for s in streams])
        return np.asarray(scales.reshape(1, D, *([1] * len(shape))) * z, dtype=np.float64)
    if isinstance(noise, LaplaceNoise):
        total = int(terms.sum())
        raw = np.stack([s.laplace.laplace(0.0, noise.scale, size=(total, *shape)) for s in streams])
        starts = np.concatenate([[0], np.cumsum(terms)[:-1]])
        return np.asarray(np.add.reduceat(raw, starts, axis=1), dtype=np.float64)
    if isinstance(noise, ZeroNoise):
        return np.zeros((R, D, *shape))
    raise TypeError(
        f"no batched sampler for {type(noise).__name__}; use reference.tree.TreeAggregator"
    )


def _replicate_streams(rngs: Sequence[np.random.Generator | SeedLike]) -> list[NoiseStreams]:
    """One :class:`~reference.rng.NoiseStreams` per replicate, split from ``rngs`` (checked:
    a non-empty sequence of generators or seeds)."""
    if isinstance(rngs, str | bytes) or not isinstance(rngs, Sequence):
        raise ValueError(f"rngs must be a sequence of generators, got {rngs!r:.80}")
    if len(rngs) == 0:
        raise ValueError("rngs must hold at least one generator (one per replicate)")
    return [NoiseStreams.split(as_generator(rng, f"rngs[{i}]")) for i, rng in enumerate(rngs)]


class BatchedTreeNoise:
    """The release noise of ``R`` independent tree mechanisms, round by round.

    Call :meth:`release_noise` (the noise of the release of the current count ``s``) and then
    :meth:`insert` (leaf ``s + 1`` arrives), alternately, as Algorithm 1 does.

    Args:
        n: horizon (``≥ 1``), fixes ``m = 1 + ⌈log₂ n⌉``.
        noise: the node-noise law (Wishart, symmetric Gaussian, Gaussian vector, Laplace, zero).
        rngs: one generator per replicate -- the generator the reference tree of that replicate
            would receive.
        pad: ``"fresh"`` or ``"none"``, as in :class:`~reference.tree.TreeAggregator`.
        block_rounds: rounds whose noise is drawn at once (memory ``O(R · block · item)``; any
            value gives the same draws).
    """

    def __init__(
        self,
        n: int,
        noise: NodeNoise,
        rngs: Sequence[np.random.Generator | SeedLike],
        *,
        pad: PadMode = "fresh",
        block_rounds: int = 256,
    ) -> None:
        self.n = check_int_at_least("n", n, 1)
        check_instance("noise", noise, NodeNoise)
        check_choice("pad", pad, ("fresh", "none"))
        self._streams = _replicate_streams(rngs)
        self.block_rounds = check_int_at_least("block_rounds", block_rounds, 1)
        self.m = tree_depth(n)
        self.noise = noise
        self.pad: PadMode = pad
        self.replicates = len(rngs)
        self._shape = tuple(noise.shape)
        self.count = 0
        self._node_noise = np.zeros((self.replicates, self.m, *self._shape))
        self._released: FloatArray | None = None
        # pre-drawn block: per round, (pad draw index or -1, [(level, draw index), ...])
        self._block: FloatArray = np.zeros((self.replicates, 0, *self._shape))
        self._plan: dict[int, tuple[int, list[tuple[int, int]]]] = {}

    def _pad_terms(self, s: int) -> int:
        return self.m - len(dyadic_decomposition(s)) if self.pad == "fresh" else 0

    def _draw_block(self, first: int) -> None:
        """Draw every noise of rounds ``first .. first + block − 1`` (release ``s``, then leaf ``s+1``)."""
        terms: list[int] = []
        plan: dict[int, tuple[int, list[tuple[int, int]]]] = {}
        for s in range(first, min(first + self.block_rounds, self.n)):
            pad_index = -1
            pad_terms = self._pad_terms(s)
            if pad_terms > 0:
                pad_index = len(terms)
                terms.append(pad_terms)
            nodes: list[tuple[int, int]] = []
            leaf = s + 1
            for j in range(self.m):
                if leaf % (2**j) == 0:
                    nodes.append((j, len(terms)))
                    terms.append(1)
            plan[s] = (pad_index, nodes)
        self._block = draw_noise_sums(self.noise, self._streams, np.array(terms, dtype=np.int64))
        self._plan = plan

    def release_noise(self) -> FloatArray:
        """Noise of the release of the current count ``s``, shape ``(R, *item shape)``."""
        if self._released is not None:
            return self._released
        s = self.count
        if s >= self.n:
            raise ValueError(f"all n={self.n} releases have been made")
        if s not in self._plan:
            self._draw_block(s)
        pad_index, _ = self._plan[s]
        noise = np.zeros((self.replicates, *self._shape))
        for level, _index in dyadic_decomposition(s):
            noise = noise + self._node_noise[:, level]
        if pad_index >= 0:
            noise = noise + self._block[:, pad_index]
        self._released = noise
        return noise

    def insert(self) -> None:
        """Leaf ``s + 1`` arrives: store the noise of the nodes it completes."""
        if self._released is None:
            raise RuntimeError("release_noise() must be called before every insert()")
        _, nodes = self._plan[self.count]
        for level, index in nodes:
            self._node_noise[:, level] = self._block[:, index]
        self.count += 1
        self._released = None


def _pan_private_steps(c: int, m: int) -> tuple[int, int]:
    """``(leafpos, newaccum)``, 0-based, of an insertion at count ``c`` of a
    :class:`~reference.tree.PanPrivateTree` of depth ``m``: it makes ``newaccum − leafpos + 1``
    draws."""
    leafpos = c.bit_count()
    return leafpos, leafpos + ((c & -c).bit_length() - 1 if c else m - 1)


class BatchedPanPrivateNoise:
    """The release noise of ``R`` independent :class:`~reference.tree.PanPrivateTree` s.

    The protocol of :class:`BatchedTreeNoise`: :meth:`release_noise`, then :meth:`insert`,
    alternately.  Replicate ``r`` makes exactly the draws of ``PanPrivateTree(n, noise, rngs[r])``
    (its ``m`` initial draws here, at construction) with the same additions in the same order;
    the draws of ``block_rounds`` insertions are made at once (any value gives the same draws), and
    an insertion costs ``tz(c) + 1`` (2 on average) array additions.

    Args:
        n: horizon (``≥ 1``), fixes ``m = 1 + ⌈log₂ n⌉``.
        noise: the law of each draw (as :class:`BatchedTreeNoise`).
        rngs: one generator per replicate -- the generator the reference tree of that replicate
            would receive.
        block_rounds: insertions whose draws are made at once (memory ``O(R · 2 block · item)``).
    """

    def __init__(
        self,
        n: int,
        noise: NodeNoise,
        rngs: Sequence[np.random.Generator | SeedLike],
        *,
        block_rounds: int = 256,
    ) -> None:
        self.n = check_int_at_least("n", n, 1)
        check_instance("noise", noise, NodeNoise)
        self._streams = _replicate_streams(rngs)
        self.block_rounds = check_int_at_least("block_rounds", block_rounds, 1)
        self.m = tree_depth(n)
        self.noise = noise
        self.replicates = len(rngs)
        self._shape = tuple(noise.shape)
        self._mask = (1 << (self.m - 1)) - 1
        self.count = 0
        self._noise = np.zeros((self.replicates, self.m, *self._shape))  # N[0..m-1]
        self._released = False
        self._block: FloatArray = np.zeros((self.replicates, 0, *self._shape))
        self._plan: dict[int, int] = {}  # count s -> index of the first draw of insertion s + 1
        self._accumulate(0, draw_noise_sums(self.noise, self._streams, np.ones(self.m, np.int64)))

    def _accumulate(self, c: int, draws: FloatArray) -> None:
        """The noise part of an insertion at count ``c`` (:class:`~reference.tree.PanPrivateTree`),
        from its draws ``draws[:, 0..]`` in order."""
        leafpos, newaccum = _pan_private_steps(c, self.m)
        self._noise[:, newaccum] = self._noise[:, newaccum] + draws[:, 0]
        for k, i in enumerate(range(newaccum - 1, leafpos - 1, -1), start=1):
            self._noise[:, i] = self._noise[:, i + 1] + draws[:, k]

    def _draw_block(self, first: int) -> None:
        """Draw the noise of the insertions after releases ``first .. first + block − 1``."""
        plan: dict[int, int] = {}
        total = 0
        for s in range(first, min(first + self.block_rounds, self.n)):
            plan[s] = total
            leafpos, newaccum = _pan_private_steps((s + 1) & self._mask, self.m)
            total += newaccum - leafpos + 1
        self._block = draw_noise_sums(self.noise, self._streams, np.ones(total, np.int64))
        self._plan = plan

    def release_noise(self) -> FloatArray:
        """Noise of the release of the current count ``s``, shape ``(R, *item shape)``."""
        s = self.count
        if s >= self.n:
            raise ValueError(f"all n={self.n} releases have been made")
        self._released = True
        return np.array(self._noise[:, (s & self._mask).bit_count()])

    def insert(self) -> None:
        """Leaf ``s + 1`` arrives: the draws of its insertion (count ``(s + 1) mod 2^{m−1}``)."""
        if not self._released:
            raise RuntimeError("release_noise() must be called before every insert()")
        s = self.count
        if s not in self._plan:
            self._draw_block(s)
        start = self._plan[s]
        self._accumulate((s + 1) & self._mask, self._block[:, start:])
        self.count += 1
        self._released = False
