DROP TRIGGER IF EXISTS registrations_revision ON registrations;
DROP TRIGGER IF EXISTS rounds_revision ON rounds;
DROP TRIGGER IF EXISTS games_revision ON games;
DROP FUNCTION IF EXISTS bump_event_data_revision();
ALTER TABLE events DROP COLUMN data_revision;
