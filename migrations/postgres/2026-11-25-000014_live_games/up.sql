-- When each fact was written: spectators of an event may watch a delay
-- behind. Facts written before this have none and count as long ago.
ALTER TABLE hosted_game_facts ADD COLUMN at TIMESTAMP;
-- The turn a game is in, kept beside its VP (now kept as the game goes),
-- so round pages and the projector show live scores without rebuilding.
ALTER TABLE hosted_games ADD COLUMN turn INTEGER;
