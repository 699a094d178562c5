-- The game system whose rules play a hosted game (soulstone_engine's
-- TableGame::CODE): the host reads a game back only through that system.
-- Every game stored before is a Malifaux encounter.
ALTER TABLE hosted_games ADD COLUMN table_game TEXT NOT NULL DEFAULT 'malifaux';
