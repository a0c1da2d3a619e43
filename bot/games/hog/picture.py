"""The whole game at a glance, as a picture: both totals turn by turn, with every swap, extra turn
and the ending marked, and below them each player's chance to win under perfect play.

``chart`` reads the facts from the game's log (pure); ``render`` draws them with Pillow as a PNG,
``animate`` as a GIF that builds up turn by turn. Drawing is at twice the size, then halved:
Pillow's cheap way to smooth lines.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image

from bot.games.hog.board import rules_name
from bot.platform.drawing import BACKGROUND, GRID, MUTED, PANEL, TEXT, WIDTH, Canvas, drawable, ticks
from hog_core.effects import Swap, felt
from hog_core.events import Event, TurnTaken
from hog_core.game import GameState, Status, evolve
from hog_core.review import MoveReview
from hog_core.solver import Solution

Chances = tuple[float, float]

SEATS = ((108, 124, 255), (250, 166, 26))
"""Blue and orange: told apart by everyone, colour-blind players included."""
GOLD = (255, 215, 64)
SWAP = (240, 240, 240)
FORFEIT = (237, 66, 69)
SLIPS = ("mistake", "blunder")


@dataclass(frozen=True, slots=True)
class Mark:
    """One turn on the chart."""

    turn: int
    seat: int
    scores: tuple[int, int]
    swap: bool
    extra: bool
    """The turn earned its mover another one."""
    chances: Chances | None
    """Each seat's chance to win after the turn, when the rule set and goal are solved."""
    slip: str | None = None
    """``mistake`` or ``blunder`` when the exact review calls the turn's move so (marked on the chances)."""


@dataclass(frozen=True, slots=True)
class Chart:
    names: tuple[str, str]
    rules: str
    goal: int
    start: Chances | None
    """The chances before the first turn."""
    turns: tuple[Mark, ...]
    status: Status
    winner: int | None
    forfeited_by: int | None
    scores: tuple[int, int]


def chart(
    events: Iterable[Event],
    chances: Callable[[GameState], Chances | None],
    review: Sequence[MoveReview] = (),
) -> Chart:
    """The chart of a game from its log; ``chances`` gives each seat's chance to win in a state, and
    ``review`` (the game's exact review, when there is one) the mistakes and blunders to mark."""
    turns = []
    start: Chances | None = None
    state = GameState()
    slips = iter(review)
    for event in events:
        state = evolve(state, event)
        if isinstance(event, TurnTaken) and state.last_turn is not None:
            done = state.last_turn.resolution
            swap = any(isinstance(e, Swap) for e in felt(done.effects))
            reviewed = next(slips, None)
            slip = reviewed.verdict if reviewed is not None and reviewed.verdict in SLIPS else None
            turns.append(Mark(state.turn_number, event.seat, state.scores, swap, done.extra_turn, chances(state), slip))
        elif state.status is Status.ACTIVE and not turns:
            start = chances(state)
    names = (state.players[0].name, state.players[1].name)
    return Chart(names, state.rules.id, state.goal, start, tuple(turns), state.status, state.winner,
                 state.forfeited_by, state.scores)  # fmt: skip


def chart_of(
    events: Sequence[Event], solution: Solution | None, review: Sequence[MoveReview] = (), *, empty: bool = False
) -> Chart | None:
    """The chart of a game with its chances from ``solution`` when there is one (and its slips from
    ``review``); ``None`` before its first turn (there is nothing to draw), unless ``empty`` asks for
    the board as it stands then (both totals at 0: a web page's step before the first turn)."""
    c = chart(events, unknown_chances if solution is None else solution.win_chances, review)
    return c if c.turns or empty else None


def unknown_chances(state: GameState) -> None:
    """Win chances of a rule set and goal nobody solved (goals above the service's ``MAX_SOLVED_GOAL``)."""


def ending(c: Chart) -> str:
    names = [drawable(name, f"Player {seat + 1}") for seat, name in enumerate(c.names)]
    if c.status is Status.FINISHED and c.winner is not None:
        if c.forfeited_by is not None:
            return f"{names[c.winner]} won: {names[c.forfeited_by]} forfeited"
        return f"{names[c.winner]} won {c.scores[c.winner]} to {c.scores[1 - c.winner]}"
    if c.status is Status.DRAWN:
        return f"A draw at {c.scores[0]} to {c.scores[1]}"
    return f"After {len(c.turns)} turn{'s' if len(c.turns) != 1 else ''}"


