"""What Hog's buttons and commands ask of its Discord front, as a protocol: they find the front from a
click (``hog``) and call it by these names, while the front (``front.HogFront``) imports them to
list and wire them. The package's imports run one way: front -> commands, buttons, contest, puzzles,
replays -> desk."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord.front import Road, Shown, front_of
from bot.discord.layout import Board
from bot.games.hog.contest.arena import Contests
from bot.games.hog.module import HogGame
from bot.platform.contract import Outcome
from hog_core.events import Event
from hog_core.game import Command, CreateGame, GameState

if TYPE_CHECKING:
    from bot.games.hog.discord.puzzles import PuzzleDesk

GAME = "hog"


class HogDesk(Protocol):
    client: Road
    game: HogGame
    contests: Contests
    puzzles: PuzzleDesk

    async def show(self, outcome: Outcome[GameState, Event]) -> Board: ...
    async def replay(self, game_id: str, step: int) -> Shown | None: ...
    async def analysis(self, game_id: str, page: int) -> Shown | None: ...
    async def send_animation(self, interaction: discord.Interaction[Any], game_id: str) -> None: ...
    async def hint(self, game_id: str, place: str) -> str: ...
    async def move(self, interaction: discord.Interaction[Any], game_id: str, version: int, k: int) -> None: ...
    async def answer(self, interaction: discord.Interaction[Any], game_id: str, command: Command) -> None: ...
    async def rematch(self, interaction: discord.Interaction[Any], game_id: str) -> None: ...
    async def open_game(
        self, interaction: discord.Interaction[Any], create: CreateGame, mention: str | None = None
    ) -> None: ...


def hog(interaction: discord.Interaction[Any]) -> HogDesk:
    """Hog's front on the client a click came to."""
    front: HogDesk = front_of(interaction, GAME)
    return front
