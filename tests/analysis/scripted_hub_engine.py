"""A scripted Hub engine for the tests of ``pdn analyse``: it answers every search
with what its mode says, so that each way an engine can report is tried for real.

It plays international draughts and always names the first legal move (the rules
engine's order) in ``done``.  Modes (first argument):

- ``quiet``: no ``info`` at all, only ``done``;
- ``nan`` / ``inf``: ``info score=nan`` / ``info score=inf``;
- ``scan``: ``info score=99.95`` (Scan's forced end in 5 plies, for the side to move);
- ``scanlost``: ``info score=-99.96`` (the side to move is lost in 4 plies);
- ``bitbase``: ``info score=89.50`` (Scan's won endgame, distance to the end unknown);
- ``otherpv``: ``info score=0.10`` with a pv that starts with the *last* legal move,
  while ``done`` names the first;
- ``strict``: refuses every ``set-param`` with an ``error``.
"""

import sys

from pdn_tools.rules.generators import legal_moves
from pdn_tools.rules.variant import INTERNATIONAL
from pdn_tools.search.hub import move_text, parse_line, parse_position


def main() -> None:
    mode = sys.argv[1]
    position = None
    for line in sys.stdin:
        command, args = parse_line(line)
        out = []
        if command == "hub":
            out = ["id name=scripted", "wait"]
        elif command == "set-param" and mode == "strict":
            out = [f'error message="I take no {args.get("name")}"']
        elif command == "init":
            out = ["ready"]
        elif command == "pos":
            position = parse_position(args["pos"], INTERNATIONAL)
        elif command == "go" and position is not None:
            moves = [move_text(m) for m in legal_moves(position, INTERNATIONAL)]
            info = {
                "quiet": "",
                "nan": f"info score=nan pv={moves[0]}",
                "inf": f"info score=inf pv={moves[0]}",
                "scan": f"info score=99.95 pv={moves[0]}",
                "scanlost": f"info score=-99.96 pv={moves[0]}",
                "bitbase": f"info score=89.50 pv={moves[0]}",
                "otherpv": f"info score=0.10 pv={moves[-1]}",
                "strict": f"info score=0.00 pv={moves[0]}",
            }[mode]
            out = [info, f"done move={moves[0]}"] if info else [f"done move={moves[0]}"]
        elif command == "quit":
            break
        for text in out:
            print(text, flush=True)


if __name__ == "__main__":
    main()
