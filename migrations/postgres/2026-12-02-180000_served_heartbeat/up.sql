-- When an instance last served: one row, shared by every instance. A
-- server starting after all of them were down credits that gap to the
-- game clocks that were running, so an outage is not charged to the
-- player on move (docs/play.md, "Clocks, resigning and claims").
CREATE TABLE served_heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    served_at TIMESTAMP NOT NULL
);
-- The row every instance moves on: never absent, so no two instances
-- race to make it.
INSERT INTO served_heartbeat (id, served_at) VALUES (1, (now() AT TIME ZONE 'utc'));
