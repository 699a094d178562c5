//! Accounts as a service: a player's profile, password and deletion, and
//! where the account is signed in (browser sessions and API tokens), over
//! the database. Signing up, signing in and password resets, with their
//! throttles, still run in their handlers (`web/accounts/`).

use chrono::NaiveDateTime;

use crate::db::accounts as db_accounts;
use crate::db::{DbConnection, DbError, WriteTransaction};
use crate::mail::{self, messages};

pub use crate::db::accounts::{Account, AccountSession, ProfileChanges, SessionKind};

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("no such account")]
    NotFound,
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("mail could not be composed: {0}")]
    Mail(#[from] askama::Error),
}

impl From<diesel::result::Error> for AccountError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Db(error.into())
    }
}

pub fn update_profile(
    conn: &mut DbConnection,
    account_id: i64,
    changes: &ProfileChanges,
) -> Result<(), AccountError> {
    Ok(db_accounts::update_profile(conn, account_id, changes)?)
}

/// Sets a new password (already hashed: hashing is slow and holds no
/// connection) and tells the owner by mail, in one transaction. Every
/// session of the account ends, as its tokens' generation moves on.
pub fn change_password(
    conn: &mut DbConnection,
    account_id: i64,
    hash: &str,
    base_url: &str,
    now: NaiveDateTime,
) -> Result<Account, AccountError> {
    conn.write_transaction(|conn| {
        db_accounts::set_password(conn, account_id, hash, now)?;
        let account = db_accounts::find_by_id(conn, account_id)?.ok_or(AccountError::NotFound)?;
        let mail = messages::password_changed(
            &account.email,
            &account.display_name,
            &format!("{base_url}/password/forgot"),
        )?;
        mail::queue(conn, &mail, None, now)?;
        Ok(account)
    })
}

/// Deletes an account: its personal data goes, the results it played stay
/// without its name.
pub fn delete(
    conn: &mut DbConnection,
    account_id: i64,
    now: NaiveDateTime,
) -> Result<(), AccountError> {
    Ok(db_accounts::anonymise_account(conn, account_id, now)?)
}

/// The account's browser sessions and API tokens, the most recently used first.
pub fn sessions_of(
    conn: &mut DbConnection,
    account_id: i64,
) -> Result<Vec<AccountSession>, AccountError> {
    Ok(db_accounts::sessions_of(conn, account_id)?)
}

/// Ends every session of the account but `keep` (and its API tokens, if
/// asked); returns how many ended. `expires_at` bounds how long the ended
/// tokens are remembered as revoked.
pub fn end_other_sessions(
    conn: &mut DbConnection,
    account_id: i64,
    keep: &str,
    with_api_tokens: bool,
    expires_at: NaiveDateTime,
) -> Result<usize, AccountError> {
    Ok(db_accounts::end_other_sessions(
        conn,
        account_id,
        keep,
        with_api_tokens,
        expires_at,
    )?)
}

/// Ends one session or API token of the account; false when it had ended.
pub fn end_session(
    conn: &mut DbConnection,
    account_id: i64,
    sid: &str,
    expires_at: NaiveDateTime,
) -> Result<bool, AccountError> {
    Ok(db_accounts::end_session_of(
        conn, account_id, sid, expires_at,
    )?)
}
