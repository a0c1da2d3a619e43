"""The base of every persistent button: what it means is in its custom_id (so it works after a
restart), which is parsed back, checked, and refused in words when it cannot be acted on.

A button subclasses ``GameButton`` with its ``template`` (each part any text up to the next colon,
so that a forged custom_id reaches ``refusal`` instead of failing silently), builds itself from a
match in ``parse``, says in ``refusal`` why a custom_id cannot be acted on (``FORGED`` parts), and
acts in ``press``. A button with an ``owner`` (a hand's card, a hand's *Refresh*) answers its owner
alone; everyone else is told ``not_yours``. A button that pages a message only its asker sees
(``pages_a_private_message``) acts on such a message alone.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.discord.counting import said

Button = discord.ui.Button[discord.ui.View]


ROW = 5
"""Buttons a row holds."""
FORGED = "That button is not one of mine."
"""The answer to a button whose custom_id is none of ours, or is not as we made it."""


class Buttons(discord.ui.View):
    """A message's buttons, drawn but never listened for: the client routes every click by its
    custom_id alone (``GameBot.on_interaction``), so discord.py's view store never holds one. They are
    kept as Discord's API writes them (``look``, or any ``ui`` item added), five a row: discord.py's
    own ``View.__init__`` readies a view for listening (an id from the OS's random source, a future,
    a timeout) at a system call a message, and a board is drawn at every click."""

    timeout = None
    """Never listened for, so never timed out."""

    def __init__(self, looks: list[dict[str, Any]] | None = None) -> None:  # not View's (see above)
        self.looks = looks if looks is not None else []

    def add_item(self, item: discord.ui.Item[Any]) -> Self:
        self.looks.append(item.to_component_dict())
        return self

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": self.looks[i : i + ROW]} for i in range(0, len(self.looks), ROW)]

    def is_finished(self) -> bool:
        return True  # to discord.py: nothing to listen for (it stores no finished view)

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"<Buttons {[look.get('custom_id') or look.get('url') for look in self.looks]}>"


def look(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    disabled: bool = False,
) -> dict[str, Any]:
    """A button as Discord's API writes it (as ``ui.Button`` would), for ``Buttons``."""
    found: dict[str, Any] = {
        "type": 2,
        "style": style.value,
        "disabled": disabled,
        "label": label,
        "custom_id": custom_id,
    }
    if emoji is not None:
        found["emoji"] = {"id": None, "name": emoji}
    return found


class GameButton(discord.ui.DynamicItem[Button], template=r"(?!)"):
    """A button is its look, as a message sends it, and what it means: discord.py's ``Button`` that a
    ``DynamicItem`` wraps is never made (nor ``DynamicItem.__init__`` run), since a button is only
    ever drawn into ``Buttons`` and parsed back from a click's custom_id (once a click)."""

    owner: str | None = None
    """The one user the button answers (``None``: whoever may act on the board)."""
    not_yours: ClassVar[str] = "That button is not yours."
    pages_a_private_message: bool = False
    """It turns the pages of a message only its asker sees (a history, a replay): pressed on any other
    message (a forged click on a public board) it is refused, and that message is left as it was."""

    def __init__(  # not DynamicItem's (see above)
        self,
        custom_id: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        self.look = look(custom_id, label, style, emoji, disabled)

    def to_component_dict(self) -> dict[str, Any]:
        return self.look

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls.parse(match)

    @classmethod
    def parse(cls, match: re.Match[str]) -> Self:
        """The button a custom_id that matched the template names."""
        raise NotImplementedError

    def refusal(self) -> str | None:
        """Why this button cannot be acted on, whoever presses it (a part that is not as made), or ``None``."""
        return None

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        refusal = self.refusal()
        if refusal is None and self.pages_a_private_message and not _private(interaction.message):
            refusal = FORGED
        if refusal is None and self.owner is not None and self.owner != str(interaction.user.id):
            refusal = self.not_yours
        if refusal is not None:
            said(interaction, "refused")
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        await self.press(interaction)

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


def _private(message: discord.Message | None) -> bool:
    return message is not None and message.flags.ephemeral


def number(text: str) -> int | None:
    """A custom_id's number part, or ``None`` when it is not one (a forged id)."""
    return int(text) if re.fullmatch(r"-?\d{1,9}", text) else None
