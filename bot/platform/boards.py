"""The boards: where each game's one public board is placed, which version of the game it shows, and
keeping it true to the log. Front-agnostic: a front (Discord, and next the web) only draws a game's
public view and posts it; which version to show, when to show it again, and what to do with a board
whose game was never stored are decided here.

- **A version has one board.** An edit never puts an older version back up (``newest``), edits of one
  game take turns (``rendering``), one that waited its turn shows the game as it is by then (the
  versions between are never sent), and each shown version is recorded (``shown``) for a restart.
- **Several processes.** A board edit may land after a newer one made by another process: after each
  edit the log's version is read again, and the board is edited again while another process has moved
  the game past it (``keep_up``).
- **After a crash** between storing a move and showing it, the leading process brings every board up
  to its log (``reconcile``): a game stored but never shown is posted where its board was to be; a
  board placed for a game never stored says so; a board that can never be shown has its game called
  off, so that no timer scores a game nobody saw.
- **Subscribers** hear each new version of a game (``subscribe``): from this process's own commands at
  once, and, with several processes on PostgreSQL, from the log when the event store's NOTIFY says
  another process appended (``follow``). A subscriber that falls behind hears only the newest version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.platform.contract import Outcome, Refusal
from bot.platform.locks import KeyedLocks
from bot.platform.projection import Settled
from bot.platform.registry import Games
from bot.platform.service import Services
from storage.events import EventStore
from storage.games import GameViews
from storage.kept import Kept

log = logging.getLogger(__name__)

REMEMBERED = 10_000
"""Games a process remembers the last stored and shown versions of (forgotten all at once past this)."""

Edit = Callable[[Outcome[Any, Any], tuple[str, str]], Awaitable[bool]]
"""A front's edit of a placed board (its channel and message) to show an outcome; ``False`` when it
cannot be (deleted, out of reach)."""


@dataclass(frozen=True, slots=True)
class View:
    """A game as anyone may see it, at a version."""

    game: str
    game_id: str
    version: int
    public: object


@dataclass(frozen=True, slots=True)
class Change:
    """A game's new version, as a subscriber hears it."""

    game: str
    game_id: str
    version: int


