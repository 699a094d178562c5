//! Events, their staff and registrations; their rounds, games and the
//! result audit trail are in `db::rounds`, re-exported here.

use super::WriteTransaction;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;

use super::schema::{
    event_staff, events, form_submissions, games, playoffs, registrations, staff_invitations,
};
use super::status::{EventStatus, GameStatus, RegistrationStatus};
use super::{DbConnection, DbError};

pub use super::rounds::{
    Declaration, GameRow, NewGame, ResultChange, ResultFields, Round, changes_of_game,
    declarations_of_event, delete_round, find_game, find_round, find_round_by_id, games_of_event,
    games_of_round, insert_game, insert_games, insert_round, list_rounds, prepared_scenarios,
    record_result_change, set_declaration, set_game_players, set_game_setup, set_prepared_scenario,
    set_round_pairing, set_round_setup, set_round_status, start_round_clock, write_result,
};

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable, Serialize)]
#[diesel(table_name = events)]
pub struct Event {
    pub id: i64,
    pub name: String,
    pub description: String,
    pub venue: String,
    pub starts_on: NaiveDate,
    pub ends_on: NaiveDate,
    pub game_system: String,
    pub format: String,
    pub rounds_planned: i32,
    pub round_minutes: i32,
    pub encounter_size: i32,
    pub player_cap: Option<i32>,
    pub registration_opens_at: Option<NaiveDateTime>,
    pub registration_closes_at: Option<NaiveDateTime>,
    pub visibility: String,
    pub status: EventStatus,
    pub pool_id: Option<i64>,
    pub settings: String,
    pub lists_published: bool,
    pub version: i32,
    pub created_by: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
    /// Moved on by triggers with any change to the event's registrations,
    /// rounds or games; read with the row so a cached copy of that data can
    /// be checked without another query.
    #[serde(skip)]
    pub data_revision: i64,
}

/// The editable fields of an event (everything but status and bookkeeping).
#[derive(Debug, Clone, PartialEq, Eq, Insertable, AsChangeset)]
#[diesel(table_name = events, treat_none_as_null = true)]
pub struct EventFields {
    pub name: String,
    pub description: String,
    pub venue: String,
    pub starts_on: NaiveDate,
    pub ends_on: NaiveDate,
    pub game_system: String,
    pub format: String,
    pub rounds_planned: i32,
    pub round_minutes: i32,
    pub encounter_size: i32,
    pub player_cap: Option<i32>,
    pub registration_opens_at: Option<NaiveDateTime>,
    pub registration_closes_at: Option<NaiveDateTime>,
    pub visibility: String,
    pub pool_id: Option<i64>,
    pub settings: String,
}

pub fn insert_event(
    conn: &mut DbConnection,
    fields: &EventFields,
    status: EventStatus,
    created_by: i64,
    now: NaiveDateTime,
) -> Result<Event, DbError> {
    Ok(diesel::insert_into(events::table)
        .values((
            fields,
            events::status.eq(status),
            events::lists_published.eq(false),
            events::version.eq(0),
            events::created_by.eq(created_by),
            events::created_at.eq(now),
            events::updated_at.eq(now),
        ))
        .returning(events::id)
        .get_result::<i64>(conn)
        .and_then(|id| {
            events::table
                .find(id)
                .select(Event::as_select())
                .first(conn)
        })?)
}

pub fn update_event(
    conn: &mut DbConnection,
    id: i64,
    fields: &EventFields,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::update(events::table.find(id))
        .set((fields, events::updated_at.eq(now)))
        .execute(conn)?;
    Ok(())
}

pub fn find_event(conn: &mut DbConnection, id: i64) -> Result<Option<Event>, DbError> {
    Ok(events::table
        .find(id)
        .select(Event::as_select())
        .first(conn)
        .optional()?)
}

/// What a cached public page of the event depends on: the data revision,
/// the row's version and update time. None for a missing or draft event.
pub fn public_page_key(
    conn: &mut DbConnection,
    id: i64,
) -> Result<Option<(i64, i32, NaiveDateTime)>, DbError> {
    Ok(events::table
        .find(id)
        .filter(events::status.ne(EventStatus::Draft))
        .select((events::data_revision, events::version, events::updated_at))
        .first(conn)
        .optional()?)
}

