"""The memory event store keeps the contract every store keeps, so the fast tests that stand on it
(``tests/platform/test_boards.py``) stand on what SQLite and PostgreSQL guarantee."""

from __future__ import annotations

from pathlib import Path

from storage.events import EventStore
from storage.memory import MemoryEventStore
from tests.storage.store_contract import EventStoreContract


class TestMemoryEventStore(EventStoreContract):
    async def open_store(self, directory: Path) -> EventStore:
        return await MemoryEventStore.open(str(directory))
