//! Registration and the organisers' player management page.

use crate::events::RegistrationStatus;
use actix_web::{HttpResponse, post, web};
use serde::Deserialize;

use super::{actor_of, ctx_of, event_path, service_ctx};
use crate::events::registration::{self, DeclarationInput, EntryUpdate};
use crate::events::{self, EventError};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, redirect_with_flash};
use crate::web::session::{CsrfForm, CurrentUser, NoFields};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(register)
        .service(withdraw)
        .service(add_walk_in)
        .service(remove_entry)
        .service(promote_entry)
        .service(check_in)
        .service(drop_player)
        .service(edit_entry)
        .service(link_entry)
        .service(declare);
}

/// Runs a service call on an event and turns field errors into a flash on
/// the page the user came from (nothing typed is lost on these small forms).
async fn act<F>(
    state: &web::Data<AppState>,
    user: &CurrentUser,
    id: i64,
    back: &str,
    success: &str,
    work: F,
) -> Result<HttpResponse, AppError>
where
    F: crate::web::EventWork<()>,
{
    let outcome = state.with_event(id, actor_of(Some(user)), work).await?;
    Ok(match outcome {
        Ok(()) => redirect_with_flash(state, back, FlashLevel::Success, success),
        Err(err @ (EventError::Invalid(_) | EventError::Conflict(_))) => {
            redirect_with_flash(state, back, FlashLevel::Error, err.for_people())
        }
        Err(err) => return Err(err.into()),
    })
}

#[post("/events/{id}/register")]
async fn register(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = actor_of(Some(&user));
    let (now, base_url) = ctx_of(&state);
    let outcome = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            Ok(registration::register_self(
                conn,
                &view,
                &access,
                &service_ctx(now, &base_url),
            ))
        })
        .await?;
    Ok(match outcome {
        Ok(r) if r.status == RegistrationStatus::Registered => redirect_with_flash(
            &state,
            &event_path(id),
            FlashLevel::Success,
            "You are registered. See you there!",
        ),
        Ok(_) => redirect_with_flash(
            &state,
            &event_path(id),
            FlashLevel::Info,
            "The event is full: you are on the waitlist and will get a mail if a place comes free.",
        ),
        Err(err @ EventError::Conflict(_)) => {
            redirect_with_flash(&state, &event_path(id), FlashLevel::Error, err.for_people())
        }
        Err(err) => return Err(err.into()),
    })
}

#[post("/events/{id}/withdraw")]
async fn withdraw(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    act(
        &state,
        &user,
        id,
        &event_path(id),
        "You have withdrawn from the event.",
        registration::withdraw_self,
    )
    .await
}

fn players_path(id: i64) -> String {
    format!("/events/{id}/players")
}

#[derive(Debug, Deserialize)]
struct WalkInForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    club: String,
    #[serde(default)]
    initial_points: String,
    #[serde(default)]
    submission_key: String,
}

#[post("/events/{id}/players")]
async fn add_walk_in(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<WalkInForm>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let form = form.0;
    let points: i32 = match form.initial_points.trim() {
        "" => 0,
        raw => raw
            .parse()
            .map_err(|_| AppError::bad_request("Starting points must be a whole number."))?,
    };
    let message = format!("{} is added.", form.name.trim());
    act(
        &state,
        &user,
        id,
        &players_path(id),
        &message,
        move |conn, view, access, ctx| {
            let walk_in = registration::WalkIn {
                name: &form.name,
                club: &form.club,
                initial_points: points,
                submission_key: Some(form.submission_key.trim()).filter(|key| !key.is_empty()),
            };
            registration::add_walk_in(conn, view, access, &walk_in, ctx).map(|_| ())
        },
    )
    .await
}

/// Removes a mistaken entry, after the confirmation page
/// (`/events/{id}/confirm?action=remove-entry-{reg}`).
#[post("/events/{id}/players/{reg}/remove")]
async fn remove_entry(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let (id, reg) = path.into_inner();
    act(
        &state,
        &user,
        id,
        &players_path(id),
        "The entry is removed.",
        move |conn, view, access, ctx| {
            registration::remove_entry(conn, view, access, reg, ctx).map(|_| ())
        },
    )
    .await
}

/// Gives a waitlisted player a place.
#[post("/events/{id}/players/{reg}/promote")]
async fn promote_entry(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let (id, reg) = path.into_inner();
    act(
        &state,
        &user,
        id,
        &players_path(id),
        "Promoted from the waitlist, and mailed.",
        move |conn, view, access, ctx| {
            registration::promote_from_waitlist(conn, view, access, reg, ctx).map(|_| ())
        },
    )
    .await
}

