"""The engine every game runs on: the declaration a game makes (``game``), who decides at a
seat (``seats``), the card-play state's shape (``cardplay``), the compiled shard loop and the
decision step (``kernel``), one batch played (``play``) and deals given by hand (``deals``).

It imports nothing above the cards, the random streams, the tricks and the options: a game's
package builds on it, and it names no game.
"""
