"""Hog's dice as the bot's own emojis (Discord's application emojis: usable in every server, DM and
group DM, unlike a server's): each face drawn here with Pillow, uploaded once at the first start
(``bot.discord.emojis``), and named so that a screen reader says what it shows — ``die_5`` a six-sided
die showing 5, ``die8_7`` an eight-sided one showing 7."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from functools import partial

from PIL import Image, ImageDraw

from bot.games.hog.table import PIPS
from bot.platform.drawing import font

SIZE = 128
"""An emoji's side in pixels (Discord shows it at 22-48)."""
SCALE = SIZE / 60
"""``PIPS`` are on a face 60 units wide."""
INK, FACE, EIGHT = (32, 34, 37, 255), (255, 255, 255, 255), (88, 101, 242, 255)


def name(value: int, sides: int) -> str:
    return f"die_{value}" if sides == 6 else f"die{sides}_{value}"


def drawings() -> Mapping[str, Callable[[], bytes]]:
    """Every face the game can roll, by emoji name: drawn only when Discord has not got it yet."""
    six = {name(v, 6): partial(draw, v, 6) for v in range(1, 7)}
    return six | {name(v, 8): partial(draw, v, 8) for v in range(1, 9)}


def draw(value: int, sides: int) -> bytes:
    """A face as a PNG: pips on a white rounded square (six sides), the number on a blue diamond (eight)."""
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if sides == 6:
        pen.rounded_rectangle((4, 4, SIZE - 5, SIZE - 5), radius=22, fill=FACE, outline=INK, width=6)
        r = 11
        for x, y in PIPS[value]:
            cx, cy = x * SCALE, y * SCALE
            pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
    else:
        half = SIZE / 2
        pen.polygon([(half, 2), (SIZE - 3, half), (half, SIZE - 3), (2, half)], fill=EIGHT, outline=INK, width=5)
        pen.text((half, half), str(value), fill=FACE, font=font(27), anchor="mm")
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def faces(outcomes: tuple[int, ...], sides: int, emoji: Callable[[str, str], str]) -> str:
    """The dice of a roll as emojis (as numbers where the bot has none: ``emoji(name, fallback)``)."""
    return " ".join(emoji(name(v, sides), f"`{v}`") for v in outcomes)
