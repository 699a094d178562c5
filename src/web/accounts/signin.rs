//! Sign-in within its throttles (a browser's device mark, the address,
//! the account), and sign-out.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use askama::Template;
use chrono::Utc;
use serde::Deserialize;

use crate::accounts::{self, Account, Budget};
use crate::auth::password::{PASSWORD_WORKERS, decoy_hash};
use crate::auth::token::{DEVICE_LIFETIME, TokenKind, TokenSubject};
use crate::web::AppState;
use crate::web::client::client_address;
use crate::web::error::AppError;
use crate::web::forms::{FormErrors, render_with_status};
use crate::web::layout::{FlashLevel, PageContext, redirect, redirect_with_flash, render_page};
use crate::web::session::{
    CsrfForm, CurrentUser, NoFields, device_of, sign_in_cookie, sign_out_cookie,
};

use super::*;

/// Who is signing in: the client's address, the browser's device mark if it
/// signed in to an account before, and the event whose venue pass it holds.
pub struct SignInClient {
    pub address: String,
    pub known_device: Option<KnownDevice>,
    /// The event of the browser's venue pass, if the pass is valid today
    /// (whether the event still takes sign-ins is checked with the budgets).
    pub venue: Option<i64>,
}

/// A browser's device mark: it signed in to `account_id` before.
pub struct KnownDevice {
    pub account_id: i64,
    pub device_id: String,
}

impl SignInClient {
    /// The client of a browser request: its address and its device cookie,
    /// if the cookie is one this server signed.
    pub fn of_browser(req: &HttpRequest, state: &AppState) -> Self {
        let known_device = req
            .cookie(DEVICE_COOKIE)
            .and_then(|cookie| KnownDevice::from_mark(state, cookie.value()));
        Self {
            address: client_address(req, state),
            known_device,
            venue: venue_of(req, state),
        }
    }

    /// An API client: its address, and the device mark an earlier token
    /// request handed it, if it sends one this server signed.
    pub fn of_api(address: String, device_mark: Option<&str>, state: &AppState) -> Self {
        Self {
            address,
            known_device: device_mark.and_then(|mark| KnownDevice::from_mark(state, mark)),
            venue: None,
        }
    }
}

impl KnownDevice {
    /// The device a mark names, if this server signed it as one.
    fn from_mark(state: &AppState, mark: &str) -> Option<Self> {
        let claims = state.tokens.verify(mark, Utc::now()).ok()?;
        (claims.kind == TokenKind::Device).then_some(())?;
        Some(KnownDevice {
            account_id: claims.account_id()?,
            device_id: claims.jti,
        })
    }
}

/// A fresh device mark for a client that just signed in to `account`: a
/// browser keeps it in a cookie, an API client in its own storage.
pub fn device_mark(state: &AppState, account: &Account) -> Result<String, AppError> {
    let subject = TokenSubject {
        account_id: account.id,
        generation: account.session_generation,
    };
    let (token, _) = state
        .tokens
        .issue(subject, TokenKind::Device, Utc::now(), None)
        .map_err(AppError::internal)?;
    Ok(token)
}

/// The cookie that marks a browser as one that signed in to an account.
pub const DEVICE_COOKIE: &str = "soulstone_device";

/// A fresh device mark for a browser that just signed in to `account`.
pub(super) fn device_cookie(
    state: &AppState,
    account: &Account,
) -> Result<actix_web::cookie::Cookie<'static>, AppError> {
    let token = device_mark(state, account)?;
    Ok(actix_web::cookie::Cookie::build(DEVICE_COOKIE, token)
        .path("/signin")
        .http_only(true)
        .same_site(actix_web::cookie::SameSite::Lax)
        .secure(state.settings.is_production())
        .max_age(actix_web::cookie::time::Duration::seconds(
            DEVICE_LIFETIME.num_seconds(),
        ))
        .finish())
}

