"""The one composition root: the store, the read models, the projector, a service per game and the
timers, built the same way for the Discord bot, the console, the command line and the tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from bot.platform.boards import Boards
from bot.platform.contract import Chance
from bot.platform.projection import Projector, settle_and_close
from bot.platform.registry import AnyGame, Games
from bot.platform.service import GameService
from bot.platform.settings import Settings
from bot.platform.timers import Clock, SystemClock, Timers
from storage.events import EventStore, SqliteEventStore
from storage.games import GameViews
from storage.leadership import Leadership, PostgresLeadership, SoleLeadership
from storage.postgres import PostgresDatabase, PostgresEventStore


@dataclass
class Platform:
    settings: Settings
    games: Games
    store: EventStore
    views: GameViews
    projector: Projector
    services: dict[str, GameService[Any, Any, Any]]
    timers: Timers
    leadership: Leadership
    """Which process keeps the timers and the read models (``bot.platform.duty``)."""
    boards: Boards = field(init=False)
    """Where each game's public board is, which version it shows, and who listens for new ones."""

    def __post_init__(self) -> None:
        self.boards = Boards(self)

    def service(self, game: str | AnyGame) -> GameService[Any, Any, Any]:
        return self.services[game if isinstance(game, str) else game.name]

    async def settled_views(self) -> GameViews:
        """The read models, once they show every event appended so far."""
        await self.projector.settle()
        return self.views


def leadership(settings: Settings) -> Leadership:
    """Who leads: the one process on an SQLite file, or the holder of a lock in PostgreSQL."""
    return PostgresLeadership(settings.database_url) if settings.database_url else SoleLeadership()


async def open_storage(settings: Settings) -> tuple[EventStore, GameViews]:
    """The event store and the read models: in PostgreSQL when ``HOG_DATABASE_URL`` is set, else in
    the SQLite file of ``HOG_DB``."""
    url = settings.database_url
    store: EventStore = await (PostgresEventStore.open(url) if url else SqliteEventStore.open(settings.db))
    try:
        views = GameViews(await PostgresDatabase.open(url)) if url else await GameViews.open(settings.db)
    except BaseException:
        await store.close()
        raise
    return store, views


@asynccontextmanager
async def platform(
    settings: Settings,
    modules: Mapping[str, str] | None = None,
    *,
    chance: Chance | None = None,
    clock: Clock | None = None,
) -> AsyncIterator[Platform]:
    """Everything over the games' database (``Settings.where``), the read models caught up with the
    log (another process may have played since), closed after they have caught up again. The
    timers are built, not run: a front end that keeps time starts ``timers.run()`` and tells them
    where to post."""
    games = Games.load(settings, modules)
    store, views = await open_storage(settings)
    projector = Projector(store, views, games)
    try:
        await projector.catch_up()
        services = {name: GameService(game, store, projector, chance, views) for name, game in games.items()}
        timers = Timers(services, clock or SystemClock())
        leader = leadership(settings)
        try:
            yield Platform(settings, games, store, views, projector, services, timers, leader)
        finally:
            await leader.close()
    finally:
        await settle_and_close(projector, views, store)
