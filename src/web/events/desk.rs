//! The organisers' players page, the desk at the door: find a player,
//! narrow the list to those not yet here, tick who is present (ticks
//! survive a search) and check them all in with one submission.

use crate::events::RegistrationStatus;
use std::collections::{BTreeMap, BTreeSet};

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use serde::{Deserialize, Serialize};

use super::actor_of;
use crate::events::registration::{self, Registration};
use crate::events::rounds::EventData;
use crate::events::{self, EventError, EventView};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, PageContext, redirect, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(players_page).service(desk_submit);
}

/// Which entries the desk lists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, strum::EnumString)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Showing {
    /// Everyone who has an entry or waits for one (not the withdrawn).
    #[default]
    Entries,
    /// Registered players not checked in yet: who the desk still waits for.
    NotCheckedIn,
    /// Entries withdrawn by their player, kept for the record.
    Withdrawn,
}

impl Showing {
    fn admits(self, registration: &Registration) -> bool {
        match self {
            Self::Entries => registration.status != RegistrationStatus::Withdrawn,
            Self::NotCheckedIn => {
                registration.status == RegistrationStatus::Registered && !registration.checked_in
            }
            Self::Withdrawn => registration.status == RegistrationStatus::Withdrawn,
        }
    }
}

/// The desk's address: the search, the filter and the ticks it keeps.
#[derive(Debug, Default, Serialize, Deserialize)]
struct DeskQuery {
    #[serde(default)]
    q: String,
    #[serde(default)]
    show: Showing,
    /// Ids ticked before a search, comma-separated, ticked again.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    ticked: String,
}

impl DeskQuery {
    fn ticked_ids(&self) -> BTreeSet<i64> {
        self.ticked
            .split(',')
            .filter_map(|id| id.trim().parse().ok())
            .collect()
    }

    fn path(&self, event: i64) -> String {
        let query = serde_urlencoded::to_string(self).unwrap_or_default();
        format!("/events/{event}/players?{query}")
    }
}

#[derive(Template)]
#[template(path = "events/players.html")]
struct PlayersPage {
    ctx: PageContext,
    view: EventView,
    /// The entries shown: those the filter and the search admit.
    registrations: Vec<Registration>,
    /// What was searched for (empty: everyone is shown).
    query: String,
    showing: Showing,
    /// Entries the filter counts, whatever the search.
    total: usize,
    withdrawn: usize,
    /// Registered players shown who are not checked in yet.
    to_check_in: usize,
    /// Ticked before a search or by "Tick all shown": ticked again.
    ticked: BTreeSet<i64>,
    /// Ticked players this search does not show: carried in the form so
    /// that checking in takes them too.
    ticked_elsewhere: Vec<i64>,
    /// A fresh key for the walk-in form (a double tap adds one player).
    submission_key: String,
    checked_in: usize,
    registered: usize,
    /// The cap is reached: a waitlisted player gets a place only after
    /// the organiser raises it.
    full: bool,
    /// Entries can still be changed (not once the event is finished,
    /// except by a site admin).
    may_change: bool,
    factions: &'static [&'static str],
    /// Hiring problems of each entry's crew list, by registration id.
    list_problems: BTreeMap<i64, Vec<String>>,
}

impl PlayersPage {
    fn problems_of(&self, registration: &i64) -> &[String] {
        self.list_problems
            .get(registration)
            .map_or(&[], |problems| problems.as_slice())
    }

    fn is_ticked(&self, registration: &i64) -> bool {
        self.ticked.contains(registration)
    }
}

