//! A hosted game as stored: its row, its setup, its facts with a snapshot
//! every [`SNAPSHOT_EVERY`], and the commands that made them. Games are
//! created, read back and moved on here, for any game system, through
//! [`TableGame`] alone.

use chrono::NaiveDateTime;
use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::system::TableGame;

use super::clocks::{ChessClocks, clocks_after};
use super::play_on::{Forced, play_on, record_forced, standing_answers_of};
use super::{
    EndedBy, HostedError, HostedGame, HostedKind, HostedStatus, SNAPSHOT_EVERY, SeatHolder, Stop,
    corrupt,
};
use crate::content::ContentStamp;
use crate::db::hosted::{self as db_hosted, HostedGameRow, NewFact, NewHostedGame};
use crate::db::{DbConnection, WriteTransaction};

/// What a new game is, besides its setup.
pub(super) struct Creation<'a> {
    pub kind: HostedKind,
    pub pairing_game_id: Option<i64>,
    pub seats: [SeatHolder; 2],
    pub time_control_ms: Option<i64>,
    /// The hashes of the content the setup was made from.
    pub content: &'a ContentStamp,
}

impl<'a> Creation<'a> {
    /// A game between two accounts: an event pairing's when it decides
    /// one, else a casual one.
    pub(super) fn between(
        accounts: [i64; 2],
        pairing_game_id: Option<i64>,
        time_control_ms: Option<i64>,
        content: &'a ContentStamp,
    ) -> Self {
        Self {
            kind: if pairing_game_id.is_some() {
                HostedKind::Event
            } else {
                HostedKind::Casual
            },
            pairing_game_id,
            seats: accounts.map(SeatHolder::Account),
            time_control_ms,
            content,
        }
    }
}

/// Stores a new game of system `G` from `setup`, and lets its bots play
/// until it waits for a player. Its id.
pub(super) fn create<G: TableGame>(
    conn: &mut DbConnection,
    creation: Creation<'_>,
    setup: G::Setup,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let Creation {
        kind,
        pairing_game_id,
        seats,
        time_control_ms,
        content,
    } = creation;
    let mut state = G::start(setup.clone()).map_err(|e| HostedError::Invalid(e.to_string()))?;
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
                table_game: G::CODE,
                kind: kind.into(),
                pairing_game_id,
                seat_a_account_id: account(Seat::A),
                seat_b_account_id: account(Seat::B),
                seat_a_bot: bot(Seat::A),
                seat_b_bot: bot(Seat::B),
                status: HostedStatus::Playing,
                rules_version: i32::try_from(G::RULES_VERSION).unwrap_or(i32::MAX),
                log_format: i32::try_from(G::LOG_FORMAT).unwrap_or(i32::MAX),
                setup: &setup_json,
                version: 0,
                time_control_ms,
                clock_a_ms: time_control_ms,
                clock_b_ms: time_control_ms,
                clock_since: time_control_ms.map(|_| now),
                created_at: now,
                updated_at: now,
                content_hash: Some(&content.content_hash),
                pack_hash: content.pack_hash.as_deref(),
            },
        )?;
        let mut made = Made::default();
        let mut forced: Vec<Forced> = Vec::new();
        let takers = standing_answers_of(conn, &seats)?;
        play_on::<G>(id, &seats, takers, &mut state, &mut made, &mut forced)?;
        let clocks = time_control_ms.map(|control| ChessClocks::new(control, now));
        let stored = Stored {
            id,
            pairing_game_id,
            seats,
            clocks,
        };
        store::<G>(conn, &stored, 0, &state, &made, None, now)?;
        record_forced(conn, id, &forced, now)?;
        Ok(id)
    })
}

