"""A player's Hog record, streaks, rating and biggest turn, as headed lines for any front end."""

from __future__ import annotations

from bot.games.hog.board import rules_name
from bot.platform.ratings import rating_line
from storage.games import PlayerStats, Record


def record_text(r: Record) -> str:
    draws = f", {r.draws} drawn" if r.draws else ""
    return f"{r.games} played, {r.wins} won, {r.losses} lost{draws} ({r.win_rate:.0%})"


def sections(stats: PlayerStats, invite: str) -> list[tuple[str, list[str]]]:
    """The facts, as headed lists of lines, the same for every front end; ``invite`` says how to
    play a first game on that front end."""
    if not stats.total.games and stats.best is None:
        return [("No games yet", [invite])]
    overall = [record_text(stats.total)]
    if stats.total.games:
        overall.append(f"Longest winning streak: {stats.longest_streak} (now: {stats.current_streak})")
        overall.append(rating_line(stats.rating))
    if stats.best is not None:
        points = stats.best.value
        overall.append(f"Biggest single turn: {points} point{'s' * (points != 1)}, in game {stats.best.game_id}")
    shown = [("Overall", overall)]
    if stats.by_field:
        shown.append(("By rule set", [f"{rules_name(r)}: {record_text(rec)}" for r, rec in stats.by_field.items()]))
    if stats.vs_bots:
        shown.append(("Against the house", [f"{level}: {record_text(rec)}" for level, rec in stats.vs_bots.items()]))
    return shown
