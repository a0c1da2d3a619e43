"""The game modules the platform plays, by name: the only place the platform learns of a game.

A module is named by an import path, ``module:factory``; the factory is called with the settings
and returns the ``Game``. The platform imports nothing of a game but through here.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from bot.platform.contract import Game, Refusal
from bot.platform.settings import Settings

GAMES: Mapping[str, str] = {
    "hog": "bot.games.hog.module:HogGame",
    "cucumber": "bot.games.cucumber.module:CucumberGame",
}
LEGACY = "hog"
"""Event type names stored before they were namespaced (``TurnTaken``) are this game's."""

AnyGame = Game[Any, Any, Any]


def load(path: str) -> Any:
    """The object an import path ``package.module:name`` names."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class Games(Mapping[str, AnyGame]):
    """The loaded game modules, by name."""

    def __init__(self, games: Mapping[str, AnyGame]) -> None:
        self._games = dict(games)

    @classmethod
    def load(cls, settings: Settings, modules: Mapping[str, str] = GAMES) -> Games:
        games = {name: load(path)(settings) for name, path in modules.items()}
        for name, game in games.items():
            if game.name != name:
                raise ValueError(f"the game module {modules[name]} is named {game.name!r}, not {name!r}")
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

    def of(self, type_name: str) -> AnyGame:
        """The game that wrote an event of ``type_name``; ``Refusal`` when no module here plays it."""
        name = self.owner(type_name)
        if name not in self._games:
            raise Refusal(f"This is a game of {name}, which this bot does not play.")
        return self._games[name]
