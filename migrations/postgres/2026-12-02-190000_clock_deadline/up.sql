-- When the first running clock of a game in play runs out, if nothing
-- happens first: the once-a-second flag check reads only the games due,
-- by this index, not every game with a clock (NULL: not yet known, so
-- checked, until the game's next move writes it).
ALTER TABLE hosted_games ADD COLUMN clock_deadline TIMESTAMP;
CREATE INDEX hosted_games_clock_deadline ON hosted_games (clock_deadline);
