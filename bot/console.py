"""The console table: Hog in a terminal, on the same service, store, board and commentary as the bot.

Play the house (``--house easy|medium|perfect``) or a friend at the same keyboard (``--vs NAME``).
Every game is stored in ``HOG_DB`` like a Discord game, and any stored game (Discord's too) can be
replayed, listed and counted here as with ``/hog replay``, ``/hog history`` and ``/hog stats``.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import threading
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
from bot.projection import Projector, settle_and_close
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

DEFAULT_NAME = "Player"
PLACE = "console"
"""Where console games are played: their ``place``, as a Discord game's is its channel."""


def player_id(name: str) -> str:
    """A console player is their name: ``Ada``'s games are hers at any keyboard of this database."""
    return f"console:{name}"


YOU = player_id(DEFAULT_NAME)
"""The player at this keyboard when no ``--name`` is given."""
HELP = (
    "Type a number of dice, 'chop' for Pork Chop, 'hint' for the best move, 'forfeit' to resign, "
    "or 'quit' to leave the game for later."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", choices=sorted(RULE_SETS), default=DEFAULT_RULES)
    parser.add_argument("--goal", type=int, default=100)
    parser.add_argument("--name", default=DEFAULT_NAME, help="your name: your games are kept under it")
    rival = parser.add_mutually_exclusive_group()
    rival.add_argument("--house", choices=DIFFICULTIES, default="perfect", help="the house's level (default perfect)")
    rival.add_argument("--vs", metavar="NAME", help="play a friend at this keyboard instead of the house")
    parser.add_argument("--resume", metavar="GAME", help="go on with an unfinished game (see: history)")
    parser.add_argument("--new", action="store_true", help="start a new game without offering to resume one")


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """Play one game with the parsed ``args``; a bad option is a ``ValueError`` with its reason.
    Ctrl-C leaves the game saved, as ``quit`` does (exit status 130)."""
    if args.vs is not None and args.vs == args.name:
        raise ValueError(f"Two players need two names: --name and --vs are both {args.name!r}.")
    try:
        asyncio.run(
            table(
                stdin,
                stdout,
                Settings.from_env(),
                args.rules,
                args.goal,
                args.name,
                args.house,
                args.vs,
                resume=args.resume,
                offer=not args.new,
            )
        )
    except HogError as error:
        raise ValueError(error.message) from error
    except KeyboardInterrupt:
        return 130
    return 0


class Keyboard:
    """The keyboard, read on a daemon thread: waiting for a line never keeps the program from
    ending (Ctrl-C quits at once, where a worker thread blocked in ``readline`` would hold it)."""

    def __init__(self, stdin: TextIO) -> None:
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def read() -> None:
            while True:
                line = stdin.readline()
                loop.call_soon_threadsafe(self._queue.put_nowait, line)
                if not line:
                    return

        threading.Thread(target=read, name="console-keyboard", daemon=True).start()

    async def ask(self, prompt: str, stdout: TextIO) -> str | None:
        """The next answer, stripped; ``None`` at the end of input."""
        print(prompt, end="", file=stdout, flush=True)
        line = await self._queue.get()
        if not line:
            self._queue.put_nowait(line)  # the end stays the end
            return None
        return line.strip()


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
    resume: str | None = None,
    offer: bool = True,
) -> GameState:
    """One game at the terminal; returns the game as it stands when it ends or the player quits.
    ``resume`` goes on with that game; otherwise, when ``offer``, the player's newest unfinished
    game here is offered first."""
    async with opened(settings, dice) as (service, views):
        keyboard = Keyboard(stdin)
        me = player_id(name)
        if resume is None and offer:
            resume = await _offer_unfinished(views, me, keyboard, stdout)
        if resume is not None:
            outcome = await _resumed(service, resume, name)
        else:
            rival = Player(player_id(vs), vs) if vs else Player(f"house:{house}", "The house", house=house)
            create = CreateGame(
                f"c{secrets.token_hex(4)}", (Player(me, name), rival), rules=rules, goal=goal, place=PLACE
            )
            outcome = await service.create(create, command_id=_command_id())
        await show(service, outcome, stdout)
        try:
            return await _play(service, outcome.state, keyboard, stdout)
        except asyncio.CancelledError:  # Ctrl-C: the game is in the log already
            print(f"\n{_saved(outcome.state.game_id)}", file=stdout, flush=True)
            raise


def _saved(game_id: str) -> str:
    return f"Bye! The game is saved as {game_id}: go on with python -m bot --resume {game_id}"


async def _offer_unfinished(views: GameViews, me: str, keyboard: Keyboard, stdout: TextIO) -> str | None:
    mine = [row for row in await views.live_games(PLACE) if me in {s.player_id for s in row.seats}]
    if not mine:
        return None
    row = max(mine, key=lambda r: r.updated_at)
    totals = " · ".join(f"{s.name} {score}" for s, score in zip(row.seats, row.scores, strict=True))
    answer = await keyboard.ask(f"You have an unfinished game, {row.game_id} ({totals}). Go on with it? [Y/n] ", stdout)
    return row.game_id if answer is not None and answer.lower() in ("", "y", "yes") else None


async def _resumed(service: GameService, game_id: str, name: str) -> Outcome:
    outcome = await service.current(game_id)
    state = outcome.state
    if state.version == 0:
        raise HogError(f"There is no game {game_id!r} here.")
    if state.place != PLACE:
        raise HogError(f"Game {game_id} is played in Discord, not here.")
    if state.is_over:
        raise HogError(f"Game {game_id} is over: watch it with python -m bot replay {game_id}")
    if state.seat_of(player_id(name)) is None:
        names = " and ".join(p.name for p in state.players if p.house is None)
        raise HogError(f"Game {game_id} is not {name}'s: it is played by {names} (use --name).")
    return outcome


async def _play(service: GameService, state: GameState, keyboard: Keyboard, stdout: TextIO) -> GameState:
    game_id = state.game_id
    while not state.is_over:
        player = state.players[state.mover]
        moves = state.legal_moves()
        chop = ", 'chop'" if PORK_CHOP in moves else ""
        answer = await keyboard.ask(f"{player.name}, how many dice? (0 to {moves[-1]}{chop}; 'help') ", stdout)
        if answer is None or answer.lower() in ("q", "quit"):
            print(f"\n{_saved(game_id)}", file=stdout)
            break
        answer = answer.lower()
        if not answer:
            continue  # an Enter pressed by accident asks again
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
        await settle_and_close(projector, views, store)


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
