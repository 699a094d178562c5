//! Hosted play: games the engine adjudicates, stored as logs. Who may send
//! a command, the version check that lets one writer win, idempotent
//! retries and the bots' turns live here; web handlers only call these.
//!
//! A command is decided against the state rebuilt from the newest snapshot
//! and the facts after it, and its facts (with any bot replies) are stored
//! in the same write transaction that moves the game's version on from the
//! one the sender saw. A second writer at that version finds it moved and
//! is told so; nothing of its command is written.

use chrono::NaiveDateTime;
use soulstone_engine::bot::BotKind;
use soulstone_engine::content::Catalog;
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::encounter::{Brought, GivenScenario, new_encounter_in};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::log::{GameLog, LOG_FORMAT, LoggedCommand, RULES_VERSION};
use soulstone_engine::state::NewGame;
use soulstone_engine::{Event, GameState, PlayerCommand, Seat, Submission, Viewer};

use crate::db::hosted::{self as db_hosted, HostedGameRow, NewFact, NewHostedGame};
use crate::db::{DbConnection, DbError, WriteTransaction};

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

/// Why a game was stopped before the rules ended it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
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
    fn ended_by(self) -> EndedBy {
        match self {
            Self::Time { .. } => EndedBy::Time,
            Self::Resignation { .. } => EndedBy::Resignation,
            Self::Absence { .. } => EndedBy::Absence,
        }
    }
}

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatHolder {
    Account(i64),
    Bot(BotKind),
}

/// A hosted game with its state rebuilt.
#[derive(Debug, Clone)]
pub struct HostedGame {
    pub id: i64,
    pub kind: HostedKind,
    /// The event pairing it decides, if any.
    pub pairing_game_id: Option<i64>,
    pub status: HostedStatus,
    pub seats: [SeatHolder; 2],
    pub state: GameState,
    pub clocks: Option<Clocks>,
    pub ended_by: Option<EndedBy>,
    /// When the game last moved on.
    pub updated_at: NaiveDateTime,
}

impl HostedGame {
    /// Whether a searching bot is to move: the game waits on
    /// [`bot_turns::BotTurns`], not on a player.
    pub fn searching_bot_due(&self) -> bool {
        self.status == HostedStatus::Playing
            && bot_turns::searching_bot_due(&self.seats, &self.state).is_some()
    }

