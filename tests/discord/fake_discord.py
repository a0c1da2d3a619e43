"""A small fake Discord on 127.0.0.1: the REST routes and the gateway a bot like ours uses, checking
every body the bot sends against Discord's OpenAPI description (``tests/discord/discord_api_spec``, MIT,
shipped with the tests so that the check runs in every checkout).

A real discord.py client logs in to it unchanged (``client.start(token)``), with
``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` pointed here. Tests send
interactions through the gateway and wait for what the bot sends back (see shared/DESIGN.md).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

APP_ID = "900000000000000001"
GUILD_ID = "900000000000000002"
CHANNEL_ID = "900000000000000003"
GROUP_DM_ID = "900000000000000004"
"""A group DM of friends who installed the app on their accounts: the bot is no member of it."""
V2 = 1 << 15
"""The IS_COMPONENTS_V2 message flag."""
EPHEMERAL = 1 << 6
"""An ephemeral message's flag: an edit never takes it away."""
TOKEN_LIFE = 15 * 60
"""Discord keeps an interaction's token this many seconds."""
BOT_USER = {"id": APP_ID, "username": "hogbot", "discriminator": "0", "avatar": None, "bot": True, "flags": 0}


def user(user_id: str, name: str) -> dict[str, Any]:
    return {"id": user_id, "username": name, "global_name": name, "discriminator": "0", "avatar": None}


def member(user_id: str, name: str) -> dict[str, Any]:
    return {
        "user": user(user_id, name),
        "roles": [],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": "2147483647",
    }


SPEC = Path(__file__).resolve().parent / "discord_api_spec" / "openapi.json"


