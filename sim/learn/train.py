"""``stichsim train``: a game's learned player, from self-play labelled by a search.

Each round plays ``deals`` new deals (round 0 with the heuristic at every seat, each later
round with the last round's network, so the decisions are the ones the network meets),
labels every card decision by the teacher (``lookahead:N``: the mean outcome of every legal
card; ``pimc:N``: every card solved in each world; ``sim.learn.decisions``) and fits the
network to all rounds' decisions so far, going on from the last round's weights
(``sim.learn.fit``). With ``expert`` (expert iteration) the lookahead's rollouts from round 1
on are played by the last round's network instead of the heuristic: the teacher improves
with the player it teaches. The decisions of the last ``HELD_OUT`` of
each round's deals are held out to measure the fit (the teacher's regret of the network's
cards).

Everything lands in ``--out``: each round's decisions and weights (``--resume`` goes on from
the last whole round, also to more rounds than the first run asked for), the final
``net.npz`` with the game, the feature version and the
engine's source hash it was trained under, the training curve (``training.png``) and a model
card (``MODEL.md``) with the settings, the library versions and an arena table: the network
against the heuristic and the teacher, by duplicate play on ``seed + 1`` (deals the training
never saw).
"""

from __future__ import annotations

import json
import os
import platform
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from sim import SOURCE_HASH
from sim.engine.game import Game
from sim.engine.net import LAYERS, NetError, Spec, load
from sim.engine.seats import KIND_MASK, LOOKAHEAD, PIMC, PolicyError, option_of, policy_id
from sim.errors import StichsimError
from sim.learn import decisions as D
from sim.learn.fit import Examples, examples, fit, played_regret, taught

HELD_OUT = 0.05
"""The share of each round's deals whose decisions measure the fit instead of training it."""
ARENA_DEALS = 20_000
"""Deals of the model card's arena against the heuristic (the teacher's: ``TEACHER_DEALS``)."""
TEACHER_DEALS = 400


class TrainError(StichsimError):
    """Training settings or an output folder that cannot be used as asked."""


@dataclass(frozen=True)
class Settings:
    """What a training run is: the same settings and seed give the same weights."""

    game: str
    teacher: str
    rounds: int
    deals: int
    seed: int
    epochs: int
    hidden: tuple[int, int]
    expert: bool = False
    """Expert iteration: from round 1 on, the lookahead's rollouts are the last network's."""
    rules: tuple[str, ...] = ()
    """The rule options the deals are played under, as ``KEY=VALUE`` (none: the defaults);
    the arena plays them too."""

    def about(self) -> dict[str, Any]:
        return {"game": self.game, "teacher": self.teacher, "rounds": self.rounds,
                "deals": self.deals, "seed": self.seed, "epochs": self.epochs,
                "hidden": list(self.hidden), "expert": self.expert,
                **({"rules": list(self.rules)} if self.rules else {})}

    def rules_of(self, game: Game) -> dict[str, Any]:
        """The rules the run plays (a bad option: the options' one-line error)."""
        return game.rules(game.options.parse_assignments(list(self.rules), game.name))

    def teacher_of(self, rollout_net: str | None) -> D.Teacher:
        """The round's teacher (``rollout_net``: the last round's weights, or ``None`` in round
        0), or a ``TrainError``: the teachers are ``lookahead:N`` and ``pimc:N``, which value
        every legal card from the observation, and expert iteration needs the lookahead's
        rollouts."""
        try:
            pol = policy_id(self.teacher)
        except PolicyError as exc:
            raise TrainError(f"teacher: {exc}") from None
        if pol & KIND_MASK not in (LOOKAHEAD, PIMC):
            raise TrainError(f"teacher {self.teacher!r}: the teachers are lookahead:N and pimc:N "
                             f"(they value every legal card from the observation)")
        if pol & KIND_MASK == PIMC:
            if self.expert:
                raise TrainError("--expert needs a lookahead teacher: pimc solves its worlds, it "
                                 "plays no rollouts")
            return D.Teacher("pimc", option_of(pol))
        return D.Teacher("lookahead", option_of(pol), rollout_net if self.expert else None)


def save_weights(path: Path, layers: dict[str, np.ndarray], game: str, spec: Spec, plays: int,
                 about: dict[str, Any]) -> None:
    """Write a weights file ``net`` loads (``sim.engine.net.load``), whole or not at all; the
    network plays the phases ``plays`` (those its decisions taught it), the heuristic the
    others."""
    tmp = path.with_name(path.name + ".partial.npz")
    arrays: dict[str, Any] = {k: layers[k] for k in LAYERS}
    arrays.update(game=np.array(game), features=np.array(spec.version),
                  plays=np.array(plays), engine=np.array(SOURCE_HASH),
                  about=np.array(json.dumps(about, sort_keys=True)))
    np.savez(tmp, **arrays)
    os.replace(tmp, path)


