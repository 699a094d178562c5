//! Sign up, sign in and out, email verification, password reset, the
//! account page, and account deletion.

use crate::db::WriteTransaction;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use askama::Template;
use chrono::{Duration, Utc};
use serde::Deserialize;

use crate::auth::input::{DisplayName, EmailAddress, NewPassword, optional_text};
use crate::auth::password::{decoy_hash, hash_password, verify_password};
use crate::auth::token::{DEVICE_LIFETIME, TokenKind, TokenSubject};
use crate::auth::{hash_token, random_token};
use crate::db::accounts::{self, Account, EmailTokenPurpose, NewAccount, ProfileChanges};
use crate::db::throttle::{self, Budget};
use crate::db::{DbConnection, DbError};
use crate::error::AppError;
use crate::mail::{self, messages};
use crate::web::AppState;
use crate::web::account_sessions::{
    SignedIn, end_other_sessions, revoke_token, revoke_token_page, signed_in_shown,
};
use crate::web::client::client_address;
use crate::web::forms::{FormErrors, render_invalid, render_with_status};
use crate::web::layout::{FlashLevel, PageContext, redirect, redirect_with_flash, render_page};
use crate::web::session::{
    CsrfForm, CurrentUser, NoFields, device_of, sign_in_cookie, sign_out_cookie,
};

/// Verification links stay valid this long.
const VERIFY_LINK_HOURS: i64 = 48;
/// Password reset links stay valid this long.
const RESET_LINK_MINUTES: i64 = 60;
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
/// "You already have an account" mails one address may be sent in an hour.
const MAX_SIGNUP_MAILS_PER_TARGET: i64 = 3;
/// Reset mails one address may be sent in the throttle window.
const MAX_RESET_MAILS_PER_ADDRESS: i64 = 3;
/// Reset links one client address may ask for in an hour, whatever the
/// addresses (a venue's players share one network address).
const MAX_RESET_REQUESTS_PER_CLIENT: i64 = 20;
/// The one message for every failed sign-in, so it never tells whether an
/// address has an account.
const SIGN_IN_FAILED: &str = "The email address or password is not right.";

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(signup_page)
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

/// Who is signing in: the client's address, and the browser's device mark
/// if it signed in to an account before.
pub struct SignInClient {
    pub address: String,
    pub known_device: Option<KnownDevice>,
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
        let known_device = req.cookie(DEVICE_COOKIE).and_then(|cookie| {
            let claims = state.tokens.verify(cookie.value(), Utc::now()).ok()?;
            (claims.kind == TokenKind::Device).then_some(())?;
            Some(KnownDevice {
                account_id: claims.account_id()?,
                device_id: claims.jti,
            })
        });
        Self {
            address: client_address(req, state),
            known_device,
        }
    }

    /// A client with no device mark (the API).
    pub fn at(address: String) -> Self {
        Self {
            address,
            known_device: None,
        }
    }
}

/// The cookie that marks a browser as one that signed in to an account.
pub const DEVICE_COOKIE: &str = "soulstone_device";

/// A fresh device mark for a browser that just signed in to `account`.
fn device_cookie(
    state: &AppState,
    account: &Account,
) -> Result<actix_web::cookie::Cookie<'static>, AppError> {
    let subject = TokenSubject {
        account_id: account.id,
        generation: account.session_generation,
    };
    let (token, _) = state
        .tokens
        .issue(subject, TokenKind::Device, Utc::now(), None)
        .map_err(AppError::internal)?;
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

// ---------------------------------------------------------------- sign up

#[derive(Debug, Default, Deserialize)]
pub struct SignupForm {
    #[serde(default)]
    pub display_name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub club: String,
    #[serde(default)]
    pub region: String,
    /// An event's venue code of the day (`/signup?venue=…`), which lifts
    /// the per-address limit for everyone at the venue.
    #[serde(default)]
    pub venue: String,
    /// Where the person was going before signing up (`/signin?next=`),
    /// offered again once the account is made.
    #[serde(default)]
    pub next: String,
}

