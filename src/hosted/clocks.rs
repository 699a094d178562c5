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

use super::{HostedError, SeatHolder};
use crate::db::hosted as db_hosted;
use crate::db::{DbConnection, DbError, WriteTransaction};

/// Each player's chess clock: the active player's runs while the game
/// waits for them (both run while both choose in secret).
pub use crate::chess_clock::ChessClocks;

/// The clocks after a move at `now`: time used is charged, then the
/// clocks of the players the game now waits for (`waiting`) run (a bot's
/// never does).
pub(super) fn clocks_after(
    clocks: Option<ChessClocks>,
    seats: &[SeatHolder; 2],
    waiting: &[Seat],
    now: NaiveDateTime,
) -> Option<ChessClocks> {
    let runs = Seat::BOTH.map(|seat| {
        waiting.contains(&seat) && matches!(seats[seat.index()], SeatHolder::Account(_))
    });
    Some(clocks?.after_move(runs, now))
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
        if clocks.out_of_time(now).is_some() && super::flag_if_out_of_time(conn, id, now)? {
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
/// The database's own error comes back whole, so a caller can tell a
/// database that refuses writes (`DbError::refuses_writes`).
pub fn beat(conn: &mut DbConnection, now: NaiveDateTime) -> Result<(), DbError> {
    db_hosted::beat(conn, now)
}

/// Hears the games other instances move on, over one connection of its
/// own to the PostgreSQL database at `url` (`db::listen`), until `alive`
/// is gone (quietly) or the connection fails (with why).
pub fn listen_for_moves(
    url: &str,
    alive: &std::sync::Weak<()>,
    moved: &dyn Fn(i64, u64),
) -> Result<(), String> {
    crate::db::listen::listen_once(url, alive, moved)
}

/// How long a listener that lost its connection waits before connecting
/// again (and how often it checks the connection is alive).
pub const LISTENER_CHECK: std::time::Duration = crate::db::listen::LISTENER_CHECK;

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
        for (id, clocks) in db_hosted::games_with_running_clocks(conn)? {
            db_hosted::set_clock_since(conn, id, &clocks.credited(last, now))?;
        }
        Ok(Some(gap))
    })
}