/// Signs this browser in to `account` (a session, and the device mark that
/// gives it a sign-in budget of its own) and sends it on to `next`.
pub(super) async fn signed_in_redirect(
    req: &HttpRequest,
    state: &web::Data<AppState>,
    account: Account,
    next: &str,
    message: String,
) -> Result<HttpResponse, AppError> {
    let device_mark = device_cookie(state, &account)?;
    let device = device_of(req.headers());
    let signing_in = state.clone();
    let cookie = state
        .with_db(move |conn| {
            let (cookie, used) = sign_in_cookie(&signing_in, &account, None, &device)?;
            accounts::record_session(conn, &used)?;
            Ok(cookie)
        })
        .await?;
    let mut response = redirect_with_flash(state, next, FlashLevel::Success, message);
    response.add_cookie(&cookie).map_err(AppError::internal)?;
    response
        .add_cookie(&device_mark)
        .map_err(AppError::internal)?;
    Ok(response)
}

#[derive(Debug, Default, Deserialize)]
pub struct SigninForm {
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub next: String,
}

#[derive(Debug, Deserialize)]
pub(super) struct NextQuery {
    pub(super) next: Option<String>,
}

#[derive(Template)]
#[template(path = "accounts/signin.html")]
struct SigninPage {
    ctx: PageContext,
    form: SigninForm,
    errors: FormErrors,
}

#[get("/signin")]
pub(super) async fn signin_page(
    ctx: PageContext,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, AppError> {
    let next = safe_next(query.next.as_deref());
    if ctx.is_signed_in() {
        return Ok(redirect(&next));
    }
    render_page(
        &ctx,
        &SigninPage {
            ctx: ctx.clone(),
            form: SigninForm {
                next,
                ..SigninForm::default()
            },
            errors: FormErrors::new(),
        },
    )
}

/// Why a sign-in did not succeed.
pub enum SignInOutcome {
    SignedIn(Box<Account>),
    Refused,
    Throttled,
}

/// Signs in with an email address and password, within the throttles.
///
/// A browser that signed in to the account before has a budget of its own;
/// every other client is held per account and address, per address, and
/// by a slower ceiling per account. So a stranger's guesses spend only the
/// stranger's budget and the unknown-browser ceiling, never the owner's.
///
/// The attempt is paid for before the password is checked (and refunded if
/// it was right), so concurrent guesses cannot all slip under one count;
/// the check itself runs with no database connection held.
pub async fn sign_in(
    state: &AppState,
    raw_email: &str,
    password: String,
    client: SignInClient,
) -> Result<SignInOutcome, AppError> {
    let email = raw_email.trim().to_lowercase();
    let (account, own_key, spent) = state
        .with_db(move |conn| {
            let account = accounts::find_by_email(conn, &email)?;
            let venue = match client.venue {
                Some(event) if crate::events::registration::takes_venue_signups(conn, event)? => {
                    Some(event)
                }
                _ => None,
            };
            let (budgets, own_key) = sign_in_budgets(&email, account.as_ref(), &client, venue);
            let spent = accounts::spend(conn, &budgets, now())?;
            Ok((account, own_key, spent))
        })
        .await?;
    let Some(spent) = spent else {
        return Ok(SignInOutcome::Throttled);
    };
    // Verify against a decoy when there is no account, so timing tells nothing.
    let stored = account
        .as_ref()
        .map_or_else(|| decoy_hash().to_owned(), |a| a.password_hash.clone());
    let matches = match PASSWORD_WORKERS.verify(password, stored).await {
        Ok(matches) => matches,
        Err(busy) => {
            // Not checked, so not charged.
            state
                .with_db(move |conn| Ok(accounts::refund(conn, &spent)?))
                .await?;
            return Err(busy.into());
        }
    };
    match account {
        Some(account) if matches => {
            // The account's ceiling is left to run out: the owner signing
            // in must not hand strangers a fresh budget.
            state
                .with_db(move |conn| Ok(accounts::forgive(conn, &spent, &own_key)?))
                .await?;
            Ok(SignInOutcome::SignedIn(Box::new(account)))
        }
        _ => Ok(SignInOutcome::Refused),
    }
}

/// The budgets a sign-in attempt spends from, and the one that is the
/// client's own (cleared when it signs in). A browser with the pass of an
/// open venue (`venue`) spends the venue's budget instead of its address's.
fn sign_in_budgets(
    email: &str,
    account: Option<&Account>,
    client: &SignInClient,
    venue: Option<i64>,
) -> (Vec<Budget>, String) {
    let known_device = client
        .known_device
        .as_ref()
        .filter(|device| account.is_some_and(|a| a.id == device.account_id));
    match known_device {
        Some(device) => {
            let key = format!("device:{}", device.device_id);
            (
                vec![Budget::new(&key, MAX_FAILURES_PER_CLIENT, THROTTLE_WINDOW)],
                key,
            )
        }
        None => {
            let pair_key = format!("pair:{email}|{}", client.address);
            (
                vec![
                    Budget::new(&pair_key, MAX_FAILURES_PER_CLIENT, THROTTLE_WINDOW),
                    match venue {
                        Some(event) => Budget::new(
                            format!("venue:{event}"),
                            MAX_FAILURES_PER_VENUE,
                            THROTTLE_WINDOW,
                        ),
                        None => Budget::new(
                            format!("address:{}", client.address),
                            MAX_FAILURES_PER_ADDRESS,
                            THROTTLE_WINDOW,
                        ),
                    },
                    Budget::new(
                        format!("account:{email}"),
                        MAX_FAILURES_PER_ACCOUNT,
                        THROTTLE_WINDOW,
                    ),
                ],
                pair_key,
            )
        }
    }
}

/// What checking a signed-in user's password (account pages) found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PasswordCheck {
    Correct,
    Wrong,
    /// Too many wrong passwords lately: not checked at all.
    Throttled,
}

