//! Teams of a team event and the team matches of its rounds.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::Serialize;

use super::schema::{games, registrations, team_matches, teams};
use super::{DbConnection, DbError};

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable, Serialize)]
#[diesel(table_name = teams)]
pub struct TeamRow {
    pub id: i64,
    pub event_id: i64,
    pub name: String,
    pub club: Option<String>,
    /// None for a team the organisers entered at the desk.
    pub captain_account_id: Option<i64>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = teams)]
pub struct NewTeam<'a> {
    pub event_id: i64,
    pub name: &'a str,
    pub club: Option<&'a str>,
    pub captain_account_id: Option<i64>,
    pub created_at: NaiveDateTime,
}

/// Inserts a team; `Ok(None)` when the event has a team of that name.
pub fn insert_team(conn: &mut DbConnection, new: &NewTeam<'_>) -> Result<Option<TeamRow>, DbError> {
    let inserted = diesel::insert_into(teams::table)
        .values(new)
        .returning(teams::all_columns)
        .get_result::<TeamRow>(conn)
        .map_err(DbError::from);
    match inserted {
        Ok(team) => Ok(Some(team)),
        Err(err) if err.is_unique_violation() => Ok(None),
        Err(err) => Err(err),
    }
}

pub fn teams_of_event(conn: &mut DbConnection, event_id: i64) -> Result<Vec<TeamRow>, DbError> {
    Ok(teams::table
        .filter(teams::event_id.eq(event_id))
        .order(teams::id.asc())
        .select(TeamRow::as_select())
        .load(conn)?)
}

/// Removes a team that never played with every entry of it, its captain's
/// included (so the captain may register a team again), inside the
/// caller's transaction.
pub fn delete_team(conn: &mut DbConnection, team_id: i64) -> Result<(), DbError> {
    diesel::delete(registrations::table.filter(registrations::team_id.eq(team_id)))
        .execute(conn)?;
    diesel::delete(teams::table.find(team_id)).execute(conn)?;
    Ok(())
}

/// The registrations of a team, if `account` captains it (empty if not).
pub fn members_if_captain(
    conn: &mut DbConnection,
    team_id: i64,
    account: i64,
) -> Result<Vec<i64>, DbError> {
    let captains: bool = diesel::select(diesel::dsl::exists(
        teams::table
            .find(team_id)
            .filter(teams::captain_account_id.eq(account)),
    ))
    .get_result(conn)?;
    if !captains {
        return Ok(Vec::new());
    }
    Ok(registrations::table
        .filter(registrations::team_id.eq(team_id))
        .select(registrations::id)
        .load(conn)?)
}

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable, Serialize)]
#[diesel(table_name = team_matches)]
pub struct TeamMatchRow {
    pub id: i64,
    pub event_id: i64,
    pub round_id: i64,
    pub match_number: i32,
    pub team_a: i64,
    pub team_b: Option<i64>,
    /// The captains' choices so far (JSON array of registration ids).
    pub choices: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = team_matches)]
pub struct NewTeamMatch {
    pub event_id: i64,
    pub round_id: i64,
    pub match_number: i32,
    pub team_a: i64,
    pub team_b: Option<i64>,
    pub choices: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

pub fn insert_team_match(
    conn: &mut DbConnection,
    new: &NewTeamMatch,
) -> Result<TeamMatchRow, DbError> {
    Ok(diesel::insert_into(team_matches::table)
        .values(new)
        .returning(team_matches::all_columns)
        .get_result(conn)?)
}

pub fn team_matches_of_event(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Vec<TeamMatchRow>, DbError> {
    Ok(team_matches::table
        .filter(team_matches::event_id.eq(event_id))
        .order((
            team_matches::round_id.asc(),
            team_matches::match_number.asc(),
        ))
        .select(TeamMatchRow::as_select())
        .load(conn)?)
}

/// Records the captains' choices, if nobody recorded another choice since
/// `before` was read. `Ok(false)` when someone did.
pub fn set_choices(
    conn: &mut DbConnection,
    match_id: i64,
    before: &str,
    after: &str,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    let changed = diesel::update(team_matches::table.find(match_id))
        .filter(team_matches::choices.eq(before))
        .set((
            team_matches::choices.eq(after),
            team_matches::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(changed == 1)
}

/// Removes a draft round's team matches (its games go first).
pub fn delete_team_matches_of_round(conn: &mut DbConnection, round_id: i64) -> Result<(), DbError> {
    diesel::delete(team_matches::table.filter(team_matches::round_id.eq(round_id)))
        .execute(conn)?;
    Ok(())
}

/// How many member games a team match has.
pub fn games_of_match(conn: &mut DbConnection, match_id: i64) -> Result<i64, DbError> {
    Ok(games::table
        .filter(games::team_match_id.eq(match_id))
        .count()
        .get_result(conn)?)
}
