"""``python -m bot`` / ``hogbot``: play any installed game in the terminal, run the Discord bot, and
look at the games stored.

python -m bot                   play Hog against the house (``python -m bot play --help``); with a token, run the bot
python -m bot GAME              play any installed game in this terminal (``python -m bot games`` lists them)
python -m bot discord           run the Discord bot (``DISCORD_TOKEN``)
python -m bot web               every game's page, its replay step by step, live while it is played
python -m bot replay GAME_ID    any stored game again, step by step (``--step N``, ``--picture``/``--gif FILE``)
python -m bot history           every game stored here, newest first (``--name NAME``, or ``--player ID``)
python -m bot stats             a player's record in a game (``--game cucumber``; ``--name NAME`` or ``--player ID``)
python -m bot leaderboard       the players of a game by rating (``--game``, ``--server ID``, ``--page N``)
python -m bot verify GAME_ID    a finished game's dice or cards checked against its revealed seed (exit 0: fair)
python -m bot damaged           the games set aside because their log cannot be read (exit 1 if any)
python -m bot rebuild           the read models recomputed from the log
python -m bot migrate           create or upgrade the database's schema (``HOG_DB``, or ``HOG_DATABASE_URL``)
python -m bot copy-store        move a history from SQLite to PostgreSQL (``--from sqlite:///F --to postgresql://...``)

and each game's own commands (Hog's ``compare``, ``simulate``, ``rules``, ``puzzle``, ``train``, ``analyze``,
``contest``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import csv
import errno
import os
import sys
import webbrowser
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TextIO, TypeVar

from tqdm import tqdm

from bot import console
from bot.discord import process
from bot.platform import export as export_games
from bot.platform import importing as import_games
from bot.platform.compose import Platform, open_backend, platform
from bot.platform.contract import Refusal, Replay, Subcommand, UnfitGame
from bot.platform.contract import command as subcommand
from bot.platform.fairness import UNCHECKED, verify
from bot.platform.names import checked, folded
from bot.platform.registry import LEGACY, AnyGame, Games, installed
from bot.platform.service import GameDamaged
from bot.platform.settings import Settings, SettingsError
from bot.platform.tournaments.terminal import list_tournaments, show_tournament
from bot.web.serve import serve
from storage.copying import CopyRefused, copy_store
from storage.errors import OPENING_ERRORS
from storage.events import StoreError


async def rebuild(p: Platform, out: TextIO) -> None:
    """The read models projected afresh from the whole log, aside, then put in place of the old ones;
    a progress bar on stderr meanwhile (a rebuild stopped halfway goes on from where it was)."""
    with tqdm(unit="event", file=sys.stderr, disable=None, leave=False, desc="Rebuilding") as bar:

        def told(done: int, total: int) -> None:
            if bar.total is None and done:
                print(f"Going on with the rebuild stopped at event {done} of {total}.", file=sys.stderr)
            bar.total, bar.n = total, done
            bar.refresh()

        position = await p.projector.rebuild(progress=told)
    games = len(await p.views.live_games()), await p.views.count()
    print(
        f"Rebuilt the read models of {p.settings.where} from {position} events: {games[1]} games, {games[0]} live.",
        file=out,
    )


async def list_damaged(p: Platform, out: TextIO) -> int:
    """The games whose log cannot be folded, and why, checked afresh from the log; exit status 1
    when there are any (a health check)."""
    damaged, db = await p.projector.check(), p.settings.where
    for game_id, reason in damaged:
        print(f"{game_id}  {reason}", file=out)
    print(f"{len(damaged)} damaged game{'s' if len(damaged) != 1 else ''} in {db}.", file=out)
    return 1 if damaged else 0


async def migrate(settings: Settings, out: TextIO) -> None:
    """Create or upgrade the schema of the games' database, and say so (the bot does it on start too;
    an operator runs it before starting several processes)."""
    await (await open_backend(settings)).close()
    print(f"The database {settings.where} is ready (its schema is up to date).", file=out)


KEPT_WORDS = {
    "seals": ("seal", "seals"),
    "boards": ("board", "boards"),
    "places": ("place", "places"),
    "imported": ("imported game's origin", "imported games' origins"),
}
"""What ``copy-store`` says it copied besides the log, one and many."""


async def copy_history(settings: Settings, source: str, target: str, out: TextIO) -> None:
    """Copy an SQLite history into an empty PostgreSQL database, check it, and project its read models."""
    before, _ = await copy_store(source, target)
    print(
        f"Copied {before.events:,} events of {before.streams:,} games "
        f"(SHA-256 {before.digest[:16]}… on both sides), "
        + ", ".join(f"{n:,} {KEPT_WORDS[table][n != 1]}" for table, (n, _) in before.kept.items())
        + ": the copy matches its source.",
        file=out,
    )
    async with platform(replace(settings, database_url=target)) as p:  # the read models, from the copied log
        print(f"Projected the read models: {await p.views.count():,} games. Set HOG_DATABASE_URL to use it.", file=out)


def day(text: str) -> float:
    """A day (``YYYY-MM-DD``, UTC), for argparse: its first second."""
    try:
        return export_games.day_start(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a day written YYYY-MM-DD") from None


async def export_to(p: Platform, asked: export_games.Asked, path: Path | None, out: TextIO) -> int:
    """The games asked for, a line each, to ``path`` (or ``out``); how many, on stderr, with a bar
    on a terminal."""
    count = 0
    with contextlib.ExitStack() as stack:
        file = stack.enter_context(path.open("wb")) if path is not None else None
        bar = stack.enter_context(tqdm(unit="game", file=sys.stderr, disable=None, leave=False, desc="Exporting"))
        async for line in export_games.exported(p, asked):
            if file is not None:
                file.write(line)
            else:
                out.write(line.decode())
            count += 1
            bar.update()
    print(exported_words(p, count, "game", path), file=sys.stderr)
    return 0


def exported_words(p: Platform, count: int, what: str, path: Path | None) -> str:
    """What an export wrote, from which database (an export run in the wrong folder reads an empty
    one: the name says so), and to which file."""
    said = f"Exported {count} {what}{'s' * (count != 1)} from {p.settings.where}"
    if count == 0:
        said += " (HOG_DB names another file)"
    return said + (f" to {path}." if path else ".")


async def turns_to(p: Platform, asked: export_games.Asked, path: Path | None, out: TextIO) -> int:
    """Hog's turns of the games asked for as CSV, its columns first, to ``path`` (or ``out``)."""
    count = -1  # the columns' row is not a turn
    with contextlib.ExitStack() as stack:
        written = stack.enter_context(path.open("w", newline="")) if path is not None else out
        table = csv.writer(written)
        async for row in export_games.turns_exported(p, asked):
            table.writerow(row)
            count += 1
    print(exported_words(p, count, "turn", path), file=sys.stderr)
    return 0


