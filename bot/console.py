"""A terminal game of Hog against a simple house: the project's main job until the Discord bot lands."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TextIO

from bot.dice import roll
from hog_core.commentary import Commentary, default_commentary
from hog_core.errors import HogError
from hog_core.events import Player
from hog_core.game import CreateGame, GameState, TakeTurn, decide, evolve, replay
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS

HOUSE = Player("house", "The house", house="simple")
HOUSE_DICE = 4

Roller = Callable[[GameState, int], tuple[int, ...]]


def board(state: GameState, lines: Sequence[str] = ()) -> str:
    """The turn's commentary, then the totals."""
    (you, house), name = state.scores, state.players[0].name
    return "\n".join([*(f"  {line}" for line in lines), f"{name} {you} - {house} the house  (goal {state.goal})"])


def play(
    stdin: TextIO,
    stdout: TextIO,
    *,
    rules: str = DEFAULT_RULES,
    goal: int = 100,
    name: str = "Player",
    dice: Roller | None = None,
) -> GameState:
    """Play one game on ``stdin``/``stdout``; returns the final state."""
    roller = dice or (lambda state, k: roll(state.dice_for(k)))
    you = Player("console", name)
    state = replay(decide(GameState(), CreateGame("console", (you, HOUSE), rules=rules, goal=goal)))
    say = default_commentary()
    print(f"Hog, {state.rules.name}. First to {goal} wins. You move first.", file=stdout)
    while not state.is_over:
        if state.mover == 1:
            state, say = _move(state, HOUSE, HOUSE_DICE, roller, say, stdout)
            continue
        moves = state.legal_moves()
        print(f"How many dice? ({moves[0]}..{moves[-1]}, q to quit) ", end="", file=stdout, flush=True)
        answer = stdin.readline()
        if not answer or answer.strip().lower() in {"q", "quit"}:
            print("\nBye!", file=stdout)
            return state
        try:
            state, say = _move(state, you, int(answer), roller, say, stdout)
        except ValueError:
            print(f"{answer.strip()!r} is not a number of dice.", file=stdout)
        except HogError as error:
            print(error.message, file=stdout)
    print("You win!" if state.winner == 0 else "The house wins.", file=stdout)
    return state


def _move(
    state: GameState, player: Player, k: int, roller: Roller, say: Commentary, stdout: TextIO
) -> tuple[GameState, Commentary]:
    state.dice_for(k)  # refuses an illegal k before any die is rolled
    for event in decide(state, TakeTurn(player.id, k, roller(state, k))):
        before, state = state, evolve(state, event)
        lines, say = say(before, state)
        print(board(state, lines), file=stdout)
    return state, say


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", choices=sorted(RULE_SETS), default=DEFAULT_RULES)
    parser.add_argument("--goal", type=int, default=100)
    parser.add_argument("--name", default="Player", help="your name in the commentary")


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """Play one game with the parsed ``args``; a bad option is a ``ValueError`` with its reason."""
    try:
        play(stdin, stdout, rules=args.rules, goal=args.goal, name=args.name)
    except HogError as error:
        raise ValueError(error.message) from error
    return 0
