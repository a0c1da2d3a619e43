"""A writer killed with SIGKILL mid-storm loses no acknowledged append and no batch is half-written."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import sys
from pathlib import Path

from storage.events import NewEvent
from storage.sqlite.store import SqliteEventStore

ROOT = Path(__file__).resolve().parents[2]


async def test_sigkill_mid_storm_loses_nothing_acknowledged(tmp_path: Path) -> None:
    path = tmp_path / "hog.sqlite3"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.storage.crash_writer", str(path), cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdout is not None
    acknowledged: dict[str, int] = {}
    try:
        assert await asyncio.wait_for(proc.stdout.readline(), 60) == b"ready\n"
        while len(acknowledged) < 20 or sum(acknowledged.values()) < 3000:
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            name, acked = line.decode().split()
            acknowledged[name] = max(acknowledged.get(name, 0), int(acked))
        proc.send_signal(signal.SIGKILL)
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
    assert proc.returncode == -signal.SIGKILL

    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store = await SqliteEventStore.open(path)
    try:
        for stream, version in acknowledged.items():
            events = await store.load(stream)
            assert len(events) >= version, f"{stream}: acknowledged v{version}, found {len(events)}"
            assert len(events) % 3 == 0, f"{stream}: a batch of 3 was half-written"
        everything = await store.read_all(limit=1_000_000)
        assert [e.position for e in everything] == list(range(1, len(everything) + 1))
        assert (await store.append("after", [NewEvent("TurnTaken", 1, b"{}")], 0)).version == 1  # still writable
    finally:
        await store.close()