async def import_from(p: Platform, path: Path, out: TextIO, *, trust: bool = False) -> int:
    """An export's finished games stored here, each proven first; what was done, said. Exit status 1
    if a line was refused."""
    if not path.is_file():
        raise Refusal(f"There is no file {str(path)!r} to import.")
    with path.open("rb") as file:
        done = await import_games.import_lines(p, import_games.lines_of(file), str(path.resolve()), trust=trust)
    print(done.text(), file=out)
    return 1 if done.refused else 0


def output(suffix: str) -> Callable[[str], Path]:
    """A file to write, for argparse: its folder must exist and its name end in ``suffix``."""

    def path(text: str) -> Path:
        p = Path(text)
        if p.suffix.lower() != suffix:
            raise argparse.ArgumentTypeError(f"{text!r} must end in {suffix} (that is the file it will be)")
        if not p.parent.is_dir():
            raise argparse.ArgumentTypeError(f"there is no folder {str(p.parent)!r} to write {p.name} in")
        return p

    return path


T = TypeVar("T")


def on_platform(settings: Settings, work: Callable[[Platform], Awaitable[T]], modules: Mapping[str, str] | None) -> T:
    """``work`` done on the platform over the games' database, opened and closed around it."""

    async def run() -> T:
        async with platform(settings, modules) as p:
            return await work(p)

    return asyncio.run(run())


