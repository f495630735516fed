"""Experiments: config validation, shards, Parquet files, determinism, resume and force."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import sim
from sim import runner
from sim.engine.play import play
from sim.errors import ConfigError, ResultsError
from sim.games.skat_family.values import GAME_NAMES
from sim.registry import find_game
from sim.runner import (
    BASE,
    EXPERIMENT_FILE,
    META_KEYS,
    Experiment,
    Shard,
    run_experiment,
    shard_path,
)

ROOT = Path(__file__).resolve().parents[1]
SKAT = find_game("skat")


def shard_files(root: Path) -> dict[str, bytes]:
    """Every shard file under ``root`` by relative path, with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.parquet"))}


def variant_rows(root: Path, variant: str) -> pa.Table:
    files = sorted(root.glob(f"game=*/variant={variant}/shard=*.parquet"))
    return pa.concat_tables([pq.read_table(f) for f in files])


def all_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


# --- configs ------------------------------------------------------------------------------

def test_baseline_experiment() -> None:
    exp = Experiment.load(ROOT / "experiments" / "skat-baseline.toml")
    assert (exp.name, exp.game, exp.deals, exp.seed, exp.shard_size) == (
        "skat-baseline", "skat", 1_000_000, 20261130, 100_000)
    variants = {v.name: v for v in exp.variants()}
    assert list(variants) == ["base", "ramsch", "lost-factor-1"]
    assert all(v.policies == ["heuristic"] * 3 for v in variants.values())
    assert variants["base"].rules == SKAT.rules({"all_pass": "throw_in"})
    assert variants["ramsch"].rules == SKAT.rules({"all_pass": "ramsch"})
    assert variants["lost-factor-1"].rules == SKAT.rules({"lost_factor": 1})
    assert len(exp.shards()) == 10


def test_tiny_experiment_file_is_valid() -> None:
    exp = Experiment.load(ROOT / "experiments" / "skat-tiny.toml")
    assert [v.name for v in exp.variants()] == ["base", "ramsch", "random"]
    assert exp.variant("random").policies == ["random"] * 3
    assert exp.variant("random").rules["all_pass"] == "throw_in"


def test_variants_inherit_and_override(experiment_file, tiny_toml) -> None:
    text = tiny_toml + '\n[[variants]]\nname = "lf1"\nrules = { lost_factor = 1 }\n' \
        'policies = "random"\n'
    exp = Experiment.load(experiment_file(text, replace={'all_pass = "throw_in"':
                                                         'all_pass = "ramsch"'}))
    base, ramsch, lf1 = exp.variants()
    assert base.name == BASE and base.rules["all_pass"] == "ramsch"
    assert lf1.rules == {**base.rules, "lost_factor": 1}
    assert lf1.policies == ["random"] * 3 and ramsch.policies == base.policies
    with pytest.raises(ConfigError, match="no variant 'nope'.*base, ramsch, lf1"):
        exp.variant("nope")


def test_shards_cover_every_deal_once(experiment_file) -> None:
    exp = Experiment.load(experiment_file())
    assert exp.shards() == [Shard(0, 0, 250), Shard(1, 250, 250), Shard(2, 500, 200)]
    exp = Experiment.load(experiment_file(), deals=250)
    assert exp.shards() == [Shard(0, 0, 250)]


def test_config_hash(experiment_file) -> None:
    a = Experiment.load(experiment_file())
    assert a.config_hash() == Experiment.load(experiment_file()).config_hash()
    assert len(a.config_hash()) == 64 and int(a.config_hash(), 16) >= 0
    # a default spelled out or left out, key order, comments: the same config
    same = experiment_file(replace={"[rules]\n": "[rules]\nlost_factor = 2 # default\n"},
                           name="same.toml")
    assert Experiment.load(same).config_hash() == a.config_hash()
    for changed in (Experiment.load(experiment_file(), deals=701),
                    Experiment.load(experiment_file(replace={"seed = 11": "seed = 12"}, name="b.toml")),
                    Experiment.load(experiment_file(replace={"shard_size = 250": "shard_size = 200"},
                                                    name="c.toml")),
                    Experiment.load(experiment_file(replace={'"ramsch" }': '"ramsch", lost_factor = 1 }'},
                                                    name="d.toml"))):
        assert changed.config_hash() != a.config_hash()


