"""What the gateway sends that discord.py cannot read is skipped, not fatal.

discord.py parses each gateway event in its websocket's read loop; an exception there (a payload
missing a field it expects, an id that is not a number: Discord's payloads do drift) ends the
connection's task and, with it, ``Client.start``: one such interaction would take every game in
every server down. Each parser is wrapped so that an event it cannot read is logged once per kind
of event and error, with what failed but none of the payload (it may hold a player's words), and
skipped: the bot stays connected and the next event is read as usual.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

log = logging.getLogger(__name__)


def skip_unreadable(client: discord.Client) -> None:
    """Wrap every gateway parser of ``client`` (call before it connects)."""
    parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
    told: set[tuple[str, str]] = set()
    for event, parse in list(parsers.items()):
        parsers[event] = _guarded(event, parse, told)


def _guarded(event: str, parse: Callable[[Any], None], told: set[tuple[str, str]]) -> Callable[[Any], None]:
    def guarded(data: Any) -> None:
        try:
            parse(data)
        except Exception as error:
            kind = (event, type(error).__name__)
            if kind not in told:
                told.add(kind)
                log.error(
                    "Discord sent a %s event this bot cannot read (%s: %s); skipped, and any more like it "
                    "are skipped without a word",
                    event,
                    type(error).__name__,
                    str(error)[:200],
                )

    return guarded
