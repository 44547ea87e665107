"""The HTTP routes of accounts: sign up, in and out, the signed-in account (``/api/me``: its password, its
sessions, claiming a guest's seats, its games) and password resets."""

from __future__ import annotations

from fastapi import FastAPI, Request, Response

from . import schemas_accounts as bodies
from .account_games import AccountGames
from .accounts import Accounts
from .auth import SessionCookie, SignedIn, clear_session_cookie, set_session_cookie
from .caller import Account
from .hub import JSONResponse
from .limits import client_address
from .notices import Notices
from .routing import ERRORS, run

RESET_ANSWER = "if that account has an e-mail address, a reset link is on its way to it"


def add_account_routes(app: FastAPI, accounts: Accounts, account_games: AccountGames) -> None:
    """The routes over ``accounts`` (and its sessions) and ``account_games``."""
    sessions = accounts.sessions

    async def signed_in(
        request: Request, account: Account, session_id: str, status: int = 200
    ) -> JSONResponse:
        """The account's profile, with the cookie of its new session."""
        response = JSONResponse(await run(accounts.profile, account), status_code=status)
        set_session_cookie(response, request, session_id, sessions.seconds)
        return response

    @app.post(
        "/api/accounts",
        status_code=201,
        response_model=bodies.Me,
        responses=ERRORS,
        summary="Sign up: a new account, signed in (sets the session cookie); 409 for a name taken in any case",
    )
    async def sign_up(body: bodies.SignUp, request: Request) -> JSONResponse:
        address = client_address(request.scope)
        account, session_id = await run(accounts.sign_up, body.name, body.password, body.email, address)
        return await signed_in(request, account, session_id, 201)

    @app.post(
        "/api/session",
        response_model=bodies.Me,
        responses=ERRORS,
        summary="Sign in (sets the session cookie, a new one each time); 401 alike for any wrong name or password",
    )
    async def sign_in(body: bodies.SignIn, request: Request) -> JSONResponse:
        account, session_id = await run(
            accounts.sign_in, body.name, body.password, client_address(request.scope)
        )
        return await signed_in(request, account, session_id)

    @app.delete("/api/session", status_code=204, responses=ERRORS, summary="Sign out: this session ends")
    async def sign_out(request: Request, session: SessionCookie) -> Response:
        if session:
            await run(sessions.end, session)
        response = Response(status_code=204)
        clear_session_cookie(response, request)
        return response

    @app.get(
        "/api/me",
        response_model=bodies.Me,
        responses=ERRORS,
        summary="The signed-in account (401 without a session); the session cookie is sent again, for as long",
    )
    async def me(request: Request, account: SignedIn, session: SessionCookie) -> JSONResponse:
        response = JSONResponse(await run(accounts.profile, account))
        if session:  # the browser keeps it as long as the server does: both slide on with use
            set_session_cookie(response, request, session, sessions.seconds)
        return response

    @app.patch(
        "/api/me",
        response_model=bodies.Me,
        responses=ERRORS,
        summary="Change the signed-in account's settings: notify_email turns e-mail notices on or off",
    )
    async def change_me(body: bodies.MeChange, account: SignedIn) -> JSONResponse:
        return JSONResponse(await run(accounts.set_notices, account, body.notify_email))

    @app.post(
        "/api/me/password",
        response_model=bodies.Me,
        responses=ERRORS,
        summary="Change the password (the current one needed): every session ends, this browser gets a new one",
    )
    async def change_password(
        body: bodies.PasswordChange, request: Request, account: SignedIn
    ) -> JSONResponse:
        session_id = await run(accounts.change_password, account, body.current, body.password)
        return await signed_in(request, account, session_id)

    @app.post(
        "/api/me/sign-out-everywhere",
        status_code=204,
        responses=ERRORS,
        summary="Sign out everywhere: every session of the account ends, on every device",
    )
    async def sign_out_everywhere(request: Request, account: SignedIn) -> Response:
        await run(sessions.end_all, account.id)
        response = Response(status_code=204)
        clear_session_cookie(response, request)
        return response

    @app.post(
        "/api/me/claim",
        response_model=bodies.Claimed,
        responses=ERRORS,
        summary="Claim the seats of these tokens (a guest's, from this browser) for the account",
    )
    async def claim(body: bodies.ClaimBody, account: SignedIn) -> JSONResponse:
        return JSONResponse(await run(account_games.claim, account, body.tokens))

    @app.get(
        "/api/me/games",
        response_model=list[bodies.MyGame],
        responses=ERRORS,
        summary="The account's games, the last changed first (at most 100)",
    )
    async def my_games(account: SignedIn) -> JSONResponse:
        return JSONResponse(await run(account_games.games_of, account))

    @app.post(
        "/api/password-reset",
        status_code=202,
        response_model=bodies.ResetAccepted,
        responses=ERRORS,
        summary="Ask for a reset link by e-mail: the same answer whatever the name (no account is told apart)",
    )
    async def request_reset(body: bodies.ResetRequest, request: Request) -> JSONResponse:
        await run(accounts.request_reset, body.name, client_address(request.scope))
        return JSONResponse({"detail": RESET_ANSWER, "mail": accounts.mailer.enabled}, status_code=202)

    @app.post(
        "/api/password-reset/confirm",
        response_model=bodies.Me,
        responses=ERRORS,
        summary="Set a new password with a reset link's token, signed in (sets the session cookie)",
    )
    async def confirm_reset(body: bodies.ResetConfirm, request: Request) -> JSONResponse:
        address = client_address(request.scope)
        account, session_id = await run(accounts.confirm_reset, body.token, body.password, address)
        return await signed_in(request, account, session_id)


def add_notice_routes(app: FastAPI, notices: Notices) -> None:
    """The route of the unsubscribe link every e-mail notice ends with (``notices``)."""

    @app.get(
        "/api/me/notices/off",
        responses=ERRORS,
        summary="Turn e-mail notices off by the signed link every notice ends with (no sign-in); 400 for a "
        "link this server did not make",
    )
    async def notices_off(token: str = "") -> JSONResponse:
        name = await run(notices.turn_off, token)
        return JSONResponse(
            {"name": name, "notify_email": False, "detail": f"no more e-mail notices for {name}"}
        )
