-- Strategy and scheme pools: shipped ones (read-only, from content/) and the TOs' own.
CREATE TABLE pools (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    edition TEXT NOT NULL,
    name TEXT NOT NULL,
    -- The pool definition as JSON (validated before it is stored).
    definition TEXT NOT NULL,
    shipped BOOLEAN NOT NULL DEFAULT FALSE,
    owner_account_id BIGINT REFERENCES accounts (id),
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    venue TEXT NOT NULL,
    starts_on DATE NOT NULL,
    ends_on DATE NOT NULL,
    game_system TEXT NOT NULL,
    format TEXT NOT NULL,
    rounds_planned INTEGER NOT NULL,
    round_minutes INTEGER NOT NULL,
    -- Soulstones for Malifaux, the build total for Mage Knight.
    encounter_size INTEGER NOT NULL,
    player_cap INTEGER,
    registration_opens_at TIMESTAMP,
    registration_closes_at TIMESTAMP,
    visibility TEXT NOT NULL,
    status TEXT NOT NULL,
    pool_id BIGINT REFERENCES pools (id),
    -- Scoring, tiebreakers, pairing and league options as JSON.
    settings TEXT NOT NULL,
    lists_published BOOLEAN NOT NULL DEFAULT FALSE,
    -- Moves on with every change to the rounds, so concurrent edits are caught.
    version INTEGER NOT NULL DEFAULT 0,
    created_by BIGINT NOT NULL REFERENCES accounts (id),
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    finished_at TIMESTAMP
);
CREATE INDEX events_listing_idx ON events (visibility, status, starts_on);

CREATE TABLE event_staff (
    event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    role TEXT NOT NULL,
    PRIMARY KEY (event_id, account_id)
);

CREATE TABLE registrations (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    -- Empty for walk-ins until the TO links them to an account.
    account_id BIGINT REFERENCES accounts (id),
    display_name TEXT NOT NULL,
    club TEXT,
    status TEXT NOT NULL,
    checked_in BOOLEAN NOT NULL DEFAULT FALSE,
    dropped BOOLEAN NOT NULL DEFAULT FALSE,
    dropped_after_round INTEGER,
    joined_round INTEGER NOT NULL DEFAULT 1,
    initial_points INTEGER NOT NULL DEFAULT 0,
    fixed_table INTEGER,
    faction TEXT,
    army_list TEXT,
    army_points INTEGER,
    registered_at TIMESTAMP NOT NULL,
    UNIQUE (event_id, account_id)
);
CREATE INDEX registrations_event_idx ON registrations (event_id, status, registered_at);

CREATE TABLE rounds (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    status TEXT NOT NULL,
    seed BIGINT NOT NULL,
    -- The cost terms and method of the pairing, as JSON.
    pairing TEXT NOT NULL,
    -- The round's encounter setup (one for every table), as JSON.
    setup TEXT,
    published_at TIMESTAMP,
    clock_started_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (event_id, number)
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    -- Empty for league open play.
    round_id BIGINT REFERENCES rounds (id) ON DELETE CASCADE,
    table_number INTEGER,
    player_a BIGINT NOT NULL REFERENCES registrations (id),
    -- Empty for a bye.
    player_b BIGINT REFERENCES registrations (id),
    -- A setup for this table only, as JSON.
    setup TEXT,
    status TEXT NOT NULL,
    reported_by BIGINT REFERENCES accounts (id),
    confirmed_by BIGINT REFERENCES accounts (id),
    a_strategy_vp INTEGER,
    a_scheme_vp INTEGER,
    b_strategy_vp INTEGER,
    b_scheme_vp INTEGER,
    a_objectives INTEGER,
    b_objectives INTEGER,
    a_eliminated INTEGER,
    b_eliminated INTEGER,
    a_army INTEGER,
    b_army INTEGER,
    dispute_note TEXT,
    -- Moves on with every change to the result (stale forms are refused).
    version INTEGER NOT NULL DEFAULT 0,
    played_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX games_event_idx ON games (event_id, round_id);
CREATE UNIQUE INDEX games_round_table_idx ON games (round_id, table_number);

-- What each player played in a game (Malifaux leader and crew).
CREATE TABLE game_declarations (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    registration_id BIGINT NOT NULL REFERENCES registrations (id),
    leader TEXT NOT NULL,
    crew TEXT NOT NULL,
    PRIMARY KEY (game_id, registration_id)
);

-- Every change to a result: who, when, old and new.
CREATE TABLE result_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    account_id BIGINT REFERENCES accounts (id),
    action TEXT NOT NULL,
    before_json TEXT,
    after_json TEXT,
    note TEXT,
    at TIMESTAMP NOT NULL
);
CREATE INDEX result_changes_event_idx ON result_changes (event_id, at);
