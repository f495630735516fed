"""The report of a rule tune: ``index.html``, ``summary.md``, the figures and ``tune.json``.

It reads only the tune's outcome (the JSON ``sim.tune.outcome`` makes, what ``stichsim tune
--json`` prints): every candidate's searched rules, its measure with the 95 % interval, the
deals it played and the round it left, the best group, and each round's values. The page
opens with the answer in words (``answer``: the closest rule set spelt out, what the best
group has in common, whether any rule set is fair within delta, which options decide the
sign); headlines name the best group and what the race saved against a sweep on common
deals and against separate experiments.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from analysis import balance, plots
from analysis.report import (
    CSS,
    EVENING,
    answer_html,
    answer_markdown,
    decimals,
    estimate,
    fixed,
    glossary_html,
    glossary_markdown,
    html_table,
    inline,
    md_table,
    png_bytes,
    toml_value,
    write_whole,
)
from analysis.robustness import sign

TUNE_FILE = "tune.json"
"""The outcome as JSON beside the report (what ``stichsim tune --json`` prints)."""
OPEN_ROWS = 40
"""A candidates' table this long or shorter is shown open; a longer one folded."""

Outcome = Mapping[str, Any]


def _rules(cand: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} = {toml_value(v)}" for k, v in cand["rules"].items())


def _interval(value: float, lo: float, hi: float, unit: str = "", scale: float = 1.0) -> str:
    """A measure with its interval, by the reports' one precision rule (``report.estimate``)."""
    return estimate({"value": value, "lo": lo, "hi": hi}, unit, scale, sign=True)


def _unit(out: Outcome) -> tuple[float, str]:
    """How the first objective's measure is shown: its scale and unit (a score measure in the
    game's unit, a share of deals in percentage points)."""
    unit = balance.MEASURES[out["objectives"][0]["measure"]].unit
    return plots.scale_of(f"{out['unit']} per deal" if unit == "points per deal" else unit)


def _amounts(out: Outcome, c: Mapping[str, Any]) -> str:
    """A candidate's measure a deal and, where it counts every deal, over an evening of
    ``EVENING`` deals (a score in the game's unit, a share of deals as deals)."""
    measure = balance.MEASURES[out["objectives"][0]["measure"]].unit
    value = (c["value"], c["lo"], c["hi"])
    if measure == "points per deal":
        unit = " " + out["unit"]
        return (f"{_interval(*value, unit)} a deal, {_interval(*value, unit, EVENING)} over an evening of "
                f"{EVENING} deals")
    if measure == "share of deals":
        return (f"{_interval(*value, ' percentage points', 100)} a deal, "
                f"{_interval(*value, ' deals', EVENING)} of an evening of {EVENING}")
    return _interval(*value, " " + measure)


def _in_words(rules: Mapping[str, Any]) -> str:
    """Rules as a reader reads them: ```equal_cards = second_wins` and `tie_rule = draw```."""
    named = [f"`{k} = {toml_value(v)}`" for k, v in rules.items()]
    return ", ".join(named[:-1]) + f" and {named[-1]}" if len(named) > 1 else "".join(named)


def shared_rules(out: Outcome) -> dict[str, Any]:
    """What the best group has in common: each searched option whose value every rule set of
    the group shares."""
    group = [out["candidates"][i]["rules"] for i in out["best"]]
    return {k: v for k, v in group[0].items() if all(r[k] == v for r in group)} if group else {}


def _side(c: Mapping[str, Any], target: float) -> int:
    """1 where a candidate's interval lies above the target, -1 below, 0 where it holds it."""
    return sign(c["lo"] - target, c["hi"] - target)


def sign_deciders(out: Outcome) -> tuple[list[str], str, float]:
    """The options whose value alone gives the side of the target every candidate with a clear
    side lies on (with both sides found), and the option whose value gives it most often with
    that share of the candidates (for a race where none decides it alone)."""
    target = out["objectives"][0]["target"]
    sided = [(c["rules"], _side(c, target)) for c in out["candidates"] if _side(c, target)]
    if len({side for _, side in sided}) < 2:
        return [], "", 0.0
    agree = {}
    for option in out["searched"]:
        by_value: dict[str, list[int]] = {}
        for rules, side in sided:
            by_value.setdefault(str(rules[option]), []).append(side)
        agree[option] = sum(max(sides.count(1), sides.count(-1)) for sides in by_value.values()) / len(sided)
    deciders = [o for o, share in agree.items() if share == 1]
    closest = max(agree, key=lambda o: agree[o])
    return deciders, closest, agree[closest]


