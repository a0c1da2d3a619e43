"""The final standings of a tournament as a picture: each player's place, points and tie-breaks, the
winner's row marked, on the canvas every game's pictures are drawn on."""

from __future__ import annotations

import io

from bot.platform.drawing import GRID, HEIGHT, MUTED, PANEL, TEXT, WIDTH, Canvas, drawable
from bot.platform.tournaments.state import KNOCKOUT, ROUND_ROBIN, SWISS, Tournament
from bot.platform.tournaments.words import FORMAT_NAMES, points

GOLD = (241, 196, 15)
ROWS = 16


def standings_picture(t: Tournament, title: str) -> bytes:
    """The PNG of the standings (the first ``ROWS`` of them)."""
    assert t.created is not None
    canvas = Canvas()
    canvas.text(32, 28, drawable(title, "Tournament"), 26, TEXT)
    played = f"{len(t.rounds)} round{'s' * (len(t.rounds) != 1)} · {len(t.players)} players"
    canvas.text(32, 62, f"{FORMAT_NAMES[t.created.format].capitalize()} · {played}", 16, MUTED)
    fmt = t.created.format
    heads = {
        SWISS: ["Points", "Buchholz", "SB", "Won"],
        ROUND_ROBIN: ["Points", "SB", "Won", "Rating"],
        KNOCKOUT: ["Round", "Points", "Won", "Rating"],
    }[fmt]
    columns = [520, 640, 760, 870]
    top, row = 104, (HEIGHT - 124) / (ROWS + 1)
    for x, head in zip(columns, heads, strict=True):
        canvas.text(x, top, head, 15, MUTED, anchor="ra")
    canvas.line([(32, top + row - 6), (WIDTH - 32, top + row - 6)], GRID)
    for place, s in enumerate(t.standings()[:ROWS], start=1):
        y = top + place * row
        if place == 1:
            canvas.rect((24, y - 4, WIDTH - 24, y + row - 6), PANEL, radius=6)
        colour = GOLD if place == 1 else TEXT
        canvas.text(40, y, f"{place}.", 17, colour)
        canvas.text(80, y, drawable(s.name, f"Player {place}")[:32] + (" (left)" if s.out else ""), 17, colour)
        values = {
            SWISS: [points(s.points), points(s.buchholz), points(s.sonneborn), str(s.wins)],
            ROUND_ROBIN: [points(s.points), points(s.sonneborn), str(s.wins), str(s.rating)],
            KNOCKOUT: [str(s.reached), points(s.points), str(s.wins), str(s.rating)],
        }[fmt]
        for x, value in zip(columns, values, strict=True):
            canvas.text(x, y, value, 17, colour, anchor="ra")
    out = io.BytesIO()
    rows = min(len(t.players), ROWS)
    bottom = min(HEIGHT, round(top + (rows + 1) * row + 24))  # as tall as its rows: no empty panel below
    canvas.finished().crop((0, 0, WIDTH, bottom)).save(out, "PNG", compress_level=1)
    return out.getvalue()
