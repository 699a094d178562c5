//! Outgoing mail. Handlers only queue mail in the database (never waiting on
//! a mail server); a background sender delivers it with retries and backoff,
//! over SMTP or, when none is configured, as `.eml` files in the outbox
//! directory. A mail that keeps failing stays in the database, marked failed,
//! for an admin to see and retry.

pub mod messages;

use std::sync::Arc;
use std::time::Duration;

use chrono::{NaiveDateTime, Utc};
use lettre::message::{Mailbox, header};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use tokio::sync::Notify;

use crate::config::{MailTransport, SmtpTls};
use crate::db::{Db, DbConnection, DbError, mail as outbox};

/// How long a claimed mail is reserved for one sender.
const CLAIM_LEASE: chrono::Duration = chrono::Duration::minutes(5);
/// How many mails one pass of the sender takes.
const BATCH_SIZE: i64 = 20;
/// The sender looks for due mail at least this often, even without a wake-up.
const POLL_INTERVAL: Duration = Duration::from_secs(5);
/// After this many failed attempts a mail is marked failed (about a day of retries).
pub const MAX_ATTEMPTS: i32 = 12;
const SMTP_TIMEOUT: Duration = Duration::from_secs(20);

/// A mail ready to queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// Queues a mail for delivery. Call inside the transaction that made the
/// change the mail tells about, so the two stand or fall together.
pub fn queue(
    conn: &mut DbConnection,
    mail: &OutgoingMail,
    dedupe_key: Option<&str>,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    outbox::enqueue(conn, &mail.to, &mail.subject, &mail.body, dedupe_key, now)
}

/// Queues a mail about `topic` coalesced with earlier ones on it: at most
/// one per `window` reaches the recipient, with the newest text
/// ([`outbox::enqueue_coalesced`]).
pub fn queue_coalesced(
    conn: &mut DbConnection,
    mail: &OutgoingMail,
    topic: &str,
    window: chrono::Duration,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    outbox::enqueue_coalesced(
        conn,
        &mail.to,
        &mail.subject,
        &mail.body,
        topic,
        window,
        now,
    )
}

/// The outbox as a site admin sees it: counts by status, the mail not
/// delivered (failed mail stays visible), and a failed mail queued again.
pub mod outbox_admin {
    use super::{DbConnection, DbError, NaiveDateTime, outbox};

    pub use crate::db::mail::OutboxMail;
    pub use crate::db::status::MailStatus;

    pub fn counts(conn: &mut DbConnection) -> Result<Vec<(MailStatus, i64)>, DbError> {
        outbox::count_by_status(conn)
    }

    /// Up to `limit` mails not delivered, oldest first.
    pub fn undelivered(conn: &mut DbConnection, limit: i64) -> Result<Vec<OutboxMail>, DbError> {
        outbox::undelivered(conn, limit)
    }

    /// Queues a failed mail again; false when `id` is not a failed mail.
    pub fn retry(conn: &mut DbConnection, id: i64, now: NaiveDateTime) -> Result<bool, DbError> {
        outbox::retry(conn, id, now)
    }
}

/// The wait before attempt `attempts + 1`: 30 s, doubling, at most an hour.
pub fn backoff(attempts: i32) -> chrono::Duration {
    let exponent = u32::try_from(attempts.clamp(0, 7)).unwrap_or(7);
    chrono::Duration::seconds(30 * 2_i64.pow(exponent)).min(chrono::Duration::hours(1))
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("invalid address {address:?}: {reason}")]
    Address { address: String, reason: String },
    #[error("the message could not be built: {0}")]
    Build(String),
    #[error("delivery failed: {0}")]
    Delivery(String),
    #[error("the SMTP settings are invalid: {0}")]
    Config(String),
}

/// Delivers built messages: SMTP, or `.eml` files.
#[derive(Clone)]
pub enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Files {
        dir: std::path::PathBuf,
        transport: AsyncFileTransport<Tokio1Executor>,
    },
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Smtp(_) => f.write_str("Transport::Smtp"),
            Self::Files { dir, .. } => write!(f, "Transport::Files({})", dir.display()),
        }
    }
}

impl Transport {
    pub fn from_settings(settings: &MailTransport) -> Result<Self, MailError> {
        match settings {
            MailTransport::Outbox(dir) => {
                std::fs::create_dir_all(dir).map_err(|err| {
                    MailError::Config(format!("cannot create {}: {err}", dir.display()))
                })?;
                Ok(Self::Files {
                    dir: dir.clone(),
                    transport: AsyncFileTransport::new(dir),
                })
            }
            MailTransport::Smtp(url) => {
                // lettre reads TLS from the URL: smtps:// is implicit TLS,
                // `?tls=required` is STARTTLS, plain smtp:// is neither.
                let base = url.raw.split('?').next().unwrap_or(&url.raw);
                let rest = base
                    .strip_prefix("smtps://")
                    .or_else(|| base.strip_prefix("smtp://"))
                    .unwrap_or(base);
                let connection_url = match url.tls {
                    SmtpTls::None => format!("smtp://{rest}"),
                    SmtpTls::Starttls => format!("smtp://{rest}?tls=required"),
                    SmtpTls::Tls => format!("smtps://{rest}"),
                };
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&connection_url)
                    .map_err(|err| MailError::Config(err.to_string()))?
                    .timeout(Some(SMTP_TIMEOUT))
                    .build();
                Ok(Self::Smtp(transport))
            }
        }
    }

    async fn send(&self, message: Message) -> Result<String, MailError> {
        match self {
            Self::Smtp(smtp) => smtp
                .send(message)
                .await
                .map(|response| response.code().to_string())
                .map_err(|err| MailError::Delivery(err.to_string())),
            Self::Files { dir, transport } => transport
                .send(message)
                .await
                .map(|id| format!("{}/{id}.eml", dir.display()))
                .map_err(|err| MailError::Delivery(err.to_string())),
        }
    }
}

