"""What the load benchmarks share: ``python -m bot`` run as in production in a process of its own,
logged in to the fake Discord of the test suite, and the acknowledgement times it measured."""

from __future__ import annotations

import asyncio
import statistics
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.discord.discord_world import ROOT, bot_env
from tests.discord.fake_discord import FakeDiscord


@asynccontextmanager
async def bot_process(scratch: Path, cache: Path, show_log: bool) -> AsyncIterator[FakeDiscord]:
    """The fake Discord, with the bot (its database in ``scratch``) logged in to it, until the block ends."""
    fake = FakeDiscord(spec=None)  # the schema check is the tests' job; here it would only slow the fake
    await fake.start()
    env = bot_env(fake.api_base, fake.gateway, scratch / "bot.sqlite3", cache, token="load-test")
    stderr = None if show_log else asyncio.subprocess.DEVNULL
    bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=ROOT, env=env, stderr=stderr)
    try:
        await fake.ready(timeout=60)
        yield fake
    finally:
        bot.terminate()
        await bot.wait()
        await fake.stop()


def acknowledgements(fake: FakeDiscord) -> tuple[list[float], str]:
    """Every interaction's time from the bot's gateway to its response, in ms, sorted; and a line of them."""
    waits = sorted(1000 * (fake.answered_at[i] - fake.delivered_at[i]) for i in fake.answered_at)
    q = statistics.quantiles(waits, n=100, method="inclusive")
    return waits, f"interaction -> acknowledgement: p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {waits[-1]:.1f} ms"
