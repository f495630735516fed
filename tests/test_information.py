"""Hidden information stays hidden: every observation a Skat, Skat-en-deux, Doppelkopf-duel or
Doko-Skat policy receives holds only cards its seat (in Skat-en-deux: the player deciding) may
know at that moment.

The kernels are compiled, so the test runs them as plain Python (``NUMBA_DISABLE_JIT``)
in a subprocess, wraps every ``decide_*`` entry point to record the observation it is
handed, and checks each against the true deal and the actions before it.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

from sim import actions as A
from sim.cards import DOKO_DECK_48
from sim.engine.play import play
from sim.games.doko_duell.observation import FIELDS as DO
from sim.games.doko_duell.observation import PH_PLAY
from sim.games.doko_skat.observation import FIELDS as KO
from sim.games.skat_family.observation import (
    DECL_OPEN_SHIFT,
    DECL_OUVERT,
    OFFER_NONE,
    PH_CONTRA,
    PH_GIVE_UP,
    PH_RE,
)
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import PH_PLAY as SKAT_PLAY

ROOT = Path(__file__).resolve().parents[1]

SPY = textwrap.dedent("""
    import json, sys
    import numpy as np
    from sim.engine.play import play
    from sim.games.doko_duell import game as doko_duell
    from sim.games.doko_skat import game as doko_skat
    from sim.games.skat_family import skat
    from sim.games.skat_family import skat_en_deux
    from sim.games.skat_family import bidding as skat_family
    from sim.registry import find_game

    seen = []
    def spy(module, name):
        # wrap the policy entry point wherever a kernel module calls it from
        original = getattr(module, name)
        def wrapper(pol, obs, *args):
            observed = [int(x) for x in obs]
            result = original(pol, obs, *args)
            seen.append([name, observed, int(result)])
            return result
        setattr(module, name, wrapper)
    for module in (skat, skat_en_deux, skat_family, doko_duell, doko_skat):
        for name in ("decide_bid", "decide_yes", "decide_discard", "decide_declaration",
                     "decide_card", "decide_offer"):
            if hasattr(module, name):
                spy(module, name)

    out = []
    for name, rules, policies, deals in json.loads(sys.argv[1]):
        game = find_game(name)
        for deal in deals:
            seen.clear()
            batch = play(game, 5, deal, 1, game.rules(rules), policies, record=True)
            out.append({"game": name, "rules": rules, "policies": policies,
                        "columns": {k: int(v[0]) for k, v in batch.columns.items()},
                        "actions": batch.actions[0].tolist(), "observations": list(seen)})
    print(json.dumps(out))
