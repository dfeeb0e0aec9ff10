"""SARIF 2.1.0: the static-analysis interchange format read by code-scanning tools.

One run of the ``pdn-tools`` driver.  Its rules are the whole diagnostic catalogue,
in catalogue order, so rule ids (the codes) and rule indexes are stable from run to
run; each rule carries the code's title, description and help text, and a link to
its documentation when the installed package names where that is published.  Each
reported finding is a result located by file, line and column (columns count
Unicode code points, as the reader does).  A finding that carries a repair (the
mis-recorded move and the move meant) has it as ``fixes``: one fix per edit of the
best rank (several when they tie), each replacing, inserting or deleting moves in the
file so that its move numbers still fit the moves; only in a file whose text on disk
those edits apply to (UTF-8, not compressed, not a zip member).
The log is written as it goes, one result per line.
"""

from __future__ import annotations

import json
import os
import re
from importlib.metadata import PackageNotFoundError, metadata
from pathlib import Path, PurePath
from typing import Any, TextIO
from urllib.parse import quote

from pdn_tools.diagnostics import CATALOGUE, Code, EventFinding, GameRef, Issue, Severity
from pdn_tools.replay.slips import SLIPS
from pdn_tools.report.base import GameReport, Totals
from pdn_tools.report.locations import disk_name, editable_text, member_place, zip_member
from pdn_tools.report.text import event_where, where
from pdn_tools.version import __version__

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def docs_uri() -> str | None:
    """Where docs/diagnostics.md is published, or None when the package names no place.

    Read from the installed distribution's ``Documentation`` project URL (the
    ``[project.urls]`` table of pyproject.toml), so a report never links to an
    address nobody published; without one, rules carry their help as text only.
    """
    try:
        urls = metadata("pdn-tools").get_all("Project-URL") or []
    except PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "documentation" and url.strip():
            return str(url).strip().rstrip("/") + "/diagnostics.md"
    return None


LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_INDEX = {code: n for n, code in enumerate(CATALOGUE)}


def rule_name(title: str) -> str:
    """A code's title as an identifier: ``Game not terminated`` → ``GameNotTerminated``."""
    return "".join(word[:1].upper() + word[1:] for word in re.findall(r"[A-Za-z0-9]+", title))


def help_uri(code: str, base: str) -> str:
    """The documentation of *code* under *base*: its section, or the catalogue table."""
    anchors = {"E11": "limits-e11", "W35": "file-level-findings"}
    return f"{base}#{anchors.get(code, 'diagnostic-codes')}"


def rule(entry: Code, base: str | None = None) -> dict[str, Any]:
    """The reportingDescriptor of one catalogue entry (``helpUri`` only with a *base*)."""
    out: dict[str, Any] = {
        "id": entry.code,
        "name": rule_name(entry.title),
        "shortDescription": {"text": entry.title},
        "fullDescription": {"text": entry.description},
        "help": {"text": f"{entry.code} {entry.title}: {entry.description}"},
        "defaultConfiguration": {"level": LEVELS[entry.severity]},
    }
    if base is not None:
        out["helpUri"] = help_uri(entry.code, base)
    return out


def artifact_uri(name: str) -> str:
    """A file name as a SARIF URI: relative to the working directory when inside it.

    The name is that of the file on disk (:func:`pdn_tools.report.locations.disk_name`:
    a control character or a byte that reports show as ``\\xNN`` is the character or
    byte itself), percent-encoded byte for byte (``%01``, ``%E9``), so that the URI
    names the file.
    """
    path = Path(disk_name(name))
    if path.is_absolute():
        try:
            path = path.relative_to(Path.cwd())
        except ValueError:
            return "file://" + _quote(path.as_posix())
    return _quote(PurePath(os.path.normpath(path)).as_posix())


def _quote(path: str) -> str:
    return quote(os.fsencode(path), safe="/")


def _region(line: int, column: int, text: str) -> dict[str, int]:
    """The region *text* covers from (*line*, *column*) (empty: an insertion point)."""
    end_line, end_column = line, column + len(text)
    if "\n" in text:
        end_line = line + text.count("\n")
        end_column = len(text) - text.rfind("\n")
    return {
        "startLine": max(1, line),
        "startColumn": max(1, column),
        "endLine": max(1, end_line),
        "endColumn": max(1, end_column),
    }


def _replacement(place: dict[str, Any]) -> dict[str, Any] | None:
    """The replacement of one move of a repair: the written move replaced by the move
    meant, the move meant inserted at the place the repair object gives (an omitted
    move: before the number of the move written after it when that number is not its
    own), or the written move deleted (with its move number, from ``strike_from``,
    when the number would else stand before the wrong move)."""
    written, move = place.get("written"), place.get("move")
    line, column = int(place["line"]), int(place["column"])
    if written is None:
        if move is None:
            return None
        return {"deletedRegion": _region(line, column, ""), "insertedContent": {"text": f"{move} "}}
    if any(c.isspace() for c in str(written)):
        return None  # a capture written jump by jump: its parts need not be adjacent
    region = _region(line, column, str(written))
    start = place.get("strike_from")
    if move is None and start is not None:
        # the move number before the move goes too: from the number to the move's end
        region["startLine"], region["startColumn"] = int(start["line"]), int(start["column"])
    out: dict[str, Any] = {"deletedRegion": region}
    if move is not None:
        out["insertedContent"] = {"text": str(move)}
    return out


