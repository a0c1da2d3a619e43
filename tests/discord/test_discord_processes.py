"""Two bot processes (``python -m bot``, as in production) on one PostgreSQL database, each running
one of two shards of the fake Discord: any process serves any click on any game, clicks racing on
both processes store one move, the leader killed mid-game (SIGKILL) hands its timers to the other,
and at the end every log is gapless, no move is doubled or lost, the read models equal a rebuild and
every board shows its game's last state."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.platform.compose import platform
from bot.platform.settings import Settings
from hog_core.game import Status
from hog_core.solver import Solution
from storage.shelves import PostgresShelf
from tests.discord.boards import buttons as board_buttons
from tests.discord.boards import status
from tests.discord.discord_world import BotProcess, challenge_command, click, labels, where
from tests.discord.fake_discord import GUILD_ID, FakeDiscord, member
from tests.solved import shelve

TURN_TIMEOUT = 6
"""Seconds before a player who does not move forfeits: long beside a click, short for a test."""
PEOPLE = {"1001": "Ada", "2002": "Bob", "3003": "Cy", "4004": "Di"}


@pytest.fixture
async def two_processes(
    tmp_path: Path, fake_discord: FakeDiscord, solutions: dict[str, Solution], postgres_url: str
) -> AsyncIterator[list[BotProcess]]:
    """Two processes on shards 0 and 1; the solved rule sets are in the database, where both look."""
    await shelve(PostgresShelf(postgres_url), solutions)
    processes = []
    for shard in (0, 1):
        process = BotProcess(fake_discord, tmp_path, tmp_path / "unused-cache")  # HOG_CACHE: not read
        process.env |= {
            "HOG_DATABASE_URL": postgres_url,
            "HOG_SHARD_COUNT": "2",
            "HOG_SHARD_IDS": str(shard),
            "HOG_TURN_TIMEOUT": str(TURN_TIMEOUT),
        }
        await process.start()  # the first to start takes the lead
        processes.append(process)
    yield processes
    for process in processes:
        await process.stop()


async def answer(fake: FakeDiscord, interaction: str) -> dict[str, Any]:
    return dict((await fake.response(interaction, timeout=30)).body)


async def challenge(fake: FakeDiscord, shard: int, by: str, opponent: str) -> tuple[str, str]:
    """A challenge made on ``shard`` and accepted on the other; the game's id and its board's message id."""
    asked = await fake.interact(challenge_command(opponent, PEOPLE[opponent], by=(by, PEOPLE[by])), shard)
    board = await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"token{asked}/messages/@original"))
    accept = next(c["custom_id"] for c in board_buttons(board.body) if c["label"] == "Accept")
    message = fake.messages[f"original:token{asked}"]
    accepted = await answer(fake, await fake.interact(click(accept, message, opponent, PEOPLE[opponent]), 1 - shard))
    assert accepted["type"] == 7 and status(accepted["data"]).endswith("to move.")
    return accept.split(":")[2], message["id"]


def roll_button(message: dict[str, Any], dice: str) -> str:
    return str(next(c["custom_id"] for c in board_buttons(message) if c["label"] == dice))


def mover(message: dict[str, Any]) -> str:
    name = status(message).split(" to move")[0]
    return next(i for i, n in PEOPLE.items() if n == name)


async def move(fake: FakeDiscord, message_id: str, shards: tuple[int, ...]) -> list[str]:
    """The player to move presses 5 dice on the board, once on each of ``shards`` at the same moment
    (a double click that reaches both processes); the interactions' ids."""
    message = fake.message(message_id)
    who, custom_id = mover(message), roll_button(message, "5")
    sent = [await fake.interact(click(custom_id, message, who, PEOPLE[who]), shard) for shard in shards]
    await asyncio.gather(*(answer(fake, i) for i in sent))
    return sent


