"""The Hog front a button's click is for: buttons are rebuilt from their custom_id alone, so they
find the front through the client the click came to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord

from bot.discord.client import GameBot

if TYPE_CHECKING:
    from bot.games.hog.discord.cog import HogFront

GAME = "hog"


def front(interaction: discord.Interaction[Any]) -> HogFront:
    client = interaction.client
    assert isinstance(client, GameBot)
    return cast("HogFront", client.fronts[GAME])
