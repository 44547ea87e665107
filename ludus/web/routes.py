"""The routes the browser client adds to the server: pages, static files, metadata, SVG, replay.

The server draws only observations it made itself: a seat's own view (by its token), the
spectator view, a step of a replay it ran. A client never posts an observation to be drawn,
so no request can ask for a board of its own making (a 1400 x 1400 "board" was a 467 MB SVG).
A replay is answered one step at a time (a viewer keeps the steps it has), each answer at most
``MAX_ANSWER_BYTES``, replayed in the bots' worker processes (``replay_answer``), never in the server's own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gzip as gzip_module
import html
import json
import logging
import re
import string
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Any

import orjson
from fastapi import Depends, FastAPI, Query, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import ludus
from ludus.engine import RecordError
from ludus.engine.hooks import hook
from ludus.engine.record import check_record
from ludus.engine.registry import game_class
from ludus.server.botpool import BotFailed, call_job
from ludus.server.patches import svg_response, svg_splices
from ludus.server.replays import ReplayStates, walk_record

from . import STATIC_DIR
from .boards import view_at

log = logging.getLogger("ludus.web")

# A finished game of any configuration has a few hundred actions; a record file beyond this is refused.
MAX_RECORD_ACTIONS = 2_000
SVG_CACHE_SIZE = 256
# No replay answer is larger (the longest seen: a step of a 4-player game with its board, ~120 KB of JSON).
MAX_ANSWER_BYTES = 1_000_000
_INTEGER = re.compile(r"-?[0-9]+")


def _busy(detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": "1"})


def _error(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC_DIR / name, media_type="text/html", headers={"Cache-Control": "no-cache"})


def _static_page(name: str) -> Any:
    """A route answering the page ``name`` (a function of no parameters: the request chooses nothing)."""

    def page() -> FileResponse:
        return _page(name)

    return page


# Paths whose errors stay JSON ({"detail": ...}) for programs; every other path is a page a person opened.
API_PREFIXES = ("/api/", "/openapi.json", "/docs")


def error_page(status: int, title: str, detail: str) -> HTMLResponse:
    """A page that says what was not found, in words, with the way back to the lobby."""
    template = string.Template((STATIC_DIR / "error.html").read_text(encoding="utf-8"))
    text = template.safe_substitute(
        status=status, title=html.escape(title), detail=html.escape(detail), games=html.escape(_titles())
    )
    return HTMLResponse(text, status_code=status, headers={"Cache-Control": "no-store"})


def _titles() -> str:
    """The installed games' titles as people list them ("A and B")."""
    names = [game_class(name).display_title() for name in ludus.game_names()]
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names) or "Board games"


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


def _svg(game: str, observation: dict[str, Any]) -> str | None:
    """The SVG of an observation of ``game``, None if the game cannot draw one; ValueError if its
    renderer fails. The game is named by the game row or the record, never by the observation:
    a plugin's observation may carry only its own fields."""
    render = _renderer(game)
    if render is None:
        return None
    try:
        return render(observation, **_board_options(game, observation))
    except Exception as exc:  # a renderer's failure must give an answer, not a crash
        raise ValueError(f"cannot draw this observation: {type(exc).__name__}: {exc}") from None


class SvgCache:
    """The SVG of recent observations: each view is drawn once however many times it is asked for."""

    def __init__(self, size: int = SVG_CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[str, str | None] = OrderedDict()
        self._lock = threading.Lock()

    def svg(self, game: str, observation: dict[str, Any]) -> str | None:
        key = game + json.dumps(observation, sort_keys=True, separators=(",", ":"))
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        drawn = _svg(game, observation)
        with self._lock:
            self._items[key] = drawn
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return drawn


BROWSER_FILES = ("browser", "styles", "rules")  # the file hooks the browser fetches from a game's folders
_FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}\.(js|css|html)$")
_MEDIA = {"js": "text/javascript", "css": "text/css", "html": "text/html; charset=utf-8"}


def _file_url(game: str, name: str) -> str | None:
    """The URL of the file the game declares as hook ``name`` (``browser``, ``styles``, ``rules``):
    ``/plugins/<game>/<file>``, the built-in games' as any plugin's; None: it declares none."""
    path = hook(game, name)
    return None if path is None else f"/plugins/{game}/{path.name}"


