//! Accounts as a service: signing up and confirming an address, a
//! player's profile, password and deletion, reset links, where the account
//! is signed in (browser sessions and API tokens), and the budgets that
//! throttle attempts, over the database. Checking a password is slow and
//! holds no connection, so signing in is three steps the handler takes in
//! turn (`web/accounts/signin.rs`): look up and spend, check, forgive.

use chrono::NaiveDateTime;

use crate::db::accounts as db_accounts;
use crate::db::{DbConnection, DbError, WriteTransaction};
use crate::mail::{self, messages};

pub use crate::db::accounts::{Account, AccountSession, NewAccount, ProfileChanges, SessionKind};
pub use crate::db::throttle::{Budget, Spent};

/// How long a password reset link works.
pub const RESET_LINK_MINUTES: i64 = 60;
/// Reset mails one address receives in a quarter of an hour, whoever asks.
const MAX_RESET_MAILS_PER_ADDRESS: i64 = 3;
const RESET_MAIL_WINDOW: chrono::Duration = chrono::Duration::minutes(15);
/// How long a link confirming an address works.
pub const VERIFY_LINK_HOURS: i64 = 48;
/// "You already have an account" mails one address receives in an hour.
const MAX_SIGNUP_MAILS_PER_TARGET: i64 = 3;

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("no such account")]
    NotFound,
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("mail could not be composed: {0}")]
    Mail(#[from] askama::Error),
    #[error("a link could not be written: {0}")]
    Link(#[from] serde_urlencoded::ser::Error),
}

impl From<diesel::result::Error> for AccountError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Db(error.into())
    }
}

/// The hourly clean-up: revocations of expired tokens, old throttle
/// records, ended sessions and old form submission keys are forgotten, and
/// mails whose links expired undelivered are given up.
pub fn housekeeping(conn: &mut DbConnection, now: NaiveDateTime) -> Result<(), DbError> {
    db_accounts::purge_expired(
        conn,
        now,
        now - chrono::Duration::days(1),
        now - crate::auth::token::SESSION_LIFETIME,
    )?;
    crate::db::events::purge_submissions(conn, now - chrono::Duration::days(7))?;
    crate::db::mail::expire_undelivered(conn, now - crate::db::mail::LONGEST_LINK_LIFETIME, now)?;
    Ok(())
}

/// What a signed token says of its bearer, as checking it against the
/// accounts needs.
#[derive(Debug, Clone, Copy)]
pub struct TokenHeld<'a> {
    pub account_id: i64,
    /// The account's session generation when the token was issued.
    pub generation: i32,
    /// The token's own id.
    pub jti: &'a str,
    /// The id of the session it belongs to (its own id for the first).
    pub session_id: &'a str,
    /// An API token, whose last use its owner sees.
    pub api: bool,
}

/// The account a verified token signs in, if it still may: the account
/// exists, no password change since moved its generation on, and neither
/// the token nor its session (signed out) is revoked. An API token's use
/// is noted.
pub fn account_for_token(
    conn: &mut DbConnection,
    token: TokenHeld<'_>,
    now: NaiveDateTime,
) -> Result<Option<Account>, AccountError> {
    let Some(account) = db_accounts::find_by_id(conn, token.account_id)? else {
        return Ok(None);
    };
    if token.generation != account.session_generation {
        return Ok(None);
    }
    if db_accounts::is_token_revoked(conn, token.jti)?
        || (token.session_id != token.jti && db_accounts::is_token_revoked(conn, token.session_id)?)
    {
        return Ok(None);
    }
    if token.api {
        db_accounts::note_api_token_used(conn, token.jti, now)?;
    }
    Ok(Some(account))
}

/// A session's use to record: a new session, or a renewal of one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use = "record it (accounts::record_session), or the account page will not list the session"]
pub struct SessionUse {
    pub session_id: String,
    pub account_id: i64,
    pub at: NaiveDateTime,
    /// What the browser says it is.
    pub device: String,
}

/// Records a session's use, for the account page's list of sessions.
pub fn record_session(conn: &mut DbConnection, used: &SessionUse) -> Result<(), AccountError> {
    Ok(db_accounts::touch_session(
        conn,
        &used.session_id,
        used.account_id,
        used.at,
        &used.device,
    )?)
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
    conn.write_transaction(|conn| set_password_and_tell(conn, account_id, hash, base_url, now))
}

