-- A single-elimination cut after the Swiss rounds: its rules, and the round
-- number its first round takes. The bracket itself is worked out from the
-- seeds and the games of those rounds, so nothing else is kept.
CREATE TABLE playoffs (
    event_id BIGINT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    cut_size INTEGER NOT NULL CHECK (cut_size BETWEEN 2 AND 64),
    third_place BOOLEAN NOT NULL,
    tie_rule TEXT NOT NULL,
    higher_seed_chooses BOOLEAN NOT NULL,
    first_round INTEGER NOT NULL,
    created_at TIMESTAMP NOT NULL
);
-- A seeded player's place in the cut (1 is the top seed). Seeds are written
-- in the same transaction as the playoff row, so the registrations' triggers
-- move the event's data revision on for both.
ALTER TABLE registrations ADD COLUMN playoff_seed INTEGER;
CREATE UNIQUE INDEX registrations_playoff_seed_idx ON registrations (event_id, playoff_seed);