def game_file(game: str, name: str) -> Path | None:
    """The file ``name`` of the folders a game's browser files are in (its board module may import the
    modules beside it), or None: no such game, no such file, or a name that is not a plain file name."""
    if game not in ludus.game_names() or not _FILE_NAME.match(name):
        return None
    for hook_name in BROWSER_FILES:
        declared = hook(game, hook_name)
        if declared is not None:
            found = declared.parent / name
            if found.is_file():
                return found  # type: ignore[no-any-return]
    return None


def _board_options(game: str, observation: dict[str, Any]) -> dict[str, Any]:
    """The renderer's drawing options for an observation (``board_options``: what to outline), if any."""
    options = getattr(hook(game, "renderer"), "board_options", None)
    return options(observation) if callable(options) else {}


def _step(step: Any, total: int) -> int:
    """``step`` checked as an action count 0..``total``; RecordError saying what is wrong."""
    if not isinstance(step, int) or isinstance(step, bool):
        raise RecordError(f"step must be an integer 0..{total}, got {repr(step)[:40]}")
    if not 0 <= step <= total:
        raise RecordError(f"step must be 0..{total}, got {str(step)[:40]}")
    return step


def replay_step(
    record: Any, step: Any, svg: bool = True, states: ReplayStates | None = None, turns: bool = False
) -> dict[str, Any]:
    """The public view after the first ``step`` actions of ``record`` (RecordError if unreadable),
    with the seat that took each of its actions (``actors``) and, if asked, the record told by turns
    (``turns``: ``replays.record_turns``). The record's own actions are left out: the viewer holds
    them. With ``states``, replayed from the nearest state kept there; without, from the start: the
    same answer."""
    check_record(record)
    total = len(record["actions"])
    if total > MAX_RECORD_ACTIONS:
        raise RecordError(f"the record has {total} actions; at most {MAX_RECORD_ACTIONS} can be replayed")
    step = _step(step, total)
    if states is None:
        facts = walk_record(record)  # every action checked, whatever the step
        state = ludus.replay(record, upto=step)
    else:
        state, facts = states.replay(record, step)
    observation = state.observation(None)
    told = {"turns": facts.turns} if turns else {}
    return {
        "game": record["game"],
        "config": state.game.config,
        "step": step,
        "steps": total,
        "action": record["actions"][step - 1] if step else None,
        "actors": facts.actors,
        "current_player": state.current_player(),
        "terminal": state.is_terminal(),
        "scores": state.scores(),
        "winners": state.winners(),
        "observation": observation,
        "svg": _svg(record["game"], observation) if svg else None,
        "breakdown": _breakdown(state),
        **told,
    }


POSTED: dict[str, Any] = {
    "type": "object",
    "required": ["record"],
    "properties": {
        "record": {"type": "object", "description": "a game record: game, config, seed, actions"},
        "step": {"type": "integer", "minimum": 0, "default": 0, "description": "actions replayed"},
        "svg": {"type": "boolean", "default": True, "description": "false: no board drawn"},
        "turns": {"type": "boolean", "default": False, "description": "true: the record told by turns too"},
    },
}


def _posted(body: bytes) -> tuple[Any, Any, bool, bool]:
    """The record, step, svg and turns of a posted body; RecordError (JSON's own error if malformed)."""
    try:
        data = json.loads(body)
    except RecursionError:
        raise json.JSONDecodeError("nested too deep", "", 0) from None
    if not isinstance(data, dict) or "record" not in data:
        raise RecordError("the body must be a JSON object with a record (and a step, and svg)")
    svg, turns = data.get("svg", True), data.get("turns", False)
    if not isinstance(svg, bool):
        raise RecordError("svg must be true or false")
    if not isinstance(turns, bool):
        raise RecordError("turns must be true or false")
    return data["record"], data.get("step", 0), svg, turns


def replay_body(answer: dict[str, Any]) -> bytes:
    """A replay answer as JSON, refused (RecordError) beyond ``MAX_ANSWER_BYTES``."""
    body = orjson.dumps(answer, option=orjson.OPT_NON_STR_KEYS)
    if len(body) > MAX_ANSWER_BYTES:
        raise RecordError(
            f"the view after step {answer['step']} is {len(body)} bytes, "
            f"more than the {MAX_ANSWER_BYTES} a replay answer may be"
        )
    return body


