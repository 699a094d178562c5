//! A forgotten password: a single-use link by mail, then a new password.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use askama::Template;
use chrono::Duration;
use serde::Deserialize;

use crate::accounts::{self, Budget};
use crate::auth::hash_token;
use crate::auth::input::{EmailAddress, NewPassword};
use crate::auth::password::PASSWORD_WORKERS;
use crate::web::AppState;
use crate::web::client::client_address;
use crate::web::error::AppError;
use crate::web::forms::{FormErrors, render_invalid, render_with_status};
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, sign_out_cookie};

use super::*;

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
pub(super) async fn forgot_page(ctx: PageContext) -> Result<HttpResponse, AppError> {
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
pub(super) async fn forgot(
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
        .with_db(move |conn| Ok(accounts::spend(conn, &budget, now())?))
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
            Ok(accounts::send_password_reset(
                conn,
                lookup_email.as_str(),
                &base_url,
                now(),
            )?)
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
pub(super) async fn reset_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, AppError> {
    let token_hash = hash_token(&query.token);
    let live = state
        .with_db(move |conn| Ok(accounts::reset_link_works(conn, &token_hash, now())?))
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
pub(super) async fn reset(
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
    let hash = PASSWORD_WORKERS.hash(password.as_str().to_owned()).await?;
    let changed = state
        .with_db(move |conn| {
            Ok(accounts::reset_password(
                conn,
                &token_hash,
                &hash,
                &base_url,
                now(),
            )?)
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
