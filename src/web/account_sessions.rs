//! Where an account is signed in, on its account page: the browsers'
//! sessions and the API tokens of its scripts, each with when it began and
//! was last used; signing out everywhere else, and revoking one token.

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use chrono::{NaiveDateTime, Utc};
use serde::Deserialize;

use crate::accounts::{self, AccountSession, SessionKind};
use crate::auth::hash_token;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, NoFields};

/// What the account page lists: its browser sessions and its API tokens.
pub struct SignedIn {
    pub sessions: Vec<SessionRow>,
    pub tokens: Vec<TokenRow>,
}

/// A browser session in the account page's list.
pub struct SessionRow {
    pub device: String,
    pub started: String,
    pub last_seen: String,
    /// The session this page was asked for in.
    pub current: bool,
}

/// An API token in the account page's list.
pub struct TokenRow {
    /// What names it in a link (not its id: that is part of the token).
    pub handle: String,
    pub client: String,
    pub issued: String,
    pub last_used: String,
    pub expires: String,
}

fn when(at: NaiveDateTime) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// A token's name in links: enough of its id's hash to tell an account's
/// few tokens apart.
fn handle_of(sid: &str) -> String {
    hash_token(sid).chars().take(16).collect()
}

fn token_row(token: AccountSession) -> TokenRow {
    TokenRow {
        handle: handle_of(&token.sid),
        client: token.device,
        issued: when(token.started_at),
        last_used: when(token.last_seen_at),
        expires: token.expires_at.map(when).unwrap_or_default(),
    }
}

/// The account's sessions (this one marked) and API tokens.
pub async fn signed_in_shown(
    state: &web::Data<AppState>,
    user: &CurrentUser,
) -> Result<SignedIn, AppError> {
    let id = user.id();
    let current = user.claims.session_id().to_owned();
    let all = state
        .with_db(move |conn| Ok(accounts::sessions_of(conn, id)?))
        .await?;
    let (tokens, sessions): (Vec<AccountSession>, Vec<AccountSession>) =
        all.into_iter().partition(|s| s.kind == SessionKind::Api);
    Ok(SignedIn {
        sessions: sessions
            .into_iter()
            .map(|s| SessionRow {
                current: s.sid == current,
                device: s.device,
                started: when(s.started_at),
                last_seen: when(s.last_seen_at),
            })
            .collect(),
        tokens: tokens.into_iter().map(token_row).collect(),
    })
}

#[derive(Debug, Deserialize)]
pub struct EndOthersForm {
    /// Ticked: the API tokens end too.
    #[serde(default)]
    api_tokens: Option<String>,
}

/// Signs out every other session of the account (another browser, a
/// phone left signed in at a venue), and its API tokens if asked; this one
/// stays.
#[post("/account/sessions/end-others")]
pub async fn end_other_sessions(
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<EndOthersForm>,
) -> Result<HttpResponse, AppError> {
    let id = user.id();
    let keep = user.claims.session_id().to_owned();
    let with_tokens = form.0.api_tokens.is_some();
    let expires = (Utc::now() + crate::auth::token::SESSION_MAX_AGE).naive_utc();
    let ended = state
        .with_db(move |conn| {
            Ok(accounts::end_other_sessions(
                conn,
                id,
                &keep,
                with_tokens,
                expires,
            )?)
        })
        .await?;
    let what = if with_tokens {
        "other session or API token"
    } else {
        "other session"
    };
    let message = match ended {
        0 => format!("There was no {what} to sign out."),
        1 => format!("1 {what} is signed out."),
        n => format!("{n} {what}s are signed out."),
    };
    Ok(redirect_with_flash(
        &state,
        "/account",
        FlashLevel::Success,
        message,
    ))
}

/// The account's API token named by `handle`, if it has one.
async fn token_of(
    state: &web::Data<AppState>,
    user: &CurrentUser,
    handle: String,
) -> Result<Option<AccountSession>, AppError> {
    let id = user.id();
    let all = state
        .with_db(move |conn| Ok(accounts::sessions_of(conn, id)?))
        .await?;
    Ok(all
        .into_iter()
        .find(|s| s.kind == SessionKind::Api && handle_of(&s.sid) == handle))
}

#[derive(Template)]
#[template(path = "accounts/revoke_token.html")]
struct RevokeTokenPage {
    ctx: PageContext,
    token: TokenRow,
}

/// Asks before a token is revoked: a script using it stops working.
#[get("/account/tokens/{handle}/revoke")]
pub async fn revoke_token_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let token = token_of(&state, &user, path.into_inner())
        .await?
        .ok_or(AppError::NotFound)?;
    render_page(
        &ctx,
        &RevokeTokenPage {
            ctx: ctx.clone(),
            token: token_row(token),
        },
    )
}

#[post("/account/tokens/{handle}/revoke")]
pub async fn revoke_token(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let Some(token) = token_of(&state, &user, path.into_inner()).await? else {
        return Ok(redirect_with_flash(
            &state,
            "/account",
            FlashLevel::Info,
            "That API token had already ended.",
        ));
    };
    let id = user.id();
    let expires = token
        .expires_at
        .unwrap_or_else(|| (Utc::now() + crate::auth::token::API_TOKEN_LIFETIME).naive_utc());
    state
        .with_db(move |conn| Ok(accounts::end_session(conn, id, &token.sid, expires)?))
        .await?;
    Ok(redirect_with_flash(
        &state,
        "/account",
        FlashLevel::Success,
        "The API token is revoked: a script using it is refused from now on.",
    ))
}
