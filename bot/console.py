"""The console: any game at a terminal, on the same platform (store, service, commentary) as the bot.

The game module's console front says what to ask and what a line means; this loop reads lines,
stores the commands and prints the board. Every game is stored in ``HOG_DB`` like a Discord game,
and a game left with ``quit`` (or Ctrl-C, or the end of input) is offered again next time.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TextIO

from bot.platform import seasons
from bot.platform.chance import seal_words
from bot.platform.compose import Platform
from bot.platform.contract import GameRow, Outcome, Refusal, ReplaySteps, SeatSummary, optional
from bot.platform.ratings import standing_line, standings_lines
from bot.platform.registry import LEGACY, AnyGame
from storage.games import GameViews

DEFAULT_NAME = "Player"
PLACE = "console"
"""Where console games are played: their ``place``, as a Discord game's is its channel."""
PAGE = 10


def player_id(name: str) -> str:
    """A console player is their name: ``Ada``'s games are hers at any keyboard of this database."""
    return f"{PLACE}:{name}"


def shown(player_id: str) -> str:
    """A player as the terminal names them: ``console:Ada`` is Ada; anyone else (a Discord user) by id."""
    return player_id.removeprefix(f"{PLACE}:")


def seat_of(seats: Sequence[SeatSummary], name: str) -> SeatSummary | None:
    """The seat ``name`` holds in a game played here. At the terminal a person is their name, so
    this is also their seat in a game of the first version (whose players were ``console:1`` and
    ``console:2`` under the names they typed)."""
    return next((s for s in seats if s.bot is None and s.name == name), None)


def command_for(game: str) -> str:
    """The command that opens ``game``'s table here (Hog's is the bare ``python -m bot``)."""
    return "python -m bot" if game == LEGACY else f"python -m bot {game}"


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


NOTHING_STARTED = "Bye! Nothing was started."


def saved(game_id: str, again: str) -> str:
    return f"Bye! The game is saved as {game_id}: go on with {again} --resume {game_id}"


class Left(Exception):
    """The player left at a question (the end of input, Ctrl-D): nothing more is done."""


async def yes_or_no(keyboard: Keyboard, question: str, stdout: TextIO) -> bool:
    """A yes/no question, asked until it is answered: y, yes or Enter is yes, n or no is no; ``Left``
    at the end of input."""
    while True:
        answer = await keyboard.ask(f"{question} [Y/n] ", stdout)
        if answer is None:
            raise Left
        if answer.lower() in ("", "y", "yes"):
            return True
        if answer.lower() in ("n", "no"):
            return False
        print(f"Please answer y (or just Enter) or n, not {answer!r}.", file=stdout)


Conflicts = Callable[[GameRow], Sequence[str]]
"""The options given on the command line that an unfinished game does not have (``--goal 50``)."""


async def play(
    platform: Platform,
    game: AnyGame,
    name: str | None,
    stdin: TextIO,
    stdout: TextIO,
    new: tuple[str, Any] | None,
    resume: str | None = None,
    offer: bool = True,
    conflicts: Conflicts | None = None,
) -> Any:
    """One game of ``game`` at the terminal for ``name`` (and whoever shares the keyboard); returns
    the game as it stands when it ends or the player quits, ``None`` when they leave before one
    begins. ``resume`` goes on with that game (``name``'s seat in it; with no name given, the seat of
    the first person in it, since everyone in a game of this terminal plays at this keyboard);
    otherwise, when ``offer``, the player's newest unfinished game here is offered first (unless it
    ``conflicts`` with the options given), and ``new`` (its id and creating command) is started when
    there is none to go on with. ``name`` ``None`` is ``DEFAULT_NAME`` for a new game."""
    keyboard, service, again = Keyboard(stdin), platform.service(game), command_for(game.name)
    if resume is None and offer:
        try:
            resume = await _offer_unfinished(platform, game, name or DEFAULT_NAME, keyboard, stdout, conflicts)
        except (asyncio.CancelledError, Left) as leaving:  # Ctrl-C or Ctrl-D at the question
            print(f"\n{NOTHING_STARTED}", file=stdout, flush=True)
            if isinstance(leaving, Left):
                return None
            raise
    if resume is not None:
        outcome, me = await _resumed(platform, game, resume, name)
    elif new is not None:
        outcome, me = await service.create(*new, command_id()), player_id(name or DEFAULT_NAME)
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
    platform: Platform, game: AnyGame, name: str, keyboard: Keyboard, stdout: TextIO, conflicts: Conflicts | None
) -> str | None:
    """The game to go on with (its id), or ``None`` for a new one."""
    live = await (await platform.settled_views()).live_games(PLACE, game.name)
    mine = sorted(
        ((row, seat) for row in live if (seat := seat_of(row.seats, name)) is not None),
        key=lambda found: found[0].updated_at,
        reverse=True,
    )
    differ = [conflicts(row) if conflicts is not None else () for row, _ in mine]
    if not mine:
        return None
    row, seat = next((found for found, no in zip(mine, differ, strict=True) if not no), mine[0])
    what = f"{row.game_id} ({game.history_line(row, seat.player_id)})"
    if all(differ):
        print(
            f"A new game, as {' '.join(differ[0])} asks. Your unfinished game {what} waits for you: "
            f"{command_for(game.name)} --resume {row.game_id}",
            file=stdout,
        )
        return None
    return (
        row.game_id
        if await yes_or_no(keyboard, f"You have an unfinished game, {what}. Go on with it?", stdout)
        else None
    )


