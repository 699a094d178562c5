-- Team events: a captain registers a team and names its members, whose
-- registrations point to it in board order. Each round pairs teams into
-- team matches; a match's member games point to it once they are paired.
CREATE TABLE teams (
    id BIGSERIAL PRIMARY KEY,
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
    id BIGSERIAL PRIMARY KEY,
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
CREATE TRIGGER teams_revision AFTER INSERT OR UPDATE OR DELETE ON teams
    FOR EACH ROW EXECUTE FUNCTION bump_event_data_revision();
CREATE TRIGGER team_matches_revision AFTER INSERT OR UPDATE OR DELETE ON team_matches
    FOR EACH ROW EXECUTE FUNCTION bump_event_data_revision();
