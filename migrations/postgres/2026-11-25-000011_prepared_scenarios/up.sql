-- Scenarios the organisers flip or enter before the event, one per planned
-- round; pairing that round makes it the round's shared scenario.
CREATE TABLE prepared_scenarios (
    event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL,
    -- JSON (setup::Setup), flipped or announced.
    setup TEXT NOT NULL,
    prepared_at TIMESTAMP NOT NULL,
    PRIMARY KEY (event_id, round_number)
);
