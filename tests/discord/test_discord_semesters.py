"""Every semester through the fake Discord: this year's rules found as a student types them and
played against the house to the end; a rule set of one's own played and replayed."""

from __future__ import annotations

from typing import Any

from bot.discord.client import GameBot
from hog_core.events import decode
from hog_core.game import replay
from tests.discord.boards import buttons
from tests.discord.discord_world import answer_to, board_of, press, subcommand
from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_discord_tournaments import opened, option, tournament_command


async def offered(fake: FakeDiscord, typed: str) -> list[dict[str, str]]:
    focused = [{"name": "rules", "type": 3, "value": typed, "focused": True}]
    asked = await fake.interact({**subcommand("house", focused), "type": 4})  # autocomplete
    sent = (await answer_to(fake, asked)).body
    assert sent["type"] == 8
    return list(sent["data"]["choices"])


async def played_to_the_end(fake: FakeDiscord, bot: GameBot, rules: str) -> str:
    """A house game of ``rules`` to 10, Ada rolling 4 a turn; its id."""
    options = [{"name": "rules", "type": 3, "value": rules}, {"name": "goal", "type": 4, "value": 10}]
    command = await fake.interact(subcommand("house", [*options, {"name": "difficulty", "type": 3, "value": "easy"}]))
    board: dict[str, Any] = dict((await board_of(fake, command)).body)
    game_id = str(buttons(board)[4]["custom_id"]).split(":")[2]
    service = bot.platform.service("hog")
    for _ in range(30):
        if (await service.load(game_id)).is_over:
            break
        four = next(c["custom_id"] for c in buttons(board) if c.get("label") == "4")
        board = await press(fake, "1001", "Ada", fake.messages[f"original:token{command}"], four)
        assert board["type"] == 7
    assert (await service.load(game_id)).is_over
    return game_id


async def test_this_years_hog_is_found_as_typed_and_played_to_the_end(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    fake, bot = discord_world
    assert len(await offered(fake, "")) == 24  # every semester, more than Discord's 25 choices with aliases
    assert [c["value"] for c in await offered(fake, "spring 2024")] == ["fa23"]
    assert [c["value"] for c in await offered(fake, "boar brawl")] == ["fa23"]
    assert (await offered(fake, "sp23"))[0]["name"].startswith("Fall 2022 and Spring 2023")
    game_id = await played_to_the_end(fake, bot, "fa23")
    state = await bot.platform.service("hog").load(game_id)
    assert state.rules.id == "fa23" and state.winner is not None


async def test_a_rule_set_of_ones_own_is_played_and_replayed(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    assert [c["value"] for c in await offered(fake, "fa23 + time_trot")][:1] == ["fa23+time_trot"]
    game_id = await played_to_the_end(fake, bot, "SP24+time_trot")  # typed, not chosen: found all the same
    service = bot.platform.service("hog")
    state = await service.load(game_id)
    stored = await bot.platform.store.load(game_id)
    events = [decode(e.data, type_name=e.type.removeprefix("hog."), version=e.schema) for e in stored]
    assert state.rules.id == "fa23+time_trot" and replay(events).scores == state.scores


async def test_a_rule_set_that_cannot_be_is_refused_in_words(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    command = await fake.interact(subcommand("house", [{"name": "rules", "type": 3, "value": "fa23+sus_fuss"}]))
    said = (await answer_to(fake, command)).body
    assert said["data"]["flags"] == 64 and "already has Sus Fuss" in said["data"]["content"]


async def test_a_tournament_of_this_years_hog_with_time_trot(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    options = [option("format", "swiss"), option("rules", "sp25+Time_Trot")]  # typed: an alias, any case
    stream, _ = await opened(fake, bot, "hog", options)
    created = (await bot.platform.tournaments.book.load(stream)).created
    assert created is not None and created.options["rules"] == "fa23+time_trot"
    refused = await fake.interact(
        tournament_command("hog", "new", [option("format", "swiss"), option("rules", "fa99")])
    )
    said = (await answer_to(fake, refused)).body
    assert said["data"]["flags"] == 64 and said["data"]["content"].startswith("There is no rule set 'fa99'")
