//! An event's rounds and games: pairings and setups of a round, each
//! game's result, the declarations made for it and the audit trail of its
//! result changes. `db::events` re-exports these, so callers name an
//! event's tables in one place.

use super::WriteTransaction;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

use super::schema::{game_declarations, games, result_changes, rounds};
use super::status::{GameStatus, RoundStatus};
use super::{DbConnection, DbError};

// ---------------------------------------------------------------- rounds

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable, Serialize)]
#[diesel(table_name = rounds)]
pub struct Round {
    pub id: i64,
    pub event_id: i64,
    pub number: i32,
    pub status: RoundStatus,
    pub seed: i64,
    pub pairing: String,
    pub setup: Option<String>,
    pub published_at: Option<NaiveDateTime>,
    pub clock_started_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    /// Setups the round had before the current one (JSON list).
    pub setup_history: Option<String>,
}

/// Inserts a round; `Ok(None)` when that round number exists already.
pub fn insert_round(
    conn: &mut DbConnection,
    event_id: i64,
    number: i32,
    seed: i64,
    pairing: &str,
    now: NaiveDateTime,
) -> Result<Option<Round>, DbError> {
    let result = conn
        .write_transaction(|conn| {
            diesel::insert_into(rounds::table)
                .values((
                    rounds::event_id.eq(event_id),
                    rounds::number.eq(number),
                    rounds::status.eq(RoundStatus::Draft),
                    rounds::seed.eq(seed),
                    rounds::pairing.eq(pairing),
                    rounds::created_at.eq(now),
                ))
                .returning(rounds::all_columns)
                .get_result::<Round>(conn)
        })
        .map_err(DbError::from);
    match result {
        Ok(r) => Ok(Some(r)),
        Err(err) if err.is_unique_violation() => Ok(None),
        Err(err) => Err(err),
    }
}

pub fn list_rounds(conn: &mut DbConnection, event_id: i64) -> Result<Vec<Round>, DbError> {
    Ok(rounds::table
        .filter(rounds::event_id.eq(event_id))
        .order(rounds::number.asc())
        .select(Round::as_select())
        .load(conn)?)
}

pub fn find_round(
    conn: &mut DbConnection,
    event_id: i64,
    number: i32,
) -> Result<Option<Round>, DbError> {
    Ok(rounds::table
        .filter(rounds::event_id.eq(event_id))
        .filter(rounds::number.eq(number))
        .select(Round::as_select())
        .first(conn)
        .optional()?)
}

pub fn find_round_by_id(conn: &mut DbConnection, id: i64) -> Result<Option<Round>, DbError> {
    Ok(rounds::table
        .find(id)
        .select(Round::as_select())
        .first(conn)
        .optional()?)
}

pub fn set_round_status(
    conn: &mut DbConnection,
    id: i64,
    status: RoundStatus,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let published_at = (status == RoundStatus::Published).then_some(now);
    diesel::update(rounds::table.find(id))
        .set((
            rounds::status.eq(status),
            rounds::published_at.eq(published_at),
        ))
        .execute(conn)?;
    Ok(())
}

