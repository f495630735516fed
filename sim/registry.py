"""The game registry: every game the simulator knows, by id."""

from __future__ import annotations

from sim.engine.game import Game
from sim.errors import did_you_mean
from sim.games.doko_duell import game as doko_duell
from sim.games.doko_skat import game as doko_skat
from sim.games.skat_family import skat, skat_en_deux

GAMES: dict[str, Game] = {g.name: g for g in (skat.GAME, skat_en_deux.GAME, doko_duell.GAME,
                                             doko_skat.GAME)}
"""Games by id (RULES.md: ``skat``, ``skat_en_deux``, ``doko_duell``, ``doko_skat``)."""


PACE_REFERENCE = "sim.games.skat_family.reference"
"""The module of the bench's reference kernel (``play_reference``): Skat's deal and 30
follow-suit plays, the machine's pace the games' deals per second are read against."""


class GameError(ValueError):
    """An unknown game id."""


def find_game(name: str) -> Game:
    """The registered game ``name``."""
    try:
        return GAMES[name]
    except KeyError:
        raise GameError(f"unknown game {name!r} (games: {', '.join(GAMES)})"
                        f"{did_you_mean([name], GAMES)}") from None


def register(game: Game) -> Game:
    """Add ``game`` to the registry (a game declared outside ``sim.games``, such as the toy
    game of the tests); returns it. Another game of the same name is refused."""
    if game.name in GAMES and GAMES[game.name] is not game:
        raise GameError(f"a game named {game.name!r} is registered already")
    GAMES[game.name] = game
    return game


__all__ = ["GAMES", "PACE_REFERENCE", "GameError", "find_game", "register"]
