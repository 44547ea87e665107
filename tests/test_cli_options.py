"""The shared option factories (``games_option``, ``seed_option``, ``bots_option``): each command keeps its
own default and help, and a bot option without a default is required."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from ludus.cli import main


def help_of(*command: str) -> str:
    result = CliRunner().invoke(main, [*command, "--help"], prog_name="ludus", terminal_width=200)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


@pytest.mark.parametrize(
    ("command", "games", "seed"),
    [
        (("simulate",), "Games to play. [default: 10;", "Master seed (each game's seed is drawn from it)."),
        (
            ("tournament",),
            "Games per pairing (per table of 3-4 seats). [default: 20;",
            "shares. [default: 0]",
        ),
        (("report",), "Games per configuration. [default: 100;", "Master seed. [default: 0]"),
        (("compare",), "Deals, each played under A and B. [default: 100;", "simulate). [default: 0]"),
        (("solo-challenge",), "(split between the difficulties). [default: 20;", "difficulty). [default: 0]"),
        (("balance",), "plays only what is missing). [default: 2000;", "configuration. [default: 0]"),
    ],
)
def test_each_command_shows_its_own_games_and_seed_defaults(command, games, seed):
    text = help_of(*command)
    assert "-n, --games INTEGER RANGE" in text and games in text and seed in text


def test_simulate_has_no_seed_default_and_tournament_requires_its_bots():
    simulate = help_of("simulate")
    assert not re.search(r"drawn from it\)\. \[default", simulate)
    assert "--bots TEXT Comma-separated bot specs: name or name:key=value:..., e.g. random" in help_of(
        "tournament"
    )
    missing = CliRunner().invoke(main, ["tournament", "garum"], prog_name="ludus")
    assert missing.exit_code == 2 and "Missing option '--bots'" in missing.output


def test_solo_challenge_and_balance_take_one_bot_with_their_defaults():
    assert "--bot TEXT Bot spec playing the human seat" in help_of("solo-challenge")
    assert "[default: ismcts]" in help_of("solo-challenge")
    text = help_of("balance")
    assert "--bot TEXT The bot spec in every seat. [default: greedy]" in text
    assert "--search-bot TEXT" in text and "[default: ismcts]" in text