def _sides_of(out: Outcome, option: str) -> str:
    """``first_wins and second_heart_ten put it above the target, second_wins below``."""
    target = out["objectives"][0]["target"]
    values: dict[int, list[str]] = {1: [], -1: []}
    for c in out["candidates"]:
        side, value = _side(c, target), str(c["rules"][option]).lower()
        if side and value not in values[side]:
            values[side].append(value)
    return f"{', '.join(values[1])} above the target, {', '.join(values[-1])} below"


def answer(out: Outcome) -> list[str]:
    """The tune's answer in plain words: the closest rule set spelt out, what the best group has
    in common, whether any rule set is fair within delta, which options decide the sign."""
    obj, cands, best = out["objectives"][0], out["candidates"], out["best"]
    if not best:
        return [f"No rule set is left: every one surely breaks a constraint "
                f"({', '.join(f'`{c}`' for c in out['constraints'])})."]
    scale, unit = _unit(out)
    top = cands[best[0]]
    label = balance.MEASURES[obj["measure"]].label
    common = shared_rules(out)
    group = (f"the only rule set left, {_in_words(top['rules'])}" if len(best) == 1 else
             f"every one of the {len(best)} rule sets the race could not tell apart from the best plays "
             f"{_in_words(common)}" if common else
             f"the {len(best)} rule sets the race could not tell apart from the best have no searched "
             f"value in common")
    lines = [f"The closest to fair ({label} = {obj['target']:g}) is {_in_words(top['rules'])}: "
             f"{_amounts(out, top)}; {group}.", _fair(out, scale, unit)]
    deciders, closest, share = sign_deciders(out)
    if deciders:
        sides = "; ".join(f"`{o}` ({_sides_of(out, o)})" for o in deciders)
        lines.append(f"The sign is decided by {sides}.")
    elif closest:
        lines.append(f"No single option decides the sign; `{closest}` comes closest: its value gives the "
                     f"side of the target for {100 * share:.0f} % of the rule sets whose interval excludes "
                     f"it.")
    else:
        lines.append("No option decides the sign: every rule set whose interval excludes the target lies on "
                     "the same side of it.")
    return lines


def _fair(out: Outcome, scale: float, unit: str) -> str:
    """Whether any rule set is fair within delta: its interval inside the target plus or minus
    delta; or that none surely is, or that every one surely misses by more."""
    obj = out["objectives"][0]
    target, delta = obj["target"], obj["delta"]
    within = [c for c in out["candidates"] if target - delta <= c["lo"] and c["hi"] <= target + delta]
    reach = [c for c in out["candidates"] if c["lo"] <= target + delta and c["hi"] >= target - delta]
    band = f"within delta ({target:g} ± {delta * scale:g} {unit})"
    if within:
        return (f"{len(within)} rule set{'s are' if len(within) > 1 else ' is'} fair {band}: "
                f"{'their intervals lie' if len(within) > 1 else 'its interval lies'} inside it.")
    if reach:
        return (f"No rule set is surely fair {band}, but for {len(reach)} the deals cannot rule it out "
                f"(their intervals reach into it).")
    near = min(out["candidates"], key=lambda c: min(abs(c["lo"] - target), abs(c["hi"] - target)))
    miss = min(abs(near["lo"] - target), abs(near["hi"] - target)) * scale
    return (f"No rule set tried is fair {band}: every interval lies outside it, the nearest "
            f"{fixed(miss, decimals(near['lo'] * scale, near['hi'] * scale) or 1)} {unit} from the target.")


def _rests_on(out: Outcome) -> str:
    """What the answer rests on: the players, the rule sets raced, the deals."""
    rung = out["objectives"][0]["rung"]
    players = f"{rung[0]} at every seat" if len(set(rung)) == 1 else f"seats {', '.join(rung)}"
    searched = ", ".join(f"`{s}`" for s in out["searched"])
    return (f"players: {players}; rule readings: {len(out['candidates']):,} rule sets, every combination of "
            f"{searched} (every other option as the experiment's rules); up to {out['budget']:,} deals a "
            f"rule set, the same deals for every rule set (seed {out['seed']}), {out['deals_spent']:,} deals "
            f"played in all.")


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
        lines += tradeoffs(out)
    lines.append(_spent(out))
    return lines


def _measure_names(out: Outcome) -> list[str]:
    """Every measure the candidates carry (objectives, then constraints), as the outcome names
    them."""
    return list(out["candidates"][0]["measures"]) if out["candidates"] else []


