"""``pdn validate --format …``: every format end to end, machine formats parsed."""

from __future__ import annotations

import gzip
import json
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from cli_helpers import MIXED, run
from conftest import SAMPLES

from pdn_tools.diagnostics import CATALOGUE
from pdn_tools.report.github import escape_data, escape_property
from pdn_tools.report.sarif import docs_uri, rule


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    path = tmp_path / "mixed.pdn"
    path.write_text(MIXED, encoding="utf-8")
    return path


def test_text_lines_and_summary(mixed: Path) -> None:
    done = run("validate", str(mixed))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert f"{mixed}:5:4: warning W10 whitespace inside move '32- 28'" in lines[0]
    assert lines[0].endswith("[game 1, ply 1]")
    e05 = next(line for line in lines if " E05 " in line)
    assert e05.startswith(f"{mixed}:9:19: error E05 ") and e05.endswith("[game 2, ply 3]")
    # The summary, then the codes by severity, errors first.
    assert done.stderr.splitlines() == [
        "1 file(s), 2 game(s): 1 error(s), 1 warning(s), 1 info; 1 game(s) with errors",
        "  errors:   E05 1",
        "  warnings: W10 1",
        "  info:     W27 1",
    ]


def test_json_document(mixed: Path) -> None:
    done = run("validate", str(mixed), "--format", "json")
    assert done.returncode == 1
    doc = json.loads(done.stdout)
    assert doc["tool"]["name"] == "pdn-tools"
    assert [g["game"] for g in doc["games"]] == [1, 2]
    assert doc["games"][1]["status"] == "error"
    summary = doc["summary"]
    assert summary["files"] == 1 and summary["games"] == 2
    assert summary["games_with_errors"] == 1 and summary["failed_games"] == 1
    assert summary["errors"] == sum(
        1 for g in doc["games"] for i in g["issues"] if i["severity"] == "error"
    )
    assert done.stderr == ""  # machine formats: no summary line


def test_jsonl_equals_json_games(mixed: Path) -> None:
    lines = run("validate", str(mixed), "--format", "jsonl").stdout.splitlines()
    doc = json.loads(run("validate", str(mixed), "--format", "json").stdout)
    assert [json.loads(line) for line in lines] == doc["games"]


def test_github_annotations(mixed: Path) -> None:
    done = run("validate", str(mixed), "--format", "github")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"::warning file={mixed},line=5,col=4,title=W10::")
    error = next(line for line in lines if line.startswith("::error "))
    assert f"file={mixed},line=9,col=19,title=E05::" in error
    assert error.endswith("[game 2, ply 3]")
    # Info findings (W27: no GameType) only with --info, as notices.
    assert not any(line.startswith("::notice") for line in lines)
    with_info = run("validate", str(mixed), "--format", "github", "--info").stdout
    assert "::notice file=" in with_info and "title=W27::" in with_info


def test_github_escaping() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_github_escapes_file_names(tmp_path: Path) -> None:
    path = tmp_path / "round 1, A:B.pdn"
    path.write_text('[Event "x"]\n1. 32- 28 *\n', encoding="utf-8")
    line = run("validate", str(path), "--format", "github").stdout.splitlines()[0]
    assert "round 1%2C A%3AB.pdn,line=2" in line
    # The command has exactly the four properties, then the message.
    props = line.split(" ", 1)[1].split("::", 1)[0]
    assert [p.split("=")[0] for p in props.split(",")] == ["file", "line", "col", "title"]


def test_sarif_rule_links_to_a_published_base_only() -> None:
    entry = CATALOGUE["E11"]
    linked = rule(entry, "https://example.org/docs/diagnostics.md")
    assert linked["helpUri"] == "https://example.org/docs/diagnostics.md#limits-e11"
    assert "helpUri" not in rule(entry, None)


