"""What every ``privonline reproduce`` command shares: finished cells on disk and the command line.

* :class:`CellStore` -- one file per finished cell and the configuration that produced it: a rerun
  reuses it (resume), a cell of another configuration is refused with ``ValueError``; writes are
  atomic (:mod:`reference.files`); a damaged cell is recomputed with a warning; arrays go to
  ``.npz`` (:meth:`CellStore.arrays`), JSON-able results to ``.json`` (:meth:`CellStore.json`).
* :func:`run_tasks` -- the one executor of the reproductions: cells run serially, in local
  processes or on a Dask cluster (``--executor``), with the same results.
The experiments and their command line are :mod:`audit.reproduce.experiment`; the App. D.1-D.3
runs resume through :func:`reference.engine.blocks.run_blocks`.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from tqdm import tqdm

from reference._typing import FloatArray
from reference.files import (
    DamagedFileError,
    atomic_savez,
    dumps_json,
    load_npz,
    prepare_output_dir,
    read_json,
    warn_damaged,
    write_json,
)

__all__ = ["CellStore", "run_tasks"]

T = TypeVar("T")
R = TypeVar("R")


class CellStore:
    """Finished cells of one experiment under ``folder``; counts computed and reused cells.

    Args:
        folder: created if missing.
        progress: a tqdm bar advanced once per cell served (computed or reused), or ``None``.
    """

    def __init__(self, folder: Path, progress: tqdm[Any] | None = None) -> None:
        self.folder = prepare_output_dir(folder, "--out")
        self.computed = 0
        self.reused = 0
        self._progress = progress

    @staticmethod
    def _stamp(config: Any) -> str:
        return dumps_json(config, indent=None, sort_keys=True)

    def _refuse(self, path: Path, stored: str, now: str) -> ValueError:
        return ValueError(
            f"cell {path} was computed with another configuration (the config changed; stored: "
            f"{stored}; now: {now}); use a fresh --out folder or delete the cell"
        )

    def _served(self, reused: bool) -> None:
        if reused:
            self.reused += 1
        else:
            self.computed += 1
        if self._progress is not None:
            self._progress.update(1)

    def load_arrays(self, key: str, config: Any) -> dict[str, FloatArray] | None:
        """The stored arrays of cell ``key`` (counted as reused), or ``None`` if absent; raises if
        stored under another ``config``."""
        path = self.folder / f"{key}.npz"
        if not path.exists():
            return None
        now = self._stamp(config)
        try:
            data = load_npz(path, keys=lambda names: "config_json" in names)
        except DamagedFileError as err:
            warn_damaged(err)
            return None
        stored = str(data.pop("config_json"))
        if stored != now:
            raise self._refuse(path, stored, now)
        self._served(reused=True)
        return data

    def save_arrays(self, key: str, config: Any, arrays: dict[str, FloatArray]) -> None:
        """Write cell ``key`` atomically and count it as computed."""
        payload: dict[str, Any] = dict(arrays)
        payload["config_json"] = np.asarray(self._stamp(config))
        atomic_savez(self.folder / f"{key}.npz", payload)
        self._served(reused=False)

    def arrays(
        self, key: str, config: Any, compute: Callable[[], dict[str, FloatArray]]
    ) -> dict[str, FloatArray]:
        """The arrays of cell ``key``: stored if present (and of this ``config``), else computed
        and stored."""
        found = self.load_arrays(key, config)
        if found is not None:
            return found
        arrays = compute()
        self.save_arrays(key, config, arrays)
        return arrays

    def json(self, key: str, config: Any, compute: Callable[[], Any]) -> dict[str, Any]:
        """The result of cell ``key``, a JSON object (as read back from JSON): stored if present
        (and of this ``config``), else computed and stored."""
        path = self.folder / f"{key}.json"
        now = self._stamp(config)
        if path.exists():
            try:
                stored = read_json(path)
                if not isinstance(stored, dict) or not {"config", "result"} <= set(stored):
                    raise DamagedFileError(path, "not a cell record")
            except DamagedFileError as err:
                warn_damaged(err)
            else:
                if self._stamp(stored["config"]) != now:
                    raise self._refuse(path, self._stamp(stored["config"]), now)
                self._served(reused=True)
                found: dict[str, Any] = stored["result"]
                return found
        result: dict[str, Any] = json.loads(dumps_json(compute()))
        write_json(path, {"config": json.loads(now), "result": result}, indent=None)
        self._served(reused=False)
        return result


def run_tasks(
    function: Callable[[T], R],
    items: Sequence[T],
    executor: str,
    finish: Callable[[T, R], None],
) -> None:
    """Call ``function(item)`` for every item and ``finish(item, result)`` as each completes:
    ``executor`` is ``"serial"``, ``"processes"`` (local processes, one per CPU) or a Dask scheduler
    address (``"tcp://host:8786"``).  ``function`` and the items must be picklable (module level)
    unless serial; the results do not depend on the executor, only the completion order does."""
    if executor == "serial" or len(items) <= 1:
        for item in items:
            finish(item, function(item))
    elif executor == "processes":
        with ProcessPoolExecutor() as pool:
            futures = {pool.submit(function, item): item for item in items}
            try:
                for future in as_completed(futures):
                    finish(futures[future], future.result())
            except BaseException:
                for future in futures:  # a refusal or an interrupt stops the queued tasks
                    future.cancel()
                raise
    elif "://" in executor:
        try:
            from dask.distributed import Client
            from dask.distributed import as_completed as dask_completed
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ValueError(
                f"executor {executor!r} needs dask.distributed (pip install 'privonline[dask]')"
            ) from error
        with Client(executor) as client:  # type: ignore[no-untyped-call]
            tasks = {client.submit(function, item, pure=False): item for item in items}
            for task in dask_completed(list(tasks)):  # type: ignore[no-untyped-call]
                finish(tasks[task], task.result())
    else:
        raise ValueError(
            "executor must be 'serial', 'processes' or a Dask scheduler address "
            f"('tcp://host:port'), got {executor!r}"
        )
