"""Puzzles from the solved game: positions where one move is clearly best and the natural one is not.

A position is a puzzle when the best move's exact chance of winning beats every other legal move's
by at least ``MARGIN`` (two points of chance: less is a matter of taste, not a lesson; it is also
about the smallest difference a player feels over an evening of games), and the course's baseline
strategy (always roll ``BASELINE`` dice) plays another. Each keeps every fact of the position the
rules depend on, every move's chance, its answer and a theme: what decides it, in the course's
words (the zero-dice rule, Swine Swap, Pork Chop, an extra turn, the goal in reach, protecting a
lead, Pig Out's risk, taking a risk). Pure: the chances come in (``Reviewer.move_values``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from hog_core.effects import ExtraTurn, Swap, ZeroDice
from hog_core.events import Event, Player, TurnTaken
from hog_core.game import PORK_CHOP, CreateGame, GameState, TakeTurn, decide, evolve, replay
from hog_core.rulesets import RULE_SETS
from hog_core.strategies import BASELINE
from hog_core.turn import Turn

MARGIN = 0.02
"""How much better than every other move the best must be (in chance of winning)."""
NEAR_GOAL = 12
"""Points from the goal within which the goal is in reach (a good roll of three or four dice)."""
LEAD = 15
"""A lead worth protecting."""


@dataclass(frozen=True)
class Puzzle:
    rules: str
    goal: int
    scores: tuple[int, int]
    """The mover's total, then the opponent's."""
    mover: int
    turn_number: int
    is_extra: bool
    """The mover is playing an extra turn."""
    chop: tuple[bool, bool]
    """Whether the mover, then the opponent, may still use Pork Chop."""
    answer: int
    """The best move (``-1``: Pork Chop)."""
    chances: Mapping[int, float]
    """Every legal move's chance of winning, both sides playing perfectly afterwards."""
    theme: str
    natural: int
    """What the course's baseline plays here."""
    source: str | None = None
    """The game it comes from, when it does."""
    memory: tuple[int, int] = (0, 0)
    """What Feral Hogs remembers of the mover's last turn, then the opponent's (its dice or points)."""

    @property
    def facts(self) -> Facts:
        return Facts(self.rules, self.goal, self.scores, self.turn_number, self.is_extra, self.chop, self.memory)

    @property
    def id(self) -> str:
        """The position, which is all a puzzle is: ``fa18-100-45-60-12-010`` (rules, goal, the mover's
        total, the opponent's, the turn, then ``1``/``0`` for an extra turn and each side's Pork Chop),
        and ``-m3.5`` after it where Feral Hogs remembers something of the last turns."""
        return puzzle_id(self.facts)

    @property
    def margin(self) -> float:
        """How much better the answer is than the next best move."""
        best = self.chances[self.answer]
        return best - max((v for k, v in self.chances.items() if k != self.answer), default=0.0)


@dataclass(frozen=True)
class Facts:
    """What a position is, for a puzzle: its id says these and nothing else."""

    rules: str
    goal: int
    scores: tuple[int, int]
    turn_number: int
    is_extra: bool
    chop: tuple[bool, bool]
    memory: tuple[int, int] = (0, 0)


def puzzle_id(facts: Facts) -> str:
    flags = "".join("1" if f else "0" for f in (facts.is_extra, *facts.chop))
    mine, theirs = facts.scores
    remembered = f"-m{facts.memory[0]}.{facts.memory[1]}" if facts.memory != (0, 0) else ""
    return f"{facts.rules}-{facts.goal}-{mine}-{theirs}-{facts.turn_number}-{flags}{remembered}"


ID = re.compile(
    r"(?P<rules>[a-z0-9_]{1,16})-(?P<goal>\d{1,4})-(?P<mine>\d{1,4})-(?P<theirs>\d{1,4})-(?P<turn>\d{1,4})-(?P<flags>[01]{3})"
    r"(?:-m(?P<kept>\d{1,2})\.(?P<their_kept>\d{1,2}))?"
)


def facts_of(text: str) -> Facts | None:
    """The facts a puzzle's id names, or ``None`` when it is no position of a known rule set (scores
    below the goal): an id from a link or a button is checked before it is judged."""
    found = ID.fullmatch(text)
    if found is None or found["rules"] not in RULE_SETS:
        return None
    goal, mine, theirs = int(found["goal"]), int(found["mine"]), int(found["theirs"])
    if not (goal > 0 and mine < goal and theirs < goal):
        return None
    extra, *chop = (f == "1" for f in found["flags"])
    if any(chop) and not RULE_SETS[found["rules"]].pork_chop:
        return None
    memory = (int(found["kept"] or 0), int(found["their_kept"] or 0))
    if memory != (0, 0) and RULE_SETS[found["rules"]].history is None:
        return None
    return Facts(found["rules"], goal, (mine, theirs), int(found["turn"]), extra, (chop[0], chop[1]), memory)


