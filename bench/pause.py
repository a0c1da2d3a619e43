"""The pause (issue 31): how long other games wait while a 6-seat Cucumber table is handed to bots.

Members play Hog against the house without stopping, each pressing 20-60 ms after seeing their
board. Meanwhile a member opens a 6-seat Cucumber table, starts it with five bots and leaves it
(``/cucumber leave``): the bots play the rest of the game, hundreds of cards, in one command. The
figures are the Hog acknowledgements (the time from the fake handing an interaction to the bot to
its response) while that command runs, beside the same before it; this checkout's bot, then the
anchor build's (a git worktree of ``--anchor``), in the same run.

    python bench/pause.py [--anchor eb3d874] [--players 8] [--tables 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.against_fake import bot_process, checkout, solved_cache  # noqa: E402
from bench.discord_load import button, to_move  # noqa: E402
from tests.discord.cucumber_table import custom_id  # noqa: E402
from tests.discord.discord_world import board_of, click, subcommand  # noqa: E402
from tests.discord.fake_discord import FakeDiscord  # noqa: E402

HOG = set[str]()
"""The Hog interactions (their acknowledgements are the figure)."""


async def hog_player(fake: FakeDiscord, n: int, stop: asyncio.Event) -> None:
    """Games against the house, one after another, until ``stop``."""
    who, name = str(10_000 + n), f"P{n}"
    while not stop.is_set():
        command = await fake.interact(subcommand("house", who=who, person=name))
        await fake.response(command, timeout=60)
        shown = await board_of(fake, command)
        message_id, body = fake.messages[f"original:token{command}"]["id"], shown.body
        while to_move(body) is not None and not stop.is_set():
            await asyncio.sleep(random.uniform(0.02, 0.06))
            pressed = await fake.interact(click(button(body, "4"), fake.message(message_id), who, name))
            HOG.add(pressed)
            body = (await fake.response(pressed, timeout=60)).body["data"]


async def handed_to_bots(fake: FakeDiscord, n: int) -> tuple[float, float]:
    """A 6-seat table of one member and five bots, which the member leaves: when the leaving was
    delivered and when it was answered (``time.perf_counter``)."""
    who, name = str(40_000 + n), f"C{n}"
    options = [{"name": "players", "type": 4, "value": 6}, {"name": "cards", "type": 4, "value": 7}]
    command = await fake.interact(subcommand("new", options, who, name, group="cucumber"))
    await fake.response(command, timeout=60)
    await board_of(fake, command)
    board = fake.message(fake.messages[f"original:token{command}"]["id"])
    started = await fake.interact(click(custom_id(board, "Start with bots"), board, who, name))
    await fake.response(started, timeout=60)
    leave = await fake.interact(subcommand("leave", who=who, person=name, group="cucumber"))
    await fake.response(leave, timeout=120)
    return fake.delivered_at[leave], fake.answered_at[leave]


async def measure(tree: Path, players: int, tables: int) -> tuple[float, float, float, int]:
    """The worst Hog acknowledgement before any table is handed over (after a warm-up), and while one is
    (max and p90), in ms."""
    HOG.clear()
    with tempfile.TemporaryDirectory() as scratch:
        cache = await solved_cache(Path(scratch))
        async with bot_process(Path(scratch), cache, False, tree=tree) as fake:
            stop = asyncio.Event()
            hogs = [asyncio.create_task(hog_player(fake, n, stop)) for n in range(players)]
            await asyncio.sleep(2)  # warming up (the first games load their rule set's solution): not counted
            quiet_from = time.perf_counter()
            await asyncio.sleep(3)
            quiet_until = time.perf_counter()
            windows = [await handed_to_bots(fake, n) for n in range(tables)]
            await asyncio.sleep(0.5)
            stop.set()
            await asyncio.gather(*hogs)
    acks = [
        (fake.delivered_at[i], 1000 * (fake.answered_at[i] - fake.delivered_at[i]))
        for i in HOG
        if i in fake.answered_at
    ]
    before = sorted(ms for at, ms in acks if quiet_from <= at < quiet_until)
    during = sorted(ms for at, ms in acks if any(start - 0.2 <= at <= end for start, end in windows))
    if not during:
        return before[-1], 0.0, 0.0, 0
    return before[-1], during[-1], during[int(0.9 * (len(during) - 1))], len(during)


async def main(anchor: str, players: int, tables: int) -> None:
    with checkout(anchor) as other:
        for build, tree in {"this checkout": ROOT, anchor: other}.items():
            quiet, worst, p90, n = await measure(tree, players, tables)
            print(f"{build:<14} Hog acknowledgements: worst {quiet:.0f} ms before; while a 6-seat table is handed "
                  f"to bots ({tables} times, {n} clicks): worst {worst:.0f} ms, p90 {p90:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchor", default="eb3d874", help="the commit to compare with (default: eb3d874)")
    parser.add_argument("--players", type=int, default=8, help="members playing Hog all along (default: 8)")
    parser.add_argument("--tables", type=int, default=3, help="tables handed to bots, one after another (default: 3)")
    args = parser.parse_args()
    asyncio.run(main(args.anchor, args.players, args.tables))
