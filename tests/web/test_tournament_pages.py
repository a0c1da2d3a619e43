"""Tournaments on the web, over HTTP on a real server and the real platform: the list, a tournament's
page (its standings, every round's games linked, names escaped), its standings' picture, and a
tournament that is not there."""

from __future__ import annotations

import io
from functools import partial

from PIL import Image

from bot.platform.compose import Platform
from bot.platform.tournaments import rules
from bot.platform.tournaments.book import stream_id
from bot.platform.tournaments.events import Created, Event
from bot.platform.tournaments.state import Tournament
from hog_core.game import Forfeit
from tests.web.site import Site

EVIL = "<script>alert(1)</script>"


def joined(player: str, name: str, t: Tournament) -> list[Event]:
    return rules.join(t, player, name)


def forfeited(player: str, state: object, chance: object) -> list[Forfeit]:
    return [Forfeit(player)]


async def tournament(p: Platform, tid: str = "0000abcd", start: bool = True) -> str:
    created = Created(tid, "hog", "swiss", 2, {"goal": "20"}, "1", "Ada", "c1", "77", 0.0, 0.0, 2, 2)
    stream = stream_id("77", tid)
    await p.tournaments.act(stream, lambda t: rules.create(t, created))
    for player, name in (("2", EVIL), ("3", "Bob"), ("4", "Cy")):
        await p.tournaments.act(stream, partial(joined, player, name))
    if start:
        t = await p.tournaments.start(stream, "1", False)
        assert t.current is not None
        for table, game_id in zip(t.current.tables, t.current.games, strict=True):
            await p.service("hog").execute(game_id, partial(forfeited, table[1]), f"end:{game_id}")
        await p.tournaments.settled()
    return stream


async def test_a_tournament_is_a_page_with_its_standings_rounds_and_picture(site: Site) -> None:
    p, client = site
    stream = await tournament(p)
    t = await p.tournaments.book.load(stream)
    listed = await client.get("/tournaments?server=77")
    assert listed.status == 200
    assert 'href="/tournaments/0000abcd"' in await listed.text()
    answer = await client.get("/tournaments/0000abcd")
    assert answer.status == 200
    html = await answer.text()
    assert "Hog tournament 0000abcd · Swiss" in html and "Round 2 of 2 · 4 players" in html
    assert EVIL not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html, "a name is escaped"
    assert all(f'href="/games/{g}"' in html for r in t.rounds for g in r.games), "every game is linked"
    assert html.index("<h2>Round 2</h2>") < html.index("<h2>Round 1</h2>"), "the latest round first"
    picture = await client.get("/tournaments/0000abcd.png")
    assert picture.status == 200 and picture.content_type == "image/png"
    width, height = Image.open(io.BytesIO(await picture.read())).size
    assert width == 960 and 200 < height < 540, "as tall as its rows"
    home = await (await client.get("/")).text()
    assert 'href="/tournaments"' in home


async def test_tournaments_not_there_or_not_started(site: Site) -> None:
    p, client = site
    await tournament(p, "0000beef", start=False)
    signing_up = await (await client.get("/tournaments/0000beef")).text()
    assert "Sign-up open · 4 players" in signing_up and "Signed up (4)" in signing_up
    assert (await client.get("/tournaments/0000beef.png")).status == 404, "no standings before the start"
    for missing in ("/tournaments/ffffffff", "/tournaments/nope", "/tournaments?server=x<y"):
        assert (await client.get(missing)).status == 404, missing
