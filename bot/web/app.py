"""The web front: every game at a link, its replay step by step, and live while it is played.

``aiohttp.web`` (installed with discord.py) serves it, with Jinja2 templates that escape every name
and text; every asset is served by the bot itself (no CDN) and a Content-Security-Policy forbids
inline script. A page works without JavaScript (each step is a plain link, ``?step=N``); with it,
the arrow keys step through the replay and a running game's page follows each move, fed by the
platform's board subscriptions (``bot.platform.boards``) through Server-Sent Events, never by each
client polling the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import re
import sys
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aiohttp import web
from aiohttp.http_exceptions import BadHttpMessage
from markupsafe import Markup
from prometheus_client import CONTENT_TYPE_LATEST

from bot.platform import seasons
from bot.platform.compose import Platform
from bot.platform.contract import Emblem, HtmlBoard, WebPages, optional
from bot.platform.metrics import LAG, LIVE_GAMES, WEB_REQUESTS, exposition
from bot.platform.ratings import shown, shown_score
from bot.web.api import add_api
from bot.web.charts import rating_chart
from bot.web.gui import add_gui
from bot.web.pages import game_page, listed, paged
from bot.web.render import (
    HERE,
    LINKS,
    PLATFORM,
    html_page,
    identifier,
    not_found,
    number,
    render,
    set_aside,
    trouble,
)
from bot.web.tournaments import add_tournament_pages
from storage.games import GameViews
from storage.ratings import Ranked

log = logging.getLogger(__name__)

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
PAGE = 20
MAX_PAGE = 10_000
"""Pages go no deeper than this: every request does a bounded amount of work."""
MAX_STEP = 100_000
"""No game has more steps (a step past a game's end shows its end, and is drawn once)."""
PLAYER_ID = re.compile(r"[^\x00-\x1f]{1,100}")
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'"
)


SECURITY_HEADERS = {"Content-Security-Policy": f"{CSP}; frame-ancestors 'self'", "X-Content-Type-Options": "nosniff"}
"""On every answer (an embed sets its own frame-ancestors first)."""


