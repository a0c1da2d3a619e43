"""A game's headed lists of lines (a player's stats) as an embed: a field per heading."""

from __future__ import annotations

import discord

FIELD_LIMIT = 1024
"""Discord refuses a field whose value is longer."""


def sections_embed(title: str, sections: list[tuple[str, list[str]]], footer: str) -> discord.Embed:
    shown = discord.Embed(title=title)
    for heading, lines in sections:
        shown.add_field(name=heading, value="\n".join(lines)[:FIELD_LIMIT], inline=False)
    shown.set_footer(text=footer)
    return shown
