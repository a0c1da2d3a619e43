"""Press in Discord: ``/press start`` against a bot, and the press button. A front is given the client's
``Road`` (what a game may ask of it) and its buttons are ``GameButton``s: their custom_id carries the
game and the board's version, so they keep working after a restart and a stale press is known."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.buttons import GameButton
from bot.discord.front import Move, Road, front_of
from bot.discord.layout import Board
from bot.platform.contract import Outcome
from hogbot_press.game import Created, Press, PressGame


class PressButton(GameButton, template=r"press:(?P<game>\w+):(?P<v>\d+)"):
    def __init__(self, game_id: str, version: int) -> None:
        super().__init__(f"press:{game_id}:{version}", "Press")
        self.game_id, self.version = game_id, version

    @classmethod
    def parse(cls, match: re.Match[str]) -> PressButton:
        return cls(match["game"], int(match["v"]))

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        front: PressFront = front_of(interaction, "press")
        me = str(interaction.user.id)  # the command runs only if the press is on this game's board
        await front.client.press(interaction, Move("press", self.game_id, lambda s, c: [Press(me)], self.version))


class PressFront:
    buttons = (PressButton,)
    emojis: dict[str, Any] = {}  # noqa: RUF012 (read only) Press draws no emoji of its own

    def __init__(self, client: Road, game: PressGame) -> None:
        self.client = client

    def commands(self) -> app_commands.Group:
        group = app_commands.Group(name="press", description="Press a button")

        @group.command(name="start", description="Press against a bot")
        async def start(interaction: discord.Interaction[Any]) -> None:
            game_id = f"t{interaction.id}"
            players = (str(interaction.user.id), "bot:Robo")
            names = (interaction.user.display_name, "Robo")
            create = Created(game_id, str(interaction.channel_id), players, names, timeout=60)
            await self.client.open_game(interaction, "press", game_id, create)

        return group

    async def show(self, outcome: Outcome[Any, Any]) -> Board:
        """The board: a Components V2 container of Markdown texts, the buttons below them."""
        presses = "-".join(map(str, outcome.state.presses))
        board = Board().text(f"### Press {presses}").text("\n".join(outcome.story))
        if not outcome.state.is_over:
            board.buttons.add_item(PressButton(outcome.state.game_id, outcome.state.version))
        return board

    async def finished(self, outcome: Outcome[Any, Any], shown: Board) -> Board:
        return shown

    def private(self, outcome: Outcome[Any, Any], viewer: str, note: str) -> str:
        return note  # every press is on the board: nothing is anyone's alone

    def has_picture(self, state: Any) -> bool:
        return False  # Press draws no picture

    async def picture(self, outcome: Outcome[Any, Any]) -> None:
        return None

    def close(self) -> None:
        pass
