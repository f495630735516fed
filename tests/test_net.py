"""The learned player as the kernels run it (``sim.engine.net``): its features read from the
observation as worked out by hand, its cards the legal card a plain numpy forward pass scores
highest from the recorded observation alone (so nothing but the observation can move them),
the same cards in a ``playout`` (the search's rollouts) as in the kernel, several networks at
one table, and weights that do not fit refused in one line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim import actions as A
from sim.cli import main
from sim.engine.cardplay import HEADER, PLAY
from sim.engine.net import LAYERS, NetError, encode, encode_all, features, load
from sim.engine.play import play
from sim.engine.seats import HEURISTIC
from sim.games.skat_family.features import FEATURES as SKAT
from sim.games.skat_family.features import YES_OR_NO
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import PH_OFFER, PH_PLAY
from sim.learn.fit import forward
from sim.registry import GAMES

NETTED = [name for name, game in GAMES.items() if game.net is not None]


def test_every_game_but_the_toy_has_a_learned_player() -> None:
    assert set(NETTED) == {"skat", "skat_en_deux", "doko_duell", "doko_skat"}
    for name in NETTED:
        assert "net" in GAMES[name].policies


def _offsets(spec_rows: np.ndarray) -> list[int]:
    """Where each row's features start."""
    seats = int(spec_rows[0, 1])
    at, out = 0, []
    for r in spec_rows[1:]:
        out.append(at)
        at += int(r[2]) * (seats if r[4] else 1)
    return out


def test_skat_features_worked_out_by_hand() -> None:
    """Seat 1 to move in a suit game declared by seat 2, trick 3 with one card led by seat 0:
    every card field lands on its own bits, the per-seat fields counted from seat 1."""
    obs = np.zeros(O.LENGTH, np.int64)
    obs[O.SEAT] = 1
    obs[O.PHASE] = PH_PLAY
    obs[O.HAND] = 0b1011
    obs[O.LEGAL] = 0b0011
    obs[O.PLAYED + 0] = 1 << 20
    obs[O.PLAYED + 1] = 1 << 21
    obs[O.PLAYED + 2] = 1 << 22
    obs[O.TRICK_CARD:O.TRICK_CARD + 3] = (7, -1, -1)
    obs[O.TRICK_LEADER] = 0
    obs[O.TRICK_N] = 1
    obs[O.TRICK_NO] = 2
    obs[O.DECLARER] = 2
    obs[O.FOREHAND] = 0
    obs[O.BLIND_SEAT] = -1
    obs[O.GAME] = 1
    obs[O.VOIDS] = 1 << (5 * 2 + 4)     # seat 2 showed it has no trump
    obs[O.POINTS:O.POINTS + 3] = (14, 0, 63)
    obs[O.TRICKS:O.TRICKS + 3] = (1, 0, 1)
    obs[O.POSITION] = 1                 # middlehand
    obs[O.BID] = 20
    rows = SKAT.rows
    at = dict(zip(range(1, len(rows)), _offsets(rows)))
    row_of = {(int(r[0]), int(r[1])): k for k, r in enumerate(rows) if k}

    def first(field: int, kind: int) -> int:
        return at[row_of[(kind, field)]]

    from sim.engine.net import BUCKET, MASK, ONE_HOT, SEAT, SEAT_BITS
    expected = {first(O.HAND, MASK) + b for b in (0, 1, 3)}
    expected |= {first(O.LEGAL, MASK) + b for b in (0, 1)}
    played = first(O.PLAYED, MASK)
    expected |= {played + 0 * 32 + 21, played + 1 * 32 + 22, played + 2 * 32 + 20}
    expected.add(first(O.TRICK_CARD, ONE_HOT) + 7)
    expected.add(first(O.TRICK_LEADER, SEAT) + 2)      # seat 0 is two places after seat 1
    expected.add(first(O.TRICK_N, ONE_HOT) + 1)
    expected.add(first(O.TRICK_NO, ONE_HOT) + 2)
    expected.add(first(O.DECLARER, SEAT) + 1)
    expected.add(first(O.FOREHAND, SEAT) + 2)
    expected.add(first(O.GAME, ONE_HOT) + 1)
    expected.add(first(O.OPEN_LEVEL, ONE_HOT) + 0)
    expected.add(first(O.VOIDS, SEAT_BITS) + 1 * 5 + 4)
    points = first(O.POINTS, BUCKET)
    expected |= {points + 0 * 25 + 0, points + 1 * 25 + 12, points + 2 * 25 + 2}
    tricks = first(O.TRICKS, ONE_HOT)
    expected |= {tricks + 0 * 11 + 0, tricks + 1 * 11 + 1, tricks + 2 * 11 + 1}
    # the question asked (the card play), the position and the bid (20 // 3: bucket 6)
    expected.add(first(O.PHASE, ONE_HOT) + PH_PLAY)
    expected.add(first(O.POSITION, ONE_HOT) + 1)
    expected.add(first(O.BID, BUCKET) + 6)
    for field in (O.HAND_GAME, O.OUVERT, O.RAMSCH):
        assert (MASK, field) in row_of
    idx = np.zeros(features(rows), np.int64)
    n = encode(rows, obs, idx)
    assert sorted(idx[:n].tolist()) == sorted(expected)
    dense = np.zeros((1, features(rows)), np.uint8)
    encode_all(rows, obs[None, :], dense)
    assert set(np.flatnonzero(dense[0]).tolist()) == expected


