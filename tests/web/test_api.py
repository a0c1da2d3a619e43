"""The read API over HTTP (aiohttp's test client, the real platform): every answer validates against
the OpenAPI 3.1 document the server itself serves; a running game's answer holds no card and no seed;
CORS is open for GET; a client holds a few streams at once, no more."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import jsonschema
import pytest
from aiohttp import web

from bot.platform import export
from bot.platform.metrics import WEB_REQUESTS
from bot.web.app import LIVE, make_app
from cucumber_core.cards import short
from tests.web.site import Site
from tests.web.test_gui import free_port
from tests.web.test_pages import finished_hog, running_cucumber


def checked(document: dict[str, Any], name: str, body: Any) -> Any:
    """``body``, validated against the document's schema ``name`` (OpenAPI 3.1 schemas are JSON
    Schema 2020-12; their ``$ref``s resolve within the document)."""
    jsonschema.Draft202012Validator({**document, "$ref": f"#/components/schemas/{name}"}).validate(body)
    return body


async def test_every_answer_validates_against_the_served_openapi_document(site: Site) -> None:
    p, client = site
    await finished_hog(p, "hfin")
    await finished_hog(p, "hsec")
    spec = await client.get("/api/openapi.json")
    document = await spec.json()
    assert (
        spec.status == 200
        and document["openapi"].startswith("3.1")
        and spec.headers["Access-Control-Allow-Origin"] == "*"
    )
    jsonschema.Draft202012Validator.check_schema({"$defs": document["components"]["schemas"]})
    assert set(document["paths"]) == {
        "/api/games/{game_id}",
        "/api/games",
        "/api/players/{player_id}",
        "/api/leaderboards/{game}",
        "/api/contests/{rules}",  # Hog's contest: tests/web/test_contest_pages.py
    }

    answer = await client.get("/api/games/hfin")
    game = checked(document, "Game", await answer.json())
    events = await p.store.load("hfin")
    assert answer.headers["Access-Control-Allow-Origin"] == "*" and len(game["events"]) == len(events) and game["seed"]
    assert [e["data"].encode() for e in game["events"]] == [e.data for e in events]

    streamed = await client.get("/api/games?game=hog&since=2000-01-01")
    lines = [json.loads(line) for line in (await streamed.text()).splitlines()]
    assert streamed.content_type == "application/x-ndjson" and [g["game_id"] for g in lines] == ["hfin", "hsec"]
    for line in lines:
        checked(document, "Game", line)
    assert (await (await client.get("/api/games?player=nobody")).text()) == ""

    ada = checked(document, "Player", await (await client.get("/api/players/1")).json())
    assert ada["name"] == "Ada" and ada["games"]["hog"]["record"]["games"] == 2
    board = checked(document, "Leaderboard", await (await client.get("/api/leaderboards/hog")).json())
    assert board["game"] == "hog" and board["total"] == len(board["players"])

    for address, status, route in [
        ("/api/games/nope", 404, "/api/games/{game_id}"),
        ("/api/players/nobody", 404, "/api/players/{player_id}"),
        ("/api/leaderboards/chess", 404, "/api/leaderboards/{game}"),
        ("/api/leaderboards/hog?offset=-1", 400, "/api/leaderboards/{game}"),
        ("/api/leaderboards/hog?offset=%C2%B2", 400, "/api/leaderboards/{game}"),
        ("/api/games?since=yesterday", 400, "/api/games"),
        ("/api/games?game=chess", 400, "/api/games"),
    ]:
        refused = await client.get(address)
        assert refused.status == status, address
        checked(document, "Error", await refused.json())
        assert str(status) in document["paths"][route]["get"]["responses"], address  # and documented


async def test_a_running_games_answer_names_no_card_and_no_seed(site: Site) -> None:
    p, client = site
    state = await running_cucumber(p)
    held = {short(card) for hand in state.hands for card in hand}
    for address in ("/api/games/crun", "/api/games?game=cucumber"):
        text = await (await client.get(address)).text()
        game = json.loads(text.splitlines()[0])
        assert game["game_id"] == "crun" and game["live"] and "events" not in game and "seed" not in game
        assert not [card for card in held if card in text]  # no card held is named (nor the log that deals them)
        seed = await p.kept.seed("crun")
        assert seed is not None and seed.hex() not in text


async def test_a_client_holds_a_few_streams_at_once(site: Site) -> None:
    _, client = site
    budget = client.app[LIVE] if client.app is not None else None
    assert budget is not None
    with budget.held("127.0.0.1"):  # as if this client held every stream it may
        budget.open["127.0.0.1"] = budget.per_client
        refused = await client.get("/api/games")
        assert (
            refused.status == 429
            and refused.headers["Retry-After"]
            and refused.headers["Access-Control-Allow-Origin"] == "*"
        )


async def test_a_client_that_stops_reading_a_stream_is_no_error(
    site: Site, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``curl .../api/games | head -1``: the reader leaves; the server ends the stream, logging nothing."""
    p, _ = site
    await finished_hog(p, "hfin")
    big = b'{"padding": "' + b"x" * 1_000_000 + b'"}\n'  # more than a socket holds: a write must meet the reset

    async def line_of(p: Any, row: Any) -> bytes:
        return big

    async def rows_asked(p: Any, asked: Any) -> AsyncIterator[Any]:
        row = await (await p.settled_views()).game("hfin")
        for _ in range(50):
            yield row

    monkeypatch.setattr(export, "line_of", line_of)
    monkeypatch.setattr(export, "rows_asked", rows_asked)
    answered = WEB_REQUESTS.labels("/api/games", 200)
    before = answered._value.get()
    runner = web.AppRunner(
        make_app(p)
    )  # as python -m bot web serves: a handler is not cancelled when its client leaves
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        with caplog.at_level(logging.ERROR):
            async with aiohttp.ClientSession() as http:
                streamed = await http.get(f"http://127.0.0.1:{port}/api/games")
                assert (await streamed.content.read(100)).startswith(b'{"padding"')
                streamed.close()  # the reader leaves
            async with asyncio.timeout(30):
                while answered._value.get() == before:  # the handler ended: counted
                    await asyncio.sleep(0.01)
    finally:
        await runner.cleanup()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
