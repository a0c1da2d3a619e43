"""Puzzles from the solved game: positions of real play where the best move beats every other by two
points of chance and the course's baseline plays another, each with its theme in the course's words."""

from __future__ import annotations

import random

import pytest

from bot.games.hog import puzzling
from bot.games.hog.puzzle_book import position
from hog_core.effects import Swap, ZeroDice
from hog_core.events import Player
from hog_core.game import PORK_CHOP, CreateGame, GameState, decide, evolve
from hog_core.kernel import Kernel
from hog_core.puzzles import (
    MARGIN,
    as_json,
    facts_of,
    mined,
    move_words,
    played,
    puzzle_at,
    puzzle_id,
    why,
    zero_dice,
)
from hog_core.review import Reviewer
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution
from hog_core.strategies import BASELINE

THEMES = {
    "Pork Chop",
    "Free Bacon",
    "Swine Swap",
    "an extra turn",
    "the goal in reach",
    "protecting a lead",
    "Pig Out's risk",
    "taking a risk",
}


def positions(
    rules: str, reviewer: Reviewer, games: int, seed: int = 7
) -> list[tuple[GameState, dict[int, float], str]]:
    """The positions of ``games`` games of two players who play the baseline or a random move, with
    every move's chance (the dice from a seeded source, outside the rules)."""
    rng = random.Random(seed)

    def choose(state: GameState) -> int:
        return BASELINE if rng.random() < 0.5 else rng.choice(state.legal_moves())

    def roll(count: int, sides: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, sides) for _ in range(count))

    return [
        (state, reviewer.move_values(state), f"p{n}")
        for n in range(games)
        for state in played(rules, 100, f"p{n}", choose, roll)
    ]


@pytest.mark.parametrize("rules", ["fa18", "sp21"])
def test_puzzles_are_clear_and_the_baseline_gets_them_wrong(
    rules: str, kernels: dict[str, Kernel], solutions: dict[str, Solution]
) -> None:
    reviewer = Reviewer(kernels[rules], solutions[rules])
    found = list(mined(positions(rules, reviewer, 30)))
    assert len(found) >= 20, len(found)
    for puzzle in found:
        best = puzzle.chances[puzzle.answer]
        assert all(best >= v + MARGIN for k, v in puzzle.chances.items() if k != puzzle.answer)
        assert puzzle.natural == BASELINE != puzzle.answer and puzzle.margin >= MARGIN
        if puzzle.answer == 0:  # the rule set's own zero-dice (or swap, extra turn) rule, by name
            names = {getattr(e, "rule", "") for e in zero_dice(rules, *puzzle.scores).effects}
            assert puzzle.theme in names, (puzzle.theme, names)
        else:
            assert puzzle.theme in THEMES, puzzle.theme
        assert puzzle.rules == rules and puzzle.source is not None and puzzle.source.startswith("p")
    keys = [(p.scores, p.turn_number, p.is_extra, p.chop) for p in found]
    assert len(keys) == len(set(keys))  # each position once
    assert len({p.theme for p in found}) >= 3  # not one lesson over and over


def test_a_zero_dice_answer_is_themed_by_what_rolling_zero_does(
    kernels: dict[str, Kernel], solutions: dict[str, Solution]
) -> None:
    reviewer = Reviewer(kernels["fa18"], solutions["fa18"])
    zeros = [p for p in mined(positions("fa18", reviewer, 60)) if p.answer == 0]
    assert zeros
    for puzzle in zeros:
        effects = zero_dice("fa18", *puzzle.scores).effects
        expected = "Swine Swap" if any(isinstance(e, Swap) for e in effects) else "Free Bacon"
        assert puzzle.theme == expected and any(isinstance(e, ZeroDice) for e in effects)


def test_a_position_the_baseline_plays_well_or_with_no_clear_best_is_no_puzzle(
    kernels: dict[str, Kernel], solutions: dict[str, Solution]
) -> None:
    state = GameState()
    for event in decide(state, CreateGame("g", (Player("a", "A"), Player("b", "B")))):
        state = evolve(state, event)
    close = {k: 0.5 + 0.001 * k for k in state.legal_moves()}  # every move within a point of the best
    assert puzzle_at(state, close) is None
    baseline_best = {k: (0.9 if k == BASELINE else 0.4) for k in state.legal_moves()}
    assert puzzle_at(state, baseline_best) is None
    clear = {k: (0.9 if k == 6 else 0.4) for k in state.legal_moves()}
    found = puzzle_at(state, clear, "g")
    assert found is not None and found.answer == 6 and found.theme == "taking a risk" and found.scores == (0, 0)


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_every_puzzle_agrees_with_the_exact_solver_in_every_rule_set(
    rules: str, kernels: dict[str, Kernel], solutions: dict[str, Solution]
) -> None:
    """The puzzles of games the course's strategies and the house play: each answer is the solver's
    own best move, each chance the solver's value of that move, no other move within the margin; each
    id names its position and nothing else."""
    reviewer, solution = Reviewer(kernels[rules], solutions[rules]), solutions[rules]
    found = list(mined(puzzling.positions(reviewer, solution, rules, 100, range(60))))
    assert len(found) >= 40, len(found)
    if RULE_SETS[rules].history is not None:  # Feral Hogs: the id says what each remembers (fa19-...-m3.5)
        assert any(p.memory != (0, 0) and "-m" in p.id and p.id == puzzle_id(p.facts) for p in found)
    for puzzle in found:
        state = position(puzzle.facts)
        assert facts_of(puzzle.id) == puzzle.facts and list(state.legal_moves()) == sorted(puzzle.chances)
        assert solution.best_move(state) == puzzle.answer
        assert reviewer.move_values(state) == pytest.approx(puzzle.chances, abs=1e-12)
        assert all(puzzle.chances[puzzle.answer] - v >= MARGIN for k, v in puzzle.chances.items() if k != puzzle.answer)
        json = as_json(puzzle)
        assert json["answer"] == ("chop" if puzzle.answer == PORK_CHOP else puzzle.answer) and json["id"] == puzzle.id
        assert (json["pork_chop_left"] is None) == (not RULE_SETS[rules].pork_chop)
        second = max((m for m in puzzle.chances if m != puzzle.answer), key=puzzle.chances.__getitem__)
        said = f"{puzzle.margin * 100:.1f} points more than the next best ({move_words(second)}, "
        assert why(puzzle).endswith(f"{said}{puzzle.chances[second]:.1%}).")


NO_POSITION = ["", "fa18-100-100-0-1-000", "nope-100-1-1-1-000", "fa18-100-1-1-1-011", "fa18-0-0-0-0-000"]
NO_POSITION += ["fa18-100-1-1-1-0000", "FA18-100-1-1-1-000", "fa18-100-1-1-1-000\n"]


@pytest.mark.parametrize("text", NO_POSITION)
def test_an_id_that_names_no_position_is_refused(text: str) -> None:
    assert facts_of(text) is None
