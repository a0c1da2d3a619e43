"""With ``HOG_PUBLIC_URL`` set, a game's board and a replay carry a *Watch on the web* link to the
game's page (a link button: Discord opens it, the bot is never called); without it, none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.platform.metrics import REGISTRY
from bot.platform.settings import Settings
from tests.discord.boards import buttons as board_buttons
from tests.discord.discord_world import answer_to, board_of, followup_to, press, running_bot, subcommand
from tests.discord.fake_discord import GUILD_ID, FakeDiscord
from tests.discord.test_discord_contest import contest_command
from tests.fake_clock import FakeClock


def links(body: dict[str, Any]) -> list[str]:
    return [c["url"] for c in board_buttons(body) if c.get("style") == 5]


async def test_a_board_and_a_replay_link_to_the_web(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    settings = Settings(public_url="https://hog.example")
    async with running_bot(fake_discord, tmp_path / "hog.sqlite3", solved_folder, clock, settings=settings) as bot:
        shown = await board_of(fake_discord, await fake_discord.interact(subcommand("house")))
        game_id = next(c["custom_id"] for c in board_buttons(shown.body) if "custom_id" in c).split(":")[2]
        assert links(shown.body) == [f"https://hog.example/games/{game_id}"]
        options = [{"name": "game", "type": 3, "value": game_id}]
        replayed = (await answer_to(fake_discord, await fake_discord.interact(subcommand("replay", options)))).body
        assert links(replayed["data"]) == [f"https://hog.example/games/{game_id}?step=1"]
        standings = await fake_discord.interact(contest_command("standings"))
        await answer_to(fake_discord, standings)
        assert links((await followup_to(fake_discord, standings)).body) == [
            f"https://hog.example/contests/contest?server={GUILD_ID}"
        ]
        opened = {**subcommand("tournament"), "data": {"id": "1", "name": "hog", "type": 1, "options": [
            {"name": "tournament", "type": 2, "options": [{"name": "new", "type": 1, "options": [
                {"name": "format", "type": 3, "value": "swiss"}]}]}]}}  # fmt: skip
        await answer_to(fake_discord, await fake_discord.interact(opened))
        board = await fake_discord.wait_for(lambda s: "/channels/" in s.path and "Sign-up" in str(s.body))
        (t,) = await bot.platform.tournaments.book.of_server(GUILD_ID)
        assert links(board.body) == [f"https://hog.example/tournaments/{t.tournament_id}"]


async def test_without_a_public_address_there_is_no_link(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    async with running_bot(fake_discord, tmp_path / "hog.sqlite3", solved_folder, clock):
        shown = await board_of(fake_discord, await fake_discord.interact(subcommand("house")))
        assert links(shown.body) == []


async def test_clicks_are_counted_by_outcome_and_timed(
    tmp_path: Path, fake_discord: FakeDiscord, solved_folder: Path, clock: FakeClock
) -> None:
    def counted(outcome: str) -> float:
        labels = {"kind": "move", "game": "hog", "outcome": outcome}
        return REGISTRY.get_sample_value("hogbot_interactions_total", labels) or 0.0

    timed = REGISTRY.get_sample_value("hogbot_acknowledgement_seconds_count", {"kind": "move"}) or 0.0
    moved, refused = counted("moved"), counted("refused")
    async with running_bot(fake_discord, tmp_path / "hog.sqlite3", solved_folder, clock):
        command = await fake_discord.interact(subcommand("house"))
        shown = await board_of(fake_discord, command)
        message = fake_discord.messages[f"original:token{command}"]
        move = next(c["custom_id"] for c in board_buttons(shown.body) if c["label"] == "2")
        answered = await press(fake_discord, "1001", "Ada", message, move)
        rows = answered["data"]["components"]
        again = next(c["custom_id"] for c in board_buttons({"components": rows}) if c.get("label") == "2")
        await press(fake_discord, "2002", "Bob", {**message, "components": rows}, again)  # not Bob's: refused
    assert (counted("moved"), counted("refused")) == (moved + 1, refused + 1)
    assert REGISTRY.get_sample_value("hogbot_acknowledgement_seconds_count", {"kind": "move"}) == timed + 2