/// Scenarios prepared before the event: (round number, setup JSON).
pub fn prepared_scenarios(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Vec<(i32, String)>, DbError> {
    use super::schema::prepared_scenarios as p;
    Ok(p::table
        .filter(p::event_id.eq(event_id))
        .order(p::round_number.asc())
        .select((p::round_number, p::setup))
        .load(conn)?)
}

/// Prepares (or replaces) the scenario of one planned round.
pub fn set_prepared_scenario(
    conn: &mut DbConnection,
    event_id: i64,
    round_number: i32,
    setup: &str,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    use super::schema::prepared_scenarios as p;
    diesel::delete(
        p::table
            .filter(p::event_id.eq(event_id))
            .filter(p::round_number.eq(round_number)),
    )
    .execute(conn)?;
    diesel::insert_into(p::table)
        .values((
            p::event_id.eq(event_id),
            p::round_number.eq(round_number),
            p::setup.eq(setup),
            p::prepared_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// The optimiser's record of a round's pairing (JSON).
pub fn set_round_pairing(conn: &mut DbConnection, id: i64, pairing: &str) -> Result<(), DbError> {
    diesel::update(rounds::table.find(id))
        .set(rounds::pairing.eq(pairing))
        .execute(conn)?;
    Ok(())
}

/// The round's shared setup (JSON), and the list of setups it replaced.
pub fn set_round_setup(
    conn: &mut DbConnection,
    id: i64,
    setup: Option<&str>,
    history: Option<&str>,
) -> Result<(), DbError> {
    diesel::update(rounds::table.find(id))
        .set((rounds::setup.eq(setup), rounds::setup_history.eq(history)))
        .execute(conn)?;
    Ok(())
}

pub fn start_round_clock(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::update(rounds::table.find(id))
        .set(rounds::clock_started_at.eq(Some(now)))
        .execute(conn)?;
    Ok(())
}

pub fn delete_round(conn: &mut DbConnection, id: i64) -> Result<(), DbError> {
    conn.write_transaction(|conn| {
        let game_ids: Vec<i64> = games::table
            .filter(games::round_id.eq(id))
            .select(games::id)
            .load(conn)?;
        diesel::delete(
            game_declarations::table.filter(game_declarations::game_id.eq_any(&game_ids)),
        )
        .execute(conn)?;
        diesel::delete(result_changes::table.filter(result_changes::game_id.eq_any(&game_ids)))
            .execute(conn)?;
        diesel::delete(games::table.filter(games::round_id.eq(id))).execute(conn)?;
        super::teams::delete_team_matches_of_round(conn, id)?;
        diesel::delete(rounds::table.find(id)).execute(conn)?;
        Ok(())
    })
}

// ---------------------------------------------------------------- games

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable, Serialize)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: i64,
    pub event_id: i64,
    pub round_id: Option<i64>,
    pub table_number: Option<i32>,
    pub player_a: i64,
    pub player_b: Option<i64>,
    pub setup: Option<String>,
    pub status: GameStatus,
    pub reported_by: Option<i64>,
    pub confirmed_by: Option<i64>,
    pub a_strategy_vp: Option<i32>,
    pub a_scheme_vp: Option<i32>,
    pub b_strategy_vp: Option<i32>,
    pub b_scheme_vp: Option<i32>,
    pub a_objectives: Option<i32>,
    pub b_objectives: Option<i32>,
    pub a_eliminated: Option<i32>,
    pub b_eliminated: Option<i32>,
    pub a_army: Option<i32>,
    pub b_army: Option<i32>,
    pub dispute_note: Option<String>,
    pub version: i32,
    pub played_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// Who attacks at this table when the round's scenario is shared (JSON).
    pub sides: Option<String>,
    /// The team match a team event's game belongs to.
    pub team_match_id: Option<i64>,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = games)]
pub struct NewGame {
    pub event_id: i64,
    pub round_id: Option<i64>,
    pub table_number: Option<i32>,
    pub player_a: i64,
    pub player_b: Option<i64>,
    pub status: GameStatus,
    pub played_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub team_match_id: Option<i64>,
}

/// Inserts games one row at a time (the two-backend connection has no batch
/// insert); call inside a transaction.
pub fn insert_games(conn: &mut DbConnection, new: &[NewGame]) -> Result<(), DbError> {
    for game in new {
        diesel::insert_into(games::table)
            .values(game)
            .execute(conn)?;
    }
    Ok(())
}

pub fn insert_game(conn: &mut DbConnection, new: &NewGame) -> Result<GameRow, DbError> {
    Ok(diesel::insert_into(games::table)
        .values(new)
        .returning(games::all_columns)
        .get_result::<GameRow>(conn)?)
}

pub fn find_game(conn: &mut DbConnection, id: i64) -> Result<Option<GameRow>, DbError> {
    Ok(games::table
        .find(id)
        .select(GameRow::as_select())
        .first(conn)
        .optional()?)
}

pub fn games_of_event(conn: &mut DbConnection, event_id: i64) -> Result<Vec<GameRow>, DbError> {
    Ok(games::table
        .filter(games::event_id.eq(event_id))
        .order((
            games::round_id.asc(),
            games::table_number.asc(),
            games::id.asc(),
        ))
        .select(GameRow::as_select())
        .load(conn)?)
}

pub fn games_of_round(conn: &mut DbConnection, round_id: i64) -> Result<Vec<GameRow>, DbError> {
    Ok(games::table
        .filter(games::round_id.eq(round_id))
        .order((games::table_number.asc(), games::id.asc()))
        .select(GameRow::as_select())
        .load(conn)?)
}

/// The result fields of a game, as written by a report or a correction.
#[derive(Debug, Clone, Default, PartialEq, Eq, AsChangeset, Serialize, Deserialize)]
#[diesel(table_name = games, treat_none_as_null = true)]
pub struct ResultFields {
    pub a_strategy_vp: Option<i32>,
    pub a_scheme_vp: Option<i32>,
    pub b_strategy_vp: Option<i32>,
    pub b_scheme_vp: Option<i32>,
    pub a_objectives: Option<i32>,
    pub b_objectives: Option<i32>,
    pub a_eliminated: Option<i32>,
    pub b_eliminated: Option<i32>,
    pub a_army: Option<i32>,
    pub b_army: Option<i32>,
}

impl ResultFields {
    pub fn of(game: &GameRow) -> Self {
        Self {
            a_strategy_vp: game.a_strategy_vp,
            a_scheme_vp: game.a_scheme_vp,
            b_strategy_vp: game.b_strategy_vp,
            b_scheme_vp: game.b_scheme_vp,
            a_objectives: game.a_objectives,
            b_objectives: game.b_objectives,
            a_eliminated: game.a_eliminated,
            b_eliminated: game.b_eliminated,
            a_army: game.a_army,
            b_army: game.b_army,
        }
    }
}

/// Writes a game's result and status if its version is still `expected`
/// (otherwise someone else changed it first: returns false, changes nothing).
#[allow(clippy::too_many_arguments)]
pub fn write_result(
    conn: &mut DbConnection,
    id: i64,
    expected_version: i32,
    fields: Option<&ResultFields>,
    status: GameStatus,
    reported_by: Option<Option<i64>>,
    confirmed_by: Option<Option<i64>>,
    dispute_note: Option<Option<&str>>,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    let target = games::table
        .find(id)
        .filter(games::version.eq(expected_version));
    let updated = diesel::update(target)
        .set((
            games::status.eq(status),
            games::version.eq(expected_version + 1),
            games::updated_at.eq(now),
        ))
        .execute(conn)?;
    if updated == 1 {
        let row = games::table.find(id);
        if let Some(fields) = fields {
            diesel::update(row).set(fields).execute(conn)?;
        }
        if let Some(reported_by) = reported_by {
            diesel::update(row)
                .set(games::reported_by.eq(reported_by))
                .execute(conn)?;
        }
        if let Some(confirmed_by) = confirmed_by {
            diesel::update(row)
                .set(games::confirmed_by.eq(confirmed_by))
                .execute(conn)?;
        }
        if let Some(note) = dispute_note {
            diesel::update(row)
                .set(games::dispute_note.eq(note))
                .execute(conn)?;
        }
    }
    Ok(updated == 1)
}

/// Moves players between games of a draft round.
pub fn set_game_players(
    conn: &mut DbConnection,
    id: i64,
    a: i64,
    b: Option<i64>,
    table: Option<i32>,
) -> Result<(), DbError> {
    diesel::update(games::table.find(id))
        .set((
            games::player_a.eq(a),
            games::player_b.eq(b),
            games::table_number.eq(table),
        ))
        .execute(conn)?;
    Ok(())
}

/// A table's own setup and its sides under a shared scenario (JSON each);
/// a table has one or the other, or neither.
pub fn set_game_setup(
    conn: &mut DbConnection,
    id: i64,
    setup: Option<&str>,
    sides: Option<&str>,
) -> Result<(), DbError> {
    diesel::update(games::table.find(id))
        .set((games::setup.eq(setup), games::sides.eq(sides)))
        .execute(conn)?;
    Ok(())
}

// ---------------------------------------------------------------- declarations

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Serialize)]
#[diesel(table_name = game_declarations)]
pub struct Declaration {
    pub game_id: i64,
    pub registration_id: i64,
    pub leader: String,
    pub crew: String,
}

