"""``/<game> export``: your games of one game as a file, for you alone: one JSON line a game, as
``python -m bot export`` writes them (``bot.platform.export``: a finished game with its log and seed,
a running one by its players alone). A file is no bigger than Discord lets the bot attach here; more
games than ``FILES`` such files hold are not sent, and the asker is told where to get them all (the
web's ``/api/games?player=`` when the bot has a public address)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.platform import export

if TYPE_CHECKING:
    from bot.discord.front import Road

FILES = 4
"""Files one answer carries at most (Discord: 10)."""


def add_export_command(group: app_commands.Group, client: Road, game: str) -> None:
    @group.command(name="export", description="Your games as a file, for you alone (one JSON line a game)")
    async def export_(interaction: discord.Interaction[Any]) -> None:
        """The asker's own games only: nobody exports another's (and a running game's log stays out)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        limit = interaction.filesize_limit
        me = str(interaction.user.id)
        files: list[bytearray] = [bytearray()]
        count, whole = 0, True
        async for row in export.rows_asked(client.platform, export.Asked(player_id=me)):
            if row.game != game:
                continue
            line = await export.line_of(client.platform, row)
            if len(files[-1]) + len(line) > limit:
                if len(files) == FILES or len(line) > limit:
                    whole = False
                    break
                files.append(bytearray())
            files[-1] += line
            count += 1
        url = client.platform.settings.public_url
        where = f"<{url}/api/games?player={me}&game={game}>" if url else "the bot's operator (python -m bot export)"
        if not count:
            nothing = (
                f"You have no {game} games here yet."
                if whole
                else f"Your games do not fit in a file here: ask {where}."
            )
            await interaction.followup.send(nothing, ephemeral=True)
            return
        said = f"Your {count} {game} game{'s' if count != 1 else ''}, one JSON line a game (docs/data.md)."
        if not whole:
            said += f" Only the oldest fit in {FILES} files: every one is at {where}."
        attached = [
            discord.File(
                io.BytesIO(bytes(data)), f"{game}-games-{n + 1}.ndjson" if len(files) > 1 else f"{game}-games.ndjson"
            )
            for n, data in enumerate(files)
        ]
        await interaction.followup.send(said, files=attached, ephemeral=True)
