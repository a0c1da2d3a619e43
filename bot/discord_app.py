"""The Discord front end: the ``/hog`` commands and the board's buttons, over the application service.

Buttons are ``DynamicItem``s whose custom_id carries the game and the board's version, so they keep
working after a restart and a click on an old board is recognised as stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import secrets
import signal
import sqlite3
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands

from bot.board import board, hint
from bot.embeds import embed
from bot.history import PAGE, HistoryButton, game_line, history_embed, history_view
from bot.painter import Painter
from bot.projection import Projector, settle_and_close
from bot.replays import ReplayButton, chances_around, replay_embed, replay_view
from bot.rules_help import explain
from bot.service import GameDamaged, GameService, Outcome, StaleBoard
from bot.settings import Settings
from bot.stats import stats_embed
from bot.timers import Clock, SystemClock, Timers
from hog_core.commentary import narrate
from hog_core.errors import HogError
from hog_core.events import Event, Player
from hog_core.game import (
    PORK_CHOP,
    AcceptChallenge,
    Command,
    CreateGame,
    DeclineChallenge,
    ExpireChallenge,
    GameState,
    Status,
    VoidGame,
)
from hog_core.game import replay as fold
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS
from hog_core.strategies import DIFFICULTIES
from storage.events import SqliteEventStore
from storage.games import GameRow, GameViews
from storage.solutions import SolutionCache

log = logging.getLogger(__name__)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"hog:move:(?P<game>[^:]*):(?P<version>[^:]*):(?P<k>[^:]*)",
):
    """A move on a game's board at a version. The template takes any text, so that a forged
    custom_id reaches ``HogBot.move`` and is refused in words instead of failing silently."""

    def __init__(self, game_id: str, version: int | None, k: int | None) -> None:
        label = "Pork Chop" if k == PORK_CHOP else str(k)
        style = discord.ButtonStyle.danger if k == PORK_CHOP else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"hog:move:{game_id}:{version}:{k}"))
        self.game_id, self.version, self.k = game_id, version, k

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(match["game"], _number(match["version"]), _number(match["k"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client = interaction.client
        assert isinstance(client, HogBot)
        if self.version is None or self.k is None:
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        await client.move(interaction, self.game_id, self.version, self.k)


def _number(text: str) -> int | None:
    return int(text) if re.fullmatch(r"-?\d{1,9}", text) else None


FORGED = "That button is not one of mine."
NOT_THIS_BOARD = "That button is not from this game's board."
NOT_STARTED = "This game did not start: the bot restarted as it was being set up. Please ask again."


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"hog:answer:(?P<game>[^:]*):(?P<answer>[^:]*)",
):
    def __init__(self, game_id: str, answer: str) -> None:
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.secondary
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=answer.capitalize(), style=style, custom_id=f"hog:answer:{game_id}:{answer}"
        )
        super().__init__(button)
        self.game_id, self.answer = game_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AnswerButton:
        return cls(match["game"], match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client = interaction.client
        assert isinstance(client, HogBot)
        if self.answer not in ("accept", "decline"):
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        player = str(interaction.user.id)
        command = AcceptChallenge(player) if self.answer == "accept" else DeclineChallenge(player)
        await client.run_and_show(interaction, self.game_id, lambda state: [command])


class HintButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"hog:hint:(?P<game>[^:]*)"):
    """The best move for the player to move, told privately to whoever asks."""

    def __init__(self, game_id: str) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Hint", emoji="💡", style=discord.ButtonStyle.primary, custom_id=f"hog:hint:{game_id}"
        )
        super().__init__(button)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HintButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client = interaction.client
        assert isinstance(client, HogBot)
        try:
            state = (await client.service.current(self.game_id)).state  # told, so any damage shows
        except HogError as error:  # a damaged game
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        if state.version == 0 or state.place != str(interaction.channel_id):
            await interaction.response.send_message("There is no such game here.", ephemeral=True)
            return
        await interaction.response.send_message(hint(state, await client.service.solution(state)), ephemeral=True)


def moves_view(state: GameState) -> discord.ui.View:
    """Accept / Decline while a challenge is open, a button per legal move while it is played."""
    view = discord.ui.View(timeout=None)
    if state.status is Status.CHALLENGED:
        view.add_item(AnswerButton(state.game_id, "accept"))
        view.add_item(AnswerButton(state.game_id, "decline"))
    elif not state.is_over:
        for k in state.legal_moves():
            view.add_item(MoveButton(state.game_id, state.version, k))
        view.add_item(HintButton(state.game_id))
    return view


@dataclass(frozen=True)
class Shown:
    """A message's embed and buttons, and the files it carries (the picture of a game)."""

    embed: discord.Embed
    view: discord.ui.View
    files: list[discord.File] = field(default_factory=list)


