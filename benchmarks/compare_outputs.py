"""Write every output the ``pdn`` command line makes of a corpus, and compare two runs.

A change that should not alter any output (a faster reader, a compiled module, a
refactoring) is checked by running this script before and after it over the same
corpus and comparing the two folders::

    python benchmarks/compare_outputs.py run --python PY --out DIR CORPUS
    python benchmarks/compare_outputs.py compare DIR_A DIR_B

``run`` starts ``PY -m pdn_tools`` (any interpreter with pdn-tools installed: the
pure build, installed editable, or a venv holding the compiled wheel) once per
output: ``validate`` in every ``--format`` (and ``--info``, ``--strict``,
``--syntax-only``), ``convert`` to PDN (as read, and with the PDN clean-up options),
JSON, JSON Lines and Parquet with the moves table and the record column, ``stats``,
``duplicates`` and ``events`` in each of their formats, ``report`` and ``schema``.
Each output goes to a file of DIR named after the command, with the command's exit
status and standard error beside it (``NAME.status``, ``NAME.stderr``) and the command
lines in ``commands.txt``; ``manifest.json`` says which build ran (``--version``,
where ``pdn_tools`` was imported from).  Inputs are named as given, so both runs must
be given CORPUS spelt alike (an absolute path is safest): the outputs hold it.
``PYTHONSAFEPATH=1`` keeps the current directory off the child's ``sys.path``, so a
compiled venv imports its own package even when run from a checkout.

``compare`` compares every file of DIR_A with its namesake in DIR_B byte for byte and
prints one line per difference (and the first differing line of text files); exit
status 0 when the folders agree, 1 when not.  Parquet files that differ in bytes are
compared by content: both are read with pyarrow, the conversion id that every
``pdn convert`` run draws anew (``20261124T073512-3fa9c2d1``, the prefix of each
``record_id``) is replaced by a placeholder, and then the schemas with their
key-value metadata, the row-group sizes and every value must be equal.  File-level
metadata that pyarrow writes about itself (``created_by``: the writer's version) is
not compared; the line says when it differed.  ``manifest.json`` is printed, not
compared (the builds' version lines differ by design).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

#: One output: its name, the arguments after ``pdn`` (``{corpus}`` and ``{out}`` are
#: filled in) and whether the output is standard output (else a file the command
#: writes, named by the arguments).
OUTPUTS: list[tuple[str, list[str], bool]] = [
    ("validate.txt", ["validate", "{corpus}", "--color", "never"], True),
    ("validate-info.txt", ["validate", "{corpus}", "--info", "--color", "never"], True),
    ("validate-nogroup.txt", ["validate", "{corpus}", "--no-group", "--color", "never"], True),
    ("validate.jsonl", ["validate", "{corpus}", "--format", "jsonl"], True),
    ("validate.json", ["validate", "{corpus}", "--format", "json"], True),
    ("validate.github", ["validate", "{corpus}", "--format", "github"], True),
    ("validate.sarif", ["validate", "{corpus}", "--format", "sarif"], True),
    ("validate.junit.xml", ["validate", "{corpus}", "--format", "junit"], True),
    ("validate.html", ["validate", "{corpus}", "--format", "html"], True),
    ("validate-strict.jsonl", ["validate", "{corpus}", "--strict", "--format", "jsonl"], True),
    ("validate-syntax.jsonl", ["validate", "{corpus}", "--syntax-only", "--format", "jsonl"], True),
    ("convert.pdn", ["convert", "{corpus}", "-o", "{out}/convert.pdn"], False),
    (
        "convert-clean.pdn",
        [
            "convert",
            "{corpus}",
            "-o",
            "{out}/convert-clean.pdn",
            "--strip-comments",
            "--strip-variations",
            "--normalise-results",
        ],
        False,
    ),
    ("convert.json", ["convert", "{corpus}", "-o", "{out}/convert.json"], False),
    ("convert.jsonl", ["convert", "{corpus}", "-o", "{out}/convert.jsonl"], False),
    (
        "convert.parquet",
        [
            "convert",
            "{corpus}",
            "-o",
            "{out}/convert.parquet",
            "--moves-table",
            "{out}/moves.parquet",
            "--with-record",
            "--rejects",
            "{out}/rejects.pdn",
        ],
        False,
    ),
    (
        "convert-dedupe.jsonl",
        ["convert", "{corpus}", "-o", "{out}/convert-dedupe.jsonl", "--dedupe"],
        False,
    ),
    ("stats.txt", ["stats", "{corpus}", "--color", "never"], True),
    ("stats.json", ["stats", "{corpus}", "--format", "json"], True),
    ("duplicates.txt", ["duplicates", "{corpus}", "--color", "never"], True),
    ("duplicates.jsonl", ["duplicates", "{corpus}", "--format", "jsonl"], True),
    ("events.txt", ["events", "{corpus}", "--color", "never"], True),
    ("events-crosstable.txt", ["events", "{corpus}", "--crosstable", "--color", "never"], True),
    ("events.json", ["events", "{corpus}", "--format", "json"], True),
    ("report.html", ["report", "{corpus}", "-o", "{out}/report.html"], False),
    ("schema-game.json", ["schema", "game"], True),
    ("schema-report.json", ["schema", "report"], True),
    ("schema-event.json", ["schema", "event"], True),
]

_CONVERSION_ID = re.compile(r"\d{8}T\d{6}-[0-9a-f]{8}")


def run(python: str, out: Path, corpus: str, jobs: int, only: list[str]) -> int:
    """Write every output of *corpus* made by ``python -m pdn_tools`` into *out*."""
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONSAFEPATH": "1", "NO_COLOR": "1", "COLUMNS": "100"}
    probe = subprocess.run(
        [python, "-c", "import pdn_tools, sys; print(pdn_tools.__file__); print(sys.version)"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    version = subprocess.run(
        [python, "-m", "pdn_tools", "--version"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    manifest = {
        "python": python,
        "version": version.stdout.strip(),
        "package": probe.stdout.splitlines()[0],
        "python_version": probe.stdout.splitlines()[1],
        "corpus": corpus,
        "pythonpath": os.environ.get("PYTHONPATH", ""),
        "seconds": {},
    }
    lines = []
    for name, template, to_stdout in OUTPUTS:
        if only and name not in only:
            continue
        args = [a.format(corpus=corpus, out=out) for a in template]
        if args[0] in {"validate", "convert", "stats", "duplicates", "events", "report"}:
            args += ["--jobs", str(jobs)]
        if args[0] in {"validate", "stats", "duplicates", "events", "report"}:
            args.append("--quiet")  # no progress bar (convert has none, and no --quiet)
        command = [python, "-m", "pdn_tools", *args]
        lines.append(" ".join(command))
        started = time.perf_counter()
        with (out / f"{name}.stderr").open("wb") as err:
            if to_stdout:
                with (out / name).open("wb") as stdout:
                    done = subprocess.run(command, stdout=stdout, stderr=err, env=env, check=False)
            else:
                done = subprocess.run(
                    command, stdout=subprocess.DEVNULL, stderr=err, env=env, check=False
                )
        seconds = time.perf_counter() - started
        manifest["seconds"][name] = round(seconds, 2)  # type: ignore[index]
        (out / f"{name}.status").write_text(f"{done.returncode}\n")
        print(f"{name}: exit {done.returncode}, {seconds:.1f} s", file=sys.stderr)
    (out / "commands.txt").write_text("\n".join(lines) + "\n")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return 0


def _parquet_difference(a: Path, b: Path) -> str | None:
    """Why two Parquet files hold different data (None: the same content)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    def load(path: Path) -> tuple[pa.Table, list[int], str, dict[bytes, bytes]]:
        file = pq.ParquetFile(path)
        meta = file.metadata
        groups = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
        table = file.read()
        columns = []
        for column in table.columns:
            if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
                column = pc.replace_substring_regex(column, _CONVERSION_ID.pattern, "<conversion>")
            columns.append(column)
        schema_meta = {
            k: _CONVERSION_ID.sub("<conversion>", v.decode("utf-8", "replace")).encode()
            for k, v in (table.schema.metadata or {}).items()
        }
        table = pa.Table.from_arrays(columns, schema=table.schema.remove_metadata())
        return table, groups, meta.created_by, schema_meta

    ta, ga, ca, ma = load(a)
    tb, gb, cb, mb = load(b)
    if ta.schema != tb.schema:
        fields_a = {f.name: f for f in ta.schema}
        fields_b = {f.name: f for f in tb.schema}
        names = sorted(set(fields_a) | set(fields_b))
        changed = [n for n in names if fields_a.get(n) != fields_b.get(n)]
        shown = "; ".join(f"{fields_a.get(n)} / {fields_b.get(n)}" for n in changed[:5])
        return f"schemas differ in {', '.join(changed)}: {shown}"
    if ma != mb:
        keys = sorted(k.decode() for k in set(ma) | set(mb) if ma.get(k) != mb.get(k))
        return f"schema metadata differs: {', '.join(keys)}"
    if ga != gb:
        return f"row groups differ: {ga} != {gb}"
    if not ta.equals(tb):
        for name in ta.column_names:
            if not ta[name].equals(tb[name]):
                return f"column {name!r} differs"
        return "values differ"
    note = "" if ca == cb else f" (created_by {ca!r} / {cb!r})"
    return f"=same content{note}"


