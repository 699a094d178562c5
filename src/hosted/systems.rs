//! The game systems the host plays, by the code each stores with its games
//! (`TableGame::CODE`). The work a caller asks for by a game's id alone (a
//! clock's flag, a resignation, a claimed absence, a searching bot's turn,
//! a player's new standing answers)
//! is found here for the system that plays it: registering a system is one
//! `if` in [`plays`].

use chrono::NaiveDateTime;
use soulstone_engine::system::{FirstEdition, MageKnight, Malifaux, TableGame};

use super::HostedError;
use crate::db::DbConnection;
use crate::db::hosted as db_hosted;

type Flag = fn(&mut DbConnection, i64, NaiveDateTime) -> Result<bool, HostedError>;
type Resign = fn(&mut DbConnection, i64, i64, NaiveDateTime) -> Result<(), HostedError>;
type ClaimAbsence =
    fn(&mut DbConnection, i64, i64, chrono::Duration, NaiveDateTime) -> Result<(), HostedError>;
type BotTurn = fn(&mut DbConnection, i64, NaiveDateTime) -> Result<Option<u64>, HostedError>;
type StandingAnswers =
    fn(&mut DbConnection, i64, i64, NaiveDateTime) -> Result<Option<u64>, HostedError>;

/// A system's share of the host's work, as plain functions.
pub(super) struct Plays {
    pub flag: Flag,
    pub resign: Resign,
    pub claim_absence: ClaimAbsence,
    pub searching_bot_turn: BotTurn,
    pub standing_answers: StandingAnswers,
}

impl Plays {
    fn of<G: TableGame>() -> Self {
        Self {
            flag: super::moves::flag::<G>,
            resign: super::moves::resign_in::<G>,
            claim_absence: super::moves::claim_absence_in::<G>,
            searching_bot_turn: super::bot_turns::searching_bot_turn::<G>,
            standing_answers: super::play_on::apply_standing_answers_in::<G>,
        }
    }
}

/// The host's work for the system stored as `code` (game `id`'s).
pub(super) fn plays(id: i64, code: &str) -> Result<Plays, HostedError> {
    if code == Malifaux::CODE {
        return Ok(Plays::of::<Malifaux>());
    }
    if code == MageKnight::CODE {
        return Ok(Plays::of::<MageKnight>());
    }
    if code == FirstEdition::CODE {
        return Ok(Plays::of::<FirstEdition>());
    }
    Err(HostedError::OtherSystem {
        id,
        stored: code.to_owned(),
    })
}

/// The host's work for the system that plays game `id` (read from its row).
pub(super) fn plays_of(conn: &mut DbConnection, id: i64) -> Result<Plays, HostedError> {
    let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
    plays(id, &row.table_game)
}
