//! Sessions and CSRF for browser requests, and bearer tokens for the API.
//!
//! The session is a signed JWT in an HttpOnly cookie. A middleware checks it
//! once per request (signature and expiry, then revocation in the database),
//! renews it when it is getting old, and makes sure the browser holds a CSRF
//! cookie. Handlers read the result through the extractors below.

use std::future::{Ready, ready};
use std::sync::Arc;

use actix_web::body::MessageBody;
use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::Next;
use actix_web::{Error, FromRequest, HttpMessage, HttpRequest, web};
use chrono::{DateTime, Utc};

use crate::accounts::{self, Account};
use crate::auth::token::{Claims, SESSION_MAX_AGE, TokenKind, TokenSubject};
use crate::web::AppState;
use crate::web::error::{ApiError, AppError};

pub const SESSION_COOKIE: &str = "soulstone_session";
pub const CSRF_COOKIE: &str = "soulstone_csrf";
/// The form field every state-changing form carries.
pub const CSRF_FIELD: &str = "csrf_token";

/// The signed-in account behind a request.
#[derive(Debug, Clone)]
pub struct SessionUser {
    pub account: Account,
    pub claims: Claims,
}

impl SessionUser {
    pub fn id(&self) -> i64 {
        self.account.id
    }

    pub fn is_admin(&self) -> bool {
        self.account.is_admin
    }
}

/// What the middleware learnt about the request.
#[derive(Debug, Clone)]
pub struct RequestSession {
    pub user: Option<Arc<SessionUser>>,
    pub csrf_cookie: String,
}

/// Checks a token and the account behind it: of the kind this way in
/// takes (a session cookie, or an API bearer token: never one for the
/// other), live, not revoked, issued after the last password change.
pub fn authenticate(
    state: &AppState,
    token: &str,
    kind: TokenKind,
    now: DateTime<Utc>,
) -> Result<Option<SessionUser>, AppError> {
    let Ok(claims) = state.tokens.verify(token, now) else {
        return Ok(None);
    };
    if claims.kind != kind {
        return Ok(None);
    }
    let Some(account_id) = claims.account_id() else {
        return Ok(None);
    };
    let held = accounts::TokenHeld {
        account_id,
        generation: claims.generation,
        jti: &claims.jti,
        session_id: claims.session_id(),
        api: kind == TokenKind::Api,
    };
    let mut conn = state.db.conn()?;
    let Some(account) = accounts::account_for_token(&mut conn, held, now.naive_utc())? else {
        return Ok(None);
    };
    Ok(Some(SessionUser { account, claims }))
}

fn session_cookie(state: &AppState, value: String, max_age: CookieDuration) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.settings.is_production())
        .max_age(max_age)
        .finish()
}

/// A cookie that signs the browser in with a freshly issued token: a new
/// session, or the next token of `renewing`'s session; and that session's
/// use, for the caller to record (`accounts::record_session`) for the
/// account page's list of sessions, with the browser's description
/// `device`.
pub fn sign_in_cookie(
    state: &AppState,
    account: &Account,
    renewing: Option<&Claims>,
    device: &str,
) -> Result<(Cookie<'static>, accounts::SessionUse), AppError> {
    let subject = TokenSubject {
        account_id: account.id,
        generation: account.session_generation,
    };
    let started = renewing.and_then(|c| DateTime::from_timestamp(c.sat, 0));
    let now = Utc::now();
    let (token, claims) = state
        .tokens
        .issue_in_session(
            subject,
            TokenKind::Session,
            now,
            started,
            renewing.map(Claims::session_id),
        )
        .map_err(AppError::internal)?;
    let cookie = session_cookie(
        state,
        token,
        CookieDuration::seconds(SESSION_MAX_AGE.num_seconds()),
    );
    let used = accounts::SessionUse {
        session_id: claims.session_id().to_owned(),
        account_id: account.id,
        at: now.naive_utc(),
        device: device.to_owned(),
    };
    Ok((cookie, used))
}

/// What the browser says it is (its User-Agent), for the list of sessions.
pub fn device_of(headers: &actix_web::http::header::HeaderMap) -> String {
    headers
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("unknown browser")
        .to_owned()
}

pub fn sign_out_cookie(state: &AppState) -> Cookie<'static> {
    let mut cookie = session_cookie(state, String::new(), CookieDuration::ZERO);
    cookie.make_removal();
    cookie
}

