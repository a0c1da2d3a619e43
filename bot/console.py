"""The console: any game at a terminal, on the same platform (store, service, commentary) as the bot.

The game module's console front says what to ask and what a line means; this loop reads lines,
stores the commands and prints the board. Every game is stored in ``HOG_DB`` like a Discord game,
and a game left with ``quit`` (or Ctrl-C, or the end of input) is offered again next time.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from datetime import datetime
from typing import Any, TextIO

from bot.platform.chance import commitment
from bot.platform.compose import Platform
from bot.platform.contract import Refusal
from bot.platform.ratings import standings_lines
from bot.platform.registry import AnyGame
from bot.platform.service import Outcome

DEFAULT_NAME = "Player"
PLACE = "console"
"""Where console games are played: their ``place``, as a Discord game's is its channel."""
PAGE = 10


def player_id(name: str) -> str:
    """A console player is their name: ``Ada``'s games are hers at any keyboard of this database."""
    return f"console:{name}"


def command_id() -> str:
    """The console's stand-in for a Discord interaction id."""
    return f"console:{secrets.token_hex(8)}"


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


def saved(game_id: str, again: str) -> str:
    return f"Bye! The game is saved as {game_id}: go on with {again} --resume {game_id}"


async def play(
    platform: Platform,
    game: AnyGame,
    name: str,
    stdin: TextIO,
    stdout: TextIO,
    new: tuple[str, Any] | None,
    resume: str | None = None,
    offer: bool = True,
    again: str = "python -m bot",
) -> Any:
    """One game of ``game`` at the terminal for ``name`` (and whoever shares the keyboard); returns
    the game as it stands when it ends or the player quits. ``resume`` goes on with that game;
    otherwise, when ``offer``, the player's newest unfinished game here is offered first, and
    ``new`` (its id and creating command) is started when there is none to go on with. ``again`` is
    the command that plays this game, for the words that say how to go on with it later."""
    keyboard, me, service = Keyboard(stdin), player_id(name), platform.service(game)
    if resume is None and offer:
        resume = await _offer_unfinished(platform, game, me, keyboard, stdout)
    if resume is not None:
        outcome = await _resumed(platform, game, resume, name)
    elif new is not None:
        outcome = await service.create(*new, command_id())
    else:
        raise Refusal(f"You have no unfinished {game.title} game here.")
    print(await game.console.board(outcome, me), file=stdout)
    await _tell_seal(platform, game, outcome.state, stdout)
    try:
        return await _play(platform, game, outcome, me, keyboard, stdout, again)
    except asyncio.CancelledError:  # Ctrl-C: the game is in the log already
        print(f"\n{saved(outcome.state.game_id, again)}", file=stdout, flush=True)
        raise


async def _offer_unfinished(
    platform: Platform, game: AnyGame, me: str, keyboard: Keyboard, stdout: TextIO
) -> str | None:
    live = await platform.views.live_games(PLACE, game.name)
    mine = [row for row in live if me in {s.player_id for s in row.seats}]
    if not mine:
        return None
    row = max(mine, key=lambda r: r.updated_at)
    totals = " · ".join(f"{s.name} {s.score}" for s in row.seats)
    answer = await keyboard.ask(f"You have an unfinished game, {row.game_id} ({totals}). Go on with it? [Y/n] ", stdout)
    return row.game_id if answer is not None and answer.lower() in ("", "y", "yes") else None


async def _resumed(platform: Platform, game: AnyGame, game_id: str, name: str) -> Outcome[Any, Any]:
    outcome = await platform.service(game).current(game_id)
    state = outcome.state
    if state.version == 0:
        raise Refusal(f"There is no game {game_id!r} here.")
    if state.place != PLACE:
        raise Refusal(f"Game {game_id} is played in Discord, not here.")
    if state.is_over:
        raise Refusal(f"Game {game_id} is over: watch it with python -m bot replay {game_id}")
    row = await (await platform.settled_views()).game(game_id)
    seats = row.seats if row is not None else ()
    if player_id(name) not in {s.player_id for s in seats}:
        names = " and ".join(s.name for s in seats if s.bot is None)
        raise Refusal(f"Game {game_id} is not {name}'s: it is played by {names} (use --name).")
    return outcome


