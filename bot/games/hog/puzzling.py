"""``python -m bot puzzle``: Hog puzzles at the terminal, mined from games the course's baseline plays
against a random mover (``hog_core.puzzles``), one after another: the position, your move, then
every move's exact chance and what decides it. A streak of right answers is kept while you play.
``python -m bot train``: the positions of your own finished games where a move cost you five points
of chance or more, each served until you find the best move."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TextIO

from bot.platform.compose import Platform
from bot.platform.exercises import Marked
from bot.platform.exercises import shown as shown_rating
from hog_core.game import PORK_CHOP, GameState, replay
from hog_core.puzzles import Puzzle, memory_words, mined, mistake, move_words, played, why
from hog_core.review import Reviewer
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution
from hog_core.strategies import BASELINE, bacon_strategy, house_move, swap_strategy

if TYPE_CHECKING:
    from bot.games.hog.module import HogGame

GAMES = 400
"""Games played to find puzzles in, in each rule set: about ten thousand positions, a few hundred puzzles."""

Mover = Callable[[GameState, random.Random], int]


def lineup(rules: str, solution: Solution) -> list[Mover]:
    """Who plays the games puzzles are mined from: the course's strategies (always roll 2, 4 or 6; the
    bacon and swap strategies), the house at its three levels, and a player who moves at random."""

    def fixed(k: int) -> Mover:
        return lambda state, rng: k

    def course(strategy: Callable[..., int]) -> Mover:
        return lambda state, rng: strategy(state.scores[state.mover], state.scores[1 - state.mover], rules=rules)

    def house(level: str) -> Mover:
        return lambda state, rng: house_move(level, state, solution)

    return [
        fixed(BASELINE), fixed(2), fixed(6), course(bacon_strategy), course(swap_strategy),
        house("medium"), house("perfect"), lambda state, rng: rng.choice(state.legal_moves()),
    ]  # fmt: skip


def positions(
    reviewer: Reviewer, solution: Solution, rules: str, goal: int, games: range
) -> Iterator[tuple[GameState, dict[int, float], str | None]]:
    """The positions of ``games`` (numbered: the same games every time) between two of ``lineup``,
    every move's chance beside each; a game's positions judged in one pass."""
    movers = lineup(rules, solution)
    for n in games:
        rng = random.Random(f"{rules}:{goal}:{n}")  # a string seeds the same on every machine
        first, second = rng.choice(movers), rng.choice(movers)

        def choose(state: GameState) -> int:
            k = (first if state.mover == 0 else second)(state, rng)  # noqa: B023
            return k if k in state.legal_moves() else BASELINE

        def roll(count: int, sides: int) -> tuple[int, ...]:
            return tuple(rng.randint(1, sides) for _ in range(count))  # noqa: B023

        states = list(played(rules, goal, f"practice{n}", choose, roll))
        yield from ((state, values, None) for state, values in zip(states, reviewer.values_of(states), strict=True))


async def mined_by(
    reviewer: Reviewer, solution: Solution, rules: str, goal: int, games: range = range(GAMES)
) -> list[Puzzle]:
    """The puzzles of ``games`` (``positions``), judged off the event loop: the same every time."""
    return await asyncio.to_thread(lambda: list(mined(positions(reviewer, solution, rules, goal, games))))


def of_theme(found: list[Puzzle], theme: str | None) -> list[Puzzle]:
    """The puzzles whose theme holds ``theme`` (any case), all when it is ``None``."""
    wanted = "" if theme is None else theme.lower()
    return [p for p in found if wanted in p.theme.lower()]


def shown(puzzle: Puzzle) -> str:
    """The position as a player sees it."""
    mine, theirs = puzzle.scores
    extra = " · an extra turn" if puzzle.is_extra else ""
    chop = " · you may still Pork Chop" if puzzle.chop[0] else ""
    chop += memory_words(puzzle)
    return (
        f"{RULE_SETS[puzzle.rules].name}, first to {puzzle.goal} · turn {puzzle.turn_number + 1}{extra}{chop}\n"
        f"  You: {mine}    Opponent: {theirs}"
    )


def answered(puzzle: Puzzle, k: int) -> tuple[bool, str]:
    """Whether ``k`` is the answer, and every move's chance with what decides the position."""
    best = puzzle.chances[puzzle.answer]
    if k == puzzle.answer:
        said = f"Right: {move_words(k)} wins {best:.1%} of the time against perfect play."
    else:
        lost = (best - puzzle.chances[k]) * 100
        said = (
            f"Not quite: {move_words(puzzle.answer)} wins {best:.1%}; {move_words(k)} wins "
            f"{puzzle.chances[k]:.1%} ({lost:.1f} points of chance less)."
        )
    ranked = sorted(puzzle.chances.items(), key=lambda item: -item[1])
    table = "  ".join(f"{'chop' if m == PORK_CHOP else m}: {v:.1%}" for m, v in ranked)
    return k == puzzle.answer, f"{said}\n  What decides it: {puzzle.theme}. {why(puzzle)}\n  Every move: {table}"


