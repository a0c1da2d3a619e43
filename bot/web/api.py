"""The read API (``/api``): every game, player and leaderboard as JSON for a script or a notebook,
described by an OpenAPI 3.1 document at ``/api/openapi.json`` (every answer validates against it: a
test). A game is as ``python -m bot export`` writes it (``bot.platform.export``): a running game by
its players, fields and status alone. ``/api/games`` streams NDJSON, oldest first, a few streams at
once per client (``Streams``: 429 with Retry-After past them). Open to every origin, for GET only."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

import msgspec
from aiohttp import web

from bot.platform import export
from bot.platform.compose import Platform
from bot.platform.ratings import shown

CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET"}
LEADERS = 100
"""Players a leaderboard answer holds at most (``?offset=`` pages through the rest)."""
Platformed = web.AppKey("api-platform", Platform)


OPENAPI: dict[str, Any] = json.loads((Path(__file__).parent / "openapi.json").read_text())
"""The API's OpenAPI 3.1 description (``openapi.json`` beside this module): what every answer is."""


def answer(body: object, status: int = 200) -> web.Response:
    return web.Response(body=msgspec.json.encode(body), status=status, content_type="application/json", headers=CORS)


def missing(what: str) -> web.Response:
    return answer({"error": f"There is no {what} here."}, 404)


async def openapi(request: web.Request) -> web.Response:
    return answer(OPENAPI)


async def game(request: web.Request) -> web.Response:
    p, game_id = request.app[Platformed], request.match_info["game_id"]
    row = await (await p.settled_views()).game(game_id)
    if row is None:
        return missing(f"game {game_id[:64]!r}")
    return web.Response(body=await export.line_of(p, row), content_type="application/json", headers=CORS)


class Budget(Protocol):
    """The web's live streams' budget (``bot.web.app.Streams``): how many a client may hold at once."""

    def refusal(self, client: str) -> web.Response | None: ...

    def held(self, client: str) -> AbstractContextManager[None]: ...


def streamer(
    budget: Budget, client_of: Callable[[web.Request], str]
) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """``/api/games``, within the live streams' budget."""

    async def games(request: web.Request) -> web.StreamResponse:
        p, query = request.app[Platformed], request.query
        try:
            since = None if (day := query.get("since")) is None else export.day_start(day)
            asked = export.Asked(player_id=query.get("player"), server=query.get("server"), since=since)
        except ValueError:
            return answer({"error": "since is a day written YYYY-MM-DD"}, 400)
        kind = query.get("game")
        if kind is not None and kind not in p.games:
            return answer({"error": f"there is no game {kind[:40]!r} here"}, 400)
        client = client_of(request)
        if (refused := budget.refusal(client)) is not None:
            refused.headers.update(CORS)
            return refused
        with budget.held(client):
            stream = web.StreamResponse(headers={"Content-Type": "application/x-ndjson", **CORS})
            await stream.prepare(request)
            try:
                async for row in export.rows_asked(p, asked):
                    if kind is None or row.game == kind:
                        await stream.write(await export.line_of(p, row))
                await stream.write_eof()
            except ConnectionError:  # the client stopped reading (``| head``): no fault, nothing to log
                pass
            return stream

    return games


async def player(request: web.Request) -> web.Response:
    p, player_id = request.app[Platformed], request.match_info["player_id"]
    views = await p.settled_views()
    latest = await views.history(player_id, limit=1)
    if not latest:
        return missing(f"player {player_id[:64]!r}")
    name = next((s.name for s in latest[0].seats if s.player_id == player_id), player_id)
    games: dict[str, Any] = {}
    for kind in p.games:
        stats = await views.stats(player_id, kind, by="", best="")
        if not stats.total.games:
            continue
        rating = (await views.ratings.of(kind, [player_id])).get(player_id)
        total = stats.total
        games[kind] = {
            "record": {"games": total.games, "wins": total.wins, "losses": total.losses, "draws": total.draws},
            "rating": shown(rating),
            "rated_games": 0 if rating is None else rating.games,
            "longest_streak": stats.longest_streak,
        }
    return answer({"player_id": player_id, "name": name, "games": games})


async def leaderboard(request: web.Request) -> web.Response:
    p, kind = request.app[Platformed], request.match_info["game"]
    server, offset = request.query.get("server") or None, request.query.get("offset", "0")
    if kind not in p.games:
        return missing(f"leaderboard {kind[:40]!r}")
    if not offset.isascii() or not offset.isdigit() or len(offset) > 9:
        return answer({"error": "offset is a whole number from 0 (the first player) to 999999999"}, 400)
    standings = await (await p.settled_views()).ratings.standings(kind, "", server, limit=LEADERS, offset=int(offset))
    players = [
        {
            "rank": r.rank,
            "player_id": r.rating.player_id,
            "name": r.rating.name,
            "rating": shown(r.rating),
            "games": r.rating.games,
        }
        for r in standings.page
    ]
    return answer({"game": kind, "server": server, "total": standings.total, "players": players})


def add_api(app: web.Application, p: Platform, budget: Budget, client_of: Callable[[web.Request], str]) -> None:
    """The read API's routes on the web front's application."""
    app[Platformed] = p
    app.router.add_get("/api/openapi.json", openapi)
    app.router.add_get("/api/games", streamer(budget, client_of))
    app.router.add_get("/api/games/{game_id}", game)
    app.router.add_get("/api/players/{player_id}", player)
    app.router.add_get("/api/leaderboards/{game}", leaderboard)
