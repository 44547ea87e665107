"""The conformance kit's server half: every route a game gets answers, for any game on the contract.

``check_routes("mygame")`` starts a server of its own (the whole app: ``ludus.server.create_app``
over a temporary SQLite file, in this process, its bots and replays in their worker processes),
plays one game through the HTTP routes a person's browser uses, with a bot seat and human seats
driven by random legal moves, and checks each answer: the metadata and the game's browser files,
the lobby and joining, the game page, every view, the board (SVG, or a 404 that says why), hints,
a refused move, the record, replay steps and a posted replay. No route may answer 5xx; each that
answers wrong is named in one ``ConformanceError``. The rules and hooks are checked by
``ludus.engine.conformance`` (``check_game``, ``check_hooks``); this half needs the server extra.

A plugin's observation need carry nothing but its own fields: the routes find the game by its name
in the game's row or record, never in the observation.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path
from typing import Any

import ludus
from ludus.engine.conformance import ConformanceError
from ludus.engine.registry import game_class

BOT = "random"  # the bot seat: quick, and any game's legal moves are its moves
BOT_WAIT = 60.0  # a bot seat that has not moved this long after its turn came has failed
BUSY_TRIES = 5  # a 503 (busy, with Retry-After) is asked again this many times before it counts as failed
GAMES = 5  # games played at most until a human seat has a decision to make (chance may end one first)
HINT = "GET /api/games/{id}/hint"  # asked on a human seat's first decision, with the other seat routes
MEDIA = {"board": "javascript", "styles": "css", "rules": "html"}  # /api/meta's files and their types


class Routes:
    """A test client that records the status of each route asked and every wrong answer."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.answered: dict[str, int] = {}
        self.failures: list[str] = []

    def ask(
        self,
        method: str,
        path: str,
        route: str,
        expect: tuple[int, ...] = (200,),
        token: str | None = None,
        **kw: Any,
    ) -> Any:
        """The answer to ``method path`` if its status is one of ``expect``, else None (failure noted
        under ``route``, the path with the game's id as ``{id}``)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for attempt in range(BUSY_TRIES):
            try:
                answer = self.client.request(method, path, headers=headers, **kw)
            except Exception as exc:  # the app failed past its own error handling
                self.fail(route, f"raised {type(exc).__name__}: {exc}")
                return None
            if answer.status_code != 503 or 503 in expect or attempt == BUSY_TRIES - 1:
                break
            time.sleep(0.2 * (attempt + 1))
        self.answered[route] = answer.status_code
        if answer.status_code not in expect:
            wanted = " or ".join(map(str, expect))
            self.fail(route, f"answered {answer.status_code}, not {wanted}: {answer.text[:200]}")
            return None
        return answer

    def json(self, method: str, path: str, route: str, *keys: str, **kw: Any) -> Any:
        """``ask``'s answer as JSON, which must be an object holding ``keys``; None (a failure) if not."""
        answer = self.ask(method, path, route, **kw)
        if answer is None:
            return None
        try:
            data = answer.json()
        except ValueError:
            self.fail(route, f"answered {answer.text[:80]!r}, not JSON")
            return None
        missing = [k for k in keys if not isinstance(data, dict) or k not in data]
        if missing:
            self.fail(route, f"answered without {', '.join(missing)}: {str(data)[:160]}")
            return None
        return data

    def fail(self, route: str, what: str) -> None:
        self.failures.append(f"{route} {what}")


def check_routes(
    name: str, options: dict[str, Any] | None = None, *, seed: int = 0, seconds: float = 300.0
) -> dict[str, int]:
    """Play one game of ``name`` (with ``options``, default the game's own) through every route a game
    gets, on a server of its own, and check each answer (another game, up to ``GAMES``, if chance ended
    one before any human seat had a decision to make). Returns the status each route answered;
    raises ``ConformanceError`` naming every route that answered wrong (a game not over within
    ``seconds`` is one of them)."""
    from fastapi.testclient import TestClient

    from ludus.server import create_app
    from ludus.server.settings import Settings

    options = dict(options or {})
    players = ludus.load_game(name, **options).num_players
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(  # one client plays every seat: the limits meant for strangers would refuse it
            bot_seconds=0.05,
            bot_pace=0,
            hint_seconds=0.2,
            create_rate="1000/minute",
            join_rate="1000/minute",
            bot_games_per_host=1000,
            open_tables_per_host=1000,
        )
        app = create_app(f"sqlite:///{Path(folder) / 'ludus.db'}", settings=settings)
        with TestClient(app, raise_server_exceptions=False) as client:
            routes = Routes(client)
            svg = _meta(routes, name)
            _lobby(routes, name, options, players)
            rng = random.Random(seed)
            for _ in range(GAMES):  # a game of chance may end before any human seat decides anything
                game_id = _play(routes, name, options, players, svg, rng, seconds)
                if game_id is None or HINT in routes.answered:
                    break
            else:
                routes.fail(
                    "playing",
                    f"no human seat had a decision to make in {GAMES} games of {name}: its routes went unasked",
                )
            if game_id is not None:
                _after(routes, game_id, name, svg)
    if routes.failures:
        raise ConformanceError(
            f"{name}: {len(routes.failures)} wrong answers:\n" + "\n".join(routes.failures)
        )
    return routes.answered


