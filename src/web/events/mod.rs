//! Event pages: listing, creating and running events, players, rounds,
//! results and standings. The rules live in `crate::events`; these handlers
//! turn requests into calls and answers into pages.

pub mod api;
mod desk;
mod digital;
mod games;
mod pages;
mod players;
mod playoffs;
mod rounds;
mod scenarios;
pub mod standings;
pub mod teams;

use actix_web::web;

use crate::events::{Actor, Ctx, EventError};
use crate::web::AppState;
use crate::web::forms::FormErrors;
use crate::web::session::SessionUser;

pub fn routes(cfg: &mut web::ServiceConfig) {
    // actix tries patterns with parameters one by one (a regex each), in
    // the order registered: the pages a whole room refreshes go first.
    // Their paths overlap no other route's.
    standings::routes(cfg);
    rounds::routes(cfg);
    pages::routes(cfg);
    players::routes(cfg);
    desk::routes(cfg);
    digital::routes(cfg);
    games::routes(cfg);
    scenarios::routes(cfg);
    playoffs::routes(cfg);
    teams::routes(cfg);
}

pub fn actor_of(user: Option<&SessionUser>) -> Option<Actor> {
    user.map(|u| Actor::of(&u.account))
}

/// The moment of a request and the site's address, for the service layer.
pub fn ctx_of(state: &AppState) -> (chrono::NaiveDateTime, String) {
    (
        chrono::Utc::now().naive_utc(),
        state.settings.base_url.clone(),
    )
}

pub fn service_ctx<'a>(now: chrono::NaiveDateTime, base_url: &'a str) -> Ctx<'a> {
    Ctx { now, base_url }
}

/// Field problems from the service layer, ready to show beside the fields.
pub fn form_errors(err: &EventError) -> Option<FormErrors> {
    let EventError::Invalid(problems) = err else {
        return None;
    };
    let mut errors = FormErrors::new();
    for (field, message) in problems {
        errors.add(field, message.clone());
    }
    Some(errors)
}

/// The page of an event (for redirects).
pub fn event_path(id: i64) -> String {
    format!("/events/{id}")
}

/// The link that opens sign-up for everyone at the venue today, for the
/// organisers to show (overview and projector); none for anyone else, or
/// when the event takes no sign-ups.
pub fn venue_signup_link(
    state: &AppState,
    view: &crate::events::EventView,
    access: &crate::events::Access,
) -> Option<String> {
    use crate::events::EventStatus;
    let open = matches!(
        view.status,
        EventStatus::Registration | EventStatus::Running
    );
    (open && access.is_staff()).then(|| {
        let today = chrono::Utc::now().date_naive();
        format!(
            "{}/venue/{}",
            state.settings.base_url,
            state.venue_codes.code_for(view.id(), today)
        )
    })
}