/// Paths that never need a session (no database work for them).
fn is_sessionless(path: &str) -> bool {
    path.starts_with("/static/") || path == "/healthz" || path.starts_with("/api/")
}

/// The session middleware (see the module documentation).
pub async fn session_middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return next.call(req).await;
    };
    if is_sessionless(req.path()) {
        return next.call(req).await;
    }
    let now = Utc::now();
    let token = req.cookie(SESSION_COOKIE).map(|c| c.value().to_owned());
    let mut clear_session = false;
    let mut renewed: Option<Cookie<'static>> = None;
    let user = match token {
        Some(token) if !token.is_empty() => {
            let lookup_state = state.clone();
            let found =
                web::block(move || authenticate(&lookup_state, &token, TokenKind::Session, now))
                    .await
                    .map_err(AppError::from)??;
            match found {
                Some(user) => {
                    if user.claims.wants_renewal(now) {
                        let renew_state = state.clone();
                        let device = device_of(req.headers());
                        let (account, claims) = (user.account.clone(), user.claims.clone());
                        let cookie = web::block(move || {
                            let (cookie, used) =
                                sign_in_cookie(&renew_state, &account, Some(&claims), &device)?;
                            let mut conn = renew_state.db.conn()?;
                            accounts::record_session(&mut conn, &used)?;
                            Ok::<_, AppError>(cookie)
                        })
                        .await
                        .map_err(AppError::from)??;
                        renewed = Some(cookie);
                    }
                    Some(Arc::new(user))
                }
                None => {
                    clear_session = true;
                    None
                }
            }
        }
        _ => None,
    };
    let existing_csrf = req
        .cookie(CSRF_COOKIE)
        .map(|c| c.value().to_owned())
        .filter(|v| v.len() >= 32);
    let new_csrf = existing_csrf.is_none().then(crate::auth::random_token);
    let csrf_cookie = existing_csrf
        .or_else(|| new_csrf.clone())
        .unwrap_or_default();
    req.extensions_mut()
        .insert(RequestSession { user, csrf_cookie });

    let mut response = next.call(req).await?;
    if let Some(value) = new_csrf {
        let cookie = Cookie::build(CSRF_COOKIE, value)
            .path("/")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(state.settings.is_production())
            .max_age(CookieDuration::days(365))
            .finish();
        response.response_mut().add_cookie(&cookie)?;
    }
    // A handler that signed in or out has set its own session cookie.
    let handler_set_session = response
        .response()
        .cookies()
        .any(|c| c.name() == SESSION_COOKIE);
    if !handler_set_session {
        if let Some(cookie) = renewed {
            response.response_mut().add_cookie(&cookie)?;
        } else if clear_session {
            response
                .response_mut()
                .add_cookie(&sign_out_cookie(&state))?;
        }
    }
    Ok(response)
}

pub(crate) fn request_session(req: &HttpRequest) -> Option<RequestSession> {
    req.extensions().get::<RequestSession>().cloned()
}

/// The signed-in user, if any.
pub struct MaybeUser(pub Option<Arc<SessionUser>>);

impl MaybeUser {
    pub fn from_request_sync(req: &HttpRequest) -> Option<Arc<SessionUser>> {
        request_session(req).and_then(|s| s.user)
    }
}

impl FromRequest for MaybeUser {
    type Error = AppError;
    type Future = Ready<Result<Self, AppError>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(Ok(MaybeUser(request_session(req).and_then(|s| s.user))))
    }
}

/// A signed-in user; anyone else is sent to the sign-in page.
pub struct CurrentUser(pub Arc<SessionUser>);

impl std::ops::Deref for CurrentUser {
    type Target = SessionUser;

    fn deref(&self) -> &SessionUser {
        &self.0
    }
}

impl FromRequest for CurrentUser {
    type Error = AppError;
    type Future = Ready<Result<Self, AppError>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let user = request_session(req).and_then(|s| s.user);
        ready(match user {
            Some(user) => Ok(CurrentUser(user)),
            None => Err(AppError::SignInRequired(sign_in_return_path(req))),
        })
    }
}

/// Where to come back to after signing in: this page for GETs, the referring
/// page for form posts.
fn sign_in_return_path(req: &HttpRequest) -> String {
    if req.method() == actix_web::http::Method::GET {
        return req
            .uri()
            .path_and_query()
            .map(|pq| pq.as_str().to_owned())
            .unwrap_or_else(|| "/".into());
    }
    req.headers()
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|referer| {
            let after_scheme = referer.split_once("://").map(|(_, rest)| rest)?;
            after_scheme.find('/').map(|i| after_scheme[i..].to_owned())
        })
        .unwrap_or_else(|| "/".into())
}