class SpecCheck:
    """Discord's published OpenAPI description: the request body schema of every route, to check
    what the bot sends the way Discord would (label lengths, button counts, content limits)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        registry: Registry[Any] = Registry().with_resource(
            "urn:discord", Resource.from_contents(spec, default_specification=DRAFT202012)
        )
        self.routes: list[tuple[re.Pattern[str], str, Draft202012Validator]] = []
        for template, item in sorted(spec["paths"].items(), key=lambda kv: kv[0].count("{")):
            for method, operation in item.items():
                if not isinstance(operation, dict) or "application/json" not in operation.get("requestBody", {}).get(
                    "content", {}
                ):
                    continue
                pointer = "/".join(
                    p.replace("~", "~0").replace("/", "~1")
                    for p in ("paths", template, method, "requestBody", "content", "application/json", "schema")
                )
                pattern = re.compile("^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template)) + "$")
                validator = Draft202012Validator({"$ref": f"urn:discord#/{pointer}"}, registry=registry)
                self.routes.append((pattern, method.upper(), validator))

    @classmethod
    @functools.cache
    def load(cls, path: Path) -> SpecCheck:
        """The check, built once per test run (the description is 1 MB of JSON)."""
        return cls(json.loads(path.read_text()))

    def errors(self, method: str, path: str, body: Any) -> list[str]:
        for pattern, m, validator in self.routes:
            if m == method and pattern.match(path):
                return [f"{method} {path}: {e.message[:300]}" for e in validator.iter_errors(_snowflakes(body))]
        return []


def _snowflakes(body: Any) -> Any:
    """``body`` with integer ids as strings: Discord reads a snowflake either way (discord.py sends
    some as integers, and an uploaded file's index as the id of its attachment), but the
    description only spells out the string form."""
    if isinstance(body, dict):  # an attachment's "id" may be the small index of a file in the upload
        return {k: str(v) if k == "id" and type(v) is int else _snowflakes(v) for k, v in body.items()}
    if isinstance(body, list):
        return [_snowflakes(v) for v in body]
    if isinstance(body, int) and not isinstance(body, bool) and body >= 1 << 32:
        return str(body)
    return body


@dataclass
class Sent:
    """A request the bot made."""

    method: str
    path: str
    body: Any
    files: dict[str, bytes] = field(default_factory=dict)
    """Uploaded files by name."""
    reply: Any = None
    """What the fake answered (a message it stored, as Discord returns it)."""


@dataclass
class Hold:
    match: Callable[[str, str], bool]
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    arrivals: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    """The path of every request held, as it arrives."""


@dataclass
class FakeDiscord:
    sent: list[Sent] = field(default_factory=list)
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(950000000000000000))
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    _socket: web.WebSocketResponse | None = None
    shards: dict[int, web.WebSocketResponse] = field(default_factory=dict)
    """The gateway connection of each shard the bots identified, by shard number (the latest wins)."""
    _identified: asyncio.Event = field(default_factory=asyncio.Event)
    _seq: int = 0
    _runner: web.AppRunner | None = None
    port: int = 0
    spec: SpecCheck | None = field(default_factory=lambda: SpecCheck.load(SPEC))
    """``None`` skips the check (the load benchmark, where it would dominate)."""
    token: str | None = None
    """The one bot token to accept, when given (a bot with another is answered 401)."""
    holds: list[Hold] = field(default_factory=list)
    failing: list[Callable[[str, str], bool]] = field(default_factory=list)
    """Requests ``match(method, path)`` picks are refused (403 Missing Access: the channel is out of reach)."""
    refused: list[str] = field(default_factory=list)
    """Bodies the bot sent that Discord's OpenAPI description does not allow, and second responses."""
    can_attach: bool = True
    """Whether the bot may attach files to messages in the channel (Attach Files)."""
    uploads: dict[str, bytes] = field(default_factory=dict)
    """Every file the bot uploaded, by attachment id."""
    files: dict[str, bytes] = field(default_factory=dict)
    """Files people attached to their commands, by attachment id, served as Discord's CDN serves them."""
    downloads: list[str] = field(default_factory=list)
    """The ids of the attached files the bot fetched, in order."""
    _answered: set[str] = field(default_factory=set)
    _clicked: dict[str, str] = field(default_factory=dict)
    _responses: dict[str, asyncio.Future[Sent]] = field(default_factory=dict)
    delivered_at: dict[str, float] = field(default_factory=dict)
    """When each interaction was handed to the bot's gateway connection (``time.perf_counter``)."""
    answered_at: dict[str, float] = field(default_factory=dict)
    """When the bot's response to each interaction arrived."""
    users: dict[str, str] = field(default_factory=dict)
    """Each interaction's id -> the id of the user who made it."""
    observers: list[Callable[[Sent], Awaitable[None]]] = field(default_factory=list)
    """Each awaited with every request as it arrives, before it is answered (a test watching what the bot sends)."""
    out_of_reach: set[str] = field(default_factory=lambda: {GROUP_DM_ID})
    """Channels the bot is no member of: every request to one is refused (403 Missing Access)."""
    emojis: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The application's emojis, by name."""
    emoji_images: dict[str, str] = field(default_factory=dict)
    """Each emoji's picture as uploaded (a data URI), by its id."""
    clock: Callable[[], float] = time.time
    """Discord's clock, for when an interaction's token runs out (a test's clock, moved by hand)."""
    _issued: dict[str, float] = field(default_factory=dict)
    """Each interaction's token -> when it was issued."""
    _channel_of: dict[str, str] = field(default_factory=dict)
    """Each interaction's token -> its channel."""
    """Component interactions' ids -> the id of the message clicked."""

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    def next_id(self) -> str:
        return str(next(self._ids))

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway/", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        app.router.add_get("/attachments/{id}/{name}", self._file)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self._socket is not None:
            await self._socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # --- waiting for the bot ---------------------------------------------------------------------

    async def response(self, interaction: str, timeout: float = 20) -> Sent:
        """The bot's response to ``interaction`` (waits on that interaction alone, however busy the fake)."""
        future = self._responses.setdefault(interaction, asyncio.get_running_loop().create_future())
        return await asyncio.wait_for(asyncio.shield(future), timeout)

    def answered(self, interaction: str) -> Sent | None:
        """The bot's response to ``interaction`` if it has come (without waiting)."""
        future = self._responses.get(interaction)
        return future.result() if future is not None and future.done() else None

    def seed(self, message_id: str, components: list[dict[str, Any]]) -> dict[str, Any]:
        """A message the bot posted before this fake started (a board of an older version of the bot)."""
        self.messages[message_id] = {"id": message_id}
        return self._store_message({"components": components}, message_id)

    def message(self, message_id: str) -> dict[str, Any]:
        """A message as it stands now, by id."""
        return next(m for m in self.messages.values() if m["id"] == message_id)

    async def wait_for(self, match: Callable[[Sent], bool], timeout: float = 20) -> Sent:
        """The first request matching ``match``, waiting for the bot to send it."""

        def found() -> Sent | None:
            return next((s for s in self.sent if match(s)), None)

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: found() is not None), timeout)
        result = found()
        assert result is not None
        return result

    def hold(self, match: Callable[[str, str], bool]) -> Hold:
        """Keep every request ``match(method, path)`` picks waiting until the hold is released (a
        slow or rate-limited Discord); the hold tells when one has arrived."""
        held = Hold(match)
        self.holds.append(held)
        return held

    def expect_login(self) -> None:
        """Forget the last login, so that ``ready`` waits for the next bot's."""
        self._identified.clear()

    async def ready(self, timeout: float = 20) -> None:
        await asyncio.wait_for(self._identified.wait(), timeout)

    def attach(self, filename: str, data: bytes, size: int | None = None) -> dict[str, Any]:
        """A file a person attaches to a command: Discord's attachment object, its ``url`` on this
        fake's CDN (``size``: what Discord says of it, when a test wants it to differ)."""
        attachment_id = self.next_id()
        self.files[attachment_id] = data
        url = f"http://127.0.0.1:{self.port}/attachments/{attachment_id}/{filename}"
        return {
            "id": attachment_id,
            "filename": filename,
            "size": len(data) if size is None else size,
            "url": url,
            "proxy_url": url,
            "content_type": "text/csv",
        }

    async def _file(self, request: web.Request) -> web.Response:
        attachment_id = request.match_info["id"]
        self.downloads.append(attachment_id)
        if attachment_id not in self.files:
            return web.Response(status=404)
        return web.Response(body=self.files[attachment_id])

    # --- REST ----------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        for held in self.holds:
            if held.match(request.method, path):
                held.arrived.set()
                held.arrivals.put_nowait(path)
                await held.released.wait()
                if request.transport is None or request.transport.is_closing():
                    return web.Response(status=499)  # the bot died waiting: Discord never got it
        body: Any = None
        uploads: dict[str, tuple[str, bytes]] = {}
        if request.content_type == "multipart/form-data":
            body, uploads = await _multipart(request)
        elif request.can_read_body and (raw := await request.read()):
            body = json.loads(raw)
        if self.spec is not None and body is not None:
            self.refused += self.spec.errors(request.method, path, body)
        self.refused += undescribed(body, uploads)
        parts = path.strip("/").split("/")
        if self.token is not None and request.headers.get("Authorization") != f"Bot {self.token}":
            return _json({"message": "401: Unauthorized", "code": 0}, 401)  # as Discord answers a bad token
        self.refused += self._flag_errors(request.method, parts, body)
        if parts[0] == "webhooks" and len(parts) > 2 and self._expired(parts[2]):
            self.refused.append(f"{request.method} {path}: the interaction's token ran out")
            return _json({"code": 50027, "message": "Invalid Webhook Token"}, 401)
        if parts[0] == "interactions" and parts[-1] == "callback":
            if parts[1] in self._answered:  # as Discord: one response per interaction
                self.refused.append(f"{path}: a second response to interaction {parts[1]}")
                return _json({"code": 40060, "message": "Interaction has already been acknowledged."}, 400)
            self._answered.add(parts[1])
        sent = Sent(request.method, path, body, dict(uploads.values()))
        for observe in self.observers:
            await observe(sent)
        async with self._changed:
            self.sent.append(sent)
            self._changed.notify_all()
        if parts[0] == "interactions" and parts[-1] == "callback":
            self.answered_at[parts[1]] = time.perf_counter()
            self._responses.setdefault(parts[1], asyncio.get_running_loop().create_future()).set_result(sent)
        if any(fails(request.method, path) for fails in self.failing) or (
            parts[0] == "channels" and parts[1] in self.out_of_reach
        ):
            return _json({"code": 50001, "message": "Missing Access"}, 403)
        if parts[0] == "channels" and uploads and not self.can_attach:
            return _json({"code": 50013, "message": "Missing Permissions"}, 403)
        known = any(m["id"] == parts[3] for m in self.messages.values()) if len(parts) > 3 else True
        if parts[0] == "channels" and parts[2:3] == ["messages"] and not known:
            return _json({"code": 10008, "message": "Unknown Message"}, 404)
        answer = sent.reply = self._answer(request.method, path, body, uploads)
        if parts[0] == "interactions" and parts[-1] == "callback" and request.query.get("with_response") is None:
            return web.Response(status=204)  # as Discord: the callback object only when asked for
        return _json(answer)

    def _answer(self, method: str, path: str, body: Any, uploads: dict[str, tuple[str, bytes]]) -> Any:
        parts = path.strip("/").split("/")
        if path == "/users/@me":
            return BOT_USER
        if path == "/gateway/bot":  # an auto-sharded bot asks how many shards to run
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            return {"url": self.gateway, "shards": 1, "session_start_limit": limit}
        if path == "/oauth2/applications/@me":
            return {
                "id": APP_ID,
                "name": "hogbot",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": user("1", "owner"),
                "verify_key": "k",
                "flags": 0,
            }
        if parts[0] == "applications" and parts[-1] == "emojis":
            if method == "POST":
                emoji = {"id": self.next_id(), "name": body["name"], "roles": [], "require_colons": True}
                emoji |= {"managed": False, "animated": False, "available": True, "user": user("1", "owner")}
                self.emojis[emoji["name"]] = emoji
                self.emoji_images[emoji["id"]] = body["image"]
                return emoji
            return {"items": list(self.emojis.values())}
        if parts[0] == "applications" and parts[-1] == "commands":
            return [{**c, "id": self.next_id(), "application_id": APP_ID, "version": "1"} for c in body or []]
        if parts[0] == "interactions" and parts[-1] == "callback":
            data = (body or {}).get("data") or {}
            message = None
            if body["type"] == 7:  # UPDATE_MESSAGE: the clicked message itself changes
                clicked = self.message(self._clicked[parts[1]])
                key = next(k for k, m in self.messages.items() if m is clicked)
                message = self._store_message(data, key, uploads)
            elif data.get("embeds") is not None or data.get("content") is not None or data.get("components"):
                message = self._store_message(data, f"original:{parts[2]}", uploads, self._channel_of.get(parts[2]))
            elif body["type"] == 5:  # DEFERRED: as Discord, a "thinking…" message is the original response
                thinking = {"content": "", "flags": 128}
                message = self._store_message(thinking, f"original:{parts[2]}", None, self._channel_of.get(parts[2]))
            answered: dict[str, Any] = {"id": parts[1], "type": 2}
            if message:  # as Discord: the message the response made (a "thinking…" one is loading)
                answered |= {"response_message_id": message["id"], "response_message_loading": body["type"] == 5}
                answered["response_message_ephemeral"] = bool(int(data.get("flags") or 0) & 64)
            return {
                "interaction": answered,
                "resource": {"type": body["type"], "message": message} if message else {"type": body["type"]},
            }
        if parts[0] == "webhooks" and "messages" in parts:
            key = f"original:{parts[2]}" if parts[-1] == "@original" else parts[-1]
            button_message = self._clicked.get(parts[2].removeprefix("token"))
            if button_message is not None and parts[-1] == "@original":  # a button's message is its original
                key = next(k for k, m in self.messages.items() if m["id"] == button_message)
            if method == "PATCH":
                return self._store_message(body, key, uploads)
            return self.messages.get(key, {})
        if parts[0] == "webhooks":
            return self._store_message(body, self.next_id(), uploads, self._channel_of.get(parts[2]))
        if parts[0] == "channels" and parts[2:3] == ["messages"]:
            if method == "POST":
                return self._store_message(body, self.next_id(), uploads)
            key = next(k for k, m in self.messages.items() if m["id"] == parts[3])
            return self._store_message(body, key, uploads)
        return {}

    def _attachments(
        self, data: dict[str, Any], old: list[dict[str, Any]], uploads: dict[str, tuple[str, bytes]]
    ) -> list[dict[str, Any]]:
        """As Discord: a body's ``attachments`` list what the message keeps (by id) and what it gains
        (by the index of an uploaded file); without the list the message keeps what it had."""
        if "attachments" not in data:
            return old
        kept = {a["id"]: a for a in old}
        attachments = []
        for wanted in data["attachments"]:
            ref = str(wanted["id"])
            if ref in kept:
                attachments.append(kept[ref])
            elif ref in uploads:
                name, content = uploads[ref]
                new_id = self.next_id()
                self.uploads[new_id] = content
                url = f"https://cdn.discordapp.com/attachments/{CHANNEL_ID}/{new_id}/{name}"
                attachments.append({"id": new_id, "filename": name, "size": len(content), "url": url, "proxy_url": url})
            else:
                self.refused.append(f"attachment {ref} is neither kept nor uploaded")
        return attachments

    def _store_message(
        self,
        data: dict[str, Any],
        key: str,
        uploads: dict[str, tuple[str, bytes]] | None = None,
        channel: str | None = None,
    ) -> dict[str, Any]:
        old = self.messages.get(key, {})
        message = {
            "id": old.get("id") or self.next_id(),
            "channel_id": old.get("channel_id") or channel or CHANNEL_ID,
            "author": BOT_USER,
            "content": data.get("content", old.get("content", "")),
            "embeds": data.get("embeds", old.get("embeds", [])),
            "components": data.get("components", old.get("components", [])),
            "attachments": self._attachments(data, old.get("attachments", []), uploads or {}),
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "type": 0,
            "flags": int(data.get("flags", old.get("flags", 0))) | (int(old.get("flags", 0)) & EPHEMERAL),
        }
        self.messages[key] = message
        return message

    def _expired(self, token: str) -> bool:
        issued = self._issued.get(token)
        return issued is not None and self.clock() - issued > TOKEN_LIFE

    def _flag_errors(self, method: str, parts: list[str], body: Any) -> list[str]:
        """As Discord: a Components V2 message (flag ``V2``) has no content nor embeds, at most 40
        components and 4,000 characters of text; a message once V2 stays V2."""
        if not isinstance(body, dict):
            return []
        data = body.get("data") if parts[0] == "interactions" else body
        if not isinstance(data, dict):
            return []
        where = "/".join(parts)
        old = self._edited(method, parts, body)
        flags = int(data.get("flags") or 0)
        if old is not None and int(old.get("flags") or 0) & V2 and not flags & V2 and "flags" in data:
            return [f"{where}: a Components V2 message cannot lose its flag"]
        if old is not None and int(old.get("flags") or 0) & V2 and (data.get("content") or data.get("embeds")):
            return [f"{where}: content or embeds on a Components V2 message"]
        if not flags & V2:
            return []
        errors = []
        if data.get("content") or data.get("embeds"):
            errors.append(f"{where}: content or embeds with Components V2")
        if (n := len(nested(data.get("components") or []))) > 40:
            errors.append(f"{where}: {n} components (40 at most)")
        if (n := sum(len(c.get("content", "")) for c in nested(data.get("components") or []))) > 4000:
            errors.append(f"{where}: {n} characters of text (4,000 at most)")
        return errors

    def _edited(self, method: str, parts: list[str], body: dict[str, Any]) -> dict[str, Any] | None:
        """The message a request edits, if it edits one this fake holds."""
        if parts[0] == "interactions" and body.get("type") == 7:
            clicked = self._clicked.get(parts[1])
            return next((m for m in self.messages.values() if m["id"] == clicked), None)
        if method != "PATCH":
            return None
        if parts[0] == "webhooks" and parts[-1] == "@original":
            clicked = self._clicked.get(parts[2].removeprefix("token"))
            found = next((m for m in self.messages.values() if m["id"] == clicked), None)
            return found or self.messages.get(f"original:{parts[2]}")
        return next((m for m in self.messages.values() if m["id"] == parts[-1]), None)

    # --- gateway -------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._socket = socket
        await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            if payload["op"] == 1:
                await socket.send_str(json.dumps({"op": 11}))
            elif payload["op"] == 2:
                shard, count = payload["d"].get("shard") or (0, 1)
                self.shards[shard] = socket
                ours = (int(GUILD_ID) >> 22) % count == shard  # Discord's rule: a server's shard
                await self.dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": BOT_USER,
                        "guilds": [{"id": GUILD_ID, "unavailable": True}] if ours else [],
                        "session_id": f"session{shard}",
                        "resume_gateway_url": self.gateway,
                        "application": {"id": APP_ID, "flags": 0},
                        "shard": [shard, count],
                    },
                    shard,
                )
                if ours:
                    await self.dispatch("GUILD_CREATE", _guild(), shard)
                self._identified.set()
        return socket

    async def dispatch(self, event: str, data: dict[str, Any], shard: int | None = None) -> None:
        """Send a gateway event to ``shard``'s connection (the last connection made, if not named)."""
        socket = self._socket if shard is None else self.shards[shard]
        assert socket is not None, "the bot is not connected"
        self._seq += 1
        await socket.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    async def interact(self, data: dict[str, Any], shard: int | None = None) -> str:
        """Deliver an interaction to the bot (on ``shard``'s connection, when named); returns its id."""
        interaction_id = self.next_id()
        who = data.get("member", {}).get("user") or data.get("user") or {}
        self.users[interaction_id] = str(who.get("id", ""))
        self._issued[f"token{interaction_id}"] = self.clock()
        self._channel_of[f"token{interaction_id}"] = str(data.get("channel_id", CHANNEL_ID))
        if "message" in data:
            self._clicked[interaction_id] = data["message"]["id"]
        self.delivered_at[interaction_id] = time.perf_counter()
        await self.dispatch(
            "INTERACTION_CREATE", {"id": interaction_id, "token": f"token{interaction_id}", **data}, shard
        )
        return interaction_id


