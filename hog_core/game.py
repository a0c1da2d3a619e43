"""The Hog decider: commands in, events out; ``evolve`` folds events into the game's state.

Dice are an input. Before a move, ``GameState.dice_for(k)`` says how many dice of how many sides
the move needs; the caller rolls them and passes the outcomes in ``TakeTurn``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

import msgspec
from msgspec.structs import replace

from hog_core.errors import DamagedLog, GameNotActive, InvalidGame, InvalidMove, NotAPlayer, NotYourTurn
from hog_core.events import (
    ChallengeAccepted,
    ChallengeDeclined,
    ChallengeExpired,
    Event,
    GameCreated,
    GameForfeited,
    GameVoided,
    Player,
    TurnTaken,
)
from hog_core.rulesets import DEFAULT_RULES, FA18, RULE_SETS, RuleSet, rule_set
from hog_core.turn import Turn

PORK_CHOP = -1
MIN_GOAL, MAX_GOAL = 1, 10_000


class Status(StrEnum):
    NEW = "new"
    CHALLENGED = "challenged"
    ACTIVE = "active"
    FINISHED = "finished"
    DRAWN = "drawn"
    DECLINED = "declined"
    EXPIRED = "expired"
    VOIDED = "voided"


TERMINAL = frozenset({Status.FINISHED, Status.DRAWN, Status.DECLINED, Status.EXPIRED, Status.VOIDED})


@dataclass(frozen=True, slots=True)
class Dice:
    """What a move needs rolled: ``count`` dice with ``sides`` sides each."""

    count: int
    sides: int


class TurnReport(msgspec.Struct, frozen=True, gc=False):
    """The last turn: who moved, what they chose and rolled, and how the rules resolved it."""

    seat: int
    k: int
    outcomes: tuple[int, ...]
    sides: int
    before: tuple[int, int]
    after: tuple[int, int]
    resolution: Turn


# --- commands ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreateGame:
    game_id: str
    players: tuple[Player, Player]
    rules: str = DEFAULT_RULES
    goal: int = 100
    first: int = 0
    challenge: bool = False
    place: str = ""
    challenge_timeout: int = 0
    turn_timeout: int = 0


@dataclass(frozen=True, slots=True)
class AcceptChallenge:
    player: str


@dataclass(frozen=True, slots=True)
class DeclineChallenge:
    player: str


@dataclass(frozen=True, slots=True)
class ExpireChallenge:
    pass


@dataclass(frozen=True, slots=True)
class TakeTurn:
    player: str
    k: int
    outcomes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Forfeit:
    player: str
    reason: str = "resigned"


@dataclass(frozen=True, slots=True)
class VoidGame:
    """Call the game off without a result (its board could never be shown)."""

    reason: str = "board"


Command = CreateGame | AcceptChallenge | DeclineChallenge | ExpireChallenge | TakeTurn | Forfeit | VoidGame


# --- state ---------------------------------------------------------------------------------------


class GameState(msgspec.Struct, frozen=True, gc=False):
    game_id: str = ""
    rules: RuleSet = FA18
    goal: int = 100
    players: tuple[Player, ...] = ()
    place: str = ""
    status: Status = Status.NEW
    scores: tuple[int, int] = (0, 0)
    mover: int = 0
    turn_number: int = 0
    """Turns taken so far, extra turns included."""
    is_extra: bool = False
    """The coming turn is an extra turn (More Boar / Time Trot)."""
    chop_used: tuple[bool, bool] = (False, False)
    remembered: tuple[int, int] = (0, 0)
    """What each seat's Feral Hogs remembers of their previous turn (its dice or points; 0 at first)."""
    turn_limit: int = 1000
    challenge_timeout: int = 0
    turn_timeout: int = 0
    winner: int | None = None
    forfeited_by: int | None = None
    version: int = 0
    """How many events made this state: the version a new append must expect."""
    last_turn: TurnReport | None = None

    @property
    def is_over(self) -> bool:
        return self.status in TERMINAL

    def seat_of(self, player_id: str) -> int | None:
        for seat, player in enumerate(self.players):
            if player.id == player_id:
                return seat
        return None

    def chop_available(self, seat: int | None = None) -> bool:
        return self.rules.pork_chop and not self.chop_used[self.mover if seat is None else seat]

    def sides(self) -> int:
        """The sides of the dice the mover would roll now (Hog Wild, eight-sided extra turns)."""
        cur, opp = self.scores[self.mover], self.scores[1 - self.mover]
        return self.rules.dice_sides(cur, opp, self.is_extra)

    def legal_moves(self) -> tuple[int, ...]:
        ks = tuple(range(self.rules.max_dice + 1))
        return ((PORK_CHOP, *ks)) if self.chop_available() else ks

    def dice_for(self, k: int) -> Dice:
        """How many dice of how many sides choosing ``k`` needs (a live Pork Chop rolls none).

        Raises ``InvalidMove`` when ``k`` is no move in this rule set.
        """
        top = self.rules.max_dice
        if not (PORK_CHOP if self.rules.pork_chop else 0) <= k <= top:  # -1 is a move only where Pork Chop is a rule
            raise InvalidMove(f"Choose between 0 and {top} dice, not {k}.")
        if k == PORK_CHOP:
            return Dice(0 if self.chop_available() else top, self.sides())
        return Dice(k, self.sides())


