"""Validation benchmark: parse + replay, ours side by side with the replaying peers.

Why: ``pdn validate`` reads every game *and* replays every move against the rules;
that is the work users wait for on a large archive.  Of the peers, py-draughts
(``Board.from_pdn`` per game) and dame-rs (``OpeningBook.from_file``) also replay
what they read, so they are the fair comparison; pydraughts only parses and is left
to ``bench_parse.py``.

Same machinery, file sets and measurements as ``bench_parse.py`` (one child
process per implementation and file set, best of ``--repeat`` inside the child,
peak RSS per child, the generated file repeated ten times for the memory check),
with ``ours-validate`` (``read_games`` + ``replay_game``) as the reference.

Targets checked at the end: our games/s at least twice py-draughts' on every set
where py-draughts did the whole work, and peak memory flat (10x file, at most
1.25x the peak).

Usage::

    python3 benchmarks/peers.py                      # once: peer virtualenvs
    python3 benchmarks/bench_validate.py [--quick] [--repeat N] [--only ours-validate,py-draughts]
    python3 benchmarks/bench_validate.py --install --reference ours-validate-compiled

Prints a table and writes ``benchmarks/results/validate.json``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_parse import Bench, main

VALIDATE = Bench(
    name="validate",
    ours="ours-validate",
    impls=("ours-validate", "ours-validate-compiled", "py-draughts", "dame-rs"),
    target_peer=("py-draughts", 2.0),
    what="parse + replay",
)

if __name__ == "__main__":
    raise SystemExit(main(bench=VALIDATE, doc=__doc__))