    /// How many whole minutes the game has waited only for `seat`'s
    /// opponent, if that is what it does (an absent opponent may then be
    /// claimed); None while it waits for `seat`, for both, or is over.
    pub fn waiting_on_opponent_of(&self, seat: Seat, now: NaiveDateTime) -> Option<i64> {
        if self.state.ended {
            return None;
        }
        let waiting = soulstone_engine::pending(&self.state).seats();
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
pub enum Submitted {
    /// Applied now: the facts it (and any quick bot's replies) added;
    /// `bot_to_move` when a searching bot is to reply, which it does on
    /// [`bot_turns::BotTurns`]' threads, not in this request.
    Applied {
        version: u64,
        facts: Vec<Event>,
        bot_to_move: bool,
    },
    /// This key was applied before; nothing new happened.
    Repeated { version: u64 },
}

impl Submitted {
    pub fn version(&self) -> u64 {
        match self {
            Submitted::Applied { version, .. } | Submitted::Repeated { version } => *version,
        }
    }
}

/// A crew list a player brings, under a name of their choosing.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct BroughtList {
    pub name: String,
    pub list: CrewList,
}

/// Crew lists one player may bring to a game at most.
pub const MAX_BROUGHT_LISTS: usize = 5;

/// Checks what a player brings: one to five lists, each hiring legally
/// with the content (and, where a size or an edition is given, hired for
/// it: an event's). The message names the list and what is wrong.
pub fn check_brought(
    catalog: &Catalog,
    lists: &[BroughtList],
    size: Option<u8>,
    edition: Option<soulstone_engine::Edition>,
) -> Result<(), String> {
    use soulstone_engine::content::crew::MAX_LIST_MODELS;
    if lists.is_empty() || lists.len() > MAX_BROUGHT_LISTS {
        return Err(format!("Bring 1 to {MAX_BROUGHT_LISTS} crew lists."));
    }
    for brought in lists {
        if brought.list.models.len() > MAX_LIST_MODELS {
            return Err(format!("{}: that list is far too long.", brought.name));
        }
        if let Some(edition) = edition
            && brought.list.edition != edition
        {
            return Err(format!(
                "{} is a {} list; this game plays {}.",
                brought.name,
                brought.list.edition.name(),
                edition.name()
            ));
        }
        if let Err(problems) = brought.list.hire(catalog) {
            let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
            return Err(format!("{}: {}", brought.name, text.join("; ")));
        }
        if let Some(size) = size
            && brought.list.size != size
        {
            return Err(format!(
                "{} is hired for {} soulstones; this game plays {size}.",
                brought.name, brought.list.size
            ));
        }
    }
    Ok(())
}

pub mod bot_turns;
pub mod clocks;
pub mod event_games;
pub mod invitations;
pub mod limits;
mod play_on;
pub mod seal;

use clocks::clocks_after;
pub use clocks::{Clocks, clock_runs, clocks_left, out_of_time};

pub use play_on::{
    Forced, apply_standing_answers, forced_for, set_standing_answers, standing_answers,
};
use play_on::{play_on, play_on_and_store, record_forced, standing_answers_of};

/// A practice game as a player asks for it: they sit in seat A with the
/// lists they bring; the bot sits in seat B with its own.
#[derive(Debug, Clone)]
pub struct PracticeRequest {
    pub account_id: i64,
    pub lists: Vec<BroughtList>,
    pub bot: BotKind,
    pub bot_lists: Vec<BroughtList>,
    /// The server seed (random for a real game).
    pub seed: Bytes32,
    /// Each player's time for the game (none: untimed).
    pub time_control_ms: Option<i64>,
}

/// The encounter two players' brought lists make, from `seed`.
fn encounter_for(
    catalog: &Catalog,
    lists: [&[BroughtList]; 2],
    seed: Bytes32,
    scenario: Option<&GivenScenario>,
) -> Result<NewGame, HostedError> {
    let brought = lists.map(|lists| {
        lists
            .iter()
            .map(|b| Brought {
                name: &b.name,
                list: &b.list,
            })
            .collect::<Vec<_>>()
    });
    new_encounter_in(catalog, [&brought[0], &brought[1]], seed, None, scenario)
        .map_err(|e| HostedError::Invalid(e.to_string()))
}

/// Starts a practice game; the bot plays until the game waits for the
/// player.
pub fn start_practice(
    conn: &mut DbConnection,
    catalog: &Catalog,
    request: &PracticeRequest,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let setup = encounter_for(
        catalog,
        [&request.lists, &request.bot_lists],
        request.seed,
        None,
    )?;
    let seats = [
        SeatHolder::Account(request.account_id),
        SeatHolder::Bot(request.bot),
    ];
    conn.write_transaction(|conn| {
        limits::admit(
            conn,
            request.account_id,
            limits::Creating::PracticeGame,
            now,
        )?;
        create(
            conn,
            Creation {
                kind: HostedKind::Practice,
                pairing_game_id: None,
                seats,
                time_control_ms: request.time_control_ms,
            },
            setup,
            now,
        )
    })
}

/// Starts the game deciding an event pairing, once both players have
/// brought their crews (`event_games` says when).
pub fn start_for_pairing(
    conn: &mut DbConnection,
    catalog: &Catalog,
    pairing: &PairingStart<'_>,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let PairingStart {
        pairing_game_id,
        accounts,
        lists,
        seed,
        time_control_ms,
        scenario,
    } = *pairing;
    let setup = encounter_for(catalog, lists, seed, scenario)?;
    let seats = accounts.map(SeatHolder::Account);
    create(
        conn,
        Creation {
            kind: HostedKind::Event,
            pairing_game_id: Some(pairing_game_id),
            seats,
            time_control_ms,
        },
        setup,
        now,
    )
}

