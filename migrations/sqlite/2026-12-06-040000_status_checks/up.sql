-- Every status column holds one of the codes its enum knows (src/db/status.rs);
-- a test holds these lists equal to the enums. SQLite cannot add a CHECK to
-- a table that exists, so a trigger before each insert and each update of
-- the column refuses the same codes with the same message.

CREATE TRIGGER events_status_check_insert BEFORE INSERT ON events
WHEN NEW.status NOT IN ('draft', 'registration', 'running', 'finished')
BEGIN SELECT RAISE(ABORT, 'events.status: unknown status'); END;

CREATE TRIGGER events_status_check_update BEFORE UPDATE OF status ON events
WHEN NEW.status NOT IN ('draft', 'registration', 'running', 'finished')
BEGIN SELECT RAISE(ABORT, 'events.status: unknown status'); END;

CREATE TRIGGER registrations_status_check_insert BEFORE INSERT ON registrations
WHEN NEW.status NOT IN ('registered', 'waitlisted', 'withdrawn')
BEGIN SELECT RAISE(ABORT, 'registrations.status: unknown status'); END;

CREATE TRIGGER registrations_status_check_update BEFORE UPDATE OF status ON registrations
WHEN NEW.status NOT IN ('registered', 'waitlisted', 'withdrawn')
BEGIN SELECT RAISE(ABORT, 'registrations.status: unknown status'); END;

CREATE TRIGGER rounds_status_check_insert BEFORE INSERT ON rounds
WHEN NEW.status NOT IN ('draft', 'published')
BEGIN SELECT RAISE(ABORT, 'rounds.status: unknown status'); END;

CREATE TRIGGER rounds_status_check_update BEFORE UPDATE OF status ON rounds
WHEN NEW.status NOT IN ('draft', 'published')
BEGIN SELECT RAISE(ABORT, 'rounds.status: unknown status'); END;

CREATE TRIGGER games_status_check_insert BEFORE INSERT ON games
WHEN NEW.status NOT IN ('pending', 'reported', 'confirmed', 'disputed', 'resolved', 'bye')
BEGIN SELECT RAISE(ABORT, 'games.status: unknown status'); END;

CREATE TRIGGER games_status_check_update BEFORE UPDATE OF status ON games
WHEN NEW.status NOT IN ('pending', 'reported', 'confirmed', 'disputed', 'resolved', 'bye')
BEGIN SELECT RAISE(ABORT, 'games.status: unknown status'); END;

CREATE TRIGGER hosted_games_status_check_insert BEFORE INSERT ON hosted_games
WHEN NEW.status NOT IN ('playing', 'finished')
BEGIN SELECT RAISE(ABORT, 'hosted_games.status: unknown status'); END;

CREATE TRIGGER hosted_games_status_check_update BEFORE UPDATE OF status ON hosted_games
WHEN NEW.status NOT IN ('playing', 'finished')
BEGIN SELECT RAISE(ABORT, 'hosted_games.status: unknown status'); END;

CREATE TRIGGER mail_outbox_status_check_insert BEFORE INSERT ON mail_outbox
WHEN NEW.status NOT IN ('pending', 'sent', 'failed')
BEGIN SELECT RAISE(ABORT, 'mail_outbox.status: unknown status'); END;

CREATE TRIGGER mail_outbox_status_check_update BEFORE UPDATE OF status ON mail_outbox
WHEN NEW.status NOT IN ('pending', 'sent', 'failed')
BEGIN SELECT RAISE(ABORT, 'mail_outbox.status: unknown status'); END;
