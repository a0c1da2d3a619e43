"""``/hog replay``: any game, step by step, on a board only its viewer sees.

A step is one event of the game's log, told with the commentary regenerated from the log (the same
words as live) and the win chances before and after it. The buttons carry the game and the step
they lead to, so each viewer's ephemeral board moves on its own, and keeps working after a restart.
"""

from __future__ import annotations

import discord

from bot.discord.buttons import Buttons
from bot.discord.stepping import NAVIGATION, target
from bot.games.hog.board import board, percent
from bot.games.hog.discord.buttons import ReplayButton
from bot.games.hog.discord.embeds import embed
from bot.games.hog.replays import Chances, Step
from hog_core.events import TurnTaken


def replay_embed(steps: list[Step], step: int, chances: tuple[Chances | None, Chances | None]) -> discord.Embed:
    """Step ``step`` of the game: its story, the totals after it, and the win chances either side."""
    event, after, lines = steps[step]
    before = steps[step - 1][1] if step else after
    shown = embed(board(after, lines, chances[1]))
    shown.title = f"Replay · {shown.title}"
    if isinstance(event, TurnTaken) and chances[0] is not None:
        names = [p.name for p in after.players]
        was = " · ".join(f"{names[i]} {percent(chances[0][i])}" for i in range(2))
        shown.add_field(name="Win chances before this turn", value=was, inline=False)
    totals = " to ".join(map(str, before.scores))
    shown.set_footer(text=f"Step {step + 1} of {len(steps)} · {shown.footer.text} · before: {totals}")
    return shown


def replay_view(game_id: str, step: int, count: int) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭, each disabled where it would lead nowhere new."""
    view = Buttons()
    for which, _ in NAVIGATION:
        to = target(which, step, count)
        view.add_item(ReplayButton(game_id, to, which, disabled=to == step))
    return view
