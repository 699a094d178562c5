ALTER TABLE saved_crews DROP COLUMN event_id;
