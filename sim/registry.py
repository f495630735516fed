"""The game registry: every game the simulator knows, by id."""

from __future__ import annotations

from sim.errors import did_you_mean
from sim.games import doko_duell, doko_skat, skat, skat_en_deux
from sim.games.base import Game

GAMES: dict[str, Game] = {g.name: g for g in (skat.GAME, skat_en_deux.GAME, doko_duell.GAME,
                                             doko_skat.GAME)}
"""Games by id (RULES.md: ``skat``, ``skat_en_deux``, ``doko_duell``, ``doko_skat``)."""


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


__all__ = ["GAMES", "GameError", "find_game", "register"]
