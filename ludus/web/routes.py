"""The routes the browser client adds to the server: pages, static files, metadata, SVG, replay.

The server draws only observations it made itself: a seat's own view (by its token), the
spectator view, a step of a replay it ran. A client never posts an observation to be drawn,
so no request can ask for a board of its own making (a 1400 x 1400 "board" was a 467 MB SVG).
"""

from __future__ import annotations

import html
import json
import string
import sys
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import ludus
from ludus.engine import OptionError, RecordError
from ludus.engine.hooks import hook
from ludus.engine.record import check_record
from ludus.engine.registry import game_class
from ludus.server.patches import ReplayCache, gzip_json, replay_steps, svg_response, svg_splices

from . import STATIC_DIR

# A finished game of any configuration has a few hundred actions; a record file beyond this is refused.
MAX_RECORD_ACTIONS = 2_000
SVG_CACHE_SIZE = 256


def _error(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC_DIR / name, media_type="text/html", headers={"Cache-Control": "no-cache"})


# Paths whose errors stay JSON ({"detail": ...}) for programs; every other path is a page a person opened.
API_PREFIXES = ("/api/", "/openapi.json", "/docs")


def error_page(status: int, title: str, detail: str) -> HTMLResponse:
    """A page that says what was not found, in words, with the way back to the lobby."""
    template = string.Template((STATIC_DIR / "error.html").read_text(encoding="utf-8"))
    text = template.safe_substitute(status=status, title=html.escape(title), detail=html.escape(detail))
    return HTMLResponse(text, status_code=status, headers={"Cache-Control": "no-store"})


def _game_exists(app: FastAPI, game_id: str) -> bool:
    """Whether this server holds game ``game_id`` (True when it holds no games: nothing to check)."""
    service = getattr(app.state, "service", None)
    if service is None:
        return True
    from ludus.server.service import GAME_ID

    return bool(GAME_ID.match(game_id)) and service.store.versions(game_id) is not None


def _renderer(game: str) -> Any:
    """The ``render_svg`` of the renderer the game declares, or None when it has none."""
    return getattr(hook(game, "renderer"), "render_svg", None)


def _help(game: str) -> Any:
    """The ``rules_help()`` of the game's declared renderer (leader texts, scoring categories, charts), or None."""
    help_data = getattr(hook(game, "renderer"), "rules_help", None)
    return help_data() if callable(help_data) else None


def _svg(observation: Any, options: Any = None) -> str | None:
    """The SVG of an observation, None if its game cannot draw one; ValueError for a bad one.

    ``options`` are the renderer's keyword options (scalars only, e.g. ``highlight``).
    """
    if not isinstance(observation, dict) or observation.get("game") not in ludus.game_names():
        raise ValueError(f"an observation must be an object whose 'game' is one of {ludus.game_names()}")
    options = options or {}
    if not isinstance(options, dict) or not all(
        isinstance(k, str) and (v is None or isinstance(v, str | int | float | bool))
        for k, v in options.items()
    ):
        raise ValueError("render options must be an object of names to numbers, strings or booleans")
    render = _renderer(observation["game"])
    if render is None:
        return None
    try:
        return render(observation, **options)
    except Exception as exc:  # a malformed observation must give an answer, not a crash
        raise ValueError(f"cannot draw this observation: {type(exc).__name__}: {exc}") from None


