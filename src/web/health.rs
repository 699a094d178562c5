//! `GET /healthz`: the process is up, the database answers and takes
//! writes (the heartbeat every instance writes every two seconds says so).

use std::sync::atomic::{AtomicU8, Ordering};

use actix_web::{HttpResponse, get, web};
use serde::Serialize;

use crate::db::WritesRefused;
use crate::web::AppState;

/// Whether the database took this instance's last write of its own.
#[derive(Debug, Default)]
pub struct WriteCheck(AtomicU8);

impl WriteCheck {
    const TAKEN: u8 = 0;
    const READ_ONLY: u8 = 1;
    const DISK_FULL: u8 = 2;

    pub fn note(&self, refused: Option<WritesRefused>) {
        let code = match refused {
            None => Self::TAKEN,
            Some(WritesRefused::ReadOnly) => Self::READ_ONLY,
            Some(WritesRefused::DiskFull) => Self::DISK_FULL,
        };
        self.0.store(code, Ordering::Relaxed);
    }

    pub fn refused(&self) -> Option<WritesRefused> {
        match self.0.load(Ordering::Relaxed) {
            Self::READ_ONLY => Some(WritesRefused::ReadOnly),
            Self::DISK_FULL => Some(WritesRefused::DiskFull),
            _ => None,
        }
    }
}

#[derive(Serialize)]
struct Health {
    status: &'static str,
    database: &'static str,
    /// "ok", or "refused" when the database takes no writes.
    writes: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    problem: Option<&'static str>,
    version: &'static str,
}

#[get("/healthz")]
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    let db = state.db.clone();
    let backend = db.backend();
    let answers = matches!(web::block(move || db.ping()).await, Ok(Ok(())));
    let refused = state.writes.refused();
    let ok = answers && refused.is_none();
    let body = Health {
        status: if ok { "ok" } else { "unavailable" },
        database: backend,
        writes: if refused.is_some() { "refused" } else { "ok" },
        problem: refused
            .map(WritesRefused::reason)
            .or((!answers).then_some("the database does not answer")),
        version: env!("CARGO_PKG_VERSION"),
    };
    if ok {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}