def _meta(routes: Routes, name: str) -> bool:
    """``/api/meta`` lists the game with its title and tagline, and the browser files it names are
    served; the lobby page loads. Whether the game draws SVG boards."""
    routes.ask("GET", "/", "GET /")
    meta = routes.json("GET", "/api/meta", "GET /api/meta", "games")
    entry = next((g for g in (meta or {}).get("games", []) if g.get("name") == name), None)
    if entry is None:
        routes.fail("GET /api/meta", f"does not list {name}")
        return False
    cls = game_class(name)
    if (entry.get("title"), entry.get("tagline")) != (cls.display_title(), cls.display_tagline()):
        routes.fail(
            "GET /api/meta",
            f"gives {name} the title and tagline {entry.get('title')!r}, {entry.get('tagline')!r}",
        )
    for key, media in MEDIA.items():
        url = entry.get(key)
        if url is not None:
            answer = routes.ask("GET", url, f"GET {url} ({key})")
            if answer is not None and media not in answer.headers.get("content-type", ""):
                routes.fail(f"GET {url}", f"is served as {answer.headers.get('content-type')}, not {media}")
    return bool(entry.get("svg"))


def _lobby(routes: Routes, name: str, options: dict[str, Any], players: int) -> None:
    """A table with every seat free is listed in the lobby, and a seat of it can be joined."""
    body = {"game": name, "options": options, "seats": ["human"] * players, "claim": []}
    table = routes.json(
        "POST", "/api/games", "POST /api/games (an open table)", "id", json=body, expect=(201,)
    )
    if table is None:
        return
    listed = routes.json("GET", "/api/games", "GET /api/games (the lobby)")
    if listed is not None and table["id"] not in {g.get("id") for g in listed}:
        routes.fail("GET /api/games (the lobby)", f"does not list the open table of {name}")
    routes.json("POST", f"/api/games/{table['id']}/join", "POST /api/games/{id}/join", "token", json={})


def _create(
    routes: Routes, name: str, options: dict[str, Any], players: int
) -> tuple[str, dict[int, str]] | None:
    """A game with a bot seat (seat 1, if there are two seats or more) and human seats, seat 0 claimed
    and the others joined; its id and the human seats' tokens."""
    seats = ["human", BOT, *["human"] * (players - 2)] if players > 1 else ["human"]
    body = {"game": name, "options": options, "seats": seats, "claim": [0]}
    created = routes.json("POST", "/api/games", "POST /api/games", "id", "seats", json=body, expect=(201,))
    if created is None:
        return None
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s.get("token")}
    for _ in seats[2:]:
        joined = routes.json(
            "POST", f"/api/games/{game_id}/join", "POST /api/games/{id}/join", "token", json={}
        )
        if joined is not None:
            tokens[joined["seat"]] = joined["token"]
    return game_id, tokens