/// A game between two accounts, outside any event.
pub fn start_casual(
    conn: &mut DbConnection,
    catalog: &Catalog,
    accounts: [i64; 2],
    lists: [&[BroughtList]; 2],
    seed: Bytes32,
    time_control_ms: Option<i64>,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let setup = encounter_for(catalog, lists, seed, None)?;
    create(
        conn,
        Creation {
            kind: HostedKind::Casual,
            pairing_game_id: None,
            seats: accounts.map(SeatHolder::Account),
            time_control_ms,
        },
        setup,
        now,
    )
}

/// An event pairing's game, as `event_games` starts it.
#[derive(Debug, Clone, Copy)]
pub struct PairingStart<'a> {
    pub pairing_game_id: i64,
    pub accounts: [i64; 2],
    pub lists: [&'a [BroughtList]; 2],
    pub seed: Bytes32,
    pub time_control_ms: Option<i64>,
    /// The round's scenario for this table (none: the game flips its own).
    pub scenario: Option<&'a GivenScenario>,
}

/// What a new game is, besides its setup.
struct Creation {
    kind: HostedKind,
    pairing_game_id: Option<i64>,
    seats: [SeatHolder; 2],
    time_control_ms: Option<i64>,
}

fn create(
    conn: &mut DbConnection,
    creation: Creation,
    setup: NewGame,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let Creation {
        kind,
        pairing_game_id,
        seats,
        time_control_ms,
    } = creation;
    let mut state =
        GameState::new(setup.clone()).map_err(|e| HostedError::Invalid(e.to_string()))?;
    let setup_json = serde_json::to_string(&setup).map_err(|e| HostedError::Corrupt {
        id: 0,
        reason: e.to_string(),
    })?;
    let account = |seat: Seat| match seats[seat.index()] {
        SeatHolder::Account(id) => Some(id),
        SeatHolder::Bot(_) => None,
    };
    let bot = |seat: Seat| match seats[seat.index()] {
        SeatHolder::Bot(kind) => Some(bot_code(kind)),
        SeatHolder::Account(_) => None,
    };
    conn.write_transaction(|conn| {
        let id = db_hosted::insert_game(
            conn,
            &NewHostedGame {
                kind: kind.into(),
                pairing_game_id,
                seat_a_account_id: account(Seat::A),
                seat_b_account_id: account(Seat::B),
                seat_a_bot: bot(Seat::A),
                seat_b_bot: bot(Seat::B),
                status: HostedStatus::Playing,
                rules_version: i32::try_from(RULES_VERSION).unwrap_or(i32::MAX),
                log_format: i32::try_from(LOG_FORMAT).unwrap_or(i32::MAX),
                setup: &setup_json,
                version: 0,
                time_control_ms,
                clock_a_ms: time_control_ms,
                clock_b_ms: time_control_ms,
                clock_since: time_control_ms.map(|_| now),
                created_at: now,
                updated_at: now,
            },
        )?;
        let mut made = Made::default();
        let mut forced = Vec::new();
        let takers = standing_answers_of(conn, &seats)?;
        play_on(id, &seats, takers, &mut state, &mut made, &mut forced)?;
        let clocks = time_control_ms.map(|control| Clocks {
            control_ms: control,
            left_ms: [control; 2],
            running: None,
            since: now,
        });
        let stored = Stored {
            id,
            pairing_game_id,
            seats,
            clocks,
        };
        store(conn, &stored, 0, &state, &made, None, now)?;
        record_forced(conn, id, &forced, now)?;
        Ok(id)
    })
}

