"""A backend: the event store, the read models, what a rebuild keeps, and who leads, built together by
one factory per database (``storage.sqlite.open_backend``, ``storage.postgres.open_backend``)."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass

from storage.events import EventStore
from storage.games import GameViews
from storage.kept import Kept
from storage.leadership import Leadership
from storage.sql import Database


@dataclass(frozen=True)
class Backend:
    store: EventStore
    views: GameViews
    """The read models: derived from the log, rebuilt from it at will."""
    kept: Kept
    """What the log does not hold and a rebuild keeps: seeds and where boards are."""
    leadership: Leadership
    read_only: bool = False
    """A database this user may only read: the read models are read as they are, never caught up."""

    async def close(self) -> None:
        await self.leadership.close()
        await self.views.close()  # the read models and what is kept share one database
        await self.store.close()


async def assemble(
    store: EventStore, database: Awaitable[Database], leadership: Leadership, read_only: bool = False
) -> Backend:
    """A backend from its opened store and its database once opened (the store is closed again if the
    database cannot be: an open connection would keep the process alive)."""
    try:
        db = await database
    except BaseException:
        await store.close()
        raise
    return Backend(store, GameViews(db), Kept(db), leadership, read_only)
