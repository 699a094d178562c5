DROP INDEX registrations_playoff_seed_idx;
ALTER TABLE registrations DROP COLUMN playoff_seed;
DROP TABLE playoffs;
