"""A terminal game of Hog against a simple house: the project's main job until the Discord bot lands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from bot.dice import roll
from hog_core.errors import HogError
from hog_core.events import Player
from hog_core.game import CreateGame, GameState, TakeTurn, decide, evolve, replay
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS

YOU = Player("you", "You")
HOUSE = Player("house", "The house", house="simple")
HOUSE_DICE = 4

Roller = Callable[[GameState, int], tuple[int, ...]]


def board(state: GameState) -> str:
    you, house = state.scores
    line = f"You {you} - {house} the house  (goal {state.goal}, {state.rules.id})"
    last = state.last_turn
    if last is not None:
        who = state.players[last.seat].name
        dice = " ".join(map(str, last.outcomes)) or "no dice"
        line = f"{who} chose {last.k}: {dice} (d{last.sides}).\n{line}"
    return line


def play(
    stdin: TextIO,
    stdout: TextIO,
    *,
    rules: str = DEFAULT_RULES,
    goal: int = 100,
    dice: Roller | None = None,
) -> GameState:
    """Play one game on ``stdin``/``stdout``; returns the final state."""
    roller = dice or (lambda state, k: roll(state.dice_for(k)))
    state = replay(decide(GameState(), CreateGame("console", (YOU, HOUSE), rules=rules, goal=goal)))
    print(f"Hog, {state.rules.name}. First to {goal} wins. You move first.", file=stdout)
    while not state.is_over:
        if state.mover == 1:
            state = _move(state, HOUSE, HOUSE_DICE, roller)
            print(board(state), file=stdout)
            continue
        moves = state.legal_moves()
        print(f"How many dice? ({moves[0]}..{moves[-1]}, q to quit) ", end="", file=stdout, flush=True)
        answer = stdin.readline()
        if not answer or answer.strip().lower() in {"q", "quit"}:
            print("\nBye!", file=stdout)
            return state
        try:
            state = _move(state, YOU, int(answer), roller)
        except ValueError:
            print(f"{answer.strip()!r} is not a number of dice.", file=stdout)
            continue
        except HogError as error:
            print(error.message, file=stdout)
            continue
        print(board(state), file=stdout)
    print("You win!" if state.winner == 0 else "The house wins.", file=stdout)
    return state


def _move(state: GameState, player: Player, k: int, roller: Roller) -> GameState:
    state.dice_for(k)  # refuses an illegal k before any die is rolled
    for event in decide(state, TakeTurn(player.id, k, roller(state, k))):
        state = evolve(state, event)
    return state


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hogbot", description="Play Hog against the house in a terminal.")
    parser.add_argument("--rules", choices=sorted(RULE_SETS), default=DEFAULT_RULES)
    parser.add_argument("--goal", type=int, default=100)
    args = parser.parse_args(argv)
    play(stdin or sys.stdin, stdout or sys.stdout, rules=args.rules, goal=args.goal)
    return 0
