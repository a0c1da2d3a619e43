"""A game's board as Discord's Components V2 draw it: one container (its accent the colour of whose
turn it is), text displays in Markdown (a score as a heading), a separator, the picture as a media
gallery, the moves as rows of buttons, and the small print at its foot (the status, the seal).

A board is written as Discord's API writes it, as ``Buttons`` are (``bot.discord.buttons``): a board
is drawn at every click, and discord.py's ``LayoutView`` readies every item for listening, which
nothing here does (clicks are routed by custom_id alone). Discord's limits, checked in the tests on
the longest boards: 40 components in all, 4,000 characters of text.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord.buttons import ROW, Buttons

TEXT_LIMIT = 4000
"""Discord refuses a message whose text displays hold more characters, all together."""
COMPONENT_LIMIT = 40
"""Discord refuses a message of more components (every row, button and text counted)."""
TEXT, ROW_TYPE, SEPARATOR, GALLERY, CONTAINER = 10, 1, 14, 12, 17


@dataclass(frozen=True)
class Picture:
    """A drawing of a game: its PNG, the file name it is sent as and its description (alt text)."""

    png: bytes
    filename: str
    description: str


@dataclass
class Board:
    """A game's board: its parts in order, its buttons, its accent and small print, its files."""

    accent: int | None = None
    """The container's colour (whose turn it is: always said in words too)."""
    parts: list[dict[str, Any]] = field(default_factory=list)
    buttons: Buttons = field(default_factory=Buttons)
    notes: list[str] = field(default_factory=list)
    """The small print at its foot, joined by `` · ``."""
    files: list[discord.File] = field(default_factory=list)

    def text(self, markdown: str) -> Board:
        """A text display (nothing for empty text)."""
        if markdown:
            self.parts.append({"type": TEXT, "content": markdown})
        return self

    def lead(self, markdown: str | None) -> Board:
        """A text display above everything else (who is pinged to a new game, and why)."""
        if markdown:
            self.parts.insert(0, {"type": TEXT, "content": markdown})
        return self

    def rule(self) -> Board:
        """A thin line across the board."""
        self.parts.append({"type": SEPARATOR, "divider": True, "spacing": 1})
        return self

    def note(self, words: str) -> Board:
        self.notes.append(words)
        return self

    def picture(self, picture: Picture) -> Board:
        """``picture`` shown on the board, its description said."""
        self.files.append(discord.File(io.BytesIO(picture.png), picture.filename, description=picture.description))
        media = {"media": {"url": f"attachment://{picture.filename}"}, "description": picture.description}
        self.parts.append({"type": GALLERY, "items": [media]})
        return self

    def view(self) -> Layout:
        return Layout(self)


class Layout(discord.ui.View):
    """A board for discord.py to send: its components, and the Components V2 flag (``has_components_v2``)."""

    timeout = None

    def __init__(self, board: Board) -> None:  # not View's (see ``Buttons``)
        self.board = board

    def to_components(self) -> list[dict[str, Any]]:
        b = self.board
        looks = b.buttons.looks
        rows = [{"type": ROW_TYPE, "components": looks[i : i + ROW]} for i in range(0, len(looks), ROW)]
        foot = [{"type": TEXT, "content": "-# " + " · ".join(b.notes)}] if b.notes else []
        container: dict[str, Any] = {"type": CONTAINER, "components": [*b.parts, *rows, *foot]}
        if b.accent is not None:
            container["accent_color"] = b.accent
        return [container]

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return True


def notice(title: str, words: str) -> Layout:
    """A board that says one thing (a damaged game's), with no buttons."""
    return Board().text(f"### {title}\n{words}").view()


def trimmed(lines: tuple[str, ...] | list[str], room: int) -> str:
    """``lines`` joined, the oldest dropped (for a ``…``) until they fit in ``room`` characters: a
    batch of the house's extra turns, or of bots' whole hands, is cut to its end."""
    kept = list(lines)
    while kept and len("\n".join(["…", *kept])) > room:
        kept.pop(0)
    if len(kept) < len(lines):
        kept.insert(0, "…")
    return "\n".join(kept)
