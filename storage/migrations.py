"""Migrations whose SQL is the same on SQLite and PostgreSQL, written once for both backends' lists
(``storage/sqlite/schema.py``, ``storage/postgres/schema.py``); the others differ in their types."""

LISTS_BY_START = """
    DROP INDEX seats_by_player_time;
    DROP INDEX seats_by_name_time;
    DROP INDEX games_by_time;
    DROP INDEX games_by_place;
    DROP INDEX games_by_live;
    ALTER TABLE seats RENAME COLUMN updated_at TO started_at;
    UPDATE seats SET started_at = coalesce((SELECT g.started_at FROM games g WHERE g.game_id = seats.game_id), 0);
    CREATE INDEX seats_by_player_time ON seats (player_id, started_at, game_id);
    CREATE INDEX seats_by_name_time ON seats (name, started_at, game_id);
    CREATE INDEX games_by_time ON games (started_at, game_id);
    CREATE INDEX games_live ON games (place, started_at) WHERE live = 1;
    CREATE INDEX games_finished ON games (place, updated_at) WHERE live = 0;
"""
"""SQLite's 14, PostgreSQL's 8: lists go by when a game started, which never changes, so a move
writes no index entry (on PostgreSQL its update is a heap-only tuple): a seat keeps its game's
start; live games by place and finished ones by place and time in partial indexes that a move
leaves alone (the live flag is written only when it flips)."""


def answers(real: str) -> str:
    """SQLite's 15, PostgreSQL's 9 (``real``: each backend's name for a double): exercises answered
    (a game's puzzles: each person's first answer to each, and their answers to a place's daily one)
    and the ratings they move, a solver's and an exercise's. People's own doing, not derived from the
    log: a rebuild keeps them."""
    return f"""
    CREATE TABLE answers (
        game       TEXT    NOT NULL,
        exercise   TEXT    NOT NULL,
        player_id  TEXT    NOT NULL,
        mode       TEXT    NOT NULL,
        day        TEXT    NOT NULL,
        server     TEXT    NOT NULL,
        collection TEXT    NOT NULL,
        name       TEXT    NOT NULL,
        move       TEXT    NOT NULL,
        correct    INTEGER NOT NULL,
        at         {real}  NOT NULL,
        PRIMARY KEY (game, player_id, exercise, mode, day)
    );
    CREATE INDEX answers_of_the_day ON answers (game, server, day, exercise, at);
    CREATE TABLE exercise_ratings (
        game        TEXT    NOT NULL,
        collection  TEXT    NOT NULL,
        kind        TEXT    NOT NULL,
        id          TEXT    NOT NULL,
        mu          {real}  NOT NULL,
        sigma       {real}  NOT NULL,
        tries       INTEGER NOT NULL,
        solved      INTEGER NOT NULL,
        streak      INTEGER NOT NULL,
        best_streak INTEGER NOT NULL,
        PRIMARY KEY (game, collection, kind, id)
    );
    """


ANSWERED_BOARDS = """
ALTER TABLE boards ADD COLUMN answered INTEGER NOT NULL DEFAULT 0;
"""
"""SQLite's 16, PostgreSQL's 10: whether a board lives in interactions (the app installed by a user,
where the bot may not post: ``bot.discord.reach``), so that a restarted bot never tries its channel."""


def imported(real: str) -> str:
    """SQLite's 17, PostgreSQL's 11 (``real``: each backend's double): where each imported game came
    from, when, and whether the operator trusts it (only a trusted import counts toward ratings,
    records and seasons: a seal proves the dice, not who sat at the table). Not derived from the log:
    a rebuild keeps it."""
    return f"""
    CREATE TABLE imported (
        game_id     TEXT    PRIMARY KEY,
        source      TEXT    NOT NULL,
        imported_at {real}  NOT NULL,
        trusted     INTEGER NOT NULL
    );
    """


LIVE_BY_START = """
CREATE INDEX games_live_by_start ON games (started_at) WHERE live = 1;
"""
"""SQLite's 18, PostgreSQL's 12: the games being played, newest first, wherever they are (the front
page's), read from the end of an index of live games only: as many rows as the page shows."""


