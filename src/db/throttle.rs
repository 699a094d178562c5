//! Budgets of attempts over a sliding window (sign-ins, sign-ups, mails to
//! an address), kept in the `login_failures` log by key.
//!
//! An attempt is spent before the work it pays for (a password check, a
//! mail), under a lock per key, so a burst of concurrent requests cannot all
//! see the same old count and all pass: the budget holds on both backends.
//! Work that turns out not to count (a correct password) is refunded.

use chrono::{Duration, NaiveDateTime};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use sha2::{Digest, Sha256};

use super::schema::login_failures;
use super::{DbConnection, DbError, WriteTransaction};

/// At most `limit` attempts under `key` within `window`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    pub key: String,
    pub limit: i64,
    pub window: Duration,
}

impl Budget {
    pub fn new(key: impl Into<String>, limit: i64, window: Duration) -> Self {
        Self {
            key: key.into(),
            limit,
            window,
        }
    }
}

/// The attempts one [`spend`] recorded, to [`refund`] if they should not count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spent(Vec<i64>);

/// Spends one attempt from every budget, or from none when any of them is
/// used up (`None`). The check and the spending are one write transaction;
/// SQLite's is exclusive, and on PostgreSQL each key's advisory lock makes
/// concurrent spenders of one key take turns.
pub fn spend(
    conn: &mut DbConnection,
    budgets: &[Budget],
    now: NaiveDateTime,
) -> Result<Option<Spent>, DbError> {
    conn.write_transaction(|conn| {
        lock_keys(conn, budgets.iter().map(|b| b.key.as_str()))?;
        for budget in budgets {
            if count(conn, &budget.key, now - budget.window)? >= budget.limit {
                return Ok(None);
            }
        }
        let mut ids = Vec::with_capacity(budgets.len());
        for budget in budgets {
            ids.push(
                diesel::insert_into(login_failures::table)
                    .values((
                        login_failures::throttle_key.eq(&budget.key),
                        login_failures::at.eq(now),
                    ))
                    .returning(login_failures::id)
                    .get_result::<i64>(conn)?,
            );
        }
        Ok(Some(Spent(ids)))
    })
}

/// Gives back what a [`spend`] took: the work it paid for did not count.
pub fn refund(conn: &mut DbConnection, spent: &Spent) -> Result<(), DbError> {
    diesel::delete(login_failures::table.filter(login_failures::id.eq_any(&spent.0)))
        .execute(conn)?;
    Ok(())
}

/// Forgets every attempt under `key` (a browser that signed in correctly
/// gets its own budget back).
pub fn clear(conn: &mut DbConnection, key: &str) -> Result<(), DbError> {
    diesel::delete(login_failures::table.filter(login_failures::throttle_key.eq(key)))
        .execute(conn)?;
    Ok(())
}

/// Attempts under `key` after `since`.
pub fn count(conn: &mut DbConnection, key: &str, since: NaiveDateTime) -> Result<i64, DbError> {
    Ok(login_failures::table
        .filter(login_failures::throttle_key.eq(key))
        .filter(login_failures::at.gt(since))
        .count()
        .get_result(conn)?)
}

/// On PostgreSQL, takes a transaction-scoped advisory lock per key, in a
/// fixed order so two spenders of overlapping keys cannot deadlock. SQLite
/// needs none: its write transaction already excludes every other writer.
fn lock_keys<'a>(
    conn: &mut DbConnection,
    keys: impl Iterator<Item = &'a str>,
) -> Result<(), DbError> {
    let DbConnection::Postgres(pg) = conn else {
        return Ok(());
    };
    let mut ids: Vec<i64> = keys.map(lock_id).collect();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        pg.batch_execute(&format!("SELECT pg_advisory_xact_lock({id})"))
            .map_err(DbError::from)?;
    }
    Ok(())
}

/// A key's advisory lock number: the first eight bytes of its SHA-256, so
/// keys (which hold addresses and emails) never reach the SQL text.
fn lock_id(key: &str) -> i64 {
    let digest = Sha256::digest(format!("soulstone-throttle:{key}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_ids_are_stable_and_tell_keys_apart() {
        assert_eq!(lock_id("address:10.0.0.1"), lock_id("address:10.0.0.1"));
        assert_ne!(lock_id("address:10.0.0.1"), lock_id("address:10.0.0.2"));
    }
}
