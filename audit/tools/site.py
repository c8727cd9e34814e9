"""The results pages of the documentation site, generated from the committed JSON results.

Every number a reader may cite is rendered from the file that holds it, never copied by hand:
each paper's experiments at the paper's scale (and, where committed, at reduced scale) with
their provenance and figures, the policy zoo and calibration runs, and a page on how to cite
privonline.  :func:`pages` returns every page with the result files it renders, so that a test
can check that no committed result is left without a page (:func:`committed_results`); the MkDocs
hook of the site adds them under ``results/`` and ``cite.md``.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.benchmarks.action_level import counts_by_side

__all__ = [
    "NOTES",
    "Page",
    "cite_page",
    "committed_results",
    "pages",
    "paper_page",
    "verdict_of",
]

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "proofs_notes"
"""The proof notes folder: where every committed result lives."""

RESULT_FOLDERS = ("paper_scale", "reduced_scale")


@dataclass(frozen=True)
class Page:
    """A generated site page.

    Attributes:
        uri: its path in the site (``results/<paper>.md``).
        title: its navigation title.
        text: its Markdown.
        sources: the committed result files it renders.
    """

    uri: str
    title: str
    text: str
    sources: tuple[Path, ...]


def _is_result(path: Path) -> bool:
    return path.suffix == ".json" and not path.name.endswith(".provenance.json")


def committed_results(notes: Path = NOTES) -> list[Path]:
    """Every committed result file under ``notes``: the experiments' JSON in each paper's
    ``paper_scale/`` and ``reduced_scale/`` folders (not their provenance files), and the audit
    tooling's measurements in ``audit/`` and ``audit/results/``."""
    found = [
        path
        for folder in RESULT_FOLDERS
        for path in sorted(notes.glob(f"*/{folder}/*.json"))
        if _is_result(path)
    ]
    found += [p for p in sorted((notes / "audit").glob("*.json")) if _is_result(p)]
    found += [p for p in sorted((notes / "audit" / "results").glob("*.json")) if _is_result(p)]
    return found


def _read(path: Path) -> dict[str, Any]:
    document = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(document, dict):
        raise ValueError(f"{path}: a result file must hold a JSON object")
    return document