# --- decide --------------------------------------------------------------------------------------


def decide(state: GameState, command: Command) -> list[Event]:
    """The events ``command`` causes, or a ``HogError`` saying why it is refused."""
    match command:
        case CreateGame():
            return [_create(state, command)]
        case AcceptChallenge(player) | DeclineChallenge(player):
            _challenged_only(state, player)
            if isinstance(command, AcceptChallenge):
                return [ChallengeAccepted(player)]
            return [ChallengeDeclined(player)]
        case ExpireChallenge():
            if state.status is not Status.CHALLENGED:
                raise GameNotActive("There is no open challenge to expire.")
            return [ChallengeExpired()]
        case TakeTurn():
            return [_take_turn(state, command)]
        case Forfeit(player, reason):
            seat = _active_seat(state, player)
            return [GameForfeited(seat, reason)]
        case VoidGame(reason):
            if state.status not in (Status.CHALLENGED, Status.ACTIVE):
                raise GameNotActive("Only a game being played or waiting for an answer can be called off.")
            return [GameVoided(reason)]


def _create(state: GameState, c: CreateGame) -> GameCreated:
    if state.status is not Status.NEW:
        raise InvalidGame("This game already exists.")
    try:
        rs = rule_set(c.rules)  # one of the six, or one of them with rules turned off
    except KeyError:
        raise InvalidGame(f"Unknown rule set {c.rules!r}; choose one of {', '.join(RULE_SETS)}.") from None
    if not MIN_GOAL <= c.goal <= MAX_GOAL:
        raise InvalidGame(f"The goal must be between {MIN_GOAL} and {MAX_GOAL}, not {c.goal}.")
    if len(c.players) != 2 or c.players[0].id == c.players[1].id:
        raise InvalidGame("A game needs two different players.")
    if c.first not in (0, 1):
        raise InvalidGame("The first mover must be seat 0 or seat 1.")
    if c.challenge_timeout < 0 or c.turn_timeout < 0:
        raise InvalidGame("Timeouts are seconds, 0 for none; they cannot be negative.")
    return GameCreated(
        game_id=c.game_id,
        rules=rs.id,
        rules_version=rs.version,
        goal=c.goal,
        players=c.players,
        challenge_timeout=c.challenge_timeout,
        turn_timeout=c.turn_timeout,
        first=c.first,
        challenge=c.challenge,
        turn_limit=10 * c.goal,
        place=c.place,
    )


def _challenged_only(state: GameState, player: str) -> None:
    if state.status is Status.EXPIRED:
        raise GameNotActive("This challenge has expired: nobody answered in time.")
    if state.status is not Status.CHALLENGED:
        raise GameNotActive("This challenge has already been answered.")
    if player != state.players[1].id:
        raise NotAPlayer(f"Only {state.players[1].name} can answer this challenge.")


def _active_seat(state: GameState, player: str) -> int:
    seat = state.seat_of(player)
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if state.status is Status.CHALLENGED:
        raise GameNotActive(f"The game has not started: {state.players[1].name} has not accepted yet.")
    if state.status is not Status.ACTIVE:
        raise GameNotActive("This game is over.")
    return seat


