ALTER TABLE account_sessions DROP COLUMN expires_at;
ALTER TABLE account_sessions DROP COLUMN kind;
