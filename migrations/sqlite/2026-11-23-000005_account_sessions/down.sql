DROP TABLE account_sessions;
