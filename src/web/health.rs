//! `GET /healthz`: the process is up and the database answers.

use actix_web::{HttpResponse, get, web};
use serde::Serialize;

use crate::web::AppState;

#[derive(Serialize)]
struct Health {
    status: &'static str,
    database: &'static str,
    version: &'static str,
}

#[get("/healthz")]
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    let db = state.db.clone();
    let backend = db.backend();
    let ok = matches!(web::block(move || db.ping()).await, Ok(Ok(())));
    let body = Health {
        status: if ok { "ok" } else { "unavailable" },
        database: backend,
        version: env!("CARGO_PKG_VERSION"),
    };
    if ok {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}