@web.middleware
async def guarded(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every answer carries the Content-Security-Policy; an unknown address is a page, not a traceback."""
    try:
        response = await handler(request)
    except web.HTTPNotFound:
        response = not_found("such page")
    except web.HTTPException as answered:  # aiohttp's own answers (405, 413, a redirect): with the headers below
        response = web.Response(status=answered.status, text=answered.text, headers=answered.headers)
    except Exception:
        log.exception("the page %s failed", request.path)
        response = trouble()
    route = request.match_info.route.resource
    WEB_REQUESTS.labels(route.canonical if route is not None else "unknown", response.status).inc()
    for header, value in SECURITY_HEADERS.items():
        response.headers.setdefault(header, value)
    return response


async def index(request: web.Request) -> web.Response:
    p = request.app[PLATFORM]
    views = await p.settled_views()
    page = await paged(request.query, functools.partial(views.history, None), PAGE, MAX_PAGE)
    if page is None:
        return not_found("such page")
    now = listed(p, await views.playing_now(PLAYING_SHOWN), None) if page.first else []
    playing = [(g, f"/games/{g.game_id}") for g in now]
    boards = [(name, game.title) for name, game in p.games.items()]
    games, links = listed(p, page.rows, None), request.app[LINKS]
    return render("index.html", playing=playing, games=games, boards=boards, links=links, page=page)


PLAYING_SHOWN = 6
"""How many games being played the front page shows as tiles (the newest started)."""


def page_of(request: web.Request) -> int | None:
    """The ``?page=N`` asked for (1 when none), ``None`` for one that is not a page."""
    return number(request.query.get("page", "1"), 1, MAX_PAGE)


async def player(request: web.Request) -> web.Response:
    """``/players/<id>``: a player's record, rating and its chart in each game they played, and their
    games, newest first."""
    p, player_id = request.app[PLATFORM], request.match_info["player_id"]
    if not PLAYER_ID.fullmatch(player_id):
        return not_found("such player")
    views = await p.settled_views()
    page = await paged(request.query, functools.partial(views.history, player_id), PAGE, MAX_PAGE)
    if page is None:
        return not_found("such page")
    rows = page.rows
    if not rows and page.first:
        return not_found(f"player {player_id}")
    name = next((s.name for s in rows[0].seats if s.player_id == player_id), player_id) if rows else player_id
    records = [record for game in p.games.values() if (record := await played(views, game, player_id))]
    return render(
        "player.html",
        name=name,
        player_id=player_id,
        games=listed(p, rows, player_id),
        records=records if page.first else [],
        page=page,
    )


async def played(views: GameViews, game: Any, player_id: str) -> dict[str, Any] | None:
    """A player's record in ``game`` as their page draws it (``None`` if they finished none): the
    numbers, the rating's chart over their last rated games, and the game's own words for the rest."""
    stats = await views.stats(player_id, game.name, by="", best="")
    if not stats.total.games:
        return None
    rating, chart = stats.rating, Markup("")
    if rating is not None:
        steps = await views.ratings.steps(game.name, player_id, most=CHARTED)
        scores = [shown_score(score) for _, score in steps]
        chart = rating_chart(scores, rating.games - len(scores) + 1, f"{game.title} rating")
    told = io.StringIO()
    await game.console.stats(views, player_id, told)
    return {
        "title": game.title,
        "name": game.name,
        "total": stats.total,
        "current": stats.current_streak,
        "longest": stats.longest_streak,
        "rating": None if rating is None else shown(rating),
        "rated": 0 if rating is None else rating.games,
        "chart": chart,
        "bots": sorted(stats.vs_bots.items()),
        "words": told.getvalue().split("\n", 1)[-1].rstrip(),
    }


CHARTED = 60
"""How many of a player's last rated games their rating chart draws."""


async def leaderboard(request: web.Request) -> web.Response:
    """``/leaderboards/<game>`` (``?server=<guild id>``, ``?page=N``): the players by rating."""
    p, name, page = request.app[PLATFORM], request.match_info["game"], page_of(request)
    server = request.query.get("server") or None
    if name not in p.games or page is None or (server is not None and identifier(server) is None):
        return not_found("such leaderboard")
    season = request.query.get("season")
    if season is not None:
        return await season_board(request, name, server, season, page)
    views = await p.settled_views()
    standings = await views.ratings.standings(name, "", server, limit=PAGE, offset=(page - 1) * PAGE)
    where = f"server {server}" if server else "everyone"
    return render(
        "leaderboard.html",
        title=p.games[name].title,
        game=name,
        where=where,
        server=server or "",
        season="",
        rows=board_rows(standings.page),
        total=standings.total,
        page=page,
        more=page * PAGE < standings.total,
    )


async def season_board(request: web.Request, name: str, server: str | None, season: str, page: int) -> web.Response:
    """``/leaderboards/<game>?server=<id>&season=N`` (0: the season now): a server's season, rated afresh."""
    p = request.app[PLATFORM]
    asked = number(season, 0, 10_000)
    found = await p.seasons.of_server(server) if server is not None and asked is not None else []
    wanted = seasons.numbered(found, asked) if found and asked is not None else None
    if server is None or wanted is None:
        return not_found("such season")
    ranked = await p.seasons.standings(server, name, wanted)
    shown = ranked[(page - 1) * PAGE : page * PAGE]
    return render(
        "leaderboard.html",
        title=p.games[name].title,
        game=name,
        where=f"server {server}, {wanted.title}",
        server=server,
        season=str(wanted.number),
        rows=board_rows(shown),
        total=len(ranked),
        page=page,
        more=page * PAGE < len(ranked),
    )


def board_rows(ranked: Sequence[Ranked]) -> list[tuple[int, str, str, int, int]]:
    """A leaderboard's rows: place, name, the player's page, rating shown, rated games."""
    return [
        (r.rank, r.rating.name, f"/players/{quote(r.rating.player_id, safe='')}", shown(r.rating), r.rating.games)
        for r in ranked
    ]


def game_id_of(request: web.Request) -> str | None:
    game_id = request.match_info["game_id"]
    return game_id if GAME_ID.fullmatch(game_id) else None


async def game(request: web.Request) -> web.Response:
    game_id = game_id_of(request)
    step = request.query.get("step", "")
    if game_id is None or (step and number(step, 0, MAX_STEP) is None):
        return not_found("such game")
    p = request.app[PLATFORM]
    version = await p.store.version(game_id)
    if not version:
        return not_found(f"game {game_id}")
    at = min(int(step), version) if step else None  # a game has no more steps than events: past its end is its end

    async def make() -> str | Aside:
        if (reason := await p.views.damage(game_id)) is not None:  # asked once a version, not every request
            return Aside(reason)
        page = await game_page(p, game_id, at)
        assert page is not None
        return html_page("game.html", page=page, live=not page.over and not step, origin=home)

    home = origin(request)
    made: str | Aside = await request.app[MADE].get(("page", game_id, version, at, home), make)
    if isinstance(made, Aside):
        return set_aside(game_id, made.reason)
    return web.Response(text=made, content_type="text/html")


@dataclass(frozen=True)
class Aside:
    """What a set-aside game's page or picture is made as: why it is set aside."""

    reason: str


async def embed(request: web.Request) -> web.Response:
    """``/games/<id>/embed``: the game as it stands, minimal, for an iframe on another site."""
    game_id = game_id_of(request)
    if game_id is not None and (reason := await request.app[PLATFORM].views.damage(game_id)) is not None:
        return set_aside(game_id, reason)
    page = None if game_id is None else await game_page(request.app[PLATFORM], game_id, None)
    if page is None:
        return not_found("such game")
    answer = render("embed.html", page=page, origin=origin(request))
    answer.headers["Content-Security-Policy"] = f"{CSP}; frame-ancestors *"
    return answer


def origin(request: web.Request) -> str:
    """The address links are made with: ``HOG_PUBLIC_URL``, or the address this server answered on
    (its socket's, never the request's ``Host`` header, which a client writes as it likes)."""
    public = request.app[PLATFORM].settings.public_url
    if public:
        return public
    where = request.transport.get_extra_info("sockname") if request.transport is not None else None
    if not where:
        return "http://127.0.0.1"
    host, port = where[0], where[1]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


class Made:
    """What a version of a game shows (a page, a picture) never changes: made once, by game, version
    and what was asked, and kept, the ``most`` used last (LRU). Requests for the same thing at once
    share one making (single flight): six cold requests for a long game's animation draw it once."""

    def __init__(self, most: int = 1024) -> None:
        self._made: OrderedDict[tuple[object, ...], asyncio.Task[Any]] = OrderedDict()
        self._most = most

    async def get(self, key: tuple[object, ...], make: Callable[[], Awaitable[Any]]) -> Any:
        making = self._made.get(key)
        failed = making is not None and making.done() and (making.cancelled() or making.exception() is not None)
        if making is None or failed:  # a failure is tried again
            making = self._made[key] = asyncio.ensure_future(make())
            while len(self._made) > self._most:
                self._made.popitem(last=False)
        self._made.move_to_end(key)
        return await asyncio.shield(making)  # a watcher who leaves does not cancel it for the others


async def drawn(app: web.Application, game_id: str, kind: str, step: int | None) -> bytes | Aside | None:
    """The game's picture (``png``, at ``step``) or animation (``gif``), made once per version
    (``Aside`` for a game set aside)."""
    p = app[PLATFORM]
    version = await p.store.version(game_id)
    if not version:
        return None
    step = None if step is None else min(step, version)  # past the game's end is its end, drawn once

    async def draw() -> bytes | Aside | None:
        if (reason := await p.views.damage(game_id)) is not None:
            return Aside(reason)
        game = await p.games.of_stored(p.store, game_id)
        if game is None:
            return None
        events = await p.service(game).events(game_id)
        return await (game.picture(events, step) if kind == "png" else game.animation(events))

    result: bytes | Aside | None = await app[MADE].get((kind, game_id, version, step), draw)
    return result


MADE = web.AppKey("made", Made)


async def picture(request: web.Request) -> web.Response:
    """``/games/<id>.png`` (``?step=N``) and ``/games/<id>.gif``: the game drawn, or 404 when it draws nothing."""
    game_id, kind = request.match_info["game_id"], request.match_info["kind"]
    step = request.query.get("step", "")
    if kind == "gif" and step:
        return not_found("such picture")  # the animation is the whole game: no step to ask for
    if step and number(step, 0, MAX_STEP) is None:
        return not_found("such picture")
    picture = await drawn(request.app, game_id, kind, int(step) if step else None)  # ``drawn`` bounds the step
    if isinstance(picture, Aside):
        return set_aside(game_id, picture.reason)
    if picture is None:
        return not_found("such picture")
    return web.Response(body=picture, content_type=f"image/{kind}", headers={"Cache-Control": "max-age=60"})


@dataclass
class Streams:
    """The live streams open, by client, within a budget: ``per_client`` for one address (a page or
    a few tabs need one each), ``in_all`` for the process (from its file descriptors: ``budget``).
    Past either, a stream is refused with ``Retry-After``, and the server stays free for others."""

    per_client: int = 8
    in_all: int = 512
    open: dict[str, int] = field(default_factory=dict)
    total: int = 0
    """Every stream open: the sum of ``open``, kept as they open and close."""

    def refusal(self, client: str) -> web.Response | None:
        if self.total >= self.in_all:
            return web.Response(status=503, text="Too many live pages here now: try again soon.", headers=LATER)
        if self.open.get(client, 0) >= self.per_client:
            return web.Response(status=429, text="Too many live pages from you at once.", headers=LATER)
        return None

    @contextlib.contextmanager
    def held(self, client: str) -> Iterator[None]:
        self.open[client] = self.open.get(client, 0) + 1
        self.total += 1
        try:
            yield
        finally:
            self.total -= 1
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]