#[derive(Debug, Default, Deserialize)]
struct SignupQuery {
    #[serde(default)]
    venue: String,
    #[serde(default)]
    next: String,
}

#[derive(Template)]
#[template(path = "accounts/signup.html")]
struct SignupPage {
    ctx: PageContext,
    form: SignupForm,
    errors: FormErrors,
}

#[get("/signup")]
async fn signup_page(
    ctx: PageContext,
    query: web::Query<SignupQuery>,
) -> Result<HttpResponse, AppError> {
    if ctx.is_signed_in() {
        return Ok(redirect("/account"));
    }
    render_page(
        &ctx,
        &SignupPage {
            ctx: ctx.clone(),
            form: {
                let query = query.into_inner();
                SignupForm {
                    venue: query.venue,
                    next: query.next,
                    ..SignupForm::default()
                }
            },
            errors: FormErrors::new(),
        },
    )
}

/// The sign-up budget a request spends: its address's, or with a venue
/// code valid today for an event that takes sign-ups, the venue's.
async fn signup_budget(
    req: &HttpRequest,
    state: &web::Data<AppState>,
    venue_code: &str,
) -> Result<Result<Budget, &'static str>, AppError> {
    let code = venue_code.trim();
    if code.is_empty() {
        return Ok(Ok(Budget::new(
            format!("signup:{}", client_address(req, state)),
            MAX_SIGNUPS_PER_ADDRESS,
            Duration::hours(1),
        )));
    }
    const NOT_VALID: &str =
        "This venue code is not valid today: ask the organiser for today's, or leave it empty.";
    let Some(event_id) = state.venue_codes.event_of(code, now().date()) else {
        return Ok(Err(NOT_VALID));
    };
    let open = state
        .with_db(move |conn| {
            Ok(crate::events::registration::takes_venue_signups(
                conn, event_id,
            )?)
        })
        .await?;
    Ok(if open {
        Ok(Budget::new(
            format!("signup-venue:{event_id}"),
            MAX_SIGNUPS_PER_VENUE,
            Duration::hours(1),
        ))
    } else {
        Err(NOT_VALID)
    })
}

