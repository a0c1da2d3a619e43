"""Load through the fake Discord: many games played at once against the bot, run as in production.

``python -m bot`` runs in its own process with a token, pointed at the fake Discord of the test
suite. Half the games are against the perfect house, half are challenges between two members.
Every member presses a button, waits for the bot's answer, and presses again, until every game is
over. The figure is the time from the fake handing an interaction to the bot's gateway connection
to the bot's response arriving back (the acknowledgement Discord wants within 3 seconds): an
upper bound on the time inside the bot.

    python bench/discord_load.py [--games 100]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.against_fake import acknowledgements, bot_process, solved_cache  # noqa: E402
from tests.discord.boards import buttons, small_print  # noqa: E402
from tests.discord.discord_world import challenge_command, click, subcommand  # noqa: E402
from tests.discord.fake_discord import FakeDiscord  # noqa: E402


def to_move(body: dict[str, Any]) -> str | None:
    """Who is to move on this board (``None`` once the game is over): a board as an embed (an anchor
    from before Components V2) or as a container."""
    status = str(body["embeds"][0]["footer"]["text"]) if body.get("embeds") else small_print(body)
    return status.split(" to move")[0] if " to move" in status else None


def button(body: dict[str, Any], label: str) -> str:
    return str(next(c["custom_id"] for c in buttons(body) if c.get("label") == label))


THINK = (0.0, 0.0)
"""The least and most seconds a member takes to read the board and press (``--think``)."""


async def play(
    fake: FakeDiscord, members: dict[str, str], body: dict[str, Any], message_id: str, k: str, shard: int
) -> int:
    """Press ``k`` for whoever is to move until the game ends; returns the number of presses."""
    presses = 0
    while (name := to_move(body)) is not None:
        await asyncio.sleep(random.uniform(*THINK))
        who = members.get(name, next(iter(members.values())))
        pressed = await fake.interact(click(button(body, k), fake.message(message_id), who, name), shard)
        answer = await fake.response(pressed, timeout=60)
        assert answer.body["type"] == 7, answer.body
        body, presses = answer.body["data"], presses + 1
    return presses


async def house_game(fake: FakeDiscord, n: int, shards: int = 1) -> int:
    """A game against the house, on shard ``n % shards`` (each game's server is on one shard)."""
    who, name = str(10_000 + n), f"P{n}"
    await asyncio.sleep(random.uniform(*THINK))  # nobody types a command at the same instant as 99 others
    command = await fake.interact(subcommand("house", who=who, person=name), n % shards)
    await fake.response(command, timeout=60)
    shown = await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{command}/messages/@original"))
    message_id = fake.messages[f"original:token{command}"]["id"]
    return 1 + await play(fake, {name: who}, shown.body, message_id, "4", n % shards)


async def challenge_game(fake: FakeDiscord, n: int, shards: int = 1) -> int:
    """A challenge between two members, on shard ``n % shards``."""
    ada, bob = (str(20_000 + n), f"A{n}"), (str(30_000 + n), f"B{n}")
    await asyncio.sleep(random.uniform(*THINK))
    data = challenge_command(bob[0], bob[1])
    data["member"]["user"].update(id=ada[0], username=ada[1], global_name=ada[1])
    command = await fake.interact(data, n % shards)
    await fake.response(command, timeout=60)
    shown = await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{command}/messages/@original"))
    message_id = fake.messages[f"original:token{command}"]["id"]
    await asyncio.sleep(random.uniform(*THINK))
    accept = await fake.interact(click(button(shown.body, "Accept"), fake.message(message_id), *bob), n % shards)
    accepted = await fake.response(accept, timeout=60)
    return 2 + await play(fake, {ada[1]: ada[0], bob[1]: bob[0]}, accepted.body["data"], message_id, "5", n % shards)


async def main(games: int, show_log: bool) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        cache = await solved_cache(Path(scratch))
        async with bot_process(Path(scratch), cache, show_log) as fake:
            started = time.perf_counter()
            counts = await asyncio.gather(
                *(house_game(fake, n) if n % 2 == 0 else challenge_game(fake, n) for n in range(games))
            )
            elapsed = time.perf_counter() - started
    _, figures = acknowledgements(fake)
    print(f"{games} games at once ({games - games // 2} against the house, {games // 2} challenges),")
    print(f"members pressing {THINK[0]:g}-{THINK[1]:g} s after seeing the board")
    print(f"{sum(counts)} interactions answered in {elapsed:.1f} s ({sum(counts) / elapsed:.0f}/s)")
    print(figures)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bot-log", action="store_true", help="show the bot's log")
    parser.add_argument(
        "--think", type=float, nargs=2, default=(0.5, 2.5), metavar=("LEAST", "MOST"), help="seconds between presses"
    )
    args = parser.parse_args()
    THINK = tuple(args.think)
    asyncio.run(main(args.games, args.bot_log))