def _first_difference(a: Path, b: Path) -> str:
    """The first differing line of two text files, as a short unified diff."""
    try:
        la = a.read_text(encoding="utf-8").splitlines()
        lb = b.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        return "binary files differ"
    diff = list(difflib.unified_diff(la, lb, str(a), str(b), n=0, lineterm=""))
    return "\n".join(line[:300] for line in diff[:8])


def compare(a: Path, b: Path) -> int:
    """Compare two output folders; print the differences; 0 when they agree."""
    names_a = {p.name for p in a.iterdir() if p.is_file()}
    names_b = {p.name for p in b.iterdir() if p.is_file()}
    differ = missing = 0
    for side, names in ((a, names_a - names_b), (b, names_b - names_a)):
        for name in sorted(names):
            print(f"{name}: only in {side}")
            missing += 1
    for name in sorted(names_a & names_b):
        if name == "manifest.json":
            for path in (a, b):
                info = json.loads((path / name).read_text())
                print(f"{path}: {info['version']} ({info['package']})")
            continue
        if name == "commands.txt":
            continue  # the interpreter and output folder differ by design
        pa_, pb = a / name, b / name
        if pa_.read_bytes() == pb.read_bytes():
            continue
        if name.endswith(".parquet"):
            why = _parquet_difference(pa_, pb)
            if why is not None and why.startswith("="):
                print(f"{name}: bytes differ, {why[1:]}")
                continue
            print(f"{name}: DIFFERS: {why}")
        elif name.endswith(".stderr"):
            print(f"{name}: DIFFERS\n{_first_difference(pa_, pb)}")
        else:
            print(f"{name}: DIFFERS\n{_first_difference(pa_, pb)}")
        differ += 1
    compared = len(names_a & names_b)
    print(
        f"{compared} files compared, {differ} differ, {missing} in one folder only",
        file=sys.stderr,
    )
    return 1 if differ or missing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run", help="write every output of CORPUS into DIR")
    run_parser.add_argument("corpus", metavar="CORPUS")
    run_parser.add_argument("--python", default=sys.executable, help="interpreter to run")
    run_parser.add_argument("--out", required=True, type=Path, metavar="DIR")
    run_parser.add_argument("--jobs", type=int, default=2, help="--jobs of each command (2)")
    run_parser.add_argument(
        "--only", action="append", default=[], metavar="NAME", help="only this output (repeat)"
    )
    compare_parser = commands.add_parser("compare", help="compare two output folders")
    compare_parser.add_argument("a", type=Path, metavar="DIR_A")
    compare_parser.add_argument("b", type=Path, metavar="DIR_B")
    args = parser.parse_args()
    if args.command == "run":
        return run(args.python, args.out, args.corpus, args.jobs, args.only)
    return compare(args.a, args.b)


if __name__ == "__main__":
    raise SystemExit(main())
