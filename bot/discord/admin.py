"""``/hogbot settings``: a server's own settings (``bot.platform.server_settings``), shown to anyone
and set by members who may manage the server; and the check that refuses a game's commands in a
server that has turned the game off."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.reach import SERVERS_ONLY
from bot.platform.contract import Refusal
from bot.platform.server_settings import Chosen

if TYPE_CHECKING:
    from bot.discord.front import Road


def server_of(interaction: discord.Interaction[Any]) -> str | None:
    return str(interaction.guild_id) if interaction.guild_id is not None else None


async def chosen_here(client: Road, interaction: discord.Interaction[Any]) -> Chosen:
    """The settings of the server the interaction comes from (the defaults outside a server)."""
    return await client.platform.server_settings.of(server_of(interaction))


def admin_commands(client: Road) -> app_commands.Group:
    group = app_commands.Group(
        name="hogbot",
        description="The bot itself: this server's settings",
        default_permissions=discord.Permissions(manage_guild=True),  # shown to managers; the check below stays
        **SERVERS_ONLY,
    )
    book = client.platform.server_settings

    @group.command(name="settings", description="Show this server's settings; members who manage it may set one")
    @app_commands.describe(setting="the setting to show or change", value="its new value (leave out to show it)")
    async def settings(
        interaction: discord.Interaction[Any], setting: str | None = None, value: str | None = None
    ) -> None:
        server = server_of(interaction)
        if server is None:
            await interaction.response.send_message("Settings belong to a server: use this in one.", ephemeral=True)
            return
        if setting is not None and value is not None:
            me = interaction.user
            try:
                stored = await book.set(
                    server, setting, value, str(me.id), me.display_name,
                    bool(interaction.permissions.manage_guild), str(interaction.id),
                )  # fmt: skip
            except Refusal as error:
                await interaction.response.send_message(error.message, ephemeral=True)
                return
            await interaction.response.send_message(
                f"`{setting.strip().lower()}` is now **{stored}** here.", ephemeral=True
            )
            return
        chosen = await book.of(server)
        wanted = [s for s in book.known.values() if setting is None or s.key == setting.strip().lower()]
        if not wanted:
            await interaction.response.send_message(f"There is no setting {setting!r}.", ephemeral=True)
            return
        lines = [
            f"`{s.key}` **{chosen[s.key]}**{'' if chosen[s.key] != s.default else ' (default)'} · {s.what}"
            for s in wanted
        ]
        embed = discord.Embed(title=f"⚙️ Settings of {interaction.guild.name if interaction.guild else 'this server'}",
                              description="\n".join(lines))  # fmt: skip
        embed.set_footer(text="Members who may manage the server change one with /hogbot settings setting:… value:…")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @settings.autocomplete("setting")
    async def keys(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=f"{k} · {s.what}"[:100], value=k) for k, s in book.known.items() if typed in k
        ][:25]

    return group


async def game_allowed(client: Road, interaction: discord.Interaction[Any]) -> bool:
    """Refuse, in words, a game's command in a server that turned the game off (its games under way
    play on: their buttons are not commands)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    game = (command.root_parent or command).name
    if game not in client.platform.games:
        return True
    chosen = await chosen_here(client, interaction)
    if chosen.values.get(f"{game}-enabled", "yes") == "yes":
        return True
    if interaction.type is discord.InteractionType.autocomplete:  # nothing to offer: it would be refused
        await interaction.response.autocomplete([])
        return False
    title = client.platform.games[game].title
    await interaction.response.send_message(
        f"{title} is turned off in this server (its admins set `{game}-enabled` in /hogbot settings).", ephemeral=True
    )
    return False
