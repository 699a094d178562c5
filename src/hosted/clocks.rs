//! The players' chess clocks: what is left on each, whose runs, and who
//! ran out; and the time when no instance served, which is charged to
//! nobody. Every instance notes that it serves, every [`BEAT_EVERY`]; one
//! that starts after the note went stale (every instance was down) moves
//! the running clocks on by the time nobody served, so a crash or a
//! restart is not charged to the player on move. The player gets the
//! benefit of the doubt: the server may have served for up to one beat
//! after its last note.

use chrono::{Duration, NaiveDateTime};
use soulstone_engine::Seat;

use super::{HostedError, SeatHolder, seat_code};
use crate::db::hosted as db_hosted;
use crate::db::{DbConnection, WriteTransaction};

/// Each player's chess clock: the active player's runs while the game
/// waits for them (both run while both choose in secret).
pub use crate::db::hosted::StoredClocks as Clocks;

/// What is left on each clock at `now`.
pub fn clocks_left(clocks: &Clocks, now: NaiveDateTime) -> [i64; 2] {
    let elapsed = (now - clocks.since).num_milliseconds().max(0);
    Seat::BOTH.map(|seat| {
        let left = clocks.left_ms[seat.index()];
        if clock_runs(clocks, seat) {
            (left - elapsed).max(0)
        } else {
            left
        }
    })
}

/// Whether `seat`'s clock is running.
pub fn clock_runs(clocks: &Clocks, seat: Seat) -> bool {
    clocks.running.is_some_and(|r| r.contains(seat_code(seat)))
}

/// The seat whose clock has run out at `now`, if any.
pub fn out_of_time(clocks: &Clocks, now: NaiveDateTime) -> Option<Seat> {
    let left = clocks_left(clocks, now);
    Seat::BOTH
        .into_iter()
        .find(|seat| clock_runs(clocks, *seat) && left[seat.index()] == 0)
}

/// The clocks after a command at `now`: time used is charged, then the
/// clocks of the players the game now waits for (`waiting`) run.
pub(super) fn clocks_after(
    clocks: Option<Clocks>,
    seats: &[SeatHolder; 2],
    waiting: &[Seat],
    now: NaiveDateTime,
) -> Option<Clocks> {
    let mut clocks = clocks?;
    clocks.left_ms = clocks_left(&clocks, now);
    clocks.since = now;
    let runs = |seat: Seat| {
        waiting.contains(&seat) && matches!(seats[seat.index()], SeatHolder::Account(_))
    };
    clocks.running = match (runs(Seat::A), runs(Seat::B)) {
        (true, true) => Some("ab"),
        (true, false) => Some("a"),
        (false, true) => Some("b"),
        (false, false) => None,
    };
    Some(clocks)
}

/// Ends every game whose running clock has run out by `now` (every
/// instance looks; the version check lets one of them end each). The ids
/// of the games this call ended.
pub fn flag_games_out_of_time(
    conn: &mut DbConnection,
    now: NaiveDateTime,
) -> Result<Vec<i64>, HostedError> {
    let mut flagged = Vec::new();
    for (id, clocks) in db_hosted::games_with_clocks_due(conn, now)? {
        if out_of_time(&clocks, now).is_some() && super::flag_if_out_of_time(conn, id, now)? {
            flagged.push(id);
        }
    }
    Ok(flagged)
}

/// The games moved on since `since` (by any instance), with their
/// versions: how an instance on SQLite, which has no notices, hears of
/// other instances' moves.
pub fn games_changed_since(
    conn: &mut DbConnection,
    since: NaiveDateTime,
) -> Result<Vec<(i64, i64)>, HostedError> {
    Ok(db_hosted::changed_since(conn, since)?)
}

/// How often a serving instance notes that it serves.
pub const BEAT_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// A note older than this at start means nobody served meanwhile (two
/// beats: one missed beat is a busy instance, not an outage).
pub fn quiet_after() -> Duration {
    Duration::milliseconds(2 * i64::try_from(BEAT_EVERY.as_millis()).unwrap_or(i64::MAX))
}

/// Notes that this instance serves at `now`.
pub fn beat(conn: &mut DbConnection, now: NaiveDateTime) -> Result<(), HostedError> {
    Ok(db_hosted::beat(conn, now)?)
}

/// At start: when nobody served since the last note, credits that time to
/// every running clock and says how long it was. Instances starting
/// together take turns on the note; the second finds it fresh.
pub fn credit_time_not_served(
    conn: &mut DbConnection,
    now: NaiveDateTime,
) -> Result<Option<Duration>, HostedError> {
    conn.write_transaction(|conn| {
        let Some(last) = db_hosted::last_served_locked(conn)? else {
            return Ok(None);
        };
        db_hosted::beat(conn, now)?;
        let gap = now - last;
        if gap <= quiet_after() {
            return Ok(None);
        }
        for (id, mut clocks) in db_hosted::games_with_running_clocks(conn)? {
            clocks.since = credited_since(clocks.since, last, now);
            db_hosted::set_clock_since(conn, id, &clocks)?;
        }
        Ok(Some(gap))
    })
}

/// Where a clock that started running at `since` starts once the time
/// from `last_served` to `now` is not charged: the time it ran while
/// served stays charged, the rest is given back.
fn credited_since(
    since: NaiveDateTime,
    last_served: NaiveDateTime,
    now: NaiveDateTime,
) -> NaiveDateTime {
    let not_served = now - since.max(last_served);
    since + not_served.max(Duration::zero())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> NaiveDateTime {
        chrono::DateTime::from_timestamp(1_800_000_000 + seconds, 0)
            .unwrap()
            .naive_utc()
    }

    #[test]
    fn only_the_time_served_is_charged() {
        // Running since 0, last served at 10, back at 70: 10 s charged.
        assert_eq!(now_minus(credited_since(at(0), at(10), at(70)), at(70)), 10);
        // Started running after the last note: nothing charged.
        assert_eq!(now_minus(credited_since(at(12), at(10), at(70)), at(70)), 0);
        // A clock set in the future (another instance's clock ahead) stays.
        assert_eq!(credited_since(at(80), at(10), at(70)), at(80));
    }

    fn now_minus(since: NaiveDateTime, now: NaiveDateTime) -> i64 {
        (now - since).num_seconds()
    }
}
