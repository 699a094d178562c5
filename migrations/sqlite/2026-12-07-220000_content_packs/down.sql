ALTER TABLE hosted_games DROP COLUMN pack_hash;
ALTER TABLE hosted_games DROP COLUMN content_hash;
ALTER TABLE events DROP COLUMN content_pack_id;
DROP INDEX content_packs_event_idx;
DROP TABLE content_packs;
