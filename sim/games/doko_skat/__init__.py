"""Doppelkopf cards for three (``doko_skat``): stocks, a skat, the first round that decides the
teams and the main game. Its declaration is ``game.GAME``; beside it the card play as a state
(``cardplay``), the observation layout (``observation``), values and settlement (``values``),
the heuristic and the policy dispatch (``heuristic``, ``policies``, ``lookahead``), the worlds a
seat cannot tell apart (``worlds``), the solver (``solver``), the trace codec (``trace``) and
the table screen (``screen``)."""
