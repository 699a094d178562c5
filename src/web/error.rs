//! The service's error type as the web layer sees it, rendered as an HTML page
//! for people and as a JSON body for the API. Neither ever shows a panic
//! message, a query or a stack: internal details go to the log only.

use actix_web::http::StatusCode;
use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;

use crate::db::DbError;
use crate::events::EventError;

#[derive(Debug, Clone, thiserror::Error)]
pub enum AppError {
    #[error("The page you asked for does not exist.")]
    NotFound,
    /// Input that failed validation; the message says what to fix.
    #[error("{0}")]
    BadRequest(String),
    #[error("Please sign in to continue.")]
    Unauthorized,
    /// A page that needs a signed-in user: answered by a redirect to the
    /// sign-in page, which returns to this path afterwards.
    #[error("Please sign in to continue.")]
    SignInRequired(String),
    #[error("{0}")]
    Forbidden(String),
    /// The request clashes with the current state (a duplicate, a stale form).
    #[error("{0}")]
    Conflict(String),
    #[error("Too many attempts. Please wait a moment and try again.")]
    TooManyRequests,
    #[error("The service is temporarily unavailable. Please try again shortly.")]
    Unavailable,
    /// The database refuses every write (read-only, disk full): nothing
    /// was saved, and the operator must act.
    #[error(
        "Nothing could be saved: {}. Please tell the organiser, and send it again \
         once it is fixed.",
        .0.reason()
    )]
    WritesRefused(crate::db::WritesRefused),
    /// The request (its body, or the work on it) took longer than the
    /// server allows, which a client holding connections open would use.
    #[error("The request took too long. Please try again.")]
    RequestTimeout,
    #[error("Something went wrong on our side. The error has been logged.")]
    Internal(String),
}

impl AppError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::BadRequest(message.into())
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::Forbidden(message.into())
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        Self::Conflict(message.into())
    }

    pub fn internal(detail: impl std::fmt::Display) -> Self {
        Self::Internal(detail.to_string())
    }

    /// A stable machine-readable code for API clients.
    pub fn code(&self) -> &'static str {
        match self {
            Self::NotFound => "not_found",
            Self::BadRequest(_) => "invalid_input",
            Self::Unauthorized | Self::SignInRequired(_) => "unauthorized",
            Self::Forbidden(_) => "forbidden",
            Self::Conflict(_) => "conflict",
            Self::TooManyRequests => "too_many_requests",
            Self::Unavailable | Self::WritesRefused(_) => "unavailable",
            Self::RequestTimeout => "request_timeout",
            Self::Internal(_) => "internal",
        }
    }

    /// A short heading for the error page.
    pub fn title(&self) -> &'static str {
        match self {
            Self::NotFound => "Not found",
            Self::BadRequest(_) => "Please check your input",
            Self::Unauthorized | Self::SignInRequired(_) => "Sign in required",
            Self::Forbidden(_) => "Not allowed",
            Self::Conflict(_) => "Conflict",
            Self::TooManyRequests => "Slow down",
            Self::Unavailable => "Unavailable",
            Self::WritesRefused(_) => "Cannot save",
            Self::RequestTimeout => "Too slow",
            Self::Internal(_) => "Server error",
        }
    }

    /// What may be shown to the client: internal details stay in the log.
    pub fn public_message(&self) -> String {
        self.to_string()
    }

    fn log(&self) {
        match self {
            Self::Internal(detail) => tracing::error!(error = %detail, "internal error"),
            Self::Unavailable => tracing::warn!("service unavailable"),
            Self::WritesRefused(why) => {
                tracing::error!(reason = why.reason(), "a write was refused by the database")
            }
            _ => {}
        }
    }
}

impl From<crate::auth::password::HashError> for AppError {
    fn from(err: crate::auth::password::HashError) -> Self {
        match err {
            crate::auth::password::HashError::Busy => {
                tracing::warn!("password checks are queued to their bound");
                Self::Unavailable
            }
            failed @ crate::auth::password::HashError::Failed(_) => Self::internal(failed),
        }
    }
}

impl From<DbError> for AppError {
    fn from(err: DbError) -> Self {
        if let Some(why) = err.refuses_writes() {
            tracing::error!(error = %err, "the database refuses writes");
            return Self::WritesRefused(why);
        }
        match err {
            DbError::Query(diesel::result::Error::NotFound) => Self::NotFound,
            DbError::Pool(_) | DbError::Connection(_) => {
                tracing::error!(error = %err, "database unavailable");
                Self::Unavailable
            }
            conflict if conflict.is_transient_conflict() => {
                tracing::warn!(error = %conflict, "write gave way to a concurrent one");
                Self::Conflict(
                    "Someone else changed this at the same moment, so nothing was saved. \
                     Please try again."
                        .into(),
                )
            }
            other => Self::Internal(other.to_string()),
        }
    }
}

