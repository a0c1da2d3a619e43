"""The console table: Hog in a terminal, on the same service, store, board and commentary as the bot.

Play the house (``--house easy|medium|perfect``) or a friend at the same keyboard (``--vs NAME``).
Every game is stored in ``HOG_DB`` like a Discord game.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
from typing import TextIO

from bot.board import board, text
from bot.dice import roll
from bot.projection import Projector
from bot.service import GameService, Outcome, Roller
from bot.settings import Settings
from hog_core.errors import HogError
from hog_core.events import Player
from hog_core.game import PORK_CHOP, CreateGame, GameState
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS
from hog_core.strategies import DIFFICULTIES
from storage.events import SqliteEventStore
from storage.games import GameViews
from storage.solutions import SolutionCache

HELP = "Type a number of dice, 'chop' for Pork Chop, 'forfeit' to resign, or 'quit' to leave the game for later."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", choices=sorted(RULE_SETS), default=DEFAULT_RULES)
    parser.add_argument("--goal", type=int, default=100)
    parser.add_argument("--name", default="Player", help="your name in the commentary")
    rival = parser.add_mutually_exclusive_group()
    rival.add_argument("--house", choices=DIFFICULTIES, default="perfect", help="the house's level (default perfect)")
    rival.add_argument("--vs", metavar="NAME", help="play a friend at this keyboard instead of the house")


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """Play one game with the parsed ``args``; a bad option is a ``ValueError`` with its reason."""
    try:
        asyncio.run(table(stdin, stdout, Settings.from_env(), args.rules, args.goal, args.name, args.house, args.vs))
    except HogError as error:
        raise ValueError(error.message) from error
    return 0


async def table(
    stdin: TextIO,
    stdout: TextIO,
    settings: Settings,
    rules: str = DEFAULT_RULES,
    goal: int = 100,
    name: str = "Player",
    house: str = "perfect",
    vs: str | None = None,
    dice: Roller = roll,
) -> GameState:
    """One game at the terminal; returns the game as it stands when it ends or the player quits."""
    store = await SqliteEventStore.open(settings.db)
    views = await GameViews.open(settings.db)
    projector = Projector(store, views)
    service = GameService(store, SolutionCache(settings.cache), projector, dice)
    try:
        rival = Player("console:2", vs) if vs else Player(f"house:{house}", "The house", house=house)
        game_id = f"c{secrets.token_hex(4)}"
        create = CreateGame(game_id, (Player("console:1", name), rival), rules=rules, goal=goal, place="console")
        outcome = await service.create(create, command_id=_command_id())
        await show(service, outcome, stdout)
        state = outcome.state
        while not state.is_over:
            player = state.players[state.mover]
            moves = state.legal_moves()
            chop = ", 'chop'" if PORK_CHOP in moves else ""
            print(f"{player.name}, how many dice? (0 to {moves[-1]}{chop}; 'help') ", end="", file=stdout, flush=True)
            answer = (await asyncio.to_thread(stdin.readline)).strip().lower()
            if answer in ("", "q", "quit"):
                print(f"\nBye! The game is saved as {game_id}.", file=stdout)
                break
            if answer in ("h", "help", "?"):
                print(HELP, file=stdout)
                continue
            try:
                if answer == "forfeit":
                    outcome = await service.forfeit(game_id, player.id, _command_id())
                else:
                    k = PORK_CHOP if answer == "chop" else _dice(answer)
                    outcome = await service.move(game_id, player.id, k, _command_id(), state.version)
            except HogError as error:
                print(error.message, file=stdout)
                continue
            await show(service, outcome, stdout)
            state = outcome.state
        return state
    finally:
        await projector.settle()
        await views.close()
        await store.close()


async def show(service: GameService, outcome: Outcome, stdout: TextIO) -> None:
    """The board after a command, with every line its events brought (the house's turns too)."""
    state = outcome.state
    story = tuple(line for _, _, lines in outcome.told for line in lines)
    solution = await service.solution(state)
    chances = None if solution is None else solution.win_chances(state)
    print(text(board(state, story, chances)), file=stdout)


def _dice(answer: str) -> int:
    try:
        return int(answer)
    except ValueError:
        raise HogError(f"{answer!r} is not a number of dice. {HELP}") from None


def _command_id() -> str:
    """The console's stand-in for a Discord interaction id."""
    return f"console:{secrets.token_hex(8)}"
