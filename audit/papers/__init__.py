"""The audits of each paper, one package per paper mirroring :mod:`reference`, and the one registry
that the command line, nox, the golden vectors and the docs iterate.

A paper package ``audit/papers/<id>/`` holds ``battery.py`` (its audit cases and broken variants;
papers run by ``privonline audit papers`` define ``papers_cases(seed, quick)``, :mod:`audit.cases`),
``reproduce.py`` (``EXPERIMENTS``, a tuple of :class:`audit.reproduce.experiment.Experiment`; the
experiments in ``repro_*.py``) and ``golden.py`` (its golden-vector entries, :mod:`audit.tools.golden`).
Adding a paper is that folder plus one :class:`Paper` line in :data:`PAPERS`.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from audit.cases import AuditCase
    from audit.reproduce.experiment import Experiment

__all__ = ["PAPERS", "Paper", "by_name"]


@dataclass(frozen=True)
class Paper:
    """One paper of the registry.

    Attributes:
        id: its identifier in code (``shariff_sheffet``): the package under :mod:`audit.papers`
            and under :mod:`reference`, and the folder of its proof notes.
        label: how reports name it (authors and venue).
        title: the paper's title.
        in_papers_battery: run by ``privonline audit papers`` (Shariff & Sheffet's battery is the
            separate ``privonline audit privacy``).
        package: the audit package (default ``audit.papers.<id>``).
    """

    id: str
    label: str
    title: str
    in_papers_battery: bool = True
    package: str = ""

    def __post_init__(self) -> None:
        if not self.id.isidentifier() or self.id != self.id.lower():
            raise ValueError(f"id must be a lower-case Python identifier, got {self.id!r}")
        if not self.package:
            object.__setattr__(self, "package", f"audit.papers.{self.id}")

    @property
    def cli_name(self) -> str:
        """Its name on the command line (``shariff-sheffet``)."""
        return self.id.replace("_", "-")

    def module(self, name: str) -> ModuleType:
        """The paper's module ``name`` (``"battery"``, ``"reproduce"``), imported on demand."""
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def experiments(self) -> tuple[Experiment, ...]:
        """Its reproductions (``EXPERIMENTS`` of its ``reproduce.py``)."""
        return tuple(self.module("reproduce").EXPERIMENTS)

    def papers_cases(self, seed: int, quick: bool) -> list[AuditCase]:
        """Its battery's cases as ``privonline audit papers`` runs them, for the root ``seed``."""
        build = cast(Callable[[int, bool], "list[AuditCase]"], self.module("battery").papers_cases)
        return build(seed, quick)


PAPERS: tuple[Paper, ...] = (
    Paper(
        "shariff_sheffet",
        "Shariff & Sheffet (NeurIPS 2018)",
        "Differentially Private Contextual Linear Bandits",
        in_papers_battery=False,
    ),
    Paper(
        "sajed_sheffet",
        "Sajed & Sheffet (ICML 2019)",
        "An Optimal Private Stochastic-MAB Algorithm Based on an Optimal Private Stopping Rule",
    ),
    Paper(
        "zhou_tan", "Zhou & Tan (AAAI 2021)", "Local Differential Privacy for Bayesian Optimization"
    ),
    Paper(
        "agarwal_singh",
        "Agarwal & Singh (ICML 2017)",
        "The Price of Differential Privacy for Online Learning",
    ),
)
"""Every paper, in the order of reports."""


def by_name(name: str, papers: Sequence[Paper] | None = None) -> Paper:
    """The paper whose id or command-line name is ``name``; ``ValueError`` naming the choices."""
    papers = PAPERS if papers is None else papers
    for paper in papers:
        if name in (paper.id, paper.cli_name):
            return paper
    choices = ", ".join(p.cli_name for p in papers)
    raise ValueError(f"paper must be one of {choices}, got {name!r}")
