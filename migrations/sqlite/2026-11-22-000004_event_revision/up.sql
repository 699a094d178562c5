-- Every change to an event's players, rounds or games moves its data revision on,
-- so read-only pages can cache what they loaded and know when it is stale.
ALTER TABLE events ADD COLUMN data_revision BIGINT NOT NULL DEFAULT 0;

CREATE TRIGGER registrations_insert_revision AFTER INSERT ON registrations
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
END;
CREATE TRIGGER registrations_update_revision AFTER UPDATE ON registrations
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
END;
CREATE TRIGGER registrations_delete_revision AFTER DELETE ON registrations
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = OLD.event_id;
END;
CREATE TRIGGER registrations_move_revision AFTER UPDATE OF event_id ON registrations
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = OLD.event_id;
END;
CREATE TRIGGER rounds_insert_revision AFTER INSERT ON rounds
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
END;
CREATE TRIGGER rounds_update_revision AFTER UPDATE ON rounds
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
END;
CREATE TRIGGER rounds_delete_revision AFTER DELETE ON rounds
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = OLD.event_id;
END;
CREATE TRIGGER rounds_move_revision AFTER UPDATE OF event_id ON rounds
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = OLD.event_id;
END;
CREATE TRIGGER games_insert_revision AFTER INSERT ON games
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
END;
CREATE TRIGGER games_update_revision AFTER UPDATE ON games
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
END;
CREATE TRIGGER games_delete_revision AFTER DELETE ON games
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = OLD.event_id;
END;
CREATE TRIGGER games_move_revision AFTER UPDATE OF event_id ON games
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = OLD.event_id;
END;
