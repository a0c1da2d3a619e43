"""Cucumber's persistent buttons. Each custom_id carries the game (and what the press means); the
game itself is loaded from the log on every press, so they work after a restart, and every id in one
is checked against the stored game. Templates take any text in each part, so that a forged custom_id
is answered in words."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.discord.client import GameBot
from bot.discord.front import FORGED
from bot.discord.stepping import NAVIGATION
from cucumber_core.cards import Card, short

if TYPE_CHECKING:
    from bot.games.cucumber.discord.front import CucumberFront

GAME = "cucumber"
LABELS = {"join": "Join", "leave": "Leave", "start": "Start", "fill": "Start with bots"}
STYLES = {"join": discord.ButtonStyle.success, "start": discord.ButtonStyle.primary}
Button = discord.ui.Button[discord.ui.View]
NOT_YOURS = "That hand is not yours: press Show my hand on the board for your own."


def front(interaction: discord.Interaction[Any]) -> CucumberFront:
    client = interaction.client
    assert isinstance(client, GameBot)
    return cast("CucumberFront", client.fronts[GAME])


def _card(text: str) -> Card | None:
    return int(text) if re.fullmatch(r"\d{1,2}", text) and int(text) < 52 else None


class LobbyButton(discord.ui.DynamicItem[Button], template=r"cucumber:lobby:(?P<game>[^:]*):(?P<action>[^:]*)"):
    """Join, Leave, Start, Start with bots, or a bot sat down (``bot-strong``)."""

    def __init__(self, game_id: str, action: str) -> None:
        label = LABELS.get(action) or f"+ {action.removeprefix('bot-').replace('_', ' ')} bot"
        style = STYLES.get(action, discord.ButtonStyle.secondary)
        super().__init__(Button(label=label, style=style, custom_id=f"cucumber:lobby:{game_id}:{action}"))
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(match["game"], match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await front(interaction).lobby(interaction, self.game_id, self.action)


class HandButton(discord.ui.DynamicItem[Button], template=r"cucumber:hand:(?P<game>[^:]*)(?::(?P<owner>[^:]*))?"):
    """*Show my hand* on the board (anyone's); *Refresh* on a hand (its ``owner``'s alone)."""

    def __init__(self, game_id: str, owner: str | None = None) -> None:
        label, style = (
            ("Refresh", discord.ButtonStyle.secondary) if owner else ("Show my hand", discord.ButtonStyle.primary)
        )
        custom_id = f"cucumber:hand:{game_id}" + (f":{owner}" if owner else "")
        super().__init__(Button(label=label, emoji="🃏", style=style, custom_id=custom_id))
        self.game_id, self.owner = game_id, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(match["game"], match["owner"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.owner is not None and self.owner != str(interaction.user.id):
            await interaction.response.send_message(NOT_YOURS, ephemeral=True)
            return
        await front(interaction).show_hand(interaction, self.game_id)


class CardButton(
    discord.ui.DynamicItem[Button],
    template=r"cucumber:card:(?P<game>[^:]*):(?P<moment>[^:]*):(?P<card>[^:]*):(?P<owner>[^:]*)",
):
    """A card of its ``owner``'s hand, at the moment of play the hand was shown (``GameState.moment``)."""

    def __init__(self, game_id: str, moment: str, card: Card | None, owner: str, legal: bool = True) -> None:
        label = short(card) if card is not None else "?"
        style = discord.ButtonStyle.success if legal else discord.ButtonStyle.secondary
        custom_id = f"cucumber:card:{game_id}:{moment}:{card}:{owner}"
        super().__init__(Button(label=label, style=style, custom_id=custom_id, disabled=not legal))
        self.game_id, self.moment, self.card, self.owner = game_id, moment, card, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CardButton:
        return cls(match["game"], match["moment"], _card(match["card"]), match["owner"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.card is None or not re.fullmatch(r"\d{1,4}\.\d{1,2}\.\d{1,2}", self.moment):
            await interaction.response.send_message(FORGED, ephemeral=True)
            return
        if self.owner != str(interaction.user.id):  # a hand is only ever its owner's to play from
            await interaction.response.send_message(NOT_YOURS, ephemeral=True)
            return
        await front(interaction).play_card(interaction, self.game_id, self.moment, self.card)


class BackButton(discord.ui.DynamicItem[Button], template=r"cucumber:back:(?P<game>[^:]*)"):
    """*I'm back*: a person whose seat a bot plays takes it again."""

    def __init__(self, game_id: str) -> None:
        super().__init__(
            Button(
                label="I'm back", emoji="👋", style=discord.ButtonStyle.success, custom_id=f"cucumber:back:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BackButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await front(interaction).come_back(interaction, self.game_id)


class ReplayButton(
    discord.ui.DynamicItem[Button],
    template=r"cucumber:replay:(?P<game>[^:]*):(?P<step>\d{1,6}):(?P<which>first|previous|next|last|open)",
):
    """Leads the viewer's replay of ``game_id`` to ``step``; ``open`` (on a finished board) starts one."""

    def __init__(self, game_id: str, step: int, which: str, disabled: bool = False) -> None:
        label = dict(NAVIGATION).get(which, "Replay")
        custom_id = f"cucumber:replay:{game_id}:{step}:{which}"
        emoji = "🎬" if which == "open" else None
        super().__init__(
            Button(
                label=label, emoji=emoji, style=discord.ButtonStyle.secondary, custom_id=custom_id, disabled=disabled
            )
        )
        self.game_id, self.step, self.opens = game_id, step, which == "open"

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(match["game"], int(match["step"]), match["which"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await front(interaction).replay_step(interaction, self.game_id, self.step, fresh=self.opens)
