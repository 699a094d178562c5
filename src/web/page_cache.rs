//! Whole public pages as a visitor without a session sees them: no user, no
//! form tokens, no messages, so the same bytes for everyone. Each is kept
//! per event and checked on every request against the event's data
//! revision, version and update time (one small query), so a page is never
//! served stale, also after a change made through another instance; sixty
//! phones refreshing the standings then cost that query each, not a render,
//! and a phone that already holds the current page gets "not modified".
//!
//! A round's page is kept too, but for its clock, written in at each
//! request, and checked also against what it shows of the round's games in
//! the browser (their scores move without the event changing), which may
//! be a second late.

use std::sync::{Arc, Mutex, TryLockError};
use std::time::{Duration, Instant};

use actix_web::http::header::{self, ContentType};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};

use crate::events::cache::{KeyedCache, StandingsKey};
use crate::events::reads::public_page_key;
use crate::hosted::event_games::{LiveKey, live_key};
use crate::web::AppState;
use crate::web::error::AppError;

/// The pages kept. Pages that show the time (a round's clock) are not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PublicPage {
    Standings,
}

/// Pages kept at once; past this the cache starts afresh (cheap and bounded).
const CAPACITY: usize = 512;

/// Whole pages per (event, page), and rounds' pages per (event, round
/// number), under the event's key they were rendered for.
pub struct PublicPageCache {
    pages: KeyedCache<(i64, PublicPage), StandingsKey, Bytes>,
    rounds: KeyedCache<(i64, i32), StandingsKey, Arc<KeptRound>>,
}

impl Default for PublicPageCache {
    fn default() -> Self {
        Self {
            pages: KeyedCache::new(CAPACITY),
            rounds: KeyedCache::new(CAPACITY),
        }
    }
}

impl std::fmt::Debug for PublicPageCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PublicPageCache").finish_non_exhaustive()
    }
}

impl PublicPageCache {
    /// The page if it was rendered for exactly this key.
    pub fn get(&self, event_id: i64, page: PublicPage, key: &StandingsKey) -> Option<Bytes> {
        self.pages.get(&(event_id, page), key)
    }

    pub fn put(&self, event_id: i64, page: PublicPage, key: StandingsKey, body: Bytes) {
        self.pages.put((event_id, page), key, body);
    }

    pub fn put_round(&self, event_id: i64, number: i32, key: StandingsKey, page: KeptRound) {
        self.rounds.put((event_id, number), key, Arc::new(page));
    }
}

/// The event's current key and, if it was rendered for exactly that key,
/// the kept page. None for a draft or missing event: the full handler then
/// answers (with its not-found page).
pub async fn current(
    state: &AppState,
    event_id: i64,
    page: PublicPage,
) -> Result<Option<(StandingsKey, Option<Bytes>)>, AppError> {
    let pages = Arc::clone(&state.public_pages);
    state
        .with_db(move |conn| {
            Ok(public_page_key(conn, event_id)?.map(|key| {
                let body = pages.get(event_id, page, &key);
                (key, body)
            }))
        })
        .await
}

/// Stands in for the round clock while a round page is rendered to be kept.
pub const CLOCK_MARK: &str = "@@round-clock@@";

/// A round's page as visitors without a session see it, kept whole but for
/// the round clock.
pub struct KeptRound {
    before: Bytes,
    after: Bytes,
    /// When the round's time runs out, once its clock has started.
    ends_at: Option<chrono::NaiveDateTime>,
    /// The round's games, and what the page shows of their play in the
    /// browser (None where the event's game system is not played there).
    games: Vec<i64>,
    live: Option<LiveKey>,
    /// When `live` was last found current.
    live_checked: Mutex<Instant>,
}

/// How long what a kept round page shows of its games in the browser is
/// trusted before it is checked again: their turn and score may reach
/// visitors a second late, and a busy round page costs one small query a
/// visit, as the standings do, instead of two over all its games.
const LIVE_RECHECK: Duration = Duration::from_secs(1);

impl KeptRound {
    /// The page rendered with `CLOCK_MARK` for its clock; None if the mark
    /// is not there exactly once (then the page is not kept).
    pub fn new(
        page: &str,
        ends_at: Option<chrono::NaiveDateTime>,
        games: Vec<i64>,
        live: Option<LiveKey>,
    ) -> Option<Self> {
        let (before, after) = page.split_once(CLOCK_MARK)?;
        if after.contains(CLOCK_MARK) {
            return None;
        }
        Some(Self {
            before: Bytes::copy_from_slice(before.as_bytes()),
            after: Bytes::copy_from_slice(after.as_bytes()),
            ends_at,
            games,
            live,
            live_checked: Mutex::new(Instant::now()),
        })
    }