def _but_rounds(about: dict[str, Any]) -> dict[str, Any]:
    """Settings less the number of rounds: a round does not depend on how many follow, so
    ``--resume`` with more rounds goes on exactly as a longer run would have."""
    return {k: v for k, v in about.items() if k != "rounds"}


def _held(ex: Examples, deals: int, first: int) -> np.ndarray:
    """Which of a round's examples are held out: those of its last ``HELD_OUT`` deals."""
    cut = first + deals - max(1, int(deals * HELD_OUT))
    held: np.ndarray = ex.deal >= cut
    return held


def _join(parts: list[Examples]) -> Examples:
    return Examples(*(np.concatenate([getattr(p, f) for p in parts])
                      for f in ("x", "legal", "values", "deal", "chosen")))


def train(game: Game, settings: Settings, out: Path, resume: bool = False, jobs: int = 1,
          progress: bool = False, arena_deals: int = ARENA_DEALS,
          teacher_deals: int = TEACHER_DEALS) -> dict[str, Any]:
    """Train ``game``'s network as ``settings`` say into ``out`` and return the run's report
    (what ``--json`` prints and the model card shows)."""
    from tqdm import tqdm

    if game.net is None or game.card_play is None or game.card_play.action_values is None:
        raise TrainError(f"game {game.name} has no learned player to train")
    settings.teacher_of(None)
    rules = settings.rules_of(game)
    if settings.rounds < 1 or settings.deals < 20 or settings.epochs < 1:
        raise TrainError("rounds and epochs must be at least 1, deals at least 20")
    spec = game.net.features
    out.mkdir(parents=True, exist_ok=True)
    state_file = out / "train.json"
    about = settings.about()
    if state_file.exists():
        if not resume:
            raise TrainError(f"{out} holds a training run already: --resume to go on, or "
                             f"another --out")
        if _but_rounds(json.loads(state_file.read_text())["settings"]) != _but_rounds(about):
            raise TrainError(f"{out} holds a training run with other settings: --resume needs the "
                             f"same (only --rounds may grow)")
    elif resume and any(out.iterdir()):
        raise TrainError(f"{out} is not a training folder (no train.json)")
    state_file.write_text(json.dumps({"settings": about}, indent=1))
    train_parts: list[Examples] = []
    held_parts: list[Examples] = []
    layers: dict[str, np.ndarray] | None = None
    plays = 0
    rounds: list[dict[str, Any]] = []
    bar = tqdm(total=settings.rounds, desc=f"train {game.name}", unit="round", disable=not progress)
    for r in range(settings.rounds):
        first = r * settings.deals
        labelled = out / f"decisions-{r}.npz"
        weights = out / f"round-{r}.npz"
        last = None if r == 0 else str(out / f"round-{r - 1}.npz")
        policies = ["heuristic" if last is None else f"net:{last}"] * game.n_players
        if resume and labelled.exists():
            decisions, _ = D.load(labelled)
        else:
            decisions = D.label(game, settings.seed, settings.deals, rules, policies,
                                settings.teacher_of(last), jobs=jobs, first=first)
            D.save(decisions, labelled, {**about, "round": r, "policies": policies})
        ex = examples(decisions, spec)
        plays |= taught(decisions, spec)
        held = _held(ex, settings.deals, first)
        train_parts.append(ex.take(np.flatnonzero(~held)))
        held_parts.append(ex.take(np.flatnonzero(held)))
        if resume and weights.exists():
            layers = load(weights, game.name, spec)
            with np.load(weights) as data:
                report = json.loads(str(data["about"]))["round"]
        else:
            fitted = fit(_join(train_parts), _join(held_parts), settings.seed + r,
                         epochs=settings.epochs, hidden=settings.hidden, start=layers)
            layers = fitted.layers
            report = {"round": r, "policies": policies[0], "decisions": int(sum(map(len, train_parts))),
                      "temperature": fitted.temperature, "curve": fitted.curve,
                      "held_regret": fitted.curve[-1]["held_regret"],
                      "played_regret": played_regret(held_parts[-1])}
            save_weights(weights, layers, game.name, spec, plays, {**about, "round": report})
        rounds.append(report)
        bar.update(1)
    bar.close()
    assert layers is not None
    final = out / "net.npz"
    save_weights(final, layers, game.name, spec, plays, {**about, "rounds": rounds})
    report = {**about, "engine": SOURCE_HASH, "features": spec.version, "rounds": rounds,
              "weights": str(final), "bytes": final.stat().st_size, "versions": _versions()}
    report["arena"] = _arena(game, final, settings, rules, jobs, arena_deals, teacher_deals,
                             progress)
    _card(out, report)
    return report


