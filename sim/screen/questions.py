"""What every game's table screen shares: questions with numbered choices, reading a
person's answer, and cards shown in suit order with the game's trumps grouped.

A ``Question`` offers only the legal choices; each ``Choice`` carries the script row
the kernel reads when the person takes it (``sim.engine.kernel``). An answer is the
number shown (from 1) or what the choice is called (``CJ``, ``pass``); ``#N`` is choice
``N`` in any question. Where the choices are bid values (``Question.bids``) a typed number
is the bid itself (``18`` bids 18), and the choices are listed without numbers. A wrong
answer gets one short line saying why, and the same question is asked again.

>>> q = Question("Your card", (Choice("CJ", (14, 0, 3, 0), ("CJ",)),
...                            Choice("HA", (14, 0, 9, 0), ("HA",))))
>>> answer(q, "2"), answer(q, "cj")
((14, 0, 9, 0), (14, 0, 3, 0))
>>> answer(q, "7")
'there is no choice 7: choose 1 to 2'
>>> bids = Question("Your bid", (Choice("pass", (2, 0, 0, 0), ("PASS",)),
...                              Choice("18", (0, 0, 18, 0), ("18",)),
...                              Choice("20", (0, 0, 20, 0), ("20",))), bids=True)
>>> answer(bids, "18"), answer(bids, "#1")
((0, 0, 18, 0), (2, 0, 0, 0))
>>> answer(bids, "2")
'2 is not a bid you may make now: type 18, 20 or pass'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from sim.actions import DISCARD, PLAY
from sim.cards import SUITS, Deck, card_word
from sim.tricks import TRUMP

Row = tuple[int, int, int, int]
"""A script row ``[type, seat, a, b]`` (``sim.actions``)."""

SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}


@dataclass(frozen=True)
class Choice:
    """One legal choice: what the screen shows, the row it adds to the person's script,
    and the words (upper case) that name it besides its number."""

    label: str
    row: Row
    keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class Question:
    """A decision due: the prompt, the legal choices (numbered from 1), how many to name
    at once (a discard names several cards: the row is the first one's with ``a`` the
    union of the chosen cards' masks) and, for words that name no choice, why not."""

    prompt: str
    choices: tuple[Choice, ...]
    pick: int = 1
    refusals: Mapping[str, str] = field(default_factory=dict)
    taken: int = 0
    """Cards named before, when the cards to pick are named a few at a time (a mask)."""
    bids: bool = False
    """The choices are bid values (and words such as ``pass``): a typed number is the bid,
    not a choice number. A bid choice's keys hold its value (``"18"``)."""

    def values(self) -> list[str]:
        """The bid values among the choices' keys, in order (for a question of ``bids``)."""
        return [k for c in self.choices for k in c.keys if k.isdigit()]

    def words(self) -> list[str]:
        """The choices that are not a bare bid value, by their first word (``pass``, ``hold``)."""
        return [c.label.split()[0] for c in self.choices if not c.label.isdigit()]

    def allowed(self) -> str:
        """The answers of a question of ``bids`` in a few words: ``18, 20, 22, ... 264 or pass``."""
        values = self.values()
        if len(values) > 5:
            values = [*values[:3], f"... {values[-1]}"]
        said = values + self.words()
        return ", ".join(said[:-1]) + f" or {said[-1]}" if len(said) > 1 else said[0]

    def lines(self) -> list[str]:
        """The question as the screen shows it: numbered choices, then the prompt (bid
        values unnumbered, with a prompt saying that a number is the bid)."""
        if self.bids:
            return self._bid_lines()
        width = len(str(len(self.choices)))
        items = [f"{k:>{width}}) {c.label}" for k, c in enumerate(self.choices, 1)]
        out = []
        if max(len(c.label) for c in self.choices) <= 8:  # cards and numbers: several a line
            size = max(len(i) for i in items) + 3
            per_line = max(1, 76 // size)
            for k in range(0, len(items), per_line):
                out.append("  " + "".join(i.ljust(size) for i in items[k:k + per_line]).rstrip())
        else:
            out = [f"  {i}" for i in items]
        return out + [f"{self.prompt} ({self._how()}):"]

    def _how(self) -> str:
        """What an answer may be: a number or a card where the choices are cards; else a
        number or the word that names a choice (every word where they are few, else one
        for example), so a declaration is not told to answer with a card."""
        if all(c.row[0] in (PLAY, DISCARD) for c in self.choices):
            return ("a number or a card" if self.pick == 1
                    else f"{self.pick} numbers or cards, or one at a time")
        words = [w for w in map(_label_word, self.choices) if w]
        if len(words) == len(self.choices) <= MAX_LISTED:
            return "a number, " + ", ".join(words[:-1]) + f" or {words[-1]}"
        return f"a number or a word such as {words[0]}" if words else "a number"

    def _bid_lines(self) -> list[str]:
        values = self.values()
        named = [c.label for c in self.choices if not c.label.isdigit()]
        out = ["  " + ", ".join(named)]
        if any(c.label.isdigit() for c in self.choices):
            row = "  bids:"
            for v in values:
                if len(row) + len(v) + 1 > 78:
                    out.append(row)
                    row = "       "
                row += " " + v
            out.append(row)
        words = " or ".join(f"'{w}'" for w in self.words())
        if len(values) == 1:
            how = f"type {values[0]} or {words}"
        elif values:
            how = f"type the bid, e.g. {values[0]}, or {words}"
        else:
            how = f"type {words}"
        return out + [f"{self.prompt} ({how}):"]


MAX_LISTED = 5
"""The most choices whose words a prompt lists (more: it gives one for example)."""


def _label_word(choice: Choice) -> str | None:
    """The word of ``choice``'s label that names it (lower case), if one does: ``clubs``
    for ``clubs``, ``reject`` for ``reject (play on)``; none for ``hearts Schneider
    announced``, which only its number names."""
    said = set(re.findall(r"[a-z]+", choice.label.lower()))
    return next((k.lower() for k in choice.keys if k.lower() in said), None)


def normalise(word: str) -> str:
    """An answer's word in the form choices are named: upper case, a card's ``10`` as ``T``
    (``H10`` is ``HT``; the number ``10`` stays a number)."""
    return card_word(word)


def answer(question: Question, text: str) -> Row | str | Question:
    """The row ``text`` chooses; or the reason it chooses nothing (one short line); or,
    when it names fewer cards than the question picks, the question for the rest."""
    words = [normalise(w) for w in text.replace(",", " ").split()]
    n = len(question.choices)
    if not words and question.bids:
        return f"type {question.allowed()}"
    if not words:
        return f"type a number from 1 to {n}" + (" or a card" if question.pick == 1 else "s")
    if len(words) > question.pick:
        return "choose one" if question.pick == 1 else f"name at most {question.pick} cards"
    chosen: list[int] = []
    for word in words:
        if question.bids and word.isdigit():
            hits = [k for k, c in enumerate(question.choices) if word in c.keys]
            if not hits:
                return f"{word} is not a bid you may make now: type {question.allowed()}"
            chosen.append(hits[0])
            continue
        number = word[1:] if word.startswith("#") else word if not question.bids else ""
        if number.isdigit():
            k = int(number)
            if not 1 <= k <= n:
                return f"there is no choice {word}: choose 1 to {n}"
            chosen.append(k - 1)
            continue
        hits = [k for k, c in enumerate(question.choices) if word in c.keys]
        if not hits:
            return question.refusals.get(word, f"{word} is not one of the choices")
        free = [k for k in hits if k not in chosen]
        if len({question.choices[k].label for k in hits}) > 1:
            numbers = ", ".join(str(k + 1) for k in hits)
            return f"{word} is there more than once ({numbers}): give its number"
        chosen.append(free[0] if free else hits[0])  # identical cards: either copy
    if len(set(chosen)) != len(chosen):
        return "name different cards"
    first = question.choices[chosen[0]].row
    if question.pick == 1 and not question.taken:
        return first
    mask = question.taken
    for k in chosen:
        mask |= question.choices[k].row[2]
    if len(chosen) < question.pick:
        rest = question.pick - len(chosen)
        return Question(f"{question.prompt.split(' (')[0]} ({rest} more)",
                        tuple(c for k, c in enumerate(question.choices) if k not in chosen),
                        rest, question.refusals, mask)
    return (first[0], first[1], mask, first[3])


def card_order(cards: Iterable[int], eff: np.ndarray, strength: np.ndarray,
               deck: Deck) -> list[list[int]]:
    """Cards grouped for showing: the trumps first, then clubs, spades, hearts, diamonds;
    the strongest first in each group (empty groups left out)."""
    groups: list[list[int]] = [[] for _ in range(5)]
    for c in cards:
        groups[int(eff[c])].append(int(c))
    order = [TRUMP, 0, 1, 2, 3]
    return [sorted(groups[g], key=lambda c: (-int(strength[c]), c % deck.n_kinds, c))
            for g in order if groups[g]]


def card_groups(mask: int, eff: np.ndarray, strength: np.ndarray, deck: Deck) -> list[list[str]]:
    """The names of ``mask``'s cards in ``card_order``'s groups (the table draws them so)."""
    return [[deck.names[c] for c in g] for g in card_order(deck.cards(int(mask)), eff, strength, deck)]


def group_name(cards: Sequence[int], eff: np.ndarray, deck: Deck) -> str:
    """``trumps`` or the suit's name of a group from ``card_order``."""
    return "trumps" if eff[cards[0]] == TRUMP else SUIT_NAMES[SUITS[int(deck.suit[cards[0]])]]


def show_cards(mask: int, eff: np.ndarray, strength: np.ndarray, deck: Deck) -> str:
    """A set of cards in suit order with the trumps grouped: ``trumps CJ HJ | clubs CA C7``
    (``-`` for none)."""
    groups = card_order(deck.cards(int(mask)), eff, strength, deck)
    if not groups:
        return "-"
    return " | ".join(f"{group_name(g, eff, deck)} " + " ".join(deck.names[c] for c in g)
                      for g in groups)


def card_keys(card: int, deck: Deck) -> tuple[str, ...]:
    """The words that name a card: its name (``HT``; ``H10`` reads the same)."""
    return (deck.names[card],)


def card_choices(mask: int, kind: int, seat: int, eff: np.ndarray, strength: np.ndarray,
                 deck: Deck, b: int = 0) -> list[Choice]:
    """One choice per card of ``mask`` in the order ``show_cards`` shows them, each adding
    the row ``[kind, seat, a, b]``: for a play ``a`` is the card (identical copies are one
    choice), for a discard the card's bit (each copy a choice: both may go)."""
    seen: set[str] = set()
    out = []
    for group in card_order(deck.cards(int(mask)), eff, strength, deck):
        for c in group:
            name = deck.names[c]
            if name in seen and kind != DISCARD:
                continue
            seen.add(name)
            a = 1 << c if kind == DISCARD else c
            out.append(Choice(name, (kind, seat, a, b), card_keys(c, deck)))
    return out


def says(who: str, you: bool, phrase: str) -> str:
    """A move told in the person's words or a third person's: ``you: pass``, ``seat 2
    (middlehand): passes`` (the phrase's first word is its verb)."""
    if you:
        return f"{who}: {phrase}"
    verb, _, rest = phrase.partition(" ")
    verb += "es" if verb.endswith(("s", "sh", "ch")) else "s"
    return f"{who}: {verb} {rest}".rstrip()


def held_refusals(hand: int, legal: int, deck: Deck, why: str) -> dict[str, str]:
    """For each card held but not legal now, the reason it may not be played (``why``)."""
    out = {}
    for c in deck.cards(int(hand) & ~int(legal)):
        out[deck.names[c]] = f"{deck.names[c]} may not be played now: {why}"
    return out