LATER = {"Retry-After": "30"}
PROXIES = frozenset({"127.0.0.1", "::1"})
"""Addresses trusted to say whom they forward for (``X-Forwarded-For``), as a proxy on this machine
does (gunicorn's default too): a client that reaches the server directly is its own address."""


def client_of(request: web.Request) -> str:
    """Who asks: the connecting address, or, from a proxy in ``PROXIES``, the address it forwards for."""
    remote = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For", "") if remote in PROXIES else ""
    return forwarded.rsplit(",", 1)[-1].strip()[:64] or remote


async def events(request: web.Request) -> web.StreamResponse:
    """Server-Sent Events: the game's version each time it changes (the page then shows it), until
    the game is over (the stream then ends: nothing more will come)."""
    game_id = game_id_of(request)
    p = request.app[PLATFORM]
    if game_id is None or not await p.store.version(game_id):
        return not_found("such game")
    client, streams = client_of(request), request.app[LIVE]
    if (refused := streams.refusal(client)) is not None:
        return refused
    with streams.held(client):
        stream = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await stream.prepare(request)
        streaming = asyncio.current_task()
        assert streaming is not None
        request.app[STREAMS].add(streaming)  # ended when the server shuts down (``end_streams``)

        async def owner() -> str:  # which game wrote it: read once for all its watchers, it never changes
            game = await p.games.of_stored(p.store, game_id)
            assert game is not None  # its version was read above, and a log is never shortened
            return game.name

        service = p.service(await request.app[MADE].get(("owner", game_id), owner))

        async def over() -> bool:
            return bool((await service.current(game_id)).state.is_over)

        async with p.boards.subscribe(game_id) as heard:
            version = await p.store.version(game_id)
            await stream.write(f"event: version\ndata: {version}\n\n".encode())
            while not await request.app[MADE].get(("over", game_id, version), over):  # once a version for all
                try:
                    async with asyncio.timeout(15):  # not wait_for: it may swallow a cancellation (3.11)
                        change = await heard.get()
                except TimeoutError:
                    await stream.write(b": still here\n\n")  # keeps proxies from closing a quiet stream
                    continue
                version = change.version
                await stream.write(f"event: version\ndata: {version}\n\n".encode())
        await stream.write_eof()
        return stream


