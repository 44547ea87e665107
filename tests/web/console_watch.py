"""Page errors and console errors of browser pages, for the tests that must leave a clean console.

A failed request is a console error even when the page handles it. The one error a page may log:
a guest's 401 from an account route (the page asks who is signed in)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

ACCOUNT_ROUTE = re.compile(r"^/api/me(/[a-z]+)?$")


def allowed(msg) -> bool:
    """A guest's 401 from an account route, and nothing else."""
    url = urlsplit(msg.location.get("url") or "")
    return msg.text.startswith("Failed to load resource: the server responded with a status of 401") and bool(
        ACCOUNT_ROUTE.match(url.path)
    )


def watch_console(context, errors: list[str]) -> None:
    """Record into ``errors`` every page error and console error (but ``allowed``) of ``context``'s pages."""

    def on_console(msg) -> None:
        if msg.type == "error" and not allowed(msg):
            errors.append(f"console: {msg.text} ({msg.location.get('url')})")

    context.on("console", on_console)
    context.on("weberror", lambda error: errors.append(f"page error: {error.error}"))