BAD_CONFIGS = [
    ({'game = "skat"': 'game = "poker"'}, "unknown game 'poker' (games: skat"),
    ({'all_pass = "throw_in"': 'all_pass = "never"'},
     "[rules]: option all_pass: value never is not allowed (allowed: throw_in, ramsch)"),
    ({'all_pass = "throw_in"': "hausregel = 1"}, "unknown option 'hausregel' for game skat (options:"),
    ({'"ramsch" }': '"ramsch", lost_factor = 3 }'},
     "variant 'ramsch': rules: option lost_factor: value 3 is not allowed (allowed: 2, 1)"),
    ({'"random"]': '"genius"]'},
     "unknown policy 'genius' (policies: random, heuristic, lookahead, pimc, dd, net, python, restricted; "),
    ({'"heuristic", "heuristic", "random"]': '"random"]'}, "has 3 seats but 1 policies"),
    ({"deals = 700": "deals = 0"}, "deals must be a positive integer, got 0"),
    ({"deals = 700": "deals = -5"}, "deals must be a positive integer, got -5"),
    ({"deals = 700": "deals = 7e2"}, "deals must be a positive integer, got 700.0"),
    ({"shard_size = 250": "shard_size = 0"}, "shard_size must be a positive integer"),
    ({"seed = 11": "seed = -1"}, "seed must be an integer from 0 to 2**64 - 1"),
    ({"seed = 11\n": ""}, "missing key seed (required: name, game, deals, seed, shard_size"),
    ({"seed = 11": "sed = 11"}, "unknown key 'sed' (allowed: name, game, deals, seed"),
    ({'name = "ramsch"': 'name = "base"'}, "the name 'base' is the base configuration's name"),
    ({'name = "ramsch"': 'name = "ramsch"\nrulez = {}'}, "variants[0]: unknown key 'rulez'"),
    ({'name = "tiny"': 'name = "../up"'}, "name must be a name of letters, digits"),
    ({'name = "tiny"': 'name = "tiny'}, "malformed TOML"),
]


@pytest.mark.parametrize(("replace", "message"), BAD_CONFIGS)
def test_bad_configs(experiment_file, replace, message) -> None:
    path = experiment_file(replace=replace)
    with pytest.raises(ConfigError) as info:
        Experiment.load(path)
    text = str(info.value)
    assert message in text
    assert "\n" not in text and text.startswith(f"{path}: ")


def test_malformed_toml_names_its_line(experiment_file) -> None:
    path = experiment_file(replace={"shard_size = 250": "shard_size = = 250"})
    with pytest.raises(ConfigError, match=r"exp.toml: malformed TOML: .*line 5"):
        Experiment.load(path)


