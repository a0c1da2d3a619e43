"""``/<game> leaderboard``: the server's players of one game by rating, a page at a time, with the
asker's own place even when it is off the page. For the asker alone, so that each pages their own.
The same for every game."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.buttons import FORGED, Buttons, GameButton
from bot.discord.front import Road, road_of
from bot.platform import seasons
from bot.platform.ratings import FARM_LIMIT, standing_line, standings_lines

PAGE = 10
SEASON_SHOWN = 20
escape = discord.utils.escape_markdown
MAX_OFFSET = 9_999_990
"""The highest offset a custom_id may carry (its digits are bounded, like every custom_id's)."""


async def leaderboard_page(
    client: Road, interaction: discord.Interaction[Any], game: str, offset: int
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
    view = Buttons()
    view.add_item(LeaderboardButton(game, max(0, offset - PAGE), "up", disabled=offset == 0))
    view.add_item(LeaderboardButton(game, offset + PAGE, "down", disabled=offset + PAGE >= standings.total))
    return shown, view


def add_leaderboard_command(group: app_commands.Group, client: Road, game: str) -> None:
    """``/<game> leaderboard [season]`` and ``/<game> hall-of-fame``, for the asker alone."""

    @group.command(name="leaderboard", description="This server's best players, by rating (all time, or a season's)")
    @app_commands.describe(season="a season's number (0: the season now); all-time ratings when left out")
    async def leaderboard(
        interaction: discord.Interaction[Any], season: app_commands.Range[int, 0, 10_000] | None = None
    ) -> None:
        if season is None:
            embed, view = await leaderboard_page(client, interaction, game, 0)
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
            return
        if interaction.guild_id is None:
            await interaction.response.send_message("Seasons belong to a server: ask in one.", ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True)
        await interaction.followup.send(embed=await season_page(client, interaction, game, season), ephemeral=True)

    @group.command(name="hall-of-fame", description="Each past season's top three here, and each tournament's winner")
    async def hall_of_fame(interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            await interaction.response.send_message("The hall of fame belongs to a server: ask in one.", ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True)
        fame = await client.platform.seasons.hall_of_fame(str(interaction.guild_id), game)
        medals = ("🥇", "🥈", "🥉")
        lines = [
            f"**{s.title}**: " + " · ".join(f"{medals[r.rank - 1]} {escape(r.rating.name)}" for r in top)
            for s, top in reversed(fame.seasons)
        ]
        lines += [f"🏆 Tournament `{tid}` ({fmt}): {', '.join(map(escape, won))}" for tid, fmt, won in fame.tournaments]
        title = client.platform.games[game].title
        embed = discord.Embed(
            title=f"🏛️ {title} hall of fame · {interaction.guild.name if interaction.guild else 'this server'}",
            description="\n".join(lines)[:4000] or "Empty so far: it fills as seasons end and tournaments are won.",
        )
        await interaction.followup.send(embed=embed, ephemeral=True)


async def season_page(client: Road, interaction: discord.Interaction[Any], game: str, number: int) -> discord.Embed:
    """A season's leaderboard in the asker's server (its top ``SEASON_SHOWN``, and the asker's place)."""
    server = str(interaction.guild_id)
    if interaction.channel_id is not None:
        await client.locate(str(interaction.channel_id), server)
    found = await client.platform.seasons.of_server(server)
    title = client.platform.games[game].title
    if not found:
        return discord.Embed(
            title=f"🏆 {title} seasons", description="No season yet: seasons begin with the first game here."
        )
    wanted = seasons.numbered(found, number)
    if wanted is None:
        return discord.Embed(
            title=f"🏆 {title} seasons", description=f"There is no season {number}: seasons 1 to {len(found)} so far."
        )
    ranked = await client.platform.seasons.standings(server, game, wanted)
    me = str(interaction.user.id)
    lines = [standing_line(r, escape) for r in ranked[:SEASON_SHOWN]]
    mine = next((r for r in ranked if r.rating.player_id == me), None)
    now = "the season now" if wanted is found[-1] else "over"
    embed = discord.Embed(
        title=f"🏆 {title} leaderboard · {wanted.title}",
        description="\n".join(lines) or "Nobody was rated in this season.",
    )
    embed.add_field(
        name="Your place", value=f"#{mine.rank} of {len(ranked)}" if mine else "not on this board", inline=False
    )
    embed.set_footer(
        text=f"Season {wanted.number} is {now}. Everyone starts afresh each season; all-time: /{game} leaderboard."
    )
    return embed


class LeaderboardButton(GameButton, template=r"(?P<game>[a-z]{1,20}):leaders:(?P<offset>\d{1,7}):(?P<which>up|down)"):
    pages_a_private_message = True

    def __init__(self, game: str, offset: int, which: str, disabled: bool = False) -> None:
        label = "◀ Higher" if which == "up" else "Lower ▶"
        super().__init__(f"{game}:leaders:{min(offset, MAX_OFFSET)}:{which}", label, disabled=disabled)
        self.game, self.offset = game, offset

    @classmethod
    def parse(cls, match: re.Match[str]) -> LeaderboardButton:
        return cls(match["game"], int(match["offset"]), match["which"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        client = road_of(interaction)
        if self.game not in client.platform.games:
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        embed, view = await leaderboard_page(client, interaction, self.game, self.offset)
        await interaction.response.edit_message(embed=embed, view=view)