#[derive(Debug, Deserialize)]
struct FlagForm {
    value: String,
}

#[post("/events/{id}/players/{reg}/check-in")]
async fn check_in(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: CsrfForm<FlagForm>,
) -> Result<HttpResponse, AppError> {
    let (id, reg) = path.into_inner();
    let value = form.value == "true";
    let message = if value {
        "Checked in."
    } else {
        "Check-in undone."
    };
    act(
        &state,
        &user,
        id,
        &format!("{}#reg-{reg}", players_path(id)),
        message,
        move |conn, view, access, _| registration::set_checked_in(conn, view, access, reg, value),
    )
    .await
}

#[derive(Debug, Deserialize)]
struct DropForm {
    value: String,
    #[serde(default)]
    back: String,
}

#[post("/events/{id}/players/{reg}/drop")]
async fn drop_player(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: CsrfForm<DropForm>,
) -> Result<HttpResponse, AppError> {
    let (id, reg) = path.into_inner();
    let value = form.value == "true";
    let message = if value {
        "Dropped: no further pairings."
    } else {
        "Back in: paired again from the next round."
    };
    // Organisers come from the players page, players from the event page.
    let back = if form.back == "players" {
        format!("{}#reg-{reg}", players_path(id))
    } else {
        event_path(id)
    };
    act(
        &state,
        &user,
        id,
        &back,
        message,
        move |conn, view, access, ctx| {
            registration::set_dropped(conn, view, access, reg, value, ctx)
        },
    )
    .await
}

#[derive(Debug, Deserialize)]
struct EntryForm {
    #[serde(default)]
    display_name: String,
    #[serde(default)]
    club: String,
    #[serde(default)]
    initial_points: String,
    #[serde(default)]
    fixed_table: String,
}

#[post("/events/{id}/players/{reg}/edit")]
async fn edit_entry(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: CsrfForm<EntryForm>,
) -> Result<HttpResponse, AppError> {
    let (id, reg) = path.into_inner();
    let form = form.0;
    let update = EntryUpdate {
        display_name: form.display_name,
        club: form.club,
        initial_points: form.initial_points,
        fixed_table: form.fixed_table,
    };
    act(
        &state,
        &user,
        id,
        &format!("{}#reg-{reg}", players_path(id)),
        "Entry saved.",
        move |conn, view, access, ctx| {
            registration::update_entry(conn, view, access, reg, &update, ctx)
        },
    )
    .await
}

#[derive(Debug, Deserialize)]
struct LinkForm {
    #[serde(default)]
    email: String,
}

#[post("/events/{id}/players/{reg}/link")]
async fn link_entry(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: CsrfForm<LinkForm>,
) -> Result<HttpResponse, AppError> {
    let (id, reg) = path.into_inner();
    let email = form.email.clone();
    act(
        &state,
        &user,
        id,
        &format!("{}#reg-{reg}", players_path(id)),
        "Entry linked to the account.",
        move |conn, view, access, ctx| {
            registration::link_walk_in(conn, view, access, reg, &email, ctx)
        },
    )
    .await
}

#[derive(Debug, Deserialize)]
struct DeclareForm {
    #[serde(default)]
    faction: String,
    #[serde(default)]
    army_list: String,
    #[serde(default)]
    army_points: String,
    /// One of the player's saved crew lists, taking the text's place.
    #[serde(default)]
    saved_crew: String,
    #[serde(default)]
    back: String,
}

#[post("/events/{id}/players/{reg}/declare")]
async fn declare(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: CsrfForm<DeclareForm>,
) -> Result<HttpResponse, AppError> {
    let (id, reg) = path.into_inner();
    let form = form.0;
    let back = if form.back == "players" {
        players_path(id)
    } else {
        event_path(id)
    };
    let mut input = DeclarationInput {
        faction: form.faction,
        army_list: form.army_list,
        army_points: form.army_points,
    };
    if !form.saved_crew.trim().is_empty() {
        let saved_id: i64 = form
            .saved_crew
            .trim()
            .parse()
            .map_err(|_| AppError::bad_request("No such saved list."))?;
        let account = user.id();
        let crew = state
            .with_db(move |conn| Ok(crate::crews::saved::saved(conn, account, saved_id)?))
            .await?;
        input.army_list = crew.list.to_text();
        if input.faction.trim().is_empty() {
            input.faction = crew.list.faction;
        }
    }
    act(
        &state,
        &user,
        id,
        &back,
        "Declaration saved.",
        move |conn, view, access, _| registration::declare(conn, view, access, reg, &input),
    )
    .await
}
