"""Several processes on one PostgreSQL database: exactly one leads (keeps the timers, follows the
log); a deadline set by a click another process served is kept by the leader; when the leader goes,
another takes the lead within a tick and restores every timer from the log."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from bot.platform.compose import Platform, platform
from bot.platform.duty import Duty
from bot.platform.settings import Settings
from cucumber_core.events import Seat
from cucumber_core.game import JoinLobby, OpenLobby
from storage.leadership import SoleLeadership
from storage.postgres.leadership import LEADER_LOCK, PostgresLeadership
from storage.postgres.store import PostgresEventStore
from tests.fake_clock import FakeClock
from tests.helpers import until, within
from tests.platform.listening import Heard
from tests.storage.store_contract import event

TICK = 0.05


def hearing(p: Platform) -> Heard:
    """What the process's timers tell (they run under its duty, not the test's)."""
    heard = Heard()
    p.timers.warned, p.timers.fired = heard.warned, heard.on_fire
    return heard


async def test_one_process_leads_and_another_takes_over_when_it_goes(postgres_url: str) -> None:
    first, second = PostgresLeadership(postgres_url), PostgresLeadership(postgres_url)
    try:
        assert await first.lead() and not await second.lead()
        assert await first.lead() and not await second.lead()  # re-checked: still the first's
        await first.close()  # its connection gone (as when its process dies): the lock goes with it
        assert await second.lead() and not await first.lead()
    finally:
        await first.close()
        await second.close()


async def test_a_leader_the_database_stops_answering_lets_the_lead_go(postgres_url: str) -> None:
    """Its host frozen or cut off, a leader must not keep the lead: it steps down after ``patience``
    (and the server, once the connection is gone, frees the lock for another)."""
    if os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("freezes the leader's server process: only on the server the tests started")
    first, second = PostgresLeadership(postgres_url, patience=0.5), PostgresLeadership(postgres_url)
    try:
        assert await first.lead()
        backend = await holder_of_the_lead(postgres_url)
        os.kill(backend, signal.SIGSTOP)  # the leader's check now goes unanswered, its socket stays open
        try:
            assert not await asyncio.wait_for(first.lead(), 30)  # not the hours TCP would take
        finally:
            os.kill(backend, signal.SIGCONT)
        while not await second.lead():  # the server sees the dropped connection and frees the lock
            await asyncio.sleep(TICK)
        assert not await first.lead()
    finally:
        await first.close()
        await second.close()


async def holder_of_the_lead(url: str) -> int:
    """The server process (its pid) of the connection that holds the leader's lock."""
    db = await asyncpg.connect(url)
    try:
        pid = await db.fetchval("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1", LEADER_LOCK)
    finally:
        await db.close()
    assert pid is not None
    return int(pid)


async def test_an_append_in_any_process_wakes_the_others(postgres_url: str) -> None:
    """A commit of another process is a hint; one of this process's own is not (it heard of it from
    its own service): the leader does not read the log again after every move it served itself."""
    leadership = PostgresLeadership(postgres_url, own="mine")
    own, other = await PostgresEventStore.open(postgres_url, "mine"), await PostgresEventStore.open(postgres_url, "x")
    try:
        await leadership.lead()  # connected, listening
        woken = asyncio.ensure_future(leadership.hint(timeout=600))
        await own.append("g", [event(1)], 0)
        await other.append("h", [event(1)], 0)  # NOTIFYs arrive in commit order: the own one first
        await asyncio.wait_for(woken, 20)  # a hint, long before the tick
        await leadership.hint(timeout=0.2)  # nothing more is waiting
        await own.append("g", [event(2)], 1)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(leadership.hint(timeout=600), 1.0)  # an own hint would come at once
    finally:
        await own.close()
        await other.close()
        await leadership.close()


@dataclass
class Process:
    platform: Platform
    duty: Duty
    task: asyncio.Task[None]

    async def die(self) -> None:
        """As a process killed mid-game: its duty stops (a transaction it was in rolled back, as a
        dead connection's is), its database connections go."""
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await within(self.task, 30)
        await self.platform.leadership.close()


