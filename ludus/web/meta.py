"""``/api/meta``: the installed games, their options in a player's words, the bots by level, and
each game's board preview (``/api/meta/{game}/preview.svg``) drawn for the lobby's game cards."""

from __future__ import annotations

import functools
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response

import ludus
from ludus.engine import OptionError
from ludus.engine.registry import game_class
from ludus.server.patches import svg_response

from .routes import _error, _file_url, _help, _renderer, _svg

log = logging.getLogger("ludus.web")

PREVIEW_SEED = 0  # the same deal every time: a preview is drawn once per process


def meta() -> dict[str, Any]:
    """Games with every option (name, choices, default, doc, the words the lobby shows and the
    choices valid for each player count), the bots a seat may hold and the named strength levels."""
    from ludus import bots
    from ludus.bots.levels import describe

    games = []
    for name in ludus.game_names():
        cls = game_class(name)
        default = ludus.load_game(name)
        has_svg = _renderer(name) is not None
        games.append(
            {
                "name": name,
                "title": cls.display_title(),
                "tagline": cls.display_tagline(),
                "doc": cls.display_tagline(),
                "options": [_option(cls, o) for o in cls.options],
                "default_players": default.num_players,
                "svg": has_svg,
                # only a drawing there is (made once): a card never asks for one that fails
                "preview": f"/api/meta/{name}/preview.svg" if has_svg and preview(name) is not None else None,
                "help": _help(name),
                "board": _file_url(name, "browser"),
                "styles": _file_url(name, "styles"),
                "rules": _file_url(name, "rules"),
            }
        )
    return {"games": games, "bots": bots.names(), "levels": describe()}


def _option(cls: Any, option: Any) -> dict[str, Any]:
    """An option as the lobby shows it: ``label`` and one of ``choice_labels`` per choice, the
    game's own words or, where it gives none, the name and values as they are written."""
    words = tuple(option.choice_labels)
    return {
        "name": option.name,
        "choices": list(option.choices),
        "default": option.default,
        "doc": option.doc,
        "label": option.label or option.name.replace("_", " "),
        "choice_labels": [
            (words[i] if i < len(words) and words[i] else _value_words(choice))
            for i, choice in enumerate(option.choices)
        ],
        "advanced": option.advanced,
        **_valid_by_players(cls, option),
    }


def _value_words(value: Any) -> str:
    """A value without words of its own, as the lobby always showed it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


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


@functools.cache
def preview(name: str) -> str | None:
    """The board of a fresh game of ``name``'s default configuration, as its renderer draws it for
    the spectators; None if it draws none or fails (a card without a drawing, never an error).
    Drawn once per process: ``name`` is always an installed game's (``mount_meta`` checks)."""
    if _renderer(name) is None:
        return None
    try:
        state = ludus.load_game(name).new_initial_state(seed=PREVIEW_SEED)
        return _svg(name, state.observation(None))
    except Exception as exc:  # a plugin's failure costs its card the drawing, not the lobby
        log.error("%s: the lobby's preview of a fresh board could not be drawn: %s", name, exc)
        return None


def mount_meta(app: FastAPI) -> None:
    """``GET /api/meta`` and ``GET /api/meta/{game}/preview.svg``."""

    @app.get("/api/meta")
    def get_meta() -> dict[str, Any]:
        return meta()

    @app.get(
        "/api/meta/{game}/preview.svg",
        response_class=Response,
        responses={200: {"content": {"image/svg+xml": {}}}, 404: {}},
        summary="A drawing of a fresh board of the game's default configuration (the lobby's game card)",
    )
    def get_preview(game: str, request: Request) -> Response:
        if game not in ludus.game_names():
            return _error(404, f"no game named {game[:64]!r} is installed")
        svg = preview(game) if _renderer(game) is not None else None
        if svg is None:
            return _error(404, f"{game} draws no board preview")
        response = svg_response(svg, request.headers.get("accept-encoding"))
        response.headers["Cache-Control"] = "public, max-age=3600"
        return response