async def test_two_processes_share_the_games_and_survive_the_leader(
    two_processes: list[BotProcess], fake_discord: FakeDiscord, postgres_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    leader, survivor = two_processes
    first, first_board = await challenge(fake, 0, "1001", "2002")
    second, second_board = await challenge(fake, 1, "3003", "4004")
    raced: list[list[str]] = []
    for _ in range(3):  # both games played on both processes, each click reaching both at once
        raced.append(await move(fake, first_board, (0, 1)))
        raced.append(await move(fake, second_board, (1, 0)))

    await leader.kill()  # the leader dies mid-game; the survivor takes the lead (and the timers)
    alone: list[str] = []
    while not status(fake.message(first_board)).endswith("won."):
        alone += await move(fake, first_board, (1,))
    # nobody moves in the second game: its turn timer, restored by the survivor, forfeits the mover
    await fake.wait_for(
        lambda s: s.method == "PATCH" and s.path.endswith(second_board) and "won" in str(s.body), timeout=60
    )
    await survivor.stop()  # shut down cleanly: its read models caught up

    settings = Settings(db=tmp_path / "unused.sqlite3", database_url=postgres_url, cache=tmp_path)
    async with platform(settings) as p:
        for game_id, board in ((first, first_board), (second, second_board)):
            stored = await p.store.load(game_id)
            assert [e.version for e in stored] == list(range(1, len(stored) + 1))  # gapless
            commands = [e.command_id for e in stored if e.type == "hog.TurnTaken" and e.command_id]
            assert len(commands) == len(set(commands))  # no click stored twice
            state = await p.service("hog").load(game_id)
            assert state.status is Status.FINISHED and state.winner is not None
            shown = fake.message(board)  # the board shows the last state: the winner, no buttons left
            winner = state.players[state.winner].name
            assert labels(shown["components"]) == ["Rematch", "Picture"]
            assert status(shown).startswith(f"{winner} won")
        moves = {e.command_id for g in (first, second) for e in await p.store.load(g)}
        assert all(len(set(pair) & moves) == 1 for pair in raced)  # each double click: one move, never two
        assert set(alone) <= moves  # and no single click lost
        second_state = await p.service("hog").load(second)
        assert second_state.forfeited_by is not None  # by the survivor's timer
        live = [await p.views.game(g) for g in (first, second)], await p.views.checkpoint()
        await p.projector.rebuild()
        assert ([await p.views.game(g) for g in (first, second)], await p.views.checkpoint()) == live
    assert not (tmp_path / "unused-cache").exists()  # no process solved a rule set: they read the database's
    assert GUILD_ID  # (the server the fake's shards split)


def command(
    name: str, group: str, who: str, options: list[dict[str, Any]] | None = None, sub: str | None = None
) -> dict[str, Any]:
    """``/<group> [sub] <name>`` from ``who``, as Discord sends it."""
    inner: list[dict[str, Any]] = [{"name": name, "type": 1, "options": options or []}]
    if sub is not None:
        inner = [{"name": sub, "type": 2, "options": inner}]
    data = {"id": "1", "name": group, "type": 1, "options": inner}
    return {"type": 2, **where(), "member": member(who, PEOPLE[who]), "data": data}


async def edited(fake: FakeDiscord, message: str, has: str, after: int) -> None:
    """Wait for an edit of ``message`` saying ``has``, sent after the ``after``-th request."""
    await fake.wait_for(lambda s: s.path.endswith(message) and has in str(s.body) and fake.sent.index(s) >= after)


async def press_on(fake: FakeDiscord, board: str, custom_id: str, who: str, shard: int) -> None:
    await answer(fake, await fake.interact(click(custom_id, fake.message(board), who, PEOPLE[who]), shard))


async def test_two_processes_never_pair_a_tournament_round_twice(
    two_processes: list[BotProcess], fake_discord: FakeDiscord, postgres_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    swiss = [{"name": "format", "type": 3, "value": "swiss"}, {"name": "rounds", "type": 4, "value": 2},
             {"name": "signup", "type": 4, "value": 0}]  # fmt: skip
    await answer(fake, await fake.interact(command("new", "hog", "1001", swiss, sub="tournament"), 0))
    posted = await fake.wait_for(lambda s: s.method == "PATCH" and "/channels/" in s.path and "Sign-up" in str(s.body))
    board = posted.path.rsplit("/", 1)[1]
    tid = str(posted.body["embeds"][0]["title"]).split()[3]
    for shard, who in enumerate(("2002", "3003", "4004")):  # joined on either process
        at = len(fake.sent)
        await press_on(fake, board, f"tournament:{tid}:join", who, shard % 2)
        await edited(fake, board, PEOPLE[who], at)
    at = len(fake.sent)
    await press_on(fake, board, f"tournament:{tid}:start", "1001", 1)
    await edited(fake, board, "Round 1", at)

    settings = Settings(db=tmp_path / "unused.sqlite3", database_url=postgres_url, cache=tmp_path)
    async with platform(settings) as p:
        (t,) = await p.tournaments.book.of_server(GUILD_ID)
        assert t.current is not None
        losers = [table[1] for table in t.current.tables]
        at = len(fake.sent)
        # both games of round 1 end at the same moment, one on each process: each records its result
        # and races the other to pair round 2
        forfeits = [await fake.interact(command("forfeit", "hog", who), shard) for shard, who in enumerate(losers)]
        await asyncio.gather(*(answer(fake, f) for f in forfeits))
        await edited(fake, board, "Round 2", at)
        last = f"t{tid}r2g2"
        await fake.wait_for(lambda s: s.method == "PATCH" and "round 2" in str(s.body) and last in str(s.body))
        stored = await p.store.load(t.stream_id)
        assert [e.type for e in stored].count("tournament.paired") == 2, "round 2 paired once"
        t = await p.tournaments.book.load(t.stream_id)
        assert t.current is not None and len(t.current.games) == 2
        for game_id in t.current.games:
            assert await p.store.version(game_id) >= 1
        posts = [s for s in fake.sent if s.method == "POST" and "/channels/" in s.path and "round 2:" in str(s.body)]
        assert len(posts) == 2, "each game of round 2 posted once"
