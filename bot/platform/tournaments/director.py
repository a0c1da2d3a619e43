"""The director: what a tournament does besides being recorded. It pairs each round once the last is
done, has each new game created (by the front that shows it, or here), records each game's result
when the game finishes, and starts a tournament when its sign-up ends.

Every step is an append at the version read, so two processes never pair a round twice: the second
finds the round paired and does nothing. A game's result is recorded by the process that served the
move that ended it (the services' watchers) and, as a safety net, by the leading process following
the log (``follow``); after a restart the leader finishes what a crash left half done (``restore``):
games paired but never created, results never recorded, sign-ups that ended meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from functools import partial
from typing import Any

from bot.platform.contract import Refusal, Seating, optional
from bot.platform.projection import Settled
from bot.platform.ratings import shown
from bot.platform.registry import Games
from bot.platform.service import Services
from bot.platform.timers import Clock, sleep_or_wake
from bot.platform.tournaments import rules
from bot.platform.tournaments.book import PREFIX, Book, Decision
from bot.platform.tournaments.formats import tournament_of
from bot.platform.tournaments.state import Tournament
from storage.events import EventStore

log = logging.getLogger(__name__)


def _withdrawn(module: Seating, player: str, state: Any, chance: object) -> Sequence[Any]:
    return module.withdraw(state, player)


Opener = Callable[[Tournament, str, Any], Awaitable[None]]
"""Create a tournament's game (its id, its creating command) and show it: a front's."""
Listener = Callable[[Tournament], Awaitable[None]]


def seating(game: object) -> Seating | None:
    """The game as it is played in tournaments, ``None`` for a game that has none."""
    return optional(game, Seating)


class Director:
    def __init__(self, store: EventStore, games: Games, services: Services, settled: Settled, clock: Clock) -> None:
        self.games, self.services, self.settled_views, self.clock = games, services, settled, clock
        self.book = Book(store)
        self.opener: Opener = self._create
        """How a new round's games are created and shown (a front's, when one shows them)."""
        self.listeners: list[Listener] = []
        """Told of every tournament this process changed (a front edits its board)."""
        self._signups: dict[str, float] = {}
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    def shown_by(self, opener: Opener, listener: Listener) -> None:
        """A front that shows tournaments: it creates and shows each new round's games (``opener``)
        and is told of every tournament this process changed (``listener``)."""
        self.opener = opener
        self.listeners.append(listener)

    # --- acting ------------------------------------------------------------------------------------

    async def act(self, stream: str, decision: Decision, command_id: str | None = None) -> Tournament:
        """Do ``decision`` (a ``Refusal`` changes nothing); then whatever follows from it (a round paired)."""
        t, appended = await self.book.act(stream, decision, command_id)
        if appended:
            await self._changed(t)
        return await self.advance(stream)

    async def advance(self, stream: str) -> Tournament:
        """Pair the next round (and create its games), or finish, while the current one is done."""
        while True:
            t, appended = await self.book.act(stream, rules.advance)
            if not appended:
                return t
            if t.current is not None and t.finished is None:
                await self._open_round(t)
            await self._changed(t)

    async def _open_round(self, t: Tournament, only: Collection[str] | None = None) -> None:
        """Create the current round's games (``only`` these: the others exist already)."""
        assert t.created is not None and t.current is not None
        module = seating(self.games[t.created.game])
        assert module is not None
        for table, game_id in zip(t.current.tables, t.current.games, strict=True):
            if only is not None and game_id not in only:
                continue
            players = [(p, t.players[p]) for p in table]
            command = module.tournament_game(game_id, t.created.place, players, t.created.options)
            try:
                await self.opener(t, game_id, command)
            except Exception:  # one table that could not be opened stops no other; the leader retries
                log.exception("could not open game %s of tournament %s", game_id, t.stream_id)

    async def _create(self, t: Tournament, game_id: str, command: object) -> None:
        """Create the game, shown nowhere (no front shows tournaments in this process)."""
        assert t.created is not None
        with contextlib.suppress(Refusal):  # created already (a retry)
            await self.services[t.created.game].create(game_id, command, f"tournament:{game_id}")

    async def _changed(self, t: Tournament) -> None:
        if t.finished is None and not t.started and t.created is not None and t.created.signup_ends:
            self._signups[t.stream_id] = t.created.signup_ends
        else:
            self._signups.pop(t.stream_id, None)
        self._wake.set()
        for listener in self.listeners:
            try:
                await listener(t)
            except Exception:  # the tournament is stored: its board catches up at its next change
                log.exception("showing tournament %s failed", t.stream_id)

    async def ratings(self, game: str, players: Iterable[str]) -> dict[str, int]:
        """The players' ratings as the leaderboard shows them (a newcomer's 1000), for the seeding."""
        everyone = list(players)
        views = await self.settled_views()
        found = await views.ratings.of(game, everyone)
        return {p: shown(found.get(p)) for p in everyone}

    async def start(self, stream: str, by: str, manages: bool, command_id: str | None = None) -> Tournament:
        t = await self.book.load(stream)
        if t.created is None:
            raise Refusal("There is no such tournament here.")
        ratings = await self.ratings(t.created.game, t.players)
        return await self.act(stream, lambda t: rules.start(t, by, manages, ratings), command_id)

    async def drop(self, stream: str, player: str, by: str, manages: bool, command_id: str | None = None) -> Tournament:
        """Take ``player`` out (themselves, or dropped): a game of theirs under way is resigned for
        them first (its result recorded as any other's), then the board shows them out."""
        t, appended = await self.book.act(stream, lambda t: rules.leave(t, player, by, manages), command_id)
        if t.created is not None and t.current is not None:
            module = seating(self.games[t.created.game])
            service = self.services[t.created.game]
            for table, game_id in zip(t.current.tables, t.current.games, strict=True):
                if player in table and module is not None and game_id not in t.current.results:
                    state = await service.load(game_id)
                    if state.version and not state.is_over:
                        with contextlib.suppress(Refusal):
                            resign = partial(_withdrawn, module, player)
                            await service.execute(game_id, resign, f"drop:{game_id}:{player}")
        if appended:
            await self._changed(await self.book.load(stream))
        return await self.advance(stream)

    # --- results -----------------------------------------------------------------------------------

    def watch(self, game: str, state: Any) -> None:
        """A service stored a command: a finished tournament game's result is recorded, on the side."""
        if state.is_over and tournament_of(state.game_id) is not None:
            self._spawn(self.game_over(game, state.game_id))

    async def settled(self) -> None:
        """Once every result this process is recording is recorded (and what follows from it)."""
        while self._tasks:
            await asyncio.gather(*self._tasks)

    def _spawn(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("a tournament's step failed: the leading process tries it again")

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def game_over(self, game: str, game_id: str) -> None:
        """Record the result of ``game_id`` in its tournament, if it is over and one's."""
        tournament_id = tournament_of(game_id)
        stream = await self.book.find(tournament_id) if tournament_id else None
        if stream is None:
            return
        t = await self.book.load(stream)
        r = t.game_round(game_id)
        if r is None or game_id in r.results:
            return
        service = self.services[game]
        events = await service.events(game_id)
        if not events or not (await service.load(game_id)).is_over:
            return
        seats = {s.player_id: s.result for s in service.game.summary(events).seats}
        table = r.table_of(game_id)
        assert table is not None
        results = tuple(seats.get(p) or "void" for p in table)
        await self.act(stream, lambda t: rules.score(t, game_id, results), f"score:{game_id}")

    # --- the leader's ------------------------------------------------------------------------------

    async def follow(self, changed: Iterable[tuple[str, str]]) -> None:
        """The leader read these streams (game, stream id) changed by any process: finished
        tournament games are scored, and new tournaments' sign-ups timed."""
        for game, stream in changed:
            if stream.startswith(PREFIX):
                await self._changed(await self.book.load(stream))
            elif tournament_of(stream) is not None and game in self.services:
                await self.game_over(game, stream)

    async def restore(self) -> None:
        """On taking the lead: finish what a crash left half done in every live tournament."""
        self._signups.clear()
        for t in await self.book.live():
            try:
                await self._restore(t)
            except Exception:
                log.exception("could not bring tournament %s up to date", t.stream_id)

    async def _restore(self, t: Tournament) -> None:
        if not t.started:
            await self._changed(t)  # its sign-up timed
        if t.current is None or t.created is None:
            return
        service = self.services[t.created.game]
        unopened = [g for g in t.current.games if not await service.store.version(g)]
        if unopened:
            await self._open_round(t, only=unopened)  # a game created already keeps its board
        for game_id in t.current.games:
            await self.game_over(t.created.game, game_id)
        await self.advance(t.stream_id)

    async def lead(self) -> None:
        """The leader's work, until cancelled: bring every live tournament up to date, then start each
        when its sign-up ends."""
        await self.restore()
        await self.run()

    async def run(self) -> None:
        """Start each tournament when its sign-up ends (until cancelled)."""
        clock = self.clock
        while True:
            self._wake.clear()
            due = min(self._signups.items(), key=lambda item: item[1], default=None)
            if due is None:
                await self._wake.wait()
                continue
            stream, at = due
            if at > clock.now():
                await sleep_or_wake(clock, self._wake, at)
                continue
            self._signups.pop(stream, None)
            try:
                await self.start(stream, "clock", False, f"signup:{stream}")
            except Refusal:
                pass  # started or cancelled by hand meanwhile
            except Exception:
                log.exception("could not start tournament %s at the end of its sign-up", stream)
