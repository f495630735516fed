"""Skat-en-deux's parts of a deal trace (``TRACE.md``): Skat's codec with the blind.

The Skat family's codec (``sim.games.skat_family.trace.SkatFamilyTrace``) set up for two
players:

* ``cards``: ``hands`` (2 lists of 10, by player), ``blind`` (10), ``skat`` (2);
* ``actions``: Skat's, plus ``give_up`` (``game``: the intended game named after the
  pickup, null at 18), ``offer`` (``"raus"`` / ``"stich"``),
  ``accept``, ``reject``, ``contra``, ``re``; ``seat`` is always the player who
  decided (never a table place), so the blind's cards are played by the defender
  with ``from`` ``"blind"``. A declined offer, Contra or Re and a give-up not
  taken leave no action. ``declare.open_level`` is the open level (0-2);
* ``result``: Skat's fields (``points`` in ramsch without the skat), then the
  result columns the Parquet rows add: ``open_level``, ``give_up``, ``offer`` (the first
  offer: ``"raus"``, ``"stich"`` or null), ``second_offer_trick`` (the trick a "Stich"
  after a rejected "raus" came before, or null), ``accepted``, ``contra``, ``re``,
  ``ramsch_loser`` (player or null), ``ramsch_tie_last_trick``.
"""

from __future__ import annotations

from sim.games.skat_family import skat_en_deux
from sim.games.skat_family.trace import SkatFamilyTrace
from sim.trace_codec import flag, label, number, player, trick_number

CODEC = SkatFamilyTrace(
    skat_en_deux,
    actions=("bid", "hold", "pass", "pickup", "hand", "give_up", "discard", "declare", "ramsch",
             "offer", "accept", "reject", "contra", "re", "play"),
    play_from=("hand", "blind"),
    places=("blind",),
    offers=skat_en_deux.OFFERS,
    extra_result=(("open_level", number), ("give_up", flag),
                  ("offer", label(skat_en_deux.OFFERS)),
                  ("second_offer_trick", trick_number), ("accepted", flag), ("contra", flag),
                  ("re", flag), ("ramsch_loser", player), ("ramsch_tie_last_trick", flag)),
)
"""Skat-en-deux's codec."""
