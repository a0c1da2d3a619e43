"""Moves on distinct games from 1, 2 and 4 bot processes sharing one PostgreSQL (issue 54), this
checkout beside an anchor build (a git worktree of ``--anchor``) in the same run.

Each process opens its own event store (its writer task, its connections) and plays ``--in-flight``
games at once, each game's moves one after another as players make them; the first process also
follows the log as the leading bot does (and so, on this checkout, places the events in the global
order). The server syncs every commit (``fsync`` and ``synchronous_commit`` on, as in production), so
that a commit costs what it costs on a real disk. While they run, ``pg_locks`` is read every few
milliseconds: the lock waits it shows are counted, by kind. Target: 2 processes at least 1.6x the
moves/s of one, 4 at least 2.5x, where the machine's cores allow. What the machine allows is the
line "bare": as many processes, each one connection committing as many rows a transaction as it has
games in flight, into a table without a constraint or an index: no store, just the disk's commits.

    python bench/store_processes.py [--anchor a8e9b9a] [--in-flight 8] [--moves 40] [--rounds 1]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


async def worker(url: str, name: str, games: int, moves: int, follow: bool) -> None:
    """One process's moves (run as ``--worker``): ready, then the moves when told to go, then one
    line of JSON with the moves made and the seconds they took."""
    from storage.events import NewEvent
    from storage.postgres.store import PostgresEventStore

    store = await PostgresEventStore.open(url)
    data = b'{"type":"TurnTaken","seat":0,"k":3,"outcomes":[4,2,6],"sides":6}'
    done = asyncio.Event()

    async def play(game: int) -> None:
        for move in range(moves):
            await store.append(
                f"{name}-{game}", [NewEvent("hog.TurnTaken", 1, data)], move, command_id=f"{name}-{game}-{move}"
            )

    async def following() -> int:
        seen = 0
        while not done.is_set():
            events = await store.read_all(seen, 1000)
            seen = events[-1].position if events else seen
            await asyncio.sleep(0.01)
        return seen

    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    started = time.perf_counter()
    follower = asyncio.ensure_future(following()) if follow else None
    await asyncio.gather(*(play(g) for g in range(games)))
    elapsed = time.perf_counter() - started
    done.set()
    if follower is not None:
        await follower
    await store.close()
    print(json.dumps({"moves": games * moves, "seconds": elapsed}), flush=True)


async def bare(url: str, name: str, games: int, moves: int) -> None:
    """The disk's commits alone (run as ``--bare``): ``moves`` transactions of ``games`` rows each."""
    import asyncpg

    db = await asyncpg.connect(url)
    await db.execute(f"CREATE TABLE bare_{name} (stream_id TEXT, version INTEGER, data BYTEA)")
    rows = [(f"{name}-{g}", 0, b"{}") for g in range(games)]
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    started = time.perf_counter()
    for _ in range(moves):
        async with db.transaction():
            await db.executemany(f"INSERT INTO bare_{name} VALUES ($1, $2, $3)", rows)
    elapsed = time.perf_counter() - started
    await db.close()
    print(json.dumps({"moves": games * moves, "seconds": elapsed}), flush=True)


async def run(
    tree: Path | None, url: str, processes: int, games: int, moves: int
) -> tuple[float, collections.Counter[str]]:
    """Moves/s of ``processes`` workers of the build in ``tree`` on the database ``url``, and the
    lock waits seen meanwhile, by kind."""
    import asyncpg

    env = {"PYTHONPATH": str(tree or ROOT)}
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--worker" if tree else "--bare",
            url,
            f"p{n}",
            str(games),
            str(moves),
            str(int(n == 0)),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            cwd=tree or ROOT,
        )
        for n in range(processes)
    ]
    for w in workers:
        assert w.stdout is not None and (await w.stdout.readline()).strip() == b"ready"
    watch = await asyncpg.connect(url)
    waits: collections.Counter[str] = collections.Counter()
    for w in workers:
        assert w.stdin is not None
        w.stdin.write(b"go\n")
        await w.stdin.drain()
    finished = asyncio.ensure_future(asyncio.gather(*(w.communicate() for w in workers)))
    while not finished.done():
        rows = await watch.fetch(
            "SELECT l.locktype, l.mode FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE NOT l.granted AND a.datname = current_database()"
        )
        waits.update(f"{r['locktype']} {r['mode']}" for r in rows)
        await asyncio.sleep(0.005)
    await watch.close()
    results = [json.loads(out.decode().splitlines()[-1]) for out, _ in await finished]
    return sum(r["moves"] for r in results) / max(r["seconds"] for r in results), waits


async def main(anchor: str, games: int, moves: int, rounds: int) -> None:
    from bench.against_fake import checkout
    from tests.postgres_server import create_database, throwaway_server

    counts = (1, 2, 4)
    with checkout(anchor) as other, throwaway_server(durable=True) as server:
        builds: dict[str, Path | None] = {"this checkout": ROOT, anchor: other, "bare": None}
        found: dict[str, dict[int, list[float]]] = {b: {n: [] for n in counts} for b in builds}
        waited: dict[str, dict[int, collections.Counter[str]]] = {
            b: {n: collections.Counter() for n in counts} for b in builds
        }
        for _ in range(rounds):
            for n in counts:
                for build, tree in builds.items():
                    rate, waits = await run(tree, await create_database(server), n, games, moves)
                    found[build][n].append(rate)
                    waited[build][n].update(waits)
        print(f"Moves on distinct games, {games} games in flight a process, {moves} moves each, commits synced "
              f"(median of {rounds}; lock waits: samples of pg_locks that showed one):")  # fmt: skip
        for build in builds:
            one = statistics.median(found[build][1])
            for n in counts:
                rate = statistics.median(found[build][n])
                kinds = ", ".join(f"{k} x{c}" for k, c in waited[build][n].most_common()) or "none"
                print(f"  {build:<14} {n} process{'es' if n > 1 else '  '} {rate:8,.0f} moves/s "
                      f"({rate / one:.2f}x of one)   lock waits: {kinds}")  # fmt: skip


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        url, name, games, moves, follow = sys.argv[2:7]
        asyncio.run(worker(url, name, int(games), int(moves), follow == "1"))
        sys.exit()
    if len(sys.argv) > 1 and sys.argv[1] == "--bare":
        asyncio.run(bare(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])))
        sys.exit()
    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--anchor", default="a8e9b9a", help="the commit to compare with (default: a8e9b9a, a table lock)"
    )
    parser.add_argument("--in-flight", type=int, default=8, help="games a process moves at once (default: 8)")
    parser.add_argument("--moves", type=int, default=40, help="moves of each game (default: 40)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each setting, alternating builds (default: 1)")
    args = parser.parse_args()
    asyncio.run(main(args.anchor, args.in_flight, args.moves, args.rounds))
