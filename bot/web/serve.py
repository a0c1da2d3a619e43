"""``python -m bot web``: the web pages of every game in the games' database, in a process of their own."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, cast

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest

from bot.platform.compose import Platform, platform
from bot.platform.settings import Settings
from bot.web.app import PROXIES, SECURITY_HEADERS, make_app

log = logging.getLogger(__name__)

FOLLOW_EVERY = 0.25
"""Seconds between reads of the log's tail while someone watches a game live (one read for the
whole process, however many watch)."""


HEADERS_TIMEOUT = 10.0
"""Seconds a client has to send a request's headers once it began (aiohttp waits for ever: a client
that sends half a request, a thousand times, would hold a thousand sockets)."""
IDLE_TIMEOUT = 15.0
"""Seconds a connection may wait, sending nothing, before its first request or between two."""


CONNECTIONS_PER_ADDRESS = 32
"""Connections one address may hold at once (a browser opens six or so, and a live page one more);
the next is closed as soon as it is accepted. A proxy in front of the server (``PROXIES``) is not
counted so: its connections are everyone's."""


class Watchful(RequestHandler):
    """aiohttp's connection, closed when a request's headers take longer than ``headers_timeout``
    from their first byte (a slow client, or a hoarder), or when its address holds too many already."""

    def __init__(self, *args: Any, headers_timeout: float = HEADERS_TIMEOUT, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.headers_timeout = headers_timeout
        self.due: asyncio.TimerHandle | None = None
        self.address: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else None
        held = cast(WatchfulServer, self._manager).held
        if address is not None and address not in PROXIES:
            if held[address] >= CONNECTIONS_PER_ADDRESS:
                self.force_close()  # its file is given back at once: the server stays free for others
                return
            held[address] += 1
            self.address = address

    def data_received(self, data: bytes) -> None:
        parsed = self._request_count
        super().data_received(data)
        if self._request_count > parsed or self._request_in_progress:  # headers read, or a body under way
            if self.due is not None:
                self.due.cancel()
                self.due = None
        elif self.due is None:
            self.due = asyncio.get_running_loop().call_later(self.headers_timeout, self.force_close)

    def connection_lost(self, exc: BaseException | None) -> None:
        if self.due is not None:
            self.due.cancel()
        if self.address is not None:
            held = cast(WatchfulServer, self._manager).held
            held[self.address] -= 1
            if not held[self.address]:
                del held[self.address]
            self.address = None
        super().connection_lost(exc)

    def handle_error(
        self, request: BaseRequest, status: int = 500, exc: BaseException | None = None, message: str | None = None
    ) -> web.StreamResponse:
        """aiohttp's own answer to a request it could not read (a bad request line, headers too long),
        with the security headers every page carries."""
        answer = super().handle_error(request, status, exc, message)
        answer.headers.update(SECURITY_HEADERS)
        return answer


class WatchfulServer(web.Server):
    def __init__(self, *args: Any, headers_timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.headers_timeout = headers_timeout
        self.held: Counter[str] = Counter()
        """Connections open, by address (``Watchful``)."""

    def __call__(self) -> RequestHandler:
        return Watchful(self, loop=self._loop, headers_timeout=self.headers_timeout, **self._kwargs)


class WatchfulRunner(web.AppRunner):
    """``web.AppRunner`` whose connections are ``Watchful``."""

    def __init__(self, app: web.Application, headers_timeout: float = HEADERS_TIMEOUT, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.headers_timeout = headers_timeout

    async def _make_server(self) -> web.Server:
        made = await super()._make_server()
        return WatchfulServer(
            made.request_handler, request_factory=made.request_factory, handler_cancellation=made.handler_cancellation,
            loop=made._loop, headers_timeout=self.headers_timeout, **made._kwargs,
        )  # fmt: skip


async def open_site(
    p: Platform, host: str, port: int, gui: bool = False, headers_timeout: float = HEADERS_TIMEOUT
) -> web.AppRunner:
    """The web pages of ``p``'s games (and, with ``gui``, the GUI to play them), listening on
    ``host:port`` until the runner is cleaned up."""
    app = make_app(p, gui_port=port if gui else None)
    runner = WatchfulRunner(
        app, headers_timeout, access_log=None, handler_cancellation=True, keepalive_timeout=IDLE_TIMEOUT
    )  # handler_cancellation: a watcher gone, its stream ends
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
    ready: Callable[[], None] | None = None,
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
        if ready is not None:  # listening now: a script (or a test) waiting for this line may connect
            ready()
        try:
            while True:
                with contextlib.suppress(Exception):  # the database out of reach a moment: try again
                    await p.boards.follow()
                await asyncio.sleep(FOLLOW_EVERY)
        finally:
            await runner.cleanup()
