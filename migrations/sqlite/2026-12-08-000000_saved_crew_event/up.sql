-- The event whose cards a saved list was written with (its pinned content
-- pack), so the list is appraised, opened and brought with those cards;
-- none for the server's own cards.
ALTER TABLE saved_crews ADD COLUMN event_id BIGINT REFERENCES events (id) ON DELETE SET NULL;
