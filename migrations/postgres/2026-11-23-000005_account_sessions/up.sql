-- The sessions an account is signed in with, so the account page can list
-- them and sign out the others (a session's tokens all carry its id).
CREATE TABLE account_sessions (
    sid TEXT PRIMARY KEY NOT NULL,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    started_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    -- What the browser said it was (User-Agent), cut short.
    device TEXT NOT NULL
);
CREATE INDEX account_sessions_account_idx ON account_sessions (account_id);
