"""The Skat family: three-player Skat (``skat``) and Skat for two with a blind hand
(``skat_en_deux``), each declared in its module (``GAME``).

What the two share: the bidding, skat and declaration questions (``bidding``), the card play as
a state (``cardplay``), the observation layout (``observation``), game values and settlement
(``values``), the heuristics (``heuristic``, ``heuristic_skat_en_deux``) and which policy answers
each question (``policies``, ``lookahead``), the worlds a seat cannot tell apart (``worlds``),
the solver's state and entry points (``search_state``, ``solver``), the trace codecs (``trace``,
``trace_skat_en_deux``), the table screen (``screen``) and the bench's reference kernel
(``reference``)."""
