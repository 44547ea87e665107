"""The ``ludus`` command: play, replay, render and simulate any game of the registry.

Generic over games through the contract: options come from the game class's ``Option``
declarations, boards from the game package's ``render`` module. Every bad input ends in
one line ``error: ...`` and exit code 2, never a traceback.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import click

import ludus
from ludus import bots as bot_registry
from ludus.engine import State, read_record, write_record
from ludus.engine.errors import DataFileError, IllegalActionError, OptionError, RecordError
from ludus.engine.registry import game_class

EXIT_BAD_INPUT = 2
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


class CLIError(click.ClickException):
    """Bad input: reported as one line, exit code 2."""

    exit_code = EXIT_BAD_INPUT


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class LudusGroup(click.Group):
    """A group that turns every error into ``error: ...`` on one line, exit code 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:  # ``ludus`` alone: the usage, as --help shows it
            click.echo(exc.ctx.get_help())
            code = 0
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            _fail(_one_line(exc.format_message()) + hint, standalone_mode)
        except click.ClickException as exc:
            _fail(_one_line(exc.format_message()), standalone_mode)
        except (OptionError, RecordError, IllegalActionError, DataFileError) as exc:
            _fail(_one_line(str(exc)), standalone_mode)
        except click.Abort:
            click.echo("aborted", err=True)
            if not standalone_mode:
                raise
            sys.exit(1)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str, standalone_mode: bool) -> None:
    click.echo(f"error: {message}", err=True)
    if not standalone_mode:
        raise CLIError(message)
    sys.exit(EXIT_BAD_INPUT)


@click.group(cls=LudusGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(ludus.__version__, prog_name="ludus")
def main() -> None:
    """Play, replay, render and simulate the games of ludus (Garum, Celtae)."""


# -- games and options ----------------------------------------------------------------------

def _check_game(name: str) -> str:
    if name not in ludus.game_names():
        raise CLIError(f"unknown game {name!r}; known games: {', '.join(ludus.game_names())}")
    return name


def _convert(game: str, key: str, text: str, choices: tuple[Any, ...]) -> Any:
    """The declared choice that ``text`` spells (case-insensitive; yes/no for booleans)."""
    low = text.strip().lower()
    for choice in choices:
        if isinstance(choice, bool):
            if (choice and low in _TRUE) or (not choice and low in _FALSE):
                return choice
        elif str(choice).lower() == low:
            return choice
    shown = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in choices)
    raise CLIError(f"{game}: {key}={text} is not valid; choose one of {shown}")


def game_options(name: str, extra: tuple[str, ...] = (), **common: Any) -> dict[str, Any]:
    """Options for ``load_game`` from ``--option key=value`` texts and the common flags."""
    _check_game(name)
    declared = {opt.name: opt for opt in game_class(name).options}
    options: dict[str, Any] = {}
    for key, value in common.items():
        if value is None:
            continue
        if key not in declared:
            raise CLIError(f"{name} has no option {key!r}; valid options: {', '.join(declared)}")
        options[key] = value
    for item in extra:
        key, sep, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise CLIError(f"--option wants KEY=VALUE, got {item!r}")
        if key not in declared:
            raise CLIError(f"{name} has no option {key!r}; valid options: {', '.join(declared)}")
        options[key] = _convert(name, key, text, declared[key].choices)
    return options


def _load(name: str, options: dict[str, Any]) -> ludus.engine.Game:
    try:
        return ludus.load_game(name, **options)
    except OptionError as exc:
        raise CLIError(_one_line(str(exc))) from None


