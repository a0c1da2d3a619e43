"""The contest through the fake Discord: a table attached to ``/hog contest submit`` is entered in the
server's contest and everyone's, bad and oversized files are refused in words and store nothing, the
standings, an entry and the matrix are shown with their pictures, and the house plays an entry."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import msgspec
import numpy as np
import pytest

from bot.discord.client import GameBot
from bot.games.hog.contest.arena import compiled
from bot.games.hog.contest.entries import EVERYONE, Contest, Entries
from hog_core.contest import MAX_BYTES, SIZE, encode, parse, to_csv
from hog_core.events import GameCreated
from hog_core.rulesets import CONTEST
from tests.discord.boards import texts
from tests.discord.discord_world import answer_to, board_of, button, click, followup_to, press, where
from tests.discord.fake_discord import GUILD_ID, FakeDiscord, member

FIVES = to_csv(parse("\n".join(",".join(["5"] * SIZE) for _ in range(SIZE)).encode(), CONTEST))


def contest_command(
    name: str,
    options: list[dict[str, Any]] | None = None,
    who: str = "1001",
    person: str = "Ada",
    attachment: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``/hog contest <name>`` as Discord sends it, with its attached file resolved."""
    data: dict[str, Any] = {
        "id": "1",
        "name": "hog",
        "type": 1,
        "options": [{"name": "contest", "type": 2, "options": [{"name": name, "type": 1, "options": options or []}]}],
    }
    if attachment is not None:
        data["resolved"] = {"attachments": {attachment["id"]: attachment}}
    return {"type": 2, **where(), "member": member(who, person), "data": data}


def submit(
    fake: FakeDiscord,
    team: str,
    table: bytes,
    who: str = "1001",
    person: str = "Ada",
    name: str = "final.csv",
    **kw: Any,
) -> Any:
    attached = fake.attach(name, table, **kw)
    options = [{"name": "table", "type": 11, "value": attached["id"]}, {"name": "name", "type": 3, "value": team}]
    return contest_command("submit", options, who, person, attached)


COMPUTING = 180
"""Seconds a contest's first results may take on a loaded machine of two cores (every pair swept
exactly; about 10 s on a quiet one): the answer is waited for as an event, never slept for."""


@pytest.fixture(scope="module", autouse=True)
def compiled_sweep() -> None:
    """The contest's sweep compiled before any clock starts (numba, once per process; seconds)."""
    asyncio.run(compiled())


async def said_to(fake: FakeDiscord, interaction: str) -> dict[str, Any]:
    """The follow-up of a deferred answer (for the asker alone)."""
    deferred = await answer_to(fake, interaction)
    assert deferred.body["type"] == 5 and deferred.body["data"]["flags"] == 64
    return dict((await followup_to(fake, interaction, COMPUTING)).body)


def sent_files(fake: FakeDiscord, body: dict[str, Any]) -> dict[str, bytes]:
    """The files uploaded with the follow-up whose body is ``body``."""
    return next(s.files for s in fake.sent if s.body is body or s.body == body)


