//! Game clocks across a time when no instance served. Every instance notes
//! that it serves, every [`BEAT_EVERY`]; one that starts after the note went
//! stale (every instance was down) moves the running clocks on by the time
//! nobody served, so a crash or a restart is not charged to the player on
//! move. The player gets the benefit of the doubt: the server may have
//! served for up to one beat after its last note.

use chrono::{Duration, NaiveDateTime};

use super::HostedError;
use crate::db::hosted as db_hosted;
use crate::db::{DbConnection, WriteTransaction};

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
