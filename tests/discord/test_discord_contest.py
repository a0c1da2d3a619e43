"""The contest through the fake Discord: a table attached to ``/hog contest submit`` is entered in the
server's contest and everyone's, bad and oversized files are refused in words and store nothing, the
standings, an entry and the matrix are shown with their pictures, and the house plays an entry."""

from __future__ import annotations

from typing import Any

import msgspec

from bot.discord.client import GameBot
from bot.games.hog.contest.entries import EVERYONE, Contest, Entries
from hog_core.contest import MAX_BYTES, SIZE, encode, parse, to_csv
from hog_core.events import GameCreated
from hog_core.rulesets import CONTEST
from tests.discord.discord_world import answer_to, board_of, button, followup_to, press, where
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


def submit(fake: FakeDiscord, team: str, table: bytes, who: str = "1001", person: str = "Ada", **kw: Any) -> Any:
    attached = fake.attach("final.csv", table, **kw)
    options = [{"name": "table", "type": 11, "value": attached["id"]}, {"name": "name", "type": 3, "value": team}]
    return contest_command("submit", options, who, person, attached)


async def said(fake: FakeDiscord, interaction: str) -> dict[str, Any]:
    """The follow-up of a deferred answer (for the asker alone)."""
    deferred = await answer_to(fake, interaction)
    assert deferred.body["type"] == 5 and deferred.body["data"]["flags"] == 64
    return dict((await followup_to(fake, interaction)).body)


def sent_files(fake: FakeDiscord, body: dict[str, Any]) -> dict[str, bytes]:
    """The files uploaded with the follow-up whose body is ``body``."""
    return next(s.files for s in fake.sent if s.body is body or s.body == body)


async def test_a_table_is_entered_ranked_shown_and_played(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    entered = await said(fake, await fake.interact(submit(fake, "Fives", FIVES.encode())))
    (embed,) = entered["embeds"]
    assert embed["title"] == "Entered Fives"
    assert "this server's" in embed["description"] and "everyone's" in embed["description"]
    assert "place 2 (3 wins, 1 loss)" in embed["description"]  # beats all but perfect

    entries = Entries(bot.platform.store)
    server, everyone = Contest("contest", GUILD_ID), Contest("contest", EVERYONE)
    assert list(await entries.of(server)) == list(await entries.of(everyone)) == ["Fives"]

    standings = (await said(fake, await fake.interact(contest_command("standings"))))["embeds"][0]
    assert "Fives" in standings["description"] and "perfect *" in standings["description"]
    assert standings["fields"][0]["value"].startswith("**Fives**: place 2")
    other = await said(fake, await fake.interact(contest_command("standings", who="2002", person="Bob")))
    assert other["embeds"][0]["fields"][0]["value"].startswith("None yet")

    shown = await said(
        fake, await fake.interact(contest_command("entry", [{"name": "name", "type": 3, "value": "fives"}]))
    )
    assert shown["embeds"][0]["title"] == "Fives" and "vs always_roll(4)" in shown["embeds"][0]["description"]
    assert shown["embeds"][0]["image"]["url"] == "attachment://entry.png"
    assert sent_files(fake, shown)["entry.png"].startswith(b"\x89PNG")
    matrix = await said(fake, await fake.interact(contest_command("matrix")))
    assert sent_files(fake, matrix)["matrix.png"].startswith(b"\x89PNG")

    house = {"type": 2, **where(), "member": member("1001", "Ada")}
    options = [{"name": "rules", "type": 3, "value": "contest"}, {"name": "difficulty", "type": 3, "value": "fives"}]
    house["data"] = {"id": "1", "name": "hog", "type": 1, "options": [{"name": "house", "type": 1, "options": options}]}
    played = await fake.interact(house)
    board = await board_of(fake, played)
    assert "the house plays the contest entry Fives" in board.body["embeds"][0]["title"]
    await press(fake, "1001", "Ada", fake.messages[f"original:token{played}"], button(board, "3"))
    (game,) = await bot.live_games(where()["channel_id"])
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
    refused = await said(fake, await fake.interact(submit(fake, "Pigs", bad)))
    assert refused["content"] == "final.csv: row 42, column 7: 11 is not a number of dice (0-10)"

    huge = await fake.interact(submit(fake, "Pigs", b"4", size=MAX_BYTES + 1))
    answer = (await answer_to(fake, huge)).body
    assert answer["data"]["content"] == "final.csv is 1,000,001 bytes; a table is at most 1,000,000."
    assert answer["data"]["flags"] == 64 and len(fake.downloads) == 1  # only the bad table was fetched

    reserved = await said(fake, await fake.interact(submit(fake, "Perfect", FIVES.encode())))
    assert reserved["content"] == "'Perfect' is the name of a reference entry: choose another."
    assert await bot.platform.store.version(Contest("contest", GUILD_ID).stream_id) == 0

    await said(fake, await fake.interact(submit(fake, "Pigs", FIVES.encode())))
    taken = await said(fake, await fake.interact(submit(fake, "pigs", FIVES.encode(), "2002", "Bob")))
    assert taken["content"] == "Another entrant's team is called 'pigs' in this contest: choose another name."
    again = await said(fake, await fake.interact(submit(fake, "Pork", FIVES.encode())))
    assert "(replacing Pigs)" in again["embeds"][0]["description"]
    assert list(await Entries(bot.platform.store).of(Contest("contest", GUILD_ID))) == ["Pork"]
