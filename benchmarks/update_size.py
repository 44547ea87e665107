"""Bytes a browser receives per move, over whole games: JSON patches against whole views.

Every seat of a game (all human, random moves) and a spectator follow it on a WebSocket that asks
for patches (``/ws?patches=1``), as the game page does; moves go over the mover's socket, as the
page sends them. Each push is checked against the server's view (rebuilt by jsonpatch). Printed
per update (one push to one seat): the patch's bytes as text and deflated (browsers and uvicorn
agree on permessage-deflate), the whole view it replaces, and for games drawn by the server
(Garum) the board's SVG the page fetches after each change, gzipped as sent and as text. Also
the server CPU spent diffing, per diff and per move.

Target (issue 12): a move's update under 10 KB.

    .venv/bin/python benchmarks/update_size.py                  # a 2-player Garum and Celtae game
    .venv/bin/python benchmarks/update_size.py --players 3 --games 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import warnings
import zlib
from typing import Any

import jsonpatch
import orjson

warnings.filterwarnings("ignore", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

import ludus.server.patches as patches  # noqa: E402
from ludus.server import create_app  # noqa: E402


def deflated(text: str) -> int:
    """Bytes of one message under permessage-deflate without context takeover (an upper bound)."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return len(packer.compress(text.encode()) + packer.flush(zlib.Z_SYNC_FLUSH)) - 4


class DiffTimer:
    """Wraps patches.diff to add up the time the hub spends in it."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0
        self._diff = patches.diff

    def __call__(self, old: Any, new: Any) -> list[dict[str, Any]]:
        started = time.perf_counter()
        try:
            return self._diff(old, new)
        finally:
            self.seconds += time.perf_counter() - started
            self.calls += 1


def play(
    client: TestClient, game: str, players: int, seed: int, sizes: dict[str, list[int]], svg: bool
) -> int:
    created = client.post(
        "/api/games", json={"game": game, "options": {"players": players}, "seats": ["human"] * players}
    ).json()
    gid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(seed)
    sockets: dict[int | None, Any] = {}
    live: dict[int | None, dict[str, Any]] = {}
    moves = 0
    try:
        for seat in [None, *tokens]:
            ws = client.websocket_connect(f"/api/games/{gid}/ws?patches=1").__enter__()
            sockets[seat] = ws
            live[seat] = ws.receive_json()
            if seat is not None:
                ws.send_json({"token": tokens[seat]})
                live[seat] = ws.receive_json()
        while not live[None]["terminal"]:
            mover = live[None]["current_player"]
            view = live[mover]
            sockets[mover].send_json(
                {"action": rng.choice(view["legal_actions"]), "version": view["version"]}
            )
            moves += 1
            for seat, ws in sockets.items():
                text = ws.receive_text()
                message = orjson.loads(text)
                assert "error" not in message, message
                if "patch" in message:
                    assert message["base"] == live[seat]["version"]
                    live[seat] = jsonpatch.apply_patch(live[seat], message["patch"])
                    sizes["patch"].append(len(text.encode()))
                    sizes["patch deflated"].append(deflated(text))
                else:
                    live[seat] = message
                    sizes["whole view (first push)"].append(len(text.encode()))
                whole = orjson.dumps(live[seat], option=orjson.OPT_NON_STR_KEYS).decode()
                sizes["whole view"].append(len(whole.encode()))
                sizes["whole view deflated"].append(deflated(whole))
                if svg:
                    headers = {"Authorization": f"Bearer {tokens[seat]}"} if seat is not None else {}
                    board = client.get(
                        f"/api/games/{gid}/svg", headers={**headers, "Accept-Encoding": "gzip"}
                    )
                    sizes["board svg gzipped"].append(board.num_bytes_downloaded)
                    sizes["board svg text"].append(len(board.content))
                    sizes["update: patch + svg gzipped"].append(
                        len(text.encode()) + board.num_bytes_downloaded
                    )
                    sizes["update on the wire (deflated)"].append(deflated(text) + board.num_bytes_downloaded)
        check = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        assert {**check, "server_time": 0} == {**live[0], "server_time": 0}, (
            "a patched view differs from the server's"
        )
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=1, help="games of each")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    timer = DiffTimer()
    patches.diff = timer
    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app(f"sqlite:///{tmp}/ludus.db")) as client:
        games = {g["name"]: g for g in client.get("/api/meta").json()["games"]}
        for game in ("garum", "celtae"):
            sizes: dict[str, list[int]] = {
                k: []
                for k in (
                    "patch",
                    "patch deflated",
                    "whole view",
                    "whole view deflated",
                    "whole view (first push)",
                )
            }
            svg = game == "garum" and games[game]["svg"]  # the Celtae page draws its own board
            if svg:
                sizes.update(
                    {
                        "board svg gzipped": [],
                        "board svg text": [],
                        "update: patch + svg gzipped": [],
                        "update on the wire (deflated)": [],
                    }
                )
            timer.seconds, timer.calls = 0.0, 0
            moves = sum(
                play(client, game, args.players, args.seed + i, sizes, svg) for i in range(args.games)
            )
            print(
                f"{game}, {args.players} players, {args.games} game(s), {moves} moves, "
                f"{len(sizes['whole view'])} updates (one push to one seat or the spectator):"
            )
            for name, values in sizes.items():
                if values:
                    print(
                        f"  {name:28} p50 {statistics.median(values):8.0f} B   max {max(values):8.0f} B"
                        f"   total {sum(values) / 1e3:8.1f} kB"
                    )
            print(
                f"  diff CPU: {timer.seconds / max(timer.calls, 1) * 1e3:.3f} ms per diff, "
                f"{timer.seconds / max(moves, 1) * 1e3:.3f} ms per move ({timer.calls} diffs)"
            )


if __name__ == "__main__":
    main()