fn bot_code(kind: BotKind) -> &'static str {
    match kind {
        BotKind::Random => "random",
        BotKind::Greedy => "greedy",
        BotKind::Normal => "normal",
        BotKind::Hard => "hard",
    }
}

fn seat_code(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "a",
        Seat::B => "b",
    }
}

fn corrupt(id: i64) -> impl Fn(String) -> HostedError {
    move |reason| HostedError::Corrupt { id, reason }
}

fn row_to_game(conn: &mut DbConnection, row: HostedGameRow) -> Result<HostedGame, HostedError> {
    let id = row.id;
    let bad = corrupt(id);
    let kind = row
        .kind
        .parse::<HostedKind>()
        .map_err(|_| bad(format!("kind {:?}", row.kind)))?;
    let status = row.status;
    let holder = |account: Option<i64>, bot: &Option<String>| match (account, bot) {
        (Some(id), _) => Ok(SeatHolder::Account(id)),
        (None, Some(kind)) => kind.parse::<BotKind>().map(SeatHolder::Bot).map_err(&bad),
        // An account deleted since: the seat is nobody's now.
        (None, None) => Ok(SeatHolder::Account(0)),
    };
    let seats = [
        holder(row.seat_a_account_id, &row.seat_a_bot)?,
        holder(row.seat_b_account_id, &row.seat_b_bot)?,
    ];
    let state = rebuild(conn, &row)?;
    let clocks = row.clocks();
    let ended_by = row.ended_by.as_deref().and_then(|e| e.parse().ok());
    Ok(HostedGame {
        id,
        kind,
        pairing_game_id: row.pairing_game_id,
        status,
        seats,
        state,
        clocks,
        ended_by,
        updated_at: row.updated_at,
    })
}

/// The state at the row's version: the newest snapshot, then the facts
/// after it.
fn rebuild(conn: &mut DbConnection, row: &HostedGameRow) -> Result<GameState, HostedError> {
    rebuild_to(conn, row, row.version)
}

/// The state after fact `version` (at most the row's), from the newest
/// snapshot at or before it and the facts after that.
fn rebuild_to(
    conn: &mut DbConnection,
    row: &HostedGameRow,
    version: i64,
) -> Result<GameState, HostedError> {
    let bad = corrupt(row.id);
    let version = version.min(row.version);
    // A snapshot is the engine's own state, which a newer engine may read
    // differently: a game stored under another rules version (or with a
    // snapshot that no longer reads) is rebuilt from its setup and facts,
    // whose format the log format keeps.
    let snapshot = if i64::from(row.rules_version) == i64::from(RULES_VERSION) {
        db_hosted::latest_snapshot(conn, row.id, version)?.and_then(|(seq, json)| {
            serde_json::from_str::<GameState>(&json)
                .ok()
                .map(|state| (state, seq))
        })
    } else {
        None
    };
    let (mut state, from) = match snapshot {
        Some((state, seq)) => (state, seq),
        None => {
            let setup: NewGame =
                serde_json::from_str(&row.setup).map_err(|e| bad(e.to_string()))?;
            (GameState::new(setup).map_err(|e| bad(e.to_string()))?, 0)
        }
    };
    for (seq, json) in db_hosted::facts_after(conn, row.id, from)? {
        if seq > version {
            break;
        }
        let fact: Event =
            serde_json::from_str(&json).map_err(|e| bad(format!("fact {seq}: {e}")))?;
        soulstone_engine::apply(&mut state, &fact);
    }
    if i64::try_from(state.version).ok() != Some(version) {
        return Err(bad(format!(
            "the log rebuilds version {}, the row says {version}",
            state.version
        )));
    }
    Ok(state)
}

