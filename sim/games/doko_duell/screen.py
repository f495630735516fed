"""The table screen of the Doppelkopf duel (``doko_duell``): the person's hand, both
pyramids drawn by position, the trick, card points and markers, the card due with its
legal choices, every play and marker as it happens, and the result with the victory
points term by term.

Before the end everything shown comes from the seat's observation
(``sim.games.doko_duell.observation``) and the actions, all of them public in this game: both players
see every play and every marker. A card may be legal both from the hand and from a free
pyramid position (the deck holds two copies); the choices say where it comes from (``HT``
from the hand, ``HT (p3)`` from position p3), so typing the bare name asks for the number.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim import actions as A
from sim.engine.game import Game
from sim.games.doko_duell.game import (
    B_EVENTS,
    B_SUPPLY,
    DECK,
    EFF,
    EQUAL_RULES,
    HAND_CARDS,
    K_A,
    PYRAMID,
    STRENGTH,
    TIE_BAND,
    TOP_TRUMPS,
    TRICKS,
    Settlement,
    free_positions,
    second_beats,
    settle_deal,
)
from sim.games.doko_duell.observation import FIELDS as O
from sim.screen.board import (
    Board,
    Cards,
    FinalBoard,
    Place,
    Pyramid,
    Slot,
    Trick,
    dealt_cards,
    group_tricks,
    seat_place_name,
)
from sim.screen.questions import (
    Choice,
    Question,
    card_choices,
    card_groups,
    card_keys,
    card_order,
    group_name,
    held_refusals,
    show_cards,
)

EVENT_LABELS = {"fox": "fox (the opponent's DA caught)", "karlchen": "Karlchen (trick won with CJ)",
                "identical": "two identical cards", "twenty_two": "exactly 22 points",
                "pin": "fox at the pin (the 20th trick won with DA)"}
"""What each B event (``B_EVENTS``) is, as the screen says it."""

BANDS = ("90 or more", "60-89", "30-59", "under 30", "no trick",
         "120 : 120 won by the tie rule, tie_win_base")
"""The loser's bands of the base VP, by the settlement's ``band`` (the ``vp_band_*`` options
give the value: the seed's 4 + 1 bonus under 30 and 5 doubled without a trick by default);
the last, ``doko_duell.TIE_BAND``, a tie won by the tie rule, whose base is
``tie_win_base``."""

TIE_LABELS = {"draw": "a draw", "last_trick": "the taker of the 20th trick wins",
              "starter_loses": "the starter loses", "starter_wins": "the starter wins",
              "more_tricks": "more tricks wins (equal: a draw)",
              "b_markers": "more B markers wins (equal: a draw)"}
"""What each ``tie_rule`` says about 120 : 120."""


def n_tricks(n: int) -> str:
    """``1 trick``, ``3 tricks``."""
    return f"{n} trick" + ("" if n == 1 else "s")


class DokoDuellScreen:
    """The screen of a person at ``seat`` (player 0 or 1) in deal ``number`` of the
    Doppelkopf duel under ``rules`` (who starts the deal, the view and the result say)."""

    def __init__(self, game: Game, rules: dict[str, Any], seat: int, number: int) -> None:
        self.game = game
        self.rules = rules
        self.seat = seat
        self.equal_rule = EQUAL_RULES.index(rules["equal_cards"])
        self.supply = -1 if rules["b_marker_supply"] == "none" else B_SUPPLY
        self.one_per_trick = bool(rules["b_one_per_trick"])

    def player_name(self, player: int) -> str:
        """``you`` or ``player 1``."""
        return "you" if player == self.seat else f"player {player}"

    def possessive(self, player: int) -> str:
        """``your``, ``player 1's``."""
        return "your" if player == self.seat else f"player {player}'s"

    def verb(self, player: int, verb: str) -> str:
        """``you get``, ``player 1 gets``."""
        return f"{self.player_name(player)} {verb if player == self.seat else verb + 's'}"

    # --- what the seat sees --------------------------------------------------------------

    @staticmethod
    def positions(view: np.ndarray, own: bool) -> tuple[list[int], int, int]:
        """One pyramid as the seat sees it: the card at each position (-1: face down or
        gone), the positions still holding a card, and the free ones (playable now)."""
        base = O.OWN_PYRAMID if own else O.OPP_PYRAMID
        cards = [int(view[base + k]) for k in range(PYRAMID)]
        present = int(view[O.OWN_PRESENT if own else O.OPP_PRESENT])
        face_up = sum(1 << k for k, c in enumerate(cards) if c >= 0)
        return cards, present, int(free_positions(present, face_up))

    def pyramid_lines(self, view: np.ndarray, own: bool) -> list[str]:
        """A pyramid drawn row by row: face-up cards by name (``*`` when free), ``??`` face
        down, ``--`` played; row 3 is two stacks, p7 on p8 and p9 on p10."""
        cards, present, free = self.positions(view, own)

        def cell(k: int) -> str:
            if not present >> k & 1:
                return f"p{k} --"
            if cards[k] < 0:
                return f"p{k} ??"
            return f"p{k} {DECK.names[cards[k]]}" + ("*" if free >> k & 1 else "")

        def row(gap: int, ks: tuple[int, ...]) -> str:
            return (" " * gap + "  ".join(cell(k).ljust(7) for k in ks)).rstrip()

        whose = self.possessive(self.seat if own else 1 - self.seat).capitalize()
        return [f"{whose} pyramid:", row(4, (0, 1, 2, 3)), row(8, (4, 5, 6)),
                f"      {cell(7)} on {cell(8).ljust(7)}  {cell(9)} on {cell(10)}".rstrip(),
                row(17, (11,))]

    def view_lines(self, view: np.ndarray) -> list[str]:
        """What the seat may see now: who started, both pyramids, card points and tricks,
        markers, the trick and the hand."""
        me = int(view[O.SEAT])
        other = 1 - me
        starter = int(view[O.STARTER])
        out = [f"{self.player_name(starter).capitalize()} started this deal. "
               "Pyramids: * free (may be played now), ?? face down, -- played."]
        out += self.pyramid_lines(view, own=False) + self.pyramid_lines(view, own=True)
        out.append("Card points: " + ", ".join(
            f"{self.player_name(p)} {int(view[O.POINTS + p])} ({n_tricks(int(view[O.TRICKS + p]))})"
            for p in (me, other)))
        supply = int(view[O.B_SUPPLY])
        box = "no limit" if supply < 0 else str(supply)
        out.append("Markers: " + ", ".join(
            f"{self.player_name(p)} A {int(view[O.A_MARKERS + p])} B {int(view[O.B_MARKERS + p])}"
            for p in (me, other)) + f"; B markers left in the box: {box}")
        trick = f"Trick {int(view[O.TRICK_NO]) + 1} of {TRICKS}: "
        if view[O.TRICK_N]:
            led = DECK.names[int(view[O.TRICK_CARD])]
            out.append(trick + f"{self.player_name(int(view[O.TRICK_LEADER]))} led {led}")
        else:
            out.append(trick + "you lead")
        out.append("Your hand: " + show_cards(int(view[O.HAND]), EFF, STRENGTH, DECK))
        return out

    # --- the decision due ----------------------------------------------------------------

    def question(self, view: np.ndarray) -> Question:
        """The card to play: the legal hand cards (identical copies one choice), then the
        legal free pyramid cards, each named by its card and its position (``P3``); a card
        named that is held but not legal, or lies covered in the pyramid, is refused with the
        reason."""
        legal = int(view[O.LEGAL])
        hand = int(view[O.HAND])
        choices = card_choices(legal & hand, A.PLAY, self.seat, EFF, STRENGTH, DECK)
        cards, present, free = self.positions(view, own=True)
        for group in card_order(DECK.cards(legal & ~hand), EFF, STRENGTH, DECK):
            for c in group:
                k = cards.index(c)
                choices.append(Choice(f"{DECK.names[c]} (p{k})", (A.PLAY, self.seat, c, 1 + k),
                                      (*card_keys(c, DECK), f"P{k}")))
        named = {DECK.names[c] for c in DECK.cards(legal)}
        covered = sum(1 << c for k, c in enumerate(cards) if present >> k & 1 and c >= 0
                      and not free >> k & 1 and DECK.names[c] not in named)
        refusals = held_refusals(covered, 0, DECK, "it is still covered in your pyramid")
        if view[O.TRICK_N]:
            held = hand | sum(1 << c for k, c in enumerate(cards) if free >> k & 1)
            led = int(view[O.TRICK_CARD])
            refusals |= held_refusals(held, legal, DECK,
                                      f"you must follow {group_name([led], EFF, DECK)}")
        return Question("Your card", tuple(choices), refusals=refusals)

    # --- the moves as they happen --------------------------------------------------------

    def narrate(self, actions: np.ndarray) -> list[str]:
        """Every play and marker so far, each trick's taker and points, in order."""
        out = []
        tricks = iter(t for t in self.tricks(actions) if t.complete)
        plays = 0
        last: list[int] = []
        supply = self.supply
        awarded = 0
        for row in actions.tolist():
            kind, player, a, b = row
            if kind == A.PLAY:
                where = f" from p{b - 1}" if b else ""
                verb = "play" if player == self.seat else "plays"
                out.append(f"{self.player_name(player)}: {verb} {DECK.names[a]}{where}")
                plays += 1
                if plays % 2 == 0:
                    t = next(tricks)
                    assert t.winner is not None  # the duel's every trick has a taker
                    out.append(f"  trick {t.number} to {self.player_name(t.winner)} "
                               f"({t.points} points)")
                    awarded = 0
            elif kind == A.MARKER and a == K_A:
                if b < 0:
                    why = "a top trump face up at the deal"
                elif last[0] == A.PLAY and last[1] == player and last[3] == 0 \
                        and TOP_TRUMPS >> np.uint64(last[2]) & np.uint64(1):
                    why = f"{DECK.names[last[2]]} played from the hand"
                else:
                    why = "a top trump turned up in the pyramid"
                out.append(f"  {self.verb(player, 'get')} an A marker: {why}")
            elif kind == A.MARKER:
                event = EVENT_LABELS[B_EVENTS[a - 1]]
                if self.one_per_trick and awarded:
                    out.append(f"  {self.player_name(player)}: {event}, no B marker (one per trick)")
                    continue
                awarded += 1
                if supply == 0:
                    out.append(f"  {self.player_name(player)}: {event}, no B marker (the box is empty)")
                    continue
                if supply > 0:
                    supply -= 1
                out.append(f"  {self.verb(player, 'get')} a B marker: {event}")
            last = row
        return out

    def tricks(self, actions: np.ndarray) -> list[Trick]:
        """The tricks played so far, each card by its player and where it came from, the
        complete ones with their taker and card points."""
        plays = [(p, a, f"p{b - 1}" if b else "")
                 for kind, p, a, b in actions.tolist() if kind == A.PLAY]
        return group_tricks(plays, 2, DECK, lambda cards, _: int(
            second_beats(cards[0], cards[1], self.equal_rule)))

    # --- the table as the browser draws it -------------------------------------------

    def places(self, starter: int) -> list[Place]:
        """Both players, the one who started the deal marked."""
        return [Place(seat_place_name(p, self.seat, "Player"), "the starter" if p == starter else "",
                      you=p == self.seat) for p in range(2)]

    def pyramid(self, view: np.ndarray, own: bool) -> Pyramid:
        """One pyramid by rows from the back: 4, 3, the two stacks (p7 on p8, p9 on p10), 1."""
        cards, present, free = self.positions(view, own)

        def slot(k: int) -> Slot:
            name = "--" if not present >> k & 1 else "??" if cards[k] < 0 else DECK.names[cards[k]]
            return Slot(k, name, bool(free >> k & 1))

        owner = self.seat if own else 1 - self.seat
        rows = [[[slot(k)] for k in (0, 1, 2, 3)], [[slot(k)] for k in (4, 5, 6)],
                [[slot(8), slot(7)], [slot(10), slot(9)]], [[slot(11)]]]
        return Pyramid(owner, f"{self.possessive(owner).capitalize()} pyramid", rows)

    def board(self, view: np.ndarray, actions: np.ndarray) -> Board:
        """The table at the person's decision: both pyramids, the trick, points, tricks and
        markers per player, his hand."""
        places = self.places(int(view[O.STARTER]))
        plays = [(p, b) for kind, p, _, b in actions.tolist() if kind == A.PLAY]
        for p, place in enumerate(places):
            place.tricks = int(view[O.TRICKS + p])
            place.points = int(view[O.POINTS + p])
            place.cards = HAND_CARDS - sum(1 for q, b in plays if q == p and b == 0)
            place.markers = f"A {int(view[O.A_MARKERS + p])} · B {int(view[O.B_MARKERS + p])}"
        supply = int(view[O.B_SUPPLY])
        facts = [("Trumps", "the ten of hearts, the queens, the jacks, the diamonds"),
                 ("Trick", f"{int(view[O.TRICK_NO]) + 1} of {TRICKS}"),
                 ("B markers in the box", "no limit" if supply < 0 else str(supply))]
        hand = Cards("Your hand", card_groups(int(view[O.HAND]), EFF, STRENGTH, DECK))
        return Board(places, self.seat, facts, self.tricks(actions), hand,
                     pyramids=[self.pyramid(view, own=False), self.pyramid(view, own=True)])

    def final_board(self, columns: dict[str, np.ndarray], actions: np.ndarray,
                    cards: dict[str, Any]) -> FinalBoard:
        """The table at the end: both hands and pyramids as dealt, every trick, the deal's
        row of the score sheet."""
        c = {k: v[0].item() for k, v in columns.items()}
        places = self.places(c["starter"])
        for p, place in enumerate(places):
            place.tricks, place.points = c[f"tricks_{p}"], c[f"points_{p}"]
            place.markers = f"A {c[f'a_markers_{p}']} · B {c[f'b_markers_{p}']}"
        dealt = dealt_cards(self.game, cards, self.seat,
                            lambda names: card_groups(DECK.parse(names), EFF, STRENGTH, DECK))
        terms = settle_deal(c, self.rules)
        w = terms.winner
        sheet = [("Winner", self.player_name(w).capitalize() if w >= 0 else "nobody"),
                 ("Card points", f"{c['points_0']} : {c['points_1']}"),
                 *((self.player_name(p).capitalize(), f"{(terms.vp_0, terms.vp_1)[p]} VP")
                   for p in range(2))]
        return FinalBoard(places, dealt, self.tricks(actions), sheet)

    # --- the end -------------------------------------------------------------------------

    def result_lines(self, columns: dict[str, np.ndarray]) -> list[str]:
        """Card points and tricks, each player's markers, the winner and the victory points
        term by term."""
        c = {k: v[0].item() for k, v in columns.items()}
        players = (self.seat, 1 - self.seat)
        out = ["Card points: " + ", ".join(
            f"{self.player_name(p)} {c[f'points_{p}']} ({n_tricks(c[f'tricks_{p}'])})" for p in players)]
        for p in players:
            setup = c[f"a_setup_{p}"]
            counted = "" if self.rules["a_marker_on_setup"] or not setup else ", not counted"
            out.append(f"{self.possessive(p).capitalize()} A markers: {c[f'a_markers_{p}']} (face up "
                       f"at the deal {setup}{counted}; turned up or played from the hand "
                       f"{c[f'a_play_{p}']})")
        for p in players:
            events = ", ".join(f"{kind} {c[f'{kind}_{p}']}" for kind in B_EVENTS if c[f"{kind}_{p}"])
            out.append(f"{self.possessive(p).capitalize()} B events: {events or 'none'}; "
                       f"B markers {c[f'b_markers_{p}']}")
        if c["supply_exhausted"]:
            out.append("The box of B markers ran empty: later events got none.")
        return out + self.vp_terms(c)[0]

    def winner(self, c: dict[str, Any]) -> tuple[int, str]:
        """The winner (-1: nobody) as the settlement decides it, and the line saying why."""
        return self._winner(c, settle_deal(c, self.rules))

    def _winner(self, c: dict[str, Any], terms: Settlement) -> tuple[int, str]:
        w = terms.winner
        if not terms.tie:
            most = max(c["points_0"], c["points_1"])
            return w, f"{self.verb(w, 'win')} with {most} card points.".capitalize()
        rule = self.rules["tie_rule"]
        starter = c["starter"]
        said = f"120 : 120 (tie_rule {rule}: {TIE_LABELS[rule]}"
        if rule.startswith("starter"):
            said += f"; {self.player_name(starter)} started"
        return w, said + (f"): {self.verb(w, 'win')}." if w >= 0 else ").")

    def vp_terms(self, c: dict[str, Any]) -> tuple[list[str], int]:
        """The victory points term by term as the settlement (``doko_duell.settlement``)
        returns them; returns the lines and the winner's total after ``b_marker_mode`` (0
        without a winner; negative: the loser scores its absolute value)."""
        terms = settle_deal(c, self.rules)
        w, said = self._winner(c, terms)
        lines = [said]
        players = (self.seat, 1 - self.seat)
        vp = (terms.vp_0, terms.vp_1)
        total = "Victory points: " + ", ".join(f"{self.player_name(p)} {vp[p]}" for p in players)
        paid = self.compensation_lines(c, terms)
        if w < 0:
            return lines + ["Nobody scores."] + paid + [total], 0
        loser = 1 - w
        lw, ll = self.player_name(w), self.possessive(loser)
        band = BANDS[terms.band]
        if terms.band == TIE_BAND:
            band += f" {self.rules['tie_win_base']}"
        lines += [f"Victory points of the winner ({lw}):",
                  f"  {ll} card points {c[f'points_{loser}']} ({band}): {terms.base}",
                  f"  + {ll} A markers: {terms.loser_a}{self.per_marker('a', terms.a_vp)}",
                  f"  + B markers {lw} {c[f'b_markers_{w}']} - {self.player_name(loser)} "
                  f"{c[f'b_markers_{loser}']}: {terms.b_diff:+d}{self.per_marker('b', terms.b_vp)}",
                  f"  = {terms.raw}"]
        mode = self.rules["b_marker_mode"]
        if terms.total != terms.raw:  # v1 floored it
            lines.append(f"  b_marker_mode v1: the winner scores at least 1: {terms.total}")
        elif mode == "v2" and terms.raw == 0:
            lines.append("  b_marker_mode v2: a total of 0: nobody scores")
        elif mode == "v2" and terms.raw < 0:
            lines.append(f"  b_marker_mode v2: a negative total goes to the loser: "
                         f"{self.player_name(loser)} {-terms.raw}")
        return lines + paid + [total], terms.total

    def per_marker(self, kind: str, vp: int) -> str:
        """`` x 2 VP = 4`` when a marker is worth other than 1 VP (``vp_per_a_marker``,
        ``vp_per_b_marker``); nothing at 1."""
        each = self.rules[f"vp_per_{kind}_marker"]
        return "" if each == 1 else f" x {each} VP = {vp:+d}"

    def compensation_lines(self, c: dict[str, Any], terms: Settlement) -> list[str]:
        """The ``compensation`` the player who did not start is credited, if any."""
        if not terms.compensation:
            return []
        return [f"Compensation for not starting: {self.player_name(1 - c['starter'])} "
                f"+{terms.compensation}"]
