"""Pictures of a contest: an entry's table beside the perfect strategy's, and the top entries' matrix."""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from PIL import Image

from bot.games.hog.contest.arena import PERFECT, Results
from bot.platform.drawing import HEIGHT, MUTED, PANEL, SCALE, TEXT, WIDTH, Canvas, drawable
from hog_core.contest import SIZE
from hog_core.explorer import Explored
from hog_core.rulesets import RULE_SETS

CELL = 3
"""Pixels of a table's cell: a table is 300 × 300, three side by side."""
MATRIX_TOP = 30
"""The matrix shows this many entries, the best first."""
DICE = np.array(
    [
        (120, 60, 140),  # -1, Pork Chop
        (253, 231, 37),  # 0: the rule for rolling none stands out
        (160, 218, 57),
        (74, 193, 109),
        (31, 161, 135),
        (39, 127, 142),
        (54, 92, 141),
        (70, 51, 127),
        (68, 1, 84),
        (110, 20, 70),
        (150, 30, 50),
        (190, 40, 40),
    ],
    dtype=np.uint8,
)
"""A colour for each number of dice, -1 to 10."""
MORE, FEWER, SAME = (215, 75, 60), (70, 130, 220), (60, 62, 68)


def _png(canvas: Canvas) -> bytes:
    out = io.BytesIO()
    canvas.finished().save(out, "PNG", optimize=False, compress_level=6)
    return out.getvalue()


def _grid(canvas: Canvas, x: int, y: int, rgb: npt.NDArray[np.uint8], cell: int) -> None:
    """Paste an ``[row, column, 3]`` colour array with each cell ``cell`` pixels wide."""
    rows, columns = rgb.shape[:2]
    size = (columns * cell * SCALE, rows * cell * SCALE)
    canvas.image.paste(Image.fromarray(rgb, "RGB").resize(size, Image.Resampling.NEAREST), (x * SCALE, y * SCALE))


def _scores(canvas: Canvas, x: float, y: float, cell: int, rows: bool) -> None:
    """The scores along a heat map's edges, every 25: the opponent's above it and, with ``rows``, yours
    to its left."""
    for score in range(0, SIZE, 25):
        at = (score + 0.5) * cell
        canvas.text(x + at, y - 3, str(score), 10, MUTED, anchor="mb")
        if rows:
            canvas.text(x - 4, y + at, str(score), 10, MUTED, anchor="rm")


def table_picture(results: Results, name: str) -> bytes:
    """``name``'s table as a heat map of dice counts beside the perfect strategy's (on turn 0, not an
    extra turn), and a third map of where they differ: more dice than perfect in red, fewer in blue."""
    canvas = Canvas()
    mine, perfect = results.tables[name], results.tables[PERFECT]
    top, left, gap = 100, 30, 10
    standing = results.standing(name)
    title = drawable(name, "This entry")
    if standing is not None:
        title += f"  ·  place {standing.place}, {standing.wins} wins  ·  vs perfect {standing.vs_perfect:.4f}"
    canvas.text(left, 14, title, 20, TEXT)
    differ = mine != perfect
    canvas.text(
        left,
        42,
        f"{int(differ.sum()):,} of {SIZE * SIZE:,} cells differ from the perfect strategy. Rows: your score, 0 at "
        "the top; columns: the opponent's score, 0 at the left.",
        12,
        MUTED,
    )
    more = mine.astype(np.int64) - perfect.astype(np.int64)
    difference = np.where(
        (more > 0)[..., None], np.array(MORE, np.uint8), np.where((more < 0)[..., None], FEWER, SAME)
    ).astype(np.uint8)
    panels = (
        (drawable(name, "This entry"), DICE[mine.astype(np.int64) + 1]),
        ("perfect, on turn 0", DICE[perfect.astype(np.int64) + 1]),
        ("where they differ", difference),
    )
    for i, (label, rgb) in enumerate(panels):
        at = left + i * (SIZE * CELL + gap)
        _grid(canvas, at, top, rgb, CELL)
        _scores(canvas, at, top, CELL, rows=i == 0)  # the rows are the same scores in every panel
        canvas.text(at, top - 30, label, 13, TEXT)
    y = top + SIZE * CELL + 16
    x: float = left
    for k in range(-1 if RULE_SETS[results.contest.rules].pork_chop else 0, 11):
        canvas.rect((x, y, x + 16, y + 16), tuple(int(v) for v in DICE[k + 1]))
        x += 22 + canvas.text(x + 22, y + 1, "chop" if k == -1 else str(k), 13, TEXT) + 12
    canvas.text(x + 10, y + 1, "dice", 13, MUTED)
    x = left + 2 * (SIZE * CELL + gap)
    for colour, words in ((MORE, "more dice"), (FEWER, "fewer dice"), (SAME, "the same")):
        canvas.rect((x, y, x + 16, y + 16), colour)
        x += 22 + canvas.text(x + 22, y + 1, words, 13, TEXT) + 14
    return _png(canvas)


