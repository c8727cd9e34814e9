"""The shared primitives every writer and every random function goes through: reference.files
(atomic writes, strict JSON, damaged-file detection, output folders) and the one seed rule of
reference.rng."""

from __future__ import annotations

import json
import math
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reference.files import (
    DamagedFileError,
    atomic_savefig,
    atomic_savez,
    atomic_write_text,
    dumps_json,
    load_npz,
    prepare_output_dir,
    read_json,
    record_or_refuse,
    to_jsonable,
    write_json,
)
from reference.rng import as_generator, as_seed_sequence, check_seed


def _strict_loads(text: str) -> Any:
    def refuse(token: str) -> Any:
        raise AssertionError(f"non-standard JSON token {token}")

    return json.loads(text, parse_constant=refuse)


def test_non_finite_floats_are_encoded_explicitly_and_read_back() -> None:
    value = {"a": math.inf, "b": -math.inf, "c": math.nan, "d": np.float64(1.5), "e": (1, 2)}
    text = dumps_json(value)
    parsed = _strict_loads(text)
    assert parsed == {"a": "inf", "b": "-inf", "c": "nan", "d": 1.5, "e": [1, 2]}
    assert float(parsed["a"]) == math.inf and math.isnan(float(parsed["c"]))
    assert to_jsonable(np.array([1.0, np.inf])) == [1.0, "inf"]
    assert to_jsonable(Path("x") / "y") == str(Path("x") / "y")


def test_dumps_json_refuses_what_is_not_json() -> None:
    with pytest.raises(TypeError):
        dumps_json({"f": object()})


def test_atomic_writes_leave_no_temporary_files(tmp_path: Path) -> None:
    atomic_write_text(tmp_path / "a.md", "hello")
    write_json(tmp_path / "a.json", {"x": math.nan})
    atomic_savez(tmp_path / "a.npz", {"v": np.arange(3.0)})
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([0, 1])
    atomic_savefig(fig, tmp_path / "a.png", dpi=50)
    plt.close(fig)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "a.md", "a.npz", "a.png"]
    assert (tmp_path / "a.md").read_text() == "hello"
    assert read_json(tmp_path / "a.json") == {"x": "nan"}
    assert np.array_equal(load_npz(tmp_path / "a.npz")["v"], np.arange(3.0))
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    write_json(target, {"old": 1})
    with pytest.raises(TypeError):
        write_json(target, {"new": object()})
    assert read_json(target) == {"old": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_concurrent_writers_of_one_path_never_collide(tmp_path: Path) -> None:
    target = tmp_path / "shared.json"
    errors: list[BaseException] = []

    def writer(i: int) -> None:
        try:
            for j in range(50):
                write_json(target, {"writer": i, "j": j, "pad": "x" * 1000})
        except BaseException as exc:  # pragma: no cover - the failure being tested for
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert read_json(target)["j"] == 49
    assert [p.name for p in tmp_path.iterdir()] == ["shared.json"]


@pytest.mark.parametrize("content", [b"", b"   \n", b'{"a": 1', b"\x00\x01garbage", b"NaN"])
def test_damaged_json_is_named(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "manifest.json"
    path.write_bytes(content)
    with pytest.raises(DamagedFileError, match=r"manifest\.json"):
        read_json(path)


@pytest.mark.parametrize("cut", [0, 10, -10])
def test_damaged_npz_is_named(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "cell.npz"
    atomic_savez(path, {"v": np.arange(100.0)})
    data = path.read_bytes()
    path.write_bytes(data[:cut] if cut else b"")
    with pytest.raises(DamagedFileError, match=r"cell\.npz"):
        load_npz(path)


def test_npz_key_predicate(tmp_path: Path) -> None:
    path = tmp_path / "cell.npz"
    atomic_savez(path, {"v": np.arange(3.0)})
    with pytest.raises(DamagedFileError, match="unexpected contents"):
        load_npz(path, keys=lambda names: "config_json" in names)


def test_output_folder_checks(tmp_path: Path) -> None:
    made = prepare_output_dir(tmp_path / "a" / "b")
    assert made.is_dir() and list(made.iterdir()) == []
    file = tmp_path / "f"
    file.write_text("x")
    with pytest.raises(ValueError, match="--out must be a folder"):
        prepare_output_dir(file)
    with pytest.raises(ValueError, match="--out must be a writable folder"):
        prepare_output_dir(file / "sub")
    if os.name == "posix" and os.geteuid() != 0:  # root can write anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        try:
            with pytest.raises(ValueError, match="writable"):
                prepare_output_dir(ro, name="out_dir")
        finally:
            ro.chmod(0o700)


@pytest.mark.parametrize("bad", [None, -1, True, 1.5, "3", np.random.RandomState(0)])
def test_one_seed_rule_refuses_what_cannot_be_reproduced(bad: object) -> None:
    with pytest.raises(ValueError, match="my_seed"):
        as_generator(bad, "my_seed")  # type: ignore[arg-type]
    if not isinstance(bad, np.random.RandomState):
        with pytest.raises(ValueError, match="my_seed"):
            as_seed_sequence(bad, "my_seed")  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="my_seed"):
            check_seed(bad, "my_seed")


def test_one_seed_rule_conversions() -> None:
    rng = np.random.default_rng(5)
    assert as_generator(rng) is rng
    assert as_generator(7).random() == np.random.default_rng(7).random()
    assert as_generator(np.int64(7)).random() == np.random.default_rng(7).random()
    seq = np.random.SeedSequence(9)
    assert as_seed_sequence(seq) is seq
    assert as_generator(seq).random() == np.random.default_rng(np.random.SeedSequence(9)).random()
    assert check_seed(0) == 0


def test_a_folder_record_is_claimed_once_and_other_configurations_are_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "config.json"
    record_or_refuse(path, {"n": 1, "eps": math.inf}, holds="runs")
    record_or_refuse(path, {"n": 1, "eps": math.inf}, holds="runs")  # the same: accepted
    with pytest.raises(ValueError, match=r"--out .* holds runs of another configuration"):
        record_or_refuse(path, {"n": 2, "eps": math.inf}, holds="runs")
    path.write_text('{"n": ')
    with pytest.raises(
        ValueError, match=r"config\.json is damaged.*fresh --out folder, or delete this folder"
    ):
        record_or_refuse(path, {"n": 1}, holds="runs")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json"]


def test_racing_claims_of_one_folder_leave_exactly_one_owner(tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    outcomes: list[str] = []

    def claim(i: int) -> None:
        try:
            record_or_refuse(path, {"owner": i}, holds="blocks")
            outcomes.append("owner")
        except ValueError:
            outcomes.append("refused")

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["owner", "refused", "refused", "refused"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_written_files_get_the_permissions_of_a_plain_open(tmp_path: Path) -> None:
    """mkstemp makes owner-only files; reports must stay readable like any file open() writes."""
    plain = tmp_path / "plain.json"
    plain.write_text("{}")
    write_json(tmp_path / "atomic.json", {})
    record_or_refuse(tmp_path / "record.json", {}, holds="runs")
    mode = plain.stat().st_mode & 0o777
    assert (tmp_path / "atomic.json").stat().st_mode & 0o777 == mode
    assert (tmp_path / "record.json").stat().st_mode & 0o777 == mode
