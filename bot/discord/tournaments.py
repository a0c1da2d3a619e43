"""Tournaments in Discord, for every game: ``/<game> tournament ...`` (the game's front adds ``new``
with its own options), the tournament's board (one message, edited at each change: sign-up, each
round's games and results, the standings; the final standings' picture), its *Join* / *Leave* /
*Start* buttons, and each round's games posted in the channel with their players pinged."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast

import discord
from discord import app_commands

from bot.discord.answers import answered_in
from bot.discord.buttons import FORGED, Buttons, GameButton
from bot.discord.reach import in_server
from bot.platform.contract import Refusal
from bot.platform.locks import KeyedLocks
from bot.platform.names import cleaned
from bot.platform.painter import drawn
from bot.platform.tournaments import rules, words
from bot.platform.tournaments.book import stream_id
from bot.platform.tournaments.director import seating
from bot.platform.tournaments.events import Created
from bot.platform.tournaments.picture import standings_picture
from bot.platform.tournaments.state import FORMATS, Round, Tournament

if TYPE_CHECKING:
    from bot.platform.compose import Platform

log = logging.getLogger(__name__)

FORMAT_CHOICES = [app_commands.Choice(name=words.FORMAT_NAMES[f], value=f) for f in FORMATS]
LISTED = 10
"""Tournaments ``history`` lists."""
escape = discord.utils.escape_markdown


def manages(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member may manage the server (and so any tournament in it)."""
    return bool(interaction.permissions.manage_guild)


IN_A_SERVER = "Tournaments are played in a server's channel."
ADDED = (
    "A tournament posts its games' boards in the channel: it needs the bot added to this server "
    "(installed on your account, it may only answer you)."
)
WHICH = "its id (the newest signing up or running here when left out)"


def add_round(embed: discord.Embed, t: Tournament, r: Round) -> None:
    embed.add_field(name=f"Round {r.number}", value=field_text(words.round_lines(t, r, escape), "—"), inline=False)


def field_text(lines: list[str], empty: str) -> str:
    """Lines for an embed's field (1024 characters at most: the rest said to be more)."""
    text = "\n".join(lines) or empty
    return text if len(text) <= 1024 else text[:1000].rsplit("\n", 1)[0] + "\n…"


class Posting(Protocol):
    """What the desk asks of the Discord client: the platform, a channel to post in, a game's board
    posted there, and where a channel is."""

    @property
    def platform(self) -> Platform: ...

    def get_partial_messageable(self, id: int) -> discord.PartialMessageable: ...

    async def post_game(self, channel: str, game: str, game_id: str, create: object, content: str) -> None: ...

    async def locate(self, channel_id: str, server_id: str) -> None: ...


class WithDesk(Protocol):
    """The road a game's front is given, with its desk (``bot.discord.road``)."""

    @property
    def tournaments(self) -> Desk: ...


class Connected(Protocol):
    """The client a click comes to (how a tournament's button, rebuilt from its custom_id, finds the desk)."""

    @property
    def road(self) -> WithDesk: ...