def test_duplicate_variant_names(experiment_file, tiny_toml) -> None:
    path = experiment_file(tiny_toml + '[[variants]]\nname = "ramsch"\n')
    with pytest.raises(ConfigError, match="variant 'ramsch': the name 'ramsch' is used twice"):
        Experiment.load(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such experiment file"):
        Experiment.load(tmp_path / "nope.toml")


def test_bad_deals_override(experiment_file) -> None:
    with pytest.raises(ConfigError, match="--deals must be a positive integer, got 0"):
        Experiment.load(experiment_file(), deals=0)


# --- running ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def reference(tmp_path_factory, tiny_toml) -> tuple[Experiment, Path]:
    """The tiny experiment run once, uninterrupted, with one job."""
    out = tmp_path_factory.mktemp("reference")
    path = out / "exp.toml"
    path.write_text(tiny_toml)
    exp = Experiment.load(path)
    return exp, run_experiment(exp, out / "results", jobs=1, progress=False)


def test_files_columns_and_metadata(reference) -> None:
    exp, root = reference
    assert root.name == "tiny"
    assert all_files(root) == [EXPERIMENT_FILE] + [
        f"game=skat/variant={v}/shard={k:05d}.parquet" for v in ("base", "ramsch") for k in range(3)]
    doc = json.loads((root / EXPERIMENT_FILE).read_text())
    assert doc["config_hash"] == exp.config_hash() and doc["config"] == exp.normalised()

    f = pq.ParquetFile(shard_path(root, "skat", "ramsch", 1))
    meta = {k.decode(): v.decode() for k, v in f.schema_arrow.metadata.items()}
    assert set(META_KEYS) <= set(meta)
    assert meta["stichsim_version"] == sim.__version__
    assert meta["engine_hash"] == sim.SOURCE_HASH
    assert meta["config_hash"] == exp.config_hash()
    assert (meta["experiment"], meta["variant"], meta["game"], meta["seed"]) == (
        "tiny", "ramsch", "skat", "11")
    assert json.loads(meta["rules"]) == exp.variant("ramsch").rules
    assert json.loads(meta["policies"]) == ["heuristic", "heuristic", "random"]
    assert (meta["first_deal"], meta["deal_count"]) == ("250", "250")

    assert json.loads(meta[runner.OUTCOME_KEY]) == {
        "players": 3, "score": ["score_0", "score_1", "score_2"], "unit": "points",
        "start": "start_seat", "won": ["won_0", "won_1", "won_2"]}

    schema = f.schema_arrow
    expected = [n for n, _ in SKAT.columns if n != "replay_error"]
    assert schema.names == expected + ["start_seat", "won_0", "won_1", "won_2"]
    assert schema.names == runner.shard_columns(SKAT)
    for name, dtype in SKAT.columns:
        if name in SKAT.categories:
            assert schema.field(name).type == pa.dictionary(pa.int8(), pa.string())
        elif name != "replay_error":
            assert schema.field(name).type == pa.from_numpy_dtype(np.dtype(dtype)), name
    for name in ("start_seat", "won_0", "won_1", "won_2"):
        assert schema.field(name).type == pa.int8(), name


@pytest.mark.parametrize("game", ["skat", "skat_en_deux", "doko_duell", "doko_skat"])
def test_outcome_columns_follow_the_game_and_its_rescoring(game: str) -> None:
    """``start_seat`` and ``won_<s>`` are the game's ``Outcome`` of the columns written, so a
    re-scored variant's follow its own scores."""
    g = find_game(game)
    rules = g.rules()
    scoring_only = {"skat": {"lost_factor": 1}, "skat_en_deux": {"lost_factor": 1},
                    "doko_duell": {"tie_rule": "starter_loses"}, "doko_skat": {"zero_sum": True}}[game]
    other = g.rules(scoring_only)
    assert g.options.play_rules(other) == g.options.play_rules(rules)
    batch = play(g, 3, 0, 300, rules, ["random"] * g.n_players)
    for cols in (batch.columns, g.rescore(batch.columns, other)):
        table = runner.shard_table(g, cols, {})
        assert table.column_names == runner.shard_columns(g)
        assert json.loads(table.schema.metadata[runner.OUTCOME_KEY.encode()])["players"] == g.n_players
        assert np.array_equal(table["start_seat"].to_numpy(), g.outcome.start_seat(cols))
        for s in range(g.n_players):
            assert np.array_equal(table[f"won_{s}"].to_numpy(), g.outcome.seat_won(cols, s))
    if game == "doko_duell":  # a 120 : 120 left drawn has a winner once the starter loses it
        drawn = runner.shard_table(g, batch.columns, {})["won_0"].to_numpy() == -1
        rescored = runner.shard_table(g, g.rescore(batch.columns, other), {})["won_0"].to_numpy()
        assert drawn.any() and (rescored[drawn] >= 0).all()


def test_rows_are_the_games_results(reference) -> None:
    exp, root = reference
    for variant in exp.variants():
        table = variant_rows(root, variant.name)
        cols = play(SKAT, exp.seed, 0, exp.deals, variant.rules, variant.policies).columns
        assert table.num_rows == exp.deals
        assert np.array_equal(table["deal"].to_numpy(), np.arange(exp.deals))
        for name in ("dealer", "declarer", "bid", "score_0", "score_2", "won", "hand_1", "skat"):
            assert np.array_equal(table[name].to_numpy(), cols[name]), name
        games = table["game"].to_pylist()
        assert games == [GAME_NAMES[c] if c >= 0 else None for c in cols["game"]]
        positions = table["declarer_position"].to_pylist()
        assert positions == [("forehand", "middlehand", "rearhand")[c] if c >= 0 else None
                             for c in cols["declarer_position"]]
        if variant.name == "ramsch":
            assert "ramsch" in games
        else:
            assert None in games  # thrown-in deals


def test_variants_play_the_same_deals(reference) -> None:
    _, root = reference
    base, ramsch = variant_rows(root, "base"), variant_rows(root, "ramsch")
    for name in ("deal", "dealer", "hand_0", "hand_1", "hand_2", "skat"):
        assert base[name].equals(ramsch[name])
    assert not base["score_0"].equals(ramsch["score_0"])


def test_jobs_give_identical_files(reference, tmp_path: Path) -> None:
    exp, root = reference
    two = run_experiment(exp, tmp_path, jobs=2, progress=False)
    assert shard_files(two) == shard_files(root)
    assert (two / EXPERIMENT_FILE).read_bytes() == (root / EXPERIMENT_FILE).read_bytes()


def test_shard_size_does_not_change_rows(reference, experiment_file, tmp_path) -> None:
    exp, root = reference
    other = Experiment.load(experiment_file(replace={"shard_size = 250": "shard_size = 300"}))
    other_root = run_experiment(other, tmp_path / "other", progress=False)
    assert len(list(other_root.rglob("*.parquet"))) == 2 * 3
    for variant in ("base", "ramsch"):
        a, b = variant_rows(root, variant), variant_rows(other_root, variant)
        assert a.replace_schema_metadata(None).equals(b.replace_schema_metadata(None))


def test_existing_folder_needs_resume_or_force(reference, tmp_path) -> None:
    exp, _ = reference
    run_experiment(exp, tmp_path, progress=False)
    with pytest.raises(ResultsError,
                       match=r"tiny exists: use --resume to finish it or --force to replace it"):
        run_experiment(exp, tmp_path, progress=False)


def test_resume_on_a_missing_folder_runs(reference, tmp_path) -> None:
    exp, root = reference
    new = run_experiment(exp, tmp_path / "fresh", resume=True, progress=False)
    assert shard_files(new) == shard_files(root)


def test_resume_of_a_finished_run_writes_nothing(reference, tmp_path) -> None:
    exp, _ = reference
    root = run_experiment(exp, tmp_path, progress=False)
    before = {p: p.stat().st_mtime_ns for p in root.rglob("*")}
    run_experiment(exp, tmp_path, resume=True, progress=False)
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*")} == before


def test_killed_then_resumed_equals_uninterrupted(reference, tmp_path) -> None:
    exp, ref = reference
    root = run_experiment(exp, tmp_path, progress=False)
    kept = shard_path(root, "skat", "base", 0)
    kept_stat = kept.stat()
    # a kill leaves some shards missing, one cut short and a temp file being written
    shard_path(root, "skat", "base", 2).unlink()
    shard_path(root, "skat", "ramsch", 0).unlink()
    cut = shard_path(root, "skat", "ramsch", 1)
    cut.write_bytes(cut.read_bytes()[:1000])
    stray = cut.with_name(f".{shard_path(root, 'skat', 'ramsch', 0).name}.tmp-99999")
    stray.write_bytes(b"PAR1 half a file")
    run_experiment(exp, tmp_path, resume=True, progress=False, jobs=2)
    assert shard_files(root) == shard_files(ref)
    assert all_files(root) == all_files(ref)  # the stray temp file is gone
    assert kept.stat().st_mtime_ns == kept_stat.st_mtime_ns  # a finished shard was not redone


def test_resume_redoes_a_shard_written_without_the_outcome(reference, tmp_path) -> None:
    exp, ref = reference
    root = run_experiment(exp, tmp_path, progress=False)
    old = shard_path(root, "skat", "ramsch", 1)
    table = pq.read_table(old)
    meta = {k: v for k, v in table.schema.metadata.items() if k != runner.OUTCOME_KEY.encode()}
    runner.write_shard(table.drop_columns(runner.outcome_columns(SKAT)).replace_schema_metadata(meta), old)
    assert not runner.shard_complete(old, runner.shard_metadata(exp, exp.variant("ramsch"), exp.shards()[1]))
    run_experiment(exp, tmp_path, resume=True, progress=False)
    assert shard_files(root) == shard_files(ref)


def test_crash_after_k_shards_then_resume(reference, tmp_path, monkeypatch) -> None:
    exp, ref = reference
    real = runner.write_shard
    calls = []

    def crashing(table, path):
        calls.append(path)
        if len(calls) > 4:
            # die in the middle of writing: a partial temp file, no shard file
            Path(path).with_name(f".{Path(path).name}.tmp-{os.getpid()}").write_bytes(b"PAR1")
            raise KeyboardInterrupt
        real(table, path)

    monkeypatch.setattr(runner, "write_shard", crashing)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, tmp_path, jobs=1, progress=False)
    root = tmp_path / exp.name
    assert len(list(root.rglob("*.parquet"))) == 4
    monkeypatch.setattr(runner, "write_shard", real)
    with pytest.raises(ResultsError, match="exists: use --resume"):
        run_experiment(exp, tmp_path, progress=False)
    run_experiment(exp, tmp_path, jobs=1, resume=True, progress=False)
    assert shard_files(root) == shard_files(ref)
    assert all_files(root) == all_files(ref)


