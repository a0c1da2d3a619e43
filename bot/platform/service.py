"""The application service: one command, end to end, the same for every game and every front end.

Load the game's stream (only what was appended since this process last folded it), check the
version the player acted on, decide, append (with the interaction id as the idempotency key, and the
version read as the condition), evolve, and tell the new events' story. The service owns
the random source and plays the bots: their replies are appended in the same atomic batch as the
move that prompted them, so a game never waits on a bot after a crash.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol

import msgspec

from bot.platform.chance import SEED_BYTES, SealedChance, SecretChance
from bot.platform.codec import ForeignStream, from_records, to_record
from bot.platform.contract import C, Chance, Commands, E, Game, Outcome, Refusal, S, Storyteller, optional
from bot.platform.metrics import APPENDED
from bot.platform.projection import Projector
from bot.platform.recent import Recent
from bot.platform.registry import is_record
from storage.events import EventStore, StoredEvent, WrongExpectedVersion

RACES = 5
"""How often a command that names no board version is decided again after losing a race to
another command on the same game (a forfeit while a move is being stored)."""

BOT_MOVES = 10_000
"""More bot moves in a row than this is a game module's bug (a bot that never lets go), refused."""
LIVE_KEPT, OVER_KEPT = 100_000, 256
"""Games whose log, decoded and folded, a process keeps, live and finished: a command on one loads
only the events appended since (by any process), never its whole log again, however many games are
being played (every live game of a busy process up to 100,000, about 2.5 KiB each; a finished game
soon goes: at 20,000, a process with 30,000 live games loaded a third of its moves' logs again).
The append's version check stays the rule: what is kept is never believed over the store."""
TOLD_KEPT = 64
"""The most events of a move whose telling (a state and lines each) a kept game holds: a table handed
to bots is hundreds of events in one move, told again from the log if it is ever asked for."""
SLICE = 0.001
"""Seconds of bot moves after which the service lets the event loop run the other games' work before
the next move: a table handed to bots (hundreds of cards) never holds every other game up."""


UNTOLD: Any = object()
"""A folded game not told yet (``None`` is a storyteller's start)."""


class Folded(msgspec.Struct, Generic[S, E], frozen=True, gc=False):
    """A game's log as far as a process has read it: its events, the state they fold to, and the
    command that appended each (idempotency, and the last command's batch). Every live game keeps
    one: the garbage collector never walks it (nothing in a game refers back to it, so no cycle can)."""

    history: tuple[E, ...]
    state: S
    commands: tuple[str | None, ...]
    story: Any = UNTOLD
    """Where the game module's telling stands after ``history`` (``contract.Storyteller``), once told."""
    last: Outcome[S, E] | None = None
    """The last command's batch as it was told when this process stored it (``None``: not stored
    here, so told again from the log when asked)."""


class GameDamaged(Refusal):
    """The game's log cannot be folded (a damaged or impossible event): it is quarantined, and
    nothing is appended to it; every other game plays on."""

    def __init__(self, game_id: str, error: Exception) -> None:
        super().__init__("This game's record is damaged, so it cannot be played on. Every other game is fine.")
        self.game_id, self.reason = game_id, f"{type(error).__name__}: {error}"


class StaleBoard(Refusal):
    """The player acted on a board that has moved on since."""


NO_SUCH_GAME = "There is no such game here."
OUT_OF_DATE = "This board was out of date: here is the game as it stands."


SEEDS_KEPT = 10_000
"""Seeds remembered in memory (they never change once drawn): more, and the memory starts afresh."""


class Seals(Protocol):
    """Where each game's secret seed is kept (``storage.games.GameViews``)."""

    async def seal(self, game_id: str, seed: bytes) -> bytes: ...
    async def seed(self, game_id: str) -> bytes | None: ...