async def check_fair(p: Platform, game_id: str, out: TextIO) -> int:
    """Verify a game by the module that wrote it; the exit status is 0 only for a fair game."""
    game = await p.games.of_stored(p.store, game_id)
    if game is None:
        print(f"There is no game {game_id!r} in {p.settings.where}.", file=out)
        return UNCHECKED
    verdict = await verify(p.service(game), p.kept, game_id)
    print(verdict.text, file=out)
    origin = await p.kept.provenance(game_id)
    if origin is not None:
        day = datetime.fromtimestamp(origin.at, UTC).strftime("%Y-%m-%d")
        counted = (
            "trusted: it counts" if origin.trusted else "not trusted: it counts toward no rating, record or season"
        )
        print(f"Imported from {origin.source} on {day} ({counted}).", file=out)
    return verdict.status


async def show_stats(p: Platform, game: str, player: str, out: TextIO) -> None:
    """The player's record in ``game``, by its console front."""
    await p.games[game].console.stats(await p.settled_views(), player, out)


def paced(stdin: TextIO, out: TextIO) -> Callable[[], Awaitable[bool]]:
    """A replay's pause at a terminal: Enter shows the next step, ``q`` (or the end of input) stops."""

    async def pause() -> bool:
        print("── Enter: the next step · q: stop ──", end=" ", file=out, flush=True)
        line = await asyncio.to_thread(stdin.readline)
        return bool(line) and line.strip().lower() not in ("q", "quit")

    return pause


async def replay_any(p: Platform, game_id: str, out: TextIO, asked: Replay) -> None:
    """Any stored game step by step, by the console of the game that wrote it."""
    game = await p.games.of_stored(p.store, game_id)
    if game is None:
        raise Refusal(f"There is no game {game_id!r} in {p.settings.where}.")
    try:
        await game.console.replay(await p.service(game).events(game_id), game_id, out, asked)
    except GameDamaged as damaged:
        raise Refusal(
            f"Game {game_id} cannot be replayed: {damaged.reason}. python -m bot damaged lists every game set aside."
        ) from damaged


def add_player_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--name",
        help=f"your name: your games are kept under it (default: {console.DEFAULT_NAME}; "
        "with --resume, the name in that game)",
    )
    parser.add_argument("--resume", metavar="GAME", help="go on with this unfinished game (its id: see history)")
    parser.add_argument("--new", action="store_true", help="start a new game without offering to resume one")


def _play(
    settings: Settings,
    game: AnyGame,
    stdin: TextIO,
    modules: Mapping[str, str] | None,
    args: argparse.Namespace,
    out: TextIO,
) -> int:
    """One game at this keyboard. Ctrl-C leaves the game saved, as ``quit`` does (exit status 130).
    A new game is checked before the database is opened: a bad option changes nothing."""
    given = checked(args.name, "Your name") if args.name is not None else None  # --resume alone: the game's own
    args = argparse.Namespace(**{**vars(args), "name": given or console.DEFAULT_NAME})
    new = game.console.new_game(args, console.player_id(args.name), args.name)

    async def work(p: Platform) -> None:
        conflicts = partial(game.console.conflicts, args)
        name = given if args.resume is not None else args.name
        await console.play(p, p.games[game.name], name, stdin, out, new, args.resume, not args.new, conflicts)

    try:
        on_platform(settings, work, modules)
    except KeyboardInterrupt:
        return 130
    return 0


def program() -> str:
    """The name the user typed: ``hogbot`` (the installed script) or ``python -m bot``."""
    return "hogbot" if Path(sys.argv[0]).stem == "hogbot" else "python -m bot"


def fail(message: str, status: int = 2) -> int:
    """An error as a person reads it: one line on stderr, no usage and no traceback. The status is 2
    for a request that cannot be done (as for a malformed command line), 1 when the database fails."""
    print(f"{program()}: {message}", file=sys.stderr)
    return status


def plays_of(games: Games) -> dict[str, str]:
    """Which command plays which game: ``play`` (the default) and ``hog`` are Hog, each other game its name."""
    return {"play": LEGACY} | {name: name for name in games}


