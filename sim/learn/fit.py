"""Fitting a game's network to labelled decisions (``sim.learn.decisions``), with JAX and optax
(the optional extra ``[train]``; playing a trained network needs neither).

The network is the one the kernels evaluate (``sim.engine.net``): the game's feature bits,
two hidden ReLU layers, a score per card. It is fitted to the teacher's values of *every*
legal card, not only to its choice: the target of a decision is the softmax of its legal
cards' values at a temperature (``temperature``: a quarter of the typical spread between a
decision's best and worst card), and the loss the cross-entropy of the network's softmax over
the legal cards against it. The cards the teacher rates close get close probabilities, so the
network learns how much a mistake costs, which its choice alone would not tell.

Everything is drawn from the seed: the same decisions, seed and machine give the same
weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.engine.net import LAYERS, Spec, encode_all, features
from sim.learn.decisions import Decisions

HIDDEN = (128, 64)
"""The hidden layers' widths: the first, a sum of weight rows, is the wide one (the kernels'
cost grows with it times the features on); the second keeps the card scores cheap."""


@dataclass(frozen=True)
class Examples:
    """Decisions as the network reads them: feature bits, legal cards and their values."""

    x: np.ndarray
    """``uint8[decision, feature]``: the input bits."""
    legal: np.ndarray
    """``bool[decision, card]``."""
    values: np.ndarray
    """``float32[decision, card]``: the teacher's value (0 where not legal)."""
    deal: np.ndarray
    """Each decision's deal (``int64``), to hold out whole deals."""
    chosen: np.ndarray
    """The card the deal's own policy played (``int64``)."""

    def __len__(self) -> int:
        return int(self.x.shape[0])

    def take(self, rows: np.ndarray) -> Examples:
        return Examples(self.x[rows], self.legal[rows], self.values[rows], self.deal[rows],
                        self.chosen[rows])


def _on_head(decisions: Decisions, spec: Spec) -> np.ndarray:
    """Which decisions are of a phase the spec's head gives the network."""
    head = spec.rows[0]
    on: np.ndarray = ((head[3] >> decisions.obs[:, head[2]]) & 1).astype(bool)
    return on


def examples(decisions: Decisions, spec: Spec) -> Examples:
    """The decisions of the phases the network may play (its spec's head), as ``Examples``."""
    plays = _on_head(decisions, spec)
    obs = np.ascontiguousarray(decisions.obs[plays])
    x = np.zeros((obs.shape[0], features(spec.rows)), np.uint8)
    encode_all(spec.rows, obs, x)
    values = decisions.values[plays, :spec.actions]
    legal = ~np.isnan(values)
    return Examples(x, legal, np.where(legal, values, 0).astype(np.float32), decisions.deal[plays],
                    decisions.chosen[plays])


def taught(decisions: Decisions, spec: Spec) -> int:
    """The phases of the spec's head that ``decisions`` teach (a mask over the observation's
    phase codes): what a network fitted to them may play (``sim.engine.net``'s ``plays``)."""
    shown = np.unique(decisions.obs[_on_head(decisions, spec), spec.rows[0, 2]])
    return int(sum(1 << int(p) for p in shown))


def temperature(ex: Examples) -> float:
    """The targets' temperature: a quarter of the median spread between a decision's best and
    worst legal card, over decisions where they differ (1 if none do)."""
    hi = np.where(ex.legal, ex.values, -np.inf).max(axis=1)
    lo = np.where(ex.legal, ex.values, np.inf).min(axis=1)
    spread = (hi - lo)[hi > lo]
    return float(np.median(spread) / 4) if spread.size else 1.0


def regret(scores: np.ndarray, ex: Examples) -> float:
    """The mean cost of the cards ``scores`` pick, by the teacher's values: how much worse than
    the teacher's best its pick is, on average over the decisions."""
    pick = np.where(ex.legal, scores, -np.inf).argmax(axis=1)
    best = np.where(ex.legal, ex.values, -np.inf).max(axis=1)
    return float(np.mean(best - ex.values[np.arange(len(ex)), pick])) if len(ex) else 0.0


