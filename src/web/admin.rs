//! Site administration: the mail queue (failed mail is visible and can be
//! retried; nothing is ever dropped).

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use chrono::Utc;

use crate::mail::outbox_admin::{self as outbox, MailStatus, OutboxMail};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{AdminUser, CsrfForm, NoFields};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(dashboard)
        .service(mail_queue)
        .service(retry_mail);
}

#[derive(Template)]
#[template(path = "admin/index.html")]
struct DashboardPage {
    ctx: PageContext,
    mail_counts: Vec<(MailStatus, i64)>,
}

#[get("/admin")]
async fn dashboard(
    ctx: PageContext,
    _admin: AdminUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let mail_counts = state.with_db(|conn| Ok(outbox::counts(conn)?)).await?;
    render_page(
        &ctx,
        &DashboardPage {
            ctx: ctx.clone(),
            mail_counts,
        },
    )
}

#[derive(Template)]
#[template(path = "admin/mail.html")]
struct MailQueuePage {
    ctx: PageContext,
    mails: Vec<OutboxMail>,
}

#[get("/admin/mail")]
async fn mail_queue(
    ctx: PageContext,
    _admin: AdminUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let mails = state
        .with_db(|conn| Ok(outbox::undelivered(conn, 500)?))
        .await?;
    render_page(
        &ctx,
        &MailQueuePage {
            ctx: ctx.clone(),
            mails,
        },
    )
}

#[post("/admin/mail/{id}/retry")]
async fn retry_mail(
    _admin: AdminUser,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let requeued = state
        .with_db(move |conn| Ok(outbox::retry(conn, id, Utc::now().naive_utc())?))
        .await?;
    state.mail_queued();
    Ok(if requeued {
        redirect_with_flash(
            &state,
            "/admin/mail",
            FlashLevel::Success,
            format!("Mail #{id} is queued again."),
        )
    } else {
        redirect_with_flash(
            &state,
            "/admin/mail",
            FlashLevel::Warning,
            format!("Mail #{id} is not a failed mail."),
        )
    })
}
