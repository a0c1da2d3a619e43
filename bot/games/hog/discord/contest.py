"""``/hog contest``: enter a final strategy's table, read the standings, an entry's record and the matrix.

Everything answers the asker alone. A table comes as an attached file (never code): its size is
checked before it is downloaded. An entry made in a server joins the server's contest and everyone's.
"""

from __future__ import annotations

import io
import re
from typing import Any
from urllib.parse import quote

import discord
from discord import app_commands

from bot.discord.buttons import FORGED, Buttons, GameButton, number
from bot.games.hog.contest.arena import Results
from bot.games.hog.contest.entries import EVERYONE, Contest
from bot.games.hog.contest.pictures import MATRIX_TOP, costs_picture, matrix_picture, table_picture
from bot.games.hog.contest.words import HEADER, compared_line, explored_lines, outcome, placed, standing_line, summary
from bot.games.hog.discord.desk import HogDesk, hog
from bot.platform.contract import Refusal
from bot.platform.names import cleaned
from bot.platform.painter import drawn
from hog_core.contest import MAX_BYTES, BadTable, parse
from hog_core.kernel import CONTESTABLE
from hog_core.rulesets import RULE_SETS

PAGE = 15
MAX_PAGE = 1000
DEFAULT = "contest"
CONTEST_CHOICES = [app_commands.Choice(name=RULE_SETS[rules].name[:100], value=rules) for rules in CONTESTABLE]


def contest_of(interaction: discord.Interaction[Any], rules: str, everyone: bool) -> Contest:
    """The contest asked for: this server's, unless ``everyone`` or outside a server."""
    if everyone or interaction.guild_id is None:
        return Contest(rules, EVERYONE)
    return Contest(rules, str(interaction.guild_id))


def _block(lines: list[str]) -> str:
    return "```\n" + "\n".join(lines) + "\n```"


