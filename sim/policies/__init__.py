"""The players every game shares: ``random``, the ``lookahead`` loop and the solving players
(``pimc``, ``dd``: ``solving``). A game's own heuristic and its dispatch of each question to a
policy live in its package (``sim.games.<family>.policies``); the policies' names and kernel
ids are ``sim.engine.seats``."""
