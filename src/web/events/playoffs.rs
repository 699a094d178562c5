//! The playoff cut: making and undoing it, the bracket page (for phones and
//! the projector), and the final placings export.

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use serde::Deserialize;

use super::actor_of;
use super::rounds::{act, version_of};
use crate::events::playoffs::{self, CutRequest, PlayoffReport};
use crate::events::rounds::EventData;
use crate::events::{self, EventError, EventView};
use crate::tournament::bracket::PlayoffTie;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::download;
use crate::web::layout::{PageContext, render_page};
use crate::web::session::{CsrfForm, CurrentUser, MaybeUser};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(bracket_page)
        .service(placings_csv)
        .service(make_cut)
        .service(undo_cut);
}

fn bracket_path(id: i64) -> String {
    format!("/events/{id}/bracket")
}

#[derive(Debug, Deserialize)]
struct CutForm {
    #[serde(default)]
    version: String,
    #[serde(default)]
    cut: String,
    #[serde(default)]
    third_place: Option<String>,
    #[serde(default)]
    tie: String,
    #[serde(default)]
    higher_seed_chooses: Option<String>,
}

impl CutForm {
    fn request(&self) -> Result<CutRequest, EventError> {
        let cut =
            self.cut.trim().parse().map_err(|_| {
                EventError::invalid("cut", "Enter the number of players in the cut.")
            })?;
        let tie = if self.tie.trim().is_empty() {
            PlayoffTie::default()
        } else {
            self.tie
                .trim()
                .parse()
                .map_err(|_| EventError::invalid("tie", "Choose how a drawn game is decided."))?
        };
        Ok(CutRequest {
            cut,
            third_place: self.third_place.is_some(),
            tie,
            higher_seed_chooses: self.higher_seed_chooses.is_some(),
        })
    }
}

#[post("/events/{id}/playoffs")]
async fn make_cut(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<CutForm>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let version = version_of(&form.version)?;
    let form = form.0;
    act(
        &state,
        &user,
        id,
        super::event_path(id),
        "The cut is made: pair the first playoff round when you are ready.".into(),
        move |conn, view, access, ctx| {
            playoffs::make_cut(conn, view, access, form.request()?, version, ctx)?;
            Ok(Some(bracket_path(id)))
        },
    )
    .await
}

#[derive(Debug, Deserialize)]
struct VersionOnly {
    #[serde(default)]
    version: String,
}

#[post("/events/{id}/playoffs/undo")]
async fn undo_cut(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<VersionOnly>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let version = version_of(&form.version)?;
    act(
        &state,
        &user,
        id,
        super::event_path(id),
        "The cut is undone.".into(),
        move |conn, view, access, ctx| {
            playoffs::undo_cut(conn, view, access, version, ctx)?;
            Ok(None)
        },
    )
    .await
}

/// The event and its playoff report, or not found when no cut was made.
async fn load(
    state: &web::Data<AppState>,
    id: i64,
    user: &MaybeUser,
) -> Result<(EventView, PlayoffReport), AppError> {
    let actor = actor_of(user.0.as_deref());
    let cache = std::sync::Arc::clone(&state.event_data);
    state
        .with_db(move |conn| {
            let (view, _) = events::load(conn, id, actor)?;
            let data: std::sync::Arc<EventData> = cache.load(conn, &view)?;
            let report = playoffs::report(&view, &data)?.ok_or(AppError::NotFound)?;
            Ok((view, report))
        })
        .await
}

#[derive(Debug, Deserialize)]
struct BracketQuery {
    #[serde(default)]
    projector: Option<String>,
}

#[derive(Template)]
#[template(path = "events/bracket.html")]
struct BracketPage {
    ctx: PageContext,
    view: EventView,
    report: PlayoffReport,
    projector: bool,
}

#[get("/events/{id}/bracket")]
async fn bracket_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<BracketQuery>,
) -> Result<HttpResponse, AppError> {
    let (view, report) = load(&state, path.into_inner(), &user).await?;
    let page = BracketPage {
        ctx: ctx.clone(),
        view,
        report,
        projector: query.projector.is_some(),
    };
    render_page(&ctx, &page)
}

#[get("/events/{id}/placings.csv")]
async fn placings_csv(
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let (_, report) = load(&state, id, &user).await?;
    Ok(download(
        "text/csv; charset=utf-8",
        &format!("event-{id}-placings.csv"),
        playoffs::placings_csv(&report),
    ))
}
