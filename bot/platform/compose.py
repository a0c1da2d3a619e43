"""The one composition root: the store, the read models, the projector, a service per game and the
timers, built the same way for the Discord bot, the console, the command line and the tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.platform.boards import Boards
from bot.platform.contract import Chance
from bot.platform.projection import Projector, settle_and_close
from bot.platform.registry import AnyGame, Games
from bot.platform.seasons import Seasons
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
    boards: Boards
    """Where each game's public board is, which version it shows, and who listens for new ones."""
    tournaments: Director
    """Every game's tournaments: their log, and what they do (pair rounds, create games, score them)."""
    server_settings: ServerSettings
    """Each Discord server's own settings, set by its admins (``bot.platform.server_settings``)."""
    seasons: Seasons
    """Each server's seasons, their tables and its hall of fame (``bot.platform.seasons``)."""
    role: str = "web"
    """What this process does: ``leader`` or ``follower`` once its duty runs (``bot.platform.duty``)."""

    def service(self, game: str | AnyGame) -> GameService[Any, Any, Any]:
        return self.services[game if isinstance(game, str) else game.name]

    async def settled_views(self) -> GameViews:
        """The read models, once they show every event appended so far."""
        return await self.projector.settled_views()


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
    projector = Projector(store, views, games, untrusted=backend.kept.untrusted)
    if backend.read_only:  # a file this user may only read: its read models read as they are
        projector.read_only, projector.following = True, False
    try:
        if catch_up:
            await projector.catch_up()
        kept, settled = backend.kept, projector.settled_views
        services = {name: GameService(game, store, projector, chance, kept) for name, game in games.items()}
        timers = Timers(services, clock or SystemClock())
        shared = settings.database_url is not None
        boards = Boards(store, games, services, kept, views, settled, shared=shared)
        director = Director(store, games, services, settled, timers.clock)
        server_settings = ServerSettings(store, games)
        seasons = Seasons(server_settings, views, settled, director.book)
        for service in services.values():  # what each stored command is told to, in this order
            service.watchers += [timers.track, boards.stored, director.watch]
        made = Platform(
            settings, games, store, views, kept, projector, services, timers, backend.leadership,
            boards, director, server_settings, seasons,
        )  # fmt: skip
        try:
            yield made
        finally:
            await made.boards.flush()
    finally:
        await settle_and_close(projector, backend)