def person(args: argparse.Namespace) -> str:
    """The player a stats or leaderboard command is about: a Discord user by id, else a name here."""
    return str(args.player or console.player_id(args.name))


async def found_person(p: Platform, args: argparse.Namespace) -> str:
    """``person``, with a name here typed in another case (or width) found as it was written: names
    are compared in their folded form (``bot.platform.names``). Refused when two players fold alike."""
    asked = person(args)
    if args.player or not args.name:
        return asked
    views = await p.settled_views()
    if await views.history(asked, limit=1):
        return asked
    alike = [i for i, name in await views.players_named(console.player_id("")) if folded(name) == folded(args.name)]
    if len(set(alike)) > 1:
        names = ", ".join(sorted({console.shown(i) for i in alike}))
        raise Refusal(f"Several players here are called {args.name!r}: {names}. Type the name as it is written.")
    return alike[0] if alike else asked


def people(name: str, helptext: str, run: Callable[[argparse.Namespace, TextIO], int], games: Games) -> Subcommand:
    """A command about the players (history, stats, leaderboard): a player here by name, or a
    Discord user by id; ``--page`` where there are pages, ``--game`` where a game is meant."""

    def arguments(p: argparse.ArgumentParser) -> None:
        person = p.add_mutually_exclusive_group()
        default = "every game" if name == "history" else console.DEFAULT_NAME
        person.add_argument(
            "--name",
            default=None if name == "history" else console.DEFAULT_NAME,
            help=f"a player at this terminal, by name (default: {default})",
        )
        person.add_argument("--player", metavar="ID", help="a Discord user, by id")
        if name in ("history", "leaderboard"):
            p.add_argument("--page", type=int, default=1, help="which page of ten (default: 1)")
        if name in ("stats", "leaderboard"):
            p.add_argument("--game", choices=list(games), default=LEGACY, help=f"which game (default: {LEGACY})")
        if name == "leaderboard":
            p.add_argument("--server", metavar="ID", help="only the players of this Discord server (its id)")
            p.add_argument(
                "--season", type=int, metavar="N", help="that server's season N (0: the season now), not all time"
            )

    return Subcommand(name, helptext, arguments, run)