def star(x: float, y: float, r: float) -> list[tuple[float, float]]:
    """A five-pointed star's corners, the points ``r`` from its centre."""
    radii = [r if i % 2 == 0 else r * 0.45 for i in range(10)]
    return [(x + radii[i] * math.sin(i * math.pi / 5), y - radii[i] * math.cos(i * math.pi / 5)) for i in range(10)]


def diamond(x: float, y: float, r: float) -> list[tuple[float, float]]:
    return [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]


LEFT, RIGHT = 64, WIDTH - 28
TOTALS_TOP, TOTALS_BOTTOM = 92, 362
CHANCES_TOP, CHANCES_BOTTOM = 410, 492


class Frame:
    """Where a turn, a total and a chance go in the picture of ``c`` (and of each of its animation's
    frames, which keep the whole game's scale)."""

    def __init__(self, c: Chart) -> None:
        self.turns = max(1, len(c.turns) and c.turns[-1].turn)
        self.top = max(c.goal, *c.scores, *(max(m.scores) for m in c.turns)) * 1.06

    def x(self, turn: float) -> float:
        return LEFT + (RIGHT - LEFT) * turn / self.turns

    def y(self, total: float) -> float:
        return TOTALS_BOTTOM - (TOTALS_BOTTOM - TOTALS_TOP) * total / self.top

    def yc(self, chance: float) -> float:
        return CHANCES_BOTTOM - (CHANCES_BOTTOM - CHANCES_TOP) * chance


def render(c: Chart, at: int | None = None) -> bytes:
    """The chart as a PNG of ``WIDTH`` x ``HEIGHT``; ``at`` highlights the totals after that turn."""
    out = io.BytesIO()
    _draw(c, Frame(c), at).save(out, "PNG", compress_level=1)  # a third bigger, twice as fast to encode
    return out.getvalue()


def animate(c: Chart, most: int = 60) -> bytes:
    """The game drawn turn by turn as an animated GIF (at most ``most + 1`` frames: a long game
    moves on several turns a frame), the last frame held."""
    frame, n = Frame(c), len(c.turns)
    cuts = sorted({round(i * n / min(n, most)) for i in range(min(n, most) + 1)}) if n else [0]
    images = [_draw(_until(c, k), frame) for k in cuts]
    out = io.BytesIO()
    durations = [600] + [200] * (len(images) - 2) + [4000] if len(images) > 1 else [4000]
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return out.getvalue()


def _until(c: Chart, k: int) -> Chart:
    """The chart after the first ``k`` of its turns, as it stood then."""
    if k >= len(c.turns):
        return c
    scores = c.turns[k - 1].scores if k else (0, 0)
    return dataclasses.replace(c, turns=c.turns[:k], status=Status.ACTIVE, winner=None, forfeited_by=None,
                               scores=scores)  # fmt: skip


@cache
def _common() -> Canvas:
    """What every Hog picture has, drawn once: the panels, the chances' grid and captions, the legend."""
    canvas = Canvas()
    canvas.rect((LEFT - 8, TOTALS_TOP - 12, RIGHT + 8, TOTALS_BOTTOM + 8), PANEL, 8)
    canvas.rect((LEFT - 8, CHANCES_TOP - 8, RIGHT + 8, CHANCES_BOTTOM + 8), PANEL, 8)
    for chance in (0, 0.5, 1):
        at = CHANCES_BOTTOM - (CHANCES_BOTTOM - CHANCES_TOP) * chance
        canvas.line([(LEFT, at), (RIGHT, at)], GRID)
        canvas.text(LEFT - 14, at, f"{chance:.0%}", 12, MUTED, "rm")
    canvas.text(LEFT - 14, CHANCES_BOTTOM + 14, "turn", 12, MUTED, "rt")
    canvas.text(LEFT - 8, CHANCES_TOP - 22, "chance to win with perfect play from here", 12, MUTED, "lm")
    # the legend
    lx = RIGHT - 250.0
    ly = 56
    canvas.polygon(diamond(lx, ly, 5), SWAP, BACKGROUND)
    lx += 10 + canvas.text(lx + 10, ly, "swap", 13, MUTED, "lm") + 20
    canvas.circle(lx, ly, 6, None, MUTED, 2)
    lx += 10 + canvas.text(lx + 10, ly, "extra turn", 13, MUTED, "lm") + 20
    canvas.polygon(star(lx, ly, 8), GOLD, BACKGROUND)
    canvas.text(lx + 12, ly, "win", 13, MUTED, "lm")
    return canvas


