"""The tree mechanism's release noise (Shariff & Sheffet Sec. 4, App. A.2) as one compiled loop
per replicate.

:func:`tree_noise_compiled` returns the release noise of ``R`` independent trees (Wishart or
symmetric Gaussian node noise): replicate ``r`` makes the draws of
``TreeAggregator(n, noise, rngs[r], pad=pad)``, or with ``tree="pan_private"`` of
:class:`~reference.tree.PanPrivateTree`, in their order, and sums them as
:class:`~reference.engine.tree.BatchedTreeNoise` (or ``BatchedPanPrivateNoise``) does, each round
doing only the work of the nodes that change.

Proof note: ``proofs_notes/shariff_sheffet/tree_mechanism.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from reference._typing import FloatArray, IntArray
from reference.engine.compiled._parallel import compiled, resolve_workers, run_chunked
from reference.noise import NodeNoise, SymmetricGaussianNoise, WishartNoise
from reference.rng import NoiseStreams, SeedLike, as_generator
from reference.tree import PadMode, TreeMode, check_tree_mode, tree_depth
from reference.validation import (
    check_bool,
    check_choice,
    check_instance,
    check_int_array,
    check_size,
)

__all__ = ["CHUNK_ROUNDS", "tree_noise_compiled"]

CHUNK_ROUNDS = 1 << 14
"""Rounds per call of the compiled loop (progress between calls); results do not depend on it."""


_NONE, _WISHART, _GAUSSIAN = 0, 1, 2  # node-noise laws
_DYADIC, _PAN_PRIVATE = 0, 1  # trees (reference.tree.TREE_MODES)


@compiled
def _node_noise_sum(
    kind: int,
    p: int,
    terms: int,
    scale: float,
    dof: float,
    normal: np.random.Generator,
    gamma: np.random.Generator,
    out: FloatArray,
    z: FloatArray,
) -> None:
    """``out`` ← one draw of the sum of ``terms`` node noises (``NodeNoise.sample_sum``), from the
    primitive streams in the order of :func:`reference.engine.tree.draw_noise_sums` (``z``: a
    ``p×p`` scratch array)."""
    if kind == _GAUSSIAN:  # (Z' + Z'ᵀ)/√2, Z' i.i.d. N(0, terms σ²), row-major
        s = scale * math.sqrt(terms)
        for a in range(p):
            for b in range(p):
                z[a, b] = s * normal.standard_normal()
        root2 = math.sqrt(2.0)
        for a in range(p):
            for b in range(p):
                out[a, b] = (z[a, b] + z[b, a]) / root2
    else:  # W_p(scale I, terms k) by Bartlett: normals below the diagonal, then chi-squares
        factor = z
        for a in range(p):
            for b in range(a + 1, p):
                factor[a, b] = 0.0
        for a in range(1, p):
            for b in range(a):
                factor[a, b] = normal.standard_normal()
        total = float(terms * dof)
        for a in range(p):
            factor[a, a] = math.sqrt(gamma.chisquare(total - a))
        for a in range(p):
            for b in range(p):
                acc = 0.0
                for c in range(p):
                    acc += factor[a, c] * factor[b, c]
                out[a, b] = scale * acc


@compiled
def _release_noise(
    count: int,
    m: int,
    kind: int,
    p: int,
    scale: float,
    dof: float,
    pad_fresh: bool,
    normal: np.random.Generator,
    gamma: np.random.Generator,
    partial: FloatArray,
    pad: FloatArray,
    scratch: FloatArray,
    released: FloatArray,
) -> None:
    """``released`` ← the noise of the release of ``count``: the running sum of its dyadic nodes,
    highest level first, kept at its lowest set bit (``partial``, see :func:`_insert_leaf`; ``0``
    for the empty prefix), plus a fresh pad of ``m − popcount(count)`` terms if ``pad_fresh``."""
    used = 0
    lowest = 0
    while lowest < m and not (count >> lowest) & 1:
        lowest += 1
    for level in range(m):
        used += (count >> level) & 1
    for a in range(p):
        for b in range(p):
            released[a, b] = partial[lowest, a, b] if count > 0 else 0.0
    if pad_fresh and m - used > 0:
        _node_noise_sum(kind, p, m - used, scale, dof, normal, gamma, pad, scratch)
        for a in range(p):
            for b in range(p):
                released[a, b] = released[a, b] + pad[a, b]


@compiled
def _insert_leaf(
    leaf: int,
    m: int,
    kind: int,
    p: int,
    scale: float,
    dof: float,
    normal: np.random.Generator,
    gamma: np.random.Generator,
    partial: FloatArray,
    node: FloatArray,
    scratch: FloatArray,
) -> None:
    """Leaf ``leaf`` completes the nodes of levels ``0..b``, ``b = ctz(leaf)``: all are drawn, level 0
    first (the streams' order); only level ``b``'s enters a later release.  ``partial[b]`` ← the sum
    of the set bits of ``leaf`` above ``b`` (kept at the next set bit) plus that node: the
    additions of the reference's release, in its order."""
    top_level = 0
    for level in range(m):
        if leaf % (1 << level) == 0:
            _node_noise_sum(kind, p, 1, scale, dof, normal, gamma, node, scratch)
            top_level = level
    above = top_level + 1
    while above < m and not (leaf >> above) & 1:
        above += 1
    for a in range(p):
        for b in range(p):
            base = partial[above, a, b] if above < m else 0.0
            partial[top_level, a, b] = base + node[a, b]


@compiled
def _pan_private_insert(
    c: int,
    m: int,
    kind: int,
    p: int,
    scale: float,
    dof: float,
    normal: np.random.Generator,
    gamma: np.random.Generator,
    partial: FloatArray,
    node: FloatArray,
    scratch: FloatArray,
) -> None:
    """The noise part of an insertion at count ``c`` of :class:`~reference.tree.PanPrivateTree`,
    ``partial[0..m−1]`` holding its ``N[1..m]``: with ``leafpos = popcount(c)`` and ``newaccum =
    leafpos + tz(c)`` (``m − 1`` when ``c = 0``), 0-based, ``N[newaccum]`` += one draw, then
    ``N[i] = N[i+1] +`` one draw for ``i = newaccum − 1`` down to ``leafpos``."""
    leafpos = 0
    for level in range(m):
        leafpos += (c >> level) & 1
    newaccum = m - 1
    if c > 0:
        newaccum = leafpos
        while not (c >> (newaccum - leafpos)) & 1:
            newaccum += 1
    _node_noise_sum(kind, p, 1, scale, dof, normal, gamma, node, scratch)
    for a in range(p):
        for b in range(p):
            partial[newaccum, a, b] = partial[newaccum, a, b] + node[a, b]
    for i in range(newaccum - 1, leafpos - 1, -1):
        _node_noise_sum(kind, p, 1, scale, dof, normal, gamma, node, scratch)
        for a in range(p):
            for b in range(p):
                partial[i, a, b] = partial[i + 1, a, b] + node[a, b]


@compiled
def _pan_private_release(
    count: int, m: int, p: int, partial: FloatArray, released: FloatArray
) -> None:
    """``released`` ← the noise of the release of ``count`` of
    :class:`~reference.tree.PanPrivateTree`: ``N[popcount(count mod 2^{m−1})]`` (0-based)."""
    leafpos = 0
    for level in range(m - 1):
        leafpos += (count >> level) & 1
    for a in range(p):
        for b in range(p):
            released[a, b] = partial[leafpos, a, b]


@compiled
def _tree_rounds(
    first: int,
    last: int,
    n: int,
    m: int,
    kind: int,
    p: int,
    scale: float,
    dof: float,
    pad_fresh: bool,
    tree_mode: int,
    normal: np.random.Generator,
    gamma: np.random.Generator,
    partial: FloatArray,
    marks: IntArray,
    cursor: IntArray,
    out: FloatArray,
) -> None:
    """Releases of counts ``first − 1 .. last − 1`` of one tree (round ``t`` releases ``s = t − 1``,
    then inserts leaf ``t`` unless ``t = n``).  Dyadic tree: ``partial[j]``, for each set bit ``j``
    of the count, holds the sum of its dyadic nodes of levels ``≥ j``, highest first; the release
    is ``partial[lowest set bit]`` plus a fresh pad of ``m − popcount(s)`` terms.  Pan-private
    tree: ``partial`` holds ``N[1..m]`` (:func:`_pan_private_insert`; its ``m`` initial draws
    at ``t = 1``).  Counts listed in ``marks`` (ascending) are copied to ``out[cursor[0]]``,
    ``cursor`` advancing."""
    released = np.zeros((p, p))
    pad = np.empty((p, p))
    node = np.empty((p, p))
    scratch = np.empty((p, p))
    mask = (1 << (m - 1)) - 1
    for t in range(first, last + 1):
        count = t - 1
        if tree_mode == _PAN_PRIVATE:
            if t == 1:  # the empty noisy leaf
                _pan_private_insert(0, m, kind, p, scale, dof, normal, gamma, partial, node,
                                    scratch)  # fmt: skip
            _pan_private_release(count, m, p, partial, released)
        else:
            _release_noise(count, m, kind, p, scale, dof, pad_fresh, normal, gamma, partial, pad,
                           scratch, released)  # fmt: skip
        while cursor[0] < marks.size and marks[cursor[0]] == count:
            out[cursor[0]] = released
            cursor[0] += 1
        if t < n:
            if tree_mode == _PAN_PRIVATE:
                _pan_private_insert(t & mask, m, kind, p, scale, dof, normal, gamma, partial,
                                    node, scratch)  # fmt: skip
            else:
                _insert_leaf(t, m, kind, p, scale, dof, normal, gamma, partial, node, scratch)


def tree_noise_compiled(
    n: int,
    noise: NodeNoise,
    rngs: Sequence[np.random.Generator | SeedLike],
    *,
    pad: PadMode = "fresh",
    counts: Sequence[int] | IntArray | None = None,
    workers: int | None = None,
    progress: bool = False,
    tree: TreeMode = "dyadic",
) -> FloatArray:
    """Release noise of ``R = len(rngs)`` tree mechanisms over ``n`` rounds, shape
    ``(R, len(counts), p, p)``.

    Replicate ``r`` is ``TreeAggregator(n, noise, rngs[r], pad=pad)`` driven with ``release()``
    before each of its ``n − 1`` ``insert()`` calls and a last ``release()``; entry ``[r, i]`` is the
    noise of the release of count ``counts[i]``: the same draws and the same additions in the same
    order as :class:`~reference.engine.tree.BatchedTreeNoise`, so symmetric Gaussian noise is
    equal bit for bit and Wishart noise to rounding (the Bartlett product ``A Aᵀ`` is summed by a
    loop, not by numpy's ``matmul``).  A generator passed in is left as that reference run leaves
    it.  Work per round:
    the pad and the nodes the new leaf completes; memory ``O(m p²)`` per replicate plus the output.

    Args:
        n: horizon (``≥ 1``), fixes ``m = 1 + ⌈log₂ n⌉``.
        noise: :class:`~reference.noise.WishartNoise` or
            :class:`~reference.noise.SymmetricGaussianNoise` (other laws: ``BatchedTreeNoise``).
        rngs: one generator or seed per replicate (distinct objects; seeds converted by
            :func:`~reference.rng.as_generator`).
        pad: ``"fresh"`` or ``"none"``, as in :class:`~reference.tree.TreeAggregator`.
        counts: ascending distinct counts in ``[0, n − 1]`` to return (default: all ``n``).
        workers: threads (default: the cores this process may use).
        progress: show a progress bar of replicate-rounds.
        tree: ``"dyadic"`` (default) or ``"pan_private"``: replicate ``r`` is then
            ``PanPrivateTree(n, noise, rngs[r])``, as computed by
            :class:`~reference.engine.tree.BatchedPanPrivateNoise` (``pad`` must be ``"fresh"``).
    """
    n = check_size("n", n, 1)
    check_instance("noise", noise, NodeNoise)
    if isinstance(noise, WishartNoise):
        kind, p, scale, dof = _WISHART, noise.dim, noise.scale, float(noise.degrees_of_freedom)
    elif isinstance(noise, SymmetricGaussianNoise):
        kind, p, scale, dof = _GAUSSIAN, noise.dim, noise.sigma, 0.0
    else:
        raise TypeError(
            f"noise must be WishartNoise or SymmetricGaussianNoise, got {type(noise).__name__}; "
            "use reference.engine.tree.BatchedTreeNoise for other laws"
        )
    check_choice("pad", pad, ("fresh", "none"))
    check_tree_mode(tree, pad)
    tree_mode = _PAN_PRIVATE if tree == "pan_private" else _DYADIC
    if isinstance(rngs, str | bytes) or not isinstance(rngs, Sequence):
        raise ValueError(f"rngs must be a sequence of generators, got {rngs!r:.80}")
    if len(rngs) == 0:
        raise ValueError("rngs must hold at least one generator (one per replicate)")
    gens = [as_generator(rng, f"rngs[{i}]") for i, rng in enumerate(rngs)]
    if len({id(g) for g in gens}) != len(gens):
        raise ValueError("rngs must be distinct generators (one per replicate)")
    if counts is None:
        marks = np.arange(n, dtype=np.int64)
    else:
        marks = check_int_array("counts", counts, None, ndim=1).astype(np.int64)
        if marks.size == 0 or marks[0] < 0 or marks[-1] > n - 1 or np.any(np.diff(marks) <= 0):
            raise ValueError(
                f"counts must be non-empty, strictly increasing and in [0, n - 1] = [0, {n - 1}], "
                f"got {counts!r:.80}"
            )
    workers = resolve_workers(workers)
    progress = check_bool("progress", progress)
    m = tree_depth(n)
    streams = [NoiseStreams.split(g) for g in gens]
    R = len(gens)
    out = np.zeros((R, marks.size, p, p))
    partial = np.zeros((R, m, p, p))
    cursor = np.zeros((R, 1), dtype=np.int64)

    def step(r: int, first: int, last: int) -> bool:
        _tree_rounds(first, last, n, m, kind, p, scale, dof, pad == "fresh", tree_mode,
                     streams[r].normal, streams[r].gamma, partial[r], marks, cursor[r], out[r])  # fmt: skip
        return True

    run_chunked(R, n, workers=workers, chunk=CHUNK_ROUNDS, progress=progress, step=step)
    return out