class GameService(Generic[S, E, C]):
    def __init__(
        self,
        game: Game[S, E, C],
        store: EventStore,
        projector: Projector | None = None,
        chance: Chance | None = None,
        seals: Seals | None = None,
    ) -> None:
        self.game, self.store, self.projector, self.seals = game, store, projector, seals
        self.chance = chance
        """A fixed random source (tests); without one, every game's draws come from its sealed seed."""
        self._seeds: dict[str, bytes] = {}
        self._live: Recent[str, Folded[S, E]] = Recent(LIVE_KEPT)
        self._over: Recent[str, Folded[S, E]] = Recent(OVER_KEPT)
        self.watchers: list[Callable[[str, S], None]] = []
        """Called with the game's name and state after every command that changed it (the timers)."""

    async def events(self, game_id: str) -> list[E]:
        """The game's log (empty for an unknown id); ``GameDamaged`` when it cannot be folded."""
        return list((await self.folded(game_id)).history)

    async def load(self, game_id: str) -> S:
        """The game as its log tells it (the initial state for an unknown id)."""
        return (await self.folded(game_id)).state

    async def folded(self, game_id: str) -> Folded[S, E]:
        """The game's log as it stands: what this process has folded of it, and the events any
        process appended since, read and folded now."""
        kept = self._kept(game_id)
        new = await self.store.load(game_id, after_version=len(kept.history) if kept is not None else 0)
        if kept is not None and not new:
            return kept
        base = kept if kept is not None else Folded((), self.game.initial(), ())
        more, state = self._extend(game_id, base.state, new)
        found = Folded(base.history + tuple(more), state, base.commands + tuple(s.command_id for s in new))
        if found.history:
            self._keep(game_id, found)
        return found

    def _kept(self, game_id: str) -> Folded[S, E] | None:
        return self._live.get(game_id) or self._over.get(game_id)

    def _keep(self, game_id: str, folded: Folded[S, E]) -> None:
        if folded.state.is_over:
            self._live.drop(game_id)
            self._over.put(game_id, folded)
        else:
            self._live.put(game_id, folded)

    async def current(self, game_id: str) -> Outcome[S, E]:
        """The game as it stands, told by the events of its last command: the one board of its
        version, however it is asked for (the move that made it, a retried, doubled or stale
        click, a timer, a restart)."""
        return self._as_it_stands(game_id, await self.folded(game_id))

    async def create(self, game_id: str, command: C, command_id: str) -> Outcome[S, E]:
        """Store the game ``command`` creates under ``game_id`` (which must be new)."""
        return await self.execute(game_id, lambda state, chance: [command], command_id, expected_version=0)

    async def execute(
        self,
        game_id: str,
        commands: Commands[S, C],
        command_id: str,
        expected_version: int | None = None,
        place: str | None = None,
    ) -> Outcome[S, E]:
        """Decide ``commands(state, chance)``, then the bots' replies, and append them all at once.

        ``expected_version`` is the version of the board the player acted on (``None``: the
        current one); ``place``, when given, is where they acted, and must be the game's. Raises
        ``Refusal`` (``StaleBoard`` for a board that moved on); a refused command changes nothing.
        """
        for attempt in range(1, RACES + 1):
            kept = self._kept(game_id) if attempt == 1 else None
            if kept is not None and (expected_version is None or expected_version <= kept.state.version):
                folded = kept  # decided on what this process folded: a stale fold loses the append, then is read
            else:
                folded, kept = await self.folded(game_id), None
            if command_id in folded.commands:  # a retried interaction: it was done
                return self._as_it_stands(game_id, folded, duplicate=True)
            history, state = folded.history, folded.state
            _check_board(state, expected_version, place)
            chances = await self._chances(game_id, creating=not history)
            try:
                new = await self._decide(state, commands, chances)
            except self.game.refusal as error:
                raise Refusal(str(getattr(error, "message", error))) from error
            outcome, story = self._told_after(game_id, folded, new)  # told before it is stored: none goes untold
            if outcome.state.game_id != game_id:  # a front end's mistake, never a player's: store nothing
                raise ValueError(f"the events name game {outcome.state.game_id!r}, not the stream {game_id!r}")
            try:
                with APPENDED.time():
                    result = await self.store.append(
                        game_id, [to_record(self.game, e) for e in new], state.version, command_id
                    )
            except WrongExpectedVersion as error:
                if kept is not None or (expected_version is None and attempt < RACES):
                    continue  # the fold was stale, or not a click on a board: decide again on the game as it is now
                if expected_version == 0:
                    raise Refusal("There is a game with this id already.") from error
                raise StaleBoard("Someone moved at the same moment: here is the game as it stands.") from error
            if result.duplicate:  # the same interaction, retried while the first was being stored
                return await self.current(game_id)
            commands_now = folded.commands + (command_id,) * len(new)
            told = outcome if 0 < len(new) <= TOLD_KEPT else None
            after = outcome.state if new else state  # the telling folded ``new`` already
            self._keep(game_id, Folded(history + tuple(new), after, commands_now, story, told))
            break
        if self.projector is not None:
            self.projector.follow()
        for watch in self.watchers:
            watch(self.game.name, outcome.state)
        return outcome

    async def seed(self, game_id: str, creating: bool = False) -> bytes | None:
        """The game's secret seed (``creating``: drawn and kept first), ``None`` for a game stored
        before seeds were drawn, for a game that leaves nothing to chance, or when draws come from a
        fixed source."""
        if self.chance is not None or self.seals is None or self.game.draws is None:
            return None
        seed = self._seeds.get(game_id)
        if seed is None:
            if len(self._seeds) >= SEEDS_KEPT:
                self._seeds.clear()
            if creating:
                seed = await self.seals.seal(game_id, secrets.token_bytes(SEED_BYTES))
            else:
                seed = await self.seals.seed(game_id)
            if seed is not None:
                self._seeds[game_id] = seed
        return seed

    async def _chances(self, game_id: str, creating: bool) -> Callable[[int], Chance]:
        """The game's random source at each version: drawn from its seed (a new game's is drawn and
        kept first), or a fixed source; a game stored before seeds were drawn gets unsealed secure draws."""
        if self.chance is not None:
            fixed = self.chance
            return lambda version: fixed
        seed = await self.seed(game_id, creating)
        if seed is None:
            return lambda version: SecretChance()
        sealed = seed
        return lambda version: SealedChance(sealed, game_id, version)

    async def _decide(self, state: S, commands: Commands[S, C], chances: Callable[[int], Chance]) -> list[E]:
        """The events of ``commands`` in turn, then the bots' replies while a bot is to move. Each
        decision draws from the game's source at the version it is made at (a seeded game's draws are
        ``SealedChance(seed, game_id, version)``)."""
        new: list[E] = []
        for command in commands(state, chances(state.version)):
            step = self.game.decide(state, command)
            new += step
            state = self._replayed(state, step)
        since = time.perf_counter()
        for _ in range(BOT_MOVES):
            reply = await self.game.automatic(state, chances(state.version))
            if reply is None:
                return new
            step = self.game.decide(state, reply)
            new += step
            state = self._replayed(state, step)
            if time.perf_counter() - since > SLICE:
                await asyncio.sleep(0)  # the other games' clicks in between; the append's version check stays the rule
                since = time.perf_counter()
        raise Refusal("The bots would not stop playing: this game cannot go on.")

    def _replayed(self, state: S, events: Sequence[E]) -> S:
        for event in events:
            state = self.game.evolve(state, event)
        return state

    def fold(self, game_id: str, stored: Sequence[StoredEvent]) -> tuple[list[E], S]:
        """The game's events and state, or ``GameDamaged`` when its log cannot be folded."""
        return self._extend(game_id, self.game.initial(), stored)

    def _extend(self, game_id: str, state: S, stored: Sequence[StoredEvent]) -> tuple[list[E], S]:
        """``stored``'s events, and ``state`` after them; ``GameDamaged`` when they cannot be folded."""
        if is_record(game_id):  # a contest's entries, say: no game at all
            raise Refusal(NO_SUCH_GAME)
        try:
            history = from_records(self.game, stored)
            return history, self._replayed(state, history)
        except ForeignStream as error:
            raise Refusal(NO_SUCH_GAME) from error
        except Exception as error:  # undecodable, or an event the rules cannot apply
            raise GameDamaged(game_id, error) from error

    def _told(self, game_id: str, history: Sequence[E], new: Sequence[E], duplicate: bool = False) -> Outcome[S, E]:
        """Tell ``new`` after ``history``: the same words as live, since narration replays the log."""
        try:
            told = tuple(self.game.narrate([*history, *new]))[len(history) :]
        except Exception as error:  # an impossible event the commentary trips on
            raise GameDamaged(game_id, error) from error
        if not told:
            return Outcome(self.game.name, self.game.initial(), (), duplicate)
        return Outcome(self.game.name, told[-1][1], told, duplicate)

    def _told_after(self, game_id: str, folded: Folded[S, E], new: Sequence[E]) -> tuple[Outcome[S, E], Any]:
        """Tell ``new`` after ``folded``: by the game's storyteller from where its story stands (told
        from the start once, when it is not kept), else by narrating the whole game; and the story after."""
        teller = optional(self.game, Storyteller)
        if teller is None:
            return self._told(game_id, folded.history, new), UNTOLD
        try:
            story = folded.story
            if story is UNTOLD:
                story, _ = teller.tell(None, folded.history)
            after, told = teller.tell(story, new)
        except Exception as error:  # an impossible event the commentary trips on
            raise GameDamaged(game_id, error) from error
        if not told:
            return Outcome(self.game.name, self.game.initial(), ()), after
        return Outcome(self.game.name, told[-1][1], tuple(told)), after

    def _as_it_stands(self, game_id: str, folded: Folded[S, E], duplicate: bool = False) -> Outcome[S, E]:
        """The game as ``folded``, told by its last batch (the trailing events of one command): as it
        was told when stored here, or else told again from the log."""
        if folded.last is not None:
            return msgspec.structs.replace(folded.last, duplicate=duplicate)
        commands = folded.commands
        if not commands:
            return Outcome(self.game.name, self.game.initial(), (), duplicate)
        start = len(commands) - 1
        while start > 0 and commands[start - 1] == commands[-1]:
            start -= 1
        return self._told(game_id, folded.history[:start], folded.history[start:], duplicate)


def _check_board(state: S, version: int | None, place: str | None) -> None:
    """Refuse a command for a board that cannot be this game's (a forged button), or one the game has left behind."""
    if version == 0 and state.version == 0:
        return  # creating the game
    if state.version == 0:
        raise Refusal(NO_SUCH_GAME)
    if place is not None and state.place != place:
        raise Refusal("That game is played in another channel.")
    if version is not None and not 1 <= version <= state.version:
        raise Refusal("That button is not from this game's board.")
    if version is not None and version != state.version:
        raise StaleBoard(OUT_OF_DATE)


Services = Mapping[str, GameService[Any, Any, Any]]
"""Each game's service, by the game's name."""