async def test_a_table_is_entered_ranked_shown_and_played(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    entered = await said_to(fake, await fake.interact(submit(fake, "Fives", FIVES.encode())))
    (embed,) = entered["embeds"]
    assert embed["title"] == "Entered Fives"
    assert "this server's" in embed["description"] and "everyone's" in embed["description"]
    assert "place 2 (3 wins, 1 loss)" in embed["description"]  # beats all but perfect

    entries = Entries(bot.platform.store)
    server, everyone = Contest("contest", GUILD_ID), Contest("contest", EVERYONE)
    assert list(await entries.of(server)) == list(await entries.of(everyone)) == ["Fives"]

    standings = (await said_to(fake, await fake.interact(contest_command("standings"))))["embeds"][0]
    assert "Fives" in standings["description"] and "perfect *" in standings["description"]
    assert standings["fields"][0]["value"].startswith("**Fives**: place 2")
    other = await said_to(fake, await fake.interact(contest_command("standings", who="2002", person="Bob")))
    assert other["embeds"][0]["fields"][0]["value"].startswith("None yet")

    shown = await said_to(
        fake, await fake.interact(contest_command("entry", [{"name": "name", "type": 3, "value": "fives"}]))
    )
    assert shown["embeds"][0]["title"] == "Fives" and "vs always_roll(4)" in shown["embeds"][0]["description"]
    assert shown["embeds"][0]["image"]["url"] == "attachment://entry.png"
    assert sent_files(fake, shown)["entry.png"].startswith(b"\x89PNG")
    explorer = shown["embeds"][0]["fields"][0]
    assert (
        explorer["name"] == "Where it differs from perfect play" and "Fives against perfect play" in explorer["value"]
    )
    assert "5 dice → " in explorer["value"] and sent_files(fake, shown)["costs.png"].startswith(b"\x89PNG")
    assert all(a.get("description") for a in shown["attachments"]), "every picture described for a screen reader"
    options = [{"name": "name", "type": 3, "value": "fives"}, {"name": "vs", "type": 3, "value": "always_roll(6)"}]
    beside = (await said_to(fake, await fake.interact(contest_command("entry", options))))["embeds"][0]
    assert "Fives and always_roll(6) choose differently in 10,000 positions" in beside["fields"][0]["value"]
    options[1]["value"] = "nobody"
    missing = await said_to(fake, await fake.interact(contest_command("entry", options)))
    assert missing["content"] == "There is no entry 'nobody' in the Hog contest, Contest rules (this server's)."
    matrix = await said_to(fake, await fake.interact(contest_command("matrix")))
    assert sent_files(fake, matrix)["matrix.png"].startswith(b"\x89PNG")

    house = {"type": 2, **where(), "member": member("1001", "Ada")}
    options = [{"name": "rules", "type": 3, "value": "contest"}, {"name": "difficulty", "type": 3, "value": "fives"}]
    house["data"] = {"id": "1", "name": "hog", "type": 1, "options": [{"name": "house", "type": 1, "options": options}]}
    played = await fake.interact(house)
    board = await board_of(fake, played)
    assert "the house plays the contest entry Fives" in texts(board.body)[0]
    await press(fake, "1001", "Ada", fake.messages[f"original:token{played}"], button(board, "3"))
    (game,) = await bot.road.live_games(where()["channel_id"])
    stored = await bot.platform.store.load(game.game_id)
    created = msgspec.json.decode(stored[0].data, type=GameCreated)
    assert created.players[1].house == "entry" and created.players[1].table == encode(parse(FIVES.encode(), CONTEST))
    turns = [msgspec.json.decode(e.data) for e in stored if e.type == "hog.TurnTaken"]
    assert turns[0]["k"] == 3 and {t["k"] for t in turns if t["seat"] == 1} == {5}  # the entry's table plays


async def test_bad_files_and_taken_names_are_refused_and_store_nothing(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    fake, bot = discord_world
    rows = [["4"] * SIZE for _ in range(SIZE)]
    rows[42][7] = "11"
    bad = "\n".join(",".join(r) for r in rows).encode()
    refused = await said_to(fake, await fake.interact(submit(fake, "Pigs", bad)))
    assert refused["content"] == "final.csv: row 42, column 7: 11 is not a number of dice (0-10)"

    huge = await fake.interact(submit(fake, "Pigs", b"4", size=MAX_BYTES + 1))
    answer = (await answer_to(fake, huge)).body
    assert answer["data"]["content"] == "final.csv is 1,000,001 bytes; a table is at most 1,000,000."
    assert answer["data"]["flags"] == 64 and len(fake.downloads) == 1  # only the bad table was fetched
    code = await fake.interact(submit(fake, "Pigs", b"def final_strategy(s, o):\n    return 4\n", name="hog.py"))
    said = (await answer_to(fake, code)).body["data"]["content"]
    assert said.startswith("hog.py is code, and the bot runs none") and len(fake.downloads) == 1

    reserved = await said_to(fake, await fake.interact(submit(fake, "Perfect", FIVES.encode())))
    assert reserved["content"] == "'Perfect' is the name of a reference entry: choose another."
    assert await bot.platform.store.version(Contest("contest", GUILD_ID).stream_id) == 0

    await said_to(fake, await fake.interact(submit(fake, "Pigs", FIVES.encode())))
    taken = await said_to(fake, await fake.interact(submit(fake, "pigs", FIVES.encode(), "2002", "Bob")))
    assert taken["content"] == "Another entrant's team is called 'pigs' in this contest: choose another name."
    again = await said_to(fake, await fake.interact(submit(fake, "Pork", FIVES.encode())))
    assert "(replacing Pigs)" in again["embeds"][0]["description"]
    assert list(await Entries(bot.platform.store).of(Contest("contest", GUILD_ID))) == ["Pork"]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"", "final.csv: The file is empty"),
        (FIVES.encode().rsplit(b"\n", 2)[0], "final.csv: The table has 99 rows; it needs 100"),
        (FIVES.encode().replace(b"5", b"five", 1), "final.csv: row 0, column 0: 'five' is not an integer"),
        (b"[[5, 5]", "final.csv: The file is not valid JSON"),
        (FIVES.encode().replace(b"5", b"-1", 1), "final.csv: row 0, column 0: -1 is not a number of dice (0-10)"),
    ],
)
async def test_every_kind_of_bad_table_is_refused_in_words(
    data: bytes, said: str, discord_world: tuple[FakeDiscord, GameBot]
) -> None:
    fake, bot = discord_world
    refused = await said_to(fake, await fake.interact(submit(fake, "Pigs", data)))
    assert refused["content"].startswith(said) and "Traceback" not in refused["content"]
    assert await bot.platform.store.version(Contest("contest", EVERYONE).stream_id) == 0


