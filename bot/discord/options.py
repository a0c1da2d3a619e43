"""A slash command's options checked against what the command declares, before it runs.

Discord's client keeps a number within its option's range and a choice among its choices, but a
request made by hand need not: discord.py hands the command whatever value came (``goal: 0``, a
rule set that is no choice). So every option is checked here against its declared range or
choices, once for every command, and refused in words when it falls outside.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands


def outside(interaction: discord.Interaction[Any]) -> str | None:
    """Why an option of ``interaction``'s command is not one the command declares; ``None`` if all are."""
    command = interaction.command
    if interaction.type is not discord.InteractionType.application_command:
        return None
    if not isinstance(command, app_commands.Command):
        return None
    for parameter in command.parameters:
        value = getattr(interaction.namespace, parameter.name, None)
        if value is None:
            continue
        if parameter.choices and value not in {choice.value for choice in parameter.choices}:
            return f"`{parameter.display_name}` must be one of the choices offered, not {str(value)[:40]!r}."
        if isinstance(value, int | float) and not isinstance(value, bool):
            low, high = parameter.min_value, parameter.max_value
            if (low is not None and value < low) or (high is not None and value > high):
                bounds = (
                    f"from {low} to {high}"
                    if low is not None and high is not None
                    else (f"at least {low}" if low is not None else f"at most {high}")
                )
                return f"`{parameter.display_name}` must be {bounds}, not {value}."
    return None
