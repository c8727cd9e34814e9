"""Random-number conventions: explicit generators, streams derived by name, block-stable draws.

Every random function takes a :class:`numpy.random.Generator`; there is no global state.
Independent streams (per replicate, or per role: environment, arms, rewards, mechanism noise) are
derived with :meth:`numpy.random.SeedSequence.spawn` and named, so the same root seed always gives
the same result.  Each random role has its own generator (:func:`split_generator`,
:class:`NoiseStreams`), so :mod:`reference.engine` can draw blocks of rounds at once and still
reproduce the reference draw for draw.

Proof note: ``proofs_notes/audit/files_and_seeds.md``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

from reference.validation import check_int_at_least

__all__ = [
    "NoiseStreams",
    "SeedLike",
    "as_generator",
    "as_seed_sequence",
    "check_seed",
    "child_seeds",
    "named_generators",
    "named_seed",
    "seed_for",
    "spawn_generators",
    "split_generator",
]


SeedLike: TypeAlias = int | np.integer[Any] | np.random.SeedSequence
"""What a ``seed`` argument accepts: a non-negative integer or a :class:`~numpy.random.SeedSequence`.

The one conversion rule of the project (:func:`as_seed_sequence`, :func:`as_generator`): an integer
``s >= 0`` means ``SeedSequence(s)``; ``None`` (fresh OS entropy), negative integers, booleans,
floats and strings are refused with a ``ValueError`` naming the argument, so every run is
reproducible and every report can record the seed it used.
"""


def check_seed(seed: Any, name: str = "seed") -> int:
    """Require a reproducible integer seed ``>= 0`` (not ``None``, not a bool); return it."""
    if seed is None:
        raise ValueError(
            f"{name} must be an integer >= 0 or a numpy SeedSequence, got None "
            "(an unseeded run cannot be reproduced)"
        )
    return check_int_at_least(name, seed, 0)


def as_seed_sequence(seed: SeedLike, name: str = "seed") -> np.random.SeedSequence:
    """Return ``seed`` as a :class:`~numpy.random.SeedSequence` (:data:`SeedLike`)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    return np.random.SeedSequence(check_seed(seed, name))


