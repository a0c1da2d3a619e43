"""The bot's own emojis (Discord's application emojis: up to 2,000 an app, shown in every server, DM
and group DM). Each game's front names the ones it draws (``DiscordFront.emojis``: a name and how to
draw it); at start-up the ones Discord has are found by name, and only those missing are drawn and
uploaded, so a restart uploads nothing. A board asks for one by name with words to show instead while
it is not there (Discord out of reach at the start, the app's emoji list full)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import discord

log = logging.getLogger(__name__)


class Emojis:
    def __init__(self) -> None:
        self._mentions: dict[str, str] = {}

    def __call__(self, name: str, fallback: str) -> str:
        """The emoji ``name`` as a message writes it (``<:die_5:123…>``), or ``fallback``."""
        return self._mentions.get(name, fallback)

    async def upload(self, client: discord.Client, wanted: Mapping[str, Callable[[], bytes]]) -> None:
        """Find each wanted emoji on Discord by name, drawing and uploading those missing."""
        have: dict[str, discord.Emoji] = {}
        try:
            have = {e.name: e for e in await client.fetch_application_emojis()}
            for name, drawing in wanted.items():
                if name not in have:
                    have[name] = await client.create_application_emoji(name=name, image=drawing())
                    log.info("uploaded the emoji %s", name)
        except discord.HTTPException as error:  # the boards say it in words meanwhile
            log.warning("could not have every emoji (%s): boards show their words instead", error)
        self._mentions.update({name: str(have[name]) for name in wanted if name in have})
