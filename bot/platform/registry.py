"""The game modules the platform plays, by name: the only place the platform learns of a game.

Games are plugins: each is an entry point of the group ``hogbot.games`` (``press =
hogbot_press.game:PressGame``), found among the installed distributions. Hog and Cucumber are
registered the same way, in this project's ``pyproject.toml``. An entry point names a factory
that is called with the settings and returns the ``Game``; it is checked against the contract
as it is loaded (``contract.check``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from bot.platform.contract import Game, Refusal, UnfitGame, check
from bot.platform.settings import Settings
from storage.events import EventStore

GROUP = "hogbot.games"
LEGACY = "hog"
"""Event type names stored before they were namespaced (``TurnTaken``) are this game's."""

AnyGame = Game[Any, Any, Any]

RECORD = "@"
"""A stream whose id begins with this is a record that is not a game (a contest's entries): its
own module reads it; the projector and the timers pass it by."""


def is_record(stream_id: str) -> bool:
    return stream_id.startswith(RECORD)


@dataclass(frozen=True, slots=True)
class Installed:
    """A game module as it is installed: its name, its import path, and the distribution that brings it."""

    name: str
    path: str
    distribution: str
    version: str


def installed() -> list[Installed]:
    """Every game module installed in this Python, by its entry point."""
    found = []
    for point in entry_points(group=GROUP):
        dist = point.dist
        found.append(Installed(point.name, point.value, dist.name if dist else "?", dist.version if dist else "?"))
    return sorted(found, key=lambda game: (game.name != LEGACY, game.name))


def installed_modules(distribution: str | None = None) -> dict[str, str]:
    """The installed game modules' import paths, by name (Hog first); only those ``distribution``
    brings, when it is named."""
    modules = {game.name: game.path for game in installed() if distribution in (None, game.distribution)}
    if not modules:
        raise UnfitGame(
            f"no game is installed (entry points {GROUP!r}): install this project with pip, "
            'for instance python -m pip install -e ".[test]"'
        )
    return modules


def load(path: str) -> Any:
    """The object an import path ``package.module:name`` names."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class Games(Mapping[str, AnyGame]):
    """The loaded game modules, by name."""

    def __init__(self, games: Mapping[str, AnyGame]) -> None:
        self._games = dict(games)

    @classmethod
    def load(cls, settings: Settings, modules: Mapping[str, str] | None = None) -> Games:
        """The game modules named (``name: module:factory``), or every installed one, each built with
        ``settings`` and checked against the contract."""
        modules = installed_modules() if modules is None else modules
        games: dict[str, AnyGame] = {}
        for name, path in modules.items():
            try:
                factory = load(path)
            except (ImportError, AttributeError) as error:
                raise UnfitGame(f"cannot load the game module {path}: {type(error).__name__}: {error}") from error
            game = factory(settings)
            check(game, path)
            if game.name != name:
                raise UnfitGame(f"the game module {path} is named {game.name!r}, not {name!r}")
            games[name] = game
        return cls(games)

    def __getitem__(self, name: str) -> AnyGame:
        return self._games[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def owner(self, type_name: str) -> str:
        """The game an event type belongs to: ``hog.TurnTaken`` is Hog's, as is a bare legacy name."""
        game, dot, _ = type_name.partition(".")
        return game if dot else LEGACY

    async def of_stored(self, store: EventStore, game_id: str) -> AnyGame | None:
        """The game that wrote ``game_id`` (``None``: no such game stored; ``Refusal`` when no module
        here plays it), from its first event's type alone."""
        found = await store.first_type(game_id)
        return None if found is None else self.of(found)

    def of(self, type_name: str) -> AnyGame:
        """The game that wrote an event of ``type_name``; ``Refusal`` when no module here plays it."""
        name = self.owner(type_name)
        if name not in self._games:
            raise Refusal(f"This is a game of {name}, which this bot does not play.")
        return self._games[name]
