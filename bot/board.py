"""The board: what a player sees of a game after each turn, for any front end.

``Board`` holds the facts (pure data, derived from the game); ``text`` renders them for a
terminal. Discord renders the same facts as an embed.
"""

from __future__ import annotations

from dataclasses import dataclass

from hog_core.commentary import Lines
from hog_core.game import PORK_CHOP, GameState, Status
from hog_core.rulesets import RULE_SETS

FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


@dataclass(frozen=True)
class Board:
    title: str
    totals: tuple[tuple[str, int], ...]
    """Each player's name and total, in seat order."""
    chances: tuple[float, float] | None
    """Each seat's chance to win under perfect play, when known."""
    last_roll: str
    story: Lines
    status: str
    """Whose turn it is, or how the game ended."""


def rules_name(rules: str) -> str:
    """``Fall 2018`` for ``fa18``: a rule set's semester, without its list of rules."""
    return RULE_SETS[rules].name.split(":")[0] if rules in RULE_SETS else rules


def dice_faces(outcomes: tuple[int, ...], sides: int) -> str:
    """Dice as faces (``⚄ ⚂``); four- and eight-sided dice as numbers, with their sides."""
    if sides == 6:
        return " ".join(FACES[o] for o in outcomes)
    return " ".join(map(str, outcomes)) + f" (d{sides})"


def board(state: GameState, story: Lines = (), chances: tuple[float, float] | None = None) -> Board:
    last = state.last_turn
    if last is None:
        roll = ""
    elif not last.outcomes:
        name = state.players[last.seat].name
        roll = f"{name} used Pork Chop" if last.k == PORK_CHOP else f"{name} rolled no dice"
    else:
        roll = f"{state.players[last.seat].name} rolled {dice_faces(last.outcomes, last.sides)}"
    return Board(
        title=f"Hog · {state.rules.name} · first to {state.goal}",
        totals=tuple((p.name, state.scores[i]) for i, p in enumerate(state.players)),
        chances=chances,
        last_roll=roll,
        story=story,
        status=_status(state),
    )


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
    return ""


def text(b: Board) -> str:
    """The board for a terminal."""
    lines = [f"── {b.title} ──"]
    if b.last_roll:
        lines.append(f"  {b.last_roll}")
    lines += [f"  {line}" for line in b.story]
    totals = " · ".join(f"{name} {total}" for name, total in b.totals)
    if b.chances is not None:
        totals += f"    win chance {b.chances[0]:.0%} · {b.chances[1]:.0%}"
    lines += [f"  {totals}", f"  {b.status}"]
    return "\n".join(lines)
