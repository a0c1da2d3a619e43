"""A board as a Discord embed, the same for the live game and its replay."""

from __future__ import annotations

import discord

from bot.discord.sections import sections_embed
from bot.games.hog.board import CHANCE_MEANING, Board, percent
from bot.games.hog.stats import Play, sections
from storage.games import PlayerStats

DESCRIPTION_LIMIT = 4096
"""Discord refuses an embed whose description is longer."""


def story_text(lines: tuple[str, ...]) -> str | None:
    """The turn's story for an embed: when the house's extra turns make it too long for Discord,
    the most recent lines are kept."""
    kept = list(lines)
    while kept and len("\n".join(["…", *kept])) > DESCRIPTION_LIMIT:
        kept.pop(0)
    if len(kept) < len(lines):
        kept.insert(0, "…")
    return "\n".join(kept) or None


def embed(b: Board) -> discord.Embed:
    shown = discord.Embed(title=b.title, description=story_text(b.story))
    for i, (name, total) in enumerate(b.totals):
        chance = f" · {percent(b.chances[i])} to win ({CHANCE_MEANING})" if b.chances is not None else ""
        shown.add_field(name=name, value=f"**{total}**{chance}", inline=True)
    shown.set_footer(text=b.status)
    return shown


def stats_embed(stats: PlayerStats, play: Play, name: str) -> discord.Embed:
    footer = "Finished games only; a forfeit counts as a loss. /hog history lists the games, /hog analyze reviews one."
    invite = "Play one with /hog house, or /hog challenge someone."
    return sections_embed(f"{name}'s Hog stats", sections(stats, play, invite), footer)
