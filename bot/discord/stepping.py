"""Stepping through a replay, for any game's replay board: ⏮ ◀ ▶ ⏭ and where each leads."""

from __future__ import annotations

NAVIGATION = (("first", "⏮"), ("previous", "◀"), ("next", "▶"), ("last", "⏭"))


def target(which: str, step: int, count: int) -> int:
    """The step the ``which`` button leads to from ``step`` of ``count``."""
    to = {"first": 0, "previous": step - 1, "next": step + 1, "last": count - 1}[which]
    return max(0, min(to, count - 1))
