"""Browser tests: the real server (uvicorn on a free loopback port, a temporary SQLite file) and
Debian's Chromium driven by Playwright. Never downloads a browser."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser_helpers import serving
from console_watch import watch_console

CHROMIUM = os.environ.get("LUDUS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


@pytest.fixture(scope="module")
def client():
    """The browser client's routes alone (``ludus.web.mount`` on a bare FastAPI app), in-process."""
    import fastapi
    from fastapi.testclient import TestClient

    from ludus.web import mount

    app = fastapi.FastAPI()
    mount(app)
    return TestClient(app)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """Base URL of a live ludus server with the web client mounted."""
    from ludus.server.app import create_app
    from ludus.server.settings import Settings

    db = tmp_path_factory.mktemp("web") / "ludus.db"

    # one browser for every test: the per-address limits meant for strangers would refuse it
    app = create_app(
        f"sqlite:///{db}",
        settings=Settings(
            bot_seconds=0.2,
            create_rate="10000/minute",
            join_rate="10000/minute",
            ws_per_client=10000,
            bot_games_per_host=10000,
            open_tables_per_host=10000,
            lobby_per_host=10000,
        ),
    )
    with serving(app) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright import sync_api

    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(
                f"no Chromium at {CHROMIUM}: scripts/setup installs it from scripts/system-packages.txt"
            )
        pytest.skip(
            f"no Chromium at {CHROMIUM}: apt-get install chromium (scripts/system-packages.txt lists it)"
        )
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def context(browser):
    # Playwright's wait_for_function evaluates its predicate with eval(), which the pages' CSP
    # forbids: these tests lift the policy; the ``strict_page`` tests hold it and poll instead.
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    return pg


@pytest.fixture
def strict_page(browser):
    """A page under the server's Content-Security-Policy as sent, recording script errors
    (``js_errors``) and failing its test on any breach of the policy (an inline script or style,
    anything from another origin). Wait with ``browser_helpers.poll``, not wait_for_function."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(15_000)
    pg = ctx.new_page()
    errors: list[str] = []
    violations: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on(
        "console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None
    )
    pg.js_errors = errors
    pg.csp_violations = violations
    yield pg
    ctx.close()
    assert violations == [], violations


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


# -- a clean console --------------------------------------------------------------------------
# Whole browser games (tests named test_whole_*, and tests marked clean_console) fail on any page
# error or console error of any page they open (console_watch.py says which one error is allowed).
# Every page is watched through its context, whoever made it.
def pytest_configure(config):
    config.addinivalue_line(
        "markers", "clean_console: fail the test on any page error or console error (test_whole_* are marked)"
    )


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if item.name.startswith("test_whole_") and here in item.path.parents:
            item.add_marker(pytest.mark.clean_console)


@pytest.fixture(autouse=True)
def console_errors(request, monkeypatch) -> list[str]:
    """The page and console errors of every browser context a clean_console test opens."""
    errors: list[str] = []
    if request.node.get_closest_marker("clean_console") is None:
        return errors
    from playwright.sync_api import Browser

    opened = Browser.new_context

    def new_context(self, *args, **kwargs):
        context = opened(self, *args, **kwargs)
        watch_console(context, errors)
        return context

    monkeypatch.setattr(Browser, "new_context", new_context)
    request.node.console_errors = errors
    return errors


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A clean_console test whose pages logged an error fails, after its own checks passed."""
    result = yield
    errors = getattr(item, "console_errors", None)
    if errors:
        raise AssertionError(f"{len(errors)} errors in the browser console:\n" + "\n".join(errors[:20]))
    return result
