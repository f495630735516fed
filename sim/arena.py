"""``stichsim arena``: one policy against another by duplicate play.

**Duplicate play.** Every deal is played once for every way of seating a pair of policies
A and B so that each is alone against the other at every seat: with two seats A,B and B,A;
with three seats A against B,B with A at each of the three seats, and B against A,A with B
at each seat (six seatings). Deal ``d`` under the seed is dealt the same cards whatever the
policies (common random numbers), so the luck of the cards cancels out: over a deal's
seatings A and B sit at every seat equally often (with three seats: 9 seat-slots each,
3 at every seat).

**What is compared.** For each deal, ``diff`` is A's mean score per seat-slot minus B's over
that deal's seatings, in the game's unit (``Outcome.score``/``unit``: Skat points, VP). The
deal is the unit: per-deal differences are independent and identically distributed, so the
pair's figure is their mean with a paired 95 % Student-t interval. A policy against itself
plays identical seatings: ``diff`` is exactly 0 on every deal and the interval is [0, 0].

**Win rates.** ``win_a`` is the share of A's seat-slots whose side won the deal by the
game's own rule (``Outcome.seat_won``: the declarer's side in Skat, the winner of the duel,
the side that made its points; "nobody won", a throw-in or a draw, counts as not won; in a
three-seat game A and B share a side when B declares against A and the other B).
``ahead_a`` / ``ahead_b`` / ``even`` compare the deal's two mean scores: the share of deals
where A's ``diff`` is above, below or at zero.

**Ranking** (three or more policies): a Bradley-Terry model, P(i ahead of j in a deal) =
e^θi / (e^θi + e^θj), fitted by maximum likelihood to every pair's deal outcomes (``ahead``
counts one win, ``even`` half a win each), with half a deal added each way to every pair
that played (a weak prior that keeps the fit finite when one policy is ahead in every
deal). The strengths θ are centred (sum zero) and given in log-odds; their 95 % intervals
are Wald intervals from the Fisher information. All pairs play the same deal indices, so
their results are not independent across pairs; the intervals treat them as if they were
(their width is a guide, the pairs' own intervals are exact).

**``until_decided``** plays in looks and stops a pair as soon as its interval excludes
zero. The looks are fixed in advance: at ``deals / 2^(K-1)``, ..., ``deals / 2``, ``deals``
(``K = LOOKS``, looks under ``MIN_LOOK`` deals dropped), and every look's interval is
taken at level 1 - 0.05 / K (Bonferroni over the K looks). By the union bound the chance
that any look's interval misses the true difference is at most 5 %, so the interval
reported at whatever look the pair stops still covers with at least 95 %, and a pair whose
true difference is zero is declared decided in at most 5 % of arenas. Without it every pair
plays ``deals`` deals and gets the plain 95 % interval.

**Reproducible.** Deals are played in chunks by worker processes (joblib, the runner's
backends: ``sim.cluster``) and put back in deal order before anything is computed, so the
same seed and configuration give the same output whatever the jobs, backend or chunks.

**Omniscient policies.** A policy whose base name is in ``sim.policies.OMNISCIENT`` sees every card (the
double-dummy player ``dd``); the report names it (``omniscient``) and the text says its
results are not those of a fair player.

>>> roles(2)
[(0, 1), (1, 0)]
>>> roles(3)
[(0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
>>> look_schedule(1000, until_decided=True)
[63, 125, 250, 500, 1000]
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.engine.game import Game
from sim.engine.play import check_seats, play
from sim.engine.seats import is_slow, sees_every_card, supported_ids
from sim.errors import StichsimError
from sim.registry import find_game

ALPHA = 0.05
"""One minus the intervals' coverage."""
DEFAULT_SEED = 20261130
DEFAULT_DEALS = 10_000
"""Deals per pair when ``--deals`` is not given."""
SLOW_DEFAULT_DEALS = 1_000
"""Deals per pair when a slow policy (``sim.policies.SLOW``) plays and ``--deals`` is not given."""
CHUNK = 5_000
"""Deals a worker plays per task."""
SLOW_CHUNK = 25
"""Deals per task when a slow policy plays: the progress bar moves and the workers share
the load."""
LOOKS = 8
"""Looks of ``until_decided`` (before dropping those under ``MIN_LOOK`` deals)."""
MIN_LOOK = 50
"""The fewest deals a look of ``until_decided`` is taken at."""
BT_PRIOR = 0.5
"""Deals added each way to every played pair before fitting Bradley-Terry."""


