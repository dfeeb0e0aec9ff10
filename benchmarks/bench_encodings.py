"""How often the code page of a legacy PDN file is told right: ours and a general detector.

Why: files that are not UTF-8 must be read in the code page they were written in, or
every name comes out garbled (``£ukomska``).  ``pdn_tools.pdn.codepages`` scores the
readings of each candidate code page; charset-normalizer is the well-kept general
detector it was measured against (it is not a dependency; the script skips it when it
cannot be imported).  Samples are games with names drawn from ``corpus/names/`` (ours),
encoded in each code page — the names the detector was tuned on, and held-out names
it never saw (``corpus/names/held-out/``); a guess counts as right when it decodes the sample to the
text written (a Western file holding only é and ü reads the same in Windows-1250).

This measures correctness, not time; it runs in a few seconds.

Usage::

    PYTHONPATH=. python3 benchmarks/bench_encodings.py [--trials N]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pdn_tools.pdn.codepages import detect_codepage  # noqa: E402

NAMES = ROOT / "corpus" / "names"
CODE_PAGES = {
    "cp1252": ("western",),
    "cp1250": ("polish", "czech"),
    "iso-8859-2": ("polish", "czech"),
    "cp1251": ("russian", "ukrainian"),
    "koi8-r": ("russian",),
    "koi8-u": ("ukrainian", "russian"),
    "cp866": ("russian",),
}


def _names(codepage: str, folder: Path) -> list[str]:
    out = []
    for language in CODE_PAGES[codepage]:
        for line in (folder / f"{language}.txt").read_text(encoding="utf-8").splitlines():
            if not line or line.startswith("#") or line.isascii():
                continue
            try:
                line.encode(codepage)
            except UnicodeEncodeError:
                continue
            out.append(line)
    return out


def _sample(pool: list[str], games: int, rng: random.Random) -> str:
    return "".join(
        f'[Event "Toernooi {i}"]\n[White "{rng.choice(pool)}"]\n[Black "{rng.choice(pool)}"]\n'
        "1. 32-28 19-23 *\n\n"
        for i in range(games)
    )


def _charset_normalizer() -> object | None:
    try:
        import charset_normalizer
    except ImportError:
        return None
    return charset_normalizer


def _right(data: bytes, text: str, guess: str | None) -> bool:
    if guess is None:
        return False
    try:
        return data.decode(guess) == text
    except (LookupError, UnicodeDecodeError):
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    detector = _charset_normalizer()
    for title, folder in (("tuning names", NAMES), ("held-out names", NAMES / "held-out")):
        print(f"\n{title} ({folder.relative_to(ROOT)}):\n")
        _table(folder, args.trials, args.seed, detector)


def _table(folder: Path, trials: int, seed: int, detector: object | None) -> None:
    print("| Code page | Games | pdn-tools | charset-normalizer |")
    print("|---|---|---|---|")
    for games in (1, 3, 10):
        for codepage in CODE_PAGES:
            rng = random.Random(seed)
            pool = _names(codepage, folder)
            ours = theirs = 0
            for _ in range(trials):
                text = _sample(pool, games, rng)
                data = text.encode(codepage)
                ours += _right(data, text, detect_codepage(data))
                if detector is not None:
                    best = detector.from_bytes(data).best()  # type: ignore[attr-defined]
                    theirs += _right(data, text, best.encoding if best else None)
            share = f"{ours / trials:.1%}"
            other = f"{theirs / trials:.1%}" if detector is not None else "not installed"
            print(f"| {codepage} | {games} | {share} | {other} |")


if __name__ == "__main__":
    main()