async def test_the_house_offers_the_entries_as_you_type(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    await said_to(fake, await fake.interact(submit(fake, "Fives", FIVES.encode())))

    async def offered(typed: str) -> list[dict[str, str]]:
        options = [
            {"name": "rules", "type": 3, "value": "contest"},
            {"name": "difficulty", "type": 3, "value": typed, "focused": True},
        ]
        data = {"id": "1", "name": "hog", "type": 1, "options": [{"name": "house", "type": 1, "options": options}]}
        asked = await fake.interact({"type": 4, **where(), "member": member("2002", "Bob"), "data": data})
        sent = (await answer_to(fake, asked)).body
        assert sent["type"] == 8
        return list(sent["data"]["choices"])

    assert [c["value"] for c in await offered("")] == [
        "easy",
        "medium",
        "perfect",
        f"entry:{GUILD_ID}:Fives",
        "entry:everyone:Fives",
    ]
    assert [c["value"] for c in await offered("PERF")] == ["perfect"]
    assert [c["name"] for c in await offered("fiv")] == [
        "Fives · this server's contest, contest rules",
        "Fives · everyone's contest, contest rules",
    ]


async def test_the_standings_page_with_buttons_and_refuse_another_servers(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    fake, bot = discord_world
    entries, server = Entries(bot.platform.store), Contest("contest", GUILD_ID)
    rng = np.random.default_rng(7)
    for i in range(14):
        table = rng.integers(0, 11, (SIZE, SIZE)).astype(np.int8)
        await entries.submit(server, f"p{i}", f"P{i}", f"Team {i:02d}", table)
    asked = await fake.interact(contest_command("standings"))
    first = await said_to(fake, asked)
    assert "Page 1 of 2" in first["embeds"][0]["footer"]["text"]
    assert labels(first) == {"◀ Higher": False, "Lower ▶": True}
    lower = next(c["custom_id"] for row in first["components"] for c in row["components"] if c["label"] == "Lower ▶")
    message = fake.messages[next(k for k, m in fake.messages.items() if m.get("embeds") == first["embeds"])]
    pressed = await fake.interact(click(lower, message))
    assert (await answer_to(fake, pressed)).body["type"] == 6
    second = await board_of(fake, pressed)  # the page, edited in
    assert "Page 2 of 2" in second.body["embeds"][0]["footer"]["text"]
    assert labels(second.body) == {"◀ Higher": True, "Lower ▶": False}

    elsewhere = json.loads(json.dumps(message).replace(f":{GUILD_ID}:", ":123456789:"))  # another server's
    forged = await fake.interact(click(lower.replace(GUILD_ID, "123456789"), elsewhere))
    refused = (await answer_to(fake, forged)).body["data"]
    assert refused["content"] == "That button is not one of mine." and refused["flags"] == 64


def labels(body: dict[str, Any]) -> dict[str, bool]:
    return {c["label"]: not c.get("disabled", False) for row in body["components"] for c in row["components"]}


async def test_a_typed_level_is_a_level_whatever_its_case(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    options = [{"name": "difficulty", "type": 3, "value": " Easy "}]
    data = {"id": "1", "name": "hog", "type": 1, "options": [{"name": "house", "type": 1, "options": options}]}
    played = await fake.interact({"type": 2, **where(), "member": member("1001", "Ada"), "data": data})
    assert texts((await board_of(fake, played)).body)[0].endswith("the house plays easy")
