"""The learned player (``net``) as the kernels run it: a small network per game that scores
the legal cards from the seat's observation alone, evaluated from plain arrays.

A game describes its network's input as data, a feature ``Spec`` over its observation
layout (its package's ``features.py``); ``encode`` reads the observation through it, once
for every game, into the indices of the input features that are on (every feature is a bit:
a card in a mask, a value's bucket, a seat relative to the observer). The first layer is
therefore a sum of weight rows, one per feature on (as chess engines' NNUE keeps it sparse),
then two dense layers with ReLU give a score per action; the player plays the legal action
with the highest score.

A weights file also says which of the decisions its spec can play the network plays
(``plays``, a mask over the observation's phase codes): where the arena shows the network's
choice does not beat the heuristic's, the heuristic keeps that decision.

Weights are data handed to the kernel (``Net``, through ``ShardIO`` and ``DealIO``), never
compiled in: the kernels of every policy are compiled once, and a kernel id ``NET | slot <<
KIND_BITS`` picks one of the stacked networks (``net:PATH`` beside ``net`` in one arena).
``load`` reads a weights file and refuses one that does not fit the game's features.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numba
import numpy as np

from sim.engine.seats import CHOSEN, HEURISTIC, KIND_BITS, KIND_MASK, NET, PolicyError

MASK, ONE_HOT, BUCKET, SEAT, SEAT_BITS = range(5)
"""Feature kinds of a spec row ``(kind, field, width, arg, per_seat)``:

