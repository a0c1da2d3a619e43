"""``python -m bot gui``: the course's GUI in a browser, for the person at this computer. Any installed
game (Hog against the house at any level or a friend at the same keyboard, any rule set and goal;
Cucumber against bots, your hand shown to you alone) on the same platform as the terminal: the same
questions, the same board, stored like every game and replayed at ``/games/<id>``.

A new game's form is drawn from the game's own console options (``ConsoleFront.add_arguments``), and
a move is a line typed as at the terminal (``bot.console.typed``), so a game added as a plugin plays
here with nothing written for it. The page listens on 127.0.0.1 only, and a write is accepted only
from its own pages: the Origin and Host of every POST are checked (no cross-site request, no DNS
rebinding). Its ``/api`` is private: no answer carries CORS headers, and a request from another
site's page (its Origin) is refused, so no page you visit can read your games.
"""

from __future__ import annotations

import argparse
import contextlib
import re
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from bot import console
from bot.platform.compose import Platform
from bot.platform.contract import Choice, Emblem, GameRow, MoveChoices, Refusal, optional
from bot.platform.names import checked
from bot.platform.service import OUT_OF_DATE
from bot.web.pages import drawn_board, listed
from bot.web.render import LINKS, PLATFORM, not_found, number, render

GUI_HOSTS = web.AppKey("gui_hosts", frozenset[str])
"""The ``host:port`` this GUI answers to (127.0.0.1 and localhost at its port)."""


class Refused(Exception):
    """A form that cannot make a game: its message is for the player."""


def options_of(p: Platform, game: str) -> list[dict[str, Any]]:
    """The game's console options, as fields of a form: each option's name, help, choices and kind."""
    parser = argparse.ArgumentParser(prog=f"python -m bot {game}", add_help=False, exit_on_error=False)
    p.games[game].console.add_arguments(parser)
    fields = []
    for action in parser._actions:
        flag = action.option_strings[0]
        many = isinstance(action, argparse._AppendAction) and action.choices
        kind = (
            "flag"
            if isinstance(action, argparse._StoreTrueAction)
            else "many"
            if many
            else "choice"
            if action.choices
            else "text"
        )
        label, note = labelled(action.help or flag.lstrip("-"))
        choices = list(action.choices or ())
        named = getattr(action.choices, "label", lambda choice: choice.replace("_", " "))
        where = getattr(action.choices, "where", None)
        fields.append(
            {
                "flag": flag,
                "name": flag.lstrip("-"),
                "label": label,
                "note": note,
                "kind": kind,
                "choices": choices,
                "labels": [named(choice) for choice in choices],  # what a player reads: "Fall 2023 (fa23, ...)"
                "where": [" ".join(where(choice)) if where else "" for choice in choices],  # whose rule a box is
                "default": getattr(action.choices, "default", ""),  # what "(the default)" is
            }
        )
    return fields


TERMINAL = re.compile(r";?\s*python -m bot [^;)]*")
"""What an option's help says for the terminal alone (``python -m bot rules RULES explains one``)."""


def labelled(help_text: str) -> tuple[str, str]:
    """A form's label and its note from an option's help: ``the score that wins (default: 100; 10 to
    1000)`` is ``The score that wins`` over ``default: 100; 10 to 1000``, nothing said for the terminal."""
    head, _, rest = help_text.partition(" (default")
    label = head.split(":")[0].strip()
    note = f"default{rest.rstrip(')')}" if rest else ""
    note = TERMINAL.sub("", note).strip(" ;")
    return label[:1].upper() + label[1:], note


def parsed(p: Platform, game: str, form: dict[str, str]) -> argparse.Namespace:
    """The form's answers read as the terminal reads the same options; ``Refused`` for a bad one."""
    parser = argparse.ArgumentParser(prog=f"python -m bot {game}", add_help=False, exit_on_error=False)
    p.games[game].console.add_arguments(parser)
    argv = []
    for field in options_of(p, game):
        value = form.get(field["name"], "").strip()
        if field["kind"] == "flag":
            argv += [field["flag"]] if value else []
        elif field["kind"] == "many":  # a checkbox a choice: ``without.swine_swap``
            argv += [
                part
                for choice in field["choices"]
                if form.get(f"{field['name']}.{choice}")
                for part in (field["flag"], choice)
            ]
        elif value:
            argv += [field["flag"], value]
    try:
        args, extra = parser.parse_known_args(argv)
    except (argparse.ArgumentError, SystemExit) as error:
        raise Refused(
            str(error) if isinstance(error, argparse.ArgumentError) else "That is not a game this can make."
        ) from None
    if extra:
        raise Refused(f"Unknown options: {' '.join(extra)}")
    return args