def _shade(value: float) -> tuple[int, int, int]:
    """Red for a sure loss, the panel's grey for an even pair, green for a sure win."""
    t = max(-1.0, min(1.0, (value - 0.5) * 4))
    base, end = np.array(PANEL[:3], float), np.array((46, 160, 67) if t > 0 else (200, 55, 55), float)
    mixed = base + (end - base) * abs(t)
    return int(mixed[0]), int(mixed[1]), int(mixed[2])


def matrix_picture(results: Results, top: int = MATRIX_TOP) -> bytes:
    """The value of each of the best ``top`` entries (rows) against each (columns), shaded, each row and
    column named by its place in the standings; the cells as large as the frame allows."""
    canvas = Canvas()
    shown = [s.name for s in results.standings[:top]]
    index = [results.names.index(n) for n in shown]
    left, y0 = 260, 60
    cell = max(1, min(64, (HEIGHT - y0 - 20) // max(1, len(shown)), (WIDTH - left - 170) // max(1, len(shown))))
    canvas.text(20, 16, f"{results.contest.title}: the best {len(shown)}, row against column", 18, TEXT)
    rgb = np.array(
        [[(60, 62, 68) if i == j else _shade(results.values[i, j]) for j in index] for i in index], dtype=np.uint8
    ).reshape(len(shown), len(shown), 3)
    _grid(canvas, left, y0, rgb, cell)
    for n, name in enumerate(shown):
        standing = results.standings[n]
        mark = " *" if standing.reference else ""
        label = f"{standing.place}. {drawable(name, '?')}{mark}"
        canvas.text(left - 8, y0 + n * cell + cell / 2, label, min(14, max(9, cell - 4)), TEXT, anchor="rm")
        header = str(standing.place)  # the place the standings give it, ties and all
        canvas.text(left + n * cell + cell / 2, y0 - 4, header, min(13, max(8, cell - 6)), MUTED, anchor="mb")
    legend = left + len(shown) * cell + 30
    for i, (value, words) in enumerate(((1.0, "row wins"), (0.5, "even"), (0.0, "row loses"))):
        canvas.rect((legend, y0 + i * 26, legend + 18, y0 + i * 26 + 18), _shade(value))
        canvas.text(legend + 26, y0 + i * 26 + 2, words, 13, TEXT)
    canvas.text(legend, y0 + 90, "* reference entry", 13, MUTED)
    return _png(canvas)


COST_FULL = 0.20
"""The chance given away that is shaded darkest (twenty points or more)."""
CHEAP, DEAR = np.array((250, 220, 90), float), np.array((200, 40, 40), float)


def cost_colours(costs: npt.NDArray[np.float64]) -> npt.NDArray[np.uint8]:
    """The panel's grey where a cell gives nothing away; yellow to red as it gives away more."""
    t = np.clip(costs / COST_FULL, 0.0, 1.0)[..., None]
    shaded = CHEAP + (DEAR - CHEAP) * np.sqrt(t)
    return np.where(costs[..., None] > 1e-9, shaded, np.array(SAME, float)).astype(np.uint8)


def costs_picture(explored: Sequence[Explored], title: str) -> bytes:
    """Each entry's cells shaded by the chance its move there gives away against perfect play, side by
    side (one entry drawn larger), the scale beside them."""
    canvas = Canvas()
    shown = explored[:2]
    top, left, gap = 112, 30, 30
    cell = CELL + 1 if len(shown) == 1 else CELL  # one map fills the frame's height
    canvas.text(left, 14, title, 20, TEXT)  # the contest's own title: no player's text
    canvas.text(
        left, 42, "Each cell: the chance of winning its move gives away against the best move there, both", 12, MUTED
    )
    canvas.text(
        left, 58, "playing perfectly afterwards. Rows: your score, 0 at the top; columns: the opponent's.", 12, MUTED
    )
    for i, e in enumerate(shown):
        at = left + i * (SIZE * cell + gap)
        _grid(canvas, at, top, cost_colours(e.costs), cell)
        _scores(canvas, at, top, cell, rows=True)
        label = f"{drawable(e.name, 'This entry')}: {e.differing:,} cells, {e.average * 100:.2f} points a cell"
        canvas.text(at, top - 30, label, 13, TEXT)
    x, y = left + len(shown) * (SIZE * cell + gap) + 10, float(top)
    canvas.text(x, y, "given away", 13, MUTED)
    for cost, words in ((0.0, "nothing"), (0.01, "1 point"), (0.05, "5 points"), (COST_FULL, "20 points or more")):
        y += 26
        canvas.rect((x, y, x + 16, y + 16), tuple(int(v) for v in cost_colours(np.array([[cost]]))[0, 0]))
        canvas.text(x + 24, y + 1, words, 13, TEXT)
    return _png(canvas)