/// The game as it stood after the last fact written at or before `until`
/// (what a spectator watching with a delay sees).
pub fn load_as_of(
    conn: &mut DbConnection,
    id: i64,
    until: NaiveDateTime,
) -> Result<HostedGame, HostedError> {
    let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
    let version = db_hosted::last_seq_written_by(conn, id, until)?;
    let row_version = row.version;
    let early = (version < row_version)
        .then(|| rebuild_to(conn, &row, version))
        .transpose()?;
    let mut game = row_to_game(conn, row)?;
    if let Some(state) = early {
        game.state = state;
        // The end, the clocks and the score are not told before their time.
        game.status = HostedStatus::Playing;
        game.ended_by = None;
    }
    Ok(game)
}

/// The seat `account_id` holds in game `id`, read from its row alone
/// (without rebuilding the state).
pub fn seat_in(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
) -> Result<Option<Seat>, HostedError> {
    let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
    Ok(if row.seat_a_account_id == Some(account_id) {
        Some(Seat::A)
    } else if row.seat_b_account_id == Some(account_id) {
        Some(Seat::B)
    } else {
        None
    })
}

pub fn load(conn: &mut DbConnection, id: i64) -> Result<HostedGame, HostedError> {
    let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
    row_to_game(conn, row)
}

/// The facts of a game from `after` on, as stored (for streams and logs).
pub fn facts_after(
    conn: &mut DbConnection,
    id: i64,
    after: u64,
) -> Result<Vec<(u64, Event)>, HostedError> {
    let bad = corrupt(id);
    db_hosted::facts_after(conn, id, i64::try_from(after).unwrap_or(i64::MAX))?
        .into_iter()
        .map(|(seq, json)| {
            let fact = serde_json::from_str(&json).map_err(|e| bad(format!("fact {seq}: {e}")))?;
            Ok((u64::try_from(seq).unwrap_or_default(), fact))
        })
        .collect()
}

/// Facts a delayed spectator may have now, and when the next was written.
pub type DelayedFacts = (Vec<(u64, Event)>, Option<NaiveDateTime>);

/// The facts after `after` written at or before `until` (a delayed
/// spectator's share), and when the next, not yet old enough, was written.
pub fn facts_written_by(
    conn: &mut DbConnection,
    id: i64,
    after: u64,
    until: NaiveDateTime,
) -> Result<DelayedFacts, HostedError> {
    let bad = corrupt(id);
    let (rows, next) =
        db_hosted::facts_written_by(conn, id, i64::try_from(after).unwrap_or(i64::MAX), until)?;
    let facts = rows
        .into_iter()
        .map(|(seq, json)| {
            let fact = serde_json::from_str(&json).map_err(|e| bad(format!("fact {seq}: {e}")))?;
            Ok((u64::try_from(seq).unwrap_or_default(), fact))
        })
        .collect::<Result<_, HostedError>>()?;
    Ok((facts, next))
}

/// A finished game's log, for replays, downloads and verification: every
/// fact in full (the game is over and its seed revealed), but of the crews
/// each player brought only the one they hired: the others stay theirs, as
/// they may bring them to another game.
pub fn finished_log(conn: &mut DbConnection, id: i64) -> Result<GameLog, HostedError> {
    let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
    if row.status != HostedStatus::Finished {
        return Err(HostedError::NotOver);
    }
    let bad = corrupt(id);
    let mut setup: NewGame = serde_json::from_str(&row.setup).map_err(|e| bad(e.to_string()))?;
    let facts: Vec<Event> = facts_after(conn, id, 0)?
        .into_iter()
        .map(|(_, fact)| fact)
        .collect();
    let hired: Option<[String; 2]> = facts.iter().find_map(|fact| match fact {
        Event::DeclarationsRevealed {
            what: soulstone_engine::encounter::Declaration::Crew,
            choices,
        } => Some(choices.clone()),
        _ => None,
    });
    if let Some(encounter) = setup.encounter.as_mut() {
        for (offers, hired) in encounter.offers.iter_mut().zip(
            hired
                .iter()
                .flat_map(|h| h.iter().map(Some))
                .chain(std::iter::repeat(None)),
        ) {
            if let Some(list) = offers.value.as_mut() {
                list.retain(|offer| Some(&offer.name) == hired);
            }
        }
    }
    let commands = db_hosted::submissions_of(conn, id)?
        .into_iter()
        .map(|(at_fact, json)| {
            Ok(LoggedCommand {
                at_fact: u32::try_from(at_fact).map_err(|e| bad(e.to_string()))?,
                submission: serde_json::from_str(&json).map_err(|e| bad(e.to_string()))?,
            })
        })
        .collect::<Result<Vec<LoggedCommand>, HostedError>>()?;
    // A game begun before commands were kept has only its later ones:
    // they cannot be played from the setup, so the log keeps none.
    let commands = if commands.first().is_some_and(|c| c.at_fact == 0) {
        commands
    } else {
        Vec::new()
    };
    Ok(GameLog {
        log_format: u32::try_from(row.log_format).unwrap_or_default(),
        rules_version: u32::try_from(row.rules_version).unwrap_or_default(),
        setup,
        facts,
        commands,
        seal: None,
    })
}

