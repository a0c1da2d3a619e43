"""Pictures of games, for every game module: a canvas drawn at twice the size then halved (Pillow's
cheap way to smooth lines), Pillow's own scalable font (no font file needed), names in the letters it
has, round axis ticks and one palette."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 960, 540
SCALE = 2
BACKGROUND = (49, 51, 56)
PANEL = (43, 45, 49)
GRID = (70, 73, 80)
TEXT = (230, 232, 235)
MUTED = (160, 166, 175)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own scalable font, so the picture needs no font file on the machine."""
    return ImageFont.load_default(size * SCALE)


@cache
def has_glyph(ch: str) -> bool:
    """Whether Pillow's built-in font draws ``ch`` (it covers ASCII and little more)."""
    missing = font(20).getmask("\uffff")
    shape = font(20).getmask(ch)
    return ch.isspace() or (shape.size, bytes(shape)) != (missing.size, bytes(missing))


def drawable(name: str, fallback: str) -> str:
    """``name`` in letters the font has: accents dropped (José -> Jose), anything else left out;
    ``fallback`` when nothing is left (a name all in emoji or another script)."""
    kept = "".join(
        ch if has_glyph(ch) else "".join(c for c in unicodedata.normalize("NFKD", ch) if has_glyph(c)) for ch in name
    )
    return " ".join(kept.split())[:24] or fallback


def ticks(top: float, most: int = 5) -> list[int]:
    """Round steps (1, 2 or 5 times a power of ten) from 0 up to ``top``, at most ``most + 1`` of them."""
    step = 1
    while top / step > most:
        for factor in (2, 2.5, 2):
            step = int(step * factor)
            if top / step <= most:
                break
    return list(range(0, int(top) + 1, step))


class Canvas:
    """Drawing in the picture's own coordinates (the supersampling stays in here)."""

    def __init__(self, base: Image.Image | None = None) -> None:
        """A blank canvas, or one over ``base`` (a copy of another canvas's ``image``: what every
        picture of a kind has in common, drawn once)."""
        self.image = base.copy() if base is not None else Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image, "RGBA")

    def line(self, points: Sequence[tuple[float, float]], fill: tuple[int, ...], width: float = 1) -> None:
        self.draw.line([(x * SCALE, y * SCALE) for x, y in points], fill=fill, width=max(1, round(width * SCALE)),
                       joint="curve")  # fmt: skip

    def dashed(self, a: tuple[float, float], b: tuple[float, float], fill: tuple[int, ...], dash: float = 6) -> None:
        (x0, y0), (x1, y1) = a, b
        length = max(abs(x1 - x0), abs(y1 - y0))
        steps = max(1, int(length // dash))
        for i in range(0, steps, 2):
            t0, t1 = i / steps, min(1, (i + 1) / steps)
            self.line([(x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0), (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)], fill)

    def rect(self, box: tuple[float, float, float, float], fill: tuple[int, ...], radius: float = 0) -> None:
        self.draw.rounded_rectangle([v * SCALE for v in box], radius=radius * SCALE, fill=fill)

    def circle(self, x: float, y: float, r: float, fill: tuple[int, ...] | None, outline: tuple[int, ...] | None = None,
               width: float = 1) -> None:  # fmt: skip
        box = [(x - r) * SCALE, (y - r) * SCALE, (x + r) * SCALE, (y + r) * SCALE]
        self.draw.ellipse(box, fill=fill, outline=outline, width=max(1, round(width * SCALE)))

    def polygon(self, points: Sequence[tuple[float, float]], fill: tuple[int, ...], outline: tuple[int, ...]) -> None:
        self.draw.polygon([(x * SCALE, y * SCALE) for x, y in points], fill=fill, outline=outline, width=SCALE)

    def text(self, x: float, y: float, words: str, size: int, fill: tuple[int, ...], anchor: str = "la") -> float:
        """Draw ``words``; returns their width."""
        self.draw.text((x * SCALE, y * SCALE), words, font=font(size), fill=fill, anchor=anchor)
        return self.draw.textlength(words, font=font(size)) / SCALE

    def finished(self) -> Image.Image:
        """The picture at its own size, in a 64-colour palette: a third of the size of full colour,
        and faster to encode."""
        return self.image.reduce(SCALE).quantize(64, method=Image.Quantize.FASTOCTREE)
