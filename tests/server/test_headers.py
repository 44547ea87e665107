"""Protective headers on every answer, pages without inline script or style, docs served locally.

Every page and API answer sends Content-Security-Policy (this origin only, no inline script,
never framed), Referrer-Policy: no-referrer and X-Content-Type-Options: nosniff; the pages
hold nothing the policy would block; /docs loads Swagger UI from this server, not a CDN.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ludus.server import create_app
from ludus.server.settings import Settings
from ludus.web import STATIC_DIR


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("headers") / "ludus.db"
    with TestClient(create_app(f"sqlite:///{db}", settings=Settings(bot_seconds=0.05))) as c:
        yield c


def _directives(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


PATHS = [
    "/",
    "/replay",
    "/games/abc",
    "/docs",
    "/docs/start.js",
    "/static/js/game.js",
    "/static/css/ludus.css",
    "/api/games",
    "/api/meta",
    "/openapi.json",
    "/api/games/nothing",
    "/no/such/page",
]


@pytest.mark.parametrize("path", PATHS)
def test_every_answer_sends_the_protective_headers(client, path):
    answer = client.get(path)
    assert answer.status_code in (200, 404)
    policy = _directives(answer.headers["content-security-policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert not any("unsafe" in word for words in policy.values() for word in words)
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_refusals_and_errors_send_them_too(client):
    for answer in (
        client.post("/api/games", content=b"{", headers={"content-type": "application/json"}),
        client.post("/api/games", content=b"x" * 70_000, headers={"content-type": "application/json"}),
        client.get("/api/games/nothing"),
    ):
        assert answer.status_code >= 400
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        assert answer.headers["x-content-type-options"] == "nosniff"


def test_api_answers_are_not_cached(client):
    created = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"]})
    assert created.headers["cache-control"] == "no-store"  # it carries the seat tokens


class _Inline(HTMLParser):
    """Collects what a strict CSP would block in a page: inline scripts, handlers, style."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.sources: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in attrs:
            if name.startswith("on") or name == "style":
                self.found.append(f"<{tag} {name}=...>")
        if tag == "style":
            self.found.append("<style>")
        if tag == "script":
            self._in_script = "src" not in attrs
        for name in ("src", "href"):
            if attrs.get(name):
                self.sources.append(attrs[name])

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.found.append(f"inline script: {data.strip()[:40]}")


def _page_texts(client) -> dict[str, str]:
    pages = {f"static/{p.name}": p.read_text() for p in Path(STATIC_DIR).glob("*.html")}
    pages["/docs"] = client.get("/docs").text
    return pages


def test_no_page_holds_inline_script_handlers_or_style(client):
    for name, text in _page_texts(client).items():
        parser = _Inline()
        parser.feed(text)
        assert parser.found == [], name


def test_no_page_loads_from_another_origin(client):
    for name, text in _page_texts(client).items():
        parser = _Inline()
        parser.feed(text)
        foreign = [s for s in parser.sources if "//" in s or s.startswith("http")]
        assert foreign == [], name


def test_the_api_docs_assets_are_served_here(client):
    page = client.get("/docs")
    assert page.status_code == 200 and "swagger-ui-bundle.js" in page.text
    for asset in ("/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css", "/docs/start.js"):
        answer = client.get(asset)
        assert answer.status_code == 200 and len(answer.content) > 30, asset
    assert client.get("/redoc").status_code == 404  # ReDoc would come from a CDN: not offered


def test_no_script_or_style_attribute_is_written_by_the_page_scripts():
    """The CSP forbids style attributes: the client's scripts set classes, never style="..."."""
    for path in Path(STATIC_DIR, "js").glob("*.js"):
        text = path.read_text()
        assert "style:" not in text and 'setAttribute("style"' not in text, path.name
