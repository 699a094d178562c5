-- Every status column holds one of the codes its enum knows (src/db/status.rs);
-- a test holds these lists equal to the enums. A row already holding another
-- code makes this migration fail rather than be kept unreadable.

ALTER TABLE events ADD CONSTRAINT events_status_check
    CHECK (status IN ('draft', 'registration', 'running', 'finished'));

ALTER TABLE registrations ADD CONSTRAINT registrations_status_check
    CHECK (status IN ('registered', 'waitlisted', 'withdrawn'));

ALTER TABLE rounds ADD CONSTRAINT rounds_status_check
    CHECK (status IN ('draft', 'published'));

ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('pending', 'reported', 'confirmed', 'disputed', 'resolved', 'bye'));

ALTER TABLE hosted_games ADD CONSTRAINT hosted_games_status_check
    CHECK (status IN ('playing', 'finished'));

ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_status_check
    CHECK (status IN ('pending', 'sent', 'failed'));
