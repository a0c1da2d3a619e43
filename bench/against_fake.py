"""What the load benchmarks share: ``python -m bot`` run as in production in a process of its own,
logged in to the fake Discord of the test suite, and the acknowledgement times it measured."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from tests.discord.discord_world import ROOT, bot_env
from tests.discord.fake_discord import FakeDiscord


@asynccontextmanager
async def bot_process(
    scratch: Path,
    cache: Path,
    show_log: bool,
    processes: int = 1,
    database_url: str | None = None,
    pids: list[int] | None = None,
    env_extra: dict[str, str] | None = None,
    tree: Path = ROOT,
) -> AsyncIterator[FakeDiscord]:
    """The fake Discord, with the bot logged in to it until the block ends: one process on an SQLite
    file in ``scratch``, or ``processes`` processes sharing the PostgreSQL ``database_url``, each
    running one of as many shards (their process ids put in ``pids``); the bot of the checkout ``tree``
    (another commit's, for a side-by-side run), this one's by default."""
    fake = FakeDiscord(spec=None)  # the schema check is the tests' job; here it would only slow the fake
    await fake.start()
    env = bot_env(fake.api_base, fake.gateway, scratch / "bot.sqlite3", cache, token="load-test")
    if database_url:
        env["HOG_DATABASE_URL"] = database_url
    env |= env_extra or {}
    if tree != ROOT:
        env["PYTHONPATH"] = str(tree)  # that checkout's packages, not the installed ones
    stderr = None if show_log else asyncio.subprocess.DEVNULL
    bots = []
    try:
        for shard in range(processes):
            shards = {"HOG_SHARD_COUNT": str(processes), "HOG_SHARD_IDS": str(shard)} if processes > 1 else {}
            fake.expect_login()
            bots.append(
                await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", cwd=tree, env=env | shards, stderr=stderr
                )
            )
            await fake.ready(timeout=60)
        if pids is not None:
            pids.extend(bot.pid for bot in bots)
        yield fake
    finally:
        for bot in bots:
            bot.terminate()
            await bot.wait()
        await fake.stop()


async def solved_cache(scratch: Path) -> Path:
    """A solutions folder in ``scratch`` with Fall 2018 solved once, as a running bot would have it."""
    from bot.games.hog.solutions import SolutionCache
    from hog_core.rulesets import FA18
    from storage.shelves import FolderShelf

    cache = scratch / "solutions"
    await SolutionCache(FolderShelf(cache)).get(FA18, 100)
    return cache


@contextmanager
def checkout(commit: str) -> Iterator[Path]:
    """A git worktree of ``commit`` for the block (another build, run side by side with this one)."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "anchor"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), commit], cwd=ROOT, check=True,
                       capture_output=True)  # fmt: skip
        try:
            yield tree
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)


def acknowledgements(fake: FakeDiscord) -> tuple[list[float], str]:
    """Every interaction's time from the bot's gateway to its response, in ms, sorted; and a line of them."""
    waits = sorted(1000 * (fake.answered_at[i] - fake.delivered_at[i]) for i in fake.answered_at)
    q = statistics.quantiles(waits, n=100, method="inclusive")
    return waits, f"interaction -> acknowledgement: p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {waits[-1]:.1f} ms"
