"""Who leads among several processes on one PostgreSQL database (``storage.leadership`` says what
leading is): the holder of a session advisory lock on a connection of its own, which also LISTENs
for the event store's NOTIFY."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import asyncpg

log = logging.getLogger(__name__)

CHANNEL = "hogbot_events"
"""What the PostgreSQL event store NOTIFYs after each commit (the payload: the appending process's
``sender`` token)."""
LEADER_LOCK = 7_317_003
PATIENCE = 3.0
"""Seconds a check of the lead may go unanswered before the leader steps down."""
OUT_OF_TOUCH = {
    "tcp_keepalives_idle": "5",
    "tcp_keepalives_interval": "2",
    "tcp_keepalives_count": "3",
    "tcp_user_timeout": "10000",
}
"""The server's side: probe a connection idle 5 s, give up after 3 probes 2 s apart, or when what it
sent (a NOTIFY) goes unacknowledged for 10 s; a lock held by a silent leader is free after 10-11 s,
well after the leader itself stepped down. (TCP only: on a Unix socket a gone process always closes.)"""


class PostgresLeadership:
    def __init__(self, url: str, patience: float = PATIENCE, own: str | None = None) -> None:
        """``own``: the token this process's event store NOTIFYs with. Its own appends are no hint (the
        process hears of them from its own service, as on SQLite): a hint per own commit would have
        the leader read the log again after every move it served."""
        self._url, self._patience, self._own = url, patience, own
        self._db: asyncpg.Connection[Any] | None = None
        self._held = False
        self._hinted = asyncio.Event()

    async def lead(self) -> bool:
        try:
            if self._db is None or self._db.is_closed():
                self._held = False
                self._db = await asyncpg.connect(self._url, timeout=self._patience, server_settings=OUT_OF_TOUCH)
                await self._db.add_listener(CHANNEL, self._heard)
            if self._held:  # the lock lives as long as this connection
                await self._db.fetchval("SELECT 1", timeout=self._patience)
            else:
                taken = await self._db.fetchval("SELECT pg_try_advisory_lock($1)", LEADER_LOCK, timeout=self._patience)
                self._held = bool(taken)
        except TimeoutError:
            log.warning("the database did not answer within %g s: this process lets the lead go", self._patience)
            await self._drop()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            log.warning("lost the database connection that holds the lead (%s): trying again", error)
            await self._drop()
        return self._held

    def _heard(self, connection: object, pid: int, channel: str, payload: object) -> None:
        if self._own is None or payload != self._own:
            self._hinted.set()

    async def hint(self, timeout: float) -> None:
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation that meets
        # its timeout, and a duty cancelled so (its process going) would go on leading
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._hinted.wait()
        self._hinted.clear()

    async def _drop(self) -> None:
        self._held = False
        if self._db is not None:
            self._db.terminate()
            self._db = None

    async def close(self) -> None:
        """Let the lead go (closing the connection releases the lock)."""
        if self._db is not None:
            await self._db.close()
            self._db = None
        self._held = False
