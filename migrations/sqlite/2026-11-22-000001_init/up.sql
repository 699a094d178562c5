-- Who changed what, when: corrections to events and results are written here.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    at TIMESTAMP NOT NULL,
    actor_account_id BIGINT,
    event_id BIGINT,
    action TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX audit_log_event_idx ON audit_log (event_id, at);
