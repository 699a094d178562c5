//! Live updates: a server-sent events stream per game and viewer, each
//! fact redacted for that viewer on the server, its number as the event
//! id so a reconnecting browser resumes where it left off (Last-Event-ID).
//!
//! A stream wakes when its game changes. A command accepted by this
//! instance announces it at once. On PostgreSQL every write of a game's log
//! notifies the other instances (NOTIFY on the `soulstone_games` channel,
//! delivered on commit), and each instance listens on a connection of its
//! own; a watcher also polls the database now and then for what a notice
//! may have missed (a listener reconnecting). With SQLite the watcher is
//! how instances sharing a file learn of each other's moves, a few times a
//! second. Either way one query serves however many streams are open.

use soulstone_engine::system::Malifaux;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::{HttpRequest, HttpResponse, get, web};
use tokio::sync::broadcast;

use crate::hosted;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::session::MaybeUser;

/// How far back each look reaches, for commits that land while a look is
/// under way and for small differences between the instances' clocks.
const WATCH_OVERLAP: chrono::Duration = chrono::Duration::seconds(3);
/// How often the game clocks are checked.
const FLAG_EVERY: Duration = Duration::from_secs(1);
/// A comment line keeps an idle stream open through proxies.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// Facts sent in one chunk at most (a stream starting from 0 catches up in
/// several).
const FACTS_PER_CHUNK: usize = 500;

/// Game ids whose log grew, for the streams of this instance.
#[derive(Clone)]
pub struct GameUpdates {
    /// A channel per game that has a stream open here: a change wakes that
    /// game's streams only, not every stream of the instance.
    games: Arc<Mutex<HashMap<i64, Arc<GameChannel>>>>,
    /// The newest version announced of each game lately: a change told
    /// twice (by the command's handler, then by NOTIFY or the database
    /// look) wakes the streams once, so each reads the database once.
    announced: Arc<Mutex<HashMap<i64, u64>>>,
    /// True once the server stops: every stream ends.
    closing: Arc<tokio::sync::watch::Sender<bool>>,
}

impl Default for GameUpdates {
    fn default() -> Self {
        Self {
            games: Arc::default(),
            announced: Arc::default(),
            closing: Arc::new(tokio::sync::watch::channel(false).0),
        }
    }
}

/// One game's streams on this instance: what wakes them, and the facts
/// one of them read last, shared with the others. Without the sharing each
/// of a game's streams (two players and a spectator or more) read the same
/// new facts from the database at each change.
struct GameChannel {
    wake: broadcast::Sender<()>,
    /// Changes announced since the channel opened.
    changes: AtomicU64,
    /// Held while one stream reads, so the others wait for its read rather
    /// than each making its own.
    last_read: tokio::sync::Mutex<Option<SharedRead>>,
}

/// Facts read for a stream: every fact after `after` as the database held
/// them once `changes` changes had been announced.
struct SharedRead {
    changes: u64,
    after: u64,
    facts: Arc<[(u64, soulstone_engine::Event)]>,
}

/// A read larger than this is not kept (a stream catching up on a long
/// log): a change brings a few facts, and a kept read stays in memory
/// until the game's next change.
const SHARED_READ_MAX: usize = 64;

impl GameChannel {
    /// The game's facts after `after`, as new as every change announced
    /// before the call: from the last read when it is that new and reaches
    /// back that far, else from the database (one stream at a time).
    async fn facts_after(
        &self,
        db: &crate::db::Db,
        id: i64,
        after: u64,
    ) -> Result<Vec<(u64, soulstone_engine::Event)>, AppError> {
        let wanted = self.changes.load(Ordering::Acquire);
        let mut last_read = self.last_read.lock().await;
        if let Some(read) = last_read.as_ref()
            && read.changes >= wanted
            && read.after <= after
        {
            return Ok(read
                .facts
                .iter()
                .filter(|(seq, _)| *seq > after)
                .cloned()
                .collect());
        }
        // Every change counted so far was committed before it was
        // announced, so a read that starts now sees it.
        let changes = self.changes.load(Ordering::Acquire);
        let db = db.clone();
        let facts = web::block(move || {
            let mut conn = db.conn()?;
            hosted::facts_after::<Malifaux>(&mut conn, id, after)
        })
        .await??;
        *last_read = (facts.len() <= SHARED_READ_MAX).then(|| SharedRead {
            changes,
            after,
            facts: facts.iter().cloned().collect(),
        });
        Ok(facts)
    }
}

