-- API tokens are listed with the browser sessions on the account page, so
-- that their owner sees them and can revoke them: `kind` tells them apart
-- ('browser' or 'api'), and `expires_at` keeps an API token's row for as
-- long as the token lives (a browser session's row goes when it has not
-- been renewed for longer than a session token lives).
ALTER TABLE account_sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'browser';
ALTER TABLE account_sessions ADD COLUMN expires_at TIMESTAMP;
