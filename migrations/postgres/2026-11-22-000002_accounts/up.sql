CREATE TABLE accounts (
    id BIGSERIAL PRIMARY KEY,
    -- Stored lower-cased, so uniqueness is case-insensitive.
    email TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    club TEXT,
    region TEXT,
    malifaux_name TEXT,
    mage_knight_name TEXT,
    is_admin BOOLEAN NOT NULL DEFAULT FALSE,
    email_verified_at TIMESTAMP,
    -- Tokens carry the generation they were issued in; changing the password
    -- moves it on, which ends every older session at once.
    session_generation INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    deleted_at TIMESTAMP
);

-- Signed-out session tokens, kept until they would have expired anyway.
CREATE TABLE revoked_tokens (
    jti TEXT PRIMARY KEY NOT NULL,
    expires_at TIMESTAMP NOT NULL
);

-- Single-use links sent by mail (verification, password reset); only a hash is kept.
CREATE TABLE email_tokens (
    id BIGSERIAL PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP
);
CREATE INDEX email_tokens_account_idx ON email_tokens (account_id, purpose);

-- Failed sign-ins by account and by address, for throttling.
CREATE TABLE login_failures (
    id BIGSERIAL PRIMARY KEY,
    throttle_key TEXT NOT NULL,
    at TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_key_idx ON login_failures (throttle_key, at);

-- Mail waits here until a sender delivers it; nothing is deleted on failure.
CREATE TABLE mail_outbox (
    id BIGSERIAL PRIMARY KEY,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    body_text TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP NOT NULL,
    claimed_by TEXT,
    claimed_until TIMESTAMP,
    last_error TEXT,
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP,
    -- Stops the same notification being queued twice.
    dedupe_key TEXT UNIQUE
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (status, next_attempt_at);
