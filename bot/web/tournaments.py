"""Tournaments on the web: ``/tournaments`` (every one, newest first, ``?server=<id>``) and
``/tournaments/<id>`` (where it stands, every round's games with links to them, the standings with
their tie-breaks, and ``/tournaments/<id>.png``, the standings' picture). Read-only, anyone's to see:
a tournament shows nothing hidden."""

from __future__ import annotations

import re

from aiohttp import web

from bot.platform.painter import drawn
from bot.platform.tournaments.book import PREFIX
from bot.platform.tournaments.picture import standings_picture
from bot.platform.tournaments.state import Round, Tournament
from bot.platform.tournaments.words import FORMAT_NAMES, RESULT_MARKS, TIE_BREAKS, standing_lines, status, title
from bot.web.render import PLATFORM, identifier, not_found, render

ID = re.compile(r"[0-9a-f]{8}")
LISTED = 50


def title_of(request: web.Request, t: Tournament) -> str:
    assert t.created is not None
    games = request.app[PLATFORM].games
    return title(t, games[t.created.game].title if t.created.game in games else t.created.game)


async def listing(request: web.Request) -> web.Response:
    p = request.app[PLATFORM]
    server = request.query.get("server") or None
    if server is not None and identifier(server) is None:
        return not_found("such list of tournaments")
    streams = list(reversed(await p.store.streams(f"{PREFIX}{server}:" if server else PREFIX)))[:LISTED]
    found = [await p.tournaments.book.load(s) for s in streams]
    rows = [(t.tournament_id, title_of(request, t), status(t)) for t in found if t.created is not None]
    return render("tournaments.html", rows=rows, server=server or "")


async def found(request: web.Request) -> Tournament | None:
    tournament_id = request.match_info["tournament_id"]
    if not ID.fullmatch(tournament_id):
        return None
    p = request.app[PLATFORM]
    stream = await p.tournaments.book.find(tournament_id)
    return None if stream is None else await p.tournaments.book.load(stream)


async def page(request: web.Request) -> web.Response:
    t = await found(request)
    if t is None or t.created is None:
        return not_found("such tournament")
    rounds = [(r.number, games_of(t, r), [t.players[p] for p in r.byes]) for r in reversed(t.rounds)]
    return render(
        "tournament.html",
        title=title_of(request, t),
        tournament_id=t.tournament_id,
        standing=status(t),
        format=FORMAT_NAMES[t.created.format],
        options=", ".join(f"{k} {v}" for k, v in t.created.options.items()),
        organiser=t.created.organiser_name,
        players=list(t.players.values()),
        started=t.started,
        rounds=rounds,
        standings=standing_lines(t, most=len(t.players)),
        tie_breaks=TIE_BREAKS[t.created.format],
    )


def games_of(t: Tournament, r: Round) -> list[tuple[str, str, bool]]:
    """Each game of a round: its id, its players (each with their result's mark once it is scored),
    and whether it is being played."""
    found = []
    for table, game_id in zip(r.tables, r.games, strict=True):
        results = r.results.get(game_id)
        seats = [f"{RESULT_MARKS[results[k]] + ' ' if results else ''}{t.players[p]}" for k, p in enumerate(table)]
        found.append((game_id, " vs ".join(seats), results is None))
    return found


async def picture(request: web.Request) -> web.Response:
    t = await found(request)
    if t is None or t.created is None or not t.started:
        return not_found("such tournament standings")
    png = await drawn(standings_picture, t, title_of(request, t))
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "max-age=60"})


def add_tournament_pages(app: web.Application) -> None:
    app.router.add_get("/tournaments", listing)
    app.router.add_get(r"/tournaments/{tournament_id:[0-9a-f]{8}}.png", picture)
    app.router.add_get("/tournaments/{tournament_id}", page)
