//! Static files, embedded in the binary so a release build runs from anywhere.

use actix_web::http::header::{CacheControl, CacheDirective, ContentType};
use actix_web::{HttpResponse, get, web};

use crate::web::error::AppError;

struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

const ASSETS: &[Asset] = &[
    Asset {
        name: "style.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../static/style.css"),
    },
    Asset {
        name: "play.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../static/play.css"),
    },
    Asset {
        name: "play.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../static/play.js"),
    },
    Asset {
        name: "mk.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../static/mk.js"),
    },
    Asset {
        name: "enhance.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../static/enhance.js"),
    },
    Asset {
        name: "favicon.svg",
        content_type: "image/svg+xml",
        body: include_bytes!("../../static/favicon.svg"),
    },
];

#[get("/static/{name}")]
pub async fn asset(name: web::Path<String>) -> Result<HttpResponse, AppError> {
    let asset = ASSETS
        .iter()
        .find(|a| a.name == name.as_str())
        .ok_or(AppError::NotFound)?;
    Ok(HttpResponse::Ok()
        .insert_header(ContentType(
            asset
                .content_type
                .parse()
                .map_err(|_| AppError::internal("bad asset content type"))?,
        ))
        .insert_header(CacheControl(vec![
            CacheDirective::Public,
            CacheDirective::MaxAge(3600),
        ]))
        .body(asset.body))
}