/// Creates the account and mails its owner a link to confirm the address;
/// when the address has an account already, mails its owner a sign-in link
/// instead (a few an hour). The same outcome either way, so a visitor
/// learns nothing of which addresses are known. `next` is where the person
/// was going, carried through the links.
pub fn sign_up(
    conn: &mut DbConnection,
    new: &NewAccount<'_>,
    base_url: &str,
    next: &str,
) -> Result<(), AccountError> {
    let now = new.created_at;
    conn.write_transaction(|conn| {
        if let Some(account) = db_accounts::create_account(conn, new)? {
            return send_verification(conn, &account, base_url, next, now);
        }
        // Someone signing up again and again with another person's
        // address sends that person few mails.
        let target = [Budget::new(
            format!("signup-mail:{}", new.email),
            MAX_SIGNUP_MAILS_PER_TARGET,
            chrono::Duration::hours(1),
        )];
        if crate::db::throttle::spend(conn, &target, now)?.is_none() {
            return Ok(());
        }
        let mail = messages::signup_existing(
            new.email,
            &signin_link(base_url, next)?,
            &format!("{base_url}/password/forgot"),
        )?;
        mail::queue(conn, &mail, None, now)?;
        Ok(())
    })
}

/// Mails a link confirming the account's address. It carries where the
/// person was going (`next`, "/" for nowhere in particular), so confirming
/// takes them on there.
pub fn send_verification(
    conn: &mut DbConnection,
    account: &Account,
    base_url: &str,
    next: &str,
    now: NaiveDateTime,
) -> Result<(), AccountError> {
    conn.write_transaction(|conn| {
        let token = issue_mailed_link(
            conn,
            account.id,
            db_accounts::EmailTokenPurpose::VerifyEmail,
            now,
            chrono::Duration::hours(VERIFY_LINK_HOURS),
        )?;
        let link = if next == "/" {
            format!("{base_url}/verify-email?token={token}")
        } else {
            let query = serde_urlencoded::to_string([("token", token.as_str()), ("next", next)])?;
            format!("{base_url}/verify-email?{query}")
        };
        let mail = messages::verify_email(
            &account.email,
            &account.display_name,
            &link,
            VERIFY_LINK_HOURS,
        )?;
        mail::queue(conn, &mail, None, now)?;
        Ok(())
    })
}

/// Confirms an address with the link mailed to it (the hash of its token),
/// which is spent: the account, or None when the link is unknown, used or
/// expired.
pub fn confirm_email(
    conn: &mut DbConnection,
    token_hash: &str,
    now: NaiveDateTime,
) -> Result<Option<Account>, AccountError> {
    conn.write_transaction(|conn| {
        let Some(account_id) = spend_mailed_link(
            conn,
            db_accounts::EmailTokenPurpose::VerifyEmail,
            token_hash,
            now,
        )?
        else {
            return Ok(None);
        };
        Ok(db_accounts::find_by_id(conn, account_id)?)
    })
}

/// A new token for a link to mail for `purpose`, working for `lifetime`:
/// only its hash is kept, the token itself goes into the link.
fn issue_mailed_link(
    conn: &mut DbConnection,
    account_id: i64,
    purpose: db_accounts::EmailTokenPurpose,
    now: NaiveDateTime,
    lifetime: chrono::Duration,
) -> Result<String, AccountError> {
    let token = crate::auth::random_token();
    db_accounts::create_email_token(
        conn,
        account_id,
        purpose,
        &crate::auth::hash_token(&token),
        now,
        now + lifetime,
    )?;
    Ok(token)
}

/// Spends a link mailed for `purpose` (the hash of its token): the
/// account it was for, or None when it is unknown, used or expired.
/// Whoever opens a link mailed to an address has shown they own it, so
/// the address counts as confirmed.
fn spend_mailed_link(
    conn: &mut DbConnection,
    purpose: db_accounts::EmailTokenPurpose,
    token_hash: &str,
    now: NaiveDateTime,
) -> Result<Option<i64>, AccountError> {
    let Some(account_id) = db_accounts::consume_email_token(conn, purpose, token_hash, now)? else {
        return Ok(None);
    };
    db_accounts::mark_email_verified(conn, account_id, now)?;
    Ok(Some(account_id))
}

/// The sign-in page's address, carrying where the person was going.
pub fn signin_link(base_url: &str, next: &str) -> Result<String, AccountError> {
    if next == "/" {
        return Ok(format!("{base_url}/signin"));
    }
    let query = serde_urlencoded::to_string([("next", next)])?;
    Ok(format!("{base_url}/signin?{query}"))
}

/// The account with this address, if there is one (deleted ones are not).
pub fn find_by_email(
    conn: &mut DbConnection,
    email: &str,
) -> Result<Option<Account>, AccountError> {
    Ok(db_accounts::find_by_email(conn, email)?)
}

/// Gives back what a [`spend`] took: the work it paid for did not count.
pub fn refund(conn: &mut DbConnection, spent: &Spent) -> Result<(), AccountError> {
    Ok(crate::db::throttle::refund(conn, spent)?)
}

/// A password that was right: the attempt does not count, and the budget
/// under `own_key` (the client's own) starts afresh.
pub fn forgive(conn: &mut DbConnection, spent: &Spent, own_key: &str) -> Result<(), AccountError> {
    conn.write_transaction(|conn| {
        crate::db::throttle::refund(conn, spent)?;
        crate::db::throttle::clear(conn, own_key)?;
        Ok(())
    })
}

