//! Rankings across events and player profiles (pages, exports and API).
//! The rules are in `crate::rankings`.

use actix_web::{HttpResponse, get, web};
use askama::Template;
use serde::Deserialize;

use crate::events::Actor;
use crate::rankings::{self, HistoryPoint, Profile, RankingRow};
use crate::systems::GameSystem;
use crate::web::AppState;
use crate::web::error::{ApiError, AppError};
use crate::web::layout::{PageContext, download, render_page};
use crate::web::session::{ApiUser, MaybeUser};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(ranking_page)
        .service(ranking_csv)
        .service(ranking_json)
        .service(profile_page);
}

pub fn api_routes(cfg: &mut web::ServiceConfig) {
    cfg.service(api_ranking).service(api_profile);
}

#[derive(Debug, Default, Deserialize)]
struct RankingQuery {
    #[serde(default)]
    system: Option<String>,
    #[serde(default)]
    region: Option<String>,
}

impl RankingQuery {
    fn system(&self) -> Result<GameSystem, AppError> {
        match self.system.as_deref().map(str::trim) {
            None | Some("") => Ok(GameSystem::ALL[0]),
            Some(code) => code
                .parse()
                .map_err(|_| AppError::bad_request("Unknown game system.")),
        }
    }

    fn region(&self) -> Option<String> {
        self.region
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_owned)
    }
}

/// The ranking for a query, and the regions its system's players give.
async fn load_ranking(
    state: &web::Data<AppState>,
    query: &RankingQuery,
) -> Result<(GameSystem, Vec<RankingRow>, Vec<String>), AppError> {
    let system = query.system()?;
    let region = query.region();
    state
        .with_db(move |conn| {
            let all = rankings::ranking(conn, system)?;
            let regions = rankings::regions(&all);
            let rows = match region {
                Some(region) => rankings::in_region(all, &region),
                None => all,
            };
            Ok((system, rows, regions))
        })
        .await
}

#[derive(Template)]
#[template(path = "rankings/list.html")]
struct RankingPage {
    ctx: PageContext,
    system: GameSystem,
    region: String,
    rows: Vec<RankingRow>,
    regions: Vec<String>,
    systems: &'static [GameSystem],
}

impl RankingPage {
    fn query(&self) -> String {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        query.append_pair("system", self.system.code());
        if !self.region.is_empty() {
            query.append_pair("region", &self.region);
        }
        query.finish()
    }
}

#[get("/rankings")]
async fn ranking_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<RankingQuery>,
) -> Result<HttpResponse, AppError> {
    let (system, rows, regions) = load_ranking(&state, &query).await?;
    let page = RankingPage {
        ctx: ctx.clone(),
        system,
        region: query.region().unwrap_or_default(),
        rows,
        regions,
        systems: &GameSystem::ALL,
    };
    render_page(&ctx, &page)
}

#[get("/rankings.csv")]
async fn ranking_csv(
    state: web::Data<AppState>,
    query: web::Query<RankingQuery>,
) -> Result<HttpResponse, AppError> {
    let (system, rows, _) = load_ranking(&state, &query).await?;
    Ok(download(
        "text/csv; charset=utf-8",
        &format!("ranking-{}.csv", system.code()),
        rankings::ranking_csv(&rows),
    ))
}

#[get("/rankings.json")]
async fn ranking_json(
    state: web::Data<AppState>,
    query: web::Query<RankingQuery>,
) -> Result<HttpResponse, AppError> {
    let (_, rows, _) = load_ranking(&state, &query).await?;
    Ok(HttpResponse::Ok().json(rows))
}

#[get("/rankings")]
async fn api_ranking(
    state: web::Data<AppState>,
    query: web::Query<RankingQuery>,
) -> Result<HttpResponse, ApiError> {
    let (_, rows, _) = load_ranking(&state, &query).await?;
    Ok(HttpResponse::Ok().json(rows))
}

#[derive(Debug, Default, Deserialize)]
struct ProfileQuery {
    #[serde(default)]
    vs: Option<String>,
}

async fn load_profile(
    state: &web::Data<AppState>,
    account: i64,
    viewer: Option<Actor>,
    vs: Option<i64>,
) -> Result<Profile, AppError> {
    state
        .with_db(move |conn| {
            rankings::profile(conn, account, viewer.as_ref(), vs)?.ok_or(AppError::NotFound)
        })
        .await
}

