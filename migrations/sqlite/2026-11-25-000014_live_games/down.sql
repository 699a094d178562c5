ALTER TABLE hosted_games DROP COLUMN turn;
ALTER TABLE hosted_game_facts DROP COLUMN at;
