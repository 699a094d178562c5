//! The mail outbox: mails wait here until a sender claims and delivers them.
//! Claims are leases, so two instances never work on the same mail at once,
//! and a crashed sender's claims lapse and are picked up again.

use super::WriteTransaction;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Text, Timestamp};

use super::schema::mail_outbox;
use super::status::MailStatus;
use super::{DbConnection, DbError};

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, QueryableByName)]
#[diesel(table_name = mail_outbox)]
pub struct OutboxMail {
    pub id: i64,
    pub to_address: String,
    pub subject: String,
    pub body_text: String,
    pub status: MailStatus,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
    pub claimed_by: Option<String>,
    pub claimed_until: Option<NaiveDateTime>,
    pub last_error: Option<String>,
    pub created_at: NaiveDateTime,
    pub sent_at: Option<NaiveDateTime>,
    pub dedupe_key: Option<String>,
}

/// Queues a mail. With a `dedupe_key`, a second mail with the same key is
/// not queued (returns `false`).
pub fn enqueue(
    conn: &mut DbConnection,
    to: &str,
    subject: &str,
    body: &str,
    dedupe_key: Option<&str>,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    // A savepoint, so a duplicate leaves an enclosing PostgreSQL transaction usable.
    let inserted = conn
        .write_transaction(|conn| insert_pending(conn, (to, subject, body), dedupe_key, now, now));
    match inserted {
        Ok(_) => Ok(true),
        Err(err) if err.is_unique_violation() => Ok(false),
        Err(err) => Err(err),
    }
}

/// Adds a mail (recipient, subject, body) waiting to go out at `due`.
fn insert_pending(
    conn: &mut DbConnection,
    (to, subject, body): (&str, &str, &str),
    dedupe_key: Option<&str>,
    due: NaiveDateTime,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::insert_into(mail_outbox::table)
        .values((
            mail_outbox::to_address.eq(to),
            mail_outbox::subject.eq(subject),
            mail_outbox::body_text.eq(body),
            mail_outbox::status.eq(MailStatus::Pending),
            mail_outbox::attempts.eq(0),
            mail_outbox::next_attempt_at.eq(due),
            mail_outbox::created_at.eq(now),
            mail_outbox::dedupe_key.eq(dedupe_key),
        ))
        .execute(conn)?;
    Ok(())
}

/// Queues a mail about `topic` (one game's result to confirm, say) so that
/// its recipient gets at most one mail about it per `window`, and that one
/// carries the newest text: a mail on the topic still waiting (and not
/// being sent right now) is rewritten instead of joined by another, and
/// after one went out the next waits until the window has passed. Returns
/// whether a new mail was queued.
pub fn enqueue_coalesced(
    conn: &mut DbConnection,
    to: &str,
    subject: &str,
    body: &str,
    topic: &str,
    window: chrono::Duration,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    conn.write_transaction(|conn| {
        let earlier: Vec<OutboxMail> = mail_outbox::table
            .filter(mail_outbox::to_address.eq(to))
            .filter(mail_outbox::dedupe_key.like(format!("{topic}#%")))
            .order(mail_outbox::id.desc())
            .select(OutboxMail::as_select())
            .load(conn)?;
        let being_sent = |mail: &OutboxMail| mail.claimed_until.is_some_and(|until| until > now);
        if let Some(waiting) = earlier
            .iter()
            .find(|mail| mail.status == MailStatus::Pending && !being_sent(mail))
        {
            diesel::update(mail_outbox::table.find(waiting.id))
                .set((
                    mail_outbox::subject.eq(subject),
                    mail_outbox::body_text.eq(body),
                ))
                .execute(conn)?;
            return Ok(false);
        }
        let last_out = earlier
            .iter()
            .filter_map(|mail| {
                if being_sent(mail) {
                    Some(now)
                } else {
                    mail.sent_at
                }
            })
            .max();
        let due = last_out.map_or(now, |sent| (sent + window).max(now));
        let key = format!("{topic}#{}", earlier.len() + 1);
        insert_pending(conn, (to, subject, body), Some(&key), due, now)?;
        Ok(true)
    })
}