/// Ends a browser session: every token of it, renewed or copied, is
/// refused until `expires_at`, and it leaves the account's list.
pub fn sign_out(
    conn: &mut DbConnection,
    session: &str,
    expires_at: NaiveDateTime,
) -> Result<(), AccountError> {
    conn.write_transaction(|conn| {
        db_accounts::revoke_token(conn, session, expires_at)?;
        db_accounts::forget_session(conn, session)?;
        Ok(())
    })
}

/// Spends one attempt from every budget, or from none when one of them is
/// used up (None); the check and the spending are one transaction.
pub fn spend(
    conn: &mut DbConnection,
    budgets: &[Budget],
    now: NaiveDateTime,
) -> Result<Option<Spent>, AccountError> {
    Ok(crate::db::throttle::spend(conn, budgets, now)?)
}

/// Mails a reset link to the account with this address, if there is one
/// and the address has not had its share of reset mails lately. Either way
/// nothing tells the asker whether the address is known.
pub fn send_password_reset(
    conn: &mut DbConnection,
    email: &str,
    base_url: &str,
    now: NaiveDateTime,
) -> Result<(), AccountError> {
    conn.write_transaction(|conn| {
        let Some(account) = db_accounts::find_by_email(conn, email)? else {
            return Ok(());
        };
        let target = [Budget::new(
            format!("reset:{}", account.email),
            MAX_RESET_MAILS_PER_ADDRESS,
            RESET_MAIL_WINDOW,
        )];
        if crate::db::throttle::spend(conn, &target, now)?.is_none() {
            return Ok(());
        }
        let token = issue_mailed_link(
            conn,
            account.id,
            db_accounts::EmailTokenPurpose::ResetPassword,
            now,
            chrono::Duration::minutes(RESET_LINK_MINUTES),
        )?;
        let link = format!("{base_url}/password/reset?token={token}");
        let mail = messages::password_reset(
            &account.email,
            &account.display_name,
            &link,
            RESET_LINK_MINUTES,
        )?;
        mail::queue(conn, &mail, None, now)?;
        Ok(())
    })
}

/// Whether a reset link (the hash of its token) still works.
pub fn reset_link_works(
    conn: &mut DbConnection,
    token_hash: &str,
    now: NaiveDateTime,
) -> Result<bool, AccountError> {
    Ok(db_accounts::peek_email_token(
        conn,
        db_accounts::EmailTokenPurpose::ResetPassword,
        token_hash,
        now,
    )?
    .is_some())
}

/// Sets a new password from a reset link (the hash of its token), which
/// is spent: false when the link is unknown, used or expired. Whoever
/// reset by mail has shown they own the address, so it counts as
/// confirmed; the owner is told by mail.
pub fn reset_password(
    conn: &mut DbConnection,
    token_hash: &str,
    hash: &str,
    base_url: &str,
    now: NaiveDateTime,
) -> Result<bool, AccountError> {
    conn.write_transaction(|conn| {
        let Some(account_id) = spend_mailed_link(
            conn,
            db_accounts::EmailTokenPurpose::ResetPassword,
            token_hash,
            now,
        )?
        else {
            return Ok(false);
        };
        set_password_and_tell(conn, account_id, hash, base_url, now)?;
        Ok(true)
    })
}

fn set_password_and_tell(
    conn: &mut DbConnection,
    account_id: i64,
    hash: &str,
    base_url: &str,
    now: NaiveDateTime,
) -> Result<Account, AccountError> {
    db_accounts::set_password(conn, account_id, hash, now)?;
    let account = db_accounts::find_by_id(conn, account_id)?.ok_or(AccountError::NotFound)?;
    let mail = messages::password_changed(
        &account.email,
        &account.display_name,
        &format!("{base_url}/password/forgot"),
    )?;
    mail::queue(conn, &mail, None, now)?;
    Ok(account)
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

/// Lists a newly issued API token (its id `sid`) on its owner's account
/// page, where it can be revoked; `client` describes the script's client.
pub fn record_api_token(
    conn: &mut DbConnection,
    sid: &str,
    account_id: i64,
    now: NaiveDateTime,
    expires_at: NaiveDateTime,
    client: &str,
) -> Result<(), AccountError> {
    Ok(db_accounts::record_api_token(
        conn, sid, account_id, now, expires_at, client,
    )?)
}

/// Ends the API token `jti` of the account, listed or not (a token issued
/// before tokens were listed is only refused).
pub fn revoke_api_token(
    conn: &mut DbConnection,
    account_id: i64,
    jti: &str,
    expires_at: NaiveDateTime,
) -> Result<(), AccountError> {
    if !db_accounts::end_session_of(conn, account_id, jti, expires_at)? {
        db_accounts::revoke_token(conn, jti, expires_at)?;
    }
    Ok(())
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
