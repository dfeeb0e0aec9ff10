"""``pdn report`` and ``pdn validate --format html``: what the page holds, read back
from the page's own data, against the findings and boards of the Python API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_helpers import one_clean_line, run_bytes
from click.testing import CliRunner
from page_helpers import (
    BOARD,
    CODE,
    CONTEXT,
    FILE,
    HABIT,
    MESSAGE,
    NUMBER,
    PLY,
    SEVERITY,
    VARIATION,
    board_of,
    codes,
    digest,
    house_style,
    in_list_order,
    many_findings,
    page,
)

import pdn_tools
from pdn_tools import Board
from pdn_tools.cli import main
from pdn_tools.diagnostics import CATALOGUE

FAULTS = "corpus/faults/illegal-moves.pdn"


def report(tmp_path: Path, *args: str, name: str = "report.html") -> tuple[int, Path, str]:
    """``pdn report ARGS -o FILE``: exit status, the file, stderr."""
    target = tmp_path / name
    result = CliRunner().invoke(main, ["report", *args, "-o", str(target), "-j", "1"])
    return result.exit_code, target, result.stderr


def validate_status(*args: str) -> int:
    return CliRunner().invoke(main, ["validate", *args, "-q", "-j", "1"]).exit_code


def arrows(board: list[Any], colour: str) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [(tuple(a[1]), tuple(a[2])) for a in board[3] if a[0] == colour]


def test_report_is_the_html_format_of_validate(tmp_path: Path) -> None:
    status, target, stderr = report(tmp_path, "corpus/")
    assert status == 1 == validate_status("corpus/")
    assert "wrote" in stderr and "game(s)" in stderr
    piped = CliRunner().invoke(main, ["validate", "corpus/", "--format", "html", "-j", "1"])
    assert piped.exit_code == 1
    assert piped.stdout == target.read_text(encoding="utf-8")
    assert piped.stdout.startswith("<!DOCTYPE html>") and piped.stdout.endswith("</html>\n")


def test_the_page_is_self_contained(tmp_path: Path) -> None:
    _, target, _ = report(tmp_path, "corpus/", "--info")
    html = page(target)
    forbidden = {"link", "img", "iframe", "object", "embed", "base", "audio", "video", "source"}
    assert not [tag for tag, _ in html.elements if tag in forbidden]
    for tag, attrs in html.elements:
        assert "src" not in attrs, tag
        assert (attrs.get("href") or "#").startswith("#"), (tag, attrs)
    text = target.read_text(encoding="utf-8")
    assert text.count("://") == text.count("http://www.w3.org/2000/svg")  # namespaces only
    code = [body for attrs, body in html.scripts if "type" not in attrs]
    data = [attrs for attrs, _ in html.scripts if attrs.get("type") == "application/json"]
    assert len(code) == 1 and len(html.scripts) == 1 + len(data)  # the script, the data
    assert [a.get("id") for a in data[:1]] == ["pdn-data"]
    assert {a.get("class") for a in data[1:]} == {"pdn-chunk"}  # the games, in blocks
    policy = html.policy()
    assert policy.startswith("default-src 'none';")
    assert f"script-src {digest(code[0])};" in policy
    assert f"style-src {digest(html.styles[0])};" in policy
    assert len(html.styles) == 1


def test_boards_of_the_planted_faults(tmp_path: Path) -> None:
    """Each finding about a move: the board before it, the move as recorded in red, the
    repair or the legal moves in green; W32 the final position; a draw the position in
    which it held, with the move that reached it in blue."""
    _, target, _ = report(tmp_path, FAULTS, "--info")
    html = page(target)
    games = list(pdn_tools.validate(FAULTS))
    by_code = {f[CODE]: (f, game) for f, game in html.findings()}

    finding, game = by_code["E05"]  # 39-43 written, 43-39 meant
    board = board_of(finding, game)
    assert board is not None and finding[PLY] == 5
    assert board[1] == games[0].node_at(4).board().fen()
    assert arrows(board, "red") == [((39, 43), ())]
    assert arrows(board, "green") == [((43, 39), ())]
    assert board[4] == [[39, "red"], [43, "red"]]
    assert "repair" in board[5]

    finding, game = by_code["E07"]  # fewer pieces than the maximum: the legal move in green
    board = board_of(finding, game)
    assert board is not None
    legal = Board.from_fen(board[1]).legal_moves
    assert arrows(board, "green") == [(m.paths[0], tuple(sorted(m.captures))) for m in legal]

    finding, game = by_code["W32"]  # the result against the final position
    board = board_of(finding, game)
    assert board is not None and arrows(board, "red") == []
    assert board[1] == games[2].end().board().fen()

    finding, game = by_code["W36"]  # a move played after the draw: as played, with captures
    board = board_of(finding, game)
    assert board is not None and game is not None
    played = games[3].node_at(finding[PLY]).board().move_stack[-1][0]
    assert arrows(board, "red") == [(played.paths[0], tuple(sorted(played.captures)))]
    [draw] = game["d"]
    assert draw[:2] == ["threefold", 8]
    after = games[3].node_at(8).board()
    assert game["b"][draw[4]][1] == after.fen()
    assert arrows(game["b"][draw[4]], "blue") == [(after.move_stack[-1][0].paths[0], ())]


def test_every_move_finding_of_the_sample_corpus_has_its_board(tmp_path: Path) -> None:
    _, target, _ = report(tmp_path, "corpus/", "--info")
    html = page(target)
    files = html.data()["files"]
    games = {}
    for path in sorted(Path("corpus").rglob("*.pdn")):
        for game in pdn_tools.validate(str(path)):
            games[(str(path), game.index)] = game
    seen = 0
    for finding, game in html.findings():
        file = files[finding[FILE]].removeprefix("./")
        board = board_of(finding, game)
        pieces = board[2] if board is not None else ""
        if finding[PLY] is None or finding[VARIATION]:
            assert (board is None) == (finding[CODE] != "W32"), finding
            continue
        source = games[(file, finding[NUMBER])]
        before = source.node_at(finding[PLY] - 1).board()
        assert board is not None, finding
        assert board[1] == before.fen()
        assert len(pieces) == before.position.geometry.size
        for square, letter in enumerate(pieces, start=1):
            piece = before.piece_at(square)
            assert letter == (
                "." if piece is None else "wWbB"[2 * (piece[0].value == "B") + piece[1]]
            )
        written = source.node_at(finding[PLY]).move
        assert written is not None
        ends = [before.position.geometry.square_named(s) for s in written.squares]
        assert [a[1][0] for a in board[3] if a[0] == "red"] == [ends[0]]
        assert [a[1][-1] for a in board[3] if a[0] == "red"] == [ends[-1]]
        seen += 1
    assert (
        seen >= 5
    )  # the move findings of the samples (a Frisian game without GameType is read as Frisian)


def test_select_ignore_and_fail_on_as_validate(tmp_path: Path) -> None:
    for args in (
        ("--select", "E"),
        ("--select", "W05"),
        ("--select", "W05", "--fail-on", "warning"),
        ("--ignore", "E,W"),
        ("--ignore", "E", "--exit-zero"),
    ):
        status, target, _ = report(tmp_path, "corpus/", "--info", *args)
        assert status == validate_status("corpus/", *args), args
        found = codes(page(target))
        if args[:2] == ("--select", "E"):
            assert found and all(code.startswith("E") for code in found)
        if args[:2] == ("--select", "W05"):
            assert found == ["W05"]
        if args[:2] == ("--ignore", "E,W"):
            assert found == []
    status, target, _ = report(tmp_path, "corpus/", "--select", "E")
    summary = target.read_text(encoding="utf-8").split('id="pdn-data"')[0]
    assert "W27" not in summary and ">E05</a>" in summary


def test_info_findings_are_listed_with_info_only(tmp_path: Path) -> None:
    _, plain, _ = report(tmp_path, "corpus/", name="plain.html")
    _, full, _ = report(tmp_path, "corpus/", "--info", name="full.html")
    info = {code for code, entry in CATALOGUE.items() if entry.severity.value == "info"}
    assert not info & set(codes(page(plain)))
    found = page(full).findings()
    # 22 in all, three of them one habit (a file of three games without GameType).
    assert sum(f[HABIT][0] if len(f) > HABIT else 1 for f, _ in found if f[CODE] == "W27") == 22
    assert codes(page(full)).count("W27") == 20
    text = plain.read_text(encoding="utf-8")
    assert 'W27 <span class="unlisted">(not listed)</span>' in text
    assert '<li class="info"><b>27</b>info</li>' in text  # counted all the same


def test_hostile_text_stays_text(tmp_path: Path) -> None:
    record = tmp_path / "hostile.pdn"
    event = "</script><script>alert(1)</script>"
    white = '<img src=x onerror="alert(2)"> & \u2028'
    record.write_text(
        f'[Event "{event}"]\n[White "{white}"]\n[GameType "20"]\n1. 32-28 19-23 2. 28-24 *\n',
        encoding="utf-8",
    )
    _, target, _ = report(tmp_path, str(record))
    html = page(target)
    assert len(html.scripts) == 3  # the script, the findings, one block of games
    assert not [tag for tag, _ in html.elements if tag == "img"]
    [game] = html.games()
    assert ["Event", event] in game["h"] and ["White", white] in game["h"]


def test_syntax_only_reports_have_no_boards(tmp_path: Path) -> None:
    _, target, _ = report(tmp_path, "corpus/", "--syntax-only", "--info")
    html = page(target)
    assert html.games() and all(not game["b"] and not game["k"] for game in html.games())
    assert all(finding[BOARD] is None for finding, _ in html.findings())


def test_parallel_and_serial_pages_are_identical(tmp_path: Path) -> None:
    """Large enough to be cut into batches checked by workers: the detail travels
    between processes and the page is byte for byte that of ``--jobs 1``."""
    source = many_findings(tmp_path / "many.pdn", 4500)
    assert source.stat().st_size > 1 << 18
    serial = run_bytes("report", str(source), "-o", str(tmp_path / "a.html"), "-j", "1", "-q")
    parallel = run_bytes("report", str(source), "-o", str(tmp_path / "b.html"), "-j", "2", "-q")
    assert serial.returncode == parallel.returncode == 0
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    html = page(tmp_path / "b.html")
    # One habit: W11 in every game of the file, with all 4,500 occurrences under it.
    [(habit, game)] = html.findings()
    assert habit[CODE] == "W11" and habit[HABIT][:3] == [4500, 4500, 4500]
    assert len(habit[HABIT][3]) == 4500 and board_of(habit, game) is not None
    assert len(html.games()) == 4500
    ungrouped = "--no-group"
    run_bytes("report", str(source), "-o", str(tmp_path / "c.html"), "-j", "2", "-q", ungrouped)
    each = page(tmp_path / "c.html").findings()
    assert [f[CODE] for f, _ in each] == ["W11"] * 4500
    assert all(board_of(f, game) is not None for f, game in each)


def test_the_output_appears_only_when_complete(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "r.html"
    result = CliRunner().invoke(main, ["report", "corpus/", "-o", str(missing)])
    assert result.exit_code == 2
    assert one_clean_line(result.stderr).startswith(f"pdn report: cannot write {missing}:")
    # A run that ends with status 2 (a named input that cannot be read) leaves an
    # earlier report as it was, and no temporary beside it.
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "a.pdn").write_text(Path(FAULTS).read_text(encoding="utf-8"), encoding="utf-8")
    (inputs / "b.pdn").symlink_to(inputs / "gone.pdn")  # a link to nothing, in the folder
    earlier = tmp_path / "r.html"
    earlier.write_text("earlier", encoding="utf-8")
    named = [str(inputs / "a.pdn"), str(inputs / "b.pdn")]
    result = CliRunner().invoke(main, ["report", *named, "-o", str(earlier), "-j", "1"])
    assert result.exit_code == 2 and "b.pdn" in result.stderr
    assert earlier.read_text(encoding="utf-8") == "earlier"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "r.html"]
    # Inside a folder the same link is a finding (E14) and the report is written.
    result = CliRunner().invoke(main, ["report", str(inputs), "-o", str(earlier), "-j", "1"])
    assert result.exit_code == 1 and "E14" in earlier.read_text(encoding="utf-8")


def page_bound(html: Any) -> int:
    """The size bound of docs/report.md for the page *html*: 64 KiB, 6 KiB per kind
    of board; per file 200 B and 3 x its name; per game 400 B; per finding of a game
    60 B; per listed finding 150 B; per board 450 B; per occurrence of a habit 40 B;
    and the text shown (tags, moves, engine moves, variations, messages, source
    excerpts, as JSON text)."""
    data, games = html.data(), html.games()
    found = html.findings()
    text = sum(len(json.dumps(g[key])) for g in games for key in ("h", "m", "e", "x")) + sum(
        len(json.dumps(mark[3])) for g in games for mark in g["n"]
    )
    text += sum(len(json.dumps(f[MESSAGE])) + len(json.dumps(f[CONTEXT])) for f, _ in found)
    names = sum(len(json.dumps(name)) for name in data["files"])
    kinds = len({g["k"] for g in games} | {b[0] for g in games for b in g["b"]})
    return (
        64 * 1024
        + 6 * 1024 * kinds
        + 200 * len(data["files"])
        + 3 * names
        + 400 * len(games)
        + 60 * sum(len(g["n"]) for g in games)
        + 150 * len(found)
        + 450 * sum(len(g["b"]) for g in games)
        + 40 * sum(len(f[HABIT][3]) for f, _ in found if len(f) > HABIT)
        + text
    )


def test_size_stays_within_the_documented_bound(tmp_path: Path) -> None:
    for name, args in (
        ("sample.html", ("corpus/", "--info")),
        ("many.html", (str(many_findings(tmp_path / "many.pdn", 500)),)),
        ("each.html", (str(many_findings(tmp_path / "each.pdn", 500)), "--no-group")),
    ):
        _, target, _ = report(tmp_path, *args, name=name)
        assert target.stat().st_size <= page_bound(page(target)), name


def test_errors_come_first_and_a_habit_is_one_finding(tmp_path: Path) -> None:
    """A file in one house style (every quiet move written with 'x': W12 in every
    game) with three real errors: the page's list starts with the errors, and the
    habit is one finding carrying its count and every occurrence."""
    source = tmp_path / "house.pdn"
    source.write_text(house_style(12, errors=(3, 7, 10)), encoding="utf-8")
    status, target, stderr = report(tmp_path, str(source))
    assert status == 1 and "W12" in stderr
    html = page(target)
    found = in_list_order(html.findings())
    assert [f[SEVERITY] for f, _ in found] == ["error"] * 3 + ["warning"]
    assert [f[NUMBER] for f, _ in found[:3]] == [3, 7, 10]
    habit = found[3][0]
    assert habit[CODE] == "W12" and habit[HABIT][:3] == [24, 12, 12]
    assert "a habit of this file: 24 time(s) in 12 of its 12 games" in habit[MESSAGE]
    assert sorted((p[1], p[4]) for p in habit[HABIT][3]) == sorted(
        (game, ply) for game in range(1, 13) for ply in (1, 2)
    )
    # In the codes table, errors first.
    table = target.read_text(encoding="utf-8").split('id="codes"')[1].split("</table>")[0]
    assert table.index("E05") < table.index("W12")


def test_the_events_games_list_gives_the_score_by_colour(tmp_path: Path) -> None:
    """An English ``1-0`` is a win of Black (the first mover): the list of an event's
    games gives White's points first under a header that says so, as the crosstable
    counts them, not the Result tag's text."""
    game = (
        '[Event "Eng"]\n[Date "2024.01.0{n}"]\n[Round "{n}"]\n[White "{w}"]\n[Black "{b}"]\n'
        '[GameType "21"]\n[Result "{r}"]\n\n1. 11-15 24-20 {r}\n'
    )
    text = game.format(n=1, w="Wes White", b="Bee Black", r="1-0") + "\n"
    text += game.format(n=2, w="Bee Black", b="Wes White", r="0-1")
    (tmp_path / "en.pdn").write_text(text, encoding="utf-8")
    status, target, stderr = report(tmp_path, str(tmp_path / "en.pdn"))
    assert status == 0, stderr
    html = target.read_text(encoding="utf-8")
    games = html[html.index('<table class="event-games">') :]
    games = games[: games.index("</table>")]
    assert "<th title=\"White's points - Black's points\">Score</th>" in games
    rows = games.split("<tr ")[1:]
    assert ">Wes White</td>" in rows[0] and "<td>0-1</td>" in rows[0]  # Black won
    assert ">Bee Black</td>" in rows[1] and "<td>1-0</td>" in rows[1]  # Bee Black, White, won
