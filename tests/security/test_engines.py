"""A Hub engine is a program pdn-tools starts: only the command line may name it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GAME = '[GameType "20"]\n1. 32-28 19-23 *\n'


def test_a_configuration_file_cannot_name_an_engine(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (tmp_path / "pdn.toml").write_text(f'engine = "touch {marker}"\n', encoding="utf-8")
    (tmp_path / "games.pdn").write_text(GAME, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pdn_tools", "analyse", "games.pdn", "-o", "out.pdn",
         "--nodes", "50"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "engine" in done.stderr
    assert not marker.exists()
    assert not (tmp_path / "out.pdn").exists()
