"""Celtae's observation vector: what one seat sees, as fixed-size float32 blocks.

What ``state.observation(seat)`` shows, nothing more: ``encode`` reads that dict,
``encode_state`` (what the environments call) reads the same facts straight from the
state. Seats are absolute (block ``seat`` says which is "me"; seats 0..3, unused seats
stay 0); workers are ``F B S N D`` (farmer, builder,
soldier, noble, druid); card kinds are the 12 ``card_name`` values (``Ow Ot Of Pw ...``:
colour O/P/U/T x icon w/t/f); "owner" one-hots are ``empty, seat 0..3, neutral``. Counts are
divided by the scale given (so most values lie in 0..1); :meth:`CeltaeEncoder.decode`
multiplies back.

===================  ============  ================================================================
block                shape         meaning
===================  ============  ================================================================
areas                (4, 3, 6)     action areas NE, SE, SW, NW, 3 spaces: none, F, B, S, N, D
centre               (3, 6)        the centre's spaces, as above
bag                  (4,)          workers F, B, S, N left in the bag / 16
markets              (2, 6, 13)    market row, space: empty or card kind
deck_size            (1,)          cards in the deck / 60
discard              (12,)         discarded cards of each kind / 5
citadels             (8, 5, 6)     citadel (N orange, pink, purple, teal, then S), space: owner
citadel_bonus        (8, 4)        its bonus: token, recruit, draw, strength
citadel_bonus_owner  (8, 5)        who took the bonus tile: nobody, seat 0..3
roman_top            (2, 11)       Roman Army stack N/S: top tile (none, tile 1..10)
druid_top            (2, 11)       Druid Order stack N/S: top tile (none, tile 1..10)
stacks               (6,)          Roman stack sizes N/S, druid stack sizes N/S, druid supply N/S, / 5
garrison             (2, 6, 6)     garrison row N/S, space: owner
track                (1,)          track position / 12
progress_card        (8, 27)       progress card slot: none or card 1..26
progress_marks       (8, 2)        its marks / 3 and slots / 3
teutates             (2,)          present (not solo), value / 3
offered_leaders      (8,)          leaders on offer
hand                 (4, 12)       my hand only: cards of each kind / 5
hand_seen            (4,)          1 where the hand is visible (mine)
known_cards          (4, 12)       cards publicly taken into each hand / 5
player               (4, 9)        strength/20, tokens/10, discs placed/9, discs left/9, next disc
                                   cost known, next disc cost/5, cubes/4, bonus tiles/4, seat exists
active               (4, 4, 6)     each seat's active workers (up to 4): none, F, B, S, N, D
tribe                (4, 5)        tribe workers F, B, S, N, D / 8
roman_won            (4, 10)       Roman Army tiles won (tile 1..10)
druid_won            (4, 2)        druid tiles won worth 1 / 2 points, counts / 5
leader               (4, 9)        leader: none, or one of the 8 leaders
leader_flip          (4, 6)        side B; flip view: none, undecided, decided, flip, keep
scores               (4,)          score / 50
seat                 (4,)          this view's seat (0 for the spectator)
current_player       (4,)          seat to move (0 once over)
turn                 (5,)          seat whose turn it is (solo: 1 is Solitairix; = players once over)
phase                (23,)         one of the 21 phase texts, "decide" or "over"
pending              (7,)          pending decision: none, progress, leader flip; its seat
final                (3,)          no, finishing the round, double turns
marker               (4,)          action marker corner NE, SE, SW, NW
action               (9,)          action in progress: none, or farm/build/battle/recruit x N/S
token_supply         (1,)          bonus tokens in the supply / 10
solo                 (15,)         solo: present, side/2, quarter/4, discs/9, cubes/4, Roman/5,
                                   druid tiles/5, druids/10, bonus/4, discarded markers/4,
                                   target easy/normal/hard, last turn steps/3, has last turn
solo_worker          (6,)          Solitairix's worker: none, F, B, S, N, D
solo_last            (22,)         its last turn: card (none or kind), action (none or 8)
solo_drawn           (13,)         its card drawn this turn, while the turn waits: none or kind
===================  ============  ================================================================
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import numpy as np

from ludus.rl.encoding import Encoder

from .actions import ACT_VERBS, card_name
from .board import CORNER_NAMES
from .core import Phase
from .data import get
from .encoder_state import FLIPS, MAX_ACTIVE, SEATS, StateWriter
from .observe import progress_text

WORKERS = "FBSND"
CARDS = tuple(card_name(k) for k in range(12))
PHASES = (*(ph.text for ph in Phase), "decide", "over")
FINAL = ("no", "finishing the round", "double turns")
ACTIONS = (None, *(f"{v} {r}" for v in ACT_VERBS for r in "NS"))
PENDING = (None, "progress", "leader flip")
TARGETS = ("easy", "normal", "hard")


def _owner_index(o: Any) -> int:
    return 0 if o is None else (5 if o == "neutral" else 1 + int(o))


def _owner_value(k: int) -> Any:
    return None if k == 0 else ("neutral" if k == 5 else k - 1)


class CeltaeEncoder(Encoder):
    game_name = "celtae"
    state_writer = StateWriter  # encode_state: straight from the state, only what changed

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        d = get()
        self.data = d
        self.leaders = tuple(ld["name"] for ld in d.leaders)
        self.roman = [list(t) for t in d.roman_tiles]
        self.druid = [
            {"points": p, "needs": "".join(WORKERS[t] * c for t, c in enumerate(needs)) + "*" * any_}
            for p, needs, any_ in d.druid_tiles
        ]
        fake = cast(Any, SimpleNamespace(data=d))  # progress_text reads only the data
        self.progress = [progress_text(fake, c) for c in range(len(d.progress_cards))]
        self.colours = tuple(d.colours)
        self.bonus_kinds = tuple(d.bonus_kinds)
        self.targets = {name: d.targets[name] for name in TARGETS}
        b = self._block
        b("areas", (4, 3, 6), "action areas: none, F, B, S, N, D")
        b("centre", (3, 6), "centre: none, F, B, S, N, D")
        b("bag", (4,), "bag F, B, S, N / 16", high=2.0)
        b("markets", (2, 6, 13), "market cards")
        b("deck_size", (1,), "deck / 60", high=2.0)
        b("discard", (12,), "discard counts / 5", high=4.0)
        b("citadels", (8, 5, 6), "citadel spaces: owner")
        b("citadel_bonus", (8, len(self.bonus_kinds)), "citadel bonus kind")
        b("citadel_bonus_owner", (8, 5), "bonus tile taken by")
        b("roman_top", (2, len(self.roman) + 1), "Roman stack top tile")
        b("druid_top", (2, len(self.druid) + 1), "druid stack top tile")
        b("stacks", (6,), "stack sizes / 5, druid supply / 5", high=4.0)
        b("garrison", (2, 6, 6), "garrison spaces: owner")
        b("track", (1,), "track / 12", high=2.0)
        b("progress_card", (8, len(self.progress) + 1), "progress cards")
        b("progress_marks", (8, 2), "marks / 3, slots / 3", high=4.0)
        b("teutates", (2,), "present, value / 3", high=4.0)
        b("offered_leaders", (len(self.leaders),), "leaders on offer")
        b("hand", (SEATS, 12), "own hand / 5", high=4.0)
        b("hand_seen", (SEATS,), "hand visible")
        b("known_cards", (SEATS, 12), "public cards in hands / 5", high=4.0)
        b("player", (SEATS, 9), "strength, tokens, discs, cubes, bonus tiles, seat exists", high=4.0)
        b("active", (SEATS, MAX_ACTIVE, 6), "active workers")
        b("tribe", (SEATS, 5), "tribe F, B, S, N, D / 8", high=4.0)
        b("roman_won", (SEATS, len(self.roman)), "Roman tiles won")
        b("druid_won", (SEATS, 2), "druid tiles won by points / 5", high=4.0)
        b("leader", (SEATS, len(self.leaders) + 1), "leader")
        b("leader_flip", (SEATS, 1 + len(FLIPS)), "side B; flip view")
        b("scores", (SEATS,), "score / 50", high=10.0, low=-10.0)
        b("seat", (SEATS,), "my seat")
        b("current_player", (SEATS,), "seat to move")
        b("turn", (SEATS + 1,), "seat whose turn it is (== players once over)")
        b("phase", (len(PHASES),), "phase")
        b("pending", (len(PENDING) + SEATS,), "pending decision kind and seat")
        b("final", (len(FINAL),), "final stage")
        b("marker", (len(CORNER_NAMES),), "action marker corner")
        b("action", (len(ACTIONS),), "action in progress")
        b("token_supply", (1,), "tokens in supply / 10", high=2.0)
        b("solo", (15,), "Solitairix numbers", high=4.0)
        b("solo_worker", (6,), "Solitairix worker")
        b("solo_last", (13 + len(ACTIONS),), "Solitairix last turn: card, action")
        b("solo_drawn", (13,), "Solitairix card drawn this turn (none or kind)")

    def max_game_length(self) -> int:
        """A generous bound: random play takes under 300 decisions."""
        return 2000

    # -- encode --------------------------------------------------------------------------
    def encode(self, obs: dict[str, Any]) -> np.ndarray:
        v = self.zeros()
        self._encode_board(obs, v)
        self._encode_common(obs, v)
        for s, info in enumerate(obs["players_info"]):
            self._encode_player(s, info, v)
        self._encode_turn(obs, v)
        sx = obs.get("solitairix")
        if sx is not None:
            self._encode_solo(sx, v)
        return v

    def _encode_board(self, obs: dict[str, Any], v: np.ndarray) -> None:
        """Action areas, centre, markets, citadels, stacks' tops, garrisons."""
        view = self.view
        areas = view(v, "areas")
        for a, row in enumerate(obs["areas"]):
            for i, w in enumerate(row):
                areas[a, i, 0 if w is None else 1 + WORKERS.index(w)] = 1.0
        centre = view(v, "centre")
        for i, w in enumerate(obs["centre"]):
            centre[i, 0 if w is None else 1 + WORKERS.index(w)] = 1.0
        markets = view(v, "markets")
        for r, row in enumerate(obs["markets"]):
            for i, card in enumerate(row):
                markets[r, i, 0 if card is None else 1 + CARDS.index(card)] = 1.0
        citadels, bonus, bonus_owner = (
            view(v, "citadels"),
            view(v, "citadel_bonus"),
            view(v, "citadel_bonus_owner"),
        )
        for i, cit in enumerate(obs["citadels"]):
            for s, o in enumerate(cit["spaces"]):
                citadels[i, s, _owner_index(o)] = 1.0
            bonus[i, self.bonus_kinds.index(cit["bonus"])] = 1.0
            bonus_owner[i, _owner_index(cit["bonus_owner"])] = 1.0
        for name, tiles in (("roman_top", self.roman), ("druid_top", self.druid)):
            top = view(v, name)
            for i, stack in enumerate(obs[name.split("_")[0]]):
                top[i, 0 if stack["top"] is None else 1 + tiles.index(stack["top"])] = 1.0
        garrison = view(v, "garrison")
        for r, row in enumerate(obs["garrison"]):
            for i, o in enumerate(row):
                garrison[r, i, _owner_index(o)] = 1.0

    def _encode_common(self, obs: dict[str, Any], v: np.ndarray) -> None:
        """Bag, deck, discard pile, stack sizes, track, progress cards, Teutates, leaders on offer."""
        view = self.view
        view(v, "bag")[:] = [obs["bag"][w] / 16 for w in "FBSN"]
        view(v, "deck_size")[0] = obs["deck_size"] / 60
        discard = view(v, "discard")
        for card in obs["discard"]:
            discard[CARDS.index(card)] += 1.0
        discard /= 5
        view(v, "stacks")[:] = [
            *(s["size"] / 5 for s in obs["roman"]),
            *(s["size"] / 5 for s in obs["druid"]),
            *(n / 5 for n in obs["druid_supply"]),
        ]
        view(v, "track")[0] = obs["track"] / 12
        cards, marks = view(v, "progress_card"), view(v, "progress_marks")
        for i, p in enumerate(obs["progress"]):
            cards[i, 1 + self.progress.index(p["card"])] = 1.0
            marks[i] = (p["marks"] / 3, p["slots"] / 3)
        cards[len(obs["progress"]) :, 0] = 1.0
        if obs["teutates"] is not None:
            view(v, "teutates")[:] = (1.0, obs["teutates"] / 3)
        for name in obs["offered_leaders"]:
            view(v, "offered_leaders")[self.leaders.index(name)] = 1.0

    def _encode_player(self, s: int, info: dict[str, Any], v: np.ndarray) -> None:
        """Seat ``s``: its hand if shown, cards taken in view, player board, workers, tiles, leader."""
        view = self.view
        hand, seen, known = view(v, "hand"), view(v, "hand_seen"), view(v, "known_cards")
        player, active, tribe = view(v, "player"), view(v, "active"), view(v, "tribe")
        roman_won, druid_won = view(v, "roman_won"), view(v, "druid_won")
        leader, flip = view(v, "leader"), view(v, "leader_flip")
        if info["hand"] is not None:
            seen[s] = 1.0
            for card, n in info["hand"].items():
                hand[s, CARDS.index(card)] = n / 5
        for card, n in info["known_cards"].items():
            known[s, CARDS.index(card)] = n / 5
        cost = info["next_disc_cost"]
        player[s] = (
            info["strength"] / 20,
            info["tokens"] / 10,
            info["discs_placed"] / 9,
            info["discs_left"] / 9,
            cost is not None,
            (cost or 0) / 5,
            info["cubes_placed"] / 4,
            info["bonus_tiles"] / 4,
            1.0,
        )
        if len(info["active"]) > MAX_ACTIVE:
            raise ValueError(
                f"seat {s} has {len(info['active'])} active workers; the encoding holds {MAX_ACTIVE}"
            )
        for i in range(MAX_ACTIVE):
            w = info["active"][i] if i < len(info["active"]) else None
            active[s, i, 0 if w is None else 1 + WORKERS.index(w)] = 1.0
        for w, n in info["tribe"].items():
            tribe[s, WORKERS.index(w)] = n / 8
        for tile in info["roman_tiles"]:
            roman_won[s, self.roman.index(tile)] += 1.0
        for points in info["druid_tiles"]:
            druid_won[s, points - 1] += 1.0 / 5
        leader[s, 0 if info["leader"] is None else 1 + self.leaders.index(info["leader"])] = 1.0
        flip[s, 0] = info["leader_side"] == "B"
        flip[s, 1 + FLIPS.index(info["flip"])] = 1.0

    def _encode_turn(self, obs: dict[str, Any], v: np.ndarray) -> None:
        """Scores, seat, seat to move, turn, phase, pending decision, stage, marker, action, tokens."""
        view = self.view
        scores = obs["scores"]
        view(v, "scores")[: len(scores)] = np.asarray(scores, dtype=np.float32) / 50
        if obs["seat"] is not None:
            view(v, "seat")[obs["seat"]] = 1.0
        if obs["current_player"] >= 0:
            view(v, "current_player")[obs["current_player"]] = 1.0
        view(v, "turn")[obs["turn"]] = 1.0
        view(v, "phase")[PHASES.index(obs["phase"])] = 1.0
        pending = view(v, "pending")
        if obs["pending"] is None:
            pending[0] = 1.0
        else:
            pending[PENDING.index(obs["pending"]["kind"])] = 1.0
            pending[len(PENDING) + obs["pending"]["seat"]] = 1.0
        view(v, "final")[FINAL.index(obs["final"])] = 1.0
        view(v, "marker")[CORNER_NAMES.index(obs["marker"])] = 1.0
        view(v, "action")[ACTIONS.index(obs["action"])] = 1.0
        view(v, "token_supply")[0] = obs["token_supply"] / 10

    def _encode_solo(self, sx: dict[str, Any], v: np.ndarray) -> None:
        """Solitairix's numbers, its worker, its last turn and the card it drew."""
        view = self.view
        last = sx["last_turn"]
        target = TARGETS[list(self.targets.values()).index(sx["target"])]
        view(v, "solo")[:] = (
            1.0,
            sx["side"] / 2,
            sx["quarter"] / 4,
            sx["discs_placed"] / 9,
            sx["cubes_placed"] / 4,
            sx["roman_tiles"] / 5,
            sx["druid_tiles"] / 5,
            sx["druids"] / 10,
            sx["bonus_tiles"] / 4,
            sx["discarded_markers"] / 4,
            target == "easy",
            target == "normal",
            target == "hard",
            (last["steps"] if last else 0) / 3,
            last is not None,
        )
        view(v, "solo_worker")[0 if sx["worker"] is None else 1 + WORKERS.index(sx["worker"])] = 1.0
        solo_last = view(v, "solo_last")
        if last is not None:
            solo_last[0 if last["card"] is None else 1 + CARDS.index(last["card"])] = 1.0
            solo_last[13 + ACTIONS.index(last["action"])] = 1.0
        view(v, "solo_drawn")[0 if sx["drawn"] is None else 1 + CARDS.index(sx["drawn"])] = 1.0

    # -- decode --------------------------------------------------------------------------
    def decode(self, vector: np.ndarray) -> dict[str, Any]:
        """The facts a vector holds, in the observation's own terms."""
        view = self.view
        n = self.game.num_players

        def workers(rows: np.ndarray) -> list[str | None]:
            return [None if k == 0 else WORKERS[k - 1] for k in rows.argmax(axis=-1)]

        def back(x: float, scale: float) -> int:
            return int(np.rint(float(x) * scale))

        def counts(row: np.ndarray, scale: float) -> dict[str, int]:
            return {CARDS[k]: back(x, scale) for k, x in enumerate(row) if x > 0}

        player = view(vector, "player")
        players = []
        for s in range(n):
            p = player[s]
            active = [w for w in workers(view(vector, "active")[s]) if w is not None]
            players.append(
                {
                    "hand": counts(view(vector, "hand")[s], 5) if view(vector, "hand_seen")[s] else None,
                    "known_cards": counts(view(vector, "known_cards")[s], 5),
                    "strength": back(p[0], 20),
                    "tokens": back(p[1], 10),
                    "discs_placed": back(p[2], 9),
                    "discs_left": back(p[3], 9),
                    "next_disc_cost": back(p[5], 5) if p[4] else None,
                    "cubes_placed": back(p[6], 4),
                    "bonus_tiles": back(p[7], 4),
                    "active": active,
                    "tribe": {
                        WORKERS[k]: back(x, 8) for k, x in enumerate(view(vector, "tribe")[s]) if x > 0
                    },
                    "roman_tiles": [
                        self.roman[k]
                        for k, x in enumerate(view(vector, "roman_won")[s])
                        for _ in range(back(x, 1))
                    ],
                    "druid_tiles": [
                        k + 1 for k, x in enumerate(view(vector, "druid_won")[s]) for _ in range(back(x, 5))
                    ],
                    "leader": _pick(view(vector, "leader")[s], (None, *self.leaders)),
                    "leader_side": "B" if view(vector, "leader_flip")[s, 0] else "A",
                    "flip": FLIPS[int(view(vector, "leader_flip")[s, 1:].argmax())],
                }
            )
        pending = view(vector, "pending")
        sx = None
        solo = view(vector, "solo")
        if solo[0]:
            has_last = solo[14] > 0.5
            last_view = view(vector, "solo_last")
            sx = {
                "side": back(solo[1], 2),
                "quarter": back(solo[2], 4),
                "worker": _pick(view(vector, "solo_worker"), (None, *WORKERS)),
                "discs_placed": back(solo[3], 9),
                "cubes_placed": back(solo[4], 4),
                "roman_tiles": back(solo[5], 5),
                "druid_tiles": back(solo[6], 5),
                "druids": back(solo[7], 10),
                "bonus_tiles": back(solo[8], 4),
                "discarded_markers": back(solo[9], 4),
                "target": self.targets[TARGETS[int(solo[10:13].argmax())]],
                "last_turn": {
                    "card": _pick(last_view[:13], (None, *CARDS)),
                    "steps": back(solo[13], 3),
                    "action": _pick(last_view[13:], ACTIONS),
                }
                if has_last
                else None,
                "drawn": _pick(view(vector, "solo_drawn"), (None, *CARDS)),
            }
        progress_cards = view(vector, "progress_card")
        marks = view(vector, "progress_marks")
        return {
            "areas": [workers(a) for a in view(vector, "areas")],
            "centre": workers(view(vector, "centre")),
            "bag": {w: back(x, 16) for w, x in zip("FBSN", view(vector, "bag"), strict=True)},
            "markets": [[_pick(c, (None, *CARDS)) for c in row] for row in view(vector, "markets")],
            "deck_size": back(view(vector, "deck_size")[0], 60),
            "discard": counts(view(vector, "discard"), 5),
            "citadels": [
                {
                    "spaces": [_owner_value(int(k)) for k in cit.argmax(axis=1)],
                    "bonus": self.bonus_kinds[int(bonus.argmax())],
                    "bonus_owner": _owner_value(int(owner.argmax())),
                }
                for cit, bonus, owner in zip(
                    view(vector, "citadels"),
                    view(vector, "citadel_bonus"),
                    view(vector, "citadel_bonus_owner"),
                    strict=True,
                )
            ],
            "roman_top": [_pick(r, (None, *self.roman)) for r in view(vector, "roman_top")],
            "druid_top": [_pick(r, (None, *self.druid)) for r in view(vector, "druid_top")],
            "stacks": [back(x, 5) for x in view(vector, "stacks")],
            "garrison": [
                [_owner_value(int(k)) for k in row.argmax(axis=1)] for row in view(vector, "garrison")
            ],
            "track": back(view(vector, "track")[0], 12),
            "progress": [
                {"card": self.progress[int(c.argmax()) - 1], "marks": back(m[0], 3), "slots": back(m[1], 3)}
                for c, m in zip(progress_cards, marks, strict=True)
                if c[0] < 0.5
            ],
            "teutates": back(view(vector, "teutates")[1], 3) if view(vector, "teutates")[0] else None,
            "offered_leaders": sorted(
                name for name, x in zip(self.leaders, view(vector, "offered_leaders"), strict=True) if x
            ),
            "players_info": players,
            "scores": [back(x, 50) for x in view(vector, "scores")[:n]],
            "seat": _one(view(vector, "seat")),
            "current_player": _one(view(vector, "current_player")),
            "turn": int(view(vector, "turn").argmax()),
            "phase": PHASES[int(view(vector, "phase").argmax())],
            "pending": None
            if pending[0]
            else {
                "kind": PENDING[int(pending[: len(PENDING)].argmax())],
                "seat": int(pending[len(PENDING) :].argmax()),
            },
            "final": FINAL[int(view(vector, "final").argmax())],
            "marker": CORNER_NAMES[int(view(vector, "marker").argmax())],
            "action": ACTIONS[int(view(vector, "action").argmax())],
            "token_supply": back(view(vector, "token_supply")[0], 10),
            "solitairix": sx,
        }


def _pick(row: np.ndarray, values: tuple) -> Any:
    return values[int(row.argmax())]


def _one(row: np.ndarray) -> int | None:
    return int(row.argmax()) if row.any() else None
