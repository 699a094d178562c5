-- Staff are invited by mail and join when they accept, so adding staff
-- never tells the organiser whether an address has an account.
CREATE TABLE staff_invitations (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    -- Only a hash of the link's token is kept.
    token_hash TEXT NOT NULL UNIQUE,
    invited_by BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    accepted_at TIMESTAMP
);
CREATE INDEX staff_invitations_event_idx ON staff_invitations (event_id);