def random_weights(name: str, seed: int, path: Path, hidden: tuple[int, int] = (24, 12)) -> Path:
    """A weights file for ``name`` with random layers (a network that plays, badly)."""
    game = GAMES[name]
    assert game.net is not None
    spec = game.net.features
    rng = np.random.default_rng(seed)
    f, a = features(spec.rows), spec.actions
    shapes = {"w1": (f, hidden[0]), "b1": (hidden[0],), "w2": hidden, "b2": (hidden[1],),
              "w3": (a, hidden[1]), "b3": (a,)}
    layers = {k: rng.normal(0, 0.5, s).astype(np.float32) for k, s in shapes.items()}
    np.savez(path, **layers, game=np.array(name), features=np.array(spec.version))
    return path


@pytest.mark.parametrize("name", NETTED)
def test_the_net_plays_the_best_legal_card_of_its_observation(name: str, tmp_path: Path) -> None:
    """Replaying net deals, at every card the network played, a numpy forward pass over the
    features of the observation alone picks the same card: the deal's hidden cards cannot
    move it; in Doko-Skat the first round's cards too (``CardPlay.opening``), in
    Skat-en-deux under offers and Contra/Re its answers between tricks too. Other decisions
    (bids, the skat) are the heuristic's, as the docs say."""
    game = GAMES[name]
    cp = game.card_play
    assert cp is not None and game.net is not None
    path = random_weights(name, 3, tmp_path / "w.npz")
    layers = load(path, name, game.net.features)
    rows = game.net.features.rows
    rules = game.rules(BETWEEN_TRICKS if name == "skat_en_deux" else None)
    batch = play(game, 9, 0, 30, rules, [f"net:{path}"] * game.n_players, record=True)
    assert batch.actions is not None
    checked = opening = between = 0
    for i in range(30):
        started = cp.start(batch.columns, i, batch.actions[i], rules)
        if started is None:
            continue
        first = None if cp.opening is None else cp.opening(batch.columns, i, batch.actions[i],
                                                            rules)
        for state, plays in [started] if first is None else [first, started]:
            obs = np.zeros(game.observation.LENGTH, np.int64)
            for action in plays:
                cp.observe(state, int(state[HEADER.TO_MOVE]), obs)
                head = rows[0]
                legal = int(obs[head[4]])
                if (head[3] >> obs[head[2]]) & 1 and legal & (legal - 1):
                    x = np.zeros((1, features(rows)), np.uint8)
                    encode_all(rows, obs[None, :], x)
                    scores = forward(layers, x)[0]
                    bits = [a for a in range(game.net.features.actions) if legal >> a & 1]
                    assert int(action) == max(bits, key=lambda a: scores[a])
                    checked += 1
                    opening += first is not None and state is first[0]
                    between += state[HEADER.PHASE] != PLAY
                cp.step(state, int(action))
    assert checked > 100
    assert (opening > 30) == (name == "doko_skat"), opening
    assert (between > 10) == (name == "skat_en_deux"), between


BETWEEN_TRICKS = {"offers": True, "contra_re": True}
"""Skat-en-deux's rules with offers, Contra and Re: decisions between tricks."""