""")

CARD_FIELDS = [O.HAND, O.LEGAL, O.SKAT, O.OPEN_HAND] + [O.PLAYED + s for s in range(3)]


def card_fields(obs: list[int]) -> list[int]:
    """The fields of a Skat observation that hold cards: ``LEGAL`` only in the card play
    (at a yes or no before it, the answers' codes: 0b11, or the pass alone, which a network
    reads)."""
    if obs[O.PHASE] == SKAT_PLAY:
        return CARD_FIELDS
    assert obs[O.LEGAL] in (0, 0b1, 0b11), obs[O.LEGAL]
    return [f for f in CARD_FIELDS if f != O.LEGAL]

SKAT_RUNS = [("skat", {}, ["heuristic"] * 3, list(range(0, 12))),
             ("skat", {"all_pass": "ramsch"}, ["random"] * 3, list(range(100, 112))),
             ("skat", {"announcements": True}, ["random", "heuristic", "random"],
              list(range(200, 212)))]


@functools.cache
def _spy(runs_json: str) -> list[dict]:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-c", SPY, runs_json], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def spied_deals() -> list[dict]:
    """Skat deals with the observations their policies received."""
    return [dict(deal, observations=[obs for _, obs, _ in deal["observations"]])
            for deal in _spy(json.dumps(SKAT_RUNS))]


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
            for field in card_fields(obs):
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
                ouvert = bool(a & DECL_OUVERT)
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
                seen = set().union(*(mask_cards(obs[f]) for f in card_fields(obs)))
                assert not (seen & skat_cards)
            if kind == A.PICKUP:
                picked = True
            if kind == A.HAND:
                assert np.all([obs[O.SKAT] == 0])


# --- skat_en_deux -------------------------------------------------------------------------------
#
# Observation seats are table places (forehand 0, the blind 1, rearhand 2; in ramsch
# forehand 0 and rearhand 1); action rows name the player. A declined give-up, offer,
# Contra or Re leaves no row, so the spy records each decision's answer too.

FH, BLIND, RH = 0, 1, 2
SED_RUNS = [({}, ["heuristic"] * 2), ({"contra_re": True, "open_hand": True}, ["random"] * 2),
            ({"contra_re": True}, ["heuristic", "random"]),
            ({"all_pass": "throw_in", "give_up_after_pickup": True}, ["random", "heuristic"]),
            ({"offers": True, "offer_timing": "from_declaration"}, ["random", "heuristic"])]
SED_FIELDS = CARD_FIELDS + [O.BLIND, O.KNOWN]
ROWS_OF = {"decide_bid": {A.BID, A.PASS},
           "decide_yes": {A.HOLD, A.PASS, A.BID, A.PICKUP, A.HAND, A.GIVE_UP, A.ACCEPT, A.REJECT,
                          A.CONTRA, A.RE},
           "decide_discard": {A.DISCARD}, "decide_declaration": {A.DECLARE},
           "decide_card": {A.PLAY}, "decide_offer": {A.OFFER}}


def _sed_kind(c: dict, i: int) -> tuple:
    if c["ramsch"][i] or c["passed_out"][i] or c["give_up"][i]:
        return (bool(c["ramsch"][i]), bool(c["give_up"][i]))
    return (int(c["game"][i]) == 5, int(c["open_level"][i]), bool(c["ouvert"][i]),
            bool(c["hand"][i]), int(c["declarer_position"][i]), bool(c["offer"][i]),
            bool(c["accepted"][i]), bool(c["contra"][i]))


@functools.cache
def _sed_selection() -> tuple[str, dict]:
    """Deals of every kind (open level, hand, declarer's place, offers, ramsch, give-up),
    two of each, chosen from compiled runs; their compiled result columns."""
    from sim.registry import find_game

    game = find_game("skat_en_deux")
    runs, expected = [], {}
    for n, (rules, policies) in enumerate(SED_RUNS):
        c = play(game, 5, 0, 3000, game.rules(rules), policies).columns
        taken: dict[tuple, int] = {}
        deals = []
        for i in range(3000):
            key = _sed_kind(c, i)
            if taken.get(key, 0) < 2:
                taken[key] = taken.get(key, 0) + 1
                deals.append(i)
                expected[(n, i)] = {k: int(v[i]) for k, v in c.items()}
        runs.append(("skat_en_deux", rules, policies, deals))
    return json.dumps(runs), expected


def sed_spied() -> list[dict]:
    runs_json, expected = _sed_selection()
    deals = _spy(runs_json)
    keys = [(n, d) for n, run in enumerate(json.loads(runs_json)) for d in run[3]]
    assert len(deals) == len(keys)
    for key, deal in zip(keys, deals):
        # the plain-Python run (spied) is the compiled run
        assert deal["columns"] == expected[key], key
    return deals


def test_plain_python_runs_play_the_compiled_game() -> None:
    runs_json, expected = _sed_selection()
    keys = [(n, d) for n, run in enumerate(json.loads(runs_json)) for d in run[3]]
    differ = [key for key, deal in zip(keys, _spy(runs_json)) if deal["columns"] != expected[key]]
    assert not differ, (f"{len(differ)} of {len(keys)} skat_en_deux deals play differently "
                        f"with NUMBA_DISABLE_JIT (run, deal): {differ[:5]}")


def sed_walk(deal: dict) -> list[dict]:
    """Each decision of a deal with what its player may know at that moment: his place's
    cards, the cards played, the skat if he (the declarer) picked it up, the blind once the
    opening lead is out, and for the defender the declarer's hand once an open game lays it
    down (zweimal offen and null ouvert at the declaration, einmal offen after the first
    trick)."""
    cols = deal["columns"]
    dealer = cols["dealer"]
    fh = 1 - dealer
    declarer = cols["declarer"]
    defender = 1 - declarer
    places = [mask_cards(cols[f"hand_{fh}"]), mask_cards(cols["blind"]),
              mask_cards(cols[f"hand_{dealer}"])]
    skat = mask_cards(cols["skat"])
    current = [set(p) for p in places]
    rows = [r for r in deal["actions"] if r[0] != A.RAMSCH]
    played: set[int] = set()
    plays = 0
    picked = declared = laid_down = False
    discard: set[int] = set()
    open_level = 0
    decl_place = FH if declarer == fh else RH
    out = []
    r = 0
    for name, obs, result in deal["observations"]:
        phase = obs[O.PHASE]
        ramsch = bool(obs[O.RAMSCH])
        if ramsch:
            place = FH if obs[O.SEAT] == 0 else RH
        else:
            place = obs[O.SEAT]
        player = fh if place == FH else dealer if place == RH else defender
        home = FH if player == fh else RH  # the place of his own ten cards
        allowed = current[home] | current[place] | played
        if player == declarer and picked:
            allowed |= skat | discard  # he took the skat and knows what he put away
        if declared and plays:
            allowed |= places[BLIND]
        if declared and player == defender and laid_down:
            allowed |= current[decl_place]
        out.append({"name": name, "obs": obs, "player": player, "place": place,
                    "allowed": allowed, "declared": declared, "plays": plays, "ramsch": ramsch,
                    "laid_down": laid_down, "declarer": declarer if declared else -1,
                    "current": [set(h) for h in current], "discard": set(discard),
                    "picked": picked, "decl_place": decl_place})
        silent = (name == "decide_yes" and phase in (PH_GIVE_UP, PH_CONTRA, PH_RE)
                  and not result) or (name == "decide_offer" and result == OFFER_NONE)
        if silent:
            continue
        kind, who, a, b = rows[r]
        r += 1
        assert kind in ROWS_OF[name] and who == player, (name, rows[r - 1], player)
        if kind == A.PLAY:
            assert b == (1 if place == BLIND else 0)
            assert a in current[place]
            played.add(a)
            current[place].discard(a)
            plays += 1
            if declared and open_level == 1 and plays == 3:
                laid_down = True  # einmal offen: after the first trick
        elif kind == A.PICKUP:
            picked = True
            current[place] |= skat
        elif kind == A.DISCARD:
            discard = mask_cards(a)
            current[place] -= discard
        elif kind == A.DECLARE:
            declared = True
            open_level = (a >> DECL_OPEN_SHIFT) & 3
            laid_down = open_level == 2 or bool(a & DECL_OUVERT)
    assert r == len(rows), "recorded actions without a decision"
    return out


def sed_card_fields(obs: list[int]) -> list[int]:
    """The fields of a Skat-en-deux observation that hold cards: ``LEGAL`` only in the card
    play (between tricks it holds the codes of the answers allowed, an offer's 0-2 or a
    no/yes, which the network reads)."""
    if obs[O.PHASE] == SKAT_PLAY:
        return SED_FIELDS
    assert obs[O.LEGAL] in (0, 0b1, 0b11, 0b101, 0b111), obs[O.LEGAL]
    return [f for f in SED_FIELDS if f != O.LEGAL]


def seen_cards(obs: list[int]) -> set[int]:
    seen = set().union(*(mask_cards(obs[f]) for f in sed_card_fields(obs)))
    return seen | {obs[O.TRICK_CARD + k] for k in range(3) if obs[O.TRICK_CARD + k] >= 0}


def test_skat_en_deux_spied_deals_cover_every_kind() -> None:
    deals = sed_spied()
    kinds = {(d["rules"].get("contra_re", False),) + _sed_kind(
        {k: [v] for k, v in d["columns"].items()}, 0) for d in deals}
    assert len(deals) > 100 and len(kinds) > 50
    levels = {(d["columns"]["open_level"], d["columns"]["declarer_position"]) for d in deals
              if d["columns"]["declarer"] >= 0 and not d["columns"]["give_up"]}
    assert levels == {(lv, pos) for lv in (0, 1, 2) for pos in (FH, RH)}
    assert any(d["columns"]["ouvert"] for d in deals)
    assert any(d["columns"]["ramsch"] for d in deals)
    assert any(d["columns"]["accepted"] for d in deals)
    assert any(d["columns"]["contra"] for d in deals)


def test_skat_en_deux_policies_see_only_what_their_player_may_know() -> None:
    checked = 0
    for deal in sed_spied():
        for d in sed_walk(deal):
            obs, allowed = d["obs"], d["allowed"]
            for field in sed_card_fields(obs):
                assert mask_cards(obs[field]) <= allowed, (deal["columns"]["deal"], d["name"],
                                                           field, sorted(mask_cards(obs[field])
                                                                         - allowed))
            for k in range(3):
                assert obs[O.TRICK_CARD + k] == -1 or obs[O.TRICK_CARD + k] in allowed
            assert mask_cards(obs[O.HAND]) == d["current"][d["place"]]
            checked += 1
    assert checked > 3000


def test_skat_en_deux_give_up_shows_the_skat_found() -> None:
    """A give-up at 18 after the pickup shows the declarer the skat he found among his twelve
    cards (``SKAT``); before the pickup it shows none."""
    asked = {True: 0, False: 0}
    for deal in sed_spied():
        skat = mask_cards(deal["columns"]["skat"])
        for d in sed_walk(deal):
            if d["name"] == "decide_yes" and d["obs"][O.PHASE] == PH_GIVE_UP:
                assert mask_cards(d["obs"][O.SKAT]) == (skat if d["picked"] else set())
                asked[d["picked"]] += 1
    assert asked[True] > 0 and asked[False] > 0


def test_skat_en_deux_hidden_cards_stay_hidden() -> None:
    counts = dict.fromkeys(("blind_before_lead", "defender_opening_lead", "offer_before_lead",
                            "discard", "hand_skat", "closed_declarer", "einmal_first_trick",
                            "ramsch"), 0)
    for deal in sed_spied():
        cols = deal["columns"]
        blind = mask_cards(cols["blind"])
        skat = mask_cards(cols["skat"])
        for d in sed_walk(deal):
            seen = seen_cards(d["obs"])
            if d["ramsch"] or cols["ramsch"]:
                # the blind stays out of ramsch; nobody sees the skat
                assert not seen & (blind | skat)
                counts["ramsch"] += 1
                continue
            if not d["plays"]:
                # the blind is face down until the opening lead, for both players
                assert not seen & blind, "the blind seen before the opening lead"
                counts["blind_before_lead"] += 1
                if d["name"] == "decide_card" and d["player"] != cols["declarer"]:
                    counts["defender_opening_lead"] += 1
                # offer_timing from_declaration: his offer before the lead, blind unseen
                counts["offer_before_lead"] += d["name"] == "decide_offer"
            if not d["picked"]:
                # the skat before the pickup, and in a hand game for good
                assert not seen & skat, "the skat seen before the pickup or in a hand game"
                counts["hand_skat"] += cols["hand"] and d["declared"]
            if d["declarer"] >= 0 and d["player"] != d["declarer"]:
                # the defender never sees what was discarded ...
                assert not seen & d["discard"], "the defender sees the discarded skat"
                counts["discard"] += bool(d["discard"])
                # ... nor the declarer's closed hand
                if not d["laid_down"]:
                    hidden = d["current"][d["decl_place"]]
                    assert not seen & hidden, "the defender sees the declarer's closed hand"
                    counts["closed_declarer"] += 1
                    counts["einmal_first_trick"] += cols["open_level"] == 1 and d["plays"] < 3
    assert min(counts.values()) > 0, counts


def test_skat_en_deux_open_cards_are_shown() -> None:
    """The blind lies face up after the opening lead, an open declarer's hand from the
    moment it is laid down: the observation shows them as they are."""
    shown = dict.fromkeys(("blind", "open_hand", "einmal"), 0)
    for deal in sed_spied():
        cols = deal["columns"]
        for d in sed_walk(deal):
            obs = d["obs"]
            if not d["declared"] or d["ramsch"] or not d["plays"]:
                continue
            assert mask_cards(obs[O.BLIND]) == d["current"][BLIND]
            shown["blind"] += 1
            if d["player"] != d["declarer"]:
                expected = d["current"][d["decl_place"]] if d["laid_down"] else set()
                assert mask_cards(obs[O.OPEN_HAND]) == expected
                shown["open_hand"] += d["laid_down"]
                shown["einmal"] += d["laid_down"] and cols["open_level"] == 1
    assert min(shown.values()) > 0, shown


# --- doko_duell ------------------------------------------------------------------------------------
#
# A player sees his hand, the face-up cards of both pyramids and the cards played; never the
# other hand and never a face-down card, his own included. A face-down card left uncovered
# by a card of the current trick is turned up only at the end of that trick.

DOKO_COVER = {4: (0, 1), 5: (1, 2), 6: (2, 3), 7: (4, 5), 9: (5, 6), 8: (7,), 10: (9,), 11: (8, 10)}
DOKO_FACE_UP = (0, 1, 2, 3, 7, 9)
DOKO_RUNS = [("doko_duell", {}, ["heuristic"] * 2, list(range(0, 30))),
             ("doko_duell", {"equal_cards": "second_wins", "a_marker_on_setup": False,
                             "b_one_per_trick": True}, ["random"] * 2, list(range(30, 60))),
             ("doko_duell", {"b_marker_supply": "none", "equal_cards": "second_heart_ten"},
              ["random", "heuristic"], list(range(60, 90)))]


def doko_cards(mask: int) -> set[int]:
    return {i for i in range(40) if int(mask) >> i & 1}


def doko_mask(cards: set[int]) -> int:
    return sum(1 << c for c in cards)


def doko_spied() -> list[dict]:
    return _spy(json.dumps(DOKO_RUNS))


def test_doko_duell_plain_python_runs_play_the_compiled_game() -> None:
    from sim.registry import find_game

    game = find_game("doko_duell")
    deals = iter(doko_spied())
    for _, rules, policies, numbers in DOKO_RUNS:
        for deal in numbers:
            spied = next(deals)
            c = play(game, 5, deal, 1, game.rules(rules), policies).columns
            assert spied["columns"] == {k: int(v[0]) for k, v in c.items()}, (rules, deal)
            assert all(name == "decide_card" for name, _, _ in spied["observations"])


def doko_walk(deal: dict) -> list[dict]:
    """Each decision with the true state of the deal at that moment."""
    cols = deal["columns"]
    hand = [doko_cards(cols[f"hand_{s}"]) for s in range(2)]
    pyramid = [[cols[f"pyramid_{s}_{k}"] for k in range(12)] for s in range(2)]
    present = [set(range(12)), set(range(12))]
    up = [set(DOKO_FACE_UP), set(DOKO_FACE_UP)]
    played: list[set[int]] = [set(), set()]
    plays = [r for r in deal["actions"] if r[0] == A.PLAY]
    assert len(plays) == len(deal["observations"]) == 40, "one decision per card"
    out = []
    trick: list[int] = []
    for (_, seat, card, src), (name, obs, result) in zip(plays, deal["observations"]):
        assert result == card
        uncovered = [{k for k in present[s] - up[s] if not set(DOKO_COVER[k]) & present[s]}
                     for s in range(2)]
        out.append({"obs": obs, "seat": seat, "hand": [set(h) for h in hand],
                    "present": [set(p) for p in present], "up": [set(u) for u in up],
                    "played": [set(p) for p in played], "trick": list(trick),
                    "pyramid": pyramid, "uncovered": uncovered})
        if src:
            present[seat].discard(src - 1)
        else:
            hand[seat].discard(card)
        played[seat].add(card)
        trick.append(card)
        if len(trick) == 2:
            trick = []
            for s in range(2):
                up[s] |= {k for k in present[s] if not set(DOKO_COVER.get(k, ())) & present[s]}
    return out


def test_doko_duell_policies_see_only_their_hand_face_up_cards_and_played_cards() -> None:
    counts = dict.fromkeys(("decisions", "own_face_down", "opp_hand", "freed_this_trick",
                            "shown_after_turning"), 0)
    for deal in doko_spied():
        walk = doko_walk(deal)
        for j, d in enumerate(walk):
            obs, seat = d["obs"], d["seat"]
            other = 1 - seat
            face_up = [{d["pyramid"][s][k] for k in d["present"][s] & d["up"][s]}
                       for s in range(2)]
            face_down = [{d["pyramid"][s][k] for k in d["present"][s] - d["up"][s]}
                         for s in range(2)]
            played = d["played"][0] | d["played"][1]
            allowed = d["hand"][seat] | face_up[0] | face_up[1] | played
            hidden = d["hand"][other] | face_down[0] | face_down[1]
            assert not allowed & hidden
            assert obs[DO.SEAT] == seat and obs[DO.PHASE] == PH_PLAY
            # exactly his hand, the cards played, the face-up pyramid cards where they lie
            assert doko_cards(obs[DO.HAND]) == d["hand"][seat]
            for s in range(2):
                assert doko_cards(obs[DO.PLAYED + s]) == d["played"][s]
            for side, s in ((DO.OWN_PYRAMID, seat), (DO.OPP_PYRAMID, other)):
                for k in range(12):
                    shown = d["pyramid"][s][k] if k in d["present"][s] & d["up"][s] else -1
                    assert obs[side + k] == shown, (deal["columns"]["deal"], j, side, k,
                                                    obs[side + k], shown)
            assert obs[DO.OWN_PRESENT] == doko_mask(d["present"][seat])
            assert obs[DO.OPP_PRESENT] == doko_mask(d["present"][other])
            assert obs[DO.TRICK_N] == len(d["trick"])
            assert obs[DO.TRICK_CARD] == (d["trick"][0] if d["trick"] else -1)
            # every card the observation names is one he may know; none is hidden
            face_up = {d["pyramid"][s][k] for s in range(2) for k in d["present"][s] & d["up"][s]}
            assert doko_cards(obs[DO.FACE_UP_CARDS]) == face_up
            opp_free = {d["pyramid"][other][k] for k in d["present"][other] & d["up"][other]
                        if not set(DOKO_COVER.get(k, ())) & d["present"][other]}
            assert doko_cards(obs[DO.OPP_FREE]) == opp_free
            seen = (doko_cards(obs[DO.HAND]) | doko_cards(obs[DO.LEGAL])
                    | doko_cards(obs[DO.PLAYED]) | doko_cards(obs[DO.PLAYED + 1])
                    | doko_cards(obs[DO.FACE_UP_CARDS]) | doko_cards(obs[DO.OPP_FREE])
                    | {obs[DO.OWN_PYRAMID + k] for k in range(12)}
                    | {obs[DO.OPP_PYRAMID + k] for k in range(12)}
                    | {obs[DO.TRICK_CARD]}) - {-1}
            assert seen <= allowed and not seen & hidden, sorted(seen & hidden)
            # the legal cards are his own: hand and free face-up pyramid cards
            free = {d["pyramid"][seat][k] for k in d["present"][seat] & d["up"][seat]
                    if not set(DOKO_COVER.get(k, ())) & d["present"][seat]}
            assert doko_cards(obs[DO.LEGAL]) <= d["hand"][seat] | free
            counts["decisions"] += 1
            counts["own_face_down"] += bool(face_down[seat])
            counts["opp_hand"] += bool(d["hand"][other])
            # the leader's card just uncovered one of his face-down cards: still face down
            # for the second player, face up from the next trick on
            if d["trick"] and d["uncovered"][other]:
                for k in d["uncovered"][other]:
                    assert obs[DO.OPP_PYRAMID + k] == -1
                counts["freed_this_trick"] += 1
                nxt = walk[j + 1] if j + 1 < len(walk) else None
                if nxt is not None:
                    side = DO.OWN_PYRAMID if nxt["seat"] == other else DO.OPP_PYRAMID
                    for k in d["uncovered"][other]:
                        assert nxt["obs"][side + k] == d["pyramid"][other][k]
                    counts["shown_after_turning"] += 1
    assert counts["decisions"] == 40 * sum(len(r[3]) for r in DOKO_RUNS)
    assert min(counts.values()) > 20, counts


# --- doko_skat -------------------------------------------------------------------------------------
#
# A seat sees its three first-round cards and the turned-up card, every card as it is played,
# and once the first round is over its stock, the teams (LONE) and, the lone player, the skat;
# its own discards; in a redeal the second turned-up card and its own extra cards. Never
# another seat's first-round cards, stock, extra cards or discards, never the skat unless it
# took it, and never its own stock before the first round is over.

DSK_RUNS = [({}, ["heuristic"] * 3, 3000), ({"team_cards": "all"}, ["random"] * 3, 30000),
            ({"team_cards": "all", "bridge_order": "skat", "first_round_points": False},
             ["heuristic", "random", "heuristic"], 3000),
            ({"zero_sum": True}, ["random"] * 3, 30000),
            ({"team_cards": "won", "main_lead": "first_round_winner"},
             ["heuristic", "random", "heuristic"], 3000)]
"""(rules, policies, deals searched): the random runs are long enough to hold redeals."""
DSK_CARD_FIELDS = [KO.HAND, KO.LEGAL, KO.OUT, KO.DISCARDED, KO.SKAT] \
    + [KO.FR_PLAYED + s for s in range(3)] + [KO.PLAYED + s for s in range(3)]
KINDS_48 = DOKO_DECK_48.n_kinds
"""Different cards of the 48-card deck: card ``k`` and ``k + 24`` are the two copies."""


def _dsk_kind(c: dict, i: int) -> tuple:
    return (int(c["declaring_side"][i]), int(c["declarer_turn"][i]), int(c["game"][i]),
            int(c["special_lone"][i]), int(c["dealer"][i]))


@functools.cache
def _dsk_selection() -> tuple[str, dict]:
    """Deals of every kind (declaring side and turn, game type, the lone player's special
    points, dealer, the redeal), chosen from compiled runs; their compiled result columns."""
    from sim.registry import find_game

    game = find_game("doko_skat")
    runs, expected = [], {}
    for n, (rules, policies, searched) in enumerate(DSK_RUNS):
        c = play(game, 5, 0, searched, game.rules(rules), policies).columns
        taken: dict[tuple, int] = {}
        deals = [int(i) for i in np.flatnonzero(c["nobody_declared"])[:6]]
        for i in range(searched):
            key = _dsk_kind(c, i)
            if len(deals) < 45 and key not in taken:
                taken[key] = i
                deals.append(i)
        for i in deals:
            expected[(n, i)] = {k: int(v[i]) for k, v in c.items()}
        runs.append(("doko_skat", rules, policies, deals))
    return json.dumps(runs), expected


def dsk_spied() -> list[dict]:
    runs_json, expected = _dsk_selection()
    deals = _spy(runs_json)
    keys = [(n, d) for n, run in enumerate(json.loads(runs_json)) for d in run[3]]
    assert len(deals) == len(keys)
    differ = [key for key, deal in zip(keys, deals) if deal["columns"] != expected[key]]
    assert not differ, (f"{len(differ)} of {len(keys)} doko_skat deals play differently "
                        f"with NUMBA_DISABLE_JIT (run, deal): {differ[:5]}")
    return deals


def test_doko_skat_plain_python_runs_play_the_compiled_game() -> None:
    deals = dsk_spied()
    assert sum(d["columns"]["nobody_declared"] for d in deals) >= 12
    assert sum(d["columns"]["special_lone"] == 2 for d in deals) >= 2  # two ints, not two bools


def dsk_walk(deal: dict) -> list[dict]:
    """Each decision with the true state of the deal at that moment: every seat's cards in
    hand, the cards played in each round, the discards, whether the first round is over and
    whether the deal was redealt."""
    cols = deal["columns"]
    rows = deal["actions"]
    assert len(rows) == len(deal["observations"]), "one decision per recorded action"
    lone = cols["lone"]
    skat = cols["skat"]
    hands = [cols[f"first_round_{s}"] for s in range(3)]
    fr_played, played, discarded = [0, 0, 0], [0, 0, 0], [0, 0, 0]
    plays = passes = 0
    trick: list[int] = []
    out = []
    for (kind, seat, a, _), (name, obs, result) in zip(rows, deal["observations"]):
        after = plays >= 9
        out.append({"name": name, "obs": obs, "seat": seat, "hands": list(hands), "after": after,
                    "fr_played": list(fr_played), "played": list(played), "discarded": list(discarded),
                    "redeal": passes == 3, "trick": list(trick), "kind": kind})
        if kind == A.PLAY:
            assert result == a and name == "decide_card"
            hands[seat] &= ~(1 << a)
            (played if after else fr_played)[seat] |= 1 << a
            plays += 1
            trick = [] if len(trick) == 2 else trick + [a]
            if plays == 9:  # the lone player takes the skat; everyone takes up his stock
                hands = [cols[f"stock_{s}"] | (skat if s == lone else 0) for s in range(3)]
        elif kind in (A.PASS, A.DECLARE):
            assert name == "decide_declaration" and result == (a if kind == A.DECLARE else -1)
            passes += kind == A.PASS
            if passes == 3:
                hands = [hands[s] | cols[f"extra_{s}"] for s in range(3)]
        else:
            assert kind == A.DISCARD and name == "decide_discard" and result == a
            hands[seat] &= ~a
            discarded[seat] = a
    assert plays == 45 and hands == [0, 0, 0]
    return out


def test_doko_skat_policies_see_only_what_their_seat_may_know() -> None:
    counts = dict.fromkeys(("first_round", "own_stock_hidden", "declare", "lone_discard",
                            "redeal_discard", "play", "skat_hidden", "skat_shown", "others_discards"), 0)
    for deal in dsk_spied():
        cols = deal["columns"]
        lone, skat = cols["lone"], cols["skat"]
        stocks = [cols[f"stock_{s}"] for s in range(3)]
        for d in dsk_walk(deal):
            obs, seat = d["obs"], d["seat"]
            public = functools.reduce(int.__or__, d["fr_played"] + d["played"])
            takes_skat = d["after"] and seat == lone
            allowed = d["hands"][seat] | d["discarded"][seat] | public | (skat if takes_skat else 0)
            others = [s for s in range(3) if s != seat]
            hidden = functools.reduce(int.__or__, [d["hands"][s] | d["discarded"][s] | stocks[s]
                                                   for s in others])
            if not takes_skat:
                hidden |= skat
            if not d["after"]:
                hidden |= stocks[seat]
            hidden &= ~public
            assert not allowed & hidden
            assert obs[KO.SEAT] == seat
            # exactly its own cards, the cards played by each seat, its own discards
            assert obs[KO.HAND] == d["hands"][seat], (cols["deal"], d["name"])
            if d["kind"] == A.PLAY:
                assert obs[KO.LEGAL] and obs[KO.LEGAL] & ~obs[KO.HAND] == 0
            for s in range(3):
                assert obs[KO.FR_PLAYED + s] == d["fr_played"][s]
                assert obs[KO.PLAYED + s] == d["played"][s]
            assert obs[KO.DISCARDED] == d["discarded"][seat]
            assert obs[KO.SKAT] == (skat if takes_skat else 0)
            assert obs[KO.LONE] == (lone if d["after"] else -1)
            assert obs[KO.TURNED_UP] % KINDS_48 == cols["turned_up"]
            if d["redeal"]:
                assert obs[KO.SECOND_TURNED_UP] % KINDS_48 == cols["second_turned_up"]
            else:
                assert obs[KO.SECOND_TURNED_UP] == -1
            if d["kind"] == A.PLAY:
                n = obs[KO.TRICK_N]
                assert n == len(d["trick"])
                assert [obs[KO.TRICK_CARD + k] for k in range(3)] == d["trick"] + [-1] * (3 - n)
            seen = functools.reduce(int.__or__, (obs[f] for f in DSK_CARD_FIELDS))
            seen |= functools.reduce(int.__or__, (1 << obs[KO.TRICK_CARD + k] for k in range(3)
                                                  if obs[KO.TRICK_CARD + k] >= 0), 0)
            assert seen & ~allowed == 0 and not seen & hidden, (cols["deal"], d["name"], hex(seen & hidden))
            counts["first_round"] += not d["after"]
            counts["own_stock_hidden"] += not d["after"] and bool(stocks[seat] & ~public)
            counts["declare"] += d["name"] == "decide_declaration"
            counts["lone_discard"] += d["name"] == "decide_discard" and not d["redeal"]
            counts["redeal_discard"] += d["name"] == "decide_discard" and d["redeal"]
            counts["play"] += d["after"] and d["kind"] == A.PLAY
            counts["skat_hidden"] += d["after"] and seat != lone and bool(skat & ~public)
            counts["skat_shown"] += takes_skat
            counts["others_discards"] += any(d["discarded"][s] & ~public for s in others)
    assert min(counts.values()) > 20, counts


def test_doko_skat_the_redeal_shows_each_seat_only_its_own_extra_cards() -> None:
    checked = 0
    for deal in dsk_spied():
        cols = deal["columns"]
        if not cols["nobody_declared"]:
            continue
        extra = [cols[f"extra_{s}"] for s in range(3)]
        for d in dsk_walk(deal):
            obs, seat = d["obs"], d["seat"]
            if d["redeal"] and d["name"] == "decide_discard":
                assert obs[KO.REDEAL] == 1 and obs[KO.N_DISCARD] == 4
                assert obs[KO.HAND] & extra[seat] == extra[seat]
                assert not obs[KO.HAND] & (extra[(seat + 1) % 3] | extra[(seat + 2) % 3])
                checked += 1
    assert checked >= 18


def test_doko_skat_the_turned_up_card_is_shown_without_its_copy() -> None:
    """Both copies of a card look the same: the observation of the turned-up card must not
    depend on which of them was turned up (a seat holding the other copy could otherwise tell
    that the turned one lies in another first-round hand)."""
    shown: dict[int, set[int]] = {}
    for deal in dsk_spied():
        for _, obs, _ in deal["observations"]:
            shown.setdefault(deal["columns"]["turned_up"], set()).add(obs[KO.TURNED_UP])
    assert all(len(values) == 1 for values in shown.values()), shown
