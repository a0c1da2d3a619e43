"""PostgreSQL's schema: its own numbered migrations, applied in order under an advisory lock (two
processes starting at once migrate one after the other). ``schema_version`` records how many have
been applied. Never edit a migration that has shipped: add the next one, and the one SQLite needs
too (``storage/sqlite/schema.py``): a test checks that both end with the same tables and columns.
"""

from __future__ import annotations

from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

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

PLACE_LOCK = 7_317_004
"""The advisory lock key that makes readers placing events (``hogbot_place``) take turns."""

PLACING = f"""
ALTER TABLE events DROP CONSTRAINT events_pkey;
ALTER TABLE events ALTER COLUMN position DROP NOT NULL;
CREATE UNIQUE INDEX events_by_position ON events (position);
CREATE INDEX events_unplaced ON events (stream_id, version) WHERE position IS NULL;
CREATE FUNCTION hogbot_place() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    head BIGINT;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM events WHERE position IS NULL) THEN
        RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock({PLACE_LOCK});
    -- no wait for the disk: whoever acts on a position for good commits after reading it, and that
    -- commit's flush takes this one with it (the log is flushed in order); lost in a crash, the
    -- events are placed again by the next reader, and nobody had kept their positions
    PERFORM set_config('synchronous_commit', 'off', true);
    SELECT coalesce(max(e.position), 0) INTO head FROM events e;
    -- oldest transaction first: one that wrote after reading another's commit has the later id
    WITH unplaced AS (
        SELECT e.stream_id, e.version, row_number() OVER (ORDER BY age(e.xmin) DESC, e.stream_id, e.version) AS n
        FROM events e WHERE e.position IS NULL
    )
    UPDATE events e SET position = head + u.n FROM unplaced u
    WHERE e.stream_id = u.stream_id AND e.version = u.version AND e.position IS NULL;
END $$;
CREATE FUNCTION hogbot_read(after BIGINT, most INTEGER) RETURNS TABLE (
    "position" BIGINT, stream_id TEXT, version INTEGER, type TEXT, schema INTEGER, data BYTEA,
    recorded_at DOUBLE PRECISION, command_id TEXT
) LANGUAGE plpgsql AS $$
BEGIN
    PERFORM hogbot_place();
    RETURN QUERY SELECT e.position, e.stream_id, e.version, e.type, e.schema, e.data, e.recorded_at, e.command_id
        FROM events e WHERE e.position > after ORDER BY e.position LIMIT most;
END $$;
CREATE FUNCTION hogbot_head() RETURNS BIGINT LANGUAGE plpgsql AS $$
BEGIN
    PERFORM hogbot_place();
    RETURN (SELECT coalesce(max(e.position), 0) FROM events e);
END $$;
"""
"""A commit no longer waits for every other: an event is appended unplaced (``position`` NULL), and
the first reader of the log after its commit (``hogbot_read``, ``hogbot_head``) gives every committed
unplaced event the next positions, one reader at a time. Positions stay gapless, and none is given
below one a reader has seen."""