/// Public events that are not drafts, soonest first.
pub fn list_public_events(conn: &mut DbConnection, limit: i64) -> Result<Vec<Event>, DbError> {
    Ok(events::table
        .filter(events::visibility.eq("public"))
        .filter(events::status.ne(EventStatus::Draft))
        .order((events::starts_on.desc(), events::id.desc()))
        .limit(limit)
        .select(Event::as_select())
        .load(conn)?)
}

/// Events an account organises or judges.
pub fn events_staffed_by(conn: &mut DbConnection, account_id: i64) -> Result<Vec<Event>, DbError> {
    Ok(events::table
        .inner_join(event_staff::table)
        .filter(event_staff::account_id.eq(account_id))
        .order((events::starts_on.desc(), events::id.desc()))
        .select(Event::as_select())
        .load(conn)?)
}

/// Events an account is registered for.
pub fn events_entered_by(conn: &mut DbConnection, account_id: i64) -> Result<Vec<Event>, DbError> {
    Ok(events::table
        .inner_join(registrations::table)
        .filter(registrations::account_id.eq(account_id))
        .filter(registrations::status.ne(RegistrationStatus::Withdrawn))
        .order((events::starts_on.desc(), events::id.desc()))
        .select(Event::as_select())
        .load(conn)?)
}

pub fn set_event_status(
    conn: &mut DbConnection,
    id: i64,
    status: EventStatus,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let finished_at = (status == EventStatus::Finished).then_some(now);
    diesel::update(events::table.find(id))
        .set((
            events::status.eq(status),
            events::updated_at.eq(now),
            events::finished_at.eq(finished_at),
        ))
        .execute(conn)?;
    Ok(())
}

