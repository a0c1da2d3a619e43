"""The board: what a player sees of a game after each turn, for any front end.

``Board`` holds the facts (pure data, derived from the game); ``text`` renders them for a
terminal. Discord renders the same facts as an embed.
"""

from __future__ import annotations

from dataclasses import dataclass

from hog_core.commentary import Lines
from hog_core.game import PORK_CHOP, GameState, Status
from hog_core.rulesets import RULE_SETS
from hog_core.solver import Solution
from hog_core.strategies import ENTRY


@dataclass(frozen=True)
class Board:
    title: str
    totals: tuple[tuple[str, int], ...]
    """Each player's name and total, in seat order."""
    chances: tuple[float, float] | None
    """Each seat's chance to win under perfect play, when known."""
    story: Lines
    """The last command's events told in order, its dice among them: never a turn from before."""
    status: str
    """Whose turn it is, or how the game ended."""


def rules_name(rules: str) -> str:
    """``Fall 2018`` for ``fa18``: a rule set's semester, without its list of rules."""
    try:
        return RULE_SETS[rules].name.split(":")[0]  # a rule set of one's own says what it is without
    except KeyError:
        return rules


CHANCE_MEANING = "perfect play"
"""What a win chance assumes: both players make the best move from here on. (Against a perfect
opponent a player 20 behind can still be near 50% in fa18, where Swine Swap keeps games open.)"""


def percent(chance: float) -> str:
    """A win chance to a tenth of a percent: ``49.8%`` beside ``50.2%``, never ``50% · 50%``. Only a
    certainty is ``100%`` (or ``0%``): a chance short of it says ``99.9%`` at most."""
    if chance >= 1 or chance <= 0:
        return "100%" if chance >= 1 else "0%"
    tenths = min(999, max(1, round(1000 * chance)))
    return f"{tenths // 10}.{tenths % 10}%"


def board(state: GameState, story: Lines = (), chances: tuple[float, float] | None = None) -> Board:
    house = next((p for p in state.players if p.house), None)
    plays = "" if house is None else f" · the house plays {house.house}"
    if house is not None and house.house == ENTRY:
        plays = f" · the house plays the contest entry {house.name}"
    return Board(
        title=f"Hog · {state.rules.name} · first to {state.goal}{plays}",
        totals=tuple((p.name, state.scores[i]) for i, p in enumerate(state.players)),
        chances=chances,
        story=story,
        status=_status(state),
    )


def hint(state: GameState, solution: Solution | None) -> str:
    """The best move for the player to move, and their chance with it, asked for by a player."""
    if state.status is not Status.ACTIVE:
        return "There is no move to hint at: the game is not being played."
    if solution is None:
        return "No hints in this game: its goal is past what is solved for perfect play."
    name, k = state.players[state.mover].name, solution.best_move(state)
    move = (
        "use Pork Chop" if k == PORK_CHOP else "roll no dice" if k == 0 else f"roll {k} {'die' if k == 1 else 'dice'}"
    )
    chance = solution.win_chances(state)[state.mover]
    return f"Best move for {name}: {move}. With {CHANCE_MEANING} from here, {name} wins {percent(chance)} of games."


def _status(state: GameState) -> str:
    names = [p.name for p in state.players]
    match state.status:
        case Status.CHALLENGED:
            return f"Waiting for {names[1]} to accept."
        case Status.ACTIVE:
            extra = " (an extra turn)" if state.is_extra else ""
            return f"{names[state.mover]} to move{extra}."
        case Status.FINISHED if state.winner is not None:
            if state.forfeited_by is not None:
                return f"{names[state.winner]} won: {names[state.forfeited_by]} forfeited."
            return f"{names[state.winner]} won."
        case Status.DRAWN:
            return "A draw."
        case Status.DECLINED:
            return f"{names[1]} declined."
        case Status.EXPIRED:
            return "The challenge expired."
        case Status.VOIDED:
            return "Called off: nobody won or lost."
    return ""


def text(b: Board) -> str:
    """The board for a terminal."""
    lines = [f"── {b.title} ──"]
    lines += [f"  {line}" for line in b.story]
    totals = " · ".join(f"{name} {total}" for name, total in b.totals)
    if b.chances is not None:
        totals += f"    win chance ({CHANCE_MEANING}) {percent(b.chances[0])} · {percent(b.chances[1])}"
    lines += [f"  {totals}", f"  {b.status}"]
    return "\n".join(lines)
