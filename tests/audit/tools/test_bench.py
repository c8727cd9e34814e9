"""Smoke test of the benchmark command (speed is measured by ``nox -s bench``, never asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit.cli import main as privonline_main
from audit.results import SCHEMA_VERSION

TINY = [
    *("--replicates", "2", "--rounds", "3", "--reference-rounds", "2"),
    *("--single-rounds", "3", "--compiled-rounds", "50"),
]


def test_bench_writes_every_measurement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert privonline_main(["bench", *TINY, "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "bench.json").read_text())
    rows = report["rates"]
    assert {(r["d"], r["K"], r["variant"]) for r in rows} == {
        (d, K, v)
        for d, K in ((5, 25), (10, 100), (20, 400))
        for v in ("nonprivate", "wishart", "gaussian")
    }
    for row in rows:
        ratio = row["engine_replicate_rounds_per_s"] / row["reference_rounds_per_s"]
        assert row["speedup"] == pytest.approx(ratio)
        assert row["engine_peak_memory_mb"] > 0
        compiled = row["compiled_replicate_rounds_per_s"]
        assert row["compiled_over_engine"] == pytest.approx(
            compiled / row["engine_replicate_rounds_per_s"]
        )
        assert row["compiled_over_plain_numpy"] == pytest.approx(
            compiled / row["plain_numpy_replicate_rounds_per_s"]
        )
    assert report["schema_version"] == SCHEMA_VERSION
    assert report["compiled_first_call"]["source"] in {"cache", "compiled"}
    assert sum(report["compiled_profile_gaussian_d5_K25"].values()) == pytest.approx(1.0)
    assert report["compiled_paper_d2_projection_hours"] > 0
    shares = report["profile_wishart_d5_K25"]
    assert sum(shares.values()) == pytest.approx(1.0)
    assert report["paper_d2_projection_hours"] > 0
    assert "compiled / engine" in capsys.readouterr().out


def test_bench_rejects_bad_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        privonline_main(["bench", "--rounds", "0"])
    assert exc.value.code == 2
    assert "argument --rounds: must be an integer >= 1" in capsys.readouterr().err