/// Shows or hides the players' lists. The update time moves on with it:
/// the kept public pages (standings, rounds) show the lists, and are
/// checked against it.
pub fn set_lists_published(
    conn: &mut DbConnection,
    id: i64,
    published: bool,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::update(events::table.find(id))
        .set((
            events::lists_published.eq(published),
            events::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// The event's data revision: it moves on (by database triggers) with every
/// change to its registrations, rounds or games. `None` if there is no such event.
pub fn data_revision(conn: &mut DbConnection, id: i64) -> Result<Option<i64>, DbError> {
    Ok(events::table
        .find(id)
        .select(events::data_revision)
        .first::<i64>(conn)
        .optional()?)
}

/// Moves the event's version on if it is still `expected`; false when
/// someone else changed the rounds first.
pub fn bump_event_version(
    conn: &mut DbConnection,
    id: i64,
    expected: i32,
) -> Result<bool, DbError> {
    let updated = diesel::update(events::table.find(id).filter(events::version.eq(expected)))
        .set(events::version.eq(expected + 1))
        .execute(conn)?;
    Ok(updated == 1)
}

// ---------------------------------------------------------------- staff

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = event_staff)]
pub struct StaffMember {
    pub event_id: i64,
    pub account_id: i64,
    pub role: String,
}

pub fn add_staff(
    conn: &mut DbConnection,
    event_id: i64,
    account_id: i64,
    role: &str,
) -> Result<(), DbError> {
    conn.write_transaction(|conn| {
        diesel::delete(
            event_staff::table
                .filter(event_staff::event_id.eq(event_id))
                .filter(event_staff::account_id.eq(account_id)),
        )
        .execute(conn)?;
        diesel::insert_into(event_staff::table)
            .values((
                event_staff::event_id.eq(event_id),
                event_staff::account_id.eq(account_id),
                event_staff::role.eq(role),
            ))
            .execute(conn)?;
        Ok(())
    })
}

/// What an earlier submission of a form with this key made, if any.
pub fn find_submission(
    conn: &mut DbConnection,
    account_id: i64,
    key: &str,
) -> Result<Option<String>, DbError> {
    Ok(form_submissions::table
        .filter(form_submissions::account_id.eq(account_id))
        .filter(form_submissions::submission_key.eq(key))
        .select(form_submissions::outcome)
        .first(conn)
        .optional()?)
}

/// Forgets submission keys older than `before`: a retry comes within
/// minutes, and a form kept open for days is shown again before use.
pub fn purge_submissions(conn: &mut DbConnection, before: NaiveDateTime) -> Result<(), DbError> {
    diesel::delete(form_submissions::table.filter(form_submissions::created_at.lt(before)))
        .execute(conn)?;
    Ok(())
}

/// Remembers what a form's submission made, in the transaction that made it.
pub fn record_submission(
    conn: &mut DbConnection,
    account_id: i64,
    key: &str,
    outcome: &str,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::insert_into(form_submissions::table)
        .values((
            form_submissions::account_id.eq(account_id),
            form_submissions::submission_key.eq(key),
            form_submissions::outcome.eq(outcome),
            form_submissions::created_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// An invitation to join an event's staff, sent by mail.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = staff_invitations)]
pub struct StaffInvitation {
    pub id: i64,
    pub event_id: i64,
    pub email: String,
    pub role: String,
    pub token_hash: String,
    pub invited_by: i64,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub accepted_at: Option<NaiveDateTime>,
}

/// What a new invitation holds.
pub struct NewStaffInvitation<'a> {
    pub event_id: i64,
    pub email: &'a str,
    pub role: &'a str,
    pub token_hash: &'a str,
    pub invited_by: i64,
    pub now: NaiveDateTime,
    pub expires_at: NaiveDateTime,
}

/// Stores an invitation; an older open one to the same address for the
/// same event ends, so only the newest link works.
pub fn create_staff_invitation(
    conn: &mut DbConnection,
    invitation: &NewStaffInvitation<'_>,
) -> Result<(), DbError> {
    conn.write_transaction(|conn| {
        diesel::update(
            staff_invitations::table
                .filter(staff_invitations::event_id.eq(invitation.event_id))
                .filter(staff_invitations::email.eq(invitation.email))
                .filter(staff_invitations::accepted_at.is_null())
                .filter(staff_invitations::expires_at.gt(invitation.now)),
        )
        .set(staff_invitations::expires_at.eq(invitation.now))
        .execute(conn)?;
        diesel::insert_into(staff_invitations::table)
            .values((
                staff_invitations::event_id.eq(invitation.event_id),
                staff_invitations::email.eq(invitation.email),
                staff_invitations::role.eq(invitation.role),
                staff_invitations::token_hash.eq(invitation.token_hash),
                staff_invitations::invited_by.eq(invitation.invited_by),
                staff_invitations::created_at.eq(invitation.now),
                staff_invitations::expires_at.eq(invitation.expires_at),
            ))
            .execute(conn)?;
        Ok(())
    })
}

/// The invitation a link's token hash belongs to.
pub fn find_staff_invitation(
    conn: &mut DbConnection,
    token_hash: &str,
) -> Result<Option<StaffInvitation>, DbError> {
    Ok(staff_invitations::table
        .filter(staff_invitations::token_hash.eq(token_hash))
        .select(StaffInvitation::as_select())
        .first(conn)
        .optional()?)
}

/// Marks an invitation accepted, if it still was open; says whether it was.
pub fn accept_staff_invitation(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    let changed = diesel::update(
        staff_invitations::table
            .filter(staff_invitations::id.eq(id))
            .filter(staff_invitations::accepted_at.is_null())
            .filter(staff_invitations::expires_at.gt(now)),
    )
    .set(staff_invitations::accepted_at.eq(now))
    .execute(conn)?;
    Ok(changed == 1)
}

/// An event's invitations not yet accepted and still open, newest first.
pub fn open_staff_invitations(
    conn: &mut DbConnection,
    event_id: i64,
    now: NaiveDateTime,
) -> Result<Vec<StaffInvitation>, DbError> {
    Ok(staff_invitations::table
        .filter(staff_invitations::event_id.eq(event_id))
        .filter(staff_invitations::accepted_at.is_null())
        .filter(staff_invitations::expires_at.gt(now))
        .order(staff_invitations::id.desc())
        .select(StaffInvitation::as_select())
        .load(conn)?)
}

pub fn remove_staff(
    conn: &mut DbConnection,
    event_id: i64,
    account_id: i64,
) -> Result<bool, DbError> {
    Ok(diesel::delete(
        event_staff::table
            .filter(event_staff::event_id.eq(event_id))
            .filter(event_staff::account_id.eq(account_id)),
    )
    .execute(conn)?
        == 1)
}

/// Staff with their display names and emails.
pub fn list_staff(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Vec<(StaffMember, String, String)>, DbError> {
    use super::schema::accounts;
    Ok(event_staff::table
        .inner_join(accounts::table.on(accounts::id.eq(event_staff::account_id)))
        .filter(event_staff::event_id.eq(event_id))
        .order((event_staff::role.desc(), accounts::display_name.asc()))
        .select((
            StaffMember::as_select(),
            accounts::display_name,
            accounts::email,
        ))
        .load(conn)?)
}

pub fn staff_role(
    conn: &mut DbConnection,
    event_id: i64,
    account_id: i64,
) -> Result<Option<String>, DbError> {
    Ok(event_staff::table
        .filter(event_staff::event_id.eq(event_id))
        .filter(event_staff::account_id.eq(account_id))
        .select(event_staff::role)
        .first(conn)
        .optional()?)
}

// ---------------------------------------------------------------- registrations

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable, Serialize)]
#[diesel(table_name = registrations)]
pub struct Registration {
    pub id: i64,
    pub event_id: i64,
    pub account_id: Option<i64>,
    pub display_name: String,
    pub club: Option<String>,
    pub status: RegistrationStatus,
    pub checked_in: bool,
    pub dropped: bool,
    pub dropped_after_round: Option<i32>,
    pub joined_round: i32,
    pub initial_points: i32,
    pub fixed_table: Option<i32>,
    pub faction: Option<String>,
    pub army_list: Option<String>,
    pub army_points: Option<i32>,
    pub registered_at: NaiveDateTime,
    /// The player's seed in the playoff cut (1 is the top seed).
    pub playoff_seed: Option<i32>,
    /// The team of a team event's member, and their board in it (1 first).
    pub team_id: Option<i64>,
    pub team_board: Option<i32>,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = registrations)]
pub struct NewRegistration<'a> {
    pub event_id: i64,
    pub account_id: Option<i64>,
    pub display_name: &'a str,
    pub club: Option<&'a str>,
    pub status: RegistrationStatus,
    pub checked_in: bool,
    pub joined_round: i32,
    pub initial_points: i32,
    pub registered_at: NaiveDateTime,
    pub team_id: Option<i64>,
    pub team_board: Option<i32>,
}