def _play(
    routes: Routes,
    name: str,
    options: dict[str, Any],
    players: int,
    svg: bool,
    rng: random.Random,
    seconds: float,
) -> str | None:
    """Play a game to its end by random legal moves of the human seats (the bot plays its own), asking
    on the way for the game page, every seat's view and the spectator's, each human seat's board and a
    hint on its first turn, and a refused move. The game's id, None if it could not be played."""
    made = _create(routes, name, options, players)
    if made is None:
        return None
    game_id, tokens = made
    base = f"/api/games/{game_id}"
    routes.ask("GET", f"/games/{game_id}", "GET /games/{id} (the game page)")
    _board(routes, game_id, svg, None)
    seen: set[int] = set()
    deadline, waited = time.monotonic() + seconds, 0.0
    while (view := routes.json("GET", base, "GET /api/games/{id}", "terminal", "observation")) is not None:
        if view["terminal"]:
            return game_id
        if time.monotonic() > deadline:
            routes.fail("playing", f"the game of {name} was not over after {seconds:g} s")
            return None
        token = tokens.get(view["current_player"])
        if token is None:  # the bot's turn: the server plays it
            if (waited := waited or time.monotonic()) < time.monotonic() - BOT_WAIT:
                routes.fail("playing", f"the bot seat of {name} did not move within {BOT_WAIT:g} s")
                return None
            time.sleep(0.01)
            continue
        waited = 0.0
        mine = routes.json("GET", base, "GET /api/games/{id} (a seat's view)", "legal_actions", token=token)
        if mine is None or not mine["legal_actions"]:
            routes.fail("GET /api/games/{id} (a seat's view)", "offers the seat to move no legal action")
            return None
        if view["current_player"] not in seen:
            seen.add(view["current_player"])
            _first_turn(routes, game_id, svg, token, mine)
        move = {"action": rng.choice(mine["legal_actions"]), "version": mine["version"]}
        if (
            routes.ask("POST", f"{base}/actions", "POST /api/games/{id}/actions", json=move, token=token)
            is None
        ):
            return None
    return None


def _first_turn(routes: Routes, game_id: str, svg: bool, token: str, view: dict[str, Any]) -> None:
    """A seat's board, a hint for its move, and a move that is not notation refused with a reason."""
    base = f"/api/games/{game_id}"
    _board(routes, game_id, svg, token)
    hint = routes.json("GET", f"{base}/hint", HINT, "hints", token=token)
    if hint is not None and not {h.get("action") for h in hint["hints"]} <= set(view["legal_actions"]):
        routes.fail(HINT, f"hints moves that are not legal: {hint['hints']}")
    refused = {"action": "not a move \u00e9", "version": view["version"]}
    routes.ask(
        "POST", f"{base}/actions", "POST /api/games/{id}/actions (not notation)", (422,), token, json=refused
    )


def _board(routes: Routes, game_id: str, svg: bool, token: str | None, when: str = "") -> None:
    """The board of a seat's view (a spectator's without a token): SVG where the game draws it, else a
    404 whose reason says so."""
    route = "GET /api/games/{id}/svg" + (" (a seat's)" if token else "") + when
    answer = routes.ask("GET", f"/api/games/{game_id}/svg", route, (200,) if svg else (404,), token)
    if answer is None:
        return
    if svg and not answer.text.lstrip().startswith(("<svg", "<?xml")):
        routes.fail(route, f"answered {answer.text[:80]!r}, not an SVG board")
    if not svg and "svg" not in answer.json().get("detail", "").lower():
        routes.fail(route, f"answered 404 without saying there is no SVG board: {answer.text[:120]}")


def _after(routes: Routes, game_id: str, name: str, svg: bool) -> None:
    """Once the game is over: its record, replay steps from the start to the end (and one past it
    refused), a posted replay of the record, the final board, the game page and the replay page."""
    base = f"/api/games/{game_id}"
    record = routes.json("GET", f"{base}/record", "GET /api/games/{id}/record", "game", "actions")
    if record is None:
        return
    if record["game"] != name:
        routes.fail("GET /api/games/{id}/record", f"names the game {record['game']!r}, not {name!r}")
    total = len(record["actions"])
    for step in sorted({0, 1, total // 2, total} & set(range(total + 1))):
        route = f"GET /api/games/{{id}}/replay?step={step}"
        answer = routes.json("GET", f"{base}/replay?step={step}", route, "observation", "svg", "terminal")
        if answer is not None and (answer["svg"] is not None) != svg:
            drawn = "a board" if answer["svg"] is not None else "no board"
            routes.fail(route, f"answered {drawn} for a game whose /api/meta says svg={str(svg).lower()}")
        if answer is not None and answer["terminal"] != (step == total):
            routes.fail(route, f"answered terminal={answer['terminal']} at step {step} of {total}")
    routes.ask("GET", f"{base}/replay?step={total + 1}", "GET /api/games/{id}/replay (past the end)", (422,))
    routes.json(
        "POST", "/api/replay", "POST /api/replay", "observation", json={"record": record, "step": total}
    )
    _board(routes, game_id, svg, None, " (over)")
    routes.ask("GET", f"/games/{game_id}", "GET /games/{id} (the game page, over)")
    routes.ask("GET", f"/replay?game={game_id}", "GET /replay?game={id} (the replay page)")