pub fn set_declaration(
    conn: &mut DbConnection,
    game_id: i64,
    registration_id: i64,
    leader: &str,
    crew: &str,
) -> Result<(), DbError> {
    conn.write_transaction(|conn| {
        diesel::delete(
            game_declarations::table
                .filter(game_declarations::game_id.eq(game_id))
                .filter(game_declarations::registration_id.eq(registration_id)),
        )
        .execute(conn)?;
        diesel::insert_into(game_declarations::table)
            .values((
                game_declarations::game_id.eq(game_id),
                game_declarations::registration_id.eq(registration_id),
                game_declarations::leader.eq(leader),
                game_declarations::crew.eq(crew),
            ))
            .execute(conn)?;
        Ok(())
    })
}

pub fn declarations_of_event(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Vec<Declaration>, DbError> {
    Ok(game_declarations::table
        .inner_join(games::table.on(games::id.eq(game_declarations::game_id)))
        .filter(games::event_id.eq(event_id))
        .select(Declaration::as_select())
        .load(conn)?)
}

// ---------------------------------------------------------------- audit trail

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Serialize)]
#[diesel(table_name = result_changes)]
pub struct ResultChange {
    pub id: i64,
    pub game_id: i64,
    pub event_id: i64,
    pub account_id: Option<i64>,
    pub action: String,
    pub before_json: Option<String>,
    pub after_json: Option<String>,
    pub note: Option<String>,
    pub at: NaiveDateTime,
}

#[allow(clippy::too_many_arguments)]
pub fn record_result_change(
    conn: &mut DbConnection,
    game_id: i64,
    event_id: i64,
    account_id: Option<i64>,
    action: &str,
    before: Option<&str>,
    after: Option<&str>,
    note: Option<&str>,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::insert_into(result_changes::table)
        .values((
            result_changes::game_id.eq(game_id),
            result_changes::event_id.eq(event_id),
            result_changes::account_id.eq(account_id),
            result_changes::action.eq(action),
            result_changes::before_json.eq(before),
            result_changes::after_json.eq(after),
            result_changes::note.eq(note),
            result_changes::at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn changes_of_game(
    conn: &mut DbConnection,
    game_id: i64,
) -> Result<Vec<(ResultChange, Option<String>)>, DbError> {
    use super::schema::accounts;
    Ok(result_changes::table
        .left_join(accounts::table.on(accounts::id.nullable().eq(result_changes::account_id)))
        .filter(result_changes::game_id.eq(game_id))
        .order(result_changes::id.asc())
        .select((ResultChange::as_select(), accounts::display_name.nullable()))
        .load(conn)?)
}
