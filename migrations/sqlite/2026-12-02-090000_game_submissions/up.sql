-- Every command a hosted game executed (a player's, a bot's, one taken
-- by a standing answer, the server's end of the game), with the index of
-- the first fact it made: a finished game's log carries them, so anyone
-- can play them through the rules again (docs/play.md, "Verifying").
CREATE TABLE hosted_game_submissions (
    game_id BIGINT NOT NULL REFERENCES hosted_games (id),
    at_fact BIGINT NOT NULL,
    submission TEXT NOT NULL,
    PRIMARY KEY (game_id, at_fact)
);
