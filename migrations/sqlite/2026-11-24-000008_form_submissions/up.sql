-- Forms that create something carry a key made when the form was shown; a
-- second submission with the same key (a double click, a retry after a
-- dropped connection) answers with what the first one made.
CREATE TABLE form_submissions (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    submission_key TEXT NOT NULL,
    -- What the first submission made, for example "game:42".
    outcome TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, submission_key)
);