def _num(value: Any) -> str:
    """A number as a reader wants it: integers whole, others to 4 significant digits."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, str) and value in ("inf", "-inf", "nan"):  # strict JSON's non-finite
        value = float(value)
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        if 1_000 <= abs(value) < 1e15:
            return f"{value:,.0f}"
        return f"{value:.4g}"
    return str(value)


def _interval(low: Any, high: Any) -> str:
    return f"[{_num(low)}, {_num(high)}]"


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(_cell(c) for c in row) + " |" for row in rows),
    ]


def verdict_of(check: Mapping[str, Any]) -> str:
    """A check's verdict: its recorded ``verdict`` (``holds``, ``fails``, ``needs more runs``),
    else ``needs more runs`` when it is recorded inconclusive, else ``holds`` / ``fails``."""
    if "verdict" in check:
        return str(check["verdict"])
    if check.get("inconclusive"):
        return "needs more runs"
    return "holds" if check["holds"] else "fails"


_SKIPPED_DETAILS = frozenset({"claim", "holds", "gate", "verdict", "inconclusive"})


def _evidence(check: Mapping[str, Any]) -> str:
    """The interval and the other evidence a check records, compactly."""
    parts: list[str] = []
    if "difference" in check and "ci_95" in check:
        parts.append(f"difference {_num(check['difference'])}, 95% CI {_interval(*check['ci_95'])}")
    elif "ci_95" in check:
        parts.append(f"95% CI {_interval(*check['ci_95'])}")
    for diff in check.get("differences", ()):
        level = diff.get("confidence", 0.95)
        parts.append(
            f"{diff['larger']} − {diff['smaller']}: {_num(diff['mean'])} "
            f"{_interval(*diff.get('ci', diff.get('ci_95')))}"
            + (f" ({100 * level:.4g}%)" if level != 0.95 else "")
        )
    if "band" in check:
        parts.append(f"band {_interval(*check['band'])}")
    for key, value in check.items():
        if key in _SKIPPED_DETAILS or key in ("difference", "ci_95", "differences", "band"):
            continue
        if isinstance(value, Mapping) and {"ci_low", "ci_high"} <= set(value):
            centre = value.get("mean_difference", value.get("mean"))
            parts.append(f"{key}: {_num(centre)} {_interval(value['ci_low'], value['ci_high'])}")
        elif isinstance(value, bool | int | float | str) or value is None:
            parts.append(f"{key} = {_num(value)}")
    return "; ".join(parts) or "–"


def _runs(config: Mapping[str, Any]) -> str:
    for key, label in (
        ("runs", "runs per cell"),
        ("trials", "trials per cell"),
        ("repeats", "repeats per scenario"),
    ):
        if key in config:
            return f"{_num(config[key])} {label}"
    return "see the configuration"


def _provenance_lines(path: Path) -> list[str]:
    """The command and provenance table of a result, from ``<name>.provenance.json``."""
    prov_path = path.with_name(path.stem + ".provenance.json")
    if not prov_path.exists():
        return ["*No provenance file was committed beside this result.*", ""]
    prov = _read(prov_path)
    config = prov.get("config", {})
    versions = prov.get("versions", {})
    machine = prov.get("machine", {})
    rows = [
        ("source revision", f"`{prov.get('source_revision', 'unknown')}`"),
        ("seed", str(config.get("seed", "not recorded"))),
        ("runs", _runs(config)),
        ("versions", ", ".join(f"{k} {v}" for k, v in versions.items())),
        ("executor", str(prov.get("executor", "–"))),
        ("machine", f"{machine.get('platform', '?')}, {machine.get('cpus', '?')} cpus"),
    ]
    if "note" in prov:
        rows.append(("note", str(prov["note"])))
    if "started_utc" in prov:
        rows.append(("started (UTC)", str(prov["started_utc"])))
    if "seconds" in prov:
        seconds = float(prov["seconds"])
        took = f"{seconds:.0f} s" if seconds < 3600 else f"{seconds / 3600:.1f} h"
        rows.append(("time of this command (cells it reused not counted)", took))
    return [
        "```",
        str(prov.get("command", "(command not recorded)")),
        "```",
        "",
        *_table(("provenance", ""), rows),
        "",
    ]


def _final_regret_lines(results: Mapping[str, Any]) -> list[str]:
    """Mean final regret per setting and variant, for results shaped
    ``{setting: {variant: {"final_mean", "final_se", "final"}}}``."""
    rows = []
    for setting, variants in results.items():
        if not isinstance(variants, Mapping):
            return []
        for variant, record in variants.items():
            if not (isinstance(record, Mapping) and "final_mean" in record):
                return []
            runs = len(record.get("final", ()))
            rows.append(
                (
                    str(setting),
                    str(variant),
                    f"{_num(record['final_mean'])} ± {_num(record.get('final_se', math.nan))}",
                    str(runs),
                )
            )
    if not rows:
        return []
    return [
        "Mean final regret (± standard error) per setting and variant:",
        "",
        *_table(("setting", "variant", "final regret", "runs"), rows),
        "",
    ]


def _summary_lines(summary: Mapping[str, Any]) -> list[str]:
    """Verdict tallies of a result whose statements are judged per setting
    (``{calibration: {statement: {"verdict_all_settings", "holds", "fails", ...}}}``)."""
    rows = []
    for group, record in summary.items():
        if not isinstance(record, Mapping):
            continue
        for statement, tally in record.items():
            if isinstance(tally, Mapping) and "verdict_all_settings" in tally:
                rows.append(
                    (
                        str(group),
                        str(statement),
                        f"**{tally['verdict_all_settings']}**",
                        f"{tally.get('holds', '?')} / {tally.get('fails', '?')} / "
                        f"{tally.get('needs_more_runs', '?')}",
                        _num(tally.get("family_confidence", math.nan)),
                    )
                )
    if not rows:
        return []
    return [
        *_table(
            (
                "group",
                "statement",
                "over all settings",
                "settings: holds / fails / needs more runs",
                "family confidence",
            ),
            rows,
        ),
        "",
    ]


def _experiment_section(path: Path, descriptions: Mapping[str, str], notes: Path) -> list[str]:
    document = _read(path)
    label = str(document.get("experiment", path.stem))
    description = descriptions.get(path.stem, "")
    title = f"{label} — `{path.name}`" if label != path.stem else f"`{path.name}`"
    lines = [f"### {title}", ""]
    if description:
        lines += [description, ""]
    lines += _provenance_lines(path)
    checks = document.get("checks") or []
    if checks:
        lines += [
            f"Statements checked ({_runs(document.get('config', {}))}):",
            "",
            *_table(
                ("statement", "verdict", "interval and evidence", "gated"),
                (
                    (
                        str(c["claim"]),
                        f"**{verdict_of(c)}**",
                        _evidence(c),
                        {True: "yes", False: "no"}.get(c.get("gate"), "–"),
                    )
                    for c in checks
                ),
            ),
            "",
        ]
    if isinstance(document.get("summary"), Mapping):
        lines += _summary_lines(document["summary"])
    if isinstance(document.get("results"), Mapping):
        lines += _final_regret_lines(document["results"])
    if not checks and "summary" not in document:
        lines += [
            "This result records no statement of its own: its statements are judged in the "
            "notes linked below.",
            "",
        ]
    figure = path.with_suffix(".png")
    if figure.exists():
        rel = figure.relative_to(notes).as_posix()
        lines += [f"![{label}](../notes/{rel})", ""]
    rel_json = path.relative_to(notes).as_posix()
    readme = path.parent / "README.md"
    links = [f"every number: [`{path.name}`](../notes/{rel_json})"]
    if readme.exists():
        links.append(f"what it shows: [notes](../notes/{readme.relative_to(notes).as_posix()})")
    text = "; ".join(links)
    lines += [text[0].upper() + text[1:] + ".", ""]
    return lines


def paper_page(paper: Any, notes: Path = NOTES) -> Page:
    """The results page of ``paper`` (an :class:`audit.papers.Paper`): every committed experiment
    at the paper's scale, then every committed reduced-scale one."""
    descriptions = {e.name: e.description for e in paper.experiments}
    lines = [
        f"# Results: {paper.label}",
        "",
        f"*{paper.title}.*  Every table on this page is generated from the committed JSON "
        "result it names; the verdicts are those the reproduction computed (holds, fails, or "
        "needs more runs, from 95% intervals).",
        "",
    ]
    sources: list[Path] = []
    scales = (
        ("paper_scale", "At the paper's scale"),
        ("reduced_scale", "At reduced scale (`nox -s reproduce`)"),
    )
    for folder, heading in scales:
        files = [p for p in sorted((notes / paper.id / folder).glob("*.json")) if _is_result(p)]
        lines += [f"## {heading}", ""]
        if not files:
            lines += [
                "No result is committed at this scale; "
                f"`privonline reproduce {paper.cli_name}` makes it.",
                "",
            ]
        for path in files:
            lines += _experiment_section(path, descriptions, notes)
            sources.append(path)
    return Page(f"results/{paper.id}.md", paper.label, "\n".join(lines), tuple(sources))


