-- A player's settings for games in the browser. No row: the defaults
-- (the game takes a decision with one option that hides nothing).
CREATE TABLE play_settings (
    account_id BIGINT PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    takes_forced_choices BOOLEAN NOT NULL DEFAULT TRUE
);
