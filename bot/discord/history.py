"""``/<game> history``: a member's games of one game, newest first, a page at a time, each with the
id to replay. The same for every game: each line is the game module's ``history_line``."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.buttons import FORGED, Buttons, GameButton
from bot.discord.front import road_of
from bot.platform.compose import Platform

PAGE = 10


async def history_page(
    platform: Platform, game: str, player_id: str, name: str, offset: int
) -> tuple[discord.Embed, discord.ui.View]:
    """The page of ``player_id``'s games of ``game`` from ``offset``, with its paging buttons."""
    rows = await (await platform.settled_views()).history(player_id, limit=PAGE + 1, offset=offset, game=game)
    lines = [
        f"`{row.game_id}` <t:{int(row.updated_at)}:d> {platform.games[game].history_line(row, player_id)}"
        for row in rows[:PAGE]
    ]
    text = "\n".join(lines) or ("No games yet." if offset == 0 else "No more games.")
    shown = discord.Embed(title=f"{name}'s games", description=text)
    shown.set_footer(text=f"Games {offset + 1}–{offset + len(lines)} · /{game} replay game:<id> to watch one")
    view = Buttons()
    view.add_item(HistoryButton(game, player_id, max(0, offset - PAGE), "newer", disabled=offset == 0))
    view.add_item(HistoryButton(game, player_id, offset + PAGE, "older", disabled=len(rows) <= PAGE))
    return shown, view


def add_history_command(group: app_commands.Group, platform: Platform, game: str) -> None:
    """``/<game> history [member]``: the member's (or the caller's) games, a page at a time, for them alone."""

    @group.command(name="history", description="Recent games, yours or a member's")
    @app_commands.describe(member="whose games (yours if left out)")
    async def history(interaction: discord.Interaction[Any], member: discord.Member | None = None) -> None:
        who = member or interaction.user
        embed, view = await history_page(platform, game, str(who.id), who.display_name, 0)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


class HistoryButton(
    GameButton,
    template=r"(?P<game>[a-z]{1,20}):history:(?P<player>\d{1,20}):(?P<offset>\d{1,6}):(?P<which>older|newer)",
):
    pages_a_private_message = True

    def __init__(self, game: str, player_id: str, offset: int, which: str, disabled: bool = False) -> None:
        label = "Older ▶" if which == "older" else "◀ Newer"
        super().__init__(f"{game}:history:{player_id}:{offset}:{which}", label, disabled=disabled)
        self.game, self.player_id, self.offset = game, player_id, offset

    @classmethod
    def parse(cls, match: re.Match[str]) -> HistoryButton:
        return cls(match["game"], match["player"], int(match["offset"]), match["which"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        platform = road_of(interaction).platform
        if self.game not in platform.games:
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        shown = interaction.message.embeds if interaction.message else []
        name = ((shown[0].title if shown else None) or "Their's games").removesuffix("'s games")
        embed, view = await history_page(platform, self.game, self.player_id, name, self.offset)
        await interaction.response.edit_message(embed=embed, view=view)