def pages_of(results: Results) -> int:
    return max(1, -(-len(results.standings) // PAGE))


def standings_embed(results: Results, me: str, page: int) -> discord.Embed:
    """A page of the standings, with the asker's own place below it."""
    pages = pages_of(results)
    page = min(max(1, page), pages)
    shown = results.standings[(page - 1) * PAGE : page * PAGE]
    embed = discord.Embed(
        title=f"🏁 {results.contest.title}",
        description=summary(results) + "\n" + _block([HEADER, *(standing_line(s) for s in shown)]),
    )
    mine = results.place_of(me)
    embed.add_field(
        name="Your entry",
        value=f"**{discord.utils.escape_markdown(mine.name)}**: {placed(mine)}"
        if mine
        else "None yet: `/hog contest submit` with your table.",
        inline=False,
    )
    embed.set_footer(text=f"Page {page} of {pages} · a pair is a win above 0.500001; a tie is a loss for both")
    return embed


def on_the_web(
    public_url: str | None, contest: Contest, team: str | None = None, view: discord.ui.View | None = None
) -> discord.ui.View:
    """A *See it on the web* link to the contest's page (or an entry's), when the bot's web pages have
    a public address (``HOG_PUBLIC_URL``), added to ``view`` (a new one when none is given)."""
    view = view or Buttons()
    if public_url is not None:
        entry = "" if team is None else f"/entries/{quote(team, safe='')}"
        server = "" if contest.scope == EVERYONE else f"?server={contest.scope}"
        url = f"{public_url}/contests/{contest.rules}{entry}{server}"
        view.add_item(discord.ui.Button(label="See it on the web", emoji="🌐", url=url))
    return view


def add_contest_commands(hog: app_commands.Group, bot: HogDesk) -> None:
    contest = app_commands.Group(name="contest", description="The course's Hog contest: final strategies, exactly")
    hog.add_command(contest)
    contests = bot.contests
    public_url = bot.client.platform.settings.public_url

    async def deferred_results(interaction: discord.Interaction[Any], wanted: Contest) -> Results:
        await interaction.response.defer(ephemeral=True, thinking=True)
        return await contests.results(wanted)

    @contest.command(name="submit", description="Enter your final strategy's table (CSV or JSON); it replaces yours")
    @app_commands.describe(
        table="100 lines of 100 dice counts (your score by row, the opponent's by column), CSV or JSON",
        name="your team's name",
        rules="the contest's rule set",
    )
    @app_commands.choices(rules=CONTEST_CHOICES)
    async def submit(
        interaction: discord.Interaction[Any],
        table: discord.Attachment,
        name: app_commands.Range[str, 1, 32],
        rules: str = DEFAULT,
    ) -> None:
        refusal = None
        if table.filename.lower().endswith(".py"):  # code is never run here: its table is
            refusal = (
                f"{table.filename} is code, and the bot runs none: attach your strategy's table instead "
                "(`python -m bot contest table hog.py -o table.csv` writes it)."
            )
        elif table.size > MAX_BYTES:
            refusal = f"{table.filename} is {table.size:,} bytes; a table is at most {MAX_BYTES:,}."
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            data = await table.read()
        except (discord.HTTPException, discord.NotFound):
            await interaction.followup.send("Your file could not be fetched from Discord: try again.", ephemeral=True)
            return
        try:
            parsed = parse(data, RULE_SETS[rules])
        except BadTable as error:
            await interaction.followup.send(f"{table.filename}: {error}", ephemeral=True)
            return
        me, who = str(interaction.user.id), cleaned(interaction.user.display_name)
        arena = await contests.arena(rules)
        reserved = tuple(arena.references)
        lines = []
        wanted = [contest_of(interaction, rules, False), Contest(rules, EVERYONE)]
        try:
            for where in dict.fromkeys(wanted):
                once = f"{interaction.id}:{where.scope}"
                entry, old = await contests.entries.submit(where, me, who, name, parsed, reserved, once)
                results = await contests.results(where)
                standing = results.standing(entry.team)
                assert standing is not None
                replaced = f" (replacing {discord.utils.escape_markdown(old.team)})" if old else ""
                lines.append(f"**{where.title}**{replaced}: {placed(standing)}")
        except Refusal as error:
            await interaction.followup.send(error.message, ephemeral=True)
            return
        title = f"Entered {discord.utils.escape_markdown(entry.team)}"
        await interaction.followup.send(embed=discord.Embed(title=title, description="\n".join(lines)), ephemeral=True)

    @contest.command(name="standings", description="Every entry ranked by wins, exactly (only you see it)")
    @app_commands.describe(
        rules="the contest's rule set", everyone="everyone's contest, not this server's", page="which page"
    )
    @app_commands.choices(rules=CONTEST_CHOICES)
    async def standings(
        interaction: discord.Interaction[Any],
        rules: str = DEFAULT,
        everyone: bool = False,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        results = await deferred_results(interaction, contest_of(interaction, rules, everyone))
        shown, view = standings_page(results, str(interaction.user.id), page, public_url)
        await interaction.followup.send(embed=shown, view=view, ephemeral=True)

    @contest.command(name="entry", description="An entry's record, its table, and where it differs from perfect play")
    @app_commands.describe(
        name="the entry's team name",
        rules="the contest's rule set",
        everyone="everyone's contest",
        vs="another entry, side by side",
    )
    @app_commands.choices(rules=CONTEST_CHOICES)
    async def entry(
        interaction: discord.Interaction[Any],
        name: str,
        rules: str = DEFAULT,
        everyone: bool = False,
        vs: str | None = None,
    ) -> None:
        results = await deferred_results(interaction, contest_of(interaction, rules, everyone))
        found, other = results.find(name), results.find(vs) if vs else None
        for asked, named in ((name, found), (vs, other)):
            if asked and named is None:
                await interaction.followup.send(
                    f"There is no entry {asked[:40]!r} in the {results.contest.title}.", ephemeral=True
                )
                return
        assert found is not None
        explored, beside = await contests.explored(results, found, other)
        standing = results.standing(found)
        assert standing is not None
        record = [f"{value:.4f} {outcome(value)[:4]:<4} vs {other}" for other, value in results.record(found).items()]
        embed = discord.Embed(
            title=f"{discord.utils.escape_markdown(found)}{' (reference)' if standing.reference else ''}",
            description=f"{placed(standing)}\n" + _block(record[:40])[:3900],
        )
        lines = explored_lines(explored)
        worst = [lines[0], *lines[2:7]] + ([compared_line(beside)] if beside else [])
        embed.add_field(name="Where it differs from perfect play", value="\n".join(worst)[:1024], inline=False)
        embed.set_image(url="attachment://entry.png")
        picture = await drawn(table_picture, results, found)
        costs = await drawn(
            costs_picture, [explored] if beside is None else [explored, beside.second], results.contest.title
        )
        beside_words = f", beside {other}'s" if other else ""
        files = [
            discord.File(io.BytesIO(picture), filename="entry.png",
                         description=f"{found}'s table beside the perfect strategy's: dice at each pair of scores"),
            discord.File(io.BytesIO(costs), filename="costs.png",
                         description=f"A heat map of the chance each of {found}'s cells gives away{beside_words}"),
        ]  # fmt: skip
        await interaction.followup.send(
            embed=embed, files=files, view=on_the_web(public_url, results.contest, found), ephemeral=True
        )

    @entry.autocomplete("vs")
    @entry.autocomplete("name")
    async def entries_offered(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        rules = getattr(interaction.namespace, "rules", None) or DEFAULT
        everyone = bool(getattr(interaction.namespace, "everyone", False))
        found = await contests.entries.of(contest_of(interaction, rules, everyone))
        typed = current.strip().casefold()
        return [app_commands.Choice(name=team, value=team) for team in found if typed in team.casefold()][:25]

    @contest.command(name="matrix", description=f"The best {MATRIX_TOP} entries, each against each, as a picture")
    @app_commands.describe(rules="the contest's rule set", everyone="everyone's contest, not this server's")
    @app_commands.choices(rules=CONTEST_CHOICES)
    async def matrix(interaction: discord.Interaction[Any], rules: str = DEFAULT, everyone: bool = False) -> None:
        results = await deferred_results(interaction, contest_of(interaction, rules, everyone))
        embed = discord.Embed(title=f"🏁 {results.contest.title}: the matrix", description=summary(results))
        embed.set_image(url="attachment://matrix.png")
        picture = await drawn(matrix_picture, results)
        await interaction.followup.send(
            embed=embed,
            file=discord.File(
                io.BytesIO(picture),
                filename="matrix.png",
                description=f"The best {MATRIX_TOP} entries' values against each other, shaded",
            ),
            ephemeral=True,
        )


def standings_page(
    results: Results, me: str, page: int, public_url: str | None
) -> tuple[discord.Embed, discord.ui.View]:
    """A page of the standings, with ◀ Higher / Lower ▶ and the web link."""
    pages = pages_of(results)
    page = min(max(1, page), pages)
    view = Buttons()
    contest = results.contest
    view.add_item(StandingsButton(contest.rules, contest.scope, page - 1, "up", disabled=page == 1))
    view.add_item(StandingsButton(contest.rules, contest.scope, page + 1, "down", disabled=page == pages))
    return standings_embed(results, me, page), on_the_web(public_url, contest, view=view)


class StandingsButton(
    GameButton, template=r"hog:contest:(?P<rules>[^:]*):(?P<scope>[^:]*):(?P<page>[^:]*):(?P<which>up|down)"
):
    """A page of a contest's standings (the asker's alone: the message is theirs)."""

    pages_a_private_message = True

    def __init__(self, rules: str, scope: str, page: int | None, which: str, disabled: bool = False) -> None:
        label = "◀ Higher" if which == "up" else "Lower ▶"
        shown = min(max(page or 1, 1), MAX_PAGE)
        super().__init__(f"hog:contest:{rules}:{scope}:{shown}:{which}", label, disabled=disabled)
        self.rules, self.scope, self.page = rules, scope, page

    @classmethod
    def parse(cls, match: re.Match[str]) -> StandingsButton:
        return cls(match["rules"], match["scope"], number(match["page"]), match["which"])

    def refusal(self) -> str | None:
        good_scope = self.scope == EVERYONE or self.scope.isdigit()
        if self.rules not in CONTESTABLE or not good_scope or self.page is None or not 1 <= self.page <= MAX_PAGE:
            return FORGED
        return None

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        if self.scope not in (EVERYONE, str(interaction.guild_id)):  # another server's contest
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        front = hog(interaction)
        await interaction.response.defer()
        results = await front.contests.results(Contest(self.rules, self.scope))
        public_url = front.client.platform.settings.public_url
        shown, view = standings_page(results, str(interaction.user.id), self.page or 1, public_url)
        await interaction.edit_original_response(embed=shown, view=view)
