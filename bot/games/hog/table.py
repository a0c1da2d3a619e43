"""What a Hog table shows, for every front that draws one (the web's HTML board, Discord's board):
each player's panel — name, score, whose turn, the chance to win — and each turn a command told, with
its dice as (value, sides) and what the turn brought."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.hog.board import CHANCE_MEANING, percent
from hog_core.events import TurnTaken
from hog_core.game import PORK_CHOP, GameState, Status

PIPS = {
    1: ((30, 30),),
    2: ((16, 16), (44, 44)),
    3: ((16, 16), (30, 30), (44, 44)),
    4: ((16, 16), (44, 16), (16, 44), (44, 44)),
    5: ((16, 16), (44, 16), (30, 30), (16, 44), (44, 44)),
    6: ((16, 16), (44, 16), (16, 30), (44, 30), (16, 44), (44, 44)),
}
"""Where a six-sided die's pips sit, on a face 60 units wide."""
Told = tuple[tuple[object, GameState, tuple[str, ...]], ...]
"""A command's events, each with the game after it and its commentary (``Outcome.told``)."""


@dataclass(frozen=True)
class Panel:
    name: str
    score: int
    to_move: bool
    won: bool
    chance: float | None
    chance_words: str


@dataclass(frozen=True)
class Roll:
    who: str
    words: str
    """``rolls 4 dice``, ``rolls no dice``, ``uses Pork Chop``."""
    faces: tuple[tuple[int, int], ...]
    """Each die's value and sides."""
    lines: tuple[str, ...]
    """What the turn brought: its score, the rules that fired, the commentary."""


def move_said(k: int) -> str:
    return (
        "uses Pork Chop"
        if k == PORK_CHOP
        else "rolls no dice"
        if k == 0
        else f"rolls {k} {'die' if k == 1 else 'dice'}"
    )


def rolls(told: Told) -> tuple[list[Roll], list[str]]:
    """Each turn the command's events told, and the lines of its other events (a start, a forfeit)."""
    found: list[Roll] = []
    others: list[str] = []
    for event, after, lines in told:
        if isinstance(event, TurnTaken):
            faces = tuple((v, event.sides) for v in event.outcomes)
            found.append(Roll(after.players[event.seat].name, move_said(event.k), faces, tuple(lines)))
        else:
            others += lines
    return found, others


def panels(state: GameState, chances: tuple[float, float] | None) -> list[Panel]:
    playing = state.status is Status.ACTIVE
    return [
        Panel(
            p.name,
            state.scores[i],
            playing and state.mover == i,
            state.winner == i,
            None if chances is None else chances[i],
            "" if chances is None else f"{percent(chances[i])} to win ({CHANCE_MEANING})",
        )
        for i, p in enumerate(state.players)
    ]
