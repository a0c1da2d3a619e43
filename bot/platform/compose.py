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
from bot.platform.recent import Recent
from bot.platform.registry import AnyGame, Games
from bot.platform.seasons import Running
from bot.platform.server_settings import ServerSettings
from bot.platform.service import GameService
from bot.platform.settings import Settings
from bot.platform.timers import Clock, SystemClock, Timers
from bot.platform.tournaments.director import Director
from storage import postgres, sqlite
from storage.backend import Backend
from storage.events import EventStore
from storage.games import GameViews
from storage.kept import Kept
from storage.leadership import Leadership

RUNNING_SEASONS = 1024
"""Servers' running seasons (by game) whose ratings a process carries forward: the busiest ones."""


@dataclass
class Platform:
    settings: Settings
    games: Games
    store: EventStore
    views: GameViews
    """The read models: derived from the log."""
    kept: Kept
    """What the log does not hold: each game's seed, where its board is."""
    projector: Projector
    services: dict[str, GameService[Any, Any, Any]]
    timers: Timers
    leadership: Leadership
    """Which process keeps the timers and the read models (``bot.platform.duty``)."""
    role: str = "web"
    """What this process does: ``leader`` or ``follower`` once its duty runs (``bot.platform.duty``)."""
    boards: Boards = field(init=False)
    """Where each game's public board is, which version it shows, and who listens for new ones."""
    tournaments: Director = field(init=False)
    """Every game's tournaments: their log, and what they do (pair rounds, create games, score them)."""

    server_settings: ServerSettings = field(init=False)
    """Each Discord server's own settings, set by its admins (``bot.platform.server_settings``)."""
    seasons: Recent[tuple[str, str, float], Running] = field(init=False)
    """The running seasons' ratings, carried forward as they are asked for (``bot.platform.seasons``)."""

    def __post_init__(self) -> None:
        self.boards = Boards(self)
        self.server_settings = ServerSettings(self.store, self.games)
        self.seasons = Recent(RUNNING_SEASONS)
        self.tournaments = Director(self)

    def service(self, game: str | AnyGame) -> GameService[Any, Any, Any]:
        return self.services[game if isinstance(game, str) else game.name]

    async def settled_views(self) -> GameViews:
        """The read models, once they show every event appended so far."""
        await self.projector.settle()
        return self.views


async def open_backend(settings: Settings) -> Backend:
    """The games' database: PostgreSQL when ``HOG_DATABASE_URL`` is set, else the SQLite file of ``HOG_DB``."""
    url = settings.database_url
    return await (postgres.open_backend(url) if url else sqlite.open_backend(settings.db))


@asynccontextmanager
async def platform(
    settings: Settings,
    modules: Mapping[str, str] | None = None,
    *,
    chance: Chance | None = None,
    clock: Clock | None = None,
    catch_up: bool = True,
) -> AsyncIterator[Platform]:
    """Everything over the games' database (``Settings.where``), the read models caught up with the
    log (another process may have played since; not with ``catch_up`` false, for a rebuild that
    projects it all anyway), closed after they have caught up again. The timers are built, not run:
    a front end that keeps time starts ``timers.run()`` and tells them where to post."""
    games = Games.load(settings, modules)
    backend = await open_backend(settings)
    store, views = backend.store, backend.views
    projector = Projector(store, views, games)
    try:
        if catch_up:
            await projector.catch_up()
        services = {name: GameService(game, store, projector, chance, backend.kept) for name, game in games.items()}
        timers = Timers(services, clock or SystemClock())
        made = Platform(settings, games, store, views, backend.kept, projector, services, timers, backend.leadership)
        try:
            yield made
        finally:
            await made.boards.flush()
    finally:
        await settle_and_close(projector, backend)