class Desk:
    """The tournaments of one Discord client: boards drawn and kept up, games posted."""

    def __init__(self, client: Posting) -> None:
        self.client = client
        self.director = client.platform.tournaments
        self._locks = KeyedLocks()

    def game_title(self, game: str) -> str:
        return self.client.platform.games[game].title

    def title(self, t: Tournament) -> str:
        assert t.created is not None
        return words.title(t, self.game_title(t.created.game))

    def board(self, t: Tournament) -> tuple[discord.Embed, discord.ui.View]:
        """The tournament's board as everyone sees it."""
        assert t.created is not None
        lines = [words.status(t, escape)]
        options = "".join(f" · {k} {v}" for k, v in t.created.options.items())
        organiser = escape(t.created.organiser_name)
        rounds = words.rounds_text(t)
        lines.append(f"{rounds[:1].upper()}{rounds[1:]}{options} · organised by {organiser}")
        if not t.started and t.finished is None and t.created.signup_ends:
            lines.append(f"Starts <t:{int(t.created.signup_ends)}:R>, or when the organiser presses *Start*.")
        embed = discord.Embed(title=f"🏆 {self.title(t)}", description="\n".join(lines))
        if not t.started:
            embed.add_field(name=f"Players ({len(t.players)})", value=field_text(words.signed_up(t, escape), "—"))
        for r in t.rounds[-1:]:
            add_round(embed, t, r)
        if t.started:
            embed.add_field(name="Standings", value=field_text(words.standing_lines(t, escape), "—"), inline=False)
            embed.set_footer(text=f"{words.TIE_BREAKS[t.created.format]}. Win 1, draw ½, bye 1.")
        view = Buttons()
        public_url = self.client.platform.settings.public_url
        if public_url is not None:
            web = f"{public_url}/tournaments/{t.tournament_id}"
            view.add_item(discord.ui.Button(label="On the web", emoji="🌐", url=web))
        if t.finished is None:
            if not t.started:
                view.add_item(TournamentButton(t.tournament_id, "join"))
            view.add_item(TournamentButton(t.tournament_id, "leave"))
            if not t.started:
                view.add_item(TournamentButton(t.tournament_id, "start"))
        return embed, view

    def rendering(self, stream: str) -> asyncio.Lock:
        """One edit of a tournament's board at a time."""
        return self._locks(stream)

    async def show(self, t: Tournament) -> None:
        """Edit the tournament's board to show it as it stands now (the director tells of each change)."""
        async with self.rendering(t.stream_id):
            t = await self.director.book.load(t.stream_id)
            if t.board is None:
                return
            embed, view = self.board(t)
            files = []
            if t.finished == "played":
                picture = await drawn(standings_picture, t, self.title(t))
                described = f"The final standings of {self.title(t)}, place by place"
                files.append(discord.File(io.BytesIO(picture), filename="standings.png", description=described))
                embed.set_image(url="attachment://standings.png")
            channel, message = t.board
            partial = self.client.get_partial_messageable(int(channel)).get_partial_message(int(message))
            try:
                await partial.edit(embed=embed, view=view, attachments=files)
            except discord.HTTPException as error:
                log.warning("could not edit the board of tournament %s: %s", t.stream_id, error)

    async def post_game(self, t: Tournament, game_id: str, command: object) -> None:
        """Post a new round's game in the tournament's channel, its players pinged."""
        assert t.created is not None and t.current is not None
        table = t.current.tables[t.current.games.index(game_id)]
        players = " vs ".join(f"<@{p}>" for p in table)
        content = f"🏆 {self.title(t)} · round {t.current.number}: {players}"
        await self.client.post_game(t.created.place, t.created.game, game_id, command, content)

    # --- the commands' and buttons' work ------------------------------------------------------------

    async def open(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        fmt: str,
        rounds: int,
        signup: int,
        options: Mapping[str, str],
    ) -> None:
        """``/<game> tournament new``: the board posted as the answer, its organiser signed up."""
        module = seating(self.client.platform.games[game])
        if interaction.guild_id is None or interaction.channel_id is None or module is None:
            await interaction.response.send_message(IN_A_SERVER, ephemeral=True)
            return
        if not in_server(interaction):
            await interaction.response.send_message(ADDED, ephemeral=True)
            return
        me, server = interaction.user, str(interaction.guild_id)
        smallest, largest = module.table_sizes
        ends = time.time() + 60 * signup if signup else 0.0
        tid = secrets.token_hex(4)
        created = Created(
            tid, game, fmt, rounds, dict(options), str(me.id), cleaned(me.display_name), str(interaction.channel_id),
            server, ends, time.time(), smallest, largest,
        )  # fmt: skip
        stream = stream_id(server, tid)
        try:
            rules.create(await self.director.book.load(stream), created)
        except Refusal as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        channel, message = await answered_in(interaction, await interaction.response.defer())
        await self.client.locate(str(interaction.channel_id), server)
        await self.director.act(stream, lambda t: rules.create(t, created), str(interaction.id))
        # the board is drawn on the message just posted by the director's listener (``show``)
        await self.director.act(stream, lambda t: rules.post(t, channel, message))

    async def find(
        self, interaction: discord.Interaction[Any], game: str, wanted: str | None, finished: bool = False
    ) -> Tournament:
        """The tournament asked for (by id), or the newest of ``game`` signing up or running in this
        server (``finished``: or the newest finished, when none is); ``Refusal`` when there is none."""
        if interaction.guild_id is None:
            raise Refusal(IN_A_SERVER)
        server = str(interaction.guild_id)
        if wanted:
            found = await self.director.book.load(stream_id(server, wanted.strip().lower()))
            if found.created is None or found.created.game != game:
                raise Refusal(f"There is no tournament {wanted[:20]!r} of this game in this server.")
            return found
        live = [t for t in await self.director.book.of_server(server) if t.created and t.created.game == game]
        running = [t for t in live if t.finished is None] or [t for t in live if finished]
        if not running:
            raise Refusal("There is no tournament signing up or running here: start one with `tournament new`.")
        return running[0]

    async def press(self, interaction: discord.Interaction[Any], tournament_id: str, action: str) -> None:
        if interaction.guild_id is None:
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        stream = stream_id(str(interaction.guild_id), tournament_id)
        t = await self.director.book.load(stream)
        clicked = str(interaction.message.id) if interaction.message else None
        if t.board is None or t.board[1] != clicked:
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        me, may = str(interaction.user.id), manages(interaction)
        await interaction.response.defer()
        try:
            if action == "join":
                name = cleaned(interaction.user.display_name)
                await self.director.act(stream, lambda t: rules.join(t, me, name), str(interaction.id))
            elif action == "leave":
                await self.director.drop(stream, me, me, may, str(interaction.id))
            else:
                await self.director.start(stream, me, may, str(interaction.id))
        except Refusal as error:
            await interaction.followup.send(error.message, ephemeral=True)