/// Stores a practice game of system `G`: the player in seat A, the bot
/// in seat B, counted against the player's practice games in the same
/// transaction.
pub(super) fn create_practice<G: TableGame>(
    conn: &mut DbConnection,
    account_id: i64,
    bot: BotKind,
    time_control_ms: Option<i64>,
    content: &ContentStamp,
    setup: G::Setup,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    conn.write_transaction(|conn| {
        super::limits::admit(conn, account_id, super::limits::Creating::PracticeGame, now)?;
        create::<G>(
            conn,
            Creation {
                kind: super::HostedKind::Practice,
                pairing_game_id: None,
                seats: [SeatHolder::Account(account_id), SeatHolder::Bot(bot)],
                time_control_ms,
                content,
            },
            setup,
            now,
        )
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

/// The row of game `id`, refused unless system `G` plays it.
fn find_row<G: TableGame>(conn: &mut DbConnection, id: i64) -> Result<HostedGameRow, HostedError> {
    let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
    if row.table_game != G::CODE {
        return Err(HostedError::OtherSystem {
            id,
            stored: row.table_game,
        });
    }
    Ok(row)
}

pub(super) fn row_to_game<G: TableGame>(
    conn: &mut DbConnection,
    row: HostedGameRow,
) -> Result<HostedGame<G>, HostedError> {
    let id = row.id;
    let bad = corrupt(id);
    if row.table_game != G::CODE {
        return Err(HostedError::OtherSystem {
            id,
            stored: row.table_game,
        });
    }
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
    let state = rebuild_to::<G>(conn, &row, row.version)?;
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

/// The state after fact `version` (at most the row's), from the newest
/// snapshot at or before it and the facts after that.
fn rebuild_to<G: TableGame>(
    conn: &mut DbConnection,
    row: &HostedGameRow,
    version: i64,
) -> Result<G::State, HostedError> {
    let bad = corrupt(row.id);
    let version = version.min(row.version);
    // A snapshot is the engine's own state, which a newer engine may read
    // differently: a game stored under another rules version (or with a
    // snapshot that no longer reads) is rebuilt from its setup and facts,
    // whose format the log format keeps.
    let snapshot = if i64::from(row.rules_version) == i64::from(G::RULES_VERSION) {
        db_hosted::latest_snapshot(conn, row.id, version)?.and_then(|(seq, json)| {
            serde_json::from_str::<G::State>(&json)
                .ok()
                .map(|state| (state, seq))
        })
    } else {
        None
    };
    let (mut state, from) = match snapshot {
        Some((state, seq)) => (state, seq),
        None => {
            let setup: G::Setup =
                serde_json::from_str(&row.setup).map_err(|e| bad(e.to_string()))?;
            (G::start(setup).map_err(|e| bad(e.to_string()))?, 0)
        }
    };
    for (seq, json) in db_hosted::facts_after(conn, row.id, from)? {
        if seq > version {
            break;
        }
        let fact: G::Fact =
            serde_json::from_str(&json).map_err(|e| bad(format!("fact {seq}: {e}")))?;
        G::apply(&mut state, &fact);
    }
    if i64::try_from(G::version(&state)).ok() != Some(version) {
        return Err(bad(format!(
            "the log rebuilds version {}, the row says {version}",
            G::version(&state)
        )));
    }
    Ok(state)
}

/// The game as it stood after the last fact written at or before `until`
/// (what a spectator watching with a delay sees).
pub fn load_as_of<G: TableGame>(
    conn: &mut DbConnection,
    id: i64,
    until: NaiveDateTime,
) -> Result<HostedGame<G>, HostedError> {
    let row = find_row::<G>(conn, id)?;
    let version = db_hosted::last_seq_written_by(conn, id, until)?;
    let row_version = row.version;
    let early = (version < row_version)
        .then(|| rebuild_to::<G>(conn, &row, version))
        .transpose()?;
    let mut game = row_to_game::<G>(conn, row)?;
    if let Some(state) = early {
        game.state = state;
        // The end, the clocks and the score are not told before their time.
        game.status = HostedStatus::Playing;
        game.ended_by = None;
    }
    Ok(game)
}

/// Game `id` with its state rebuilt, if system `G` plays it.
pub fn load<G: TableGame>(conn: &mut DbConnection, id: i64) -> Result<HostedGame<G>, HostedError> {
    let row = find_row::<G>(conn, id)?;
    row_to_game(conn, row)
}

/// The facts of a game from `after` on, as stored (for streams and logs).
pub fn facts_after<G: TableGame>(
    conn: &mut DbConnection,
    id: i64,
    after: u64,
) -> Result<Vec<(u64, G::Fact)>, HostedError> {
    let rows = db_hosted::facts_after(conn, id, i64::try_from(after).unwrap_or(i64::MAX))?;
    read_facts::<G>(id, rows)
}

fn read_facts<G: TableGame>(
    id: i64,
    rows: Vec<(i64, String)>,
) -> Result<Vec<(u64, G::Fact)>, HostedError> {
    let bad = corrupt(id);
    rows.into_iter()
        .map(|(seq, json)| {
            let fact = serde_json::from_str(&json).map_err(|e| bad(format!("fact {seq}: {e}")))?;
            Ok((u64::try_from(seq).unwrap_or_default(), fact))
        })
        .collect()
}

/// Facts a delayed spectator may have now, and when the next was written.
pub type DelayedFacts<F> = (Vec<(u64, F)>, Option<NaiveDateTime>);

/// The facts after `after` written at or before `until` (a delayed
/// spectator's share), and when the next, not yet old enough, was written.
pub fn facts_written_by<G: TableGame>(
    conn: &mut DbConnection,
    id: i64,
    after: u64,
    until: NaiveDateTime,
) -> Result<DelayedFacts<G::Fact>, HostedError> {
    let (rows, next) =
        db_hosted::facts_written_by(conn, id, i64::try_from(after).unwrap_or(i64::MAX), until)?;
    Ok((read_facts::<G>(id, rows)?, next))
}

/// A finished game's log, for replays, downloads and verification: every
/// fact in full (the game is over and its seed revealed), its setup less
/// what the system keeps a player's own (`TableGame::finished_log`).
pub fn finished_log<G: TableGame>(conn: &mut DbConnection, id: i64) -> Result<G::Log, HostedError> {
    let row = find_row::<G>(conn, id)?;
    if row.status != HostedStatus::Finished {
        return Err(HostedError::NotOver);
    }
    let bad = corrupt(id);
    let setup: G::Setup = serde_json::from_str(&row.setup).map_err(|e| bad(e.to_string()))?;
    let facts: Vec<G::Fact> = facts_after::<G>(conn, id, 0)?
        .into_iter()
        .map(|(_, fact)| fact)
        .collect();
    let commands = db_hosted::submissions_of(conn, id)?
        .into_iter()
        .map(|(at_fact, json)| {
            Ok((
                u32::try_from(at_fact).map_err(|e| bad(e.to_string()))?,
                serde_json::from_str(&json).map_err(|e| bad(e.to_string()))?,
            ))
        })
        .collect::<Result<Vec<(u32, G::Submission)>, HostedError>>()?;
    // A game begun before commands were kept has only its later ones:
    // they cannot be played from the setup, so the log keeps none.
    let commands = if commands.first().is_some_and(|(at_fact, _)| *at_fact == 0) {
        commands
    } else {
        Vec::new()
    };
    let versions = (
        u32::try_from(row.log_format).unwrap_or_default(),
        u32::try_from(row.rules_version).unwrap_or_default(),
    );
    Ok(G::finished_log(setup, facts, commands, versions))
}

/// The hashes of the content game `id` was made from, as its log records
/// them (none for a game made before they were kept).
pub fn recorded_content(
    conn: &mut DbConnection,
    id: i64,
) -> Result<Option<soulstone_engine::log::ContentHashes>, HostedError> {
    let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
    Ok(row
        .content_hash
        .map(|server| soulstone_engine::log::ContentHashes {
            server,
            pack: row.pack_hash,
        }))
}

/// What `store` needs to know of the game besides its new state.
pub(super) struct Stored {
    pub id: i64,
    pub pairing_game_id: Option<i64>,
    pub seats: [SeatHolder; 2],
    pub clocks: Option<ChessClocks>,
}

impl Stored {
    pub(super) fn of<G: TableGame>(game: &HostedGame<G>) -> Self {
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
#[derive(Debug)]
pub(super) struct Made<G: TableGame> {
    pub facts: Vec<G::Fact>,
    pub commands: Vec<(usize, G::Submission)>,
}

impl<G: TableGame> Default for Made<G> {
    fn default() -> Self {
        Self {
            facts: Vec::new(),
            commands: Vec::new(),
        }
    }
}

impl<G: TableGame> Made<G> {
    /// Executes `submission` on `state`, keeping its facts and itself; a
    /// command that made no fact changed nothing and is not kept.
    pub(super) fn execute(
        &mut self,
        state: &mut G::State,
        submission: G::Submission,
    ) -> Result<(), soulstone_engine::RuleError> {
        let facts = G::execute(state, &submission)?;
        if !facts.is_empty() {
            self.commands.push((self.facts.len(), submission));
            self.facts.extend(facts);
        }
        Ok(())
    }
}

/// Writes what was `made` (which took the game from `from` to its state's
/// version), a snapshot when one is due, the clocks, and moves the row on
/// if no one else has. A game that decides an event pairing reports its
/// end there (`super::report`).
pub(super) fn store<G: TableGame>(
    conn: &mut DbConnection,
    game: &Stored,
    from: u64,
    state: &G::State,
    made: &Made<G>,
    stopped: Option<Stop>,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    let id = game.id;
    let bad = corrupt(id);
    let version = G::version(state);
    let over = G::is_over(state);
    let from_seq = i64::try_from(from).map_err(|e| bad(e.to_string()))?;
    let to_seq = i64::try_from(version).map_err(|e| bad(e.to_string()))?;
    let status = if over {
        HostedStatus::Finished
    } else {
        HostedStatus::Playing
    };
    // Kept as the game goes, for live scores on the round's pages.
    let score = G::score(state);
    let ended_by = over.then(|| stopped.map_or(EndedBy::Rules, Stop::ended_by));
    let waiting = if over {
        Vec::new()
    } else {
        G::waiting_for(state)
    };
    let change = db_hosted::GameChange {
        status,
        vp: Some(score.total),
        turn: Some(i32::from(score.turn)),
        ended_by: ended_by.map(EndedBy::code),
        clocks: clocks_after(game.clocks, &game.seats, &waiting, now),
    };
    // The version check first: a loser stops before writing any fact.
    if !db_hosted::advance_version(conn, id, from_seq, to_seq, &change, now)? {
        return Err(HostedError::MovedOn { current: version });
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
    if let (true, Some(pairing)) = (over, game.pairing_game_id) {
        let end = super::report::GameEnd {
            score,
            disputed: G::disputed_claims(state),
            stopped,
        };
        super::report::report_to_event(conn, game, pairing, &end, now)?;
    }
    Ok(())
}
