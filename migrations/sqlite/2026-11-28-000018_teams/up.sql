-- Team events: a captain registers a team and names its members, whose
-- registrations point to it in board order. Each round pairs teams into
-- team matches; a match's member games point to it once they are paired.
CREATE TABLE teams (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    club TEXT,
    -- Empty for a team the organisers entered at the desk.
    captain_account_id BIGINT REFERENCES accounts (id),
    created_at TIMESTAMP NOT NULL,
    UNIQUE (event_id, name)
);
ALTER TABLE registrations ADD COLUMN team_id BIGINT REFERENCES teams (id);
-- The member's board in the team (1 is the first board).
ALTER TABLE registrations ADD COLUMN team_board INTEGER;
CREATE UNIQUE INDEX registrations_team_board_idx ON registrations (team_id, team_board);

CREATE TABLE team_matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round_id BIGINT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    match_number INTEGER NOT NULL,
    team_a BIGINT NOT NULL REFERENCES teams (id),
    -- Empty for a bye.
    team_b BIGINT REFERENCES teams (id),
    -- The captains' choices so far, as a JSON array of registration ids:
    -- defender, attacker, defender, ... (empty when paired by rank).
    choices TEXT NOT NULL DEFAULT '[]',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (round_id, match_number)
);
ALTER TABLE games ADD COLUMN team_match_id BIGINT REFERENCES team_matches (id) ON DELETE CASCADE;
CREATE INDEX games_team_match_idx ON games (team_match_id);

-- Teams and matches are part of the event's data: pages cached on its data
-- revision must see them change.
CREATE TRIGGER teams_insert_revision AFTER INSERT ON teams
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
END;
CREATE TRIGGER teams_update_revision AFTER UPDATE ON teams
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
END;
CREATE TRIGGER teams_delete_revision AFTER DELETE ON teams
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = OLD.event_id;
END;
CREATE TRIGGER team_matches_insert_revision AFTER INSERT ON team_matches
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
END;
CREATE TRIGGER team_matches_update_revision AFTER UPDATE ON team_matches
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = NEW.event_id;
END;
CREATE TRIGGER team_matches_delete_revision AFTER DELETE ON team_matches
BEGIN
    UPDATE events SET data_revision = data_revision + 1 WHERE id = OLD.event_id;
END;