/// Builds the message for an outbox row. The Message-ID is derived from the
/// row, so a retried delivery is recognisably the same mail.
pub fn build_message(
    mail: &outbox::OutboxMail,
    from: &str,
    host: &str,
) -> Result<Message, MailError> {
    let from: Mailbox =
        from.parse()
            .map_err(|err: lettre::address::AddressError| MailError::Address {
                address: from.to_owned(),
                reason: err.to_string(),
            })?;
    let to: Mailbox = mail
        .to_address
        .parse()
        .map_err(|err: lettre::address::AddressError| MailError::Address {
            address: mail.to_address.clone(),
            reason: err.to_string(),
        })?;
    Message::builder()
        .from(from)
        .to(to)
        .subject(mail.subject.clone())
        .message_id(Some(format!("<outbox-{}@{host}>", mail.id)))
        .header(header::ContentType::TEXT_PLAIN)
        .body(mail.body_text.clone())
        .map_err(|err| MailError::Build(err.to_string()))
}

/// The background sender: claims due mail, delivers it, records the outcome.
pub struct Sender {
    pub db: Db,
    pub transport: Transport,
    pub from: String,
    /// Distinguishes this process's claims from other instances'.
    pub instance: String,
    pub wakeup: Arc<Notify>,
    pub host: String,
}

impl Sender {
    /// Runs until the task is dropped (server shutdown).
    pub async fn run(self) {
        tracing::info!(transport = ?self.transport, instance = %self.instance, "mail sender started");
        loop {
            match self.send_due().await {
                // A full batch may mean more is waiting: go again at once.
                Ok(sent) if sent >= BATCH_SIZE as usize => continue,
                Ok(_) => {}
                Err(err) => tracing::warn!(error = %err, "mail sender pass failed"),
            }
            let _ = tokio::time::timeout(POLL_INTERVAL, self.wakeup.notified()).await;
        }
    }

    /// One pass: returns how many mails were claimed.
    pub async fn send_due(&self) -> Result<usize, DbError> {
        let db = self.db.clone();
        let instance = self.instance.clone();
        let now = Utc::now().naive_utc();
        let claimed = tokio::task::spawn_blocking(move || {
            let mut conn = db.conn()?;
            outbox::claim_due(&mut conn, &instance, now, now + CLAIM_LEASE, BATCH_SIZE)
        })
        .await
        .map_err(|err| DbError::Connection(format!("mail claim task failed: {err}")))??;
        let count = claimed.len();
        for mail in claimed {
            let outcome = match build_message(&mail, &self.from, &self.host) {
                Ok(message) => self.transport.send(message).await,
                Err(err) => Err(err),
            };
            self.record(mail, outcome).await?;
        }
        Ok(count)
    }

    async fn record(
        &self,
        mail: outbox::OutboxMail,
        outcome: Result<String, MailError>,
    ) -> Result<(), DbError> {
        let db = self.db.clone();
        let instance = self.instance.clone();
        let now = Utc::now().naive_utc();
        match &outcome {
            // A file in the outbox reaches nobody: the log says where it is.
            Ok(detail) if matches!(self.transport, Transport::Files { .. }) => {
                tracing::info!(mail_id = mail.id, to = %mail.to_address, subject = %mail.subject, file = %detail, "mail written to the outbox, not sent")
            }
            Ok(detail) => {
                tracing::info!(mail_id = mail.id, to = %mail.to_address, subject = %mail.subject, %detail, "mail delivered")
            }
            Err(err) => {
                tracing::warn!(mail_id = mail.id, to = %mail.to_address, attempt = mail.attempts + 1, error = %err, "mail delivery failed")
            }
        }
        tokio::task::spawn_blocking(move || {
            let mut conn = db.conn()?;
            match outcome {
                Ok(_) => outbox::mark_sent(&mut conn, mail.id, &instance, now).map(|_| ()),
                Err(err) => {
                    let attempts = mail.attempts + 1;
                    // A malformed address will never work: give up at once.
                    let permanent = matches!(err, MailError::Address { .. } | MailError::Build(_));
                    let retry_at =
                        (!permanent && attempts < MAX_ATTEMPTS).then(|| now + backoff(attempts));
                    outbox::mark_attempt_failed(
                        &mut conn,
                        mail.id,
                        &instance,
                        &err.to_string(),
                        retry_at,
                    )
                }
            }
        })
        .await
        .map_err(|err| DbError::Connection(format!("mail record task failed: {err}")))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        assert_eq!(backoff(0), chrono::Duration::seconds(30));
        assert_eq!(backoff(1), chrono::Duration::seconds(60));
        assert_eq!(backoff(3), chrono::Duration::seconds(240));
        assert_eq!(backoff(20), chrono::Duration::hours(1));
    }
}
