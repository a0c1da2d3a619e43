"""A player's record kept as their games are decided, not counted from every seat they ever sat in:
wins, losses and draws (in all, by each of the game's fields, against each bot level), their final
scores, their winning streaks, each of their seat's facts summed up and at its highest, and the moves
that cost them dearly (``mistakes``: the trainer's positions, numbered as they are tallied).

A player's page reads a handful of rows, however many games they played. Each decided game is
tallied once (``games.tallied``), in the order of the events that decided them, in the projector's
transaction; a rebuild tallies every game again from the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.summaries import Summary

RESULTS = ("win", "loss", "draw")
ALL, BOTS = "", "@bot"
"""The facet of the tally of every game, and of the games against a bot (by its level); any other
facet is one of the game's fields (Hog's ``rules``), by its value."""

BETTER = (
    "excluded.best > player_facts.best OR (excluded.best = player_facts.best AND excluded.best > 0 "
    "AND (excluded.best_started < player_facts.best_started OR (excluded.best_started = player_facts.best_started "
    "AND excluded.best_game < player_facts.best_game)))"
)
"""A fact's new value takes the highest's place: higher, or as high in a game that started earlier."""

WRITES = (
    "INSERT INTO tallies (game, player_id, facet, value, games, wins, losses, draws, score, current, longest) "
    "VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, player_id, facet, value) DO UPDATE SET "
    "games = tallies.games + 1, wins = tallies.wins + excluded.wins, losses = tallies.losses + excluded.losses, "
    "draws = tallies.draws + excluded.draws, score = tallies.score + excluded.score, "
    "current = CASE WHEN excluded.wins = 1 THEN tallies.current + 1 ELSE 0 END, "
    "longest = CASE WHEN excluded.wins = 1 AND tallies.current + 1 > tallies.longest "
    "THEN tallies.current + 1 ELSE tallies.longest END",
    # SET reads the old row throughout: ``best`` is compared before any of the three changes
    "INSERT INTO player_facts (game, player_id, fact, total, best, best_game, best_started) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, player_id, fact) DO UPDATE SET "
    "total = player_facts.total + excluded.total, "
    "best = CASE WHEN excluded.best > player_facts.best THEN excluded.best ELSE player_facts.best END, "
    f"best_game = CASE WHEN {BETTER} THEN excluded.best_game ELSE player_facts.best_game END, "
    f"best_started = CASE WHEN {BETTER} THEN excluded.best_started ELSE player_facts.best_started END",
    # numbered after the player's last (a game tallied again is found by its UNIQUE and adds nothing)
    "INSERT INTO mistakes (game, player_id, n, started_at, game_id, version) "
    "SELECT ?, ?, coalesce(max(n), 0) + 1, ?, ?, ? FROM mistakes WHERE game = ? AND player_id = ? "
    "ON CONFLICT DO NOTHING",
    "UPDATE games SET tallied = 1 WHERE game_id = ?",
)
"""The projector's writes, in its transaction, for the rows of ``rows`` in turn (after the games'
own rows)."""

Rows = list[tuple[object, ...]]


def rows(decided: Sequence[tuple[Summary, float]]) -> tuple[Rows, Rows, Rows, Rows]:
    """The rows of ``WRITES`` for each decided game (with when it started), in the order given (the
    order they were decided). A seat counts once it has a result."""
    tallies: Rows = []
    facts: Rows = []
    mistakes: Rows = []
    for summary, started_at in decided:
        for seat in summary.seats:
            if seat.result is None:
                continue
            won, lost, drawn = (int(seat.result == r) for r in RESULTS)
            against = max((o.bot for o in summary.seats if o is not seat and o.bot), default=None)
            facets = [(ALL, ""), *summary.fields.items(), *([(BOTS, against)] if against else [])]
            tallies += [(summary.game, seat.player_id, f, v, won, lost, drawn, seat.score, won, won) for f, v in facets]
            facts += [
                (
                    summary.game,
                    seat.player_id,
                    fact,
                    value,
                    max(value, 0),
                    summary.game_id if value > 0 else None,
                    started_at,
                )
                for fact, value in seat.facts.items()
            ]
            mine = (summary.game, seat.player_id)
            mistakes += [(*mine, started_at, summary.game_id, v, *mine) for v in seat.mistakes]
    return tallies, facts, mistakes, [(summary.game_id,) for summary, _ in decided]
