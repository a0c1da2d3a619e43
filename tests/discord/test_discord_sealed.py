"""Sealed dice through the fake Discord, the bot's random source as in production: the board shows the
seal while the game is played, the seed appears in no request and no log line before the game ends,
then on the final board, and ``/hog verify`` finds every die fair."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.platform.chance import commitment
from tests.discord.boards import small_print, status
from tests.discord.discord_world import board_of, button, press, running_bot, subcommand
from tests.discord.fake_discord import FakeDiscord
from tests.fake_clock import FakeClock


async def test_the_seed_is_secret_until_the_end_then_every_die_checks(
    tmp_path: Path,
    fake_discord: FakeDiscord,
    solved_folder: Path,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    fake = fake_discord
    async with running_bot(fake, tmp_path / "bot.sqlite3", solved_folder, clock, chance=None) as bot:
        options = [{"name": "difficulty", "type": 3, "value": "easy"}, {"name": "goal", "type": 4, "value": 20}]
        command = await fake.interact(subcommand("house", options))
        shown = await board_of(fake, command)
        game_id = button(shown, "5").split(":")[2]
        seed = await bot.platform.kept.seed(game_id)
        assert seed is not None
        assert f"🔒 dice sealed: {commitment(seed)[:16]}…" in small_print(shown.body)
        message = fake.messages[f"original:token{command}"]
        answer = shown.body
        for _ in range(100):
            if "to move" not in status(answer):
                break
            last = len(fake.sent)
            answer = (await press(fake, "1001", "Ada", fake.message(message["id"]), button(shown, "5")))["data"]
            shown = type(shown)(shown.method, shown.path, answer)
        assert (await bot.platform.service("hog").load(game_id)).is_over
        secret = seed.hex()
        revealing = [i for i, sent in enumerate(fake.sent) if secret in str(sent.body)]
        assert revealing and min(revealing) >= last  # first shown by the answer to the last move
        assert f"🔓 seed {secret} · check: /hog verify game:{game_id}" in small_print(answer)
        asked = await fake.interact(subcommand("verify", [{"name": "game", "type": 3, "value": game_id}]))
        verdict = (await fake.response(asked)).body["data"]
        assert verdict["flags"] == 64 and verdict["content"].startswith("```\nfair: all ")
    assert secret not in caplog.text
