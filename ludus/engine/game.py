"""A game: validated options and the factory of states (OpenSpiel's Game, declaratively)."""

from __future__ import annotations

import json
import secrets
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .data import DataFiles, DataSource, game_data
from .errors import OptionError
from .hookspec import NONE, Hooks

if TYPE_CHECKING:
    from .action import Action
    from .state import State


@dataclass(frozen=True)
class Option:
    """One game option: its valid values, its default and what it changes.

    ``doc`` is for the command line and ``ludus games`` (it may cite rulings); the lobby shows a
    player's words: ``label`` (what the option does), ``choice_labels`` (each value's words, in the
    order of ``choices``; "" or missing: the value itself) and ``advanced`` (rulings-level options
    shown under a closed "Advanced" disclosure with their defaults).
    """

    name: str
    choices: tuple[Any, ...]
    default: Any
    doc: str = ""
    label: str = ""
    choice_labels: tuple[str, ...] = ()
    advanced: bool = False

    def __post_init__(self) -> None:
        if len(self.choice_labels) > len(self.choices):
            raise ValueError(f"option {self.name}: more choice_labels than choices")


class Game(ABC):
    """The rules of one game in one configuration.

    Subclasses declare ``name`` and ``options``; ``config`` holds every option's value
    (defaults filled in), which is what a record stores. ``hooks`` declares what the game
    adds for the layers above (renderer, heuristic, encoder ...; see ``ludus.engine.hookspec``).
    A game whose component facts are data files names their folder in ``data_package``; ``data_files``
    are the files it plays with (``ludus.engine.data``), replaced from a folder of one's own by the
    ``data`` argument.
    """

    name: ClassVar[str]
    options: ClassVar[tuple[Option, ...]]
    state_class: ClassVar[type[State]]
    hooks: ClassVar[Hooks] = NONE
    title: ClassVar[str] = ""  # the game's name as people write it ("" : ``name`` capitalised)
    tagline: ClassVar[str] = ""  # a line that says what the game is ("" : the class docstring's first line)
    data_package: ClassVar[str | None] = None  # "package:folder" of the game's data files (None: it has none)

    @classmethod
    def display_title(cls) -> str:
        """The title shown to people (the lobby, pages, ``ludus games``, ``--help``)."""
        return cls.title or cls.name.replace("_", " ").title()

    @classmethod
    def display_tagline(cls) -> str:
        """The one-line pitch shown beside the title."""
        if cls.tagline:
            return cls.tagline
        doc = cls.__doc__ or sys.modules[cls.__module__].__doc__ or ""
        return doc.strip().split("\n")[0].strip()

    def __init__(self, *, data: DataSource = None, **options: Any) -> None:
        self.config = self.validate_options(options)
        self.data_files: DataFiles | None = game_data(self.name, self.data_package, data)

    @property
    def data_tag(self) -> str | None:
        """The hash of the data played with, as records hold it: None for the package's own values."""
        files = getattr(self, "data_files", None)
        return files.tag if files is not None else None

    @classmethod
    def validate_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults and refuse unknown names or values, listing the valid ones."""
        known = {opt.name: opt for opt in cls.options}
        for key, value in options.items():
            if key not in known:
                raise OptionError(f"{cls.name} has no option {key!r}; valid options: {', '.join(known)}")
            choices = known[key].choices
            if value not in choices or type(value) is not type(_match(value, choices)):
                shown = ", ".join(repr(c) for c in choices)
                raise OptionError(f"{cls.name}: {key}={value!r} is not valid; choose one of {shown}")
        config = {name: options.get(name, opt.default) for name, opt in known.items()}
        cls.check_config(config)
        return config

    @classmethod
    def check_config(cls, config: dict[str, Any]) -> None:
        """Refuse combinations of options that do not go together (raise OptionError)."""
        return None

    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of seats."""

    def new_initial_state(self, seed: int | None = None) -> State:
        """A new game; the same seed and the same actions always give the same game."""
        if seed is None:
            seed = secrets.randbits(52)  # exact in JSON readers that use doubles (browsers)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, got {seed!r}")
        return self._new_state(seed)

    @abstractmethod
    def _new_state(self, seed: int) -> State: ...

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Notation to Action; text that is not notation raises IllegalActionError."""

    def all_actions(self) -> list[Action]:
        """Every action the game can ever offer, in a fixed order (fixed action spaces for RL).

        Games whose actions cannot be listed in advance leave this unimplemented.
        """
        raise NotImplementedError(f"{self.name} has no fixed list of every action")

    def state_from_json(self, text: str) -> State:
        """Resume a state written by ``State.to_json`` (hidden information and RNG included)."""
        from .state import State

        try:
            data = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"not a saved {self.name} state: {exc}") from None
        if not isinstance(data, dict) or data.get("game") != self.name:
            raise ValueError(f"not a saved {self.name} state")
        if data.get("config") != self.config:
            raise ValueError(
                f"the saved state was played with options {data.get('config')}, not {self.config}"
            )
        if data.get("data") != self.data_tag:
            raise ValueError(
                f"the saved state was played with {_data_text(data.get('data'))}, not {_data_text(self.data_tag)}"
            )
        return State.from_dict(self, data)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.config.items())
        return f"load_game({self.name!r}, {opts})"


def _data_text(tag: Any) -> str:
    return "the printed components" if tag is None else f"data {tag}"


def _match(value: Any, choices: tuple[Any, ...]) -> Any:
    """The choice equal to ``value`` (so that True is not accepted for 1)."""
    for choice in choices:
        if choice == value and type(choice) is type(value):
            return choice
    return object()