async def game_of(platform: Platform, game_id: str) -> tuple[str, str]:
    """The name and the title of the game that wrote ``game_id`` here; ``Refusal`` when there is none."""
    first = await platform.store.first_type(game_id)
    if first is None:
        raise Refusal(f"There is no game {game_id!r} in {platform.settings.where}.")
    owner = platform.games.owner(first)
    return owner, platform.games[owner].title if owner in platform.games else owner


async def _resumed(platform: Platform, game: AnyGame, game_id: str, name: str | None) -> tuple[Outcome[Any, Any], str]:
    """The game ``game_id`` to go on with, and the id of ``name``'s seat in it (with no name, its first
    person's); ``Refusal`` when it is not theirs to go on with here."""
    owner, title = await game_of(platform, game_id)
    if owner != game.name:
        raise Refusal(
            f"Game {game_id} is a game of {title}: go on with it with {command_for(owner)} --resume {game_id}"
        )
    outcome = await platform.service(game).current(game_id)
    state = outcome.state
    if state.place != PLACE:
        raise Refusal(f"Game {game_id} is played in Discord, not here.")
    if state.is_over:
        raise Refusal(f"Game {game_id} is over: watch it with python -m bot replay {game_id}")
    row = await (await platform.settled_views()).game(game_id)
    seats = row.seats if row is not None else ()
    people = [s for s in seats if s.bot is None]
    seat = seat_of(seats, name) if name is not None else next(iter(people), None)
    if seat is None:
        names = " and ".join(s.name for s in people)
        raise Refusal(
            f"Game {game_id} is not {name}'s: it is played by {names}. "
            f"Go on with it as {people[0].name if people else name}: {command_for(game.name)} --resume {game_id}"
        )
    return outcome, seat.player_id


async def _play(
    platform: Platform,
    game: AnyGame,
    outcome: Outcome[Any, Any],
    me: str,
    keyboard: Keyboard,
    stdout: TextIO,
    again: str,
) -> Any:
    state = outcome.state
    while not state.is_over and (player := game.console.to_move(state)) is not None:
        answer = await keyboard.ask(game.console.prompt(state), stdout)
        if answer is None or answer.lower() in ("q", "quit"):
            print(f"\n{saved(state.game_id, again)}", file=stdout)
            break
        if not answer:
            continue  # an Enter pressed by accident asks again
        if answer.strip().lower() == "forfeit" and not await _resigning(keyboard, stdout):
            continue
        done = await typed(platform, game, state, player, answer)
        if isinstance(done, str):
            print(done, file=stdout)
            continue
        outcome = done
        print(await game.console.board(outcome, me), file=stdout)
        state = outcome.state
        if state.is_over:
            await _tell_seal(platform, game, state, stdout)
            await _tell_review(platform, game, state, stdout)
    return state


async def _tell_review(platform: Platform, game: AnyGame, state: Any, stdout: TextIO) -> None:
    """A finished game's review, as its board and page show it (Hog: each player's accuracy)."""
    events = await platform.service(game).events(state.game_id)
    stepper = optional(game, ReplaySteps)
    steps = len(stepper.replay_steps(list(game.narrate(events)))) if stepper is not None else len(events)
    said = await game.remarks(events, steps)
    if said:
        print("── Review ──", *(f"  {line}" for line in said), sep="\n", file=stdout)


async def _resigning(keyboard: Keyboard, stdout: TextIO) -> bool:
    """Whether the player means to resign (a loss, on their record and rating): asked once more."""
    sure = await keyboard.ask("Resign this game? It counts as a loss. [y/N] ", stdout)
    if sure is not None and sure.strip().lower() in ("y", "yes"):
        return True
    print("Not resigned: play on.", file=stdout)
    return False


async def typed(
    platform: Platform, game: AnyGame, state: Any, player: str, line: str, version: int | None = None
) -> Outcome[Any, Any] | str:
    """What ``player`` typing ``line`` does to the game as it stands (``state``), on the board of
    ``version`` (by default the state's): the game after the command it asks for, or words to show
    instead (help, a hint, or why it is refused, a board out of date included: nothing is stored
    then). The same for the terminal and the browser."""
    try:
        reply = await game.console.answer(state, player, line)
        if isinstance(reply, str):
            return reply
        board = state.version if version is None else version
        return await platform.service(game).execute(state.game_id, reply, command_id(), board)
    except game.refusal as error:
        return str(getattr(error, "message", error))
    except Refusal as error:
        return error.message


