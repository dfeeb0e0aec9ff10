"""Outputs that appear only when complete (pdn_tools.atomic), on real files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.atomic import OLD_MARK, TEMP_MARK, OutputError, Outputs, printable


def _names(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_commit_puts_the_content_in_place_and_leaves_no_temporary(tmp_path: Path) -> None:
    out = tmp_path / "games.pdn"
    out.write_text("old\n", encoding="utf-8")
    with Outputs() as outputs:
        stream = outputs.text(str(out))
        stream.write("new ")
        temps = [n for n in _names(tmp_path) if TEMP_MARK in n]
        assert temps and all(n.startswith(".games.pdn" + TEMP_MARK) for n in temps)
        assert out.read_text(encoding="utf-8") == "old\n"  # not yet
        stream.write("games\n")
    assert out.read_text(encoding="utf-8") == "new games\n"
    assert _names(tmp_path) == {"games.pdn"}


@pytest.mark.parametrize("error", [ValueError("bad input"), KeyboardInterrupt()])
def test_a_failed_run_leaves_the_previous_file_untouched(
    tmp_path: Path, error: BaseException
) -> None:
    out = tmp_path / "games.json"
    out.write_bytes(b"[previous]\n")
    with pytest.raises(type(error)), Outputs() as outputs:
        outputs.text(str(out)).write("x" * 200_000)  # past the buffer: bytes on disk
        raise error
    assert out.read_bytes() == b"[previous]\n"
    assert _names(tmp_path) == {"games.json"}


@given(
    chunks=st.lists(st.binary(max_size=70_000), max_size=6),
    fail=st.booleans(),
)
@settings(max_examples=25, deadline=None)
def test_outputs_are_all_or_nothing(
    tmp_path_factory: pytest.TempPathFactory, chunks: list[bytes], fail: bool
) -> None:
    """Whatever is written, the final file is either the previous one or exactly the
    new content, and no temporary is left behind."""
    folder = tmp_path_factory.mktemp("out")
    out = folder / "t.parquet"
    out.write_bytes(b"previous")
    try:
        with Outputs() as outputs:
            stream = outputs.binary(str(out))
            for chunk in chunks:
                stream.write(chunk)
            if fail:
                raise RuntimeError("stop")
    except RuntimeError:
        pass
    assert out.read_bytes() == (b"previous" if fail else b"".join(chunks))
    assert _names(folder) == {"t.parquet"}


def test_several_outputs_are_committed_together(tmp_path: Path) -> None:
    with Outputs() as outputs:
        outputs.text(str(tmp_path / "a.pdn")).write("a")
        outputs.binary(str(tmp_path / "b.parquet")).write(b"b")
    assert (tmp_path / "a.pdn").read_text() == "a" and (tmp_path / "b.parquet").read_bytes() == b"b"
    with pytest.raises(OutputError), Outputs() as outputs:
        outputs.text(str(tmp_path / "a.pdn")).write("A")
        outputs.text(str(tmp_path / "missing" / "c.pdn"))
    assert (tmp_path / "a.pdn").read_text() == "a"
    assert _names(tmp_path) == {"a.pdn", "b.parquet"}


def test_a_symlinked_output_replaces_the_file_it_points_to(tmp_path: Path) -> None:
    target = tmp_path / "real.jsonl"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    with Outputs() as outputs:
        outputs.text(str(link)).write("new")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new"


def test_permissions_of_the_replaced_file_are_kept(tmp_path: Path) -> None:
    out = tmp_path / "shared.pdn"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    with Outputs() as outputs:
        outputs.text(str(out)).write("new")
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.pdn"
    with Outputs() as outputs:
        outputs.text(str(fresh)).write("new")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask


def test_a_device_is_written_in_place_and_never_replaced() -> None:
    with Outputs() as outputs:
        outputs.text("/dev/null").write("nothing")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_write_errors_name_the_output_not_the_temporary(tmp_path: Path) -> None:
    with pytest.raises(OutputError) as caught, Outputs() as outputs:
        stream = outputs.binary("/dev/full")
        stream.write(b"x" * 100_000)
    assert str(caught.value) == "/dev/full: No space left on device"
    with pytest.raises(OutputError) as caught, Outputs() as outputs:
        outputs.text(str(tmp_path / "no" / "such" / "out.pdn"))
    assert str(caught.value) == f"{tmp_path}/no/such/out.pdn: No such file or directory"
    with pytest.raises(OutputError) as caught, Outputs() as outputs:
        outputs.text(str(tmp_path))
    assert str(caught.value).endswith(": Is a directory")


def test_a_directory_output_is_replaced_whole(tmp_path: Path) -> None:
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    (dataset / "old-part.parquet").write_bytes(b"old")
    with Outputs() as outputs:
        folder = Path(outputs.directory(str(dataset)))
        assert folder.parent == tmp_path and TEMP_MARK in folder.name
        (folder / "part-0.parquet").write_bytes(b"new")
    assert _names(dataset) == {"part-0.parquet"}
    assert not [n for n in _names(tmp_path) if TEMP_MARK in n or OLD_MARK in n]
    with pytest.raises(RuntimeError), Outputs() as outputs:
        (Path(outputs.directory(str(dataset))) / "half.parquet").write_bytes(b"half")
        raise RuntimeError("stop")
    assert _names(dataset) == {"part-0.parquet"}
    assert _names(tmp_path) == {"dataset"}


def test_printable_names_hold_every_byte() -> None:
    name = os.fsdecode(b"games-\xff\xfe.pdn")
    shown = printable(name)
    assert shown == "games-\\xff\\xfe.pdn"
    shown.encode("utf-8")  # never raises
    assert printable("partie-été.pdn") == "partie-été.pdn"
