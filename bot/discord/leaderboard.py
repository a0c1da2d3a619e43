"""``/<game> leaderboard``: the server's players of one game by rating, a page at a time, with the
asker's own place even when it is off the page. For the asker alone, so that each pages their own.
The same for every game."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from bot.discord.buttons import GameButton
from bot.discord.front import FORGED
from bot.platform.ratings import FARM_LIMIT, standings_lines

if TYPE_CHECKING:
    from bot.discord.front import Table

PAGE = 10
MAX_OFFSET = 9_999_990
"""The highest offset a custom_id may carry (its digits are bounded, like every custom_id's)."""


async def leaderboard_page(
    client: Table, interaction: discord.Interaction[Any], game: str, offset: int
) -> tuple[discord.Embed, discord.ui.View]:
    """The page of the leaderboard of ``game`` in the asker's server (everyone's outside a server)."""
    server = str(interaction.guild_id) if interaction.guild_id is not None else None
    if server is not None and interaction.channel_id is not None:
        await client.locate(str(interaction.channel_id), server)
    views = await client.settled_views()
    standings = await views.ratings.standings(game, str(interaction.user.id), server, limit=PAGE, offset=offset)
    lines, you = standings_lines(standings, discord.utils.escape_markdown)
    title = client.platform.games[game].title
    where = interaction.guild.name if interaction.guild is not None else "this server" if server else "everyone"
    empty = "Nobody is rated yet: ratings come from games between people." if offset == 0 else "No more players."
    shown = discord.Embed(title=f"🏆 {title} leaderboard · {where}", description="\n".join(lines) or empty)
    shown.add_field(name="Your place", value=you, inline=False)
    shown.set_footer(
        text=f"Rating = 1000 + 40 × (skill − 3 × uncertainty). Games with bots are not rated; "
        f"the same players count {FARM_LIMIT} games an hour."
    )
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardButton(game, max(0, offset - PAGE), "up", disabled=offset == 0))
    view.add_item(LeaderboardButton(game, offset + PAGE, "down", disabled=offset + PAGE >= standings.total))
    return shown, view


def add_leaderboard_command(group: app_commands.Group, client: Table, game: str) -> None:
    """``/<game> leaderboard``: this server's players by rating, for the asker alone."""

    @group.command(name="leaderboard", description="This server's best players, by rating")
    async def leaderboard(interaction: discord.Interaction[Any]) -> None:
        embed, view = await leaderboard_page(client, interaction, game, 0)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


class LeaderboardButton(GameButton, template=r"(?P<game>[a-z]{1,20}):leaders:(?P<offset>\d{1,7}):(?P<which>up|down)"):
    def __init__(self, game: str, offset: int, which: str, disabled: bool = False) -> None:
        label = "◀ Higher" if which == "up" else "Lower ▶"
        super().__init__(f"{game}:leaders:{min(offset, MAX_OFFSET)}:{which}", label, disabled=disabled)
        self.game, self.offset = game, offset

    @classmethod
    def parse(cls, match: re.Match[str]) -> LeaderboardButton:
        return cls(match["game"], int(match["offset"]), match["which"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        client = cast("Table", interaction.client)
        if self.game not in client.platform.games:
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        embed, view = await leaderboard_page(client, interaction, self.game, self.offset)
        await interaction.response.edit_message(embed=embed, view=view)
