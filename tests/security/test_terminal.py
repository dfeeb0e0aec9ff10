"""What the input writes never reaches a terminal raw: escape sequences in tag values,
file names, zip member names and source lines are shown escaped (docs/security.md,
"What is shown")."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from security_helpers import no_raw_controls, no_traceback, pdn

from pdn_tools.atomic import shown, shown_context

OSC_TITLE = "\x1b]0;PWNED\x07"
HOSTILE = (
    f'[Event "e{OSC_TITLE}"]\n[White "A\x1b[2J\x9b31m"]\n[Black "\u202eevil"]\n'
    "1. 32-28 19-23 2. 37-32 \x1b[8mhidden *\n"
)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """A folder with a hostile game in a file whose name holds an escape, and a zip
    archive whose member name holds one."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "title\x1b]0;x\x07.pdn").write_text(HOSTILE, encoding="utf-8")
    with zipfile.ZipFile(folder / "set.zip", "w") as handle:
        handle.writestr("round\x1b[31m1.pdn", HOSTILE)
    return folder


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "--format", "text", "--info"],
        ["validate", "--format", "github", "--info"],
        ["stats"],
        ["duplicates"],
        ["convert", "--to", "pdn", "-o", "/dev/null"],
    ],
)
def test_no_escape_sequence_reaches_the_terminal(hostile: Path, args: list[str]) -> None:
    command, *rest = args
    colour = [] if command == "convert" else ["--color", "always"]
    done = pdn(command, str(hostile), *rest, "--isolated", *colour)
    no_traceback(done)
    for stream in (done.stdout, done.stderr):
        # our own colours are the only escape sequences: take them out, then look
        plain = stream
        for colour in ("\x1b[1m", "\x1b[0m", "\x1b[1;31m", "\x1b[1;33m", "\x1b[1;36m"):
            plain = plain.replace(colour, "")
        no_raw_controls(plain)
    if command != "convert":  # convert names no file when all went well
        assert "\\x1b" in done.stdout + done.stderr


def test_show_escapes_tag_values(hostile: Path) -> None:
    done = pdn("show", str(hostile / "title\x1b]0;x\x07.pdn"), "--isolated")
    no_traceback(done)
    no_raw_controls(done.stdout + done.stderr)
    assert "A\\x1b[2J\\x9b31m - \\u202eevil" in done.stdout


def test_show_escapes_a_zip_member_name(hostile: Path) -> None:
    done = pdn("show", f"{hostile / 'set.zip'}:round\x1b[31m1.pdn", "--isolated")
    no_traceback(done)
    no_raw_controls(done.stdout + done.stderr)
    assert "round\\x1b[31m1.pdn" in done.stdout


def test_the_caret_stays_under_the_character_after_escaping() -> None:
    context = "1. 32-28 \x1b[8m zz\n              ^"
    escaped = shown_context(context)
    source, caret = escaped.split("\n")
    assert source == "1. 32-28 \\x1b[8m zz"
    assert source[len(caret) - 1] == "z"
    assert shown("tab\tstays") == "tab\tstays"
    assert shown("line\nbreak\r") == "line\\x0abreak\\x0d"


def test_github_annotations_cannot_inject_commands(tmp_path: Path) -> None:
    path = tmp_path / "inject.pdn"
    path.write_text('[Event "x"]\n1. 32-28 19-23 2. %0A::set-env name=X::1 *\n', encoding="utf-8")
    done = pdn("validate", str(path), "--format", "github", "--isolated")
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    assert "%250A" in done.stdout  # the input's % is escaped, so it stays text
