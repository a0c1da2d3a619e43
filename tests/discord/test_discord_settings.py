"""``/hogbot settings``: a server's admins set its defaults once (rules, goal, timeouts, which games
are played, the season length); everyone else is refused in words and changes nothing; one server's
settings never change another's."""

from __future__ import annotations

from typing import Any

from bot.discord.client import GameBot
from tests.discord.discord_world import answer_to, board_of, subcommand
from tests.discord.fake_discord import FakeDiscord

OTHER_SERVER = "900000000000000077"


def settings_command(setting: str | None = None, value: str | None = None, manager: bool = True) -> dict[str, Any]:
    options = [{"name": k, "type": 3, "value": v} for k, v in (("setting", setting), ("value", value)) if v is not None]
    asked = subcommand("settings", options, group="hogbot")
    if not manager:
        asked["member"]["permissions"] = "0"
    return asked


async def said(fake: FakeDiscord, asked: dict[str, Any]) -> dict[str, Any]:
    return dict((await answer_to(fake, await fake.interact(asked))).body["data"])


async def test_each_command_is_registered_for_whom_it_serves(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    """Discord shows ``/hogbot`` only to members who may manage the server (in a server alone); the
    games' commands to everyone. Read from the payload the bot registers."""
    fake, _ = discord_world
    synced = await fake.wait_for(lambda s: s.method == "PUT" and s.path.endswith("/commands"))
    permissions = {c["name"]: c.get("default_member_permissions") for c in synced.body}
    permissions = {name: None if bits is None else str(bits) for name, bits in permissions.items()}
    assert permissions == {"hog": None, "cucumber": None, "hogbot": str(1 << 5)}  # MANAGE_GUILD
    hogbot = next(c for c in synced.body if c["name"] == "hogbot")
    assert hogbot["dm_permission"] is False and hogbot.get("contexts") in (None, [0])  # a server's alone


async def test_admins_set_the_defaults_and_no_one_else(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    refused = await said(fake, settings_command("hog-goal", "50", manager=False))
    assert refused["content"] == "Only members who may manage this server can change its settings."
    assert refused["flags"] == 64
    bad = await said(fake, settings_command("hog-goal", "5"))
    assert bad["content"] == "'5' is not a whole number from 10 to 200."
    unknown = await said(fake, settings_command("hog-colour", "red"))
    assert unknown["content"].startswith("There is no setting 'hog-colour': choose one of season, bots-rated,")
    assert (await bot.platform.server_settings.of(str(bot.guild_id)))["hog-goal"] == "100"

    assert (await said(fake, settings_command("hog-goal", "50")))["content"] == "`hog-goal` is now **50** here."
    assert (await said(fake, settings_command("hog-rules", "SUS")))["content"].startswith(
        "There is no rule set 'sus': choose one of sp14, sp15,"
    )
    assert (await said(fake, settings_command("hog-rules", "SP24")))["content"] == "`hog-rules` is now **fa23** here."
    await said(fake, settings_command("hog-rules", "SP22"))
    await said(fake, settings_command("hog-turn-timeout", "120"))
    shown = (await said(fake, settings_command()))["embeds"][0]["description"]
    assert "`hog-goal` **50** ·" in shown and "`season` **month** (default) ·" in shown

    house = await fake.interact(subcommand("house", [{"name": "difficulty", "type": 3, "value": "easy"}]))
    await board_of(fake, house)
    (row,) = await bot.road.live_games(game="hog")
    state = await bot.platform.service("hog").load(row.game_id)
    assert (state.goal, state.rules.id, state.turn_timeout) == (50, "sp22", 120)

    elsewhere = subcommand("house", [{"name": "difficulty", "type": 3, "value": "easy"}], who="1002", person="Bo")
    elsewhere["guild_id"] = elsewhere["channel"]["guild_id"] = OTHER_SERVER
    await board_of(fake, await fake.interact(elsewhere))
    there = next(r for r in await bot.road.live_games(game="hog") if r.game_id != row.game_id)
    state = await bot.platform.service("hog").load(there.game_id)
    assert (state.goal, state.rules.id) == (100, "fa18"), "another server keeps its own defaults"


async def test_a_game_turned_off_is_refused_in_words(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    await said(fake, settings_command("hog-enabled", "no"))
    refused = await said(fake, subcommand("house"))
    assert refused["content"] == "Hog is turned off in this server (its admins set `hog-enabled` in /hogbot settings)."
    assert not await bot.road.live_games(game="hog")
    typing = subcommand("house", [{"name": "difficulty", "type": 3, "value": "me", "focused": True}])
    offered = await answer_to(fake, await fake.interact({**typing, "type": 4}))
    assert offered.body == {"type": 8, "data": {"choices": []}}, "as one types, nothing is offered"
    opened = await fake.interact(subcommand("new", group="cucumber"))
    assert (await answer_to(fake, opened)).body["type"] == 5, "Cucumber is still played"
