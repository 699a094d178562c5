-- A player invites another to a casual game by a link: the link's token,
-- the inviter's crew lists (secret until the game reveals the one hired)
-- and clock, and the game once someone with an account takes the seat.
CREATE TABLE game_invitations (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    inviter_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    inviter_lists TEXT NOT NULL,
    time_control_ms BIGINT,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    accepted_by BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
    hosted_game_id BIGINT REFERENCES hosted_games (id) ON DELETE SET NULL,
    cancelled_at TIMESTAMP
);
CREATE INDEX game_invitations_inviter_idx ON game_invitations (inviter_id);
