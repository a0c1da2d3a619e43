"""Every interaction is counted where it is answered: every slash command the bot registers and a
press of every kind of button, through the fake Discord, each found in ``/metrics`` under its kind,
its game and how it ended."""

from __future__ import annotations

from typing import Any

from discord import AppCommandOptionType, app_commands
from prometheus_client.parser import text_string_to_metric_families

from bot.discord.client import GameBot
from bot.platform.metrics import exposition
from tests.discord.discord_world import board_of, click, subcommand, where
from tests.discord.fake_discord import FakeDiscord, member

BOB = {"id": "2002", "username": "Bob", "discriminator": "0", "global_name": "Bob", "avatar": None}

PRESSES = {
    "hog:move:nogame:1:3": ("move", "hog"),
    "hog:answer:nogame:accept": ("answer", "hog"),
    "hog:hint:nogame": ("hint", "hog"),
    "hog:puzzle:fa18-100-40-50-7-000:p:99": ("puzzle", "hog"),
    "hog:rematch:nogame": ("rematch", "hog"),
    "hog:replay:nogame:0:next": ("replay", "hog"),
    "hog:analyze:nogame:0:older": ("analyze", "hog"),
    "hog:contest:fa18:server:0:down": ("contest", "hog"),
    "hog:history:1001:0:older": ("history", "hog"),
    "hog:leaders:0:down": ("leaders", "hog"),
    "hog:picture:nogame": ("picture", "hog"),
    "cucumber:lobby:nogame:join": ("lobby", "cucumber"),
    "cucumber:hand:nogame": ("hand", "cucumber"),
    "cucumber:card:nogame:1.1.1:5:1001": ("card", "cucumber"),
    "cucumber:back:nogame": ("back", "cucumber"),
    "cucumber:replay:nogame:0:open": ("replay", "cucumber"),
    "cucumber:rematch:nogame": ("rematch", "cucumber"),
    "tournament:nogame:join": ("tournament", ""),
    "not-one-of-ours": ("unknown", ""),
}
"""A custom_id of each kind of button (on games that do not exist: refused, and counted all the same)."""


def value(parameter: app_commands.Parameter, fake: FakeDiscord, resolved: dict[str, Any]) -> object:
    """A value Discord could send for a required option (a user resolved, a file attached)."""
    if parameter.choices:
        return parameter.choices[0].value
    if parameter.type is AppCommandOptionType.user:
        resolved.setdefault("users", {})[BOB["id"]] = BOB
        resolved.setdefault("members", {})[BOB["id"]] = {k: v for k, v in member("2002", "Bob").items() if k != "user"}
        return BOB["id"]
    if parameter.type is AppCommandOptionType.attachment:
        attached = fake.attach("entry.csv", b"not a strategy")
        resolved.setdefault("attachments", {})[attached["id"]] = attached
        return attached["id"]
    if parameter.type is AppCommandOptionType.integer:
        return 1
    return "nogame"


def invoked(command: app_commands.Command[Any, Any, Any], fake: FakeDiscord) -> dict[str, Any]:
    """``command`` as Discord sends it, each required option given."""
    resolved: dict[str, Any] = {}
    options: list[dict[str, Any]] = [
        {"name": p.display_name, "type": p.type.value, "value": value(p, fake, resolved)}
        for p in command.parameters
        if p.required
    ]
    node: app_commands.Command[Any, Any, Any] | app_commands.Group = command
    while node.parent is not None:  # wrapped in each group it is in, innermost first
        options = [{"name": node.name, "type": 1 if node is command else 2, "options": options}]
        node = node.parent
    data: dict[str, Any] = {"id": "1", "name": node.name, "type": 1, "options": options}
    if resolved:
        data["resolved"] = resolved
    return {"type": 2, **where(), "member": member("1001", "Ada"), "data": data}


async def counted(fake: FakeDiscord, bot: GameBot, interaction: dict[str, Any]) -> tuple[str, str, str]:
    """Send ``interaction`` and wait for its count: its kind, game and outcome."""
    waiting = bot.wait_for("interaction_counted", timeout=60)  # registered now: it cannot be missed
    await fake.interact(interaction)
    _, kind, game, outcome = await waiting
    return kind, game, outcome


async def test_every_command_and_every_kind_of_button_is_counted(discord_world: tuple[FakeDiscord, GameBot]) -> None:
    fake, bot = discord_world
    commands = [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(commands) >= 40
    seen = {}
    for command in commands:
        kind, game, outcome = await counted(fake, bot, invoked(command, fake))
        assert (kind, game) == (f"/{command.qualified_name}", command.qualified_name.split()[0] * (game != ""))
        seen[kind] = outcome
    assert seen["/hog house"] == "answered" and seen["/hog challenge"] == "answered"

    waiting = bot.wait_for("interaction_counted", timeout=60)
    opened = await fake.interact(subcommand("house"))
    await board_of(fake, opened)
    await waiting
    message = fake.messages[f"original:token{opened}"]
    kinds = {
        button: [p for p in PRESSES if button.__discord_ui_compiled_template__.fullmatch(p)] for button in bot.buttons
    }
    assert all(len(found) == 1 for found in kinds.values()), kinds  # a press of every kind of button
    words = fake.seed(fake.next_id(), [])  # a message of words: the pages' buttons edit theirs so, a board's
    for custom_id, (kind, game) in PRESSES.items():
        found = await counted(fake, bot, click(custom_id, message if custom_id.startswith("hog:move:") else words))
        assert found[:2] == (kind, game), custom_id
        assert found[2] in ("refused", "answered", "moved"), found
        seen[kind] = found[2]
    assert seen["unknown"] == "refused" and seen["move"] == "refused"  # no such game: refused, counted

    samples = list(text_string_to_metric_families(exposition().decode()))
    answered = {
        (s.labels["kind"], s.labels["game"])
        for f in samples
        for s in f.samples
        if s.name == "hogbot_interactions_total"
    }
    timed = {s.labels["kind"] for f in samples for s in f.samples if s.name == "hogbot_acknowledgement_seconds_count"}
    for kind, game in PRESSES.values():
        assert (kind, game) in answered and kind in timed, kind
    for command in commands:
        assert f"/{command.qualified_name}" in timed, command.qualified_name
