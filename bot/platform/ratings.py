"""Ratings of people by the games they finish against one another, for every game on the platform.

OpenSkill's Plackett-Luce model rates free-for-all games of any number of players (Cucumber's six
seats as well as Hog's two). The rules, as the README tells players:

- **Rated**: a decided game whose every seat is a person's (at least two people). A game with the
  house or a bot at the table from the start is not rated. A forfeit is a loss.
- **Order**: games are rated in the order of the events that decided them, whether the projector
  follows the log or rebuilds it, so a rebuild gives the same numbers to the last digit.
- **Result**: a win ranks ahead of a draw, a draw ahead of a loss.
- **Farming**: the same set of players counts at most ``FARM_LIMIT`` games in any ``FARM_WINDOW``
  seconds; more are recorded as rated games that do not count.
- **Shown**: ``1000 + 40 * (mu - 3 * sigma)``, rounded: a newcomer shows 1000, and only a player who is
  both good and known to be good (many games) shows much more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from storage.ratings import Ranked, RatedGame, Rating, RatingViews, Standings
from storage.summaries import Summary

MODEL = PlackettLuce()
RANKS = {"win": 1, "draw": 2, "loss": 3}
FARM_LIMIT = 3
FARM_WINDOW = 3600.0
SHOWN_AT_START, SHOWN_PER_POINT = 1000, 40


def shown(rating: Rating | None) -> int:
    """The number a player sees: the conservative estimate, scaled (a newcomer's is 1000)."""
    return shown_score(rating.score if rating is not None else MODEL.mu - 3 * MODEL.sigma)


def shown_score(score: float) -> int:
    """A conservative estimate (``Rating.score``) as the number a player sees."""
    return round(SHOWN_AT_START + SHOWN_PER_POINT * score)


def rating_text(rating: Rating) -> str:
    games = f"{rating.games} rated game{'s' * (rating.games != 1)}"
    return f"{shown(rating)} after {games} (skill {rating.mu:.1f} ± {rating.sigma:.1f})"


def rating_line(rating: Rating | None) -> str:
    """A player's rating as a line of their stats."""
    if rating is None:
        return "Rating: none yet (finish a game against another person)"
    return f"Rating: {rating_text(rating)}"


def standing_line(ranked: Ranked, name: Callable[[str], str] = str) -> str:
    """A leaderboard line (Discord markdown); ``name`` escapes a player's name for the front."""
    games = f"{ranked.rating.games} game{'s' * (ranked.rating.games != 1)}"
    return f"**{ranked.rank}.** {name(ranked.rating.name)} · **{shown(ranked.rating)}** ({games})"


def standings_lines(standings: Standings, name: Callable[[str], str] = str) -> tuple[list[str], str]:
    """A leaderboard page's lines, and the asker's own place (shown even when off the page)."""
    lines = [standing_line(r, name) for r in standings.page]
    mine = standings.mine
    if mine is None:
        return lines, "not on this board yet (finish a game against another person)"
    return lines, f"#{mine.rank} of {standings.total}, {rating_text(mine.rating)}"


@dataclass(frozen=True, slots=True)
class Decided:
    """A decided game, with the position and time of the event that decided it."""

    summary: Summary
    position: int
    finished_at: float


def rateable(summary: Summary) -> bool:
    """Every seat a person's, at least two different people, and every seat's result known."""
    people = {s.player_id for s in summary.seats}
    return (
        len(people) == len(summary.seats) >= 2
        and all(s.bot is None for s in summary.seats)
        and all(s.result in RANKS for s in summary.seats)
    )


def rateable_with_bots(summary: Summary) -> bool:
    """A decided game with a person at the table and every seat's result known: bots rated too (a
    server's season, where its admins let bots sit in rated games)."""
    return (
        len({s.player_id for s in summary.seats}) == len(summary.seats) >= 2
        and any(s.bot is None for s in summary.seats)
        and all(s.result in RANKS for s in summary.seats)
    )


def players_key(summary: Summary) -> str:
    return " ".join(sorted(s.player_id for s in summary.seats))


class Ledger:
    """The ratings, and the counted games of the last window, that rating some games needs, kept up
    to date as it rates them. Empty for a rebuild; loaded from the read models for a catch-up."""

    def __init__(
        self,
        ratings: dict[tuple[str, str], Rating] | None = None,
        recent: dict[tuple[str, str], list[float]] | None = None,
        done: Iterable[str] = (),
        counts: Callable[[Summary], bool] = rateable,
    ) -> None:
        self.counts = counts
        """Which games are rated (``rateable``: between people only)."""
        self.ratings = ratings or {}
        self.recent = recent or {}
        self.done = set(done)

    @classmethod
    async def load(cls, views: RatingViews, decided: Sequence[Decided]) -> Ledger:
        games = [d for d in decided if rateable(d.summary)]
        if not games:
            return cls()
        ratings: dict[tuple[str, str], Rating] = {}
        recent: dict[tuple[str, str], list[float]] = {}
        for d in games:
            game, key = d.summary.game, players_key(d.summary)
            wanted = [s.player_id for s in d.summary.seats if (game, s.player_id) not in ratings]
            if wanted:
                ratings |= {(game, p): r for p, r in (await views.of(game, wanted)).items()}
            if (game, key) not in recent:
                since = min(g.finished_at for g in games if (g.summary.game, players_key(g.summary)) == (game, key))
                recent[game, key] = await views.counted_since(game, key, since - FARM_WINDOW)
        return cls(ratings, recent, await views.rated([d.summary.game_id for d in games]))

    def rate(self, decided: Iterable[Decided]) -> tuple[list[RatedGame], list[Rating]]:
        """Rate the games not rated yet, in the order they were decided; returns the games rated (or
        judged not to count) and the ratings they changed, as they stand after the last."""
        rated: list[RatedGame] = []
        changed: dict[tuple[str, str], Rating] = {}
        for d in sorted(decided, key=lambda d: d.position):
            summary = d.summary
            if summary.game_id in self.done or not self.counts(summary):
                continue
            self.done.add(summary.game_id)
            key = players_key(summary)
            times = self.recent.setdefault((summary.game, key), [])
            counted = sum(1 for t in times if t >= d.finished_at - FARM_WINDOW) < FARM_LIMIT
            after = self._play(summary) if counted else []
            rated.append(
                RatedGame(
                    summary.game_id, summary.game, summary.place, key, d.position, d.finished_at, counted, tuple(after)
                )
            )
            if counted:
                times.append(d.finished_at)
            for rating in after:
                self.ratings[rating.game, rating.player_id] = changed[rating.game, rating.player_id] = rating
        return rated, list(changed.values())

    def _play(self, summary: Summary) -> list[Rating]:
        before = [self.ratings.get((summary.game, s.player_id)) for s in summary.seats]
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) if r else MODEL.rating()] for r in before]
        after = MODEL.rate(teams, ranks=[RANKS[s.result or ""] for s in summary.seats])
        return [
            Rating(summary.game, seat.player_id, seat.name, new.mu, new.sigma, (old.games if old else 0) + 1)
            for seat, old, (new,) in zip(summary.seats, before, after, strict=True)
        ]