def test_a_failing_write_leaves_no_temp_file(reference, tmp_path, monkeypatch) -> None:
    exp, _ = reference

    def broken(table, where, **kwargs):
        Path(where).write_bytes(b"PAR1 partial")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(runner.pq, "write_table", broken)
    with pytest.raises(OSError, match="No space"):
        run_experiment(exp, tmp_path, progress=False)
    assert all_files(tmp_path / exp.name) == [EXPERIMENT_FILE]


def test_resume_refuses_a_changed_config(reference, experiment_file, tmp_path) -> None:
    exp, _ = reference
    run_experiment(exp, tmp_path, progress=False)
    for changed in (Experiment.load(experiment_file(), deals=500),
                    Experiment.load(experiment_file(replace={'"random"]': '"heuristic"]'}))):
        with pytest.raises(ResultsError, match="holds results of a different config .* use --force"):
            run_experiment(changed, tmp_path, resume=True, progress=False)


def test_force_replaces(reference, experiment_file, tmp_path) -> None:
    exp, ref = reference
    small = Experiment.load(experiment_file(), deals=300)
    root = run_experiment(small, tmp_path, progress=False)
    assert len(list(root.rglob("*.parquet"))) == 4
    (root / "game=skat" / "variant=base" / "notes.txt").write_text("old")
    run_experiment(exp, tmp_path, force=True, progress=False)
    assert shard_files(root) == shard_files(ref) and all_files(root) == all_files(ref)
    assert json.loads((root / EXPERIMENT_FILE).read_text())["config_hash"] == exp.config_hash()


