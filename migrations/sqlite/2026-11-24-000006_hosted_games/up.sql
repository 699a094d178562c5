-- Games the engine adjudicates (hosted play). A game is its setup plus an
-- append-only log of facts; snapshots spare replaying a long log on load.
CREATE TABLE hosted_games (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    -- practice (against the engine's bots), casual, or event (a pairing).
    kind TEXT NOT NULL,
    -- The event pairing this game decides, if any.
    pairing_game_id BIGINT REFERENCES games (id) ON DELETE SET NULL,
    -- Each seat is an account or one of the engine's bots.
    seat_a_account_id BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
    seat_b_account_id BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
    seat_a_bot TEXT,
    seat_b_bot TEXT,
    status TEXT NOT NULL,
    rules_version INTEGER NOT NULL,
    log_format INTEGER NOT NULL,
    -- The engine's NewGame as JSON. It holds the server seed and each
    -- player's secret crews: never sent to a browser as it is.
    setup TEXT NOT NULL,
    -- Facts in the log so far (the engine's state version).
    version BIGINT NOT NULL,
    vp_a INTEGER,
    vp_b INTEGER,
    -- How it ended: rules (after turn 4), time (a clock ran out) or
    -- resignation.
    ended_by TEXT,
    -- Chess clocks: each player's time for the game (none: untimed), what
    -- is left of it, whose clocks run (a, b or ab: the seats the game waits
    -- for) and since when.
    time_control_ms BIGINT,
    clock_a_ms BIGINT,
    clock_b_ms BIGINT,
    clock_running TEXT,
    clock_since TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX hosted_games_seat_a_idx ON hosted_games (seat_a_account_id);
CREATE INDEX hosted_games_seat_b_idx ON hosted_games (seat_b_account_id);

-- The log: fact number seq (1, 2, ...) of a game, as the engine's JSON.
CREATE TABLE hosted_game_facts (
    game_id BIGINT NOT NULL REFERENCES hosted_games (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    fact TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The game's whole state after fact seq, every so often.
CREATE TABLE hosted_game_snapshots (
    game_id BIGINT NOT NULL REFERENCES hosted_games (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Commands accepted, by the key their sender chose, so a retried request
-- is answered with what it did the first time and applied once.
CREATE TABLE hosted_game_commands (
    game_id BIGINT NOT NULL REFERENCES hosted_games (id) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    -- The version the command was made against and the one it led to.
    from_version BIGINT NOT NULL,
    to_version BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, seat, idempotency_key)
);

-- One hosted game at most decides an event pairing.
CREATE UNIQUE INDEX hosted_games_pairing_idx ON hosted_games (pairing_game_id);

-- Event pairings the organisers chose to have played in the browser.
CREATE TABLE digital_pairings (
    pairing_game_id BIGINT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    marked_by BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
    marked_at TIMESTAMP NOT NULL
);

-- The crew lists each player brings to a digital pairing (as JSON), shown
-- to no one else; the game starts once both are in.
CREATE TABLE pairing_crews (
    pairing_game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    lists TEXT NOT NULL,
    submitted_at TIMESTAMP NOT NULL,
    PRIMARY KEY (pairing_game_id, seat)
);
