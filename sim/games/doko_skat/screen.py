"""The table screen of Doko-Skat (``doko_skat``): what the person's seat sees, the decision
due with its legal choices, the other seats' moves as they happen, and the result with
the score broken down as ``values.settle_terms`` returns it.

Everything shown comes from the seat's observation (``sim.games.doko_skat.observation``), the
public actions, and, once the deal is over, its result columns. Two facts the actions
lack come from the observations seen: the turned-up card (the first round's trick
order) and, in a redeal, the second one (the main game's). The person sees an
observation before any trick he plays in is complete, so every trick the narration
names has its order known by then, and the narration of a prefix of the actions stays
the same from call to call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from sim import actions as A
from sim.cards import DOKO_DECK_48, SUITS, popcount
from sim.engine.game import Game
from sim.games.doko_skat.game import rule_bands
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.observation import PH_DECLARE, PH_DISCARD, PH_FIRST_ROUND, PH_PLAY
from sim.games.doko_skat.values import (
    BRIDGE,
    BRIDGE_BASE,
    BRIDGE_ORDERS,
    EFF,
    GAME_TRUMP,
    GAME_TYPE,
    GRAND,
    GRAND_CODE,
    LEAD_DECLARER,
    LEAD_FIRST_ROUND_WINNER,
    LONE,
    N_GAMES,
    PAIR,
    STRENGTH,
    TEAMS_BY_WON,
    declaration_order,
    game_code,
    settle_terms,
    side_points,
    table_of,
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
    SUIT_NAMES,
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

DECK = DOKO_DECK_48
POSITIONS = ("forehand", "middlehand", "rearhand")
FIRST_ROUND_TRICKS = 3
FIRST_ROUND_CARDS = 9
"""The first round's cards: the first 9 PLAY rows are its 3 tricks."""
BOTH_WHERE = ("among his first-round cards", "with his stock", "with the skat")
"""Where the lone player's cards first held both turned-up cards (``lone_both_by``)."""