def _with_game_options(func):
    """The option flags every game command shares."""
    decorators = [
        click.option("--players", type=int, help="Number of players."),
        click.option("--board", help="Board (Garum: troia, baelo_claudia)."),
        click.option("--variant", help="Variant (Garum: standard, emperor, haruspex)."),
        click.option("--rotation/--no-rotation", default=None, help="Whether tiles may be turned (Garum)."),
        click.option("--option", "-o", "extra", multiple=True, metavar="KEY=VALUE",
                     help="Any option the game declares, e.g. -o difficulty=hard (repeatable)."),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def _renderer(name: str) -> ModuleType:
    try:
        return importlib.import_module(f"ludus.{name}.render")
    except ImportError:
        raise CLIError(f"the game {name!r} has no board renderer yet") from None


def _use_color(color: bool | None) -> bool:
    if color is not None:
        return color
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _echo_board(text: str, color: bool) -> None:
    """Print a rendered board: ANSI text as it is, rich markup turned into ANSI."""
    if color and "\x1b[" not in text and "[" in text:
        from rich.console import Console
        from rich.errors import MarkupError
        from rich.text import Text

        try:
            console = Console(force_terminal=True, width=1000, highlight=False, color_system="standard")
            with console.capture() as capture:
                console.print(Text.from_markup(text), end="")
            text = capture.get()
        except MarkupError:
            pass
    click.echo(text, color=color or None)  # an explicit --color keeps colours in a pipe


def _show(state: State, seat: int | None, color: bool) -> None:
    _echo_board(_renderer(state.game.name).render_text(state.observation(seat), color=color), color)


def _results(state: State) -> None:
    scores = state.scores()
    click.echo("Scores: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(scores)))
    winners = state.winners()
    click.echo("Winner" + ("s" if len(winners) > 1 else "") + ": " + ", ".join(f"seat {s}" for s in winners))


# -- files written by a command: checked before it starts ----------------------------------

def _check_file(path: str, flag: str) -> None:
    """Refuse an output file that cannot be written, before any work is done (nothing is left behind)."""
    target = Path(path)
    if target.is_dir():
        raise CLIError(f"{flag} {path} is a directory; give a file name")
    existed = target.exists()
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise CLIError(f"{flag} {path} cannot be written: {exc.strerror}") from None
    if not existed:
        target.unlink()


def _check_dir(path: str, flag: str) -> None:
    """Make an output directory (and its parents) and check that files can be written in it."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise CLIError(f"{flag} {path} is a file; give a directory")
    try:
        target.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=target):
            pass
    except OSError as exc:
        raise CLIError(f"{flag} {path} cannot be made or written into: {exc.strerror}") from None


def _write_record_now(state: State, path: str) -> None:
    """Write the record whole or not at all (a temporary file renamed over the old one)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        write_record(state, tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


# -- play -----------------------------------------------------------------------------------

HELP_TEXT = """\
Commands: a move's number or its notation; 'help'; 'board' (show the board again);
'hint' or 'hint N' (the best 3 or N moves, with their values and why);
'undo' (take back your last decision of this turn); 'save FILE' (write the game record);
'quit' (leave the game; with --save the record is kept, and 'ludus play --resume FILE' goes on)."""


def _default_bot() -> str:
    names = bot_registry.names()
    return "greedy" if "greedy" in names else "random"


def _seat_specs(text: str) -> list[str]:
    """The seats of ``--seats``: ``human`` or a bot spec each, checked by the one bot-spec parser."""
    seats = [s.strip() for s in text.split(",")]
    for spec in seats:
        if spec == "human":
            continue
        if not spec:
            raise CLIError(f"--seats has an empty seat in {text!r}; use human or a bot per seat")
        _no_seed(spec)
        try:
            name, _ = bot_registry.parse_spec(spec)
        except ValueError as exc:
            message = _one_line(str(exc))
            if message.startswith("unknown bot"):
                message = f"unknown seat {spec!r}; use human or a bot: {', '.join(bot_registry.names())}"
            raise CLIError(message) from None
    return seats


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
        lines.append("".join(s.ljust(width) for s in items[start:start + per_line]).rstrip())
    return "\n".join(lines)


class HumanTurns:
    """The prompt of a human seat: moves by number or notation, help, undo, save, quit.

    ``on_change`` is called after every decision and every undo, so that a ``--save`` file
    always holds the game as far as it went.
    """

    def __init__(self, state: State, actors: list[int], color: bool, on_change=lambda state: None) -> None:
        self.state = state
        self.actors = actors  # seat that took each action of the history
        self.color = color
        self.on_change = on_change
        self.quit = False

    def decide(self, seat: int) -> None:
        """Read lines until the seat makes one decision (or quits)."""
        state = self.state
        _show(state, seat, self.color)
        legal = state.legal_actions()
        click.echo(f"\nSeat {seat}, your move ({len(legal)} legal):")
        click.echo(_moves_table(legal))
        while True:
            try:
                line = click.prompt(f"seat {seat}", default="", show_default=False, prompt_suffix="> ")
            except click.Abort:
                self.quit = True
                return
            line = line.strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            if word in ("quit", "exit", "q"):
                self.quit = True
                return
            if word in ("help", "?"):
                click.echo(HELP_TEXT)
                continue
            if word == "board":
                _show(self.state, seat, self.color)
                click.echo(_moves_table(self.state.legal_actions()))
                continue
            if word == "save":
                self._save(rest.strip())
                continue
            if word == "hint":
                from .bots.hint import hint_text

                click.echo(hint_text(self.state, rest))
                continue
            if word == "undo":
                if self._undo(seat):
                    self.on_change(self.state)
                    return
                continue
            if line.isdigit():
                number = int(line)
                if not 1 <= number <= len(legal):
                    click.echo(f"error: choose a move from 1 to {len(legal)}")
                    continue
                action: Any = legal[number - 1]
            else:
                action = line
            try:
                state.apply_action(action)
            except IllegalActionError as exc:
                click.echo(f"error: {_one_line(str(exc))}")
                continue
            self.actors.append(seat)
            self.on_change(state)
            click.echo(f"seat {seat}: {state.history()[-1]}")
            return

    def _save(self, path: str) -> None:
        if not path:
            click.echo("error: save wants a file name, e.g. 'save game.json'")
            return
        try:
            _write_record_now(self.state, path)
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
        self.state = ludus.replay(record)
        self.actors.pop()
        click.echo(f"undone: {history[-1]}")
        return True


def _resumed(path: str) -> tuple[State, list[int]]:
    """The state a record reached, and the seat that took each of its actions."""
    states = _states(_read(path))
    state = states[-1]
    if state.is_terminal():
        raise CLIError(f"the game in {path} is already over; 'ludus replay {path}' shows it")
    return state, [s.current_player() for s in states[:-1]]


@main.command()
@click.argument("game", required=False)
@_with_game_options
@click.option("--seed", type=int, help="Seed of the deal (same seed + same moves = same game).")
@click.option("--seats", help="Comma-separated, one per seat: human or a bot spec (name or name:key=value:...); "
                              "sets the number of players. Default: human, then greedy bots.")
@click.option("--save", "save_to", type=click.Path(dir_okay=False),
              help="Keep the record here: written at the start, after every decision and on every exit.")
@click.option("--resume", type=click.Path(dir_okay=False), metavar="RECORD",
              help="Go on with the game of this record (its game, options and seed); saved back to it "
                   "unless --save says otherwise.")
@click.option("--color/--no-color", default=None, help="Coloured board (default: when on a terminal).")
def play(game: str | None, players: int | None, board: str | None, variant: str | None, rotation: bool | None,
         extra: tuple[str, ...], seed: int | None, seats: str | None, save_to: str | None, resume: str | None,
         color: bool | None) -> None:
    """Play GAME at the terminal: hotseat humans and bots.

    Example: ludus play garum --seats human,greedy,random --seed 7 --save game.json
    """
    specs = _seat_specs(seats) if seats is not None else None
    if resume is not None:
        if game is not None or players or board or variant or rotation is not None or extra or seed is not None:
            raise CLIError("--resume takes the game, its options and its seed from the record; give none of them")
        state, actors = _resumed(resume)
        the_game = state.game
        game = the_game.name
        save_to = save_to or resume
    else:
        if game is None:
            raise CLIError("name a game to play (one of " + ", ".join(ludus.game_names()) + ") or give --resume RECORD")
        _check_game(game)
        if specs is not None and players is None and any(o.name == "players" for o in game_class(game).options):
            players = len(specs)  # --seats says how many play
        options = game_options(game, extra, players=players, board=board, variant=variant, rotation=rotation)
        the_game = _load(game, options)
        state = the_game.new_initial_state(seed=seed)
        actors = []
    lineup = _lineup(specs, the_game.num_players)
    if save_to:
        _check_file(save_to, "--save")
    use_color = _use_color(color)
    from ludus.arena.simulate import bot_seed, make_bot

    bots = {s: make_bot(spec, bot_seed(state.seed, s)) for s, spec in enumerate(lineup) if spec != "human"}
    click.echo(f"{game} {' '.join(f'{k}={v}' for k, v in the_game.config.items())} seed={state.seed}")
    click.echo("Seats: " + ", ".join(f"{s} {name}" for s, name in enumerate(lineup)))

    def keep(current: State) -> None:
        if save_to:
            _write_record_now(current, save_to)

    humans = HumanTurns(state, actors, use_color, on_change=keep)
    failure: str | None = None
    interrupted = False
    try:
        keep(state)
        while not humans.state.is_terminal():
            state = humans.state
            seat = state.current_player()
            if seat in bots:
                try:
                    state.apply_action(bots[seat].step(state))
                except IllegalActionError as exc:
                    failure = f"bot {lineup[seat]} in seat {seat} chose an illegal action: {_one_line(str(exc))}"
                    break
                humans.actors.append(seat)
                keep(state)
                click.echo(f"seat {seat} ({lineup[seat]}): {state.history()[-1]}")
                continue
            humans.decide(seat)
            if humans.quit:
                break
    except KeyboardInterrupt:
        interrupted = True
    except OSError as exc:  # the --save file stopped being writable mid-game (disk full, removed folder)
        failure = f"cannot write {save_to}: {exc.strerror}"
    finally:
        state = humans.state
        saved = ""
        if save_to:
            try:
                _write_record_now(state, save_to)
                saved = f"; the record is in {save_to}"
            except OSError as exc:
                failure = failure or f"cannot write {save_to}: {exc.strerror}"
    if failure:
        raise CLIError(failure + saved)
    if not state.is_terminal():
        how = "interrupted" if interrupted else "game left"
        hint = f" ('ludus play --resume {save_to}' goes on)" if save_to else " (not saved: use --save FILE)"
        click.echo(f"{how} after {len(state.history())} actions{saved}{hint}")
        if interrupted:
            raise click.exceptions.Exit(130)
        return
    click.echo("")
    _show(state, None, use_color)
    click.echo("")
    _results(state)
    if save_to:
        click.echo(f"saved the record to {save_to}")


# -- records: replay and render ------------------------------------------------------------

def _states(record: dict[str, Any]) -> list[State]:
    """The state before the first action and after each one (the record is fully checked)."""
    try:
        game = ludus.load_game(record["game"], **record["config"])
    except OptionError as exc:
        raise CLIError(f"the record's game cannot be loaded: {_one_line(str(exc))}") from None
    state = game.new_initial_state(seed=record["seed"])
    states = [state.clone()]
    for i, text in enumerate(record["actions"]):
        try:
            state.apply_action(text)
        except IllegalActionError as exc:
            raise CLIError(f"action {i + 1} ({text!r}) cannot be replayed: {_one_line(str(exc))}") from None
        states.append(state.clone())
    return states


def _read(path: str) -> dict[str, Any]:
    try:
        return read_record(path)
    except RecordError as exc:
        raise CLIError(_one_line(str(exc))) from None
    except UnicodeDecodeError:
        raise CLIError(f"{path} is not a text file (a record is JSON)") from None


def _check_seat(seat: int | None, state: State) -> None:
    n = state.game.num_players
    if seat is not None and not 0 <= seat < n:
        raise CLIError(f"--seat must be 0..{n - 1}, got {seat}")


def _step_header(states: list[State], step: int, record: dict[str, Any]) -> str:
    last = f"; last action: {record['actions'][step - 1]}" if step else ""
    return f"step {step}/{len(states) - 1}{last}"


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--to", "to", type=int, help="Print the board after N actions and stop.")
@click.option("--end", is_flag=True, help="Print the final board and stop.")
@click.option("--seat", type=int, help="View as this seat (default: the public view).")
@click.option("--color/--no-color", default=None, help="Coloured board (default: when on a terminal).")
def replay(file: str, to: int | None, end: bool, seat: int | None, color: bool | None) -> None:
    """Step through a game record: enter = next, b = back, a number = jump, q = quit.

    Example: ludus replay game.json --end
    """
    record = _read(file)
    states = _states(record)
    _check_seat(seat, states[0])
    use_color = _use_color(color)
    last = len(states) - 1
    if to is not None or end:
        step = last if end else to
        if not 0 <= step <= last:
            raise CLIError(f"--to must be 0..{last}, got {step}")
        click.echo(_step_header(states, step, record))
        _show(states[step], seat, use_color)
        if states[step].is_terminal():
            _results(states[step])
        return
    step = 0
    while True:
        click.echo(_step_header(states, step, record))
        _show(states[step], seat, use_color)
        if states[step].is_terminal():
            _results(states[step])
        while True:
            try:
                line = click.prompt("[enter] next, b back, N jump, q quit", default="", show_default=False,
                                    prompt_suffix="> ").strip().lower()
            except click.Abort:
                return
            if line in ("q", "quit", "exit"):
                return
            if line == "":
                if step == last:
                    click.echo("error: this is the last step")
                    continue
                step += 1
            elif line in ("b", "back"):
                if step == 0:
                    click.echo("error: this is the first step")
                    continue
                step -= 1
            elif line.isdigit() and int(line) <= last:
                step = int(line)
            else:
                click.echo(f"error: {line!r} is not a command; steps run 0..{last}")
                continue
            break


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False), help="Write the board as SVG here ('-': stdout).")
@click.option("--text", is_flag=True, help="Print the board as text.")
@click.option("--step", type=int, help="After this many actions (default: the end of the record).")
@click.option("--seat", type=int, help="View as this seat (default: the public view).")
@click.option("--color/--no-color", default=None, help="Coloured text (default: when on a terminal).")
def render(file: str, svg_out: str | None, text: bool, step: int | None, seat: int | None,
           color: bool | None) -> None:
    """Draw a record's board as SVG (--svg OUT) or text (--text).

    Example: ludus render game.json --svg board.svg --step 40
    """
    if svg_out and svg_out != "-":
        _check_file(svg_out, "--svg")
    record = _read(file)
    states = _states(record)
    _check_seat(seat, states[0])
    last = len(states) - 1
    if step is None:
        step = last
    if not 0 <= step <= last:
        raise CLIError(f"--step must be 0..{last}, got {step}")
    state = states[step]
    renderer = _renderer(state.game.name)
    if svg_out:
        svg = renderer.render_svg(state.observation(seat))
        if svg_out == "-":
            click.echo(svg, nl=False)
        else:
            try:
                Path(svg_out).write_text(svg, encoding="utf-8")
            except OSError as exc:
                raise CLIError(f"cannot write {svg_out}: {exc.strerror}") from None
            click.echo(f"wrote {svg_out} (step {step}/{last})", err=True)
    if text or not svg_out:
        _show(state, seat, _use_color(color))


# -- simulate, tournament, report, solo-challenge ---------------------------------------------

def _table(title: str, key: str, rows: list[dict[str, Any]]):
    from rich.table import Table

    table = Table(title=title)
    table.add_column(key)
    for name in ("games", "mean", "stdev", "min", "max", "win rate"):
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(str(row[key]), str(row["games"]), f"{row['mean']:.2f}", f"{row['stdev']:.2f}",
                      str(row["min"]), str(row["max"]), f"{100 * row['win_rate']:.1f}%")
    return table


def _bot_specs(text: str, flag: str = "--bots") -> list[str]:
    """Comma-separated bot specs, each checked by the one parser (``ludus.bots.parse_spec``)."""
    specs = [b.strip() for b in text.split(",") if b.strip()]
    if not specs:
        raise CLIError(f"{flag} names no bot; known bots: {', '.join(bot_registry.names())}")
    from ludus.arena.simulate import make_bot

    for spec in specs:
        _no_seed(spec)
        try:
            make_bot(spec, 0)
        except ValueError as exc:
            raise CLIError(_one_line(str(exc))) from None
    return specs


def _no_seed(spec: str) -> None:
    """Bots' seeds come from each game's seed (so a run replays): a spec may not set one."""
    try:
        name, params = bot_registry.parse_spec(spec)
    except ValueError:
        return  # reported by the caller with the parser's own message
    if "seed" in params:
        raise CLIError(f"bot {name!r}: seed cannot be set in a bot spec; each bot's seed is drawn from "
                       "the game's seed (give --seed)")


def _progress(flag: bool | None) -> bool:
    """A progress bar only where someone watches: on a terminal, unless asked otherwise."""
    if flag is not None:
        return flag
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


_PROGRESS = click.option("--progress/--no-progress", default=None,
                         help="Progress on stderr (default: only when stderr is a terminal).")

_RUN_ERRORS = (ValueError, RuntimeError, TimeoutError, ConnectionError)

_RAY = click.option("--ray", "ray_address", metavar="ADDRESS",
                    help="Run the games on the Ray cluster at this address (host:port, ray://host:port, auto), "
                         "or 'local' for a Ray instance on this machine.")


@main.command()
@click.argument("game")
@_with_game_options
@click.option("--games", "-n", type=click.IntRange(min=1), default=10, show_default=True, help="Games to play.")
@click.option("--bots", default="random", show_default=True,
              help="Comma-separated bot specs (name or name:key=value:...), rotated over the seats from game to game.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: every core).")
@click.option("--seed", type=int, help="Master seed (each game's seed is drawn from it).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False),
              help="Write one line per game as it ends: its record (game, config, seed, actions) and its "
              "results; run again with the same arguments to resume an interrupted run.")
@_RAY
@_PROGRESS
def simulate(game: str, players: int | None, board: str | None, variant: str | None, rotation: bool | None,
             extra: tuple[str, ...], games: int, bots: str, jobs: int | None, seed: int | None,
             json_out: str | None, ray_address: str | None, progress: bool | None) -> None:
    """Play bots against each other and print score statistics per seat and per bot.

    Example: ludus simulate garum --games 200 --bots random,greedy --jobs 2 --seed 1
    """
    from rich.console import Console

    from ludus.arena.simulate import SimulationError, summarize
    from ludus.arena.simulate import simulate as run

    options = game_options(game, extra, players=players, board=board, variant=variant, rotation=rotation)
    the_game = _load(game, options)
    names = _bot_specs(bots)
    if json_out:
        _check_file(json_out, "--json")
    try:
        results = run(game, options, names, games, jobs=jobs, seed=seed, progress=_progress(progress),
                      out=json_out, ray_address=ray_address)  # streamed as games end; a rerun resumes
    except SimulationError as exc:
        raise click.ClickException(_one_line(str(exc))) from None
    except _RUN_ERRORS as exc:
        raise CLIError(_one_line(str(exc))) from None
    summary = summarize(results)
    console = Console(file=sys.stdout, width=100)
    config = " ".join(f"{k}={v}" for k, v in the_game.config.items())
    console.print(f"{game} {config}: {summary['games']} games, bots {', '.join(names)}")
    console.print(_table("Per seat", "seat", summary["seats"]))
    console.print(_table("Per bot", "bot", summary["bots"]))


@main.command()
@click.argument("game")
@_with_game_options
@click.option("--bots", required=True,
              help="Comma-separated bot specs: name or name:key=value:..., e.g. random,greedy,ismcts:iterations=100")
@click.option("--games", "-n", type=click.IntRange(min=1), default=20, show_default=True,
              help="Games per pairing (per table of 3-4 seats).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: every core).")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed: the deals every pairing shares.")
@click.option("--out", type=click.Path(file_okay=False), default="tournament", show_default=True,
              help="Directory for results.jsonl, ratings.json, head_to_head.json and ratings.png.")
@_RAY
@click.option("--bootstrap", type=click.IntRange(min=0), default=200, show_default=True,
              help="Bootstrap resamples for the rating intervals.")
def tournament(game: str, players: int | None, board: str | None, variant: str | None, rotation: bool | None,
               extra: tuple[str, ...], bots: str, games: int, jobs: int | None, seed: int, out: str,
               ray_address: str | None, bootstrap: int) -> None:
    """Round-robin bots (seats rotated, deals shared); print ratings and plot them.

    Example: ludus tournament garum --players 2 --bots random,greedy,ismcts --games 20 --jobs 2
    """
    from ludus.arena.tournament import tournament_command

    options = game_options(game, extra, players=players, board=board, variant=variant, rotation=rotation)
    _load(game, options)
    _bot_specs(bots)
    _check_dir(out, "--out")
    try:
        tournament_command(game, options, bots, games, jobs, seed, out, ray_address, bootstrap)
    except _RUN_ERRORS as exc:
        raise CLIError(_one_line(str(exc))) from None


@main.command()
@click.argument("game")
@_with_game_options
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games per configuration.")
@click.option("--bots", default="greedy", show_default=True,
              help="Comma-separated bot specs (name or name:key=value:...), rotated over the seats.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: every core).")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed.")
@click.option("--out", type=click.Path(file_okay=False), default="report", show_default=True,
              help="Directory for report.md and its plots.")
@click.option("--compare/--no-compare", default=True,
              help="Also play every board / variant / difficulty choice and compare them.")
def report(game: str, players: int | None, board: str | None, variant: str | None, rotation: bool | None,
           extra: tuple[str, ...], games: int, bots: str, jobs: int | None, seed: int, out: str,
           compare: bool) -> None:
    """Write a balance report (Markdown and PNG plots) from bot self-play.

    Example: ludus report garum --players 4 --games 200 --jobs 2
    """
    from ludus.arena.report import write_report

    options = game_options(game, extra, players=players, board=board, variant=variant, rotation=rotation)
    _load(game, options)
    names = _bot_specs(bots)
    _check_dir(out, "--out")
    try:
        path = write_report(game, options, games, out, bots=names, jobs=jobs, seed=seed, compare=compare)
    except _RUN_ERRORS as exc:
        raise CLIError(_one_line(str(exc))) from None
    click.echo(f"wrote {path}")


@main.command("solo-challenge")
@click.option("--bot", default="ismcts", show_default=True,
              help="Bot spec playing the human seat (name or name:key=value:...), e.g. ismcts:iterations=300.")
@click.option("--difficulty", "difficulties", multiple=True, type=click.Choice(["easy", "normal", "hard"]),
              help="Difficulties to play (repeatable; default all three).")
@click.option("--games", "-n", type=click.IntRange(min=1), default=20, show_default=True,
              help="Games to play in all (split between the difficulties).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: every core).")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed (the same deals at every difficulty).")
@click.option("--one-run/--per-difficulty", default=False,
              help="Play the games once and score them against every target (exact for bots that ignore it).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False), help="Write the whole result as JSON.")
def solo_challenge(bot: str, difficulties: tuple[str, ...], games: int, jobs: int | None, seed: int, one_run: bool,
                   json_out: str | None) -> None:
    """A bot plays Celtae solo against Solitairix: win rate and scores against each target.

    Example: ludus solo-challenge --bot ismcts --games 20 --jobs 2
    """
    from ludus.arena.solo import DIFFICULTIES
    from ludus.arena.solo import solo_challenge as challenge

    _bot_specs(bot, "--bot")
    if json_out:
        _check_file(json_out, "--json")
    try:
        name, params = bot_registry.parse_spec(bot)
        out = challenge(name, difficulties or DIFFICULTIES, games=games, jobs=jobs, seed=seed,
                        one_run=one_run, **params)
    except _RUN_ERRORS as exc:
        raise CLIError(_one_line(str(exc))) from None
    if json_out:
        try:
            with open(json_out, "w", encoding="utf-8") as f:
                json.dump(out, f, indent=1)
        except OSError as exc:
            raise CLIError(f"cannot write {json_out}: {exc.strerror}") from None


# -- serve ----------------------------------------------------------------------------------

def _database_checked(url: str | None) -> str:
    """The database URL, refused in one line unless the server can open and migrate it."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from ludus.server.storage import Store, database_url

    try:
        url = database_url(url)
    except (ArgumentError, ValueError) as exc:
        raise CLIError(f"--database: {_one_line(str(exc))}") from None
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    shown = parsed.render_as_string(hide_password=True)
    if parsed.drivername.startswith("sqlite"):
        folder = Path(parsed.database).resolve().parent
        if not folder.is_dir():
            raise CLIError(f"--database {shown}: the folder {folder} does not exist")
    if not parsed.drivername.startswith("sqlite") and "connect_timeout" not in parsed.query:
        parsed = parsed.update_query_dict({"connect_timeout": "10"})  # the check only: no long hang
    try:
        store = Store(parsed.render_as_string(hide_password=False))
    except (ArgumentError, ValueError, ImportError) as exc:
        raise CLIError(f"--database {shown}: {_one_line(str(exc))}") from None
    try:
        store.migrate()
    except SQLAlchemyError as exc:
        reason = _one_line(str(getattr(exc, "orig", None) or exc)).split(" (Background on")[0]
        where = f"{parsed.host or 'localhost'}:{parsed.port or 5432}" if not parsed.drivername.startswith(
            "sqlite") else parsed.database
        raise CLIError(f"cannot use the database at {where} ({shown}): {reason}") from None
    finally:
        store.engine.dispose()
    return url


def _check_port(host: str, port: int) -> None:
    """Refuse a port another program holds, before the address is printed."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CLIError(f"--host {host}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            sock.bind(address)
        except OSError as exc:
            raise CLIError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@click.option("--database", "database_url", envvar="LUDUS_DATABASE_URL", default=None,
              help="sqlite:///path.db (default ./ludus.db) or postgresql+psycopg://user:pw@host/db.")
def serve(host: str, port: int, database_url: str | None) -> None:
    """Run the online play server: HTTP API, WebSocket and the browser client.

    The database is opened and migrated, and the port checked, before the address is printed.
    """
    try:
        from ludus.server import serve as run_server
    except ImportError as exc:
        raise CLIError(f"the server needs the 'server' extra (pip install 'ludus[server]'): {exc}") from None
    _check_port(host, port)
    url = _database_checked(database_url)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    click.echo(f"ludus: open http://{shown}:{port}/ in a browser (Ctrl-C stops the server)")
    run_server(host, port, url)


if __name__ == "__main__":  # pragma: no cover
    main()