    /// Whether the round's games in the browser still stand as the page
    /// shows them (looked up with `current`, at most once every
    /// `LIVE_RECHECK`).
    fn live_unchanged(
        &self,
        current: impl FnOnce(&[i64]) -> Result<LiveKey, AppError>,
    ) -> Result<bool, AppError> {
        let Some(live) = &self.live else {
            return Ok(true);
        };
        let mut checked = match self.live_checked.try_lock() {
            Ok(checked) => checked,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            // Another visit is looking right now.
            Err(TryLockError::WouldBlock) => return Ok(true),
        };
        if checked.elapsed() < LIVE_RECHECK {
            return Ok(true);
        }
        if current(&self.games)? != *live {
            return Ok(false);
        }
        *checked = Instant::now();
        Ok(true)
    }

    /// The round clock's seconds left at `now`, once it has started.
    pub fn seconds_left(&self, now: chrono::NaiveDateTime) -> Option<i64> {
        self.ends_at.map(|end| (end - now).num_seconds())
    }

    /// The page with `clock` written in for the round clock.
    pub fn response(&self, clock: &str) -> HttpResponse {
        let mut body = Vec::with_capacity(self.before.len() + clock.len() + self.after.len());
        body.extend_from_slice(&self.before);
        body.extend_from_slice(clock.as_bytes());
        body.extend_from_slice(&self.after);
        HttpResponse::Ok()
            .content_type(ContentType::html())
            .insert_header(revalidate())
            .insert_header((header::VARY, "Cookie"))
            .body(body)
    }
}

/// What a visitor without a session is sent for a round page.
pub enum RoundLookup {
    /// The kept page, still current.
    Kept(Arc<KeptRound>),
    /// To be rendered and kept under this key.
    Render(StandingsKey),
}

/// The kept page of round `number` if it is current: the event unchanged
/// since it was rendered, and its games in the browser where they were.
/// None for a draft or missing event (the full handler answers).
pub async fn current_round(
    state: &AppState,
    event_id: i64,
    number: i32,
) -> Result<Option<RoundLookup>, AppError> {
    let pages = Arc::clone(&state.public_pages);
    state
        .with_db(move |conn| {
            let Some(key) = public_page_key(conn, event_id)? else {
                return Ok(None);
            };
            if let Some(kept) = pages.rounds.get(&(event_id, number), &key)
                && kept.live_unchanged(|games| Ok(live_key(conn, games)?))?
            {
                return Ok(Some(RoundLookup::Kept(kept)));
            }
            Ok(Some(RoundLookup::Render(key)))
        })
        .await
}

/// A validator for the shared page under `key`, so a phone that refreshes
/// an unchanged page gets "not modified" instead of the whole page. It
/// names this server process too: a new release may render differently.
pub fn entity_tag(state: &AppState, key: &StandingsKey) -> String {
    let (revision, version, updated_at) = key;
    format!(
        "W/\"{}.{revision}.{version}.{}\"",
        state.instance_id,
        updated_at.and_utc().timestamp_micros()
    )
}

/// Whether the browser already holds the page `tag` names.
pub fn browser_has(req: &HttpRequest, tag: &str) -> bool {
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|candidate| candidate.trim() == tag)
}

pub fn not_modified(tag: String) -> HttpResponse {
    HttpResponse::NotModified()
        .insert_header((header::ETAG, tag))
        .insert_header(revalidate())
        .finish()
}

pub fn html_response(body: Bytes, tag: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(ContentType::html())
        .insert_header((header::ETAG, tag))
        .insert_header(revalidate())
        .insert_header((header::VARY, "Cookie"))
        .body(body)
}

/// Browsers may keep the page but must ask (cheaply) before showing it.
fn revalidate() -> (header::HeaderName, &'static str) {
    (header::CACHE_CONTROL, "no-cache")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(revision: i64) -> StandingsKey {
        (revision, 1, chrono::NaiveDateTime::default())
    }

    #[test]
    fn a_page_is_served_only_for_the_key_it_was_rendered_for() {
        let cache = PublicPageCache::default();
        cache.put(7, PublicPage::Standings, key(3), Bytes::from_static(b"r3"));
        assert_eq!(
            cache.get(7, PublicPage::Standings, &key(3)).as_deref(),
            Some(&b"r3"[..])
        );
        assert!(cache.get(7, PublicPage::Standings, &key(4)).is_none());
        assert!(cache.get(8, PublicPage::Standings, &key(3)).is_none());
    }
}
