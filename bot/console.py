"""The console table: Hog in a terminal, on the same service, store, board and commentary as the bot.

Play the house (``--house easy|medium|perfect``) or a friend at the same keyboard (``--vs NAME``).
Every game is stored in ``HOG_DB`` like a Discord game, and any stored game (Discord's too) can be
replayed, listed and counted here as with ``/hog replay``, ``/hog history`` and ``/hog stats``.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TextIO

from bot.board import board, hint, text
from bot.dice import roll
from bot.history import PAGE, game_line
from bot.picture import animate, chart_of, render
from bot.projection import Projector
from bot.replays import chances_around
from bot.service import GameService, Outcome, Roller
from bot.settings import Settings
from bot.stats import stats_text
from hog_core.commentary import narrate
from hog_core.errors import HogError
from hog_core.events import Player
from hog_core.game import PORK_CHOP, CreateGame, GameState
from hog_core.rulesets import DEFAULT_RULES, RULE_SETS
from hog_core.strategies import DIFFICULTIES
from storage.events import SqliteEventStore
from storage.games import GameViews
from storage.solutions import SolutionCache

YOU = "console:1"
"""The player at this keyboard (the second player of ``--vs`` is ``console:2``)."""
HELP = (
    "Type a number of dice, 'chop' for Pork Chop, 'hint' for the best move, 'forfeit' to resign, "
    "or 'quit' to leave the game for later."
)


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
    async with opened(settings, dice) as (service, _):
        rival = Player("console:2", vs) if vs else Player(f"house:{house}", "The house", house=house)
        game_id = f"c{secrets.token_hex(4)}"
        create = CreateGame(game_id, (Player(YOU, name), rival), rules=rules, goal=goal, place="console")
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
            if answer == "hint":
                print(hint(state, await service.solution(state)), file=stdout)
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


@asynccontextmanager
async def opened(settings: Settings, dice: Roller = roll) -> AsyncIterator[tuple[GameService, GameViews]]:
    """The service and read models over ``HOG_DB``, the read models caught up with the log (the
    bot may have played games since), closed after the read models have caught up again."""
    store = await SqliteEventStore.open(settings.db)
    views = await GameViews.open(settings.db)
    projector = Projector(store, views)
    try:
        await projector.catch_up()
        yield GameService(store, SolutionCache(settings.cache), projector, dice), views
    finally:
        await projector.settle()
        await views.close()
        await store.close()


async def replay_game(
    settings: Settings,
    game_id: str,
    stdout: TextIO,
    step: int | None = None,
    picture: Path | None = None,
    gif: Path | None = None,
) -> None:
    """Every step of a stored game (or step ``step``, counted from 1) as the table showed it, with the
    win chances before and after; ``picture`` saves the picture of the game there, ``gif`` its animation."""
    async with opened(settings) as (service, _):
        events = await service.events(game_id)
        if not events:
            raise HogError(f"There is no game {game_id!r} in {settings.db}.")
        steps = list(narrate(events))
        if step is not None and not 1 <= step <= len(steps):
            raise HogError(f"Game {game_id} has steps 1 to {len(steps)}, not {step}.")
        solution = await service.solution(steps[-1][1])
        for i in range(len(steps)) if step is None else [step - 1]:
            before, after = chances_around(steps, i, solution)
            was = f"    win chance before {before[0]:.0%} · {before[1]:.0%}" if before and i else ""
            print(f"Step {i + 1} of {len(steps)}{was}", file=stdout)
            print(text(board(steps[i][1], steps[i][2], after)), file=stdout)
        c = chart_of(events, solution)
        at = steps[step - 1][1].turn_number if step is not None else None
        for path, what, draw in ((picture, "picture", partial(render, at=at)), (gif, "animation", animate)):
            if path is None:
                continue
            if c is None:
                print(f"No {what}: nobody has moved yet.", file=stdout)
                continue
            path.write_bytes(await asyncio.to_thread(draw, c))
            print(f"The {what} of the game is in {path}.", file=stdout)


async def list_history(settings: Settings, player: str, stdout: TextIO, page: int = 1) -> None:
    """A player's games, newest first, ``PAGE`` a page."""
    if page < 1:
        raise HogError(f"Pages start at 1, not {page}.")
    async with opened(settings) as (_, views):
        rows = await views.history(player, limit=PAGE + 1, offset=(page - 1) * PAGE)
    if not rows:
        print(f"No games of {player} here." if page == 1 else f"No page {page}: no more games.", file=stdout)
        return
    for row in rows[:PAGE]:
        when = datetime.fromtimestamp(row.updated_at).strftime("%Y-%m-%d %H:%M")
        print(f"{row.game_id}  {when}  {game_line(row, player)}", file=stdout)
    more = f" · older: --page {page + 1}" if len(rows) > PAGE else ""
    print(f"Page {page}{more} · watch one: python -m bot replay <id>", file=stdout)


async def show_stats(settings: Settings, player: str, stdout: TextIO) -> None:
    async with opened(settings) as (_, views):
        stats = await views.stats(player)
        latest = await views.history(player, limit=1)
    name = next((s.name for s in latest[0].seats if s.player_id == player), player) if latest else player
    print(stats_text(stats, name), file=stdout)


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
