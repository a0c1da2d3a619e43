"""What may be done to a tournament, and the events it makes: pure functions of the tournament as
its log stands, each refusing in words (``Refusal``) what cannot be done, changing nothing."""

from __future__ import annotations

from collections.abc import Mapping

from bot.platform.contract import Refusal
from bot.platform.tournaments.events import Created, Event, Finished, Joined, Left, Paired, Posted, Scored, Started
from bot.platform.tournaments.formats import game_id, next_round
from bot.platform.tournaments.state import FORMATS, Tournament

MOST_PLAYERS = 64
MOST_ROUNDS = 20


def create(t: Tournament, created: Created) -> list[Event]:
    if t.version:
        raise Refusal("There is a tournament with this id already.")
    if created.format not in FORMATS:
        raise Refusal(f"{created.format!r} is not a format: choose swiss, round-robin or knockout.")
    if not 0 <= created.rounds <= MOST_ROUNDS:
        raise Refusal(f"A tournament plays 1 to {MOST_ROUNDS} rounds.")
    return [created, Joined(created.organiser, created.organiser_name)]


def _open(t: Tournament) -> Created:
    if t.created is None:
        raise Refusal("There is no such tournament here.")
    if t.finished is not None:
        raise Refusal(f"This tournament is {t.status} already.")
    return t.created


def join(t: Tournament, player: str, name: str) -> list[Event]:
    _open(t)
    if t.started:
        raise Refusal("This tournament has started: sign-up is closed.")
    if player in t.players:
        raise Refusal("You are in this tournament already.")
    if len(t.players) >= MOST_PLAYERS:
        raise Refusal(f"This tournament is full ({MOST_PLAYERS} players).")
    return [Joined(player, name)]


def leave(t: Tournament, player: str, by: str, manages: bool) -> list[Event]:
    """``player`` leaves (``by`` themselves) or is dropped (``by`` the organiser or a manager): before
    the start they are out of it; after, they are paired no more (a game they are playing goes on,
    lost by its own timers if they never move)."""
    created = _open(t)
    if by != player and by != created.organiser and not manages:
        raise Refusal("Only the organiser, or a member who may manage the server, can drop a player.")
    if player not in t.players or player in t.gone:
        raise Refusal("You are not in this tournament." if by == player else "That player is not in this tournament.")
    if not t.started and player == created.organiser:
        raise Refusal("The organiser cannot leave before the start: cancel the tournament instead.")
    return [Left(player, by)]


def start(t: Tournament, by: str, manages: bool, ratings: Mapping[str, int]) -> list[Event]:
    """Start it: the players' ratings now become the seeding; too few players and it is cancelled
    at the end of sign-up (``by`` ``clock``), refused when asked by hand."""
    created = _open(t)
    if t.started:
        raise Refusal("This tournament has started already.")
    if by not in (created.organiser, "clock") and not manages:
        raise Refusal("Only the organiser, or a member who may manage the server, can start it.")
    fewest = max(2, created.smallest)
    if len(t.players) < fewest:
        if by == "clock":
            return [Finished("too few")]
        raise Refusal(f"A tournament needs {fewest} players at least: {len(t.players)} signed up so far.")
    return [Started(by, {p: ratings.get(p, 0) for p in t.players})]


def cancel(t: Tournament, by: str, manages: bool) -> list[Event]:
    created = _open(t)
    if by != created.organiser and not manages:
        raise Refusal("Only the organiser, or a member who may manage the server, can cancel it.")
    return [Finished("cancelled")]


def advance(t: Tournament) -> list[Event]:
    """Pair the next round once the current one is done, or finish the tournament: nothing while a
    round's games are being played, before the start, or after the end."""
    if t.created is None or not t.started or t.finished is not None:
        return []
    if t.current is not None and not t.current.done:
        return []
    found = next_round(t)
    if found is None:
        return [Finished("played")]
    tables, byes = found
    number = len(t.rounds) + 1
    return [Paired(number, tables, tuple(game_id(t, number, i) for i in range(len(tables))), byes)]


def score(t: Tournament, game_id: str, results: tuple[str, ...]) -> list[Event]:
    """Record a finished game's result (once: a result recorded already changes nothing)."""
    r = t.game_round(game_id)
    if r is None:
        raise Refusal("That game is not one of this tournament's.")
    if game_id in r.results:
        return []
    return [Scored(game_id, results)]


def post(t: Tournament, channel: str, message: str) -> list[Event]:
    if t.created is None:
        raise Refusal("There is no such tournament here.")
    return [] if t.board == (channel, message) else [Posted(channel, message)]