def _between_tricks(path: Path) -> list[tuple[int, int]]:
    """Skat-en-deux deals with ``net:PATH`` at both seats under offers and Contra/Re: at each
    offer, answer, Contra and Re, the heuristic's answer to the observation and the one
    played."""
    game = GAMES["skat_en_deux"]
    cp = game.card_play
    assert cp is not None
    rules = game.rules(BETWEEN_TRICKS)
    batch = play(game, 11, 0, 120, rules, [f"net:{path}"] * 2, record=True)
    assert batch.actions is not None
    out = []
    for i in range(120):
        started = cp.start(batch.columns, i, batch.actions[i], rules)
        if started is None:
            continue
        state, plays = started
        obs = np.zeros(game.observation.LENGTH, np.int64)
        for action in plays:
            cp.observe(state, int(state[HEADER.TO_MOVE]), obs)
            if state[HEADER.PHASE] != PLAY:
                out.append((int(cp.decide(HEURISTIC, obs, np.zeros(1, np.uint64))), int(action)))
            cp.step(state, int(action))
    return out


def test_a_network_plays_between_tricks_only_where_its_weights_say(tmp_path: Path) -> None:
    """Skat-en-deux's network may play the offers, their answers, Contra and Re (its spec's
    head gives them): weights that play them answer otherwise than the heuristic somewhere;
    the same weights told to play the cards only (``plays``) leave every one of them to the
    heuristic."""
    every = random_weights("skat_en_deux", 5, tmp_path / "every.npz")
    with np.load(every) as data:
        arrays = {k: data[k] for k in data.files}
    cards = tmp_path / "cards.npz"
    np.savez(cards, **arrays, plays=np.array(1 << PH_PLAY))
    own, kept = _between_tricks(every), _between_tricks(cards)
    assert len(kept) > 30 and all(h == a for h, a in kept)
    assert len(own) > 30 and any(h != a for h, a in own)


def test_a_playout_with_net_seats_plays_the_kernels_net_deal(tmp_path: Path) -> None:
    """``playout`` (the lookahead's rollouts; under expert iteration the teacher's, played by
    the network) with ``net`` at both seats and their network plays every card the kernel's
    ``net`` seats played, from the deal: the same result. In the duel every card-play
    decision is a card, so the network plays them all."""
    from sim.engine.net import stack
    from sim.engine.seats import NET
    from sim.games.doko_duell import cardplay as duel
    from sim.games.doko_duell.game import start_card_play

    game = GAMES["doko_duell"]
    path = random_weights("doko_duell", 4, tmp_path / "w.npz")
    net = stack([load(path, "doko_duell", game.net.features)])
    rules = game.rules()
    batch = play(game, 7, 0, 40, rules, [f"net:{path}"] * 2, record=True)
    for i in range(40):
        state, _ = start_card_play(batch.columns, i, np.zeros((0, 4), np.int64), rules)
        duel.playout(state, np.full(2, NET, np.int64), np.ones((2, 1), np.uint64), net)
        assert duel.result(state) == {k: int(batch.columns[k][i]) for k in duel.result(state)}, i


def test_a_skat_en_deux_playout_reads_its_own_features(tmp_path: Path) -> None:
    """The Skat family's ``playout`` serves both games: in Skat-en-deux (under offers and
    Contra/Re, its ramsch too) its network reads Skat-en-deux's features, not Skat's, and
    plays every card and answer its kernel's ``net`` seats played: the same result."""
    from sim.engine.net import stack
    from sim.engine.seats import NET

    game = GAMES["skat_en_deux"]
    cp = game.card_play
    assert cp is not None and game.net is not None
    path = random_weights("skat_en_deux", 6, tmp_path / "w.npz")
    net = stack([load(path, "skat_en_deux", game.net.features)])
    rules = game.rules(BETWEEN_TRICKS)
    batch = play(game, 5, 0, 60, rules, [f"net:{path}"] * 2, record=True)
    assert batch.actions is not None
    played = 0
    for i in range(60):
        started = cp.start(batch.columns, i, batch.actions[i], rules)
        if started is None:
            continue
        state = started[0]
        cp.playout(state, np.full(3, NET, np.int64), np.ones((3, 1), np.uint64), net)
        assert cp.result(state) == {k: int(batch.columns[k][i]) for k in cp.result(state)}, i
        played += 1
    assert played > 40


