//! A digital pairing's page before its game starts: each player brings
//! their crews; once both are in, it leads to the game.

use actix_web::{HttpResponse, get, post, web};
use askama::Template;

use super::{actor_of, ctx_of, service_ctx};
use crate::events::{self, EventError};
use crate::hosted::event_games::{self as digital, DigitalState};
use crate::systems::GameSystem;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::play::{CrewOption, Written, brought_of, crew_options, saved_lists};
use crate::web::session::{CsrfForm, CurrentUser, MaybeUser};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(play_page).service(bring_crews);
}

#[derive(Template)]
#[template(path = "events/digital.html")]
struct DigitalPage {
    ctx: PageContext,
    event_id: i64,
    event_name: String,
    game_id: i64,
    a: String,
    b: String,
    brought: [bool; 2],
    mine: Vec<String>,
    plays: bool,
    crews: Vec<CrewOption>,
    own_list: String,
    /// A Mage Knight game: the player brings one army.
    mage_knight: bool,
    /// The ready armies, by name.
    armies: Vec<String>,
    own_army: String,
    /// A 1st edition game: the player brings one crew.
    first_edition: bool,
    m1e_crews: Vec<String>,
    own_m1e_crew: String,
    /// The encounter the crew is hired at.
    m1e_event_note: String,
    /// Why what the player sent was refused (the page shows it again, with
    /// what they wrote).
    error: Option<String>,
}

fn play_path(id: i64, game: i64) -> String {
    format!("/events/{id}/games/{game}/play")
}

#[get("/events/{id}/games/{game}/play")]
async fn play_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, AppError> {
    let (id, game_id) = path.into_inner();
    let actor = actor_of(user.0.as_deref());
    page_with(&ctx, &state, actor, (id, game_id), None, Written::default()).await
}

/// The pairing's page; with `error`, shown again after a refusal, with
/// what the player wrote.
async fn page_with(
    ctx: &PageContext,
    state: &web::Data<AppState>,
    actor: Option<crate::events::Actor>,
    (id, game_id): (i64, i64),
    error: Option<String>,
    written: Written,
) -> Result<HttpResponse, AppError> {
    let (view, access, game, state_now, names) = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            let state_now = digital::digital_state(conn, &view, &access, game_id)?;
            let (game, names) = events::reads::game_with_names(conn, &view, game_id)?;
            Ok((view, access, game, state_now, names))
        })
        .await?;
    let (brought, mine) = match state_now {
        DigitalState::NotDigital => return Err(AppError::NotFound),
        // Once the game has started, a refusal is told on the game's page.
        DigitalState::Started { hosted_game_id } => {
            let game_page = format!("/games/{hosted_game_id}");
            return Ok(match error {
                Some(error) => redirect_with_flash(state, &game_page, FlashLevel::Error, error),
                None => HttpResponse::SeeOther()
                    .insert_header(("Location", game_page))
                    .finish(),
            });
        }
        DigitalState::Waiting { brought, mine } => (brought, mine),
    };
    let plays = access
        .registration
        .as_ref()
        .is_some_and(|r| r.id == game.player_a || Some(r.id) == game.player_b);
    // The crew list a player declared for the event is offered first: it
    // is filled in, and no shipped list is ticked beside it.
    let declared_list = access
        .registration
        .as_ref()
        .filter(|_| plays)
        .and_then(|r| r.army_list.clone())
        .filter(|list| !list.trim().is_empty());
    let saved = saved_lists(state, actor.map(|a| a.account_id)).await?;
    let mut crews = crew_options(view.system.engine_edition(), &saved);
    // What the player wrote before a refusal comes back first.
    let declared_list = [&written.own_list, &written.own_army]
        .into_iter()
        .find(|text| !text.is_empty())
        .cloned()
        .or(declared_list);
    if declared_list.is_some() {
        for crew in &mut crews {
            crew.ticked = false;
        }
    }
    let page = DigitalPage {
        ctx: ctx.clone(),
        event_id: id,
        event_name: view.event.name.clone(),
        game_id,
        a: names.first().cloned().unwrap_or_default(),
        b: names.get(1).cloned().unwrap_or_default(),
        brought,
        mine,
        plays,
        crews,
        own_army: if view.system == GameSystem::MageKnight {
            declared_list.clone().unwrap_or_default()
        } else {
            String::new()
        },
        own_list: declared_list.unwrap_or_default(),
        mage_knight: view.system == GameSystem::MageKnight,
        armies: crate::web::play::mage_knight::army_names(),
        first_edition: view.system == GameSystem::Malifaux1,
        m1e_crews: crate::web::play::first_edition::crew_names(),
        own_m1e_crew: written.own_first_edition_crew,
        m1e_event_note: first_edition_note(&view),
        error,
    };
    if page.error.is_some() {
        crate::web::forms::render_invalid(ctx, &page)
    } else {
        render_page(ctx, &page)
    }
}

/// The encounter an event's 1st edition crews are hired at, as the form's
/// hint says it.
pub(crate) fn first_edition_note(view: &events::EventView) -> String {
    match digital::limits_of(view) {
        digital::Limits::FirstEdition {
            encounter: Some((size, soulstones)),
        } => format!(
            "at {}'s encounter, a {} of {soulstones} soulstones, whatever its own file says",
            view.event.name,
            size.name()
        ),
        _ => String::new(),
    }
}

#[post("/events/{id}/games/{game}/crews")]
async fn bring_crews(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let (id, game_id) = path.into_inner();
    let back = play_path(id, game_id);
    let actor = actor_of(Some(&user));
    let saved = saved_lists(&state, actor.map(|a| a.account_id)).await?;
    let (brought, written) = match brought_of(&form.0, &saved) {
        Ok(read) => read,
        Err((problem, written)) => {
            return page_with(&ctx, &state, actor, (id, game_id), Some(problem), written).await;
        }
    };
    let (now, base_url) = ctx_of(&state);
    let content = std::sync::Arc::clone(&state.content);
    let seed = soulstone_engine::fairness::Bytes32(rand::random());
    let outcome = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            // The event's cards: its pinned pack's models hire too.
            let cards = crate::packs::event_cards(conn, &content, id, actor)?;
            Ok(digital::bring(
                conn,
                &digital::Content::shipped(&cards.catalog, &cards.stamp)
                    .map_err(AppError::internal)?,
                &view,
                &access,
                game_id,
                digital::Bringing { brought, seed },
                &service_ctx(now, &base_url),
            ))
        })
        .await?;
    Ok(match outcome {
        Ok(DigitalState::Started { hosted_game_id }) => {
            state.game_updates.announce(hosted_game_id);
            redirect_with_flash(
                &state,
                &format!("/games/{hosted_game_id}"),
                FlashLevel::Success,
                "Both crews are in: the game has started.",
            )
        }
        Ok(_) => redirect_with_flash(
            &state,
            &back,
            FlashLevel::Success,
            "What you brought is in. The game starts when your opponent's is.",
        ),
        // Bad input comes back on the page, with what was written; a
        // conflict (the game started, or is played at a table) is news.
        Err(err @ EventError::Invalid(_)) => {
            return page_with(
                &ctx,
                &state,
                actor,
                (id, game_id),
                Some(err.for_people()),
                written,
            )
            .await;
        }
        Err(err @ EventError::Conflict(_)) => {
            redirect_with_flash(&state, &back, FlashLevel::Error, err.for_people())
        }
        Err(err) => return Err(err.into()),
    })
}