def _arena(game: Game, weights: Path, settings: Settings, rules: dict[str, Any], jobs: int,
           deals: int, teacher_deals: int, progress: bool) -> list[dict[str, Any]]:
    """The network against the heuristic and the teacher by duplicate play on deals the
    training never used (seed + 1); under expert iteration the teacher at the table is the
    plain one, its rollouts the heuristic's."""
    from sim.arena import run_arena

    rows = []
    for other, n in (("heuristic", deals), (settings.teacher, teacher_deals)):
        if n <= 0:
            continue
        rep = run_arena(game.name, [f"net:{weights}", other], deals=n, rules=rules,
                        seed=settings.seed + 1, jobs=jobs, progress=progress)
        pair = rep["pairs"][0]
        rows.append({"opponent": other, **{k: pair[k] for k in ("deals", "diff", "lo", "hi")},
                     "unit": rep["unit"]})
    return rows


def _versions() -> dict[str, str]:
    names = ("numpy", "numba", "jax", "jaxlib", "optax")
    found = {}
    for name in names:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {"python": platform.python_version(), **found}


def command(about: dict[str, Any]) -> str:
    """The ``stichsim train`` command of a run's settings (a weights file's ``about``, or the
    run's report)."""
    rounds = about["rounds"] if isinstance(about["rounds"], int) else len(about["rounds"])
    return (f"stichsim train {about['game']} --teacher {about['teacher']} --rounds {rounds} "
            f"--deals {about['deals']} --epochs {about['epochs']} --seed {about['seed']}"
            f"{' --expert' if about.get('expert') else ''}"
            f"{''.join(f' --rule {r}' for r in about.get('rules', []))}")


def _card(out: Path, report: dict[str, Any]) -> None:
    """Write the model card (``MODEL.md``) and the training curve (``training.png``)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    at = 0
    for r in report["rounds"]:
        xs = [at + p["epoch"] for p in r["curve"]]
        ax.plot(xs, [p["held_regret"] for p in r["curve"]], marker="o", label=f"round {r['round']}")
        at = xs[-1]
    ax.set_xlabel("epoch")
    ax.set_ylabel("held-out regret (teacher's value)")
    ax.set_title(f"{report['game']}: training by {report['teacher']}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "training.png", dpi=100)
    plt.close(fig)
    lines = [f"# net for {report['game']}", "", f"Trained by `{command(report)}`.", "",
             f"- features {report['features']}, engine {report['engine']}, "
             f"hidden layers {report['hidden']}, {report['bytes']:,} bytes",
             f"- libraries: {', '.join(f'{k} {v}' for k, v in report['versions'].items())}", "",
             "Regret: how much of the teacher's value a pick gives away against the teacher's best card, "
             "on average over the decisions of held-out deals (the network's picks, and the picks of "
             "the players who played the round's deals); each round holds out its own deals too.", "",
             "| round | deals played by | decisions | net's held-out regret | their own regret |",
             "|---|---|---|---|---|"]
    for r in report["rounds"]:
        h = r.get("played_regret")
        lines.append(f"| {r['round']} | {r['policies']} | {r['decisions']:,} | {r['held_regret']:.3f} | "
                     f"{'' if h is None else f'{h:.3f}'} |")
    lines += ["", "![training](training.png)", "", "## Arena (duplicate, seed + 1)", "",
              "| against | deals | net − other | 95 % interval |", "|---|---|---|---|"]
    for a in report["arena"]:
        lines.append(f"| {a['opponent']} | {a['deals']:,} | {a['diff']:+.2f} {a['unit']} | "
                     f"{a['lo']:+.2f} .. {a['hi']:+.2f} |")
    (out / "MODEL.md").write_text("\n".join(lines) + "\n")
    (out / "report.json").write_text(json.dumps(report, indent=1, default=str))


def refuse_missing(path: str, game: Game) -> None:
    """A ``NetError`` unless ``path`` holds weights for ``game`` (``net:PATH``)."""
    if game.net is None:
        raise NetError(f"game {game.name} has no learned player")
    load(path, game.name, game.net.features)