def as_generator(rng: np.random.Generator | SeedLike, name: str = "rng") -> np.random.Generator:
    """``rng`` itself if it is a :class:`~numpy.random.Generator`, else ``default_rng`` of the
    :data:`SeedLike` it is; anything else (``None``, a legacy ``RandomState``, a negative
    integer, a float) raises ``ValueError`` naming ``name``."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    if rng is None or isinstance(rng, bool) or not isinstance(rng, int | np.integer):
        raise ValueError(
            f"{name} must be a numpy.random.Generator, a numpy SeedSequence or an integer seed "
            f">= 0, got {rng!r}"
        )
    return np.random.default_rng(check_seed(rng, name))


def child_seeds(
    seed: int | np.random.SeedSequence, first: int, stop: int
) -> list[np.random.SeedSequence]:
    """Children ``first .. stop − 1`` of ``seed``, built from their spawn keys.

    Equal to ``SeedSequence(seed).spawn(stop)[first:stop]``, but stateless: the result does not
    depend on how many children were spawned from ``seed`` before (``SeedSequence.spawn`` counts
    its calls), so the same seed always gives the same children -- e.g. every variant of an
    experiment run sees the same environment, and replicate ``i`` gets the same seed whatever block
    it is computed in.
    """
    seq = as_seed_sequence(seed)
    check_int_at_least("first", first, 0)
    if check_int_at_least("stop", stop, 0) < first:
        raise ValueError(f"stop must be >= first={first}, got {stop}")
    return [
        np.random.SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, i), pool_size=seq.pool_size)
        for i in range(first, stop)
    ]


def named_seed(seed: SeedLike, name: str) -> np.random.SeedSequence:
    """The child of ``seed`` for the role called ``name``: its spawn key extends ``seed``'s with
    four 32-bit words of the SHA-256 digest of ``name`` (UTF-8).

    The stream of a name depends on the name alone, never on which other names are drawn, how many,
    or in what order: adding, removing or reordering audit cases leaves every other case's draws
    unchanged (unlike :func:`named_generators`, whose streams follow list positions).  Four words
    never equal the one-word keys of :func:`child_seeds`, so the two kinds of child never collide.
    """
    seq = as_seed_sequence(seed)
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    words = tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))
    return np.random.SeedSequence(
        seq.entropy, spawn_key=(*seq.spawn_key, *words), pool_size=seq.pool_size
    )


def seed_for(seed: SeedLike, name: str) -> int:
    """An integer seed for the role called ``name`` (the first word of :func:`named_seed`), for
    functions that take an ``int`` seed and record it in their report."""
    return int(named_seed(seed, name).generate_state(1)[0])


def spawn_generators(seed: int | np.random.SeedSequence, count: int) -> list[np.random.Generator]:
    """``count`` independent generators, children of ``seed`` (one per replicate)."""
    check_int_at_least("count", count, 0)
    return [np.random.default_rng(s) for s in child_seeds(seed, 0, count)]


def named_generators(
    seed: int | np.random.SeedSequence, names: Sequence[str]
) -> dict[str, np.random.Generator]:
    """Independent generators, one per role name, spawned from ``seed`` in the order of ``names``.

    The mapping from names to streams depends only on the position of each name, so callers must
    keep the order of ``names`` fixed to keep results reproducible.  Stateless
    (:func:`child_seeds`): calling it twice with the same seed gives the same generators.
    """
    if len(set(names)) != len(names):
        raise ValueError(f"names must be distinct, got {list(names)!r}")
    children = child_seeds(seed, 0, len(names))
    return {name: np.random.default_rng(child) for name, child in zip(names, children, strict=True)}


def split_generator(
    rng: np.random.Generator, names: Sequence[str]
) -> dict[str, np.random.Generator]:
    """Independent child generators of ``rng``, one per role name, in the order of ``names``.

    Uses :meth:`numpy.random.Generator.spawn`, which derives children from the generator's
    :class:`~numpy.random.SeedSequence` (not from its current state): two generators built from
    the same seed give the same children when split the same way.
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator, got {rng!r:.80}")
    if len(set(names)) != len(names):
        raise ValueError(f"names must be distinct, got {list(names)!r}")
    children = rng.spawn(len(names))
    return dict(zip(names, children, strict=True))


@dataclass(frozen=True)
class NoiseStreams:
    """One generator per primitive draw of a noise law (module docstring, "Block-stable streams").

    Attributes:
        normal: standard normal draws (Gaussian noise, Bartlett off-diagonals).
        gamma: chi-square draws (Bartlett diagonals of Wishart noise).
        laplace: Laplace draws.
    """

    normal: np.random.Generator
    gamma: np.random.Generator
    laplace: np.random.Generator

    @classmethod
    def split(cls, rng: np.random.Generator) -> NoiseStreams:
        """Three independent children of ``rng`` (:func:`split_generator`): block-stable."""
        streams = split_generator(rng, ("normal", "gamma", "laplace"))
        return cls(normal=streams["normal"], gamma=streams["gamma"], laplace=streams["laplace"])

    @classmethod
    def shared(cls, rng: np.random.Generator) -> NoiseStreams:
        """Every primitive from ``rng`` itself: fine for one-off draws, not block-stable."""
        return cls(normal=rng, gamma=rng, laplace=rng)

    @classmethod
    def of(cls, rng: np.random.Generator | NoiseStreams) -> NoiseStreams:
        """``rng`` if it already is a :class:`NoiseStreams`, else :meth:`shared` of it (after the
        one seed rule, :func:`as_generator`)."""
        return rng if isinstance(rng, NoiseStreams) else cls.shared(as_generator(rng))