def played_regret(ex: Examples) -> float:
    """``regret`` of the cards the deals' own policies played (round 0: the heuristic's)."""
    scores = np.zeros(ex.legal.shape, np.float32)
    scores[np.arange(len(ex)), ex.chosen] = 1
    return regret(scores, ex)


def forward(layers: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The network's card scores for input bits ``x`` (numpy; the kernels compute the same)."""
    h = np.maximum(x.astype(np.float32) @ layers["w1"] + layers["b1"], 0)
    h = np.maximum(h @ layers["w2"] + layers["b2"], 0)
    out: np.ndarray = h @ layers["w3"].T + layers["b3"]
    return out


@dataclass(frozen=True)
class Fitted:
    """A fitted network and how its fitting went."""

    layers: dict[str, np.ndarray]
    temperature: float
    curve: list[dict[str, float]]
    """Per epoch: the training loss and the held-out regret."""


def fit(train: Examples, held: Examples, seed: int, epochs: int = 8, batch: int = 512,
        rate: float = 1e-3, hidden: tuple[int, int] = HIDDEN,
        start: dict[str, np.ndarray] | None = None) -> Fitted:
    """Fit the network to ``train`` (Adam, the rate decaying to zero on a cosine over the
    epochs), measuring ``held`` after each epoch. ``start``: layers to go on from (the last
    round's), else drawn from ``seed``."""
    import jax
    import jax.numpy as jnp
    import optax

    jax.config.update("jax_platforms", "cpu")
    temp = temperature(train)
    n_features, actions = train.x.shape[1], train.legal.shape[1]
    key = jax.random.PRNGKey(seed)
    if start is None:
        k1, k2, k3, key = jax.random.split(key, 4)
        sizes = [(n_features, hidden[0]), (hidden[0], hidden[1]), (actions, hidden[1])]
        params = {}
        for name, (k, shape) in zip(("w1", "w2", "w3"), zip((k1, k2, k3), sizes)):
            fan_in = shape[0] if name != "w3" else shape[1]
            params[name] = jax.random.normal(k, shape, jnp.float32) * math.sqrt(2 / fan_in)
        params.update(b1=jnp.zeros(hidden[0]), b2=jnp.zeros(hidden[1]), b3=jnp.zeros(actions))
    else:
        params = {k: jnp.asarray(start[k]) for k in LAYERS}
    steps = epochs * max(1, len(train) // batch)
    opt = optax.adam(optax.cosine_decay_schedule(rate, steps))
    state = opt.init(params)

    def logits(p: Any, x: Any) -> Any:
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        h = jax.nn.relu(h @ p["w2"] + p["b2"])
        return h @ p["w3"].T + p["b3"]

    def loss(p: Any, x: Any, legal: Any, values: Any) -> Any:
        target = jax.nn.softmax(jnp.where(legal, values / temp, -1e9))
        out = jax.nn.log_softmax(jnp.where(legal, logits(p, x.astype(jnp.float32)), -1e9))
        return -jnp.mean(jnp.sum(jnp.where(legal, target * out, 0), axis=1))

    @jax.jit
    def update(p: Any, s: Any, x: Any, legal: Any, values: Any) -> Any:
        value, grads = jax.value_and_grad(loss)(p, x, legal, values)
        changes, s = opt.update(grads, s, p)
        return optax.apply_updates(p, changes), s, value

    order = np.random.default_rng(seed)
    curve = []
    for epoch in range(epochs):
        perm = order.permutation(len(train))
        total, count = 0.0, 0
        for at in range(0, len(train) - batch + 1, batch):
            rows = np.sort(perm[at:at + batch])
            params, state, value = update(params, state, train.x[rows], train.legal[rows],
                                          train.values[rows])
            total += float(value)
            count += 1
        layers = {k: np.asarray(params[k], np.float32) for k in LAYERS}
        point = {"epoch": epoch + 1, "loss": total / max(count, 1),
                 "held_regret": regret(forward(layers, held.x), held)}
        curve.append(point)
    layers = {k: np.asarray(params[k], np.float32) for k in LAYERS}
    return Fitted(layers, temp, curve)