class Boards:
    def __init__(
        self,
        store: EventStore,
        games: Games,
        services: Services,
        kept: Kept,
        views: GameViews,
        settled: Settled,
        *,
        shared: bool,
    ) -> None:
        self.store, self.games, self.services, self.kept = store, games, services, kept
        self.views, self.settled = views, settled
        self.shared = shared
        """Other processes may serve the same games (one PostgreSQL database for several)."""
        self._made: dict[str, int] = {}
        """The last version of each game this process stored (its own answer shows it)."""
        self._shown: dict[str, int] = {}
        """The version each board was last edited to by this process (its edits take turns)."""
        self._placed: dict[str, tuple[str, str]] = {}
        """Where each board is, once read (one process alone: no other places a board meanwhile)."""
        self._unwritten: dict[str, int] = {}
        """Shown versions not yet written (one process alone: written together, a moment later)."""
        self._writing: asyncio.Task[None] | None = None
        self._locks = KeyedLocks()
        self._subscribers: dict[str, set[asyncio.Queue[Change]]] = {}
        self._seen: int | None = None
        """The log position this process has told its subscribers of (``follow``)."""

    # --- where boards are -------------------------------------------------------------------------

    async def place(
        self, game_id: str, channel: str, message: str, shown_version: int = 0, answered: bool = False
    ) -> None:
        """Record where ``game_id``'s board is (before its game is stored: a crash between the two is
        repaired by ``reconcile``), and whether it lives in interactions alone (``answered``: a front
        may not post in its channel)."""
        await self.kept.place_board(game_id, channel, message, shown_version, answered)
        self._remember(game_id, (channel, message))

    async def forget(self, game_id: str) -> None:
        self._placed.pop(game_id, None)
        await self.kept.forget_board(game_id)

    async def where(self, game_id: str) -> tuple[str, str] | None:
        """The channel and message of ``game_id``'s board, if one was placed."""
        found = self._placed.get(game_id)
        if found is None:
            found = await self.kept.board_message(game_id)
            if found is not None:
                self._remember(game_id, found)
        return found

    def _remember(self, game_id: str, placed: tuple[str, str]) -> None:
        if self.shared:
            return  # another process may place it again (a round's game opened after a crash)
        if len(self._placed) > REMEMBERED:
            self._placed.clear()
        self._placed[game_id] = placed

    async def view(self, game_id: str) -> View | None:
        """The public view of ``game_id`` as it stands (``None``: no such game): what any front draws
        a board from, never a card in anyone's hand (``Presentation.public``)."""
        game = await self.games.of_stored(self.store, game_id)
        if game is None:
            return None
        state = (await self.services[game.name].current(game_id)).state
        return View(game.name, game_id, state.version, game.public(state))

    # --- which version it shows -------------------------------------------------------------------

    def rendering(self, game_id: str) -> asyncio.Lock:
        """One board edit of a game at a time, so that an older board never lands over a newer one
        (a restart's reconcile racing the first clicks after it)."""
        return self._locks(game_id)

    async def shown_version(self, game_id: str) -> int | None:
        """The version ``game_id``'s board shows (``None``: no board was placed)."""
        shown = self._shown.get(game_id)
        return shown if shown is not None else await self.kept.shown_version(game_id)

    async def newest(self, outcome: Outcome[Any, Any]) -> Outcome[Any, Any]:
        """What to show for ``outcome``: itself, or the game as it stands when its board already shows
        a later version (a board never goes back), or when this process has stored a later one since:
        an edit that waited its turn (a busy game: players and bots moving while a board's edit is on
        its way to Discord) shows the game as it is now, once, and the edits of the versions between
        find it shown and send nothing, rather than each version going up in turn."""
        game_id = outcome.state.game_id
        shown = await self.shown_version(game_id)
        if max(shown or 0, self._made.get(game_id, 0)) > outcome.state.version:
            return await self.services[outcome.game].current(game_id)
        return outcome

    async def behind(self, game: str, game_id: str) -> bool:
        """Whether the game's board shows an older version than its log (its last edit was lost)."""
        shown = await self.shown_version(game_id)
        return shown is not None and shown < (await self.services[game].load(game_id)).version

    async def shown(self, game_id: str, version: int) -> None:
        """The board of ``game_id`` shows ``version``: here, and in the read models for a restart,
        written a moment later with the others shown meanwhile (one write for many moves, off the
        click's path): a crash before the write leaves the board recorded behind, and the restart's
        ``reconcile`` edits it to its game's last version again, which it shows already. Another
        process that reads the older record meanwhile may edit an older version over it; its own
        ``keep_up`` then finds the log past what it showed and edits the board again."""
        if len(self._shown) > REMEMBERED:
            self._shown.clear()
        self._shown[game_id] = max(version, self._shown.get(game_id, 0))
        self._unwritten[game_id] = max(version, self._unwritten.get(game_id, 0))
        if self._writing is None or self._writing.done():
            self._writing = asyncio.create_task(self._write())

    async def _write(self) -> None:
        await asyncio.sleep(0)  # the moves answered meanwhile are written with this one
        while self._unwritten:
            batch, self._unwritten = self._unwritten, {}
            try:
                await self.kept.boards_shown(batch)
            except Exception:  # the read models' database out of reach: reconcile redraws the boards
                log.exception("could not record which version %d boards show", len(batch))

    async def flush(self) -> None:
        """Every shown version written (before the database is closed)."""
        while self._writing is not None and not self._writing.done():
            await self._writing

    async def show(self, outcome: Outcome[Any, Any], edit: Edit, again: bool = False) -> bool:
        """Show the game as it stands on its placed board (a timer fired, a restart, a command with no
        click): ``outcome`` is the newest the caller knows, a newer one is shown if there is. ``False``
        when there is no board, or the front cannot edit it. ``again``: even if the board is recorded
        as showing this version already."""
        game_id = outcome.state.game_id
        async with self.rendering(game_id):
            placed = await self.where(game_id)
            if placed is None:
                return False
            outcome = await self.newest(outcome)
            shown = await self.shown_version(game_id)
            if shown is not None and shown >= outcome.state.version and not again:
                return True  # it shows this version already: a version has one board
            if not await edit(outcome, placed):
                return False
            await self.shown(game_id, outcome.state.version)
            return True

    async def keep_up(self, game: str, game_id: str, shown: int, edit: Edit) -> None:
        """With other processes serving the same game, a board edit may land after a newer one: after
        each edit, the log's version is read again, and while another process has moved the game past
        what was shown, the board is edited again, so the last edit to land shows the last version.
        (A version this process stored is shown by its own answer: in-process edits take turns.)"""
        while self.shared:
            version = await self.store.version(game_id)
            if version <= max(shown, self._made.get(game_id, 0)):
                return
            latest = await self.services[game].current(game_id)
            if not await self.show(latest, edit, again=True):
                return
            shown = latest.state.version

    async def reconcile(
        self,
        edit: Edit,
        unstarted: Callable[[tuple[str, str]], Awaitable[None]],
        void: Callable[[str, str, str], Awaitable[None]],
    ) -> None:
        """Bring every board up to its game's log, after a crash between a store and a board edit: a
        game stored but never shown is posted where its board was to be; a board placed for a game that
        was never stored is told so (``unstarted``); a game whose board was never shown and now cannot
        be is called off (``void``). Runs when a process takes the lead, on the side."""
        await self.settled()  # the read models know every game stored
        await self.kept.settle_boards()  # finished games shown to their end are never read again
        for game_id, shown_version in await self.kept.boards_behind():
            async with self.rendering(game_id):  # a game being opened right now is stored when this is had
                first = await self.store.first_type(game_id)
                if first is None:
                    placed = await self.where(game_id)
                    await self.forget(game_id)
                    if placed is not None:
                        await unstarted(placed)
                    continue
            try:
                game = self.games.of(first).name
                outcome = await self.services[game].current(game_id)
            except Refusal as refused:
                log.error("game %s cannot be shown: %s", game_id, getattr(refused, "reason", refused.message))
                continue
            if await self.show(outcome, edit):
                log.info("brought the board of %s up to its log (version %d)", game_id, outcome.state.version)
                await self.keep_up(game, game_id, outcome.state.version, edit)
            elif shown_version == 0 and not outcome.state.is_over:  # placed, never shown, and now unshowable
                await void(game, game_id, "its board could never be shown")

    # --- what is new --------------------------------------------------------------------------------

    def stored(self, game: str, state: Any) -> None:
        """This process stored ``state``: remembered (``newest``; its own answer shows it), and told."""
        if len(self._made) > REMEMBERED:
            self._made.clear()
        self._made[state.game_id] = max(state.version, self._made.get(state.game_id, 0))
        self._tell(Change(game, state.game_id, state.version))

    def _tell(self, change: Change) -> None:
        for queue in self._subscribers.get(change.game_id, ()):
            with contextlib.suppress(asyncio.QueueEmpty):
                queue.get_nowait()  # a subscriber behind hears only the newest version
            queue.put_nowait(change)

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[asyncio.Queue[Change]]:
        """A queue that holds ``game_id``'s newest version each time it changes, for as long as the
        block runs."""
        queue: asyncio.Queue[Change] = asyncio.Queue(maxsize=1)
        self._subscribers.setdefault(game_id, set()).add(queue)
        if self.shared and self._seen is None:  # from where the read models are: a version heard twice is harmless
            self._seen = await self.views.checkpoint()
        try:
            yield queue
        finally:
            queues = self._subscribers.get(game_id, set())
            queues.discard(queue)
            if not queues:
                self._subscribers.pop(game_id, None)

    async def follow(self) -> None:
        """Tell this process's subscribers of what other processes appended since the last call (every
        process calls it when the event store's NOTIFY hints at an append). Nothing is read while
        nobody here subscribes."""
        if not self.shared or not self._subscribers or self._seen is None:
            self._seen = None
            return
        store = self.store
        while events := await store.read_all(self._seen, 1000):
            newest: dict[str, Change] = {}
            for event in events:
                if event.stream_id in self._subscribers:
                    with contextlib.suppress(Refusal):
                        game = self.games.of(event.type).name
                        newest[event.stream_id] = Change(game, event.stream_id, event.version)
            for change in newest.values():
                self._tell(change)
            self._seen = events[-1].position
