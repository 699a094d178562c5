//! Hosted play: games the engine adjudicates, stored as logs. Who may send
//! a command, the version check that lets one writer win, idempotent
//! retries and the bots' turns live here; web handlers only call these.
//!
//! A command is decided against the state rebuilt from the newest snapshot
//! and the facts after it, and its facts (with any bot replies) are stored
//! in the same write transaction that moves the game's version on from the
//! one the sender saw. A second writer at that version finds it moved and
//! is told so; nothing of its command is written.
//!
//! The host knows a game system only through
//! `soulstone_engine::system::TableGame` (its setup, commands, facts,
//! state, score and bots): a game's row names the system that plays it,
//! and `systems` finds that system's share of the work by it.

use chrono::NaiveDateTime;
use soulstone_engine::bot::BotKind;
use soulstone_engine::system::{Malifaux, TableGame};
use soulstone_engine::{Seat, Viewer};

use crate::db::{DbConnection, DbError};

/// A snapshot of the state is stored every this many facts, so loading a
/// game applies at most this many.
pub const SNAPSHOT_EVERY: i64 = 400;

/// Bot commands answered after one player's command, at most: far more
/// than a whole turn of a bot's decisions.
const MAX_BOT_COMMANDS: usize = 5_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum HostedKind {
    /// Against the engine's bots; no event.
    Practice,
    /// An event pairing the organisers had played in the browser.
    Event,
    /// Two accounts, no event.
    Casual,
}

pub use crate::db::status::HostedStatus;

impl HostedStatus {
    pub fn label(self) -> &'static str {
        match self {
            HostedStatus::Playing => "In play",
            HostedStatus::Finished => "Finished",
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum EndedBy {
    /// After turn 4, as the rules end it.
    Rules,
    /// A player's clock ran out.
    Time,
    Resignation,
    /// A player claimed their opponent had gone (event games: the
    /// organisers confirm).
    Absence,
}

impl EndedBy {
    pub fn code(self) -> &'static str {
        self.into()
    }
}

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatHolder {
    Account(i64),
    Bot(BotKind),
}

/// A hosted game of system `G` with its state rebuilt.
#[derive(Debug, Clone)]
pub struct HostedGame<G: TableGame = Malifaux> {
    pub id: i64,
    pub kind: HostedKind,
    /// The event pairing it decides, if any.
    pub pairing_game_id: Option<i64>,
    pub status: HostedStatus,
    pub seats: [SeatHolder; 2],
    pub state: G::State,
    pub clocks: Option<ChessClocks>,
    pub ended_by: Option<EndedBy>,
    /// When the game last moved on.
    pub updated_at: NaiveDateTime,
}

impl<G: TableGame> HostedGame<G> {
    /// Whether a searching bot is to move: the game waits on
    /// [`bot_turns::BotTurns`], not on a player.
    pub fn searching_bot_due(&self) -> bool {
        self.status == HostedStatus::Playing
            && bot_turns::searching_bot_due::<G>(&self.seats, &self.state).is_some()
    }

    /// How many whole minutes the game has waited only for `seat`'s
    /// opponent, if that is what it does (an absent opponent may then be
    /// claimed); None while it waits for `seat`, for both, or is over.
    pub fn waiting_on_opponent_of(&self, seat: Seat, now: NaiveDateTime) -> Option<i64> {
        if G::is_over(&self.state) {
            return None;
        }
        let waiting = G::waiting_for(&self.state);
        (!waiting.is_empty() && waiting.iter().all(|s| *s == seat.other()))
            .then(|| (now - self.updated_at).num_minutes())
    }

