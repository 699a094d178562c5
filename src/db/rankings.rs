//! What rankings and player profiles read: finished events of a game
//! system, their games, and who (which account) played them.

use chrono::NaiveDate;
use diesel::prelude::*;

use super::events::{Event, GameRow};
use super::schema::{accounts, events, games, registrations};
use super::status::EventStatus;
use super::{DbConnection, DbError};

/// Finished events of a game system, oldest first.
pub fn finished_events(conn: &mut DbConnection, system: &str) -> Result<Vec<Event>, DbError> {
    Ok(events::table
        .filter(events::game_system.eq(system))
        .filter(events::status.eq(EventStatus::Finished))
        .order((events::ends_on.asc(), events::id.asc()))
        .select(Event::as_select())
        .load(conn)?)
}

/// The games of these events.
pub fn games_of_events(conn: &mut DbConnection, ids: &[i64]) -> Result<Vec<GameRow>, DbError> {
    Ok(games::table
        .filter(games::event_id.eq_any(ids))
        .order(games::id.asc())
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Registration id → account id, for the entries of these events that have
/// an account.
pub fn entry_accounts(
    conn: &mut DbConnection,
    event_ids: &[i64],
) -> Result<Vec<(i64, i64)>, DbError> {
    Ok(registrations::table
        .filter(registrations::event_id.eq_any(event_ids))
        .filter(registrations::account_id.is_not_null())
        .select((
            registrations::id,
            registrations::account_id.assume_not_null(),
        ))
        .load(conn)?)
}

/// An account as the public lists show it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct PublicAccount {
    pub id: i64,
    pub display_name: String,
    pub club: Option<String>,
    pub region: Option<String>,
    pub profile_hidden: bool,
}

/// These accounts, where they still exist.
pub fn public_accounts(
    conn: &mut DbConnection,
    ids: &[i64],
) -> Result<Vec<PublicAccount>, DbError> {
    Ok(accounts::table
        .filter(accounts::id.eq_any(ids))
        .filter(accounts::deleted_at.is_null())
        .select((
            accounts::id,
            accounts::display_name,
            accounts::club,
            accounts::region,
            accounts::profile_hidden,
        ))
        .load(conn)?)
}

/// The events (not drafts) an account entered: event id and registration id,
/// newest first.
pub fn entries_of_account(
    conn: &mut DbConnection,
    account: i64,
) -> Result<Vec<(Event, i64)>, DbError> {
    Ok(registrations::table
        .inner_join(events::table)
        .filter(registrations::account_id.eq(account))
        .filter(events::status.ne(EventStatus::Draft))
        .order((events::starts_on.desc(), events::id.desc()))
        .select((Event::as_select(), registrations::id))
        .load(conn)?)
}

/// The date an event ended, for rating months.
pub fn month_of(date: NaiveDate) -> i32 {
    use chrono::Datelike;
    date.year() * 12 + date.month0() as i32
}

pub fn set_profile_hidden(
    conn: &mut DbConnection,
    account: i64,
    hidden: bool,
) -> Result<(), DbError> {
    diesel::update(accounts::table.find(account))
        .set(accounts::profile_hidden.eq(hidden))
        .execute(conn)?;
    Ok(())
}
