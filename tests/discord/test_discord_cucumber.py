"""Cucumber through the fake Discord, end to end: a table with one person and two bots, and one of
four people, played to the end; a wrong player's press, a stale hand, an illegal card, a double press
and a restart leave the log as it should be; and no request the bot makes ever shows anyone a card of
a hand they may not see."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.discord.client import GameBot
from bot.platform.settings import Settings
from cucumber_core.events import CardPlayed
from storage.sqlite.store import SqliteEventStore
from tests.discord.boards import board_text, texts
from tests.discord.boards import buttons as board_buttons
from tests.discord.cucumber_table import (
    LeakWatch,
    custom_id,
    face_up,
    open_hand,
    open_table,
    playable,
    to_play,
)
from tests.discord.discord_world import click, press, running_bot, subcommand
from tests.discord.fake_discord import V2, FakeDiscord, Sent
from tests.fake_clock import FakeClock
from tests.helpers import Seeded

ADA, BOB, CY, DI = ("1001", "Ada"), ("2002", "Bob"), ("3003", "Cy"), ("4004", "Di")
PEOPLE = {name: pid for pid, name in (ADA, BOB, CY, DI)}
SETTINGS = Settings(env={"HOG_CARD_TIMEOUT": "60", "HOG_LOBBY_TIMEOUT": "600"})


@pytest.fixture
async def table(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> AsyncIterator[tuple[FakeDiscord, GameBot, LeakWatch]]:
    db = tmp_path / "bot.sqlite3"
    seeded = Seeded(3)
    async with (
        watching(fake_discord, db) as watch,
        running_bot(fake_discord, db, solved_folder, clock, chance=seeded, settings=SETTINGS) as bot,
    ):
        yield fake_discord, bot, watch
    assert watch.leaks == []


@asynccontextmanager
async def watching(fake: FakeDiscord, db: Path) -> AsyncIterator[LeakWatch]:
    """A leak watch on every request ``fake`` receives, reading the log in ``db`` itself."""
    store = await SqliteEventStore.open(db)
    watch = LeakWatch(fake, store)
    fake.observers.append(watch)
    try:
        yield watch
    finally:
        fake.observers.remove(watch)
        await store.close()


async def board_edit(fake: FakeDiscord, board: dict[str, Any], text: str) -> Sent:
    """The first edit of the board message that says ``text``."""
    path = f"/messages/{board['id']}"
    return await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(path) and text in str(s.body))


def option(name: str, value: int) -> dict[str, Any]:
    return {"name": name, "type": 4, "value": value}


async def test_one_person_and_two_bots_play_to_the_end(table: tuple[FakeDiscord, GameBot, LeakWatch]) -> None:
    fake, bot, watch = table
    game_id, board = await open_table(fake, *ADA, [option("players", 3), option("cards", 5)])
    watch.games.add(game_id)
    assert texts(board)[0].startswith("### 🥒 Cucumber") and "Ada opened a table for up to 3" in board_text(board)
    await press(fake, *ADA, board, custom_id(board, "+ strong bot"))
    await press(fake, *ADA, board, custom_id(board, "+ magic bot"))
    started = await press(fake, *ADA, board, custom_id(board, "Start"))
    assert started["type"] == 7 and "Cut for dealer:" in board_text(started["data"])
    assert to_play(fake.message(board["id"])) == "Ada"
    asked = [{"name": "game", "type": 3, "value": game_id}]
    early = (await fake.response(await fake.interact(subcommand("analyze", asked, *BOB, group="cucumber")))).body
    still = f"Game {game_id} is still being played: its review comes when it ends (it would tell of hands held)."
    assert (early["data"]["content"], early["data"]["flags"]) == (still, 64)
    answer, hand = await open_hand(fake, *ADA, fake.message(board["id"]))
    assert answer["type"] == 4 and answer["data"]["flags"] == 64 | V2  # for Ada alone, a board of her own
    for _ in range(500):
        cards = playable(hand)
        if not cards:
            break
        answer = await press(fake, *ADA, hand, cards[0])
        assert answer["type"] == 7, answer
        hand = fake.message(hand["id"])
    assert "The game is over" in board_text(hand)
    await board_edit(fake, board, "🏁")  # the board is edited beside the answer to the press
    ended = fake.message(board["id"])
    assert texts(ended)[1].splitlines()[-1].startswith("🏁") and not ended["attachments"]
    state = await bot.platform.service("cucumber").load(game_id)
    assert state.is_over and state.loser is not None and max(state.scores) >= 21
    assert [c["custom_id"] for c in board_buttons(ended)] == [
        f"cucumber:rematch:{game_id}",
        f"cucumber:replay:{game_id}:0:open",
        f"cucumber:picture:{game_id}",
    ]
    answer = await press(fake, "1009", "Watcher", ended, f"cucumber:picture:{game_id}")  # anyone may ask
    assert answer["type"] == 7 and fake.uploads[fake.message(board["id"])["attachments"][0]["id"]].startswith(
        b"\x89PNG"
    )  # the score race, drawn when asked
    assert watch.checked > 20 and watch.own_cards_shown > 10 and watch.leaks == []

    replay = await press(fake, *BOB, fake.message(board["id"]), f"cucumber:replay:{game_id}:0:open")
    assert replay["data"]["flags"] == 64 and "Hands as this step began" in str(replay["data"]["embeds"])
    (reviewed,) = [f for f in replay["data"]["embeds"][0]["fields"] if f["name"].startswith("Review")]
    assert reviewed["value"].startswith("Ada: ") and "cards chosen" in reviewed["value"]  # Ada alone: bots are not
    analyzed = (await fake.response(await fake.interact(subcommand("analyze", asked, *BOB, group="cucumber")))).body
    (embed,) = analyzed["data"]["embeds"]
    assert analyzed["data"]["flags"] == 64 and embed["title"] == f"Cucumber · {game_id} · review"
    assert embed["description"].splitlines()[0] == reviewed["value"] and embed["footer"]["text"].startswith(
        "An estimate"
    )
    history = await fake.interact(subcommand("stats", [], *ADA, group="cucumber"))
    stats = (await fake.response(history)).body["data"]["embeds"][0]
    assert stats["title"] == "Ada's Cucumber stats" and stats["fields"][0]["value"].startswith("1 played, lost ")
    assert "Cucumbers taken: 0" in stats["fields"][0]["value"] and stats["fields"][1]["name"] == "By table size"


async def test_four_people_through_every_wrong_press_and_a_restart(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    fake, db = fake_discord, tmp_path / "bot.sqlite3"
    async with watching(fake, db) as watch:
        await four_people(fake, db, solved_folder, clock, watch)
    assert watch.leaks == [] and watch.checked > 100 and watch.own_cards_shown > 20


async def four_people(fake: FakeDiscord, db: Path, solved_folder: Path, clock: FakeClock, watch: LeakWatch) -> None:
    async with running_bot(fake, db, solved_folder, clock, chance=Seeded(5), settings=SETTINGS) as bot:
        game_id, board = await open_table(fake, *ADA, [option("players", 4), option("cards", 4), option("target", 15)])
        watch.games.add(game_id)
        for person in (BOB, CY, DI):
            joined = await press(fake, *person, board, custom_id(board, "Join"))
            assert joined["type"] == 7
        refused = await press(fake, *BOB, board, custom_id(board, "Start"))
        assert refused["data"]["content"] == "Only Ada, who opened the table, can start the game."
        await press(fake, *ADA, board, custom_id(board, "Start"))
        service = bot.platform.service("cucumber")
        hands: dict[str, dict[str, Any]] = {}

        async def mover_of(game_id: str) -> str | None:
            """Whoever is to play, from the log (the board is edited beside each answer, a moment later)."""
            state = await service.load(game_id)
            return None if state.to_play is None else state.seats[state.to_play].name

        async def hand_of(person: tuple[str, str]) -> dict[str, Any]:
            if person[1] not in hands:
                _, hands[person[1]] = await open_hand(fake, *person, fake.message(board["id"]))
            else:
                await press(fake, *person, hands[person[1]], custom_id(hands[person[1]], "Refresh"))
            hands[person[1]] = fake.message(hands[person[1]]["id"])
            return hands[person[1]]

        # a spectator sees no hand
        playing = fake.message(board["id"])
        spectator = await press(fake, "5005", "Eve", playing, custom_id(playing, "Show my hand"))
        assert spectator["data"]["content"] == "You are not playing in this game."

        assert to_play(fake.message(board["id"])) == await mover_of(game_id)  # the start's board
        mover = await mover_of(game_id)
        assert mover is not None
        person = (PEOPLE[mover], mover)
        hand = await hand_of(person)
        version = (await service.load(game_id)).version
        other = next(p for p in (ADA, BOB, CY, DI) if p != person)
        wrong = await press(fake, *other, hand, playable(hand)[0])  # someone else's hand: never theirs to play
        assert wrong["data"]["content"].startswith("That hand is not yours")
        card = playable(hand)[0]
        held = [c["custom_id"] for c in board_buttons(hand) if c.get("disabled")]
        if held:  # a card they hold but may not play now, forged as if enabled
            illegal = await press(fake, *person, hand, held[0])
            assert illegal["type"] == 7 and "⚠️" in board_text(illegal["data"])
        assert (await service.load(game_id)).version == version

        # a double press: two presses of one card at once store one card
        first, second = await asyncio.gather(
            fake.interact(click(card, hand, *person)), fake.interact(click(card, hand, *person))
        )
        answers = [(await fake.response(i)).body for i in (first, second)]
        assert sorted(a["type"] for a in answers) == [7, 7]
        assert any("moved on" in board_text(a["data"]) for a in answers)
        played = [e for e in await service.events(game_id) if isinstance(e, CardPlayed)]
        assert len(played) == 1

        # a stale hand: the old message's card after the table moved on
        stale = await press(fake, *person, hand, card)
        assert "moved on" in board_text(stale["data"])
        assert len([e for e in await service.events(game_id) if isinstance(e, CardPlayed)]) == 1

        for _ in range(6):  # a few more cards before the restart
            mover = await mover_of(game_id)
            assert mover is not None
            hand = await hand_of((PEOPLE[mover], mover))
            await press(fake, PEOPLE[mover], mover, hand, playable(hand)[0])
        before = await service.events(game_id)

    async with running_bot(fake, db, solved_folder, clock, chance=Seeded(6), settings=SETTINGS) as bot:
        service = bot.platform.service("cucumber")
        assert await service.events(game_id) == before
        for _ in range(2000):
            mover = await mover_of(game_id)
            if mover is None:
                break
            hand = await hand_of((PEOPLE[mover], mover))  # old hand messages' buttons still answer
            answer = await press(fake, PEOPLE[mover], mover, hand, playable(hand)[0])
            assert answer["type"] == 7
        state = await service.load(game_id)
        assert state.is_over and state.loser is not None and max(state.scores) >= 15
        events = await service.events(game_id)
        assert events[: len(before)] == before
        assert [s.version for s in await bot.platform.store.load(game_id)] == list(range(1, len(events) + 1))
        row = await (await bot.platform.settled_views()).game(game_id)
        assert row is not None and row.status == "finished" and sum(s.result == "loss" for s in row.seats) == 1
        await board_edit(fake, board, "🏁")


async def test_the_leak_watch_sees_a_leak(table: tuple[FakeDiscord, GameBot, LeakWatch]) -> None:
    """The watch itself: a public message naming a held card is caught (so its silence means something)."""
    fake, bot, watch = table
    game_id, board = await open_table(fake, *ADA, [option("players", 2)])
    await press(fake, *ADA, board, custom_id(board, "Start with bots"))
    watch.games.add(game_id)
    state = await bot.platform.service("cucumber").load(game_id)
    from cucumber_core.cards import short

    shown = face_up(await bot.platform.service("cucumber").events(game_id))  # the cut and the cards played
    secret = next(c for c in state.hands[1] if c not in shown)
    await watch(Sent("PATCH", "/channels/1/messages/2", {"content": f"Strong bot holds {short(secret)}"}))
    assert len(watch.leaks) == 1
    watch.leaks.clear()


async def test_leave_hands_the_seat_to_a_bot_and_im_back_takes_it_again(
    table: tuple[FakeDiscord, GameBot, LeakWatch],
) -> None:
    fake, bot, watch = table
    game_id, board = await open_table(fake, *ADA, [option("players", 3)])
    watch.games.add(game_id)
    await press(fake, *BOB, board, custom_id(board, "Join"))
    await press(fake, *ADA, board, custom_id(board, "Start with bots"))
    left = await fake.interact(subcommand("leave", [], *BOB, group="cucumber"))
    said = (await fake.response(left)).body["data"]
    assert said["flags"] == 64 and "Bob left the table: the strong bot plays their seat." in said["content"]
    state = await bot.platform.service("cucumber").load(game_id)
    assert state.bots[1] == "strong"
    await fake.wait_for(lambda s: s.method == "PATCH" and s.path.endswith(f"/messages/{board['id']}"))
    back = await press(fake, *BOB, fake.message(board["id"]), custom_id(fake.message(board["id"]), "I'm back"))
    assert back["type"] == 7 and "Bob is back at the table." in board_text(back["data"])
    assert (await bot.platform.service("cucumber").load(game_id)).bots[1] is None


async def test_an_idle_player_is_reminded_then_a_bot_plays_for_them(
    table: tuple[FakeDiscord, GameBot, LeakWatch], clock: FakeClock
) -> None:
    fake, bot, watch = table
    game_id, board = await open_table(fake, *ADA, [option("players", 3)])
    watch.games.add(game_id)
    await press(fake, *ADA, board, custom_id(board, "Start with bots"))
    turn = board_text(fake.message(board["id"]))
    due = [d.at for d in bot.platform.timers.pending(game_id) if d.kind == "turn"]
    assert f"a bot plays for them <t:{int(due[0])}:R>" in turn  # the deadline as a Discord timestamp
    await clock.advance(45)
    reminder = await fake.wait_for(lambda s: s.method == "POST" and "it's your turn" in str(s.body))
    assert reminder.body["content"] == "<@1001>, it's your turn: 15 seconds before a bot plays for you."
    version = (await bot.platform.service("cucumber").load(game_id)).version
    await clock.advance(15)
    await board_edit(fake, board, "⏰ Ada's time ran out")
    state = await bot.platform.service("cucumber").load(game_id)
    assert state.version > version and state.timeouts[0] == 1 and state.bots[0] is None


async def test_a_turn_deadline_and_a_closing_table_survive_a_restart(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    fake, db = fake_discord, tmp_path / "bot.sqlite3"
    async with watching(fake, db) as watch:
        async with running_bot(fake, db, solved_folder, clock, chance=Seeded(8), settings=SETTINGS) as bot:
            game_id, board = await open_table(fake, *ADA, [option("players", 3)])
            await press(fake, *ADA, board, custom_id(board, "Start with bots"))
            lobby_id, lobby = await open_table(fake, *BOB, [option("players", 2)])
            watch.games |= {game_id, lobby_id}
            version = (await bot.platform.service("cucumber").load(game_id)).version

        # the bot was down past the turn's deadline and the table's closing (600 s after the table's
        # opening as the log recorded it, in wall time: the fake clock began earlier, by as long as a
        # busy machine took to open the tables, so a margin, not 601)
        await clock.advance(700)
        async with running_bot(fake, db, solved_folder, clock, chance=Seeded(9), settings=SETTINGS) as bot:
            await board_edit(fake, board, "⏰ Ada's time ran out")
            await board_edit(fake, lobby, "Nobody started the game in time: the table closed.")
            state = await bot.platform.service("cucumber").load(game_id)
            assert state.version > version and state.timeouts[0] == 1
            assert [row.game_id for row in await bot.road.live_games()] == [game_id]


async def test_one_table_at_a_time_per_channel_and_the_host_runs_it(
    table: tuple[FakeDiscord, GameBot, LeakWatch],
) -> None:
    fake, bot, _ = table
    _, first = await open_table(fake, *ADA, [option("players", 3)])
    again = await fake.interact(subcommand("new", [], *ADA, group="cucumber"))
    said = (await fake.response(again)).body["data"]
    assert said["flags"] == 64 and said["content"].startswith("You are at a table in this channel already")
    await press(fake, *BOB, first, custom_id(first, "Join"))
    _, second = await open_table(fake, *CY, [option("players", 2)])
    refused = await press(fake, *BOB, second, custom_id(second, "Join"))
    assert refused["data"]["content"].startswith("You are at another table in this channel")
    not_host = await press(fake, *BOB, fake.message(first["id"]), custom_id(first, "+ strong bot"))
    assert not_host["data"]["content"] == "Only Ada, who opened the table, seats bots."
    made_up = custom_id(first, "Join").replace(":join", ":strong")  # on a message of its own, as Discord needs
    seeded = fake.seed(
        "777", [{"type": 1, "components": [{"type": 2, "style": 2, "label": "?", "custom_id": made_up}]}]
    )
    forged = await press(fake, *ADA, seeded, made_up)
    assert forged["data"]["content"] == "That button is not one of mine."
    left = await press(fake, *BOB, fake.message(first["id"]), custom_id(first, "Leave"))
    assert "Bob got up." in board_text(left["data"])
    closed = await press(fake, *ADA, fake.message(first["id"]), custom_id(first, "Leave"))
    assert "Ada closed the table." in board_text(closed["data"]) and board_buttons(closed["data"]) == []
    assert [row.seats[0].name for row in await bot.road.live_games()] == ["Cy"]


async def test_a_board_edit_that_waited_its_turn_shows_the_game_as_it_is_by_then(
    table: tuple[FakeDiscord, GameBot, LeakWatch],
) -> None:
    """Discord sits on an edit of the board (rate-limited, say) while Ada plays two more cards, each
    answered at once: once the edit lands, the board is edited once more, to the game after her last
    card, and never to the version between."""
    fake, bot, _ = table
    game_id, board = await open_table(fake, *ADA, [option("players", 3), option("cards", 7)])
    await press(fake, *ADA, board, custom_id(board, "+ magic bot"))
    await press(fake, *ADA, board, custom_id(board, "+ magic bot"))
    await press(fake, *ADA, board, custom_id(board, "Start"))
    _, hand = await open_hand(fake, *ADA, fake.message(board["id"]))
    path = f"/messages/{board['id']}"
    slow = fake.hold(lambda method, held: method == "PATCH" and held.endswith(path))
    service = bot.platform.service("cucumber")
    versions = []
    for _ in range(3):
        await press(fake, *ADA, hand, playable(hand)[0])
        hand = fake.message(hand["id"])
        versions.append((await service.load(game_id)).version)
        if len(versions) == 1:
            await slow.arrived.wait()  # the first card's edit is on its way: the next two wait their turn
    fake.holds.remove(slow)
    slow.released.set()
    last = await fake.wait_for(
        lambda s: s.method == "PATCH" and s.path.endswith(path) and "Trick 4 of 7" in str(s.body)
    )
    async with bot.platform.boards.rendering(game_id):  # after the edits that were waiting their turn
        edits = [s for s in fake.sent if s.method == "PATCH" and s.path.endswith(path)]
    assert len(edits) == 2 and edits[-1] is last  # the held one, then the game after the third card
    assert versions[0] < versions[1] < versions[2] == (await service.load(game_id)).version
    assert (await bot.platform.boards.shown_version(game_id)) == versions[2]