#[post("/signup")]
async fn signup(
    req: HttpRequest,
    ctx: PageContext,
    state: web::Data<AppState>,
    form: CsrfForm<SignupForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.0;
    let next = form.next.clone();
    let mut errors = FormErrors::new();
    let budget = match signup_budget(&req, &state, &form.venue).await? {
        Ok(budget) => Some(budget),
        Err(message) => {
            errors.add("venue", message);
            None
        }
    };
    let name = errors.check("display_name", DisplayName::parse(&form.display_name));
    let email = errors.check("email", EmailAddress::parse(&form.email));
    let password = errors.check("password", NewPassword::parse(&form.password));
    let club = errors.check("club", optional_text(&form.club, "Club", 80));
    let region = errors.check("region", optional_text(&form.region, "Region", 80));
    let (Some(name), Some(email), Some(password), Some(club), Some(region), Some(budget)) =
        (name, email, password, club, region, budget)
    else {
        let form = SignupForm {
            password: String::new(),
            ..form
        };
        return render_invalid(
            &ctx,
            &SignupPage {
                ctx: ctx.clone(),
                form,
                errors,
            },
        );
    };
    // A client address (or a venue, with its code) creates a bounded
    // number of accounts an hour (each sends a mail to an address of the
    // sender's choice). The attempt is spent before the slow hashing, so
    // a burst cannot pass one count.
    let budget = [budget];
    let spent = state
        .with_db(move |conn| Ok(throttle::spend(conn, &budget, now())?))
        .await?;
    if spent.is_none() {
        let mut errors = FormErrors::new();
        errors.add(
            "email",
            "Too many accounts were created from this network in the last hour. Please try again later.",
        );
        let page = SignupPage {
            ctx: ctx.clone(),
            form: SignupForm {
                password: String::new(),
                ..form
            },
            errors,
        };
        let mut response = render_invalid(&ctx, &page)?;
        *response.status_mut() = actix_web::http::StatusCode::TOO_MANY_REQUESTS;
        return Ok(response);
    }
    // Hashing is slow on purpose: no database connection is held meanwhile.
    let hash = web::block(move || hash_password(password.as_str()))
        .await
        .map_err(AppError::internal)?
        .map_err(AppError::internal)?;
    let base_url = state.settings.base_url.clone();
    state
        .with_db(move |conn| {
            let now = now();
            conn.write_transaction(|conn| {
                let created = accounts::create_account(
                    conn,
                    &NewAccount {
                        email: email.as_str(),
                        display_name: name.as_str(),
                        password_hash: &hash,
                        club: club.as_deref(),
                        region: region.as_deref(),
                        is_admin: false,
                        created_at: now,
                    },
                )?;
                match created {
                    Some(account) => queue_verification(conn, &account, &base_url),
                    None => {
                        // Someone signing up again and again with another
                        // person's address sends that person few mails.
                        let target = [Budget::new(
                            format!("signup-mail:{}", email.as_str()),
                            MAX_SIGNUP_MAILS_PER_TARGET,
                            Duration::hours(1),
                        )];
                        if throttle::spend(conn, &target, now)?.is_none() {
                            return Ok(());
                        }
                        let mail = messages::signup_existing(
                            email.as_str(),
                            &format!("{base_url}/signin"),
                            &format!("{base_url}/password/forgot"),
                        )?;
                        mail::queue(conn, &mail, None, now)?;
                        Ok(())
                    }
                }
            })
        })
        .await?;
    state.mail_queued();
    // Same answer whether or not the address had an account: nothing here
    // tells a visitor which addresses are known.
    let next = safe_next(Some(&next));
    Ok(redirect(&if next == "/" {
        "/signup/check-email".to_owned()
    } else {
        format!(
            "/signup/check-email?{}",
            serde_urlencoded::to_string([("next", next.as_str())]).unwrap_or_default()
        )
    }))
}

/// Creates a verification token and queues its mail.
fn queue_verification(
    conn: &mut DbConnection,
    account: &Account,
    base_url: &str,
) -> Result<(), AppError> {
    let token = random_token();
    let now = now();
    accounts::create_email_token(
        conn,
        account.id,
        EmailTokenPurpose::VerifyEmail,
        &hash_token(&token),
        now,
        now + Duration::hours(VERIFY_LINK_HOURS),
    )?;
    let link = format!("{base_url}/verify-email?token={token}");
    let mail = messages::verify_email(
        &account.email,
        &account.display_name,
        &link,
        VERIFY_LINK_HOURS,
    )?;
    mail::queue(conn, &mail, None, now)?;
    Ok(())
}

#[derive(Template)]
#[template(path = "accounts/check_email.html")]
struct CheckEmailPage {
    ctx: PageContext,
    /// The sign-in link, carrying where the person was going.
    signin_link: String,
    /// They were on their way somewhere (a practice game, an event).
    carries_on: bool,
}

