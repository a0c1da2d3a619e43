"""Cucumber under load through the fake Discord: many tables played at once, the bot run as in production.

``python -m bot`` runs in its own process with a token, pointed at the fake Discord of the test
suite. Half the tables are one member and two bots (Start with bots); half are two members and a
bot. Every member opens their hand, presses a playable card, reads the answer (their new hand), and
when it is someone else's turn waits for the board to change and refreshes their hand, until every
game is over. The figure is the time from the fake handing an interaction to the bot's gateway
connection to the bot's response arriving back (Discord wants it within 3 seconds).

    python bench/cucumber_load.py [--games 50] [--think 0.5 2.5] [--cards 7]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.against_fake import acknowledgements, bot_process  # noqa: E402
from tests.discord.boards import board_text  # noqa: E402
from tests.discord.cucumber_table import custom_id, playable  # noqa: E402
from tests.discord.discord_world import click, subcommand  # noqa: E402
from tests.discord.fake_discord import FakeDiscord, Sent  # noqa: E402

THINK = (0.5, 2.5)
"""The least and most seconds a member takes to read and press (``--think``)."""


class Boards:
    """Wakes each member of a table when its board message is edited."""

    def __init__(self) -> None:
        self.watchers: defaultdict[str, list[asyncio.Event]] = defaultdict(list)

    async def __call__(self, sent: Sent) -> None:
        if sent.method == "PATCH" and sent.path.startswith("/channels/"):
            for event in self.watchers[sent.path.rsplit("/", 1)[-1]]:
                event.set()

    def watch(self, message_id: str) -> asyncio.Event:
        event = asyncio.Event()
        self.watchers[message_id].append(event)
        return event


KINDS: dict[str, str] = {}
"""Each interaction's kind (a command, or the button's custom_id without its ids), for the slowest."""


async def answer(fake: FakeDiscord, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Press after thinking; the interaction's id and the bot's response."""
    await asyncio.sleep(random.uniform(*THINK))
    interaction = await fake.interact(data)
    KINDS[interaction] = ":".join(data["data"]["custom_id"].split(":")[:2])
    return interaction, dict((await fake.response(interaction, timeout=60)).body)


def over(response: dict[str, Any]) -> bool:
    """Whether the answer says the game is over (in words, or as a board of words: Components V2)."""
    data = response.get("data") or {}
    content = str(data.get("content") or board_text(data))
    return content.endswith("how it ended.") or content.startswith("This game is over")


async def member(fake: FakeDiscord, boards: Boards, board_id: str, who: str, name: str) -> int:
    """One member's game: open the hand, then play whenever it is their turn. Returns their presses."""
    edited = boards.watch(board_id)
    board = fake.message(board_id)
    interaction, shown = await answer(fake, click(custom_id(board, "Show my hand"), board, who, name))
    hand_id = fake.messages[f"original:token{interaction}"]["id"]
    for presses in range(1, 10_000):
        if over(shown):
            return presses
        hand = fake.message(hand_id)
        if cards := playable(hand):
            _, shown = await answer(fake, click(random.choice(cards), hand, who, name))
        else:  # someone else's turn: wait for the board to change, then look again
            await edited.wait()
            edited.clear()
            _, shown = await answer(fake, click(custom_id(hand, "Refresh"), hand, who, name))
    raise AssertionError("the game did not end")


async def table(fake: FakeDiscord, boards: Boards, n: int, cards: int) -> int:
    host = (str(10_000 + n), f"H{n}")
    guest = (str(20_000 + n), f"G{n}") if n % 2 else None
    options = [{"name": "players", "type": 4, "value": 3}, {"name": "cards", "type": 4, "value": cards}]
    await asyncio.sleep(random.uniform(*THINK))
    command = await fake.interact(subcommand("new", options, *host, group="cucumber"))
    KINDS[command] = "/cucumber new"
    await fake.response(command, timeout=60)
    await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{command}/messages/@original"))
    board_id = fake.messages[f"original:token{command}"]["id"]
    presses = 1
    if guest is not None:
        await answer(fake, click(custom_id(fake.message(board_id), "Join"), fake.message(board_id), *guest))
        presses += 1
    board = fake.message(board_id)
    await answer(fake, click(custom_id(board, "Start with bots"), board, *host))
    players = [host] + ([guest] if guest else [])
    return presses + 1 + sum(await asyncio.gather(*(member(fake, boards, board_id, *p) for p in players)))


async def main(games: int, cards: int, show_log: bool) -> None:
    boards = Boards()
    with tempfile.TemporaryDirectory() as scratch:
        async with bot_process(Path(scratch), Path(scratch) / "solutions", show_log) as fake:
            fake.observers.append(boards)
            started = time.perf_counter()
            counts = await asyncio.gather(*(table(fake, boards, n, cards) for n in range(games)))
            elapsed = time.perf_counter() - started

    waits, figures = acknowledgements(fake)
    late = sum(w > 3000 for w in waits)
    mixed = f"{games - games // 2} one member + 2 bots, {games // 2} two members + a bot"
    print(f"{games} Cucumber tables at once ({mixed}),")
    print(f"{cards} cards a hand, members pressing {THINK[0]:g}-{THINK[1]:g} s after seeing their hand")
    print(f"{sum(counts)} interactions answered in {elapsed:.1f} s ({sum(counts) / elapsed:.0f}/s); {late} after 3 s")
    print(figures)
    by_kind: defaultdict[str, list[float]] = defaultdict(list)
    for i in fake.answered_at:
        by_kind[KINDS.get(i, "?")].append(1000 * (fake.answered_at[i] - fake.delivered_at[i]))
    slowest = ", ".join(f"{kind} {max(ms):.0f} ms ({len(ms)})" for kind, ms in sorted(by_kind.items()))
    print(f"slowest by kind (count): {slowest}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--cards", type=int, default=7)
    parser.add_argument("--bot-log", action="store_true", help="show the bot's log")
    parser.add_argument(
        "--think", type=float, nargs=2, default=THINK, metavar=("LEAST", "MOST"), help="seconds between presses"
    )
    args = parser.parse_args()
    THINK = tuple(args.think)
    asyncio.run(main(args.games, args.cards, args.bot_log))