def own_commands(
    settings: Settings, games: Games, stdin: TextIO, modules: Mapping[str, str] | None
) -> list[Subcommand]:
    """The commands of ``python -m bot`` that are the platform's own (a table per game, the commands
    on stored games, the servers), as a game brings its own: each its name, help, options and run."""

    def done(status: int | None = None) -> int:
        return 0 if status is None else status

    def on(work: Callable[[Platform], Awaitable[T]]) -> T:
        return on_platform(settings, work, modules)

    found = []
    for name, game in plays_of(games).items():
        where = "against the house " if game == LEGACY else ""
        what = f"play {games[game].title} {where}in this terminal" + (
            " (the default command)" if name == "play" else ""
        )

        def table(p: argparse.ArgumentParser, game: str = game) -> None:
            games[game].console.add_arguments(p)
            add_player_arguments(p)

        found.append(Subcommand(name, what, table, partial(_play, settings, games[game], stdin, modules)))

    def serving(gui: bool) -> Callable[[argparse.Namespace, TextIO], int]:
        return lambda args, out: web_or_gui(settings, args, out, modules, gui=gui)

    def web(p: argparse.ArgumentParser) -> None:
        p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
        p.add_argument("--port", type=int, default=8080, help="the port to listen on (default: 8080)")

    def gui(p: argparse.ArgumentParser) -> None:
        p.add_argument("--port", type=int, default=8081, help="the port on 127.0.0.1 (default: 8081)")
        p.add_argument("--no-browser", action="store_true", help="print the address without opening a browser")

    def game_id(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", metavar="GAME", help="the game's id (see history)")

    def copying(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--from", dest="source", required=True, metavar="sqlite:///FILE", help="the SQLite history to copy"
        )
        p.add_argument(
            "--to", dest="target", required=True, metavar="postgresql://...", help="the empty PostgreSQL database"
        )

    def replaying(p: argparse.ArgumentParser) -> None:
        game_id(p)
        p.add_argument("--step", type=int, help="show only this step (from 1)")
        p.add_argument(
            "--all", action="store_true", help="every step at once (at a terminal, Enter shows the next: q stops)"
        )
        p.add_argument(
            "--picture", type=output(".png"), metavar="FILE", help="save the picture of the game here (.png)"
        )
        p.add_argument(
            "--gif", type=output(".gif"), metavar="FILE", help="save the game drawn step by step here (.gif)"
        )

    def tournaments(p: argparse.ArgumentParser) -> None:
        p.add_argument("tournament", nargs="?", metavar="ID", help="show this one: rounds, games, standings")
        p.add_argument("--server", metavar="ID", help="only the tournaments of this Discord server")
        p.add_argument(
            "--picture", type=output(".png"), metavar="FILE", help="save the tournament's standings drawn here (.png)"
        )

    def tournament(args: argparse.Namespace, out: TextIO) -> int:
        if args.tournament is None:
            return done(on(lambda p: list_tournaments(p, out, args.server)))
        return done(on(lambda p: show_tournament(p, args.tournament, out, args.picture)))

    def rebuilding(args: argparse.Namespace, out: TextIO) -> int:
        async def rebuilt() -> None:  # not caught up first: the rebuild projects every event anyway, once
            async with platform(settings, modules, catch_up=False) as p:
                await rebuild(p, out)

        asyncio.run(rebuilt())
        return 0

    def nothing(p: argparse.ArgumentParser) -> None:
        pass

    def exporting(p: argparse.ArgumentParser) -> None:
        p.add_argument("--game", metavar="ID", help="only this game")
        person = p.add_mutually_exclusive_group()
        person.add_argument("--name", help="only the games of a player at this terminal, by name")
        person.add_argument("--player", metavar="ID", help="only the games of a Discord user, by id")
        p.add_argument("--server", metavar="ID", help="only the games played in this Discord server")
        p.add_argument("--since", type=day, metavar="YYYY-MM-DD", help="only the games started that day or later (UTC)")
        p.add_argument(
            "--format",
            choices=("ndjson", "csv"),
            default="ndjson",
            help="ndjson: a game a line, its log and seed (default); csv: Hog's turns, a row each, for a notebook",
        )
        p.add_argument("-o", "--output", type=Path, metavar="FILE", help="write to this file (default: the screen)")

    def export(args: argparse.Namespace, out: TextIO) -> int:
        asked = export_games.Asked(args.game, args.player, args.name, args.server, args.since)
        if args.format == "csv":
            return on(lambda p: turns_to(p, asked, args.output, out))
        return on(lambda p: export_to(p, asked, args.output, out))

    def importing(p: argparse.ArgumentParser) -> None:
        p.add_argument("file", type=Path, metavar="FILE", help="an export (python -m bot export -o FILE)")
        p.add_argument(
            "--trust",
            action="store_true",
            help="count its games toward ratings, records and seasons (a seal proves the dice, not who played)",
        )

    def import_file(args: argparse.Namespace, out: TextIO) -> int:
        return on(lambda p: import_from(p, args.file, out, trust=args.trust))

    def listing(args: argparse.Namespace, out: TextIO) -> int:
        list_games(games, out)
        return 0

    def discord(args: argparse.Namespace, out: TextIO) -> int:
        return run_discord(settings)

    def verifying(args: argparse.Namespace, out: TextIO) -> int:
        return on(lambda p: check_fair(p, args.game, out))

    def damaged(args: argparse.Namespace, out: TextIO) -> int:
        return on(lambda p: list_damaged(p, out))

    def migrating(args: argparse.Namespace, out: TextIO) -> int:
        asyncio.run(migrate(settings, out))
        return 0

    def copy(args: argparse.Namespace, out: TextIO) -> int:
        asyncio.run(copy_history(settings, args.source, args.target, out))
        return 0

    def replay(args: argparse.Namespace, out: TextIO) -> int:
        reading = args.step is None and not args.all and stdin.isatty() and out.isatty()
        asked = Replay(args.step, args.picture, args.gif, paced(stdin, out) if reading else None)
        return done(on(lambda p: replay_any(p, args.game, out, asked)))

    def history(args: argparse.Namespace, out: TextIO) -> int:
        return done(on(lambda p: console.list_history(p, out, args.page, args.name, args.player)))

    def stats(args: argparse.Namespace, out: TextIO) -> int:
        async def shown(p: Platform) -> None:
            await show_stats(p, args.game, await found_person(p, args), out)

        return done(on(shown))

    def leaderboard(args: argparse.Namespace, out: TextIO) -> int:
        async def shown(p: Platform) -> None:
            asked = (args.game, await found_person(p, args), out, args.page, args.server, args.season)
            await console.list_leaderboard(p, *asked)

        return done(on(shown))

    return [
        *found,
        Subcommand("games", "the games installed here, with their commands and settings", nothing, listing),
        Subcommand(
            "web", "serve every game's page: its replay step by step, live while it is played", web, serving(False)
        ),
        Subcommand(
            "gui", "play any game in your browser, on this computer only (the course's GUI)", gui, serving(True)
        ),
        Subcommand(
            "discord", "run the Discord bot (DISCORD_TOKEN; the same as no command when it is set)", nothing, discord
        ),
        Subcommand(
            "rebuild", "recompute the read models (history, stats, ratings) from the event log", nothing, rebuilding
        ),
        Subcommand("verify", "check a finished game's dice or cards against its revealed seed", game_id, verifying),
        Subcommand(
            "damaged", "list the games whose log cannot be read, set aside from play (exit 1 if any)", nothing, damaged
        ),
        Subcommand(
            "migrate", "create or upgrade the database's schema (the bot does it on start too)", nothing, migrating
        ),
        Subcommand("copy-store", "move every game from an SQLite file to an empty PostgreSQL database", copying, copy),
        Subcommand("replay", "watch a stored game again, step by step", replaying, replay),
        Subcommand(
            "export", "every game (or a player's, a server's), one JSON line a game: yours to keep", exporting, export
        ),
        Subcommand(
            "import",
            "store the finished games of an export here, each proven by its seed (counted in ratings with --trust)",
            importing,
            import_file,
        ),
        Subcommand(
            "tournaments",
            "the Discord servers' tournaments (Swiss, round robin, knockout), newest first, or one in full",
            tournaments,
            tournament,
        ),
        people("history", "games, newest first: every game in the database, or one player's", history, games),
        people("stats", "a player's record in a game", stats, games),
        people("leaderboard", "the players of a game by rating, and your place", leaderboard, games),
    ]


def parser_for(games: Games, commands: Sequence[Subcommand]) -> argparse.ArgumentParser:
    """The command line: the platform's own commands, then each game's (a game's may not take a name
    that is taken)."""
    titles = " and ".join(game.title for game in games.values())
    parser = argparse.ArgumentParser(
        prog=program(),
        description=f"Play {titles} in this terminal, replay and study every stored game, or run the "
        "Discord bot: with DISCORD_TOKEN set, python -m bot with no command runs it. With no command it "
        "plays Hog against the house.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for brought in commands:
        if brought.name in sub.choices:
            raise ValueError(f"a command {brought.name!r} is brought twice")
        brought.arguments(subcommand(sub, brought.name, brought.help))
    return parser


def with_games(own: Sequence[Subcommand], games: Games) -> list[Subcommand]:
    """The platform's commands and then each game's own, its title in its help line."""
    taken = {c.name for c in own}
    found = list(own)
    for module in games.values():
        for brought in module.subcommands:
            if brought.name in taken:
                raise ValueError(f"the game {module.name!r} brings a command {brought.name!r}, which is taken")
            found.append(replace(brought, help=f"{brought.help} ({module.title})"))
            taken.add(brought.name)
    return found


def list_games(games: Games, out: TextIO) -> None:
    """The installed games: each one's distribution and version, how to play it, its commands and settings."""
    found = {game.name: game for game in installed()}
    for name, game in games.items():
        where = found.get(name)
        origin = f"{where.distribution} {where.version}" if where else "not installed (given by the caller)"
        print(f"{name:<10} {game.title:<10} {origin:<24} play: {console.command_for(name)}", file=out)
        for command in game.subcommands:
            print(f"{'':<11}python -m bot {command.name}: {command.help}", file=out)
        for variable, meaning in game.settings:
            print(f"{'':<11}{variable}: {meaning}", file=out)


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    modules: Mapping[str, str] | None = None,
) -> int:
    """``python -m bot``: the games of ``modules`` (``name: module:factory``), or every installed one."""
    out = stdout or sys.stdout
    try:
        settings = Settings.from_env()
        games = Games.load(settings, modules)
    except SettingsError as error:
        return fail(str(error))
    except UnfitGame as error:  # a plugin that cannot be played: said, and nothing runs
        return fail(str(error), 1)
    commands = with_games(own_commands(settings, games, stdin or sys.stdin, modules), games)
    parser = parser_for(games, commands)
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["discord"] or (not argv and settings.token):  # the bot itself
        return run_discord(settings)
    if not argv or argv[0] not in ({c.name for c in commands} | {"-h", "--help"}):
        argv.insert(0, "play")  # ``python -m bot --rules sp16`` plays, as ``python -m bot play --rules sp16``
    args = parser.parse_args(argv)
    refusals: tuple[type[Exception], ...] = (Refusal, *(game.refusal for game in games.values()))
    try:
        return next(c for c in commands if c.name == args.command).run(args, out)
    except refusals as error:
        return fail(getattr(error, "message", str(error)))
    except CopyRefused as error:
        return fail(str(error), 1)
    except BrokenPipeError:  # ``python -m bot replay g1 | head``: the reader left, which is no error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so exit's flush stays quiet
    except TROUBLE as error:
        return fail(trouble(settings.where, error), 1)
    return 0


TROUBLE: tuple[type[Exception], ...] = (StoreError, *OPENING_ERRORS)
"""What a database (or the machine under it) raises that ``trouble`` puts in words."""


def trouble(where: str, error: Exception) -> str:
    """What went wrong with the database (or the machine) as a sentence a player can act on: a busy
    database, a full disk, a read-only file and a busy port each named, and what is kept."""
    said = str(error).lower()
    kept = "Nothing is lost: every move stored is kept, and python -m bot takes an unfinished game up where it stopped"
    if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
        return "Another program is listening on that port already: choose another with --port."
    if "locked" in said or "busy" in said:
        return (
            f"The database {where} is busy: another program (a bot, another terminal) held it for 5 seconds. "
            f"{kept} once it is free."
        )
    if "full" in said or "disk i/o" in said or (isinstance(error, OSError) and error.errno == errno.ENOSPC):
        return f"The disk holding {where} is full, or cannot be written. {kept} once there is room."
    if "readonly" in said or "read-only" in said:
        return f"The database {where} is read-only to you: games can be played and stored only where you may write."
    return f"cannot use the database {where}: {error}"


def run_discord(settings: Settings) -> int:
    """The Discord bot, until it is stopped (the token from the environment, never logged)."""
    if not settings.token:
        return fail("DISCORD_TOKEN is not set: give the bot's token from the Developer Portal (Bot, Reset Token).")
    process.setup_logging()  # to stderr; the token is never logged
    return process.run_bot(settings)


def web_or_gui(
    settings: Settings, args: argparse.Namespace, out: TextIO, modules: Mapping[str, str] | None, *, gui: bool
) -> int:
    """The web pages (or, ``gui``, the GUI on this computer alone) until Ctrl-C or SIGTERM."""
    host = "127.0.0.1" if gui else args.host  # the GUI plays for this computer's person alone
    where = f"http://{host}:{args.port}/" + ("play" if gui else "")
    doing = "Play" if gui else f"Serving the games of {settings.where}"

    def ready() -> None:
        print(f"{doing} at {where} (Ctrl-C stops)", file=out, flush=True)
        if gui and not args.no_browser:
            webbrowser.open(where)  # where there is one; nothing happens where there is none

    try:
        asyncio.run(serve(settings, host, args.port, modules, gui=gui, ready=ready))
    except KeyboardInterrupt:
        return 130
    except asyncio.CancelledError:  # SIGTERM: stopped cleanly
        return 0
    return 0
