"""The results pages of the site: every committed result has a page, pages render what the JSON
says (statement, verdict, interval, runs, figure, provenance), the navigation lists every page,
and the home page and the citing page agree with the project's files."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from audit.papers import PAPERS
from audit.tools import site

REPO = Path(__file__).resolve().parents[3]


def test_every_committed_result_has_a_page() -> None:
    rendered = {source for page in site.pages() for source in page.sources}
    committed = site.committed_results()
    assert committed, "no committed result found: the glob is wrong"
    missing = [str(p.relative_to(REPO)) for p in committed if p not in rendered]
    assert not missing, f"committed results without a page: {missing}"


def test_every_generated_page_is_in_the_navigation() -> None:
    nav = (REPO / "proofs_notes" / "mkdocs.yml").read_text(encoding="utf-8")
    for page in site.pages():
        assert f": {page.uri}\n" in nav, f"{page.uri} is not in mkdocs.yml's nav"
    assert {f"results/{p.id}.md" for p in PAPERS} <= {page.uri for page in site.pages()}


def test_home_page_sessions_are_the_noxfile_sessions() -> None:
    index = (REPO / "proofs_notes" / "site_src" / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `nox -s (\w+)` \|", index, flags=re.M))
    noxfile = (REPO / "noxfile.py").read_text(encoding="utf-8")
    sessions = set(re.findall(r"@nox\.session\([^)]*\)\ndef (\w+)\(", noxfile))
    assert sessions and listed == sessions


def test_verdict_of_reads_recorded_inconclusive_and_holds() -> None:
    assert site.verdict_of({"claim": "c", "holds": False, "verdict": "needs more runs"}) == (
        "needs more runs"
    )
    assert site.verdict_of({"claim": "c", "holds": False, "inconclusive": True}) == (
        "needs more runs"
    )
    assert site.verdict_of({"claim": "c", "holds": True}) == "holds"
    assert site.verdict_of({"claim": "c", "holds": False}) == "fails"


class _Experiment:
    name = "toy"
    description = "Toy experiment: one statement"


class _Paper:
    id = "toy_paper"
    label = "Toy & Paper (2026)"
    title = "A Toy Paper"
    cli_name = "toy-paper"
    experiments = (_Experiment(),)


def _write(path: Path, document: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"schema_version": 2, **document}), encoding="utf-8")


def test_paper_page_renders_statement_verdict_interval_runs_figure_and_provenance(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "toy_paper" / "paper_scale"
    _write(
        folder / "toy.json",
        {
            "schema_version": 2,
            "experiment": "T.1",
            "config": {"runs": 7, "seed": 11},
            "checks": [
                {
                    "claim": "A beats B",
                    "holds": True,
                    "gate": False,
                    "verdict": "holds",
                    "difference": 2.5,
                    "ci_95": [1.25, 3.75],
                },
                {"claim": "B beats C", "holds": False, "inconclusive": True},
            ],
        },
    )
    _write(
        folder / "toy.provenance.json",
        {
            "command": "privonline reproduce toy-paper toy --paper-scale",
            "config": {"seed": 11, "runs": 7},
            "source_revision": "abc123",
            "versions": {"numpy": "9.9"},
            "machine": {"platform": "P", "cpus": 2},
            "seconds": 7200.0,
        },
    )
    (folder / "toy.png").write_bytes(b"\x89PNG")
    page = site.paper_page(_Paper(), tmp_path)
    assert page.uri == "results/toy_paper.md" and page.sources == (folder / "toy.json",)
    text = page.text
    assert "| A beats B | **holds** | difference 2.5, 95% CI [1.25, 3.75] | no |" in text
    assert "| B beats C | **needs more runs** |" in text
    assert "Statements checked (7 runs per cell)" in text
    assert "privonline reproduce toy-paper toy --paper-scale" in text
    assert "`abc123`" in text and "numpy 9.9" in text and "2.0 h" in text
    assert "![T.1](../notes/toy_paper/paper_scale/toy.png)" in text
    assert "Toy experiment: one statement" in text
    assert "No result is committed at this scale" in text  # the reduced scale is empty


def test_a_result_without_provenance_says_so(tmp_path: Path) -> None:
    _write(
        tmp_path / "toy_paper" / "paper_scale" / "toy.json",
        {"experiment": "toy", "config": {}, "checks": []},
    )
    text = site.paper_page(_Paper(), tmp_path).text
    assert "No provenance file was committed" in text
    assert "records no statement of its own" in text


def test_audit_page_refuses_a_result_of_no_known_kind(tmp_path: Path) -> None:
    _write(tmp_path / "audit" / "mystery.json", {"kind": "mystery"})
    with pytest.raises(ValueError, match="no known kind"):
        site.audit_page(tmp_path)


def test_audit_page_renders_zoo_and_calibration(tmp_path: Path) -> None:
    _write(
        tmp_path / "audit" / "zoo.json",
        {
            "kind": "policy_zoo",
            "command": "zoo --seeds 2",
            "seeds": 2,
            "versions": {},
            "measured_at_commit": "c0ffee",
            "cases": [
                {
                    "case": "bug",
                    "expected": "violation",
                    "exit_codes": {"1": 2},
                    "power": 1.0,
                    "power_ci95": [0.16, 1.0],
                    "false_alarms": None,
                }
            ],
        },
    )
    _write(
        tmp_path / "audit" / "results" / "calibration.json",
        {
            "benchmark": "calibration",
            "seed": 3,
            "date": "D",
            "rows": [
                {
                    "scenario": "s",
                    "kind": "false_alarm",
                    "tester": "t",
                    "claim": "c",
                    "rejections": 1,
                    "repeats": 500,
                    "rate": 0.002,
                    "ci_low": 0.0,
                    "ci_high": 0.011,
                    "nominal": 0.05,
                    "reading": "below nominal",
                }
            ],
        },
    )
    page = site.audit_page(tmp_path)
    assert len(page.sources) == 2
    assert "| `bug` | violation | 1: 2 | 1 [0.16, 1] | – |" in page.text
    assert "| `s` | false_alarm | t | c | 1 / 500 | 0.002 [0, 0.011] | 0.05 | below nominal |" in (
        page.text
    )
    assert "No measurement of this kind is committed yet." in page.text  # no benchmark


def test_cite_page_is_built_from_citation_cff_and_names_the_version() -> None:
    cff = (REPO / "CITATION.cff").read_text(encoding="utf-8")
    version = re.search(r"^version: (.+)$", cff, flags=re.M)
    assert version is not None
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert f'version = "{version.group(1).strip()}"' in pyproject
    page = site.cite_page()
    assert f"version = {{{version.group(1).strip()}}}" in page.text
    for paper in PAPERS:
        assert paper.title in page.text
    assert "produced_by" in page.text