@web.middleware
async def same_site(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Only this computer's own address is answered, on every method (a name rebound to 127.0.0.1 by
    another site's DNS reads nothing, a Cucumber hand least of all); a POST must also come from the
    GUI's own pages (its Origin)."""
    hosts = request.app[GUI_HOSTS]
    origin = request.headers.get("Origin")
    foreign = origin is not None and origin.removeprefix("http://") not in hosts
    if (
        request.host not in hosts
        or (request.method == "POST" and (origin is None or foreign))
        or (request.path.startswith("/api") and foreign)  # another site's script reads no game of yours
    ):
        return web.Response(status=403, text="Refused: this page plays only from its own address.")
    return await handler(request)


async def private(request: web.Request, response: web.StreamResponse) -> None:
    """No answer of the GUI's is shared with other origins (the web front's read API is, for GET)."""
    for header in [h for h in response.headers if h.lower().startswith("access-control-")]:
        del response.headers[header]


def add_gui(app: web.Application, port: int) -> None:
    """The GUI's pages on ``app`` (served on 127.0.0.1:``port``)."""
    app[GUI_HOSTS] = frozenset({f"127.0.0.1:{port}", f"localhost:{port}"})
    app.on_response_prepare.append(private)

    async def home(request: web.Request) -> web.Response:
        """The lobby: the games under way here first, each drawn, then a tile to start each game."""
        p = request.app[PLATFORM]
        live = listed(p, (await (await p.settled_views()).live_games(console.PLACE))[::-1], None)
        playing = [(g, table_of(g.game_id, person)) for g in live if (person := first_person(g.row))]
        games = [
            (name, game.title, drawing.blurb if drawing else "", drawing is not None)
            for name, game in p.games.items()
            for drawing in [optional(game, Emblem)]
        ]
        return render("gui_home.html", playing=playing, games=games, links=request.app[LINKS])

    async def new_form(request: web.Request) -> web.Response:
        p, game = request.app[PLATFORM], request.match_info["game"]
        if game not in p.games:
            return not_found("such game")
        fields = options_of(p, game)
        return render("gui_new.html", game=game, title=p.games[game].title, fields=fields, said="", form={})

    async def create(request: web.Request) -> web.StreamResponse:
        p, game = request.app[PLATFORM], request.match_info["game"]
        if game not in p.games:
            return not_found("such game")
        form = {k: str(v) for k, v in (await request.post()).items()}
        kept = {k: v for k, v in form.items() if v.isprintable()}  # what a refused form shows again
        wrong: list[str] = []  # every mistake of the form said at once, not the first alone
        name = console.DEFAULT_NAME
        with refused_into(wrong, p.games[game].refusal):
            name = checked(form.get("player", "").strip() or console.DEFAULT_NAME, "Your name")
        with refused_into(wrong, p.games[game].refusal):
            args = parsed(p, game, form)
            args.name = name
            game_id, create = p.games[game].console.new_game(args, console.player_id(name), name)
            if not wrong:
                await p.service(game).create(game_id, create, console.command_id())
        if wrong:
            return render(
                "gui_new.html",
                status=400,
                game=game,
                title=p.games[game].title,
                fields=options_of(p, game),
                said=" ".join(wrong),
                form=kept,  # the answers stay: a player mends one, not all
            )
        raise web.HTTPSeeOther(str(request.app.router["gui_table"].url_for(game_id=game_id).with_query({"as": name})))

    async def table(request: web.Request) -> web.Response:
        p, game_id = request.app[PLATFORM], request.match_info["game_id"]
        name = request.query.get("as", console.DEFAULT_NAME)
        found = await seated(p, game_id, name)
        if found is None:
            return not_found(f"game {game_id} with a seat for {name}")
        return await drawn_table(p, found, game_id, name)

    async def move(request: web.Request) -> web.StreamResponse:
        """A line typed on the board of ``version`` for ``seat``: played only on that board (a double
        click, or a second tab's, is stale and changes nothing); words (help, a hint, a refusal) are
        shown on the table itself, never carried in an address."""
        p, game_id = request.app[PLATFORM], request.match_info["game_id"]
        form = await request.post()
        name = str(form.get("as", console.DEFAULT_NAME))
        line = str(form.get("ask") or form.get("line") or form.get("typed") or "").strip()
        found = await seated(p, game_id, name)
        if found is None:
            return not_found(f"game {game_id} with a seat for {name}")
        if line.lower() in QUIT:  # as at the terminal: the game is kept for later
            raise web.HTTPSeeOther("/play")
        game, outcome, _ = found
        state = outcome.state
        player = None if state.is_over else game.console.to_move(state)
        version, seat = number(str(form.get("version", "")), 1, 10**9), str(form.get("seat", ""))
        if player is None or version != state.version or seat != player:
            return await drawn_table(p, found, game_id, name, OUT_OF_DATE, 409)
        if line:
            done = await console.typed(p, game, state, player, line, version)
            if isinstance(done, str):  # words: help, a hint, a refusal, or another move got there first
                now = await seated(p, game_id, name) or found
                moved = now[1].state.version != state.version
                return await drawn_table(p, now, game_id, name, done, 409 if moved else 200)
        raise web.HTTPSeeOther(str(request.app.router["gui_table"].url_for(game_id=game_id).with_query({"as": name})))

    app.router.add_get("/play", home)
    app.router.add_get("/play/new/{game}", new_form)
    app.router.add_post("/play/new/{game}", create)
    app.router.add_get("/play/{game_id}", table, name="gui_table")
    app.router.add_post("/play/{game_id}", move)
    app.middlewares.append(same_site)


@contextlib.contextmanager
def refused_into(wrong: list[str], refusal: type[Exception]) -> Iterator[None]:
    """A refusal of the form (ours, the platform's or the game's) noted in ``wrong`` in words."""
    try:
        yield
    except Refused as error:
        wrong.append(str(error))
    except Refusal as error:
        wrong.append(error.message)
    except refusal as error:
        wrong.append(str(getattr(error, "message", error)))


def first_person(row: GameRow) -> str:
    """The name of a game's first seat that is no bot: whom the lobby's tile goes on as."""
    return next((seat.name for seat in row.seats if seat.bot is None), "")


def table_of(game_id: str, name: str) -> str:
    return f"/play/{game_id}?{urlencode({'as': name})}"


async def drawn_table(
    p: Platform, found: tuple[Any, Any, str], game_id: str, name: str, said: str = "", status: int = 200
) -> web.Response:
    """The table as ``name`` sees it, with ``said`` (help, a hint, why a line was refused) under it;
    its form names the version of the board and the seat to move, for ``move`` to check."""
    game, outcome, me = found
    state = outcome.state
    to_move = None if state.is_over else game.console.to_move(state)
    chooser = optional(game, MoveChoices)
    html, style = await drawn_board(game, outcome, me)
    events = await p.service(game).events(game_id)
    remarks = await game.remarks(events, len(events))  # the last step (a step holds an event or more): its verdict
    choices = chooser.move_choices(state, to_move) if chooser is not None and to_move is not None else []
    return render(
        "gui_table.html",
        status=status,
        game_id=game_id,
        name=name,
        title=game.title,
        html=html,
        style=style,
        board=await game.console.board(outcome, me),
        story=" ".join(outcome.story),
        prompt=game.console.prompt(state).strip() if to_move is not None else "",
        choices=choices,
        keys=keys_words(choices),
        said=said,
        remarks=remarks,
        over=state.is_over,
        version=state.version,
        seat=to_move or "",
    )


def keys_words(choices: Sequence[Choice]) -> str:
    """The keys that press the buttons, said once for all: ``0–9`` when they run in a row of digits,
    else each (a game's own: nothing of Hog's dice in Cucumber's words)."""
    keys = [c.key for c in choices if c.key and not c.refused]
    numbers = sorted(int(k) for k in keys if k.isdigit())
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):  # a row of digits: 0–9
        keys = [f"{numbers[0]}–{numbers[-1]}", *(k for k in keys if not k.isdigit())]
    return ", ".join(keys)


QUIT = ("quit", "q", "exit")
"""What leaves the table, as at the terminal: the game is kept."""


async def seated(p: Platform, game_id: str, name: str) -> tuple[Any, Any, str] | None:
    """``game_id`` if it is played here and ``name`` sits at it: the game, as it stands, and their seat's id."""
    with contextlib.suppress(Refusal):
        game = await p.games.of_stored(p.store, game_id)
        if game is None:
            return None
        outcome = await p.service(game).current(game_id)
        row = await (await p.settled_views()).game(game_id)
        seat = console.seat_of(row.seats, name) if row is not None else None
        if outcome.state.place == console.PLACE and seat is not None:
            return game, outcome, seat.player_id
    return None
