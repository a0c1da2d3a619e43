"""Cucumber's persistent buttons. Each custom_id carries the game (and what the press means); the
game itself is loaded from the log on every press, so they work after a restart, and every id in one
is checked against the stored game. Templates take any text in each part, so that a forged custom_id
is answered in words."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

from bot.discord.buttons import FORGED, GameButton
from bot.discord.stepping import NAVIGATION
from bot.games.cucumber.discord.desk import cucumber
from cucumber_core.cards import Card, short

LABELS = {"join": "Join", "leave": "Leave", "start": "Start", "fill": "Start with bots"}
STYLES = {"join": discord.ButtonStyle.success, "start": discord.ButtonStyle.primary}
NOT_YOURS = "That hand is not yours: press Show my hand on the board for your own."


def _card(text: str) -> Card | None:
    return int(text) if re.fullmatch(r"\d{1,2}", text) and int(text) < 52 else None


class LobbyButton(GameButton, template=r"cucumber:lobby:(?P<game>[^:]*):(?P<action>[^:]*)"):
    """Join, Leave, Start, Start with bots, or a bot sat down (``bot-strong``)."""

    def __init__(self, game_id: str, action: str) -> None:
        label = LABELS.get(action) or f"+ {action.removeprefix('bot-').replace('_', ' ')} bot"
        style = STYLES.get(action, discord.ButtonStyle.secondary)
        super().__init__(f"cucumber:lobby:{game_id}:{action}", label, style)
        self.game_id, self.action = game_id, action

    @classmethod
    def parse(cls, match: re.Match[str]) -> LobbyButton:
        return cls(match["game"], match["action"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        await cucumber(interaction).lobby(interaction, self.game_id, self.action)


class HandButton(GameButton, template=r"cucumber:hand:(?P<game>[^:]*)(?::(?P<owner>[^:]*))?"):
    """*Show my hand* on the board (anyone's); *Refresh* on a hand (its ``owner``'s alone)."""

    not_yours: ClassVar[str] = NOT_YOURS

    def __init__(self, game_id: str, owner: str | None = None) -> None:
        super().__init__(*self.looks(game_id, owner))
        self.game_id, self.owner = game_id, owner

    @staticmethod
    def looks(game_id: str, owner: str | None = None) -> tuple[str, str, discord.ButtonStyle, str]:
        """Its custom_id, label, style and emoji."""
        label, style = (
            ("Refresh", discord.ButtonStyle.secondary) if owner else ("Show my hand", discord.ButtonStyle.primary)
        )
        return f"cucumber:hand:{game_id}" + (f":{owner}" if owner else ""), label, style, "🃏"

    @classmethod
    def parse(cls, match: re.Match[str]) -> HandButton:
        return cls(match["game"], match["owner"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        await cucumber(interaction).show_hand(interaction, self.game_id)


class CardButton(
    GameButton, template=r"cucumber:card:(?P<game>[^:]*):(?P<moment>[^:]*):(?P<card>[^:]*):(?P<owner>[^:]*)"
):
    """A card of its ``owner``'s hand, at the moment of play the hand was shown (``GameState.moment``):
    a hand is only ever its owner's to play from."""

    not_yours: ClassVar[str] = NOT_YOURS

    def __init__(self, game_id: str, moment: str, card: Card | None, owner: str, legal: bool = True) -> None:
        custom_id, label, style = self.looks(game_id, moment, card, owner, legal)
        super().__init__(custom_id, label, style, disabled=not legal)
        self.game_id, self.moment, self.card, self.owner = game_id, moment, card, owner

    @staticmethod
    def looks(
        game_id: str, moment: str, card: Card | None, owner: str, legal: bool
    ) -> tuple[str, str, discord.ButtonStyle]:
        """Its custom_id, label and style (disabled when not ``legal``)."""
        label = short(card) if card is not None else "?"
        style = discord.ButtonStyle.success if legal else discord.ButtonStyle.secondary
        return f"cucumber:card:{game_id}:{moment}:{card}:{owner}", label, style

    @classmethod
    def parse(cls, match: re.Match[str]) -> CardButton:
        return cls(match["game"], match["moment"], _card(match["card"]), match["owner"])

    def refusal(self) -> str | None:
        well_formed = self.card is not None and re.fullmatch(r"\d{1,4}\.\d{1,2}\.\d{1,2}", self.moment)
        return None if well_formed else FORGED

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        assert self.card is not None
        await cucumber(interaction).play_card(interaction, self.game_id, self.moment, self.card)


class BackButton(GameButton, template=r"cucumber:back:(?P<game>[^:]*)"):
    """*I'm back*: a person whose seat a bot plays takes it again."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"cucumber:back:{game_id}", "I'm back", discord.ButtonStyle.success, emoji="👋")
        self.game_id = game_id

    @classmethod
    def parse(cls, match: re.Match[str]) -> BackButton:
        return cls(match["game"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        await cucumber(interaction).come_back(interaction, self.game_id)


class ReplayButton(
    GameButton,
    template=r"cucumber:replay:(?P<game>[^:]*):(?P<step>\d{1,6}):(?P<which>first|previous|next|last|open)",
):
    """Leads the viewer's replay of ``game_id`` to ``step``; ``open`` (on a finished board) starts one."""

    def __init__(self, game_id: str, step: int, which: str, disabled: bool = False) -> None:
        self.pages_a_private_message = which != "open"  # "open" answers with a replay of its own
        label = dict(NAVIGATION).get(which, "Replay")
        emoji = "🎬" if which == "open" else None
        super().__init__(f"cucumber:replay:{game_id}:{step}:{which}", label, emoji=emoji, disabled=disabled)
        self.game_id, self.step, self.opens = game_id, step, which == "open"

    @classmethod
    def parse(cls, match: re.Match[str]) -> ReplayButton:
        return cls(match["game"], int(match["step"]), match["which"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        await cucumber(interaction).replay_step(interaction, self.game_id, self.step, fresh=self.opens)


class RematchButton(GameButton, template=r"cucumber:rematch:(?P<game>[^:]*)"):
    """*Rematch* on a finished game's board: a new table of the same size, cards and target, its bots
    seated again, the one pressing it the host, the other people asked to join."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"cucumber:rematch:{game_id}", "Rematch", discord.ButtonStyle.success, emoji="🔁")
        self.game_id = game_id

    @classmethod
    def parse(cls, match: re.Match[str]) -> RematchButton:
        return cls(match["game"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        await cucumber(interaction).rematch(interaction, self.game_id)
