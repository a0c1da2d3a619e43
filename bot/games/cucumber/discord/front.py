"""Cucumber's Discord front: one public board per game (edited as cards are played), each player's hand
as a message only they see, and the ``/cucumber`` commands.

A card is played from the hand message: the answer to the press is that player's new hand (after the
bots' replies, so in a game against bots it is often their turn again at once), and the public board
is edited beside it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.answers import send_private, update_clicked
from bot.discord.buttons import FORGED, GameButton
from bot.discord.front import Move, Road
from bot.discord.layout import Board, Picture
from bot.discord.reach import postable
from bot.games.cucumber.analysis import player_line, review_lines
from bot.games.cucumber.discord.buttons import (
    BackButton,
    CardButton,
    HandButton,
    LobbyButton,
    RematchButton,
    ReplayButton,
)
from bot.games.cucumber.discord.commands import cucumber_commands, new_game_id
from bot.games.cucumber.discord.desk import GAME, CucumberDesk
from bot.games.cucumber.discord.embeds import board_table, board_view, hand_message, replay_message, review_embed
from bot.games.cucumber.module import CucumberGame
from bot.games.cucumber.moves import play
from bot.games.cucumber.picture import chart, render
from bot.games.cucumber.replays import steps
from bot.games.cucumber.summary import decided
from bot.platform.contract import Chance, Commands, Outcome, Refusal
from bot.platform.names import cleaned
from bot.platform.painter import drawn
from cucumber_core.bots import BOTS
from cucumber_core.cards import Card, short
from cucumber_core.events import Event, Seat
from cucumber_core.game import (
    Command,
    GameState,
    JoinLobby,
    LeaveLobby,
    OpenLobby,
    ReturnToSeat,
    StartGame,
    bot_seat,
    replay,
)

log = logging.getLogger(__name__)

NOT_PLAYING = "You are not playing in this game."


class CucumberFront:
    buttons: tuple[type[GameButton], ...] = (
        LobbyButton,
        HandButton,
        CardButton,
        BackButton,
        ReplayButton,
        RematchButton,
    )
    emojis: Mapping[str, Callable[[], bytes]] = MappingProxyType({})
    """Cards are shown as text (``10♦``): a screen reader says them, and they need no emoji."""

    def __init__(self, client: Road, game: CucumberGame) -> None:
        self.client, self.game = client, game
        self.service = client.service(GAME)

    def commands(self) -> app_commands.Group:
        return cucumber_commands(self)

    def close(self) -> None:
        pass

    def deadline(self, state: GameState) -> float | None:
        """When the game's pending deadline (a turn, a table closing) comes, if it has one."""
        return self.client.deadline(state.game_id, "turn", "expire")

    async def show(self, outcome: Outcome[GameState, Event]) -> Board:
        state = outcome.state
        shown = board_table(state, outcome.story, self.deadline(state))
        shown.buttons = board_view(state)
        return shown

    async def finished(self, outcome: Outcome[GameState, Event], shown: Board) -> Board:
        return shown

    def has_picture(self, state: GameState) -> bool:
        return decided(state)

    async def picture(self, outcome: Outcome[GameState, Event]) -> Picture | None:
        """The picture of a decided game: the score race and the last hand's tricks."""
        if not decided(outcome.state):
            return None
        png = await drawn(render, chart(await self.service.events(outcome.state.game_id)))
        return Picture(png, f"cucumber-{outcome.state.game_id}.png", "The score race")

    # --- the table --------------------------------------------------------------------------------

    async def seated_elsewhere(self, player: str, place: str, game_id: str | None = None) -> bool:
        """Whether ``player`` is at another table or game of this channel (one at a time)."""
        live = await self.client.live_games(place, GAME)
        return any(row.game_id != game_id and player in {s.player_id for s in row.seats} for row in live)

    async def lobby(self, interaction: discord.Interaction[Any], game_id: str, action: str) -> None:
        me, name, place = str(interaction.user.id), cleaned(interaction.user.display_name), str(interaction.channel_id)
        command: Commands[GameState, Command]
        if action == "join":
            if await self.seated_elsewhere(me, place, game_id):
                await interaction.response.send_message(
                    "You are at another table in this channel: finish it, or `/cucumber leave` it first.",
                    ephemeral=True,
                )
                return
            command = _always(JoinLobby(Seat(me, name)))
        elif action == "leave":
            command = _always(LeaveLobby(me))
        elif action in ("start", "fill"):
            command = _always(StartGame(me, fill="strong" if action == "fill" else None))
        elif action.startswith("bot-") and action.removeprefix("bot-") in BOTS:
            command = _add_bot(me, action.removeprefix("bot-"))
        else:
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        await self.client.press(interaction, Move(GAME, game_id, command))

    async def rematch(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """*Rematch* pressed by one of a finished game's people: a new table in the same channel of the
        same size, cards, target and rule, the presser its host, the game's bots seated again; the
        other people are pinged to join (the host starts it, as any table). Its board names the game before it."""
        me, place = str(interaction.user.id), str(interaction.channel_id)
        events = await self.service.events(game_id)
        old = replay(events) if events else None
        seat = None if old is None else old.seat_of(me)
        if old is None or seat is None or not old.is_over or old.closed is not None or old.place != place:
            await interaction.response.send_message("Only this game's players can ask for a rematch.", ephemeral=True)
            return
        if await self.seated_elsewhere(me, place):
            await interaction.response.send_message(
                "You are at a table in this channel already: finish it, or `/cucumber leave` it first.", ephemeral=True
            )
            return
        host = Seat(me, cleaned(interaction.user.display_name))
        timeouts = (old.turn_timeout, old.lobby_timeout)
        opening = OpenLobby(
            new_game_id(), host, old.players, old.num_cards, old.target, old.cucumber_rule, *timeouts, place
        )
        others = " ".join(f"<@{s.id}>" for s in old.seats if s.bot is None and s.id != me)
        bots = [s.bot for s in old.seats if s.bot is not None]
        said = f"🔁 Rematch of game {game_id} {others}".rstrip()
        await self.client.open_game(
            interaction, GAME, opening.game_id, opening, said, _seat_bots(bots) if bots else None
        )

    async def come_back(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        await self.client.press(interaction, Move(GAME, game_id, _always(ReturnToSeat(str(interaction.user.id)))))

    # --- hands --------------------------------------------------------------------------------------

    async def _seat(self, interaction: discord.Interaction[Any], game_id: str) -> tuple[GameState, int] | None:
        """The game and the presser's seat in it, or ``None`` once they have been told why not."""
        try:
            state = await self.service.load(game_id)
        except Refusal as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return None
        seat = state.seat_of(str(interaction.user.id))
        refusal = None
        if state.version == 0 or state.place != str(interaction.channel_id):
            refusal = "There is no such game here."
        elif seat is None:
            refusal = NOT_PLAYING
        elif state.is_over:
            refusal = f"This game is over: `/cucumber replay game:{game_id}` shows every hand."
        elif not state.hands:
            refusal = "The cards are dealt when the game starts."
        if refusal is not None or seat is None:
            await interaction.response.send_message(refusal or NOT_PLAYING, ephemeral=True)
            return None
        return state, seat

    async def show_hand(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """The presser's hand, for them alone: a new message from the board, the same one refreshed.
        Where the bot may not post, the press on the board is answered as a press that leaves it
        as it is, the hand following it: its token may edit the board for 15 minutes more."""
        found = await self._seat(interaction, game_id)
        if found is None:
            return
        hand = hand_message(*found).view()
        if _private(interaction):
            await update_clicked(interaction, view=hand)
        elif postable(interaction):
            await send_private(interaction, view=hand)
        else:  # the board lives in interactions: this press, answered on it, keeps its token fresh
            await interaction.response.defer()
            await interaction.followup.send(view=hand, ephemeral=True)
            self.client.showed(game_id, interaction)

    async def play_card(self, interaction: discord.Interaction[Any], game_id: str, moment: str, card: Card) -> None:
        """A card played from the presser's hand: their hand answers (after the bots' replies), the
        board is edited beside it; a stale hand, a card not held or not allowed is refused on the hand."""
        played = play(str(interaction.user.id), card, moment)
        await self.client.press(
            interaction, Move(GAME, game_id, played, private=True, note=f"You played {short(card)}.")
        )

    def private(self, outcome: Outcome[GameState, Event], viewer: str, note: str) -> Board | str:
        """The viewer's hand as it stands, ``note`` above it; words once they hold none (the game over)."""
        state, seat = outcome.state, outcome.state.seat_of(viewer)
        if outcome.duplicate:
            note = "That card was played already."
        if seat is None or state.is_over or not state.hands:
            return f"{note} The game is over: the board shows how it ended."
        return hand_message(state, seat, note)

    # --- replays ------------------------------------------------------------------------------------

    async def replay(self, game_id: str, step: int) -> tuple[discord.Embed, discord.ui.View] | None:
        """Step ``step`` (clamped) of ``game_id``'s replay, or ``None`` for no such game."""
        events = await self.service.events(game_id)
        found = steps(self.game.narrate(events))
        if not found:
            return None
        step = max(0, min(step, len(found) - 1))
        embed, view = replay_message(found[-1].after, found, step)
        if reviewed := await self.game.review(events):
            names = [s.name for s in found[-1].after.seats]
            lines = [player_line(names[seat], reviewed, seat) for seat in sorted({r.seat for r in reviewed})]
            embed.add_field(name="Review (estimated by the strong bot)", value="\n".join(lines)[:1024], inline=False)
        if (sealed := await self.client.seal_line(GAME, found[-1].after)) is not None:
            embed.set_footer(text=f"{embed.footer.text} · {sealed}")
        return embed, view

    async def analysis(self, game_id: str) -> discord.Embed | str:
        """The estimated review of a finished game, or why there is none."""
        events = await self.service.events(game_id)
        if not events:
            return f"There is no Cucumber game {game_id!r} to review."
        reviewed = await self.game.review(events)
        if reviewed is None:
            return f"Game {game_id} is still being played: its review comes when it ends (it would tell of hands held)."
        lines = review_lines([s.name for s in replay(events).seats], reviewed)
        return review_embed(game_id, lines)

    async def replay_step(self, interaction: discord.Interaction[Any], game_id: str, step: int, fresh: bool) -> None:
        try:
            shown = await self.replay(game_id, step)
        except Refusal as error:
            await interaction.response.send_message(error.message, ephemeral=True)
            return
        if shown is None:
            await interaction.response.send_message("There is no such game to replay.", ephemeral=True)
        elif fresh or not _private(interaction):
            await interaction.response.send_message(embed=shown[0], view=shown[1], ephemeral=True)
        else:
            await interaction.response.edit_message(embed=shown[0], view=shown[1])


def _private(interaction: discord.Interaction[Any]) -> bool:
    """Whether the pressed button is on a message only the presser sees (their hand, their replay)."""
    return interaction.message is not None and interaction.message.flags.ephemeral


def _always(command: Command) -> Commands[GameState, Command]:
    return lambda state, chance: [command]


def _seat_bots(bots: list[str]) -> Commands[GameState, Command]:
    """The bots of the game before, seated again in order."""

    def commands(state: GameState, chance: Chance) -> list[Command]:
        seats = list(state.seats)
        for bot in bots:
            seats.append(bot_seat(bot, seats))
        return [JoinLobby(seat) for seat in seats[len(state.seats) :]]

    return commands


def _add_bot(player: str, bot: str) -> Commands[GameState, Command]:
    def commands(state: GameState, chance: Chance) -> list[Command]:
        if state.seat_of(player) != 0 and state.seats:
            raise Refusal(f"Only {state.seats[0].name}, who opened the table, seats bots.")
        return [JoinLobby(bot_seat(bot, state.seats))]

    return commands


if TYPE_CHECKING:
    _: type[CucumberDesk] = CucumberFront  # the front is what its buttons and commands ask of it
