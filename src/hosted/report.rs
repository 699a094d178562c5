//! A hosted game that decides an event pairing reports its end there: the
//! final score when the rules ended it, the organisers' decision when a
//! clock, a resignation or a claimed absence did (with a note saying so).

use chrono::NaiveDateTime;
use soulstone_engine::Seat;
use soulstone_engine::system::Score;

use super::store::Stored;
use super::{EndedBy, HostedError, SeatHolder, corrupt};
use crate::db::DbConnection;
use crate::events::results::{EngineEnd, record_engine_result};

/// Why a game was stopped before the rules ended it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// The seat whose clock ran out.
    Time {
        flagged: Seat,
    },
    Resignation {
        resigned: Seat,
    },
    Absence {
        claimant: Seat,
        minutes: i64,
    },
}

impl Stop {
    pub(super) fn ended_by(self) -> EndedBy {
        match self {
            Self::Time { .. } => EndedBy::Time,
            Self::Resignation { .. } => EndedBy::Resignation,
            Self::Absence { .. } => EndedBy::Absence,
        }
    }
}

/// How a game ended, as the event is told.
pub(super) struct GameEnd {
    pub score: Score,
    /// Claims the players disputed that the rules could not settle.
    pub disputed: Vec<String>,
    pub stopped: Option<Stop>,
}

/// Records the end of `game` as the result of event pairing `pairing`.
pub(super) fn report_to_event(
    conn: &mut DbConnection,
    game: &Stored,
    pairing: i64,
    end: &GameEnd,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    let GameEnd {
        score,
        disputed,
        stopped,
    } = end;
    let turn = score.turn;
    let tally = score.tally;
    let score = format!("{}–{}", score.total[0], score.total[1]);
    let note = match stopped {
        None if !disputed.is_empty() => format!(
            "The rules ended the game at {score}, but the players disputed claims the engine could not check: {}. The organisers decide them.",
            disputed.join("; ")
        ),
        None => String::new(),
        Some(Stop::Time { flagged }) => format!(
            "{}'s clock ran out in turn {turn}, at {score}.",
            seat_name(conn, &game.seats, *flagged)?
        ),
        Some(Stop::Resignation { resigned }) => format!(
            "{} resigned in turn {turn}, at {score}: the organisers decide the result.",
            seat_name(conn, &game.seats, *resigned)?
        ),
        Some(Stop::Absence { claimant, minutes }) => format!(
            "{} claimed the game in turn {turn}, at {score}: {} had not moved for {minutes} minutes while the game waited for them. The organisers confirm the result.",
            seat_name(conn, &game.seats, *claimant)?,
            seat_name(conn, &game.seats, claimant.other())?
        ),
    };
    let end = match stopped {
        None if !disputed.is_empty() => EngineEnd::DisputedClaims { note: &note },
        None => EngineEnd::Rules,
        Some(Stop::Time { .. }) => EngineEnd::Time { note: &note },
        Some(Stop::Resignation { .. }) => EngineEnd::Resignation { note: &note },
        Some(Stop::Absence { .. }) => EngineEnd::Absence { note: &note },
    };
    record_engine_result(conn, pairing, tally, end, now)
        .map_err(|e| corrupt(game.id)(format!("its result could not be recorded: {e}")))
}

/// Who holds a seat, as the notes to the organisers name them: the
/// account's name, the seat's label ("Player A") if the account is gone,
/// or the bot's.
fn seat_name(
    conn: &mut DbConnection,
    seats: &[SeatHolder; 2],
    seat: Seat,
) -> Result<String, HostedError> {
    Ok(match seats[seat.index()] {
        SeatHolder::Account(id) => crate::db::accounts::find_by_id(conn, id)?
            .map_or_else(|| seat.label().to_owned(), |account| account.display_name),
        SeatHolder::Bot(kind) => format!("The {} bot", kind.level_name()),
    })
}
