"""With ``HOG_PUBLIC_URL`` set, a game's board and a replay carry a *Watch on the web* link to the
game's page (a link button: Discord opens it, the bot is never called); without it, none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.platform.settings import Settings
from tests.discord.discord_world import answer_to, board_of, running_bot, subcommand
from tests.discord.fake_discord import FakeDiscord
from tests.fake_clock import FakeClock


def links(body: dict[str, Any]) -> list[str]:
    return [c["url"] for row in body.get("components", []) for c in row["components"] if c.get("style") == 5]


async def test_a_board_and_a_replay_link_to_the_web(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    settings = Settings(public_url="https://hog.example")
    async with running_bot(fake_discord, tmp_path / "hog.sqlite3", solved_folder, clock, settings=settings):
        shown = await board_of(fake_discord, await fake_discord.interact(subcommand("house")))
        game_id = next(
            c["custom_id"] for row in shown.body["components"] for c in row["components"] if "custom_id" in c
        ).split(":")[2]
        assert links(shown.body) == [f"https://hog.example/games/{game_id}"]
        options = [{"name": "game", "type": 3, "value": game_id}]
        replayed = (await answer_to(fake_discord, await fake_discord.interact(subcommand("replay", options)))).body
        assert links(replayed["data"]) == [f"https://hog.example/games/{game_id}?step=1"]


async def test_without_a_public_address_there_is_no_link(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    async with running_bot(fake_discord, tmp_path / "hog.sqlite3", solved_folder, clock):
        shown = await board_of(fake_discord, await fake_discord.interact(subcommand("house")))
        assert links(shown.body) == []
