"""``python -m bot tournaments``: every tournament in the database, newest first, or one of them in
full (its rounds, games, results and standings), and its standings' picture."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.platform.contract import Refusal
from bot.platform.painter import drawn
from bot.platform.tournaments.book import PREFIX
from bot.platform.tournaments.picture import standings_picture
from bot.platform.tournaments.words import FORMAT_NAMES, round_lines, standing_lines, status, title

if TYPE_CHECKING:
    from bot.platform.compose import Platform


async def list_tournaments(p: Platform, out: TextIO, server: str | None = None) -> None:
    book = p.tournaments.book
    streams = await p.store.streams(f"{PREFIX}{server}:" if server else PREFIX)
    if not streams:
        print("No tournaments yet: open one in Discord with /hog tournament new.", file=out)
    for stream in reversed(streams):
        t = await book.load(stream)
        if t.created is None:
            continue
        game = p.games[t.created.game].title if t.created.game in p.games else t.created.game
        kind = f"{game} {FORMAT_NAMES[t.created.format]}"
        print(f"{t.tournament_id}  {kind:<22} server {t.created.server}  {status(t)}", file=out)


async def show_tournament(p: Platform, tournament_id: str, out: TextIO, picture: Path | None = None) -> None:
    stream = await p.tournaments.book.find(tournament_id.strip().lower())
    if stream is None:
        raise Refusal(f"There is no tournament {tournament_id[:20]!r} here: python -m bot tournaments lists them.")
    t = await p.tournaments.book.load(stream)
    assert t.created is not None
    name = title(t, p.games[t.created.game].title if t.created.game in p.games else t.created.game)
    print(name, file=out)
    print(status(t), file=out)
    for r in t.rounds:
        print(f"\nRound {r.number}", file=out)
        for line in round_lines(t, r):
            print(f"  {line}", file=out)
    if t.started:
        print("\nStandings", file=out)
        for line in standing_lines(t, most=len(t.players)):
            print(f"  {line}", file=out)
    else:
        print(f"\nSigned up: {', '.join(t.players.values())}", file=out)
    if picture is not None:
        if not t.started:
            raise Refusal("The tournament has not started: there are no standings to draw yet.")
        picture.write_bytes(await drawn(standings_picture, t, name))
        print(f"\nThe standings are drawn in {picture}", file=out)
