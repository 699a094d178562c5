DROP INDEX hosted_games_clock_deadline;
ALTER TABLE hosted_games DROP COLUMN clock_deadline;
