"""``/hog replay``: any game, step by step, on a board only its viewer sees.

A step is one event of the game's log, told with the commentary regenerated from the log (the same
words as live) and the win chances before and after it. The buttons carry the game and the step
they lead to, so each viewer's ephemeral board moves on its own, and keeps working after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.stepping import NAVIGATION, target
from bot.games.hog.board import board
from bot.games.hog.discord.embeds import embed
from bot.games.hog.discord.reach import front
from bot.games.hog.replays import Chances, Step
from hog_core.events import TurnTaken


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"hog:replay:(?P<game>[^:]*):(?P<step>\d{1,6}):(?P<which>first|previous|next|last)",
):
    """Leads the viewer's replay board of ``game_id`` to ``step``."""

    def __init__(self, game_id: str, step: int, which: str, disabled: bool = False) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=dict(NAVIGATION)[which],
            style=discord.ButtonStyle.secondary,
            custom_id=f"hog:replay:{game_id}:{step}:{which}",
            disabled=disabled,
        )
        super().__init__(button)
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(match["game"], int(match["step"]), match["which"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        shown = await front(interaction).replay(self.game_id, self.step)
        if shown is None:
            await interaction.response.send_message("There is no such game to replay.", ephemeral=True)
            return
        await interaction.response.edit_message(embed=shown.embed, view=shown.view, attachments=shown.files)


def replay_embed(steps: list[Step], step: int, chances: tuple[Chances | None, Chances | None]) -> discord.Embed:
    """Step ``step`` of the game: its story, the totals after it, and the win chances either side."""
    event, after, lines = steps[step]
    before = steps[step - 1][1] if step else after
    shown = embed(board(after, lines, chances[1]))
    shown.title = f"Replay · {shown.title}"
    if isinstance(event, TurnTaken) and chances[0] is not None:
        names = [p.name for p in after.players]
        was = " · ".join(f"{names[i]} {chances[0][i]:.0%}" for i in range(2))
        shown.add_field(name="Win chances before this turn", value=was, inline=False)
    totals = " to ".join(map(str, before.scores))
    shown.set_footer(text=f"Step {step + 1} of {len(steps)} · {shown.footer.text} · before: {totals}")
    return shown


def replay_view(game_id: str, step: int, count: int) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭, each disabled where it would lead nowhere new."""
    view = discord.ui.View(timeout=None)
    for which, _ in NAVIGATION:
        to = target(which, step, count)
        view.add_item(ReplayButton(game_id, to, which, disabled=to == step))
    return view