/// Checks the signed-in user's password for an account page (change
/// password, delete account). Wrong guesses have a budget as small as one
/// client's at sign-in, so a stolen session cannot guess the password
/// faster than the sign-in page allows.
pub(super) async fn check_own_password(
    state: &web::Data<AppState>,
    account: &Account,
    password: String,
) -> Result<PasswordCheck, AppError> {
    let key = format!("account-page:{}", account.id);
    let budget = [Budget::new(
        &key,
        MAX_ACCOUNT_PAGE_FAILURES,
        THROTTLE_WINDOW,
    )];
    let spent = state
        .with_db(move |conn| Ok(accounts::spend(conn, &budget, now())?))
        .await?;
    let Some(spent) = spent else {
        return Ok(PasswordCheck::Throttled);
    };
    let stored = account.password_hash.clone();
    let correct = PASSWORD_WORKERS.verify(password, stored).await?;
    if !correct {
        return Ok(PasswordCheck::Wrong);
    }
    state
        .with_db(move |conn| Ok(accounts::forgive(conn, &spent, &key)?))
        .await?;
    Ok(PasswordCheck::Correct)
}

/// The message for a password an account page did not accept.
pub(super) const PASSWORD_THROTTLED: &str =
    "Too many wrong passwords. Please wait 15 minutes, or reset your password.";

#[post("/signin")]
pub(super) async fn signin(
    req: HttpRequest,
    ctx: PageContext,
    state: web::Data<AppState>,
    form: CsrfForm<SigninForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.0;
    let next = safe_next(Some(&form.next));
    let client = SignInClient::of_browser(&req, &state);
    let outcome = sign_in(&state, &form.email, form.password.clone(), client).await?;
    let (status, message) = match outcome {
        SignInOutcome::SignedIn(account) => {
            let welcome = format!("Welcome back, {}.", account.display_name);
            return signed_in_redirect(&req, &state, *account, &next, welcome).await;
        }
        SignInOutcome::Refused => (StatusCode::UNAUTHORIZED, SIGN_IN_FAILED),
        SignInOutcome::Throttled => (
            StatusCode::TOO_MANY_REQUESTS,
            "Too many failed attempts. Please wait 15 minutes, or reset your password.",
        ),
    };
    let mut errors = FormErrors::new();
    errors.set_general(message);
    let form = SigninForm {
        password: String::new(),
        next,
        ..form
    };
    render_with_status(
        &ctx,
        &SigninPage {
            ctx: ctx.clone(),
            form,
            errors,
        },
        status,
    )
}

#[post("/signout")]
pub(super) async fn signout(
    state: web::Data<AppState>,
    user: Option<CurrentUser>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    if let Some(user) = user {
        // The whole session ends: every token of it, renewed or copied.
        let session = user.claims.session_id().to_owned();
        let expires = user.claims.session_ends_at().naive_utc();
        state
            .with_db(move |conn| Ok(accounts::sign_out(conn, &session, expires)?))
            .await?;
    }
    let mut response = redirect_with_flash(&state, "/", FlashLevel::Info, "You are signed out.");
    response
        .add_cookie(&sign_out_cookie(&state))
        .map_err(AppError::internal)?;
    Ok(response)
}
