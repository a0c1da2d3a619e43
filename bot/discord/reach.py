"""Where the bot may speak. Added to a server, it posts and edits in its channels; installed by a user
on their own account, it is no member of the DM, group DM or server it is used in, and may only
answer interactions: a game's board there is an interaction's answer, edited by the answers to the
presses on it, and otherwise (a timer fired, a card played from a hand) through the token of the
last interaction that showed it — for the 15 minutes Discord keeps a token. Past them the board
waits for the next press, which shows the game as it is; the game itself goes on in the log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

EVERYWHERE: dict[str, Any] = {
    "allowed_installs": discord.app_commands.AppInstallationType(guild=True, user=True),
    "allowed_contexts": discord.app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
}
"""A game's commands: in a server that added the bot, in its DM, and, installed by a user on their own
account, in any server, DM or group DM of theirs."""
SERVERS_ONLY: dict[str, Any] = {
    "guild_only": True,
    "allowed_installs": discord.app_commands.AppInstallationType(guild=True),
    "allowed_contexts": discord.app_commands.AppCommandContext(guild=True),
}
"""The bot's own commands (a server's settings): only in a server that added it."""
TOKEN_LIFE = 14 * 60.0
"""How long a token is used: Discord keeps one 15 minutes; a minute is left for the request on its way."""
REMEMBERED = 10_000
"""Boards whose tokens a process remembers (forgotten all at once past this)."""


def postable(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may post and edit in the interaction's channel: a server that added it, or its
    own DM (an interaction without a context is from a server that added it, as before user installs)."""
    if interaction.context.private_channel:
        return False
    if interaction.context.guild:
        return interaction.is_guild_integration()
    return True


def in_server(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction comes from a server that added the bot (what a server's tournaments,
    seasons and settings need)."""
    return interaction.guild_id is not None and postable(interaction)


def in_this_chat(interaction: discord.Interaction[Any], user: discord.abc.User) -> bool:
    """Whether ``user`` is in the interaction's DM or group DM, as its recipients say (when Discord
    sends none, nothing says otherwise, but in the bot's own DM nobody but the asker ever is; a
    server's members are known by whether Discord resolved a member)."""
    if interaction.context.dm_channel:  # the bot's own DM: nobody else is ever in it
        return user.id == interaction.user.id
    channel = interaction.channel
    if isinstance(channel, discord.GroupChannel | discord.DMChannel) and channel.recipients:
        return any(r.id == user.id for r in channel.recipients)
    return True


class Tokens:
    """Which boards live in interactions, as this process has learnt, and the token of the
    interaction that last showed each of them, and when."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self._answered: dict[str, bool] = {}
        self._tokens: dict[str, tuple[str, float]] = {}

    def showed(self, game_id: str, interaction: discord.Interaction[Any]) -> None:
        """``interaction``'s answer shows ``game_id``'s board (its token kept where the bot cannot post)."""
        answered = not postable(interaction)
        self.learn(game_id, answered)
        if answered:
            self._tokens[game_id] = (interaction.token, self.now())

    def learn(self, game_id: str, answered: bool) -> None:
        if len(self._answered) > REMEMBERED:
            self._answered.clear()
            self._tokens.clear()
        self._answered[game_id] = answered

    def through(self, game_id: str) -> bool | None:
        """Whether ``game_id``'s board lives in interactions (``None``: not known here yet)."""
        return self._answered.get(game_id)

    def fresh(self, game_id: str) -> str | None:
        """A token that may still edit ``game_id``'s board, if there is one."""
        found = self._tokens.get(game_id)
        return found[0] if found is not None and self.now() - found[1] < TOKEN_LIFE else None
