"""Commentary: pure higher-order callables that tell the story of every turn.

A commentary is called after each turn with the game's state before and after it, and returns
``(lines, next_commentary)``, the course's shape (``say`` returned the next ``say``) without the
printing. Those that remember something from turn to turn are immutable values, not closures
(``_Commentary``); ``hog_core.classic`` keeps the course's closures for its printing API.

The turn itself (who, ``k``, dice, which rules fired) is ``after.last_turn``. The same
log always gives the same lines, so a replay retells a game word for word.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

import msgspec

from hog_core.effects import Effect, ExtraTurn, Gain, HogPile, PiggyBack, PigOut, PrimeBoost, Swap, ZeroDice, felt
from hog_core.events import (
    ChallengeAccepted,
    ChallengeDeclined,
    ChallengeExpired,
    Event,
    GameCreated,
    GameForfeited,
    GameVoided,
    TurnTaken,
)
from hog_core.game import PORK_CHOP, GameState, Status, evolve

Lines = tuple[str, ...]


class Commentary(Protocol):
    def __call__(self, before: GameState, after: GameState) -> tuple[Lines, Commentary]: ...


def _name(state: GameState, seat: int) -> str:
    return state.players[seat].name


# --- the course's four ---------------------------------------------------------------------------


def say_scores(before: GameState, after: GameState) -> tuple[Lines, Commentary]:
    """Announce both totals: ``Player 0 now has 10 and Player 1 now has 0``."""
    (s0, s1), n0, n1 = after.scores, _name(after, 0), _name(after, 1)
    return (f"{n0} now has {s0} and {n1} now has {s1}",), say_scores


class _Commentary(msgspec.Struct, frozen=True, gc=False):
    """A commentary that remembers something from turn to turn, as a value: a live game keeps its
    next commentary between moves, and a closure (its function and cells) is a handful of objects
    the garbage collector walks again and again for every game in memory; these it never tracks
    (they hold only numbers and other commentaries, so they cannot form a cycle)."""


class _LeadChanges(_Commentary, frozen=True, gc=False):
    last_leader: int | None

    def __call__(self, before: GameState, after: GameState) -> tuple[Lines, Commentary]:
        s0, s1 = after.scores
        leader = 0 if s0 > s1 else 1 if s1 > s0 else None
        lines: Lines = ()
        if leader is not None and leader != self.last_leader:
            lines = (f"{_name(after, leader)} takes the lead by {abs(s0 - s1)}",)
        return lines, _LeadChanges(leader)


def announce_lead_changes(last_leader: int | None = None) -> Commentary:
    """Announce when the lead changes hands: ``Player 1 takes the lead by 7``."""
    return _LeadChanges(last_leader)


class _Highest(_Commentary, frozen=True, gc=False):
    who: int
    last_score: int
    running_high: int
    least: int
    course: bool

    def __call__(self, before: GameState, after: GameState) -> tuple[Lines, Commentary]:
        score = after.scores[self.who]
        gain = score - self.last_score
        if gain > self.running_high and gain >= self.least:
            points = f"{gain} point(s)" if self.course else _plural(gain, "point")
            line = f"{points}! That's the biggest gain yet for {_name(after, self.who)}"
            return (line,), msgspec.structs.replace(self, last_score=score, running_high=gain)
        return (), msgspec.structs.replace(self, last_score=score, running_high=max(self.running_high, gain))


def announce_highest(
    who: int, last_score: int = 0, running_high: int = 0, *, least: int = 1, course: bool = True
) -> Commentary:
    """Announce a new biggest gain for player ``who``: ``9 point(s)! That's the biggest gain yet for
    Player 1``. A gain is the change of ``who``'s total since the last call, swaps included. The
    course announces any gain (``least=1``) in its own words; the bot only gains worth a cheer, and
    says ``22 points!`` (``course=False``).
    """
    return _Highest(who, last_score, running_high, least, course)


class _Both(_Commentary, frozen=True, gc=False):
    f: Commentary
    g: Commentary

    def __call__(self, before: GameState, after: GameState) -> tuple[Lines, Commentary]:
        f_lines, f_next = self.f(before, after)
        g_lines, g_next = self.g(before, after)
        return f_lines + g_lines, _Both(f_next, g_next)


def both(f: Commentary, g: Commentary) -> Commentary:
    """Say what ``f`` says, then what ``g`` says."""
    return _Both(f, g)


class _AtMost(_Commentary, frozen=True, gc=False):
    limit: int
    f: Commentary

    def __call__(self, before: GameState, after: GameState) -> tuple[Lines, Commentary]:
        lines, next_f = self.f(before, after)
        return lines[: self.limit], _AtMost(self.limit, next_f)


def at_most(limit: int, f: Commentary) -> Commentary:
    """Keep the first ``limit`` lines of each turn, so a turn where many rules fire stays readable."""
    return _AtMost(limit, f)


# --- the turn itself -----------------------------------------------------------------------------


def _pick(options: tuple[str, ...], state: GameState) -> str:
    """Vary the wording by turn number: different from turn to turn, the same on every replay."""
    return options[state.turn_number % len(options)]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _effect_line(effect: Effect, mover: str, other: str, after: GameState) -> str:
    match effect:
        case PigOut(rule, points, ones):
            ones_text = "a 1" if ones == 1 else f"{ones} ones"
            result = "not a single point" if points == 0 else f"just {_plural(points, 'point')}"
            return f"{rule}! {ones_text.capitalize()} among {mover}'s dice: {result}."
        case ZeroDice(rule, points, why):
            return f"{rule}! {mover} rolls no dice and takes {_plural(points, 'point')} ({why})."
        case PrimeBoost(before, boosted):
            return f"Hogtimus Prime! {before} is prime, so it becomes {boosted}."
        case PiggyBack(gain):
            return f"Piggy Back: {mover} scored nothing, so {other} picks up {_plural(gain, 'point')}."
        case HogPile(bonus):
            return f"Hog Pile! Both totals end in {bonus}: {mover} piles on {bonus} more."
        case Swap("Pork Chop", had, they_had) if had == they_had:
            return f"Pork Chop! {mover} trades {had} for {other}'s {they_had}: nothing changes, and the chop is spent."
        case Swap("Pork Chop", had, they_had):
            return f"Pork Chop! {mover} trades {had} for {other}'s {they_had}."
        case Swap(rule, had, they_had):
            return f"{rule}! {mover} had {had} and {other} {they_had}: they trade totals."
        case Gain(rule, to_mover, before, total, why):
            return f"{rule}! {why}: {mover if to_mover else other} goes from {before} to {total}."
        case ExtraTurn(rule):
            dice = " on eight-sided dice" if after.sides() == 8 else ""
            reason = {
                "More Boar": f"{mover} trails on both leading digits and goes again{dice}.",
                "Time Trot": f"{mover} matched the turn number and goes again{dice}.",
                "Pig Pass": f"{mover} trails by 1 or 2 and goes again{dice}.",
                "Swine Align": f"the totals share a factor of 10 or more, so {mover} goes again{dice}.",
            }
            return f"{rule}! {reason.get(rule, f'{mover} goes again{dice}.')}"
    raise AssertionError(f"no words for {effect!r}")  # pragma: no cover - every Effect is matched


def describe_turn(before: GameState, after: GameState) -> tuple[Lines, Commentary]:
    """What was rolled and which rules fired, in the order they fired."""
    turn = after.last_turn
    if turn is None:
        return (), describe_turn
    mover, other = _name(after, turn.seat), _name(after, 1 - turn.seat)
    lines: list[str] = []
    if turn.sides == 4 and turn.outcomes:
        lines.append(f"Hog Wild! The totals sum to a multiple of 7, so {mover} rolls four-sided dice.")
    if turn.k == PORK_CHOP and turn.outcomes:
        lines.append(f"{mover}'s Pork Chop is already spent, so that's 10 dice.")
    effects = list(felt(turn.resolution.effects))  # a swap of equal totals changes nothing, and is not told
    if turn.outcomes:
        dice = ", ".join(map(str, turn.outcomes))
        pigged = any(isinstance(e, PigOut) for e in effects)
        lines.append(f"{mover} rolls {dice}." if pigged else f"{mover} rolls {dice} for {sum(turn.outcomes)}.")
    if after.is_over:  # the winning turn ends the game: nobody goes again
        effects = [e for e in effects if not isinstance(e, ExtraTurn)]
    lines += (_effect_line(e, mover, other, after) for e in effects)
    return tuple(lines), describe_turn


def announce_end(before: GameState, after: GameState) -> tuple[Lines, Commentary]:
    """The win (and a close finish), or a draw at the turn limit."""
    if after.status is Status.DRAWN:
        return (f"After {after.turn_number} turns nobody has reached {after.goal}: it's a draw.",), announce_end
    if after.status is not Status.FINISHED or after.winner is None or after.forfeited_by is not None:
        return (), announce_end
    w = after.winner
    win, lose = after.scores[w], after.scores[1 - w]
    cheer = _pick(("🏆 {} wins {} to {}!", "🏆 Game over: {} wins, {} to {}."), after)
    lines = [cheer.format(_name(after, w), win, lose)]
    if after.goal > win - lose > 0 and lose >= after.goal - 5:
        lines.append(f"What a finish: {_name(after, 1 - w)} was only {after.goal - lose} away.")
    return tuple(lines), announce_end


class _Comebacks(_Commentary, frozen=True, gc=False):
    worst: tuple[int, int]
    threshold: int

    def __call__(self, before: GameState, after: GameState) -> tuple[Lines, Commentary]:
        s0, s1 = after.scores
        deficits = (max(self.worst[0], s1 - s0), max(self.worst[1], s0 - s1))
        lines: Lines = ()
        for seat, deficit in enumerate(deficits):
            if deficit >= self.threshold and after.scores[seat] > after.scores[1 - seat]:
                lines = (f"Comeback! {_name(after, seat)} was {deficit} behind and now leads.",)
                deficits = (0, deficits[1]) if seat == 0 else (deficits[0], 0)
        return lines, _Comebacks(deficits, self.threshold)


def announce_comebacks(worst: tuple[int, int] = (0, 0), threshold: int = 20) -> Commentary:
    """Celebrate a player taking the lead after trailing by ``threshold`` or more."""
    return _Comebacks(worst, threshold)


class _Streaks(_Commentary, frozen=True, gc=False):
    runs: tuple[int, int]
    big: int
    length: int

    def __call__(self, before: GameState, after: GameState) -> tuple[Lines, Commentary]:
        turn = after.last_turn
        if turn is None:
            return (), self
        seat = turn.seat
        run = self.runs[seat] + 1 if turn.resolution.points >= self.big else 0
        runs = (run, self.runs[1]) if seat == 0 else (self.runs[0], run)
        lines: Lines = ()
        if run >= self.length:
            lines = (f"{_name(after, seat)} is on a roll: {run} turns in a row of {self.big}+ points.",)
        return lines, _Streaks(runs, self.big, self.length)


def announce_streaks(runs: tuple[int, int] = (0, 0), big: int = 10, length: int = 3) -> Commentary:
    """Notice a player scoring ``big`` or more on ``length`` of their own turns in a row."""
    return _Streaks(runs, big, length)


RECORD_AT_LEAST = 10
"""The bot cheers a player's biggest gain yet only from this many points (never a 1-point Pig Out)."""

