"""The Discord connection: one client for every game. It routes each click by its custom_id to the
button it names (so buttons keep working after a restart) and each slash command to its game's group,
counts every interaction as it is answered (``bot.discord.counting``), and hands every press, board
and timer's edit to the road (``bot.discord.road``), which each game's front is given as its
``Road``. Starting the process (logging, signals, the event loop) is ``bot.discord.process``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord.admin import admin_commands, game_allowed
from bot.discord.answers import apologise, read_clicks_lightly
from bot.discord.buttons import FORGED, GameButton
from bot.discord.counting import button_labels, command_labels, count, said
from bot.discord.front import DiscordFront
from bot.discord.gateway import skip_unreadable
from bot.discord.history import HistoryButton
from bot.discord.leaderboard import LeaderboardButton
from bot.discord.options import outside
from bot.discord.pictures import PictureButton
from bot.discord.road import DiscordRoad
from bot.discord.tournaments import TournamentButton
from bot.platform.compose import Platform
from bot.platform.duty import Duty
from bot.platform.painter import PAINTER
from bot.platform.registry import load

log = logging.getLogger(__name__)

PERMISSIONS = discord.Permissions(117760)
"""What the bot asks for in its invite: view channels, send messages, embed links, attach files,
read message history (the README's invite link has the same number)."""

MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


class GameBot(discord.AutoShardedClient):
    """The bot: every game's commands and boards, on the shards this process runs (all of them, as
    many as Discord recommends, unless ``shard_count`` and ``shard_ids`` say otherwise)."""

    def __init__(
        self,
        platform: Platform,
        *,
        guild_id: int | None = None,
        shard_count: int | None = None,
        shard_ids: Sequence[int] | None = None,
    ) -> None:
        shards: dict[str, Any] = {"shard_count": shard_count}
        if shard_ids is not None:
            shards["shard_ids"] = list(shard_ids)
        super().__init__(intents=discord.Intents(guilds=True), allowed_mentions=MENTION_USERS, **shards)
        self.platform, self.guild_id = platform, guild_id
        self.fronts: dict[str, DiscordFront] = {}
        self.road = DiscordRoad(self, platform, self.fronts)
        """Where every press goes, and every board is drawn and edited (``bot.discord.road``)."""
        self.fronts.update({name: load(game.discord_front)(self.road, game) for name, game in platform.games.items()})
        platform.timers.report_to(self.road.edit_board, self.road.warn)
        platform.tournaments.shown_by(self.road.tournaments.post_game, self.road.tournaments.show)
        self.duty = Duty(platform, on_lead=self.road.reconcile)
        """The timers and the board reconcile, kept by the one leading process (``bot.platform.duty``)."""
        self._duty: asyncio.Task[None] | None = None
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self.command_failed  # type: ignore[method-assign]
        for front in self.fronts.values():
            self.tree.add_command(front.commands())
        self.tree.add_command(admin_commands(self.road))
        self.tree.interaction_check = self.allowed  # type: ignore[method-assign]
        read_clicks_lightly(self)
        skip_unreadable(self)
        self.buttons: tuple[type[GameButton], ...] = (
            HistoryButton,
            LeaderboardButton,
            TournamentButton,
            PictureButton,
            *(button for front in self.fronts.values() for button in front.buttons),
        )

    async def setup_hook(self) -> None:
        self._duty = asyncio.create_task(self.duty.run())
        await self.road.emojis.upload(self, {n: d for front in self.fronts.values() for n, d in front.emojis.items()})
        if self.guild_id is not None:  # instant sync to one server while developing
            guild = discord.Object(id=self.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced the slash commands (%s) to server %s", ", ".join(c.name for c in synced), self.guild_id)
        else:
            synced = await self.tree.sync()
            log.info(
                "synced the slash commands (%s) to every server: up to an hour to show",
                ", ".join(c.name for c in synced),
            )

    async def on_ready(self) -> None:
        """Tell the operator who the bot is, where it is, and how to invite it (on every reconnect too)."""
        assert self.user is not None
        invite = discord.utils.oauth_url(self.user.id, permissions=PERMISSIONS, scopes=("bot", "applications.commands"))
        own = discord.utils.oauth_url(self.user.id, scopes=("applications.commands",)) + "&integration_type=1"
        log.info(
            "logged in as %s (id %s) in %d servers; invite it with %s; players add it to their own accounts "
            "(to play in DMs and group DMs) with %s",
            self.user,
            self.user.id,
            len(self.guilds),
            invite,
            own,
        )

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click, routed by its custom_id to the button it names (parsed back from the id alone,
        so it works after a restart); one that is none of ours (another app's, or malformed) is
        answered in words. discord.py's view store is not used: it would rebuild the clicked message
        into a view on every click, and keep a view per message edited."""
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        for button in self.buttons:
            match = button.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                try:
                    await button.parse(match).callback(interaction)
                except Exception:
                    log.exception("the button %s failed", custom_id)
                    said(interaction, "failed")
                    await apologise(interaction)
                self.counted(interaction, *button_labels(custom_id, self.fronts))
                return
        await interaction.response.send_message(FORGED, ephemeral=True)
        self.counted(interaction, "unknown", "", "refused")

    async def close(self) -> None:
        if self._duty is not None:
            self._duty.cancel()
        self.platform.timers.close()
        for front in self.fronts.values():
            front.close()
        PAINTER.close()
        await super().close()

    async def started(self) -> None:
        """Wait until this process knows whether it leads, and leading, until its start-up reconcile
        has brought every board up to its log."""
        await self.duty.ready.wait()
        if self.duty.taking_lead is not None:
            await asyncio.shield(self.duty.taking_lead)

    def counted(self, interaction: discord.Interaction[Any], kind: str, game: str, outcome: str | None = None) -> None:
        """Count the interaction answered (``bot.discord.counting``), and dispatch
        ``interaction_counted`` (interaction, kind, game, outcome) for whoever waits for it."""
        self.dispatch("interaction_counted", interaction, kind, game, count(interaction, kind, game, outcome))

    async def allowed(self, interaction: discord.Interaction[Any]) -> bool:
        """A command runs unless an option is outside what it declares (``outside``: a forged request)
        or its game is turned off in the server (``game_allowed``): refused then, and counted."""
        if (said := outside(interaction)) is not None:
            await interaction.response.send_message(said, ephemeral=True)
        elif await game_allowed(self.road, interaction):
            return True
        if interaction.command is not None and interaction.type is discord.InteractionType.application_command:
            self.counted(interaction, *command_labels(interaction.command.qualified_name, self.fronts), "refused")
        return False

    async def on_app_command_completion(self, interaction: discord.Interaction[Any], command: Any) -> None:
        self.counted(interaction, *command_labels(command.qualified_name, self.fronts))

    async def command_failed(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        """Whatever went wrong inside a command, the player hears about it in words."""
        name = interaction.command.qualified_name if interaction.command else "?"
        self.counted(interaction, *command_labels(name, self.fronts), "failed")
        log.error("/%s failed", name, exc_info=error)
        await apologise(interaction)
