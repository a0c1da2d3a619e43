"""The exact review: every move's values checked against a brute-force evaluation written from
RULES.md alone (Fall 2018 to a small goal), against the solver, and perfect play reviewed at 100%."""

from __future__ import annotations

import random
from functools import cache
from itertools import product

import msgspec
import pytest

from hog_core.events import Event, Player, TurnTaken
from hog_core.game import CreateGame, GameState, TakeTurn, decide, evolve
from hog_core.kernel import Kernel
from hog_core.review import BLUNDER, INACCURACY, MISTAKE, MoveReview, Reviewer, accuracy
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution, sweep

GOAL = 15


@cache
def rolls(k: int) -> dict[int, float]:
    """Fall 2018's points for ``k`` six-sided dice, and their chances (Pig Out: any 1 scores 1)."""
    sums = {0: 1.0}  # the sums of dice that show no 1, each with its chance
    for _ in range(k):
        rolled: dict[int, float] = {}
        for total, chance in sums.items():
            for face in range(2, 7):
                rolled[total + face] = rolled.get(total + face, 0.0) + chance / 6
        sums = rolled
    return {1: 1.0 - (5 / 6) ** k} | sums


def swaps(a: int, b: int) -> bool:
    return abs(a // 10 % 10 - a % 10) == abs(b // 10 % 10 - b % 10)


@cache
def value(cur: int, opp: int) -> float:
    """The mover's chance to win from ``cur`` to ``opp`` (both under ``GOAL``) under perfect play."""
    return max(q(cur, opp, k) for k in range(11))


def q(cur: int, opp: int, k: int) -> float:
    """The mover's chance with ``k`` dice: Free Bacon at 0, Pig Out, then Swine Swap; the first to end a
    turn at the goal wins (RULES.md, section 1)."""
    gains = {max(2 * (opp // 10 % 10) - opp % 10, 1): 1.0} if k == 0 else rolls(k)
    chance = 0.0
    for gain, p in gains.items():
        mine, theirs = cur + gain, opp
        if swaps(mine, theirs):
            mine, theirs = theirs, mine
        if mine >= GOAL:
            chance += p
        elif theirs < GOAL:
            chance += p * (1.0 - value(theirs, mine))
    return chance


@pytest.fixture(scope="module")
def fa18() -> Reviewer:
    kernel = Kernel(RULE_SETS["fa18"], GOAL)
    solved = sweep(kernel)
    return Reviewer(kernel, Solution("fa18", 1, GOAL, kernel.dims, solved.value_a, solved.moves_a))


def at(cur: int, opp: int) -> GameState:
    state = GameState()
    for event in decide(state, CreateGame("g", (Player("a", "A"), Player("b", "B")), goal=GOAL)):
        state = evolve(state, event)
    return msgspec.structs.replace(state, scores=(cur, opp))


def test_every_moves_value_is_the_brute_forces(fa18: Reviewer) -> None:
    for cur, opp in product(range(GOAL), repeat=2):
        values = fa18.move_values(at(cur, opp))
        assert set(values) == set(range(11))
        for k, chance in values.items():
            assert chance == pytest.approx(q(cur, opp, k), abs=1e-9), (cur, opp, k)


def play(solution: Solution, rules: str, choose: object, seed: int = 1) -> list[Event]:
    state, log = GameState(), list[Event]()
    for event in decide(state, CreateGame("g", (Player("a", "A"), Player("b", "B")), rules=rules)):
        state, log = evolve(state, event), [*log, event]
    rng = random.Random(seed)
    while not state.is_over:
        k = choose(state)  # type: ignore[operator]
        dice = state.dice_for(k)
        turn = TakeTurn(state.players[state.mover].id, k, tuple(rng.randint(1, dice.sides) for _ in range(dice.count)))
        for event in decide(state, turn):
            state, log = evolve(state, event), [*log, event]
    return log


@pytest.mark.parametrize("rules", list(RULE_SETS))
def test_perfect_play_reviews_at_100_percent_and_agrees_with_the_solver(
    rules: str, kernels: dict[str, Kernel], solutions: dict[str, Solution]
) -> None:
    reviewer = Reviewer(kernels[rules], solutions[rules])
    log = play(solutions[rules], rules, solutions[rules].best_move)
    moves = reviewer.review(log)
    assert moves and all(m.dice in m.best and m.verdict == "best" for m in moves)
    assert [accuracy(m for m in moves if m.mover == seat) for seat in (0, 1)] == pytest.approx([100.0, 100.0])
    state = GameState()
    reviewed = iter(moves)
    for event in log:
        if isinstance(event, TurnTaken):
            move = next(reviewed)
            assert move.chance_best == pytest.approx(solutions[rules].win_chances(state)[state.mover], abs=1e-12)
        state = evolve(state, event)


def test_a_poor_move_is_classified_by_the_chance_it_gave_away(
    kernels: dict[str, Kernel], solutions: dict[str, Solution]
) -> None:
    reviewer = Reviewer(kernels["fa18"], solutions["fa18"])
    log = play(solutions["fa18"], "fa18", lambda state: 10, seed=3)  # always ten dice
    moves = reviewer.review(log)
    for move in moves:
        expected = (
            "best" if move.dice in move.best else
            "blunder" if move.loss >= BLUNDER else
            "mistake" if move.loss >= MISTAKE else
            "inaccuracy" if move.loss >= INACCURACY else "good"
        )  # fmt: skip
        assert move.verdict == expected
        assert 0 <= move.chance_played <= move.chance_best + 1e-12
    assert accuracy(m for m in moves if m.mover == 0) < 100.0


def test_accuracy_is_the_share_of_the_best_chances_kept() -> None:
    moves = [MoveReview(0, 0, (0, 0), 3, (4,), 0.6, 0.5, 0.7), MoveReview(2, 0, (9, 9), 4, (4,), 0.4, 0.4, 0.2)]
    assert accuracy(moves) == pytest.approx(100 * 0.9 / 1.0)
    assert moves[0].loss == pytest.approx(0.1) and moves[0].luck == pytest.approx(0.2)
    assert accuracy([]) == 100.0