def _fix(edit: dict[str, Any], uri: str) -> dict[str, Any] | None:
    """The SARIF fix of one edit of a repair object."""
    places = [edit] + ([edit["also"]] if "also" in edit else [])
    replacements = [_replacement(place) for place in places]
    if any(r is None for r in replacements):
        return None
    label = SLIPS[str(edit["kind"])].label
    written, move = edit.get("written"), edit.get("move")
    if written is None:
        what = f"insert {move} at ply {edit['ply']}"
    elif move is None:
        what = f"strike out {written} at ply {edit['ply']}"
    elif "also" in edit:
        what = f"exchange {written} (ply {edit['ply']}) and {edit['also']['written']}"
    else:
        what = f"write {move} for {written} at ply {edit['ply']}"
    return {
        "description": {"text": f"{what[:1].upper()}{what[1:]} ({label})"},
        "artifactChanges": [{"artifactLocation": {"uri": uri}, "replacements": replacements}],
    }


def fixes(repair: dict[str, Any], uri: str) -> list[dict[str, Any]]:
    """The fixes of a finding's repair object: its best edit and those tied with it."""
    out = []
    for edit in [repair, *repair.get("tied", [])]:
        fix = _fix(edit, uri)
        if fix is not None:
            out.append(fix)
    return out


def _physical(file: str, line: int, column: int) -> tuple[dict[str, Any], str | None]:
    """The physical location of (*line*, *column*) of the file reports name *file*,
    and the member of a zip archive it lies in (None for a file of its own): a member
    is no file of the repository, so the location is the archive as a whole, and the
    member and the place in it are named in the message and the properties."""
    inside = zip_member(file)
    if inside is not None:
        archive, member = inside
        return {"artifactLocation": {"uri": artifact_uri(archive)}}, member
    region = {"startLine": max(1, line), "startColumn": max(1, column)}
    return {"artifactLocation": {"uri": artifact_uri(file)}, "region": region}, None


def result(game: GameReport, issue: Issue, editable: bool = True) -> dict[str, Any]:
    """The SARIF result of one finding; its repair becomes ``fixes`` only when the
    file is *editable* (:func:`pdn_tools.report.locations.editable_text`)."""
    properties: dict[str, Any] = {"game": game.game}
    if issue.ply is not None:
        properties["ply"] = issue.ply
    if issue.move is not None:
        properties["move"] = issue.move
    physical, member = _physical(game.file, issue.line, issue.column)
    text = f"{issue.message} [{where(game.game, issue)}]"
    if member is not None:
        properties["member"] = {"name": member, "line": issue.line, "column": issue.column}
        text = f"{member_place(member, issue.line, issue.column)}: {text}"
    out: dict[str, Any] = {
        "ruleId": issue.code,
        "ruleIndex": _INDEX[issue.code],
        "level": LEVELS[issue.level],
        "message": {"text": text},
        "locations": [{"physicalLocation": physical}],
        "properties": properties,
    }
    if issue.repair is not None and member is None and editable:
        proposed = fixes(issue.repair, physical["artifactLocation"]["uri"])
        if proposed:
            out["fixes"] = proposed
    return out


def _location(game: GameRef) -> dict[str, Any]:
    physical, member = _physical(game.file, game.line, 1)
    out: dict[str, Any] = {"physicalLocation": physical}
    if member is not None:
        out["message"] = {"text": f"{member_place(member, game.line)}: game {game.game}"}
    return out


def event_result(finding: EventFinding) -> dict[str, Any]:
    """The SARIF result of one event finding: located at its first game, the other
    games as related locations, the event in the properties."""
    properties: dict[str, Any] = {
        "event": finding.event,
        "site": finding.site,
        "year": finding.year,
        "round": finding.round,
        "games": [game.to_dict() for game in finding.games],
    }
    out: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": _INDEX[finding.code],
        "level": LEVELS[finding.level],
        "message": {"text": f"{finding.message} [{event_where(finding)}]"},
        "locations": [_location(game) for game in finding.games[:1]],
        "properties": properties,
    }
    if len(finding.games) > 1:
        out["relatedLocations"] = [
            {"id": n, **_location(game)} for n, game in enumerate(finding.games[1:], 1)
        ]
    return out


class SarifReporter:
    """Writes one SARIF log with a single run."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.first = True
        self.editable: dict[str, bool] = {}
        """Whether fixes can be applied to each file (:meth:`_editable`)."""
        base = docs_uri()
        driver: dict[str, Any] = {
            "name": "pdn-tools",
            "version": __version__,
            "semanticVersion": __version__,
            "rules": [rule(entry, base) for entry in CATALOGUE.values()],
        }
        if base is not None:
            driver["informationUri"] = base
        head = {"$schema": SCHEMA, "version": "2.1.0"}
        self.out.write(json.dumps(head)[:-1] + ', "runs": [{\n')
        self.out.write(f' "tool": {{"driver": {json.dumps(driver, ensure_ascii=False)}}},\n')
        self.out.write(' "columnKind": "unicodeCodePoints",\n "results": [')

    def _editable(self, file: str) -> bool:
        """Whether a fix can be applied to the text of *file* (asked once a file, and
        only for a finding with a repair)."""
        known = self.editable.get(file)
        if known is None:
            known = self.editable[file] = editable_text(file)
        return known

    def add(self, game: GameReport) -> None:
        """Write a result per reported finding of the game."""
        for issue in game.issues:
            editable = issue.repair is not None and self._editable(game.file)
            text = json.dumps(result(game, issue, editable), ensure_ascii=False)
            self.out.write(("\n  " if self.first else ",\n  ") + text)
            self.first = False

    def add_event(self, finding: EventFinding) -> None:
        """Write the result of one event finding."""
        text = json.dumps(event_result(finding), ensure_ascii=False)
        self.out.write(("\n  " if self.first else ",\n  ") + text)
        self.first = False

    def close(self, totals: Totals) -> None:
        """Close the results, the run and the log."""
        self.out.write("\n ]\n}]}\n")
