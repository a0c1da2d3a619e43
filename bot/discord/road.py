"""The one road from a press to the board: every front hands its presses here as a ``Move`` (which
game, what commands, whether the clicked message is the board or the presser's own hand), and this
runs them, refuses in words, answers the click, edits the board and keeps it up (``Boards``), and
says how the press ended for its count (``bot.discord.counting``). It also opens games (a command's
answer, a tournament's post), draws a board with its seal and web link, and edits boards when no
click asks (a timer, a restart's reconcile). The Discord connection it speaks over is the client's;
it is the ``Road`` each game's front is given.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.answers import answered_in, apologise, edit_message, edit_through, say_through, update_clicked
from bot.discord.counting import said
from bot.discord.emojis import Emojis
from bot.discord.front import DiscordFront, Move, web_link
from bot.discord.layout import Board, Picture, notice
from bot.discord.pictures import PictureButton
from bot.discord.reach import Tokens, postable
from bot.discord.tournaments import Desk
from bot.platform.chance import seal_words
from bot.platform.contract import Commands, Outcome, Refusal, Reminder
from bot.platform.recent import Recent
from bot.platform.service import GameDamaged, GameService, StaleBoard
from storage.games import GameRow, GameViews

if TYPE_CHECKING:
    from bot.platform.compose import Platform

log = logging.getLogger(__name__)

NOT_THIS_BOARD = "That button is not from this game's board."
NOT_STARTED = "This game did not start: the bot restarted as it was being set up. Please ask again."


class DiscordRoad:
    def __init__(self, connection: discord.Client, platform: Platform, fronts: dict[str, DiscordFront]) -> None:
        self.connection, self.platform, self.fronts = connection, platform, fronts
        self.views, self.boards, self.timers = platform.views, platform.boards, platform.timers
        self.tournaments = Desk(self)
        """Every game's tournaments: their boards, and their games posted in the channel."""
        self._located: set[str] = set()
        self.tokens = Tokens(platform.timers.clock.now)
        """The boards that live in interactions (where the bot may not post), and their tokens."""
        self.emojis = Emojis()
        """The bot's own emojis (every game's, found or uploaded at start: ``GameBot.setup_hook``)."""
        self._pictures: Recent[tuple[str, int], Picture] = Recent(64)
        """Finished games' pictures, by game and version, as they were last asked for."""

    # --- what a front reads -------------------------------------------------------------------------

    def service(self, game: str) -> GameService[Any, Any, Any]:
        return self.platform.service(game)

    async def settled_views(self) -> GameViews:
        """The read models, once they show every event appended so far."""
        return await self.platform.settled_views()

    def deadline(self, game_id: str, *kinds: str) -> float | None:
        """When the game's first pending deadline of these ``kinds`` comes, as this process's timers
        hold them (``None``: none pending)."""
        return min((due.at for due in self.timers.pending(game_id) if due.kind in kinds), default=None)

    async def live_games(self, place: str | None = None, game: str | None = None) -> list[GameRow]:
        """The games being played (in ``place``, of ``game``), as of the last event."""
        return await (await self.settled_views()).live_games(place, game)

    async def locate(self, channel_id: str, server_id: str) -> None:
        """Remember which server a channel is in (once per process: a channel never moves), so that
        the games played in it count on that server's leaderboard."""
        if channel_id not in self._located:
            await self.views.ratings.locate(channel_id, server_id)
            self._located.add(channel_id)

    def get_partial_messageable(self, id: int) -> discord.PartialMessageable:
        return self.connection.get_partial_messageable(id)

    def emoji(self, name: str, fallback: str) -> str:
        return self.emojis(name, fallback)

    def showed(self, game_id: str, interaction: discord.Interaction[Any]) -> None:
        self.tokens.showed(game_id, interaction)

    # --- a press --------------------------------------------------------------------------------------

    async def press(self, interaction: discord.Interaction[Any], move: Move) -> None:
        """Run the move and answer the click: the board (or the presser's hand) as it now stands, or
        why not, to the presser alone (someone else's turn, a game that is over, a forged button; a
        stale board is brought up to date). A button acts only on the message it is on."""
        said(interaction, await self._press(interaction, move))

    async def _press(self, interaction: discord.Interaction[Any], move: Move) -> str:
        """``press``'s work; how it ended, for the count."""
        clicked = str(interaction.message.id) if interaction.message else None
        board = None if move.private else await self.boards.where(move.game_id)
        if board is not None and board[1] != clicked:
            await interaction.response.send_message(NOT_THIS_BOARD, ephemeral=True)
            return "refused"
        service = self.service(move.game)
        place = str(interaction.channel_id)
        try:
            try:
                outcome = await service.execute(move.game_id, move.commands, str(interaction.id), move.version, place)
            except StaleBoard as stale:
                await self.answer_with_board(interaction, await service.current(move.game_id))
                await interaction.followup.send(stale.message, ephemeral=True)
                return "stale"
        except GameDamaged as damaged:  # the board says so, and offers no more buttons
            log.error("game %s is damaged: %s", move.game_id, damaged.reason)
            if move.private:
                await interaction.response.send_message(damaged.message, ephemeral=True)
            else:
                await update_clicked(interaction, view=notice(self.platform.games[move.game].title, damaged.message))
            return "damaged"
        except Refusal as error:
            await self._refuse(interaction, move, error.message)
            return "refused"
        except Exception:
            log.exception("a press on the board of %s failed", move.game_id)
            await apologise(interaction)
            return "failed"
        if move.private:
            await self._answer_privately(interaction, move, outcome, move.note)
            await self.edit_board(outcome)
            return "moved"
        if board is None and clicked is not None:  # its post was never recorded (a crash): this is it
            await self.boards.place(
                move.game_id, str(interaction.channel_id), clicked, answered=not postable(interaction)
            )
        await self.answer_with_board(interaction, outcome)
        return "moved"

    async def act(
        self,
        interaction: discord.Interaction[Any],
        move: Move,
        answer: Callable[[Outcome[Any, Any]], Awaitable[None]],
    ) -> None:
        """A slash command's move, with no board clicked (``/hog forfeit``, ``/cucumber leave``): run
        as a press is, refused in words to the asker alone (a refusal, a damaged game, a failure, each
        counted); ``answer`` answers the command with the outcome, then the board is edited to match."""
        try:
            outcome = await self.service(move.game).execute(
                move.game_id, move.commands, str(interaction.id), None, str(interaction.channel_id)
            )
        except (Refusal, GameDamaged) as error:
            said(interaction, "damaged" if isinstance(error, GameDamaged) else "refused")
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        except Exception:
            log.exception("a command on %s failed", move.game_id)
            said(interaction, "failed")
            await apologise(interaction)
            return
        await answer(outcome)
        await self.edit_board(outcome)

    async def _refuse(self, interaction: discord.Interaction[Any], move: Move, words: str) -> None:
        """Why not, to the presser alone: on their own hand, that hand as it now stands; on a board
        showing an older moment than the refusal is about, that board brought up to date first."""
        service, presser = self.service(move.game), str(interaction.user.id)
        if move.private and interaction.message is not None and interaction.message.flags.ephemeral:
            hand = self.fronts[move.game].private(await service.current(move.game_id), presser, f"⚠️ {words}")
            if not isinstance(hand, str):
                await update_clicked(interaction, view=hand.view())
                return
        if not move.private and await self.boards.behind(move.game, move.game_id):
            await self.answer_with_board(interaction, await service.current(move.game_id))
            await interaction.followup.send(words, ephemeral=True)
            return
        await interaction.response.send_message(words, ephemeral=True)

    async def _answer_privately(
        self, interaction: discord.Interaction[Any], move: Move, outcome: Outcome[Any, Any], note: str
    ) -> None:
        shown = self.fronts[move.game].private(outcome, str(interaction.user.id), note)
        if isinstance(shown, str):
            await update_clicked(interaction, view=Board().text(shown).view())
        else:
            await update_clicked(interaction, view=shown.view())

    async def answer_with_board(self, interaction: discord.Interaction[Any], outcome: Outcome[Any, Any]) -> None:
        """Update the clicked board: one request, the acknowledgement that edits it."""
        game_id = outcome.state.game_id
        async with self.boards.rendering(game_id):
            outcome = await self.boards.newest(outcome)  # never an older board back up
            shown = await self.board(outcome)
            await update_clicked(interaction, view=shown.view())
            self.tokens.showed(game_id, interaction)
            await self.boards.shown(game_id, outcome.state.version)
        await self.boards.keep_up(outcome.game, game_id, outcome.state.version, self._edit_placed)

    # --- drawing a board ------------------------------------------------------------------------------

    async def show(self, outcome: Outcome[Any, Any]) -> Board:
        """The public board after ``outcome`` (without the picture: see ``board``), its seal in the small print."""
        shown = await self.fronts[outcome.game].show(outcome)
        web_link(shown.buttons, self.platform.settings.public_url, outcome.state.game_id)
        words = await self.seal_line(outcome.game, outcome.state)
        return shown if words is None else shown.note(words)

    async def seal_line(self, game: str, state: Any) -> str | None:
        """What a board says of the game's seed: its SHA-256 while it is played, the seed itself (and
        how to check it) once it is over; ``None`` for a game without one."""
        seed = await self.service(game).seed(state.game_id)
        if seed is None:
            return None
        draws = self.platform.games[game].draws or "draws"
        return seal_words(draws, seed, state.is_over, f"check: /{game} verify game:{state.game_id}", short=True)

    async def board(self, outcome: Outcome[Any, Any], picture: Picture | None = None) -> Board:
        """The public board after ``outcome``; once the game is over, with what its front adds (a
        review), and ``picture`` or else *Picture* when it has one (drawn when pressed: ``show_picture``)."""
        shown = await self.show(outcome)
        if not outcome.state.is_over:
            return shown
        front = self.fronts[outcome.game]
        shown = await front.finished(outcome, shown)
        if picture is not None:
            return shown.picture(picture)
        if front.has_picture(outcome.state):
            shown.buttons.add_item(PictureButton(outcome.game, outcome.state.game_id))
        return shown

    async def show_picture(self, interaction: discord.Interaction[Any], game: str, game_id: str) -> None:
        """*Picture* pressed on a finished game's board: the board, with the game's picture (drawn
        once a game and version: a second press, or another board's, draws nothing again)."""
        clicked = str(interaction.message.id) if interaction.message else None
        front, placed = self.fronts.get(game), await self.boards.where(game_id)
        if front is None or placed is None or placed[1] != clicked:
            said(interaction, "refused")
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
        await update_clicked(interaction, view=shown.view(), attachments=shown.files)
        self.tokens.showed(game_id, interaction)

    # --- opening a game -------------------------------------------------------------------------------

    async def open_game(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        game_id: str,
        create: object,
        mention: str | None = None,
        then: Commands[Any, Any] | None = None,
    ) -> None:
        """Create the game and post its board as the command's answer (deferred: a first solve takes a
        moment); ``then``, commands run on it once its board is up (a rematch's bots sat down), the
        board edited to show them; refused (the table filled or closed meanwhile), it stays as it is."""
        deferred = await interaction.response.defer(thinking=True)  # a new message, from a button's press too
        # where the board will be, known before the game is stored: a crash between the two is
        # repaired at the next start (the board is posted there), never a game nobody can see.
        # Held as the board's rendering lock throughout, so that a reconcile running meanwhile
        # never takes the placed board for one whose game was never stored.
        async with self.boards.rendering(game_id):
            channel, message = await answered_in(interaction, deferred)
            await self.boards.place(game_id, channel, message, answered=not postable(interaction))
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
            failed: discord.HTTPException | None = None
            try:
                await interaction.edit_original_response(view=shown.lead(mention).view())
            except discord.HTTPException as error:  # Discord would not show it: the game must not be played blind
                failed = error
            else:
                self.tokens.showed(game_id, interaction)
                await self.boards.shown(game_id, outcome.state.version)
        if failed is not None:
            await self.void(game, game_id, f"Discord refused its board: {failed}")
        elif then is not None:
            with contextlib.suppress(Refusal):
                await self.edit_board(await self.service(game).execute(game_id, then, f"{interaction.id}:then"))

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
            if await self._edit(posted, shown.lead(content)):
                await self.boards.shown(game_id, outcome.state.version)

    async def void(self, game: str, game_id: str, why: str) -> None:
        """Call off a game nobody could ever see, so that no timer scores it."""
        log.warning("calling off game %s: %s", game_id, why)
        service = self.service(game)
        with contextlib.suppress(Refusal):  # it ended meanwhile: nothing to call off
            await service.execute(game_id, lambda state, chance: service.game.call_off(state), f"void:{game_id}")

    # --- boards edited without a click -----------------------------------------------------------------

    async def edit_board(self, outcome: Outcome[Any, Any]) -> bool:
        """Show the game as it stands on its board message, wherever it is (a timer fired, a player
        forfeited, a restart); ``False`` when it cannot be (never posted, deleted, or out of the
        bot's reach). ``outcome`` is the newest the caller knows; a newer one is shown if there is."""
        edited = await self.boards.show(outcome, self._edit_placed)
        if edited:
            await self.boards.keep_up(outcome.game, outcome.state.game_id, outcome.state.version, self._edit_placed)
        return edited

    async def warn(self, game: str, game_id: str, reminder: Reminder) -> None:
        """Remind the player whose deadline is near: in a reply to the board, or where the bot may not
        post, in a follow-up while the board's token lasts (and otherwise not: the board's countdown says it)."""
        words = f"<@{reminder.player_id}>, {reminder.text}"
        try:
            if await self._answered(game_id):
                if (token := self.tokens.fresh(game_id)) is not None:
                    await say_through(self.connection, token, words)
            elif (found := await self.boards.where(game_id)) is not None:
                await self._message(found).reply(words, mention_author=False)
        except discord.HTTPException as error:  # out of the bot's reach (a DM's board after a restart)
            log.warning("could not remind %s in game %s: %s", reminder.player_id, game_id, error)

    async def reconcile(self) -> None:
        """Bring every board up to its game's log after a restart (``Boards.reconcile``), on the side."""
        await self.boards.reconcile(self._edit_placed, self._unstarted, self.void)

    async def _unstarted(self, placed: tuple[str, str]) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self._edit(self._message(placed), Board().text(NOT_STARTED))

    async def _edit_placed(self, outcome: Outcome[Any, Any], placed: tuple[str, str]) -> bool:
        """The board message edited to show ``outcome``: in its channel, or where the bot may not post,
        through the token of the interaction that last showed it, while it lasts (``bot.discord.reach``)."""
        game_id = outcome.state.game_id
        if not await self._answered(game_id):
            return await self._edit(self._message(placed), await self.board(outcome))
        if (token := self.tokens.fresh(game_id)) is None:
            return False  # the next press on it shows the game as it is
        shown = await self.board(outcome)
        try:
            await edit_through(self.connection, token, view=shown.view(), files=shown.files)
        except discord.HTTPException as error:
            log.warning("could not edit the board of %s through its token: %s", game_id, error)
            return False
        return True

    async def _answered(self, game_id: str) -> bool:
        """Whether ``game_id``'s board lives in interactions (asked of the read models once a process)."""
        known = self.tokens.through(game_id)
        if known is None:
            known = await self.platform.kept.answered_board(game_id)
            self.tokens.learn(game_id, known)
        return known

    def _message(self, placed: tuple[str, str]) -> discord.PartialMessage:
        channel, message = placed
        return self.connection.get_partial_messageable(int(channel)).get_partial_message(int(message))

    async def _edit(self, message: discord.PartialMessage | discord.Message, shown: Board) -> bool:
        """``message`` edited to show ``shown``."""
        try:
            await edit_message(
                self.connection, message.channel.id, message.id, view=shown.view(), attachments=shown.files
            )
        except discord.HTTPException as error:
            log.warning("could not edit the board message %s: %s", message.id, error)
            return False
        return True
