"""The web front on a real server over the real platform, for the HTTP tests (aiohttp's test client):
the ``site`` fixture, a pytest plugin of the whole suite (``tests/conftest.py``)."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.platform.compose import Platform, platform
from bot.platform.settings import Settings
from bot.web.app import make_app
from tests.helpers import Seeded

Site = tuple[Platform, TestClient[web.Request, web.Application]]


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with platform(Settings(db=tmp_path / "games.sqlite3", cache=tmp_path / "solutions")) as p:
        client = TestClient(TestServer(make_app(p)))
        await client.start_server()
        try:
            yield p, client
        finally:
            await client.close()


SEED = 3
"""The browser tests' chance: their games go the same way every run."""


@pytest.fixture
async def live_site(tmp_path: Path) -> AsyncIterator[tuple[Platform, str]]:
    """The web front (the GUI's pages too) on a real port of 127.0.0.1, for a real browser: the
    platform and the origin to open."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = int(free.getsockname()[1])
    settings = Settings(db=tmp_path / "games.sqlite3", cache=tmp_path / "solutions")
    async with platform(settings, chance=Seeded(SEED)) as p:  # the same deals and dice every run
        server = TestServer(make_app(p, gui_port=port), host="127.0.0.1", port=port)
        await server.start_server()
        try:
            yield p, f"http://127.0.0.1:{port}"
        finally:
            await server.close()
