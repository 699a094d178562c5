DROP TABLE hosted_game_submissions;