class ArenaError(StichsimError):
    """Bad arena input: fewer than two policies, a non-positive deal count."""


def roles(n_players: int) -> list[tuple[int, ...]]:
    """The seatings of a pair, as roles per seat (0: policy A, 1: policy B): A alone at each
    seat, then B alone at each seat, without repeats (two seats: just A,B and B,A)."""
    out: list[tuple[int, ...]] = []
    for lone in (0, 1):
        for seat in range(n_players):
            seating = tuple(lone if s == seat else 1 - lone for s in range(n_players))
            if seating not in out:
                out.append(seating)
    return out


@dataclass
class PairDeals:
    """Per-deal results of one pair over consecutive deals."""

    diff: np.ndarray
    """A's mean score per seat-slot minus B's (float64)."""
    won_a: np.ndarray
    """A's seat-slots whose side won (int64 counts)."""
    won_b: np.ndarray
    slots: int
    """Seat-slots per policy per deal (2 with two seats, 9 with three)."""

    @staticmethod
    def concat(parts: Sequence[PairDeals]) -> PairDeals:
        if not parts:
            empty = np.zeros(0)
            return PairDeals(empty, empty.astype(np.int64), empty.astype(np.int64), 0)
        return PairDeals(np.concatenate([p.diff for p in parts]),
                         np.concatenate([p.won_a for p in parts]),
                         np.concatenate([p.won_b for p in parts]), parts[0].slots)


