"""What a game gives the Discord client: its slash-command group, its buttons, and its board as a
message. Built by the factory its game module names in ``discord_front``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.platform.contract import Outcome

FORGED = "That button is not one of mine."
"""The answer to a button whose custom_id is none of ours, or is not as we made it."""


@dataclass(frozen=True)
class Shown:
    """A message's embed and buttons, and the files it carries (the picture of a game)."""

    embed: discord.Embed
    view: discord.ui.View
    files: list[discord.File] = field(default_factory=list)


class DiscordFront(Protocol):
    buttons: tuple[type[discord.ui.DynamicItem[Any]], ...]
    """Its persistent buttons: custom_ids carry everything, so they work after a restart."""

    def commands(self) -> app_commands.Group: ...

    async def show(self, outcome: Outcome[Any, Any]) -> Shown:
        """The public board after ``outcome``: what everyone in the channel may see."""
        ...

    async def finished(self, outcome: Outcome[Any, Any], shown: Shown) -> Shown:
        """The board of a game that is over, with what takes a moment to make (a picture); ``shown`` if nothing."""
        ...

    def close(self) -> None: ...
