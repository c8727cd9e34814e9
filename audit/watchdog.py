"""Run a job in a child process under an overall and a per-call time limit, its prints captured.

:func:`run_watched` runs ``job(watch)`` in a fresh process ('forkserver' where the platform has
it, else 'spawn'; never a fork of this one), hands each event the job sends to ``on_event`` as it
arrives, and kills the process when the whole run exceeds ``timeout`` or one call the job marks
with :meth:`Watch.calling` exceeds ``call_timeout``.  What the child writes to its stdout and
stderr (file descriptors 1 and 2: C-level writes too) goes to a scratch file; its head and tail
come back.  :func:`run_in_process` runs the same job here with the same events (no limits;
Python-level capture), so a report can be compared with and without the watchdog.
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import pickle
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

__all__ = [
    "OUTPUT_HEAD",
    "OUTPUT_TAIL",
    "CapturedOutput",
    "Ended",
    "Watch",
    "WatchOutcome",
    "run_in_process",
    "run_watched",
]

Ended: TypeAlias = Literal["finished", "error", "timeout", "call_timeout", "died"]
"""How a watched job ended: it returned; it raised (``error``); the overall limit or the per-call
limit killed it; or its process ended without returning (``died``: killed from outside, a
crash in C code, ``os._exit``)."""

OUTPUT_HEAD = 5000
"""Bytes (characters in process) kept from the start of the captured output."""

OUTPUT_TAIL = 5000
"""Bytes (characters in process) kept from its end; what lies between is replaced by a marker."""

_LABEL_BYTES = 256
_TAG = "__privonline_watch__"
_POLL_SECONDS = 0.05
_JOIN_SECONDS = 10.0


@dataclass(frozen=True)
class CapturedOutput:
    """What the job printed: ``text`` (head and tail, with a marker naming what was left out
    when ``truncated``) and ``size``, the bytes written in all (characters, in process)."""

    text: str
    size: int
    truncated: bool


@dataclass(frozen=True)
class WatchOutcome:
    """How a watched job ended (:data:`Ended`), after ``seconds``; ``call`` is the label of the
    marked call running when it was stopped (``call_seconds`` into it), ``error`` the traceback of
    what the job raised, ``exitcode`` the child's (``None`` in process), ``output`` what it
    printed (``None`` if nothing)."""

    ended: Ended
    seconds: float
    call: str | None = None
    call_seconds: float | None = None
    error: str | None = None
    exitcode: int | None = None
    output: CapturedOutput | None = None


class Watch:
    """The job's side: :meth:`send` an event to the parent, mark a call with :meth:`calling`.

    This base class runs in process: events go straight to ``on_event``, calls are not timed."""

    def __init__(self, on_event: Callable[[Any], None]) -> None:
        self._on_event = on_event

    def send(self, event: Any) -> None:
        """Hand ``event`` (picklable) to the parent's ``on_event``."""
        self._on_event(event)

    @contextlib.contextmanager
    def calling(self, label: str) -> Iterator[None]:
        """Mark the code inside as one call (``label`` names it in a report): watched, it may
        run at most ``call_timeout`` seconds."""
        yield


class _ChildWatch(Watch):
    """:class:`Watch` in the child: events over a pipe, the running call's start time and label
    in shared memory (no lock: the parent only reads them, and never blocks on the child)."""

    def __init__(self, conn: Any, clock: Any, label: Any) -> None:
        super().__init__(conn.send)
        self._clock, self._label = clock, label

    @contextlib.contextmanager
    def calling(self, label: str) -> Iterator[None]:
        previous = (self._clock[0], self._label.value)
        self._label.value = label.encode("utf-8", "replace")[: _LABEL_BYTES - 1]
        self._clock[0] = time.monotonic()
        try:
            yield
        finally:
            self._clock[0], self._label.value = previous