def test_force_keeps_a_folder_that_is_not_ours(reference, tmp_path) -> None:
    exp, _ = reference
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "thesis.tex").write_text("precious")
    for flags in ({"force": True}, {"resume": True}):
        with pytest.raises(ResultsError, match="not a stichsim results folder"):
            run_experiment(exp, tmp_path, progress=False, **flags)
    assert (tmp_path / "tiny" / "thesis.tex").read_text() == "precious"


def test_jobs_must_be_positive(reference, tmp_path) -> None:
    exp, _ = reference
    with pytest.raises(ResultsError, match="jobs must be a positive integer"):
        run_experiment(exp, tmp_path, jobs=0, progress=False)
    assert not (tmp_path / "tiny").exists()


def test_progress_bar_on_a_terminal(reference, tmp_path, monkeypatch) -> None:
    import io

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    exp, _ = reference
    for progress, shown in ((True, True), (False, False)):
        term = Terminal()
        monkeypatch.setattr("sys.stderr", term)
        run_experiment(exp, tmp_path / str(progress), progress=progress)
        assert ("6/6" in term.getvalue()) is shown


def test_resume_refuses_another_stichsim_version(reference, tmp_path, monkeypatch) -> None:
    exp, _ = reference
    run_experiment(exp, tmp_path, progress=False)
    monkeypatch.setattr(sim, "__version__", "9.9.9")
    with pytest.raises(ResultsError, match=r"written by stichsim .* this is 9.9.9"):
        run_experiment(exp, tmp_path, resume=True, progress=False)


