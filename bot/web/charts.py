"""Small charts drawn as inline SVG on a page (no script, nothing loaded from elsewhere): a player's
rating after each of their last rated games."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

from bot.platform.drawing import ticks

WIDTH, HEIGHT = 600, 180
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 14, 30


def rating_chart(ratings: Sequence[int], first: int, what: str) -> Markup:
    """``ratings`` (as shown, oldest first, after the player's rated games ``first``, ``first + 1``, ...)
    as a line, its axes numbered; ``what`` names it for a screen reader, which hears the first, the
    last and the highest."""
    if not ratings:
        return Markup("")
    low, high = min(ratings), max(ratings)
    step = next((t for t in ticks(max(high - low, 10), 4)[1:2]), 10)
    bottom, top = step * (low // step), step * (-(-high // step))
    top = max(top, bottom + step)
    n = len(ratings)

    def x(i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * (i / (n - 1) if n > 1 else 0.5)

    def y(value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (top - value) / (top - bottom)

    label = f"{what}: {ratings[0]} after rated game {first}, {ratings[-1]} after game {first + n - 1}, {high} at best"
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">']
    for value in range(bottom, top + 1, step):
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" class="grid"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>')
    for i in sorted({0, n // 2, n - 1}):
        anchor = "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
        parts.append(f'<text x="{x(i):.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}">game {first + i}</text>')
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ratings))
    parts.append(f'<polyline points="{points}" class="line"/>')
    parts.append(f'<circle cx="{x(n - 1):.1f}" cy="{y(ratings[-1]):.1f}" r="4" class="now"/>')
    parts.append("</svg>")
    return Markup("".join(parts))
