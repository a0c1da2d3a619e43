"""``python -m bot web``: the web pages of every game in the games' database, in a process of their own."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Mapping

from aiohttp import web

from bot.platform.compose import Platform, platform
from bot.platform.settings import Settings
from bot.web.app import make_app

log = logging.getLogger(__name__)

FOLLOW_EVERY = 0.25
"""Seconds between reads of the log's tail while someone watches a game live (one read for the
whole process, however many watch)."""


async def open_site(p: Platform, host: str, port: int, gui: bool = False) -> web.AppRunner:
    """The web pages of ``p``'s games (and, with ``gui``, the GUI to play them), listening on
    ``host:port`` until the runner is cleaned up."""
    app = make_app(p, gui_port=port if gui else None)
    runner = web.AppRunner(app, access_log=None, handler_cancellation=True)  # a watcher gone: its stream ends
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    log.info("serving the games of %s at http://%s:%d/", p.settings.where, host, port)
    return runner


async def serve(
    settings: Settings,
    host: str,
    port: int,
    modules: Mapping[str, str] | None = None,
    gui: bool = False,
) -> None:
    """Serve until cancelled. The bot, in another process, stores the moves: this process hears of
    them from the log (it fires no timers and keeps no boards). With ``gui``, the person at this
    computer plays here too: the house's moves come from the service, as in the terminal."""
    loop, serving = asyncio.get_running_loop(), asyncio.current_task()
    with contextlib.suppress(NotImplementedError):  # ``docker stop`` asks with SIGTERM: stop cleanly
        loop.add_signal_handler(signal.SIGTERM, lambda: serving.cancel() if serving else None)
    async with platform(settings, modules) as p:
        p.boards.shared = True  # the games are played by another process
        runner = await open_site(p, host, port, gui)
        try:
            while True:
                with contextlib.suppress(Exception):  # the database out of reach a moment: try again
                    await p.boards.follow()
                await asyncio.sleep(FOLLOW_EVERY)
        finally:
            await runner.cleanup()