/// Inserts a registration; `Ok(None)` when the account is already registered.
pub fn insert_registration(
    conn: &mut DbConnection,
    new: &NewRegistration<'_>,
) -> Result<Option<Registration>, DbError> {
    let result = conn
        .write_transaction(|conn| {
            diesel::insert_into(registrations::table)
                .values(new)
                .returning(registrations::all_columns)
                .get_result::<Registration>(conn)
        })
        .map_err(DbError::from);
    match result {
        Ok(r) => Ok(Some(r)),
        Err(err) if err.is_unique_violation() => Ok(None),
        Err(err) => Err(err),
    }
}

pub fn find_registration(
    conn: &mut DbConnection,
    id: i64,
) -> Result<Option<Registration>, DbError> {
    Ok(registrations::table
        .find(id)
        .select(Registration::as_select())
        .first(conn)
        .optional()?)
}

pub fn registration_of(
    conn: &mut DbConnection,
    event_id: i64,
    account_id: i64,
) -> Result<Option<Registration>, DbError> {
    Ok(registrations::table
        .filter(registrations::event_id.eq(event_id))
        .filter(registrations::account_id.eq(account_id))
        .select(Registration::as_select())
        .first(conn)
        .optional()?)
}

/// Every registration of an event, waitlist order (first come first served).
pub fn list_registrations(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Vec<Registration>, DbError> {
    Ok(registrations::table
        .filter(registrations::event_id.eq(event_id))
        .order((registrations::registered_at.asc(), registrations::id.asc()))
        .select(Registration::as_select())
        .load(conn)?)
}

/// Takes the event's row for this write transaction, so that rules that
/// count and then insert (a player cap, a waitlist) hold when requests
/// arrive together. On PostgreSQL the row is locked (`FOR UPDATE`) until
/// the transaction ends; SQLite's write transactions already run one at a
/// time (`BEGIN IMMEDIATE`).
pub fn lock_event(conn: &mut DbConnection, event_id: i64) -> Result<(), DbError> {
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query("SELECT id FROM events WHERE id = $1 FOR UPDATE")
            .bind::<diesel::sql_types::BigInt, _>(event_id)
            .execute(pg)?;
    }
    Ok(())
}

/// A write transaction that takes the event's row first ([`lock_event`]):
/// the way in for every rule that counts and then writes for one event.
pub fn event_write_transaction<T, E, F>(
    conn: &mut DbConnection,
    event_id: i64,
    body: F,
) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error> + From<DbError>,
{
    conn.write_transaction(|conn| {
        lock_event(conn, event_id)?;
        body(conn)
    })
}

