"""Hidden information stays hidden: every observation a Skat policy receives holds only
cards its seat may know at that moment.

The kernels are compiled, so the test runs them as plain Python (``NUMBA_DISABLE_JIT``)
in a subprocess, wraps every ``decide_*`` entry point to record the observation it is
handed, and checks each against the true deal and the actions before it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

from sim import actions as A
from sim.games import skat_obs as O

ROOT = Path(__file__).resolve().parents[1]

SPY = textwrap.dedent("""
    import json, sys
    import numpy as np
    from sim.games import find_game, skat, skat_family

    seen = []
    def spy(name):
        # wrap the policy entry point wherever a kernel module calls it from
        homes = [m for m in (skat, skat_family) if hasattr(m, name)]
        original = getattr(homes[0], name)
        def wrapper(pol, obs, *args):
            seen.append([int(x) for x in obs])
            return original(pol, obs, *args)
        for module in homes:
            setattr(module, name, wrapper)
    for name in ("decide_bid", "decide_yes", "decide_discard", "decide_declaration", "decide_card"):
        spy(name)

    game = find_game("skat")
    out = []
    for rules, policies, first in json.loads(sys.argv[1]):
        for deal in range(first, first + 12):
            seen.clear()
            batch = game.play(5, deal, 1, game.rules(rules), policies, record=True)
            out.append({"columns": {k: int(v[0]) for k, v in batch.columns.items()},
                        "actions": batch.actions[0].tolist(), "observations": list(seen)})
    print(json.dumps(out))
""")

CARD_FIELDS = [O.HAND, O.LEGAL, O.SKAT, O.OPEN_HAND] + [O.PLAYED + s for s in range(3)]


def spied_deals() -> list[dict]:
    runs = [({}, ["heuristic"] * 3, 0), ({"all_pass": "ramsch"}, ["random"] * 3, 100),
            ({"announcements": True}, ["random", "heuristic", "random"], 200)]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-c", SPY, json.dumps(runs)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def mask_cards(mask: int) -> set[int]:
    return {i for i in range(32) if mask >> i & 1}


def test_policies_see_only_what_their_seat_may_know() -> None:
    deals = spied_deals()
    checked = 0
    hidden_somewhere = 0
    for deal in deals:
        cols = deal["columns"]
        hands = [mask_cards(cols[f"hand_{s}"]) for s in range(3)]
        skat_cards = mask_cards(cols["skat"])
        decisions = [a for a in deal["actions"] if a[0] != A.RAMSCH]
        assert len(decisions) == len(deal["observations"])
        played: set[int] = set()
        picked_up = False
        ouvert = False
        declarer = cols["declarer"]
        current = [set(h) for h in hands]
        for (kind, seat, a, _), obs in zip(decisions, deal["observations"]):
            assert obs[O.SEAT] == seat
            allowed = hands[seat] | played
            if seat == declarer and picked_up:
                allowed |= skat_cards
            if ouvert:
                allowed |= current[declarer]
            for field in CARD_FIELDS:
                assert mask_cards(obs[field]) <= allowed, (field, obs, sorted(allowed))
            for k in range(obs[O.TRICK_N]):
                assert obs[O.TRICK_CARD + k] in played
            assert mask_cards(obs[O.HAND]) <= current[seat] | (skat_cards if seat == declarer else set())
            hidden_somewhere += len(set(range(32)) - allowed) > 0
            checked += 1
            if kind == A.PLAY:
                played.add(a)
                current[seat].discard(a)
            elif kind == A.PICKUP:
                picked_up = True
                current[seat] |= skat_cards
            elif kind == A.DISCARD:
                current[seat] -= mask_cards(a)
            elif kind == A.DECLARE:
                ouvert = bool(a & O.DECL_OUVERT)
    assert checked > 500
    assert hidden_somewhere > 0.9 * checked  # only late decisions can see everything


def test_the_skat_stays_hidden_in_hand_games_and_before_pickup() -> None:
    for deal in spied_deals():
        cols = deal["columns"]
        skat_cards = mask_cards(cols["skat"])
        decisions = [a for a in deal["actions"] if a[0] != A.RAMSCH]
        picked = False
        for (kind, seat, _, _), obs in zip(decisions, deal["observations"]):
            if not picked:
                seen = set().union(*(mask_cards(obs[f]) for f in CARD_FIELDS))
                assert not (seen & skat_cards)
            if kind == A.PICKUP:
                picked = True
            if kind == A.HAND:
                assert np.all([obs[O.SKAT] == 0])