impl From<diesel::result::Error> for AppError {
    fn from(err: diesel::result::Error) -> Self {
        DbError::from(err).into()
    }
}

impl From<actix_web::error::BlockingError> for AppError {
    fn from(err: actix_web::error::BlockingError) -> Self {
        Self::Internal(format!("blocking task failed: {err}"))
    }
}

impl From<askama::Error> for AppError {
    fn from(err: askama::Error) -> Self {
        Self::Internal(format!("template rendering failed: {err}"))
    }
}

impl From<crate::auth::AddressNotConfirmed> for AppError {
    fn from(refusal: crate::auth::AddressNotConfirmed) -> Self {
        Self::Forbidden(refusal.to_string())
    }
}

impl From<EventError> for AppError {
    fn from(err: EventError) -> Self {
        match err {
            EventError::NotFound => AppError::NotFound,
            EventError::Forbidden(m) => AppError::Forbidden(m),
            EventError::Invalid(_) => AppError::BadRequest(err.to_string()),
            EventError::Conflict(m) => AppError::Conflict(m),
            EventError::Db(db) => db.into(),
            EventError::Pairing(p) => {
                AppError::Conflict(format!("The round could not be paired: {p}"))
            }
            EventError::Setup(s) => {
                AppError::Conflict(format!("The setup could not be generated: {s}"))
            }
            other => AppError::internal(other),
        }
    }
}

impl From<crate::pools::PoolError> for AppError {
    fn from(err: crate::pools::PoolError) -> Self {
        use crate::pools::PoolError;
        match err {
            PoolError::NotFound => AppError::NotFound,
            PoolError::Forbidden(m) => AppError::Forbidden(m),
            PoolError::Conflict(m) | PoolError::IdRefused(m) => AppError::Conflict(m),
            PoolError::Invalid(m) => AppError::BadRequest(m),
            PoolError::Db(db) => db.into(),
        }
    }
}

impl From<crate::packs::PackError> for AppError {
    fn from(err: crate::packs::PackError) -> Self {
        use crate::packs::PackError;
        match err {
            PackError::NotFound => AppError::NotFound,
            PackError::Forbidden(m) => AppError::Forbidden(m),
            PackError::Refused(m) => AppError::Conflict(m),
            PackError::Invalid(_) => AppError::BadRequest(err.to_string()),
            PackError::Event(event) => event.into(),
            PackError::Db(db) => db.into(),
            PackError::Corrupt(_) => AppError::internal(err),
        }
    }
}

impl From<crate::accounts::AccountError> for AppError {
    fn from(err: crate::accounts::AccountError) -> Self {
        match err {
            crate::accounts::AccountError::NotFound => AppError::NotFound,
            crate::accounts::AccountError::Db(db) => db.into(),
            other @ (crate::accounts::AccountError::Mail(_)
            | crate::accounts::AccountError::Link(_)) => AppError::internal(other),
        }
    }
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::SignInRequired(_) => StatusCode::SEE_OTHER,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable | Self::WritesRefused(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        self.log();
        if let Self::SignInRequired(next) = self {
            let query = serde_urlencoded::to_string([("next", next.as_str())]).unwrap_or_default();
            return HttpResponse::SeeOther()
                .insert_header((
                    actix_web::http::header::LOCATION,
                    format!("/signin?{query}"),
                ))
                .finish();
        }
        let body = super::error_page::render(self);
        HttpResponse::build(self.status_code())
            .content_type(ContentType::html())
            .body(body)
    }
}

/// The JSON body of every API error.
#[derive(Debug, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct ApiErrorBody {
    pub error: String,
    pub message: String,
}

/// An [`AppError`] answered as JSON, for handlers under `/api/v1`.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct ApiError(#[from] pub AppError);

impl From<DbError> for ApiError {
    fn from(err: DbError) -> Self {
        Self(err.into())
    }
}

impl From<diesel::result::Error> for ApiError {
    fn from(err: diesel::result::Error) -> Self {
        Self(err.into())
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(err: actix_web::error::BlockingError) -> Self {
        Self(err.into())
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.0.status_code()
    }

    fn error_response(&self) -> HttpResponse {
        self.0.log();
        HttpResponse::build(self.status_code()).json(ApiErrorBody {
            error: self.0.code().to_owned(),
            message: self.0.public_message(),
        })
    }
}
