"""The database schema, as numbered migrations applied in order on start-up.

``PRAGMA user_version`` records how many have been applied; each runs in its own transaction, so
a crash mid-migration leaves the previous version intact. Never edit a migration that has shipped:
add the next one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

import aiosqlite

from storage.migrations import (
    ANSWERED_BOARDS,
    BOARD_SIZES,
    LISTS_BY_START,
    LIVE_BY_START,
    answers,
    board_size,
    imported,
    members_of,
    mistakes,
    rating_steps,
    running_seasons,
    scored_members,
)

MIGRATIONS: tuple[str, ...] = (
    # 1: the event log; each event remembers the command that appended it (idempotent appends)
    """
    CREATE TABLE events (
        position    INTEGER PRIMARY KEY,
        stream_id   TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        type        TEXT    NOT NULL,
        schema      INTEGER NOT NULL,
        data        BLOB    NOT NULL,
        recorded_at REAL    NOT NULL,
        command_id  TEXT,
        UNIQUE (stream_id, version)
    );
    CREATE INDEX events_by_command ON events (command_id) WHERE command_id IS NOT NULL;
    """,
    # 2: read models of games, rebuilt from the log at will
    """
    CREATE TABLE games (
        game_id     TEXT    PRIMARY KEY,
        place       TEXT    NOT NULL,
        rules       TEXT    NOT NULL,
        goal        INTEGER NOT NULL,
        status      TEXT    NOT NULL,
        score0      INTEGER NOT NULL,
        score1      INTEGER NOT NULL,
        turns       INTEGER NOT NULL,
        winner      INTEGER,
        house       TEXT,
        started_at  REAL    NOT NULL,
        updated_at  REAL    NOT NULL,
        version     INTEGER NOT NULL
    );
    CREATE INDEX games_by_place ON games (place, status);
    CREATE INDEX games_by_status ON games (status);
    CREATE TABLE game_players (
        game_id   TEXT    NOT NULL REFERENCES games (game_id),
        seat      INTEGER NOT NULL,
        player_id TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        house     TEXT,
        result    TEXT,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX game_players_by_player ON game_players (player_id, game_id);
    CREATE TABLE checkpoints (
        name     TEXT    PRIMARY KEY,
        position INTEGER NOT NULL
    );
    """,
    # 3: where each game's board message is, so a timer can edit it long after the command
    """
    CREATE TABLE boards (
        game_id    TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL,
        message_id TEXT NOT NULL
    );
    """,
    # 4: each player's biggest turn of a game, for /hog stats; forgetting the checkpoint makes the
    # projector fold the whole log again, so games played before this migration get theirs too
    """
    ALTER TABLE game_players ADD COLUMN best_turn INTEGER NOT NULL DEFAULT 0;
    DELETE FROM checkpoints WHERE name = 'games';
    """,
    # 5: games whose log cannot be folded (a damaged or impossible event): quarantined, listed for
    # the operator, out of every live list; the rest of the store plays on
    """
    CREATE TABLE damaged (
        game_id TEXT PRIMARY KEY,
        reason  TEXT NOT NULL
    );
    """,
    # 6: the game version each board message last showed, so that a restart can bring every board
    # up to its log (a crash between an append and its board edit leaves one behind); -1: unknown,
    # so boards posted before this migration are redrawn once
    """
    ALTER TABLE boards ADD COLUMN shown_version INTEGER NOT NULL DEFAULT -1;
    """,
    # 7: read models for any game and any number of seats: a game's row says which game it is and
    # holds the game's own fields (Hog's rules and goal) as a JSON object; its seats are rows of
    # their own, each with the seat's facts (Hog's best turn) as a JSON object, and go with their
    # game's row. Derived from the log: the old tables go and the projector folds it all again.
    """
    DROP TABLE game_players;
    DROP TABLE games;
    CREATE TABLE games (
        game_id    TEXT    PRIMARY KEY,
        game       TEXT    NOT NULL,
        place      TEXT    NOT NULL,
        status     TEXT    NOT NULL,
        live       INTEGER NOT NULL,
        version    INTEGER NOT NULL,
        fields     TEXT    NOT NULL,
        started_at REAL    NOT NULL,
        updated_at REAL    NOT NULL
    );
    CREATE INDEX games_by_place ON games (place, live);
    CREATE INDEX games_by_live ON games (live);
    CREATE TABLE seats (
        game_id   TEXT    NOT NULL REFERENCES games (game_id),
        seat      INTEGER NOT NULL,
        player_id TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        bot       TEXT,
        score     INTEGER NOT NULL,
        result    TEXT,
        facts     TEXT    NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_by_player ON seats (player_id, game_id);
    CREATE TRIGGER games_replaced AFTER DELETE ON games BEGIN
        DELETE FROM seats WHERE game_id = old.game_id;
    END;
    DELETE FROM checkpoints WHERE name = 'games';
    """,
    # 8: each game's secret seed, drawn when it is created: every die and deck of the game comes from
    # it, its SHA-256 is shown while it is played, and it is revealed when the game is over
    """
    CREATE TABLE seals (
        game_id TEXT PRIMARY KEY,
        seed    BLOB NOT NULL
    );
    """,
    # 9: ratings, per game and player, from the finished games between people, rated in the order
    # they were decided (``rated``: every such game, counted or not, by the position of the event that
    # decided it); ``places``: the server each place (a Discord channel) is in (Discord's, not the
    # log's: kept by a rebuild); ``members``: who played a rated game in a server, for its leaderboard
    # (from ``rated``, ``seats`` and ``places``). The checkpoint is forgotten so that the games
    # finished before this migration are rated too.
    """
    CREATE TABLE ratings (
        game      TEXT    NOT NULL,
        player_id TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        mu        REAL    NOT NULL,
        sigma     REAL    NOT NULL,
        score     REAL    NOT NULL,
        games     INTEGER NOT NULL,
        PRIMARY KEY (game, player_id)
    );
    CREATE INDEX ratings_by_score ON ratings (game, score DESC, player_id);
    CREATE TABLE rated (
        game_id     TEXT    PRIMARY KEY,
        game        TEXT    NOT NULL,
        place       TEXT    NOT NULL,
        players     TEXT    NOT NULL,
        position    INTEGER NOT NULL,
        finished_at REAL    NOT NULL,
        counted     INTEGER NOT NULL
    );
    CREATE INDEX rated_by_players ON rated (game, players, finished_at);
    CREATE INDEX rated_by_place ON rated (place, game);
    CREATE TABLE places (
        place  TEXT PRIMARY KEY,
        server TEXT NOT NULL
    );
    CREATE TABLE members (
        server    TEXT NOT NULL,
        game      TEXT NOT NULL,
        player_id TEXT NOT NULL,
        PRIMARY KEY (server, game, player_id)
    );
    CREATE TRIGGER places_located AFTER INSERT ON places BEGIN
        INSERT OR IGNORE INTO members (server, game, player_id)
        SELECT new.server, g.game, s.player_id FROM rated g JOIN seats s ON s.game_id = g.game_id
        WHERE g.place = new.place;
    END;
    DELETE FROM checkpoints WHERE name = 'games';
    """,
    # 10: a player's games by time, read by index and no further than the page shown: each seat
    # knows its game's kind, place and last change (``GameViews.history``); the games by time too
    """
    ALTER TABLE seats ADD COLUMN game TEXT NOT NULL DEFAULT '';
    ALTER TABLE seats ADD COLUMN place TEXT NOT NULL DEFAULT '';
    ALTER TABLE seats ADD COLUMN updated_at REAL NOT NULL DEFAULT 0;
    UPDATE seats SET
        game = coalesce((SELECT g.game FROM games g WHERE g.game_id = seats.game_id), ''),
        place = coalesce((SELECT g.place FROM games g WHERE g.game_id = seats.game_id), ''),
        updated_at = coalesce((SELECT g.updated_at FROM games g WHERE g.game_id = seats.game_id), 0);
    CREATE INDEX seats_by_player_time ON seats (player_id, updated_at, game_id);
    CREATE INDEX seats_by_name_time ON seats (name, updated_at, game_id);
    CREATE INDEX games_by_time ON games (updated_at, game_id);
    """,
    # 11: a board that shows its finished game's last version is settled: it can never fall behind
    # again, so the check at start reads only the unsettled ones (live games, the newly finished)
    """
    ALTER TABLE boards ADD COLUMN settled INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX boards_unsettled ON boards (game_id) WHERE settled = 0;
    """,
    # 12: a player's record kept as games are decided (``storage.tallies``): a player's page reads
    # a few rows, not every seat; the log is projected again to tally the games already played
    """
    CREATE TABLE tallies (
        game      TEXT    NOT NULL,
        player_id TEXT    NOT NULL,
        facet     TEXT    NOT NULL,
        value     TEXT    NOT NULL,
        games     INTEGER NOT NULL,
        wins      INTEGER NOT NULL,
        losses    INTEGER NOT NULL,
        draws     INTEGER NOT NULL,
        score     INTEGER NOT NULL,
        current   INTEGER NOT NULL,
        longest   INTEGER NOT NULL,
        PRIMARY KEY (game, player_id, facet, value)
    );
    CREATE TABLE player_facts (
        game         TEXT    NOT NULL,
        player_id    TEXT    NOT NULL,
        fact         TEXT    NOT NULL,
        total        INTEGER NOT NULL,
        best         INTEGER NOT NULL,
        best_game    TEXT,
        best_started REAL NOT NULL,
        PRIMARY KEY (game, player_id, fact)
    );
    ALTER TABLE games ADD COLUMN tallied INTEGER NOT NULL DEFAULT 0;
    DELETE FROM checkpoints WHERE name = 'games';
    """,
    # 13: a past season's table kept once worked out (``seasons.standings``), and a place's finished
    # games by time: a server's season reads its own places' games, not every server's
    """
    CREATE TABLE season_standings (
        server    TEXT    NOT NULL,
        game      TEXT    NOT NULL,
        start     REAL NOT NULL,
        rank      INTEGER NOT NULL,
        player_id TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        mu        REAL NOT NULL,
        sigma     REAL NOT NULL,
        games     INTEGER NOT NULL,
        PRIMARY KEY (server, game, start, rank)
    );
    DROP INDEX games_by_place;
    CREATE INDEX games_by_place ON games (place, live, updated_at);
    CREATE INDEX places_by_server ON places (server, place);
    DROP INDEX seats_by_player;
    """,
    # 14: lists by when a game started, which never changes, so a move writes no index entry: a seat
    # keeps its game's start; live games by place and finished ones by place and time in partial
    # indexes that a move leaves alone (the live flag is written only when it flips)
    LISTS_BY_START,
    # 15: puzzles answered, and the ratings they move (kept by a rebuild)
    answers("REAL"),
    # 16: boards that live in interactions, where the bot may not post (kept by a rebuild)
    ANSWERED_BOARDS,
    # 17: where each imported game came from, and whether it is trusted (kept by a rebuild)
    imported("REAL"),
    # 18: the games being played, newest first, wherever they are (the front page)
    LIVE_BY_START,
    # 19: each player's rating after each rated game (derived: a rebuild fills it)
    rating_steps("REAL"),
    # 20: each player's costly moves, for the trainer (derived: a rebuild fills it for older games)
    mistakes("REAL"),
    # 21: a server's leaderboard read from its members' own index: each carries their score
    scored_members("REAL")
    + f"""
    DROP TRIGGER places_located;
    CREATE TRIGGER places_located AFTER INSERT ON places BEGIN
        INSERT OR IGNORE INTO members (server, game, player_id, score)
        {members_of("new.server", "g.place = new.place")};
    END;
    """,
    # 22: each running season's ratings as far as they were carried (derived: a rebuild forgets them)
    running_seasons("REAL", "BLOB"),
    # 23: each leaderboard's size, kept as its entries come and go
    BOARD_SIZES
    + f"""
    CREATE TRIGGER rating_added AFTER INSERT ON ratings BEGIN {board_size("''", "new.game", "1")}; END;
    CREATE TRIGGER rating_removed AFTER DELETE ON ratings BEGIN {board_size("''", "old.game", "-1")}; END;
    CREATE TRIGGER member_added AFTER INSERT ON members WHEN new.score IS NOT NULL BEGIN
        {board_size("new.server", "new.game", "1")};
    END;
    CREATE TRIGGER member_removed AFTER DELETE ON members WHEN old.score IS NOT NULL BEGIN
        {board_size("old.server", "old.game", "-1")};
    END;
    CREATE TRIGGER member_rated AFTER UPDATE OF score ON members WHEN old.score IS NULL AND new.score IS NOT NULL
    BEGIN {board_size("new.server", "new.game", "1")}; END;
    """,
)


def statements(sql: str) -> list[str]:
    """The statements of a migration, whole (a trigger's body holds semicolons of its own)."""
    done: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            done.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"an incomplete statement in a migration: {pending.strip()[:60]!r}")
    return done


async def migrate(db: aiosqlite.Connection) -> int:
    """Apply the migrations this database lacks; returns its schema version afterwards.

    Raises ``RuntimeError`` for a database written by newer code than this.
    """
    ((current,),) = await db.execute_fetchall("PRAGMA user_version")
    if current > len(MIGRATIONS):
        raise RuntimeError(f"the database has schema version {current}; this code knows up to {len(MIGRATIONS)}")
    for number, sql in enumerate(MIGRATIONS[current:], start=current + 1):
        await db.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements(sql):
                await db.execute(statement)
            await db.execute(f"PRAGMA user_version = {number}")
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
    return len(MIGRATIONS)


def read_only_uri(path: Path | str) -> str:
    """The address that opens ``path`` to read alone (``immutable``: no lock, no journal file made
    beside it), for a database this user may not write (another's file, a read-only folder)."""
    return f"file:{quote(str(Path(path).resolve()))}?immutable=1"


async def current(db: aiosqlite.Connection) -> None:
    """Refuse a database that is read-only to us and not at this code's schema (it cannot be migrated)."""
    ((version,),) = await db.execute_fetchall("PRAGMA user_version")
    if version != len(MIGRATIONS):
        raise sqlite3.OperationalError(
            f"attempt to write a readonly database: its schema (version {version}) needs migrating to "
            f"{len(MIGRATIONS)}, which only a user who may write it can do"
        )
