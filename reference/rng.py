"""Random-number conventions.

Every random function in privonline takes a :class:`numpy.random.Generator` argument; there is no
global state.  Independent streams (one per replicate, or one per role inside a run: environment
parameter, arms, rewards, mechanism noise) are derived with :meth:`numpy.random.SeedSequence.spawn`,
so the same root seed always gives the same result, whatever order work is done in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference.validation import check_int_at_least

__all__ = ["as_seed_sequence", "named_generators", "spawn_generators"]


def as_seed_sequence(seed: int | np.random.SeedSequence) -> np.random.SeedSequence:
    """Return ``seed`` as a :class:`~numpy.random.SeedSequence` (non-negative integers accepted)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    check_int_at_least("seed", seed, 0)
    return np.random.SeedSequence(seed)


def spawn_generators(seed: int | np.random.SeedSequence, count: int) -> list[np.random.Generator]:
    """``count`` independent generators spawned from ``seed`` (one per replicate)."""
    check_int_at_least("count", count, 0)
    return [np.random.default_rng(s) for s in as_seed_sequence(seed).spawn(count)]


def named_generators(
    seed: int | np.random.SeedSequence, names: Sequence[str]
) -> dict[str, np.random.Generator]:
    """Independent generators, one per role name, spawned from ``seed`` in the order of ``names``.

    The mapping from names to streams depends only on the position of each name, so callers must
    keep the order of ``names`` fixed to keep results reproducible.
    """
    if len(set(names)) != len(names):
        raise ValueError(f"names must be distinct, got {list(names)!r}")
    children = as_seed_sequence(seed).spawn(len(names))
    return {name: np.random.default_rng(child) for name, child in zip(names, children, strict=True)}
