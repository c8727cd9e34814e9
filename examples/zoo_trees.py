"""Tree-counter pieces shared by the policy zoo (``linear_zoo``, ``multi_armed_zoo``), plain numpy.

:func:`released_nodes` lists the dyadic blocks the releases ``s = 1 .. n − 1`` of a binary
counter sum (Shariff & Sheffet Sec. 4; Chan, Shi & Song 2011); leaf 1 is in ``(n − 1).bit_length()``
of them.  :class:`LaplaceNodeSums`, :class:`GaussianNodeSums` (white box) and
:class:`SharedNoiseNodeSums` (black box) are release mechanisms over ``(n, m)`` record streams
whose outputs are the noisy node sums of per-record features, one row of ``len(nodes) × q``
values per draw (node-major).  They satisfy :class:`audit.protocols.Mechanism`.
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from reference._typing import FloatArray

Features = Callable[[FloatArray], FloatArray]
"""Records ``(n, m)`` to per-record features ``(n, q)`` that the tree sums."""


def released_nodes(n: int) -> list[tuple[int, int]]:
    """The blocks ``[start, stop)`` (0-based days) summed by the releases ``s = 1 .. n − 1``.

    Release ``s`` (of the first ``s`` records) is the sum of the blocks of the binary expansion
    of ``s``, highest bit first; blocks are listed in order of first use.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    seen: dict[tuple[int, int], None] = {}
    for s in range(1, n):
        seen.update(dict.fromkeys(decomposition(s)))
    return list(seen)


def levels(n: int) -> int:
    """Released nodes one record enters at most (day 1's): ``(n − 1).bit_length()``, at least 1."""
    return max(1, (n - 1).bit_length())


def decomposition(s: int) -> list[tuple[int, int]]:
    """The blocks of release ``s`` (its binary expansion, highest bit first)."""
    blocks, start = [], 0
    for j in reversed(range(s.bit_length())):
        if (s >> j) & 1:
            blocks.append((start, start + 2**j))
            start += 2**j
    return blocks


def node_sums(features: FloatArray, nodes: list[tuple[int, int]]) -> FloatArray:
    """``(len(nodes), q)``: the sum of ``features`` over each block."""
    cum = np.vstack([np.zeros((1, features.shape[1])), np.cumsum(features, axis=0)])
    return np.array([cum[b] - cum[a] for a, b in nodes]).reshape(len(nodes), features.shape[1])


def upper_triangle(p: int) -> tuple[Any, Any]:
    """Row and column indices of the upper triangle (diagonal included) of a ``p × p`` matrix."""
    return np.triu_indices(p)


def gram_features(records: FloatArray) -> FloatArray:
    """Upper triangle of ``v vᵀ`` for each record row ``v`` (``q = m(m + 1)/2``)."""
    rows, cols = upper_triangle(records.shape[1])
    return records[:, rows] * records[:, cols]


def _records(data: Any) -> FloatArray:
    arr = np.asarray(data, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] < 2 or not np.isfinite(arr).all():
        raise ValueError(f"data must be a finite (n, m) record stream with n >= 2, got {arr.shape}")
    return arr


class _NodeSums:
    """Noisy node sums of ``features(records)``; ``scale(n, m)`` is the per-coordinate noise scale
    (a vector of length ``q``, or a number)."""

    def __init__(self, features: Features, scale: Callable[[int, int], Any], label: str) -> None:
        self.features, self.scale, self.label = features, scale, label

    def __repr__(self) -> str:
        return self.label

    def _means(self, data: Any) -> tuple[FloatArray, FloatArray]:
        records = _records(data)
        sums = node_sums(self.features(records), released_nodes(records.shape[0]))
        scale = np.broadcast_to(
            np.asarray(self.scale(*records.shape), dtype=np.float64), sums.shape
        )
        return sums.ravel(), scale.ravel()


class LaplaceNodeSums(_NodeSums):
    """Independent ``Lap(scale)`` noise on every coordinate of every released node (white box)."""

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> FloatArray:
        mean, scale = self._means(data)
        return mean + rng.laplace(0.0, 1.0, size=(size, mean.size)) * scale

    def log_density(self, data: Any, outputs: FloatArray) -> FloatArray:
        mean, scale = self._means(data)
        z = np.abs(np.asarray(outputs, dtype=np.float64) - mean) / scale
        return np.asarray(-z.sum(axis=1) - np.sum(np.log(2.0 * scale)), dtype=np.float64)


class GaussianNodeSums(_NodeSums):
    """Independent ``N(0, scale²)`` noise on every coordinate of every released node (white box)."""

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> FloatArray:
        mean, scale = self._means(data)
        return mean + rng.standard_normal(size=(size, mean.size)) * scale

    def log_density(self, data: Any, outputs: FloatArray) -> FloatArray:
        mean, scale = self._means(data)
        z = (np.asarray(outputs, dtype=np.float64) - mean) / scale
        const = np.sum(np.log(scale)) + 0.5 * mean.size * math.log(2.0 * math.pi)
        return np.asarray(-0.5 * np.sum(z**2, axis=1) - const, dtype=np.float64)


class SharedNoiseNodeSums:
    """Node sums that all carry copies of ONE noise vector per draw (black box, no density).

    ``noise(rng, size, q)`` draws the ``(size, q)`` shared vectors; ``copies(n)`` is how many
    copies (times what scale) each output block carries; ``blocks(n)`` lists the day blocks
    summed by each output block (one node, or the nodes of one release).
    """

    def __init__(
        self,
        features: Features,
        noise: Callable[[np.random.Generator, int, int], FloatArray],
        blocks: Callable[[int], list[list[tuple[int, int]]]],
        copies: Callable[[int], FloatArray],
        label: str,
    ) -> None:
        self.features, self.noise, self.blocks, self.copies = features, noise, blocks, copies
        self.label = label

    def __repr__(self) -> str:
        return self.label

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> FloatArray:
        records = _records(data)
        n = records.shape[0]
        feats = self.features(records)
        cum = np.vstack([np.zeros((1, feats.shape[1])), np.cumsum(feats, axis=0)])
        means = np.array([sum((cum[b] - cum[a] for a, b in group), np.zeros(feats.shape[1]))
                          for group in self.blocks(n)])  # fmt: skip
        shared = self.noise(rng, size, feats.shape[1])  # (size, q)
        copies = np.asarray(self.copies(n), dtype=np.float64)  # (blocks,)
        out = means[None, :, :] + copies[None, :, None] * shared[:, None, :]
        return np.asarray(out.reshape(size, -1), dtype=np.float64)
