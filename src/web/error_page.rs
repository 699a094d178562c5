//! The HTML error page, rendered without a request (from `ResponseError`).

use askama::Template;

use crate::web::error::AppError;
use crate::web::layout::PageContext;

#[derive(Template)]
#[template(path = "errors/error.html")]
struct ErrorPage<'a> {
    ctx: PageContext,
    status: u16,
    title: &'a str,
    message: String,
}

pub fn render(err: &AppError) -> String {
    use actix_web::ResponseError;
    let page = ErrorPage {
        ctx: PageContext::anonymous(),
        status: err.status_code().as_u16(),
        title: err.title(),
        message: err.public_message(),
    };
    // The error page must never fail; fall back to plain text if it somehow does.
    page.render()
        .unwrap_or_else(|_| format!("{} — {}", err.title(), err.public_message()))
}