def test_sarif_log(mixed: Path) -> None:
    done = run("validate", mixed.name, "--format", "sarif", cwd=mixed.parent)
    assert done.returncode == 1
    log = json.loads(done.stdout)
    assert log["version"] == "2.1.0" and "sarif" in log["$schema"]
    (run_,) = log["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "pdn-tools" and driver["version"]
    rules = driver["rules"]
    assert [r["id"] for r in rules] == list(CATALOGUE)
    for r in rules:
        entry = CATALOGUE[r["id"]]
        assert r["shortDescription"]["text"] == entry.title
        assert r["fullDescription"]["text"] == entry.description
        assert r["help"]["text"].startswith(f"{entry.code} {entry.title}: ")
        # No invented address: a link only when the package names where docs live.
        base = docs_uri()
        if base is None:
            assert "helpUri" not in r and "informationUri" not in driver
        else:
            assert r["helpUri"].startswith(base + "#")
        assert r["defaultConfiguration"]["level"] in {"error", "warning", "note"}
        assert r["name"].isalnum()
    results = run_["results"]
    assert results, "the mixed file has findings"
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in {"error", "warning", "note"}
        assert result["message"]["text"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == "mixed.pdn"
        assert physical["region"]["startLine"] >= 1 and physical["region"]["startColumn"] >= 1
    e05 = next(r for r in results if r["ruleId"] == "E05")
    assert e05["level"] == "error"
    assert e05["locations"][0]["physicalLocation"]["region"] == {"startLine": 9, "startColumn": 19}
    assert e05["properties"] == {"game": 2, "ply": 3, "move": "28-23"}
    # Info findings are results too, as notes.
    assert any(r["ruleId"] == "W27" and r["level"] == "note" for r in results)


def test_sarif_uri_outside_working_directory(mixed: Path) -> None:
    log = json.loads(run("validate", str(mixed), "--format", "sarif").stdout)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri["uri"] == mixed.as_uri()


#: One game whose illegal fourth ply (E05) has a repair (18-22 meant for 18-23).
REPAIRED = '[Event "e"]\n[GameType "20"]\n1. 32-28 18-23 2. 28-23 *\n'


def test_a_zip_member_is_placed_on_its_archive(tmp_path: Path) -> None:
    """``c/arc.zip:sub/in.pdn`` is no file of the repository: SARIF and GitHub place
    its findings on the archive, name the member and the place in it in the message,
    and offer no text edit of the archive (fixes)."""
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "plain.pdn").write_text(REPAIRED, encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "c" / "arc.zip", "w") as archive:
        archive.writestr("sub/in.pdn", REPAIRED)
    done = run("validate", "c", "--format", "sarif", "--isolated", cwd=tmp_path)
    log = json.loads(done.stdout)
    sarif_kit = pytest.importorskip("sarif_kit.validate", reason="sarif-kit (test extras)")
    assert sarif_kit.validation_errors(log) == []
    member, plain = (r for r in log["runs"][0]["results"] if r["ruleId"] == "E05")
    assert member["locations"] == [{"physicalLocation": {"artifactLocation": {"uri": "c/arc.zip"}}}]
    assert member["message"]["text"].startswith("sub/in.pdn:3:19: 23 is occupied")
    assert member["properties"]["member"] == {"name": "sub/in.pdn", "line": 3, "column": 19}
    assert "fixes" not in member
    physical = plain["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"]["uri"] == "c/plain.pdn"
    assert physical["region"] == {"startLine": 3, "startColumn": 19} and plain["fixes"]
    github = run("validate", "c", "--format", "github", "--isolated", cwd=tmp_path)
    lines = github.stdout.splitlines()
    assert lines[0].startswith("::error file=c/arc.zip,title=E05::sub/in.pdn:3:19: 23 is")
    assert lines[1].startswith("::error file=c/plain.pdn,line=3,col=19,title=E05::23 is")


def test_sarif_fixes_only_for_text_they_apply_to(tmp_path: Path) -> None:
    """A fix edits a file's text by line and column: a compressed file, or one in
    cp1252 or UTF-16, would be corrupted by it, so its finding comes without fixes
    (and stays); a UTF-8 file gets them."""
    named = REPAIRED.replace('"e"', '"Café"')
    (tmp_path / "utf8.pdn").write_text(named, encoding="utf-8")
    (tmp_path / "cp1252.pdn").write_text(named, encoding="cp1252")
    (tmp_path / "utf16.pdn").write_text(named, encoding="utf-16")
    (tmp_path / "packed.pdn.gz").write_bytes(gzip.compress(named.encode()))
    done = run("validate", ".", "--format", "sarif", "--isolated", cwd=tmp_path)
    results = [r for r in json.loads(done.stdout)["runs"][0]["results"] if r["ruleId"] == "E05"]
    where = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r for r in results}
    assert set(where) == {"utf8.pdn", "cp1252.pdn", "utf16.pdn", "packed.pdn.gz"}
    assert where["utf8.pdn"]["fixes"]
    for name in ("cp1252.pdn", "utf16.pdn", "packed.pdn.gz"):
        assert "fixes" not in where[name], name
        assert "meant 18-22" in where[name]["message"]["text"]  # the finding stays


def test_junit_xml(mixed: Path, tmp_path: Path) -> None:
    (tmp_path / "empty.pdn").write_bytes(b"")
    done = run("validate", str(tmp_path), "--format", "junit")
    assert done.returncode == 1
    root = ET.fromstring(done.stdout)
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [Path(s.get("name", "")).name for s in suites] == ["empty.pdn", "mixed.pdn"]
    empty, mixed_suite = suites
    assert [c.get("name") for c in empty.findall("testcase")] == ["file"]
    cases = mixed_suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["game 1", "game 2"]
    assert mixed_suite.get("tests") == "2" and mixed_suite.get("failures") == "1"
    assert root.get("tests") == "3" and root.get("failures") == "1"
    assert cases[0].find("failure") is None
    failure = cases[1].find("failure")
    assert failure is not None and failure.get("type") == "E05"
    assert "23 is occupied" in (failure.get("message") or "")
    assert ":9:19: error E05" in (failure.text or "")
    # With --fail-on warning the W10 game fails too.
    strict = ET.fromstring(
        run("validate", str(mixed), "--format", "junit", "--fail-on", "warning").stdout
    )
    assert strict.get("failures") == "2"


