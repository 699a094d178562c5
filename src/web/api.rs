//! The JSON API under `/api/v1` (documented in `docs/api.md`). Callers
//! authenticate with `Authorization: Bearer <token>` from `POST /api/v1/token`.

use actix_web::{HttpRequest, HttpResponse, get, post, web};
use chrono::Utc;
use serde::{Deserialize, Serialize};

use crate::accounts;
use crate::auth::token::{TokenKind, TokenSubject};
use crate::web::AppState;
use crate::web::accounts::{SignInClient, SignInOutcome, device_mark, sign_in};
use crate::web::client::client_address;
use crate::web::error::{ApiError, AppError};
use crate::web::session::ApiUser;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(create_token)
        .service(revoke_token)
        .service(me)
        .service(setup)
        .service(list_pools)
        .service(get_pool);
}

#[derive(Debug, Deserialize)]
pub struct TokenRequest {
    pub email: String,
    pub password: String,
    /// The device mark an earlier successful request returned: with it,
    /// failed attempts by strangers (the account's ceiling) do not hold
    /// this client out.
    #[serde(default)]
    pub device: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct TokenResponse {
    pub token: String,
    pub expires_at: chrono::DateTime<Utc>,
    /// A mark of this client as one that signed in to the account: keep it
    /// and send it as `device` with the next token request.
    pub device: String,
}

#[post("/token")]
async fn create_token(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<TokenRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let client = SignInClient::of_api(client_address(&req, &state), body.device.as_deref(), &state);
    let outcome = sign_in(&state, &body.email, body.password, client).await?;
    let account = match outcome {
        SignInOutcome::SignedIn(account) => account,
        SignInOutcome::Refused => return Err(ApiError(AppError::Unauthorized)),
        SignInOutcome::Throttled => return Err(ApiError(AppError::TooManyRequests)),
    };
    let device_mark = device_mark(&state, &account)?;
    let subject = TokenSubject {
        account_id: account.id,
        generation: account.session_generation,
    };
    let now = Utc::now();
    let (token, claims) = state
        .tokens
        .issue(subject, TokenKind::Api, now, None)
        .map_err(AppError::internal)?;
    // Listed on the account page, where its owner can revoke it.
    let client = crate::web::session::device_of(req.headers());
    let (sid, expires) = (claims.jti.clone(), claims.expires_at().naive_utc());
    state
        .with_db(move |conn| {
            Ok(accounts::record_api_token(
                conn,
                &sid,
                account.id,
                now.naive_utc(),
                expires,
                &client,
            )?)
        })
        .await?;
    Ok(HttpResponse::Ok().json(TokenResponse {
        token,
        expires_at: claims.expires_at(),
        device: device_mark,
    }))
}

/// Ends the token used for this request.
#[post("/token/revoke")]
async fn revoke_token(user: ApiUser, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let jti = user.claims.jti.clone();
    let expires = user.claims.expires_at().naive_utc();
    let account = user.account.id;
    state
        .with_db(move |conn| Ok(accounts::revoke_api_token(conn, account, &jti, expires)?))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Me {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub club: Option<String>,
    pub region: Option<String>,
    pub malifaux_name: Option<String>,
    pub mage_knight_name: Option<String>,
    pub is_admin: bool,
    pub email_verified: bool,
}

#[get("/me")]
async fn me(user: ApiUser) -> HttpResponse {
    let a = &user.account;
    HttpResponse::Ok().json(Me {
        id: a.id,
        email: a.email.clone(),
        display_name: a.display_name.clone(),
        club: a.club.clone(),
        region: a.region.clone(),
        malifaux_name: a.malifaux_name.clone(),
        mage_knight_name: a.mage_knight_name.clone(),
        is_admin: a.is_admin,
        email_verified: a.is_verified(),
    })
}

/// `GET /api/v1/setup?edition=&pool=&rev=&seed=&size=`: the same setup as the page.
#[get("/setup")]
async fn setup(
    state: web::Data<AppState>,
    query: web::Query<crate::web::setup::GeneratorQuery>,
) -> Result<HttpResponse, ApiError> {
    use rand::RngCore;
    let query = query.into_inner();
    let seed = match query.seed.as_deref().map(str::trim) {
        None | Some("") => rand::rng().next_u64() % 1_000_000_000,
        Some(raw) => raw
            .parse::<u64>()
            .map_err(|_| AppError::bad_request("The seed must be a whole number."))?,
    };
    let asked = crate::web::setup::asked_of(&query, seed)?;
    let setup = state
        .with_db(move |conn| {
            Ok(crate::pools::generate_setup(
                conn,
                &asked,
                chrono::Utc::now().naive_utc(),
            )?)
        })
        .await?;
    Ok(HttpResponse::Ok().json(setup))
}

#[derive(Debug, Serialize)]
struct PoolSummary {
    id: String,
    name: String,
    edition: String,
    shipped: bool,
}

#[get("/pools")]
async fn list_pools(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let rows = state.with_db(|conn| Ok(crate::pools::list(conn)?)).await?;
    Ok(HttpResponse::Ok().json(
        rows.into_iter()
            .map(|p| PoolSummary {
                id: p.slug,
                name: p.name,
                edition: p.edition,
                shipped: p.shipped,
            })
            .collect::<Vec<_>>(),
    ))
}

#[get("/pools/{slug}")]
async fn get_pool(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let slug = path.into_inner();
    let pool = state
        .with_db(move |conn| Ok(crate::pools::find(conn, &slug)?.pool))
        .await?;
    Ok(HttpResponse::Ok().json(pool.def()))
}
