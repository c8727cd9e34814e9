"""The plug-in API: what a mechanism, a neighbouring pair and a privacy claim are.

Anything that satisfies these :class:`typing.Protocol` s can be audited; nothing needs to inherit
from a privonline class.  A minimal black-box mechanism is an object with

.. code-block:: python

    def sample(self, data, rng: numpy.random.Generator, size: int) -> numpy.ndarray: ...

returning ``size`` independent outputs stacked along axis 0.  A white-box mechanism also has

.. code-block:: python

    def log_density(self, data, outputs: numpy.ndarray) -> numpy.ndarray: ...

returning ``log p_data(o)`` for each output (``-inf`` where the output is impossible), with respect
to a base measure that does not depend on ``data``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeAlias, TypeVar, runtime_checkable

import numpy as np

from reference._typing import FloatArray
from reference.validation import check_finite, check_in_range

__all__ = [
    "DensityMechanism",
    "Mechanism",
    "NeighbourRelation",
    "NeighbouringPair",
    "PrivacyClaim",
    "StreamPolicy",
]

NeighbourRelation: TypeAlias = Literal["add_remove", "replace_one", "t_neighbouring"]
"""The neighbouring relation a claim is made under: add or remove one record; replace one record;
or t-neighbouring streams (Shariff & Sheffet Sec. 2: the data of one day ``t`` replaced)."""

DataT = TypeVar("DataT")
DataT_contra = TypeVar("DataT_contra", contravariant=True)


@runtime_checkable
class Mechanism(Protocol[DataT_contra]):
    """A randomised algorithm, seen from outside."""

    def sample(self, data: DataT_contra, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` independent outputs on input ``data``, stacked along axis 0."""
        ...


@runtime_checkable
class DensityMechanism(Mechanism[DataT_contra], Protocol[DataT_contra]):
    """A mechanism whose output density the auditor may read (white box)."""

    def log_density(self, data: DataT_contra, outputs: FloatArray) -> FloatArray:
        """``log p_data(o)`` for each output ``o`` (shape ``(size,)``); ``-inf`` off the support."""
        ...


@runtime_checkable
class StreamPolicy(Protocol):
    """A bandit algorithm run on a whole input stream (for joint-DP audits).

    ``run`` consumes a fixed stream (decision sets ``(n, K, d)`` and reward tables ``(n, K)``) and
    returns the index of the action it took on each day (shape ``(n,)``).
    """

    def run(
        self, decision_sets: FloatArray, reward_tables: FloatArray, rng: np.random.Generator
    ) -> np.ndarray[Any, np.dtype[np.int64]]:
        """Actions taken on each day."""
        ...


@dataclass(frozen=True)
class PrivacyClaim:
    """A claimed guarantee ``(ε, δ)`` (pure ε-DP when ``δ = 0``) under a neighbouring relation.

    ``P[M(x) ∈ S] ≤ e^ε P[M(x') ∈ S] + δ`` for every event ``S`` and both orders of every pair
    of neighbours ``(x, x')``.
    """

    epsilon: float
    delta: float
    relation: NeighbourRelation = "replace_one"
    label: str = ""

    def __post_init__(self) -> None:
        eps = check_finite("epsilon", self.epsilon)
        if eps < 0.0:
            raise ValueError(f"epsilon must be in [0, inf), got {self.epsilon}")
        check_in_range("delta", self.delta, 0.0, 1.0, low_open=False)
        if self.relation not in ("add_remove", "replace_one", "t_neighbouring"):
            raise ValueError(
                "relation must be 'add_remove', 'replace_one' or 't_neighbouring', "
                f"got {self.relation!r}"
            )

    def bound(self, p_prime: float) -> float:
        """The largest ``P[S]`` the claim allows when ``P'[S] = p_prime``."""
        return min(1.0, math.exp(self.epsilon) * p_prime + self.delta)


@dataclass(frozen=True)
class NeighbouringPair(Generic[DataT]):
    """Two neighbouring inputs ``x`` and ``x'`` and the relation that makes them neighbours."""

    x: DataT
    x_prime: DataT
    relation: NeighbourRelation = "replace_one"
    description: str = ""