/// A player's command, from the seat their account holds. Applied once per
/// idempotency key; refused, with nothing written, when the game has moved
/// on from `version` or the rules do not allow it.
pub fn submit(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
    version: u64,
    key: &str,
    command: PlayerCommand,
    now: NaiveDateTime,
) -> Result<Submitted, HostedError> {
    // A clock that ran out ends the game before any command after it.
    flag_if_out_of_time(conn, id, now)?;
    let result = conn.write_transaction(|conn| {
        let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
        let game = row_to_game(conn, row)?;
        let seat = game.seat_of(account_id).ok_or(HostedError::NotAPlayer)?;
        if let Some((_, to)) = db_hosted::find_command(conn, id, seat_code(seat), key)? {
            return Ok(Submitted::Repeated {
                version: u64::try_from(to).unwrap_or_default(),
            });
        }
        if game.status == HostedStatus::Finished || game.state.ended {
            return Err(HostedError::Over);
        }
        let stored = Stored::of(&game);
        let mut state = game.state;
        if version != state.version {
            return Err(HostedError::MovedOn {
                current: state.version,
            });
        }
        if game.clocks.is_some_and(|c| out_of_time(&c, now).is_some()) {
            return Err(HostedError::Over);
        }
        let from = state.version;
        let submission = Submission::player(seat, version, command);
        let mut made = Made::default();
        made.execute(&mut state, submission)
            .map_err(|e| HostedError::Refused(e.to_string()))?;
        play_on_and_store(conn, &stored, from, &mut state, &mut made, now)?;
        db_hosted::insert_command(
            conn,
            id,
            seat_code(seat),
            key,
            (
                i64::try_from(from).unwrap_or(i64::MAX),
                i64::try_from(state.version).unwrap_or(i64::MAX),
            ),
            now,
        )?;
        Ok(Submitted::Applied {
            version: state.version,
            facts: made.facts,
            bot_to_move: bot_turns::searching_bot_due(&stored.seats, &state).is_some(),
        })
    });
    match result {
        // A concurrent writer with the same key got there first: answer
        // as a retry. Any other loser learns the game moved on.
        Err(HostedError::MovedOn { current }) => {
            let game = load(conn, id)?;
            let seat = game.seat_of(account_id).ok_or(HostedError::NotAPlayer)?;
            match db_hosted::find_command(conn, id, seat_code(seat), key)? {
                Some((_, to)) => Ok(Submitted::Repeated {
                    version: u64::try_from(to).unwrap_or_default(),
                }),
                None => Err(HostedError::MovedOn {
                    current: current.max(game.state.version),
                }),
            }
        }
        Err(HostedError::Db(error))
            if error.is_unique_violation() || error.is_transient_conflict() =>
        {
            let game = load(conn, id)?;
            Err(HostedError::MovedOn {
                current: game.state.version,
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
        && row.clocks().is_some_and(|c| out_of_time(&c, now).is_some());
    if !due {
        return Ok(false);
    }
    let flagged = conn.write_transaction(|conn| {
        let game = load(conn, id)?;
        let Some(clocks) = game.clocks else {
            return Ok(false);
        };
        if game.status == HostedStatus::Finished {
            return Ok(false);
        }
        let Some(flagged) = out_of_time(&clocks, now) else {
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
    conn.write_transaction(|conn| {
        let game = load(conn, id)?;
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
    conn.write_transaction(|conn| {
        let game = load(conn, id)?;
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

/// Ends a game before its time: the engine ends it (revealing the seed)
/// and the row records why.
fn stop(
    conn: &mut DbConnection,
    game: HostedGame,
    why: Stop,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    let stored = Stored::of(&game);
    let mut state = game.state;
    let from = state.version;
    let submission = Submission::flow(from, soulstone_engine::FlowCommand::EndGame);
    let mut made = Made::default();
    made.execute(&mut state, submission)
        .map_err(|e| HostedError::Corrupt {
            id: stored.id,
            reason: format!("the game could not be ended: {e}"),
        })?;
    store(conn, &stored, from, &state, &made, Some(why), now)
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

/// Each crew's (strategy, scheme) VP at the end. VP an ability gave count
/// with the strategy's, so the two add up to the crew's total.
fn final_vp(state: &GameState) -> [(i32, i32); 2] {
    Seat::BOTH.map(|seat| {
        let total = i32::from(state.player(seat).victory_points);
        let scheme = state
            .encounter
            .as_deref()
            .map_or(0, |e| i32::from(e.scheme_vp[seat.index()]));
        (total - scheme, scheme)
    })
}

/// What `store` needs to know of the game besides its new state.
struct Stored {
    id: i64,
    pairing_game_id: Option<i64>,
    seats: [SeatHolder; 2],
    clocks: Option<Clocks>,
}

impl Stored {
    fn of(game: &HostedGame) -> Self {
        Self {
            id: game.id,
            pairing_game_id: game.pairing_game_id,
            seats: game.seats,
            clocks: game.clocks,
        }
    }
}

/// The facts commands made since the game's stored version, and each
/// command with the number of those facts made before it: both are kept,
/// so a finished game's log can be played through the rules again.
#[derive(Debug, Default)]
pub(super) struct Made {
    pub facts: Vec<Event>,
    pub commands: Vec<(usize, Submission)>,
}

impl Made {
    /// Executes `submission` on `state`, keeping its facts and itself; a
    /// command that made no fact changed nothing and is not kept.
    pub(super) fn execute(
        &mut self,
        state: &mut GameState,
        submission: Submission,
    ) -> Result<(), soulstone_engine::RuleError> {
        let facts = soulstone_engine::execute(state, &submission)?;
        if !facts.is_empty() {
            self.commands.push((self.facts.len(), submission));
            self.facts.extend(facts);
        }
        Ok(())
    }
}

/// Writes what was `made` (which took the game from `from` to
/// `state.version`), a snapshot when one is due, the clocks, and moves the
/// row on if no one else has. A game that decides an event pairing
/// reports its end there: the final VP when the rules ended it, the
/// organisers' decision when a clock or a resignation did.
fn store(
    conn: &mut DbConnection,
    game: &Stored,
    from: u64,
    state: &GameState,
    made: &Made,
    stopped: Option<Stop>,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    let id = game.id;
    let bad = corrupt(id);
    let from_seq = i64::try_from(from).map_err(|e| bad(e.to_string()))?;
    let to_seq = i64::try_from(state.version).map_err(|e| bad(e.to_string()))?;
    let status = if state.ended {
        HostedStatus::Finished
    } else {
        HostedStatus::Playing
    };
    // Kept as the game goes, for live scores on the round's pages.
    let vp = Some(Seat::BOTH.map(|seat| i32::from(state.player(seat).victory_points)));
    let turn = state.encounter.as_deref().map(|e| i32::from(e.turn));
    let ended_by = state
        .ended
        .then(|| stopped.map_or(EndedBy::Rules, Stop::ended_by));
    let change = db_hosted::GameChange {
        status,
        vp,
        turn,
        ended_by: ended_by.map(EndedBy::code),
        clocks: clocks_after(game.clocks, &game.seats, state, now),
    };
    // The version check first: a loser stops before writing any fact.
    if !db_hosted::advance_version(conn, id, from_seq, to_seq, &change, now)? {
        return Err(HostedError::MovedOn {
            current: state.version,
        });
    }
    let jsons: Vec<String> = made
        .facts
        .iter()
        .map(serde_json::to_string)
        .collect::<Result<_, _>>()
        .map_err(|e| bad(e.to_string()))?;
    let rows: Vec<NewFact<'_>> = jsons
        .iter()
        .zip(from_seq + 1..)
        .map(|(fact, seq)| NewFact {
            game_id: id,
            seq,
            fact,
            at: Some(now),
        })
        .collect();
    db_hosted::insert_facts(conn, &rows)?;
    let commands: Vec<(i64, String)> = made
        .commands
        .iter()
        .map(|(before, submission)| {
            let at_fact = from_seq + i64::try_from(*before).map_err(|e| bad(e.to_string()))?;
            let json = serde_json::to_string(submission).map_err(|e| bad(e.to_string()))?;
            Ok((at_fact, json))
        })
        .collect::<Result<_, HostedError>>()?;
    db_hosted::insert_submissions(conn, id, &commands)?;
    if to_seq / SNAPSHOT_EVERY > from_seq / SNAPSHOT_EVERY {
        let json = serde_json::to_string(state).map_err(|e| bad(e.to_string()))?;
        db_hosted::insert_snapshot(conn, id, to_seq, &json)?;
    }
    if let (true, Some(pairing)) = (state.ended, game.pairing_game_id) {
        use crate::events::results::{EngineEnd, record_engine_result};
        let turn = state.encounter.as_deref().map_or(0, |e| e.turn);
        let vp = final_vp(state);
        let score = format!("{}–{}", vp[0].0 + vp[0].1, vp[1].0 + vp[1].1);
        let disputed = disputed_claims(state);
        let note = match stopped {
            None if !disputed.is_empty() => format!(
                "The rules ended the game at {score}, but the players disputed claims the engine could not check: {}. The organisers decide them.",
                disputed.join("; ")
            ),
            None => String::new(),
            Some(Stop::Time { flagged }) => format!(
                "{}'s clock ran out in turn {turn}, at {score}.",
                seat_name(conn, &game.seats, flagged)?
            ),
            Some(Stop::Resignation { resigned }) => format!(
                "{} resigned in turn {turn}, at {score}: the organisers decide the result.",
                seat_name(conn, &game.seats, resigned)?
            ),
            Some(Stop::Absence { claimant, minutes }) => format!(
                "{} claimed the game in turn {turn}, at {score}: {} had not moved for {minutes} minutes while the game waited for them. The organisers confirm the result.",
                seat_name(conn, &game.seats, claimant)?,
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
        record_engine_result(conn, pairing, vp, end, now)
            .map_err(|e| bad(format!("its result could not be recorded: {e}")))?;
    }
    Ok(())
}

/// The claims one player disputed, in words for the organisers: "turn 2,
/// Player B claimed 2 VP for Night Market".
fn disputed_claims(state: &GameState) -> Vec<String> {
    state
        .encounter
        .as_deref()
        .map(|e| {
            e.choices
                .disputed
                .iter()
                .map(|d| {
                    format!(
                        "turn {}, {} claimed {} VP for {}",
                        d.turn,
                        d.seat.label(),
                        d.vp,
                        d.objective
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}
