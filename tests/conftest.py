"""Shared fixtures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

TINY_EXPERIMENT = """\
name = "tiny"
game = "skat"
deals = 700
seed = 11
shard_size = 250
policies = ["heuristic", "heuristic", "random"]

[rules]
all_pass = "throw_in"

[[variants]]
name = "ramsch"
rules = { all_pass = "ramsch" }
"""
"""A small experiment: 3 shards (250, 250, 200 deals) x 2 variants."""


@pytest.fixture(scope="session")
def tiny_toml() -> str:
    """The text of the tiny experiment."""
    return TINY_EXPERIMENT


@pytest.fixture
def experiment_file(tmp_path: Path) -> Callable[..., Path]:
    """Write an experiment TOML into ``tmp_path``: the tiny one, or ``text``, edited by
    ``replace`` (old -> new pairs); returns its path."""

    def write(text: str = TINY_EXPERIMENT, name: str = "exp.toml",
              replace: dict[str, str] | None = None) -> Path:
        for old, new in (replace or {}).items():
            assert old in text, old
            text = text.replace(old, new)
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say in one line when the browser tests were skipped (no Chromium here), even under -q."""
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if "test_serve_browser" in getattr(r, "nodeid", "")]
    if skipped:
        reason = skipped[0].longrepr[2] if isinstance(skipped[0].longrepr, tuple) else "skipped"
        terminalreporter.write_line(f"{reason.removeprefix('Skipped: ')} ({len(skipped)} tests)")
