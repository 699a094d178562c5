-- Every definition a pool has had, by content hash: a setup's permalink
-- names the revision it was flipped with and reproduces it after edits.
CREATE TABLE pool_revisions (
    id BIGSERIAL PRIMARY KEY,
    pool_id BIGINT NOT NULL REFERENCES pools (id) ON DELETE CASCADE,
    revision TEXT NOT NULL,
    definition TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (pool_id, revision)
);
-- Only a site admin features a pool: the public generator's default for
-- its edition is the newest featured (or shipped) pool, never any user's.
ALTER TABLE pools ADD COLUMN featured BOOLEAN NOT NULL DEFAULT FALSE;
