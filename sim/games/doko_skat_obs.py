"""What one player of Doko-Skat may see: the observation handed to policies.

An ``int64`` array; these constants name its fields. Card sets are masks over the 48-card
deck (one bit per physical card). Before the first round a player sees his three
first-round cards and the turned-up card; every card played (with who played it) as it
is played; after the first round his stock, the teams (``LONE``) and, the lone player,
the skat; every declaration and pass; in a redeal the second turned-up card and the cards
he was given. Never another player's cards, stock, skat or discards.
"""

from __future__ import annotations

(SEAT, PHASE, HAND, LEGAL, FOREHAND, TRICK_NO, TRICK_N, TRICK_LEADER, TRICK_CARD, _C1, _C2,
 FR_PLAYED, _F1, _F2, PLAYED, _P1, _P2, POINTS, _Q1, _Q2, TRICKS, _T1, _T2, FR_TRICKS, _R1, _R2,
 FR_POINTS, _S1, _S2, VOIDS, _V1, _V2, TURNED_UP, FR_GAME, FR_TABLE, GAME, TABLE, LONE, DECLARER,
 NEXT_SPEAKER, REDEAL, SECOND_TURNED_UP, OUT, DISCARDED, SKAT, N_DISCARD, TEAM_ALL,
 COUNT_FIRST_ROUND, BRIDGE_SKAT, LENGTH) = range(50)
"""Field offsets. Per seat (absolute seat numbers): ``FR_PLAYED + s`` the first-round cards
``s`` played, ``PLAYED + s`` his main-game cards, ``POINTS + s`` / ``TRICKS + s`` his
main-game card points and tricks, ``FR_TRICKS + s`` / ``FR_POINTS + s`` his first-round
tricks and their points, ``VOIDS + s`` the effective suits (bit 0-3 plain, bit 4 trump)
he has shown he lacks in the main game. ``TRICK_CARD + k``: the ``k``-th card of the
trick in play (-1: not yet). ``HAND``: the cards the player may play or discard now (his
first-round cards in the first round). ``FR_GAME`` / ``GAME``: game codes
(``doko_skat_values``; -1 while undecided), ``FR_TABLE`` / ``TABLE`` their trick tables.
``LONE``: the lone seat once the first round is over (-1 before). ``DECLARER``: -1 until
someone names a game. ``NEXT_SPEAKER``: who names a game after the deciding seat if it
passes (-1: nobody, a pass then means the redeal). ``REDEAL``: nobody declared.
``OUT``: cards out of the main game for everyone (the first-round tricks; none in a
redeal). ``DISCARDED``: the player's own discards. ``SKAT``: the skat, for the lone
player after the first round (0 for the others). ``N_DISCARD``: cards to discard now.
``TEAM_ALL``, ``COUNT_FIRST_ROUND``, ``BRIDGE_SKAT``: the rules ``team_cards`` (all),
``first_round_points``, ``bridge_order`` (skat)."""

PH_FIRST_ROUND, PH_DECLARE, PH_DISCARD, PH_PLAY = range(4)