/// Games whose announced versions are remembered at most; past it the
/// memory is cleared (a stream woken twice reads once more, no harm).
const REMEMBERED_GAMES: usize = 20_000;

impl GameUpdates {
    /// Ends every stream of this instance (the server is stopping).
    pub fn close_streams(&self) {
        self.closing.send_replace(true);
    }

    /// Resolves once the server stops (at once if it has).
    async fn closed(mut closing: tokio::sync::watch::Receiver<bool>) {
        let _ = closing.wait_for(|closing| *closing).await;
    }

    /// Wakes the streams of game `id` (whatever its version now).
    pub fn announce(&self, id: i64) {
        let mut games = self
            .games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(channel) = games.get(&id) {
            if channel.wake.receiver_count() == 0 {
                // Its last stream closed: forget the channel.
                games.remove(&id);
            } else {
                // Counted before the wake, so a woken stream sees it.
                channel.changes.fetch_add(1, Ordering::AcqRel);
                let _ = channel.wake.send(());
            }
        }
    }

    /// Wakes the streams of game `id` for `version`, unless that version
    /// (or a later one) was announced already.
    pub fn announce_at(&self, id: i64, version: u64) {
        let fresh = {
            let mut announced = self
                .announced
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if announced.len() > REMEMBERED_GAMES {
                announced.clear();
            }
            match announced.get(&id) {
                Some(known) if *known >= version => false,
                _ => {
                    announced.insert(id, version);
                    true
                }
            }
        };
        if fresh {
            self.announce(id);
        }
    }

    fn subscribe(&self, id: i64) -> (Arc<GameChannel>, broadcast::Receiver<()>) {
        let mut games = self
            .games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let channel = games.entry(id).or_insert_with(|| {
            Arc::new(GameChannel {
                wake: broadcast::channel(16).0,
                changes: AtomicU64::new(0),
                last_read: tokio::sync::Mutex::new(None),
            })
        });
        (Arc::clone(channel), channel.wake.subscribe())
    }

    /// Announces the games other instances changed, looking every `every`,
    /// until the system ends.
    pub async fn watch(self, db: crate::db::Db, every: Duration) {
        let mut interval = tokio::time::interval(every);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            interval.tick().await;
            let since = chrono::Utc::now().naive_utc() - WATCH_OVERLAP;
            let db = db.clone();
            let changed = web::block(move || {
                let mut conn = db.conn()?;
                hosted::clocks::games_changed_since(&mut conn, since)
            })
            .await;
            let Ok(Ok(changed)) = changed else {
                // The database is away for a moment; the next look retries.
                continue;
            };
            for (id, version) in changed {
                self.announce_at(id, u64::try_from(version).unwrap_or_default());
            }
        }
    }

    /// Ends the games whose clocks ran out, once a second, until the
    /// system ends.
    pub async fn watch_clocks(self, db: crate::db::Db) {
        let mut interval = tokio::time::interval(FLAG_EVERY);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            interval.tick().await;
            self.flag_games_out_of_time(&db).await;
        }
    }

    /// On PostgreSQL: listens for the games other instances changed and
    /// announces them at once, on a thread of its own with a connection of
    /// its own (outside the pool), until `alive` can no longer be upgraded
    /// (the server that started it is gone).
    pub fn listen(self, url: String, alive: std::sync::Weak<()>) {
        let spawned = std::thread::Builder::new()
            .name("soulstone-listen".into())
            .spawn(move || {
                let moved = |id, version| self.announce_at(id, version);
                while alive.strong_count() > 0 {
                    if let Err(error) = hosted::clocks::listen_for_moves(&url, &alive, &moved) {
                        tracing::warn!("listening for game changes: {error}; connecting again");
                    }
                    std::thread::sleep(hosted::clocks::LISTENER_CHECK);
                }
            });
        if let Err(error) = spawned {
            tracing::warn!("no listener for game changes ({error}); polling only");
        }
    }
}

