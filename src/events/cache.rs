//! A cache of what read-only event pages load (players, rounds, games),
//! checked against the event's data revision on every use: database triggers
//! move the revision on with any change, from any instance, so a cached copy
//! is never served stale.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard};

use chrono::NaiveDateTime;

use super::rounds::EventData;
use super::{EventError, EventView};
use crate::db::DbConnection;
use crate::tournament::standings::StandingRow;

/// Events kept at once; past this the cache starts afresh (cheap and bounded).
const CAPACITY: usize = 256;

/// One value per slot (an event, or an event's page), kept with the key it
/// was made for and served only for that key. Bounded: past `capacity`
/// slots it starts afresh.
pub struct KeyedCache<S, K, V> {
    entries: Mutex<HashMap<S, (K, V)>>,
    capacity: usize,
}

impl<S: Hash + Eq, K: PartialEq, V: Clone> KeyedCache<S, K, V> {
    pub fn new(capacity: usize) -> Self {
        Self {
            entries: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    /// The value in `slot` if it was made for exactly `key`.
    pub fn get(&self, slot: &S, key: &K) -> Option<V> {
        self.lock()
            .get(slot)
            .filter(|(kept, _)| kept == key)
            .map(|(_, value)| value.clone())
    }

    pub fn put(&self, slot: S, key: K, value: V) {
        let mut entries = self.lock();
        if entries.len() >= self.capacity {
            entries.clear();
        }
        entries.insert(slot, (key, value));
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<S, (K, V)>> {
        // A panic while holding the lock cannot leave a half-written entry.
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

type Entries<K, V> = KeyedCache<i64, K, Arc<V>>;

/// Standings also depend on the event's own settings, which its version and
/// update time follow.
pub type StandingsKey = (i64, i32, NaiveDateTime);

pub struct EventDataCache {
    entries: Entries<i64, EventData>,
    standings: Entries<StandingsKey, Vec<StandingRow>>,
    /// The web layer's rendering of the standings table, kept under the
    /// same key as the rows it shows (it holds nothing per visitor).
    standings_html: Entries<StandingsKey, String>,
}

impl Default for EventDataCache {
    fn default() -> Self {
        Self {
            entries: KeyedCache::new(CAPACITY),
            standings: KeyedCache::new(CAPACITY),
            standings_html: KeyedCache::new(CAPACITY),
        }
    }
}

impl std::fmt::Debug for EventDataCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventDataCache").finish_non_exhaustive()
    }
}

impl EventDataCache {
    /// The event's standings, computed once per revision and settings.
    pub fn standings(
        &self,
        conn: &mut DbConnection,
        view: &EventView,
    ) -> Result<Arc<Vec<StandingRow>>, EventError> {
        Ok(self.keyed_standings(conn, view)?.1)
    }

    /// The standings with the key they are cached under (for
    /// [`Self::standings_html`]).
    pub fn keyed_standings(
        &self,
        conn: &mut DbConnection,
        view: &EventView,
    ) -> Result<(StandingsKey, Arc<Vec<StandingRow>>), EventError> {
        let key = (
            view.event.data_revision,
            view.event.version,
            view.event.updated_at,
        );
        if let Some(rows) = self.standings.get(&view.id(), &key) {
            return Ok((key, rows));
        }
        let data = self.load(conn, view)?;
        let rows = Arc::new(super::standings::compute(view, &data));
        self.standings.put(view.id(), key, Arc::clone(&rows));
        Ok((key, rows))
    }

    /// The rendered standings table for `key`, rendering it on a miss.
    pub fn standings_html<E>(
        &self,
        event_id: i64,
        key: StandingsKey,
        render: impl FnOnce() -> Result<String, E>,
    ) -> Result<Arc<String>, E> {
        if let Some(html) = self.standings_html.get(&event_id, &key) {
            return Ok(html);
        }
        let html = Arc::new(render()?);
        self.standings_html.put(event_id, key, Arc::clone(&html));
        Ok(html)
    }

    /// The event's data, from the cache when its revision is current.
    pub fn load(
        &self,
        conn: &mut DbConnection,
        view: &EventView,
    ) -> Result<Arc<EventData>, EventError> {
        // The revision came with the event row, read before the data: data
        // loaded now is at least that new, so a copy is never filed under a
        // later revision than it shows.
        let revision = view.event.data_revision;
        if let Some(data) = self.entries.get(&view.id(), &revision) {
            return Ok(data);
        }
        let data = Arc::new(EventData::load(conn, view.id())?);
        self.entries.put(view.id(), revision, Arc::clone(&data));
        Ok(data)
    }
}