def _zoo_rows(document: Mapping[str, Any]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for case in document.get("cases", ()):
        codes = ", ".join(f"{k}: {v}" for k, v in sorted(case.get("exit_codes", {}).items()))
        if "power" in case:
            rate, ci = case["power"], case.get("power_ci95", (math.nan, math.nan))
        else:
            seeds = case.get("seeds") or sum(case.get("exit_codes", {}).values()) or 1
            rate, ci = case.get("as_expected", 0) / seeds, case.get("as_expected_ci95", (0, 1))
        alarms = case.get("false_alarms")
        if isinstance(alarms, Sequence) and len(alarms) == 3:
            false_alarms = f"{_num(alarms[0])} {_interval(alarms[1], alarms[2])}"
        elif alarms is None:
            false_alarms = "–"
        else:
            false_alarms = f"{_num(alarms)} of {case.get('seeds', '?')}"
        rows.append(
            (
                f"`{case['case']}`",
                str(case.get("expected", "?")),
                codes,
                f"{_num(rate)} {_interval(*ci)}",
                false_alarms,
                _num(case.get("median_epsilon_lower_bound")),
                _num(case.get("median_detectable_epsilon")),
            )
        )
    return rows


def _zoo_section(path: Path, notes: Path) -> list[str]:
    document = _read(path)
    command = document.get("command")
    commands = command if isinstance(command, list) else [command]
    commits = document.get("measured_at_commits") or [document.get("measured_at_commit", "?")]
    lines = [
        f"### `{path.name}`: {document.get('seeds', '?')} seeds per case",
        "",
        "```",
        *(str(c) for c in commands),
        "```",
        "",
        f"Measured at commit {', '.join(f'`{c}`' for c in commits)}; versions: "
        + ", ".join(f"{k} {v}" for k, v in document.get("versions", {}).items())
        + ".",
        "",
    ]
    if document.get("note"):
        lines += [str(document["note"]), ""]
    lines += [
        *_table(
            (
                "case",
                "expected",
                "exit codes",
                "as expected [95% CI]",
                "false alarms",
                "median ε_LB",
                "median detectable ε",
            ),
            _zoo_rows(document),
        ),
        "",
        "Exit codes: 0 pass, 1 privacy violation, 3 utility failure only, 4 crashed, "
        "5 inconclusive. *As expected*: exit 1 for a planted bug, exit 0 for a correct policy.",
        "",
    ]
    return lines


def _calibration_section(path: Path) -> list[str]:
    document = _read(path)
    has_provenance = path.with_name(path.stem + ".provenance.json").exists()
    rows = [
        (
            f"`{r['scenario']}`",
            str(r["kind"]),
            str(r["tester"]),
            str(r["claim"]),
            f"{r['rejections']} / {r['repeats']}",
            f"{_num(r['rate'])} {_interval(r['ci_low'], r['ci_high'])}",
            _num(r["nominal"]),
            str(r["reading"]),
        )
        for r in document.get("rows", ())
    ]
    return [
        f"### `{path.name}`: seed {document.get('seed')}, {document.get('date', '')}",
        "",
        *(
            _provenance_lines(path)
            if has_provenance
            else [
                "```",
                str(document.get("command", "python -m audit.benchmarks.calibration")),
                "```",
                "",
            ]
        ),
        *_table(
            (
                "scenario",
                "kind",
                "tester",
                "claim",
                "rejections",
                "rate [95% CP]",
                "nominal",
                "reading",
            ),
            rows,
        ),
        "",
    ]


def _benchmark_section(path: Path) -> list[str]:
    document = _read(path)
    rows = []
    for r in document.get("rows", ()):
        oracle, lower = r.get("oracle"), r.get("epsilon_lower_bound")
        if isinstance(oracle, str) or isinstance(lower, str):
            oracle, lower = None, None  # non-finite: no ratio
        ratio = (
            _num(lower / oracle)
            if isinstance(lower, int | float) and isinstance(oracle, int | float) and oracle > 0
            else "–"
        )
        rows.append(
            (
                f"`{r.get('name', '?')}`",
                "yes" if r.get("correct") else "no",
                _num(r.get("exact_epsilon")),
                _num(r.get("oracle")),
                _num(r.get("published_dp_sniper")),
                _num(r.get("epsilon_lower_bound")),
                ratio,
                str(r.get("outcome", "?")),
            )
        )
    has_provenance = path.with_name(path.stem + ".provenance.json").exists()
    return [
        f"### `{path.name}`: n = {_num(document.get('n_per_side'))} per side, "
        f"seed {document.get('seed')}",
        "",
        *(_provenance_lines(path) if has_provenance else []),
        "The oracle is the bound the best event of the pair's exact law would give at this "
        "sample size; DP-Sniper's is its published bound (with far more samples).",
        "",
        *_table(
            (
                "pair",
                "correct",
                "exact ε",
                "oracle",
                "DP-Sniper",
                "ε_LB",
                "ε_LB / oracle",
                "outcome",
            ),
            rows,
        ),
        "",
    ]


def _action_level_section(path: Path) -> list[str]:
    """The action-level ε of zoo policies (:mod:`audit.benchmarks.action_level`): per case and
    design, the event's counts on ``x`` and ``x'`` and the 95% lower bound."""
    document = _read(path)
    rows = []
    for case in document.get("cases", ()):
        for design, v in case.get("designs", {}).items():
            on_x, on_xp = counts_by_side(v)
            rows.append((f"`{case['case']}`", case.get("bug") or "correct", design,
                         on_x, on_xp, _num(v.get("epsilon_lower_bound"))))  # fmt: skip
    return [
        f"### `{path.name}`: {_num(document.get('runs'))} runs per stream, seed "
        f"{document.get('seed')}",
        "",
        *_provenance_lines(path),
        "What a policy's choices alone show on each design: the chosen event's counts on the "
        "evaluation half of the runs, and the 95% lower bound on ε against the case's claim.",
        "",
        *_table(("case", "bug", "design", "on x", "on x'", "ε_LB (95%)"), rows),
        "",
    ]


_AUDIT_RENDERERS: dict[str, Callable[[Path, Path], list[str]]] = {
    "action_level": lambda path, notes: _action_level_section(path),
    "policy_zoo": _zoo_section,
    "policy_zoo_actions_only": _zoo_section,
    "calibration": lambda path, notes: _calibration_section(path),
    "classic": lambda path, notes: _benchmark_section(path),
}


def _audit_kind(document: Mapping[str, Any]) -> str:
    return str(document.get("kind") or document.get("benchmark") or "")


def audit_page(notes: Path = NOTES) -> Page:
    """The page of the audit tooling's own measurements: the policy zoo's power, the testers'
    calibration (false alarms and power coverage) and the classic benchmark."""
    files = [
        p
        for folder in (notes / "audit", notes / "audit" / "results")
        for p in sorted(folder.glob("*.json"))
        if _is_result(p)
    ]
    lines = [
        "# Results: the audit tooling measured",
        "",
        "What `privonline check` and the audit methods catch and how often they cry wolf, "
        "measured on cases with known answers. Every table is generated from the committed JSON "
        "it names. Methods: [benchmark note](../notes/audit/benchmark.md), "
        "[calibration note](../notes/audit/calibration.md).",
        "",
    ]
    headings = {
        "policy_zoo": "## The policy zoo: `privonline check` on third-party policies",
        "calibration": "## Calibration: false-alarm rates and power coverage",
        "classic": "## The classic DP-auditing benchmark (black box vs DP-Sniper and the oracle)",
        "action_level": "## What a policy's choices alone show (action-level ε)",
    }
    kind_of = {p: _audit_kind(_read(p)) for p in files}
    sources: list[Path] = []
    for group, heading in headings.items():
        members = [p for p in files if kind_of[p].startswith(group)]
        lines += [heading, ""]
        if not members:
            lines += ["No measurement of this kind is committed yet.", ""]
        for path in members:
            lines += _AUDIT_RENDERERS[kind_of[path]](path, notes)
            sources.append(path)
    unknown = [p for p in files if p not in sources]
    if unknown:
        raise ValueError(
            f"committed results of no known kind (add a renderer): {[str(p) for p in unknown]}"
        )
    return Page("results/audit.md", "Audit tooling", "\n".join(lines), tuple(sources))


def _cff_field(text: str, key: str) -> str:
    for line in text.splitlines():
        if line.startswith(f"{key}:"):
            return line.split(":", 1)[1].strip().strip('"')
    return ""


def cite_page(root: Path = ROOT) -> Page:
    """How to cite privonline: built from ``CITATION.cff`` and the package version; every report
    names the version and revision that produced it."""
    from audit.results import package_versions

    cff = (root / "CITATION.cff").read_text(encoding="utf-8")
    version = _cff_field(cff, "version")
    released = _cff_field(cff, "date-released")
    installed = package_versions()["privonline"]
    lines = [
        "# How to cite privonline",
        "",
        f"Cite the version that produced your numbers. This site documents privonline "
        f"**{version}** (released {released}; the package installed where the site was built "
        f"reports {installed}).",
        "",
        "```bibtex",
        "@software{privonline,",
        "  title   = {privonline: verified reference implementations of differentially private"
        " online learning, with audit tooling},",
        "  author  = {{privonline developers}},",
        f"  version = {{{version}}},",
        f"  year    = {{{released[:4]}}},",
        "}",
        "```",
        "",
        "Cite the papers it implements as well (their references are in `CITATION.cff`):",
        "",
    ]
    titles = [
        line.split(":", 1)[1].strip()
        for line in cff.splitlines()
        if line.strip().startswith("title:") and line.startswith("    ")
    ]
    lines += [f"* *{t}*" for t in titles]
    lines += [
        "",
        "## Which version produced a number",
        "",
        "Every report privonline writes names the version and source revision that produced "
        "it: the JSON reports carry `produced_by: {privonline, revision}` beside "
        "`schema_version`, and the Markdown reports a line *Produced by privonline X at revision "
        "R* under their title (`-dirty` when the checkout had uncommitted changes). The "
        "reproductions also write `<experiment>.provenance.json`: the command, the full "
        "configuration with its seed, the package versions and the machine.",
        "",
        "The full `CITATION.cff`:",
        "",
        "```yaml",
        cff.rstrip(),
        "```",
        "",
    ]
    return Page("cite.md", "How to cite", "\n".join(lines), ())


def pages(notes: Path = NOTES, root: Path = ROOT) -> list[Page]:
    """Every generated page: one results page per registered paper, the audit tooling's page and
    the citing page."""
    from audit.papers import PAPERS

    return [
        *(paper_page(p, notes) for p in PAPERS),
        audit_page(notes),
        cite_page(root),
    ]
