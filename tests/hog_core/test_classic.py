"""``hog_core.classic``: the course's ``play`` on the engine's decide/evolve."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hog_core.classic import DiceFn, Say, Strategy, always_roll, make_test_dice, play
from hog_core.errors import InvalidMove
from hog_core.rulesets import RULE_SETS
from tests.hog_core.course_reference import PLAYS


def test_make_test_dice_cycles_and_ignores_sides() -> None:
    dice = make_test_dice(4, 1, 2)
    assert [dice(), dice(6), dice(4), dice(8)] == [4, 1, 2, 4]


def test_always_roll() -> None:
    assert always_roll(5)(0, 0) == 5 and always_roll(0)(99, 1) == 0


def test_fa18_hand_worked_game() -> None:
    # 10 a turn: P0 10 v 0 (no swap: 1 vs 0); P1 10 v 10 (swap of equals); P0 20 wins
    assert play(always_roll(2), always_roll(2), dice=make_test_dice(5), goal=20) == (20, 10)


def test_strategy_called_once_per_turn_and_dice_exactly_k_times() -> None:
    calls: list[tuple[int, int]] = []
    rolled: list[int] = []

    def strategy(score: int, opponent: int) -> int:
        calls.append((score, opponent))
        return 3

    def dice(sides: int) -> int:
        rolled.append(sides)
        return 1 if len(rolled) % 3 == 1 else 5  # a 1 first: all 3 dice are still rolled

    score0, score1 = play(strategy, strategy, dice=dice, goal=30)
    assert max(score0, score1) >= 30
    assert len(rolled) == 3 * len(calls)
    assert set(rolled) == {6}


def test_say_is_called_after_every_turn_including_the_last() -> None:
    heard: list[tuple[int, int]] = []

    def say(score0: int, score1: int) -> Say:
        heard.append((score0, score1))
        return say

    result = play(always_roll(2), always_roll(2), dice=make_test_dice(5), goal=20, say=say)
    assert heard == [(10, 0), (10, 10), (20, 10)]
    assert heard[-1] == result


def test_an_illegal_strategy_is_refused_before_any_die_is_rolled() -> None:
    rolled: list[int] = []

    def dice(sides: int) -> int:
        rolled.append(sides)
        return 3

    with pytest.raises(InvalidMove, match="Choose between 0 and 10 dice, not 11"):
        play(always_roll(11), always_roll(1), dice=dice)
    assert rolled == []


def test_sp22_looping_strategies_stop_at_the_turn_limit() -> None:
    calls = 0

    def open_then_hefty_hogs(dice: int) -> Strategy:
        def strategy(score: int, opponent: int) -> int:
            nonlocal calls
            calls += 1
            return dice if score == 0 else 0

        return strategy

    # P0 rolls a 1 (1 point), P1 rolls five 6s (30); Hefty Hogs gives 0 both ways at 1 vs 30
    dice = make_test_dice(1, 6, 6, 6, 6, 6)
    assert play(open_then_hefty_hogs(1), open_then_hefty_hogs(5), rules="sp22", dice=dice) == (1, 30)
    assert calls == 1000


def test_default_dice_are_fair_and_in_range() -> None:
    for rules in RULE_SETS:
        score0, score1 = play(always_roll(4), always_roll(5), rules=rules)
        assert max(score0, score1) >= 100


def _strategy(choices: list[int]) -> Strategy:
    def strategy(score: int, opponent: int) -> int:
        return choices[(score * 7 + opponent * 13) % len(choices)]

    return strategy


@settings(max_examples=150, deadline=None)
@given(
    rules=st.sampled_from(sorted(RULE_SETS)),
    choices0=st.lists(st.integers(-1, 10), min_size=1, max_size=12),
    choices1=st.lists(st.integers(-1, 10), min_size=1, max_size=12),
    rolls=st.lists(st.integers(0, 1000), min_size=1, max_size=40),
    goal=st.integers(10, 120),
)
def test_play_matches_the_course_reference(
    rules: str, choices0: list[int], choices1: list[int], rolls: list[int], goal: int
) -> None:
    if not RULE_SETS[rules].pork_chop:
        choices0 = [max(c, 0) for c in choices0]
        choices1 = [max(c, 0) for c in choices1]
    s0, s1 = _strategy(choices0), _strategy(choices1)
    goal = min(goal, 100) if rules == "fa20" else goal  # the course's 101 digits of pi

    def dice_from(seq: list[int]) -> DiceFn:
        cycle = make_test_dice(*seq)
        return lambda sides: cycle() % sides + 1

    expected = PLAYS[rules](s0, s1, dice_from(rolls), goal)
    assert play(s0, s1, rules=rules, dice=dice_from(rolls), goal=goal) == expected