MAX_LINES = 6
"""At most this many lines a turn; the ending takes up to two of them."""


def default_commentary() -> Commentary:
    """The bot's commentary: the turn, lead changes, comebacks, records and streaks, bounded so the
    turn stays readable, then the ending (never cut off).
    """
    story: Commentary = describe_turn
    for extra in (
        announce_lead_changes(),
        announce_comebacks(),
        announce_highest(0, least=RECORD_AT_LEAST, course=False),
        announce_highest(1, least=RECORD_AT_LEAST, course=False),
        announce_streaks(),
    ):
        story = both(story, extra)
    return both(at_most(MAX_LINES - 2, story), announce_end)


# --- a whole game ----------------------------------------------------------------------------------


def _event_lines(event: Event, after: GameState) -> Lines:
    """Lines for the events that are not turns."""
    match event:
        case GameCreated(goal=goal, challenge=challenge):
            a, b, what = _name(after, 0), _name(after, 1), f"Hog ({after.rules.id}, first to {goal})"
            return (f"{a} challenges {b} to {what}." if challenge else f"{a} and {b} start a game of {what}.",)
        case ChallengeAccepted():
            return (f"{_name(after, 1)} accepts. {_name(after, after.mover)} moves first.",)
        case ChallengeDeclined():
            return (f"{_name(after, 1)} declines the challenge.",)
        case ChallengeExpired():
            return ("Nobody answered: the challenge has expired.",)
        case GameVoided():
            return ("The game is called off: its board could not be shown, so nobody wins or loses.",)
        case GameForfeited(seat, reason):
            why = "runs out of time" if reason == "timeout" else "resigns"
            w = 1 - seat
            score = f"{after.scores[w]} to {after.scores[seat]}"
            return (f"{_name(after, seat)} {why}: {_name(after, w)} wins ({score}).",)
    return ()


