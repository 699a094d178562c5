ALTER TABLE events DROP CONSTRAINT events_status_check;
ALTER TABLE registrations DROP CONSTRAINT registrations_status_check;
ALTER TABLE rounds DROP CONSTRAINT rounds_status_check;
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE hosted_games DROP CONSTRAINT hosted_games_status_check;
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_status_check;