def memory_words(puzzle: Puzzle) -> str:
    """What Feral Hogs remembers, for a puzzle's line: `` · last turn you rolled 3 dice, they 5``."""
    history = RULE_SETS[puzzle.rules].history
    if history is None:
        return ""
    mine, theirs = puzzle.memory
    if history.remembers == "dice":
        return f" · last turn you rolled {mine} {'die' if mine == 1 else 'dice'}, they {theirs}"
    return f" · last turn you scored {mine}, they {theirs}"


def as_json(puzzle: Puzzle) -> dict[str, object]:
    """A puzzle for scripts (``python -m bot puzzle --json``): scores and Pork Chop the mover's first."""
    chop = RULE_SETS[puzzle.rules].pork_chop
    return {
        "id": puzzle.id,
        "rules": puzzle.rules,
        "goal": puzzle.goal,
        "scores": list(puzzle.scores),
        "mover": puzzle.mover,
        "turn": puzzle.turn_number,
        "extra_turn": puzzle.is_extra,
        "pork_chop_left": list(puzzle.chop) if chop else None,
        "feral_hogs_memory": list(puzzle.memory) if RULE_SETS[puzzle.rules].history is not None else None,
        "answer": "chop" if puzzle.answer == PORK_CHOP else puzzle.answer,
        "chances": {("chop" if k == PORK_CHOP else str(k)): round(v, 6) for k, v in sorted(puzzle.chances.items())},
        "margin": round(puzzle.margin, 6),
        "theme": puzzle.theme,
        "game": puzzle.source,
    }


def zero_dice(rules: str, score: int, opponent_score: int) -> Turn:
    """What rolling zero dice does here (the rule set's own rules)."""
    return RULE_SETS[rules].resolve(Turn(cur=score, opp=opponent_score, k=0, outcomes=()))


def theme(state: GameState, answer: int, natural: int) -> str:
    """What decides the position, in the course's words."""
    m = state.mover
    mine, theirs = state.scores[m], state.scores[1 - m]
    if answer == PORK_CHOP:
        return "Pork Chop"
    if answer == 0:
        effects = zero_dice(state.rules.id, mine, theirs).effects
        named = [e.rule for e in effects if isinstance(e, Swap | ExtraTurn)]
        named += [e.rule for e in effects if isinstance(e, ZeroDice)]
        return named[0] if named else "zero dice"
    if state.is_extra:
        return "an extra turn"
    if state.goal - mine <= NEAR_GOAL or state.goal - theirs <= NEAR_GOAL:
        return "the goal in reach"
    if answer < natural:
        return "protecting a lead" if mine - theirs >= LEAD else "Pig Out's risk"
    return "taking a risk"


def move_words(k: int) -> str:
    return "Pork Chop" if k == PORK_CHOP else f"{k} {'die' if k == 1 else 'dice'}"


def why(puzzle: Puzzle) -> str:
    """A sentence saying why the best move is best here, with the numbers that make it so."""
    mine, theirs = puzzle.scores
    best, k = puzzle.chances[puzzle.answer], puzzle.answer
    second = max((m for m in puzzle.chances if m != k), key=lambda m: puzzle.chances[m])
    numbers = (
        f"{move_words(k)} wins {best:.1%}, {puzzle.margin * 100:.1f} points more than the next best "
        f"({move_words(second)}, {puzzle.chances[second]:.1%})"
    )
    if k == 0:
        turn = RULE_SETS[puzzle.rules].resolve(
            Turn(cur=mine, opp=theirs, k=0, outcomes=(), turn_number=puzzle.turn_number, is_extra=puzzle.is_extra)
        )
        parts = [f"{e.rule} scores {e.points} for sure" for e in turn.effects if isinstance(e, ZeroDice)]
        parts += [f"{e.rule} swaps the totals" for e in turn.effects if isinstance(e, Swap)]
        parts += [f"{e.rule} gives an extra turn" for e in turn.effects if isinstance(e, ExtraTurn)]
        said = f"Rolling no dice here, {' and '.join(parts) or f'you score {turn.points}'}, with no risk of Pig Out"
        return f"{said}: {numbers}."
    reasons = {
        "Pork Chop": "Pork Chop swaps the totals, once a game: now is when it pays most",
        "an extra turn": "This turn is an extra one: the dice that make the most of it",
        "the goal in reach": f"The goal is {puzzle.goal - mine} away for you, {puzzle.goal - theirs} for your opponent",
        "protecting a lead": f"{_points(mine - theirs)} ahead, fewer dice keep Pig Out from costing you the lead",
        "Pig Out's risk": "Every die rolled is another chance of a 1 (Pig Out): fewer is better here",
        "taking a risk": f"{'Behind' if mine < theirs else 'Level or ahead'}, more dice take the risk needed here",
    }
    return f"{reasons.get(puzzle.theme, puzzle.theme)}: {numbers}."


