DROP TRIGGER team_matches_revision ON team_matches;
DROP TRIGGER teams_revision ON teams;
DROP INDEX games_team_match_idx;
ALTER TABLE games DROP COLUMN team_match_id;
DROP TABLE team_matches;
DROP INDEX registrations_team_board_idx;
ALTER TABLE registrations DROP COLUMN team_board;
ALTER TABLE registrations DROP COLUMN team_id;
DROP TABLE teams;
