"""analysis.selfplay: the Skat self-play figures of real results, and bad input."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis import selfplay
from analysis.load import scan
from sim.cli import main as stichsim

ROOT = Path(__file__).resolve().parents[1]


def test_the_figures_count_what_they_say(tmp_path: Path, capsys) -> None:
    assert stichsim(["run", str(ROOT / "experiments/skat-tiny.toml"), "--deals", "600",
                     "--out", str(tmp_path)]) == 0
    out = tmp_path / "skat-tiny"
    frame = scan(out).filter(pl.col("variant") == "base").collect()
    figures = {f.name: f for f in selfplay.skat_figures(frame)}
    declared = frame.filter((pl.col("declarer") >= 0) & ~pl.col("ramsch"))
    assert figures["passed out"].n == frame.height == 600
    assert figures["passed out"].hits == int(frame["passed_out"].sum())
    assert figures["declarer wins"].n == declared.height > 400
    assert figures["declarer wins"].hits == int(declared["won"].sum())
    assert figures["grand (of declared)"].hits == int((declared["game"].cast(pl.Utf8) == "grand").sum())
    wins = figures["declarer wins"]
    assert wins.lo < wins.share < wins.hi
    capsys.readouterr()
    assert selfplay.main([str(out)]) == 0
    text = capsys.readouterr().out
    assert "| declarer wins |" in text and "81.6 %" in text and "| deals | 600 |" in text


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    assert selfplay.main([str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no results here" in err
    assert selfplay.main([]) == 2
