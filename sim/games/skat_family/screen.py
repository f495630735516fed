"""The table screen of the Skat family (``skat``, ``skat_en_deux``): what the person's
seat sees, the decision due with its legal choices, the other seats' moves as they
happen, and the result with the game value's terms as the game's settlement returns them.

Everything shown comes from the seat's observation (``sim.games.skat_family.observation``), the
public actions, and, once the deal is over, its result columns. In Skat-en-deux the
person is a player: he decides for the blind's place too when he defends, and the
observation's seats are places (forehand 0, the blind 1, rearhand 2; in its ramsch
forehand 0 and rearhand 1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from sim import actions as A
from sim.cards import SKAT_DECK
from sim.engine.game import Game
from sim.games.skat_family import skat, skat_en_deux
from sim.games.skat_family.observation import (
    DECL_OPEN_SHIFT,
    DECL_OUVERT,
    DECL_SCHNEIDER,
    DECL_SCHWARZ,
    PH_ACCEPT,
    PH_ANSWER,
    PH_BID,
    PH_CONTRA,
    PH_DECLARE,
    PH_DISCARD,
    PH_FH18,
    PH_GIVE_UP,
    PH_OFFER,
    PH_PICKUP,
    PH_PLAY,
    PH_RE,
)
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.values import (
    EFF,
    GRAND,
    NULL,
    RAMSCH,
    REJECTION_PREMIUM,
    STRENGTH,
    declaration_choices,
    overbid_value,
)
from sim.screen.board import (
    Board,
    Cards,
    FinalBoard,
    Place,
    Trick,
    cards_left,
    dealt_cards,
    group_tricks,
    seat_place_name,
)
from sim.screen.questions import (
    Choice,
    Question,
    card_choices,
    card_groups,
    group_name,
    held_refusals,
    says,
    show_cards,
)
from sim.tricks import trick_winner

DECK = SKAT_DECK
GAME_LABELS = ("clubs", "spades", "hearts", "diamonds", "grand", "null", "ramsch")
POSITIONS = ("forehand", "middlehand", "rearhand")
TRUMP_WORDS = ("the jacks, then clubs", "the jacks, then spades", "the jacks, then hearts",
               "the jacks, then diamonds", "the jacks only", "none", "the jacks only")
"""The trumps of each game (``GAME_LABELS``' order) in words."""
OFFER_LABELS = ("no offer", "raus", "Stich")
OPEN_LEVELS = ("", "einmal offen", "zweimal offen (2 levels)")
PHRASES = {A.BID: "bid {a}", A.HOLD: "hold {a}", A.PASS: "pass", A.PICKUP: "pick up the skat",
           A.HAND: "play hand", A.GIVE_UP: "give the game up{game}", A.DECLARE: "declare {game}",
           A.OFFER: "offer {offer}", A.ACCEPT: "accept the offer", A.REJECT: "reject the offer",
           A.CONTRA: "say Contra", A.RE: "say Re"}
"""What a player does, by action, in the person's words (``says`` turns them)."""


def declaration_label(code: int) -> str:
    """``grand``, ``hearts Schneider announced``, ``null ouvert``, ``spades zweimal offen``."""
    words = [GAME_LABELS[code & 7]]
    level = (code >> DECL_OPEN_SHIFT) & 3
    if level:
        words.append(OPEN_LEVELS[level].split(" (")[0])
    if code & DECL_OUVERT:
        words.append("ouvert")
    elif code & DECL_SCHWARZ:
        words.append("Schwarz announced")
    elif code & DECL_SCHNEIDER:
        words.append("Schneider announced")
    return " ".join(words)


class SkatFamilyScreen:
    """The screen of a person at ``seat`` (a player) in deal ``number`` of a Skat-family
    game under ``rules`` (each game's subclass names the declarations it offers)."""

    declaration_flags: Callable[[np.ndarray, np.ndarray], np.ndarray]
    settlement: Callable[[dict[str, Any], dict[str, Any]], dict[str, int]]
    """The game's settlement of the declarer's game from its result columns: its terms."""

    def __init__(self, game: Game, rules: dict[str, Any], seat: int, number: int) -> None:
        self.game = game
        self.rules = rules
        self.seat = seat
        self.two = game.n_players == 2
        self.dealer = number % game.n_players
        self.params = game.kernel_params(rules)
        self.values = game.bid_values(rules)

    # --- names ---------------------------------------------------------------------------

    def player_name(self, player: int) -> str:
        """``you`` or ``seat 2 (rearhand)`` (``player 1 (forehand)`` in Skat-en-deux)."""
        if player == self.seat:
            return "you"
        if self.two:
            role = "rearhand" if player == self.dealer else "forehand"
            return f"player {player} ({role})"
        return f"seat {player} ({POSITIONS[(player - self.dealer - 1) % 3]})"

    def place_player(self, place: int, ramsch: bool) -> int:
        """The player at an observation seat (a place in Skat-en-deux; -1: the blind)."""
        if not self.two:
            return place
        fh = 1 - self.dealer
        if ramsch:
            return fh if place == 0 else self.dealer
        return fh if place == 0 else (-1 if place == 1 else self.dealer)

    def place_name(self, place: int, ramsch: bool) -> str:
        p = self.place_player(place, ramsch)
        return "the blind" if p < 0 else self.player_name(p)

    # --- what the seat sees --------------------------------------------------------------

    @staticmethod
    def named(view: np.ndarray) -> bool:
        """Whether the declarer has named his game (the play, offers, Contra and Re)."""
        return view[O.DECLARER] >= 0 and view[O.PHASE] not in (
            PH_PICKUP, PH_DISCARD, PH_DECLARE, PH_GIVE_UP)

    def game_code(self, view: np.ndarray) -> int:
        """The game whose order the cards are shown in (grand order until one is named)."""
        if view[O.RAMSCH]:
            return RAMSCH
        return int(view[O.GAME]) if self.named(view) else GRAND

    def cards(self, mask: int, game: int) -> str:
        return show_cards(int(mask), EFF[game], STRENGTH[game], DECK)

    @staticmethod
    def declaration_words(view: np.ndarray) -> str:
        """The game named, as the seat sees it: ``hearts Schneider announced hand``."""
        code = int(view[O.GAME]) | (DECL_OUVERT if view[O.OUVERT] else 0) \
            | (DECL_SCHNEIDER if view[O.SCHNEIDER_ANN] else 0) \
            | (DECL_SCHWARZ if view[O.SCHWARZ_ANN] else 0) \
            | int(view[O.OPEN_LEVEL]) << DECL_OPEN_SHIFT
        return declaration_label(code) + (" hand" if view[O.HAND_GAME] else "")

    @staticmethod
    def offer_words(view: np.ndarray) -> str:
        """The offer on the table and where it stands: ``raus made``, ``Stich rejected``."""
        return f"{OFFER_LABELS[int(view[O.OFFER])]} {'rejected' if view[O.REJECTED] else 'made'}"

    def view_lines(self, view: np.ndarray) -> list[str]:
        """What the seat may see now, one fact a line."""
        ramsch = bool(view[O.RAMSCH])
        game = self.game_code(view)
        places = 2 if ramsch and self.two else 3
        out = []
        if view[O.DECLARER] >= 0:
            decl = self.place_name(int(view[O.DECLARER]), ramsch)
            what = self.declaration_words(view) if self.named(view) else "not named yet"
            out.append(f"Declarer: {decl}, bid {int(view[O.BID])}; game: {what}")
        elif ramsch:
            out.append("Everybody passed: ramsch (jacks are trumps, the most card points lose)")
        else:
            bids = [f"{self.place_name(p, False)} {int(view[O.SEAT_BID + p])}"
                    for p in range(3) if view[O.SEAT_BID + p]]
            passed = [self.place_name(p, False) for p in range(3) if view[O.PASSED] >> p & 1]
            out.append("Bidding: " + (", ".join(bids) if bids else "no bid yet")
                       + (f"; passed: {', '.join(passed)}" if passed else ""))
        if view[O.OFFER]:
            extra = (", Contra" if view[O.CONTRA] else "") + (", Re" if view[O.RE] else "")
            out.append(f"Offer {self.offer_words(view)}{extra}")
        if self.two and not ramsch:
            turned = view[O.TRICK_NO] > 0 or view[O.TRICK_N] > 0  # after the opening lead
            out.append("Blind: " + (self.cards(view[O.BLIND], game) if turned
                                    else "face down (10 cards)"))
        if view[O.OPEN_HAND] and self.place_player(int(view[O.DECLARER]), ramsch) != self.seat:
            out.append("Declarer's open hand: " + self.cards(view[O.OPEN_HAND], game))
        if view[O.SKAT]:
            label = "Skat you picked up" if view[O.PHASE] == PH_DISCARD else "Skat (yours)"
            out.append(f"{label}: " + self.cards(view[O.SKAT], game))
        if ramsch or self.named(view):
            tricks = [f"{self.place_name(p, ramsch)} {int(view[O.TRICKS + p])} "
                      f"({int(view[O.POINTS + p])} points)" for p in range(places)]
            out.append("Tricks taken: " + ", ".join(tricks))
        if view[O.PHASE] == PH_PLAY:
            leader = int(view[O.TRICK_LEADER])
            played = [f"{self.place_name((leader + k) % places, ramsch)} "
                      f"{DECK.names[int(view[O.TRICK_CARD + k])]}" for k in range(int(view[O.TRICK_N]))]
            leads = f"{self.place_name(leader, ramsch)} to lead".replace("you to lead", "your lead")
            out.append(f"Trick {int(view[O.TRICK_NO]) + 1}: " + (", ".join(played) if played
                                                                else leads))
        me = int(view[O.SEAT])
        if self.place_player(me, ramsch) < 0:
            out.append("You play the blind now. Blind: " + self.cards(view[O.HAND], game))
            out.append("Your hand: " + self.cards(view[O.KNOWN], game))
        else:
            out.append("Your hand: " + self.cards(view[O.HAND], game))
        return out

    # --- the decision due ----------------------------------------------------------------

    def question(self, view: np.ndarray) -> Question:
        """The decision due and its legal choices."""
        me = self.seat
        phase = int(view[O.PHASE])
        bid = int(view[O.BID])
        if phase == PH_BID:
            choices = [Choice("pass", (A.PASS, me, 0, 0), ("PASS", "P"))]
            choices += [Choice(str(v), (A.BID, me, int(v), 0), (str(v),))
                        for v in self.values if v > bid]
            return Question(f"Your bid (now {bid or 'none'})", tuple(choices), bids=True)
        if phase in (PH_ANSWER, PH_FH18):
            yes = (A.HOLD, me, bid, 0) if phase == PH_ANSWER else (A.BID, me, 18, 0)
            label = f"hold {bid}" if phase == PH_ANSWER else "bid 18"
            return Question("Hold or pass" if phase == PH_ANSWER else "Take the game at 18",
                            (Choice(label, yes, ("BID", "HOLD", "YES", "Y", "18") if phase == PH_FH18
                                    else ("HOLD", "YES", "Y", str(bid))),
                             Choice("pass", (A.PASS, me, 0, 0), ("PASS", "NO", "N", "P"))),
                            bids=True)
        if phase == PH_PICKUP:
            return Question("Pick up the skat or play hand",
                            (Choice("pick up the skat", (A.PICKUP, me, 0, 0), ("PICKUP", "SKAT")),
                             Choice("play hand", (A.HAND, me, 0, 0), ("HAND",))))
        if phase == PH_DISCARD:
            return Question("Put two cards away", tuple(card_choices(
                int(view[O.HAND]), A.DISCARD, me, EFF[GRAND], STRENGTH[GRAND], DECK)), pick=2)
        if phase == PH_DECLARE:
            return self._declaration(view)
        if phase == PH_PLAY:
            return self._card(view)
        if phase == PH_GIVE_UP:
            return self._give_up(view)
        if phase == PH_OFFER:
            offers = (Choice("offer raus (the declarer wins a plain game)", (A.OFFER, me, 1, 0),
                             ("RAUS",)),
                      Choice("offer Stich (the declarer wins with Schneider)",
                             (A.OFFER, me, 2, 0), ("STICH",)))
            return Question("Offer before this trick", (
                Choice("no offer", (A.DECLINE, me, A.OFFER, 0), ("NO", "N", "NONE")),
                *(c for k, c in enumerate(offers, 1) if int(view[O.OFFERS_LEFT]) >> k & 1)))
        if phase == PH_ACCEPT:
            raised = self.rules.get("contra_re") and not view[O.REJECTED]
            return Question(f"Accept the offer {OFFER_LABELS[int(view[O.OFFER])]}", (
                Choice("accept", (A.ACCEPT, me, 0, 0), ("ACCEPT", "YES", "Y")),
                Choice(f"reject (one level more, {self.premium()})" if raised
                       else "reject (play on)",
                       (A.REJECT, me, 0, 0), ("REJECT", "NO", "N"))))
        if phase in (PH_CONTRA, PH_RE):
            word = "Contra" if phase == PH_CONTRA else "Re"
            kind = A.CONTRA if phase == PH_CONTRA else A.RE
            return Question(f"Say {word} (doubles the game)", (
                Choice(word, (kind, me, 0, 0), (word.upper(), "YES", "Y")),
                Choice(f"no {word}", (A.DECLINE, me, kind, 0), ("NO", "N"))))
        raise ValueError(f"no question for phase {phase}")

    def _give_up(self, view: np.ndarray) -> Question:
        """At 18: give up or play on. After the pickup: play on, or give up naming an
        intended game that cannot reach the bid (``GIVE_UP_GAMES``)."""
        me = self.seat
        games = int(view[O.GIVE_UP_GAMES])
        play_on = Choice("play on", (A.DECLINE, me, A.GIVE_UP, 0), ("PLAY", "NO", "N"))
        if not games:
            return Question("Give the game up", (
                Choice("give up", (A.GIVE_UP, me, 0, 0), ("GIVE", "YES", "Y")), play_on))
        keys = ("C", "S", "H", "D", "G")
        bid = int(view[O.BID])

        def cost(g: int) -> str:
            if self.rules.get("pickup_give_up_score") == "penalty":
                return f"- {self.rules['give_up_penalty']}, as a give-up at 18"
            return f"lost as {GAME_LABELS[g]} at {overbid_value(g, bid)}"

        named = tuple(Choice(f"give up: {GAME_LABELS[g]} cannot reach {bid} ({cost(g)})",
                             (A.GIVE_UP, me, g + 1, 0), (keys[g],))
                      for g in range(5) if games >> g & 1)
        return Question("Give the game up, naming the game you intended", (play_on, *named))

    def _declaration(self, view: np.ndarray) -> Question:
        flags = self.declaration_flags(view, self.params)
        buf = np.zeros(64, np.int64)
        n = declaration_choices(view, flags, buf)
        keys = {0: ("C", "CLUBS"), 1: ("S", "SPADES"), 2: ("H", "HEARTS"), 3: ("D", "DIAMONDS"),
                4: ("G", "GRAND"), 5: ("N", "NULL"), 5 | DECL_OUVERT: ("NO", "OUVERT")}
        choices = tuple(Choice(declaration_label(int(c)), (A.DECLARE, self.seat, int(c), 0),
                               keys.get(int(c), ())) for c in buf[:n])
        return Question("Your game", choices)

    def _card(self, view: np.ndarray) -> Question:
        game = self.game_code(view)
        ramsch = bool(view[O.RAMSCH])
        blind = self.two and not ramsch and int(view[O.SEAT]) == 1
        legal = int(view[O.LEGAL])
        choices = card_choices(legal, A.PLAY, self.seat, EFF[game], STRENGTH[game], DECK,
                               b=1 if blind else 0)
        refusals = {}
        if view[O.TRICK_N]:
            led = int(view[O.TRICK_CARD])
            refusals = held_refusals(int(view[O.HAND]), legal, DECK,
                                     f"you must follow {group_name([led], EFF[game], DECK)}")
        return Question("The blind's card" if blind else "Your card", tuple(choices),
                        refusals=refusals)

    # --- the moves as they happen --------------------------------------------------------

    def narrate(self, actions: np.ndarray) -> list[str]:
        """Every action so far as the person may know it (others' discards stay hidden)."""
        out = []
        tricks = iter(t for t in self.tricks(actions) if t.complete)
        size = self.trick_size(self.declared(actions))
        names: list[str] = []
        for kind, player, a, b in actions.tolist():
            who = self.player_name(player)
            you = player == self.seat
            if kind == A.RAMSCH:
                out.append("Everybody passed: ramsch")
            elif kind == A.DISCARD:
                out.append(says(who, you, f"put away {DECK.format(a)}" if you
                                else "put two cards away"))
            if kind in PHRASES:
                named = declaration_label(a) if kind == A.DECLARE else (
                    f", naming {GAME_LABELS[a - 1]}" if kind == A.GIVE_UP and a else "")
                out.append(says(who, you, PHRASES[kind].format(
                    a=a, offer=OFFER_LABELS[a % 3], game=named)))
            elif kind == A.PLAY:
                name = f"the blind ({who})" if b == 1 else who
                out.append(says(name, you and b != 1, f"play {DECK.names[a]}"))
                names.append(name)
                if len(names) % size == 0:
                    t = next(tricks)
                    winner = names[-len(t.cards) + t.taker_index()]
                    out.append(f"  trick {t.number} to {winner} ({t.points} points)")
        return out

    @staticmethod
    def declared(actions: np.ndarray) -> int:
        """The game the cards are played in: the declared one, ramsch, or grand order
        before either."""
        for kind, _, a, _ in actions.tolist():
            if kind == A.DECLARE:
                return int(a & 7)
            if kind == A.RAMSCH:
                return RAMSCH
        return GRAND

    def trick_size(self, game: int) -> int:
        """Cards a trick in ``game``: 3, or 2 in Skat-en-deux's ramsch (the blind stays out)."""
        return 2 if self.two and game == RAMSCH else 3

    def play_place(self, player: int, blind: bool) -> int:
        """The board's place of a card played by ``player`` (for ``blind``: from the blind);
        Skat-en-deux's board has forehand, the blind and rearhand, in its ramsch too."""
        if not self.two:
            return player
        return 1 if blind else (0 if player != self.dealer else 2)

    def tricks(self, actions: np.ndarray) -> list[Trick]:
        """The tricks played so far, each card by its board place, the complete ones with
        their taker and card points."""
        game = self.declared(actions)
        size = self.trick_size(game)
        plays = [(self.play_place(p, b == 1), a, "")
                 for kind, p, a, b in actions.tolist() if kind == A.PLAY]
        return group_tricks(plays, size, DECK, lambda cards, _: int(
            trick_winner(cards, size, EFF[game], STRENGTH[game])))

    # --- the table as the browser draws it -------------------------------------------

    def places(self) -> list[Place]:
        """The board's places in play order (Skat-en-deux: forehand, the blind, rearhand),
        each named and with its position, the dealer marked."""
        if not self.two:
            return [Place(seat_place_name(p, self.seat), POSITIONS[(p - self.dealer - 1) % 3],
                          dealer=p == self.dealer, you=p == self.seat) for p in range(3)]
        fh = 1 - self.dealer
        return [Place(seat_place_name(fh, self.seat, "Player"), "forehand", you=fh == self.seat),
                Place("The blind", "the blind"),
                Place(seat_place_name(self.dealer, self.seat, "Player"), "rearhand", dealer=True,
                      you=self.dealer == self.seat)]

    def board_place(self, place: int, ramsch: bool) -> int:
        """The board's place of an observation place (Skat-en-deux's ramsch has two)."""
        return 2 if self.two and ramsch and place == 1 else place

    def contract(self, view: np.ndarray) -> list[tuple[str, str]]:
        """The game, its trumps, the bid and the declarer as facts, once there are any."""
        ramsch = bool(view[O.RAMSCH])
        if ramsch:
            return [("Game", "ramsch"), ("Trumps", TRUMP_WORDS[RAMSCH]),
                    ("Aim", "take the fewest card points")]
        if view[O.DECLARER] < 0:
            bid = int(view[O.BID])
            return [("Bidding", f"at {bid}" if bid else "no bid yet")]
        decl = self.places()[self.board_place(int(view[O.DECLARER]), False)].name
        facts = [("Declarer", decl), ("Bid", str(int(view[O.BID])))]
        if not self.named(view):
            return facts + [("Game", "not named yet")]
        facts = [("Game", self.declaration_words(view)),
                 ("Trumps", TRUMP_WORDS[int(view[O.GAME])])] + facts
        if view[O.OFFER]:
            facts.append(("Offer", self.offer_words(view)))
        said = [w for w, on in (("Contra", view[O.CONTRA]), ("Re", view[O.RE])) if on]
        if said:
            facts.append(("Doubled", ", ".join(said)))
        return facts

    def board(self, view: np.ndarray, actions: np.ndarray) -> Board:
        """The table at the person's decision (from his observation and the public actions)."""
        ramsch = bool(view[O.RAMSCH])
        game = self.game_code(view)
        places = self.places()
        tricks = self.tricks(actions)
        me = self.board_place(int(view[O.SEAT]), ramsch)
        decl = int(view[O.DECLARER])
        for kind, player, a, _ in actions.tolist():
            if kind in (A.BID, A.HOLD, A.PASS) and decl < 0 and not ramsch:
                places[self.play_place(player, False)].said = \
                    {A.BID: str(a), A.HOLD: f"holds {a}", A.PASS: "pass"}[kind]
        if decl >= 0:
            self.cast(places, self.board_place(decl, ramsch))
        if self.two and ramsch:
            places[1].position = "out of the game (ramsch)"
        if ramsch or self.named(view):
            for p in range(2 if self.two and ramsch else 3):
                places[self.board_place(p, ramsch)].tricks = int(view[O.TRICKS + p])
                places[self.board_place(p, ramsch)].points = int(view[O.POINTS + p])
        held = int(view[O.HAND]).bit_count()
        for k, place in enumerate(places):
            if self.two and ramsch and k == 1:
                continue
            if view[O.PHASE] == PH_PLAY:
                place.cards = cards_left(held, tricks, k)
            else:
                place.cards = held if k == me else 10
        blind = self.two and not ramsch
        hand = Cards("The blind (you play it now)" if blind and me == 1 else "Your hand",
                     self.groups(int(view[O.HAND]), game))
        shown = []
        if blind and me == 1:
            shown.append(Cards("Your hand", self.groups(int(view[O.KNOWN]), game)))
        elif blind:
            turned = view[O.TRICK_NO] > 0 or view[O.TRICK_N] > 0  # after the opening lead
            shown.append(Cards("The blind", self.groups(int(view[O.BLIND]), game))
                         if turned else Cards("The blind (face down)", [["??"] * 10]))
        if view[O.OPEN_HAND] and self.place_player(decl, ramsch) != self.seat:
            shown.append(Cards("The declarer's open hand", self.groups(int(view[O.OPEN_HAND]), game)))
        if view[O.SKAT]:
            title = "The skat you picked up" if view[O.PHASE] == PH_DISCARD else "The skat (yours)"
            shown.append(Cards(title, self.groups(int(view[O.SKAT]), game)))
        elif view[O.PHASE] in (PH_BID, PH_ANSWER, PH_FH18, PH_PICKUP):
            shown.append(Cards("The skat", [["??", "??"]]))
        return Board(places, me, self.contract(view), tricks, hand, shown)

    def cast(self, places: list[Place], declarer: int) -> None:
        """Mark the declarer's place and the defenders' (the blind plays for neither side)."""
        for k, place in enumerate(places):
            place.role = "declarer" if k == declarer else "" if self.two and k == 1 else "defender"

    def groups(self, mask: int, game: int) -> list[list[str]]:
        return card_groups(mask, EFF[game], STRENGTH[game], DECK)

    def final_board(self, columns: dict[str, np.ndarray], actions: np.ndarray,
                    cards: dict[str, Any]) -> FinalBoard:
        """The table at the end: every hand as dealt, the skat, every trick and the deal's
        row of the score sheet."""
        c = {k: v[0].item() for k, v in columns.items()}
        game = RAMSCH if c["ramsch"] else GRAND if c["passed_out"] else int(c["game"])
        places = self.places()
        tricks = self.tricks(actions)
        for k, place in enumerate(places):
            place.tricks = sum(t.winner == k for t in tricks)
            place.points = sum(t.points for t in tricks if t.winner == k)
        if not c["ramsch"] and not c["passed_out"]:
            self.cast(places, self.play_place(c["declarer"], False))
        dealt = dealt_cards(self.game, cards, self.seat, lambda names: self.groups(DECK.parse(names), game))
        return FinalBoard(places, dealt, tricks, self.sheet(c))

    def sheet(self, c: dict[str, Any]) -> list[tuple[str, str]]:
        """The deal's row of the score sheet: declarer, game, bid, value, won or lost (a
        ramsch's loser, a thrown-in deal), then every player's score."""
        n = self.game.n_players
        places = self.places()

        def name(player: int) -> str:
            return places[self.play_place(player, False)].name

        scores = [(name(p), f"{c[f'score_{p}']:+d}") for p in range(n)]
        if c["passed_out"]:
            return [("Game", "thrown in (everybody passed)"), *scores]
        if c["ramsch"]:
            losers = [name(p) for p in range(n) if c[f"score_{p}"] < 0]
            return [("Game", "ramsch"), ("Lost by", ", ".join(losers) or "nobody"), *scores]
        game = GAME_LABELS[c["game"]] + (" ouvert" if c["ouvert"] else "") \
            + (" hand" if c["hand"] else "")
        result = "given up" if c.get("give_up") else "won" if c["won"] else "lost"
        return [("Declarer", name(c["declarer"])), ("Game", game),
                ("Bid", str(c["bid"])), ("Value", str(c["game_value"])), ("Result", result),
                ("Card points", f"{c['declarer_points']} of 120"), *scores]

    # --- the end -------------------------------------------------------------------------

    def result_lines(self, columns: dict[str, np.ndarray]) -> list[str]:
        """The result and the score as the rules compute it."""
        c = {k: v[0].item() for k, v in columns.items()}
        n = self.game.n_players
        out = []
        if c["passed_out"]:
            out.append("Everybody passed: the deal is thrown in.")
        elif c["ramsch"]:
            out += self._ramsch_lines(c)
        elif c.get("give_up"):
            who = self.player_name(c["declarer"])
            t = self.settlement(c, self.rules)
            if t["value"]:
                out.append(f"{who} gave up {GAME_LABELS[c['game']]} after picking up the skat: "
                           f"lost as {GAME_LABELS[c['game']]} overbid, the smallest multiple of "
                           f"its base reaching the bid {c['bid']}: {t['value']}; "
                           f"-{t['lost_factor']} x {t['value']} = {t['score']:+d}")
            elif c["game"] >= 0:  # pickup_give_up_score penalty
                out.append(f"{who} gave up {GAME_LABELS[c['game']]} after picking up the skat: "
                           f"- {-t['score']}, as a give-up at 18")
            else:
                out.append(f"{who} gave up at 18: - {-t['score']}")
        else:
            out += self.value_lines(c)[0]
        if self.rules.get("compensation"):
            out.append(f"Compensation for not starting: {self.player_name(c['dealer'])} "
                       f"+{self.rules['compensation']}")
        out.append("Scores: " + ", ".join(f"{self.player_name(p)} {c[f'score_{p}']:+d}"
                                          for p in range(n)))
        return out

    def premium(self) -> str:
        """What a rejected offer adds after its level: ``x 1.5`` (the seed), or ``+ 30 %``
        under another ``rejection_premium_percent``."""
        percent = self.rules.get("rejection_premium_percent", REJECTION_PREMIUM)
        return "x 1.5" if percent == REJECTION_PREMIUM else f"+ {percent} %"

    def _ramsch_lines(self, c: dict[str, Any]) -> list[str]:
        n = self.game.n_players
        points = ", ".join(f"{self.player_name(p)} {c[f'ramsch_points_{p}']}" for p in range(n))
        out = [f"Ramsch. Card points: {points}"]
        if self.two:
            loser = self.player_name(c["ramsch_loser"])
            tie = " (equal points: the taker of the last trick)" if c["ramsch_tie_last_trick"] else ""
            out.append(f"Loser{tie}: {loser}, minus his points and the skat's "
                       f"{c['ramsch_skat_points']}")
        elif c["durchmarsch"]:
            out.append("Durchmarsch: one player took every trick and scores 120")
        else:
            out += self._skat_ramsch_lines(c)
        return out

    def _skat_ramsch_lines(self, c: dict[str, Any]) -> list[str]:
        """Skat's ramsch settled: where the skat went (``ramsch_skat``), the Jungfrau's factor
        (``ramsch_jungfrau``) and each loser's minus."""
        losers = [p for p in range(3) if c[f"score_{p}"] < 0]
        names = ", ".join(self.player_name(p) for p in losers)
        if self.rules["ramsch_skat"] == "loser":
            whom = "each loser of the tie for most" if len(losers) > 1 else "the loser"
            out = [f"The skat's {c['ramsch_skat_points']} points went to {whom}, found without "
                   f"them ({names}); the most points lose them"]
        else:
            out = [f"The skat's {c['ramsch_skat_points']} points went to the taker of the last "
                   f"trick ({self.player_name(c['ramsch_last_trick'])}); the most points lose them"]
        tricks = np.array([c[f"ramsch_tricks_{p}"] for p in range(3)], np.int64)
        factor = skat.jungfrau_factor(tricks, bool(self.rules["ramsch_jungfrau"]))
        if factor > 1:
            maidens = ", ".join(self.player_name(p) for p in range(3) if tricks[p] == 0)
            out.append(f"Jungfrau: {maidens} took no trick: x {factor}")
            out += [f"{self.player_name(p)} -{c[f'ramsch_points_{p}']} x {factor} = "
                    f"{c[f'score_{p}']:+d}" for p in losers]
        return out

    def value_lines(self, c: dict[str, Any]) -> tuple[list[str], int]:
        """The declared game's value, term by term as the game's settlement returns them;
        returns the lines and the value they arrive at (the ``game_value`` the engine
        settled)."""
        who = self.player_name(c["declarer"])
        game = c["game"]
        hand = bool(c["hand"])
        ouvert = bool(c["ouvert"])
        t = self.settlement(c, self.rules)
        lines = [f"{who} played {GAME_LABELS[game]}{' ouvert' if ouvert else ''}"
                 f"{' hand' if hand else ''} (bid {c['bid']}): {c['declarer_points']} card points "
                 f"in {c['declarer_tricks']} tricks"]
        value = t["value"]
        if game == NULL:
            lines.append(f"Null{' hand' if hand else ''}{' ouvert' if ouvert else ''}: value {value}")
        else:
            mat = t["matadors"]
            level = t["open"]
            terms = [(f"{'with' if mat > 0 else 'without'} {abs(mat)}", abs(mat)), ("game", 1)]
            terms += [(name, t[term]) for term, name in LEVEL_TERMS if t[term]]
            if level:
                terms.append((OPEN_LEVELS[level], level))
            lines.append("Levels: " + " + ".join(name for name, _ in terms)
                         + f" = {t['levels']}; value {t['levels']} x {t['base']} = "
                         f"{t['level_value']}")
            if t["overbid"]:
                lines.append(f"Overbid: the bid {c['bid']} is more than that; lost at the "
                             f"smallest multiple of {t['base']} reaching it: {t['overbid_value']}")
            if c.get("accepted") and c.get("second_offer_trick", -1) >= 0:
                lines.append("Stich offered after the rejected raus, and accepted")
            if t["rejected"] == 2:  # second_rejection counts: the Stich after the raus
                lines.append(f"Offers raus and Stich rejected: two levels more, "
                             f"{self.premium()} twice (each rounded up) = {t['rejected_value']}")
            elif t["rejected"]:
                lines.append(f"Offer {OFFER_LABELS[c['offer']]} rejected: one level more, "
                             f"{self.premium()} (rounded up) = {t['rejected_value']}")
                for term, word in (("contra", "Contra"), ("re", "Re")):
                    if t[term]:
                        lines.append(f"{word}: x 2 = {t[term + '_value']}")
        bonus = t.get("list_bonus", 0)
        listed = f" {bonus:+d} (Seeger-Fabian)" if bonus else ""
        if t.get("defender_score"):
            lines.append(f"Seeger-Fabian: defenders {t['defender_score']:+d} each")
        if t["won"]:
            lines.append(f"Won: {who} {value:+d}{listed}" + (f" = {t['score']:+d}" if bonus else ""))
        else:
            lines.append(f"Lost: {who} -{t['lost_factor']} x {value}{listed} = {t['score']:+d}")
        return lines, value


LEVEL_TERMS = (("hand", "hand"), ("stich", "Schneider (Stich offered)"),
               ("schneider", "Schneider"), ("schneider_announced", "Schneider announced"),
               ("schwarz", "Schwarz"), ("schwarz_announced", "Schwarz announced"),
               ("ouvert", "ouvert"))
"""The settlement's levels between the game level and the open levels, in the order the
screen names them."""


class SkatScreen(SkatFamilyScreen):
    """Three-player Skat's screen: announcements offered in hand games."""

    declaration_flags = staticmethod(skat.declaration_flags)
    settlement = staticmethod(skat.settlement_terms)


class SkatEnDeuxScreen(SkatFamilyScreen):
    """Skat-en-deux's screen: open levels offered."""

    declaration_flags = staticmethod(skat_en_deux.declaration_flags)
    settlement = staticmethod(skat_en_deux.settlement_terms)