def _take_turn(state: GameState, c: TakeTurn) -> TurnTaken:
    seat = _active_seat(state, c.player)
    if seat != state.mover:
        raise NotYourTurn(f"It's {state.players[state.mover].name}'s turn, not yours.")
    dice = state.dice_for(c.k)
    if len(c.outcomes) != dice.count:
        raise InvalidMove(f"That move rolls {dice.count} dice, but {len(c.outcomes)} outcomes were given.")
    bad = [o for o in c.outcomes if not 1 <= o <= dice.sides]
    if bad:
        raise InvalidMove(f"A {dice.sides}-sided die cannot show {bad[0]}.")
    return TurnTaken(seat=seat, k=c.k, outcomes=tuple(c.outcomes), sides=dice.sides)


# --- evolve --------------------------------------------------------------------------------------


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``. Events are facts: they were checked when they were decided."""
    version = state.version + 1
    match event:
        case TurnTaken():  # first: nearly every event is a turn
            return _apply_turn(state, event, version)
        case GameCreated():
            return GameState(
                game_id=event.game_id,
                rules=rule_set(event.rules, event.rules_version),
                goal=event.goal,
                players=event.players,
                place=event.place,
                status=Status.CHALLENGED if event.challenge else Status.ACTIVE,
                mover=event.first,
                turn_limit=event.turn_limit,
                challenge_timeout=event.challenge_timeout,
                turn_timeout=event.turn_timeout,
                version=version,
            )
        case ChallengeAccepted():
            return replace(state, status=Status.ACTIVE, version=version)
        case ChallengeDeclined():
            return replace(state, status=Status.DECLINED, version=version)
        case ChallengeExpired():
            return replace(state, status=Status.EXPIRED, version=version)
        case GameForfeited(seat):
            return replace(state, status=Status.FINISHED, winner=1 - seat, forfeited_by=seat, version=version)
        case GameVoided():
            return replace(state, status=Status.VOIDED, version=version)


def _apply_turn(state: GameState, e: TurnTaken, version: int) -> GameState:
    m, k, rules = e.seat, e.k, state.rules
    if state.status is not Status.ACTIVE or m != state.mover:
        when = "out of turn" if state.status is Status.ACTIVE else f"in a game that is {state.status.value}"
        raise DamagedLog(f"its log is damaged: event {version} is a turn {when}")
    chop = False
    if k == PORK_CHOP:
        chop = state.chop_available(m)
        k = k if chop else rules.max_dice
    cur, opp = (state.scores[0], state.scores[1]) if m == 0 else (state.scores[1], state.scores[0])
    turn = Turn(cur, opp, k, e.outcomes, state.turn_number, state.is_extra, prev=state.remembered[m])
    done = rules.resolve(turn, chop=chop)
    scores = (done.cur, done.opp) if m == 0 else (done.opp, done.cur)
    remembered = state.remembered
    if rules.history is not None:
        kept = rules.history.remember(k, done.points)
        remembered = (kept, remembered[1]) if m == 0 else (remembered[0], kept)
    chop_used = state.chop_used
    if chop:
        chop_used = (True, chop_used[1]) if m == 0 else (chop_used[0], True)
    turn_number = state.turn_number + 1
    status: Status = state.status
    winner: int | None = None
    if scores[0] >= state.goal or scores[1] >= state.goal:
        status, winner = Status.FINISHED, (0 if scores[0] >= scores[1] else 1)
    elif turn_number >= state.turn_limit:
        status = Status.DRAWN
    return replace(
        state,
        status=status,
        scores=scores,
        mover=m if done.extra_turn else 1 - m,
        turn_number=turn_number,
        is_extra=done.extra_turn,
        chop_used=chop_used,
        remembered=remembered,
        winner=winner,
        version=version,
        last_turn=TurnReport(m, e.k, e.outcomes, e.sides, state.scores, scores, done),
    )


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold ``events`` into a state (from scratch unless ``state`` is given)."""
    state = GameState() if state is None else state
    for event in events:
        state = evolve(state, event)
    return state
