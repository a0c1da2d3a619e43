"""A tournament in words, for every front: its title, where it stands, each round's games with their
results, and the standings with their tie-breaks. ``name`` escapes a player's name for the front
(Discord markdown, say); ``mention`` writes a player so the front pings them."""

from __future__ import annotations

from collections.abc import Callable

from bot.platform.tournaments.formats import planned
from bot.platform.tournaments.state import KNOCKOUT, ROUND_ROBIN, SWISS, Round, Standing, Tournament

FORMAT_NAMES = {SWISS: "Swiss", ROUND_ROBIN: "round robin", KNOCKOUT: "knockout"}
TIE_BREAKS = {
    SWISS: "Ties broken by Buchholz (opponents' points), then Sonneborn-Berger, then rating",
    ROUND_ROBIN: "Ties broken by Sonneborn-Berger, then wins, then rating",
    KNOCKOUT: "Ranked by the round reached, then points, then seed",
}
RESULT_MARKS = {"win": "✅", "draw": "🤝", "loss": "❌", "void": "⛔"}
Name = Callable[[str], str]


def plain(text: str) -> str:
    return text


def points(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


def title(t: Tournament, game_title: str) -> str:
    assert t.created is not None
    return f"{game_title} tournament {t.tournament_id} · {FORMAT_NAMES[t.created.format]}"


def rounds_text(t: Tournament) -> str:
    rounds = planned(t)
    return f"{rounds} round{'s' * (rounds != 1)}" if rounds else "rounds until one is left"


def status(t: Tournament, name: Name = plain) -> str:
    """Where it stands, in a line."""
    assert t.created is not None
    if t.damaged is not None:
        return f"Set aside: its record cannot be read past this point ({t.damaged})."
    players = f"{len(t.players)} player{'s' * (len(t.players) != 1)}"
    if t.finished == "cancelled":
        return "Cancelled by its organiser."
    if t.finished == "too few":
        return f"Cancelled: only {players} when sign-up ended."
    if t.finished is not None:
        winners = champions(t)
        return f"🏆 Finished. Winner: {', '.join(name(t.players[p]) for p in winners)}."
    if not t.started:
        return f"Sign-up open · {players} · {rounds_text(t)}"
    total = planned(t)
    return f"Round {len(t.rounds)}{f' of {total}' if total else ''} · {players}"


def champions(t: Tournament) -> list[str]:
    """The winner (the top of the standings; several when they are level on every tie-break)."""
    table = t.standings()
    if not table:
        return []
    top = table[0]
    level = [s for s in table if _key(s) == _key(top)]
    return [s.player for s in level]


def _key(s: Standing) -> tuple[float, ...]:
    return (s.points, s.buchholz, s.sonneborn, float(s.reached), float(s.rating))


def signed_up(t: Tournament, name: Name = plain) -> list[str]:
    return [f"{i}. {name(n)}" for i, n in enumerate(t.players.values(), start=1)]


def round_lines(t: Tournament, r: Round, name: Name = plain) -> list[str]:
    """Each game of a round (``vs`` between its players; a result mark each once it is scored), then the byes."""
    lines = []
    for i, (table, game_id) in enumerate(zip(r.tables, r.games, strict=True), start=1):
        results = r.results.get(game_id)
        seats = [
            f"{RESULT_MARKS[results[k]] + ' ' if results else ''}{name(t.players[p])}" for k, p in enumerate(table)
        ]
        state = "" if results else " · playing"
        lines.append(f"{i}. {' vs '.join(seats)} (`{game_id}`){state}")
    lines += [f"bye: {name(t.players[p])} (1 point)" for p in r.byes]
    return lines


def standing_lines(t: Tournament, name: Name = plain, most: int = 16) -> list[str]:
    """The standings, best first, with each tie-break that ranks them."""
    assert t.created is not None
    fmt = t.created.format
    lines = []
    for place, s in enumerate(t.standings()[:most], start=1):
        extra = {
            SWISS: f"Bh {points(s.buchholz)} · SB {points(s.sonneborn)}",
            ROUND_ROBIN: f"SB {points(s.sonneborn)} · {s.wins} won",
            KNOCKOUT: f"round {s.reached}",
        }[fmt]
        out = " · left" if s.out else ""
        lines.append(f"{place}. {name(s.name)} · {points(s.points)} pt{'s' * (s.points != 1)} ({extra}){out}")
    return lines
