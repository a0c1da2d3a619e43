"""Run by tests/test_store_crash.py: a write storm that prints every acknowledged append.

    python -m tests.storage.crash_writer PATH

Twenty writers append batches of three events to their own streams, forever; each line on stdout
is ``stream version`` for an append the store has acknowledged.
"""

from __future__ import annotations

import asyncio
import sys

from storage.events import NewEvent
from storage.sqlite.store import SqliteEventStore


async def writer(store: SqliteEventStore, stream: str) -> None:
    version = 0
    while True:
        batch = [NewEvent("TurnTaken", 1, b'{"type":"TurnTaken","seat":0,"k":1,"outcomes":[4],"sides":6}')] * 3
        version = (await store.append(stream, batch, version)).version
        print(stream, version, flush=True)


async def main(path: str) -> None:
    store = await SqliteEventStore.open(path)
    print("ready", flush=True)
    await asyncio.gather(*(writer(store, f"s{i}") for i in range(20)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
