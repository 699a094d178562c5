//! What the event pages read and no rule guards beyond "this event's":
//! the public list and an account's events, an event's staff and open
//! invitations, one game or entry of an event (another event's is not
//! found), a game's declarations and history, and the key a kept public
//! page is checked against. The pages call these, never the database.

use chrono::NaiveDateTime;

use super::EventError;
use crate::db::DbConnection;
use crate::db::events::{
    self as db_events, Declaration, Event, GameRow, Registration, ResultChange,
};

/// The newest public events, at most `limit`.
pub fn public_events(conn: &mut DbConnection, limit: i64) -> Result<Vec<Event>, EventError> {
    Ok(db_events::list_public_events(conn, limit)?)
}

/// The events `account_id` organises or judges, and those they entered.
pub fn events_of(
    conn: &mut DbConnection,
    account_id: i64,
) -> Result<(Vec<Event>, Vec<Event>), EventError> {
    Ok((
        db_events::events_staffed_by(conn, account_id)?,
        db_events::events_entered_by(conn, account_id)?,
    ))
}

/// How many disputed results each of these events has: (event, count).
pub fn disputed_counts(
    conn: &mut DbConnection,
    event_ids: &[i64],
) -> Result<Vec<(i64, i64)>, EventError> {
    Ok(db_events::disputed_counts(conn, event_ids)?)
}

/// An event's staff: (account, name, email, role).
pub fn staff_of(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Vec<(i64, String, String, String)>, EventError> {
    Ok(db_events::list_staff(conn, event_id)?
        .into_iter()
        .map(|(member, name, email)| (member.account_id, name, email, member.role))
        .collect())
}

/// Whom an event's organisers invited to its staff and who has not
/// answered yet: (email, role).
pub fn open_staff_invitations(
    conn: &mut DbConnection,
    event_id: i64,
    now: NaiveDateTime,
) -> Result<Vec<(String, String)>, EventError> {
    Ok(db_events::open_staff_invitations(conn, event_id, now)?
        .into_iter()
        .map(|invitation| (invitation.email, invitation.role))
        .collect())
}

/// Game `game_id` of event `event_id`; another event's game is not found.
pub fn game_of_event(
    conn: &mut DbConnection,
    event_id: i64,
    game_id: i64,
) -> Result<GameRow, EventError> {
    db_events::find_game(conn, game_id)?
        .filter(|game| game.event_id == event_id)
        .ok_or(EventError::NotFound)
}

/// Entry `registration_id` of event `event_id`, if it is one of its.
pub fn entry_of_event(
    conn: &mut DbConnection,
    event_id: i64,
    registration_id: i64,
) -> Result<Option<Registration>, EventError> {
    Ok(db_events::find_registration(conn, registration_id)?
        .filter(|registration| registration.event_id == event_id))
}

/// The declarations made for game `game_id` of event `event_id`.
pub fn declarations_of_game(
    conn: &mut DbConnection,
    event_id: i64,
    game_id: i64,
) -> Result<Vec<Declaration>, EventError> {
    Ok(db_events::declarations_of_event(conn, event_id)?
        .into_iter()
        .filter(|declaration| declaration.game_id == game_id)
        .collect())
}

/// A game's result changes, each with the name of who made it.
pub fn history_of_game(
    conn: &mut DbConnection,
    game_id: i64,
) -> Result<Vec<(ResultChange, Option<String>)>, EventError> {
    Ok(db_events::changes_of_game(conn, game_id)?)
}

/// What a kept public page of an event depends on (its data revision, the
/// row's version and update time); none for a missing or draft event.
pub fn public_page_key(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Option<(i64, i32, NaiveDateTime)>, EventError> {
    Ok(db_events::public_page_key(conn, event_id)?)
}

/// Event `event_id` and its data as they stand now, read again after a
/// change moved its version, as `actor` sees it.
pub fn reloaded(
    conn: &mut DbConnection,
    event_id: i64,
    actor: Option<super::Actor>,
) -> Result<(super::EventView, super::rounds::EventData), EventError> {
    let (view, _) = super::load(conn, event_id, actor)?;
    Ok((view, super::rounds::EventData::load(conn, event_id)?))
}

/// A game of this event (a game of another is not found), with its
/// players' names: the first player's, then the second's unless a bye.
pub fn game_with_names(
    conn: &mut DbConnection,
    view: &super::EventView,
    game_id: i64,
) -> Result<(GameRow, Vec<String>), EventError> {
    let game = db_events::find_game(conn, game_id)?
        .filter(|g| g.event_id == view.id())
        .ok_or(EventError::NotFound)?;
    let mut names = Vec::new();
    for registration in std::iter::once(game.player_a).chain(game.player_b) {
        let name = db_events::find_registration(conn, registration)?
            .map(|r| r.display_name)
            .unwrap_or_default();
        names.push(name);
    }
    Ok((game, names))
}
