"""The docs say what the code does: every option of every game, with its default and
allowed values, stands in the game's page, and the README opens with the two commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_game_page_lists_every_option(name: str) -> None:
    page = (ROOT / "docs" / f"{name}.md").read_text()
    for row in GAMES[name].options.describe():
        allowed = ", ".join(f"`{a}`" for a in row["allowed"].split(", "))
        assert f"| `{row['name']}` | `{row['default']}` | {allowed} |" in page, row["name"]


def test_readme_opens_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text()
    block = text.split("```")[1]
    commands = [line.split("#")[0].strip() for line in block.splitlines()[1:] if line.strip()]
    assert commands == ["make run", "make test"]


@pytest.mark.parametrize("name", sorted(n for n, g in GAMES.items() if g.net is not None))
def test_game_page_quotes_its_learned_player_with_the_command(name: str) -> None:
    page = (ROOT / "docs" / f"{name}.md").read_text()
    section = page.split("## The learned player", 1)[1].split("\n## ", 1)[0]
    assert f"stichsim arena {name} --policies net,heuristic" in section
    assert f"stichsim arena {name} --policies net,lookahead:64" in section
    assert "stichsim bench" in section and "start player" in section


@pytest.mark.parametrize("name", sorted(n for n, g in GAMES.items() if g.net is not None))
def test_game_page_names_the_command_its_shipped_weights_were_trained_by(name: str) -> None:
    """The command is rebuilt from the settings the weights file records (``sim.learn.train``
    writes them), so the page cannot go on quoting an older run's."""
    import json

    import numpy as np

    from sim.engine.play import shipped
    from sim.learn.train import command

    with np.load(shipped(GAMES[name])) as data:
        about = json.loads(str(data["about"]))
    full = command(about)
    short = full.replace(" --teacher lookahead:64", "")  # the default teacher may go unsaid
    page = (ROOT / "docs" / f"{name}.md").read_text()
    assert full in page or short in page, short
