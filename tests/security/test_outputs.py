"""Outputs never replace inputs, and a run's outputs appear all together or not at all
(docs/security.md, "What is written")."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from security_helpers import GAME, no_traceback, one_line, pdn

from pdn_tools.atomic import OLD_MARK, TEMP_MARK, OutputError, Outputs
from pdn_tools.export.split import file_stem


def _games(events: list[str]) -> str:
    return "\n".join(GAME.replace('[Event "x"]', f'[Event "{event}"]') for event in events)


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(GAME, encoding="utf-8")
    return path


def test_report_refuses_to_overwrite_its_input(game_file: Path) -> None:
    before = game_file.read_bytes()
    done = pdn("report", str(game_file), "-o", str(game_file), "--isolated")
    assert done.returncode == 2
    assert "is also an input" in one_line(done)
    assert game_file.read_bytes() == before


def test_show_refuses_to_draw_over_its_input(game_file: Path) -> None:
    before = game_file.read_bytes()
    done = pdn("show", str(game_file), "--svg", str(game_file), "--isolated")
    assert done.returncode == 2
    assert "is also an input" in one_line(done)
    assert game_file.read_bytes() == before


@pytest.mark.parametrize(
    ("command", "option", "name"),
    [
        ("report", "-o", "round2.pdn"),
        ("report", "-o", "games.json"),
        ("report", "-o", "board.svg"),
        ("show", "--svg", "round2.pdn"),
        ("show", "--svg", "page.html"),
        ("show", "--png", "board.gif"),
        ("show", "--gif", "games.parquet"),
    ],
)
def test_an_output_named_as_another_kind_of_file_is_refused(
    game_file: Path, command: str, option: str, name: str
) -> None:
    """A slip such as ``pdn report round1.pdn -o round2.pdn`` would replace an archive's
    game file with a page: the name's extension must fit what is written."""
    target = game_file.parent / name
    target.write_text(GAME, encoding="utf-8")
    before = target.read_bytes()
    done = pdn(command, str(game_file), option, str(target), "--isolated")
    assert done.returncode == 2
    line = one_line(done)
    assert f"{option} {target} names a" in line and "is written there" in line
    no_traceback(done)
    assert target.read_bytes() == before


@pytest.mark.parametrize(
    ("command", "option", "name"),
    [("report", "-o", "page.htm"), ("report", "-o", "page"), ("show", "--svg", "b.SVG")],
)
def test_an_output_named_for_what_is_written_or_without_an_ending_is_written(
    game_file: Path, command: str, option: str, name: str
) -> None:
    target = game_file.parent / name
    done = pdn(command, str(game_file), option, str(target), "--isolated")
    assert done.returncode in (0, 1), done.stderr
    assert target.read_bytes().lstrip()[:1] == b"<"


@pytest.mark.parametrize(
    ("command", "name", "args"),
    [
        ("report", "out.html", ("-o", "{link}")),
        ("show", "out.svg", ("--svg", "{link}")),
        ("show", "out.png", ("--png", "{link}")),
        ("convert", "out.jsonl", ("-o", "{link}")),
        ("convert", "out.jsonl", ("-o", "{link}", "--to", "jsonl")),
        ("convert", "moves.parquet", ("-o", "x.parquet", "--moves-table", "{link}")),
        ("analyse", "out.jsonl", ("-o", "{link}")),
    ],
)
def test_an_output_that_is_a_link_to_another_kind_of_file_is_refused(
    game_file: Path, command: str, name: str, args: tuple[str, ...]
) -> None:
    """An output that is a symbolic link is written to the file it leads to: a link
    named for what is written (``page.html -> round2.pdn``) must not let a page
    replace a game file.  The kind is that of the file the link leads to."""
    victim = game_file.parent / "round2.pdn"
    victim.write_text(GAME.replace('"x"', '"round 2"'), encoding="utf-8")
    before = victim.read_bytes()
    link = game_file.parent / name
    link.symlink_to("round2.pdn")
    given = [arg.replace("{link}", str(link)) for arg in args]
    done = pdn(command, str(game_file), *given, "--isolated", cwd=game_file.parent)
    no_traceback(done)
    assert done.returncode == 2, done.stderr
    line = one_line(done)
    assert str(link) in line and "round2.pdn" in line and "symbolic link" in line
    assert victim.read_bytes() == before and link.is_symlink()
    assert not (game_file.parent / "x.parquet").exists()
    # A link that leads to a file named for what is written is followed, as before.
    link.unlink()
    link.symlink_to(f"target{link.suffix}")
    written = pdn(command, str(game_file), *given, "--isolated", cwd=game_file.parent)
    assert written.returncode in (0, 1), written.stderr
    assert (game_file.parent / f"target{link.suffix}").stat().st_size > 0


