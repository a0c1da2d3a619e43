"""A Cucumber game as a picture: the score race hand by hand (the target to stay under, cucumbers and
the loser marked) and, beside it, the tricks of the game's last hand card by card; or as an
animation, trick by trick.

``chart`` reads the facts from the log (pure); ``render`` draws them with Pillow as a PNG. Drawn only
for a finished game: the tricks are public by then, and no card of a hand is drawn that was not played.
"""

from __future__ import annotations

import io
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.platform.drawing import GRID, HEIGHT, MUTED, PANEL, TEXT, Canvas, drawable, ticks
from cucumber_core.cards import SHORT_NUMS
from cucumber_core.events import CucumberTaken, Event, HandScored, TrickWon
from cucumber_core.game import GameState, evolve

SEATS = ((108, 124, 255), (250, 166, 26), (87, 242, 135), (235, 69, 158), (88, 199, 230), (200, 200, 200))
"""A colour per seat, apart for colour-blind players too: blue, orange, green, pink, cyan, grey."""
RED_SUITS = (200, 30, 45)
BLACK_SUITS = (30, 31, 34)
CARD_FACE = (242, 243, 245)
TARGET = (237, 66, 69)
CUCUMBER = (87, 242, 135)
DODGE = 2.5
"""How far apart (px) the seats' lines are drawn, so that equal scores show every line, not the last."""


@dataclass(frozen=True, slots=True)
class Chart:
    names: tuple[str, ...]
    target: int
    scores: tuple[tuple[int, ...], ...]
    """Every seat's score before the first hand and after each hand."""
    cucumbers: tuple[tuple[int, int], ...]
    """``(hand, seat)`` for each cucumber taken."""
    last_hand: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
    """The last hand's tricks: the leader and ``(seat, card)`` in play order."""
    loser: int | None
    hand: int = 0
    """The hand whose tricks ``last_hand`` holds while the game is drawn trick by trick (0: the last)."""


def charts(events: Iterable[Event]) -> Iterator[Chart]:
    """The game as it stood after each trick was taken (its hand's tricks so far), then as it ended."""
    state = GameState()
    scores: list[tuple[int, ...]] = []
    cucumbers: list[tuple[int, int]] = []

    def now(hand: int) -> Chart:
        tricks = tuple((t.leader, t.plays) for t in state.tricks if t.plays)
        names = tuple(drawable(s.name, f"Seat {i + 1}") for i, s in enumerate(state.seats))
        loser = None if hand else state.loser
        return Chart(names, state.target, tuple(scores), tuple(cucumbers), tricks, loser, hand)

    for event in events:
        state = evolve(state, event)
        if not scores and state.scores:
            scores.append(state.scores)
        if isinstance(event, HandScored):
            scores.append(state.scores)
        elif isinstance(event, CucumberTaken):
            scores[-1] = state.scores
            cucumbers.append((len(scores) - 1, event.seat))
        elif isinstance(event, TrickWon):
            yield now(state.hand_number)
    yield now(0 if state.is_over else state.hand_number)  # a game under way is in a hand, not past its last


def chart(events: Iterable[Event]) -> Chart:
    """The game as it ended (or stands): the score race and its last hand's tricks."""
    return deque(charts(events), maxlen=1)[0]


def render(c: Chart) -> bytes:
    """The PNG of the game."""
    out = io.BytesIO()
    _draw(c, c).save(out, "PNG", compress_level=1)  # a third bigger, twice as fast to encode
    return out.getvalue()


def animate(frames: Sequence[Chart], most: int = 80) -> bytes:
    """The game drawn trick by trick as an animated GIF, on the axes of its end (at most ``most + 1``
    frames: a long game moves on several tricks a frame), the last frame held."""
    end, n = frames[-1], len(frames) - 1
    cuts = sorted({round(i * n / min(n, most)) for i in range(min(n, most) + 1)}) if n else [0]
    images = [_draw(frames[k], end) for k in cuts]
    out = io.BytesIO()
    durations = [600] + [350] * (len(images) - 2) + [4000] if len(images) > 1 else [4000]
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return out.getvalue()