impl GameUpdates {
    /// Ends the games whose running clock has run out. Every instance
    /// looks; the version check lets one of them do it.
    async fn flag_games_out_of_time(&self, db: &crate::db::Db) {
        let db = db.clone();
        let flagged = web::block(move || -> Result<Vec<i64>, crate::hosted::HostedError> {
            let mut conn = db.conn()?;
            hosted::clocks::flag_games_out_of_time(&mut conn, chrono::Utc::now().naive_utc())
        })
        .await;
        match flagged {
            Ok(Ok(ids)) => ids.into_iter().for_each(|id| self.announce(id)),
            Ok(Err(error)) => tracing::warn!("checking the game clocks failed: {error}"),
            Err(_) => {}
        }
    }
}

/// Waits until the game may have changed (a change was announced, or
/// several were and some were dropped, which means it may have).
async fn changed(receiver: &mut broadcast::Receiver<()>) {
    match receiver.recv().await {
        Ok(()) | Err(broadcast::error::RecvError::Lagged(_)) => {}
        // The instance keeps the sender while any stream listens.
        Err(broadcast::error::RecvError::Closed) => std::future::pending::<()>().await,
    }
}

#[derive(Debug, serde::Deserialize)]
pub struct StreamQuery {
    /// The last fact the page already shows.
    #[serde(default)]
    pub after: u64,
}

