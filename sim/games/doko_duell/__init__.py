"""The Doppelkopf duel (``doko_duell``): two players, hands and 12-card pyramids, markers and
victory points. Its declaration is ``game.GAME``; beside it the card play as a state
(``cardplay``), the observation layout (``observation``), scoring (``values``), the heuristic
and the policy dispatch (``heuristic``, ``policies``, ``lookahead``), the worlds a seat cannot
tell apart (``worlds``), the solver (``solver``), the trace codec (``trace``) and the table
screen (``screen``)."""
