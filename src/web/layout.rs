//! What every page shares: the signed-in user, flash messages and the CSRF
//! token, gathered once per request by the [`PageContext`] extractor.

use std::future::{Ready, ready};

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};

use crate::web::AppState;
use crate::web::error::AppError;

const FLASH_COOKIE: &str = "soulstone_flash";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FlashLevel {
    Success,
    Info,
    Warning,
    Error,
}

impl FlashLevel {
    pub fn css_class(self) -> &'static str {
        match self {
            Self::Success => "flash-success",
            Self::Info => "flash-info",
            Self::Warning => "flash-warning",
            Self::Error => "flash-error",
        }
    }
}

/// A one-time message shown on the next page (after a redirect).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flash {
    pub level: FlashLevel,
    pub message: String,
}

/// Shared data for the base layout.
#[derive(Debug, Clone, Default)]
pub struct PageContext {
    pub user: Option<std::sync::Arc<crate::web::session::SessionUser>>,
    /// The CSRF token every form on the page carries.
    pub csrf_token: String,
    pub flashes: Vec<Flash>,
    /// The flash cookie must be cleared once its messages were shown.
    had_flash_cookie: bool,
    pub production: bool,
}

impl PageContext {
    /// A visitor who is not signed in and has no messages waiting: a page
    /// that shows such a visitor no form holds nothing of theirs, so it may
    /// be rendered once (see [`Self::shared`]) and sent to all of them.
    pub fn is_shared(&self) -> bool {
        self.user.is_none() && self.flashes.is_empty() && !self.had_flash_cookie
    }

    /// This context without the visitor's form token, for a page shared
    /// between visitors. Only for pages with no form for them.
    pub fn shared(&self) -> Self {
        Self {
            csrf_token: String::new(),
            ..self.clone()
        }
    }

    /// For pages rendered without a request (error pages).
    pub fn anonymous() -> Self {
        Self::default()
    }

    fn from_request(req: &HttpRequest) -> Self {
        let Some(state) = req.app_data::<web::Data<AppState>>() else {
            return Self::default();
        };
        let flashes = read_flash_cookie(req, state);
        Self {
            user: crate::web::session::MaybeUser::from_request_sync(req),
            csrf_token: crate::web::session::csrf_form_token(req),
            had_flash_cookie: req.cookie(FLASH_COOKIE).is_some(),
            flashes,
            production: state.settings.is_production(),
        }
    }
}

impl PageContext {
    /// A signed-in account whose address is not confirmed yet, told on
    /// every page what waits for it (`auth::require_confirmed_address`).
    pub fn needs_confirmation(&self) -> bool {
        self.user
            .as_ref()
            .is_some_and(|user| !user.account.is_verified())
    }

    pub fn is_signed_in(&self) -> bool {
        self.user.is_some()
    }

    pub fn is_admin(&self) -> bool {
        self.user.as_ref().is_some_and(|u| u.is_admin())
    }

    pub fn user_name(&self) -> &str {
        self.user
            .as_ref()
            .map(|u| u.account.display_name.as_str())
            .unwrap_or_default()
    }

    /// Adds a message to show on this page (a page rendered, not redirected).
    pub fn with_flash(mut self, level: FlashLevel, message: impl Into<String>) -> Self {
        self.flashes.push(Flash {
            level,
            message: message.into(),
        });
        self
    }
}

impl FromRequest for PageContext {
    type Error = AppError;
    type Future = Ready<Result<Self, AppError>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(Ok(PageContext::from_request(req)))
    }
}

fn read_flash_cookie(req: &HttpRequest, state: &AppState) -> Vec<Flash> {
    let Some(cookie) = req.cookie(FLASH_COOKIE) else {
        return Vec::new();
    };
    let mut jar = actix_web::cookie::CookieJar::new();
    jar.add_original(cookie);
    jar.signed(&state.cookie_key)
        .get(FLASH_COOKIE)
        .and_then(|c| hex::decode(c.value()).ok())
        .and_then(|json| serde_json::from_slice(&json).ok())
        .unwrap_or_default()
}

/// Renders a page, clearing the flash cookie once its messages are on screen.
pub fn render_page<T: askama::Template>(
    ctx: &PageContext,
    page: &T,
) -> Result<HttpResponse, AppError> {
    let body = page.render()?;
    let mut response = HttpResponse::Ok();
    response.content_type(header::ContentType::html());
    if ctx.had_flash_cookie {
        let mut removal = Cookie::build(FLASH_COOKIE, "").path("/").finish();
        removal.make_removal();
        response.cookie(removal);
    }
    Ok(response.body(body))
}

/// A 303 redirect (the browser follows it with GET) carrying a flash message.
pub fn redirect_with_flash(
    state: &AppState,
    location: &str,
    level: FlashLevel,
    message: impl Into<String>,
) -> HttpResponse {
    let flash = vec![Flash {
        level,
        message: message.into(),
    }];
    // Hex, since a message may hold what a cookie value cannot (";", ",").
    let value = hex::encode(serde_json::to_string(&flash).unwrap_or_default());
    let mut jar = actix_web::cookie::CookieJar::new();
    jar.signed_mut(&state.cookie_key).add(
        Cookie::build(FLASH_COOKIE, value)
            .path("/")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(state.settings.is_production())
            .max_age(CookieDuration::minutes(5))
            .finish(),
    );
    let mut response = HttpResponse::SeeOther();
    response.insert_header((header::LOCATION, location));
    for cookie in jar.delta() {
        response.cookie(cookie.clone());
    }
    response.finish()
}

/// A plain 303 redirect.
pub fn redirect(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .finish()
}

/// A file to save rather than a page to show (exports).
pub fn download(content_type: &str, filename: &str, body: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"{filename}\""),
        ))
        .body(body)
}
