"""Forward-only schema migrations, versioned by ``PRAGMA user_version``.

Append a new entry to MIGRATIONS to change the schema; never edit an applied one.
"""

MIGRATIONS: list[str] = [
    # 1: games, seats, the append-only action log, guild and user settings
    """
    CREATE TABLE games (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        engine          TEXT    NOT NULL,
        options         TEXT    NOT NULL DEFAULT '{}',
        seed            INTEGER NOT NULL,
        status          TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
        num_players     INTEGER NOT NULL,
        guild_id        INTEGER,
        channel_id      INTEGER,
        thread_id       INTEGER,
        board_message_id INTEGER,
        host_user_id    INTEGER NOT NULL,
        version         INTEGER NOT NULL DEFAULT 0,
        rules_version   INTEGER,
        snapshot        TEXT,
        result          TEXT,
        created_at      TEXT    NOT NULL,
        updated_at      TEXT    NOT NULL
    );
    CREATE INDEX games_by_channel ON games (guild_id, status);
    CREATE TABLE seats (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        user_id     INTEGER,
        ai_level    TEXT,
        name        TEXT    NOT NULL,
        dm_closed   INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat),
        CHECK ((user_id IS NULL) <> (ai_level IS NULL))
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE actions (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        seat        INTEGER NOT NULL,
        user_id     INTEGER,
        action      TEXT    NOT NULL,
        events      TEXT    NOT NULL,
        created_at  TEXT    NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE guild_settings (
        guild_id    INTEGER PRIMARY KEY,
        settings    TEXT    NOT NULL DEFAULT '{}'
    );
    CREATE TABLE user_settings (
        user_id     INTEGER PRIMARY KEY,
        settings    TEXT    NOT NULL DEFAULT '{}'
    );
    """,
    # 2: the board version whose waiting players were last reminded (a reminder per board, not per hour)
    """
    ALTER TABLE games ADD COLUMN reminded_version INTEGER NOT NULL DEFAULT -1;
    """,
    # 3: round-robin leagues: a tournament, its entries, and the games that are its matches
    """
    CREATE TABLE tournaments (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        engine          TEXT    NOT NULL,
        lang            TEXT    NOT NULL DEFAULT 'en',
        status          TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished')),
        guild_id        INTEGER,
        channel_id      INTEGER,
        organizer_id    INTEGER NOT NULL,
        created_at      TEXT    NOT NULL
    );
    CREATE TABLE tournament_entries (
        tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        user_id         INTEGER NOT NULL,
        name            TEXT    NOT NULL,
        joined          INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );
    ALTER TABLE games ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);
    CREATE INDEX games_by_tournament ON games (tournament_id);
    """,
    # 4: the outbox. The commit that saves a move records in the same transaction what must be published (its
    #    narration; the board, pings and DMs follow from the game's state). The publisher delivers it and deletes
    #    it; ``posted`` marks a board that is up while its DMs are still owed.
    """
    CREATE TABLE outbox (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version     INTEGER NOT NULL,
        seq         INTEGER,
        lines       TEXT    NOT NULL,
        posted      INTEGER NOT NULL DEFAULT 0,
        attempts    INTEGER NOT NULL DEFAULT 0,
        next_try    TEXT    NOT NULL DEFAULT '',
        last_error  TEXT,
        created_at  TEXT    NOT NULL
    );
    CREATE INDEX outbox_by_game ON outbox (game_id, id);
    """,
    # 5: turn clocks (host/clock.py): per game and seat the running move (times in epoch seconds, so that an
    #    outage or a vacation shifts them by plain addition), the bank left, warnings given, the AI standing in;
    #    the host's heartbeat (an outage is given back to every clock); vacations
    """
    CREATE TABLE clocks (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        started     INTEGER,
        deadline    INTEGER,
        bank        INTEGER,
        paused_at   INTEGER,
        warned_half INTEGER NOT NULL DEFAULT 0,
        warned_hour INTEGER NOT NULL DEFAULT 0,
        simultaneous INTEGER NOT NULL DEFAULT 0,
        stand_in    INTEGER NOT NULL DEFAULT 0,
        forfeited   INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX clocks_by_deadline ON clocks (deadline);
    CREATE TABLE heartbeat (
        name        TEXT    PRIMARY KEY,
        seen        INTEGER NOT NULL
    );
    CREATE TABLE away (
        user_id     INTEGER PRIMARY KEY,
        since       INTEGER,
        until       INTEGER,
        month       TEXT    NOT NULL DEFAULT '',
        used_days   INTEGER NOT NULL DEFAULT 0
    );
    """,
]
MIGRATIONS.append(
    # 6: tournaments of several formats (Swiss, elimination, round robin in rounds; 'league' is the older
    #    all-at-once round robin): the format and its settings (JSON), the round being played, paused and
    #    cancelled flags, the registration message; dropped entries; and the matches of each round - a table of
    #    players in seat order (JSON), its game, the places that count (JSON, NULL while it is played), how they
    #    came about ('played', 'bye', 'forfeit', 'adjudicated', 'clock') and the round's deadline (ISO UTC)
    """
    ALTER TABLE tournaments ADD COLUMN format TEXT NOT NULL DEFAULT 'league';
    ALTER TABLE tournaments ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE tournaments ADD COLUMN current_round INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tournaments ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tournaments ADD COLUMN cancelled INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tournaments ADD COLUMN message_id INTEGER;
    ALTER TABLE tournament_entries ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE tournament_matches (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        round_no        INTEGER NOT NULL,
        slot            INTEGER NOT NULL,
        players         TEXT    NOT NULL,
        game_id         INTEGER REFERENCES games (id),
        places          TEXT,
        how             TEXT,
        deadline        TEXT,
        UNIQUE (tournament_id, round_no, slot)
    );
    CREATE INDEX tournament_matches_by_game ON tournament_matches (game_id);
    CREATE INDEX tournament_matches_by_deadline ON tournament_matches (deadline);
    """
)
