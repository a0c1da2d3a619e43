"""Hypothesis properties over random games of every rule set."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hog_core import events as ev
from hog_core.classic import always_roll, play
from hog_core.commentary import narrate, tell
from hog_core.events import Event
from hog_core.game import GameState, Status, replay
from hog_core.rulesets import RULE_SETS
from tests.helpers import move, new_game


@st.composite
def games(draw: st.DrawFn) -> tuple[GameState, list[Event]]:
    """A random game played to its end: random legal moves, random fair dice outcomes."""
    rules = draw(st.sampled_from(sorted(RULE_SETS)))
    goal = draw(st.integers(1, 150))
    state, log = new_game(rules, goal=goal, first=draw(st.integers(0, 1)))
    while not state.is_over:
        k = draw(st.sampled_from(state.legal_moves()))
        dice = state.dice_for(k)
        outcomes = draw(st.lists(st.integers(1, dice.sides), min_size=dice.count, max_size=dice.count))
        before = state
        state = move(state, k, *outcomes, log=log)
        assert min(state.scores) >= 0
        assert state.version == before.version + 1
    return state, log


@settings(max_examples=200, deadline=None)
@given(games())
def test_replaying_the_events_reproduces_the_state(game: tuple[GameState, list[Event]]) -> None:
    state, log = game
    assert replay(log) == state
    assert state.version == len(log)


@settings(max_examples=200, deadline=None)
@given(games())
def test_serialized_events_round_trip(game: tuple[GameState, list[Event]]) -> None:
    _, log = game
    for event in log:
        data = ev.encode(event)
        assert ev.decode(data, type_name=ev.event_type(event), version=type(event).VERSION) == event
        assert ev.encode(ev.decode(data)) == data


@settings(max_examples=200, deadline=None)
@given(games())
def test_every_game_ends_with_a_winner_at_the_goal_or_a_draw(game: tuple[GameState, list[Event]]) -> None:
    state, _ = game
    assert state.turn_number <= state.turn_limit
    if state.status is Status.FINISHED:
        assert state.winner is not None
        assert state.scores[state.winner] >= state.goal > state.scores[1 - state.winner]
    else:
        assert state.status is Status.DRAWN
        assert state.winner is None and max(state.scores) < state.goal


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(RULE_SETS)), st.integers(0, 10), st.integers(0, 10))
def test_two_fixed_strategies_always_finish(rules: str, k0: int, k1: int) -> None:
    score0, score1 = play(always_roll(k0), always_roll(k1), rules=rules)
    # Only sp22's 0-point Hefty Hogs moves can stall a game; rolling at least one die never does.
    if rules != "sp22" or (k0 and k1):
        assert max(score0, score1) >= 100


@settings(max_examples=150, deadline=None)
@given(games(), st.data())
def test_a_game_told_in_pieces_is_told_as_narrated_whole(
    game: tuple[GameState, list[Event]], data: st.DataObject
) -> None:
    """The service tells each move after the story so far: the same words as the whole game narrated."""
    _, log = game
    cuts = sorted(data.draw(st.lists(st.integers(0, len(log)), max_size=4)))
    story, told = None, []
    for start, end in zip([0, *cuts], [*cuts, len(log)], strict=True):
        story, more = tell(story, log[start:end])
        told += more
    assert told == list(narrate(log))
