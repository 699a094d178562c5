-- An invitation may be to a league game: the open league whose result it
-- counts in (none: a casual game).
ALTER TABLE game_invitations ADD COLUMN event_id BIGINT REFERENCES events (id) ON DELETE CASCADE;
