"""The shared machinery of the reproduce commands: the cell store and the command-line checks.

A cell is computed once, reused on a rerun with the same configuration (arrays and JSON results),
and refused when stored under another configuration; every paper's reproduction relies on this for
resumption (their own tests exercise it end to end)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from audit.reproduce.common import CellStore
from reference.files import DamagedFileWarning


def test_array_cells_are_computed_once_reused_and_refused_under_another_config(
    tmp_path: Path,
) -> None:
    calls: list[int] = []

    def compute() -> dict[str, np.ndarray]:
        calls.append(1)
        return {"regret": np.arange(3.0)}

    store = CellStore(tmp_path / "cells")
    first = store.arrays("c1", {"runs": 2, "eps": 0.5}, compute)
    again = CellStore(tmp_path / "cells").arrays("c1", {"eps": 0.5, "runs": 2}, compute)
    assert calls == [1] and np.array_equal(first["regret"], again["regret"])
    assert (store.computed, store.reused) == (1, 0)
    assert list((tmp_path / "cells").iterdir()) == [tmp_path / "cells" / "c1.npz"]  # no temp left
    with pytest.raises(ValueError, match="another configuration"):
        store.arrays("c1", {"runs": 3, "eps": 0.5}, compute)
    assert store.load_arrays("absent", {}) is None


def test_json_cells_round_trip_and_count(tmp_path: Path) -> None:
    store = CellStore(tmp_path)
    result = store.json("fit", {"n": 10}, lambda: {"slope": 0.5, "ci": (0.4, 0.6)})
    assert result == {"slope": 0.5, "ci": [0.4, 0.6]}  # as read back from JSON, on every path
    assert store.json("fit", {"n": 10}, lambda: {"slope": -1.0}) == result
    assert (store.computed, store.reused) == (1, 1)
    with pytest.raises(ValueError, match="config changed"):
        store.json("fit", {"n": 11}, lambda: {"slope": 0.0})


@pytest.mark.parametrize("kind", ["npz", "json"])
@pytest.mark.parametrize(
    "damage",
    [b"", b"PK\x03\x04trunc", b'{"config": {"n"', b"\x00garbage", b"[1, 2]", "half"],
)
def test_damaged_cells_are_named_and_recomputed(
    tmp_path: Path, kind: str, damage: bytes | str
) -> None:
    store = CellStore(tmp_path)
    if kind == "npz":
        first = store.arrays("c", {"n": 1}, lambda: {"v": np.arange(3.0)})["v"]
    else:
        first = store.json("c", {"n": 1}, lambda: {"v": [0.0, 1.0, 2.0]})["v"]
    path = tmp_path / f"c.{kind}"
    whole = path.read_bytes()
    path.write_bytes(damage if isinstance(damage, bytes) else whole[: len(whole) // 2])
    with pytest.warns(DamagedFileWarning, match=rf"c\.{kind} is damaged"):
        if kind == "npz":
            again = store.arrays("c", {"n": 1}, lambda: {"v": np.arange(3.0)})["v"]
        else:
            again = store.json("c", {"n": 1}, lambda: {"v": [0.0, 1.0, 2.0]})["v"]
    assert np.array_equal(first, again)
    assert (store.computed, store.reused) == (2, 0)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"c.{kind}"]
