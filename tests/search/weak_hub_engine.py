"""A deliberately weak Hub engine for the client's tests, independent of pdn-tools.

It reads the international position string itself and plays the first forward step of
a man it finds (it never captures: tests give it positions without captures).  It adds
lines and arguments the protocol does not define, which a client must ignore.

Modes (first argument): ``normal``; ``silent`` never answers ``init``; ``illegal``
answers ``done`` with a move that is not on the board; ``crash`` exits on ``go``;
``flood`` answers ``go`` with ``info`` lines without end; ``overlong`` answers ``go``
with a line of a megabyte; ``refuse`` answers every ``pos`` with an ``error`` (and
``go`` with a move of the start position, as a careless engine would).
"""

import sys


def coords(square):
    row = (square - 1) // 5
    col = 2 * ((square - 1) % 5) + (1 if row % 2 == 0 else 0)
    return row, col


def square_at(row, col):
    if not (0 <= row < 10 and 0 <= col < 10) or (row + col) % 2 == 0:
        return None
    return row * 5 + col // 2 + 1


def first_step(position):
    white = position[0] == "W"
    board = position[1:]
    forward = -1 if white else 1
    own = "w" if white else "b"
    for square in range(1, 51):
        if board[square - 1] != own:
            continue
        row, col = coords(square)
        for dc in (-1, 1):
            to = square_at(row + forward, col + dc)
            if to is not None and board[to - 1] == "e":
                return f"{square}-{to}"
    return None


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "normal"
    position = "W" + "b" * 20 + "e" * 10 + "w" * 20
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "hub":
            print('id name="Weak Engine" version=0.0 author="Nobody at all" flavour=plain')
            print('param name=style value="very weak" type=string')
            print("hello there, this line means nothing")
            print("wait")
        elif command == "init":
            if mode != "silent":
                print("ready extra=ignored")
        elif command == "pos":
            position = "W" + "b" * 20 + "e" * 10 + "w" * 20
            if mode == "refuse":
                print('error message="this position is not one I play"')
                sys.stdout.flush()
                continue
            for word in words[1:]:
                if word.startswith("pos="):
                    position = word[4:].strip('"')
        elif command == "go":
            if mode == "crash":
                sys.exit(3)
            if mode == "flood":  # info lines without end, never done
                while True:
                    print('info depth=1 score=0.00 pv=""')
            if mode == "overlong":  # one line of a megabyte
                print("info pv=" + "x" * (1 << 20))
            move = first_step(position)
            if mode == "illegal":
                move = "99-98"
            print(f'info depth=1 score=-0.50 unknown=1 pv="{move}"')
            print(f"done move={move}")
        elif command == "ping":
            print("pong")
        elif command == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
