DROP TABLE hosted_game_commands;
DROP TABLE hosted_game_snapshots;
DROP TABLE hosted_game_facts;
DROP TABLE hosted_games;
