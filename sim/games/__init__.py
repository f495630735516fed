"""The games: one module per game (what it is, its options, deal, phases, scoring and
kernel), each ending with its declaration (``GAME``, a ``sim.games.base.Game``), and the
helpers they share. The registry of every game is ``sim.registry``.

Importing this package imports no game, so a policy or an observation layout can be
imported on its own.
"""
