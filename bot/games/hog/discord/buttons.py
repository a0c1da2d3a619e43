"""Hog's persistent buttons: a move at a board's version, Accept / Decline, the hint, and a replay's
steps. Old custom_ids (``hog:move:<game>:<version>:<k>`` and the rest) are kept exactly: boards
posted before any upgrade keep working."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.buttons import FORGED, GameButton, number
from bot.discord.stepping import NAVIGATION
from bot.games.hog.discord.desk import hog
from bot.platform.contract import Refusal
from hog_core.game import PORK_CHOP, AcceptChallenge, DeclineChallenge


class MoveButton(GameButton, template=r"hog:move:(?P<game>[^:]*):(?P<version>[^:]*):(?P<k>[^:]*)"):
    """A move on a game's board at a version (``k``: how many dice, -1 for Pork Chop)."""

    def __init__(self, game_id: str, version: int | None, k: int | None) -> None:
        super().__init__(*self.looks(game_id, version, k))
        self.game_id, self.version, self.k = game_id, version, k

    @staticmethod
    def looks(game_id: str, version: int | None, k: int | None) -> tuple[str, str, discord.ButtonStyle]:
        """Its custom_id, label and style."""
        if k == PORK_CHOP:
            return f"hog:move:{game_id}:{version}:{k}", "Pork Chop", discord.ButtonStyle.danger
        return f"hog:move:{game_id}:{version}:{k}", str(k), discord.ButtonStyle.secondary

    @classmethod
    def parse(cls, match: re.Match[str]) -> MoveButton:
        return cls(match["game"], number(match["version"]), number(match["k"]))

    def refusal(self) -> str | None:
        return FORGED if self.version is None or self.k is None else None

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        assert self.version is not None and self.k is not None
        await hog(interaction).move(interaction, self.game_id, self.version, self.k)


class AnswerButton(GameButton, template=r"hog:answer:(?P<game>[^:]*):(?P<answer>[^:]*)"):
    """*Accept* or *Decline* on a challenge's board."""

    def __init__(self, game_id: str, answer: str) -> None:
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.secondary
        super().__init__(f"hog:answer:{game_id}:{answer}", answer.capitalize(), style)
        self.game_id, self.answer = game_id, answer

    @classmethod
    def parse(cls, match: re.Match[str]) -> AnswerButton:
        return cls(match["game"], match["answer"])

    def refusal(self) -> str | None:
        return None if self.answer in ("accept", "decline") else FORGED

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        player = str(interaction.user.id)
        command = AcceptChallenge(player) if self.answer == "accept" else DeclineChallenge(player)
        await hog(interaction).answer(interaction, self.game_id, command)


class HintButton(GameButton, template=r"hog:hint:(?P<game>[^:]*)"):
    """The best move for the player to move, told privately to whoever asks."""

    def __init__(self, game_id: str) -> None:
        super().__init__(*self.looks(game_id))
        self.game_id = game_id

    @staticmethod
    def looks(game_id: str) -> tuple[str, str, discord.ButtonStyle, str]:
        """Its custom_id, label, style and emoji."""
        return f"hog:hint:{game_id}", "Hint", discord.ButtonStyle.primary, "💡"

    @classmethod
    def parse(cls, match: re.Match[str]) -> HintButton:
        return cls(match["game"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        front = hog(interaction)
        try:
            words = await front.hint(self.game_id, str(interaction.channel_id))
        except Refusal as error:  # a damaged game, or another game's id
            words = error.message
        await interaction.response.send_message(words, ephemeral=True)


class ReplayButton(
    GameButton, template=r"hog:replay:(?P<game>[^:]*):(?P<step>\d{1,6}):(?P<which>first|previous|next|last)"
):
    """Leads the viewer's replay board of ``game_id`` to ``step``."""

    pages_a_private_message = True

    def __init__(self, game_id: str, step: int, which: str, disabled: bool = False) -> None:
        super().__init__(f"hog:replay:{game_id}:{step}:{which}", dict(NAVIGATION)[which], disabled=disabled)
        self.game_id, self.step = game_id, step

    @classmethod
    def parse(cls, match: re.Match[str]) -> ReplayButton:
        return cls(match["game"], int(match["step"]), match["which"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        shown = await hog(interaction).replay(self.game_id, self.step)
        if shown is None:
            await interaction.response.send_message("There is no such game to replay.", ephemeral=True)
            return
        await interaction.response.edit_message(embed=shown.embed, view=shown.view, attachments=shown.files)


class AnalyzeButton(GameButton, template=r"hog:analyze:(?P<game>[^:]*):(?P<page>\d{1,4}):(?P<which>older|newer)"):
    """Pages a review's moves (the review is the asker's own message)."""

    pages_a_private_message = True

    def __init__(self, game_id: str, page: int, which: str, disabled: bool = False) -> None:
        label = "Later moves ▶" if which == "older" else "◀ Earlier moves"
        super().__init__(f"hog:analyze:{game_id}:{page}:{which}", label, disabled=disabled)
        self.game_id, self.page = game_id, page

    @classmethod
    def parse(cls, match: re.Match[str]) -> AnalyzeButton:
        return cls(match["game"], int(match["page"]), match["which"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        shown = await hog(interaction).analysis(self.game_id, self.page)
        if shown is None:
            await interaction.response.send_message("There is no such game to review.", ephemeral=True)
            return
        await interaction.response.edit_message(embed=shown.embed, view=shown.view)


class RematchButton(GameButton, template=r"hog:rematch:(?P<game>[^:]*)"):
    """*Rematch* on a finished game's board: the same players, rules and goal, the other player first."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"hog:rematch:{game_id}", "Rematch", discord.ButtonStyle.success)
        self.emoji = "🔁"
        self.game_id = game_id

    @classmethod
    def parse(cls, match: re.Match[str]) -> RematchButton:
        return cls(match["game"])

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        await hog(interaction).rematch(interaction, self.game_id)