def test_two_networks_at_one_table_each_play_their_own(tmp_path: Path) -> None:
    """``net:A`` beside ``net:B``: each seat plays its own file's network, so a table of A and
    B differs from a table of A alone, and seating A at every seat by one name or two paths
    to the same file plays the same deals."""
    game = GAMES["skat"]
    a = random_weights("skat", 1, tmp_path / "a.npz")
    b = random_weights("skat", 2, tmp_path / "b.npz")
    rules = game.rules()
    alone = play(game, 4, 0, 200, rules, [f"net:{a}"] * 3).columns
    mixed = play(game, 4, 0, 200, rules, [f"net:{a}", f"net:{b}", f"net:{a}"]).columns
    assert any((alone[k] != mixed[k]).any() for k in alone)
    again = play(game, 4, 0, 200, rules, [f"net:{a}"] * 3).columns
    assert all((alone[k] == again[k]).all() for k in alone)


def test_weights_that_do_not_fit_are_refused_in_one_line(tmp_path: Path) -> None:
    spec = GAMES["skat"].net.features  # type: ignore[union-attr]
    good = random_weights("skat", 1, tmp_path / "good.npz")
    with pytest.raises(NetError, match="no weights file"):
        load(tmp_path / "missing.npz", "skat", spec)
    with pytest.raises(NetError, match="not skat"):
        load(random_weights("doko_duell", 1, tmp_path / "duel.npz"), "skat", spec)
    with np.load(good) as data:
        arrays = {k: data[k] for k in data.files}
    np.savez(tmp_path / "old.npz", **{**arrays, "features": np.array("0123456789abcdef")})
    with pytest.raises(NetError, match="trained on features 0123456789abcdef"):
        load(tmp_path / "old.npz", "skat", spec)
    # Skat's network may play the cards and the yes-or-no questions, not an offer
    head = int(spec.rows[0, 3])
    assert head == 1 << PH_PLAY | YES_OR_NO and not head >> PH_OFFER & 1
    np.savez(tmp_path / "plays.npz", **{**arrays, "plays": np.array(1 << PH_OFFER)})
    with pytest.raises(NetError, match=f"plays phases {1 << PH_OFFER:#x}, the game's network "
                                       f"may play {head:#x}"):
        load(tmp_path / "plays.npz", "skat", spec)
    np.savez(tmp_path / "shape.npz", **{**arrays, "b3": np.zeros(5, np.float32)})
    with pytest.raises(NetError, match="layer b3 has shape"):
        load(tmp_path / "shape.npz", "skat", spec)
    (tmp_path / "text.npz").write_text("not a zip")
    with pytest.raises(NetError, match="not a weights file"):
        load(tmp_path / "text.npz", "skat", spec)
    assert set(LAYERS) <= set(arrays)


