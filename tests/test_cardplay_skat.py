"""The Skat family's card play as a state (``sim.games.skat_family.cardplay``): what the generic card
play test cannot see.

Positions built by hand and stepped, their results worked out by hand from RULES.md (Skat's
tricks, a null game's early end, Skat-en-deux's blind, open levels, offers, Contra and Re, its
ramsch); finished states that stay as they are; and, at card-play decisions of recorded deals,
the observation ``observe`` derives from the state compared field by field with the one the
kernel showed a person's seat there (``Batch.views``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sim import actions as A
from sim.cards import SKAT_DECK
from sim.engine.cardplay import PLAY
from sim.engine.kernel import E_ASK
from sim.engine.net import NO_NET
from sim.engine.play import play as play_deals
from sim.engine.seats import HEURISTIC
from sim.games.skat_family import cardplay as C
from sim.games.skat_family import skat, skat_en_deux
from sim.games.skat_family.cardplay import ACCEPT, CONTRA, OFFER, RE, S
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import OFFER_NONE, OFFER_RAUS, OFFER_STICH, PH_OFFER, PH_PLAY
from sim.games.skat_family.values import DIAMONDS, GRAND, NULL, RAMSCH, SPADES
from sim.registry import GAMES

D = SKAT_DECK
FH, BLIND, RH = C.FH, C.BLIND, C.RH


def cards(text: str) -> int:
    return int(D.parse(text)) if text else 0


def play(state: np.ndarray, *names: str) -> None:
    for name in names:
        card = D.index(name)
        assert int(C.legal(state)) >> card & 1, f"{name} is not legal"
        C.step(state, card)


def seen(state: np.ndarray, seat: int) -> np.ndarray:
    obs = np.zeros(O.LENGTH, np.int64)
    C.observe(state, seat, obs)
    return obs


def skat_state(hands: tuple[str, str, str], forehand: int, game: int, declarer: int,
               ouvert: bool = False) -> np.ndarray:
    state = np.zeros(C.LENGTH, np.int64)
    C.begin(state, 3, forehand, -1, 0)
    for seat in range(3):
        C.sit(state, seat, np.uint64(cards(hands[seat])), seat)
    C.contract(state, C.declaration_of(game, ouvert, 0, 0, 0), declarer, -1, 18, 1,
               np.uint64(cards("D7 D8")), np.uint64(0), False, False)
    return state


def en_deux_state(places: tuple[str, str, str], game: int, declarer_place: int, level: int = 0,
                  offers: bool = True, skat: str = "D7 D8",
                  contra_re: bool | None = None) -> np.ndarray:
    """Player 0 declares at ``declarer_place``; player 1 defends and plays the blind
    (``contra_re`` as ``offers`` unless given)."""
    state = np.zeros(C.LENGTH, np.int64)
    C.begin(state, 3, FH, BLIND, 2)
    for place in range(3):
        C.sit(state, place, np.uint64(cards(places[place])), 0 if place == declarer_place else 1)
    C.contract(state, C.declaration_of(game, False, 0, 0, level), declarer_place,
               RH if declarer_place == FH else FH, 18, 0, np.uint64(cards(skat)),
               np.uint64(cards(skat)), offers, offers if contra_re is None else contra_re)
    return state


# --- Skat, by hand ------------------------------------------------------------------------------

def test_a_grand_played_by_hand() -> None:
    # seat 1 leads; seat 0 plays grand
    state = skat_state(("CJ CA C7", "CT HA S7", "CK H7 SJ"), 1, GRAND, 0)
    assert (int(state[S.TO_MOVE]), int(state[S.PLAYER])) == (1, 1)
    play(state, "CT")
    # seat 2 must follow clubs: the club king; seat 0 its clubs, not the club jack (a trump)
    assert D.format(int(C.legal(state))) == D.format(cards("CK"))
    play(state, "CK")
    assert int(C.legal(state)) == cards("CA C7")
    play(state, "CA")
    # the ace takes 10 + 4 + 11 and leads
    assert (int(state[S.POINTS]), int(state[S.TRICKS]), int(state[S.TO_MOVE])) == (25, 1, 0)
    play(state, "CJ")
    # seat 1 holds no trump: any card; what it shows of itself
    obs = seen(state, 1)
    assert int(obs[O.LEGAL]) == cards("HA S7") and int(obs[O.HAND]) == cards("HA S7")
    assert (obs[O.PHASE], obs[O.SEAT], obs[O.POSITION]) == (PH_PLAY, 1, 0)
    assert (obs[O.TRICK_N], obs[O.TRICK_CARD], obs[O.TRICK_CARD + 1]) == (1, D.index("CJ"), -1)
    assert (obs[O.TRICK_NO], obs[O.TRICK_LEADER], obs[O.POINTS]) == (1, 0, 25)
    assert int(obs[O.PLAYED]) == cards("CA CJ") and obs[O.SKAT] == 0 and obs[O.OPEN_HAND] == 0
    play(state, "S7", "SJ")
    assert int(state[S.VOIDS]) == 1 << (5 * 1 + 4)  # seat 1 showed it has no trump
    play(state, "C7", "HA", "H7")
    assert int(state[S.VOIDS]) == (1 << 9) | (1 << 5) | (1 << 10)
    assert (int(state[S.POINTS]), int(state[S.TRICKS]), int(state[S.TRICK_NO])) == (40, 3, 3)
    assert not C.finished(state)
    assert C.declarer_points(state) == 40  # the skat D7 D8 counts no points
    assert C.declarer_cards(state) == np.uint64(cards("CJ CA C7 D7 D8"))


def test_a_null_game_ends_at_the_declarers_first_trick() -> None:
    state = skat_state(("C7 C8", "CA CK", "CT S7"), 0, NULL, 1)
    play(state, "C7", "CK", "CT")  # the declarer's king beats the ten in null (A K Q J T ...)
    assert C.finished(state)
    assert C.skat_result(state) == {"declarer_points": 14, "declarer_tricks": 1}
    assert int(C.legal(state)) == 0


def test_an_ouvert_declarer_shows_his_hand_to_all() -> None:
    state = skat_state(("C7 C8", "CA CK", "CT S7"), 0, NULL, 1, ouvert=True)
    for seat in range(3):
        assert int(seen(state, seat)[O.OPEN_HAND]) == cards("CA CK")
    play(state, "C7", "CA")
    assert int(seen(state, 2)[O.OPEN_HAND]) == cards("CK")


def test_the_declarer_sees_his_discard_only_himself() -> None:
    state = np.zeros(C.LENGTH, np.int64)
    C.begin(state, 3, 1, -1, 0)
    for seat, hand in enumerate(("CJ", "C7", "C8")):
        C.sit(state, seat, np.uint64(cards(hand)), seat)
    C.contract(state, GRAND, 1, -1, 18, 0, np.uint64(cards("HA HT")),
               np.uint64(cards("HA HT")), False, False)
    assert int(seen(state, 1)[O.SKAT]) == cards("HA HT")
    assert seen(state, 0)[O.SKAT] == 0 and seen(state, 2)[O.SKAT] == 0
    assert C.declarer_points(state) == 21


# --- Skat-en-deux, by hand ----------------------------------------------------------------------

PLACES = ("SA HA", "S7 HK", "ST H7")
"""Forehand (the defender), the blind, rearhand (the declarer) for a spades game."""


def test_the_blind_is_face_up_after_the_opening_lead_and_the_defender_plays_it() -> None:
    state = en_deux_state(PLACES, SPADES, RH, level=1)
    before = seen(state, FH)
    assert (before[O.BLIND], before[O.KNOWN], before[O.OPEN_HAND]) == (0, 0, 0)
    assert (before[O.TRICK_SIZE], before[O.BLIND_SEAT], int(state[S.PLAYER])) == (3, BLIND, 1)
    play(state, "SA")
    assert (int(state[S.TO_MOVE]), int(state[S.PLAYER])) == (BLIND, 1)
    obs = seen(state, BLIND)
    assert int(obs[O.BLIND]) == cards("S7 HK") and int(obs[O.HAND]) == cards("S7 HK")
    assert int(obs[O.KNOWN]) == cards("HA")  # the defender's own hand beside the blind
    assert int(obs[O.LEGAL]) == cards("S7")  # trump led: the blind follows
    assert obs[O.OPEN_HAND] == 0  # einmal offen: not before the first trick is over
    assert int(seen(state, RH)[O.KNOWN]) == 0 and int(seen(state, RH)[O.BLIND]) == cards("S7 HK")
    play(state, "S7", "ST")
    # the spade ace takes 11 + 0 + 10 for forehand, who now may offer
    assert (int(state[S.POINTS + FH]), int(state[S.TRICKS + FH])) == (21, 1)
    assert (int(state[S.PHASE]), int(state[S.TO_MOVE]), int(state[S.PLAYER])) == (OFFER, FH, 1)
    obs = seen(state, FH)
    # his answers' codes (none, "raus", "Stich"), as the network reads them
    assert (obs[O.PHASE], obs[O.LEGAL], int(C.legal(state))) == (PH_OFFER, 0b111, 0b111)
    assert seen(state, RH)[O.LEGAL] == 0  # not his decision
    # between tricks the trick shown is the one played, its cards gathered
    assert (obs[O.TRICK_NO], obs[O.TRICK_N], obs[O.TRICK_LEADER]) == (0, 2, FH)
    assert [int(obs[O.TRICK_CARD + k]) for k in range(3)] == [-1, -1, -1]
    assert int(obs[O.KNOWN]) == cards("HK") and int(obs[O.OPEN_HAND]) == cards("H7")


def test_zweimal_offen_lays_the_hand_down_before_the_opening_lead() -> None:
    state = en_deux_state(PLACES, SPADES, RH, level=2)
    assert int(seen(state, FH)[O.OPEN_HAND]) == cards("ST H7")
    assert int(seen(state, RH)[O.OPEN_HAND]) == cards("ST H7")


def test_an_accepted_offer_ends_the_card_play() -> None:
    state = en_deux_state(PLACES, SPADES, RH)
    play(state, "SA", "S7", "ST")
    C.step(state, OFFER_STICH)
    assert (int(state[S.PHASE]), int(state[S.TO_MOVE]), int(state[S.PLAYER])) == (ACCEPT, RH, 0)
    assert int(C.legal(state)) == 0b11 and seen(state, RH)[O.OFFER] == OFFER_STICH
    C.step(state, C.YES)
    assert C.finished(state)
    assert C.en_deux_result(state) == {
        "declarer_points": 0, "declarer_tricks": 0, "offer": OFFER_STICH, "offer_trick": 1,
        "second_offer_trick": -1, "accepted": 1, "contra": 0, "re": 0}


def test_a_rejected_offer_then_contra_and_re_and_only_a_stich_after_it() -> None:
    state = en_deux_state(PLACES, SPADES, RH)
    play(state, "SA", "S7", "ST")
    C.step(state, OFFER_RAUS)
    C.step(state, C.NO)
    assert (int(state[S.PHASE]), int(state[S.TO_MOVE])) == (CONTRA, FH)
    assert seen(state, FH)[O.REJECTED] == 1
    C.step(state, C.YES)
    assert (int(state[S.PHASE]), int(state[S.TO_MOVE]), seen(state, RH)[O.CONTRA]) == (RE, RH, 1)
    C.step(state, C.YES)
    # the taker of the first trick leads the second
    assert (int(state[S.PHASE]), int(state[S.TO_MOVE]), int(state[S.SAID_RE])) == (PLAY, FH, 1)
    play(state, "HA", "HK", "H7")
    assert (int(state[S.POINTS + FH]), int(state[S.TRICKS + FH])) == (21 + 15, 2)
    # each kind once: after the rejected "raus" only a "Stich" may follow, and no Contra again
    assert (int(state[S.PHASE]), int(C.legal(state))) == \
        (OFFER, (1 << OFFER_NONE) | (1 << OFFER_STICH))
    assert seen(state, FH)[O.OFFERS_LEFT] == 1 << OFFER_STICH
    C.step(state, OFFER_STICH)
    C.step(state, C.NO)
    assert (int(state[S.PHASE]), int(state[S.SECOND_OFFER_TRICK])) == (PLAY, 2)
    assert int(C.offers_left(state)) == 0 and seen(state, FH)[O.OFFERS_LEFT] == 0


def test_a_declined_offer_comes_back_before_the_next_trick() -> None:
    state = en_deux_state(PLACES, SPADES, RH)
    play(state, "SA", "S7", "ST")
    C.step(state, OFFER_NONE)
    assert (int(state[S.PHASE]), int(state[S.TO_MOVE])) == (PLAY, FH)
    play(state, "HA", "HK", "H7")
    assert (int(state[S.PHASE]), int(state[S.TO_MOVE]), int(state[S.TRICK_NO])) == (OFFER, FH, 2)


def test_no_offers_in_a_null_game_or_without_the_rule() -> None:
    for game, offers in ((NULL, True), (SPADES, False)):
        state = en_deux_state(PLACES, game, RH, offers=offers)
        play(state, "SA", "S7", "ST")
        assert int(state[S.PHASE]) == PLAY


def test_the_ramsch_in_two_card_tricks_and_its_loser() -> None:
    def ramsch(fh: str, rh: str) -> np.ndarray:
        state = np.zeros(C.LENGTH, np.int64)
        C.begin(state, 2, 0, -1, 2)
        C.sit(state, 0, np.uint64(cards(fh)), 1)
        C.sit(state, 1, np.uint64(cards(rh)), 0)
        C.ramsch(state, np.uint64(cards("CA CT")))
        return state

    state = ramsch("CJ HA", "SJ HT")
    assert seen(state, 0)[O.TRICK_SIZE] == 2 and seen(state, 0)[O.RAMSCH] == 1
    play(state, "CJ", "SJ")  # a jack led asks for trump
    play(state, "HA", "HT")
    assert (int(state[S.POINTS]), int(state[S.POINTS + 1])) == (25, 0)
    assert C.ramsch_loser(state) == (0, False)
    # equal points: the taker of the last trick loses
    state = ramsch("C7 H7", "C8 H8")
    play(state, "C7", "C8", "H8", "H7")
    assert C.ramsch_loser(state) == (1, True)
    # places 0 and 1 are forehand (player 1 here) and rearhand (player 0)
    assert C.en_deux_result(state) == {"ramsch_points_1": 0, "ramsch_points_0": 0,
                                        "ramsch_loser": 0, "ramsch_tie_last_trick": 1}


# --- finished states, recorded deals --------------------------------------------------------

RULES: dict[str, list[dict[str, Any]]] = {
    "skat": [{}, {"all_pass": "ramsch", "announcements": True, "ramsch_skat": "loser"}],
    "skat_en_deux": [{}, {"contra_re": True, "open_hand": True}]}


def _recorded(name: str, rules: dict, seed: int, deals: int = 120):
    game = GAMES[name]
    resolved = game.rules(rules)
    batch = play_deals(game, seed, 0, deals, resolved, ["heuristic"] * game.n_players, record=True)
    return game, resolved, batch


@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("name", list(RULES))
def test_finished_states_stay_as_they_are_and_heuristics_play_the_recorded_deal(name: str,
                                                                             variant: int) -> None:
    """Stepped with any action, a finished state is unchanged; from the start, the heuristic
    players (who draw nothing at random) play out the recorded card play again."""
    game, rules, batch = _recorded(name, RULES[name][variant], 61)
    cp = game.card_play
    assert cp is not None
    checked = 0
    for i in range(len(batch)):
        started = cp.start(batch.columns, i, batch.actions[i], rules)
        if started is None:
            continue
        state, actions = started
        replayed = state.copy()
        cp.playout(replayed, np.full(game.n_players, HEURISTIC, np.int64),
                   np.ones((game.n_players, 1), np.uint64), NO_NET)
        for action in actions:
            cp.step(state, action)
        assert np.array_equal(replayed, state), i
        done = state.copy()
        for action in range(32):
            cp.step(state, action)
            assert np.array_equal(state, done)
        checked += 1
    assert checked > 60


def test_the_rules_come_from_the_record_when_not_given() -> None:
    """Without the rules, a deal under contra_re without an offer is a state without offers:
    the same card play, the same result."""
    game, rules, batch = _recorded("skat_en_deux", {"contra_re": True}, 62)
    cp = game.card_play
    assert cp is not None
    compared = 0
    for i in range(len(batch)):
        given = cp.start(batch.columns, i, batch.actions[i], rules)
        read = cp.start(batch.columns, i, batch.actions[i])
        if given is None or read is None:
            continue
        offered = bool(batch.columns["offer"][i])
        assert int(given[0][S.OFFERS]) == int(batch.columns["game"][i] not in (NULL, RAMSCH))
        assert int(read[0][S.OFFERS]) == int(offered)
        for state, actions in (given, read):
            for action in actions:
                cp.step(state, action)
        assert cp.result(given[0]) == cp.result(read[0])
        compared += 1
    assert compared > 60


# --- observe against the kernel's observation -----------------------------------------------

KERNEL_ONLY = {O.NEXT_BID, O.PASSED, O.SEAT_BID, O.SEAT_BID + 1, O.SEAT_BID + 2,
               O.ALL_PASS_RAMSCH}
"""The bidding's fields and the rule shown from the deal: the card play leaves them as the
bidding left them."""


def _rows_of(phase: int, action: int) -> int:
    """Whether a state action leaves an action row (a declined offer, Contra or Re does not)."""
    if phase in (PLAY, ACCEPT):
        return 1
    return int(action != 0)


@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("name", list(RULES))
def test_observe_is_what_the_kernel_showed_at_each_card_play_decision(name: str,
                                                                   variant: int) -> None:
    """A person's seat stops the kernel at his next decision and leaves its observation; the
    state of the recorded card play at that decision, observed for the place to move, shows
    the same, field by field."""
    game, rules, batch = _recorded(name, RULES[name][variant], 63, deals=24)
    cp = game.card_play
    assert cp is not None
    compared = set()
    count = 0
    for i in range(len(batch)):
        started = cp.start(batch.columns, i, batch.actions[i], rules)
        if started is None:
            continue
        rows = batch.actions[i]
        for person in range(game.n_players):
            own = rows[(rows[:, 1] == person) & (rows[:, 0] != A.RAMSCH)]
            made = sum(1 for r in rows if r[1] == person and r[0] not in C.CARD_PLAY_ROWS
                       and r[0] != A.RAMSCH)
            state, actions = started[0].copy(), started[1]
            last = -1
            for action in actions:
                phase = int(state[S.PHASE])
                if int(state[S.PLAYER]) == person and made != last:
                    last = made
                    policies = ["heuristic"] * game.n_players
                    policies[person] = "person"
                    stopped = play_deals(game, 63, i, 1, rules, policies, script=[own[:made]])
                    assert stopped.columns["replay_error"][0] == E_ASK
                    assert stopped.views is not None
                    view = stopped.views[0]
                    assert view is not None
                    obs = view.copy()
                    obs[[f for f in range(O.LENGTH) if f not in KERNEL_ONLY]] = -7
                    cp.observe(state, int(state[S.TO_MOVE]), obs)
                    differ = [f for f in range(O.LENGTH) if obs[f] != view[f]]
                    assert not differ, (i, person, phase, differ)
                    compared.add(phase)
                    count += 1
                if int(state[S.PLAYER]) == person:
                    made += _rows_of(phase, action)
                cp.step(state, action)
    assert PLAY in compared and count > 150, count
    if name == "skat_en_deux" and variant == 1:
        assert OFFER in compared


def test_the_settlement_terms_of_the_seeds_example() -> None:
    """Grand with one, zweimal offen, Schneider, the offer rejected: 24 x 5 = 120, one more
    level and x 1.5: 216; Contra 432, Re 864 (RULES.md, skat_en_deux)."""
    c = {"give_up": 0, "game": GRAND, "matadors": 1, "hand": 0, "ouvert": 0, "open_level": 2,
         "declarer_points": 95, "declarer_tricks": 8, "bid": 18, "offer": OFFER_RAUS,
         "second_offer_trick": -1, "accepted": 0, "contra": 1, "re": 1}
    rules = GAMES["skat_en_deux"].rules({"contra_re": True})
    t = skat_en_deux.settlement_terms(c, rules)
    assert (t["base"], t["matadors"], t["game"], t["open"], t["schneider"], t["levels"]) == \
        (24, 1, 1, 2, 1, 5)
    assert (t["level_value"], t["rejected_value"], t["contra_value"], t["re_value"]) == \
        (120, 216, 432, 864)
    assert (t["value"], t["won"], t["score"], t["schneider_made"]) == (864, 1, 864, 1)
    # given up at 18 (no game named): - 60; after the pickup naming grand at 23: lost as grand
    # overbid, 24, x 2; naming diamonds at 63: 9 x 7 = 63, x 2
    assert skat_en_deux.settlement_terms({**c, "give_up": 1, "game": -1}, rules)["score"] == -60
    t = skat_en_deux.settlement_terms({**c, "give_up": 1, "bid": 23}, rules)
    assert (t["value"], t["score"]) == (24, -48)
    t = skat_en_deux.settlement_terms({**c, "give_up": 1, "game": DIAMONDS, "bid": 63}, rules)
    assert (t["value"], t["score"]) == (63, -126)
    # Skat: spades hand with one, Schneider announced and missed: 11 x 5, lost
    c = {"game": SPADES, "matadors": 1, "hand": 1, "ouvert": 0, "schneider_announced": 1,
         "schwarz_announced": 0, "declarer_points": 80, "declarer_tricks": 7, "bid": 18}
    t = skat.settlement_terms(c, GAMES["skat"].rules({"announcements": True}))
    assert (t["levels"], t["value"], t["won"], t["score"]) == (5, 55, 0, -110)
    assert (t["schneider"], t["schneider_announced"], t["schneider_made"]) == (1, 1, 0)


def test_a_ramsch_state_has_no_declarer() -> None:
    game, rules, batch = _recorded("skat", {"all_pass": "ramsch"}, 64, deals=200)
    cp = game.card_play
    assert cp is not None
    i = int(np.flatnonzero(batch.columns["ramsch"])[0])
    started = cp.start(batch.columns, i, batch.actions[i], rules)
    assert started is not None
    state = started[0]
    assert (int(state[S.GAME]), int(state[S.DECLARER]), int(seen(state, 0)[O.RAMSCH])) == \
        (RAMSCH, -1, 1)
