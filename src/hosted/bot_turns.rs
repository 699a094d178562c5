//! The searching bots' turns, off the request path (issue 53). A normal
//! or hard bot thinks for milliseconds to a second a decision, several
//! decisions an activation: too long to hold a player's request or a web
//! worker. The request that makes a searching bot's turn come stores the
//! player's command and answers at once; the game is then queued here, and
//! one of a few threads of its own plays the bot's decisions, each stored
//! as its own move and announced to the game's streams.
//!
//! The queue is bounded and holds each game once. A game it cannot take
//! (full) is not lost: its next page load or stream queues it again, and
//! a game is picked up again after the server restarts the same way.

use std::collections::BTreeSet;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};

use chrono::NaiveDateTime;
use soulstone_engine::Seat;
use soulstone_engine::system::TableGame;

use super::play_on::{bot_seed, play_on_and_store};
use super::store::{Made, Stored, load};
use super::{HostedError, HostedStatus, SeatHolder};
use crate::db::{Db, DbConnection, WriteTransaction};

/// Games queued at most; past it a game waits for its next page load.
const QUEUED_GAMES: usize = 256;

/// The seat of a searching bot the game waits for to think, if any (its
/// quick decisions, in setup or when both players decide at once, are
/// played in the request, as the other bots' are: a player is never
/// refused for a version a bot moved on from meanwhile).
pub fn searching_bot_due<G: TableGame>(seats: &[SeatHolder; 2], state: &G::State) -> Option<Seat> {
    if G::is_over(state) {
        return None;
    }
    let waiting = G::waiting_for(state);
    Seat::BOTH.into_iter().find(|seat| {
        matches!(seats[seat.index()], SeatHolder::Bot(kind) if G::bot_thinks_long(state, *seat, kind))
            && waiting.contains(seat)
    })
}

/// One searching bot decision in game `id`, if one is due: worked out
/// from the game as it was read, then stored (with what the quick bots and
/// the players' standing answers play after it) unless the game moved on
/// meanwhile. The version it stored, if it did.
pub fn play_searching_bot(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
) -> Result<Option<u64>, HostedError> {
    super::flag_if_out_of_time(conn, id, now)?;
    (super::systems::plays_of(conn, id)?.searching_bot_turn)(conn, id, now)
}

pub(super) fn searching_bot_turn<G: TableGame>(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
) -> Result<Option<u64>, HostedError> {
    let game = load::<G>(conn, id)?;
    if game.status != HostedStatus::Playing {
        return Ok(None);
    }
    let Some(seat) = searching_bot_due::<G>(&game.seats, &game.state) else {
        return Ok(None);
    };
    let SeatHolder::Bot(kind) = game.seats[seat.index()] else {
        return Ok(None);
    };
    // The thinking happens outside any transaction: nothing is held.
    let version = G::version(&game.state);
    let Some(command) = G::bot_command(&game.state, seat, kind, bot_seed(id, version)) else {
        return Ok(None);
    };
    conn.write_transaction(|conn| {
        let game = load::<G>(conn, id)?;
        if G::version(&game.state) != version || game.status != HostedStatus::Playing {
            // It moved on without this decision (a resignation, a fallen
            // clock, or another thread that played the same turn): the
            // thinking is dropped, and whoever moved it queues what comes.
            return Ok(None);
        }
        if game.clocks.is_some_and(|c| c.out_of_time(now).is_some()) {
            return Ok(None);
        }
        let stored = Stored::of(&game);
        let mut state = game.state;
        let mut made = Made::<G>::default();
        made.execute(&mut state, G::player_submission(seat, version, command))
            .map_err(|e| HostedError::Corrupt {
                id,
                reason: format!("the {} bot's command was refused: {e}", kind.level_name()),
            })?;
        play_on_and_store::<G>(conn, &stored, version, &mut state, &mut made, now)?;
        Ok(Some(G::version(&state)))
    })
}

/// The threads that play searching bots' turns, and their queue.
pub struct BotTurns {
    queue: SyncSender<i64>,
    /// Games in the queue, so a game is queued once however often asked.
    queued: Arc<Mutex<BTreeSet<i64>>>,
}

impl BotTurns {
    /// Starts `threads` threads playing the turns queued, over `db`;
    /// `moved(id, version)` is told of every move stored. The threads end
    /// once this value is dropped.
    pub fn start(db: Db, threads: usize, moved: impl Fn(i64, u64) + Send + Sync + 'static) -> Self {
        let (queue, jobs) = std::sync::mpsc::sync_channel(QUEUED_GAMES);
        let jobs = Arc::new(Mutex::new(jobs));
        let queued: Arc<Mutex<BTreeSet<i64>>> = Arc::default();
        let moved = Arc::new(moved);
        for n in 0..threads.max(1) {
            let (db, jobs, queued, moved) = (
                db.clone(),
                Arc::clone(&jobs),
                Arc::clone(&queued),
                Arc::clone(&moved),
            );
            let spawned = std::thread::Builder::new()
                .name(format!("bot-turns-{n}"))
                .spawn(move || work(&db, &jobs, &queued, &*moved));
            if let Err(error) = spawned {
                tracing::error!(%error, "cannot start a bot turn thread");
            }
        }
        Self { queue, queued }
    }

    /// Queues game `id` for its searching bot's turn; false if the queue
    /// is full (the game's next page load asks again).
    pub fn schedule(&self, id: i64) -> bool {
        let mut queued = self.queued.lock().unwrap_or_else(PoisonError::into_inner);
        if !queued.insert(id) {
            return true;
        }
        match self.queue.try_send(id) {
            Ok(()) => true,
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                queued.remove(&id);
                false
            }
        }
    }
}

/// A bot turn thread: takes a game, plays its searching bot's decisions
/// until the game waits for someone else, and takes the next.
fn work(
    db: &Db,
    jobs: &Mutex<Receiver<i64>>,
    queued: &Mutex<BTreeSet<i64>>,
    moved: &(dyn Fn(i64, u64) + Send + Sync),
) {
    loop {
        let next = jobs.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(id) = next else {
            return;
        };
        // Off the set before the game is read: a move stored from now on
        // queues it again rather than finding it still queued.
        queued
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
        let mut conn = match db.conn() {
            Ok(conn) => conn,
            Err(error) => {
                tracing::warn!(game = id, %error, "no connection for a bot turn");
                continue;
            }
        };
        loop {
            let now = chrono::Utc::now().naive_utc();
            match play_searching_bot(&mut conn, id, now) {
                Ok(Some(version)) => moved(id, version),
                Ok(None) => break,
                Err(error) => {
                    tracing::warn!(game = id, %error, "a bot turn failed");
                    break;
                }
            }
        }
    }
}