def question(puzzle: Puzzle) -> str:
    """The terminal's prompt for ``puzzle``: its rule set's dice, Pork Chop where the mover still has it."""
    chop = "; 'chop'" if puzzle.chop[0] else ""
    return f"How many dice? (0 to {RULE_SETS[puzzle.rules].max_dice}{chop}; 'quit') "


def read_move(line: str, puzzle: Puzzle) -> int | None:
    word = line.strip().lower()
    k = PORK_CHOP if word == "chop" else int(word) if word.isdigit() and len(word) <= 2 else None
    return k if k in puzzle.chances else None


def train(
    found: list[Puzzle],
    ask: Callable[[str], str | None],
    out: TextIO,
    rate: Callable[[Puzzle, int], Marked | None] = lambda puzzle, k: None,
) -> int:
    """The puzzles in turn until they run out or the player types ``quit`` (or input ends); how many
    were solved. ``rate`` keeps each answer (rated when it is the player's first to that puzzle) and
    says the rating and the streak kept with it; without it a streak is counted while they play."""
    solved = streak = 0
    for n, puzzle in enumerate(found, 1):
        print(f"\nPuzzle {n} of {len(found)}\n{shown(puzzle)}", file=out)
        while True:
            line = ask(question(puzzle))
            if line is None or line.strip().lower() == "quit":
                print(f"Solved {solved} of {n - 1}.", file=out)
                return solved
            k = read_move(line, puzzle)
            if k is not None:
                break
            print(f"{line.strip()[:20]!r} is not a move here: {', '.join(map(str, sorted(puzzle.chances)))}.", file=out)
        right, words = answered(puzzle, k)
        solved, streak = solved + right, streak + 1 if right else 0
        marked = rate(puzzle, k)
        rated = rating_words(marked, puzzle.rules).replace("\n", "\n  ")
        print(words + (rated or (f"\n  Streak: {streak}" if streak > 1 else "")), file=out)
    print(f"Solved {solved} of {len(found)}.", file=out)
    return solved


def rating_words(marked: Marked | None, rules: str) -> str:
    """The solver's rating and streak after a rated answer (empty when it was not rated)."""
    if marked is None or not marked.first or marked.solver[1] is None:
        return ""
    after, change = marked.solver[1], marked.change()
    puzzle = marked.exercise[1]
    solved = f" · this puzzle: {shown_rating(puzzle)}, solved {puzzle.solved} of {puzzle.tries}" if puzzle else ""
    streak = f" · streak {marked.streak}" if marked.streak > 1 else ""
    return f"\nYour {rules} puzzle rating: {shown_rating(after)} ({change:+d}){streak}{solved}"


TRAINING_PAGE = 20
"""Positions the trainer poses at a time (each from one game of the player's, loaded then)."""


async def your_mistakes(
    p: Platform, hog: HogGame, player_id: str, offset: int = 0, most: int = TRAINING_PAGE
) -> list[Puzzle]:
    """The positions of ``player_id``'s decided Hog games where a move of theirs cost them at least
    five points of chance, oldest game first, ``most`` from ``offset``: read from the read models'
    ``mistakes`` (found once, when each game was decided), each posed from its one game."""
    found: list[Puzzle] = []
    for game_id, version in await (await p.settled_views()).mistakes(player_id, hog.name, offset, most):
        events = await p.service(hog.name).events(game_id)
        reviewer = await hog.reviewer(replay(events))
        if reviewer is not None and (puzzle := mistake(events, version, reviewer.move_values, game_id)) is not None:
            found.append(puzzle)
    return found


async def one_of_your_mistakes(p: Platform, hog: HogGame, player_id: str, pick: random.Random) -> Puzzle | None:
    """One of ``your_mistakes``, drawn by ``pick`` (``None``: there is none)."""
    count = await (await p.settled_views()).mistakes_count(player_id, hog.name)
    found = await your_mistakes(p, hog, player_id, pick.randrange(count), 1) if count else []
    return found[0] if found else None


def retrain(found: Iterable[Puzzle], total: int, ask: Callable[[str], str | None], out: TextIO) -> int:
    """Each of ``total`` positions until its best move is found (``quit`` or the end of input stops);
    how many were found."""
    n = 0
    for n, puzzle in enumerate(found, 1):
        played_there = move_words(puzzle.natural)
        print(f"\nFrom your game {puzzle.source} ({n} of {total}): you played {played_there}", file=out)
        print(shown(puzzle), file=out)
        while True:
            line = ask(question(puzzle))
            if line is None or line.strip().lower() == "quit":
                print(f"Found the best move in {n - 1} of {total}.", file=out)
                return n - 1
            k = read_move(line, puzzle)
            if k is None:
                print(f"{line.strip()[:20]!r} is not a move here.", file=out)
            elif k != puzzle.answer:  # the answer is not given away: that is the lesson
                print(f"Not the best: {move_words(k)} wins {puzzle.chances[k]:.1%}. Try again.", file=out)
            else:
                print(answered(puzzle, k)[1], file=out)
                break
    print(f"Found the best move in all {n}.", file=out)
    return n
