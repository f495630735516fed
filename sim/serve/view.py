"""What the page of a table receives: the JSON of what the person's seat sees, built from
the terminal's screen (``sim.play``) of the table, never from the deal itself.

The table itself comes as the screen's ``board`` (``sim.screen.board``: places, tricks, the
hand, the pyramids), and at the end as its ``final_board`` (every dealt hand, every trick,
the score sheet's row); the lines are the screen's own (``view_lines``, ``narrate``,
``result_lines``) for the move list and the result. The question carries only the legal
choices' labels (the rows the kernel reads stay on the server), so the page can offer
nothing else.
"""

from __future__ import annotations

from typing import Any

from sim.engine.seats import label
from sim.screen.questions import Question
from sim.serve.tables import SeatedTable


def question_json(question: Question) -> dict[str, Any]:
    """A question for the page: the prompt, the choices' labels in order, how many to pick
    and whether they are bids."""
    return {"prompt": question.prompt, "choices": [c.label for c in question.choices], "pick": question.pick,
            "bids": question.bids}


def series_json(seated: SeatedTable) -> dict[str, Any]:
    """The running score list: each finished deal's number, dealer and score per seat, and
    the totals."""
    n = seated.game.n_players
    deals = [{"number": t["deal"], "dealer": t["dealer"], "scores": scores}
             for t, scores in zip(seated.finished, seated.scores, strict=True)]
    totals = [sum(d["scores"][s] for d in deals) for s in range(n)]
    return {"deals": deals, "totals": totals,
            "seats": [f"seat {s}" + (" (you)" if s == seated.seat else "") for s in range(n)]}


def table_json(seated: SeatedTable) -> dict[str, Any]:
    """Everything the page shows of ``seated`` now."""
    moment = seated.moment
    screen = seated.screen
    defaults = seated.game.rules({})
    out: dict[str, Any] = {
        "id": seated.id, "game": seated.game.name, "seat": seated.seat, "policy": seated.policy,
        "policy_label": label(seated.policy),
        "seed": seated.seed, "number": seated.number, "players": seated.game.n_players,
        "rules": {k: v for k, v in seated.rules.items() if v != defaults[k]},
        "step": len(seated.table.decisions), "told": screen.narrate(moment.actions),
        "dealer": seated.number % seated.game.n_players,
        "view": None, "question": None, "board": None, "result": None, "final": None,
        "series": series_json(seated)}
    if moment.view is not None:
        out["view"] = screen.view_lines(moment.view)
        out["question"] = question_json(screen.question(moment.view))
        out["board"] = screen.board(moment.view, moment.actions).json()
    else:
        assert moment.columns is not None
        out["result"] = screen.result_lines(moment.columns)
        out["final"] = screen.final_board(moment.columns, moment.actions,
                                          seated.finished[-1]["cards"]).json()
    return out
