-- The watchers' looks: games changed lately, games whose clocks run.
CREATE INDEX hosted_games_updated_idx ON hosted_games (updated_at);
CREATE INDEX hosted_games_status_idx ON hosted_games (status);
