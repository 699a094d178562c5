//! Accounts, session revocation, single-use mail tokens and sign-in throttling.

use super::WriteTransaction;
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{account_sessions, accounts, email_tokens, login_failures, revoked_tokens};
use super::{DbConnection, DbError};

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable)]
#[diesel(table_name = accounts)]
pub struct Account {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub password_hash: String,
    pub club: Option<String>,
    pub region: Option<String>,
    pub malifaux_name: Option<String>,
    pub mage_knight_name: Option<String>,
    pub is_admin: bool,
    pub email_verified_at: Option<NaiveDateTime>,
    pub session_generation: i32,
    pub created_at: NaiveDateTime,
    pub deleted_at: Option<NaiveDateTime>,
    /// Kept off the public rankings; the profile only for its owner and admins.
    pub profile_hidden: bool,
}

impl Account {
    pub fn is_verified(&self) -> bool {
        self.email_verified_at.is_some()
    }
}

/// The profile fields an account holder edits.
#[derive(Debug, Clone, Default, PartialEq, Eq, AsChangeset)]
#[diesel(table_name = accounts, treat_none_as_null = true)]
pub struct ProfileChanges {
    pub display_name: String,
    pub club: Option<String>,
    pub region: Option<String>,
    pub malifaux_name: Option<String>,
    pub mage_knight_name: Option<String>,
    pub profile_hidden: bool,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = accounts)]
pub struct NewAccount<'a> {
    pub email: &'a str,
    pub display_name: &'a str,
    pub password_hash: &'a str,
    pub club: Option<&'a str>,
    pub region: Option<&'a str>,
    pub is_admin: bool,
    pub created_at: NaiveDateTime,
}

/// Creates an account; `Ok(None)` when the email is already taken.
pub fn create_account(
    conn: &mut DbConnection,
    new: &NewAccount<'_>,
) -> Result<Option<Account>, DbError> {
    // A savepoint, so a duplicate leaves an enclosing PostgreSQL transaction usable.
    let result = conn
        .write_transaction(|conn| {
            diesel::insert_into(accounts::table)
                .values(new)
                .returning(accounts::all_columns)
                .get_result::<Account>(conn)
        })
        .map_err(DbError::from);
    match result {
        Ok(account) => Ok(Some(account)),
        Err(err) if err.is_unique_violation() => Ok(None),
        Err(err) => Err(err),
    }
}

/// A live (not deleted) account by its lower-cased email.
pub fn find_by_email(conn: &mut DbConnection, email: &str) -> Result<Option<Account>, DbError> {
    Ok(accounts::table
        .filter(accounts::email.eq(email))
        .filter(accounts::deleted_at.is_null())
        .select(Account::as_select())
        .first(conn)
        .optional()?)
}

/// A live account by id.
pub fn find_by_id(conn: &mut DbConnection, id: i64) -> Result<Option<Account>, DbError> {
    Ok(accounts::table
        .find(id)
        .filter(accounts::deleted_at.is_null())
        .select(Account::as_select())
        .first(conn)
        .optional()?)
}

pub fn update_profile(
    conn: &mut DbConnection,
    id: i64,
    changes: &ProfileChanges,
) -> Result<(), DbError> {
    diesel::update(accounts::table.find(id))
        .set(changes)
        .execute(conn)?;
    Ok(())
}

/// Sets a new password hash and ends every session and every password reset
/// link still out; returns the new session generation.
pub fn set_password(
    conn: &mut DbConnection,
    id: i64,
    hash: &str,
    now: NaiveDateTime,
) -> Result<i32, DbError> {
    end_email_tokens(conn, id, EmailTokenPurpose::ResetPassword, now)?;
    diesel::update(accounts::table.find(id))
        .set((
            accounts::password_hash.eq(hash),
            accounts::session_generation.eq(accounts::session_generation + 1),
        ))
        .execute(conn)?;
    Ok(accounts::table
        .find(id)
        .select(accounts::session_generation)
        .first(conn)?)
}

pub fn mark_email_verified(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::update(
        accounts::table
            .find(id)
            .filter(accounts::email_verified_at.is_null()),
    )
    .set(accounts::email_verified_at.eq(now))
    .execute(conn)?;
    Ok(())
}

pub fn set_admin(conn: &mut DbConnection, id: i64, is_admin: bool) -> Result<(), DbError> {
    diesel::update(accounts::table.find(id))
        .set(accounts::is_admin.eq(is_admin))
        .execute(conn)?;
    Ok(())
}

