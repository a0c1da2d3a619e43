"""What Cucumber's buttons and commands ask of its Discord front, as a protocol: they find the front
from a click (``cucumber``) and call it by these names, while the front (``front.CucumberFront``)
imports them to list and wire them. The package's imports run one way: front -> commands, embeds ->
buttons -> desk."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.discord.front import Road, front_of
from bot.games.cucumber.module import CucumberGame
from cucumber_core.cards import Card

GAME = "cucumber"


class CucumberDesk(Protocol):
    client: Road
    game: CucumberGame

    async def seated_elsewhere(self, player: str, place: str, game_id: str | None = None) -> bool: ...
    async def lobby(self, interaction: discord.Interaction[Any], game_id: str, action: str) -> None: ...
    async def rematch(self, interaction: discord.Interaction[Any], game_id: str) -> None: ...
    async def come_back(self, interaction: discord.Interaction[Any], game_id: str) -> None: ...
    async def show_hand(self, interaction: discord.Interaction[Any], game_id: str) -> None: ...
    async def play_card(self, interaction: discord.Interaction[Any], game_id: str, moment: str, card: Card) -> None: ...
    async def analysis(self, game_id: str) -> discord.Embed | str: ...
    async def replay_step(
        self, interaction: discord.Interaction[Any], game_id: str, step: int, fresh: bool
    ) -> None: ...


def cucumber(interaction: discord.Interaction[Any]) -> CucumberDesk:
    """Cucumber's front on the client a click came to."""
    front: CucumberDesk = front_of(interaction, GAME)
    return front