async def lag(p: Platform) -> int:
    """Events the read models have not folded yet (counted up to a thousand: bounded work)."""
    return len(await p.store.read_all(await p.views.checkpoint(), 1000))


async def health(request: web.Request) -> web.Response:
    """200 when the store answers and the pages can be read, with this process's role, the read
    models' lag and how many games are set aside; 503 (saying which part fails) when not."""
    p = request.app[PLATFORM]
    try:
        behind = await lag(p)
    except Exception as error:
        return web.json_response({"store": f"unreachable: {type(error).__name__}", "role": p.role}, status=503)
    try:
        await p.views.history(limit=1)  # what the front page reads
        quarantined = len(await p.views.damaged())
    except Exception as error:
        failing = {"store": "ok", "read_models": f"failing: {type(error).__name__}", "role": p.role}
        return web.json_response(failing, status=503)
    return web.json_response(
        {"store": "ok", "read_models": "ok", "role": p.role, "read_models_behind": behind, "quarantined": quarantined}
    )


async def metrics(request: web.Request) -> web.Response:
    """The process's metrics in Prometheus's text format; the live games and the lag read now."""
    p = request.app[PLATFORM]
    with contextlib.suppress(Exception):  # a scrape while the database is away shows the counters still
        LIVE_GAMES.set(len(await p.views.live_games()))
        LAG.set(await lag(p))
    return web.Response(body=exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})


STREAMS = web.AppKey("streams", weakref.WeakSet[asyncio.Task[Any]])
LIVE = web.AppKey("live", Streams)
"""The pages games bring, as ``(title, path)``, for the front page."""


