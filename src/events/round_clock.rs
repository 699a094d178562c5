//! A round's clock: the organisers start it once the round is published,
//! and it runs for the event's round length.

use super::rounds::round_in;
use super::{Access, Ctx, EventError, EventView, RoundStatus};
use crate::db::DbConnection;
use crate::db::events::{self as db_events, Round};

/// Starts the clock of published round `number`.
pub fn start_clock(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    number: i32,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_staff()?;
    let round = round_in(conn, view, number)?;
    if round.status == RoundStatus::Draft {
        return Err(EventError::Conflict(
            "Publish the round before starting its clock.".into(),
        ));
    }
    db_events::start_round_clock(conn, round.id, ctx.now)?;
    Ok(())
}

/// Seconds left on a round's clock (negative once time is up).
pub fn seconds_left(view: &EventView, round: &Round, now: chrono::NaiveDateTime) -> Option<i64> {
    Some((clock_ends_at(view, round)? - now).num_seconds())
}

/// When a round's time runs out, once its clock has started.
pub fn clock_ends_at(view: &EventView, round: &Round) -> Option<chrono::NaiveDateTime> {
    let started = round.clock_started_at?;
    Some(started + chrono::Duration::minutes(i64::from(view.event.round_minutes)))
}
