"""Hog's turns as a table, one row a turn: the dataset a student loads into pandas (``python -m bot
export --format csv``). Each row: the game, its rule set and goal, the turn, who moved and both
totals before, the dice chosen and rolled, the points, the totals after, the rules that fired (in the
course's words), whether it earned an extra turn, and from the exact review (goals up to 200) the best
moves, the chance of winning with the best move and with the one played, and the verdict."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hog_core.effects import felt
from hog_core.events import Event, TurnTaken
from hog_core.game import GameState, evolve
from hog_core.review import MoveReview

HEADER = (
    "game_id", "rules", "goal", "turn", "mover", "mover_before", "opponent_before", "dice", "sides",
    "rolled", "points", "mover_after", "opponent_after", "rules_fired", "extra_turn", "best",
    "chance_best", "chance_played", "verdict",
)  # fmt: skip
"""The columns, in order."""


def fired(state: GameState) -> str:
    """The rules that changed the last turn, in the course's words, ``;`` between them."""
    assert state.last_turn is not None
    names = [str(getattr(e, "rule", "") or type(e).__name__) for e in felt(state.last_turn.resolution.effects)]
    return ";".join(dict.fromkeys(names))


def rows(events: Sequence[Event], reviewed: Sequence[MoveReview] | None) -> Iterator[tuple[object, ...]]:
    """A row a turn of the game ``events`` tell, ``reviewed`` (its exact review, by turn) beside each."""
    by_turn = {m.turn: m for m in reviewed or ()}
    state = GameState()
    for event in events:
        before = state
        state = evolve(state, event)
        if not isinstance(event, TurnTaken) or state.last_turn is None:
            continue
        last, review = state.last_turn, by_turn.get(before.turn_number)
        mover, other = last.seat, 1 - last.seat
        yield (
            state.game_id, state.rules.id, state.goal, before.turn_number, mover,
            last.before[mover], last.before[other], last.k, last.sides, " ".join(map(str, last.outcomes)),
            last.resolution.points, last.after[mover], last.after[other], fired(state),
            int(last.resolution.extra_turn),
            "" if review is None else " ".join(map(str, review.best)),
            "" if review is None else round(review.chance_best, 6),
            "" if review is None else round(review.chance_played, 6),
            "" if review is None else review.verdict,
        )  # fmt: skip