def duplicate(game: Game, seed: int, first: int, count: int, rules: dict[str, Any],
              a: str, b: str, scored: Sequence[dict[str, Any]] | None = None
              ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
    """Deals ``first .. first + count - 1`` played once per seating of ``a`` and ``b`` under
    ``rules``, and scored under each of ``scored`` (rules that differ from ``rules`` in
    scoring-only options, ``Game.rescore``; default: ``rules`` alone). For each: A's mean
    score per seat-slot less B's (float64), A's and B's won seat-slots (int64 counts) and
    the slots each has."""
    scored = [rules] if scored is None else list(scored)
    n = game.n_players
    stem = game.outcome.score
    sums = np.zeros((len(scored), 2, count), np.int64)
    wins = np.zeros((len(scored), 2, count), np.int64)
    for seating in roles(n):
        batch = play(game, seed, first, count, rules, [b if r else a for r in seating])
        for k, out in enumerate(scored):
            columns = batch.columns if out == rules else game.rescore(batch.columns, out)
            for s, r in enumerate(seating):
                sums[k, r] += columns[f"{stem}_{s}"].astype(np.int64)
                wins[k, r] += np.asarray(game.outcome.seat_won(columns, s)) == 1
    slots = len(roles(n)) * n // 2
    return [(sums[k, 0] / slots - sums[k, 1] / slots, wins[k, 0], wins[k, 1], slots)
            for k in range(len(scored))]


def play_pair(game_name: str, seed: int, first: int, count: int, rules: dict[str, Any],
              a: str, b: str) -> PairDeals:
    """Play deals ``first .. first + count - 1`` once per seating of ``a`` and ``b``; the
    per-deal results (a picklable task for the workers)."""
    diff, won_a, won_b, slots = duplicate(find_game(game_name), seed, first, count, rules, a, b)[0]
    return PairDeals(diff, won_a, won_b, slots)


# --- statistics ---------------------------------------------------------------------------

def t_quantile(level: float, n: int) -> float:
    """The two-sided Student-t quantile of ``level`` with ``n - 1`` degrees of freedom."""
    from scipy.stats import t

    return float(t.ppf(1 - (1 - level) / 2, n - 1))


def interval(diff: np.ndarray, level: float = 1 - ALPHA) -> tuple[float, float | None, float | None]:
    """Mean of the per-deal differences and its paired Student-t interval at ``level``
    (``None`` ends with fewer than two deals; [mean, mean] when every deal is the same)."""
    n = len(diff)
    if n == 0:
        return math.nan, None, None
    mean = float(diff.mean())
    if n < 2:
        return mean, None, None
    sd = float(diff.std(ddof=1))
    if sd == 0:
        return mean, mean, mean
    half = t_quantile(level, n) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def excludes_zero(lo: float | None, hi: float | None) -> bool:
    """Whether an interval lies wholly above or below zero."""
    return lo is not None and hi is not None and (lo > 0 or hi < 0)


def look_schedule(deals: int, until_decided: bool, looks: int = LOOKS,
                  min_look: int = MIN_LOOK) -> list[int]:
    """The deal counts at which an arena looks: just ``deals``, or (``until_decided``)
    ``deals / 2^(looks-1)`` ... ``deals / 2``, ``deals`` rounded up, without those under
    ``min_look`` deals (the last look is always ``deals``)."""
    if not until_decided:
        return [deals]
    out = []
    for k in range(looks - 1, -1, -1):
        n = -(-deals // 2**k)
        if (n >= min_look or k == 0) and n not in out:
            out.append(n)
    return out


def look_level(n_looks: int, alpha: float = ALPHA) -> float:
    """The level of each look's interval: 1 - alpha / looks (Bonferroni)."""
    return 1 - alpha / n_looks


def sequential(diff: np.ndarray, schedule: Sequence[int],
               alpha: float = ALPHA) -> tuple[int, float, float | None, float | None, bool]:
    """The rule of ``until_decided`` on a pair's per-deal differences (at least the last
    look's many): the deals played when it stops, the mean and interval then, and whether
    the interval excludes zero."""
    level = look_level(len(schedule), alpha)
    mean, lo, hi = math.nan, None, None
    n = 0
    for n in schedule:
        mean, lo, hi = interval(diff[:n], level)
        if excludes_zero(lo, hi):
            return n, mean, lo, hi, True
    return n, mean, lo, hi, False


def bradley_terry(names: Sequence[str], wins: np.ndarray, prior: float = BT_PRIOR,
                  level: float = 1 - ALPHA) -> list[dict[str, Any]]:
    """Bradley-Terry strengths of ``names`` from ``wins[i, j]``, the (possibly fractional)
    wins of ``i`` over ``j``, ``prior`` added each way to every pair that met: centred
    log-odds strengths with Wald intervals at ``level``, strongest first.

    >>> rows = bradley_terry(["a", "b"], np.array([[0, 30], [10, 0]]), prior=0)
    >>> [(r["policy"], round(r["strength"], 4)) for r in rows]
    [('a', 0.5493), ('b', -0.5493)]
    """
    from scipy.stats import norm

    k = len(names)
    w = np.asarray(wins, float).copy()
    games = w + w.T
    met = games > 0
    w[met] += prior
    games = w + w.T
    theta = np.zeros(k)
    info = np.zeros((k, k))
    for _ in range(100):
        p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
        grad = (w - games * p).sum(axis=1)
        weight = games * p * (1 - p)
        info = np.diag(weight.sum(axis=1)) - weight
        step = np.linalg.lstsq(info[1:, 1:], grad[1:], rcond=None)[0]  # theta_0 fixed at 0
        theta[1:] += step
        if np.max(np.abs(step)) < 1e-12:
            break
    cov = np.zeros((k, k))
    cov[1:, 1:] = np.linalg.pinv(info[1:, 1:])
    centre = np.eye(k) - 1 / k
    cov = centre @ cov @ centre.T
    strength = theta - theta.mean()
    z = float(norm.ppf(1 - (1 - level) / 2))
    rows: list[dict[str, Any]] = [{"policy": names[i], "strength": float(strength[i]),
             "lo": float(strength[i] - z * math.sqrt(max(cov[i, i], 0.0))),
             "hi": float(strength[i] + z * math.sqrt(max(cov[i, i], 0.0)))} for i in range(k)]
    rows.sort(key=lambda r: -r["strength"])
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows


# --- the arena ----------------------------------------------------------------------------

def check_policies(game_name: str, policies: Sequence[str]) -> None:
    """Raise on an unknown game, an unknown or malformed policy or fewer than two policies."""
    find_game(game_name)
    if len(policies) < 2:
        raise ArenaError(f"arena needs at least two policies, got {len(policies)} "
                         f"({','.join(policies) or 'none'})")
    game = find_game(game_name)
    supported_ids(policies, game)
    check_seats(game, list(policies))


def _chunks(first: int, end: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(first, end, size):
        yield start, min(size, end - start)


def run_arena(game_name: str, policies: Sequence[str], deals: int | None = None,
              rules: dict[str, Any] | None = None, seed: int = DEFAULT_SEED, jobs: int = 1,
              backend: Any = "loky", until_decided: bool = False, progress: bool = False,
              chunk: int | None = None) -> dict[str, Any]:
    """Play the arena and return its report (what ``--json`` prints).

    ``backend``: a joblib backend as ``run_experiment`` takes it (``sim.cluster``).
    ``chunk``: deals per worker task (default ``CHUNK``, ``SLOW_CHUNK`` with a slow policy);
    the results do not depend on it."""
    from joblib import Parallel, delayed
    from tqdm import tqdm

    check_policies(game_name, policies)
    game = find_game(game_name)
    resolved = game.rules(rules or {})
    slow = any(is_slow(p) for p in policies)
    if deals is None:
        deals = SLOW_DEFAULT_DEALS if slow else DEFAULT_DEALS
    if deals < 1:
        raise ArenaError(f"deals must be a positive integer, got {deals}")
    size = chunk or (SLOW_CHUNK if slow else CHUNK)
    pairs = list(itertools.combinations(range(len(policies)), 2))
    schedule = look_schedule(deals, until_decided)
    level = look_level(len(schedule)) if until_decided else 1 - ALPHA
    n_seatings = len(roles(game.n_players))
    parts: dict[int, list[tuple[int, PairDeals]]] = {p: [] for p in range(len(pairs))}
    played = {p: 0 for p in range(len(pairs))}
    decided: dict[int, bool] = {}
    bar = tqdm(total=len(pairs) * deals, unit="deal", desc=f"arena {game_name}", file=sys.stderr,
               disable=None if progress else True, dynamic_ncols=True)
    try:
        for look in schedule:
            open_pairs = [p for p in range(len(pairs)) if p not in decided]
            tasks = [(p, first, count) for p in open_pairs
                     for first, count in _chunks(played[p], look, size)]
            if tasks:
                parallel = Parallel(n_jobs=min(jobs, len(tasks)), backend=backend,
                                    return_as="generator_unordered")
                results = parallel(
                    delayed(_task)(p, game_name, seed, first, count, resolved,
                                   policies[pairs[p][0]], policies[pairs[p][1]])
                    for p, first, count in tasks)
                for p, first, data in results:
                    parts[p].append((first, data))
                    bar.update(len(data.diff))
            for p in open_pairs:
                played[p] = look
                if until_decided:
                    data = _joined(parts[p])
                    _, lo, hi = interval(data.diff, level)
                    if excludes_zero(lo, hi) or look == schedule[-1]:
                        decided[p] = excludes_zero(lo, hi)
                        bar.update(deals - look)
    finally:
        bar.close()

    rows = []
    wins = np.zeros((len(policies), len(policies)))
    for p, (i, j) in enumerate(pairs):
        data = _joined(parts[p])
        n = len(data.diff)
        mean, lo, hi = interval(data.diff, level)
        ahead_a = int((data.diff > 0).sum())
        ahead_b = int((data.diff < 0).sum())
        even = n - ahead_a - ahead_b
        wins[i, j] += ahead_a + even / 2
        wins[j, i] += ahead_b + even / 2
        row: dict[str, Any] = {
            "a": policies[i], "b": policies[j], "diff": mean, "lo": lo, "hi": hi, "deals": n,
            "decided": excludes_zero(lo, hi), "level": level,
            "win_a": float(data.won_a.sum() / (data.slots * n)),
            "win_b": float(data.won_b.sum() / (data.slots * n)),
            "ahead_a": ahead_a / n, "ahead_b": ahead_b / n, "even": even / n,
            "plays": n * n_seatings}
        rows.append(row)
    ranking = bradley_terry(list(policies), wins) if len(policies) >= 3 else None
    omniscient = sorted({p for p in policies if sees_every_card(p)})
    return {"game": game_name, "unit": game.outcome.unit, "seed": seed, "rules": resolved,
            "policies": list(policies), "seatings": n_seatings, "max_deals": deals,
            "until_decided": until_decided, "looks": schedule if until_decided else None,
            "pairs": rows, "ranking": ranking, "omniscient": omniscient}


def _task(p: int, game_name: str, seed: int, first: int, count: int, rules: dict[str, Any],
          a: str, b: str) -> tuple[int, int, PairDeals]:
    return p, first, play_pair(game_name, seed, first, count, rules, a, b)


def _joined(parts: list[tuple[int, PairDeals]]) -> PairDeals:
    """A pair's chunks in deal order."""
    return PairDeals.concat([d for _, d in sorted(parts, key=lambda x: x[0])])


def _signed(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:+.{digits}f}"


def format_report(report: dict[str, Any]) -> str:
    """The arena's report as text."""
    unit = report["unit"]
    lines = [f"arena {report['game']}: seed {report['seed']}, {report['seatings']} seatings per "
             f"deal (each policy of a pair alone against the other at every seat)",
             f"diff: A's mean {unit} per seat per deal minus B's; won: the share of a policy's "
             f"seats whose side won; ahead: deals with diff above/below/at zero"]
    if report["until_decided"]:
        lines.append(f"until decided: looks at {', '.join(map(str, report['looks']))} deals, each "
                     f"interval at {report['pairs'][0]['level']:.2%} (Bonferroni over the looks: "
                     f"95 % overall)")
    header = (f"{'A':<14} {'B':<14} {'diff':>8} {'95% interval':>20} {'deals':>9} "
              f"{'won A':>6} {'won B':>6} {'ahead A/B/even':>16}")
    lines += ["", header, "-" * len(header)]
    for r in report["pairs"]:
        ci = f"[{_signed(r['lo'])}, {_signed(r['hi'])}]"
        mark = "" if r["decided"] else "  (undecided)"
        lines.append(f"{r['a']:<14} {r['b']:<14} {_signed(r['diff']):>8} {ci:>20} {r['deals']:>9,} "
                     f"{r['win_a']:>6.1%} {r['win_b']:>6.1%} "
                     f"{r['ahead_a']:>5.0%}/{r['ahead_b']:.0%}/{r['even']:.0%}{mark}")
    if report["ranking"]:
        lines += ["", "ranking (Bradley-Terry on being ahead in a deal; strength in log-odds, "
                      "centred; 95% interval):"]
        for r in report["ranking"]:
            lines.append(f"  {r['rank']}. {r['policy']:<14} {r['strength']:+.3f} "
                         f"[{r['lo']:+.3f}, {r['hi']:+.3f}]")
    for p in report["omniscient"]:
        lines.append(f"note: {p} sees every card: its results are not those of a fair player")
    return "\n".join(lines)


__all__ = ["ALPHA", "ArenaError", "PairDeals", "bradley_terry", "check_policies",
           "format_report", "interval", "look_schedule", "look_level", "play_pair", "roles",
           "run_arena", "sequential"]
