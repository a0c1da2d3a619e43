"""Hog's board in Discord, as a table (Components V2: ``bot.discord.layout``): its accent the colour of
whose turn it is, said in words too; each player's name and score big, with their chance to win; the
last command's turns with their dice as faces (the bot's own emojis, their numbers in the words
beside them), the rules that fired and the commentary; the turn's deadline as a live countdown; the
moves as buttons; whose turn it is in the small print."""

from __future__ import annotations

from collections.abc import Callable

from bot.discord.layout import TEXT_LIMIT, Board, trimmed
from bot.games.hog.board import board
from bot.games.hog.discord.dice import faces
from bot.games.hog.table import Told, panels, rolls
from hog_core.game import GameState, Status

SEATS = (0x5865F2, 0xEB459E)
"""Each seat's colour (blue, then pink): the board's accent while it is their turn, or once they won."""
WAITING, ENDED = 0xFEE75C, 0x99AAB5
"""A challenge waiting for its answer; a game that ended with no winner."""
STORY_ROOM = TEXT_LIMIT - 2000
"""The turns' share of a board's text: the rest is the title, both panels, the countdown, a finished
game's review, the small print."""


def accent(state: GameState) -> int:
    if state.status is Status.ACTIVE:
        return SEATS[state.mover]
    if state.status is Status.CHALLENGED:
        return WAITING
    return SEATS[state.winner] if state.winner is not None else ENDED


def table(
    state: GameState,
    told: Told,
    chances: tuple[float, float] | None,
    deadline: float | None,
    emoji: Callable[[str, str], str],
) -> Board:
    """The board after the command ``told`` tells, ``deadline`` the end of the turn (a UNIX time)."""
    facts = board(state, (), chances)
    shown = Board(accent=accent(state)).text(f"### 🐷 {facts.title}")
    for panel in panels(state, chances if state.status is Status.ACTIVE else None):
        marks = " · ▶ to move" if panel.to_move else " · 🏆 won" if panel.won else ""
        chance = f"\n-# {panel.chance_words}" if panel.chance_words else ""
        shown.text(f"**{panel.name}**{marks}\n# {panel.score}{chance}")
    turns, others = rolls(told)
    story = [*others]
    for roll in turns:
        dice = faces(tuple(v for v, _ in roll.faces), roll.faces[0][1], emoji) if roll.faces else ""
        story += [f"🎲 {dice}" if dice else f"🎲 {roll.who} {roll.words}", *roll.lines]
    if story:
        shown.rule().text(trimmed(story, STORY_ROOM))
    if deadline is not None and state.status is Status.ACTIVE:
        shown.text(f"⏱️ {state.players[state.mover].name}'s turn ends <t:{int(deadline)}:R>")
    elif deadline is not None and state.status is Status.CHALLENGED:
        shown.text(f"⏱️ The challenge expires <t:{int(deadline)}:R>")
    return shown.note(facts.status)
