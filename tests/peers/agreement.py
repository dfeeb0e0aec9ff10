"""Do the peer libraries replay our output to the position we reach?

For each peer (``pydraughts``, ``py-draughts``) and each variant both it and pdn-tools
play, games of the shared corpus that pdn-tools replays to the end without an error
are written with ``--for <peer>`` (:func:`write_canonical` with the target), replayed
by the peer in its own interpreter (``tests/peers/peer_replay.py``) and the peer's
final position is compared with ours: side to move, and every man and king.

The tests use a sample (:data:`SAMPLE` games per variant, spread over the corpus;
pydraughts, which takes about half a second a game, :data:`PYDRAUGHTS_SAMPLE`);
``python tests/peers/agreement.py [--all] [--pydraughts N] [--peer NAME]`` prints the
table of docs/export.md (every game with ``--all``; N per variant for pydraughts,
evenly spread over the corpus's games of that variant).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pdn_tools.export.canonical import CanonicalOptions, write_canonical
from pdn_tools.export.targets import TARGETS, Form
from pdn_tools.pdn.model import Game, ReadOptions
from pdn_tools.pdn.reader import read_games
from pdn_tools.replay import replay_game
from pdn_tools.replay.resolve import resolve
from pdn_tools.rules import FenError, Position, parse_fen, variant_by_name

ROOT = Path(__file__).resolve().parents[2]
PEERS = ("pydraughts", "py-draughts")
SCRIPT = Path(__file__).with_name("peer_replay.py")
SAMPLE = 40
"""Games per variant the tests compare (the whole corpus takes minutes)."""
PYDRAUGHTS_SAMPLE = 10
"""Games per variant compared with pydraughts in the tests (it is slow)."""

Pieces = tuple[str, frozenset[int], frozenset[int], frozenset[int], frozenset[int]]
"""Side to move, White men, White kings, Black men, Black kings (our numbering)."""


def peer_python(name: str) -> Path | None:
    """The interpreter of the peer's environment (``python3 benchmarks/peers.py`` makes
    it), or None when it is absent."""
    python = ROOT / "benchmarks" / ".venvs" / name / "bin" / "python"
    return python if python.exists() else None


def run_peer(name: str, texts: list[str], timeout: float = 600) -> list[dict[str, object]]:
    """What the peer read of each PDN text (see ``peer_replay.py``)."""
    python = peer_python(name)
    assert python is not None, f"{name} is not installed"
    done = subprocess.run(
        [str(python), str(SCRIPT), name],
        input=json.dumps([{"pdn": t} for t in texts]),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{name} failed: {done.stderr[-2000:]}")
    result: list[dict[str, object]] = json.loads(done.stdout)
    return result


def peer_write(name: str, variant: str, count: int, seed: int) -> list[str]:
    """*count* random games of *variant* played and written by the peer."""
    python = peer_python(name)
    assert python is not None, f"{name} is not installed"
    done = subprocess.run(
        [str(python), str(SCRIPT), name, "--write", variant, str(count), str(seed)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{name} failed: {done.stderr[-2000:]}")
    texts: list[str] = json.loads(done.stdout)
    return texts


def pieces(position: Position) -> Pieces:
    """The position as side to move and piece sets."""
    geo = position.geometry
    return (
        position.turn.value,
        frozenset(geo.squares(position.white_men)),
        frozenset(geo.squares(position.white_kings)),
        frozenset(geo.squares(position.black_men)),
        frozenset(geo.squares(position.black_kings)),
    )


def peer_pieces(fen: str, variant: str, form: Form) -> Pieces | None:
    """The peer's final FEN read in our numbering: its squares (numbers or algebraic)
    read by our FEN reader; on a turned board (py-draughts' English) the squares are
    turned back and the colours exchanged.  None when it does not parse."""
    text = fen.strip()
    if text.startswith("[FEN"):
        text = text.split('"')[1]
    rules = variant_by_name(variant)
    try:
        position = parse_fen(text, rules).position
    except FenError:
        return None
    read = pieces(position)
    if form.squares != "turned":
        return read
    size = position.geometry.size + 1
    turn = "B" if read[0] == "W" else "W"

    def back(squares: frozenset[int]) -> frozenset[int]:
        return frozenset(size - s for s in squares)

    return (turn, back(read[3]), back(read[4]), back(read[1]), back(read[2]))


@dataclass
class Tally:
    """Counts of one peer and variant."""

    compared: int = 0
    agreed: int = 0
    disagreed: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True)
class Case:
    """One corpus game pdn-tools replays to the end without an error: where it is, our
    final position, and its PDN written for each peer that plays its variant."""

    where: str
    variant: str
    ours: Pieces
    plies: int
    texts: dict[str, str]
    black_fen: bool
    setup_inside: bool


def _files(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.rglob("*.pdn") if p.is_file())


def corpus_cases(corpus: Path, peers: tuple[str, ...], per_variant: int | None) -> list[Case]:
    """The corpus games that pdn-tools replays to the end without an error, in a
    variant one of *peers* plays, written for each of them; at most *per_variant* per
    variant (None: all), spread over the files: first one game of each file, then four,
    then all."""
    wanted = {v for peer in peers for v in TARGETS[peer].forms}
    taken: Counter[str] = Counter()
    rounds: list[int | None] = [1, 4, None] if per_variant is not None else [None]
    seen: set[tuple[str, int]] = set()
    cases: list[Case] = []
    files = _files(corpus)
    for per_file in rounds:
        for path in files:
            if per_variant is not None and all(taken[v] >= per_variant for v in wanted):
                return cases
            used = 0
            try:
                for game in read_games(path, ReadOptions()):
                    if per_file is not None and used >= per_file:
                        break
                    key = (str(path), game.index)
                    if key in seen:
                        continue
                    seen.add(key)
                    full = per_variant is not None and taken[game.variant] >= per_variant
                    case = None
                    if game.variant in wanted and not full:
                        case = _case(game, path, corpus, peers)
                    game.close()
                    if case is None:
                        continue
                    used += 1
                    taken[case.variant] += 1
                    cases.append(case)
            except (OSError, ValueError):
                continue
    return cases


def _case(game: Game, path: Path, corpus: Path, peers: tuple[str, ...]) -> Case | None:
    if game.plies == 0:
        return None
    replay = replay_game(game)
    if not replay.completed or replay.final_fen is None:
        return None
    if any(i.level.value == "error" for i in game.issues):
        return None
    resolution = resolve(game, replay)
    variant = resolution.variant
    if variant is None or variant.name != game.variant:
        return None  # a site profile, or a variant the GameType does not name
    final = parse_fen(replay.final_fen, variant).position
    texts = {
        peer: write_canonical(game, resolution, CanonicalOptions(target=peer))
        for peer in peers
        if TARGETS[peer].form(game.variant) is not None
    }
    fen = (game.tag("FEN") or "").strip()
    return Case(
        where=f"{path.relative_to(corpus)}#{game.index}",
        variant=game.variant,
        ours=pieces(final),
        plies=replay.plies,
        texts=texts,
        black_fen=fen[:1].upper() == "B",
        setup_inside=any(n.kind == "setup" for n in game.mainline()),
    )


def why(peer: str, case: Case, answer: dict[str, object]) -> str | None:
    """None when the peer agrees, else the reason it does not, in words (the known
    peer bugs and dialects named as such)."""
    form = TARGETS[peer].form(case.variant)
    assert form is not None
    error = answer.get("error")
    # PDNReader, for a FEN tag whose side to move is not White (Black to move in any
    # variant, English games from a position included), puts the first move in its
    # list twice; the replay then fails at the second ply.
    if (
        peer == "pydraughts"
        and case.black_fen
        and (error is not None or answer.get("plies") != case.plies)
    ):
        return "pydraughts bug: first move read twice after a FEN with Black to move"
    if peer == "py-draughts" and case.setup_inside:
        return "py-draughts refuses set-ups inside the moves"
    if error is not None:
        return f"peer refused the game: {str(error).split(':')[0]}"
    if answer.get("plies") != case.plies:
        return "peer replayed another number of plies"
    fen = answer.get("fen")
    theirs = peer_pieces(str(fen), case.variant, form) if fen is not None else None
    if theirs is None:
        return "peer's final FEN unreadable"
    if theirs != case.ours:
        return "different final position"
    return None


def compare(
    peer: str, cases: list[Case], per_variant: int | None = None, timeout: float = 600
) -> tuple[dict[str, Tally], list[tuple[str, str]]]:
    """Per variant, how many games were compared (at most *per_variant* of each),
    agreed and disagreed (and why), and the disagreeing games."""
    tallies: dict[str, Tally] = {}
    odd: list[tuple[str, str]] = []
    by_variant: dict[str, list[Case]] = {}
    for case in cases:
        if peer in case.texts:
            by_variant.setdefault(case.variant, []).append(case)
    chosen: list[Case] = []
    for group in by_variant.values():
        if per_variant is not None and len(group) > per_variant:
            # evenly spread over the group, which is in corpus order
            group = [group[i * len(group) // per_variant] for i in range(per_variant)]
        chosen.extend(group)
    cases = chosen
    answers = run_peer(peer, [c.texts[peer] for c in cases], timeout) if cases else []
    for case, answer in zip(cases, answers, strict=True):
        tally = tallies.setdefault(case.variant, Tally())
        tally.compared += 1
        reason = why(peer, case, answer)
        if reason is None:
            tally.agreed += 1
        else:
            tally.disagreed[reason] += 1
            odd.append((case.where, reason))
    return tallies, odd


def main() -> int:
    """Print the agreement table of every installed peer."""
    import os

    corpus = Path(os.environ.get("PDN_SHARED_CORPUS") or ROOT.parent / "shared" / "corpus")
    every = "--all" in sys.argv
    only = sys.argv[sys.argv.index("--peer") + 1] if "--peer" in sys.argv else None
    peers = tuple(p for p in PEERS if peer_python(p) is not None and only in (None, p))
    cases = corpus_cases(corpus, peers, None if every else SAMPLE)
    for peer in PEERS if only is None else (only,):
        if peer not in peers:
            print(f"{peer}: not installed (python3 benchmarks/peers.py)")
            continue
        limit = None if every else SAMPLE
        if "--pydraughts" in sys.argv and peer == "pydraughts":
            limit = int(sys.argv[sys.argv.index("--pydraughts") + 1])
        tallies, odd = compare(peer, cases, limit, timeout=7200)
        for variant, tally in sorted(tallies.items()):
            reasons = "; ".join(f"{n} {r}" for r, n in tally.disagreed.most_common())
            print(
                f"| {peer} | {variant} | {tally.compared} | {tally.agreed} | "
                f"{sum(tally.disagreed.values())} | {reasons} |"
            )
        for where, reason in odd[:20]:
            print(f"    {where}: {reason}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