def _breakdown(state: Any) -> list[dict[str, Any]] | None:
    """Each seat's score by category, for games whose state can tell it (a replay is public)."""
    explain = getattr(state, "score_breakdown", None)
    if not callable(explain):
        return None
    return [explain(seat) for seat in range(state.game.num_players)]


async def _caller(request: Request) -> Any:
    """The seat token of an ``Authorization: Bearer`` header, else the session's account (a signed-in
    player's page holds no token): ``ludus.server.auth.caller_of``. None on a server without games."""
    from ludus.server.auth import caller_of

    return None if getattr(request.app.state, "service", None) is None else await caller_of(request)


def mount(app: FastAPI) -> None:
    """Add the client's pages, static files and helper endpoints to ``app``."""
    from .meta import mount_meta  # beside: it draws with this module's helpers

    _mount_pages(app)
    mount_meta(app)
    _mount_boards(app)
    _mount_replays(app)

    @app.get("/plugins/{game}/{name}", include_in_schema=False)
    def plugin_file(game: str, name: str) -> Response:
        """A file of the folders of a game's declared browser files (``Hooks.browser``, ``styles``,
        ``rules``): its board module, the modules beside it, its styles and its rules summary."""
        path = game_file(game, name)
        if path is None:
            return _error(404, f"{game[:64]} has no browser file {name[:64]!r}")
        media = _MEDIA[path.suffix.lstrip(".")]
        return Response(path.read_bytes(), media_type=media, headers={"Cache-Control": "no-cache"})

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

    for path, name in (("/signin", "signin.html"), ("/me", "me.html"), ("/reset", "reset.html")):  # accounts
        app.add_api_route(path, _static_page(name), include_in_schema=False, methods=["GET"])
    # leaderboards and players' pages (ludus.server.routes_social); the page reads its name from the path
    for path, name in (
        ("/ratings", "ratings.html"),
        ("/ratings/{game}", "ratings.html"),
        ("/players/{name}", "player.html"),
    ):
        app.add_api_route(path, _static_page(name), include_in_schema=False, methods=["GET"])