class TournamentButton(GameButton, template=r"tournament:(?P<tid>[^:]*):(?P<action>[^:]*)"):
    """*Join*, *Leave* or *Start* on a tournament's board."""

    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
    }

    def __init__(self, tournament_id: str, action: str) -> None:
        label, style = self.LABELS.get(action, ("?", discord.ButtonStyle.secondary))
        super().__init__(f"tournament:{tournament_id}:{action}", label, style)
        self.tournament_id, self.action = tournament_id, action

    @classmethod
    def parse(cls, match: re.Match[str]) -> TournamentButton:
        return cls(match["tid"], match["action"])

    def refusal(self) -> str | None:
        if not re.fullmatch(r"[0-9a-f]{8}", self.tournament_id) or self.action not in self.LABELS:
            return FORGED
        return None

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        client = cast(Connected, interaction.client)
        await client.road.tournaments.press(interaction, self.tournament_id, self.action)


async def refused(interaction: discord.Interaction[Any], error: Refusal) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(error.message, ephemeral=True)
    else:
        await interaction.response.send_message(error.message, ephemeral=True)


def tournament_group(parent: app_commands.Group, client: WithDesk, game: str) -> app_commands.Group:
    """``/<game> tournament``: start, drop, cancel, standings and history (the game adds ``new``)."""
    group = app_commands.Group(name="tournament", description="Swiss, round robin or knockout", parent=parent)

    async def organised(
        interaction: discord.Interaction[Any],
        tournament: str | None,
        act: Callable[[Desk, Tournament, str, bool], Awaitable[object]],
        done: str,
    ) -> None:
        """What the organiser (or a member who manages the server) does to a tournament, answered
        to them alone: ``done`` said of it (``{title}``), or the refusal."""
        desk = client.tournaments
        try:
            t = await desk.find(interaction, game, tournament)
            await interaction.response.defer(ephemeral=True)
            await act(desk, t, str(interaction.user.id), manages(interaction))
            await interaction.followup.send(done.format(title=desk.title(t)), ephemeral=True)
        except Refusal as error:
            await refused(interaction, error)

    @group.command(name="start", description="Start a tournament now (its organiser, or who manages the server)")
    @app_commands.describe(tournament=WHICH)
    async def start(interaction: discord.Interaction[Any], tournament: str | None = None) -> None:
        async def starting(desk: Desk, t: Tournament, by: str, may: bool) -> object:
            return await desk.director.start(t.stream_id, by, may, str(interaction.id))

        await organised(interaction, tournament, starting, "{title} has started.")

    @group.command(name="drop", description="Take a player out (its organiser, or who manages the server)")
    @app_commands.describe(player="who to drop", tournament=WHICH)
    async def drop(interaction: discord.Interaction[Any], player: discord.User, tournament: str | None = None) -> None:
        async def dropping(desk: Desk, t: Tournament, by: str, may: bool) -> object:
            return await desk.director.drop(t.stream_id, str(player.id), by, may, str(interaction.id))

        name = player.display_name.replace("{", "{{").replace("}", "}}")
        await organised(interaction, tournament, dropping, f"{name} is out of {{title}}.")

    @group.command(name="cancel", description="Call a tournament off (its organiser, or who manages the server)")
    @app_commands.describe(tournament=WHICH)
    async def cancel(interaction: discord.Interaction[Any], tournament: str | None = None) -> None:
        async def cancelling(desk: Desk, t: Tournament, by: str, may: bool) -> object:
            return await desk.director.act(t.stream_id, lambda t: rules.cancel(t, by, may), str(interaction.id))

        await organised(interaction, tournament, cancelling, "{title} is cancelled.")

    @group.command(name="standings", description="A tournament's standings and rounds, for you alone")
    @app_commands.describe(tournament=WHICH)
    async def standings(interaction: discord.Interaction[Any], tournament: str | None = None) -> None:
        desk = client.tournaments
        try:
            t = await desk.find(interaction, game, tournament, finished=True)
        except Refusal as error:
            await refused(interaction, error)
            return
        embed, _ = desk.board(t)
        for r in t.rounds[:-1][-4:]:
            add_round(embed, t, r)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="history", description="This server's tournaments, newest first")
    async def history(interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            await interaction.response.send_message(IN_A_SERVER, ephemeral=True)
            return
        here = await client.tournaments.director.book.of_server(str(interaction.guild_id))
        lines = [
            f"`{t.tournament_id}` · {words.FORMAT_NAMES[t.created.format]} · {words.status(t, escape)}"
            for t in here
            if t.created and t.created.game == game
        ][:LISTED]
        embed = discord.Embed(
            title=f"🏆 {client.tournaments.game_title(game)} tournaments here",
            description="\n".join(lines) or "None yet: start one with `tournament new`.",
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    return group