def _draw(c: Chart, frame: Frame, at: int | None = None) -> Image.Image:
    canvas = Canvas(_common())
    n, top, x, y, yc = frame.turns, frame.top, frame.x, frame.y, frame.yc

    # heading: who played what, and how it ended
    offset = 24.0
    for seat in (0, 1):
        canvas.circle(offset + 6, 26, 6, SEATS[seat])
        name = drawable(c.names[seat], f"Player {seat + 1}")
        offset += 18 + canvas.text(offset + 18, 26, f"{name}  {c.scores[seat]}", 20, TEXT, "lm") + 24
    canvas.text(RIGHT, 26, ending(c), 20, GOLD if c.winner is not None else TEXT, "rm")
    canvas.text(24, 56, f"{rules_name(c.rules)} · first to {c.goal}", 14, MUTED, "lm")

    # the totals' grid and the goal, the turns (the panels, the chances' grid and the legend are common)
    for total in ticks(top):
        canvas.line([(x(0), y(total)), (x(n), y(total))], GRID)
        canvas.text(LEFT - 14, y(total), str(total), 12, MUTED, "rm")
    canvas.dashed((x(0), y(c.goal)), (x(n), y(c.goal)), GOLD)
    canvas.text(x(0) + 4, y(c.goal) - 4, f"goal {c.goal}", 12, GOLD, "ld")
    for turn in ticks(n, 10):
        canvas.text(x(turn), CHANCES_BOTTOM + 14, str(turn), 12, MUTED, "mt")

    if at is not None and 0 <= at <= n:
        canvas.rect((x(at) - 6, TOTALS_TOP - 12, x(at) + 6, CHANCES_BOTTOM + 8), (255, 255, 255, 40), 4)

    # the totals, turn by turn
    spacing = (RIGHT - LEFT) / n
    dot = min(3.5, spacing / 3)
    for seat in (0, 1):
        canvas.line([(x(0), y(0)), *((x(m.turn), y(m.scores[seat])) for m in c.turns)], SEATS[seat], 3)
        if dot >= 1.5:
            for m in c.turns:
                canvas.circle(x(m.turn), y(m.scores[seat]), dot, SEATS[seat])
    mark = max(3.0, min(7.0, spacing / 2))
    for m in c.turns:
        if m.swap:
            low, high = sorted(m.scores)
            canvas.line([(x(m.turn), y(low)), (x(m.turn), y(high))], (*SWAP, 160), 1.5)
            for total in m.scores:
                canvas.polygon(diamond(x(m.turn), y(total), mark), SWAP, BACKGROUND)
        if m.extra:
            canvas.circle(x(m.turn), y(m.scores[m.seat]), mark + 2, None, SEATS[m.seat], 2)

    # the ending
    if c.turns and c.winner is not None:
        last = c.turns[-1]
        if c.forfeited_by is not None:
            fx, fy, r = x(last.turn), y(last.scores[c.forfeited_by]), 8
            canvas.line([(fx - r, fy - r), (fx + r, fy + r)], FORFEIT, 3)
            canvas.line([(fx - r, fy + r), (fx + r, fy - r)], FORFEIT, 3)
        canvas.polygon(star(x(last.turn), y(last.scores[c.winner]), 13), GOLD, BACKGROUND)

    # the chances
    for seat in (0, 1):
        known = [(0, c.start)] if c.start is not None else []
        known += [(m.turn, m.chances) for m in c.turns if m.chances is not None]
        if len(known) > 1:
            canvas.line([(x(turn), yc(chances[seat])) for turn, chances in known], SEATS[seat], 2.5)
    for m in c.turns:  # the mover's mistakes (?) and blunders (??), on their chance after the move
        if m.slip is not None and m.chances is not None:
            mx, my = x(m.turn), yc(m.chances[m.seat])
            canvas.circle(mx, my, 5, None, FORFEIT, 2)
            canvas.text(mx, my - 9, "??" if m.slip == "blunder" else "?", 13, FORFEIT, "md")
    if c.start is None and not any(m.chances for m in c.turns):
        canvas.text((LEFT + RIGHT) / 2, (CHANCES_TOP + CHANCES_BOTTOM) / 2,
                    "win chances are solved for goals up to 200", 14, MUTED, "mm")  # fmt: skip

    return canvas.finished()