def narrate(events: Iterable[Event], commentary: Commentary | None = None) -> Iterator[tuple[Event, GameState, Lines]]:
    """Replay ``events``, yielding each event with the state after it and its lines."""
    for event, state, lines, _ in _telling(
        GameState(), default_commentary() if commentary is None else commentary, events
    ):
        yield event, state, lines


Told = tuple[Event, GameState, Lines]
"""An event, the game after it, and its lines."""
Story = tuple[GameState, Commentary]
"""Where a telling stands: the game, and the commentary that will speak next (the course's
commentary functions return their successor, so a story resumes where it stopped)."""


def tell(story: Story | None, events: Iterable[Event]) -> tuple[Story, list[Told]]:
    """``events`` told after ``story`` (``None``: from the start), and the story after them: a long
    game's new move is told without telling the game again."""
    at: Story = (GameState(), default_commentary()) if story is None else story
    told: list[Told] = []
    for event, state, lines, say in _telling(*at, events):
        told.append((event, state, lines))
        at = (state, say)
    return at, told


def _telling(
    state: GameState, say: Commentary, events: Iterable[Event]
) -> Iterator[tuple[Event, GameState, Lines, Commentary]]:
    for event in events:
        before, state = state, evolve(state, event)
        if isinstance(event, TurnTaken):
            lines, say = say(before, state)
        else:
            lines = _event_lines(event, state)
        yield event, state, lines, say