async def _play(
    platform: Platform,
    game: AnyGame,
    outcome: Outcome[Any, Any],
    me: str,
    keyboard: Keyboard,
    stdout: TextIO,
    again: str,
) -> Any:
    state, service = outcome.state, platform.service(game)
    while not state.is_over and (player := game.console.to_move(state)) is not None:
        answer = await keyboard.ask(game.console.prompt(state), stdout)
        if answer is None or answer.lower() in ("q", "quit"):
            print(f"\n{saved(state.game_id, again)}", file=stdout)
            break
        if not answer:
            continue  # an Enter pressed by accident asks again
        try:
            reply = await game.console.answer(state, player, answer)
            if isinstance(reply, str):
                print(reply, file=stdout)
                continue
            outcome = await service.execute(state.game_id, reply, command_id(), state.version)
        except game.refusal as error:
            print(getattr(error, "message", error), file=stdout)
            continue
        except Refusal as error:
            print(error.message, file=stdout)
            continue
        print(await game.console.board(outcome, me), file=stdout)
        state = outcome.state
        if state.is_over:
            await _tell_seal(platform, game, state, stdout)
    return state


async def _tell_seal(platform: Platform, game: AnyGame, state: Any, stdout: TextIO) -> None:
    """The game's seal while it is played; its seed, and how to check it, once it is over."""
    seed = await platform.service(game).seed(state.game_id)
    if seed is None or game.draws is None:
        return
    if state.is_over:
        check = f"python -m bot verify {state.game_id}"
        print(f"🔓 The seed was {seed.hex()}: check every one of the {game.draws} with {check}", file=stdout)
    else:
        print(f"🔒 {game.draws.capitalize()} sealed: {commitment(seed)} (revealed when the game ends)", file=stdout)


def sections_text(title: str, sections: list[tuple[str, list[str]]]) -> str:
    """Headed lists of lines (a player's stats) as terminal text under a title."""
    lines = [f"── {title} ──"]
    for heading, items in sections:
        lines += [f"  {heading}", *(f"    {item}" for item in items)]
    return "\n".join(lines)


async def name_of(platform: Platform, player_id: str) -> str:
    """A player's name as their latest game has it; their id when they have played none."""
    latest = await (await platform.settled_views()).history(player_id, limit=1)
    seats = latest[0].seats if latest else ()
    return next((s.name for s in seats if s.player_id == player_id), player_id)


async def list_history(platform: Platform, player: str, stdout: TextIO, page: int = 1) -> None:
    """A player's games, newest first, ``PAGE`` a page."""
    if page < 1:
        raise Refusal(f"Pages start at 1, not {page}.")
    rows = await platform.views.history(player, limit=PAGE + 1, offset=(page - 1) * PAGE)
    if not rows:
        print(f"No games of {player} here." if page == 1 else f"No page {page}: no more games.", file=stdout)
        return
    for row in rows[:PAGE]:
        when = datetime.fromtimestamp(row.updated_at).strftime("%Y-%m-%d %H:%M")
        line = platform.games[row.game].history_line(row, player) if row.game in platform.games else row.status
        print(f"{row.game_id}  {when}  {line}", file=stdout)
    more = f" · older: --page {page + 1}" if len(rows) > PAGE else ""
    print(f"Page {page}{more} · watch one: python -m bot replay <id>", file=stdout)


async def list_leaderboard(
    platform: Platform, game: str, player: str, stdout: TextIO, page: int = 1, server: str | None = None
) -> None:
    """The players of ``game`` by rating (of one Discord server, when given), ``PAGE`` a page, and
    ``player``'s own place."""
    if page < 1:
        raise Refusal(f"Pages start at 1, not {page}.")
    offset = (page - 1) * PAGE
    views = await platform.settled_views()
    standings = await views.ratings.standings(game, player, server, limit=PAGE, offset=offset)
    lines, you = standings_lines(standings)
    where = f"server {server}" if server else "everyone"
    print(f"{platform.games[game].title} leaderboard, {where}: {standings.total} rated", file=stdout)
    if not lines:
        print("Nobody is rated yet." if page == 1 else f"No page {page}: no more players.", file=stdout)
    for line in lines:
        print(line.replace("**", ""), file=stdout)
    more = f" · lower: --page {page + 1}" if offset + PAGE < standings.total else ""
    print(f"You: {you}{more}", file=stdout)
