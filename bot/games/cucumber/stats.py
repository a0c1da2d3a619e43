"""A player's Cucumber record as headed lines for any front end: games, losses, wins and safe
finishes, cucumbers, the average final score, the rating, the worst card they were stuck with, by table size."""

from __future__ import annotations

from bot.platform.ratings import rating_line
from cucumber_core.cards import value_name
from storage.games import GameViews, PlayerStats, Record

FACTS = ("cucumbers",)
"""The seat facts summed for the stats (with the games and the final scores)."""


async def player_stats(views: GameViews, player_id: str) -> tuple[PlayerStats, dict[str, int]]:
    """The player's record (by table size, with bots, the worst card) and their summed facts."""
    record = await views.stats(player_id, "cucumber", by="players", best="worst")
    return record, await views.totals(player_id, "cucumber", FACTS)


def record_text(r: Record) -> str:
    return f"{r.games} played, lost {r.losses}, won {r.wins}, safe {r.draws}"


def sections(stats: PlayerStats, totals: dict[str, int], invite: str) -> list[tuple[str, list[str]]]:
    """The facts as headed lists of lines (``invite``: how to play a first game on that front end).
    Lost: reached the target; won: the lowest of the rest."""
    games = stats.total.games
    if not games:
        return [("No finished games yet", [invite])]
    overall = [
        record_text(stats.total),
        f"Average final score: {totals['score'] / games:.1f}",
        f"Cucumbers taken: {totals['cucumbers']}",
        rating_line(stats.rating),
    ]
    if stats.best is not None:
        overall.append(f"Worst card stuck with: {value_name(stats.best.value)}, in game {stats.best.game_id}")
    shown = [("Overall", overall)]
    if stats.by_field:
        shown.append(("By table size", [f"{n} players: {record_text(r)}" for n, r in stats.by_field.items()]))
    if stats.vs_bots:
        shown.append(("With bots at the table", [f"{bot}: {record_text(r)}" for bot, r in stats.vs_bots.items()]))
    return shown
