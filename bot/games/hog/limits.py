"""Which Hog games the bot offers: goals it can play, and the goals it has solved for the perfect
house and the win chances."""

from __future__ import annotations

from hog_core.errors import InvalidGame
from hog_core.game import CreateGame
from hog_core.rulesets import RULE_SETS
from hog_core.strategies import DIFFICULTIES

MAX_SOLVED_GOAL = 200
"""The largest goal the perfect house and the win chances are solved for: the solution's size grows
with the square of the goal (contest to 200 solves in seconds; to 1000 it would take minutes)."""

GOALS = range(10, 1001)
"""The goals a game may be played to, from every front end."""


def check(command: CreateGame) -> None:
    """Refuse, before any work, a game no front end offers: raises ``InvalidGame``."""
    if command.rules not in RULE_SETS:
        raise InvalidGame(f"There is no rule set {command.rules!r}; choose one of {', '.join(RULE_SETS)}.")
    if command.goal not in GOALS:
        raise InvalidGame(f"The goal must be between {GOALS[0]} and {GOALS[-1]}, not {command.goal}.")
    for level in {p.house for p in command.players} - {None}:
        if level not in DIFFICULTIES:
            raise InvalidGame(f"The house plays {', '.join(DIFFICULTIES)}; there is no {level!r}.")
    if command.goal > MAX_SOLVED_GOAL and any(p.house in ("medium", "perfect") for p in command.players):
        raise InvalidGame(
            f"The medium and perfect house play to goals up to {MAX_SOLVED_GOAL}; for a longer game choose easy."
        )
