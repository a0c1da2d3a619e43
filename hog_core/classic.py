"""The CS 61A front door: ``play(strategy0, strategy1)`` the way the course wrote it.

It drives the same ``decide``/``evolve`` as the bot: strategies choose, ``dice(sides)`` rolls exactly
``k`` dice per turn, and a course-style ``say(score0, score1) -> next_say`` hears every turn.
This is the one module of ``hog_core`` that may roll fair dice itself (only when the caller passes
none) and print (the course's commentary functions print; ``hog_core.commentary`` returns lines).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, Protocol

from hog_core import commentary
from hog_core.commentary import Commentary
from hog_core.events import Player
from hog_core.game import CreateGame, GameState, Status, TakeTurn, decide, evolve, replay
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution, solve
from hog_core.strategies import Strategy as Strategy  # the course's names, re-exported
from hog_core.strategies import always_roll as always_roll
from hog_core.strategies import bacon_strategy as bacon_strategy  # the course's strategies, re-exported
from hog_core.strategies import swap_strategy as swap_strategy
from hog_core.turn import Turn

DiceFn = Callable[[int], int]
"""``dice(sides) -> outcome``, called once per die."""


class Say(Protocol):
    def __call__(self, score0: int, score1: int) -> Say: ...


CLASSIC_PLAYERS = (Player("0", "Player 0"), Player("1", "Player 1"))


def make_test_dice(*outcomes: int) -> Callable[..., int]:
    """Dice that cycle through ``outcomes`` whatever their sides: ``make_test_dice(4, 1, 2)``."""
    assert outcomes, "test dice need at least one outcome"
    index = 0

    def dice(sides: int = 6) -> int:
        nonlocal index
        outcome = outcomes[index % len(outcomes)]
        index += 1
        return outcome

    return dice


def fair_dice() -> DiceFn:
    """Fair dice for experiments, as the course's ``six_sided`` (the bot rolls with ``secrets``)."""
    import random

    rng = random.Random()
    return lambda sides: rng.randint(1, sides)


def new_game(rules: str = "fa18", goal: int = 100) -> GameState:
    """A fresh classic game between "Player 0" and "Player 1", Player 0 first."""
    return replay(decide(GameState(), CreateGame("classic", CLASSIC_PLAYERS, rules=rules, goal=goal)))


def play(
    strategy0: Strategy,
    strategy1: Strategy,
    *,
    rules: str = "fa18",
    dice: DiceFn | None = None,
    goal: int = 100,
    say: Say | None = None,
) -> tuple[int, int]:
    """Play a whole game and return ``(score0, score1)``.

    Games that hit the turn limit (two players looping on 0-point moves in sp22) stop there.
    Raises ``HogError`` when a strategy returns a move the rules do not allow.
    """
    roll = fair_dice() if dice is None else dice
    strategies = (strategy0, strategy1)
    state = new_game(rules, goal)
    while state.status is Status.ACTIVE:
        m = state.mover
        k = strategies[m](state.scores[m], state.scores[1 - m])
        need = state.dice_for(k)
        outcomes = tuple(roll(need.sides) for _ in range(need.count))
        for event in decide(state, TakeTurn(CLASSIC_PLAYERS[m].id, k, outcomes)):
            state = evolve(state, event)
        if say is not None:
            say = say(*state.scores)
    return state.scores


# --- the course's commentary functions, printing as the course's did ------------------------------


def course(say: Commentary, scores: tuple[int, int] = (0, 0), out: Callable[[str], object] = print) -> Say:
    """The course's ``say(score0, score1) -> next_say`` form of a pure commentary; it prints."""

    def course_say(score0: int, score1: int) -> Say:
        before = GameState(players=CLASSIC_PLAYERS, scores=scores)
        after = GameState(players=CLASSIC_PLAYERS, scores=(score0, score1))
        lines, next_say = say(before, after)
        for line in lines:
            out(line)
        return course(next_say, (score0, score1), out)

    return course_say


def say_scores(score0: int, score1: int) -> Say:
    """``Player 0 now has 10 and Player 1 now has 0``"""
    return course(commentary.say_scores)(score0, score1)


def announce_lead_changes(last_leader: int | None = None) -> Say:
    return course(commentary.announce_lead_changes(last_leader))


def announce_highest(who: int, last_score: int = 0, running_high: int = 0) -> Say:
    return course(commentary.announce_highest(who, last_score, running_high))


def both(f: Say, g: Say) -> Say:
    """Say what ``f`` says, then what ``g`` says (the course's definition)."""

    def say(score0: int, score1: int) -> Say:
        return both(f(score0, score1), g(score0, score1))

    return say


# --- the perfect house and the course's Phase 3 experiments ----------------------------------------


@cache
def _solution(rules: str, goal: int) -> Solution:
    return solve(RULE_SETS[rules], goal)


def house_strategy(rules: str = "fa18", goal: int = 100) -> Strategy:
    """The perfect house as a course strategy, for the rule sets whose perfect move depends only on
    the two totals (most semesters). Raises ``ValueError`` where it needs more: Pork Chop, Time Trot's
    turn number (the contests), Feral Hogs' memory (fa19, sp20, su20)."""
    return _solution(rules, goal).strategy()


def make_averaged(original_function: Callable[..., float], num_samples: int = 1000) -> Callable[..., float]:
    """A function that returns the average of ``num_samples`` calls of ``original_function``."""

    def averaged(*args: Any) -> float:
        return sum(original_function(*args) for _ in range(num_samples)) / num_samples

    return averaged


def roll_dice(num_rolls: int, dice: DiceFn | None = None, rules: str = "fa18", sides: int = 6) -> int:
    """The points of one roll of ``num_rolls`` dice under ``rules`` (Pig Out, Sow Sad, primes...)."""
    roll = fair_dice() if dice is None else dice
    outcomes = tuple(roll(sides) for _ in range(num_rolls))
    return RULE_SETS[rules].resolve(Turn(cur=0, opp=0, k=num_rolls, outcomes=outcomes)).points


def max_scoring_num_rolls(dice: DiceFn | None = None, num_samples: int = 1000, rules: str = "fa18") -> int:
    """The number of dice (1 to 10) with the highest average score; the lowest wins a tie."""
    averaged = make_averaged(roll_dice, num_samples)
    return max(range(1, 11), key=lambda k: (averaged(k, dice, rules), -k))


def winner(strategy0: Strategy, strategy1: Strategy, rules: str = "fa18") -> int:
    """0 if ``strategy0`` wins a game against ``strategy1`` with fair dice, else 1."""
    score0, score1 = play(strategy0, strategy1, rules=rules)
    return 0 if score0 > score1 else 1


def average_win_rate(
    strategy: Strategy, baseline: Strategy | None = None, rules: str = "fa18", num_samples: int = 1000
) -> float:
    """``strategy``'s sampled win rate against ``baseline`` (default ``always_roll(4)``), both seats."""
    base = always_roll(4) if baseline is None else baseline
    first = 1 - make_averaged(winner, num_samples)(strategy, base, rules)
    second = make_averaged(winner, num_samples)(base, strategy, rules)
    return (first + second) / 2
