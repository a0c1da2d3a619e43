"""Clicks read and boards written for what they cost, no more.

discord.py builds every message it touches into a ``Message``: the clicked message as a click
arrives, the message an answer to it made (it asks Discord for it: ``with_response``), the message a
board's edit returned. A board of a dozen buttons is a few dozen component objects each time, three
times a click, that nothing here reads: clicks are routed by their custom_id alone
(``GameBot.on_interaction``) and a board's message is known by its id. So the clicked message is
read without its components, and a board is answered and edited with discord.py's own requests
(the same bodies, rate limits and errors), its result left unread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params


def read_clicks_lightly(client: discord.Client) -> None:
    """Have ``client`` build a click's message without its components (never read: see above)."""
    parse: Callable[[Any], None] = client._connection.parsers["INTERACTION_CREATE"]

    def interaction_create(data: Any) -> None:
        message = data.get("message")
        if data.get("type") == 3 and message is not None:
            message["components"] = []
        parse(data)

    client._connection.parsers["INTERACTION_CREATE"] = interaction_create


async def update_clicked(
    interaction: discord.Interaction[Any],
    *,
    view: discord.ui.View | None,
    embed: discord.Embed | None = MISSING,
    attachments: Sequence[discord.File] = MISSING,
    content: str | None = MISSING,
) -> None:
    """``interaction.response.edit_message`` (the answer to a click that edits the clicked message),
    without asking Discord for the message back. A board (Components V2) carries no embed nor
    content: pressed on a board an older version of the bot posted as an embed, they are cleared."""
    if view is not None and view.has_components_v2() and not _v2(interaction.message):
        embed, content = None, None
    await _respond(
        interaction,
        discord.InteractionResponseType.message_update,
        embed=embed,
        view=view,
        attachments=attachments,
        content=content,
    )


def _v2(message: discord.Message | None) -> bool:
    return message is not None and message.flags.components_v2


async def send_private(
    interaction: discord.Interaction[Any], *, view: discord.ui.View, embed: discord.Embed | None = MISSING
) -> None:
    """``interaction.response.send_message(..., ephemeral=True)``, without asking Discord for the message back."""
    await _respond(
        interaction,
        discord.InteractionResponseType.channel_message,
        embed=embed,
        view=view,
        flags=discord.MessageFlags(ephemeral=True),
    )


async def _respond(interaction: discord.Interaction[Any], kind: discord.InteractionResponseType, **body: Any) -> None:
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    params = interaction_message_response_params(
        type=kind.value, previous_allowed_mentions=interaction._state.allowed_mentions, **body
    )
    route = discord.http.Route(
        "POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=interaction.id,
        webhook_token=interaction.token,
    )  # fmt: skip
    http = interaction._state.http
    files = {"files": params.files, "multipart": params.multipart} if params.files else {"payload": params.payload}
    await async_context.get().request(
        route, session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth, **files
    )
    interaction.response._response_type = kind


async def edit_message(
    client: discord.Client,
    channel_id: int,
    message_id: int,
    *,
    view: discord.ui.View,
    attachments: Sequence[discord.File],
) -> None:
    """``PartialMessage.edit`` of a board, its answer left unread. A board (Components V2) carries no
    words nor embeds beside it: they are cleared, so that a message of words (a post "setting up…") or a
    board an older bot posted as an embed becomes one (Discord turns a message into V2 so)."""
    with handle_message_parameters(
        content=None,
        embed=None,
        attachments=attachments,
        view=view,
        previous_allowed_mentions=client._connection.allowed_mentions,
    ) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def edit_through(
    client: discord.Client, token: str, *, view: discord.ui.View, files: Sequence[discord.File]
) -> None:
    """The message an interaction's answer made (or whose button was pressed) edited through the
    interaction's token (``Interaction.edit_original_response``, with no interaction at hand): how a
    board is edited where the bot may not post (``bot.discord.reach``)."""
    with handle_message_parameters(
        attachments=files, view=view, previous_allowed_mentions=client._connection.allowed_mentions
    ) as params:
        await async_context.get().edit_original_interaction_response(
            _application(client), token, payload=params.payload, multipart=params.multipart, files=params.files,
            **_connection(client),
        )  # fmt: skip


async def say_through(client: discord.Client, token: str, content: str) -> None:
    """A follow-up message in the interaction's channel, through its token (a reminder where the bot may not post)."""
    with handle_message_parameters(content=content, allowed_mentions=client._connection.allowed_mentions) as params:
        await async_context.get().execute_webhook(
            _application(client), token, payload=params.payload, **_connection(client)
        )


def _application(client: discord.Client) -> int:
    assert client.application_id is not None, "the bot has logged in"
    return client.application_id


def _connection(client: discord.Client) -> dict[str, Any]:
    """The client's own HTTP session and proxy, for a webhook request made without an interaction."""
    http = client.http
    return {"session": http._HTTPClient__session, "proxy": http.proxy, "proxy_auth": http.proxy_auth}  # type: ignore[attr-defined]


async def answered_in(
    interaction: discord.Interaction[Any], deferred: discord.InteractionCallbackResponse[Any] | None
) -> tuple[str, str]:
    """The channel and message of a deferred answer: as Discord's answer to the deferral named it, or
    asked for (one request more) when it did not."""
    if deferred is not None and deferred.message_id is not None and interaction.channel_id is not None:
        return str(interaction.channel_id), str(deferred.message_id)
    thinking = await interaction.original_response()
    return str(thinking.channel.id), str(thinking.id)


APOLOGY = "Something went wrong on my side. Every game is safe in the log; please try again."


async def apologise(interaction: discord.Interaction[Any]) -> None:
    """Whatever went wrong, said in words to the one who asked (never a traceback)."""
    if interaction.response.is_done():
        await interaction.followup.send(APOLOGY, ephemeral=True)
    else:
        await interaction.response.send_message(APOLOGY, ephemeral=True)
