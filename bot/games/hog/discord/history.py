"""``/hog history``: a member's games, newest first, a page at a time, each with the id to replay."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.games.hog.discord.reach import front
from storage.games import GameRow

PAGE = 10


def history_embed(rows: list[GameRow], lines: list[str], name: str, offset: int) -> discord.Embed:
    """A page of games, each told by its line."""
    if not rows:
        text = "No games yet." if offset == 0 else "No more games."
    else:
        text = "\n".join(
            f"`{row.game_id}` <t:{int(row.updated_at)}:d> {line}" for row, line in zip(rows[:PAGE], lines, strict=False)
        )
    shown = discord.Embed(title=f"{name}'s games", description=text)
    shown.set_footer(text=f"Games {offset + 1}–{offset + len(rows[:PAGE])} · /hog replay game:<id> to watch one")
    return shown


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"hog:history:(?P<player>\d{1,20}):(?P<offset>\d{1,6}):(?P<which>older|newer)",
):
    def __init__(self, player_id: str, offset: int, which: str, disabled: bool = False) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Older ▶" if which == "older" else "◀ Newer",
            style=discord.ButtonStyle.secondary,
            custom_id=f"hog:history:{player_id}:{offset}:{which}",
            disabled=disabled,
        )
        super().__init__(button)
        self.player_id, self.offset = player_id, offset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        return cls(match["player"], int(match["offset"]), match["which"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        shown = interaction.message.embeds if interaction.message else []
        name = ((shown[0].title if shown else None) or "Their's games").removesuffix("'s games")
        embed, view = await front(interaction).history_page(self.player_id, name, self.offset)
        await interaction.response.edit_message(embed=embed, view=view)


def history_view(player_id: str, offset: int, more: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryButton(player_id, max(0, offset - PAGE), "newer", disabled=offset == 0))
    view.add_item(HistoryButton(player_id, offset + PAGE, "older", disabled=not more))
    return view