def test_junit_survives_control_characters(tmp_path: Path) -> None:
    path = tmp_path / "ctl.pdn"
    path.write_bytes(b'[Event "a\x01b"]\n1. 32-28 Zz\x02 *\n')
    done = run("validate", str(path), "--format", "junit")
    ET.fromstring(done.stdout)  # well-formed despite the control characters


def test_select_and_ignore(mixed: Path) -> None:
    only_errors = run("validate", str(mixed), "--format", "jsonl", "--select", "E")
    codes = {
        i["code"] for line in only_errors.stdout.splitlines() for i in json.loads(line)["issues"]
    }
    assert codes and all(code.startswith("E") for code in codes)
    no_e05 = run("validate", str(mixed), "--ignore", "E05,W27", "--format", "jsonl")
    records = [json.loads(line) for line in no_e05.stdout.splitlines()]
    assert all(i["code"] not in {"E05", "W27"} for r in records for i in r["issues"])
    assert records[1]["status"] != "error"
    assert no_e05.returncode == 0  # ignored findings do not fail the run
    specific = run("validate", str(mixed), "--ignore", "W", "--select", "W10", "--format", "jsonl")
    kept = {i["code"] for line in specific.stdout.splitlines() for i in json.loads(line)["issues"]}
    assert "W10" in kept and not any(c.startswith("W") and c != "W10" for c in kept)
    repeated = run("validate", str(mixed), "--select", "w10", "--select", "E0", "--format", "jsonl")
    kept = {i["code"] for line in repeated.stdout.splitlines() for i in json.loads(line)["issues"]}
    assert kept == {"W10", "E05"}


def test_fail_on_and_exit_zero(tmp_path: Path) -> None:
    warn = tmp_path / "warn.pdn"
    warn.write_text('[Event "a"]\n[GameType "20"]\n1. 32- 28 *\n', encoding="utf-8")
    assert run("validate", str(warn)).returncode == 0
    assert run("validate", str(warn), "--fail-on", "warning").returncode == 1
    assert run("validate", str(warn), "--fail-on", "warning", "--exit-zero").returncode == 0
    assert run("validate", str(SAMPLES), "--exit-zero").returncode == 0
    assert run("validate", "missing.pdn", "--exit-zero").returncode == 2


def test_quiet_drops_the_summary(mixed: Path) -> None:
    done = run("validate", str(mixed), "--quiet")
    assert done.returncode == 1
    assert done.stderr == ""
    assert " E05 " in done.stdout


def test_every_format_on_the_sample_corpus() -> None:
    for fmt in ("text", "jsonl", "json", "github", "sarif", "junit"):
        done = run("validate", str(SAMPLES), "--format", fmt, "--jobs", "1")
        assert done.returncode == 1, fmt
        assert "Traceback" not in done.stderr
        if fmt in ("json", "sarif"):
            json.loads(done.stdout)
        elif fmt == "junit":
            files = sum(1 for f in SAMPLES.rglob("*") if f.suffix.lower() == ".pdn")
            assert len(ET.fromstring(done.stdout).findall("testsuite")) == files > 0
        elif fmt == "jsonl":
            assert all(json.loads(line) for line in done.stdout.splitlines())


def test_installed_script_runs_every_command(tmp_path: Path) -> None:
    """The ``pdn`` console script (pointed at this checkout) for each command and format."""
    import os
    import shutil
    import subprocess

    from conftest import REPO

    pdn = shutil.which("pdn")
    if pdn is None:
        pytest.skip("the pdn console script is not installed in this environment")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    game = tmp_path / "g.pdn"
    game.write_text(MIXED, encoding="utf-8")

    def call(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [pdn, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )

    for fmt in ("text", "jsonl", "json", "github", "sarif", "junit"):
        done = call("validate", "g.pdn", "--format", fmt)
        assert done.returncode == 1 and "E05" in done.stdout, (fmt, done.stderr)
    assert call("validate", "g.pdn", "--format", "json").stdout.startswith('{"tool"')
    assert "ply 3 of 3" in call("show", "g.pdn", "--game", "2").stdout
    assert json.loads(call("stats", "g.pdn", "--format", "json").stdout)["total"]["games"] == 2
    assert call("moves", "W:W31-50:B1-20").stdout.count("\n") == 9
    assert call("perft", "2").stdout.strip() == "81"
    assert call("--version").stdout.startswith("pdn-tools ")
