"""Regenerate the golden traces in this folder.

The golden traces pin the engine's behaviour: ``tests/test_trace.py`` writes each
one afresh and requires a byte-identical file. When a change to the engine, a
policy or the trace format is *meant* to change them, regenerate and commit::

    .venv/bin/python tests/golden/regenerate.py            # every golden trace
    .venv/bin/python tests/golden/regenerate.py skat_heuristic.jsonl

and review the diff (``git diff tests/golden``) before committing it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from sim.registry import find_game
from sim.trace import write_trace

HERE = Path(__file__).resolve().parent

GOLDEN: dict[str, dict[str, Any]] = {
    "skat_heuristic.jsonl": dict(game="skat", seed=7, first=0, deals=30, rules={},
                                 policies=["heuristic"] * 3),
    "skat_random_ramsch.jsonl": dict(game="skat", seed=7, first=0, deals=30,
                                     rules={"all_pass": "ramsch", "announcements": True},
                                     policies=["random"] * 3),
    "skat_heuristic_list_ramsch.jsonl": dict(game="skat", seed=7, first=0, deals=40,
                                             rules={"all_pass": "ramsch",
                                                    "scoring": "seeger_fabian",
                                                    "ramsch_skat": "loser",
                                                    "ramsch_jungfrau": True},
                                             policies=["heuristic"] * 3),
    "skat_en_deux_heuristic.jsonl": dict(game="skat_en_deux", seed=7, first=0, deals=30,
                                         rules={"contra_re": True}, policies=["heuristic"] * 2),
    "skat_en_deux_random.jsonl": dict(game="skat_en_deux", seed=7, first=0, deals=30, rules={},
                                      policies=["random"] * 2),
    "skat_en_deux_random_revision_4.jsonl": dict(
        game="skat_en_deux", seed=7, first=0, deals=30,
        rules={"contra_re": True, "offer_timing": "from_declaration",
               "second_rejection": "counts", "pickup_give_up_score": "penalty"},
        policies=["random"] * 2),
    "doko_duell_heuristic.jsonl": dict(game="doko_duell", seed=7, first=0, deals=30, rules={},
                                       policies=["heuristic"] * 2),
    "doko_duell_random.jsonl": dict(game="doko_duell", seed=7, first=0, deals=30,
                                    rules={"equal_cards": "second_heart_ten",
                                           "b_marker_supply": "none", "b_one_per_trick": True,
                                           "b_marker_mode": "v2", "tie_rule": "last_trick",
                                           "a_marker_on_setup": False},
                                    policies=["random"] * 2),
    "doko_skat_heuristic.jsonl": dict(game="doko_skat", seed=7, first=0, deals=15, rules={},
                                      policies=["heuristic"] * 3),
    # deals 1279 and 1288 under seed 7: nobody declares (random players rarely all pass)
    "doko_skat_random.jsonl": dict(game="doko_skat", seed=7, first=1275, deals=15,
                                   rules={"bridge_order": "skat", "team_cards": "all",
                                          "first_round_points": False, "zero_sum": True},
                                   policies=["random"] * 3),
    "doko_skat_heuristic_revision_4.jsonl": dict(
        game="doko_skat", seed=7, first=0, deals=15,
        rules={"team_cards": "won", "main_lead": "first_round_winner", "spitzen_of": "declarer"},
        policies=["heuristic"] * 3),
    "doko_skat_random_revision_4.jsonl": dict(
        game="doko_skat", seed=7, first=0, deals=15,
        rules={"team_cards": "won", "main_lead": "declarer", "spitzen_of": "declarer",
               "spitzen": "ranks"},
        policies=["random"] * 3),
}
"""Each golden file and how it is made."""


def regenerate(name: str, folder: Path = HERE) -> Path:
    """Write golden trace ``name`` into ``folder``; return its path."""
    spec = GOLDEN[name]
    out = Path(folder) / name
    write_trace(find_game(spec["game"]), spec["seed"], spec["first"], spec["deals"],
                spec["rules"], spec["policies"], out)
    return out


def main(argv: list[str]) -> int:
    names = argv or list(GOLDEN)
    unknown = [n for n in names if n not in GOLDEN]
    if unknown:
        print(f"unknown golden trace(s) {', '.join(unknown)} (known: {', '.join(GOLDEN)})",
              file=sys.stderr)
        return 2
    for name in names:
        print(f"wrote {regenerate(name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
