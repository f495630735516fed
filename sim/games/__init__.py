"""The games: one package per game family (``skat_family``, ``doko_duell``, ``doko_skat``),
each holding everything its games know (rules and card play, observation, values, kernel
phases, heuristic, lookahead hooks, worlds, solver hooks, trace codec, table screen) and ending
with its declarations (``GAME``, a ``sim.engine.game.Game``). The registry of every game is
``sim.registry``.

Importing this package imports no game, so a policy or an observation layout can be
imported on its own.
"""
