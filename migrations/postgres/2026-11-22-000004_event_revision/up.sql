-- Every change to an event's players, rounds or games moves its data revision on,
-- so read-only pages can cache what they loaded and know when it is stale.
ALTER TABLE events ADD COLUMN data_revision BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION bump_event_data_revision() RETURNS trigger AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE events SET data_revision = data_revision + 1 WHERE id = OLD.event_id;
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.event_id <> OLD.event_id) THEN
        UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER registrations_revision AFTER INSERT OR UPDATE OR DELETE ON registrations
    FOR EACH ROW EXECUTE FUNCTION bump_event_data_revision();

CREATE TRIGGER rounds_revision AFTER INSERT OR UPDATE OR DELETE ON rounds
    FOR EACH ROW EXECUTE FUNCTION bump_event_data_revision();

CREATE TRIGGER games_revision AFTER INSERT OR UPDATE OR DELETE ON games
    FOR EACH ROW EXECUTE FUNCTION bump_event_data_revision();
