-- Content packs uploaded through the web: a site admin's, which every
-- event may pin, or an organiser's, for one event. Each upload is a
-- version named by the SHA-256 of its files, and never changes: a game
-- played with it can be replayed and verified after newer versions.
CREATE TABLE content_packs (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    -- The event it was uploaded for; none for a site admin's pack.
    event_id BIGINT REFERENCES events (id) ON DELETE CASCADE,
    uploaded_by BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    hash TEXT NOT NULL,
    -- Its files, sorted into stat cards and crew cards, as JSON
    -- (content::pack::PackFiles).
    files TEXT NOT NULL,
    cards INTEGER NOT NULL,
    crew_cards INTEGER NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX content_packs_event_idx ON content_packs (event_id);
-- The pack version an event plays with (none: the server's own cards).
ALTER TABLE events ADD COLUMN content_pack_id BIGINT REFERENCES content_packs (id);
-- What a hosted game was played with: the hash of the server's content and
-- of the pack version, if any.
ALTER TABLE hosted_games ADD COLUMN content_hash TEXT;
ALTER TABLE hosted_games ADD COLUMN pack_hash TEXT;
