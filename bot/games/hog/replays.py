"""A replay's steps: each event of a game's log, told with the commentary regenerated from the log
(the same words as live), and the win chances before and after it."""

from __future__ import annotations

from hog_core.commentary import Lines
from hog_core.events import Event
from hog_core.game import GameState
from hog_core.solver import Solution

Step = tuple[Event, GameState, Lines]
Chances = tuple[float, float]


def chances_around(steps: list[Step], step: int, solution: Solution | None) -> tuple[Chances | None, Chances | None]:
    """Each seat's chance to win before and after ``step`` (``None`` where nobody solved the game)."""
    after = steps[step][1]
    if solution is None or not after.players:
        return None, None
    before = steps[step - 1][1] if step else after
    return solution.win_chances(before), solution.win_chances(after)
