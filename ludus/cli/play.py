"""``ludus play``: hotseat humans and bots at the terminal, the record kept as the game goes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

import ludus
from ludus import bots as bot_registry
from ludus.engine import State
from ludus.engine.errors import IllegalActionError
from ludus.engine.registry import game_class

from . import files
from .boards import results, seat_name, show, use_color
from .errors import CLIError, one_line
from .options import check_game, data_option, game_options, load, seat_specs, with_game_options

HELP_TEXT = """\
Commands: a move's number or its notation; 'help'; 'board' (show the board again);
'hint' or 'hint N' (the best 3 or N moves, with their values and why);
'undo' (take back your last decision of this turn); 'save FILE' (write the game record);
'quit' (leave the game; with --save the record is kept, and 'ludus play --resume FILE' goes on)."""


def _default_bot() -> str:
    names = bot_registry.names()
    return "greedy" if "greedy" in names else "random"


def _lineup(seats: list[str] | None, players: int) -> list[str]:
    if seats is None:
        return ["human"] + [_default_bot()] * (players - 1)
    if len(seats) != players:
        raise CLIError(f"{len(seats)} seats given but the game has {players} player{'s' * (players != 1)}")
    return seats


def _moves_table(actions: list[Any]) -> str:
    items = [f"{i:>3}. {a}" for i, a in enumerate(actions, 1)]
    width = max(len(s) for s in items) + 3
    per_line = max(1, 96 // width)
    lines = []
    for start in range(0, len(items), per_line):
        lines.append("".join(s.ljust(width) for s in items[start : start + per_line]).rstrip())
    return "\n".join(lines)


class HumanTurns:
    """The prompt of a human seat: moves by number or notation, help, undo, save, quit.

    ``on_change`` is called after every decision and every undo, so that a ``--save`` file
    always holds the game as far as it went.
    """

    def __init__(
        self,
        state: State,
        actors: list[int],
        color: bool,
        on_change: Callable[[State], None] = lambda state: None,
    ) -> None:
        self.state = state
        self.actors = actors  # seat that took each action of the history
        self.color = color
        self.on_change = on_change
        self.quit = False

    def decide(self, seat: int) -> None:
        """Read lines until the seat makes one decision (or quits)."""
        show(self.state, seat, self.color)
        legal = self.state.legal_actions()
        click.echo(f"\n{seat_name(seat)}, your move ({len(legal)} legal):")
        click.echo(_moves_table(legal))
        while True:
            try:
                line = click.prompt(
                    seat_name(seat).lower(), default="", show_default=False, prompt_suffix="> "
                )
            except click.Abort:
                self.quit = True
                return
            line = line.strip()
            if line and self._command(seat, line, legal):
                return

    def _command(self, seat: int, line: str, legal: list[Any]) -> bool:
        """Carry out one line; True once the seat has decided (or quit)."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("quit", "exit", "q"):
            self.quit = True
            return True
        if word in ("help", "?"):
            click.echo(HELP_TEXT)
        elif word == "board":
            show(self.state, seat, self.color)
            click.echo(_moves_table(self.state.legal_actions()))
        elif word == "save":
            self._save(rest.strip())
        elif word == "hint":
            from ludus.bots.hint import hint_text

            click.echo(hint_text(self.state, rest))
        elif word == "undo":
            if self._undo(seat):
                self.on_change(self.state)
                return True
        else:
            return self._move(seat, line, legal)
        return False

    def _move(self, seat: int, line: str, legal: list[Any]) -> bool:
        if line.isdigit():
            number = int(line)
            if not 1 <= number <= len(legal):
                click.echo(f"error: choose a move from 1 to {len(legal)}")
                return False
            action: Any = legal[number - 1]
        else:
            action = line
        try:
            self.state.apply_action(action)
        except IllegalActionError as exc:
            click.echo(f"error: {one_line(str(exc))}")
            return False
        self.actors.append(seat)
        self.on_change(self.state)
        click.echo(f"{seat_name(seat).lower()}: {self.state.history()[-1]}")
        return True

    def _save(self, path: str) -> None:
        if not path:
            click.echo("error: save wants a file name, e.g. 'save game.json'")
            return
        try:
            files.write_record_now(self.state, path)
        except OSError as exc:
            click.echo(f"error: cannot write {path}: {exc.strerror}")
            return
        click.echo(f"saved the record to {path}")

    def _undo(self, seat: int) -> bool:
        """Take back the seat's last decision if the engine's undo barrier allows it."""
        state = self.state
        history = state.history()
        if len(history) <= state.undo_barrier():
            click.echo("error: nothing to undo in this turn")
            return False
        if self.actors[-1] != seat:
            click.echo("error: the last decision was not yours")
            return False
        record = state.record()
        record["actions"] = history[:-1]
        self.state = ludus.replay(record, data=state.game.data_files)
        self.actors.pop()
        click.echo(f"undone: {history[-1]}")
        return True


def _resumed(path: str, data: str | None) -> tuple[State, list[int]]:
    """The state a record reached, and the seat that took each of its actions."""
    states = files.states(files.read(path), data)
    state = states[-1]
    if state.is_terminal():
        raise CLIError(f"the game in {path} is already over; 'ludus replay {path}' shows it")
    return state, [s.current_player() for s in states[:-1]]


