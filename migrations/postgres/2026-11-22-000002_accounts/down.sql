DROP TABLE mail_outbox;
DROP TABLE login_failures;
DROP TABLE email_tokens;
DROP TABLE revoked_tokens;
DROP TABLE accounts;
