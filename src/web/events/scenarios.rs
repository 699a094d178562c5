//! The organisers' scenarios: prepared for each planned round before the
//! event (flipped, avoiding repeats on request, or entered as announced),
//! and an announced scenario entered for a draft round.

use std::collections::BTreeMap;

use actix_web::{HttpResponse, get, post, web};
use askama::Template;

use super::actor_of;
use crate::events::scenarios::{self, ScenarioFor};
use crate::events::{self, EventError, EventView};
use crate::setup::Announcement;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser};
use crate::web::setup::SetupView;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(scenarios_page)
        .service(flip_all)
        .service(announce_planned)
        .service(announce_for_round);
}

fn scenarios_path(id: i64) -> String {
    format!("/events/{id}/scenarios")
}

/// The pool's names an announcement is chosen from.
pub struct AnnounceChoices {
    pub strategies: Vec<String>,
    /// (code, name) of each deployment.
    pub deployments: Vec<(String, String)>,
    pub schemes: Vec<String>,
    /// How many schemes a scheme pool has in this edition.
    pub scheme_count: usize,
}

impl AnnounceChoices {
    pub fn of(view: &EventView, pool: &crate::setup::pool::Pool) -> Self {
        Self {
            strategies: pool.strategies().iter().map(|s| s.name.clone()).collect(),
            deployments: pool
                .deployments()
                .values()
                .map(|kind| (kind.code().to_owned(), kind.name().to_owned()))
                .collect(),
            schemes: pool.schemes().iter().map(|s| s.name.clone()).collect(),
            scheme_count: if view.system == crate::systems::GameSystem::Malifaux4 {
                crate::setup::pool::M4E_SCHEME_POOL_SIZE
            } else {
                crate::setup::pool::M3E_SCHEME_POOL_SIZE
            },
        }
    }
}

#[derive(Template)]
#[template(path = "events/scenarios.html")]
struct ScenariosPage {
    ctx: PageContext,
    view: EventView,
    /// Each planned round: number, whether paired, the scenario prepared.
    rounds: Vec<(i32, bool, Option<SetupView>)>,
    /// The pool's names, when the event has a pool to announce from.
    choices: Option<AnnounceChoices>,
}

#[get("/events/{id}/scenarios")]
async fn scenarios_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = actor_of(Some(&user));
    let (view, prepared, paired, pool) = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            access.require_staff()?;
            let prepared = scenarios::prepared(conn, &view)?;
            let paired = scenarios::rounds_paired(conn, &view)?;
            let pool = crate::events::round_setups::event_pool(conn, &view)?;
            Ok((view, prepared, paired, pool))
        })
        .await?;
    let rounds = (1..=view.event.rounds_planned)
        .map(|number| {
            let setup = prepared
                .iter()
                .find(|p| p.round == number)
                .map(|p| SetupView::shared(&p.setup));
            (number, number <= paired, setup)
        })
        .collect();
    let choices = pool.as_ref().map(|pool| AnnounceChoices::of(&view, pool));
    render_page(
        &ctx,
        &ScenariosPage {
            ctx: ctx.clone(),
            view,
            rounds,
            choices,
        },
    )
}

/// Runs a scenario call and answers with a flash on `back`.
async fn act<F>(
    state: &web::Data<AppState>,
    user: &CurrentUser,
    id: i64,
    back: String,
    success: String,
    work: F,
) -> Result<HttpResponse, AppError>
where
    F: crate::web::EventWork<String>,
{
    let outcome = state.with_event(id, actor_of(Some(user)), work).await?;
    Ok(match outcome {
        Ok(detail) => redirect_with_flash(
            state,
            &back,
            FlashLevel::Success,
            format!("{success}{detail}"),
        ),
        Err(err @ (EventError::Invalid(_) | EventError::Conflict(_))) => {
            redirect_with_flash(state, &back, FlashLevel::Error, err.for_people())
        }
        Err(err) => return Err(err.into()),
    })
}

#[post("/events/{id}/scenarios/flip")]
async fn flip_all(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<BTreeMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let avoid_repeats = form.0.get("avoid_repeats").is_some_and(|v| v == "on");
    act(
        &state,
        &user,
        id,
        scenarios_path(id),
        "Scenarios flipped for ".into(),
        move |conn, view, access, ctx| {
            let count = scenarios::prepare_by_flipping(conn, view, access, avoid_repeats, ctx)?;
            Ok(match count {
                1 => "the one round to come.".into(),
                n => format!("the {n} rounds to come."),
            })
        },
    )
    .await
}

/// The announcement a form holds: `strategy`, `deployment` and a
/// `scheme-<n>` checkbox per scheme, valued with its name.
fn announcement_fields(form: &BTreeMap<String, String>) -> (String, String, Vec<String>) {
    let strategy = form.get("strategy").cloned().unwrap_or_default();
    let deployment = form.get("deployment").cloned().unwrap_or_default();
    let schemes = form
        .iter()
        .filter(|(key, _)| key.starts_with("scheme-"))
        .map(|(_, name)| name.clone())
        .collect();
    (strategy, deployment, schemes)
}

#[post("/events/{id}/scenarios/{number}/announce")]
async fn announce_planned(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<BTreeMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let (strategy, deployment, schemes) = announcement_fields(&form.0);
    act(
        &state,
        &user,
        id,
        scenarios_path(id),
        format!("Round {number}'s scenario is entered."),
        move |conn, view, access, ctx| {
            let announcement = Announcement {
                strategy: &strategy,
                deployment: &deployment,
                schemes: &schemes,
            };
            scenarios::announce(
                conn,
                view,
                access,
                ScenarioFor::PlannedRound(number),
                &announcement,
                ctx,
            )?;
            Ok(String::new())
        },
    )
    .await
}

#[post("/events/{id}/rounds/{number}/announce")]
async fn announce_for_round(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<BTreeMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let (strategy, deployment, schemes) = announcement_fields(&form.0);
    act(
        &state,
        &user,
        id,
        format!("/events/{id}/rounds/{number}"),
        "The announced scenario is the round's; each table flipped its attacker.".into(),
        move |conn, view, access, ctx| {
            let announcement = Announcement {
                strategy: &strategy,
                deployment: &deployment,
                schemes: &schemes,
            };
            scenarios::announce(
                conn,
                view,
                access,
                ScenarioFor::DraftRound(number),
                &announcement,
                ctx,
            )?;
            Ok(String::new())
        },
    )
    .await
}
