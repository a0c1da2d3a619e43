"""``python -m bot web``: the web pages of every game in the games' database, in a process of their own."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping

from aiohttp import web

from bot.platform.compose import platform
from bot.platform.settings import Settings
from bot.web.app import make_app

log = logging.getLogger(__name__)

FOLLOW_EVERY = 0.25
"""Seconds between reads of the log's tail while someone watches a game live (one read for the
whole process, however many watch)."""


async def serve(
    settings: Settings,
    host: str,
    port: int,
    modules: Mapping[str, str] | None = None,
    ready: asyncio.Event | None = None,
) -> None:
    """Serve until cancelled. The bot, in another process, stores the moves: this process hears of
    them from the log (it fires no timers and keeps no boards)."""
    async with platform(settings, modules) as p:
        p.boards.shared = True  # the games are played by another process
        runner = web.AppRunner(make_app(p), access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
            log.info("serving the games of %s at http://%s:%d/", settings.where, host, port)
            if ready is not None:
                ready.set()
            while True:
                with contextlib.suppress(Exception):  # the database out of reach a moment: try again
                    await p.boards.follow()
                await asyncio.sleep(FOLLOW_EVERY)
        finally:
            await runner.cleanup()
