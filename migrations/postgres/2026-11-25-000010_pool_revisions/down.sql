ALTER TABLE pools DROP COLUMN featured;
DROP TABLE pool_revisions;
