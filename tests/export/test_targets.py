"""Writing for a target program (``pdn convert --for``): what each target writes, and
that pdn-tools reads every target's output back as the same game."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from conftest import SAMPLES
from export_helpers import converted
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pdn_tools import Game, read_games
from pdn_tools.cli import main
from pdn_tools.export.canonical import CanonicalOptions, write_canonical, written_variant
from pdn_tools.export.targets import TARGETS
from pdn_tools.replay import replay_game
from pdn_tools.replay.resolve import resolve
from pdn_tools.rules import Position, legal_moves, move_text, variant_by_name

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ENGLISH = (
    '[Event "Club"]\n[Bianco "Ann"]\n[Result "1-0"]\n[GameType "21"]\n\n'
    "1. 11-15 {a comment} 23-19 (23-18 $2) 2. 8-11 $1 22-17 3. 9-13 17-14 4. 10x17 *\n"
)
RUSSIAN = (
    '[GameType "25"]\n[Result "1/2-1/2"]\n[FEN "W:W21-32:B1-12"]\n\n'
    "1. c3-d4 b6-c5 2. d4xb6 a7xc5 1/2-1/2\n"
)
INTERNATIONAL = '[GameType "20"]\n[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n'


def written(text: str, target: str) -> str:
    game, _, resolution = converted(text)
    return write_canonical(game, resolution, CanonicalOptions(target=target))


def test_lidraughts() -> None:
    out = written(RUSSIAN, "lidraughts")
    assert '[GameType "25"]' in out
    assert '[FEN "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,' in out
    assert "1. c3-d4 b6-c5 2. d4xb6 a7xc5 1-1" in out  # 2-0 style in every variant
    assert '[Result "1-1"]' in out
    assert "2. 28x19 14x23 2-0" in written(INTERNATIONAL, "lidraughts")
    # lidraughts plays no English draughts: the game stays canonical PDN
    game, _, resolution = converted(ENGLISH)
    assert written(ENGLISH, "lidraughts") == write_canonical(game, resolution)


def test_pydraughts_drops_comments_and_variations() -> None:
    out = written(ENGLISH, "pydraughts")
    assert "{" not in out and "(" not in out
    assert "1. 11-15 23-19 2. 8-11 $1 22-17 3. 9-13 17-14 4. 10x17 1-0" in out
    assert '[White "Ann"]' in out  # tag names in the standard's spelling
    assert '[Result "1-0"]' in out


def test_py_draughts_english_is_turned() -> None:
    out = written(ENGLISH, "py-draughts")
    assert '[GameType "23"]' in out and '[Variant "American checkers"]' in out
    # 11-15 seen from the other side is 22-18, and 10x17 is 23x16
    assert "1. 22-18 {a comment} 1... 10-14 2. 25-22 $1 11-16 3. 24-20 16-19 4. 23x16" in out
    assert "(" not in out  # variations dropped
    fen_game = '[GameType "21"]\n[FEN "B:W18,K25:B2,K10"]\n\n1. 10-14 *\n'  # Black to move
    out = written(fen_game, "py-draughts")
    # colours exchanged and squares turned: White (the first mover) is to move
    assert '[FEN "W:WK23,31:BK8,15"]' in out
    assert "1. 23-19 *" in out


def test_checkerboard_full_capture_paths() -> None:
    text = '[GameType "21"]\n[FEN "B:W18,27:B14"]\n\n1. 14x32 *\n'  # a double jump
    out = written(text, "checkerboard")
    assert "1. 14x23x32 *" in out
    assert "14x32" in written(text, "pydraughts")  # others write from and to
    assert "$1" not in written(ENGLISH, "checkerboard")


def test_fmjd_and_pdn3_roster() -> None:
    out = written(INTERNATIONAL, "fmjd")
    for tag in ('[Event "?"]', '[Site "?"]', '[Date "????.??.??"]', '[Round "?"]'):
        assert tag in out
    assert '[GameType "20,W,10,10,N2,0"]' in out
    pdn3 = written(RUSSIAN, "pdn3")
    assert '[SetUp "1"]\n[FEN "W:Wa3,c3,' in pdn3  # A0: algebraic squares
    ten = written('[GameType "20"]\n[FEN "W:W31-50:B1-20"]\n\n1. 32-28 *\n', "pdn3")
    assert '[SetUp "1"]\n[FEN "W:W31-50:B1-20"]' in ten  # ranges allowed
    assert "1. c3-d4 b6-c5 2. d4:b6 a7:c5 1/2-1/2" in pdn3  # A0: algebraic, ':'


def test_default_output_unchanged() -> None:
    for text in (ENGLISH, RUSSIAN, INTERNATIONAL):
        game, _, resolution = converted(text)
        assert write_canonical(game, resolution) == write_canonical(
            game, resolution, CanonicalOptions(target=None)
        )


def test_cli_for(tmp_path: Path) -> None:
    src = tmp_path / "g.pdn"
    src.write_text(RUSSIAN)
    out = tmp_path / "out.pdn"
    done = CliRunner().invoke(main, ["convert", str(src), "-o", str(out), "--for", "lidraughts"])
    assert done.exit_code == 0, done.output
    assert "d4xb6" in out.read_text()
    refused = CliRunner().invoke(
        main, ["convert", str(src), "-o", str(tmp_path / "o.jsonl"), "--for", "lidraughts"]
    )
    assert refused.exit_code == 2
    assert "--for writes PDN" in refused.output
    unknown = CliRunner().invoke(main, ["convert", str(src), "-o", str(out), "--for", "dambase"])
    assert unknown.exit_code == 2
    both = tmp_path / "both.pdn"
    both.write_text(RUSSIAN + "\n" + ENGLISH)
    done = CliRunner().invoke(main, ["convert", str(both), "-o", str(out), "--for", "lidraughts"])
    assert done.exit_code == 0
    assert (
        "2 game(s) read, 2 written, 0 rejected; 1 game(s) of an unknown variant or one "
        "lidraughts does not play, or that its numbering cannot hold, written as canonical PDN"
    ) in done.output


def test_cli_default_bytes_unchanged(tmp_path: Path) -> None:
    """Without --for, pdn convert writes each game as the canonical writer with its
    default options does (the form the canonical tests pin), byte for byte; --for
    changes it."""
    source = sorted((SAMPLES / "clean").glob("*.pdn"))[0]
    out = tmp_path / "out.pdn"
    runner = CliRunner()
    done = runner.invoke(main, ["convert", str(source), "-o", str(out), "--jobs", "1"])
    assert done.exit_code in (0, 1), done.output
    pieces = []
    for game in read_games(source):
        replay = replay_game(game)
        pieces.append(write_canonical(game, resolve(game, replay)))
    assert out.read_text(encoding="utf-8") == "\n".join(pieces)
    again = tmp_path / "again.pdn"
    runner.invoke(main, ["convert", str(source), "-o", str(again), "--jobs", "1", "--for", "pdn3"])
    assert out.read_bytes() != again.read_bytes()


# -- read back by pdn-tools --------------------------------------------------------

READABLE = (
    "international",
    "english",
    "italian",
    "pool",
    "unified-pool",
    "russian",
    "brazilian",
    "czech",
    "turkish",
    "frisian",
)


@st.composite
def random_games(draw: st.DrawFn) -> tuple[str, str]:
    """(variant, PDN text) of a game of random legal moves in a variant, written in
    canonical notation, sometimes from a position reached after a few moves (a FEN);
    legal for the replay too (Frisian's limit on a king's moves in a row)."""
    name = draw(st.sampled_from(READABLE))
    variant = variant_by_name(name)
    from pdn_tools.pdn.gametype import BY_NAME, BY_NUMBER
    from pdn_tools.rules import write_fen
    from pdn_tools.rules.raygen import KingMoveLimit

    position = Position.initial(variant)
    fen = None
    if draw(st.booleans()):
        for _ in range(draw(st.integers(1, 6))):
            legal = legal_moves(position, variant)
            if not legal:
                break
            position = position.apply(legal[draw(st.integers(0, len(legal) - 1))])
        fen = write_fen(position)
    moves: list[str] = []
    # Frisian's limit on a king's moves in a row depends on the moves before: the move
    # generator does not apply it, the replay does (KingMoveLimit), so the game does.
    rays = variant.rays
    limit = rays.king_move_limit if rays is not None else None
    runs = KingMoveLimit(limit) if limit is not None else None
    for _ in range(draw(st.integers(0, 60))):
        legal = legal_moves(position, variant)
        allowed = [m for m in legal if runs is None or not runs.refuses(position, m)]
        if not allowed:
            break
        move = allowed[draw(st.integers(0, len(allowed) - 1))]
        if runs is not None:
            runs.play(position, move)
        text = move_text(move, legal, variant)
        if re.fullmatch(r"[012]-[012]", text):  # a Turkish 1-2 reads as a result: pad it
            text = "0" + text
        moves.append(text)
        position = position.apply(move)
    entry = BY_NAME[name]
    # unified pool is named by its long form: 23 alone is American pool, Black first
    value = str(entry.number) if BY_NUMBER[entry.number] is entry else entry.full
    tags = f'[GameType "{value}"]\n'
    if fen is not None:
        tags += f'[FEN "{fen}"]\n'
    return name, tags + "\n" + " ".join(moves) + " *\n"


@SETTINGS
@given(random_games(), st.sampled_from(sorted(TARGETS)))
@example(
    case=(
        "frisian",
        '[GameType "40"]\n[FEN "W:W25,26,32,33,35-50:B1-10,12-18,20,21,23"]\n\n'
        "32-27 21x34 44x11 1x21 26x19 9x29 39x19 13x24 25x23 3-9 23-18 8x28 38x18 12x23 "
        "35-30 2-8 30-24 14x34 40x18 8x28 36-31 16-21 31x2 6-11 2x16 9-13 16-2 4-9 2x26 "
        "9-13 26-3 10-14 3x30 5-10 30-2 10-14 2-7 14-19 7-1 15-20 *\n",
    ),
    target="checkerboard",
)
def test_target_output_reads_back_as_the_same_game(case: tuple[str, str], target: str) -> None:
    """Every target's output of a legal game reads back, by pdn-tools, as the same
    game: no error, the same plies and the same final position (py-draughts' turned
    English board aside: reading it as meant is a dialect of its own)."""
    name, text = case
    form = TARGETS[target].form(name)
    if form is not None and form.squares == "turned":
        return
    game, replay, _ = converted(text)
    assert replay.completed and not [i for i in game.issues if i.level.value == "error"]
    back, back_replay, _ = converted(written(text, target))
    assert not [i for i in back.issues if i.level.value == "error"], back.issues
    assert back_replay.plies == replay.plies
    assert back_replay.final_fen == replay.final_fen


def test_py_draughts_english_reads_back_with_its_dialect() -> None:
    out = written(ENGLISH, "py-draughts")
    back, replay, _ = converted(out)
    assert not [i for i in back.issues if i.level.value == "error"]
    assert replay.plies == 7


# -- a variant the replay refuted is no variant to write ------------------------------

#: An English problem without GameType: the reader guesses international from its
#: first moves, the replay refutes the guess (W40, 25-22 is no 10x10 move).
REFUTED = (
    '[Event "TTS Example 7"]\n[Black "Black"]\n[White "White"]\n[Result "1/2-1/2"]\n'
    '[Setup "1"]\n[FEN "W:WK32,14:BK25,6."]\n'
    "1. 32-27 25-22 2. 27-23 22-17 3. 14-9 6x13 4. 23-18 17-21 5. 18-22 21-17 "
    "6. 22-18 1/2-1/2\n"
)


def _errors(game: Game) -> list[str]:
    return [i.code for i in game.issues if i.level.value == "error"]


def test_a_refuted_guess_is_written_as_canonical_pdn_for_every_target() -> None:
    game, replay, resolution = converted(REFUTED)
    assert game.variant == "international" and replay.refuted and resolution.refuted
    assert "W40" in [i.code for i in game.issues] and _errors(game) == []
    plain = write_canonical(game, resolution)
    assert "GameType" not in plain
    for target in sorted(TARGETS):
        out = written(REFUTED, target)
        assert out == plain, target  # no known variant: canonical PDN, no GameType
        back, back_replay, _ = converted(out)
        assert _errors(back) == [], (target, back.issues)
        assert back_replay.refuted and "W40" in [i.code for i in back.issues], target


def test_a_refuted_guess_keeps_the_records_result_style() -> None:
    """The guess (international) would write ``1/2-1/2`` as ``1-1``; written without
    a variant the result keeps the style the record wrote it in, in the Result tag
    and as the terminator, for canonical PDN, normalised results and every target."""
    game, _, resolution = converted(REFUTED)
    outputs = {
        "canonical": write_canonical(game, resolution),
        "normalised": write_canonical(game, resolution, CanonicalOptions(normalise_results=True)),
    }
    outputs.update((target, written(REFUTED, target)) for target in sorted(TARGETS))
    for name, out in outputs.items():
        assert '[Result "1/2-1/2"]' in out, name
        assert out.rstrip().endswith(" 1/2-1/2"), name
        assert re.search(r"(?<![\d/])1-1(?![\d/])", out) is None, name
    # A record written in the international style keeps that style too.
    international = REFUTED.replace("1/2-1/2", "1-1")
    game, _, resolution = converted(international)
    assert resolution.refuted
    out = write_canonical(game, resolution)
    assert '[Result "1-1"]' in out and out.rstrip().endswith(" 1-1")


def test_cli_counts_a_refuted_guess_as_canonical_pdn(tmp_path: Path) -> None:
    src = tmp_path / "tts7.pdn"
    src.write_text(REFUTED, encoding="utf-8")
    out = tmp_path / "out.pdn"
    for target in ("lidraughts", "fmjd", "pdn3", "pydraughts"):
        done = CliRunner().invoke(main, ["convert", str(src), "-o", str(out), "--for", target])
        assert done.exit_code == 0, done.output
        assert (
            f"1 game(s) of an unknown variant or one {target} does not play, "
            "or that its numbering cannot hold, written as canonical PDN"
        ) in done.output
        assert "GameType" not in out.read_text(encoding="utf-8")
        checked = CliRunner().invoke(main, ["validate", str(out)])
        assert checked.exit_code == 0, checked.output
        assert "W40" in checked.output and "E05" not in checked.output


@SETTINGS
@given(random_games(), st.sampled_from(sorted(TARGETS)))
def test_a_record_without_gametype_gains_no_error_for_any_target(
    case: tuple[str, str], target: str
) -> None:
    """A game of legal moves whose GameType tag is taken away is read with the
    reader's guess of its variant, which the replay confirms or refutes; written for
    any target it reads back as the same variant, and without an error when it had
    none (a refuted guess is never written as the game's GameType)."""
    silent = re.sub(r'\[GameType "[^"]*"\]\n', "", case[1])
    game, _, resolution = converted(silent)
    form = TARGETS[target].form(written_variant(game, resolution))
    if form is not None and form.squares == "turned":
        return  # py-draughts' turned English board reads as meant only by its dialect
    back, _, _ = converted(written(silent, target))
    assert back.variant == game.variant
    if not _errors(game):
        assert _errors(back) == [], (back.issues, written(silent, target))


# -- py-draughts' turned board: moves after an illegal one ----------------------------

#: English games whose replay stops: an illegal capture at ply 8 (a repair is offered
#: at ply 5), and a game from a set-up position that breaks the capture rule at once.
STOPPED = (
    '[GameType "21"]\n[Result "*"]\n\n1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x9 *\n',
    '[GameType "21"]\n[FEN "B:W18,K30:B9,14"]\n[Result "*"]\n\n'
    "1. 14-17 18-15 2. 9-14 15-10 3. 17-22 30x21 *\n",
)


def _stopped_facts(game: Game) -> tuple[list[str], list[tuple[str, int | None, object]]]:
    """The moves read (standard numbering) and each error's code, ply and repair (its
    ply, the move meant and the kind of slip; not the text written, which is the
    file's)."""
    moves = [n.move.text() for n in game.mainline() if n.move is not None]
    errors = [
        (
            i.code,
            i.ply,
            None if i.repair is None else (i.repair["ply"], i.repair["move"], i.repair["kind"]),
        )
        for i in game.issues
        if i.level.value == "error"
    ]
    return moves, errors


def test_py_draughts_turns_the_moves_after_the_replay_stopped(tmp_path: Path) -> None:
    """Moves the replay could not resolve are written in py-draughts' turned numbering
    too: the converted file reads back (its dialect recognised) as the same moves, with
    the same error at the same ply and the same repair."""
    src = tmp_path / "stopped.pdn"
    src.write_text("\n".join(STOPPED), encoding="utf-8")
    out = tmp_path / "out.pdn"
    done = CliRunner().invoke(main, ["convert", str(src), "-o", str(out), "--for", "py-draughts"])
    assert done.exit_code == 1, done.output  # the games have errors
    assert "canonical PDN" not in done.output
    text = out.read_text(encoding="utf-8")
    assert "4. 18x11 8x24 *" in text  # 25x9 turned, as 15x22 is
    assert "1. 19-16 15-18 2. 24-19 18-23 3. 16-11 3x12 *" in text
    before = [_stopped_facts(g) for g in read_games(src) if replay_game(g)]
    after = [g for g in read_games(out) if replay_game(g)]
    assert [_stopped_facts(g) for g in after] == before
    assert before[0][1] == [("E05", 8, (5, "9-14", "off-by-one"))]
    assert before[1][1] == [("E06", 1, None)]
    assert all({"W60", "W61"} <= {i.code for i in g.issues} for g in after)


@example(ply=7)
@SETTINGS
@given(st.integers(0, 40))
def test_py_draughts_stopped_game_reads_back_the_same(ply: int) -> None:
    """A legal English game with one move replaced by one that is not legal there (a
    man's step to a square it cannot reach) reads back from py-draughts' form as the
    same moves, error and repair, wherever the replay stops."""
    rules = variant_by_name("english")
    position = Position.initial(rules)
    moves: list[str] = []
    for n in range(41):
        legal = legal_moves(position, rules)
        if not legal:
            break
        move = legal[n % len(legal)]
        moves.append(move_text(move, legal, rules))
        position = position.apply(move)
    ply = min(ply, len(moves) - 1)
    moves[ply] = "1-32"  # never a move: squares that far apart
    text = '[GameType "21"]\n[Result "*"]\n\n' + " ".join(moves) + " *\n"
    game, _, _ = converted(text)
    back, _, _ = converted(written(text, "py-draughts"))
    assert _stopped_facts(back) == _stopped_facts(game)
    assert _stopped_facts(game)[1][0][:2] == ("E05", ply + 1)


def test_py_draughts_writes_canonical_pdn_what_its_numbering_cannot_hold(
    tmp_path: Path,
) -> None:
    """A move written as read with a square that is no board square in numbers, or a
    FEN that is no position, cannot be turned: the game is written as canonical PDN,
    whole, and counted so."""
    games = (
        STOPPED[0].replace(" *\n", " 5. 5-41 *\n"),
        STOPPED[0].replace(" *\n", " 5. c3-d4 *\n"),
        '[GameType "21"]\n[FEN "B:W18,K30:B9,14,40"]\n[Result "*"]\n\n1. 14-17 18-15 *\n',
    )
    for text in games:
        game, _, resolution = converted(text)
        assert written(text, "py-draughts") == write_canonical(
            game, resolution, CanonicalOptions(normalise_results=True)
        ), text
    src = tmp_path / "odd.pdn"
    src.write_text("\n".join(games), encoding="utf-8")
    out = tmp_path / "out.pdn"
    done = CliRunner().invoke(main, ["convert", str(src), "-o", str(out), "--for", "py-draughts"])
    assert (
        "3 game(s) of an unknown variant or one py-draughts does not play, or that its "
        "numbering cannot hold, written as canonical PDN"
    ) in done.output
    assert 'GameType "23"' not in out.read_text(encoding="utf-8")


# -- py-draughts' turned board: the players go with their colours --------------------

SIDE_TAGS = (
    ("WhiteElo", "2100"),
    ("BlackElo", "1950"),
    ("WhiteTitle", "GM"),
    ("BlackTitle", "IM"),
    ("WhiteTeam", "North"),
    ("BlackTeam", "South"),
    ("WhiteClock", "0:05:00"),
    ("BlackType", "program"),
)


def _side_text(extra: list[tuple[str, str]], result: str) -> str:
    head = '[Event "Club"]\n[White "Smith, J."]\n[Black "Jones, K."]\n'
    head += "".join(f'[{name} "{value}"]\n' for name, value in extra)
    return (
        head + f'[Result "{result}"]\n[GameType "21"]\n\n'
        f"1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 {result}\n"
    )


def _said(game: Game) -> tuple[dict[str, str], list[str], str | None]:
    """What a game says of its players and play: its tags by standard name (but the
    GameType and py-draughts' Variant, which say the form), its moves and the side
    its result names."""
    from pdn_tools.pdn.results import read_result
    from pdn_tools.pdn.tags import standard_name

    tags = {
        standard_name(t.name): t.value
        for t in game.tags
        if standard_name(t.name) not in ("GameType", "Variant")
    }
    moves = [n.move.text() for n in game.mainline() if n.move is not None]
    return tags, moves, read_result(game.result or "*").outcome


def test_other_side_names_the_companion_tags() -> None:
    from pdn_tools.pdn.tags import other_side

    assert other_side("White") == "Black" and other_side("Black") == "White"
    assert other_side("WhiteElo") == "BlackElo" and other_side("BlackClock") == "WhiteClock"
    assert other_side("Bianco") == "Black" and other_side("heure blanche") == "BlackTime"
    assert other_side("Event") is None and other_side("Whitewash") is None


def test_py_draughts_exchanges_the_player_tags_with_the_colours() -> None:
    """The first mover (English Black, Jones) is py-draughts' White: the player tags
    and their companions change places, the Result stays (1-0 is the first mover's
    win in both), and pdn-tools reads the output back as the game read."""
    text = _side_text(list(SIDE_TAGS), "1-0")
    out = written(text, "py-draughts")
    for line in (
        '[White "Jones, K."]',
        '[Black "Smith, J."]',
        '[BlackElo "2100"]',
        '[WhiteElo "1950"]',
        '[BlackTitle "GM"]',
        '[WhiteTeam "South"]',
        '[BlackClock "0:05:00"]',
        '[WhiteType "program"]',
        '[Result "1-0"]',
    ):
        assert line in out, (line, out)
    assert "23x16 1-0" in out
    game, _, _ = converted(text)
    back, replay, _ = converted(out)
    assert _errors(back) == [] and replay.plies == 7
    assert _said(back) == _said(game)
    # The other targets keep the colours, and the tags with them.
    assert '[White "Smith, J."]' in written(text, "checkerboard")


@SETTINGS
@given(
    st.lists(st.sampled_from(SIDE_TAGS), unique=True),
    st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]),
)
def test_py_draughts_player_tags_round_trip(extra: list[tuple[str, str]], result: str) -> None:
    """Whatever side tags a game has, written for py-draughts and read back it says
    the same players, moves and result."""
    text = _side_text(extra, result)
    game, _, _ = converted(text)
    back, _, _ = converted(written(text, "py-draughts"))
    assert _said(back) == _said(game)