class HogBot(discord.Client):
    def __init__(
        self,
        service: GameService,
        views: GameViews,
        *,
        guild_id: int | None = None,
        challenge_timeout: int = 600,
        turn_timeout: int = 600,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(intents=discord.Intents(guilds=True), allowed_mentions=MENTION_USERS)
        self.service, self.views, self.guild_id = service, views, guild_id
        self.challenge_timeout, self.turn_timeout = challenge_timeout, turn_timeout
        self.timers = Timers(service, clock or SystemClock(), self.edit_board, self.warn)
        self._timing: asyncio.Task[None] | None = None
        self._reconciling: asyncio.Task[None] | None = None
        self._board_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.painter = Painter()
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(hog_commands(self))
        self.tree.on_error = self.command_failed  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        self.add_dynamic_items(*BUTTONS)
        await self.timers.restore(row.game_id for row in await self.live_games())
        self._timing = asyncio.create_task(self.timers.run())
        self._reconciling = asyncio.create_task(self.reconcile())
        if self.guild_id is not None:  # instant sync to one server while developing
            guild = discord.Object(id=self.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced the slash commands (%s) to server %s", ", ".join(c.name for c in synced), self.guild_id)
        else:
            synced = await self.tree.sync()
            log.info(
                "synced the slash commands (%s) to every server: up to an hour to show",
                ", ".join(c.name for c in synced),
            )

    async def on_ready(self) -> None:
        """Tell the operator who the bot is, where it is, and how to invite it (on every reconnect too)."""
        assert self.user is not None
        invite = discord.utils.oauth_url(self.user.id, permissions=PERMISSIONS, scopes=("bot", "applications.commands"))
        log.info(
            "logged in as %s (id %s) in %d servers; invite it with %s",
            self.user,
            self.user.id,
            len(self.guilds),
            invite,
        )

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a button that is none of ours (a custom_id of another app, or malformed) is
        answered in words: the buttons' own handlers see only the custom_ids they know."""
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        if not any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in BUTTONS):
            await interaction.response.send_message(FORGED, ephemeral=True)

    async def close(self) -> None:
        for task in (self._timing, self._reconciling):
            if task is not None:
                task.cancel()
        self.timers.close()
        self.painter.close()
        await super().close()

    async def replay(self, game_id: str, step: int) -> Shown | None:
        """Step ``step`` of ``game_id``'s replay (clamped to the game), or ``None`` for no such game."""
        events = await self.service.events(game_id)
        steps = list(narrate(events))
        if not steps:
            return None
        step = max(0, min(step, len(steps) - 1))
        after = steps[step][1]
        chances = chances_around(steps, step, await self.service.solution(after))
        shown = Shown(replay_embed(steps, step, chances), replay_view(game_id, step, len(steps)))
        return await self.with_picture(shown, events, steps[-1][1], at=after.turn_number)

    async def with_picture(self, shown: Shown, events: list[Event], last: GameState, at: int | None = None) -> Shown:
        """``shown`` with the picture of the game (``events``, ending in ``last``) attached and shown
        in its embed, once a turn was played."""
        png = await self.painter.paint(events, await self.service.solution(last), at)
        if png is None:
            return shown
        names = " and ".join(p.name for p in last.players)
        picture = discord.File(io.BytesIO(png), f"hog-{last.game_id}.png", description=f"{names}'s totals turn by turn")
        pictured = shown.embed.copy()
        pictured.set_image(url=f"attachment://{picture.filename}")
        return Shown(pictured, shown.view, [picture])

    async def send_animation(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """The game drawn turn by turn, as a GIF for the asker alone: a second or two to draw, so it
        follows the answer."""
        events = await self.service.events(game_id)
        last = fold(events)
        gif = await self.painter.animate(events, await self.service.solution(last))
        if gif is None:
            await interaction.followup.send("Nothing to animate yet: nobody has moved.", ephemeral=True)
            return
        animation = discord.File(io.BytesIO(gif), f"hog-{last.game_id}.gif", description="The game, turn by turn")
        await interaction.followup.send(file=animation, ephemeral=True)

    async def history_page(self, player_id: str, name: str, offset: int) -> tuple[discord.Embed, discord.ui.View]:
        rows = await (await self.settled_views()).history(player_id, limit=PAGE + 1, offset=offset)
        return history_embed(rows, player_id, name, offset), history_view(player_id, offset, len(rows) > PAGE)

    async def settled_views(self) -> GameViews:
        """The read models, once they show every event appended so far."""
        if self.service.projector is not None:
            await self.service.projector.settle()
        return self.views

    async def live_games(self, place: str | None = None) -> list[GameRow]:
        """The games being played (in ``place``), as of the last event."""
        return await (await self.settled_views()).live_games(place)

    async def show(self, outcome: Outcome) -> Shown:
        """The board after ``outcome`` (without the picture: see ``with_picture``)."""
        state = outcome.state
        solution = await self.service.solution(state)
        chances = None if solution is None else solution.win_chances(state)
        story = tuple(line for _, _, lines in outcome.told for line in lines)
        return Shown(embed(board(state, story, chances)), moves_view(state))

    async def move(self, interaction: discord.Interaction[Any], game_id: str, version: int, k: int) -> None:
        player, command_id, place = str(interaction.user.id), str(interaction.id), str(interaction.channel_id)
        await self.update_board(
            interaction, game_id, lambda: self.service.move(game_id, player, k, command_id, version, place)
        )

    async def run_and_show(
        self, interaction: discord.Interaction[Any], game_id: str, commands: Callable[[GameState], list[Command]]
    ) -> None:
        place = str(interaction.channel_id)
        await self.update_board(
            interaction, game_id, lambda: self.service.execute(game_id, commands, str(interaction.id), place=place)
        )

    async def update_board(
        self, interaction: discord.Interaction[Any], game_id: str, pending: Callable[[], Awaitable[Outcome]]
    ) -> None:
        """Edit the clicked board with the outcome, or tell the clicker privately why not (someone
        else's turn, a game that is over, a forged button). A stale board is brought up to date.
        A button only ever acts on the board message it is on: one of another game's board is refused."""
        clicked = str(interaction.message.id) if interaction.message else None
        board = await self.views.board_message(game_id)
        if board is not None and board[1] != clicked:
            await interaction.response.send_message(NOT_THIS_BOARD, ephemeral=True)
            return
        try:
            try:
                outcome = await pending()
            except StaleBoard as stale:
                await self.answer_with_board(interaction, await self.service.current(game_id))
                await interaction.followup.send(stale.message, ephemeral=True)
                return
        except GameDamaged as damaged:  # the board says so, and offers no more buttons
            log.error("game %s is damaged: %s", game_id, damaged.reason)
            notice = discord.Embed(title="Hog", description=damaged.message)
            await interaction.response.edit_message(embed=notice, view=None)
            return
        except HogError as error:
            if await self._board_behind(game_id):  # the refusal is about a moment the board does not show
                await self.answer_with_board(interaction, await self.service.current(game_id))
                await interaction.followup.send(error.message, ephemeral=True)
                return
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        except Exception:
            log.exception("a press on the board of %s failed", game_id)
            await self.apologise(interaction)
            return
        if board is None and clicked is not None:  # its post was never recorded (a crash): this is it
            await self.views.place_board(game_id, str(interaction.channel_id), clicked)
        await self.answer_with_board(interaction, outcome)

    async def _board_behind(self, game_id: str) -> bool:
        """Whether the game's board shows an older version than its log (its last edit was lost)."""
        shown = await self.views.shown_version(game_id)
        return shown is not None and shown < (await self.service.load(game_id)).version

    async def answer_with_board(self, interaction: discord.Interaction[Any], outcome: Outcome) -> None:
        """Update the clicked board at once. A finished game's picture follows in a second edit, so
        that the click is answered without waiting for the drawing."""
        game_id = outcome.state.game_id
        async with self._rendering(game_id):
            shown_version = await self.views.shown_version(game_id)
            if shown_version is not None and shown_version > outcome.state.version:
                outcome = await self.service.current(game_id)  # never put an older board back up
            shown = await self.show(outcome)
            await interaction.response.edit_message(embed=shown.embed, view=shown.view)
            await self.views.board_shown(game_id, outcome.state.version)
        if not outcome.state.is_over:
            return
        state = outcome.state
        pictured = await self.with_picture(shown, await self.service.events(state.game_id), state)
        if pictured.files:
            try:
                await interaction.edit_original_response(embed=pictured.embed, attachments=pictured.files)
            except discord.HTTPException as error:  # the board itself is already right
                log.warning("could not add the picture to the board of %s: %s", outcome.state.game_id, error)

    async def open_game(
        self, interaction: discord.Interaction[Any], create: CreateGame, mention: str | None = None
    ) -> None:
        """Create the game and post its board as the command's answer (deferred: a first solve takes a moment)."""
        try:
            self.service.check(create)
        except HogError as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        await interaction.response.defer()
        # where the board will be, known before the game is stored: a crash between the two is
        # repaired at the next start (the board is posted there), never a game nobody can see
        thinking = await interaction.original_response()
        await self.views.place_board(create.game_id, str(thinking.channel.id), str(thinking.id))
        try:
            outcome = await self.service.create(create, str(interaction.id))
        except HogError as error:  # the public "thinking…" goes; the reason is for the player alone
            await self.views.forget_board(create.game_id)
            await interaction.delete_original_response()
            await interaction.followup.send(error.message, ephemeral=True)
            return
        shown = await self.show(outcome)
        try:
            await interaction.edit_original_response(content=mention, embed=shown.embed, view=shown.view)
        except discord.HTTPException as error:  # Discord would not show it: the game must not be played blind
            await self.void(create.game_id, f"Discord refused its board: {error}")
            return
        await self.views.board_shown(create.game_id, outcome.state.version)

    async def board_message(self, game_id: str) -> discord.PartialMessage | None:
        """The message showing ``game_id``'s board, if one was posted."""
        found = await self.views.board_message(game_id)
        if found is None:
            return None
        channel, message = found
        return self.get_partial_messageable(int(channel)).get_partial_message(int(message))

    async def void(self, game_id: str, why: str) -> None:
        """Call off a game nobody could ever see, so that no timer scores it."""
        log.warning("calling off game %s: %s", game_id, why)
        with contextlib.suppress(HogError):  # it ended meanwhile: nothing to call off
            await self.service.execute(game_id, lambda state: [VoidGame()], f"void:{game_id}")

    def _rendering(self, game_id: str) -> asyncio.Lock:
        """One board edit of a game at a time, so that an older board never lands over a newer one
        (a restart's reconcile racing the first clicks after it)."""
        lock = self._board_locks.get(game_id)
        if lock is None:
            lock = self._board_locks[game_id] = asyncio.Lock()
        return lock

    async def edit_board(self, outcome: Outcome) -> bool:
        """Show the game as it stands on its board message, wherever it is (a timer fired, a player
        forfeited, a restart); ``False`` when it cannot be (never posted, deleted, or out of the
        bot's reach). ``outcome`` is the newest the caller knows; a newer one is shown if there is."""
        game_id = outcome.state.game_id
        async with self._rendering(game_id):
            message = await self.board_message(game_id)
            if message is None:
                return False
            shown_version = await self.views.shown_version(game_id)
            if shown_version is not None and shown_version > outcome.state.version:
                outcome = await self.service.current(game_id)
            state = outcome.state
            if shown_version is not None and shown_version >= state.version:
                return True  # it shows this version already: a version has one board
            shown = await self.show(outcome)
            edited = False
            if state.is_over:
                pictured = await self.with_picture(shown, await self.service.events(game_id), state)
                edited = bool(pictured.files) and await self._edit(message, pictured)
            # else (no Attach Files permission there, say) the board without its picture
            edited = edited or await self._edit(message, shown)
            if edited:
                await self.views.board_shown(game_id, state.version)
            return edited

    async def reconcile(self) -> None:
        """Bring every board up to its game's log, after a crash between a store and a board edit:
        a game stored but never shown is posted where its board was to be; a board placed for a game
        that was never stored says so. Runs at start-up, on the side."""
        for game_id, shown_version in await (await self.settled_views()).boards_behind():
            try:
                outcome = await self.service.current(game_id)
            except GameDamaged as damaged:
                log.error("game %s is damaged: %s", game_id, damaged.reason)
                continue
            if outcome.state.version == 0:
                message = await self.board_message(game_id)
                await self.views.forget_board(game_id)
                if message is not None:
                    with contextlib.suppress(discord.HTTPException):
                        await message.edit(content=NOT_STARTED, embed=None, view=None)
                continue
            if await self.edit_board(outcome):
                log.info("brought the board of %s up to its log (version %d)", game_id, outcome.state.version)
            elif shown_version == 0 and not outcome.state.is_over:  # placed, never shown, and now unshowable
                await self.void(game_id, "its board could never be shown")

    async def _edit(self, message: discord.PartialMessage, shown: Shown) -> bool:
        try:
            await message.edit(embed=shown.embed, view=shown.view, attachments=shown.files)
        except discord.HTTPException as error:
            log.warning("could not edit the board message %s: %s", message.id, error)
            return False
        return True

    async def warn(self, state: GameState, seconds_left: float) -> None:
        """Remind the player whose turn it is, in a reply to the board, before they forfeit."""
        message = await self.board_message(state.game_id)
        if message is None:
            return
        minutes = max(1, round(seconds_left / 60))
        await message.reply(
            f"<@{state.players[state.mover].id}>, it's your move: "
            f"{minutes} minute{'s' if minutes != 1 else ''} left before you forfeit.",
            mention_author=False,
        )

    async def command_failed(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        """Whatever went wrong inside a command, the player hears about it in words."""
        log.error("/%s failed", interaction.command.qualified_name if interaction.command else "?", exc_info=error)
        await self.apologise(interaction)

    async def apologise(self, interaction: discord.Interaction[Any]) -> None:
        words = "Something went wrong on my side. Every game is safe in the log; please try again."
        if interaction.response.is_done():
            await interaction.followup.send(words, ephemeral=True)
        else:
            await interaction.response.send_message(words, ephemeral=True)


BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    MoveButton,
    AnswerButton,
    HintButton,
    ReplayButton,
    HistoryButton,
)

PERMISSIONS = discord.Permissions(117760)
"""What the bot asks for in its invite: view channels, send messages, embed links, attach files,
read message history (the README's invite link has the same number)."""

MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def new_game_id() -> str:
    return f"g{secrets.token_hex(5)}"


RULE_CHOICES = [app_commands.Choice(name=rs.name[:100], value=rs.id) for rs in RULE_SETS.values()]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in DIFFICULTIES]


def hog_commands(bot: HogBot) -> app_commands.Group:
    hog = app_commands.Group(name="hog", description="Play Hog, the dice game from CS 61A")

    @hog.command(name="house", description="Play a game against the house")
    @app_commands.describe(
        rules="the rule set", goal="points to win (10 to 200)", difficulty="how well the house plays"
    )
    @app_commands.choices(rules=RULE_CHOICES, difficulty=LEVEL_CHOICES)
    async def house(
        interaction: discord.Interaction[Any],
        rules: str = DEFAULT_RULES,
        goal: app_commands.Range[int, 10, 200] = 100,
        difficulty: str = "perfect",
    ) -> None:
        player = Player(str(interaction.user.id), interaction.user.display_name)
        rival = Player(f"house:{difficulty}", "The house", house=difficulty)
        place = str(interaction.channel_id)
        create = CreateGame(
            new_game_id(), (player, rival), rules=rules, goal=goal, place=place, turn_timeout=bot.turn_timeout
        )
        await bot.open_game(interaction, create)

    @hog.command(name="challenge", description="Challenge someone in this channel to a game")
    @app_commands.describe(opponent="who to play", rules="the rule set", goal="points to win (10 to 1000)")
    @app_commands.choices(rules=RULE_CHOICES)
    async def challenge(
        interaction: discord.Interaction[Any],
        opponent: discord.User,
        rules: str = DEFAULT_RULES,
        goal: app_commands.Range[int, 10, 1000] = 100,
    ) -> None:
        me = interaction.user
        refusal = None
        if interaction.guild_id is None:
            refusal = "Challenges are played in a server's channel; here, try `/hog house`."
        elif not isinstance(opponent, discord.Member):  # Discord resolved no member: not in this server
            refusal = f"{opponent.display_name} is not a member of this server, so they cannot play here."
        elif opponent.id == me.id:
            refusal = "You can't challenge yourself: try `/hog house`."
        elif opponent.bot:
            refusal = f"{opponent.display_name} is a bot. Play the house with `/hog house`."
        else:
            pair = {str(me.id), str(opponent.id)}
            live = await bot.live_games(str(interaction.channel_id))
            if any({s.player_id for s in row.seats} == pair for row in live):
                refusal = f"You already have a game with {opponent.display_name} in this channel."
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        players = (Player(str(me.id), me.display_name), Player(str(opponent.id), opponent.display_name))
        create = CreateGame(
            new_game_id(),
            players,
            rules=rules,
            goal=goal,
            challenge=True,
            place=str(interaction.channel_id),
            challenge_timeout=bot.challenge_timeout,
            turn_timeout=bot.turn_timeout,
        )
        await bot.open_game(interaction, create, mention=opponent.mention)

    @hog.command(name="forfeit", description="Resign your game in this channel")
    async def forfeit(interaction: discord.Interaction[Any]) -> None:
        me = str(interaction.user.id)
        live = await bot.live_games(str(interaction.channel_id))
        mine = [row for row in live if me in {s.player_id for s in row.seats}]
        if not mine:
            await interaction.response.send_message("You have no game in this channel.", ephemeral=True)
            return
        game = mine[-1]
        try:
            if game.status == "challenged":  # not started: the challenger withdraws, the challenged declines
                withdraw: Command = ExpireChallenge() if game.seats[0].player_id == me else DeclineChallenge(me)
                outcome = await bot.service.execute(game.game_id, lambda state: [withdraw], str(interaction.id))
            else:
                outcome = await bot.service.forfeit(game.game_id, me, str(interaction.id))
        except HogError as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        shown = await bot.show(outcome)
        await interaction.response.send_message(embed=shown.embed)
        await bot.edit_board(outcome)  # the old board loses its buttons and shows the picture

    @hog.command(name="rules", description="A rule set explained, with examples")
    @app_commands.describe(rules="the rule set (the default one if left out)")
    @app_commands.choices(rules=RULE_CHOICES)
    async def rules_(interaction: discord.Interaction[Any], rules: str = DEFAULT_RULES) -> None:
        if rules not in RULE_SETS:
            await interaction.response.send_message(f"There is no rule set {rules!r}.", ephemeral=True)
            return
        title, text = explain(rules)
        await interaction.response.send_message(embed=discord.Embed(title=title, description=text), ephemeral=True)

    @hog.command(name="replay", description="Watch a game again, turn by turn (only you see it)")
    @app_commands.describe(
        game="the game's id (your recent games are offered)",
        step="start at this step",
        animate="also send the game drawn turn by turn, as an animated GIF",
    )
    async def replay(
        interaction: discord.Interaction[Any],
        game: str,
        step: app_commands.Range[int, 1, 100_000] = 1,
        animate: bool = False,
    ) -> None:
        try:
            shown = await bot.replay(game.strip(), step - 1)
        except HogError as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        if shown is None:
            await interaction.response.send_message(f"There is no game {game!r} to replay.", ephemeral=True)
            return
        await interaction.response.send_message(embed=shown.embed, view=shown.view, files=shown.files, ephemeral=True)
        if animate:
            await bot.send_animation(interaction, game.strip())

    @replay.autocomplete("game")
    async def recent_games(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        me = str(interaction.user.id)
        rows = await bot.views.history(me, limit=25)
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=f"{row.game_id} · {game_line(row, me)}"[:100], value=row.game_id)
            for row in rows
            if typed in f"{row.game_id} {game_line(row, me)}".lower()
        ]

    @hog.command(name="history", description="Recent games, yours or a member's")
    @app_commands.describe(member="whose games (yours if left out)")
    async def history(interaction: discord.Interaction[Any], member: discord.Member | None = None) -> None:
        who = member or interaction.user
        board_embed, view = await bot.history_page(str(who.id), who.display_name, 0)
        await interaction.response.send_message(embed=board_embed, view=view, ephemeral=True)

    @hog.command(name="stats", description="Games, wins, streaks and the biggest turn, yours or a member's")
    @app_commands.describe(member="whose stats (yours if left out)")
    async def stats(interaction: discord.Interaction[Any], member: discord.Member | None = None) -> None:
        who = member or interaction.user
        found = await (await bot.settled_views()).stats(str(who.id))
        await interaction.response.send_message(embed=stats_embed(found, who.display_name), ephemeral=True)

    @hog.command(name="help", description="How to play Hog here")
    async def help_(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=HELP, ephemeral=True)

    return hog