/// A signed-in site admin.
pub struct AdminUser(pub Arc<SessionUser>);

impl FromRequest for AdminUser {
    type Error = AppError;
    type Future = Ready<Result<Self, AppError>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let user = request_session(req).and_then(|s| s.user);
        ready(match user {
            Some(user) if user.is_admin() => Ok(AdminUser(user)),
            Some(_) => Err(AppError::forbidden("Only site admins can open this page.")),
            None => Err(AppError::SignInRequired(sign_in_return_path(req))),
        })
    }
}

/// The form token to embed in pages rendered for this request.
pub fn csrf_form_token(req: &HttpRequest) -> String {
    let Some(state) = req.app_data::<web::Data<AppState>>() else {
        return String::new();
    };
    request_session(req)
        .map(|s| state.csrf.form_token(&s.csrf_cookie))
        .unwrap_or_default()
}

/// A urlencoded form whose CSRF token has been checked before anything else
/// is read. A missing or wrong token is refused with 403.
pub struct CsrfForm<T>(pub T);

impl<T> std::ops::Deref for CsrfForm<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

/// The largest form body accepted.
const FORM_LIMIT: usize = 512 * 1024;

impl<T: serde::de::DeserializeOwned + 'static> FromRequest for CsrfForm<T> {
    type Error = AppError;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, AppError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let body = web::Bytes::from_request(&req, payload);
        Box::pin(async move {
            let bytes = body
                .await
                .map_err(|_| AppError::bad_request("The form could not be read."))?;
            if bytes.len() > FORM_LIMIT {
                return Err(AppError::bad_request("The form is too large."));
            }
            let session = request_session(&req);
            let state = req
                .app_data::<web::Data<AppState>>()
                .ok_or_else(|| AppError::internal("application state missing"))?;
            let submitted = form_urlencoded_value(&bytes, CSRF_FIELD);
            let valid = match (&session, submitted) {
                (Some(session), Some(token)) => state.csrf.verify(&session.csrf_cookie, &token),
                _ => false,
            };
            if !valid {
                return Err(AppError::forbidden(
                    "This form has expired or did not come from this site. Go back, reload the page and send it again.",
                ));
            }
            // No field of any form may hold a NUL: PostgreSQL cannot store
            // one and SQLite would, so it is refused here, the same on both.
            if serde_urlencoded::from_bytes::<Vec<(String, String)>>(&bytes)
                .is_ok_and(|fields| fields.iter().any(|(_, value)| value.contains('\0')))
            {
                return Err(AppError::bad_request(
                    "The form holds a NUL character, which cannot be kept. Remove it and send the form again.",
                ));
            }
            serde_urlencoded::from_bytes::<T>(&bytes)
                .map(CsrfForm)
                .map_err(|err| AppError::bad_request(format!("The form could not be read: {err}")))
        })
    }
}

fn form_urlencoded_value(body: &[u8], field: &str) -> Option<String> {
    serde_urlencoded::from_bytes::<Vec<(String, String)>>(body)
        .ok()?
        .into_iter()
        .find(|(key, _)| key == field)
        .map(|(_, value)| value)
}

/// A form with no fields besides its CSRF token (confirmation buttons).
#[derive(Debug, serde::Deserialize)]
pub struct NoFields {}

/// The token of `Authorization: Bearer <token>`, unchecked.
pub fn bearer_token(req: &HttpRequest) -> Option<String> {
    req.headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(|t| t.trim().to_owned())
}

/// An API caller authenticated by `Authorization: Bearer <token>`.
pub struct ApiUser(pub Arc<SessionUser>);

impl std::ops::Deref for ApiUser {
    type Target = SessionUser;

    fn deref(&self) -> &SessionUser {
        &self.0
    }
}

impl FromRequest for ApiUser {
    type Error = ApiError;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let token = bearer_token(req);
        let state = req.app_data::<web::Data<AppState>>().cloned();
        Box::pin(async move {
            let (Some(token), Some(state)) = (token, state) else {
                return Err(ApiError(AppError::Unauthorized));
            };
            let user = web::block(move || authenticate(&state, &token, TokenKind::Api, Utc::now()))
                .await
                .map_err(AppError::from)??;
            user.map(|u| ApiUser(Arc::new(u)))
                .ok_or(ApiError(AppError::Unauthorized))
        })
    }
}
