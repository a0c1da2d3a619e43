"""Running the bot as a process: discord.py's logging to stderr, the platform and the web pages
opened, the client started with the token from the environment (never logged), a clean close on
SIGTERM, and one line and an exit status when Discord or the database cannot be used."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys

import aiohttp
import discord
import yarl

from bot.discord.client import GameBot
from bot.platform.compose import platform
from bot.platform.settings import Settings
from bot.web.serve import open_site
from storage.errors import DATABASE_ERRORS, OPENING_ERRORS

log = logging.getLogger(__name__)

COLLECT_AFTER = (20_000, 20, 10)
"""When the cyclic garbage collector runs (its generations' thresholds; Python's: 700, 10, 10). A bot
makes and drops tens of thousands of short-lived objects a second (gateway events, embeds, requests),
almost none in cycles; at Python's thresholds it collected some 200 times a second under load, about a tenth
of its CPU."""


PLAIN_LOG = logging.Formatter("[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{")
"""discord.py's log format without its colours."""


def setup_logging() -> None:
    """discord.py's log format, to stderr, in colour only on a terminal: never in a file, a pipe or a
    container's log (discord.py colours any output in Docker). Its warnings that voice needs PyNaCl
    and davey are silenced: the bot uses no voice."""
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    if sys.stderr.isatty():
        discord.utils.setup_logging()
    else:
        discord.utils.setup_logging(formatter=PLAIN_LOG)


def run_bot(settings: Settings) -> int:
    """``run`` on uvloop's event loop where it is installed (not on Windows): libuv's loop and sockets
    cost the bot far less CPU than asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(run(settings))
    return uvloop.run(run(settings))


async def run(settings: Settings) -> int:
    """Run the bot until it is stopped: the platform, then Discord (the token from the
    environment, never logged). The exit status: 0 when stopped, 1 when Discord cannot be used
    (a refused token, no network), said in one line."""
    assert settings.token is not None
    gc.set_threshold(*COLLECT_AFTER)
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    stack = contextlib.AsyncExitStack()
    try:
        p = await stack.enter_async_context(platform(settings))
    except OPENING_ERRORS as error:
        log.error("cannot use the database %s (%s)", settings.where, error)
        return 1
    try:
        async with stack:
            if settings.web_port is not None:  # the web pages too, fed by this process's boards
                try:
                    site = await open_site(p, settings.web_host, settings.web_port)
                except OSError as error:
                    log.error("cannot serve the web pages on %s:%d (%s)", settings.web_host, settings.web_port, error)
                    return 1
                stack.push_async_callback(site.cleanup)
            bot = GameBot(p, guild_id=settings.guild_id, shard_count=settings.shard_count, shard_ids=settings.shard_ids)
            async with bot:
                # ``docker stop`` and service managers ask with SIGTERM: close cleanly, not mid-step
                loop, closing = asyncio.get_running_loop(), []  # (the list keeps the closing task alive)
                with contextlib.suppress(NotImplementedError):  # Windows has no signal handlers in asyncio
                    loop.add_signal_handler(signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close())))
                gc.freeze()  # what start-up made lives as long as the process: the collector no longer walks it
                await bot.start(settings.token)
    except discord.LoginFailure:
        log.error(
            "Discord refused the token in DISCORD_TOKEN: copy it again from the Developer Portal (Bot, Reset Token)."
        )
        return 1
    except (OSError, aiohttp.ClientError, discord.GatewayNotFound) as error:
        where = settings.api_base or "discord.com"
        log.error("cannot reach Discord at %s (%s): check the network, then start the bot again.", where, error)
        return 1
    except DATABASE_ERRORS as error:  # the store or read models are unusable: stop, closing everything
        log.error("cannot use the database %s (%s)", settings.where, error)
        return 1
    log.info("closed: every game is kept in %s", settings.where)
    return 0
