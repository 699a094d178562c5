//! Public standings and the exports (CSV and JSON of standings and results).

use std::sync::Arc;

use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, get, web};
use askama::Template;

use super::actor_of;
use crate::events::cache::StandingsKey;
use crate::events::playoffs::{self, NamedPlacing};
use crate::events::registration::Declared;
use crate::events::rounds::EventData;
use crate::events::standings::{
    compute, published_declarations, results, results_csv, standings_csv,
};
use crate::events::{self, EventView};
use crate::tournament::standings::StandingRow;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{PageContext, download, render_page};
use crate::web::page_cache::{self, PublicPage};
use crate::web::session::MaybeUser;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(standings_page)
        .service(standings_csv_export)
        .service(standings_json_export)
        .service(results_csv_export)
        .service(results_json_export);
}

/// The event's data for the result exports.
async fn load(
    state: &web::Data<AppState>,
    id: i64,
    user: &MaybeUser,
) -> Result<(EventView, Arc<EventData>), AppError> {
    let actor = actor_of(user.0.as_deref());
    let cache = Arc::clone(&state.event_data);
    state
        .with_db(move |conn| {
            let (view, _) = events::load(conn, id, actor)?;
            let data = cache.load(conn, &view)?;
            Ok((view, data))
        })
        .await
}

/// An event's standings as its pages and exports show them.
struct Standings {
    view: EventView,
    key: StandingsKey,
    rows: Arc<Vec<StandingRow>>,
    declared: Declarations,
    playoff: PlayoffStanding,
}

/// Where a playoff stands, for the standings: once it is finished its
/// final placings come first and the Swiss standings follow.
#[derive(Debug, Clone, Default)]
pub enum PlayoffStanding {
    #[default]
    None,
    UnderWay,
    /// Every player's final place, the cut first.
    Finished(Vec<NamedPlacing>),
}

impl PlayoffStanding {
    fn of(view: &EventView, data: &EventData) -> Result<Self, events::EventError> {
        Ok(match playoffs::report(view, data)? {
            None => Self::None,
            Some(report) if report.finished => Self::Finished(report.placings),
            Some(_) => Self::UnderWay,
        })
    }

    fn placings(&self) -> Option<&[NamedPlacing]> {
        match self {
            Self::Finished(placings) => Some(placings),
            _ => None,
        }
    }
}

/// The event and its standings (cached per data revision and settings).
async fn load_standings(
    state: &web::Data<AppState>,
    id: i64,
    user: &MaybeUser,
) -> Result<Standings, AppError> {
    let actor = actor_of(user.0.as_deref());
    let cache = Arc::clone(&state.event_data);
    state
        .with_db(move |conn| {
            let (view, _) = events::load(conn, id, actor)?;
            let (key, rows) = cache.keyed_standings(conn, &view)?;
            let mut declared = Declarations::new();
            let mut playoff = PlayoffStanding::None;
            if view.event.lists_published || view.format == events::EventFormat::Swiss {
                let data = cache.load(conn, &view)?;
                if view.event.lists_published {
                    declared = published_declarations(&view, &data);
                }
                playoff = PlayoffStanding::of(&view, &data)?;
            }
            Ok(Standings {
                view,
                key,
                rows,
                declared,
                playoff,
            })
        })
        .await
}

/// Each player's published faction and leader, by registration.
type Declarations = std::collections::BTreeMap<i64, Declared>;

/// The standings table: the same for every visitor, so rendered once per
/// cache key rather than per request.
#[derive(Template)]
#[template(path = "events/standings_table.html")]
struct StandingsTable<'a> {
    rows: &'a [StandingRow],
    headers: Vec<&'static str>,
    declared: &'a Declarations,
}

impl<'a> StandingsTable<'a> {
    fn new(view: &EventView, rows: &'a [StandingRow], declared: &'a Declarations) -> Self {
        let headers = view
            .settings
            .tiebreakers
            .iter()
            .map(|t| t.short_label())
            .collect();
        Self {
            rows,
            headers,
            declared,
        }
    }

    fn declared_of(&self, player: &i64) -> Option<String> {
        self.declared.get(player).and_then(Declared::label)
    }
}

#[derive(Template)]
#[template(path = "events/standings.html")]
struct StandingsPage {
    ctx: PageContext,
    view: EventView,
    table: Arc<String>,
    playoff: PlayoffStanding,
}

/// The standings page for loaded event data, computed afresh (public so the
/// benchmark measures the uncached work).
pub fn standings_page_html(
    ctx: &PageContext,
    view: EventView,
    data: &EventData,
) -> Result<String, AppError> {
    let rows = compute(&view, data);
    let declared = published_declarations(&view, data);
    let table = Arc::new(StandingsTable::new(&view, &rows, &declared).render()?);
    let playoff = PlayoffStanding::of(&view, data)?;
    Ok(StandingsPage {
        ctx: ctx.clone(),
        view,
        table,
        playoff,
    }
    .render()?)
}

#[get("/events/{id}/standings")]
async fn standings_page(
    req: HttpRequest,
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let shared = ctx.is_shared();
    if shared
        && let Some((key, kept)) = page_cache::current(&state, id, PublicPage::Standings).await?
    {
        let tag = page_cache::entity_tag(&state, &key);
        if page_cache::browser_has(&req, &tag) {
            return Ok(page_cache::not_modified(tag));
        }
        if let Some(body) = kept {
            return Ok(page_cache::html_response(body, tag));
        }
    }
    let Standings {
        view,
        key,
        rows,
        declared,
        playoff,
    } = load_standings(&state, id, &user).await?;
    let table = state.event_data.standings_html(view.id(), key, || {
        StandingsTable::new(&view, &rows, &declared).render()
    })?;
    // Visitors who are not signed in see no form here: one copy for all.
    let page = StandingsPage {
        ctx: if shared { ctx.shared() } else { ctx.clone() },
        view,
        table,
        playoff,
    };
    if !shared {
        return render_page(&ctx, &page);
    }
    let body = Bytes::from(page.render()?);
    state
        .public_pages
        .put(id, PublicPage::Standings, key, body.clone());
    Ok(page_cache::html_response(
        body,
        page_cache::entity_tag(&state, &key),
    ))
}

#[get("/events/{id}/standings.csv")]
async fn standings_csv_export(
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let standings = load_standings(&state, id, &user).await?;
    Ok(download(
        "text/csv; charset=utf-8",
        &format!("event-{id}-standings.csv"),
        standings_csv(
            &standings.view,
            &standings.rows,
            &standings.declared,
            standings.playoff.placings(),
        ),
    ))
}

#[get("/events/{id}/standings.json")]
async fn standings_json_export(
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let standings = load_standings(&state, path.into_inner(), &user).await?;
    Ok(HttpResponse::Ok().json(standings.rows))
}

#[get("/events/{id}/results.csv")]
async fn results_csv_export(
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let (_, data) = load(&state, id, &user).await?;
    Ok(download(
        "text/csv; charset=utf-8",
        &format!("event-{id}-results.csv"),
        results_csv(&results(&data)),
    ))
}

#[get("/events/{id}/results.json")]
async fn results_json_export(
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let (_, data) = load(&state, path.into_inner(), &user).await?;
    Ok(HttpResponse::Ok().json(results(&data)))
}
