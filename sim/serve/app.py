"""The web application of ``stichsim serve`` (Starlette): the page, its static files and
a small JSON API over ``sim.serve.tables``.

Routes (every error a 4xx status with one line of plain text, never a traceback):

* ``GET /``: the page; ``GET /static/...``: its script, style sheet;
* ``GET /api/games``: each game's seats, rule options (the registry's) and the policies;
* ``POST /api/tables`` ``{game, seat, policy, rules, seed}``: a new table (``seed`` may be
  null: a random one), its state;
* ``GET /api/tables/{id}``: the state (a reloaded page resumes);
* ``POST /api/tables/{id}/answer`` ``{step, choices}``: the person's choice (indices into
  the question's choices; ``step``: decisions made before, so a stale page is refused);
* ``POST /api/tables/{id}/next``: the series' next deal;
* ``GET /api/tables/{id}/traces``: the finished deals' traces (JSONL, a download; 409
  before the first deal is over);
* ``GET /api/tables/{id}/hindsight``: the last finished deal's hindsight
  (``sim.play.hindsight``: each card against the best under perfect play), as lines and as
  its decisions (the page steps through them trick by trick).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sim.engine.seats import POLICIES, label
from sim.play.hindsight import HindsightError, hindsight, hindsight_lines
from sim.registry import GAMES
from sim.serve.tables import RequestError, SeatedTable, Tables
from sim.serve.view import table_json

STATIC = resources.files("sim.serve") / "static"


ABBREVIATIONS = {"vp": "VP", "a": "A", "b": "B", "re": "and Re", "jungfrau": "Jungfrau"}
"""Words of option names written otherwise in a title."""


def option_title(name: str) -> str:
    """An option's name in words for the setup form (the identifier goes in small print).

    >>> option_title("vp_per_b_marker"), option_title("all_pass")
    ('VP per B marker', 'All pass')
    """
    words = [ABBREVIATIONS.get(w, w) for w in name.split("_")]
    return " ".join(words)[0].upper() + " ".join(words)[1:]


def games_json(players: tuple[str, ...] = ()) -> dict[str, Any]:
    """The setup form's contents: per game its seats and options; the policies, each with
    its label (``dd`` says that it sees every card), the Python players the server was
    started with among them."""
    games = {}
    for name, game in GAMES.items():
        options = [{"name": o.name, "title": option_title(o.name),
                "default": o.default, "doc": o.doc,
                    "allowed": list(o.allowed), "low": o.low, "high": o.high}
                   for o in game.options]
        games[name] = {"players": game.n_players, "options": options}
    offered = [p for p in POLICIES if p != "python"] + list(players)
    return {"games": games, "policies": offered, "default_policy": "heuristic",
            "policy_labels": {p: label(p) for p in offered}}


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object (``RequestError`` when it is none)."""
    try:
        data = json.loads(await request.body() or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise RequestError("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise RequestError("the request body must be a JSON object")
    return data


def build_app(tables: Tables | None = None) -> Starlette:
    """The application over ``tables`` (a fresh store by default)."""
    store = tables or Tables()

    async def index(request: Request) -> Response:
        return FileResponse(str(STATIC / "index.html"))

    async def games(request: Request) -> Response:
        return JSONResponse(games_json(store.players))

    async def open_table(request: Request) -> Response:
        data = await body(request)
        seated = await run_in_threadpool(
            store.open, data.get("game"), data.get("seat", 0), data.get("policy", "heuristic"),
            data.get("rules", {}), data.get("seed"))
        return JSONResponse(table_json(seated), status_code=201)

    def seated_of(request: Request) -> SeatedTable:
        return store.get(request.path_params["table"])

    async def locked(seated: SeatedTable, work: Callable[[], Any]) -> Any:
        """Run ``work`` on ``seated`` under its lock, off the event loop (the engine and the
        solver take their time; other tables go on meanwhile)."""
        def run() -> Any:
            with seated.lock:
                return work()
        return await run_in_threadpool(run)

    async def state(request: Request) -> Response:
        seated = seated_of(request)
        return JSONResponse(await locked(seated, lambda: table_json(seated)))

    async def answer(request: Request) -> Response:
        data = await body(request)
        seated = seated_of(request)
        step, picks = data.get("step"), data.get("choices")
        if not isinstance(step, int) or not isinstance(picks, list) or not picks \
                or not all(isinstance(k, int) and not isinstance(k, bool) for k in picks):
            raise RequestError('an answer is {"step": N, "choices": [index, ...]}')

        def decide() -> dict[str, Any]:
            n = len(seated.question().choices)
            if not all(0 <= k < n for k in picks):
                raise RequestError(f"a choice is an index from 0 to {n - 1}")
            seated.decide(step, picks)
            return table_json(seated)
        return JSONResponse(await locked(seated, decide))

    async def next_deal(request: Request) -> Response:
        seated = seated_of(request)

        def deal() -> dict[str, Any]:
            seated.next_deal()
            return table_json(seated)
        return JSONResponse(await locked(seated, deal))

    async def traces(request: Request) -> Response:
        seated = seated_of(request)
        text = await locked(seated, seated.traces)
        if not text:
            raise RequestError("no deal of this table is over yet: nothing to download", 409)
        name = f"stichsim-{seated.game.name}-seed{seated.seed}.jsonl"
        return PlainTextResponse(text, media_type="application/jsonl",
                                 headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def hindsight_route(request: Request) -> Response:
        seated = seated_of(request)
        last = await locked(seated, lambda: seated.finished[-1] if seated.finished else None)
        if last is None:
            raise RequestError("no deal of this table is over yet", 409)
        try:
            decisions = await run_in_threadpool(hindsight, last)
        except HindsightError as e:
            raise RequestError(str(e), 409) from None
        return JSONResponse({"deal": last["deal"], "lines": hindsight_lines(decisions),
                             "decisions": decisions})

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        return PlainTextResponse(str(exc), status_code=exc.status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return PlainTextResponse(exc.detail, status_code=exc.status_code)

    async def failed(request: Request, exc: Exception) -> Response:
        return PlainTextResponse(f"internal error: {type(exc).__name__}", status_code=500)

    routes = [Route("/", index), Route("/api/games", games),
              Route("/api/tables", open_table, methods=["POST"]),
              Route("/api/tables/{table}", state),
              Route("/api/tables/{table}/answer", answer, methods=["POST"]),
              Route("/api/tables/{table}/next", next_deal, methods=["POST"]),
              Route("/api/tables/{table}/traces", traces),
              Route("/api/tables/{table}/hindsight", hindsight_route),
              Mount("/static", StaticFiles(directory=str(STATIC)), name="static")]
    return Starlette(routes=routes, exception_handlers={
        RequestError: refused, HTTPException: http_error, Exception: failed})