/// Disputed games per event, for the events given (those with none left out).
pub fn disputed_counts(
    conn: &mut DbConnection,
    event_ids: &[i64],
) -> Result<Vec<(i64, i64)>, DbError> {
    Ok(games::table
        .filter(games::event_id.eq_any(event_ids))
        .filter(games::status.eq(GameStatus::Disputed))
        .group_by(games::event_id)
        .select((games::event_id, diesel::dsl::count_star()))
        .load(conn)?)
}

/// Games (any status, byes included) a registration plays in.
pub fn count_games_of(conn: &mut DbConnection, registration_id: i64) -> Result<i64, DbError> {
    Ok(games::table
        .filter(
            games::player_a
                .eq(registration_id)
                .or(games::player_b.eq(registration_id)),
        )
        .count()
        .get_result(conn)?)
}

/// Deletes a registration that has no games (see [`count_games_of`]).
pub fn delete_registration(conn: &mut DbConnection, id: i64) -> Result<(), DbError> {
    diesel::delete(registrations::table.find(id)).execute(conn)?;
    Ok(())
}

pub fn count_registered(conn: &mut DbConnection, event_id: i64) -> Result<i64, DbError> {
    Ok(registrations::table
        .filter(registrations::event_id.eq(event_id))
        .filter(registrations::status.eq(RegistrationStatus::Registered))
        .count()
        .get_result(conn)?)
}

/// The changeable fields of a registration.
#[derive(Debug, Clone, Default, AsChangeset)]
#[diesel(table_name = registrations)]
pub struct RegistrationChanges {
    pub account_id: Option<Option<i64>>,
    pub display_name: Option<String>,
    pub club: Option<Option<String>>,
    pub status: Option<RegistrationStatus>,
    pub checked_in: Option<bool>,
    pub dropped: Option<bool>,
    pub dropped_after_round: Option<Option<i32>>,
    pub joined_round: Option<i32>,
    pub initial_points: Option<i32>,
    pub fixed_table: Option<Option<i32>>,
    pub faction: Option<Option<String>>,
    pub army_list: Option<Option<String>>,
    pub army_points: Option<Option<i32>>,
}

pub fn update_registration(
    conn: &mut DbConnection,
    id: i64,
    changes: &RegistrationChanges,
) -> Result<(), DbError> {
    diesel::update(registrations::table.find(id))
        .set(changes)
        .execute(conn)?;
    Ok(())
}

// ---------------------------------------------------------------- playoffs

/// An event's single-elimination cut (its seeds are on the registrations).
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable, Serialize)]
#[diesel(table_name = playoffs)]
pub struct PlayoffRow {
    pub event_id: i64,
    pub cut_size: i32,
    pub third_place: bool,
    pub tie_rule: String,
    pub higher_seed_chooses: bool,
    /// The event round number the playoff's first round takes.
    pub first_round: i32,
    pub created_at: NaiveDateTime,
}

pub fn find_playoffs(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Option<PlayoffRow>, DbError> {
    Ok(playoffs::table
        .find(event_id)
        .select(PlayoffRow::as_select())
        .first(conn)
        .optional()?)
}

/// Stores the cut and seeds the players (registration ids, best first),
/// inside the caller's transaction. `Ok(false)` when the event has a cut
/// already.
pub fn insert_playoffs(
    conn: &mut DbConnection,
    row: &PlayoffRow,
    seeded: &[i64],
) -> Result<bool, DbError> {
    let inserted = diesel::insert_into(playoffs::table)
        .values(row)
        .execute(conn)
        .map_err(DbError::from);
    match inserted {
        Err(err) if err.is_unique_violation() => return Ok(false),
        other => other?,
    };
    for (seed, registration) in (1..).zip(seeded) {
        diesel::update(registrations::table.find(registration))
            .filter(registrations::event_id.eq(row.event_id))
            .set(registrations::playoff_seed.eq(Some(seed)))
            .execute(conn)?;
    }
    Ok(true)
}

/// Removes the cut and its seeds, inside the caller's transaction.
pub fn delete_playoffs(conn: &mut DbConnection, event_id: i64) -> Result<(), DbError> {
    diesel::update(registrations::table.filter(registrations::event_id.eq(event_id)))
        .filter(registrations::playoff_seed.is_not_null())
        .set(registrations::playoff_seed.eq(None::<i32>))
        .execute(conn)?;
    diesel::delete(playoffs::table.find(event_id)).execute(conn)?;
    Ok(())
}