def test_a_split_file_is_not_the_file_standard_input_comes_from(tmp_path: Path) -> None:
    out = tmp_path / "by-event"
    out.mkdir()
    alpha = out / "alpha.pdn"
    alpha.write_text(_games(["Alpha", "Beta"]), encoding="utf-8")
    before = alpha.read_bytes()
    with open(alpha, "rb") as stdin:
        done = subprocess.run(
            ["python3", "-m", "pdn_tools", "convert", "-", "-o", str(out), "--split-by", "event"],
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 2, done.stderr
    assert "is the file standard input is redirected from" in done.stderr
    assert alpha.read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["alpha.pdn"]


def test_hostile_group_names_fit_the_file_system(tmp_path: Path) -> None:
    long_event = "\U00020000" * 80
    source = tmp_path / "in.pdn"
    source.write_text(_games([long_event, "Normal", "x" * 300]), encoding="utf-8")
    out = tmp_path / "split"
    done = pdn("convert", str(source), "-o", str(out), "--split-by", "event", "--isolated")
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in out.iterdir())
    assert len(names) == 3
    assert all(len(os.fsencode(name)) <= 130 for name in names)
    assert f"{file_stem(long_event)}.pdn" in names


def test_a_failed_rename_puts_back_what_was_replaced(tmp_path: Path) -> None:
    """Three outputs; the third cannot be renamed into place (a directory is there).
    The first two had already replaced their files: they are put back."""
    first, second, third = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    first.write_text("old a", encoding="utf-8")
    outputs = Outputs()
    outputs.text(str(first)).write("new a")
    outputs.text(str(second)).write("new b")
    outputs.text(str(third)).write("new c")
    third.mkdir()  # appears after the temporaries were opened
    (third / "keep").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError):
        outputs.commit()
    assert first.read_text(encoding="utf-8") == "old a"
    assert not second.exists()
    assert (third / "keep").exists()
    leftovers = [p.name for p in tmp_path.iterdir() if TEMP_MARK in p.name or OLD_MARK in p.name]
    assert leftovers == []


def test_a_name_too_long_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    long_name = tmp_path / ("x" * 300 + ".pdn")
    outputs = Outputs()
    with pytest.raises(OutputError, match="File name too long"):
        outputs.text(str(long_name))
    outputs.discard()
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_under_a_dataset_leaves_nothing_and_names_it(
    tiny_disk: Path, tmp_path: Path
) -> None:
    source = tmp_path / "many.pdn"
    variants = ["20", "21", "22", "25", "26"]
    games = [GAME.replace("[Event", f'[GameType "{variants[n % 5]}"]\n[Event') for n in range(4000)]
    source.write_text("\n".join(games), encoding="utf-8")
    done = pdn(
        "convert", str(source), "-o", "ds", "--partition-by", "variant", "--isolated", cwd=tiny_disk
    )
    assert done.returncode == 2
    assert one_line(done) == "pdn convert: ds: No space left on device"
    assert list(tiny_disk.iterdir()) == []


def test_a_binary_file_fails_convert_as_it_fails_validate(tmp_path: Path) -> None:
    photo = tmp_path / "photo.pdn"
    photo.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01" + bytes(range(256)) * 20)
    converted = pdn("convert", str(photo), "-o", str(tmp_path / "x.jsonl"), "--isolated")
    validated = pdn("validate", str(photo), "--isolated")
    assert converted.returncode == validated.returncode == 1
    assert "E12" in converted.stderr