class SvgCache:
    """The SVG of recent observations: each view is drawn once however many times it is asked for."""

    def __init__(self, size: int = SVG_CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[str, str | None] = OrderedDict()
        self._lock = threading.Lock()

    def svg(self, observation: dict[str, Any]) -> str | None:
        key = json.dumps(observation, sort_keys=True, separators=(",", ":"))
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        drawn = _svg(observation, _highlight(observation))
        with self._lock:
            self._items[key] = drawn
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return drawn


def _board_module(game: str) -> str | None:
    """The URL of the board module the game declares for the browser (``Hooks.browser``); None: the
    client's generic board. A module among the client's own files keeps its static URL (its
    relative imports resolve); a plugin's is served at /plugins/<game>/board.js (it imports the
    client's modules by their /static/js/ URLs)."""
    path = hook(game, "browser")
    if path is None:
        return None
    try:
        return "/static/" + Path(str(path)).resolve().relative_to(STATIC_DIR.resolve()).as_posix()
    except ValueError:
        return f"/plugins/{game}/board.js"


def _summary(cls: type) -> str:
    """The first line of a game's docstring (its module's when the class has none)."""
    doc = cls.__doc__ or sys.modules[cls.__module__].__doc__ or ""
    return doc.strip().split("\n")[0]


def meta() -> dict[str, Any]:
    """Games with every option (name, choices, default, doc, and the choices valid for each player
    count), the bots a seat may hold and the named strength levels."""
    from ludus import bots
    from ludus.bots.levels import describe

    games = []
    for name in ludus.game_names():
        cls = game_class(name)
        default = ludus.load_game(name)
        games.append(
            {
                "name": name,
                "doc": _summary(cls),
                "options": [
                    {
                        "name": o.name,
                        "choices": list(o.choices),
                        "default": o.default,
                        "doc": o.doc,
                        **_valid_by_players(cls, o),
                    }
                    for o in cls.options
                ],
                "default_players": default.num_players,
                "svg": _renderer(name) is not None,
                "help": _help(name),
                "board": _board_module(name),
            }
        )
    return {"games": games, "bots": bots.names(), "levels": describe()}


def _valid_by_players(cls: Any, option: Any) -> dict[str, Any]:
    """``{"valid": {players: [indices of the choices valid then]}}``, asked of the game's own option
    check, for an option whose valid choices depend on the player count (else nothing)."""
    players = next((o for o in cls.options if o.name == "players"), None)
    if players is None or option.name == "players":
        return {}
    valid: dict[str, list[int]] = {}
    for count in players.choices:
        valid[str(count)] = []
        for i, choice in enumerate(option.choices):
            try:
                cls.validate_options({"players": count, option.name: choice})
            except OptionError:
                continue
            valid[str(count)].append(i)
    if all(len(v) == len(option.choices) for v in valid.values()):
        return {}
    return {"valid": valid}


def _highlight(observation: dict[str, Any]) -> dict[str, Any]:
    """Garum's renderer outlines the round's cetarium when asked to."""
    if observation.get("game") == "garum" and observation.get("cetarium"):
        return {"highlight": observation["cetarium"]}
    return {}


def replay_step(record: Any, step: Any) -> dict[str, Any]:
    """The public view after the first ``step`` actions of ``record`` (RecordError if unreadable)."""
    check_record(record)
    total = len(record["actions"])
    if total > MAX_RECORD_ACTIONS:
        raise RecordError(f"the record has {total} actions; at most {MAX_RECORD_ACTIONS} can be replayed")
    if not isinstance(step, int) or isinstance(step, bool):
        raise RecordError("step must be an integer")
    if not 0 <= step <= total:
        raise RecordError(f"step must be 0..{total}, got {step}")
    state = ludus.replay(record, upto=step)
    observation = state.observation(None)
    return {
        "game": record["game"],
        "config": state.game.config,
        "step": step,
        "steps": total,
        "action": record["actions"][step - 1] if step else None,
        "actions": record["actions"],
        "current_player": state.current_player(),
        "terminal": state.is_terminal(),
        "scores": state.scores(),
        "winners": state.winners(),
        "observation": observation,
        "svg": _svg(observation, _highlight(observation)),
        "breakdown": _breakdown(state),
    }


def replay_all(record: Any, svg: Any = True) -> dict[str, Any]:
    """Every step of ``record`` in one answer: the first public view, then a JSON patch per step
    (``ludus.server.patches.replay_steps``); with ``svg``, the boards drawn, as line edits."""
    check_record(record)
    if len(record["actions"]) > MAX_RECORD_ACTIONS:
        raise RecordError(
            f"the record has {len(record['actions'])} actions; at most {MAX_RECORD_ACTIONS} can be replayed"
        )
    return replay_steps(record, (lambda obs: _svg(obs, _highlight(obs))) if svg is True else None)


def _breakdown(state: Any) -> list[dict[str, Any]] | None:
    """Each seat's score by category, for games whose state can tell it (a replay is public)."""
    explain = getattr(state, "score_breakdown", None)
    if not callable(explain):
        return None
    return [explain(seat) for seat in range(state.game.num_players)]


def _bearer(request: Request) -> str | None:
    """The seat token of an ``Authorization: Bearer`` header (None without the header)."""
    from ludus.server.errors import Unauthorized
    from ludus.server.security import bearer_token

    header = request.headers.get("authorization")
    token = bearer_token(header) if header is not None else None
    if token == "" or (header is not None and not token):
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return token


def mount(app: FastAPI) -> None:
    """Add the client's pages, static files and helper endpoints to ``app``."""
    _mount_pages(app)
    _mount_boards(app)
    _mount_replays(app)

    @app.get("/plugins/{game}/board.js", include_in_schema=False)
    def plugin_board(game: str) -> Response:
        """The browser board module a plugin game declares (``Hooks.browser``)."""
        path = hook(game, "browser") if game in ludus.game_names() else None
        if path is None:
            return _error(404, f"{game[:64]} declares no board module")
        return Response(
            path.read_bytes(), media_type="text/javascript", headers={"Cache-Control": "no-cache"}
        )

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="ludus-web-static")


