ALTER TABLE game_invitations DROP COLUMN event_id;
