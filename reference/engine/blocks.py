"""Monte-Carlo work in replicate blocks: any executor, any block size, same bits, resumable.

Replicate ``i`` of a run with root seed ``s`` always gets ``SeedSequence(s).spawn(R)[i]``, so the
concatenated results are bit-identical whatever the block size and executor (``"serial"``,
``"processes"`` or a Dask scheduler address).  With ``out_dir`` each finished block is written
atomically beside a ``manifest.json``; a rerun resumes (with more replicates it extends the
run), and a different task or seed is refused.
Pure plumbing: no paper result of its own (it runs the engines of Shariff & Sheffet Algorithm 1
and Sajed & Sheffet Sec. 5).

Proof note: ``proofs_notes/shariff_sheffet/algorithm1_linucb.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from tqdm.auto import tqdm

from reference._typing import FloatArray
from reference.files import (
    DamagedFileError,
    atomic_savez,
    atomic_write_text,
    dumps_json,
    load_npz,
    prepare_output_dir,
    read_json,
    record_or_refuse,
    warn_damaged,
)
from reference.rng import child_seeds
from reference.validation import check_int_at_least

__all__ = ["BlockTask", "replicate_seeds", "run_blocks"]


class BlockTask(Protocol):
    """A picklable callable turning a block of replicate seeds into arrays with one row each."""

    def __call__(self, seeds: Sequence[np.random.SeedSequence]) -> dict[str, FloatArray]:
        """Arrays whose first axis has one entry per seed, in the order of ``seeds``."""
        ...


def replicate_seeds(
    root: int | np.random.SeedSequence, first: int, stop: int, total: int
) -> list[np.random.SeedSequence]:
    """Seeds of replicates ``first .. stop − 1`` out of ``total`` (:func:`~reference.rng.child_seeds`)."""
    if not 0 <= first <= stop <= total:
        raise ValueError(f"need 0 <= first <= stop <= total, got {first}, {stop}, {total}")
    return child_seeds(root, first, stop)


def _describe(task: BlockTask) -> Any:
    if is_dataclass(task) and not isinstance(task, type):
        return {"type": type(task).__qualname__, **asdict(task)}
    return repr(task)


def _run_one(
    task: BlockTask, root: int | np.random.SeedSequence, first: int, stop: int, total: int
) -> dict[str, FloatArray]:
    return task(replicate_seeds(root, first, stop, total))


def _save_block(path: Path, arrays: Mapping[str, FloatArray]) -> None:
    atomic_savez(path, dict(arrays))


def _load_block(path: Path, rows: int) -> dict[str, FloatArray] | None:
    """A finished block of ``rows`` replicates, or ``None`` if absent or damaged (then it is
    recomputed, with a :class:`~reference.files.DamagedFileWarning` naming it)."""
    if not path.exists():
        return None
    try:
        block = load_npz(path, keys=bool)
        shapes = {name: arr.shape for name, arr in block.items()}
        if any(not shape or shape[0] != rows for shape in shapes.values()):
            raise DamagedFileError(path, f"expected {rows} replicates per array, got {shapes}")
    except DamagedFileError as err:
        warn_damaged(err)
        return None
    return block


def _manifest_exists(path: Path) -> bool:
    """Whether the manifest ``path`` is there; a damaged one is refused, naming the file to delete
    (the blocks beside it are then recomputed, never read without a manifest)."""
    if not path.exists():
        return False
    try:
        read_json(path)
    except DamagedFileError as err:
        raise ValueError(
            f"{path} is damaged ({err.reason}), so the finished blocks in {path.parent} cannot "
            f"be matched to a task; delete {path} and run again (those blocks are then "
            "recomputed)"
        ) from err
    return True


def _extend_manifest(path: Path, manifest: dict[str, Any]) -> None:
    """Let a run of the same task and seed with more (or fewer) replicates use the stored blocks.

    Replicate ``i``'s seed does not depend on the total (:func:`replicate_seeds`), so when the
    smaller of the two replicate counts is a multiple of the block size, every block of the
    smaller run is a complete block of the larger one.  ``manifest`` then takes the larger count
    (the stored manifest is rewritten atomically when the run grows), so that
    :func:`~reference.files.record_or_refuse` accepts it; anything else is left to it to refuse.
    """
    stored = read_json(path)
    if not isinstance(stored, dict) or stored.keys() != manifest.keys():
        return
    same = all(
        json.loads(dumps_json(stored[k])) == json.loads(dumps_json(manifest[k]))
        for k in manifest
        if k != "replicates"
    )
    old, new = stored["replicates"], manifest["replicates"]
    if not same or not isinstance(old, int) or old == new:
        return
    if min(old, new) % manifest["block_size"] != 0:
        return
    manifest["replicates"] = max(old, new)
    if new > old:
        atomic_write_text(path, dumps_json(manifest) + "\n")


def run_blocks(
    task: BlockTask,
    *,
    seed: int,
    replicates: int,
    block_size: int,
    executor: str = "processes",
    max_workers: int | None = None,
    out_dir: str | Path | None = None,
    progress: bool = False,
) -> dict[str, FloatArray]:
    """Run ``task`` over ``replicates`` replicates in blocks and concatenate the results.

    Args:
        task: a picklable :class:`BlockTask` (e.g. :class:`GapBatchTask`).
        seed: the root seed (non-negative integer) of the whole run.
        replicates: ``R ≥ 1``.
        block_size: replicates per block (``≥ 1``); results do not depend on it.
        executor: ``"serial"``, ``"processes"`` or a Dask scheduler address (module docstring).
        max_workers: local processes (default: the machine's CPU count).
        out_dir: where finished blocks are written and resumed from (optional).
        progress: show a progress bar over blocks.
    """
    seed = check_int_at_least("seed", seed, 0)
    R = check_int_at_least("replicates", replicates, 1)
    size = check_int_at_least("block_size", block_size, 1)
    if executor not in ("serial", "processes") and "://" not in executor:
        raise ValueError(
            "executor must be 'serial', 'processes' or a Dask scheduler address "
            f"('tcp://host:port'), got {executor!r}"
        )
    bounds = [(first, min(first + size, R)) for first in range(0, R, size)]
    results: dict[int, dict[str, FloatArray]] = {}
    folder: Path | None = None
    manifest = {"task": _describe(task), "seed": seed, "replicates": R, "block_size": size}
    claimed = False
    if out_dir is not None:
        folder = prepare_output_dir(Path(out_dir), "out_dir")
        if _manifest_exists(folder / "manifest.json"):
            # refuses another task's folder before any work; resumes this task's blocks
            _extend_manifest(folder / "manifest.json", manifest)
            record_or_refuse(
                folder / "manifest.json", manifest, holds="blocks", folder_name="out_dir"
            )
            claimed = True
            for index, (first, stop) in enumerate(bounds):
                block = _load_block(folder / f"block-{index:05d}.npz", stop - first)
                if block is not None:
                    results[index] = block
    todo = [i for i in range(len(bounds)) if i not in results]

    def finish(index: int, arrays: dict[str, FloatArray]) -> None:
        nonlocal claimed
        results[index] = arrays
        if folder is not None:
            if not claimed:  # the first finished block claims the folder for this task
                record_or_refuse(
                    folder / "manifest.json", manifest, holds="blocks", folder_name="out_dir"
                )
                claimed = True
            _save_block(folder / f"block-{index:05d}.npz", arrays)

    with tqdm(total=len(bounds), initial=len(results), disable=not progress, desc="blocks") as bar:
        if executor == "serial":
            for i in todo:
                finish(i, _run_one(task, seed, *bounds[i], R))
                bar.update()
        elif executor == "processes":
            with ProcessPoolExecutor(max_workers=max_workers) as pool:
                futures: dict[Future[dict[str, FloatArray]], int] = {
                    pool.submit(_run_one, task, seed, *bounds[i], R): i for i in todo
                }
                try:
                    for future in as_completed(futures):
                        finish(futures[future], future.result())
                        bar.update()
                except BaseException:
                    for future in futures:  # a refusal or an interrupt stops the queued blocks
                        future.cancel()
                    raise
        else:
            _run_dask(executor, task, seed, bounds, todo, R, finish, bar.update)
    keys = results[0].keys() if results else []
    return {key: np.concatenate([results[i][key] for i in range(len(bounds))]) for key in keys}


def _run_dask(
    address: str,
    task: BlockTask,
    seed: int,
    bounds: list[tuple[int, int]],
    todo: list[int],
    R: int,
    finish: Callable[[int, dict[str, FloatArray]], None],
    tick: Callable[[], object],
) -> None:
    """Map the missing blocks over a Dask cluster at ``address`` (``"serial"``/``"processes"`` aside)."""
    try:
        from dask.distributed import Client
        from dask.distributed import as_completed as dask_completed
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ValueError(
            f"executor must be 'serial', 'processes' or a Dask scheduler address; {address!r} "
            "needs dask.distributed (pip install 'privonline[dask]')"
        ) from error
    with Client(address) as client:  # type: ignore[no-untyped-call]
        futures = {client.submit(_run_one, task, seed, *bounds[i], R, pure=False): i for i in todo}
        for future in dask_completed(list(futures)):  # type: ignore[no-untyped-call]
            finish(futures[future], future.result())
            tick()
