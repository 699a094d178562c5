//! The players' chess clocks of a hosted game as one value: what is left
//! on each, which run and since when, and the arithmetic on them (time
//! left at a moment, who ran out, the clocks after a move, the deadline an
//! index finds due games by, time nobody served given back). The database
//! stores it, the host moves it on, the pages show it; none of them
//! computes with its fields.

use chrono::{Duration, NaiveDateTime};
use soulstone_engine::Seat;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChessClocks {
    /// Each player's time for the whole game.
    pub control_ms: i64,
    /// What was left on each clock at `since`, by seat index.
    pub left_ms: [i64; 2],
    /// Whose clocks run (both, while both choose in secret).
    pub running: [bool; 2],
    /// When `left_ms` was last brought up to date.
    pub since: NaiveDateTime,
}

impl ChessClocks {
    /// A game's clocks at its start: `control_ms` each, none running.
    pub fn new(control_ms: i64, now: NaiveDateTime) -> Self {
        Self {
            control_ms,
            left_ms: [control_ms; 2],
            running: [false; 2],
            since: now,
        }
    }

    /// Whether `seat`'s clock is running.
    pub fn runs(&self, seat: Seat) -> bool {
        self.running[seat.index()]
    }

    /// What is left on each clock at `now`.
    pub fn left_at(&self, now: NaiveDateTime) -> [i64; 2] {
        let elapsed = (now - self.since).num_milliseconds().max(0);
        Seat::BOTH.map(|seat| {
            let left = self.left_ms[seat.index()];
            if self.runs(seat) {
                (left - elapsed).max(0)
            } else {
                left
            }
        })
    }

    /// The seat whose clock has run out at `now`, if any.
    pub fn out_of_time(&self, now: NaiveDateTime) -> Option<Seat> {
        let left = self.left_at(now);
        Seat::BOTH
            .into_iter()
            .find(|seat| self.runs(*seat) && left[seat.index()] == 0)
    }

    /// The clocks after a move at `now`: the time used is charged, then the
    /// clocks of the seats in `waiting` run.
    pub fn after_move(self, waiting: [bool; 2], now: NaiveDateTime) -> Self {
        Self {
            left_ms: self.left_at(now),
            running: waiting,
            since: now,
            ..self
        }
    }

    /// When the first running clock runs out, if nothing happens first.
    pub fn deadline(&self) -> Option<NaiveDateTime> {
        let left = Seat::BOTH
            .into_iter()
            .filter(|seat| self.runs(*seat))
            .map(|seat| self.left_ms[seat.index()])
            .min()?;
        Some(self.since + Duration::milliseconds(left.max(0)))
    }

    /// The clocks once the time from `last_served` to `now`, when no
    /// instance served, is not charged: the time they ran while served
    /// stays charged, the rest is given back.
    pub fn credited(self, last_served: NaiveDateTime, now: NaiveDateTime) -> Self {
        let not_served = now - self.since.max(last_served);
        Self {
            since: self.since + not_served.max(Duration::zero()),
            ..self
        }
    }

    /// Whose clocks run, as stored and as the API says it: "a", "b", "ab".
    pub fn running_code(&self) -> Option<&'static str> {
        match self.running {
            [true, true] => Some("ab"),
            [true, false] => Some("a"),
            [false, true] => Some("b"),
            [false, false] => None,
        }
    }

    /// Whose clocks run, read from its stored code (anything else: none).
    pub fn running_of(code: Option<&str>) -> [bool; 2] {
        match code {
            Some("ab") => [true, true],
            Some("a") => [true, false],
            Some("b") => [false, true],
            _ => [false, false],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> NaiveDateTime {
        chrono::DateTime::from_timestamp(1_800_000_000 + seconds, 0)
            .unwrap()
            .naive_utc()
    }

    fn running_a_since(since: NaiveDateTime) -> ChessClocks {
        ChessClocks::new(60_000, since).after_move([true, false], since)
    }

    #[test]
    fn only_the_running_clock_is_charged_and_a_move_hands_it_over() {
        let clocks = running_a_since(at(0));
        assert_eq!(clocks.left_at(at(15)), [45_000, 60_000]);
        assert_eq!(clocks.out_of_time(at(59)), None);
        assert_eq!(clocks.out_of_time(at(60)), Some(Seat::A));
        assert_eq!(clocks.deadline(), Some(at(60)));
        let moved = clocks.after_move([false, true], at(10));
        assert_eq!(moved.left_at(at(20)), [50_000, 50_000]);
        assert_eq!(moved.running_code(), Some("b"));
        let stopped = moved.after_move([false, false], at(20));
        assert_eq!(stopped.deadline(), None);
        assert_eq!(stopped.left_at(at(500)), [50_000, 50_000]);
    }

    #[test]
    fn only_the_time_served_is_charged() {
        // Running since 0, last served at 10, back at 70: 10 s charged.
        let back = running_a_since(at(0)).credited(at(10), at(70));
        assert_eq!(back.left_at(at(70)), [50_000, 60_000]);
        // Started running after the last note: nothing charged.
        let back = running_a_since(at(12)).credited(at(10), at(70));
        assert_eq!(back.left_at(at(70)), [60_000, 60_000]);
        // A clock set in the future (another instance's clock ahead) stays.
        assert_eq!(
            running_a_since(at(80)).credited(at(10), at(70)).since,
            at(80)
        );
    }

    #[test]
    fn the_stored_code_reads_back() {
        for running in [[true, true], [true, false], [false, true], [false, false]] {
            let clocks = ChessClocks {
                running,
                ..ChessClocks::new(1, at(0))
            };
            assert_eq!(ChessClocks::running_of(clocks.running_code()), running);
        }
        assert_eq!(ChessClocks::running_of(Some("x")), [false, false]);
    }
}
