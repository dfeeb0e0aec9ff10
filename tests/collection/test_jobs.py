"""The collection stages with worker processes: ``--jobs 2`` writes what ``--jobs 1``
writes, byte for byte, for every stage (repair and filters run in the workers, the
duplicate decisions and the split files in the writing process, in input order)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run_bytes
from conftest import SAMPLES

from pdn_tools.atomic import Outputs
from pdn_tools.collection.duplicates import Comparison, TagLending
from pdn_tools.collection.filters import GameFilter
from pdn_tools.export.sinks import PdnSink, RejectsSink, Renderer
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.run.convert import Conversion, ConvertOptions, Counts, convert_inputs
from pdn_tools.run.stages import StageOptions
from pdn_tools.run.storage import find

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The planted copies, the planted typos and the samples, several times over in
    one file (so that copies fall into different units of work)."""
    parts = [p.read_bytes() for p in sorted((DATA / "duplicates").glob("*.pdn"))]
    parts.append((DATA / "typos.pdn").read_bytes())
    parts += [p.read_bytes() for p in sorted(SAMPLES.rglob("*.pdn"))]
    path = tmp_path_factory.mktemp("stages") / "archive.pdn"
    path.write_bytes(b"\n\n".join(parts * 3))
    return path


def _convert(path: Path, out: Path, jobs: int, stages: StageOptions) -> Counts:
    """Convert through the runner of ``pdn convert`` (both passes of --merge-tags),
    every game its own unit of work when *jobs* is more than 1."""
    read = ReadOptions(keep_source=True)
    job = ConvertOptions(read, {}, Renderer("pdn"), rejects=True, stages=stages)
    sizes = {"split_bytes": 0, "batch_chars": 1} if jobs > 1 else {}
    files = list(find((str(path),)))
    if stages.two_passes:
        lending = TagLending()
        first = Conversion(None, None, read, observing=lending)
        convert_inputs(files, ConvertOptions(read, {}, observe=True, stages=stages), first,
                       jobs=jobs, **sizes)  # fmt: skip
        job = ConvertOptions(read, {}, Renderer("pdn"), rejects=True, stages=stages,
                             lending=lending)  # fmt: skip
    with Outputs() as outputs:
        sink = PdnSink(outputs.text(str(out)))
        conversion = Conversion(sink, RejectsSink(outputs.text(f"{out}.rejects")), read)
        convert_inputs(files, job, conversion, jobs=jobs, **sizes)
        sink.close()
    return conversion.counts()


@pytest.mark.parametrize(
    "stages",
    [
        StageOptions(repair=True),
        StageOptions(keep=GameFilter(min_plies=6)),
        StageOptions(dedupe=Comparison()),
        StageOptions(dedupe=Comparison(moves_only=True), merge_tags=True, repair=True),
        StageOptions(dedupe=Comparison(prefix=4), keep=GameFilter(invert=True, max_plies=2)),
    ],
    ids=["repair", "filter", "dedupe", "merge-tags", "prefix-filter"],
)
def test_every_game_its_own_unit(archive: Path, tmp_path: Path, stages: StageOptions) -> None:
    one = _convert(archive, tmp_path / "one.pdn", 1, stages)
    two = _convert(archive, tmp_path / "two.pdn", 2, stages)
    assert two == one
    counted = one.written + one.rejected + one.stages.filtered + one.stages.duplicates
    assert one.read == counted > 50
    assert one.stages.repaired + one.stages.filtered + one.stages.duplicates > 0
    for name in ("{}.pdn", "{}.pdn.rejects"):
        first = (tmp_path / name.format("one")).read_bytes()
        assert (tmp_path / name.format("two")).read_bytes() == first


def test_the_command_line_with_jobs(archive: Path, tmp_path: Path) -> None:
    """Split files, the merged tags and the summary line of ``--jobs 2`` are those of
    ``--jobs 1``."""
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        done = run_bytes(
            "convert", str(archive), "-o", str(out), "--split-by", "event", "--dedupe",
            "--merge-tags", "--repair", "--jobs", jobs,
        )  # fmt: skip
        assert b"Traceback" not in done.stderr
        files = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
        said = done.stderr.replace(str(out).encode(), b"OUT")
        runs[jobs] = (done.returncode, said, files)
    assert runs["2"] == runs["1"]
    assert len(runs["1"][2]) > 3
    assert b"duplicate(s) dropped" in runs["1"][1] and b"tag(s) merged" in runs["1"][1]