* ``MASK``: the bits below ``width`` of a mask field, one feature each;
* ``ONE_HOT``: the value less ``arg`` (its lowest), one of ``width`` features (higher values
  go to the last; below the lowest, none: a card field's -1);
* ``BUCKET``: the value divided by ``arg``, one of ``width`` features (higher: the last);
* ``SEAT``: a seat, one of the table's seats counted from the observer (-1: none);
* ``SEAT_BITS``: a mask holding ``arg`` bits a seat (seat ``s`` at bit ``arg * s``): the
  ``width`` lowest of each seat's, seat by seat from the observer (needs ``per_seat``).

With ``per_seat`` 1 a row reads one field a seat (``field + seat``), seat by seat from the
observer, ``width`` features each. The spec's first row is its head instead:
``(seat field, seats, phase field, phases the net plays as a mask, legal-cards field)``."""


class Spec(NamedTuple):
    """A game's network input: the feature rows over its observation, and their version."""

    rows: np.ndarray
    """``int64[rows, 5]``: the head, then one row per feature group (``MASK`` ...)."""
    actions: int
    """The number of cards (the network's outputs)."""
    version: str
    """A hash of the rows and the observation layout's source: weights name the version
    they were trained on, and a network for another one is refused."""


def spec(head: tuple[int, int, int, int, int], rows: Sequence[tuple[int, int, int, int, int]],
         actions: int, layout: type) -> Spec:
    """A game's ``Spec`` from its head, feature rows, number of cards and observation layout
    (a ``NamedTuple`` class, whose source the version covers)."""
    table = np.array([head, *rows], np.int64)
    digest = hashlib.sha256(table.tobytes())
    digest.update(inspect.getsource(layout).encode())
    digest.update(str(actions).encode())
    return Spec(table, actions, digest.hexdigest()[:16])


def features(rows: np.ndarray) -> int:
    """How many input features a spec's rows describe."""
    seats = int(rows[0, 1])
    return int(sum(r[2] * (seats if r[4] else 1) for r in rows[1:]))


@numba.njit(cache=True)
def encode(rows, obs, idx):
    """Fill ``idx`` with the indices of the input features that are on for observation
    ``obs`` (the spec ``rows``); returns how many."""
    me = obs[rows[0, 0]]
    seats = rows[0, 1]
    n = 0
    base = 0
    for r in range(1, rows.shape[0]):
        kind, field, width, arg, per_seat = rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3], rows[r, 4]
        copies = seats if per_seat else 1
        for rel in range(copies):
            seat = (me + rel) % seats
            value = obs[field + seat] if per_seat and kind != SEAT_BITS else obs[field]
            at = base + rel * width
            if kind == MASK:
                for b in range(width):
                    if (value >> b) & 1:
                        idx[n] = at + b
                        n += 1
            elif kind == SEAT_BITS:
                bits = value >> (arg * seat)
                for b in range(width):
                    if (bits >> b) & 1:
                        idx[n] = at + b
                        n += 1
            elif kind == SEAT:
                if value >= 0:
                    idx[n] = at + (value - me) % seats
                    n += 1
            else:
                v = value - arg if kind == ONE_HOT else (value // arg if value >= 0 else -1)
                if v >= 0:
                    idx[n] = at + min(v, width - 1)
                    n += 1
        base += copies * width
    return n


@numba.njit(cache=True)
def encode_all(rows, obs, out):
    """Set ``out[i, f]`` for every feature ``f`` on in observation ``obs[i]`` (training's
    input, ``sim.learn``)."""
    idx = np.zeros(out.shape[1], np.int64)
    for i in range(obs.shape[0]):
        n = encode(rows, obs[i], idx)
        for k in range(n):
            out[i, idx[k]] = 1


NO_FEATURES = np.array([[0, 1, 0, 0, 0]], np.int64)
"""The feature rows of a game without a network: its head plays no decision."""


class Net(NamedTuple):
    """Stacked networks as the kernels read them (``[slot, ...]``), with their scratch."""

    w1: Any
    """``float32[slot, feature, hidden1]``: a row per input feature."""
    b1: Any
    w2: Any
    """``float32[slot, hidden1, hidden2]``."""
    b2: Any
    w3: Any
    """``float32[slot, action, hidden2]``: a row per action."""
    b3: Any
    plays: Any
    """``int64[slot]``: the phases (a mask over the observation's phase codes) each network
    plays; the heuristic decides the others."""
    idx: Any
    """Scratch: the features on (``int64``)."""
    h1: Any
    h2: Any


_LAYER3, _LAYER2 = np.zeros((0, 0, 0), np.float32), np.zeros((0, 0), np.float32)
NO_NET = Net(_LAYER3, _LAYER2, _LAYER3, _LAYER2, _LAYER3, _LAYER2, np.zeros(0, np.int64),
             np.zeros(0, np.int64), np.zeros(0, np.float32), np.zeros(0, np.float32))
"""No network: what the kernels get when no seat plays ``net``."""


@numba.njit(cache=True)
def no_net():
    """``NO_NET`` made in compiled code, for a search whose rollouts no network plays (numba
    reads no global tuple of arrays as a constant)."""
    layer3, layer2 = np.zeros((0, 0, 0), np.float32), np.zeros((0, 0), np.float32)
    return Net(layer3, layer2, layer3, layer2, layer3, layer2, np.zeros(0, np.int64),
               np.zeros(0, np.int64), np.zeros(0, np.float32), np.zeros(0, np.float32))


@numba.njit(cache=True)
def net_action(net, slot, rows, obs):
    """The action network ``slot`` plays at observation ``obs``: the legal card with the
    highest score; -1 where the decision is not one the network plays (``net.plays``, within
    ``rows``' head)."""
    head = rows[0]
    if not (net.plays[slot] >> obs[head[2]]) & 1:
        return -1
    legal = np.uint64(obs[head[4]])
    if legal & (legal - np.uint64(1)) == 0:
        for a in range(64):
            if (legal >> np.uint64(a)) & np.uint64(1):
                return a
        return -1
    idx, h1, h2, w1, w2, w3, b3 = net.idx, net.h1, net.h2, net.w1, net.w2, net.w3, net.b3
    n = encode(rows, obs, idx)
    for j in range(h1.shape[0]):
        h1[j] = net.b1[slot, j]
    for k in range(n):
        f = idx[k]
        for j in range(h1.shape[0]):
            h1[j] += w1[slot, f, j]
    for j in range(h2.shape[0]):
        h2[j] = net.b2[slot, j]
    for i in range(h1.shape[0]):
        x = h1[i]
        if x > 0:
            for j in range(h2.shape[0]):
                h2[j] += x * w2[slot, i, j]
    best, best_score = -1, np.float32(0)
    for a in range(w3.shape[1]):
        if (legal >> np.uint64(a)) & np.uint64(1):
            score = b3[slot, a]
            for j in range(h2.shape[0]):
                if h2[j] > 0:
                    score += h2[j] * w3[slot, a, j]
            if best < 0 or score > best_score:
                best, best_score = a, score
    return best


@numba.njit(cache=True, inline="always")
def net_policy(pol, obs, net, rows):
    """The id a seat plays a card-play decision with: for a ``net`` seat, its network's
    choice as a ``CHOSEN`` id (``kernel.ask`` plays it), or the heuristic where the network
    does not play the decision; any other seat's ``pol`` as it is."""
    if pol < 0 or (pol & KIND_MASK) != NET:
        return pol
    action = net_action(net, pol >> KIND_BITS, rows, obs)
    return HEURISTIC if action < 0 else CHOSEN | action << KIND_BITS


# --- weights files ---------------------------------------------------------------------------

LAYERS = ("w1", "b1", "w2", "b2", "w3", "b3")
"""A weights file's arrays, the network's layers (``Net``'s fields, one slot each)."""
PLAYS = "plays"
"""A weights file's mask of the phases the network plays (``Net.plays``); without it, every
phase its spec's head gives."""


class NetError(PolicyError):
    """A weights file that is missing, unreadable or does not fit the game."""


def load(path: Path | str, game: str, spec: Spec) -> dict[str, np.ndarray]:
    """The layers of a weights file for ``game`` (an ``.npz`` written by ``sim.learn``) and the
    phases it plays (``PLAYS``), or a ``NetError`` in one line: missing, unreadable, for
    another game or feature version, of the wrong shapes, or playing a phase its spec's
    head does not give."""
    path = Path(path)
    try:
        stat = path.stat()
        arrays = _read(str(path), stat.st_mtime_ns, stat.st_size)
    except FileNotFoundError:
        raise NetError(f"no weights file {path}") from None
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        raise NetError(f"{path} is not a weights file ({exc})") from None
    missing = [k for k in (*LAYERS, "game", "features") if k not in arrays]
    if missing:
        raise NetError(f"{path} is not a weights file (no {', '.join(missing)})")
    if str(arrays["game"]) != game:
        raise NetError(f"{path} holds weights for {arrays['game']}, not {game}")
    if str(arrays["features"]) != spec.version:
        raise NetError(f"{path} was trained on features {arrays['features']}, but this engine's "
                       f"{game} features are {spec.version}: train it again (stichsim train {game})")
    layers = {k: np.ascontiguousarray(arrays[k], np.float32) for k in LAYERS}
    check_shapes(layers, features(spec.rows), spec.actions, str(path))
    head = int(spec.rows[0, 3])
    plays = int(arrays[PLAYS]) if PLAYS in arrays else head
    if plays & ~head or not plays:
        raise NetError(f"{path}: plays phases {plays:#x}, the game's network may play {head:#x}")
    layers[PLAYS] = np.array(plays, np.int64)
    return layers


@functools.lru_cache(maxsize=8)
def _read(path: str, mtime_ns: int, size: int) -> dict[str, np.ndarray]:
    """A weights file's arrays, read once per version of the file (a runner plays many
    shards with one)."""
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def check_shapes(layers: dict[str, np.ndarray], n_features: int, actions: int, name: str) -> None:
    """Refuse (``NetError``) layers whose shapes do not chain from ``n_features`` inputs to
    ``actions`` outputs."""
    w1, b1, w2, b2, w3, b3 = (layers[k] for k in LAYERS)
    h1, h2 = w1.shape[-1], w2.shape[-1]
    wanted = {"w1": (n_features, h1), "b1": (h1,), "w2": (h1, h2), "b2": (h2,), "w3": (actions, h2),
              "b3": (actions,)}
    for k, shape in wanted.items():
        if layers[k].shape != shape:
            raise NetError(f"{name}: layer {k} has shape {layers[k].shape}, the game needs {shape}")


def stack(nets: Sequence[dict[str, np.ndarray]]) -> Net:
    """The kernels' ``Net`` of these networks (``load``'s), slot by slot (they must share
    their shapes)."""
    if not nets:
        return NO_NET
    shapes = {tuple(n[k].shape for k in LAYERS) for n in nets}
    if len(shapes) > 1:
        raise NetError("networks of different sizes cannot play in one call")
    layers = [np.ascontiguousarray(np.stack([n[k] for n in nets]), np.float32) for k in LAYERS]
    w1, b1, w2, b2, w3, b3 = layers
    plays = np.array([int(n[PLAYS]) for n in nets], np.int64)
    return with_scratch(Net(w1, b1, w2, b2, w3, b3, plays, NO_NET.idx, NO_NET.h1, NO_NET.h2))


def with_scratch(net: Net) -> Net:
    """``net`` with scratch of its own, for one kernel call (threads playing shards at once
    must not share it)."""
    return net._replace(idx=np.zeros(net.w1.shape[1] if net.w1.size else 0, np.int64),
                        h1=np.zeros(net.b1.shape[1] if net.b1.size else 0, np.float32),
                        h2=np.zeros(net.b2.shape[1] if net.b2.size else 0, np.float32))
