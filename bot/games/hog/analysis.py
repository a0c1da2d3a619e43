"""A Hog game's exact review (``hog_core.review``) in words: each player's accuracy and worst moves,
and every move with the chance it kept; or, for scripts, as JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.games.hog.board import percent
from hog_core.events import Event, TurnTaken
from hog_core.game import GameState, replay
from hog_core.review import MoveReview, accuracy

VERDICTS = ("blunder", "mistake", "inaccuracy")
PLURALS = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}


def dice_words(k: int) -> str:
    return "Pork Chop" if k == -1 else f"{k}"


def worst(moves: Sequence[MoveReview]) -> MoveReview | None:
    """The move that gave away the most, if any gave away something worth a name."""
    found = max(moves, key=lambda m: m.loss, default=None)
    return found if found is not None and found.verdict in VERDICTS else None


def hundredths(moves: Sequence[MoveReview]) -> int:
    """A seat's accuracy in hundredths of a percent, as kept with its row: every place words this
    number (``accuracy_words``), so the review, the web page and the stats say the same."""
    return round(100 * accuracy(moves))


def perfect(moves: Sequence[MoveReview]) -> bool:
    return all(m.verdict == "best" for m in moves)


def accuracy_words(total: int, games: int = 1, flawless: bool = False) -> str:
    """The mean of ``games`` accuracies adding up to ``total`` hundredths of a percent, to a tenth,
    rounded half up in whole numbers: ``96.8%``. ``100%`` only when ``flawless`` (every move best):
    a player who gave away a little says ``99.9%`` at most, never a rounded-up ``100``."""
    if flawless:
        return "100%"
    tenths = min(999, (total + 5 * games) // (10 * games))
    return f"{tenths // 10}.{tenths % 10}%"


def player_line(name: str, moves: Sequence[MoveReview]) -> str:
    """``Ann 96.4% accuracy, 1 blunder: turn 12, rolled 9 at 88-95, best 2 (−21%)``."""
    counts = [(verdict, sum(m.verdict == verdict for m in moves)) for verdict in VERDICTS]
    named = ", ".join(f"{n} {v if n == 1 else PLURALS[v]}" for v, n in counts if n)
    shown = accuracy_words(hundredths(moves), flawless=perfect(moves))
    line = f"{name} {shown} accuracy".strip() + (f", {named}" if named else "")
    bad = worst(moves)
    if bad is not None:
        best = " or ".join(dice_words(k) for k in bad.best[:2])
        line += (
            f": turn {bad.turn + 1}, rolled {dice_words(bad.dice)} at {bad.scores[0]}–{bad.scores[1]}, "
            f"best {best} (−{100 * bad.loss:.0f}%)"
        )
    return line


def facts(moves: Sequence[MoveReview]) -> dict[str, int]:
    """A seat's review as whole numbers kept with its row (none when it made no move): ``reviewed``
    (1), its ``accuracy`` and the chance its ``worst`` move lost, in hundredths of a percent,
    ``perfect`` (1 when every move was best), and how many ``blunders``, ``mistakes`` and ``inaccuracies`` it made."""
    if not moves:
        return {}
    counts = {PLURALS[v]: sum(m.verdict == v for m in moves) for v in VERDICTS}
    bad = worst(moves)
    return {
        "reviewed": 1,
        "accuracy": hundredths(moves),
        "perfect": int(perfect(moves)),
        "worst": round(10_000 * bad.loss) if bad else 0,
    } | counts


def move_words(m: MoveReview) -> str:
    """One move as a replay step shows it: ``inaccuracy: 0 dice, best 10 (−4%)``, or ``best move``."""
    if m.verdict == "best":
        return f"best move ({percent(m.chance_played)} to win)"
    best = " or ".join(dice_words(k) for k in m.best[:2])
    return f"{m.verdict}: {dice_words(m.dice)} dice, best {best} (−{100 * m.loss:.1f}%)"


def moves_by_step(events: Sequence[Event], moves: Sequence[MoveReview]) -> list[MoveReview | None]:
    """Each event's move as reviewed (a turn's), ``None`` for an event that is no turn."""
    turns = iter(moves)
    return [next(turns, None) if isinstance(event, TurnTaken) else None for event in events]


def remarks(events: Sequence[Event], moves: Sequence[MoveReview], step: int) -> tuple[str, ...]:
    """Each player's accuracy line, then the move of step ``step`` (from 1) when it is a turn."""
    names = [p.name for p in replay(events).players]
    lines = [player_line(names[seat], [m for m in moves if m.mover == seat]) for seat in (0, 1)]
    move = moves_by_step(events, moves)[step - 1]
    return (*lines, *([f"This move: {move_words(move)}"] if move is not None else []))


def move_line(m: MoveReview, names: Sequence[str]) -> str:
    """One move in a list of them: its turn, who, the totals, and what it kept."""
    return f"{m.turn + 1}. {names[m.mover]} at {m.scores[0]}–{m.scores[1]}: {move_words(m)}"


def review_text(state: GameState, moves: Sequence[MoveReview]) -> str:
    names = [p.name for p in state.players]
    head = [f"{state.game_id} · {state.rules.name} · first to {state.goal}: {names[0]} v {names[1]}"]
    head += [player_line(names[seat], [m for m in moves if m.mover == seat]) for seat in (0, 1)]
    header = ("turn", "mover", "totals", "dice", "best", "chance", "kept", "verdict", "luck")
    rows = ["{:>4}  {:<12} {:>8}  {:>9}  {:<12} {:>6} {:>6}  {:<10} {:>6}".format(*header)]
    for m in moves:
        best = ",".join(dice_words(k) for k in m.best)
        rows.append(
            f"{m.turn + 1:>4}  {names[m.mover][:12]:<12} {m.scores[0]:>3}–{m.scores[1]:<4}  {dice_words(m.dice):>9}  "
            f"{best[:12]:<12} {m.chance_best:>6.1%} {m.chance_played:>6.1%}  {m.verdict:<10} {m.luck:>+6.1%}"
        )
    return "\n".join([*head, "", *rows])


def review_json(moves: Sequence[MoveReview]) -> str:
    """One object per move, in order; every chance the mover's, under the game's own rules and goal."""
    return json.dumps(
        [
            {
                "turn": m.turn,
                "mover": m.mover,
                "scores": list(m.scores),
                "dice": m.dice,
                "best": list(m.best),
                "chance_best": m.chance_best,
                "chance_played": m.chance_played,
                "chance_after": m.chance_after,
                "verdict": m.verdict,
            }
            for m in moves
        ]
    )
