"""With ``HOG_WEB_PORT`` the bot process (``python -m bot``, as in production, against the fake Discord)
serves the web pages too: a game started in Discord is at its link, and its page's live stream hears a
move pressed on the Discord board within a second."""

from __future__ import annotations

import asyncio
import contextlib
import socket

import aiohttp

from tests.discord.boards import buttons
from tests.discord.discord_world import BotProcess, board_of, press, subcommand


def free_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


async def test_the_bot_process_serves_a_discord_game_live(bot_process: BotProcess) -> None:
    port = free_port()
    bot_process.env |= {"HOG_WEB_PORT": str(port)}
    await bot_process.start()
    fake = bot_process.fake
    command = await fake.interact(subcommand("house", [{"name": "difficulty", "type": 3, "value": "easy"}]))
    shown = await board_of(fake, command)
    move = next(c["custom_id"] for c in buttons(shown.body) if c.get("label") == "3")
    game_id = move.split(":")[2]
    async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as session:
        for _ in range(100):  # the site opens as the bot starts
            with contextlib.suppress(aiohttp.ClientConnectionError):
                async with session.get("/healthz") as health:
                    assert health.status == 200
                    break
            await asyncio.sleep(0.1)
        async with session.get(f"/games/{game_id}") as page:
            assert page.status == 200 and "The house" in await page.text()
        async with session.get(f"/games/{game_id}/events") as stream:
            assert await asyncio.wait_for(stream.content.readline(), 10) == b"event: version\n"
            first = int((await stream.content.readline()).decode().removeprefix("data: "))
            message = fake.messages[f"original:token{command}"]
            await press(fake, "1001", "Ada", message, move)
            lines = [await asyncio.wait_for(stream.content.readline(), 1) for _ in range(3)]
            assert lines[1] == b"event: version\n" and int(lines[2].decode().removeprefix("data: ")) > first