def puzzle_at(state: GameState, chances: Mapping[int, float], source: str | None = None) -> Puzzle | None:
    """The position as a puzzle, or ``None`` when no move is clearly best or the natural one is it."""
    if state.is_over or len(chances) < 2:
        return None
    answer = max(chances, key=lambda k: chances[k])
    others = max(v for k, v in chances.items() if k != answer)
    natural = BASELINE if BASELINE in chances else max(k for k in chances if k != PORK_CHOP)
    if chances[answer] - others < MARGIN or natural == answer:
        return None
    return posed(state, chances, answer, natural, source)


def posed(state: GameState, chances: Mapping[int, float], answer: int, natural: int, source: str | None) -> Puzzle:
    """``state`` as a puzzle whose answer is ``answer`` (and whose natural move is ``natural``)."""
    m = state.mover
    return Puzzle(
        state.rules.id,
        state.goal,
        (state.scores[m], state.scores[1 - m]),
        m,
        state.turn_number,
        state.is_extra,
        (state.chop_available(m), state.chop_available(1 - m)),
        answer,
        dict(chances),
        theme(state, answer, natural),
        natural,
        source,
        (state.remembered[m], state.remembered[1 - m]),
    )


TRAINED = 0.05
"""The chance of winning a move must have cost for the trainer to serve it back (five points)."""


def mistake(
    events: Sequence[Event], version: int, values_of: Callable[[GameState], Mapping[int, float]], source: str | None
) -> Puzzle | None:
    """The position before the game's event ``version`` (a ``TurnTaken``) as a puzzle whose answer is
    the best move and whose natural move is the one played, if it lost ``TRAINED`` of the mover's
    chance or more; ``None`` otherwise."""
    event = events[version - 1] if 0 < version <= len(events) else None
    if not isinstance(event, TurnTaken):
        return None
    before = replay(events[: version - 1]) if version > 1 else GameState()
    chances = dict(values_of(before))
    answer = max(chances, key=lambda k: chances[k])
    if event.k not in chances or chances[answer] - chances[event.k] < TRAINED:
        return None
    return posed(before, chances, answer, event.k, source)


def played(
    rules: str,
    goal: int,
    game_id: str,
    choose: Callable[[GameState], int],
    roll: Callable[[int, int], tuple[int, ...]],
) -> Iterator[GameState]:
    """Every position of one game to ``goal``, each move ``choose``'s and each roll ``roll(count,
    sides)``'s (the dice come from outside: the core draws none)."""
    state = GameState()
    for event in decide(state, CreateGame(game_id, (Player("a", "A"), Player("b", "B")), rules=rules, goal=goal)):
        state = evolve(state, event)
    while not state.is_over:
        yield state
        k = choose(state)
        dice = state.dice_for(k)
        for event in decide(state, TakeTurn(state.players[state.mover].id, k, roll(dice.count, dice.sides))):
            state = evolve(state, event)


def before_turns(events: Iterable[Event]) -> list[GameState]:
    """The position before each turn a game's ``events`` tell."""
    found, state = [], GameState()
    for event in events:
        if isinstance(event, TurnTaken):
            found.append(state)
        state = evolve(state, event)
    return found


def mined(positions: Iterable[tuple[GameState, Mapping[int, float], str | None]]) -> Iterator[Puzzle]:
    """The puzzles among ``positions`` (each a state, every move's chance, and its game), each
    position once."""
    seen: set[tuple[object, ...]] = set()
    for state, chances, source in positions:
        found = puzzle_at(state, chances, source)
        if found is None:
            continue
        key = (found.rules, found.goal, found.scores, found.turn_number, found.is_extra, found.chop, found.memory)
        if key not in seen:
            seen.add(key)
            yield found


def _points(n: int) -> str:
    return f"{n} point{'s' * (n != 1)}"
