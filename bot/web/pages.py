"""What a game's web page shows, gathered from the platform for any installed game: its players and
where it stands, its seal (running) or seed (over), and a step of its replay with the commentary
told live and the board as anyone may see it. Pure of HTTP: ``bot.web.app`` renders it."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from markupsafe import Markup

from bot.platform.chance import seal_words
from bot.platform.compose import Platform
from bot.platform.contract import GameRow, HtmlBoard, Lines, Outcome, ReplaySteps, optional
from bot.platform.fairness import FAIR, verify
from bot.web.render import number
from storage.games import Cursor

PUBLIC = ""
"""The viewer a page is drawn for: nobody seated, so no hidden card is ever in it."""


@dataclass(frozen=True)
class GamePage:
    game_id: str
    title: str
    """The game's name as players say it (``Hog``)."""
    players: str
    """Who plays: ``Ann v Ben``."""
    seated: tuple[tuple[str, str], ...]
    """Each person seated, their name and id (for a link to their page); bots are not."""
    line: str
    """Who plays and how it stands, as a list of games says it."""
    over: bool
    step: int
    """The step shown, from 1."""
    steps: int
    board: str
    """The board at that step, as anyone may see it (a console board: text)."""
    told: tuple[str, ...]
    """That step's commentary, word for word as it was told live."""
    seal: str
    """The seal while the game is played; once it is over, the seed and what ``verify`` found."""
    version: int
    remarks: tuple[str, ...] = ()
    """What the game's review says at that step (Hog: accuracies and the move), for everyone."""
    html: Markup = field(default_factory=Markup)
    """The board at that step drawn by the game (``contract.HtmlBoard``); empty: show ``board``."""
    style: str = ""
    """The address of the game's board stylesheet, when it draws one."""


async def game_page(p: Platform, game_id: str, step: int | None) -> GamePage | None:
    """Step ``step`` (clamped; the last when ``None``) of ``game_id``, or ``None`` for no such game."""
    game = await p.games.of_stored(p.store, game_id)
    if game is None:
        return None
    service = p.service(game)
    events = await service.events(game_id)
    told = list(game.narrate(events))
    ends = step_ends(game, told)
    at = len(ends) if step is None else max(1, min(step, len(ends)))
    shown = tuple(told[ends[at - 2] if at > 1 else 0 : ends[at - 1]])
    state, lines = shown[-1][1], tuple(line for _, _, said in shown for line in said)
    outcome = Outcome(game.name, state, shown)
    board = await game.console.board(outcome, PUBLIC)
    html, style = await drawn_board(game, outcome, PUBLIC)
    final = told[-1][1]
    row = await (await p.settled_views()).game(game_id)
    line = game.history_line(row, None) if row is not None else ""
    players = " v ".join(s.name for s in row.seats) if row is not None else ""
    seated = tuple((s.name, s.player_id) for s in row.seats if s.bot is None) if row is not None else ()
    return GamePage(
        game_id,
        game.title,
        players,
        seated,
        line,
        final.is_over,
        at,
        len(ends),
        board,
        tuple(lines),
        await _seal(p, game, final),
        final.version,
        tuple(await game.remarks(events, at)),
        html,
        style,
    )


def step_ends(game: Any, told: Sequence[tuple[Any, Any, Lines]]) -> Sequence[int]:
    """How many events each step of ``game``'s replay (``told``: its events narrated) ends after:
    its own steps (``ReplaySteps``), else one event a step."""
    stepper = optional(game, ReplaySteps)
    return stepper.replay_steps(told) if stepper is not None else range(1, len(told) + 1)


async def drawn_board(game: Any, outcome: Outcome[Any, Any], viewer: str) -> tuple[Markup, str]:
    """The board as the game draws it in HTML for ``viewer``, and its stylesheet's address; nothing
    for a game that draws none (its console's text is shown)."""
    drawer = optional(game, HtmlBoard)
    if drawer is None:
        return Markup(""), ""
    return Markup(await drawer.html_board(outcome, viewer)), f"/boards/{game.name}.css"


async def _seal(p: Platform, game: Any, final: Any) -> str:
    seed = await p.service(game).seed(final.game_id)
    if seed is None or game.draws is None:
        return f"Nothing in {game.title} is left to chance." if game.draws is None else ""
    if not final.is_over:
        return seal_words(game.draws, seed, False, "")
    verdict = await verify(p.service(game), p.kept, final.game_id)
    return seal_words(game.draws, seed, True, "every draw matches it" if verdict.status == FAIR else verdict.text)


@dataclass(frozen=True, slots=True)
class Listed:
    """A game as a list or a tile shows it: its line (from one player's side, or nobody's), its row,
    and when it started, in words."""

    game_id: str
    title: str
    line: str
    row: GameRow
    started: str


def listed(p: Platform, rows: list[GameRow], player_id: str | None) -> list[Listed]:
    return [
        Listed(
            row.game_id,
            p.games[row.game].title,
            p.games[row.game].history_line(row, player_id),
            row,
            datetime.fromtimestamp(row.started_at, UTC).strftime("%Y-%m-%d %H:%M UTC"),
        )
        for row in rows
        if row.game in p.games
    ]


CURSOR = re.compile(r"([0-9]{1,12}(?:\.[0-9]{1,9})?)~([A-Za-z0-9][A-Za-z0-9_:-]{0,99})")
"""A list's cursor as a link writes it: a game's start (seconds) and its id (``cursor``)."""
Read = Callable[..., Awaitable[list[GameRow]]]
"""A list of games (``GameViews.history`` with its filters bound): ``limit``, ``offset``, ``before``, ``after``."""


@dataclass(frozen=True)
class Paged:
    """A page of a list of games, newest first, and the links to the pages beside it (a query string:
    ``""`` the first page, ``None`` no page)."""

    rows: list[GameRow]
    newer: str | None
    older: str | None
    first: bool


def cursor(row: GameRow) -> str:
    return f"{row.started_at!r}~{row.game_id}"


def read_cursor(text: str | None) -> Cursor | None:
    found = CURSOR.fullmatch(text or "")
    return None if found is None else (float(found[1]), found[2])


async def paged(query: Mapping[str, str], read: Read, size: int, last_page: int) -> Paged | None:
    """The page of ``read``'s games that ``query`` asks for: by the game it comes ``before`` or
    ``after`` (the links it gives: an index seek however deep), or by its number (``page``: the
    links of before). ``None`` for a query that names no page."""
    before, after = query.get("before"), query.get("after")
    if before is not None and after is not None:
        return None
    if after is not None:
        at = read_cursor(after)
        if at is None:
            return None
        rows = await read(limit=size + 1, after=at)
        if len(rows) <= size:  # nothing newer beyond: the first page, whole
            return await paged({}, read, size, last_page)
        return Paged(rows[1:], f"after={cursor(rows[1])}", f"before={cursor(rows[-1])}", False)
    at = read_cursor(before) if before is not None else None
    number_ = number(query.get("page", "1"), 1, last_page) if before is None else 1
    if (before is not None and at is None) or number_ is None:
        return None
    rows = await read(limit=size + 1, offset=(number_ - 1) * size, before=at)
    older = f"before={cursor(rows[size - 1])}" if len(rows) > size else None
    rows = rows[:size]
    newer: str | None
    if at is not None:
        newer = f"after={cursor(rows[0])}" if rows else ""
    else:
        newer = None if number_ == 1 else f"page={number_ - 1}"
    return Paged(rows, newer, older, at is None and number_ == 1)