RESERVED_FILES = 128
"""Files kept for everything but live streams: the database, the log, Discord, pages being served."""


def budget() -> Streams:
    """The live streams this process can hold: raise its soft limit of open files to the hard one
    (a common limit is 1,024 soft), then leave ``RESERVED_FILES`` for the rest; each stream is a socket."""
    if sys.platform == "win32":  # no such limit to read there
        return Streams()
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = 65_536 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    in_all = max(16, min(10_000, soft - RESERVED_FILES))
    log.info("%d open files allowed: up to %d live streams, %d from one address", soft, in_all, Streams.per_client)
    return Streams(in_all=in_all)


async def end_streams(app: web.Application) -> None:
    """Live streams never end by themselves: a server shutting down ends them, rather than waiting."""
    streams = app[STREAMS]
    for streaming in list(streams):
        streaming.cancel()


def game_file(
    part: Any, path_of: Callable[[Any], Path], kind: str, content_type: str
) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """A handler serving a file a game brings from its package (its ``part``: ``path_of`` it), or 404."""

    async def serve(request: web.Request) -> web.StreamResponse:
        module = request.app[PLATFORM].games.get(request.match_info["game"])
        brought = None if module is None else optional(module, part)
        if brought is None:
            return not_found(f"such {kind}")
        return web.FileResponse(path_of(brought), headers={"Content-Type": content_type})

    return serve


board_style = game_file(HtmlBoard, lambda b: b.board_style, "stylesheet", "text/css")
"""A game's board stylesheet (``contract.HtmlBoard.board_style``)."""
emblem = game_file(Emblem, lambda e: e.emblem, "emblem", "image/svg+xml")
"""A game's drawing for its tile in the lobby (``contract.Emblem``)."""


async def favicon(request: web.Request) -> web.StreamResponse:
    """The browser's tab icon, asked for by every browser at this address: a die."""
    return web.FileResponse(HERE / "static" / "favicon.svg", headers={"Content-Type": "image/svg+xml"})


def refused_in_a_line(record: logging.LogRecord) -> bool:
    """aiohttp logs a request it cannot parse (a 10 KB address, a header too long, bytes that are not
    HTTP) as an error with a traceback, once a request: the server answered 400 and nothing failed, so
    it is said in one line, as a warning, naming the client's mistake."""
    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, BadHttpMessage):
        record.msg, record.args = (
            "refused a request it cannot read (%s): answered %s",
            (type(error).__name__, error.code),
        )
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
    return True


def make_app(platform: Platform, gui_port: int | None = None, streams: Streams | None = None) -> web.Application:
    """Every game's pages; with ``gui_port``, the GUI too (``bot.web.gui``), on 127.0.0.1 at that port;
    ``streams``: the live streams' budget (by default ``budget()``, from this process's files)."""
    server_log = logging.getLogger("aiohttp.server")
    if refused_in_a_line not in server_log.filters:
        server_log.addFilter(refused_in_a_line)
    app = web.Application(middlewares=[guarded])
    app[PLATFORM], app[MADE] = platform, Made()
    app[STREAMS], app[LIVE] = weakref.WeakSet(), streams or budget()
    app.on_shutdown.append(end_streams)
    app.router.add_get("/", index)
    app.router.add_get(r"/games/{game_id:[A-Za-z0-9_-]{1,64}}.{kind:png|gif}", picture)
    app.router.add_get("/games/{game_id}", game)
    app.router.add_get("/games/{game_id}/events", events)
    app.router.add_get("/games/{game_id}/embed", embed)
    app.router.add_get("/players/{player_id:.+}", player)
    app.router.add_get("/leaderboards/{game}", leaderboard)
    app.router.add_get("/healthz", health)
    app.router.add_get("/metrics", metrics)
    app.router.add_static("/static", HERE / "static")
    app.router.add_get("/boards/{game}.css", board_style)
    app.router.add_get("/emblems/{game}.svg", emblem)
    app.router.add_get("/favicon.ico", favicon)
    add_tournament_pages(app)
    add_api(app, platform, app[LIVE], client_of)
    app[LINKS] = [("Tournaments", "/tournaments")]
    for module in platform.games.values():  # a game's own pages (Hog's contest), when it brings some
        if (pages := optional(module, WebPages)) is not None:
            app[LINKS].extend(pages.web_pages(app))
    if gui_port is not None:
        add_gui(app, gui_port)
    return app
