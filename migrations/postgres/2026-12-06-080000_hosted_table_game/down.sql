ALTER TABLE hosted_games DROP COLUMN table_game;