class DokoSkatScreen:
    """The screen of a person at ``seat`` in deal ``number`` of Doko-Skat under ``rules``."""

    def __init__(self, game: Game, rules: dict[str, Any], seat: int, number: int) -> None:
        self.game = game
        self.rules = rules
        self.seat = seat
        self.dealer = number % 3
        self.bridge_skat = int(rules["bridge_order"] == "skat")
        self.fr_table: int | None = None
        """The first round's trick table, from the turned-up card of a view seen."""
        self.redeal_table: int | None = None
        """The main game's trick table after a redeal, from a view seen."""

    # --- names ---------------------------------------------------------------------------

    def player_name(self, player: int) -> str:
        """``you`` or ``seat 2 (rearhand)``."""
        if player == self.seat:
            return "you"
        return f"seat {player} ({POSITIONS[(player - self.dealer - 1) % 3]})"

    def game_text(self, code: int) -> str:
        """``suit hearts (trumps: the jacks, then hearts)``, ``grand (...)``, ``bridge ...``:
        the game and its trumps in words (naming no card: a name would look like one seen)."""
        if code == GRAND_CODE:
            return "grand (trumps: the jacks only)"
        suit = SUIT_NAMES[SUITS[int(GAME_TRUMP[code])]]
        if GAME_TYPE[code] == BRIDGE:
            order = " ".join(BRIDGE_ORDERS[self.bridge_skat])
            return f"bridge {suit} (trumps: {suit} only, jacks in their suits; every suit {order})"
        return f"suit {suit} (trumps: the jacks, then {suit})"

    @staticmethod
    def game_label(code: int) -> str:
        """``suit hearts``, ``grand``, ``bridge spades``."""
        if code == GRAND_CODE:
            return "grand"
        kind = "bridge" if GAME_TYPE[code] == BRIDGE else "suit"
        return f"{kind} {SUIT_NAMES[SUITS[int(GAME_TRUMP[code])]]}"

    # --- what the seat sees --------------------------------------------------------------

    @staticmethod
    def table_in_force(view: np.ndarray) -> int:
        """The trick table the cards are shown in: the first round's until the main game's
        is known."""
        if view[O.PHASE] == PH_FIRST_ROUND or view[O.TABLE] < 0:
            return int(view[O.FR_TABLE])
        return int(view[O.TABLE])

    def cards(self, mask: int, table: int) -> str:
        return show_cards(int(mask), EFF[table], STRENGTH[table], DECK)

    def remember(self, view: np.ndarray) -> None:
        """Keep the trick tables the actions do not tell (``narrate``)."""
        self.fr_table = int(view[O.FR_TABLE])
        if view[O.REDEAL] and view[O.TABLE] >= 0:
            self.redeal_table = int(view[O.TABLE])

    def speaking_order(self, view: np.ndarray) -> list[int]:
        """Who names a game first, second, third (from the first-round tricks)."""
        order = np.zeros(3, np.int64)
        declaration_order(view[O.FR_TRICKS:O.FR_TRICKS + 3].copy(), int(view[O.LONE]),
                          int(view[O.FOREHAND]), order)
        return [int(s) for s in order]

    @staticmethod
    def main_leader(view: np.ndarray) -> tuple[int, str] | None:
        """Who will lead the main game and why, where ``main_lead`` is not forehand's and the
        leader is known before the main game: the first round's last taker, or the declarer
        once named (forehand after a redeal); None otherwise."""
        rule = view[O.MAIN_LEAD]
        if view[O.FR_LAST] < 0 or view[O.PHASE] == PH_PLAY:
            return None
        if rule == LEAD_FIRST_ROUND_WINNER:
            return int(view[O.FR_LAST]), "who took the first round's last trick"
        if rule == LEAD_DECLARER and view[O.DECLARER] >= 0:
            return int(view[O.DECLARER]), "the declarer"
        if rule == LEAD_DECLARER and view[O.REDEAL]:
            return int(view[O.FOREHAND]), "forehand, as nobody declared"
        return None

    def view_lines(self, view: np.ndarray) -> list[str]:
        """What the seat may see now, one fact a line."""
        self.remember(view)
        phase = int(view[O.PHASE])
        table = self.table_in_force(view)
        me = self.seat
        out = [f"Turned-up card {DECK.names[int(view[O.TURNED_UP])]}: the first round is "
               + self.game_text(int(view[O.FR_GAME]))]
        counts = " (they count for nobody after the redeal)" if view[O.REDEAL] else \
            " (they count for the side that took them)" if view[O.COUNT_FIRST_ROUND] else ""
        out.append("First-round tricks: " + ", ".join(
            f"{self.player_name(p)} {int(view[O.FR_TRICKS + p])} ({int(view[O.FR_POINTS + p])} points)"
            for p in range(3)) + counts)
        if view[O.TEAM_CARDS] == TEAMS_BY_WON:
            out.append("Copies of the turned-up card taken in the first round (their takers are "
                       "the team): " + ", ".join(f"{self.player_name(p)} {int(view[O.FR_COPIES + p])}"
                                                 for p in range(3)))
        lone = int(view[O.LONE])
        if lone == me:
            others = " and ".join(self.player_name(p) for p in range(3) if p != me)
            out.append(f"Teams: you play alone against {others}; the skat is yours")
        elif lone >= 0:
            mate = 3 - me - lone
            out.append(f"Teams: you are in the pair with {self.player_name(mate)}, against "
                       f"{self.player_name(lone)} (alone, with the skat)")
        if view[O.DECLARER] >= 0:
            out.append(f"Declarer: {self.player_name(int(view[O.DECLARER]))}; game: "
                       + self.game_text(int(view[O.GAME])))
        elif view[O.REDEAL]:
            out.append(f"Nobody declared: redeal. Second turned-up card "
                       f"{DECK.names[int(view[O.SECOND_TURNED_UP])]}: the game is "
                       f"{self.game_text(int(view[O.GAME]))}; nobody has a declaring side")
        elif phase == PH_DECLARE:
            order = self.speaking_order(view)
            names = [self.player_name(p) + (" (passed)" if k < order.index(me) else "")
                     for k, p in enumerate(order)]
            out.append("Naming a game, in turn: " + ", ".join(names))
        main_leader = self.main_leader(view)
        if main_leader is not None:
            out.append(f"The main game is led by {self.player_name(main_leader[0])}, {main_leader[1]}")
        elif view[O.MAIN_LEAD] == LEAD_DECLARER and view[O.FR_LAST] >= 0 and phase != PH_PLAY:
            out.append("The main game is led by the declarer (forehand if nobody declares)")
        hand = int(view[O.HAND])
        if phase == PH_FIRST_ROUND:
            out.append("Your first-round cards: " + self.cards(hand, table))
        else:
            out.append("Your cards: " + self.cards(hand, table))
            if view[O.SKAT]:
                out.append("The skat you took: " + self.cards(view[O.SKAT], table))
            if view[O.REDEAL]:
                mine = hand | int(view[O.DISCARDED]) | int(view[O.PLAYED + me])
                nine = int(view[O.FR_PLAYED]) | int(view[O.FR_PLAYED + 1]) | int(view[O.FR_PLAYED + 2])
                out.append("Given to you in the redeal: " + self.cards(mine & nine, table))
            if view[O.DISCARDED]:
                out.append("You put away: " + self.cards(view[O.DISCARDED], table))
        if phase in (PH_FIRST_ROUND, PH_PLAY):
            leader = int(view[O.TRICK_LEADER])
            played = [f"{self.player_name((leader + k) % 3)} {DECK.names[int(view[O.TRICK_CARD + k])]}"
                      for k in range(int(view[O.TRICK_N]))]
            which = f"First-round trick {int(view[O.TRICK_NO]) + 1} of {FIRST_ROUND_TRICKS}" \
                if phase == PH_FIRST_ROUND else f"Trick {int(view[O.TRICK_NO]) + 1}"
            out.append(f"{which}: " + (", ".join(played) if played else "you lead"))
        if phase == PH_PLAY:
            out.append("Main-game tricks: " + ", ".join(
                f"{self.player_name(p)} {int(view[O.TRICKS + p])} ({int(view[O.POINTS + p])} points)"
                for p in range(3)))
        return out

    # --- the decision due ----------------------------------------------------------------

    def question(self, view: np.ndarray) -> Question:
        """The decision due and its legal choices."""
        self.remember(view)
        phase = int(view[O.PHASE])
        if phase in (PH_FIRST_ROUND, PH_PLAY):
            return self._card(view)
        if phase == PH_DECLARE:
            return self._declaration(view)
        if phase == PH_DISCARD:
            n = int(view[O.N_DISCARD])
            table = self.table_in_force(view)
            why = "they count for you" if view[O.LONE] == self.seat and not view[O.REDEAL] \
                else "they count for your side"
            return Question(f"Put {n} cards away ({why})", tuple(card_choices(
                int(view[O.HAND]), A.DISCARD, self.seat, EFF[table], STRENGTH[table], DECK)), pick=n)
        raise ValueError(f"no question for phase {phase}")

    def _declaration(self, view: np.ndarray) -> Question:
        keys: dict[int, tuple[str, ...]] = {GRAND_CODE: ("G", "GRAND")}
        for k, s in enumerate(SUITS):
            keys[k] = (s, SUIT_NAMES[s].upper())
            keys[BRIDGE_BASE + k] = ("B" + s,)
        choices = [Choice(self.game_text(code), (A.DECLARE, self.seat, code, 0), keys[code])
                   for code in range(N_GAMES)]
        last = view[O.NEXT_SPEAKER] < 0
        choices.append(Choice("pass (nobody has named a game: the nine first-round cards are dealt "
                              "again)" if last else "pass", (A.PASS, self.seat, 0, 0), ("PASS", "P")))
        return Question("Your game", tuple(choices))

    def _card(self, view: np.ndarray) -> Question:
        table = self.table_in_force(view)
        legal = int(view[O.LEGAL])
        choices = card_choices(legal, A.PLAY, self.seat, EFF[table], STRENGTH[table], DECK)
        refusals = {}
        if view[O.TRICK_N]:
            led = int(view[O.TRICK_CARD])
            refusals = held_refusals(int(view[O.HAND]), legal, DECK,
                                     f"you must follow {group_name([led], EFF[table], DECK)}")
        prompt = "Your card (first round)" if view[O.PHASE] == PH_FIRST_ROUND else "Your card"
        return Question(prompt, tuple(choices), refusals=refusals)

    # --- the moves as they happen --------------------------------------------------------

    def narrate(self, actions: np.ndarray) -> list[str]:
        """Every action so far as the person may know it (others' discards stay hidden).
        A trick whose order is not known yet (no observation seen) is told without its
        taker."""
        out = []
        tricks = iter(t for t in self.tricks(actions) if t.complete)
        plays = 0
        passes = 0
        for kind, player, a, _ in actions.tolist():
            who = self.player_name(player)
            you = player == self.seat
            if kind == A.PASS:
                passes += 1
                out.append(says(who, you, "pass"))
                if passes == 3:
                    out.append("Nobody named a game: redeal (the nine first-round cards are turned "
                               "up and dealt again)")
            elif kind == A.DECLARE:
                out.append(says(who, you, f"declare {self.game_label(a)}"))
            elif kind == A.DISCARD:
                out.append(says(who, you, f"put away {DECK.format(a)}" if you
                                else f"put {popcount(np.uint64(a))} cards away"))
            elif kind == A.PLAY:
                out.append(says(who, you, f"play {DECK.names[a]}"))
                plays += 1
                if plays % 3 == 0:
                    out.append(self._trick_line(next(tricks)))
        return out

    def _trick_line(self, trick: Trick) -> str:
        which = trick.label[0].lower() + trick.label[1:]
        if trick.winner is None:
            return f"  {which}: {trick.points} points"
        return f"  {which} to {self.player_name(trick.winner)} ({trick.points} points)"

    def tricks(self, actions: np.ndarray) -> list[Trick]:
        """The first round's tricks, then the main game's, each card by its player, the
        complete ones with their card points and, where the trick table is known (from the
        observations seen), their taker."""
        table = self.fr_table
        plays: list[tuple[int, int, str]] = []
        tables: list[int | None] = []
        passes = 0
        for kind, player, a, _ in actions.tolist():
            if kind == A.PASS:
                passes += 1
                if passes == 3:
                    table = self.redeal_table
            elif kind == A.DECLARE:
                table = int(table_of(a, self.bridge_skat))
            elif kind == A.PLAY:
                plays.append((player, a, ""))
                tables.append(table)

        def taker(offset: int) -> Callable[[np.ndarray, int], int | None]:
            """The taker of trick ``k`` of the plays from ``offset``, by its trick table."""
            def take(cards: np.ndarray, k: int) -> int | None:
                t = tables[offset + 3 * k + 2]
                return None if t is None else int(trick_winner(cards, 3, EFF[t], STRENGTH[t]))
            return take

        first = group_tricks(plays[:FIRST_ROUND_CARDS], 3, DECK, taker(0), first_round=True)
        return first + group_tricks(plays[FIRST_ROUND_CARDS:], 3, DECK, taker(FIRST_ROUND_CARDS))

    # --- the table as the browser draws it -------------------------------------------

    def places(self, lone: int) -> list[Place]:
        """The three seats in play order with their positions, the dealer marked, the lone
        player and the pair once the teams are known."""
        return [Place(seat_place_name(p, self.seat), POSITIONS[(p - self.dealer - 1) % 3],
                      dealer=p == self.dealer, you=p == self.seat,
                      role="" if lone < 0 else "alone" if p == lone else "pair")
                for p in range(3)]

    def board(self, view: np.ndarray, actions: np.ndarray) -> Board:
        """The table at the person's decision (from his observation and the public actions)."""
        self.remember(view)
        phase = int(view[O.PHASE])
        table = self.table_in_force(view)
        places = self.places(int(view[O.LONE]))
        tricks = self.tricks(actions)
        held = int(view[O.HAND]).bit_count()
        for p, place in enumerate(places):
            if phase in (PH_FIRST_ROUND, PH_PLAY):
                place.cards = cards_left(held, tricks, p)
            if phase == PH_PLAY:
                place.tricks, place.points = int(view[O.TRICKS + p]), int(view[O.POINTS + p])
        places[self.seat].cards = held
        if phase == PH_DECLARE:
            order = self.speaking_order(view)
            for p in order[:order.index(self.seat)]:
                places[p].said = "pass"
        facts = [("Turned-up card", DECK.names[int(view[O.TURNED_UP])]),
                 ("First round", self.game_text(int(view[O.FR_GAME])))]
        if view[O.TEAM_CARDS] == TEAMS_BY_WON:
            facts.append(("Copies taken (the team)", ", ".join(
                f"{places[p].name} {int(view[O.FR_COPIES + p])}" for p in range(3))))
        main_leader = self.main_leader(view)
        if main_leader is not None:
            facts.append(("Main game led by", places[main_leader[0]].name))
        if view[O.DECLARER] >= 0:
            facts += [("Declarer", places[int(view[O.DECLARER])].name),
                      ("Game", self.game_text(int(view[O.GAME])))]
        elif view[O.REDEAL]:
            facts += [("Redeal", f"second turned-up card {DECK.names[int(view[O.SECOND_TURNED_UP])]}"),
                      ("Game", self.game_text(int(view[O.GAME])))]
        title = "Your first-round cards" if phase == PH_FIRST_ROUND else "Your cards"
        hand = Cards(title, self.groups(int(view[O.HAND]), table))
        shown = [Cards(t, self.groups(int(view[f]), table)) for t, f in (
            ("The skat you took", O.SKAT), ("You put away", O.DISCARDED)) if view[f]]
        return Board(places, self.seat, facts, tricks, hand, shown)

    def groups(self, mask: int, table: int) -> list[list[str]]:
        return card_groups(mask, EFF[table], STRENGTH[table], DECK)

    def final_board(self, columns: dict[str, np.ndarray], actions: np.ndarray,
                    cards: dict[str, Any]) -> FinalBoard:
        """The table at the end: every stock, the skat and the first-round cards as dealt,
        every trick, the deal's row of the score sheet."""
        c = {k: v[0].item() for k, v in columns.items()}
        code = game_code(c["game"], c["trump"])
        table = int(table_of(code, self.bridge_skat))
        places = self.places(c["lone"])
        tricks = self.tricks(actions)
        for p, place in enumerate(places):
            place.tricks = sum(t.winner == p for t in tricks if not t.first_round)
            place.points = c[f"points_{p}"]
        dealt = dealt_cards(self.game, cards, self.seat, lambda names: self.groups(DECK.parse(names), table))
        _, value = self.score_terms(c)
        scores = self.seat_scores(c, value)
        declarer = "nobody (redeal)" if c["nobody_declared"] else \
            places[c["declarer"]].name
        sheet = [("Declarer", declarer), ("Game", self.game_label(code)),
                 ("Lone player", places[c["lone"]].name), ("Value", str(value)),
                 *((places[p].name, f"{scores[p]:+d}") for p in range(3))]
        return FinalBoard(places, dealt, tricks, sheet)

    # --- the end -------------------------------------------------------------------------

    def result_lines(self, columns: dict[str, np.ndarray]) -> list[str]:
        """The teams, the game, each side's card points, and the score as the rules
        compute it."""
        c = {k: v[0].item() for k, v in columns.items()}
        lone = c["lone"]
        pair = [c["pair_0"], c["pair_1"]]
        both = " (holding both turned-up cards)" if c["lone_both"] else ""
        out = [f"Teams: {self.player_name(pair[0])} and {self.player_name(pair[1])} (the pair) "
               f"against {self.player_name(lone)} (alone{both})"]
        code = game_code(c["game"], c["trump"])
        if c["nobody_declared"]:
            out.append(f"Nobody declared: redeal; the second turned-up card "
                       f"{DECK.names[c['second_turned_up']]} set the game: {self.game_text(code)}")
        else:
            side = "the lone player" if c["declaring_side"] == LONE else "the pair"
            out.append(f"Declarer: {self.player_name(c['declarer'])} ({side}); game: "
                       f"{self.game_text(code)}")
        lines, value = self.score_terms(c)
        out += lines
        if self.rules["zero_sum"] and value:
            out.append("Zero sum: the lone player wins or loses twice that, each pair member once, "
                       "the other side the opposite")
        out.append("Scores: " + ", ".join(f"{self.player_name(p)} {s:+d}"
                                          for p, s in enumerate(self.seat_scores(c, value))))
        return out

    def _settled(self, c: dict[str, Any]) -> tuple[tuple[int, int, int], tuple[int, int, int],
                                                     tuple[Any, ...]]:
        """The deal's settlement as the engine computes it: each side's card points part by
        part (``side_points``) and the terms of ``settle_terms``."""
        def seats(name: str, dtype: type = np.int64) -> np.ndarray:
            return np.array([c[f"{name}_{s}"] for s in range(3)], dtype)

        pair, lone = side_points(seats("points"), seats("discard", np.uint64), seats("fr_points"),
                                 c["lone"], bool(self.rules["first_round_points"])
                                 and not c["nobody_declared"])
        terms = settle_terms(sum(pair), sum(lone), c["declaring_side"], c["game"] == GRAND,
                             c["spitzen"], c["special_pair"], c["special_lone"],
                             bool(self.rules["tie_special_points"]), bool(self.rules["zero_sum"]),
                             rule_bands(self.rules))
        return pair, lone, terms

    def side_points(self, c: dict[str, Any]) -> tuple[list[str], int, int]:
        """Each side's card points, part by part: main-game tricks, discards and, when they
        count, first-round tricks. Returns the lines and the pair's and the lone player's
        totals (the ``points_pair`` and ``points_lone`` the engine settled)."""
        lone = c["lone"]
        members = {PAIR: [c["pair_0"], c["pair_1"]], LONE: [lone]}
        first_round = bool(self.rules["first_round_points"]) and not c["nobody_declared"]
        lines = []
        parts = dict(zip((PAIR, LONE), self._settled(c)[:2]))
        for side, label in ((PAIR, "The pair"), (LONE, "The lone player")):
            tricks, put, fr = parts[side]
            words = [f"{tricks} in tricks", f"{put} put away"]
            if first_round:
                words.append(f"{fr} in first-round tricks")
            names = ", ".join(self.player_name(s) for s in members[side])
            lines.append(f"{label} ({names}): " + " + ".join(words) + f" = {sum(parts[side])} card points")
        return lines, sum(parts[PAIR]), sum(parts[LONE])

    def score_terms(self, c: dict[str, Any]) -> tuple[list[str], int]:
        """The card points, the winner and what each player of the scoring side scores, term
        by term as ``settle_terms`` returns them; returns the lines and that value (the
        engine's ``value``)."""
        lines, pair, lone = self.side_points(c)
        declaring = c["declaring_side"]
        winner, tie, paid, spitzen_term, special, value, _, _ = self._settled(c)[2]
        if tie and declaring < 0:
            return lines + [f"Tie at {pair} card points and no declaring side: nobody scores"], value
        scoring = 1 - declaring if tie else winner
        terms = [f"{paid}" if tie else
                 f"band {paid} (the losers have {lone if winner == PAIR else pair} card points)"]
        if spitzen_term:
            by = " by rank" if self.rules["spitzen"] == "ranks" else ""
            if self.rules["spitzen_of"] == "declarer":
                by += " of the declarer's own cards"
            terms.append(f"{c['spitzen']} Spitzen{by}{' x 2 in grand' if c['game'] == GRAND else ''}")
        reasons = self.special_reasons(c, scoring)
        counted = reasons if not tie or self.rules["tie_special_points"] else []
        if len(counted) != special:
            raise ValueError(f"special points {special}, earned for {counted}")
        terms += [f"1 special point ({why})" for why in counted]
        if tie:
            other = "the lone player" if declaring == PAIR else "each pair member"
            total = " + ".join(terms) + (f" = {value}" if special else "")
            unpaid = " (special points do not count in a tie under these rules)" \
                if reasons and not counted else ""
            return lines + [f"Tie at {pair} card points: the side that did not declare scores, "
                            f"{other} {total}{unpaid}"], value
        lines.append(("The pair wins" if winner == PAIR else "The lone player wins")
                     + f", {max(pair, lone)} card points to {min(pair, lone)}")
        lines.append("Each winner scores: " + " + ".join(terms) + f" = {value}")
        return lines, value

    def special_reasons(self, c: dict[str, Any], side: int) -> list[str]:
        """What earned ``side`` its special points (``special_points``): the lone player's
        both turned-up cards, a side's three first-round tricks."""
        if c["nobody_declared"]:
            return []
        reasons = []
        lone_tricks = c[f"fr_tricks_{c['lone']}"]
        if side == LONE and c["lone_both"]:
            if self.rules["team_cards"] == "won" and self.rules["both_copies"] == "team_cards":
                reasons.append("the lone player took both turned-up cards in the first round")
            else:
                reasons.append(f"the lone player held both turned-up cards "
                               f"{BOTH_WHERE[c['lone_both_by']]}")
        if lone_tricks == (FIRST_ROUND_TRICKS if side == LONE else 0):
            reasons.append("all three first-round tricks")
        return reasons

    def seat_scores(self, c: dict[str, Any], value: int) -> list[int]:
        """Each seat's score as the settlement gives it: the scoring side gets what each
        winner scores (``value``, as ``score_terms`` returned it), the lone player twice with
        ``zero_sum``, where the other side pays."""
        terms = self._settled(c)[2]
        if value != terms[5]:
            raise ValueError(f"value {value} is not the settlement's {terms[5]}")
        pair_score, lone_score = terms[6], terms[7]
        return [int(lone_score if s == c["lone"] else pair_score) for s in range(3)]
