"""``stichsim train`` end to end on a tiny budget: rounds of labelled self-play, the fit, the
weights file ``net`` plays, the model card with its arena; the same weights whatever the
workers, and again after ``--resume``; the teacher's regret measured as defined."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from sim.cli import main
from sim.engine.cardplay import PLAY
from sim.engine.net import LAYERS, load
from sim.games.skat_family.observation import PH_ACCEPT, PH_BID, PH_OFFER, PH_PICKUP, PH_PLAY
from sim.learn import decisions as D
from sim.learn.fit import Examples, played_regret, regret, temperature
from sim.learn.train import Settings, TrainError, train
from sim.options import RuleError
from sim.registry import GAMES

pytest.importorskip("jax")
pytest.importorskip("optax")

GAME = GAMES["skat"]
TINY = Settings("skat", "lookahead:4", rounds=2, deals=40, seed=3, epochs=1, hidden=(16, 8))


def _weights(path: Path) -> dict[str, np.ndarray]:
    assert GAME.net is not None
    return load(path, "skat", GAME.net.features)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("train") / "skat"
    report = train(GAME, TINY, out, jobs=1, arena_deals=30, teacher_deals=4)
    return out, report


def test_a_run_writes_weights_net_plays_and_a_model_card(trained: tuple[Path, dict]) -> None:
    out, report = trained
    for name in ("net.npz", "round-0.npz", "round-1.npz", "decisions-0.npz", "decisions-1.npz",
                 "MODEL.md", "training.png", "report.json", "train.json"):
        assert (out / name).is_file(), name
    layers = _weights(out / "net.npz")
    assert layers["w1"].shape[1] == 16 and layers["w3"].shape == (32, 8)
    assert [r["policies"] for r in report["rounds"]] == ["heuristic", f"net:{out / 'round-0.npz'}"]
    assert report["rounds"][1]["decisions"] > report["rounds"][0]["decisions"] > 100
    assert [a["opponent"] for a in report["arena"]] == ["heuristic", "lookahead:4"]
    assert [a["deals"] for a in report["arena"]] == [30, 4]
    card = (out / "MODEL.md").read_text()
    assert "stichsim train skat --teacher lookahead:4 --rounds 2 --deals 40 --epochs 1 --seed 3" in card
    assert "| heuristic | 30 |" in card and "| lookahead:4 | 4 |" in card
    assert json.loads((out / "report.json").read_text())["features"] == GAME.net.features.version


def test_the_same_settings_give_the_same_weights_whatever_the_workers(
        trained: tuple[Path, dict], tmp_path: Path) -> None:
    out, _ = trained
    train(GAME, TINY, tmp_path / "again", jobs=2, arena_deals=0, teacher_deals=0)
    first, again = _weights(out / "net.npz"), _weights(tmp_path / "again" / "net.npz")
    for k in LAYERS:
        np.testing.assert_array_equal(first[k], again[k])


def test_resume_goes_on_from_the_last_whole_round(trained: tuple[Path, dict], tmp_path: Path) -> None:
    out, _ = trained
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    (copy / "round-1.npz").unlink()
    (copy / "net.npz").unlink()
    with pytest.raises(TrainError, match="--resume"):
        train(GAME, TINY, copy, arena_deals=0, teacher_deals=0)
    with pytest.raises(TrainError, match="other settings"):
        train(GAME, Settings(**{**TINY.__dict__, "seed": 4}), copy, resume=True)
    train(GAME, TINY, copy, resume=True, arena_deals=0, teacher_deals=0)
    first, resumed = _weights(out / "net.npz"), _weights(copy / "net.npz")
    for k in LAYERS:
        np.testing.assert_array_equal(first[k], resumed[k])
    # a run of one round resumed to two is the run of two
    one = tmp_path / "one"
    train(GAME, Settings(**{**TINY.__dict__, "rounds": 1}), one, arena_deals=0, teacher_deals=0)
    train(GAME, TINY, one, resume=True, arena_deals=0, teacher_deals=0)
    grown = _weights(one / "net.npz")
    for k in LAYERS:
        np.testing.assert_array_equal(first[k], grown[k])


def test_expert_iteration_rolls_the_teacher_out_with_the_last_network(
        trained: tuple[Path, dict], tmp_path: Path) -> None:
    """``--expert``: round 0 is the plain run's (the heuristic's deals and rollouts: the same
    decisions and labels); round 1 plays the same deals with the round-0 network, but the
    teacher's rollouts are that network's too, so its labels differ."""
    out, _ = trained
    expert = tmp_path / "expert"
    train(GAME, Settings(**{**TINY.__dict__, "expert": True}), expert, arena_deals=0,
          teacher_deals=4)
    plain = [D.load(out / f"decisions-{r}.npz")[0] for r in (0, 1)]
    taught = [D.load(expert / f"decisions-{r}.npz")[0] for r in (0, 1)]
    np.testing.assert_array_equal(plain[0].values, taught[0].values)
    np.testing.assert_array_equal(plain[1].obs, taught[1].obs)
    np.testing.assert_array_equal(plain[1].legal(), taught[1].legal())
    differ = ~np.all(np.isclose(plain[1].values, taught[1].values, equal_nan=True), axis=1)
    assert differ.mean() > 0.3
    assert "--seed 3 --expert`" in (expert / "MODEL.md").read_text()


def test_pimc_teaches_the_cards_by_their_solved_worlds(tmp_path: Path) -> None:
    """``--teacher pimc:2``: every card decision (and no offer) is labelled by its band
    utility averaged over two solved worlds (halves of whole utilities), and a network is
    fitted to them."""
    game = GAMES["skat_en_deux"]
    settings = Settings("skat_en_deux", "pimc:2", rounds=1, deals=30, seed=3, epochs=1,
                        hidden=(16, 8))
    train(game, settings, tmp_path / "pimc", arena_deals=0, teacher_deals=0)
    taught, about = D.load(tmp_path / "pimc" / "decisions-0.npz")
    assert about["teacher"] == "pimc:2" and len(taught) > 200
    assert set(taught.phase.tolist()) == {PLAY}
    values = taught.values[taught.legal()]
    np.testing.assert_array_equal(values * 2, np.round(values * 2))
    assert (np.nanmax(taught.values, axis=1) > np.nanmin(taught.values, axis=1)).mean() > 0.2
    spec = game.net.features  # type: ignore[union-attr]
    assert int(load(tmp_path / "pimc" / "net.npz", "skat_en_deux", spec)["plays"]) == 1 << PH_PLAY


def test_rules_reach_the_deals_and_the_network_plays_what_they_taught(tmp_path: Path) -> None:
    """``--rule``: Skat-en-deux's deals under offers and Contra/Re teach the network its
    answers between tricks, so its weights play them (``plays``); the model card names the
    rules. A bad rule is refused before anything is written."""
    game = GAMES["skat_en_deux"]
    assert game.net is not None
    rules = ("contra_re=true", "offers=true")
    settings = Settings("skat_en_deux", "lookahead:2", rounds=1, deals=60, seed=3, epochs=1,
                        hidden=(16, 8), rules=rules)
    train(game, settings, tmp_path / "offers", arena_deals=0, teacher_deals=0)
    taught, about = D.load(tmp_path / "offers" / "decisions-0.npz")
    assert about["rules"] == list(rules)
    phases = {int(p) for p in taught.obs[:, game.net.features.rows[0, 2]]}
    assert {PH_PLAY, PH_OFFER, PH_ACCEPT, PH_BID, PH_PICKUP} <= phases
    plays = int(load(tmp_path / "offers" / "net.npz", "skat_en_deux", game.net.features)["plays"])
    assert plays == sum(1 << p for p in phases)
    assert "--rule contra_re=true --rule offers=true`" in (tmp_path / "offers" / "MODEL.md").read_text()
    bad = Settings(**{**settings.__dict__, "rules": ("offers=maybe",)})
    with pytest.raises(RuleError, match="option offers: value maybe is not allowed"):
        train(game, bad, tmp_path / "bad", arena_deals=0, teacher_deals=0)
    assert not (tmp_path / "bad").exists()


def test_the_command_trains_and_prints_its_model_card(tmp_path: Path, capsys) -> None:
    status = main(["train", "skat", "--teacher", "lookahead:2", "--rounds", "1", "--deals", "30",
                   "--epochs", "1", "--out", str(tmp_path / "cli"), "--arena-deals", "12",
                   "--teacher-deals", "0", "--jobs", "1", "--no-progress"])
    printed = capsys.readouterr().out
    assert status == 0
    assert printed.startswith("# net for skat")
    assert f"weights: {tmp_path / 'cli' / 'net.npz'}" in printed
    assert main(["arena", "skat", "--policies", f"net:{tmp_path / 'cli' / 'net.npz'},random",
                 "--deals", "10", "--jobs", "1", "--no-progress", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pairs"][0]["deals"] == 10


def test_regret_is_the_teacher_value_lost_by_the_pick() -> None:
    """Two decisions worked out by hand: the pick is the legal card scored highest (an illegal
    card's score never counts), its cost the best legal value less the picked one's."""
    legal = np.array([[1, 1, 0, 1], [0, 1, 1, 0]], bool)
    values = np.array([[5.0, 2.0, 0.0, 4.0], [0.0, -1.0, 3.0, 0.0]], np.float32)
    ex = Examples(np.zeros((2, 1), np.uint8), legal, values, np.zeros(2, np.int64), np.array([3, 2]))
    scores = np.array([[0.0, 9.0, 99.0, 1.0], [0.0, 2.0, 1.0, 50.0]])
    assert regret(scores, ex) == pytest.approx(((5 - 2) + (3 - -1)) / 2)
    assert played_regret(ex) == pytest.approx((5 - 4 + 0) / 2)
    assert temperature(ex) == pytest.approx(np.median([5 - 2, 3 - -1]) / 4)
