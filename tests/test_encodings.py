"""Legacy code pages, files that mix encodings, bytes that cannot be decoded, and
--encoding: through the reader and through the real CLI, with every output format."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from encoding_samples import CODE_PAGES, record, sample
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools import read_games
from pdn_tools.cli import main
from pdn_tools.pdn import source
from pdn_tools.pdn.codepages import detect_codepage
from pdn_tools.pdn.reader import FileReport


def convert(path: Path, out: Path, *extra: str) -> Result:
    return CliRunner().invoke(main, ["convert", str(path), "-o", str(out), "--isolated", *extra])


def counts(result: Result) -> tuple[int, int, int]:
    match = re.search(r"(\d+) game\(s\) read, (\d+) written, (\d+) rejected", result.stderr)
    assert match is not None, result.output
    read, written, rejected = (int(g) for g in match.groups())
    assert read == written + rejected
    return read, written, rejected


def names_in(out: Path) -> list[str]:
    """White and Black of every game in a converted file, in order."""
    if out.suffix == ".parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(out, columns=["white", "black"]).to_pylist()
        return [name for row in table for name in (row["white"], row["black"])]
    if out.suffix in (".json", ".jsonl"):
        text = out.read_text(encoding="utf-8")
        if out.suffix == ".json":
            games = json.loads(text)  # a JSON array of games
        else:
            games = [json.loads(line) for line in text.splitlines()]
        return [t["value"] for g in games for t in g["tags"] if t["name"] in ("White", "Black")]
    return [
        value
        for game in read_games(out)
        for value in (game.tag("White"), game.tag("Black"))
        if value is not None
    ]


@pytest.mark.parametrize("codepage", list(CODE_PAGES))
def test_name_samples_in_each_code_page_read_back(tmp_path: Path, codepage: str) -> None:
    for seed in range(3):
        text, chosen = sample(codepage, 3, seed)
        path = tmp_path / f"{codepage}-{seed}.pdn"
        path.write_bytes(text.encode(codepage))
        out = tmp_path / f"{codepage}-{seed}.jsonl"
        done = convert(path, out)
        assert done.exit_code == 0, done.output
        assert names_in(out) == chosen
        w30 = [i for g in read_games(path) for i in g.issues if i.code == "W30"]
        assert len(w30) == 1 and w30[0].line == 1


def test_detector_on_every_code_page() -> None:
    """Three games are enough for every code page (benchmarks/bench_encodings.py has the
    full measurement, one game included)."""
    for codepage in CODE_PAGES:
        for seed in range(20):
            text, _ = sample(codepage, 3, seed)
            data = text.encode(codepage)
            assert data.decode(detect_codepage(data)) == text, (codepage, seed)


MIXES = {
    "cp1251": ["Иванов Петров", "Семёнов, Фёдор", "Щербаков"],
    "cp1252": ["Müller, Jürgen", "Hélène Lefèvre", "Søren Ørsted"],
    "cp866": ["Иванов", "Фёдоров Сергей", "Ильин"],
}


def mixed(codepage: str, first_legacy: bool) -> tuple[bytes, list[str]]:
    """Records alternating between *codepage* and UTF-8, with UTF-8-only names too."""
    legacy = MIXES[codepage]
    utf8 = ["Иванов", "Łukomska, Żaneta", "Jänsen → Ø"]
    data = b""
    chosen: list[str] = []
    for i in range(6):
        in_legacy = (i % 2 == 0) == first_legacy
        white = legacy[i // 2] if in_legacy else utf8[i // 2]
        black = legacy[-1 - i // 2] if in_legacy else utf8[-1 - i // 2]
        text = record(white, black, i + 1)
        data += text.encode(codepage) if in_legacy else text.encode("utf-8")
        chosen += [white, black]
    return data, chosen


@pytest.mark.parametrize("codepage", list(MIXES))
@pytest.mark.parametrize("first_legacy", [True, False])
@pytest.mark.parametrize("suffix", [".pdn", ".json", ".jsonl", ".parquet"])
def test_mixed_files_convert_to_every_format(
    tmp_path: Path, codepage: str, first_legacy: bool, suffix: str
) -> None:
    data, chosen = mixed(codepage, first_legacy)
    path = tmp_path / "mixed.pdn"
    path.write_bytes(data)
    out = tmp_path / f"out{suffix}"
    done = convert(path, out)
    assert done.exit_code == 0, done.output
    assert counts(done) == (6, 6, 0)
    assert names_in(out) == chosen


@pytest.mark.parametrize("first_legacy", [True, False])
def test_mixed_file_warns_on_each_game_in_the_other_encoding(first_legacy: bool) -> None:
    data, _ = mixed("cp1251", first_legacy)
    report = FileReport("x")
    games = list(read_games(io.BytesIO(data), report=report))
    main_is_utf8 = report.encoding == "utf-8"
    for number, game in enumerate(games):
        in_legacy = (number % 2 == 0) == first_legacy
        runs = [i for i in game.issues if i.code == "W30" and "from here" in i.message]
        assert len(runs) == (1 if in_legacy == main_is_utf8 else 0), (number, game.issues)
        for issue in runs:
            assert issue.line == game.span.start_line + 1  # the White tag


def test_undecodable_bytes_are_replaced_and_reported(tmp_path: Path) -> None:
    # 0x98 is the one byte Windows-1251 leaves undefined.
    data = record("Иванов", "Петров").encode("cp1251")
    data += b'[Event "2"]\n[White "\xc8\xe2\x98\xe0"]\n[Black "B"]\n1. 32-28 *\n'
    path = tmp_path / "bad.pdn"
    path.write_bytes(data)
    games = list(read_games(path))
    assert games[1].tag("White") == "Ив\ufffdа"
    w38 = [i for i in games[1].issues if i.code == "W38"]
    assert len(w38) == 1 and (w38[0].line, w38[0].column) == (9, 11)
    assert "cp1251" in w38[0].message
    for suffix in (".pdn", ".json", ".jsonl", ".parquet"):
        done = convert(path, tmp_path / f"out{suffix}")
        assert done.exit_code == 0 and counts(done) == (2, 2, 0), done.output


def test_forced_ascii_on_latin1_converts(tmp_path: Path) -> None:
    path = tmp_path / "latin1.pdn"
    path.write_bytes(record("Gérard", "Müller").encode("latin-1"))
    for suffix in (".pdn", ".json", ".jsonl", ".parquet"):
        out = tmp_path / f"out{suffix}"
        done = convert(path, out, "--encoding", "ascii")
        assert done.exit_code == 0 and counts(done) == (1, 1, 0), done.output
        assert names_in(out) == ["G\ufffdrard", "M\ufffdller"]
    report = CliRunner().invoke(
        main, ["validate", str(path), "--encoding", "ascii", "--isolated", "-j", "1"]
    )
    assert "warning W38 bytes that ascii cannot decode replaced by U+FFFD [game 1]" in (
        report.stdout
    )


@pytest.mark.parametrize("name", ["rot13", "base64", "hex", "idna", "punycode", "klingon"])
def test_unsuitable_encodings_are_usage_errors(tmp_path: Path, name: str) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(record("A", "B"), encoding="utf-8")
    for command in (["validate"], ["stats"], ["show"], ["convert", "-o", "-", "--to", "pdn"]):
        done = CliRunner().invoke(main, [command[0], str(path), *command[1:], "--encoding", name])
        assert done.exit_code == 2, (command, done.output)
        assert len(done.stderr.strip().splitlines()) == 1
        assert name in done.stderr


@pytest.mark.parametrize("name", ["utf-16", "utf-32", "utf-16-be", "UTF16"])
def test_utf16_and_utf32_are_decoded(tmp_path: Path, name: str) -> None:
    path = tmp_path / "g.pdn"
    codec = {"utf-16": "utf-16-le", "utf-32": "utf-32-le", "UTF16": "utf-16-le"}.get(name, name)
    path.write_bytes(record("Jöns", "Иванов").encode(codec))
    out = tmp_path / "out.jsonl"
    done = convert(path, out, "--encoding", name)
    assert done.exit_code == 0, done.output
    assert names_in(out) == ["Jöns", "Иванов"]


@pytest.mark.parametrize("codec", ["utf-32", "utf-32-be", "utf-16", "utf-16-be"])
def test_a_byte_order_mark_names_utf32_and_utf16_without_encoding(
    tmp_path: Path, codec: str
) -> None:
    """Without --encoding, a file that begins with UTF-32's byte order mark (whose
    little-endian form begins with UTF-16's) is read as UTF-32, and UTF-16's as UTF-16,
    and W30 names the one it was."""
    path = tmp_path / "g.pdn"
    bom = "\ufeff".encode(codec) if codec.endswith("-be") else b""
    path.write_bytes(bom + record("Jöns", "Иванов").encode(codec))
    out = tmp_path / "out.jsonl"
    done = convert(path, out)
    assert done.exit_code == 0, done.output
    assert names_in(out) == ["Jöns", "Иванов"]
    checked = CliRunner().invoke(main, ["validate", str(path), "--isolated", "--info"])
    assert checked.exit_code == 0, checked.output
    family = "UTF-32" if "32" in codec else "UTF-16"
    assert f"W30 input is {family} (byte order mark); decoded" in checked.stdout
    assert "E03" not in checked.stdout


def test_block_boundaries_do_not_cut_characters_or_line_ends() -> None:
    """A multi-byte character and a CR LF pair that straddle the reader's blocks."""
    for pad in range(4):
        head = b"{" + b"x" * (source.BLOCK_SIZE - 3 - pad) + b"}"
        data = head + "Жé\r\n".encode() + b'[White "\xd0\x96"]\r\n1. 32-28 *\r\n'
        pieces = list(source.read_pieces(io.BytesIO(data)))
        assert pieces[0].text.endswith("}Жé")
        assert [p.line for p in pieces] == [1, 2, 3]
        assert pieces[1].text == '[White "Ж"]'


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["utf-8", "cp1251", "cp1252", "cp866", "koi8-r", "cp1250"]),
            st.text(
                alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                max_size=12,
            ),
        ),
        min_size=1,
        max_size=5,
    ),
    st.binary(max_size=20),
)
def test_any_mix_reads_as_valid_unicode_with_every_game(
    records: list[tuple[str, str]], noise: bytes
) -> None:
    """Whatever the bytes, the text of every game is valid Unicode (no surrogates that
    would crash a writer), and every record is read."""
    data = b""
    for number, (codepage, name) in enumerate(records):
        clean = name.replace('"', "").replace("\\", "").replace("[", "").replace("]", "")
        data += record(clean, "B", number).encode(codepage, errors="replace")
    data += noise.replace(b"[", b"").replace(b"{", b"")
    games = list(read_games(io.BytesIO(data)))
    assert len(games) >= len(records)
    for game in games:
        for tag in game.tags:
            tag.value.encode("utf-8")  # raises on a lone surrogate
        for issue in game.issues:
            issue.message.encode("utf-8")