def rating_steps(real: str) -> str:
    """SQLite's 19, PostgreSQL's 13 (``real``: each backend's double): each player's rating after each
    rated game, for the chart on their page (derived: a rebuild draws it for every game ever rated)."""
    return f"""
    CREATE TABLE rating_steps (
        game        TEXT    NOT NULL,
        player_id   TEXT    NOT NULL,
        finished_at {real}  NOT NULL,
        game_id     TEXT    NOT NULL,
        score       {real}  NOT NULL,
        PRIMARY KEY (game, player_id, finished_at, game_id)
    );
    """


def mistakes(real: str) -> str:
    """SQLite's 20, PostgreSQL's 15 (``real``: each backend's double): each player's costly moves,
    numbered 1, 2, ... in the order they were tallied (derived: once a game is decided, and by a
    rebuild for every game ever decided, in the same order), so that the trainer reads a player's
    positions by index, not every game replayed, and draws one by its number (how many there are is
    the last number: no count, no offset, however many the player made)."""
    return f"""
    CREATE TABLE mistakes (
        game       TEXT    NOT NULL,
        player_id  TEXT    NOT NULL,
        n          INTEGER NOT NULL,
        started_at {real}  NOT NULL,
        game_id    TEXT    NOT NULL,
        version    INTEGER NOT NULL,
        PRIMARY KEY (game, player_id, n),
        UNIQUE (game, player_id, game_id, version)
    );
    """


def scored_members(real: str) -> str:
    """SQLite's 21, PostgreSQL's 16 (``real``: each backend's double), the part both share: each member
    of a server's leaderboard carries their rating's score (``NULL``: a member never rated), kept with
    the rating (``storage.ratings.WRITES``), so that a server's page is read from the end of its own
    index, and a member's place counted there, never from every rating of the game."""
    return f"""
    ALTER TABLE members ADD COLUMN score {real};
    UPDATE members SET score = (
        SELECT r.score FROM ratings r WHERE r.game = members.game AND r.player_id = members.player_id
    );
    CREATE INDEX members_by_score ON members (server, game, score DESC, player_id);
    CREATE INDEX members_by_player ON members (game, player_id);
    """


def members_of(server: str, where: str, located: bool = False) -> str:
    """The members of ``server`` (an expression) that the rated games ``where`` says make, their
    scores with them: ``located``, each game's server is its place's (``places p``)."""
    places = " JOIN places p ON p.place = g.place" if located else ""
    return (
        f"SELECT {server}, g.game, s.player_id, r.score FROM rated g{places} JOIN seats s ON s.game_id = g.game_id "
        f"LEFT JOIN ratings r ON r.game = g.game AND r.player_id = s.player_id WHERE {where}"
    )


def running_seasons(real: str, blob: str) -> str:
    """SQLite's 22, PostgreSQL's 17 (``real``, ``blob``: each backend's double and bytes): each running
    season's ratings as far as its games were rated (``bot.platform.seasons.Running``, encoded), so
    that a process that starts rates only the games finished since, not the season's every game
    (derived: a rebuild forgets them, and they are worked out again when next asked for)."""
    return f"""
    CREATE TABLE season_running (
        server TEXT   NOT NULL,
        game   TEXT   NOT NULL,
        start  {real} NOT NULL,
        last   {real} NOT NULL,
        state  {blob} NOT NULL,
        PRIMARY KEY (server, game, start)
    );
    """


BOARD_SIZES = """
    CREATE TABLE board_sizes (
        server TEXT    NOT NULL,
        game   TEXT    NOT NULL,
        n      INTEGER NOT NULL,
        PRIMARY KEY (server, game)
    );
    INSERT INTO board_sizes (server, game, n) SELECT '', game, count(*) FROM ratings GROUP BY game;
    INSERT INTO board_sizes (server, game, n)
    SELECT server, game, count(*) FROM members WHERE score IS NOT NULL GROUP BY server, game;
"""
"""SQLite's 23, PostgreSQL's 18, the part both share: how many are on each leaderboard (``server``
``''``: everyone's), kept by triggers as ratings and scored members come and go (each backend
writes its own), so that a board's size is one row, not a count of all its entries."""


def board_size(server: str, game: str, change: str) -> str:
    """The statement by which a trigger moves a board's size by ``change`` (``1``, ``-1``)."""
    return (
        f"INSERT INTO board_sizes (server, game, n) VALUES ({server}, {game}, {change}) "
        f"ON CONFLICT (server, game) DO UPDATE SET n = board_sizes.n + {change}"
    )