def tradeoffs(out: Outcome) -> list[str]:
    """What each constraint costs the first objective: the closest rule set among those that
    broke it against the closest that kept every constraint, on each measure; or, where none
    broke it, how near its bound the candidates came."""
    obj = out["objectives"][0]
    target = obj["target"]
    cands = out["candidates"]
    lines = []
    for text in out["constraints"]:
        name = next(m for m in _measure_names(out) if m.startswith(text.split()[0]) and "(constraint)" in m)
        broke = [i for i, c in enumerate(cands) if c["reason"] == "constraint"
                 and not _keeps(c["measures"][name], text)]
        if not broke:
            low = min(range(len(cands)), key=lambda i: _margin(cands[i]["measures"][name], text))
            m = cands[low]["measures"][name]
            lines.append(f"`{text}` cost nothing here: no rule set surely broke it; the nearest to its "
                         f"bound was candidate {low} (`{_rules(cands[low])}`), "
                         f"{_interval(m['value'], m['lo'], m['hi'])}.")
            continue
        free = min(broke, key=lambda i: abs(cands[i]["value"] - target))
        kept = out["best"][0] if out["best"] else None
        theirs = ", ".join(f"{k} {_interval(v['value'], v['lo'], v['hi'])}"
                           for k, v in cands[free]["measures"].items())
        line = (f"Without `{text}` the closest to the target would be candidate {free} "
                f"(`{_rules(cands[free])}`): {theirs}")
        if kept is not None:
            ours = ", ".join(f"{k} {_interval(v['value'], v['lo'], v['hi'])}"
                             for k, v in cands[kept]["measures"].items())
            line += f"; keeping it, candidate {kept}: {ours}"
        lines.append(line + ".")
    return lines


def _bound(text: str) -> tuple[str, float]:
    _, op, bound = text.split()
    return op, float(bound)


def _keeps(m: Mapping[str, float], text: str) -> bool:
    """Whether a measure's estimate keeps the constraint ``text`` (``skill_share >= 0.6``)."""
    op, bound = _bound(text)
    return {"<=": m["value"] <= bound, "<": m["value"] < bound, ">=": m["value"] >= bound,
            ">": m["value"] > bound}[op]


def _margin(m: Mapping[str, float], text: str) -> float:
    """How far a measure's estimate lies inside the constraint's bound (negative: outside)."""
    op, bound = _bound(text)
    return bound - m["value"] if op in ("<=", "<") else m["value"] - bound


def by_setting(out: Outcome) -> tuple[list[str], list[list[str]]]:
    """What each searched option's value does to each measure: the mean of the measure over
    the candidates with that value (each at the last round it played), beside the same over
    every candidate."""
    names = _measure_names(out)
    cands = out["candidates"]

    def row(option: str, value: str, members: list[Mapping[str, Any]]) -> list[str]:
        means = [sum(c["measures"][n]["value"] for c in members) / len(members) for n in names]
        return [option, value, str(len(members)), *[fixed(m, 3, sign=True) for m in means]]

    rows = [row("(all)", "", cands)]
    for option in out["searched"]:
        for value in dict.fromkeys(toml_value(c["rules"][option]) for c in cands):
            rows.append(row(option, value, [c for c in cands if toml_value(c["rules"][option]) == value]))
    return ["option", "value", "rule sets", *[f"{n}: mean" for n in names]], rows


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
    names = _measure_names(out)
    header = ["candidate", "rules", *[f"{n} [95 %]" for n in names], "deals", "left in round"]
    rows = []
    for i in _order(out):
        c = out["candidates"][i]
        left = "-" if c["eliminated_round"] is None else f"{c['eliminated_round']} ({c['reason']})"
        measured = [_interval(m["value"], m["lo"], m["hi"]) for m in (c["measures"][n] for n in names)]
        rows.append([str(i), _rules(c), *measured, f"{c['deals']:,}", left])
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
    found, rests = answer(out), _rests_on(out)
    md = [f"# {title}", "", *answer_markdown(found, rests), "", _what(out), "", *(f"- {h}" for h in lines)]
    page = [f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}"
            f"</title><style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>",
            answer_html(found, rests),
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
                f"<h2>The rounds</h2>{html_table(*rounds)}</section>")
    settings = by_setting(out)
    page.append(f"<section><h2>What each rule does to each measure</h2>{html_table(*settings)}</section>")
    md += ["", "## Every candidate", "", md_table(*candidates), "", "## The rounds", "", md_table(*rounds),
           "", "## What each rule does to each measure", "", md_table(*settings)]
    page.append(glossary_html("\n".join(md)) + "</body></html>\n")
    md += ["", *glossary_markdown("\n".join(md))]
    folder.mkdir(parents=True, exist_ok=True)
    for name, _, png in figures:
        write_whole(folder / name, png)
    write_whole(folder / TUNE_FILE, (json.dumps(out, indent=1) + "\n").encode())
    write_whole(folder / "summary.md", ("\n".join(md) + "\n").encode())
    write_whole(folder / "index.html", "".join(page).encode())
    return folder / "index.html"


__all__ = ["TUNE_FILE", "answer", "build", "by_setting", "headlines", "shared_rules", "sign_deciders",
           "tradeoffs"]
