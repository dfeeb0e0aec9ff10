"""Players of one event: the time to settle its spellings, with and without the join
of mis-written names by the rounds (the ``player-variants`` rule).

Why: the join by the rounds compares every spelling of one or two games with the
players whose name it may mis-write, and a large open or an online archive may hold
thousands of both.  The candidates come from two indexes (full words; the surname's
one-letter deletions beside the other words), so the cost should stay a small
multiple of settling the spellings without it, growing with the event's records.

The event is generated: PLAYERS players with random surnames and an initial (and 26
relatives who share one surname), paired at random in ROUNDS rounds, each name
written with another initial in MISTAKES percent of its games.  Each figure is the
best of REPEAT runs of :class:`pdn_tools.collection.events.roster.Roster` in this
process (whichever build ``import pdn_tools`` finds: run with the compiled wheel's
interpreter and ``PYTHONSAFEPATH=1`` for the compiled figure).

Usage::

    python3 benchmarks/bench_roster.py
    python3 benchmarks/bench_roster.py --players 2000 --rounds 40 --mistakes 2 --repeat 5
"""

from __future__ import annotations

import argparse
import random
import string
import time


def event(
    players: int, rounds: int, mistakes: float, seed: int
) -> tuple[list[tuple[str | None, str | None]], list[int | None]]:
    """The pairings and round numbers of a generated event (see the module text)."""
    rng = random.Random(seed)

    def surname() -> str:
        size = rng.randint(5, 9)
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(size)).capitalize()

    names = [f"{surname()}, {rng.choice(string.ascii_uppercase)}." for _ in range(players)]
    names += [f"Jansen, {letter}." for letter in string.ascii_uppercase]
    pairings: list[tuple[str | None, str | None]] = []
    numbers: list[int | None] = []
    for number in range(1, rounds + 1):
        order = names[:]
        rng.shuffle(order)
        for at in range(0, len(order) - 1, 2):
            white, black = order[at], order[at + 1]
            if rng.random() * 100 < mistakes:
                white = f"{white[:-2]}{rng.choice(string.ascii_uppercase)}."
            pairings.append((white, black))
            numbers.append(number)
    return pairings, numbers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--mistakes", type=float, default=2.0, help="percent of games")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from pdn_tools.collection.events.roster import Roster
    from pdn_tools.version import build

    pairings, numbers = event(args.players, args.rounds, args.mistakes, args.seed)
    found: dict[bool, int] = {}
    best: dict[bool, float] = {}
    for variants in (False, True):
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            roster = Roster(pairings, rounds=numbers, variants=variants)
            times.append(time.perf_counter() - started)
        best[variants] = min(times)
        found[variants] = len(roster.players)
    print(
        f"{len(pairings):,} records, {args.rounds} rounds ({build()}): "
        f"{found[False]:,} players without the join by the rounds in {best[False]:.3f} s, "
        f"{found[True]:,} with it in {best[True]:.3f} s "
        f"({best[True] / best[False]:.1f} times)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