/// Deletes an account by anonymising it: results it played stay, with no
/// personal data left (its kept crew lists go), and every session ends.
pub fn anonymise_account(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    conn.write_transaction(|conn| {
        diesel::update(accounts::table.find(id))
            .set((
                accounts::email.eq(format!(
                    "deleted-{id}@{}",
                    crate::auth::input::DELETED_DOMAIN
                )),
                accounts::display_name.eq(format!("Deleted player #{id}")),
                accounts::password_hash.eq(""),
                accounts::club.eq(None::<String>),
                accounts::region.eq(None::<String>),
                accounts::malifaux_name.eq(None::<String>),
                accounts::mage_knight_name.eq(None::<String>),
                accounts::is_admin.eq(false),
                accounts::session_generation.eq(accounts::session_generation + 1),
                accounts::deleted_at.eq(Some(now)),
            ))
            .execute(conn)?;
        diesel::delete(email_tokens::table.filter(email_tokens::account_id.eq(id)))
            .execute(conn)?;
        // Kept crew lists are the player's own writing, named by them.
        diesel::delete(
            super::schema::saved_crews::table.filter(super::schema::saved_crews::account_id.eq(id)),
        )
        .execute(conn)?;
        Ok(())
    })
}

pub fn count_admins(conn: &mut DbConnection) -> Result<i64, DbError> {
    Ok(accounts::table
        .filter(accounts::is_admin.eq(true))
        .filter(accounts::deleted_at.is_null())
        .count()
        .get_result(conn)?)
}

/// Remembers a signed-out token until it would have expired.
pub fn revoke_token(
    conn: &mut DbConnection,
    jti: &str,
    expires_at: NaiveDateTime,
) -> Result<(), DbError> {
    let inserted = conn
        .write_transaction(|conn| {
            diesel::insert_into(revoked_tokens::table)
                .values((
                    revoked_tokens::jti.eq(jti),
                    revoked_tokens::expires_at.eq(expires_at),
                ))
                .execute(conn)
        })
        .map_err(DbError::from);
    match inserted {
        // Signing out twice is fine.
        Err(err) if err.is_unique_violation() => Ok(()),
        other => other.map(|_| ()),
    }
}

pub fn is_token_revoked(conn: &mut DbConnection, jti: &str) -> Result<bool, DbError> {
    Ok(diesel::select(diesel::dsl::exists(
        revoked_tokens::table.filter(revoked_tokens::jti.eq(jti)),
    ))
    .get_result(conn)?)
}

/// Drops revocations of tokens that have expired anyway, and old failure records.
pub fn purge_expired(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    failures_before: NaiveDateTime,
    sessions_unused_since: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::delete(revoked_tokens::table.filter(revoked_tokens::expires_at.lt(now)))
        .execute(conn)?;
    // A browser session not renewed for longer than a token lives has
    // ended; an API token has when it expires.
    diesel::delete(
        account_sessions::table
            .filter(account_sessions::kind.eq(SessionKind::Browser.code()))
            .filter(account_sessions::last_seen_at.lt(sessions_unused_since)),
    )
    .execute(conn)?;
    diesel::delete(
        account_sessions::table
            .filter(account_sessions::kind.eq(SessionKind::Api.code()))
            .filter(account_sessions::expires_at.lt(now)),
    )
    .execute(conn)?;
    diesel::delete(login_failures::table.filter(login_failures::at.lt(failures_before)))
        .execute(conn)?;
    Ok(())
}

/// What a mailed single-use token is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmailTokenPurpose {
    VerifyEmail,
    ResetPassword,
}

impl EmailTokenPurpose {
    fn code(self) -> &'static str {
        match self {
            Self::VerifyEmail => "verify_email",
            Self::ResetPassword => "reset_password",
        }
    }
}

pub fn create_email_token(
    conn: &mut DbConnection,
    account_id: i64,
    purpose: EmailTokenPurpose,
    token_hash: &str,
    now: NaiveDateTime,
    expires_at: NaiveDateTime,
) -> Result<(), DbError> {
    conn.write_transaction(|conn| {
        // A new link ends the older ones of the same purpose.
        end_email_tokens(conn, account_id, purpose, now)?;
        diesel::insert_into(email_tokens::table)
            .values((
                email_tokens::account_id.eq(account_id),
                email_tokens::purpose.eq(purpose.code()),
                email_tokens::token_hash.eq(token_hash),
                email_tokens::created_at.eq(now),
                email_tokens::expires_at.eq(expires_at),
            ))
            .execute(conn)?;
        Ok(())
    })
}

