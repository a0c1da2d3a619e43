"""The Discord front end: one client for every game, the Discord connection. Each game's front (found
through its module, given the client as a ``Table``) brings its slash-command group, its buttons and its
board as a message; the client answers clicks over the game's service, posts and edits boards, and
keeps the timers' promises on Discord. Which version a board shows, and bringing boards up to their
logs after a restart or a lost edit, is the platform's (``bot.platform.boards``): this module only
draws and posts.

Buttons are ``GameButton``s whose custom_id carries the game and the board's version, so they keep
working after a restart and a click on an old board is recognised as stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands

from bot.discord.admin import admin_commands, game_allowed
from bot.discord.answers import answered_in, edit_message, read_clicks_lightly, update_clicked
from bot.discord.buttons import FORGED, GameButton
from bot.discord.counting import button_labels, command_labels, count, said
from bot.discord.front import DiscordFront, Picture, Shown, pictured, web_link
from bot.discord.history import HistoryButton
from bot.discord.leaderboard import LeaderboardButton
from bot.discord.pictures import PictureButton
from bot.discord.tournaments import Desk, TournamentButton
from bot.platform.chance import commitment
from bot.platform.compose import Platform, platform
from bot.platform.contract import Deadline, Outcome, Refusal, Reminder
from bot.platform.duty import Duty
from bot.platform.recent import Recent
from bot.platform.registry import load
from bot.platform.service import GameDamaged, GameService, StaleBoard
from bot.platform.settings import Settings
from bot.web.serve import open_site
from storage.errors import DATABASE_ERRORS, OPENING_ERRORS
from storage.games import GameRow, GameViews

log = logging.getLogger(__name__)

NOT_THIS_BOARD = "That button is not from this game's board."
NOT_STARTED = "This game did not start: the bot restarted as it was being set up. Please ask again."

PERMISSIONS = discord.Permissions(117760)
"""What the bot asks for in its invite: view channels, send messages, embed links, attach files,
read message history (the README's invite link has the same number)."""

COLLECT_AFTER = (20_000, 20, 10)
"""When the cyclic garbage collector runs (its generations' thresholds; Python's: 700, 10, 10). A bot
makes and drops tens of thousands of short-lived objects a second (gateway events, embeds, requests),
almost none in cycles; at Python's thresholds it collected some 200 times a second under load, about a tenth
of its CPU."""

MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


class GameBot(discord.AutoShardedClient):
    """The bot: every game's commands and boards, on the shards this process runs (all of them, as
    many as Discord recommends, unless ``shard_count`` and ``shard_ids`` say otherwise)."""

    def __init__(
        self,
        platform: Platform,
        *,
        guild_id: int | None = None,
        shard_count: int | None = None,
        shard_ids: Sequence[int] | None = None,
    ) -> None:
        shards: dict[str, Any] = {"shard_count": shard_count}
        if shard_ids is not None:
            shards["shard_ids"] = list(shard_ids)
        super().__init__(intents=discord.Intents(guilds=True), allowed_mentions=MENTION_USERS, **shards)
        self.platform, self.views, self.guild_id = platform, platform.views, guild_id
        self.timers, self.boards = platform.timers, platform.boards
        self.timers.fired, self.timers.warned = self.edit_board, self.warn
        self.duty = Duty(platform, on_lead=self.reconcile)
        """The timers and the board reconcile, kept by the one leading process (``bot.platform.duty``)."""
        self._duty: asyncio.Task[None] | None = None
        self._located: set[str] = set()
        self._pictures: Recent[tuple[str, int], Picture] = Recent(64)
        """Finished games' pictures, by game and version, as they were last asked for."""
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self.command_failed  # type: ignore[method-assign]
        self.fronts: dict[str, DiscordFront] = {
            name: load(game.discord_front)(self, game) for name, game in platform.games.items()
        }
        for front in self.fronts.values():
            self.tree.add_command(front.commands())
        self.tree.add_command(admin_commands(self))
        self.tree.interaction_check = self.allowed  # type: ignore[method-assign]
        read_clicks_lightly(self)
        self.tournaments = Desk(self)
        """Every game's tournaments: their boards, and their games posted in the channel."""
        self.buttons: tuple[type[GameButton], ...] = (
            HistoryButton,
            LeaderboardButton,
            TournamentButton,
            PictureButton,
            *(button for front in self.fronts.values() for button in front.buttons),
        )

    def service(self, game: str) -> GameService[Any, Any, Any]:
        return self.platform.service(game)

    async def setup_hook(self) -> None:
        self._duty = asyncio.create_task(self.duty.run())
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
        """Every click, routed by its custom_id to the button it names (parsed back from the id alone,
        so it works after a restart); one that is none of ours (another app's, or malformed) is
        answered in words. discord.py's view store is not used: it would rebuild the clicked message
        into a view on every click, and keep a view per message edited."""
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        for button in self.buttons:
            match = button.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                try:
                    await button.parse(match).callback(interaction)
                except Exception:
                    log.exception("the button %s failed", custom_id)
                    said(interaction, "failed")
                    await self.apologise(interaction)
                self.counted(interaction, *button_labels(custom_id, self.fronts))
                return
        await interaction.response.send_message(FORGED, ephemeral=True)
        self.counted(interaction, "unknown", "", "refused")

    async def close(self) -> None:
        if self._duty is not None:
            self._duty.cancel()
        self.timers.close()
        for front in self.fronts.values():
            front.close()
        await super().close()

    async def started(self) -> None:
        """Wait until this process knows whether it leads, and leading, until its start-up reconcile
        has brought every board up to its log."""
        await self.duty.ready.wait()
        if self.duty.taking_lead is not None:
            await asyncio.shield(self.duty.taking_lead)

    async def settled_views(self) -> GameViews:
        """The read models, once they show every event appended so far."""
        return await self.platform.settled_views()

    def deadlines(self, game_id: str) -> list[Deadline]:
        """The game's pending deadlines, as this process's timers hold them."""
        return [Deadline(due.at, due.kind) for due in self.timers.pending(game_id)]

    async def live_games(self, place: str | None = None, game: str | None = None) -> list[GameRow]:
        """The games being played (in ``place``, of ``game``), as of the last event."""
        return await (await self.settled_views()).live_games(place, game)

    async def show(self, outcome: Outcome[Any, Any]) -> Shown:
        """The public board after ``outcome`` (without the picture: see ``finished``), its seal in the footer."""
        shown = await self.fronts[outcome.game].show(outcome)
        web_link(shown.view, self.platform.settings.public_url, outcome.state.game_id)
        words = await self.seal_line(outcome.game, outcome.state)
        if words is not None:
            footer = shown.embed.footer.text
            shown.embed.set_footer(text=f"{footer} · {words}" if footer else words)
        return shown

    async def seal_line(self, game: str, state: Any) -> str | None:
        """What a board says of the game's seed: its SHA-256 while it is played, the seed itself (and
        how to check it) once it is over; ``None`` for a game without one."""
        seed = await self.service(game).seed(state.game_id)
        if seed is None:
            return None
        if state.is_over:
            return f"🔓 seed {seed.hex()} · check: /{game} verify game:{state.game_id}"
        return f"🔒 {self.platform.games[game].draws} sealed: {commitment(seed)[:16]}…"

    async def update_board(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        game_id: str,
        pending: Callable[[], Awaitable[Outcome[Any, Any]]],
    ) -> None:
        """Edit the clicked board with the outcome, or tell the clicker privately why not (someone
        else's turn, a game that is over, a forged button). A stale board is brought up to date.
        A button only ever acts on the board message it is on: one of another game's board is refused."""
        said(interaction, await self._update_board(interaction, game, game_id, pending))

    async def _update_board(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        game_id: str,
        pending: Callable[[], Awaitable[Outcome[Any, Any]]],
    ) -> str:
        """``update_board``'s work; how it ended, for the metrics."""
        clicked = str(interaction.message.id) if interaction.message else None
        board = await self.boards.where(game_id)
        if board is not None and board[1] != clicked:
            await interaction.response.send_message(NOT_THIS_BOARD, ephemeral=True)
            return "refused"
        service = self.service(game)
        try:
            try:
                outcome = await pending()
            except StaleBoard as stale:
                await self.answer_with_board(interaction, await service.current(game_id))
                await interaction.followup.send(stale.message, ephemeral=True)
                return "stale"
        except GameDamaged as damaged:  # the board says so, and offers no more buttons
            log.error("game %s is damaged: %s", game_id, damaged.reason)
            notice = discord.Embed(title=self.platform.games[game].title, description=damaged.message)
            await interaction.response.edit_message(embed=notice, view=None)
            return "damaged"
        except Refusal as error:
            if await self.boards.behind(game, game_id):  # the refusal is about a moment the board does not show
                await self.answer_with_board(interaction, await service.current(game_id))
                await interaction.followup.send(error.message, ephemeral=True)
                return "refused"
            await interaction.response.send_message(error.message, ephemeral=True)
            return "refused"
        except Exception:
            log.exception("a press on the board of %s failed", game_id)
            await self.apologise(interaction)
            return "failed"
        if board is None and clicked is not None:  # its post was never recorded (a crash): this is it
            await self.boards.place(game_id, str(interaction.channel_id), clicked)
        await self.answer_with_board(interaction, outcome)
        return "moved"

    async def locate(self, channel_id: str, server_id: str) -> None:
        """Remember which server a channel is in (once per process: a channel never moves), so that
        the games played in it count on that server's leaderboard."""
        if channel_id not in self._located:
            await self.views.ratings.locate(channel_id, server_id)
            self._located.add(channel_id)

    async def answer_with_board(self, interaction: discord.Interaction[Any], outcome: Outcome[Any, Any]) -> None:
        """Update the clicked board: one request, the acknowledgement that edits it."""
        game_id = outcome.state.game_id
        async with self.boards.rendering(game_id):
            outcome = await self.boards.newest(outcome)  # never an older board back up
            shown = await self.board(outcome)
            await update_clicked(interaction, embed=shown.embed, view=shown.view)
            await self.boards.shown(game_id, outcome.state.version)
        await self.boards.keep_up(outcome.game, game_id, outcome.state.version, self._edit_placed)

    async def board(self, outcome: Outcome[Any, Any], picture: Picture | None = None) -> Shown:
        """The public board after ``outcome``; once the game is over, with what its front adds (a
        review), and ``picture`` or else *Picture* when it has one (drawn when pressed: ``show_picture``)."""
        shown = await self.show(outcome)
        if not outcome.state.is_over:
            return shown
        front = self.fronts[outcome.game]
        shown = await front.finished(outcome, shown)
        if picture is not None:
            return pictured(shown, picture)
        if front.has_picture(outcome.state):
            shown.view.add_item(PictureButton(outcome.game, outcome.state.game_id))
        return shown

    async def show_picture(self, interaction: discord.Interaction[Any], game: str, game_id: str) -> None:
        """*Picture* pressed on a finished game's board: the board, with the game's picture (drawn
        once a game and version: a second press, or another board's, draws nothing again)."""
        clicked = str(interaction.message.id) if interaction.message else None
        front, placed = self.fronts.get(game), await self.boards.where(game_id)
        if front is None or placed is None or placed[1] != clicked:
            await interaction.response.send_message(NOT_THIS_BOARD, ephemeral=True)
            return
        outcome = await self.service(game).current(game_id)
        key = (game_id, outcome.state.version)
        picture = self._pictures.get(key) if outcome.state.is_over else None
        if picture is None and outcome.state.is_over:
            picture = await front.picture(outcome)
        if picture is None:
            await interaction.response.send_message("This game has no picture (yet).", ephemeral=True)
            return
        shown = await self.board(outcome, self._pictures.put(key, picture))
        await update_clicked(interaction, embed=shown.embed, view=shown.view, attachments=shown.files)

    async def open_game(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        game_id: str,
        create: object,
        mention: str | None = None,
    ) -> None:
        """Create the game and post its board as the command's answer (deferred: a first solve takes a moment)."""
        deferred = await interaction.response.defer()
        # where the board will be, known before the game is stored: a crash between the two is
        # repaired at the next start (the board is posted there), never a game nobody can see.
        # Held as the board's rendering lock throughout, so that a reconcile running meanwhile
        # never takes the placed board for one whose game was never stored.
        async with self.boards.rendering(game_id):
            channel, message = await answered_in(interaction, deferred)
            await self.boards.place(game_id, channel, message)
            if interaction.guild_id is not None:
                await self.locate(channel, str(interaction.guild_id))
            try:
                outcome = await self.service(game).create(game_id, create, str(interaction.id))
            except Refusal as error:  # the public "thinking…" goes; the reason is for the player alone
                await self.boards.forget(game_id)
                await interaction.delete_original_response()
                await interaction.followup.send(error.message, ephemeral=True)
                return
            shown = await self.show(outcome)
            try:
                await interaction.edit_original_response(content=mention, embed=shown.embed, view=shown.view)
            except discord.HTTPException as error:  # Discord would not show it: the game must not be played blind
                failed = error
            else:
                await self.boards.shown(game_id, outcome.state.version)
                return
        await self.void(game, game_id, f"Discord refused its board: {failed}")

    async def post_game(self, channel: str, game: str, game_id: str, create: object, content: str) -> None:
        """Create a game no one asked for by a command (a tournament's) and post its board in
        ``channel`` with ``content`` (its players pinged): placed before it is stored, as ``open_game``."""
        async with self.boards.rendering(game_id):
            try:
                posted = await self.get_partial_messageable(int(channel)).send(content=f"{content}\n⏳ setting up…")
            except discord.HTTPException as error:  # stored nowhere yet: the leader tries again at its next start
                log.warning("could not post the board of %s: %s", game_id, error)
                return
            await self.boards.place(game_id, channel, str(posted.id))
            try:
                outcome = await self.service(game).create(game_id, create, f"tournament:{game_id}")
            except Refusal as error:  # created meanwhile (another process): this post goes
                log.warning("game %s was not created here: %s", game_id, error.message)
                with contextlib.suppress(discord.HTTPException):
                    await posted.delete()
                return
            shown = await self.show(outcome)
            if await self._edit(posted, Shown(shown.embed, shown.view), content=content):
                await self.boards.shown(game_id, outcome.state.version)

    async def board_message(self, game_id: str) -> discord.PartialMessage | None:
        """The message showing ``game_id``'s board, if one was posted."""
        found = await self.boards.where(game_id)
        return None if found is None else self._message(found)

    def _message(self, placed: tuple[str, str]) -> discord.PartialMessage:
        channel, message = placed
        return self.get_partial_messageable(int(channel)).get_partial_message(int(message))

    async def void(self, game: str, game_id: str, why: str) -> None:
        """Call off a game nobody could ever see, so that no timer scores it."""
        log.warning("calling off game %s: %s", game_id, why)
        service = self.service(game)
        with contextlib.suppress(Refusal):  # it ended meanwhile: nothing to call off
            await service.execute(game_id, lambda state, chance: service.game.call_off(state), f"void:{game_id}")

    async def edit_board(self, outcome: Outcome[Any, Any]) -> bool:
        """Show the game as it stands on its board message, wherever it is (a timer fired, a player
        forfeited, a restart); ``False`` when it cannot be (never posted, deleted, or out of the
        bot's reach). ``outcome`` is the newest the caller knows; a newer one is shown if there is."""
        edited = await self.boards.show(outcome, self._edit_placed)
        if edited:
            await self.boards.keep_up(outcome.game, outcome.state.game_id, outcome.state.version, self._edit_placed)
        return edited

    async def _edit_placed(self, outcome: Outcome[Any, Any], placed: tuple[str, str]) -> bool:
        """The board message edited to show ``outcome``."""
        return await self._edit(self._message(placed), await self.board(outcome))

    async def reconcile(self) -> None:
        """Bring every board up to its game's log after a restart (``Boards.reconcile``), on the side."""
        await self.boards.reconcile(self._edit_placed, self._unstarted, self.void)

    async def _unstarted(self, placed: tuple[str, str]) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self._message(placed).edit(content=NOT_STARTED, embed=None, view=None)

    async def _edit(
        self, message: discord.PartialMessage | discord.Message, shown: Shown, content: str | None = None
    ) -> bool:
        try:
            await edit_message(
                self, message.channel.id, message.id, embed=shown.embed, view=shown.view, attachments=shown.files,
                content=discord.utils.MISSING if content is None else content,
            )  # fmt: skip
        except discord.HTTPException as error:
            log.warning("could not edit the board message %s: %s", message.id, error)
            return False
        return True

    async def warn(self, game: str, game_id: str, reminder: Reminder) -> None:
        """Remind the player whose deadline is near, in a reply to the board."""
        message = await self.board_message(game_id)
        if message is None:
            return
        await message.reply(f"<@{reminder.player_id}>, {reminder.text}", mention_author=False)

    def counted(self, interaction: discord.Interaction[Any], kind: str, game: str, outcome: str | None = None) -> None:
        """Count the interaction answered (``bot.discord.counting``), and dispatch
        ``interaction_counted`` (interaction, kind, game, outcome) for whoever waits for it."""
        self.dispatch("interaction_counted", interaction, kind, game, count(interaction, kind, game, outcome))

    async def allowed(self, interaction: discord.Interaction[Any]) -> bool:
        """A command runs unless its game is turned off in the server (``game_allowed``): refused then, and counted."""
        if await game_allowed(self, interaction):
            return True
        if interaction.command is not None and interaction.type is discord.InteractionType.application_command:
            self.counted(interaction, *command_labels(interaction.command.qualified_name, self.fronts), "refused")
        return False

    async def on_app_command_completion(self, interaction: discord.Interaction[Any], command: Any) -> None:
        self.counted(interaction, *command_labels(command.qualified_name, self.fronts))

    async def command_failed(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        """Whatever went wrong inside a command, the player hears about it in words."""
        name = interaction.command.qualified_name if interaction.command else "?"
        self.counted(interaction, *command_labels(name, self.fronts), "failed")
        log.error("/%s failed", name, exc_info=error)
        await self.apologise(interaction)

    async def apologise(self, interaction: discord.Interaction[Any]) -> None:
        words = "Something went wrong on my side. Every game is safe in the log; please try again."
        if interaction.response.is_done():
            await interaction.followup.send(words, ephemeral=True)
        else:
            await interaction.response.send_message(words, ephemeral=True)


PLAIN_LOG = logging.Formatter("[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{")
"""discord.py's log format without its colours."""


def setup_logging() -> None:
    """discord.py's log format, to stderr, in colour only on a terminal: never in a file, a pipe or a
    container's log (discord.py colours any output in Docker). Its warnings that voice needs PyNaCl
    and davey are silenced: the bot uses no voice."""
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    if sys.stderr.isatty():
        discord.utils.setup_logging()
    else:
        discord.utils.setup_logging(formatter=PLAIN_LOG)


def run_bot(settings: Settings) -> int:
    """``run`` on uvloop's event loop where it is installed (not on Windows): libuv's loop and sockets
    cost the bot far less CPU than asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(run(settings))
    return uvloop.run(run(settings))


async def run(settings: Settings) -> int:
    """Run the bot until it is stopped: the platform, then Discord (the token from the
    environment, never logged). The exit status: 0 when stopped, 1 when Discord cannot be used
    (a refused token, no network), said in one line."""
    assert settings.token is not None
    gc.set_threshold(*COLLECT_AFTER)
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    stack = contextlib.AsyncExitStack()
    try:
        p = await stack.enter_async_context(platform(settings))
    except OPENING_ERRORS as error:
        log.error("cannot use the database %s (%s)", settings.where, error)
        return 1
    try:
        async with stack:
            if settings.web_port is not None:  # the web pages too, fed by this process's boards
                try:
                    site = await open_site(p, settings.web_host, settings.web_port)
                except OSError as error:
                    log.error("cannot serve the web pages on %s:%d (%s)", settings.web_host, settings.web_port, error)
                    return 1
                stack.push_async_callback(site.cleanup)
            bot = GameBot(p, guild_id=settings.guild_id, shard_count=settings.shard_count, shard_ids=settings.shard_ids)
            async with bot:
                # ``docker stop`` and service managers ask with SIGTERM: close cleanly, not mid-step
                loop, closing = asyncio.get_running_loop(), []  # (the list keeps the closing task alive)
                with contextlib.suppress(NotImplementedError):  # Windows has no signal handlers in asyncio
                    loop.add_signal_handler(signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close())))
                gc.freeze()  # what start-up made lives as long as the process: the collector no longer walks it
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
    except DATABASE_ERRORS as error:  # the store or read models are unusable: stop, closing everything
        log.error("cannot use the database %s (%s)", settings.where, error)
        return 1
    log.info("closed: every game is kept in %s", settings.where)
    return 0
