"""Every interaction counted once, where it is answered: by its kind (a button's, read from its
custom_id, ``move``, ``card``, ``hint`` …; a command's name, ``/hog house``), its game (none for the
bot's own) and how it ended, with how soon it was answered (``bot.platform.metrics``).

How a press ended is said where it is known (``said``): a move stored or refused, a stale board;
one nobody said anything of was answered."""

from __future__ import annotations

import functools
import time
from collections.abc import Collection
from typing import Any

import discord

from bot.platform.metrics import ACKNOWLEDGED, INTERACTIONS

OUTCOME = "hogbot.outcome"
"""Where in ``Interaction.extras`` a press's outcome is said."""


def said(interaction: discord.Interaction[Any], outcome: str) -> None:
    """How this interaction ended (``moved``, ``refused``, ``stale`` …), for its count."""
    interaction.extras[OUTCOME] = outcome


def button_labels(custom_id: str, games: Collection[str]) -> tuple[str, str]:
    """A button's kind and game from its custom_id (``hog:move:…`` → ``move``, ``hog``;
    ``tournament:…`` → ``tournament``, none)."""
    first, _, rest = custom_id.partition(":")
    return (rest.partition(":")[0], first) if first in games else (first, "")


def command_labels(name: str, games: Collection[str]) -> tuple[str, str]:
    """A command's kind and game from its qualified name (``hog house`` → ``/hog house``, ``hog``)."""
    root = name.partition(" ")[0]
    return f"/{name}", root if root in games else ""


def count(interaction: discord.Interaction[Any], kind: str, game: str, outcome: str | None = None) -> str:
    """This interaction answered: counted by kind, game and outcome (``outcome``, or what was
    ``said``, or ``answered``, which is returned), and how long after it was made."""
    ended: str = outcome or interaction.extras.get(OUTCOME, "answered")
    counter, timer = _series(kind, game, ended)
    counter.inc()
    timer.observe(max(0.0, time.time() - interaction.created_at.timestamp()))
    return ended


@functools.cache
def _series(kind: str, game: str, outcome: str) -> tuple[Any, Any]:
    """The counter and the histogram of an interaction's labels, found once (the labels are few:
    the buttons' kinds and the commands' names)."""
    return INTERACTIONS.labels(kind, game, outcome), ACKNOWLEDGED.labels(kind)