/// Ends every unused link of `purpose` for the account (marked used now).
pub fn end_email_tokens(
    conn: &mut DbConnection,
    account_id: i64,
    purpose: EmailTokenPurpose,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::update(
        email_tokens::table
            .filter(email_tokens::account_id.eq(account_id))
            .filter(email_tokens::purpose.eq(purpose.code()))
            .filter(email_tokens::used_at.is_null()),
    )
    .set(email_tokens::used_at.eq(now))
    .execute(conn)?;
    Ok(())
}

/// The account a live token belongs to, without using it up.
pub fn peek_email_token(
    conn: &mut DbConnection,
    purpose: EmailTokenPurpose,
    token_hash: &str,
    now: NaiveDateTime,
) -> Result<Option<i64>, DbError> {
    Ok(email_tokens::table
        .filter(email_tokens::token_hash.eq(token_hash))
        .filter(email_tokens::purpose.eq(purpose.code()))
        .filter(email_tokens::used_at.is_null())
        .filter(email_tokens::expires_at.gt(now))
        .select(email_tokens::account_id)
        .first(conn)
        .optional()?)
}

/// Uses up a token: succeeds once, for an unexpired token of the purpose.
pub fn consume_email_token(
    conn: &mut DbConnection,
    purpose: EmailTokenPurpose,
    token_hash: &str,
    now: NaiveDateTime,
) -> Result<Option<i64>, DbError> {
    conn.write_transaction(|conn| {
        let Some(account_id) = peek_email_token(conn, purpose, token_hash, now)? else {
            return Ok(None);
        };
        // The `used_at IS NULL` guard makes a concurrent second use update nothing.
        let updated = diesel::update(
            email_tokens::table
                .filter(email_tokens::token_hash.eq(token_hash))
                .filter(email_tokens::used_at.is_null()),
        )
        .set(email_tokens::used_at.eq(now))
        .execute(conn)?;
        Ok((updated == 1).then_some(account_id))
    })
}

/// How an account is signed in: a browser's session, or an API token
/// (for a script), each listed on the account page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum SessionKind {
    Browser,
    Api,
}

impl SessionKind {
    pub fn code(self) -> &'static str {
        self.into()
    }
}

/// One session an account is signed in with.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = account_sessions)]
struct SessionRow {
    sid: String,
    account_id: i64,
    started_at: NaiveDateTime,
    last_seen_at: NaiveDateTime,
    device: String,
    kind: String,
    expires_at: Option<NaiveDateTime>,
}

/// One session an account is signed in with.
#[derive(Debug, Clone)]
pub struct AccountSession {
    pub sid: String,
    pub account_id: i64,
    pub started_at: NaiveDateTime,
    pub last_seen_at: NaiveDateTime,
    pub device: String,
    pub kind: SessionKind,
    /// When an API token ends (a browser session is renewed as it is used).
    pub expires_at: Option<NaiveDateTime>,
}

impl TryFrom<SessionRow> for AccountSession {
    type Error = DbError;

    fn try_from(row: SessionRow) -> Result<Self, DbError> {
        let kind = row.kind.parse().map_err(|_| {
            let problem = format!("a session of an unknown kind {:?}", row.kind);
            DbError::Query(diesel::result::Error::DeserializationError(problem.into()))
        })?;
        Ok(Self {
            sid: row.sid,
            account_id: row.account_id,
            started_at: row.started_at,
            last_seen_at: row.last_seen_at,
            device: row.device,
            kind,
            expires_at: row.expires_at,
        })
    }
}

/// How often an API token's last use is written down: a script calling
/// many times a minute costs one write a minute, not one per call.
const TOKEN_USE_NOTED_EVERY: chrono::Duration = chrono::Duration::minutes(1);

/// The longest device description kept.
const MAX_DEVICE_LEN: usize = 120;

/// A client's description as kept: no control characters, not too long.
fn device_description(device: &str) -> String {
    device
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_DEVICE_LEN)
        .collect()
}

/// Records that session `sid` of `account_id` was used now (a new session,
/// or a renewal of one), with the browser's description.
pub fn touch_session(
    conn: &mut DbConnection,
    sid: &str,
    account_id: i64,
    now: NaiveDateTime,
    device: &str,
) -> Result<(), DbError> {
    let device = device_description(device);
    conn.write_transaction(|conn| {
        let updated = diesel::update(account_sessions::table.find(sid))
            .set((
                account_sessions::last_seen_at.eq(now),
                account_sessions::device.eq(&device),
            ))
            .execute(conn)?;
        if updated == 0 {
            insert_session(
                conn,
                sid,
                account_id,
                now,
                &device,
                SessionKind::Browser,
                None,
            )?;
        }
        Ok(())
    })
}