    /// The seat `account_id` holds, if any.
    pub fn seat_of(&self, account_id: i64) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|seat| self.seats[seat.index()] == SeatHolder::Account(account_id))
    }

    /// How `account_id` sees the game: as a player, or as a spectator.
    pub fn viewer_for(&self, account_id: Option<i64>) -> Viewer {
        account_id
            .and_then(|id| self.seat_of(id))
            .map_or(Viewer::Spectator, Viewer::Player)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum HostedError {
    #[error("there is no such game")]
    NotFound,
    #[error("you are not playing in this game")]
    NotAPlayer,
    /// Another command reached the game first: the sender's view is stale.
    #[error("the game moved on (it is at version {current}): look again and choose anew")]
    MovedOn { current: u64 },
    /// The rules refuse the command; nothing changed.
    #[error("{0}")]
    Refused(String),
    #[error("the game is over")]
    Over,
    #[error("the game is not over yet")]
    NotOver,
    /// What the player asked for cannot start a game (a crew list, say).
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Db(#[from] DbError),
    /// The event a game decides refused what was asked (a game's watching
    /// rules read from it).
    #[error(transparent)]
    Event(#[from] crate::events::EventError),
    /// A game another game system plays (or one this build does not know)
    /// was asked for as this system's.
    #[error("game {id} is played by the {stored:?} rules, not these")]
    OtherSystem { id: i64, stored: String },
    /// A stored game the engine cannot read back: a bug or a damaged row.
    #[error("stored game {id} cannot be read: {reason}")]
    Corrupt { id: i64, reason: String },
}

impl From<diesel::result::Error> for HostedError {
    fn from(error: diesel::result::Error) -> Self {
        HostedError::Db(error.into())
    }
}

/// What a command did.
#[derive(Debug, Clone, PartialEq)]
pub enum Submitted<G: TableGame = Malifaux> {
    /// Applied now: the facts it (and any quick bot's replies) added;
    /// `bot_to_move` when a searching bot is to reply, which it does on
    /// [`bot_turns::BotTurns`]' threads, not in this request.
    Applied {
        version: u64,
        facts: Vec<G::Fact>,
        bot_to_move: bool,
    },
    /// This key was applied before; nothing new happened.
    Repeated { version: u64 },
}

impl<G: TableGame> Submitted<G> {
    pub fn version(&self) -> u64 {
        match self {
            Submitted::Applied { version, .. } | Submitted::Repeated { version } => *version,
        }
    }
}

pub mod bot_turns;
mod bringing;
pub mod brought;
pub mod clocks;
mod crews;
pub mod event_games;
mod first_edition;
pub mod invitations;
pub mod limits;
mod mage_knight;
mod moves;
mod play_on;
mod report;
pub mod seal;
mod store;
mod systems;

pub use clocks::ChessClocks;
pub use crews::{
    BroughtList, CasualStart, MAX_BROUGHT_LISTS, PairingStart, PracticeRequest, check_brought,
    start_casual, start_for_pairing, start_practice,
};
pub use first_edition::{CrewGame, CrewPractice, ready_crew, start_crew_game, start_crew_practice};
pub use mage_knight::{
    ArmyGame, ArmyPractice, check_army, ready_army, start_army_game, start_army_practice,
};
pub use moves::{claim_absence, flag_if_out_of_time, resign, submit};
pub use play_on::{
    Forced, apply_standing_answers, forced_for, set_standing_answers, standing_answers,
};
use report::Stop;
pub use store::{
    DelayedFacts, facts_after, facts_written_by, finished_log, load, load_as_of, recorded_content,
};

fn seat_code(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "a",
        Seat::B => "b",
    }
}

fn corrupt(id: i64) -> impl Fn(String) -> HostedError {
    move |reason| HostedError::Corrupt { id, reason }
}

/// The newest `limit` games `account_id` plays (or played), as their rows
/// list them.
pub fn games_of(
    conn: &mut DbConnection,
    account_id: i64,
    limit: i64,
) -> Result<Vec<crate::db::hosted::HostedGameRow>, HostedError> {
    Ok(crate::db::hosted::games_of(conn, account_id, limit)?)
}

/// The seat `account_id` holds in game `id`, read from its row alone
/// (without rebuilding the state).
pub fn seat_in(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
) -> Result<Option<Seat>, HostedError> {
    let row = crate::db::hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
    Ok(if row.seat_a_account_id == Some(account_id) {
        Some(Seat::A)
    } else if row.seat_b_account_id == Some(account_id) {
        Some(Seat::B)
    } else {
        None
    })
}