def test_resume_refuses_results_of_other_engine_code(reference, tmp_path, monkeypatch) -> None:
    exp, _ = reference
    run_experiment(exp, tmp_path, progress=False)
    monkeypatch.setattr(sim, "SOURCE_HASH", "0" * 16)
    with pytest.raises(ResultsError, match=r"engine 00000000"):
        run_experiment(exp, tmp_path, resume=True, progress=False)


@pytest.mark.parametrize("game, policies", [("skat", '["heuristic", "heuristic", "random"]'),
                                            ("skat_en_deux", '["heuristic", "random"]')])
def test_scoring_only_variants_are_rescored_not_replayed(experiment_file, tmp_path, monkeypatch,
                                                         game, policies) -> None:
    """A variant that changes only scoring-only options shares its shards' play with the
    base (one play per shard, re-scored) and equals a run that plays it on its own."""
    text = f"""\
name = "sweep"
game = "{game}"
deals = 2500
seed = 3
shard_size = 1000
policies = {policies}
[[variants]]
name = "lf1"
rules = {{ lost_factor = 1 }}
"""
    plays = []
    original = runner.play

    def counting_play(game, seed, first, *args, **kwargs):
        plays.append(first)
        return original(game, seed, first, *args, **kwargs)

    monkeypatch.setattr(runner, "play", counting_play)
    sweep = run_experiment(Experiment.load(experiment_file(text)), tmp_path / "a", progress=False)
    assert sorted(plays) == [0, 1000, 2000]  # three shards, each played once for both variants
    alone = run_experiment(Experiment.load(experiment_file(
        text.replace("[[variants]]\nname = \"lf1\"\nrules = { lost_factor = 1 }\n", "")
        + "[rules]\nlost_factor = 1\n", name="alone.toml")), tmp_path / "b", progress=False)
    rescored = variant_rows(sweep, "lf1")
    played = variant_rows(alone, "base")
    assert rescored.equals(played)
    base = variant_rows(sweep, "base")
    lost = pc.invert(base["won"]).to_numpy(zero_copy_only=False) & (
        base["declarer"].to_numpy() >= 0)
    assert lost.sum() > 50
    assert not base.equals(rescored)


def test_the_config_hash_covers_the_weights_its_net_seats_play(experiment_file, tmp_path: Path) -> None:
    """A ``net`` seat's results depend on its weights as much as on the rules: the config
    hashes each weights file it plays (the shipped one for ``net``), so results played by
    weights since trained again are another config's, which a resume refuses; a file of the
    same content is the same config, and a config without ``net`` hashes as before."""
    import shutil

    from sim.engine.play import shipped
    from sim.registry import GAMES

    plain = Experiment.load(experiment_file())
    assert "weights" not in plain.normalised()
    copy = tmp_path / "copy.npz"
    shutil.copyfile(shipped(GAMES["skat"]), copy)

    def with_net(weights: str, name: str) -> Experiment:
        seats = f'policies = ["{weights}", "{weights}", "{weights}"]'
        return Experiment.load(experiment_file(
            replace={'policies = ["heuristic", "heuristic", "random"]': seats}, name=name))

    shipped_net, same = with_net("net", "a.toml"), with_net(f"net:{copy}", "b.toml")
    assert shipped_net.net_weights()["net"] == same.net_weights()[f"net:{copy}"]
    before = same.config_hash()
    copy.write_bytes(copy.read_bytes() + b"\0")  # the weights trained again
    assert same.config_hash() != before