fn vs_of(query: &ProfileQuery) -> Option<i64> {
    query.vs.as_deref().and_then(|v| v.trim().parse().ok())
}

#[derive(Template)]
#[template(path = "rankings/profile.html")]
struct ProfilePage {
    ctx: PageContext,
    profile: Profile,
    vs: Option<i64>,
}

impl ProfilePage {
    fn chart(&self, history: &[HistoryPoint]) -> String {
        rating_chart(history)
    }

    /// A rating change as it is read: "+12", "−8", "0".
    fn signed(&self, change: &i64) -> String {
        match change.signum() {
            1 => format!("+{change}"),
            -1 => format!("\u{2212}{}", change.unsigned_abs()),
            _ => "0".into(),
        }
    }

    fn is_vs(&self, id: &i64) -> bool {
        self.vs == Some(*id)
    }
}

#[get("/players/{account}")]
async fn profile_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<ProfileQuery>,
) -> Result<HttpResponse, AppError> {
    let viewer = user.0.as_deref().map(|u| Actor::of(&u.account));
    let vs = vs_of(&query);
    let profile = load_profile(&state, path.into_inner(), viewer, vs).await?;
    let page = ProfilePage {
        ctx: ctx.clone(),
        profile,
        vs,
    };
    render_page(&ctx, &page)
}

#[get("/players/{account}")]
async fn api_profile(
    user: Option<ApiUser>,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<ProfileQuery>,
) -> Result<HttpResponse, ApiError> {
    let viewer = user.as_ref().map(|u| Actor::of(&u.account));
    let profile = load_profile(&state, path.into_inner(), viewer, vs_of(&query)).await?;
    Ok(HttpResponse::Ok().json(profile))
}

/// A small SVG line chart of a rating after each ranked event, with a band
/// of two deviations either side. Drawn on the server: no script needed.
pub fn rating_chart(history: &[HistoryPoint]) -> String {
    use std::fmt::Write;
    const WIDTH: f64 = 600.0;
    const HEIGHT: f64 = 200.0;
    const PAD: f64 = 24.0;
    if history.is_empty() {
        return String::new();
    }
    let low = history
        .iter()
        .map(|p| p.rating - 2.0 * p.deviation)
        .fold(f64::INFINITY, f64::min);
    let high = history
        .iter()
        .map(|p| p.rating + 2.0 * p.deviation)
        .fold(f64::NEG_INFINITY, f64::max);
    let span = (high - low).max(1.0);
    let step = if history.len() > 1 {
        (WIDTH - 2.0 * PAD) / (history.len() - 1) as f64
    } else {
        0.0
    };
    // A lone point sits in the middle.
    let x = |i: usize| {
        if history.len() > 1 {
            PAD + step * i as f64
        } else {
            WIDTH / 2.0
        }
    };
    let y = |v: f64| HEIGHT - PAD - (v - low) / span * (HEIGHT - 2.0 * PAD);
    let line: Vec<String> = history
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.rating)))
        .collect();
    let band: Vec<String> = history
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.rating + 2.0 * p.deviation)))
        .chain(
            history
                .iter()
                .enumerate()
                .rev()
                .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.rating - 2.0 * p.deviation))),
        )
        .collect();
    let last = history.last().map_or(0.0, |p| p.rating);
    let mut svg = format!(
        "<svg class=\"rating-chart\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"Rating after each of {} ranked events, now {:.0}\">",
        history.len(),
        last
    );
    let _ = write!(
        svg,
        "<polygon class=\"band\" points=\"{}\"/><polyline class=\"line\" points=\"{}\"/>\
         <text x=\"2\" y=\"{:.1}\">{:.0}</text><text x=\"2\" y=\"{:.1}\">{:.0}</text>",
        band.join(" "),
        line.join(" "),
        PAD - 8.0,
        high,
        HEIGHT - PAD + 16.0,
        low
    );
    for (i, p) in history.iter().enumerate() {
        let _ = write!(
            svg,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\"><title>{}: {:.0} ± {:.0}</title></circle>",
            x(i),
            y(p.rating),
            p.name
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;"),
            p.rating,
            2.0 * p.deviation
        );
    }
    svg.push_str("</svg>");
    svg
}
