"""Who a request comes from, beyond a seat token: the session cookie of a signed-in account, and the rule
that a change made with that cookie comes from this site's own pages.

The cookie ``ludus_session`` holds an opaque random id (``sessions``); it is ``HttpOnly`` (no script
reads it), ``SameSite=Lax`` (other sites' forms and scripts do not send it), ``Path=/`` and ``Secure``
when the request came over https (as uvicorn's proxy-header handling tells it, from a trusted proxy).
Beside it, ``ludus_signed_in=1`` (readable by the pages, secret of nothing) tells the pages that a
session may be there, so that a guest's page never asks ``GET /api/me`` only to be told 401.

A change (POST, PUT, PATCH, DELETE under ``/api/``) sent with the cookie and without a seat token, or
any sign-in, sign-up or password reset, is refused 403 unless it is same-origin: its ``Origin`` is the
request's own origin (or ``Settings.public_url``'s), or, without ``Origin``, its ``Sec-Fetch-Site`` is
``same-origin`` or ``none``. A request with neither header comes from no browser (browsers send one
of them with every such request), so no other site can have made it: it passes, as API clients do.
A request with ``Authorization: Bearer`` is a seat token's and is unchanged: another site's page cannot
add that header without the server's CORS consent, which it never gives.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, Request, Response
from fastapi.security import APIKeyCookie
from starlette.datastructures import Headers
from starlette.requests import HTTPConnection, cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from .caller import NOBODY, Account, Caller
from .errors import Unauthorized
from .hub import JSONResponse
from .middleware import HttpOnly
from .routing import Token, run, seat_token
from .sessions import MISSING, Sessions

COOKIE = "ludus_session"
HINT_COOKIE = "ludus_signed_in"  # no secret: lets the pages skip asking who is signed in when nobody is
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# changes that need no session but must come from this site's pages all the same (no one may be signed
# in to another's account by another site's form)
ACCOUNT_PATHS = frozenset(
    {"/api/accounts", "/api/session", "/api/password-reset", "/api/password-reset/confirm"}
)
NOT_SIGNED_IN = "not signed in: sign in first (POST /api/session)"

SESSION = APIKeyCookie(
    name=COOKIE,
    auto_error=False,
    scheme_name="session",
    description="the session cookie set by signing in or up (HttpOnly, SameSite=Lax); changes made with it "
    "must come from this site's pages (Origin), else 403",
)
SessionCookie = Annotated[str | None, Depends(SESSION)]
# the routes of play: a seat token, or the session of an account holding a seat of the game
SEAT_SECURITY: dict[str, Any] = {"security": [{"HTTPBearer": []}, {"session": []}]}


def sessions_of(conn: HTTPConnection) -> Sessions:
    return conn.app.state.sessions  # type: ignore[no-any-return]


async def account_for(sessions: Sessions, session_id: str | None) -> Account | None:
    """The signed-in account of ``session_id`` (None: none): from memory when it was seen lately, else
    from the database in a worker thread."""
    if not session_id:
        return None
    found = sessions.cached(session_id)
    if found is MISSING:
        return await run(sessions.lookup, session_id)
    return found  # type: ignore[return-value]


async def account_of(conn: HTTPConnection) -> Account | None:
    """The account signed in with this request's (or WebSocket's) session cookie, if any."""
    return await account_for(sessions_of(conn), conn.cookies.get(COOKIE))


async def caller_of(conn: HTTPConnection) -> Caller:
    """The request's credentials: its seat token if it sends one (then the session is not even looked
    up), else its session's account."""
    token = seat_token(conn)
    if token is not None:
        return Caller(token)
    if COOKIE not in conn.cookies:
        return NOBODY
    account = await account_of(conn)
    return NOBODY if account is None else Caller(None, account.id)


async def _who(request: Request, token: Token, session: SessionCookie) -> Caller:
    if token is not None:
        return Caller(token)
    account = await account_for(sessions_of(request), session)
    return NOBODY if account is None else Caller(None, account.id)


async def _signed_in(request: Request, session: SessionCookie) -> Account:
    account = await account_for(sessions_of(request), session)
    if account is None:
        raise Unauthorized(NOT_SIGNED_IN)
    return account


async def _maybe_signed_in(request: Request, session: SessionCookie) -> Account | None:
    return await account_for(sessions_of(request), session)


Who = Annotated[Caller, Depends(_who)]  # a route's caller: seat token, else session (documented as both)
SignedIn = Annotated[Account, Depends(_signed_in)]  # the signed-in account, else 401
MaybeSignedIn = Annotated[Account | None, Depends(_maybe_signed_in)]


def set_session_cookie(response: Response, request: HTTPConnection, session_id: str, seconds: float) -> None:
    """Set the session's cookie (and the pages' hint beside it) for ``seconds``."""
    secure = request.url.scheme in ("https", "wss")
    for name, value, http_only in ((COOKIE, session_id, True), (HINT_COOKIE, "1", False)):
        response.set_cookie(
            name, value, max_age=int(seconds), path="/", httponly=http_only, samesite="lax", secure=secure
        )


def clear_session_cookie(response: Response, request: HTTPConnection) -> None:
    secure = request.url.scheme in ("https", "wss")
    for name, http_only in ((COOKIE, True), (HINT_COOKIE, False)):
        response.delete_cookie(name, path="/", httponly=http_only, samesite="lax", secure=secure)


# -- same origin ---------------------------------------------------------------------------------------------
_DEFAULT_PORTS = {"http": "80", "https": "443"}


def origin_of(url: str | None) -> str | None:
    """``scheme://host[:port]`` of a URL, lower case, without its scheme's default port (None: none)."""
    if not url:
        return None
    parts = urlsplit(url.strip())
    scheme, netloc = parts.scheme.lower(), parts.netloc.lower()
    if netloc.endswith(f":{_DEFAULT_PORTS.get(scheme, '')}"):
        netloc = netloc.rsplit(":", 1)[0]
    return f"{scheme}://{netloc}" if scheme and netloc else None


def own_origin(scope: Scope, headers: Headers) -> str | None:
    """The origin the request was sent to: its scheme (https behind a trusted proxy that says so) and
    its Host header."""
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    host = headers.get("host")
    return None if not host else origin_of(f"{scheme}://{host}")


def same_origin(scope: Scope, public_origin: str | None = None) -> bool:
    """Whether a browser sent this request from this site's own pages (see the module's docstring)."""
    headers = Headers(scope=scope)
    origin = headers.get("origin")
    if origin is not None:
        found = origin_of(origin)
        return found is not None and found in (own_origin(scope, headers), public_origin)
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site.lower() in ("same-origin", "none")
    return True  # neither header: not a browser's request, so no other site's


def _with_session(headers: Headers) -> bool:
    return COOKIE in cookie_parser(headers.get("cookie", ""))


class SameOrigin(HttpOnly):
    """Refuse (403) a change made with the session cookie, or a sign-in, from another site's page."""

    def __init__(self, app: ASGIApp, public_url: str | None = None) -> None:
        super().__init__(app)
        self.public_origin = origin_of(public_url)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope.get("method") in UNSAFE_METHODS and path.startswith("/api/"):
            headers = Headers(scope=scope)
            if (
                "authorization" not in headers
                and (path in ACCOUNT_PATHS or _with_session(headers))
                and not same_origin(scope, self.public_origin)
            ):
                detail = (
                    "refused: a change made with the session cookie (or a sign-in) must come from this "
                    "site's own pages (its Origin or Sec-Fetch-Site says it does not); API clients send "
                    "their seat token instead"
                )
                await JSONResponse({"detail": detail}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)
