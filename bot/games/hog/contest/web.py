"""The contest's web pages: ``/contests/<rules>`` (``?server=<id>``, ``?page=N``) ranks every entry,
``/contests/<rules>/entries/<team>`` shows one entry's record, each with its picture."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from aiohttp import web

from bot.games.hog.contest.arena import Contests, Results
from bot.games.hog.contest.entries import EVERYONE, Contest, Entries
from bot.games.hog.contest.pictures import costs_picture, matrix_picture, table_picture
from bot.games.hog.contest.words import compared_line, explored_lines, outcome, placed, summary
from bot.games.hog.solutions import SolutionCache
from bot.platform.painter import drawn
from bot.web.api import CORS
from bot.web.render import PLATFORM, identifier, not_found, number, render, templates
from hog_core.kernel import CONTESTABLE
from hog_core.puzzles import move_words

PAGE = 50
RETRY = 5
"""Seconds a reader of standings still being worked out is asked to wait before asking again."""
CONTESTS = web.AppKey("hog-contests", Contests)
TEMPLATES = templates(Path(__file__).parent / "templates")


def _png(data: bytes) -> web.Response:
    return web.Response(body=data, content_type="image/png", headers={"Cache-Control": "no-cache"})


def add_contest_pages(app: web.Application, solutions: SolutionCache) -> None:
    """The contest's routes on the web front's ``app`` (whose platform is set)."""
    app[CONTESTS] = Contests(Entries(app[PLATFORM].store), solutions)

    async def stop(app: web.Application) -> None:
        await app[CONTESTS].stop()

    app.on_cleanup.append(stop)

    def contest_of(request: web.Request) -> Contest | None:
        rules, server = request.match_info["rules"], request.query.get("server") or EVERYONE
        if rules not in CONTESTABLE or (server != EVERYONE and identifier(server) is None):
            return None
        return Contest(rules, server)

    async def results(request: web.Request) -> Results | None:
        contest = contest_of(request)
        return None if contest is None else await app[CONTESTS].results(contest)

    def base(request: web.Request) -> tuple[str, str]:
        server = request.query.get("server")
        return f"/contests/{request.match_info['rules']}", f"?server={server}" if server else ""

    async def standings(request: web.Request) -> web.Response:
        contest = contest_of(request)
        page = number(request.query.get("page", "1"), 1, 10_000)
        if contest is None or page is None:
            return not_found("such contest")
        found = await app[CONTESTS].soon(contest)
        if found is None:
            working = render("contest_working.html", 202, TEMPLATES, title=contest.title, retry=RETRY)
            working.headers["Retry-After"] = str(RETRY)
            return working
        n, (path, query) = page, base(request)
        link: Callable[[str], str] = lambda name: f"{path}/entries/{quote(name, safe='')}{query}"  # noqa: E731
        return render(
            "contest.html",
            environment=TEMPLATES,
            title=found.contest.title,
            summary=summary(found),
            standings=found.standings[(n - 1) * PAGE : n * PAGE],
            link=link,
            page=n,
            more=n * PAGE < len(found.standings),
            server_query=query.replace("?", "&"),  # escaped once, by the template
            matrix=f"{path}/matrix.png{query}",
        )

    async def entry(request: web.Request) -> web.Response:
        found = await results(request)
        name = found.find(request.match_info["team"]) if found else None
        if found is None or name is None:
            return not_found("such entry")
        asked = request.query.get("vs")
        other = found.find(asked) if asked else None
        if asked and (other is None or other == name):
            return not_found("such entry to compare with")
        explored, beside = await app[CONTESTS].explored(found, name, other)
        standing = found.standing(name)
        path, query = base(request)
        vs = f"{'&' if query else '?'}vs={quote(other, safe='')}" if other else ""
        return render(
            "contest_entry.html",
            environment=TEMPLATES,
            title=found.contest.title,
            name=name,
            standing=standing,
            placed=placed(standing) if standing else "",
            back=f"{path}{query}",
            picture=f"{path}/entries/{quote(name, safe='')}.png{query}",
            record=[(rival, value, outcome(value)) for rival, value in found.record(name).items()],
            explored=explored_lines(explored),
            worst=[(f"{c.score}–{c.opponent}", move_words(c.move), move_words(c.best), f"−{c.cost * 100:.1f}")
                   for c in explored.worst],
            compared=compared_line(beside) if beside else "",
            other=other or "",
            others=[n for n in found.names if n != name],
            costs=f"{path}/entries/{quote(name, safe='')}/costs.png{query}{vs}",
            server=request.query.get("server", ""),
        )  # fmt: skip

    async def costs_picture_of(request: web.Request) -> web.Response:
        found = await results(request)
        name = found.find(request.match_info["team"]) if found else None
        asked = request.query.get("vs")
        other = found.find(asked) if found and asked else None
        if found is None or name is None or (asked and other is None):
            return not_found("such entry")
        explored, beside = await app[CONTESTS].explored(found, name, other)
        shown = [explored] if beside is None else [explored, beside.second]
        return _png(await drawn(costs_picture, shown, found.contest.title))

    async def entry_picture(request: web.Request) -> web.Response:
        found = await results(request)
        name = found.find(request.match_info["team"]) if found else None
        if found is None or name is None:
            return not_found("such entry")
        return _png(await drawn(table_picture, found, name))

    async def matrix(request: web.Request) -> web.Response:
        found = await results(request)
        if found is None:
            return not_found("such contest")
        return _png(await drawn(matrix_picture, found))

    async def api_standings(request: web.Request) -> web.Response:
        """``/api/contests/<rules>`` (``?server=``): the standings as JSON (``ContestStandings`` in
        ``/api/openapi.json``)."""
        contest = contest_of(request)
        if contest is None:
            return web.json_response({"error": "There is no contest of that rule set here."}, status=404, headers=CORS)
        found = await app[CONTESTS].soon(contest)
        if found is None:
            working = {"working": f"The standings are being worked out: ask again in {RETRY} seconds."}
            return web.json_response(working, status=202, headers={**CORS, "Retry-After": str(RETRY)})
        server = request.query.get("server") or None
        rows = [
            {"place": s.place, "name": s.name, "wins": s.wins, "losses": s.losses, "reference": s.reference}
            | {"vs_perfect": s.vs_perfect, "exploitability": s.exploitability}
            for s in found.standings
        ]
        answer = {
            "rules": request.match_info["rules"],
            "title": found.contest.title,
            "server": server,
            "standings": rows,
        }
        return web.json_response(answer, headers=CORS)

    app.router.add_get("/api/contests/{rules}", api_standings)
    app.router.add_get("/contests/{rules}", standings)
    app.router.add_get("/contests/{rules}/matrix.png", matrix)
    app.router.add_get(r"/contests/{rules}/entries/{team:[^/]+}.png", entry_picture)
    app.router.add_get(r"/contests/{rules}/entries/{team:[^/]+}/costs.png", costs_picture_of)
    app.router.add_get(r"/contests/{rules}/entries/{team:[^/]+}", entry)
