"""The application service: one command, end to end, the same for every front end.

Load the game's stream, check the version the player acted on, decide, append (with the
interaction id as the idempotency key), evolve, and tell the new events' story. The service owns
the dice (``secrets``) and plays the house: the house's replies are appended in the same atomic
batch as the move that prompted them, so a game never waits on the house after a crash.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.dice import roll
from bot.projection import Projector
from hog_core.commentary import Lines, narrate
from hog_core.errors import HogError, InvalidGame
from hog_core.events import Event
from hog_core.game import Command, CreateGame, Dice, Forfeit, GameState, TakeTurn, decide, replay
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution
from hog_core.strategies import DIFFICULTIES, house_move
from storage.codec import from_records, to_record
from storage.events import EventStore, StoredEvent, WrongExpectedVersion
from storage.solutions import SolutionCache

Roller = Callable[[Dice], tuple[int, ...]]

MAX_SOLVED_GOAL = 200
"""The largest goal the perfect house and the win chances are solved for: the solution's size grows
with the square of the goal (contest to 200 solves in seconds; to 1000 it would take minutes)."""


GOALS = range(10, 1001)
"""The goals a game may be played to, from every front end."""


RACES = 5
"""How often a command that names no board version is decided again after losing a race to
another command on the same game (a forfeit while a move is being stored)."""


class GameDamaged(HogError):
    """The game's log cannot be folded (a damaged or impossible event): it is quarantined, and
    nothing is appended to it; every other game plays on."""

    def __init__(self, game_id: str, error: Exception) -> None:
        super().__init__("This game's record is damaged, so it cannot be played on. Every other game is fine.")
        self.game_id, self.reason = game_id, f"{type(error).__name__}: {error}"


class StaleBoard(HogError):
    """The player acted on a board that has moved on since."""


@dataclass(frozen=True)
class Outcome:
    """The game after a command, and each new event with the state after it and its commentary."""

    state: GameState
    told: tuple[tuple[Event, GameState, Lines], ...]
    duplicate: bool = False
    """The command had been carried out already (a retried interaction): this is the game as it
    stands now, told as every render of its version is."""


class GameService:
    def __init__(
        self,
        store: EventStore,
        solutions: SolutionCache,
        projector: Projector | None = None,
        dice: Roller = roll,
    ) -> None:
        self.store, self.solutions, self.projector, self.dice = store, solutions, projector, dice
        self.watchers: list[Callable[[GameState], None]] = []
        """Called with the game after every command that changed it (the timers keep its deadlines)."""

    async def events(self, game_id: str) -> list[Event]:
        """The game's log (empty for an unknown id); ``GameDamaged`` when it cannot be folded."""
        return (await self._fold(game_id))[0]

    async def load(self, game_id: str) -> GameState:
        """The game as its log tells it (a fresh ``GameState`` for an unknown id)."""
        return (await self._fold(game_id))[1]

    async def _fold(self, game_id: str) -> tuple[list[Event], GameState]:
        return _folded(game_id, await self.store.load(game_id))

    async def current(self, game_id: str) -> Outcome:
        """The game as it stands, told by the events of its last command: the one board of its
        version, however it is asked for (the move that made it, a retried, doubled or stale
        click, a timer, a restart)."""
        return _as_it_stands(await self.store.load(game_id))

    async def solution(self, state: GameState) -> Solution | None:
        """The game's solved rule set (from the cache, or solved off the event loop), or ``None``
        for a goal past ``MAX_SOLVED_GOAL``: the board then shows no win chances."""
        if state.goal > MAX_SOLVED_GOAL:
            return None
        rules = RULE_SETS[state.rules.id]
        return self.solutions.in_memory(rules, state.goal) or await asyncio.to_thread(
            self.solutions.get, rules, state.goal
        )

    def check(self, command: CreateGame) -> None:
        """Refuse, before any work, a game no front end offers: raises ``InvalidGame``."""
        if command.rules not in RULE_SETS:
            raise InvalidGame(f"There is no rule set {command.rules!r}; choose one of {', '.join(RULE_SETS)}.")
        if command.goal not in GOALS:
            raise InvalidGame(f"The goal must be between {GOALS[0]} and {GOALS[-1]}, not {command.goal}.")
        for level in {p.house for p in command.players} - {None}:
            if level not in DIFFICULTIES:
                raise InvalidGame(f"The house plays {', '.join(DIFFICULTIES)}; there is no {level!r}.")
        if command.goal > MAX_SOLVED_GOAL and any(p.house in ("medium", "perfect") for p in command.players):
            raise InvalidGame(
                f"The medium and perfect house play to goals up to {MAX_SOLVED_GOAL}; for a longer game choose easy."
            )

    async def create(self, command: CreateGame, command_id: str) -> Outcome:
        self.check(command)
        return await self.execute(command.game_id, lambda state: [command], command_id, expected_version=0)

    async def move(
        self,
        game_id: str,
        player: str,
        k: int,
        command_id: str,
        expected_version: int | None,
        place: str | None = None,
    ) -> Outcome:
        """``player`` chooses ``k`` dice (``-1``: Pork Chop) on the board at ``expected_version``."""
        return await self.execute(
            game_id,
            lambda state: [TakeTurn(player, k, self.dice(state.dice_for(k)))],
            command_id,
            expected_version,
            place,
        )

    async def forfeit(self, game_id: str, player: str, command_id: str, reason: str = "resigned") -> Outcome:
        return await self.execute(game_id, lambda state: [Forfeit(player, reason)], command_id)

    async def execute(
        self,
        game_id: str,
        commands: Callable[[GameState], Sequence[Command]],
        command_id: str,
        expected_version: int | None = None,
        place: str | None = None,
    ) -> Outcome:
        """Decide ``commands(state)``, then the house's replies, and append them all at once.

        ``expected_version`` is the version of the board the player acted on (``None``: the
        current one); ``place``, when given, is where they acted, and must be the game's. Raises
        ``HogError`` (``StaleBoard`` for a board that moved on); a refused command changes nothing.
        """
        for attempt in range(1, RACES + 1):
            stored = await self.store.load(game_id)
            if any(s.command_id == command_id for s in stored):  # a retried interaction: it was done
                return _as_it_stands(stored, duplicate=True)
            history, state = _folded(game_id, stored)
            _check_board(state, expected_version, place)
            new = await self._decide(state, commands(state))
            outcome = _told(game_id, history, new)  # told before it is stored: nothing stored goes untold
            try:
                result = await self.store.append(game_id, [to_record(e) for e in new], state.version, command_id)
            except WrongExpectedVersion as error:
                if expected_version is None and attempt < RACES:
                    continue  # not a click on a board (a forfeit, a timer): decide again on the game as it is now
                raise StaleBoard("Someone moved at the same moment: here is the game as it stands.") from error
            if result.duplicate:  # the same interaction, retried while the first was being stored
                return await self.current(game_id)
            break
        if self.projector is not None:
            self.projector.follow()
        for watch in self.watchers:
            watch(outcome.state)
        return outcome

    async def _decide(self, state: GameState, commands: Sequence[Command]) -> list[Event]:
        """The events of ``commands`` in turn, then the house's replies."""
        new: list[Event] = []
        for command in commands:
            step = decide(state, command)
            new += step
            state = replay(step, state)
        return new + await self._house_replies(state)

    async def _house_replies(self, state: GameState) -> list[Event]:
        """The house's moves while it is the house's turn (its extra turns included)."""
        replies: list[Event] = []
        while not state.is_over and (level := state.players[state.mover].house) is not None:
            solution = await self.solution(state) if level != "easy" else None
            k = house_move(level, state, solution)
            step = decide(state, TakeTurn(state.players[state.mover].id, k, self.dice(state.dice_for(k))))
            replies += step
            state = replay(step, state)
        return replies