/// Claims up to `limit` due mails for `claimant` until `lease_until`.
pub fn claim_due(
    conn: &mut DbConnection,
    claimant: &str,
    now: NaiveDateTime,
    lease_until: NaiveDateTime,
    limit: i64,
) -> Result<Vec<OutboxMail>, DbError> {
    // Both backends update the chosen rows in one statement; PostgreSQL also
    // skips rows another instance is claiming at this very moment.
    let columns = "id, to_address, subject, body_text, status, attempts, next_attempt_at, \
                   claimed_by, claimed_until, last_error, created_at, sent_at, dedupe_key";
    let mails = match conn {
        DbConnection::Postgres(conn) => diesel::sql_query(format!(
            "UPDATE mail_outbox SET claimed_by = $1, claimed_until = $2 \
             WHERE id IN (SELECT id FROM mail_outbox \
                 WHERE status = 'pending' AND next_attempt_at <= $3 \
                 AND (claimed_until IS NULL OR claimed_until < $3) \
                 ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED) \
             RETURNING {columns}"
        ))
        .bind::<Text, _>(claimant)
        .bind::<Timestamp, _>(lease_until)
        .bind::<Timestamp, _>(now)
        .bind::<BigInt, _>(limit)
        .load::<OutboxMail>(conn)?,
        DbConnection::Sqlite(conn) => diesel::sql_query(format!(
            "UPDATE mail_outbox SET claimed_by = ?, claimed_until = ? \
             WHERE id IN (SELECT id FROM mail_outbox \
                 WHERE status = 'pending' AND next_attempt_at <= ? \
                 AND (claimed_until IS NULL OR claimed_until < ?) \
                 ORDER BY id LIMIT ?) \
             RETURNING {columns}"
        ))
        .bind::<Text, _>(claimant)
        .bind::<Timestamp, _>(lease_until)
        .bind::<Timestamp, _>(now)
        .bind::<Timestamp, _>(now)
        .bind::<BigInt, _>(limit)
        .load::<OutboxMail>(conn)?,
    };
    Ok(mails)
}

/// What a sent mail's body becomes in the outbox.
pub const SENT_BODY: &str = "(delivered; the text is not kept)";

/// Records a delivery; only the claimant may (a lapsed claim changes nothing).
pub fn mark_sent(
    conn: &mut DbConnection,
    id: i64,
    claimant: &str,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    let updated = diesel::update(
        mail_outbox::table
            .find(id)
            .filter(mail_outbox::claimed_by.eq(claimant))
            .filter(mail_outbox::status.eq(MailStatus::Pending)),
    )
    .set((
        mail_outbox::status.eq(MailStatus::Sent),
        // A sent mail's body is not kept: it may hold a sign-in, reset or
        // confirmation link that anyone with a backup could use.
        mail_outbox::body_text.eq(SENT_BODY),
        mail_outbox::sent_at.eq(Some(now)),
        mail_outbox::attempts.eq(mail_outbox::attempts + 1),
        mail_outbox::claimed_by.eq(None::<String>),
        mail_outbox::claimed_until.eq(None::<NaiveDateTime>),
        mail_outbox::last_error.eq(None::<String>),
    ))
    .execute(conn)?;
    Ok(updated == 1)
}

/// Records a failed attempt: try again at `retry_at`, or give up (the mail
/// stays, marked failed, for an admin to see and retry).
pub fn mark_attempt_failed(
    conn: &mut DbConnection,
    id: i64,
    claimant: &str,
    error: &str,
    retry_at: Option<NaiveDateTime>,
) -> Result<(), DbError> {
    let status = if retry_at.is_some() {
        MailStatus::Pending
    } else {
        MailStatus::Failed
    };
    let error: String = error.chars().take(1_000).collect();
    diesel::update(
        mail_outbox::table
            .find(id)
            .filter(mail_outbox::claimed_by.eq(claimant)),
    )
    .set((
        mail_outbox::status.eq(status),
        mail_outbox::attempts.eq(mail_outbox::attempts + 1),
        mail_outbox::last_error.eq(Some(error)),
        mail_outbox::claimed_by.eq(None::<String>),
        mail_outbox::claimed_until.eq(None::<NaiveDateTime>),
        mail_outbox::next_attempt_at
            .eq(retry_at.unwrap_or_else(|| chrono::DateTime::UNIX_EPOCH.naive_utc())),
    ))
    .execute(conn)?;
    Ok(())
}