/// A new row of `account_sessions`, begun and last used `now`.
fn insert_session(
    conn: &mut DbConnection,
    sid: &str,
    account_id: i64,
    now: NaiveDateTime,
    device: &str,
    kind: SessionKind,
    expires_at: Option<NaiveDateTime>,
) -> Result<(), DbError> {
    diesel::insert_into(account_sessions::table)
        .values((
            account_sessions::sid.eq(sid),
            account_sessions::account_id.eq(account_id),
            account_sessions::started_at.eq(now),
            account_sessions::last_seen_at.eq(now),
            account_sessions::device.eq(device),
            account_sessions::kind.eq(kind.code()),
            account_sessions::expires_at.eq(expires_at),
        ))
        .execute(conn)?;
    Ok(())
}

/// Records a new API token `sid` of `account_id`, living until
/// `expires_at`, with what the client said it was.
pub fn record_api_token(
    conn: &mut DbConnection,
    sid: &str,
    account_id: i64,
    now: NaiveDateTime,
    expires_at: NaiveDateTime,
    client: &str,
) -> Result<(), DbError> {
    let device = device_description(client);
    conn.write_transaction(|conn| {
        insert_session(
            conn,
            sid,
            account_id,
            now,
            &device,
            SessionKind::Api,
            Some(expires_at),
        )
    })
}

/// Notes that API token `sid` was used `now`, at most once a minute: a
/// read, and a write only when the last one noted is older.
pub fn note_api_token_used(
    conn: &mut DbConnection,
    sid: &str,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let last: Option<NaiveDateTime> = account_sessions::table
        .find(sid)
        .select(account_sessions::last_seen_at)
        .first(conn)
        .optional()?;
    match last {
        Some(last) if last + TOKEN_USE_NOTED_EVERY <= now => conn.write_transaction(|conn| {
            diesel::update(account_sessions::table.find(sid))
                .set(account_sessions::last_seen_at.eq(now))
                .execute(conn)?;
            Ok(())
        }),
        _ => Ok(()),
    }
}

/// The sessions and API tokens of an account, the most recently used first.
pub fn sessions_of(
    conn: &mut DbConnection,
    account_id: i64,
) -> Result<Vec<AccountSession>, DbError> {
    account_sessions::table
        .filter(account_sessions::account_id.eq(account_id))
        .order((account_sessions::last_seen_at.desc(), account_sessions::sid))
        .select(SessionRow::as_select())
        .load(conn)?
        .into_iter()
        .map(AccountSession::try_from)
        .collect()
}

/// Revokes session or API token `sid` of `account_id` and forgets it;
/// false if the account has no such session (another's, or gone).
pub fn end_session_of(
    conn: &mut DbConnection,
    account_id: i64,
    sid: &str,
    expires_at: NaiveDateTime,
) -> Result<bool, DbError> {
    conn.write_transaction(|conn| {
        let removed = diesel::delete(
            account_sessions::table
                .filter(account_sessions::sid.eq(sid))
                .filter(account_sessions::account_id.eq(account_id)),
        )
        .execute(conn)?;
        if removed == 0 {
            return Ok(false);
        }
        revoke_token(conn, sid, expires_at)?;
        Ok(true)
    })
}

/// Forgets a session that was signed out.
pub fn forget_session(conn: &mut DbConnection, sid: &str) -> Result<(), DbError> {
    conn.write_transaction(|conn| {
        diesel::delete(account_sessions::table.find(sid)).execute(conn)?;
        Ok(())
    })
}

/// Signs out every session of the account but `keep` (its browser
/// sessions, and its API tokens too if `with_api_tokens`): each is revoked
/// until `expires_at` (when it would have ended anyway) and forgotten.
/// Returns how many ended.
pub fn end_other_sessions(
    conn: &mut DbConnection,
    account_id: i64,
    keep: &str,
    with_api_tokens: bool,
    expires_at: NaiveDateTime,
) -> Result<usize, DbError> {
    let kinds: &[&str] = if with_api_tokens {
        &[SessionKind::Browser.code(), SessionKind::Api.code()]
    } else {
        &[SessionKind::Browser.code()]
    };
    conn.write_transaction(|conn| {
        let others: Vec<String> = account_sessions::table
            .filter(account_sessions::account_id.eq(account_id))
            .filter(account_sessions::sid.ne(keep))
            .filter(account_sessions::kind.eq_any(kinds))
            .select(account_sessions::sid)
            .load(conn)?;
        for sid in &others {
            revoke_token(conn, sid, expires_at)?;
        }
        diesel::delete(account_sessions::table.filter(account_sessions::sid.eq_any(&others)))
            .execute(conn)?;
        Ok(others.len())
    })
}