async def _tell_seal(platform: Platform, game: AnyGame, state: Any, stdout: TextIO) -> None:
    """The game's seal while it is played; its seed, and how to check it, once it is over."""
    seed = await platform.service(game).seed(state.game_id)
    if seed is None or game.draws is None:
        return
    check = f"check every one of the {game.draws}: python -m bot verify {state.game_id}"
    print(seal_words(game.draws, seed, state.is_over, check), file=stdout)


def sections_text(title: str, sections: list[tuple[str, list[str]]]) -> str:
    """Headed lists of lines (a player's stats) as terminal text under a title."""
    lines = [f"── {title} ──"]
    for heading, items in sections:
        lines += [f"  {heading}", *(f"    {item}" for item in items)]
    return "\n".join(lines)


async def name_of(views: GameViews, player_id: str) -> str:
    """A player's name as their latest game has it; as the terminal names them when they have played none."""
    latest = await views.history(player_id, limit=1)
    seats = latest[0].seats if latest else ()
    return next((s.name for s in seats if s.player_id == player_id), shown(player_id))


async def list_history(
    platform: Platform, stdout: TextIO, page: int = 1, name: str | None = None, player: str | None = None
) -> None:
    """Games, newest first, ``PAGE`` a page: those played here by ``name``, or by the Discord user
    ``player``, or (neither) every game in the database, since one person sits at a terminal."""
    if page < 1:
        raise Refusal(f"Pages start at 1, not {page}.")
    views = await platform.settled_views()
    place = PLACE if name is not None else None
    rows = await views.history(player, limit=PAGE + 1, offset=(page - 1) * PAGE, place=place, seat_name=name)
    if not rows:
        print(await _no_games(platform, page, name or player), file=stdout)
        return
    width = max(len(row.game_id) for row in rows[:PAGE])
    for row in rows[:PAGE]:
        when = datetime.fromtimestamp(row.updated_at).strftime("%Y-%m-%d %H:%M")
        me = player if name is None else getattr(seat_of(row.seats, name), "player_id", None)
        line = platform.games[row.game].history_line(row, me) if row.game in platform.games else row.status
        print(f"{row.game_id:<{width}}  {when}  {line}", file=stdout)
    more = f" · older: --page {page + 1}" if len(rows) > PAGE else ""
    print(f"Page {page}{more} · watch one: python -m bot replay <id>", file=stdout)


async def _no_games(platform: Platform, page: int, whose: str | None) -> str:
    """Why a page of history is empty, naming the database read (it depends on the folder run in)."""
    if page > 1:
        return f"No page {page}: no more games."
    stored = await platform.views.count()
    where = platform.settings.where
    if not stored:
        return f"No games yet in {where} (HOG_DB names another file). Play one: python -m bot"
    everyone = f"{stored} game{'s' * (stored != 1)} there: python -m bot history lists them all"
    return f"No games of {whose} in {where} ({everyone})."


async def list_leaderboard(
    platform: Platform,
    game: str,
    player: str,
    stdout: TextIO,
    page: int = 1,
    server: str | None = None,
    season: int | None = None,
) -> None:
    """The players of ``game`` by rating (of one Discord server, when given; in its ``season``, when
    given: 0 the season now), ``PAGE`` a page, and ``player``'s own place."""
    if page < 1:
        raise Refusal(f"Pages start at 1, not {page}.")
    if season is not None:
        await list_season(platform, game, player, stdout, page, server, season)
        return
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


async def list_season(
    platform: Platform, game: str, player: str, stdout: TextIO, page: int, server: str | None, number: int
) -> None:
    """A season's leaderboard of ``game`` in ``server`` (seasons belong to a Discord server)."""
    if server is None:
        raise Refusal("Seasons belong to a Discord server: say which with --server ID.")
    found = await platform.seasons.of_server(server)
    wanted = seasons.numbered(found, number)
    if wanted is None:
        raise Refusal(f"Server {server} has no season {number}: it has {len(found)} so far.")
    ranked = await platform.seasons.standings(server, game, wanted)
    offset = (page - 1) * PAGE
    print(
        f"{platform.games[game].title} leaderboard, server {server}, {wanted.title}: {len(ranked)} rated", file=stdout
    )
    for r in ranked[offset : offset + PAGE]:
        print(standing_line(r).replace("**", ""), file=stdout)
    mine = next((r for r in ranked if r.rating.player_id == player), None)
    print(f"You: #{mine.rank} of {len(ranked)}" if mine else "You: not on this board", file=stdout)
