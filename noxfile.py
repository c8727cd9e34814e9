"""Nox sessions for privonline.

* ``nox -s tests``      -- the test suite (pytest + hypothesis); fails loudly if no test is collected.
* ``nox -s typecheck``  -- ``mypy --strict`` on reference, audit, tests and examples.
* ``nox -s lint``       -- ``ruff check`` and ``ruff format --check``.
* ``nox -s audit``      -- the main job: the privacy-audit battery, report in ``results/audit``.
* ``nox -s experiment`` -- the reduced App. D experiment, report in ``results/experiment``.
* ``nox -s bench``      -- engine vs reference benchmarks (+ MABWiser peer), ``results/bench``.
* ``nox -s reproduce``  -- every paper's reproductions at reduced scale, ``results/reproduce/<paper id>``.
* ``nox -s docs``       -- API reference, per-paper pages and proof notes (MkDocs), ``results/docs``.
"""

from __future__ import annotations

from pathlib import Path

import nox

nox.options.sessions = ["tests", "typecheck", "lint"]
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True

PYTHON = None  # the interpreter that runs nox (Python >= 3.11)


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Run the test suite.  pytest exits with 5 when it collects no test; that is a failure here."""
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", *session.posargs, success_codes=[0])


@nox.session(python=PYTHON)
def typecheck(session: nox.Session) -> None:
    """``mypy --strict`` on the packages and the tests."""
    session.install("-e", ".[dev]")
    session.run("mypy", "--strict", "reference", "audit", "tests", "examples")


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """Lint and format check with ruff."""
    session.install("ruff>=0.5")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(python=PYTHON)
def experiment(session: nox.Session) -> None:
    """The reduced App. D experiment with the four variants (report in results/experiment)."""
    session.install("-e", ".")
    session.run("privonline", "experiment", "--out", "results/experiment", *session.posargs)


MAIN_JOB_BENCHMARK = (
    "LaplaceMechanism", "NoisyHist1", "NoisyHist2", "ReportNoisyMax1", "ReportNoisyMax2",
    "ReportNoisyMax3", "ReportNoisyMax4", "SVT1", "SVT2", "SVT3", "SVT4", "SVT5", "SVT6",
    "NumericalSVT", "TruncatedGeometric", "LaplaceParallel", "PrefixSum",
)  # fmt: skip
"""The classic benchmark's mechanisms the main job audits: all but DP-Sniper's Rappor,
OneTimeRappor and SVT34Parallel, whose 20-50 output columns cost the black box's scores about
eight minutes at 10^5 samples per side; `privonline audit benchmark` (no --cases) runs them too."""


@nox.session(python=PYTHON)
def audit(session: nox.Session) -> None:
    """The main job: the Shariff & Sheffet battery (privacy, accuracy, regret), the other papers'
    batteries and the classic black-box benchmark at 10^5 samples per side; reports in
    results/audit (report.md, papers.md and their JSON; benchmark/report.md and .json)."""
    session.install("-e", ".")
    session.run("privonline", "audit", "privacy", "--out", "results/audit", *session.posargs)
    session.run("privonline", "audit", "papers", "--out", "results/audit")
    session.run(
        "privonline", "audit", "benchmark", "--n", "100000", "--out", "results/audit/benchmark",
        "--cases", ",".join(MAIN_JOB_BENCHMARK),
    )  # fmt: skip


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Compiled and numpy engines vs the reference, a plain numpy loop and MABWiser (ratios from
    one run), first-call cost, memory, where the time goes."""
    session.install("-e", ".", "mabwiser>=2.7")
    session.run("privonline", "bench", "--out", "results/bench", *session.posargs)


@nox.session(python=PYTHON)
def reproduce(session: nox.Session) -> None:
    """Every paper's reproductions at the documented reduced scale (``-- --paper-scale`` for the
    paper's sizes, ``-- --executor tcp://host:8786`` for a Dask cluster): every paper of the registry
    (``audit.papers``), in turn, each into ``results/reproduce/<paper id>/``."""
    session.install("-e", ".")
    session.run("privonline", "reproduce", "all", "--out", "results/reproduce", *session.posargs)


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """API reference, per-paper pages, the results pages and proof notes (MkDocs +
    mkdocstrings), into results/docs.

    mkdocstrings reads the sources directly; the package is installed because the results pages
    are generated at build time from the committed JSON results by ``audit.tools.site``.
    """
    session.install(".", "mkdocs>=1.6", "mkdocstrings[python]>=0.25", "mkdocs-material>=9")
    # mkdocs resolves a relative -d against the config file's folder (proofs_notes/), so the site
    # directory is given as an absolute path: results/docs at the project root, as the README says.
    site = Path(__file__).resolve().parent / "results" / "docs"
    session.run(
        "mkdocs",
        "build",
        "--strict",
        "-f",
        "proofs_notes/mkdocs.yml",
        "-d",
        str(site),
        *session.posargs,
    )
