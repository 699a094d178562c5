//! Moving a hosted game on: a player's command, and the ways a game stops
//! before the rules end it (a clock that ran out, a resignation, a claimed
//! absence). Each works for any game system through [`TableGame`]; the
//! ones a caller names only by the game's id find its system first
//! (`super::systems`).

use chrono::NaiveDateTime;
use soulstone_engine::system::TableGame;

use super::play_on::play_on_and_store;
use super::report::Stop;
use super::store::{Made, Stored, load, row_to_game, store};
use super::{HostedError, HostedStatus, Submitted, bot_turns, seat_code};
use crate::db::hosted as db_hosted;
use crate::db::{DbConnection, WriteTransaction};

/// A player's command, from the seat their account holds. Applied once per
/// idempotency key; refused, with nothing written, when the game has moved
/// on from `version` or the rules do not allow it.
pub fn submit<G: TableGame>(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
    version: u64,
    key: &str,
    command: G::Command,
    now: NaiveDateTime,
) -> Result<Submitted<G>, HostedError> {
    // A clock that ran out ends the game before any command after it.
    flag_if_out_of_time(conn, id, now)?;
    let result = conn.write_transaction(|conn| {
        let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
        let game = row_to_game::<G>(conn, row)?;
        let seat = game.seat_of(account_id).ok_or(HostedError::NotAPlayer)?;
        if let Some((_, to)) = db_hosted::find_command(conn, id, seat_code(seat), key)? {
            return Ok(Submitted::Repeated {
                version: u64::try_from(to).unwrap_or_default(),
            });
        }
        if game.status == HostedStatus::Finished || G::is_over(&game.state) {
            return Err(HostedError::Over);
        }
        let stored = Stored::of(&game);
        let mut state = game.state;
        let current = G::version(&state);
        if version != current {
            return Err(HostedError::MovedOn { current });
        }
        if game.clocks.is_some_and(|c| c.out_of_time(now).is_some()) {
            return Err(HostedError::Over);
        }
        let submission = G::player_submission(seat, version, command);
        let mut made = Made::<G>::default();
        made.execute(&mut state, submission)
            .map_err(|e| HostedError::Refused(e.to_string()))?;
        play_on_and_store::<G>(conn, &stored, version, &mut state, &mut made, now)?;
        let version = G::version(&state);
        db_hosted::insert_command(
            conn,
            id,
            seat_code(seat),
            key,
            (
                i64::try_from(current).unwrap_or(i64::MAX),
                i64::try_from(version).unwrap_or(i64::MAX),
            ),
            now,
        )?;
        Ok(Submitted::Applied {
            version,
            facts: made.facts,
            bot_to_move: bot_turns::searching_bot_due::<G>(&stored.seats, &state).is_some(),
        })
    });
    match result {
        // A concurrent writer with the same key got there first: answer
        // as a retry. Any other loser learns the game moved on.
        Err(HostedError::MovedOn { current }) => {
            let game = load::<G>(conn, id)?;
            let seat = game.seat_of(account_id).ok_or(HostedError::NotAPlayer)?;
            match db_hosted::find_command(conn, id, seat_code(seat), key)? {
                Some((_, to)) => Ok(Submitted::Repeated {
                    version: u64::try_from(to).unwrap_or_default(),
                }),
                None => Err(HostedError::MovedOn {
                    current: current.max(G::version(&game.state)),
                }),
            }
        }
        Err(HostedError::Db(error))
            if error.is_unique_violation() || error.is_transient_conflict() =>
        {
            let game = load::<G>(conn, id)?;
            Err(HostedError::MovedOn {
                current: G::version(&game.state),
            })
        }
        other => other,
    }
}

/// Ends the game if a player's clock has run out (the score so far
/// stands; in an event, the organisers decide). True if it did now.
pub fn flag_if_out_of_time(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
) -> Result<bool, HostedError> {
    // Read from the row alone first: rebuilding the state is only worth it
    // when a clock has run out (this runs before every command).
    let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
    let due = row.status != HostedStatus::Finished
        && row.clocks().is_some_and(|c| c.out_of_time(now).is_some());
    if !due {
        return Ok(false);
    }
    (super::systems::plays(id, &row.table_game)?.flag)(conn, id, now)
}

pub(super) fn flag<G: TableGame>(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
) -> Result<bool, HostedError> {
    let flagged = conn.write_transaction(|conn| {
        let game = load::<G>(conn, id)?;
        let Some(clocks) = game.clocks else {
            return Ok(false);
        };
        if game.status == HostedStatus::Finished {
            return Ok(false);
        }
        let Some(flagged) = clocks.out_of_time(now) else {
            return Ok(false);
        };
        stop(conn, game, Stop::Time { flagged }, now)?;
        Ok(true)
    });
    match flagged {
        // Another instance flagged it first.
        Err(HostedError::MovedOn { .. }) => Ok(false),
        other => other,
    }
}

/// A player resigns: the game ends now (in an event, the organisers
/// decide the result).
pub fn resign(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    (super::systems::plays_of(conn, id)?.resign)(conn, id, account_id, now)
}

pub(super) fn resign_in<G: TableGame>(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    conn.write_transaction(|conn| {
        let game = load::<G>(conn, id)?;
        let resigned = game.seat_of(account_id).ok_or(HostedError::NotAPlayer)?;
        if game.status == HostedStatus::Finished {
            return Err(HostedError::Over);
        }
        stop(conn, game, Stop::Resignation { resigned }, now)
    })
}

/// A player of an event game claims it because the opponent has not moved
/// for `absence` while the game waited only for them: the game ends, and
/// its result goes to the organisers to confirm.
pub fn claim_absence(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
    absence: chrono::Duration,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    (super::systems::plays_of(conn, id)?.claim_absence)(conn, id, account_id, absence, now)
}

pub(super) fn claim_absence_in<G: TableGame>(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
    absence: chrono::Duration,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    conn.write_transaction(|conn| {
        let game = load::<G>(conn, id)?;
        let claimant = game.seat_of(account_id).ok_or(HostedError::NotAPlayer)?;
        if game.status == HostedStatus::Finished {
            return Err(HostedError::Over);
        }
        if game.pairing_game_id.is_none() {
            return Err(HostedError::Invalid(
                "Only an event's game can be claimed: its organisers confirm the claim. Here, resign or keep waiting.".into(),
            ));
        }
        let Some(minutes) = game.waiting_on_opponent_of(claimant, now) else {
            return Err(HostedError::Invalid(
                "The game waits for you (or for both of you): there is no absence to claim.".into(),
            ));
        };
        if minutes < absence.num_minutes() {
            return Err(HostedError::Invalid(format!(
                "Your opponent has not moved for {minutes} minutes; the event allows a claim after {}.",
                absence.num_minutes()
            )));
        }
        stop(conn, game, Stop::Absence { claimant, minutes }, now)
    })
}

/// Ends a game before its time: the rules end it (revealing the seed)
/// and the row records why.
fn stop<G: TableGame>(
    conn: &mut DbConnection,
    game: super::HostedGame<G>,
    why: Stop,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    let stored = Stored::of(&game);
    let mut state = game.state;
    let from = G::version(&state);
    let mut made = Made::<G>::default();
    made.execute(&mut state, G::end_now(from))
        .map_err(|e| HostedError::Corrupt {
            id: stored.id,
            reason: format!("the game could not be ended: {e}"),
        })?;
    store::<G>(conn, &stored, from, &state, &made, Some(why), now)
}