def _check_board(state: GameState, version: int | None, place: str | None) -> None:
    """Refuse a command for a board that cannot be this game's (a forged button), or one the game has left behind."""
    if version == 0 and state.version == 0:
        return  # creating the game
    if state.version == 0:
        raise InvalidGame("There is no such game here.")
    if place is not None and state.place != place:
        raise InvalidGame("That game is played in another channel.")
    if version is not None and not 1 <= version <= state.version:
        raise InvalidGame("That button is not from this game's board.")
    if version is not None and version != state.version:
        raise StaleBoard("This board was out of date: here is the game as it stands.")


def _folded(game_id: str, stored: Sequence[StoredEvent]) -> tuple[list[Event], GameState]:
    """The game's events and state, or ``GameDamaged`` when its log cannot be folded."""
    try:
        history = from_records(stored)
        return history, replay(history)
    except Exception as error:  # undecodable, or an event the rules cannot apply
        raise GameDamaged(game_id, error) from error


def _told(game_id: str, history: Sequence[Event], new: Sequence[Event], duplicate: bool = False) -> Outcome:
    try:
        return _outcome(history, new, duplicate)
    except Exception as error:  # an impossible event the commentary trips on
        raise GameDamaged(game_id, error) from error


def _as_it_stands(stored: Sequence[StoredEvent], duplicate: bool = False) -> Outcome:
    """The game after ``stored``, told by its last batch (the trailing events of one command)."""
    if not stored:
        return Outcome(GameState(), (), duplicate)
    start = len(stored) - 1
    while start > 0 and stored[start - 1].command_id == stored[-1].command_id:
        start -= 1
    history, _ = _folded(stored[0].stream_id, stored)
    return _told(stored[0].stream_id, history[:start], history[start:], duplicate)


def _outcome(history: Sequence[Event], new: Sequence[Event], duplicate: bool = False) -> Outcome:
    """Tell ``new`` after ``history``: the same words as live, since narration replays the log."""
    told = tuple(narrate([*history, *new]))[len(history) :]
    return Outcome(told[-1][1], told, duplicate)
