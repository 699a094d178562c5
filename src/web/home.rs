//! The home page.

use actix_web::{HttpResponse, get};
use askama::Template;

use crate::web::error::AppError;
use crate::web::layout::{PageContext, render_page};

#[derive(Template)]
#[template(path = "home/index.html")]
struct HomePage {
    ctx: PageContext,
}

#[get("/")]
pub async fn index(ctx: PageContext) -> Result<HttpResponse, AppError> {
    render_page(&ctx, &HomePage { ctx: ctx.clone() })
}