def _context() -> Any:
    """'forkserver' where available (a clean server process forks each child), else 'spawn'."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _exit_with_parent(alive: Any) -> None:
    """End the child when the parent goes away (its end of the ``alive`` pipe closes)."""
    with contextlib.suppress(EOFError, OSError):
        alive.recv()
    os._exit(70)


def _child(
    path: list[str], blob: bytes, conn: Any, alive: Any, clock: Any, label: Any, capture: str
) -> None:
    """The child process: own process group, output to ``capture``, then ``job(watch)``."""
    if hasattr(os, "setpgid"):
        with contextlib.suppress(OSError):
            os.setpgid(0, 0)  # so that the parent can end whatever the job starts, too
    threading.Thread(target=_exit_with_parent, args=(alive,), daemon=True).start()
    fd = os.open(capture, os.O_WRONLY | os.O_APPEND)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    for name, number in (("stdout", 1), ("stderr", 2)):
        stream = io.TextIOWrapper(
            io.FileIO(number, "w", closefd=False), "utf-8", "backslashreplace", write_through=True
        )
        setattr(sys, name, stream)
    sys.path[:] = path
    try:
        job = pickle.loads(blob)
        job(_ChildWatch(conn, clock, label))
    except BaseException:
        conn.send((_TAG, "error", traceback.format_exc()))
    else:
        conn.send((_TAG, "done"))
    finally:
        conn.close()


def _read_capture(path: str) -> CapturedOutput | None:
    """Head and tail of the scratch file (``None`` if empty)."""
    size = os.path.getsize(path)
    if size == 0:
        return None
    with open(path, "rb") as handle:
        head = handle.read(OUTPUT_HEAD)
        if size <= OUTPUT_HEAD + OUTPUT_TAIL:
            return CapturedOutput((head + handle.read()).decode("utf-8", "replace"), size, False)
        handle.seek(size - OUTPUT_TAIL)
        tail = handle.read()
    left = size - OUTPUT_HEAD - OUTPUT_TAIL
    text = head.decode("utf-8", "replace") + f"\n[... {left} bytes left out ...]\n"
    return CapturedOutput(text + tail.decode("utf-8", "replace"), size, True)


def _kill(process: Any) -> None:
    """Kill the child and its process group (what the job started), then reap it."""
    if process.pid is not None and hasattr(os, "killpg"):
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError, ValueError):
        process.kill()
    process.join()


def run_watched(
    job: Callable[[Watch], None],
    *,
    timeout: float | None,
    call_timeout: float | None,
    on_event: Callable[[Any], None],
    preload: Sequence[str] = (),
) -> WatchOutcome:
    """Run ``job(watch)`` in a child process (module docstring) and wait for it.

    ``job`` must be picklable (a module-level function or an instance of a module-level class);
    the child gets this process's ``sys.path`` before it unpickles it.  ``on_event`` receives,
    here and in order, every event the job sends.  ``timeout`` limits the whole run and
    ``call_timeout`` each call marked with :meth:`Watch.calling` (``None``: no limit); the child
    is killed (with its process group) on either.  ``preload``: modules the forkserver imports
    once, so that each child starts fast.
    """
    ctx = _context()
    if preload and ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(list(preload))
    blob = pickle.dumps(job)
    reader, writer = ctx.Pipe(duplex=False)
    alive_reader, alive_writer = ctx.Pipe(duplex=False)
    clock = ctx.Array("d", 1, lock=False)
    label = ctx.Array("c", _LABEL_BYTES, lock=False)
    fd, capture = tempfile.mkstemp(prefix="privonline-watch-", suffix=".out")
    os.close(fd)
    process = ctx.Process(
        target=_child,
        args=(list(sys.path), blob, writer, alive_reader, clock, label, capture),
        name="privonline-watched",
        daemon=True,
    )
    t0 = time.monotonic()
    ended: Ended = "died"
    error = call = None
    call_seconds = None
    try:
        process.start()
        writer.close()
        alive_reader.close()
        while True:
            now = time.monotonic()
            started = clock[0]
            if timeout is not None and now - t0 > timeout:
                ended = "timeout"
            elif call_timeout is not None and started > 0.0 and now - started > call_timeout:
                ended = "call_timeout"
            if ended != "died":
                if started > 0.0:
                    call = label.value.decode("utf-8", "replace")
                    call_seconds = now - started
                break
            if not reader.poll(_POLL_SECONDS):
                continue
            try:
                message = reader.recv()
            except EOFError:
                break
            if isinstance(message, tuple) and message and message[0] == _TAG:
                ended = "finished" if message[1] == "done" else "error"
                error = message[2] if ended == "error" else None
                break
            on_event(message)
    finally:
        if ended in ("finished", "error"):
            process.join(_JOIN_SECONDS)
        if process.is_alive():
            _kill(process)
        else:
            process.join()
        reader.close()
        alive_writer.close()
        try:
            output = _read_capture(capture)
        finally:
            os.unlink(capture)
    return WatchOutcome(
        ended, time.monotonic() - t0, call, call_seconds, error, process.exitcode, output
    )


def _clip(text: str) -> CapturedOutput | None:
    if not text:
        return None
    if len(text) <= OUTPUT_HEAD + OUTPUT_TAIL:
        return CapturedOutput(text, len(text), False)
    left = len(text) - OUTPUT_HEAD - OUTPUT_TAIL
    clipped = f"{text[:OUTPUT_HEAD]}\n[... {left} characters left out ...]\n{text[-OUTPUT_TAIL:]}"
    return CapturedOutput(clipped, len(text), True)


def run_in_process(
    job: Callable[[Watch], None], *, on_event: Callable[[Any], None]
) -> WatchOutcome:
    """Run ``job(watch)`` here, with the events of :func:`run_watched` and no time limit.

    What it prints through ``sys.stdout`` and ``sys.stderr`` is captured (not what C code
    writes to the file descriptors)."""
    t0 = time.monotonic()
    buffer = io.StringIO()
    error = None
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
        try:
            job(Watch(on_event))
        except Exception:
            error = traceback.format_exc()
    ended: Ended = "finished" if error is None else "error"
    return WatchOutcome(ended, time.monotonic() - t0, error=error, output=_clip(buffer.getvalue()))