@pytest.fixture
async def processes(tmp_path: Path, postgres_url: str, clock: FakeClock) -> AsyncIterator[list[Process]]:
    """Two 'processes' (two platforms, each with its connections and its duty) on one database."""
    settings = Settings(db=tmp_path / "unused.sqlite3", database_url=postgres_url, cache=tmp_path)
    async with AsyncExitStack() as stack:
        started = []
        for _ in range(2):
            p = await stack.enter_async_context(platform(settings, clock=clock))
            duty = Duty(p, tick=TICK)
            task = asyncio.create_task(duty.run())
            stack.callback(task.cancel)
            await duty.ready.wait()
            started.append(Process(p, duty, task))
        yield started


async def test_the_leader_keeps_the_timers_of_games_another_process_serves(
    processes: list[Process], clock: FakeClock
) -> None:
    (leader, leading), (other, follower) = ((p.platform, p.duty) for p in processes)
    assert leading.leading and not follower.leading
    assert leader.projector.following and not other.projector.following
    ann = Seat("1", "Ann")
    heard = hearing(leader)
    await other.service("cucumber").create("t1", OpenLobby("t1", ann, 3, lobby_timeout=300), "open")
    await until(lambda: leader.timers.pending("t1"))  # the hint woke the leader, which read the log
    assert [d.kind for d in leader.timers.pending("t1")] == ["expire"]
    await clock.advance(400)  # past 300 s from the opening as the log recorded it (wall time: a margin)
    outcome = await within(heard.fired.get())  # the leader closed the table nobody started
    assert outcome.state.closed == "expired"
    assert (await other.service("cucumber").load("t1")).closed == "expired"


async def test_when_the_leader_goes_another_takes_its_timers_over(processes: list[Process], clock: FakeClock) -> None:
    (leader, _), (other, follower) = ((p.platform, p.duty) for p in processes)
    ann = Seat("1", "Ann")
    await leader.service("cucumber").create("t1", OpenLobby("t1", ann, 3, lobby_timeout=300, turn_timeout=60), "open")
    await processes[0].die()
    await until(lambda: follower.leading)  # the other takes the lead at its next tick
    assert other.projector.following and [d.kind for d in other.timers.pending("t1")] == ["expire"]
    heard = hearing(other)
    await clock.advance(400)  # the log's time is the wall's: a margin past the 300 s
    assert (await within(heard.fired.get())).state.closed == "expired"
    assert leader.timers.pending("t1") == []  # the old leader keeps none


async def test_a_turn_that_fails_is_tried_again(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The database out of reach for a moment does not stop the leader's work for good."""

    class Flaky(SoleLeadership):
        failures = 1

        async def lead(self) -> bool:
            if self.failures:
                self.failures -= 1
                raise ConnectionResetError("the database went away a moment")
            return True

    async with platform(Settings(db=tmp_path / "g.sqlite3", cache=tmp_path)) as p:
        p.leadership = Flaky()
        duty = Duty(p, tick=TICK)
        task = asyncio.create_task(duty.run())
        try:
            await duty.ready.wait()
            assert duty.leading and "the leading process's work failed" in caplog.text
        finally:
            task.cancel()


async def test_a_subscriber_hears_each_new_version_from_its_process_and_from_the_others(
    processes: list[Process],
) -> None:
    """The web's spectators will subscribe in whichever process serves them: a move stored by that
    process is heard at once, one stored by another process once the NOTIFY wakes this one's duty."""
    (leader, _), (follower, _) = ((p.platform, p.duty) for p in processes)
    ann = Seat("1", "Ann")
    for here in (leader, follower):  # a subscriber in the leading process, then in the following one
        game_id = f"t-{id(here)}"
        async with here.boards.subscribe(game_id) as heard:
            other = follower if here is leader else leader
            await other.service("cucumber").create(game_id, OpenLobby(game_id, ann, 3), f"open-{game_id}")  # elsewhere
            change = await asyncio.wait_for(heard.get(), 20)
            assert (change.game, change.game_id, change.version) == ("cucumber", game_id, 1)
            await here.service("cucumber").execute(game_id, lambda s, c: [JoinLobby(Seat("2", "Bob"))], f"j-{game_id}")
            assert (await asyncio.wait_for(heard.get(), 20)).version == 2  # its own process: at once
        assert not here.boards._subscribers  # nothing is read for a game nobody watches