def _draw(c: Chart, axes: Chart) -> Image.Image:
    """``c`` drawn on the axes of ``axes`` (its own, or the game's end, so that an animation's axes stay still)."""
    canvas = Canvas()
    left, top, right, bottom = 70, 70, 600, HEIGHT - 60
    canvas.text(24, 20, f"Cucumber: reach {c.target} and you lose", 22, TEXT)
    canvas.rect((left, top, right, bottom), PANEL, radius=6)
    hands = max(1, len(axes.scores) - 1)
    high = max(c.target, *(max(s) for s in axes.scores)) if axes.scores else c.target

    def x(hand: float) -> float:
        return left + 20 + (right - left - 40) * hand / hands

    def y(score: float) -> float:
        return bottom - 20 - (bottom - top - 40) * score / high

    for tick in ticks(high):
        canvas.line([(left, y(tick)), (right, y(tick))], GRID)
        canvas.text(left - 8, y(tick), str(tick), 13, MUTED, anchor="rm")
    canvas.text(left - 8, top - 10, "points", 13, MUTED, anchor="rb")
    for hand in ticks(hands, 10)[1:]:
        canvas.text(x(hand), bottom + 14, str(hand), 13, MUTED, anchor="mm")
    canvas.dashed((left, y(c.target)), (right, y(c.target)), TARGET)
    canvas.text(right - 4, y(c.target) - 4, f"target {c.target}", 13, TARGET, anchor="rb")
    canvas.text((left + right) / 2, bottom + 34, "after hand", 13, MUTED, anchor="mm")
    for seat, name in enumerate(c.names):
        colour = SEATS[seat % len(SEATS)]
        dodge = (seat - (len(c.names) - 1) / 2) * DODGE
        points = [(x(h), y(s[seat]) + dodge) for h, s in enumerate(c.scores)]
        if len(points) > 1:
            canvas.line(points, colour, width=3)
        for px, py in points[1:]:
            canvas.circle(px, py, 3.5, colour)
        loser = " (lost)" if c.loser == seat else ""
        canvas.text(right + 24, top + 10 + 22 * seat, f"{name}{loser}", 15, colour)
    for hand, seat in c.cucumbers:
        canvas.circle(x(hand), y(c.scores[hand][seat]), 8, None, CUCUMBER, width=2)
    _last_hand(canvas, c, right + 24, top + 30 + 22 * len(c.names))
    return canvas.finished()


def _last_hand(canvas: Canvas, c: Chart, left: float, top: float) -> None:
    """The last hand's tricks, one a row: each card in its player's colour, the trick's taker underlined."""
    if not c.last_hand:
        return
    canvas.text(left, top, f"Hand {c.hand}" if c.hand else "The last hand", 15, MUTED)
    for row, (_, plays) in enumerate(c.last_hand):
        y = top + 30 + 26 * row
        if y > HEIGHT - 30:
            break
        values = [card % 13 for _, card in plays]
        taker = max(i for i, v in enumerate(values) if v == max(values))
        for i, (seat, card) in enumerate(plays):
            x = left + 56 * i
            colour = RED_SUITS if card // 13 in (1, 2) else BLACK_SUITS
            canvas.rect((x, y - 11, x + 50, y + 13), SEATS[seat % len(SEATS)], radius=4)  # the player's colour
            canvas.rect((x + 2, y - 9, x + 48, y + 8), CARD_FACE, radius=3)  # round the card's face
            width = canvas.text(x + 21, y, SHORT_NUMS[card % 13], 14, colour, anchor="rm")
            suit(canvas, x + 29, y, card // 13, colour)
            if i == taker:
                canvas.line([(x + 21 - width, y + 11), (x + 36, y + 11)], BLACK_SUITS, width=2)


def suit(canvas: Canvas, x: float, y: float, which: int, colour: tuple[int, ...], r: float = 6) -> None:
    """A suit drawn as a shape, centred at ``(x, y)``, ``r`` its half height: Pillow's font has no ♣ ♦ ♥ ♠
    (0 clubs, 1 diamonds, 2 hearts, 3 spades: ``cards.SUITS``)."""
    if which == 1:
        canvas.polygon([(x, y - r), (x + r * 0.75, y), (x, y + r), (x - r * 0.75, y)], colour, colour)
        return
    lobe = r * 0.45
    if which == 0:
        for cx, cy in ((x, y - r * 0.45), (x - r * 0.5, y + r * 0.1), (x + r * 0.5, y + r * 0.1)):
            canvas.circle(cx, cy, lobe, colour)
    else:  # a heart, or a spade as a heart upside down
        up = -1 if which == 2 else 1
        for cx in (x - lobe * 0.95, x + lobe * 0.95):
            canvas.circle(cx, y + up * r * 0.3, lobe, colour)
        canvas.polygon(
            [(x - r * 0.88, y + up * r * 0.45), (x + r * 0.88, y + up * r * 0.45), (x, y - up * r)], colour, colour
        )
    if which != 2:  # the stem of a club or a spade
        canvas.polygon([(x, y + r * 0.2), (x + r * 0.4, y + r), (x - r * 0.4, y + r)], colour, colour)