/// `GET /games/{id}/events`: the game's facts after `after` (or after the
/// Last-Event-ID a reconnecting browser sends), then each new one.
#[get("/games/{id}/events")]
pub async fn stream(
    req: HttpRequest,
    user: MaybeUser,
    // API clients read streams with their bearer token.
    api_user: Option<crate::web::session::ApiUser>,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let resume = req
        .headers()
        .get("Last-Event-ID")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let after = resume.unwrap_or(query.after);
    let account = user
        .0
        .as_ref()
        .map(|u| u.id())
        .or_else(|| api_user.as_ref().map(|u| u.id()));
    let address = crate::web::client::client_address(&req, &state);
    let slot = state
        .play_limits
        .open_stream(super::limits::key_of(account, &address))
        .ok_or(AppError::TooManyRequests)?;
    // Who watches and how, fixed when the stream opens: a delayed
    // spectator is only ever sent facts old enough.
    let (viewer, watching, bot_due) = state
        .with_db(move |conn| {
            let (game, watching) = crate::hosted::event_games::load_for_viewer::<Malifaux>(
                conn,
                id,
                account,
                chrono::Utc::now().naive_utc(),
            )?;
            Ok((game.viewer_for(account), watching, game.searching_bot_due()))
        })
        .await?;
    // A bot's turn the queue could not take, or one a restart cut short,
    // is taken up when someone watches.
    if bot_due {
        state.bot_turns.schedule(id);
    }
    let delay = match watching {
        crate::hosted::event_games::Watching::Delayed(delay) => Some(delay),
        _ => None,
    };
    // Subscribed before the first read, so no change falls in between.
    let (channel, receiver) = state.game_updates.subscribe(id);
    let closing = state.game_updates.closing.subscribe();
    let db = state.db.clone();
    // The slot lives as long as the stream: closing it frees the place.
    let facts = futures_util::stream::unfold(
        (after, receiver, slot),
        move |(mut after, mut receiver, slot)| {
            let db = db.clone();
            let closing = closing.clone();
            let channel = Arc::clone(&channel);
            async move {
                loop {
                    if *closing.borrow() {
                        return None;
                    }
                    let read = match delay {
                        None => channel.facts_after(&db, id, after).await.map(|f| (f, None)),
                        Some(delay) => {
                            let db = db.clone();
                            web::block(move || {
                                let mut conn = db.conn()?;
                                hosted::facts_written_by::<Malifaux>(
                                    &mut conn,
                                    id,
                                    after,
                                    chrono::Utc::now().naive_utc() - delay,
                                )
                            })
                            .await
                            .map_err(AppError::from)
                            .and_then(|read| read.map_err(AppError::from))
                        }
                    };
                    // On failure the stream ends; the browser reconnects
                    // from its last id.
                    let Ok((facts, next_at)) = read else {
                        return None;
                    };
                    if !facts.is_empty() {
                        let mut chunk = String::new();
                        for (seq, fact) in facts.iter().take(FACTS_PER_CHUNK) {
                            let data = fact.for_viewer(viewer).to_string();
                            chunk.push_str(&format!("id: {seq}\nevent: fact\ndata: {data}\n\n"));
                            after = *seq;
                        }
                        let bytes = web::Bytes::from(chunk);
                        return Some((Ok::<_, actix_web::Error>(bytes), (after, receiver, slot)));
                    }
                    // A fact is waiting out the spectators' delay: sleep
                    // until it may be sent (or the keep-alive is due).
                    if let (Some(next_at), Some(delay)) = (next_at, delay) {
                        let due = (next_at + delay - chrono::Utc::now().naive_utc())
                            .to_std()
                            .unwrap_or_default()
                            .min(KEEP_ALIVE);
                        tokio::select! {
                            () = tokio::time::sleep(due) => {}
                            () = GameUpdates::closed(closing.clone()) => return None,
                        }
                        if due < KEEP_ALIVE {
                            continue;
                        }
                        let ping = web::Bytes::from_static(b": keep-alive\n\n");
                        return Some((Ok(ping), (after, receiver, slot)));
                    }
                    let waited = tokio::select! {
                        waited = tokio::time::timeout(KEEP_ALIVE, changed(&mut receiver)) => waited,
                        () = GameUpdates::closed(closing.clone()) => return None,
                    };
                    if waited.is_err() {
                        let ping = web::Bytes::from_static(b": keep-alive\n\n");
                        return Some((Ok(ping), (after, receiver, slot)));
                    }
                }
            }
        },
    );
    Ok(event_stream(facts))
}

/// Notices that game `id` moved on, for a page that shows it rendered on
/// the server (Mage Knight's): each change sends a `moved` event and the
/// page's script loads it again. Idle, a comment keeps it open. The slot
/// counts against the viewer's open streams like a fact stream.
pub(super) fn moved_notices(
    state: &AppState,
    id: i64,
    slot: super::limits::StreamSlot,
) -> HttpResponse {
    let (_channel, receiver) = state.game_updates.subscribe(id);
    let closing = state.game_updates.closing.subscribe();
    let notices = futures_util::stream::unfold((receiver, slot), move |(mut receiver, slot)| {
        let closing = closing.clone();
        async move {
            if *closing.borrow() {
                return None;
            }
            let waited = tokio::select! {
                waited = tokio::time::timeout(KEEP_ALIVE, changed(&mut receiver)) => waited,
                () = GameUpdates::closed(closing.clone()) => return None,
            };
            let bytes = match waited {
                Ok(()) => web::Bytes::from_static(b"event: moved\ndata: \n\n"),
                Err(_) => web::Bytes::from_static(b": keep-alive\n\n"),
            };
            Some((Ok::<_, actix_web::Error>(bytes), (receiver, slot)))
        }
    });
    event_stream(notices)
}

/// A server-sent events response: not cached, not compressed (a
/// compressor would hold events back), passed on by proxies as it comes.
fn event_stream<S>(body: S) -> HttpResponse
where
    S: futures_util::Stream<Item = Result<web::Bytes, actix_web::Error>> + 'static,
{
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-cache"))
        .insert_header(actix_web::http::header::ContentEncoding::Identity)
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body)
}