#[get("/signup/check-email")]
async fn check_email_page(
    ctx: PageContext,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, AppError> {
    let next = safe_next(query.next.as_deref());
    let signin_link = if next == "/" {
        "/signin".to_owned()
    } else {
        format!(
            "/signin?{}",
            serde_urlencoded::to_string([("next", next.as_str())]).unwrap_or_default()
        )
    };
    render_page(
        &ctx,
        &CheckEmailPage {
            ctx: ctx.clone(),
            signin_link,
            carries_on: next != "/",
        },
    )
}

#[get("/verify-email")]
async fn verify_email(
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, AppError> {
    let token_hash = hash_token(&query.token);
    let verified = state
        .with_db(move |conn| {
            let now = now();
            conn.write_transaction(|conn| {
                let Some(account_id) = accounts::consume_email_token(
                    conn,
                    EmailTokenPurpose::VerifyEmail,
                    &token_hash,
                    now,
                )?
                else {
                    return Ok::<_, DbError>(false);
                };
                accounts::mark_email_verified(conn, account_id, now)?;
                Ok(true)
            })
            .map_err(AppError::from)
        })
        .await?;
    if !verified {
        return Err(AppError::bad_request(
            "This confirmation link has already been used or has expired. Sign in and ask for a new one from your account page.",
        ));
    }
    let ctx = ctx.with_flash(
        FlashLevel::Success,
        "Thank you: your email address is confirmed.",
    );
    render_page(&ctx, &VerifiedPage { ctx: ctx.clone() })
}

#[derive(Template)]
#[template(path = "accounts/verified.html")]
struct VerifiedPage {
    ctx: PageContext,
}

#[post("/account/resend-verification")]
async fn resend_verification(
    user: CurrentUser,
    state: web::Data<AppState>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    if user.account.is_verified() {
        return Ok(redirect_with_flash(
            &state,
            "/account",
            FlashLevel::Info,
            "Your email address is already confirmed.",
        ));
    }
    let account = user.account.clone();
    let base_url = state.settings.base_url.clone();
    state
        .with_db(move |conn| {
            conn.write_transaction(|conn| queue_verification(conn, &account, &base_url))
        })
        .await?;
    state.mail_queued();
    Ok(redirect_with_flash(
        &state,
        "/account",
        FlashLevel::Success,
        format!(
            "A new confirmation link is on its way to {}.",
            user.account.email
        ),
    ))
}

// ---------------------------------------------------------------- sign in

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
struct NextQuery {
    next: Option<String>,
}

#[derive(Template)]
#[template(path = "accounts/signin.html")]
struct SigninPage {
    ctx: PageContext,
    form: SigninForm,
    errors: FormErrors,
}

#[get("/signin")]
async fn signin_page(
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
            let (budgets, own_key) = sign_in_budgets(&email, account.as_ref(), &client);
            let spent = throttle::spend(conn, &budgets, now())?;
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
    let matches = web::block(move || verify_password(&password, &stored)).await?;
    match account {
        Some(account) if matches => {
            // The account's ceiling is left to run out: the owner signing
            // in must not hand strangers a fresh budget.
            state
                .with_db(move |conn| {
                    throttle::refund(conn, &spent)?;
                    throttle::clear(conn, &own_key)?;
                    Ok(())
                })
                .await?;
            Ok(SignInOutcome::SignedIn(Box::new(account)))
        }
        _ => Ok(SignInOutcome::Refused),
    }
}

/// The budgets a sign-in attempt spends from, and the one that is the
/// client's own (cleared when it signs in).
fn sign_in_budgets(
    email: &str,
    account: Option<&Account>,
    client: &SignInClient,
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
                    Budget::new(
                        format!("address:{}", client.address),
                        MAX_FAILURES_PER_ADDRESS,
                        THROTTLE_WINDOW,
                    ),
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
enum PasswordCheck {
    Correct,
    Wrong,
    /// Too many wrong passwords lately: not checked at all.
    Throttled,
}

/// Checks the signed-in user's password for an account page (change
/// password, delete account). Wrong guesses have a budget as small as one
/// client's at sign-in, so a stolen session cannot guess the password
/// faster than the sign-in page allows.
async fn check_own_password(
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
        .with_db(move |conn| Ok(throttle::spend(conn, &budget, now())?))
        .await?;
    let Some(spent) = spent else {
        return Ok(PasswordCheck::Throttled);
    };
    let stored = account.password_hash.clone();
    let correct = web::block(move || verify_password(&password, &stored)).await?;
    if !correct {
        return Ok(PasswordCheck::Wrong);
    }
    state
        .with_db(move |conn| {
            throttle::refund(conn, &spent)?;
            throttle::clear(conn, &key)?;
            Ok(())
        })
        .await?;
    Ok(PasswordCheck::Correct)
}

/// The message for a password an account page did not accept.
const PASSWORD_THROTTLED: &str =
    "Too many wrong passwords. Please wait 15 minutes, or reset your password.";

#[post("/signin")]
async fn signin(
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
            let device_mark = device_cookie(&state, &account)?;
            let device = device_of(req.headers());
            let signing_in = state.clone();
            let welcome = account.display_name.clone();
            let (cookie, _) = state
                .with_db(move |conn| sign_in_cookie(&signing_in, conn, &account, None, &device))
                .await?;
            let mut response = redirect_with_flash(
                &state,
                &next,
                FlashLevel::Success,
                format!("Welcome back, {welcome}."),
            );
            response.add_cookie(&cookie).map_err(AppError::internal)?;
            response
                .add_cookie(&device_mark)
                .map_err(AppError::internal)?;
            return Ok(response);
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
async fn signout(
    state: web::Data<AppState>,
    user: Option<CurrentUser>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    if let Some(user) = user {
        // The whole session ends: every token of it, renewed or copied.
        let session = user.claims.session_id().to_owned();
        let expires = user.claims.session_ends_at().naive_utc();
        state
            .with_db(move |conn| {
                accounts::revoke_token(conn, &session, expires)?;
                Ok(accounts::forget_session(conn, &session)?)
            })
            .await?;
    }
    let mut response = redirect_with_flash(&state, "/", FlashLevel::Info, "You are signed out.");
    response
        .add_cookie(&sign_out_cookie(&state))
        .map_err(AppError::internal)?;
    Ok(response)
}

// ---------------------------------------------------------------- password reset

#[derive(Debug, Default, Deserialize)]
pub struct ForgotForm {
    #[serde(default)]
    pub email: String,
}

#[derive(Template)]
#[template(path = "accounts/forgot.html")]
struct ForgotPage {
    ctx: PageContext,
    form: ForgotForm,
    errors: FormErrors,
    sent: bool,
}

#[get("/password/forgot")]
async fn forgot_page(ctx: PageContext) -> Result<HttpResponse, AppError> {
    render_page(
        &ctx,
        &ForgotPage {
            ctx: ctx.clone(),
            form: ForgotForm::default(),
            errors: FormErrors::new(),
            sent: false,
        },
    )
}

#[post("/password/forgot")]
async fn forgot(
    req: HttpRequest,
    ctx: PageContext,
    state: web::Data<AppState>,
    form: CsrfForm<ForgotForm>,
) -> Result<HttpResponse, AppError> {
    let mut errors = FormErrors::new();
    let Some(email) = errors.check("email", EmailAddress::parse(&form.email)) else {
        let page = ForgotPage {
            ctx: ctx.clone(),
            form: form.0,
            errors,
            sent: false,
        };
        return render_invalid(&ctx, &page);
    };
    // A client asks for a bounded number of reset mails, whatever the
    // addresses; the same answer for known and unknown ones.
    let budget = [Budget::new(
        format!("reset-client:{}", client_address(&req, &state)),
        MAX_RESET_REQUESTS_PER_CLIENT,
        Duration::hours(1),
    )];
    let spent = state
        .with_db(move |conn| Ok(throttle::spend(conn, &budget, now())?))
        .await?;
    if spent.is_none() {
        let mut errors = FormErrors::new();
        errors.set_general(
            "Too many reset links were asked for from this network in the last hour. Please try again later.",
        );
        let page = ForgotPage {
            ctx: ctx.clone(),
            form: form.0,
            errors,
            sent: false,
        };
        return render_with_status(&ctx, &page, StatusCode::TOO_MANY_REQUESTS);
    }
    let base_url = state.settings.base_url.clone();
    let lookup_email = email.clone();
    state
        .with_db(move |conn| {
            conn.write_transaction(|conn| {
                let Some(account) = accounts::find_by_email(conn, lookup_email.as_str())? else {
                    return Ok(());
                };
                let now = now();
                // A bounded number of reset mails per address: the answer
                // stays the same, so it tells nothing.
                let target = [Budget::new(
                    format!("reset:{}", account.email),
                    MAX_RESET_MAILS_PER_ADDRESS,
                    THROTTLE_WINDOW,
                )];
                if throttle::spend(conn, &target, now)?.is_none() {
                    return Ok(());
                }
                let token = random_token();
                accounts::create_email_token(
                    conn,
                    account.id,
                    EmailTokenPurpose::ResetPassword,
                    &hash_token(&token),
                    now,
                    now + Duration::minutes(RESET_LINK_MINUTES),
                )?;
                let link = format!("{base_url}/password/reset?token={token}");
                let mail = messages::password_reset(
                    &account.email,
                    &account.display_name,
                    &link,
                    RESET_LINK_MINUTES,
                )?;
                mail::queue(conn, &mail, None, now)?;
                Ok::<_, AppError>(())
            })
        })
        .await?;
    state.mail_queued();
    // The same answer whether or not the address has an account.
    render_page(
        &ctx,
        &ForgotPage {
            ctx: ctx.clone(),
            form: ForgotForm {
                email: email.to_string(),
            },
            errors: FormErrors::new(),
            sent: true,
        },
    )
}

#[derive(Debug, Deserialize)]
pub struct TokenQuery {
    #[serde(default)]
    pub token: String,
}

#[derive(Debug, Default, Deserialize)]
pub struct ResetForm {
    #[serde(default)]
    pub token: String,
    #[serde(default)]
    pub password: String,
}

#[derive(Template)]
#[template(path = "accounts/reset.html")]
struct ResetPage {
    ctx: PageContext,
    token: String,
    errors: FormErrors,
}

const RESET_LINK_INVALID: &str =
    "This password reset link has already been used or has expired. Ask for a new one below.";

#[get("/password/reset")]
async fn reset_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, AppError> {
    let token_hash = hash_token(&query.token);
    let live = state
        .with_db(move |conn| {
            Ok(accounts::peek_email_token(
                conn,
                EmailTokenPurpose::ResetPassword,
                &token_hash,
                now(),
            )?
            .is_some())
        })
        .await?;
    if !live {
        let ctx = ctx.with_flash(FlashLevel::Error, RESET_LINK_INVALID);
        let page = ForgotPage {
            ctx: ctx.clone(),
            form: ForgotForm::default(),
            errors: FormErrors::new(),
            sent: false,
        };
        return render_with_status(&ctx, &page, StatusCode::BAD_REQUEST);
    }
    render_page(
        &ctx,
        &ResetPage {
            ctx: ctx.clone(),
            token: query.token.clone(),
            errors: FormErrors::new(),
        },
    )
}

#[post("/password/reset")]
async fn reset(
    ctx: PageContext,
    state: web::Data<AppState>,
    form: CsrfForm<ResetForm>,
) -> Result<HttpResponse, AppError> {
    let mut errors = FormErrors::new();
    let Some(password) = errors.check("password", NewPassword::parse(&form.password)) else {
        let page = ResetPage {
            ctx: ctx.clone(),
            token: form.token.clone(),
            errors,
        };
        return render_invalid(&ctx, &page);
    };
    let token_hash = hash_token(&form.token);
    let base_url = state.settings.base_url.clone();
    // Hashing is slow on purpose: no database connection is held meanwhile.
    let hash = web::block(move || hash_password(password.as_str()))
        .await?
        .map_err(AppError::internal)?;
    let changed = state
        .with_db(move |conn| {
            conn.write_transaction(|conn| {
                let now = now();
                let Some(account_id) = accounts::consume_email_token(
                    conn,
                    EmailTokenPurpose::ResetPassword,
                    &token_hash,
                    now,
                )?
                else {
                    return Ok(false);
                };
                accounts::set_password(conn, account_id, &hash, now)?;
                // Whoever reset by mail has shown they own the address.
                accounts::mark_email_verified(conn, account_id, now)?;
                if let Some(account) = accounts::find_by_id(conn, account_id)? {
                    let mail = messages::password_changed(
                        &account.email,
                        &account.display_name,
                        &format!("{base_url}/password/forgot"),
                    )?;
                    mail::queue(conn, &mail, None, now)?;
                }
                Ok::<_, AppError>(true)
            })
        })
        .await?;
    if !changed {
        return Err(AppError::bad_request(RESET_LINK_INVALID));
    }
    state.mail_queued();
    let mut response = redirect_with_flash(
        &state,
        "/signin",
        FlashLevel::Success,
        "Your password is changed. Please sign in with the new one.",
    );
    response
        .add_cookie(&sign_out_cookie(&state))
        .map_err(AppError::internal)?;
    Ok(response)
}

// ---------------------------------------------------------------- account page

#[derive(Debug, Default, Deserialize)]
pub struct ProfileForm {
    #[serde(default)]
    pub display_name: String,
    #[serde(default)]
    pub club: String,
    #[serde(default)]
    pub region: String,
    #[serde(default)]
    pub malifaux_name: String,
    #[serde(default)]
    pub mage_knight_name: String,
    /// A ticked box: keep the profile off the public rankings.
    #[serde(default)]
    pub profile_hidden: Option<String>,
}

impl ProfileForm {
    fn from_account(account: &Account) -> Self {
        Self {
            display_name: account.display_name.clone(),
            club: account.club.clone().unwrap_or_default(),
            region: account.region.clone().unwrap_or_default(),
            malifaux_name: account.malifaux_name.clone().unwrap_or_default(),
            mage_knight_name: account.mage_knight_name.clone().unwrap_or_default(),
            profile_hidden: account.profile_hidden.then(|| "on".to_owned()),
        }
    }
}

#[derive(Template)]
#[template(path = "accounts/account.html")]
struct AccountPage {
    ctx: PageContext,
    account: Account,
    form: ProfileForm,
    errors: FormErrors,
    password_errors: FormErrors,
    signed_in: SignedIn,
}

#[get("/account")]
async fn account_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let account = user.account.clone();
    let signed_in = signed_in_shown(&state, &user).await?;
    render_page(
        &ctx,
        &AccountPage {
            ctx: ctx.clone(),
            form: ProfileForm::from_account(&account),
            account,
            errors: FormErrors::new(),
            password_errors: FormErrors::new(),
            signed_in,
        },
    )
}

#[post("/account/profile")]
async fn update_profile(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<ProfileForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.0;
    let mut errors = FormErrors::new();
    let name = errors.check("display_name", DisplayName::parse(&form.display_name));
    let club = errors.check("club", optional_text(&form.club, "Club", 80));
    let region = errors.check("region", optional_text(&form.region, "Region", 80));
    let malifaux = errors.check(
        "malifaux_name",
        optional_text(&form.malifaux_name, "Malifaux player name", 60),
    );
    let mage_knight = errors.check(
        "mage_knight_name",
        optional_text(&form.mage_knight_name, "Mage Knight player name", 60),
    );
    let (Some(name), Some(club), Some(region), Some(malifaux_name), Some(mage_knight_name)) =
        (name, club, region, malifaux, mage_knight)
    else {
        let page = AccountPage {
            ctx: ctx.clone(),
            account: user.account.clone(),
            form,
            errors,
            password_errors: FormErrors::new(),
            signed_in: signed_in_shown(&state, &user).await?,
        };
        return render_invalid(&ctx, &page);
    };
    let changes = ProfileChanges {
        display_name: name.into_string(),
        club,
        region,
        malifaux_name,
        mage_knight_name,
        profile_hidden: form.profile_hidden.is_some(),
    };
    let id = user.id();
    state
        .with_db(move |conn| Ok(accounts::update_profile(conn, id, &changes)?))
        .await?;
    Ok(redirect_with_flash(
        &state,
        "/account",
        FlashLevel::Success,
        "Your profile is saved.",
    ))
}

#[derive(Debug, Default, Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    pub current_password: String,
    #[serde(default)]
    pub new_password: String,
}

#[post("/account/password")]
async fn change_password(
    req: HttpRequest,
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<PasswordForm>,
) -> Result<HttpResponse, AppError> {
    let mut password_errors = FormErrors::new();
    let new_password =
        password_errors.check("new_password", NewPassword::parse(&form.new_password));
    let check = check_own_password(&state, &user.account, form.current_password.clone()).await?;
    match check {
        PasswordCheck::Correct => {}
        PasswordCheck::Wrong => {
            password_errors.add("current_password", "That is not your current password.")
        }
        PasswordCheck::Throttled => password_errors.add("current_password", PASSWORD_THROTTLED),
    }
    let current_ok = check == PasswordCheck::Correct;
    let Some(new_password) = new_password.filter(|_| current_ok) else {
        let page = AccountPage {
            ctx: ctx.clone(),
            account: user.account.clone(),
            form: ProfileForm::from_account(&user.account),
            errors: FormErrors::new(),
            password_errors,
            signed_in: signed_in_shown(&state, &user).await?,
        };
        let status = if check == PasswordCheck::Throttled {
            StatusCode::TOO_MANY_REQUESTS
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        return render_with_status(&ctx, &page, status);
    };
    let id = user.id();
    let base_url = state.settings.base_url.clone();
    let hash = web::block(move || hash_password(new_password.as_str()))
        .await?
        .map_err(AppError::internal)?;
    let account = state
        .with_db(move |conn| {
            conn.write_transaction(|conn| {
                accounts::set_password(conn, id, &hash, now())?;
                let account = accounts::find_by_id(conn, id)?.ok_or(AppError::NotFound)?;
                let mail = messages::password_changed(
                    &account.email,
                    &account.display_name,
                    &format!("{base_url}/password/forgot"),
                )?;
                mail::queue(conn, &mail, None, now())?;
                Ok::<_, AppError>(account)
            })
        })
        .await?;
    state.mail_queued();
    // Every other session has ended (the password's generation moved on);
    // this browser gets a fresh token, and the old sessions leave the list.
    let device = device_of(req.headers());
    let signing_in = state.clone();
    let (cookie, _) = state
        .with_db(move |conn| {
            let (cookie, sid) = sign_in_cookie(&signing_in, conn, &account, None, &device)?;
            let expires = (Utc::now() + crate::auth::token::SESSION_MAX_AGE).naive_utc();
            accounts::end_other_sessions(conn, account.id, &sid, true, expires)?;
            Ok((cookie, sid))
        })
        .await?;
    let mut response = redirect_with_flash(
        &state,
        "/account",
        FlashLevel::Success,
        "Your password is changed, and you are signed out everywhere else.",
    );
    response.add_cookie(&cookie).map_err(AppError::internal)?;
    Ok(response)
}

#[derive(Template)]
#[template(path = "accounts/delete.html")]
struct DeletePage {
    ctx: PageContext,
    errors: FormErrors,
}

#[get("/account/delete")]
async fn delete_page(ctx: PageContext, _user: CurrentUser) -> Result<HttpResponse, AppError> {
    render_page(
        &ctx,
        &DeletePage {
            ctx: ctx.clone(),
            errors: FormErrors::new(),
        },
    )
}

#[derive(Debug, Default, Deserialize)]
pub struct DeleteForm {
    #[serde(default)]
    pub password: String,
}

#[post("/account/delete")]
async fn delete_account(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<DeleteForm>,
) -> Result<HttpResponse, AppError> {
    let check = check_own_password(&state, &user.account, form.password.clone()).await?;
    if check != PasswordCheck::Correct {
        let mut errors = FormErrors::new();
        let (message, status) = match check {
            PasswordCheck::Throttled => (PASSWORD_THROTTLED, StatusCode::TOO_MANY_REQUESTS),
            _ => (
                "That is not your password; the account was not deleted.",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
        };
        errors.add("password", message);
        return render_with_status(
            &ctx,
            &DeletePage {
                ctx: ctx.clone(),
                errors,
            },
            status,
        );
    }
    let id = user.id();
    state
        .with_db(move |conn| Ok(accounts::anonymise_account(conn, id, now())?))
        .await?;
    let mut response = redirect_with_flash(
        &state,
        "/",
        FlashLevel::Info,
        "Your account is deleted. Results you played remain, without your name.",
    );
    response
        .add_cookie(&sign_out_cookie(&state))
        .map_err(AppError::internal)?;
    Ok(response)
}
