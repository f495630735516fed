"""The report of a rule tune: ``index.html``, ``summary.md``, the figures and ``tune.json``.

It reads only the tune's outcome (the JSON ``sim.tune.outcome`` makes, what ``stichsim tune
--json`` prints): every candidate's searched rules, its measure with the 95 % interval, the
deals it played and the round it left, the best group, and each round's values. Headlines
name the best group and what the race saved against a sweep on common deals and against
separate experiments.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from analysis import plots
from analysis.report import CSS, html_table, inline, md_table, png_bytes, write_whole

TUNE_FILE = "tune.json"
"""The outcome as JSON beside the report (what ``stichsim tune --json`` prints)."""
OPEN_ROWS = 40
"""A candidates' table this long or shorter is shown open; a longer one folded."""

Outcome = Mapping[str, Any]


def _rules(cand: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in cand["rules"].items())


def _interval(value: float, lo: float, hi: float) -> str:
    return f"{value:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def _order(out: Outcome) -> list[int]:
    """Candidates in report order: the best group by distance, then by the round they left
    (latest first), then by index."""
    best = list(out["best"])
    kept = set(best)
    rest = [i for i in range(len(out["candidates"])) if i not in kept]
    target = out["objectives"][0]["target"]
    rest.sort(key=lambda i: (-(out["candidates"][i]["eliminated_round"] or 0),
                             abs(out["candidates"][i]["value"] - target), i))
    return best + rest


def headlines(out: Outcome) -> list[str]:
    """What the tune found, in sentences."""
    obj = out["objectives"][0]
    cands = out["candidates"]
    best = out["best"]
    if not best:
        return [f"No candidate is left: every one surely breaks a constraint "
                f"({', '.join(f'`{c}`' for c in out['constraints'])}).", _spent(out)]
    top = cands[best[0]]
    lines = [f"Closest to the target ({obj['name']} = {obj['target']:g}): candidate {best[0]} "
             f"(`{_rules(top)}`), {_interval(top['value'], top['lo'], top['hi'])} after "
             f"{top['deals']:,} deals."]
    if len(best) > 1:
        lines.append(f"{len(best)} candidates cannot be told apart from it at delta {obj['delta']:g} "
                     f"within the budget: {', '.join(map(str, best[:12]))}"
                     f"{' ...' if len(best) > 12 else ''} (the best group).")
    else:
        lines.append(f"It is the only candidate left: every other is worse by more than "
                     f"{obj['delta']:g} (or breaks a constraint).")
    if twins := out.get("twins"):
        lines.append(f"{sum(map(len, twins))} of the best group play out as {len(twins)} sets of twins: "
                     f"rule sets whose measures came out the same on every deal (the options in "
                     f"which they differ changed nothing here), e.g. "
                     f"{' and '.join(map(str, twins[0]))}.")
    if len(out["objectives"]) > 1:
        lines.append(f"With {len(out['objectives'])} objectives the candidates left form a Pareto "
                     f"front of {len(out['front'])}: {', '.join(map(str, out['front']))}.")
    broke = sum(1 for c in cands if c["reason"] == "constraint")
    if out["constraints"]:
        lines.append(f"Constraints {', '.join(f'`{c}`' for c in out['constraints'])}: {broke} "
                     f"candidate{'s' if broke != 1 else ''} left for surely breaking one.")
    lines.append(_spent(out))
    return lines


def _spent(out: Outcome) -> str:
    """The deals the race played against a sweep and separate experiments."""
    return (f"Deals spent: {out['deals_spent']:,} played ({out['candidate_deals']:,} candidate-deals "
            f"scored) in {len(out['rounds'])} of {out['rounds_planned']} planned rounds; a sweep of "
            f"every candidate to the same {out['rounds'][-1]['deals']:,} deals would play "
            f"{out['sweep_deals']:,}, and separate experiments of the same precision (each "
            f"candidate on its own deals) about {out['separate_deals']:,}.")


