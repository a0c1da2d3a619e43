"""The leaderboard through the fake Discord: a challenge played to the end rates both players, the
server's board pages with buttons and shows the asker's place even off the page, a player of another
server is not on it, and stats show the rating."""

from __future__ import annotations

from typing import Any

from bot.discord.client import GameBot
from bot.platform.ratings import shown as shown_rating
from storage.ratings import RatedGame, Rating
from storage.summaries import SeatSummary, Summary
from tests.discord.discord_world import answer_to, board_of, button, challenge_command, press, subcommand
from tests.discord.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord


def labels(body: dict[str, Any]) -> dict[str, bool]:
    return {c["label"]: not c.get("disabled", False) for row in body["components"] for c in row["components"]}


async def rated_elsewhere(bot: GameBot, players: list[Rating], channel: str) -> None:
    """Players rated by games in ``channel`` (written as the projector writes them)."""
    games = [
        Summary(f"x{r.player_id}", "hog", channel, "finished", False, 1, (SeatSummary(r.player_id, r.name),))
        for r in players
    ]
    rated = [RatedGame(g.game_id, "hog", channel, g.seats[0].player_id, 0, 0.0, True) for g in games]
    await bot.platform.views.apply(
        [(g, 1.0, 1.0) for g in games], await bot.platform.views.checkpoint(), rated=rated, ratings=players
    )


async def test_a_finished_challenge_ranks_both_players_and_the_board_pages(
    discord_world: tuple[FakeDiscord, GameBot],
) -> None:
    fake, bot = discord_world
    command = await fake.interact(challenge_command("2002", "Bob"))
    shown = await board_of(fake, command)
    await press(fake, "2002", "Bob", fake.messages[f"original:token{command}"], button(shown, "Accept"))
    await answer_to(fake, await fake.interact(subcommand("forfeit")))  # Ada resigns: a loss

    asked = await fake.interact(subcommand("leaderboard"))
    page = (await answer_to(fake, asked)).body["data"]
    (embed,) = page["embeds"]
    assert page["flags"] == 64 and embed["title"] == "🏆 Hog leaderboard · Hog Club"
    assert embed["description"].splitlines() == ["**1.** Bob · **1138** (1 game)", "**2.** Ada · **927** (1 game)"]
    assert embed["fields"][0]["value"].startswith("#2 of 2, 927 after 1 rated game")
    assert labels(page) == {"◀ Higher": False, "Lower ▶": False}

    strong = [Rating("hog", f"3{i:03d}", f"Pro {i}", 30.0 + i, 2.0, 20) for i in range(11)]
    await rated_elsewhere(bot, strong, CHANNEL_ID)
    await rated_elsewhere(bot, [Rating("hog", "4000", "Far away", 50.0, 1.0, 99)], "777")
    await bot.platform.views.ratings.locate("777", "another-server")
    asked = await fake.interact(subcommand("leaderboard"))
    first = (await answer_to(fake, asked)).body["data"]
    lines = first["embeds"][0]["description"].splitlines()
    assert len(lines) == 10 and lines[0].startswith("**1.** Pro 10 ·") and "Far away" not in str(first)
    assert first["embeds"][0]["fields"][0]["value"].startswith("#13 of 13, 927")  # off the page, still told
    assert labels(first) == {"◀ Higher": False, "Lower ▶": True}

    lower = await press(fake, "1001", "Ada", fake.messages[f"original:token{asked}"], button_of(first, "Lower ▶"))
    assert lower["type"] == 7
    rest = lower["data"]["embeds"][0]["description"].splitlines()
    assert [line.split(" ·")[0] for line in rest] == ["**11.** Pro 0", "**12.** Bob", "**13.** Ada"]
    assert labels(lower["data"]) == {"◀ Higher": True, "Lower ▶": False}

    stats = (await answer_to(fake, await fake.interact(subcommand("stats", [], "2002", "Bob")))).body["data"]
    overall = stats["embeds"][0]["fields"][0]["value"]
    assert "Rating: 1138 after 1 rated game (skill 27.6 ± 8.1)" in overall
    assert (await bot.platform.views.ratings.standings("hog", "2002", GUILD_ID)).total == 13
    await bot.platform.projector.rebuild()  # from the log: the made-up players go, the server's two stay
    again = await bot.platform.views.ratings.standings("hog", "2002", GUILD_ID)
    assert [(r.rank, r.rating.name, shown_rating(r.rating)) for r in again.page] == [(1, "Bob", 1138), (2, "Ada", 927)]


async def test_nobody_is_rated_by_games_against_bots(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, _ = discord_world
    await board_of(fake, await fake.interact(subcommand("house")))
    await answer_to(fake, await fake.interact(subcommand("forfeit")))
    asked = await fake.interact(subcommand("leaderboard", group="cucumber"))
    embed = (await answer_to(fake, asked)).body["data"]["embeds"][0]
    assert embed["title"].startswith("🏆 Cucumber leaderboard") and embed["description"].startswith("Nobody is rated")
    asked = await fake.interact(subcommand("leaderboard"))
    embed = (await answer_to(fake, asked)).body["data"]["embeds"][0]
    assert embed["description"].startswith("Nobody is rated") and "not on this board" in embed["fields"][0]["value"]


def button_of(body: dict[str, Any], label: str) -> str:
    return str(next(c["custom_id"] for row in body["components"] for c in row["components"] if c["label"] == label))