HELP = discord.Embed(
    title="Hog: how to play",
    description=(
        "Two players take turns. On your turn choose how many dice to roll (0 to 10): your turn scores "
        "their sum, but a 1 ruins it, and rolling none scores by a special rule. First to the goal wins.\n\n"
        "`/hog challenge @someone` challenges a friend; `/hog house` plays the house (easy, medium or "
        "perfect). Press a number on the board to roll that many dice, or 💡 Hint for the best move. "
        "`/hog rules` explains each rule set "
        "with examples; `/hog forfeit` resigns. `/hog history` lists your games and `/hog replay` watches "
        "one again, turn by turn; `/hog stats` shows your record."
    ),
)


async def run(settings: Settings) -> int:
    """Run the bot until it is stopped: the store, the service, then Discord (the token from the
    environment, never logged). The exit status: 0 when stopped, 1 when Discord cannot be used
    (a refused token, no network), said in one line."""
    assert settings.token is not None
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    store = await SqliteEventStore.open(settings.db)
    views = await GameViews.open(settings.db)
    projector = Projector(store, views)
    try:
        await projector.catch_up()
        bot = HogBot(
            GameService(store, SolutionCache(settings.cache), projector),
            views,
            guild_id=settings.guild_id,
            challenge_timeout=settings.challenge_timeout,
            turn_timeout=settings.turn_timeout,
        )
        async with bot:
            # ``docker stop`` and service managers ask with SIGTERM: close cleanly, not mid-step
            loop, closing = asyncio.get_running_loop(), []  # (the list keeps the closing task alive)
            with contextlib.suppress(NotImplementedError):  # Windows has no signal handlers in asyncio
                loop.add_signal_handler(signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close())))
            await bot.start(settings.token)
    except discord.LoginFailure:
        log.error(
            "Discord refused the token in DISCORD_TOKEN: copy it again from the Developer Portal (Bot, Reset Token)."
        )
        return 1
    except (OSError, aiohttp.ClientError, discord.GatewayNotFound) as error:
        where = settings.api_base or "discord.com"
        log.error("cannot reach Discord at %s (%s): check the network, then start the bot again.", where, error)
        return 1
    except sqlite3.Error as error:  # the store or read models are unusable: stop, closing everything
        log.error("cannot use the database %s (%s)", settings.db, error)
        return 1
    finally:
        await settle_and_close(projector, views, store)
    log.info("closed: every game is kept in %s", settings.db)
    return 0
