"""How the ``ludus`` command fails: one line ``error: ...`` and exit code 2, never a traceback."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import click

from ludus.engine.errors import DataFileError, IllegalActionError, OptionError, RecordError

EXIT_BAD_INPUT = 2


class CLIError(click.ClickException):
    """Bad input: reported as one line, exit code 2."""

    exit_code = EXIT_BAD_INPUT


def one_line(text: object) -> str:
    """A message on one line (engine messages may wrap)."""
    return " ".join(str(text).split())


def require_extra(extra: str, what: str, *modules: str) -> None:
    """Refuse ``what`` (a command or flag) before any work when a module of the optional ``extra``
    is not installed, naming the extra to install."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise CLIError(
            f"{what} needs {', '.join(missing)}, from the '{extra}' extra (pip install 'ludus[{extra}]')"
        )


class LudusGroup(click.Group):
    """A group that turns every error into ``error: ...`` on one line, exit code 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra: Any):  # type: ignore[override]
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:  # ``ludus`` alone: the usage, as --help shows it
            click.echo(exc.ctx.get_help())
            code = 0
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            _fail(one_line(exc.format_message()) + hint, standalone_mode)
        except click.ClickException as exc:
            _fail(one_line(exc.format_message()), standalone_mode)
        except (OptionError, RecordError, IllegalActionError, DataFileError) as exc:
            _fail(one_line(str(exc)), standalone_mode)
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
