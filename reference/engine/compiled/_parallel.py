"""What every compiled engine shares: the typed ``njit`` wrapper and the threaded, chunked driver.

A compiled loop releases the GIL, so replicates run on threads of this process; each replicate's
rounds go through its loop in chunks, between which the progress bar moves and a failure in
another replicate is noticed.  Results never depend on the chunk size or the number of threads.

Proof note: ``proofs_notes/shariff_sheffet/algorithm1_linucb.md``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, cast

import numba
from tqdm.auto import tqdm

from reference.validation import (
    check_size,
)

__all__ = ["compiled", "inlined", "resolve_workers", "run_chunked"]

_F = TypeVar("_F", bound=Callable[..., Any])


def compiled(function: _F) -> _F:
    """``numba.njit`` without the GIL, cached on disk (typed for mypy as the plain function)."""
    return cast(_F, numba.njit(nogil=True, cache=True)(function))


def inlined(function: _F) -> _F:
    """:func:`compiled`, and inlined into every compiled function that calls it: a piece of a hot
    loop written apart costs what it cost inside the loop (no call per round)."""
    return cast(_F, numba.njit(nogil=True, cache=True, inline="always")(function))


_STACK_BYTES = 8 * 2**20
"""A thread's stack (the Linux default)."""


def resolve_workers(workers: int | None) -> int:
    """``workers`` (an integer ``≥ 1``, at most the threads whose 8 MiB stacks fit in memory), by
    default the cores this process may use."""
    if workers is None:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    return check_size("workers", workers, 1, item_bytes=_STACK_BYTES, what="a thread's stack")


def run_chunked(
    jobs: int,
    rounds: int,
    *,
    workers: int,
    chunk: int,
    progress: bool,
    step: Callable[[int, int, int], bool],
) -> None:
    """``step(job, first, last)`` for rounds ``first .. last`` (1-based) of each of ``jobs`` jobs,
    in chunks of ``chunk`` rounds, jobs on ``min(workers, jobs)`` threads, with a progress bar of
    job-rounds.  ``step`` returns ``False`` to stop every job (the caller records why); an
    exception stops the others too and is raised here."""
    stop = threading.Event()
    lock = threading.Lock()
    bar = tqdm(
        total=jobs * rounds, disable=not progress, desc="replicate-rounds", unit="rr", leave=False
    )

    def job(j: int) -> None:
        try:
            for first in range(1, rounds + 1, chunk):
                if stop.is_set():
                    return
                last = min(rounds, first + chunk - 1)
                if not step(j, first, last):
                    stop.set()
                    return
                with lock:
                    bar.update(last - first + 1)
        except BaseException:
            stop.set()
            raise

    try:
        with ThreadPoolExecutor(max_workers=min(workers, jobs)) as pool:
            list(pool.map(job, range(jobs)))
    finally:
        bar.close()
