-- Crew lists players keep on their account (the crew builder saves them;
-- registration, practice and invitations take them). The list is stored in
-- its plain-text form, which the engine reads back.
CREATE TABLE saved_crews (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    -- The edition's code (m4e, m3e), to offer a list where that edition plays.
    edition TEXT NOT NULL,
    list_text TEXT NOT NULL,
    saved_at TIMESTAMP NOT NULL,
    UNIQUE (account_id, name)
);