def _guild() -> dict[str, Any]:
    return {
        "id": GUILD_ID,
        "name": "Hog Club",
        "icon": None,
        "owner_id": "1",
        "unavailable": False,
        "member_count": 2,
        "large": False,
        "features": [],
        "roles": [
            {
                "id": GUILD_ID,
                "name": "@everyone",
                "permissions": "2147483647",
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            },
        ],
        "channels": [{"id": CHANNEL_ID, "type": 0, "name": "hog", "position": 0, "permission_overwrites": []}],
        "members": [],
        "threads": [],
        "voice_states": [],
        "presences": [],
        "emojis": [],
        "stickers": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "nsfw_level": 0,
        "mfa_level": 0,
        "verification_level": 0,
        "explicit_content_filter": 0,
        "default_message_notifications": 0,
        "system_channel_flags": 0,
    }


def nested(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a message, however deep (rows, containers, sections and what they hold)."""
    found = []
    for c in components:
        found.append(c)
        found += nested(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            found.append(c["accessory"])
    return found


def _json(data: Any, status: int = 200) -> web.Response:
    # exactly application/json: discord.py treats a charset suffix as text
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


PICTURES = (".png", ".gif", ".jpg", ".jpeg", ".webp")


def undescribed(body: Any, uploads: dict[str, tuple[str, bytes]]) -> list[str]:
    """Each picture uploaded without a description (its alt text): a screen reader would say only its
    file's name. Discord accepts it; this project does not."""
    if not uploads or not isinstance(body, dict):
        return []
    listed = (body.get("data") or body).get("attachments") or []
    described = {str(a.get("id")) for a in listed if a.get("description")}
    return [
        f"the picture {name} is uploaded without a description"
        for ref, (name, _) in uploads.items()
        if name.lower().endswith(PICTURES) and ref not in described
    ]


async def _multipart(request: web.Request) -> tuple[Any, dict[str, tuple[str, bytes]]]:
    """A multipart body's ``payload_json``, and its ``files[n]`` parts as ``n -> (filename, content)``."""
    body: Any = None
    files: dict[str, tuple[str, bytes]] = {}
    async for part in await request.multipart():
        assert isinstance(part, BodyPartReader)
        if part.name == "payload_json":
            body = json.loads(await part.read())
        elif part.name and (match := re.fullmatch(r"files\[(\d+)\]", part.name)):
            files[match[1]] = (part.filename or "", bytes(await part.read()))
    return body, files