/// What an undelivered mail's body becomes once it is given up.
pub const EXPIRED_BODY: &str =
    "(not delivered in time; any link in it has expired, so the text is not kept)";

/// The longest any mailed link lives (a staff invitation's 14 days): a
/// mail still undelivered after it holds nothing worth sending.
pub const LONGEST_LINK_LIFETIME: chrono::Duration = chrono::Duration::days(14);

/// Gives up mails queued before `queued_before` and not delivered (and not
/// being sent right now), dropping their text: a backup of the database
/// then holds no link that could still be used. Returns how many.
pub fn expire_undelivered(
    conn: &mut DbConnection,
    queued_before: NaiveDateTime,
    now: NaiveDateTime,
) -> Result<usize, DbError> {
    Ok(diesel::update(
        mail_outbox::table
            .filter(mail_outbox::status.ne(MailStatus::Sent))
            .filter(mail_outbox::body_text.ne(EXPIRED_BODY))
            .filter(mail_outbox::created_at.lt(queued_before))
            .filter(
                mail_outbox::claimed_until
                    .is_null()
                    .or(mail_outbox::claimed_until.lt(now)),
            ),
    )
    .set((
        mail_outbox::status.eq(MailStatus::Failed),
        mail_outbox::body_text.eq(EXPIRED_BODY),
        mail_outbox::last_error.eq(Some("given up: not delivered while its links were valid")),
    ))
    .execute(conn)?)
}

/// Puts a failed mail back in the queue now (not one given up with its
/// text dropped: there is nothing left to send).
pub fn retry(conn: &mut DbConnection, id: i64, now: NaiveDateTime) -> Result<bool, DbError> {
    let updated = diesel::update(
        mail_outbox::table
            .find(id)
            .filter(mail_outbox::status.eq(MailStatus::Failed))
            .filter(mail_outbox::body_text.ne(EXPIRED_BODY)),
    )
    .set((
        mail_outbox::status.eq(MailStatus::Pending),
        mail_outbox::next_attempt_at.eq(now),
        mail_outbox::attempts.eq(0),
    ))
    .execute(conn)?;
    Ok(updated == 1)
}

/// Mails not yet delivered (pending or failed), oldest first, for the admin page.
pub fn undelivered(conn: &mut DbConnection, limit: i64) -> Result<Vec<OutboxMail>, DbError> {
    Ok(mail_outbox::table
        .filter(mail_outbox::status.ne(MailStatus::Sent))
        .order(mail_outbox::id.asc())
        .limit(limit)
        .select(OutboxMail::as_select())
        .load(conn)?)
}

/// Counts by status, for the admin dashboard.
pub fn count_by_status(conn: &mut DbConnection) -> Result<Vec<(MailStatus, i64)>, DbError> {
    Ok(mail_outbox::table
        .group_by(mail_outbox::status)
        .select((mail_outbox::status, diesel::dsl::count_star()))
        .order(mail_outbox::status.asc())
        .load(conn)?)
}

/// All mails to an address, newest last (tests and support).
pub fn to_address(conn: &mut DbConnection, address: &str) -> Result<Vec<OutboxMail>, DbError> {
    Ok(mail_outbox::table
        .filter(mail_outbox::to_address.eq(address))
        .order(mail_outbox::id.asc())
        .select(OutboxMail::as_select())
        .load(conn)?)
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = Integer)]
    n: i32,
}

/// How many mails are waiting (pending), for health and tests.
pub fn pending_count(conn: &mut DbConnection) -> Result<i64, DbError> {
    let row: Count = diesel::sql_query(
        "SELECT CAST(COUNT(*) AS INTEGER) AS n FROM mail_outbox WHERE status = 'pending'",
    )
    .get_result(conn)?;
    Ok(i64::from(row.n))
}
