"""``/<game> verify game:<id>``: a finished game's every die or card checked against its revealed seed,
for any game, told to the asker alone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.platform.contract import Refusal
from bot.platform.fairness import verify

if TYPE_CHECKING:
    from bot.discord.front import Road


def add_verify_command(group: app_commands.Group, client: Road, game: str) -> None:
    @group.command(name="verify", description="Check a finished game's dice or cards against its revealed seed")
    @app_commands.describe(game_id="the game's id")
    @app_commands.rename(game_id="game")
    async def verify_(interaction: discord.Interaction[Any], game_id: str) -> None:
        try:
            verdict = await verify(client.service(game), client.platform.kept, game_id.strip())
        except Refusal as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        await interaction.response.send_message(f"```\n{verdict.text}\n```", ephemeral=True)
