"""Hog's board as HTML, for the web front (``contract.HtmlBoard``): both players' panels — name, a big
score, whose turn in words, the chance to win as a meter with its exact figure — and each turn of the
last command with its dice drawn as faces (SVG: pips on six sides, a number on eight), the rules
that fired in the course's words, and the commentary. Escaped by its own template; styled by
``board.css`` beside it (dice that roll in, but not for those who ask for less motion)."""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from bot.games.hog.board import board
from bot.games.hog.table import PIPS, Told, panels, rolls
from bot.web.render import templates
from hog_core.game import GameState, Status
from hog_core.solver import Solution

HERE = Path(__file__).parent / "web"
TEMPLATES = templates(HERE)


def html(state: GameState, told: Told, solution: Solution | None) -> Markup:
    chances = None if solution is None or state.status is not Status.ACTIVE else solution.win_chances(state)
    facts = board(state)
    turns, others = rolls(told)
    return Markup(
        TEMPLATES.get_template("board.html").render(
            title=facts.title, panels=panels(state, chances), rolls=turns, others=others, status=facts.status,
            pips=PIPS,
        )
    )  # fmt: skip
