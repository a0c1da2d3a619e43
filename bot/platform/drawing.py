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
    """Drawing in the picture's own coordinates (the supersampling stays in here). It notes every
    colour it draws with, so that the finished picture can be mapped onto a palette made of them."""

    def __init__(self, base: Canvas | None = None) -> None:
        """A blank canvas, or a copy of ``base`` (what every picture of a kind has, drawn once)."""
        size = (WIDTH * SCALE, HEIGHT * SCALE)
        self.image: Image.Image = base.image.copy() if base is not None else Image.new("RGB", size, BACKGROUND)
        self.inks: set[tuple[int, ...]] = set(base.inks) if base is not None else {BACKGROUND}
        self.draw = ImageDraw.Draw(self.image, "RGBA")

    def _ink(self, *colours: tuple[int, ...] | None) -> None:
        self.inks.update(c for c in colours if c is not None)

    def line(self, points: Sequence[tuple[float, float]], fill: tuple[int, ...], width: float = 1) -> None:
        self._ink(fill)
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
        self._ink(fill)
        self.draw.rounded_rectangle([v * SCALE for v in box], radius=radius * SCALE, fill=fill)

    def circle(self, x: float, y: float, r: float, fill: tuple[int, ...] | None, outline: tuple[int, ...] | None = None,
               width: float = 1) -> None:  # fmt: skip
        self._ink(fill, outline)
        box = [(x - r) * SCALE, (y - r) * SCALE, (x + r) * SCALE, (y + r) * SCALE]
        self.draw.ellipse(box, fill=fill, outline=outline, width=max(1, round(width * SCALE)))

    def polygon(self, points: Sequence[tuple[float, float]], fill: tuple[int, ...], outline: tuple[int, ...]) -> None:
        self._ink(fill, outline)
        self.draw.polygon([(x * SCALE, y * SCALE) for x, y in points], fill=fill, outline=outline, width=SCALE)

    def text(self, x: float, y: float, words: str, size: int, fill: tuple[int, ...], anchor: str = "la") -> float:
        """Draw ``words``; returns their width."""
        self._ink(fill)
        self.draw.text((x * SCALE, y * SCALE), words, font=font(size), fill=fill, anchor=anchor)
        return self.draw.textlength(words, font=font(size)) / SCALE

    def finished(self) -> Image.Image:
        """The picture at its own size, in a palette: a third of the size of full colour, and faster to
        encode. A picture of a few colours is mapped onto a palette of them and their blends (made
        once for those colours: five times faster than finding a palette for each picture)."""
        small = self.image.reduce(SCALE)
        if len(self.inks) > FEW_INKS:  # a chart in many shades: a palette of its own
            return small.quantize(64, method=Image.Quantize.FASTOCTREE)
        return small.quantize(palette=palette_of(frozenset(self.inks)), dither=Image.Dither.NONE)


FEW_INKS = 16
BLENDS = tuple(eighth / 8 for eighth in range(1, 8))


@cache
def palette_of(inks: frozenset[tuple[int, ...]]) -> Image.Image:
    """A palette for pictures drawn with ``inks``: each ink (a see-through one as it shows over the
    background and the panels: a veil of one is a ground of its own), and the blends antialiasing
    makes of an ink over a ground, by eighths, and of two inks (at most 256 colours, those first)."""
    grounds: list[tuple[int, ...]] = [BACKGROUND, *([PANEL] if PANEL in inks else [])]
    opaque = sorted({c[:3] for c in inks if len(c) == 3 or c[3] == 255} - set(grounds))
    for c in sorted(c for c in inks if len(c) == 4 and c[3] < 255):
        over = [_mix(c[:3], g, c[3] / 255) for g in grounds[:2]]
        (grounds if c[3] < 128 else opaque).extend(over)
    colours = dict.fromkeys([*grounds, *opaque])
    colours.update(dict.fromkeys(_mix(i, g, a) for g in grounds for i in opaque for a in BLENDS))
    colours.update(dict.fromkeys(_mix(i, j, 0.5) for n, i in enumerate(opaque) for j in opaque[n + 1 :]))
    chosen = list(colours)[:256]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for c in chosen for v in c] + [0] * 3 * (256 - len(chosen)))
    return palette


def _mix(a: tuple[int, ...], b: tuple[int, ...], share: float) -> tuple[int, ...]:
    """``share`` of ``a`` over the rest of ``b``."""
    return tuple(round(x * share + y * (1 - share)) for x, y in zip(a, b, strict=True))
