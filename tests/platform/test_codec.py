"""Events as store records: namespaced by game, upcast on read (old schema versions and the bare
type names stored before namespacing), and a damaged record named precisely."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hogbot_press.game import PressGame

from bot.platform.codec import DamagedEvent, ForeignStream, from_records
from hog_core.events import GameCreated, TurnTaken
from storage.events import NewEvent
from storage.sqlite.store import SqliteEventStore
from tests.helpers import HOG, hog_events, hog_record


def event(n: int = 0) -> NewEvent:
    return hog_record(TurnTaken(seat=n % 2, k=1, outcomes=(n % 6 + 1,), sides=6))


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteEventStore]:
    opened = await SqliteEventStore.open(tmp_path / "hog.sqlite3")
    yield opened
    await opened.close()


async def test_types_are_namespaced_and_bare_names_are_hogs(store: SqliteEventStore) -> None:
    await store.append("new", [event(1)], 0)
    await store.append("old", [NewEvent("TurnTaken", 1, event(1).data)], 0)  # as stored before namespacing
    (new,), (old,) = await store.load("new"), await store.load("old")
    assert new.type == "hog.TurnTaken"
    assert hog_events([new]) == hog_events([old]) == [TurnTaken(1, 1, (2,), 6)]
    with pytest.raises(ForeignStream, match="new is a game of hog, not press"):
        from_records(PressGame(), [new])


V1_GAME_CREATED = (
    b'{"type":"GameCreated","game_id":"old","rules":"fa18","rules_version":1,"goal":100,'
    b'"players":[{"id":"1","name":"A","house":null},{"id":"2","name":"B","house":null}],'
    b'"first":0,"challenge":false,"turn_limit":1000,"place":"c"}'
)


async def test_a_stored_v1_event_is_upcast_on_read(store: SqliteEventStore) -> None:
    await store.append("old", [NewEvent("GameCreated", 1, V1_GAME_CREATED)], 0)
    (stored,) = await store.load("old")
    assert stored.schema == 1 and stored.data == V1_GAME_CREATED  # never rewritten
    (created,) = hog_events([stored])
    assert isinstance(created, GameCreated) and created.turn_timeout == 0 and created.game_id == "old"


@pytest.mark.parametrize(
    ("row_type", "schema", "data", "words"),
    [
        ("DiceStolen", 1, b"{}", "unknown event type 'DiceStolen'"),
        ("TurnTaken", 1, b"\x00garbage", "damaged event data"),
        ("TurnTaken", 7, b"{}", "TurnTaken version 7 is not readable"),
    ],
)
async def test_a_damaged_row_is_a_clear_error_and_the_rest_keeps_working(
    store: SqliteEventStore, tmp_path: Path, row_type: str, schema: int, data: bytes, words: str
) -> None:
    await store.append("good", [event(1)], 0)
    await store.append("bad", [NewEvent(row_type, schema, data)], 0)
    (bad,) = await store.load("bad")
    with pytest.raises(DamagedEvent, match=words) as info:
        from_records(HOG, [bad])
    assert info.value.position == 2 and "event 2 (bad v1" in str(info.value)
    assert len(hog_events(await store.load("good"))) == 1
    assert (await store.append("good", [event(2)], 1)).version == 2
