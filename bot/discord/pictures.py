"""A finished game's picture, drawn when someone asks for it: the finished board offers *Picture*,
and a press draws it (once: kept by game and version) and shows it on that board. Most finished
games are never looked at again; drawing each one as it ended cost a third of the bot's CPU."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.buttons import GameButton
from bot.discord.front import road_of


class PictureButton(GameButton, template=r"(?P<game>[a-z]{1,20}):picture:(?P<game_id>[^:]{1,100})"):
    """*Picture* on a finished game's board: anyone in the channel may press it (a finished game hides nothing)."""

    def __init__(self, game: str, game_id: str) -> None:
        super().__init__(f"{game}:picture:{game_id}", "Picture", emoji="🖼️")
        self.game, self.game_id = game, game_id

    @classmethod
    def parse(cls, match: re.Match[str]) -> PictureButton:
        return cls(match["game"], match["game_id"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        await road_of(interaction).show_picture(interaction, self.game, self.game_id)
