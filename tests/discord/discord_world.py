"""The real discord.py bot against the fake Discord, and the payloads Discord would send it.

Registered as a pytest plugin in ``conftest.py``: the ``discord_world`` fixture runs a ``GameBot``
on a fresh database, logged in to a ``FakeDiscord``, with the dice fixed to fives and a clock the
test moves by hand.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.discord.client import GameBot
from bot.platform.compose import platform
from bot.platform.contract import Chance
from bot.platform.registry import installed_modules
from bot.platform.settings import Settings
from hog_core.solver import Solution
from storage.shelves import FolderShelf
from tests.discord.boards import buttons
from tests.discord.fake_discord import APP_ID, CHANNEL_ID, GUILD_ID, FakeDiscord, Sent, member, nested
from tests.fake_clock import FakeClock
from tests.helpers import FIVES
from tests.solved import shelve


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway))
    yield fake
    await fake.stop()
    assert fake.refused == []  # every body the bot sent is one Discord accepts, each interaction answered once


@pytest.fixture
async def solved_folder(tmp_path: Path, solutions: dict[str, Solution]) -> Path:
    """A ``HOG_CACHE`` folder holding every rule set's solution (solved once per run, in conftest)."""
    await shelve(FolderShelf(tmp_path / "solutions"), solutions)
    return tmp_path / "solutions"


@asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    db: Path,
    solved: Path,
    clock: FakeClock,
    modules: Mapping[str, str] | None = None,
    chance: Chance | None = FIVES,
    settings: Settings | None = None,
) -> AsyncIterator[GameBot]:
    """A bot on ``db`` playing the games of ``modules`` (hogbot's own: not a plugin installed beside
    it), logged in to ``fake``, until the block ends (a restart is two blocks)."""
    settings = replace(settings or Settings(), db=db, cache=solved)
    modules = installed_modules("hogbot") if modules is None else modules
    async with platform(settings, modules, chance=chance, clock=clock) as p:
        bot = GameBot(p, guild_id=int(GUILD_ID))
        fake.expect_login()
        running = asyncio.create_task(bot.start("a-token"))
        try:
            await fake.ready()
            await bot.started()  # the start-up's reconcile is done: a test arranges the world after it
            yield bot
        finally:
            await bot.close()
            await running


@pytest.fixture
async def discord_world(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> AsyncIterator[tuple[FakeDiscord, GameBot]]:
    async with running_bot(fake_discord, tmp_path / "hog.sqlite3", solved_folder, clock) as bot:
        yield fake_discord, bot


def where(channel: str = CHANNEL_ID) -> dict[str, Any]:
    return {
        "application_id": APP_ID,
        "guild_id": GUILD_ID,
        "channel_id": channel,
        "channel": {"id": channel, "type": 0, "guild_id": GUILD_ID, "name": "hog", "position": 0},
        "version": 1,
        "locale": "en-US",
        "guild_locale": "en-US",
        "app_permissions": "2147483647",
        "entitlements": [],
        "authorizing_integration_owners": {"0": GUILD_ID},
        "context": 0,
        "attachment_size_limit": 10485760,
    }


def subcommand(
    name: str, options: list[dict[str, Any]] | None = None, who: str = "1001", person: str = "Ada", group: str = "hog"
) -> dict[str, Any]:
    """``/<group> <name>`` as Discord sends it."""
    return {
        "type": 2,
        **where(),
        "member": member(who, person),
        "data": {"id": "1", "name": group, "type": 1, "options": [{"name": name, "type": 1, "options": options or []}]},
    }


def click(custom_id: str, message: dict[str, Any], who: str = "1001", person: str = "Ada") -> dict[str, Any]:
    """A button press on ``message`` as Discord sends it (with the message and its components)."""
    return {
        "type": 3,
        **where(),
        "member": member(who, person),
        "message": message,
        "data": {"custom_id": custom_id, "component_type": 2},
    }


async def press(fake: FakeDiscord, who: str, name: str, message: dict[str, Any], custom_id: str) -> dict[str, Any]:
    """Press a button and wait for the bot's answer to it."""
    pressed = await fake.interact(click(custom_id, message, who, name))
    sent = await fake.wait_for(lambda s: s.path == f"/interactions/{pressed}/token{pressed}/callback")
    return dict(sent.body)


async def answer_to(fake: FakeDiscord, interaction: str) -> Sent:
    """The bot's response to ``interaction`` (its one callback)."""
    return await fake.response(interaction)


async def followup_to(fake: FakeDiscord, interaction: str, timeout: float = 20) -> Sent:
    """The first follow-up message the bot sent for ``interaction`` (within ``timeout`` seconds)."""
    return await fake.wait_for(lambda s: s.method == "POST" and s.path.endswith(f"/token{interaction}"), timeout)


async def board_of(fake: FakeDiscord, command: str) -> Sent:
    """The board the bot posted in answer to ``command``."""
    return await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{command}/messages/@original"))


def labels(components: list[dict[str, Any]]) -> list[str]:
    """The labels of a message's buttons, in order."""
    return [c.get("label", "") for c in nested(components) if c["type"] == 2]


def button(board: Sent, label: str) -> str:
    return str(next(c["custom_id"] for c in buttons(board.body) if c.get("label") == label))


def challenge_command(
    opponent_id: str, opponent_name: str, bot_user: bool = False, by: tuple[str, str] = ("1001", "Ada")
) -> dict[str, Any]:
    """``/hog challenge opponent:<member>`` as Discord sends it (from ``by``, id and name), the member resolved."""
    them = member(opponent_id, opponent_name)
    them["user"]["bot"] = bot_user
    resolved_member = {k: v for k, v in them.items() if k != "user"}
    return {
        "type": 2,
        **where(),
        "member": member(*by),
        "data": {
            "id": "1",
            "name": "hog",
            "type": 1,
            "options": [
                {"name": "challenge", "type": 1, "options": [{"name": "opponent", "type": 6, "value": opponent_id}]}
            ],
            "resolved": {"users": {opponent_id: them["user"]}, "members": {opponent_id: resolved_member}},
        },
    }


ROOT = Path(__file__).resolve().parents[2]


def bot_env(api_base: str, gateway: str, db: Path, cache: Path, token: str = "a-token") -> dict[str, str]:
    """The environment of ``python -m bot`` run as in production, pointed at a (fake) Discord."""
    return {
        **os.environ,
        "DISCORD_TOKEN": token,
        "HOG_DISCORD_API_BASE": api_base,
        "HOG_DISCORD_GATEWAY_URL": gateway,
        "HOG_GUILD_ID": GUILD_ID,
        "HOG_DB": str(db),
        "HOG_CACHE": str(cache),
    }


class BotProcess:
    """``python -m bot`` with a token, pointed at the fake, started and killed as in production."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path, solved: Path) -> None:
        self.fake = fake
        self.env = bot_env(fake.api_base, fake.gateway, tmp_path / "hog.sqlite3", solved)
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.fake.expect_login()
        self.process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=ROOT, env=self.env)
        await self.fake.ready(timeout=60)

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        assert await self.process.wait() == -signal.SIGKILL

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()


@pytest.fixture
async def bot_process(tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake_discord, tmp_path, solved_folder)
    yield process
    await process.stop()
