"""What every ``privonline reproduce`` command shares: finished cells on disk and the command line.

* :class:`CellStore` -- one file per finished cell and the configuration that produced it: a rerun
  reuses it (resume), a cell of another configuration is refused with ``ValueError``; writes are
  atomic (:mod:`reference.files`); a damaged cell is recomputed with a warning; arrays go to
  ``.npz`` (:meth:`CellStore.arrays`), JSON-able results to ``.json`` (:meth:`CellStore.json`).
* :func:`reproduction_parser` and :func:`selected_experiments` -- the arguments and checks common
  to the per-paper commands (experiments, ``--paper-scale``, ``--runs``, ``--out``).
The App. D.1-D.3 runs resume through :func:`reference.engine.blocks.run_blocks` instead.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

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
from reference.validation import int_at_least

__all__ = ["CellStore", "reproduction_parser", "selected_experiments"]


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


def reproduction_parser(
    prog: str,
    description: str,
    experiments: Sequence[str],
    *,
    paper_scale_help: str = "the paper's sizes (very long)",
    runs_help: str = "runs per cell (default: per config)",
) -> argparse.ArgumentParser:
    """The arguments every ``privonline reproduce`` command takes: the experiments to run (default
    all), ``--paper-scale``, ``--runs`` and ``--out``; callers add their own."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "experiments",
        nargs="*",
        metavar="{" + ",".join(experiments) + "}",
        help="which experiments (default: all)",
    )
    parser.add_argument("--paper-scale", action="store_true", help=paper_scale_help)
    parser.add_argument(
        "--runs", type=int_at_least(2), default=None, help=runs_help + "; at least 2"
    )
    parser.add_argument("--out", type=Path, default=Path("results/reproduce"), help="output folder")
    return parser


def selected_experiments(args: argparse.Namespace, experiments: Sequence[str]) -> list[str] | None:
    """The experiments ``args`` asks for (all by default), or ``None`` after printing the error
    when one is unknown or ``--runs`` is below 2 (the caller then exits with 2)."""
    chosen: list[str] = list(args.experiments or experiments)
    unknown = sorted(set(chosen) - set(experiments))
    if unknown:
        print(
            f"error: experiments must be among {', '.join(experiments)}, got {unknown}",
            file=sys.stderr,
        )
        return None
    if args.runs is not None and args.runs < 2:
        print(f"error: --runs must be >= 2, got {args.runs}", file=sys.stderr)
        return None
    try:
        prepare_output_dir(args.out)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return None
    return chosen