def _new_game(
    game: str | None,
    flags: dict[str, Any],
    extra: tuple[str, ...],
    seed: int | None,
    specs: list[str] | None,
    data: str | None,
) -> State:
    if game is None:
        raise CLIError(
            "name a game to play (one of " + ", ".join(ludus.game_names()) + ") or give --resume RECORD"
        )
    check_game(game)
    if (
        specs is not None
        and flags.get("players") is None
        and any(o.name == "players" for o in game_class(game).options)
    ):
        flags = {**flags, "players": len(specs)}  # --seats says how many play
    return load(game, game_options(game, extra, **flags), data).new_initial_state(seed=seed)


class _Table:
    """The game going on: bots move by themselves, humans at the prompt; the record kept after each."""

    def __init__(
        self, state: State, actors: list[int], colored: bool, lineup: list[str], save_to: str | None
    ) -> None:
        from ludus.arena.simulate import bot_seed, make_bot

        self.humans = HumanTurns(state, actors, colored, on_change=self.keep)
        self.lineup = lineup
        self.save_to = save_to
        self.bots = {
            s: make_bot(spec, bot_seed(state.seed, s)) for s, spec in enumerate(lineup) if spec != "human"
        }

    def keep(self, current: State) -> None:
        if self.save_to:
            files.write_record_now(current, self.save_to)

    def run(self) -> str | None:
        """Play until the end or a human leaves; the failure that stopped the game, if any."""
        humans = self.humans
        self.keep(humans.state)
        while not humans.state.is_terminal():
            state = humans.state
            seat = state.current_player()
            if seat not in self.bots:
                humans.decide(seat)
                if humans.quit:
                    return None
                continue
            try:
                state.apply_action(self.bots[seat].step(state))
            except IllegalActionError as exc:
                return f"bot {self.lineup[seat]} in {seat_name(seat).lower()} chose an illegal action: {one_line(str(exc))}"
            humans.actors.append(seat)
            self.keep(state)
            click.echo(f"{seat_name(seat).lower()} ({self.lineup[seat]}): {state.history()[-1]}")
        return None


@with_game_options
@click.command()
@click.argument("game", required=False)
@click.option("--seed", type=int, help="Seed of the deal (same seed + same moves = same game).")
@click.option(
    "--seats",
    help="Comma-separated, one per seat: human, a strength level ("
    f"{', '.join(bot_registry.levels())}, weakest first) or a bot spec (name or "
    "name:key=value:...); sets the number of players. Default: human, then greedy bots.",
)
@click.option(
    "--save",
    "save_to",
    type=click.Path(dir_okay=False),
    help="Keep the record here: written at the start, after every decision and on every exit.",
)
@click.option(
    "--resume",
    type=click.Path(dir_okay=False),
    metavar="RECORD",
    help="Go on with the game of this record (its game, options and seed); saved back to it "
    "unless --save says otherwise.",
)
@click.option("--color/--no-color", default=None, help="Coloured board (default: when on a terminal).")
@data_option
def play(
    game: str | None,
    flags: dict[str, Any],
    extra: tuple[str, ...],
    seed: int | None,
    seats: str | None,
    save_to: str | None,
    resume: str | None,
    color: bool | None,
    data: str | None,
) -> None:
    """Play GAME at the terminal: hotseat humans and bots.

    Example: ludus play {game} --seats human,greedy --seed 7 --save game.json
    (or --seats human,expert: a bot by strength level)
    """
    specs = seat_specs(seats) if seats is not None else None
    actors: list[int] = []
    if resume is not None:
        if game is not None or any(v is not None for v in flags.values()) or extra or seed is not None:
            raise CLIError(
                "--resume takes the game, its options and its seed from the record; give none of them"
            )
        state, actors = _resumed(resume, data)
        save_to = save_to or resume
    else:
        state = _new_game(game, flags, extra, seed, specs, data)
    the_game = state.game
    lineup = _lineup(specs, the_game.num_players)
    if save_to:
        files.check_file(save_to, "--save")
    colored = use_color(color)
    table = _Table(state, actors, colored, lineup, save_to)
    shown = f" data={the_game.data_tag}" if the_game.data_tag is not None else ""
    click.echo(
        f"{the_game.name} {' '.join(f'{k}={v}' for k, v in the_game.config.items())} seed={state.seed}{shown}"
    )
    click.echo("Seats: " + ", ".join(f"{s + 1} {name}" for s, name in enumerate(lineup)))
    failure: str | None = None
    interrupted = False
    try:
        failure = table.run()
    except KeyboardInterrupt:
        interrupted = True
    except OSError as exc:  # the --save file stopped being writable mid-game (disk full, removed folder)
        failure = f"cannot write {save_to}: {exc.strerror}"
    finally:
        state = table.humans.state
        saved = ""
        if save_to:
            try:
                files.write_record_now(state, save_to)
                saved = f"; the record is in {save_to}"
            except OSError as exc:
                failure = failure or f"cannot write {save_to}: {exc.strerror}"
    if failure:
        raise CLIError(failure + saved)
    _ending(state, interrupted, saved, save_to, colored)


def _ending(state: State, interrupted: bool, saved: str, save_to: str | None, colored: bool) -> None:
    if not state.is_terminal():
        how = "interrupted" if interrupted else "game left"
        hint = f" ('ludus play --resume {save_to}' goes on)" if save_to else " (not saved: use --save FILE)"
        click.echo(f"{how} after {state.move_number()} actions{saved}{hint}")
        if interrupted:
            raise click.exceptions.Exit(130)
        return
    click.echo("")
    show(state, None, colored)
    click.echo("")
    results(state)
    if save_to:
        click.echo(f"saved the record to {save_to}")
