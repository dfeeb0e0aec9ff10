"""Every stored fuzz input through every target it was kept for: what the fuzzers
once found stays fixed (tests/fuzz/fuzz.py runs them for longer in .ci/run)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzz_targets import CORPUS, TARGETS

CASES = [(target, path) for target in TARGETS for path in sorted((CORPUS / target).iterdir())]


def test_every_target_has_stored_inputs() -> None:
    for target in TARGETS:
        assert len(list((CORPUS / target).iterdir())) >= 5, target


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_stored_inputs_pass(target: str) -> None:
    func = TARGETS[target]
    paths = [path for name, path in CASES if name == target]
    for path in paths:
        func(Path(path).read_bytes())
