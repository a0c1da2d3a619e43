"""A player's Hog record, streaks, rating, biggest turn and play as the exact review saw it, as
headed lines for any front end."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games.hog.analysis import PLURALS, VERDICTS, accuracy_words
from bot.games.hog.board import rules_name
from bot.platform.exercises import shown as shown_rating
from bot.platform.ratings import rating_line
from storage.answers import Rated
from storage.games import Best, GameViews, PlayerStats, Record

REVIEWED = ("reviewed", "accuracy", "perfect", *PLURALS.values())
"""The seat's facts the exact review leaves (``analysis.facts``) that add up over games."""


@dataclass(frozen=True, slots=True)
class Play:
    """A player's finished games as the exact review saw them, and the puzzles they answered."""

    games: int
    """How many were reviewed (games to goals past what is solved are not)."""
    accuracy: str
    """The average of their accuracies, in words (``analysis.accuracy_words``)."""
    counts: dict[str, int]
    """How many blunders, mistakes and inaccuracies, by verdict."""
    worst: Best | None
    """The chance the worst move lost (hundredths of a percent) and its game."""
    puzzles: dict[str, Rated] = field(default_factory=dict)
    """Their rating as a solver of each rule set's puzzles, with their answers and streaks."""
    trained: int = 0
    """How many positions of their own games the trainer saw them find the best move in."""


async def player_stats(views: GameViews, player_id: str) -> tuple[PlayerStats, Play]:
    stats = await views.stats(player_id, "hog", by="rules", best="turn")
    sums = await views.totals(player_id, "hog", REVIEWED)
    reviewed = sums["reviewed"]
    counts = {v: sums[PLURALS[v]] for v in VERDICTS}
    worst = await views.highest(player_id, "hog", "worst")
    shown = accuracy_words(sums["accuracy"], reviewed, sums["perfect"] == reviewed) if reviewed else ""
    puzzles = await views.answers.of_solver("hog", player_id)
    return stats, Play(reviewed, shown, counts, worst, puzzles, await views.answers.found("hog", player_id))


def record_text(r: Record) -> str:
    draws = f", {r.draws} drawn" if r.draws else ""
    return f"{r.games} played, {r.wins} won, {r.losses} lost{draws} ({r.win_rate:.0%})"


def sections(stats: PlayerStats, play: Play, invite: str) -> list[tuple[str, list[str]]]:
    """The facts, as headed lists of lines, the same for every front end; ``invite`` says how to
    play a first game on that front end."""
    if not stats.total.games and stats.best is None:
        return [("No games yet", [invite]), *puzzle_section(play)]
    overall = [record_text(stats.total)]
    if stats.total.games:
        overall.append(f"Longest winning streak: {stats.longest_streak} (now: {stats.current_streak})")
        overall.append(rating_line(stats.rating))
    if stats.best is not None:
        points = stats.best.value
        overall.append(f"Biggest single turn: {points} point{'s' * (points != 1)}, in game {stats.best.game_id}")
    shown = [("Overall", overall)]
    if play.games:
        shown.append(("Play, by the exact review", play_lines(play)))
    if stats.by_field:
        shown.append(("By rule set", [f"{rules_name(r)}: {record_text(rec)}" for r, rec in stats.by_field.items()]))
    if stats.vs_bots:
        shown.append(("Against the house", [f"{level}: {record_text(rec)}" for level, rec in stats.vs_bots.items()]))
    return [*shown, *puzzle_section(play)]


def puzzle_section(play: Play) -> list[tuple[str, list[str]]]:
    """``fa18: rating 1043 · 7 of 9 solved · streak 3 (best 5)`` a rule set, and the trainer's count."""
    lines = [
        f"{rules_name(rules)}: rating {shown_rating(r)} · {r.solved} of {r.tries} solved · streak {r.streak} "
        f"(best {r.best_streak})"
        for rules, r in play.puzzles.items()
    ]
    if play.trained:
        found = f"{play.trained} position{'s' * (play.trained != 1)}"
        lines.append(f"Trainer: the best move found in {found} of past games")
    return [("Puzzles", lines)] if lines else []


def play_lines(play: Play) -> list[str]:
    """``Average accuracy: 93.4% over 12 games``, the verdicts counted, the worst move."""
    lines = [f"Average accuracy: {play.accuracy} over {play.games} game{'s' * (play.games != 1)}"]
    named = [f"{n} {v if n == 1 else PLURALS[v]}" for v, n in play.counts.items() if n]
    lines.append(", ".join(named) if named else "No inaccuracy, mistake or blunder")
    if play.worst is not None:
        lines.append(f"Worst move: −{play.worst.value / 100:.1f}% win chance, in game {play.worst.game_id}")
    return lines