MIGRATIONS: tuple[str, ...] = (
    # 1: the event log, as SQLite's migration 1
    """
    CREATE TABLE events (
        position    BIGINT           PRIMARY KEY,
        stream_id   TEXT             NOT NULL,
        version     INTEGER          NOT NULL,
        type        TEXT             NOT NULL,
        schema      INTEGER          NOT NULL,
        data        BYTEA            NOT NULL,
        recorded_at DOUBLE PRECISION NOT NULL,
        command_id  TEXT,
        UNIQUE (stream_id, version)
    );
    CREATE INDEX events_by_command ON events (command_id) WHERE command_id IS NOT NULL;
    """,
    # 2: the read models, as SQLite's migrations 2 to 9 left them (storage/sqlite/schema.py says what each is)
    """
    CREATE TABLE games (
        game_id    TEXT             PRIMARY KEY,
        game       TEXT             NOT NULL,
        place      TEXT             NOT NULL,
        status     TEXT             NOT NULL,
        live       INTEGER          NOT NULL,
        version    INTEGER          NOT NULL,
        fields     TEXT             NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX games_by_place ON games (place, live);
    CREATE INDEX games_by_live ON games (live);
    CREATE TABLE seats (
        game_id   TEXT    NOT NULL,
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
    CREATE TABLE checkpoints (name TEXT PRIMARY KEY, position BIGINT NOT NULL);
    CREATE TABLE damaged (game_id TEXT PRIMARY KEY, reason TEXT NOT NULL);
    CREATE TABLE boards (
        game_id       TEXT    PRIMARY KEY,
        channel_id    TEXT    NOT NULL,
        message_id    TEXT    NOT NULL,
        shown_version INTEGER NOT NULL DEFAULT -1
    );
    CREATE TABLE seals (game_id TEXT PRIMARY KEY, seed BYTEA NOT NULL);
    CREATE TABLE ratings (
        game      TEXT             NOT NULL,
        player_id TEXT             NOT NULL,
        name      TEXT             NOT NULL,
        mu        DOUBLE PRECISION NOT NULL,
        sigma     DOUBLE PRECISION NOT NULL,
        score     DOUBLE PRECISION NOT NULL,
        games     INTEGER          NOT NULL,
        PRIMARY KEY (game, player_id)
    );
    CREATE INDEX ratings_by_score ON ratings (game, score DESC, player_id);
    CREATE TABLE rated (
        game_id     TEXT             PRIMARY KEY,
        game        TEXT             NOT NULL,
        place       TEXT             NOT NULL,
        players     TEXT             NOT NULL,
        position    BIGINT           NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        counted     INTEGER          NOT NULL
    );
    CREATE INDEX rated_by_players ON rated (game, players, finished_at);
    CREATE INDEX rated_by_place ON rated (place, game);
    CREATE TABLE places (place TEXT PRIMARY KEY, server TEXT NOT NULL);
    CREATE TABLE members (
        server    TEXT NOT NULL,
        game      TEXT NOT NULL,
        player_id TEXT NOT NULL,
        PRIMARY KEY (server, game, player_id)
    );
    CREATE FUNCTION places_located() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO members (server, game, player_id)
        SELECT NEW.server, g.game, s.player_id FROM rated g JOIN seats s ON s.game_id = g.game_id
        WHERE g.place = NEW.place
        ON CONFLICT DO NOTHING;
        RETURN NEW;
    END $$;
    CREATE TRIGGER places_located AFTER INSERT ON places FOR EACH ROW EXECUTE FUNCTION places_located();
    """,
    # 3: derived files every process shares (storage.shelves): Hog's solved rule sets
    "CREATE TABLE shelf (name TEXT PRIMARY KEY, data BYTEA NOT NULL)",
    # 4: as SQLite's 10: a player's games by time, by index
    """
    ALTER TABLE seats ADD COLUMN game TEXT NOT NULL DEFAULT '';
    ALTER TABLE seats ADD COLUMN place TEXT NOT NULL DEFAULT '';
    ALTER TABLE seats ADD COLUMN updated_at DOUBLE PRECISION NOT NULL DEFAULT 0;
    UPDATE seats SET
        game = coalesce((SELECT g.game FROM games g WHERE g.game_id = seats.game_id), ''),
        place = coalesce((SELECT g.place FROM games g WHERE g.game_id = seats.game_id), ''),
        updated_at = coalesce((SELECT g.updated_at FROM games g WHERE g.game_id = seats.game_id), 0);
    CREATE INDEX seats_by_player_time ON seats (player_id, updated_at, game_id);
    CREATE INDEX seats_by_name_time ON seats (name, updated_at, game_id);
    CREATE INDEX games_by_time ON games (updated_at, game_id);
    """,
    # 5: as SQLite's 11: boards settled, the check at start by index
    """
    ALTER TABLE boards ADD COLUMN settled INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX boards_unsettled ON boards (game_id) WHERE settled = 0;
    """,
    # 6: as SQLite's 12: a player's record kept as games are decided
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
        score     BIGINT NOT NULL,
        current   INTEGER NOT NULL,
        longest   INTEGER NOT NULL,
        PRIMARY KEY (game, player_id, facet, value)
    );
    CREATE TABLE player_facts (
        game         TEXT    NOT NULL,
        player_id    TEXT    NOT NULL,
        fact         TEXT    NOT NULL,
        total        BIGINT NOT NULL,
        best         BIGINT NOT NULL,
        best_game    TEXT,
        best_started DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, player_id, fact)
    );
    ALTER TABLE games ADD COLUMN tallied INTEGER NOT NULL DEFAULT 0;
    DELETE FROM checkpoints WHERE name = 'games';
    """,
    # 7: as SQLite's 13: past seasons kept, a place's finished games by time
    """
    CREATE TABLE season_standings (
        server    TEXT    NOT NULL,
        game      TEXT    NOT NULL,
        start     DOUBLE PRECISION NOT NULL,
        rank      INTEGER NOT NULL,
        player_id TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        mu        DOUBLE PRECISION NOT NULL,
        sigma     DOUBLE PRECISION NOT NULL,
        games     INTEGER NOT NULL,
        PRIMARY KEY (server, game, start, rank)
    );
    DROP INDEX games_by_place;
    CREATE INDEX games_by_place ON games (place, live, updated_at);
    CREATE INDEX places_by_server ON places (server, place);
    DROP INDEX seats_by_player;
    """,
    # 8: as SQLite's 14: lists by when a game started; a move changes no indexed column, so its
    # update is a heap-only tuple
    LISTS_BY_START,
    # 9: puzzles answered, and the ratings they move (kept by a rebuild)
    answers("DOUBLE PRECISION"),
    # 10: boards that live in interactions, where the bot may not post (kept by a rebuild)
    ANSWERED_BOARDS,
    # 11: where each imported game came from, and whether it is trusted (kept by a rebuild)
    imported("DOUBLE PRECISION"),
    # 12: the games being played, newest first, wherever they are (the front page)
    LIVE_BY_START,
    # 13: each player's rating after each rated game (derived: a rebuild fills it)
    rating_steps("DOUBLE PRECISION"),
    # 14: appends take no lock shared by all games; the first reader after a commit places its events
    # in the global order (storage/postgres/store.py, docs/postgres.md)
    PLACING,
    # 15: each player's costly moves, for the trainer (derived: a rebuild fills it for older games)
    mistakes("DOUBLE PRECISION"),
    # 16: as SQLite's 21: a server's leaderboard read from its members' own index
    scored_members("DOUBLE PRECISION")
    + f"""
    CREATE OR REPLACE FUNCTION places_located() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO members (server, game, player_id, score)
        {members_of("NEW.server", "g.place = NEW.place")}
        ON CONFLICT DO NOTHING;
        RETURN NEW;
    END $$;
    """,
    # 17: as SQLite's 22: each running season's ratings as far as they were carried (derived: a rebuild forgets them)
    running_seasons("DOUBLE PRECISION", "BYTEA"),
    # 18: as SQLite's 23: each leaderboard's size, kept as its entries come and go
    BOARD_SIZES
    + f"""
    CREATE FUNCTION ratings_sized() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'INSERT' THEN {board_size("''", "NEW.game", "1")};
        ELSE {board_size("''", "OLD.game", "-1")};
        END IF;
        RETURN NULL;
    END $$;
    CREATE TRIGGER ratings_sized AFTER INSERT OR DELETE ON ratings FOR EACH ROW EXECUTE FUNCTION ratings_sized();
    CREATE FUNCTION members_sized() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP <> 'DELETE' AND NEW.score IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.score IS NULL) THEN
            {board_size("NEW.server", "NEW.game", "1")};
        ELSIF TG_OP = 'DELETE' AND OLD.score IS NOT NULL THEN
            {board_size("OLD.server", "OLD.game", "-1")};
        END IF;
        RETURN NULL;
    END $$;
    CREATE TRIGGER members_sized AFTER INSERT OR DELETE OR UPDATE OF score ON members
        FOR EACH ROW EXECUTE FUNCTION members_sized();
    """,
)


MIGRATION_LOCK = 7_317_001
"""The advisory lock key that makes two processes starting at once migrate one after the other."""


async def migrate(db: asyncpg.Connection[Any] | PoolConnectionProxy[Any]) -> int:
    """Apply the migrations this database lacks; returns its schema version afterwards."""
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = await db.fetchval("SELECT max(version) FROM schema_version") or 0
        if current > len(MIGRATIONS):
            raise RuntimeError(f"the database has schema version {current}; this code knows up to {len(MIGRATIONS)}")
        for number, sql in enumerate(MIGRATIONS[current:], start=current + 1):
            await db.execute(sql)
            await db.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
    return len(MIGRATIONS)
