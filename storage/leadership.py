"""Which process leads: the one that keeps the timers, follows the log into the read models and
brings boards up after a restart, for every process sharing the games' database.

On an SQLite file there is one process, and it leads. On PostgreSQL the leader is whoever holds a
session advisory lock on a connection of its own: it holds it as long as that connection lives, so a
leader that dies (even by SIGKILL) lets it go at once, and another takes it at its next try. The
same connection LISTENs for the event store's NOTIFY: a hint that some process appended, after
which the leader reads the log itself (a hint lost is caught by the next tick).

A leader that is not dead but out of touch (its host frozen, the network cut: no socket is closed)
must not keep the lead for the hours TCP would take to notice (``storage.postgres.leadership``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

log = logging.getLogger(__name__)


class Leadership(Protocol):
    async def lead(self) -> bool:
        """Whether this process leads now: taking the lead if it is free, checking it is still held."""
        ...

    async def hint(self, timeout: float) -> None:
        """Return when another process may have appended, or after ``timeout`` seconds."""
        ...

    async def close(self) -> None: ...


class SoleLeadership:
    """One process on an SQLite file: it leads, and hears of every append from its own service."""

    async def lead(self) -> bool:
        return True

    async def hint(self, timeout: float) -> None:
        await asyncio.Event().wait()  # no other process: nothing to hear, ever

    async def close(self) -> None:
        pass
