//! Whole public pages as a visitor without a session sees them: no user, no
//! form tokens, no messages, so the same bytes for everyone. Each is kept
//! per event and checked on every request against the event's data
//! revision, version and update time (one small query), so a page is never
//! served stale, also after a change made through another instance; sixty
//! phones refreshing the standings then cost that query each, not a render.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use actix_web::HttpResponse;
use actix_web::http::header::ContentType;
use actix_web::web::Bytes;

use crate::db::events as db_events;
use crate::error::AppError;
use crate::events::cache::StandingsKey;
use crate::web::AppState;

/// The pages kept. Pages that show the time (a round's clock) are not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PublicPage {
    Standings,
}

/// Pages kept at once; past this the cache starts afresh (cheap and bounded).
const CAPACITY: usize = 512;

type Pages = HashMap<(i64, PublicPage), (StandingsKey, Bytes)>;

#[derive(Default)]
pub struct PublicPageCache {
    pages: Mutex<Pages>,
}

impl std::fmt::Debug for PublicPageCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PublicPageCache").finish_non_exhaustive()
    }
}

impl PublicPageCache {
    /// The page if it was rendered for exactly this key.
    pub fn get(&self, event_id: i64, page: PublicPage, key: &StandingsKey) -> Option<Bytes> {
        self.lock()
            .get(&(event_id, page))
            .filter(|(cached, _)| cached == key)
            .map(|(_, body)| body.clone())
    }

    pub fn put(&self, event_id: i64, page: PublicPage, key: StandingsKey, body: Bytes) {
        let mut pages = self.lock();
        if pages.len() >= CAPACITY {
            pages.clear();
        }
        pages.insert((event_id, page), (key, body));
    }

    fn lock(&self) -> MutexGuard<'_, Pages> {
        // A panic while holding the lock cannot leave a half-written entry.
        self.pages
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The kept page, if the event's current key matches the one it was
/// rendered for. None for a draft or missing event: the full handler then
/// answers (with its not-found page).
pub async fn current(
    state: &AppState,
    event_id: i64,
    page: PublicPage,
) -> Result<Option<Bytes>, AppError> {
    let pages = Arc::clone(&state.public_pages);
    state
        .with_db(move |conn| {
            Ok(db_events::public_page_key(conn, event_id)?
                .and_then(|key| pages.get(event_id, page, &key)))
        })
        .await
}

pub fn html_response(body: Bytes) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(ContentType::html())
        .body(body)
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