def _what(out: Outcome) -> str:
    objectives = "; ".join(f"{o['name']}: target {o['target']:g}, delta {o['delta']:g}"
                           for o in out["objectives"])
    return (f"Game `{out['game']}`, seed {out['seed']}: {len(out['candidates']):,} rule sets (every "
            f"combination of {', '.join(f'`{s}`' for s in out['searched'])}; every other option as "
            f"the experiment's rules), raced on the same deals in rounds that double up to "
            f"{out['budget']:,} deals a candidate. Objectives: {objectives}. After each round a "
            f"candidate leaves when another is closer to the target by more than delta, judged on "
            f"intervals that hold together for the whole race at 95 % (Bonferroni over every "
            f"candidate's and every pair's interval in each round and over the planned rounds); "
            f"the intervals shown are plain 95 % ones.")


def _tables(out: Outcome) -> tuple[tuple[list[str], list[list[str]]], tuple[list[str], list[list[str]]]]:
    obj = out["objectives"][0]["name"]
    header = ["candidate", "rules", f"{obj} [95 %]", "deals", "left in round"]
    rows = []
    for i in _order(out):
        c = out["candidates"][i]
        left = "-" if c["eliminated_round"] is None else f"{c['eliminated_round']} ({c['reason']})"
        rows.append([str(i), _rules(c), _interval(c["value"], c["lo"], c["hi"]), f"{c['deals']:,}", left])
    rounds = [[str(k), f"{r['deals']:,}", str(len(r["entered"])), f"{r['z']:.2f}",
               str(sum(1 for c in out["candidates"] if c["eliminated_round"] == k))]
              for k, r in enumerate(out["rounds"], 1)]
    return (header, rows), (["round", "deals per candidate", "candidates in", "z of its intervals", "left"],
                            rounds)


def _figures(out: Outcome) -> Iterator[tuple[str, str, bytes]]:
    for k, obj in enumerate(out["objectives"]):
        fig = plots.race(out["rounds"], obj["name"], obj["target"], out["best"])
        yield f"race_{k}.png", f"The race: {obj['name']}", png_bytes(fig)
    if len(out["objectives"]) > 1:
        x, y = out["objectives"][0]["name"], out["objectives"][1]["name"]
        points = [{"candidate": i, **out["candidates"][i]} for i in out["best"]]
        front = set(out["front"])
        fig = plots.front(points, x, y, [i in front for i in out["best"]])
        yield "front.png", "The Pareto front of the candidates left", png_bytes(fig)


def build(out: Outcome, folder: str | Path) -> Path:
    """Write the tune's report into ``folder``; everything is computed before the first file
    is written, ``index.html`` last. Returns ``folder/index.html``."""
    folder = Path(folder)
    title = f"Rule tune: {out['name']}"
    lines = headlines(out)
    figures = list(_figures(out))
    candidates, rounds = _tables(out)
    md = [f"# {title}", "", _what(out), "", *(f"- {h}" for h in lines)]
    page = [f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}"
            f"</title><style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>",
            f"<section><h2>What was raced</h2><p>{inline(_what(out))}</p></section>",
            "<section><h2>What it found</h2><ul class=\"headline\">"
            + "".join(f"<li>{inline(h)}</li>" for h in lines) + "</ul>"]
    for name, caption, png in figures:
        data = base64.b64encode(png).decode("ascii")
        page.append(f"<h3>{html.escape(caption)}</h3><figure><img src=\"data:image/png;base64,{data}\" "
                    f"alt=\"{html.escape(caption)}\"></figure>")
        md += ["", f"## {caption}", "", f"![{caption}]({name})"]
    rows = len(candidates[1])
    page.append(f"</section><section><h2>Every candidate</h2><details{' open' * (rows <= OPEN_ROWS)}>"
                f"<summary>the table ({rows} rows: the best group first, then by the round each "
                f"left)</summary>{html_table(*candidates)}</details>"
                f"<h2>The rounds</h2>{html_table(*rounds)}</section></body></html>\n")
    md += ["", "## Every candidate", "", md_table(*candidates), "", "## The rounds", "", md_table(*rounds)]
    folder.mkdir(parents=True, exist_ok=True)
    for name, _, png in figures:
        write_whole(folder / name, png)
    write_whole(folder / TUNE_FILE, (json.dumps(out, indent=1) + "\n").encode())
    write_whole(folder / "summary.md", ("\n".join(md) + "\n").encode())
    write_whole(folder / "index.html", "".join(page).encode())
    return folder / "index.html"


__all__ = ["TUNE_FILE", "build", "headlines"]
