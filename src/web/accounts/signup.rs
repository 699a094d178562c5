//! Sign-up, the confirmation of an address, and a new confirmation link.

use actix_web::{HttpRequest, HttpResponse, get, post, web};
use askama::Template;
use chrono::Duration;
use serde::Deserialize;

use crate::accounts::{self, Budget, NewAccount};
use crate::auth::hash_token;
use crate::auth::input::{DisplayName, EmailAddress, NewPassword, optional_text};
use crate::auth::password::PASSWORD_WORKERS;
use crate::web::AppState;
use crate::web::client::client_address;
use crate::web::error::AppError;
use crate::web::forms::{FormErrors, render_invalid};
use crate::web::layout::{FlashLevel, PageContext, redirect, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, NoFields};

use super::*;

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

/// The sign-up form. Its venue code comes from the link (`?venue=`, which
/// also hands this browser the venue pass) or from a pass the browser holds.
#[get("/signup")]
pub(super) async fn signup_page(
    req: HttpRequest,
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<SignupQuery>,
) -> Result<HttpResponse, AppError> {
    if ctx.is_signed_in() {
        return Ok(redirect("/account"));
    }
    let query = query.into_inner();
    let pass = if query.venue.trim().is_empty() {
        None
    } else {
        open_venue(&state, &query.venue)
            .await?
            .map(|_| venue_cookie(&state, &query.venue))
    };
    let venue = if query.venue.trim().is_empty() {
        req.cookie(VENUE_COOKIE)
            .filter(|_| venue_of(&req, &state).is_some())
            .map(|cookie| cookie.value().to_owned())
            .unwrap_or_default()
    } else {
        query.venue
    };
    let mut response = render_page(
        &ctx,
        &SignupPage {
            ctx: ctx.clone(),
            form: SignupForm {
                venue,
                next: query.next,
                ..SignupForm::default()
            },
            errors: FormErrors::new(),
        },
    )?;
    if let Some(pass) = pass {
        response.add_cookie(&pass).map_err(AppError::internal)?;
    }
    Ok(response)
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
pub(super) async fn signup(
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
        .with_db(move |conn| Ok(accounts::spend(conn, &budget, now())?))
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
    let hash = PASSWORD_WORKERS.hash(password.as_str().to_owned()).await?;
    let base_url = state.settings.base_url.clone();
    let going_to = safe_next(Some(&next));
    state
        .with_db(move |conn| {
            let new = NewAccount {
                email: email.as_str(),
                display_name: name.as_str(),
                password_hash: &hash,
                club: club.as_deref(),
                region: region.as_deref(),
                is_admin: false,
                created_at: now(),
            };
            Ok(accounts::sign_up(conn, &new, &base_url, &going_to)?)
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
pub(super) async fn check_email_page(
    ctx: PageContext,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, AppError> {
    let next = safe_next(query.next.as_deref());
    let signin_link = accounts::signin_link("", &next)?;
    render_page(
        &ctx,
        &CheckEmailPage {
            ctx: ctx.clone(),
            signin_link,
            carries_on: next != "/",
        },
    )
}

#[derive(Debug, Default, Deserialize)]
struct VerifyQuery {
    #[serde(default)]
    token: String,
    /// Where the person was going when they signed up.
    #[serde(default)]
    next: String,
}

/// Confirms an address. The link came to the address's owner, so a browser
/// that opens it signed out is signed in to the account, and goes on to
/// where the person was going when they signed up: sign-up itself signs no
/// one in, since that would tell a visitor which addresses have accounts.
/// A browser signed in to another account stays as it is.
#[get("/verify-email")]
pub(super) async fn verify_email(
    req: HttpRequest,
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<VerifyQuery>,
) -> Result<HttpResponse, AppError> {
    let token_hash = hash_token(&query.token);
    let next = safe_next(Some(&query.next));
    let verified = state
        .with_db(move |conn| Ok(accounts::confirm_email(conn, &token_hash, now())?))
        .await?;
    let Some(account) = verified else {
        return Err(AppError::bad_request(
            "This confirmation link has already been used or has expired. Sign in and ask for a new one from your account page.",
        ));
    };
    const CONFIRMED: &str = "Thank you: your email address is confirmed.";
    let signed_in_as = ctx.user.as_ref().map(|user| user.account.id);
    if signed_in_as.is_none() {
        let message = format!("{CONFIRMED} You are signed in.");
        return signed_in_redirect(&req, &state, account, &next, message).await;
    }
    if signed_in_as == Some(account.id) && next != "/" {
        return Ok(redirect_with_flash(
            &state,
            &next,
            FlashLevel::Success,
            CONFIRMED,
        ));
    }
    let ctx = ctx.with_flash(FlashLevel::Success, CONFIRMED);
    render_page(&ctx, &VerifiedPage { ctx: ctx.clone() })
}

#[derive(Template)]
#[template(path = "accounts/verified.html")]
struct VerifiedPage {
    ctx: PageContext,
}

#[post("/account/resend-verification")]
pub(super) async fn resend_verification(
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
            Ok(accounts::send_verification(
                conn,
                &account,
                &base_url,
                "/",
                now(),
            )?)
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
