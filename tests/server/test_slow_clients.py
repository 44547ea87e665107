"""Slow and greedy clients on a real server process: headers sent a byte at a time are cut off, and a
WebSocket message over the size limit gets an error reply with the socket kept open."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
from websockets.asyncio.client import connect

pytestmark = pytest.mark.slow


def test_headers_sent_a_byte_at_a_time_are_cut_off(server_process, tmp_path, monkeypatch):
    """A probe held 19,900 connections open this way for more than 25 s."""
    monkeypatch.setenv("LUDUS_HEADER_SECONDS", "1")
    server = server_process(f"sqlite:///{tmp_path / 'ludus.db'}")
    request = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: " + b"x" * 200
    sent = 0
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.settimeout(0.25)
        for byte in request:  # a byte every 0.25 s: the whole would take 60 s
            try:
                sock.sendall(bytes([byte]))
                sent += 1
                if sock.recv(1024) == b"":
                    break  # closed by the server
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
        else:
            pytest.fail("the server kept reading headers sent a byte at a time")
    assert sent < len(request)


def test_headers_sent_at_once_are_served_as_before(server_process, tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HEADER_SECONDS", "1")
    server = server_process(f"sqlite:///{tmp_path / 'ludus.db'}")
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        for _ in range(2):  # two requests on one kept-alive connection
            sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head, body = _response(sock)
            assert head.startswith(b"HTTP/1.1 200") and body == b"[]", head[:100]


def _response(sock: socket.socket) -> tuple[bytes, bytes]:
    """One HTTP response's head and body (by its Content-Length) from the socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536) or pytest.fail(f"closed after {data!r}")
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
    )
    while len(body) < length:
        body += sock.recv(65536) or pytest.fail("closed in the body")
    return head, body


def test_a_websocket_message_over_16_kib_gets_an_error_and_the_socket_stays(server_process, tmp_path):
    """The README promises an error reply; the server's frame limit closed the socket (1009) instead."""
    server = server_process(f"sqlite:///{tmp_path / 'ludus.db'}")
    import httpx

    created = httpx.post(
        f"{server.base}/api/games", json={"game": "garum", "seats": ["human", "human"]}
    ).json()
    url = f"ws://127.0.0.1:{server.port}/api/games/{created['id']}/ws"

    async def talk() -> tuple[dict, dict]:
        async with connect(url) as ws:
            json.loads(await ws.recv())  # the spectator view
            await ws.send(json.dumps({"action": "x" * 20_000, "version": 0}))
            refused = json.loads(await ws.recv())
            await ws.send(json.dumps({"token": created["seats"][0]["token"]}))
            return refused, json.loads(await ws.recv())

    refused, view = asyncio.run(talk())
    assert refused["error"]["status"] == 413 and "16384" in refused["error"]["detail"]
    assert view["seat"] == 0