def _mount_boards(app: FastAPI) -> None:
    """A seat's board as SVG, or as line edits of the board that seat was last sent."""
    cache = SvgCache()
    served: OrderedDict[tuple[str, int | None], tuple[int, str]] = OrderedDict()  # per game and seat
    served_lock = threading.Lock()

    @app.get(
        "/api/games/{game_id}/svg",
        response_class=Response,
        responses={200: {"content": {"image/svg+xml": {}}}, 404: {}, 409: {}},
        summary="The board (SVG) of the seat view of the token (or of the session's account), else the spectator view",
    )
    def game_svg(
        game_id: str,
        request: Request,
        who: Annotated[Any, Depends(_caller)],
        version: Annotated[
            int | None,
            Query(
                ge=0,
                le=2**62,
                description="the version of the view being drawn: 409 if the game never had it or undid it",
            ),
        ] = None,
        ply: Annotated[
            int | None,
            Query(
                ge=0,
                le=2**62,
                description="that view's ply: with it, a view the game has since moved on from is drawn as it was",
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
        view = service.view(game_id, who)
        if version is not None and view["version"] != version:
            past = view_at(service, game_id, who, version, ply)  # bots moved on meanwhile
            if past is None:
                return _error(409, f"the game is at version {view['version']}, not {version}")
            view = past
        try:
            svg = cache.svg(view["game"], view["observation"])
        except ValueError as exc:  # the game's renderer failed on the server's own view: its bug, said so
            log.error("%s: the renderer could not draw game %s's board: %s", view["game"], game_id, exc)
            return _error(404, f"{view['game']} could not draw this board ({exc}); the page draws its own")
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


REPLAY_SECONDS = 5.0  # a step's budget in a worker (a 2,000-action record replays in well under it)
REPLAYS_WAITING = 8  # replay steps waiting for a worker at once; one more is told to come back (503)
_STATES = ReplayStates()  # the few replayed states of this process (a pool worker's own)


def replay_answer(
    body: bytes | None, record: Any, step: Any, svg: bool, gzip: bool, turns: bool = False
) -> tuple[int, bytes]:
    """A replay step's answer, made in a bot pool worker (``botpool.call_job``): (200, its JSON,
    gzipped if asked), or (400 / 422, the reason). ``body``: a posted request, parsed here (the
    server's own process never spends time on it)."""
    try:
        if body is not None:
            record, step, svg, turns = _posted(body)
        answer = replay_body(replay_step(record, step, svg, _STATES, turns))
    except json.JSONDecodeError as exc:
        return 400, f"malformed JSON: {exc}".encode()
    except ValueError as exc:  # RecordError among them
        return 422, str(exc).encode()
    return 200, gzip_module.compress(answer, compresslevel=6) if gzip else answer


def _mount_replays(app: FastAPI) -> None:
    """A finished game's or a posted record's public view, one step per answer (``replay_step``),
    made in the bots' worker processes (``replay_answer``) under one host of the fair queue: all
    replays together get one share of the pool, and the server's own process none of the work."""
    waiting = [0]  # steps waiting for the pool (changed on the event loop only)

    async def replayed(
        request: Request, body: bytes | None, record: Any, step: Any, svg: bool, turns: bool = False
    ) -> Response:
        """The step's answer from the pool; 503 with Retry-After while more steps wait than it takes."""
        gzip = "gzip" in (request.headers.get("accept-encoding") or "")
        args = (body, record, step, svg, gzip, turns)
        pool = getattr(getattr(request.app.state, "automation", None), "pool", None)
        if waiting[0] >= REPLAYS_WAITING:
            return _busy("the server is busy replaying: try again in a moment")
        waiting[0] += 1
        try:
            if pool is None:  # the client mounted on an app of its own, without the server's pool
                status, content = await asyncio.to_thread(replay_answer, *args)
            else:
                job = call_job("replays", "replays", "ludus.web.routes:replay_answer", args, REPLAY_SECONDS)
                try:
                    status, content = await asyncio.wait_for(asyncio.wrap_future(pool.submit(job)), 10.0)
                except (TimeoutError, BotFailed, RuntimeError, concurrent.futures.CancelledError):
                    job.done.cancel()
                    return _busy("the server could not replay this step now: try again in a moment")
        finally:
            waiting[0] -= 1
        if status != 200:
            return _error(status, content.decode())
        headers = {"Vary": "Accept-Encoding", **({"Content-Encoding": "gzip"} if gzip else {})}
        return Response(content, media_type="application/json", headers=headers)

    @app.get(
        "/api/games/{game_id}/replay",
        response_class=Response,
        summary="The public view after `step` actions of a finished game",
    )
    async def game_replay(
        game_id: str,
        request: Request,
        step: Annotated[str, Query(max_length=12, description="an integer 0..the record's actions")] = "0",
        svg: Annotated[bool, Query(description="false: no board drawn (a page that draws its own)")] = True,
        turns: Annotated[
            bool, Query(description="true: the record told by turns too (the move log)")
        ] = False,
    ) -> Response:
        service = getattr(request.app.state, "service", None)
        if service is None:
            return _error(404, "this server holds no games")
        wanted = int(step) if _INTEGER.fullmatch(step) else step
        record = await asyncio.to_thread(service.record, game_id)
        return await replayed(request, None, record, wanted, svg, turns)

    @app.get("/api/games/{game_id}/replay/all", include_in_schema=False)
    async def whole_replay_gone(game_id: str) -> JSONResponse:
        """Once every step in one answer (up to 11 MB): now one step per answer."""
        return _error(410, "a whole replay is no longer sent at once: ask ?step=N for each step (0..steps)")

    @app.post(
        "/api/replay",
        response_class=Response,
        summary="The public view after `step` actions of a record (e.g. a record file)",
        openapi_extra={
            "requestBody": {"required": True, "content": {"application/json": {"schema": POSTED}}}
        },
    )
    async def post_replay(request: Request) -> Response:
        """Replay a posted record to ``step`` (an integer 0..its actions) and return the public view
        there. The record is checked action by action by the engine (at most ``MAX_RECORD_ACTIONS``,
        in a body of at most 64 KiB): everything drawn is the server's own replay, never a posted
        observation. The body is parsed in the worker, once a place there is had: a request refused
        while the server is busy costs it no parsing."""
        return await replayed(request, await request.body(), None, None, True)
