"""The event store's guarantees (shared/DESIGN.md), stated once: versions, atomicity, idempotency,
gapless global order, closing without loss. Each backend's tests subclass ``EventStoreContract``
and say how to open their store, as the ``eventsourcing`` library's recorder test cases do."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.events import EventStore, NewEvent, StoreError, WrongExpectedVersion


def event(n: int = 0) -> NewEvent:
    """An event of no game at all: the store keeps records, it reads none."""
    return NewEvent("test.Happened", 1, b'{"n":%d}' % n)


class EventStoreContract:
    async def open_store(self, directory: Path) -> EventStore:
        """A store kept in ``directory`` (opened again on the same directory, the same store)."""
        raise NotImplementedError

    @pytest.fixture
    async def store(self, tmp_path: Path) -> AsyncIterator[EventStore]:
        opened = await self.open_store(tmp_path)
        yield opened
        await opened.close()

    async def test_append_load_and_read_all(self, store: EventStore) -> None:
        first = await store.append("g1", [event(1), event(2)], 0, recorded_at=100.0)
        assert (first.version, first.duplicate) == (2, False)
        await store.append("g2", [event(3)], 0)
        await store.append("g1", [event(4)], 2)
        assert await store.head() == 4  # every event placed in the global order once the log is read
        loaded = await store.load("g1")
        assert [(e.version, e.position) for e in loaded] == [(1, 1), (2, 2), (3, 4)]
        assert loaded[0].recorded_at == 100.0
        assert [(e.type, e.schema, e.data) for e in loaded] == [
            (x.type, x.schema, x.data) for x in (event(1), event(2), event(4))
        ]
        assert [e.version for e in await store.load("g1", after_version=2)] == [3]
        assert (await store.version("g1"), await store.version("g2"), await store.version("nobody")) == (3, 1, 0)
        assert [(e.stream_id, e.position) for e in await store.read_all()] == [
            ("g1", 1),
            ("g1", 2),
            ("g2", 3),
            ("g1", 4),
        ]
        assert [e.position for e in await store.read_all(after_position=2, limit=1)] == [3]
        assert await store.load("nobody") == []

    async def test_a_streams_first_type_is_read_alone(self, store: EventStore) -> None:
        """Which game wrote a stream, from its first event: what every front asks of an id."""
        await store.append("g1", [NewEvent("hog.GameCreated", 1, b"{}")], 0)
        await store.append("g1", [event(2)], 1)
        assert (await store.first_type("g1"), await store.first_type("nobody")) == ("hog.GameCreated", None)

    async def test_streams_by_prefix_oldest_first(self, store: EventStore) -> None:
        for stream in ("@t:s1:b", "@t:s1:a", "@t:s2:c", "@u:s1:d", "@t:s1:b", "g"):
            await store.append(stream, [event(1)], await store.version(stream))
        assert await store.streams("@t:s1:") == ["@t:s1:b", "@t:s1:a"]
        assert await store.streams("@t:") == ["@t:s1:b", "@t:s1:a", "@t:s2:c"]
        assert await store.streams("@v") == []

    async def test_concurrent_appends_at_the_same_version_exactly_one_wins(self, store: EventStore) -> None:
        for version in range(5):
            results = await asyncio.gather(
                *(store.append("g", [event(i)], version) for i in range(50)), return_exceptions=True
            )
            wins = [r for r in results if not isinstance(r, BaseException)]
            losses = [r for r in results if isinstance(r, WrongExpectedVersion)]
            assert len(wins) == 1 and len(losses) == 49
            assert str(losses[0]) == f"stream 'g' is at version {version + 1}, not {version}: someone else moved first"
        assert [e.version for e in await store.load("g")] == [1, 2, 3, 4, 5]

    async def test_concurrent_appends_to_different_streams_all_succeed_gaplessly(self, store: EventStore) -> None:
        results = await asyncio.gather(*(store.append(f"g{i}", [event(i), event(i + 1)], 0) for i in range(300)))
        assert all(r.version == 2 for r in results)
        read = await store.read_all(limit=10_000)
        assert [e.position for e in read] == list(range(1, 601))
        assert sorted((e.stream_id, e.version) for e in read) == sorted(
            (f"g{i}", v) for i in range(300) for v in (1, 2)
        )

    async def test_a_retried_command_stores_nothing_twice(self, store: EventStore) -> None:
        first = await store.append("g", [event(1), event(2)], 0, command_id="interaction-1")
        again = await store.append("g", [event(1), event(2)], 0, command_id="interaction-1")
        assert again.duplicate and again.version == 2
        late = await store.append("g", [event(9)], 2, command_id="interaction-1")  # even at a newer version
        assert late == again
        racing = await asyncio.gather(
            *(store.append("g", [event(3)], 2, command_id="interaction-2") for _ in range(20))
        )
        assert sum(not r.duplicate for r in racing) == 1 and {r.version for r in racing} == {3}
        assert len(await store.load("g")) == 3
        with pytest.raises(StoreError, match="already used on another stream"):
            await store.append("other", [event(1)], 0, command_id="interaction-1")
        assert first.version == 2

    async def test_a_batch_is_atomic(self, store: EventStore) -> None:
        await store.append("g", [event(1)], 0)
        with pytest.raises(WrongExpectedVersion):
            await store.append("g", [event(2), event(3), event(4)], 0)
        assert len(await store.load("g")) == 1
        with pytest.raises(StoreError, match="not a storable event"):
            await store.append("g", [event(2), NewEvent("test.Happened", 1, "text, not bytes")], 1)  # type: ignore[arg-type]
        with pytest.raises(StoreError, match="at least one event"):
            await store.append("g", [], 1)
        assert len(await store.load("g")) == 1

    async def test_a_restored_log_is_written_whole_with_its_own_commands_and_times(self, store: EventStore) -> None:
        """An imported game: every event with the command and time it was played with, in one
        transaction, onto an empty stream only, and no command that was used before."""
        await store.append("g", [event(0)], 0, command_id="c-used")
        log = [(event(1), "c-1", 10.0), (event(2), "c-1", 10.0), (event(3), None, 11.0), (event(4), "c-2", 12.0)]
        done = await store.restore("imported", log)
        assert done.version == 4
        assert [(e.stream_id, e.position) for e in await store.read_all(after_position=1)] == [
            ("imported", p) for p in range(2, 6)
        ]
        loaded = await store.load("imported")
        assert [(e.version, e.data, e.command_id, e.recorded_at) for e in loaded] == [
            (n, e.data, command, when) for n, (e, command, when) in enumerate(log, 1)
        ]
        again = await store.append("imported", [event(9)], 0, command_id="c-2")  # its commands are known
        assert again.duplicate and again.version == 4
        with pytest.raises(WrongExpectedVersion):
            await store.restore("imported", log)
        with pytest.raises(StoreError, match="'c-used' was already used"):
            await store.restore("other", [(event(1), "c-new", 1.0), (event(2), "c-used", 2.0)])
        assert await store.load("other") == [] and await store.head() == 5

    async def test_close_stores_what_is_queued(self, tmp_path: Path) -> None:
        store = await self.open_store(tmp_path)
        pending = [asyncio.ensure_future(store.append(f"g{i}", [event(i)], 0)) for i in range(50)]
        await asyncio.sleep(0)  # one turn of the loop: the appends reach the queue (no waiting on work)
        late = asyncio.ensure_future(store.append("late", [event(0)], 0))  # starts while closing
        await store.close()
        assert all(p.done() and not p.exception() for p in pending)
        with pytest.raises(StoreError, match="closed"):
            await late
        with pytest.raises(StoreError, match="closed"):
            await store.append("later", [event(0)], 0)
        reopened = await self.open_store(tmp_path)
        assert len(await reopened.read_all(limit=100)) == 50
        await reopened.close()
