"""Every SVG renderer escapes what it writes: hostile strings anywhere in an observation or its
options either make the renderer refuse or come out as plain attribute values and text.

Each leaf (and each key) of real observations is replaced in turn by strings that would end an
attribute or open an element if written unescaped; the output must parse as XML and use only
the elements and attributes the renderer writes for a real observation.
"""

from __future__ import annotations

import copy
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

import ludus
from ludus.engine.hooks import hook

HOSTILE = [
    '" onmouseover="alert(1)',
    "' onmouseover='alert(1)",
    "<script>alert(1)</script>",
    '"><script>alert(1)</script><g x="',
    "]]><foreignObject/>",
]


def _renderers() -> list[tuple[str, Any]]:
    """The SVG renderer of every installed game that declares one (a declared one that cannot be
    loaded raises: never a silent skip)."""
    found = []
    for name in ludus.game_names():
        render = getattr(hook(name, "renderer"), "render_svg", None)
        if render is not None:
            found.append((name, render))
    return found


def _observations(game: str) -> list[dict[str, Any]]:
    """The spectator's and the mover's observation at the start and part way through a random game."""
    state = ludus.load_game(game).new_initial_state(seed=3)
    rng = random.Random(3)
    out = []
    for _ in range(2):
        seat = state.current_player()
        out.append(state.observation(None))
        if seat >= 0:
            out.append(state.observation(seat))
        for _ in range(40):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def _paths(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, bool]]:
    """Every leaf's path (False) and every dict key's path (True)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key), True
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))
    else:
        yield path, False


def _replaced(obs: dict[str, Any], path: tuple, is_key: bool, text: str) -> dict[str, Any]:
    out = copy.deepcopy(obs)
    holder = out
    for step in path[:-1]:
        holder = holder[step]
    last = path[-1]
    if is_key:
        holder[text] = holder.pop(last)
    elif isinstance(holder, str):  # a character of a string row (e.g. a row of the fish grid)
        pass
    else:
        holder[last] = text
    return out


def _shape(svg: str) -> tuple[set[str], set[str]]:
    root = ET.fromstring(svg)
    tags, attrs = set(), set()
    for element in root.iter():
        tags.add(element.tag)
        attrs.update(element.attrib)
    return tags, attrs


def _vocabulary(render: Any, observations: list[dict[str, Any]]) -> tuple[set[str], set[str]]:
    """The elements and attributes the renderer writes for real observations."""
    tags, attrs = set(), set()
    for obs in observations:
        more_tags, more_attrs = _shape(render(obs))
        tags |= more_tags
        attrs |= more_attrs
    return tags, attrs


def _check(svg: str, tags: set[str], attrs: set[str]) -> None:
    got_tags, got_attrs = _shape(svg)  # raises if the output is not well-formed XML
    assert got_tags <= tags, got_tags - tags
    assert got_attrs <= attrs, got_attrs - attrs
    assert not any(a.lower().startswith("on") for a in got_attrs)


@pytest.mark.parametrize(("game", "render"), _renderers(), ids=[name for name, _ in _renderers()])
def test_hostile_strings_anywhere_in_an_observation_never_become_markup(game, render):
    rendered = 0
    observations = _observations(game)
    tags, attrs = _vocabulary(render, observations)
    for obs in observations:
        for i, (path, is_key) in enumerate(_paths(obs)):
            if not path:
                continue
            text = HOSTILE[i % len(HOSTILE)]  # each field gets one, every string goes to many fields
            try:
                svg = render(_replaced(obs, path, is_key, text))
            except Exception:  # noqa: BLE001 - refusing a malformed observation is fine
                continue
            _check(svg, tags, attrs)
            rendered += 1
    assert rendered > 50  # most fields do reach the output


@pytest.mark.parametrize(("game", "render"), _renderers(), ids=[name for name, _ in _renderers()])
def test_hostile_strings_in_render_options_never_become_markup(game, render):
    observations = _observations(game)
    obs = observations[-1]
    tags, attrs = _vocabulary(render, observations)
    for option in ("size", "width", "highlight"):
        for text in HOSTILE:
            try:
                svg = render(obs, **{option: text})
            except Exception:  # noqa: BLE001
                continue
            _check(svg, tags, attrs)


def test_a_quote_in_an_attribute_value_is_escaped():
    from ludus.games.garum.render import render_svg

    obs = _observations("garum")[-1]
    fish = [row for row in obs["fish"] if any(ch not in " ." for ch in row)][0]
    r = obs["fish"].index(fish)
    c = next(i for i, ch in enumerate(fish) if ch not in " .")
    obs["fish"] = [list(row) for row in obs["fish"]]
    obs["fish"][r][c] = '" onmouseover="alert(1)'
    svg = render_svg(obs)
    assert 'data-species="&quot; onmouseover=&quot;alert(1)"' in svg
    node = next(e for e in ET.fromstring(svg).iter() if e.get("data-species", "").startswith('"'))
    assert node.get("data-species") == '" onmouseover="alert(1)' and node.get("onmouseover") is None