def test_the_command_line_refuses_a_bad_weights_file_with_exit_2(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "none.npz"
    status = main(["arena", "skat", "--policies", f"net:{missing},heuristic", "--deals", "10",
                   "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert len(err) == 1 and "no weights file" in err[0]
    status = main(["train", "skat", "--teacher", "heuristic", "--out", str(tmp_path / "t")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "the teachers are lookahead:N and pimc:N" in err[0]
    status = main(["train", "skat", "--teacher", "pimc:4", "--expert", "--out", str(tmp_path / "t")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "--expert needs a lookahead teacher" in err[0]
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("name", NETTED)
def test_the_shipped_weights_fit_their_game_in_at_most_4_mb(name: str) -> None:
    from sim.engine.play import shipped

    game = GAMES[name]
    assert game.net is not None
    path = Path(shipped(game))
    assert path.stat().st_size <= 4 * 2**20
    layers = load(path, name, game.net.features)
    assert layers["w3"].shape[0] == game.net.features.actions
    with np.load(path) as data:
        assert str(data["game"]) == name and "rounds" in str(data["about"])


@pytest.mark.parametrize("name", NETTED)
def test_net_deals_are_the_same_whatever_the_shards(name: str) -> None:
    """The shipped network's deals: one call of 60 deals equals two of 30 (the scratch a call
    reuses carries nothing from deal to deal)."""
    game = GAMES[name]
    rules = game.rules()
    whole = play(game, 8, 0, 60, rules, ["net"] * game.n_players).columns
    parts = [play(game, 8, first, 30, rules, ["net"] * game.n_players).columns for first in (0, 30)]
    for k in whole:
        np.testing.assert_array_equal(whole[k], np.concatenate([p[k] for p in parts]))


@pytest.mark.parametrize("name", NETTED)
def test_the_network_plays_only_decisions_it_is_taught(name: str) -> None:
    """The shipped weights play only phases that self-play under the rules they were trained
    by asks and the labeller teaches (``plays``, written by ``stichsim train``: the card play
    as ``CardPlay.start`` replays it, Doko-Skat's first round as ``CardPlay.opening`` does,
    Skat-en-deux's offers, answers and Contra under offers and Contra/Re, its questions
    before the card play as the kernel asks them: ``Learned.answers``); a phase the
    network never saw would be played by weights no example ever moved."""
    import json

    from sim.engine.play import shipped
    from sim.learn.decisions import Teacher, label_deals

    game = GAMES[name]
    assert game.net is not None
    head = game.net.features.rows[0]
    path = shipped(game)
    with np.load(path) as data:
        trained = json.loads(str(data["about"])).get("rules", [])
    rules = game.rules(game.options.parse_assignments(trained, name))
    plays = int(load(path, name, game.net.features)["plays"])
    answers = game.net.answers.phases if game.net.answers else 0
    deals = 300 if trained or plays & answers else 6
    taught = label_deals(game, 2, 0, deals, rules, ["heuristic"] * game.n_players,
                         Teacher("lookahead", 2))
    shown = {int(p) for p in taught.obs[:, head[2]]}
    played = {p for p in range(64) if plays >> p & 1}
    given = {p for p in range(64) if head[3] >> p & 1}
    assert played <= shown & given, (played, shown)


def _before_play(game_policies: list[str], seed: int = 12, deals: int = 80) -> list[list[int]]:
    """Skat-en-deux deals played by ``game_policies``: each deal's recorded rows before the
    first discard, declaration or card (the bidding, the pickup, the give-ups at 18)."""
    game = GAMES["skat_en_deux"]
    batch = play(game, seed, 0, deals, game.rules(), game_policies, record=True)
    assert batch.actions is not None
    out = []
    for rows in batch.actions:
        ends = [k for k, r in enumerate(rows) if r[0] in (A.DISCARD, A.DECLARE, A.PLAY, A.RAMSCH)]
        out.append(rows[:ends[0] if ends else len(rows)].tolist())
    return out


def test_the_net_answers_before_the_card_play_from_the_observation_alone(tmp_path: Path) -> None:
    """Skat-en-deux's network answers the bids, holds, 18, the pickup and a give-up at 18
    (its spec's head gives them; ``LEGAL`` holds the answers 0 and 1): at each such question
    of net deals with both answers open, the answer played is the one a numpy forward pass
    over the observation the kernel showed scores higher (``sim.learn.decisions`` replays
    the deal to it as a person's), so the hidden cards cannot move it. The same weights told
    to play the cards only (``plays``) answer every one of them as the heuristic does; the
    full weights answer otherwise somewhere."""
    from sim.learn.decisions import BEFORE_PLAY, Teacher, label_deals

    game = GAMES["skat_en_deux"]
    assert game.net is not None
    every = random_weights("skat_en_deux", 5, tmp_path / "every.npz")
    layers = load(every, "skat_en_deux", game.net.features)
    rows = game.net.features.rows
    shown = label_deals(game, 12, 0, 40, game.rules(), [f"net:{every}"] * 2, Teacher("lookahead", 2))
    asked = shown.phase == BEFORE_PLAY
    assert asked.sum() > 40
    x = np.zeros((int(asked.sum()), features(rows)), np.uint8)
    encode_all(rows, np.ascontiguousarray(shown.obs[asked]), x)
    np.testing.assert_array_equal(forward(layers, x)[:, :2].argmax(axis=1), shown.chosen[asked])
    with np.load(every) as data:
        arrays = {k: data[k] for k in data.files}
    cards = tmp_path / "cards.npz"
    np.savez(cards, **arrays, plays=np.array(1 << PH_PLAY))
    heuristic = _before_play(["heuristic"] * 2)
    assert _before_play([f"net:{cards}"] * 2) == heuristic
    assert _before_play([f"net:{every}"] * 2) != heuristic
