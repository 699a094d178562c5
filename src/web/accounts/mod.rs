//! Accounts in the browser: sign up and confirm an address (`signup`),
//! sign in and out (`signin`), reset a forgotten password
//! (`password_reset`), and the account page (`account_page`). The
//! throttles' budgets are here, beside each other.

mod account_page;
mod password_reset;
mod signin;
mod signup;
mod venue;

pub use signin::{DEVICE_COOKIE, KnownDevice, SignInClient, SignInOutcome, device_mark, sign_in};
pub use venue::VENUE_COOKIE;

use account_page::*;
use password_reset::*;
use signin::*;
use signup::*;
use venue::*;

use actix_web::web;
use chrono::{Duration, Utc};

use crate::web::account_sessions::{end_other_sessions, revoke_token, revoke_token_page};

/// Failed sign-ins allowed in the window: to one account from one client
/// address, or from one browser that signed in to the account before...
const MAX_FAILURES_PER_CLIENT: i64 = 5;
/// ...from one address to any accounts (password spraying)...
const MAX_FAILURES_PER_ADDRESS: i64 = 30;
/// ...and to one account from all unknown browsers together, a slower
/// ceiling against guessing from many addresses. Browsers that signed in
/// before are not held by it, so strangers cannot lock the owner out.
const MAX_FAILURES_PER_ACCOUNT: i64 = 100;
/// Wrong passwords allowed on the account pages (a stolen session).
const MAX_ACCOUNT_PAGE_FAILURES: i64 = 5;
const THROTTLE_WINDOW: Duration = Duration::minutes(15);
/// Accounts one client address may create in an hour.
const MAX_SIGNUPS_PER_ADDRESS: i64 = 10;
/// Accounts the holders of one event's venue code may create in an hour:
/// a big room signing up at once, but not the world.
const MAX_SIGNUPS_PER_VENUE: i64 = 200;
/// Failed sign-ins allowed in the window to the browsers holding one
/// event's venue pass together, in place of their shared address's
/// [`MAX_FAILURES_PER_ADDRESS`]: a room of players mistyping, not the world.
const MAX_FAILURES_PER_VENUE: i64 = 300;
/// Reset links one client address may ask for in an hour, whatever the
/// addresses (a venue's players share one network address).
const MAX_RESET_REQUESTS_PER_CLIENT: i64 = 20;
/// The one message for every failed sign-in, so it never tells whether an
/// address has an account.
const SIGN_IN_FAILED: &str = "The email address or password is not right.";

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(venue_page)
        .service(signup_page)
        .service(signup)
        .service(check_email_page)
        .service(signin_page)
        .service(signin)
        .service(signout)
        .service(verify_email)
        .service(resend_verification)
        .service(forgot_page)
        .service(forgot)
        .service(reset_page)
        .service(reset)
        .service(account_page)
        .service(end_other_sessions)
        .service(revoke_token_page)
        .service(revoke_token)
        .service(update_profile)
        .service(change_password)
        .service(delete_page)
        .service(delete_account);
}

fn now() -> chrono::NaiveDateTime {
    Utc::now().naive_utc()
}

/// Only local paths are followed after sign-in (no open redirects): a
/// path starting with one `/`, with no backslash, space or control
/// character anywhere (browsers drop a tab or a line break, so `/\t/evil`
/// would otherwise become `//evil`, another site).
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(path)
            if path.starts_with('/')
                && !path.starts_with("//")
                && !path
                    .chars()
                    .any(|c| c == '\\' || c.is_whitespace() || c.is_control()) =>
        {
            path.to_owned()
        }
        _ => "/".to_owned(),
    }
}
