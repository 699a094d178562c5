DROP INDEX hosted_games_status_idx;
DROP INDEX hosted_games_updated_idx;