#[get("/events/{id}/players")]
async fn players_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    desk: web::Query<DeskQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = actor_of(Some(&user));
    let content = std::sync::Arc::clone(&state.content);
    let (view, data, may_change, cards) = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            access.require_staff()?;
            let may_change = events::may_still_change(&view, &access);
            // Lists are checked against the event's cards, its pack's too.
            let cards = crate::packs::event_cards(conn, &content, id, actor)?;
            Ok((view, EventData::load(conn, id)?, may_change, cards))
        })
        .await?;
    let desk = desk.into_inner();
    let registered = data
        .registrations
        .iter()
        .filter(|r| r.status == RegistrationStatus::Registered)
        .count();
    let checked_in = data
        .registrations
        .iter()
        .filter(|r| r.status == RegistrationStatus::Registered && r.checked_in)
        .count();
    let withdrawn = data
        .registrations
        .iter()
        .filter(|r| r.status == RegistrationStatus::Withdrawn)
        .count();
    let list_problems = data
        .registrations
        .iter()
        .filter_map(|r| {
            let list = r.army_list.as_deref()?;
            // Malifaux lists are checked as crews; a Mage Knight army on a
            // registration is free text.
            view.system
                .engine_edition()
                .is_some()
                .then(|| (r.id, registration::list_problems(&cards.catalog, list)))
        })
        .collect();
    let full = registration::is_full(&view, registered);
    let query = desk.q.trim().to_owned();
    let before_round_one = data.rounds.is_empty();
    let mut admitted: Vec<Registration> = data
        .registrations
        .into_iter()
        .filter(|r| desk.show.admits(r))
        .collect();
    let total = admitted.len();
    if before_round_one {
        // At the door the desk looks for who is missing: absentees first,
        // then those here, then the waitlist (a stable sort keeps names in
        // their order within each group).
        admitted.sort_by_key(|r| match (r.status, r.checked_in) {
            (RegistrationStatus::Registered, false) => 0,
            (RegistrationStatus::Registered, true) => 1,
            (RegistrationStatus::Waitlisted, _) => 2,
            _ => 3,
        });
    }
    let registrations: Vec<Registration> = admitted
        .into_iter()
        .filter(|r| matches_search(r, &query))
        .collect();
    let to_check_in = registrations
        .iter()
        .filter(|r| r.status == RegistrationStatus::Registered && !r.checked_in)
        .count();
    let ticked = desk.ticked_ids();
    let ticked_elsewhere = ticked
        .iter()
        .copied()
        .filter(|id| registrations.iter().all(|r| r.id != *id))
        .collect();
    render_page(
        &ctx,
        &PlayersPage {
            ctx: ctx.clone(),
            view,
            registrations,
            query,
            showing: desk.show,
            total,
            withdrawn,
            to_check_in,
            ticked,
            ticked_elsewhere,
            submission_key: crate::auth::random_token(),
            checked_in,
            registered,
            full,
            may_change,
            factions: registration::MALIFAUX_FACTIONS,
            list_problems,
        },
    )
}

/// Whether an entry's name or club holds the search, ignoring case.
fn matches_search(registration: &Registration, query: &str) -> bool {
    if query.is_empty() {
        return true;
    }
    let query = query.to_lowercase();
    registration.display_name.to_lowercase().contains(&query)
        || registration
            .club
            .as_deref()
            .is_some_and(|club| club.to_lowercase().contains(&query))
}

/// The desk's one form: its buttons search (keeping the ticks), tick every
/// player shown, or check in every ticked player (`present-<id>`), so a
/// room of 32 is one submission, not 32.
#[post("/events/{id}/players/check-in")]
async fn desk_submit(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<BTreeMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let fields = form.0;
    let ticked: Vec<i64> = fields
        .keys()
        .filter_map(|name| name.strip_prefix("present-")?.parse::<i64>().ok())
        .collect();
    let mut desk = DeskQuery {
        q: fields
            .get("q")
            .map(|q| q.trim().to_owned())
            .unwrap_or_default(),
        show: fields
            .get("show")
            .and_then(|show| show.parse().ok())
            .unwrap_or_default(),
        ticked: join_ids(&ticked),
    };
    match fields.get("desk").map(String::as_str) {
        Some("find") => return Ok(redirect(&desk.path(id))),
        Some("tick-shown") => {
            let shown = shown_ids(&state, &user, id, &desk).await?;
            let all: BTreeSet<i64> = ticked.iter().copied().chain(shown).collect();
            desk.ticked = join_ids(all.iter());
            return Ok(redirect(&desk.path(id)));
        }
        _ => {}
    }
    let actor = actor_of(Some(&user));
    let outcome = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            Ok(registration::check_in_many(conn, &view, &access, &ticked))
        })
        .await?;
    Ok(match outcome {
        Ok(count) => {
            desk.ticked.clear();
            redirect_with_flash(
                &state,
                &desk.path(id),
                FlashLevel::Success,
                match count {
                    1 => "1 player checked in.".to_owned(),
                    n => format!("{n} players checked in."),
                },
            )
        }
        // The ticks come back with the message: nothing ticked is lost.
        Err(err @ (EventError::Invalid(_) | EventError::Conflict(_))) => {
            redirect_with_flash(&state, &desk.path(id), FlashLevel::Error, err.for_people())
        }
        Err(err) => return Err(err.into()),
    })
}

fn join_ids<'a>(ids: impl IntoIterator<Item = &'a i64>) -> String {
    ids.into_iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The registered players not yet checked in that the desk shows for this
/// search and filter: what "Tick all shown" ticks.
async fn shown_ids(
    state: &web::Data<AppState>,
    user: &CurrentUser,
    id: i64,
    desk: &DeskQuery,
) -> Result<Vec<i64>, AppError> {
    let registrations = state
        .with_event(id, actor_of(Some(user)), |conn, view, access, _| {
            registration::entries(conn, view, access)
        })
        .await??;
    Ok(registrations
        .iter()
        .filter(|r| desk.show.admits(r) && matches_search(r, desk.q.trim()))
        .filter(|r| r.status == RegistrationStatus::Registered && !r.checked_in)
        .map(|r| r.id)
        .collect())
}
