"""Reading a board (a Components V2 message) as a person would: its text, its small print, its buttons."""

from __future__ import annotations

from typing import Any

from tests.discord.fake_discord import V2, nested

SEALS = (" · 🔒 ", " · 🔓 ")


def _message(body: dict[str, Any]) -> dict[str, Any]:
    """A message, from itself, a request's body, or an interaction's answer (``data``)."""
    return body["data"] if "data" in body and "components" not in body else body


def is_board(body: dict[str, Any]) -> bool:
    return bool(int(_message(body).get("flags") or 0) & V2)


def texts(body: dict[str, Any]) -> list[str]:
    """Each text display, in order."""
    return [c["content"] for c in nested(_message(body).get("components") or []) if c["type"] == 10]


def board_text(body: dict[str, Any]) -> str:
    """All the board's text, a display a line."""
    return "\n".join(texts(body))


def small_print(body: dict[str, Any]) -> str:
    """The board's foot (its status, then the seal)."""
    return texts(body)[-1].removeprefix("-# ")


def status(body: dict[str, Any]) -> str:
    """Whose turn it is, or how the game ended: the small print without its seal."""
    words = small_print(body)
    for seal in SEALS:
        words = words.split(seal)[0]
    return words


def buttons(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every button, in order."""
    return [c for c in nested(_message(body).get("components") or []) if c["type"] == 2]


def accent(body: dict[str, Any]) -> int | None:
    container = next(c for c in _message(body)["components"] if c["type"] == 17)
    found: int | None = container.get("accent_color")
    return found