def _mount_pages(app: FastAPI) -> None:
    """The pages a person opens (lobby, game, replay), the page for an unknown path, and the metadata."""

    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return _page("index.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    def game_page(game_id: str, request: Request) -> Response:
        if not _game_exists(request.app, game_id):
            return error_page(
                404,
                "No such game",
                f"There is no game \u201c{game_id[:64]}\u201d on this server. "
                "Check the link, or start or join a game from the lobby.",
            )
        return _page("game.html")

    @app.exception_handler(StarletteHTTPException)
    async def _not_found_page(request: Request, exc: StarletteHTTPException) -> Response:
        """An unknown path a person opened gets a page; API paths keep their JSON errors."""
        if exc.status_code in (404, 405) and not request.url.path.startswith(API_PREFIXES):
            return error_page(
                exc.status_code,
                "No page here" if exc.status_code == 404 else "Not allowed here",
                f"Nothing is served at {request.url.path[:200]}. The lobby lists the games.",
            )
        return await http_exception_handler(request, exc)

    @app.get("/replay", include_in_schema=False)
    def replay_page() -> FileResponse:
        return _page("replay.html")

    @app.get("/api/meta")
    def get_meta() -> dict[str, Any]:
        return meta()


def _mount_boards(app: FastAPI) -> None:
    """A seat's board as SVG, or as line edits of the board that seat was last sent."""
    cache = SvgCache()
    served: OrderedDict[tuple[str, int | None], tuple[int, str]] = OrderedDict()  # per game and seat
    served_lock = threading.Lock()

    @app.get(
        "/api/games/{game_id}/svg",
        response_class=Response,
        responses={200: {"content": {"image/svg+xml": {}}}, 404: {}, 409: {}},
        summary="The board (SVG) of the token's seat view, or of the spectator view without a token",
    )
    def game_svg(
        game_id: str,
        request: Request,
        version: Annotated[
            int | None,
            Query(
                ge=0,
                le=2**62,
                description="the version of the view being drawn: 409 once the game has moved on",
            ),
        ] = None,
        since: Annotated[
            int | None,
            Query(
                ge=0,
                le=2**62,
                description="the version of the board the "
                "client holds: line edits from it, if the server still has it",
            ),
        ] = None,
    ) -> Response:
        service = getattr(request.app.state, "service", None)
        if service is None:
            return _error(404, "this server holds no games")
        view = service.view(game_id, _bearer(request))
        if version is not None and view["version"] != version:
            return _error(409, f"the game is at version {view['version']}, not {version}")
        svg = cache.svg(view["observation"])
        if svg is None:
            return _error(404, f"{view['game']} has no SVG renderer yet")
        key = (game_id, view["seat"])  # the last board this seat (or the spectators) was sent
        with served_lock:
            last = served.pop(key, None)
            served[key] = (view["version"], svg)
            while len(served) > SVG_CACHE_SIZE:
                served.popitem(last=False)
        if since is not None and last is not None and last[0] == since:
            # the board as line edits of the one this seat holds: a move's update, not the whole board
            return JSONResponse(
                {"base": since, "version": view["version"], "splices": svg_splices(last[1], svg)},
                headers={"Cache-Control": "no-store"},
            )
        return svg_response(svg, request.headers.get("accept-encoding"))


def _mount_replays(app: FastAPI) -> None:
    """A finished game's steps, one at a time or all at once, and the replay of a posted record."""
    replays: OrderedDict[tuple[str, int], dict[str, Any]] = (
        OrderedDict()
    )  # a finished game's steps never change
    replays_lock = threading.Lock()

    @app.get("/api/games/{game_id}/replay", summary="The public view after `step` actions of a finished game")
    def game_replay(
        game_id: str, request: Request, step: Annotated[int, Query(ge=0, le=MAX_RECORD_ACTIONS)] = 0
    ) -> Any:
        service = getattr(request.app.state, "service", None)
        if service is None:
            return _error(404, "this server holds no games")
        with replays_lock:
            if (game_id, step) in replays:
                replays.move_to_end((game_id, step))
                return replays[(game_id, step)]
        try:
            answer = replay_step(service.record(game_id), step)
        except RecordError as exc:
            return _error(422, str(exc))
        with replays_lock:
            replays[(game_id, step)] = answer
            while len(replays) > SVG_CACHE_SIZE:
                replays.popitem(last=False)
        return answer

    whole_replays = ReplayCache()

    @app.get(
        "/api/games/{game_id}/replay/all",
        response_class=Response,
        summary="Every step of a finished game at once: the first view, then a JSON patch per step",
    )
    def game_replay_all(game_id: str, request: Request, svg: bool = True) -> Response:
        service = getattr(request.app.state, "service", None)
        if service is None:
            return _error(404, "this server holds no games")
        try:
            body = whole_replays.get((game_id, svg), lambda: replay_all(service.record(game_id), svg))
        except RecordError as exc:
            return _error(422, str(exc))
        return gzip_json(body, request.headers.get("accept-encoding"))

    @app.post("/api/replay", summary="The public view after `step` actions of a record (e.g. a record file)")
    def post_replay(
        request: Request,
        record: Annotated[Any, Body()],
        step: Annotated[Any, Body()] = 0,
        svg: Annotated[Any, Body()] = True,
    ) -> Any:
        """Replay a posted record to ``step`` and return the public view there (``step: "all"``: every
        step, as ``/api/games/{id}/replay/all``). The record is checked action by action by the engine
        (at most ``MAX_RECORD_ACTIONS``, in a body of at most 64 KiB): everything drawn is the
        server's own replay, never a posted observation."""
        try:
            if step == "all":
                return gzip_json(
                    ReplayCache(0).get(None, lambda: replay_all(record, svg)),
                    request.headers.get("accept-encoding"),
                )
            return replay_step(record, step)
        except RecordError as exc:
            return _error(422, str(exc))
        except ValueError as exc:
            return _error(422, str(exc))
