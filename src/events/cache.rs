//! A cache of what read-only event pages load (players, rounds, games),
//! checked against the event's data revision on every use: database triggers
//! move the revision on with any change, from any instance, so a cached copy
//! is never served stale.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::NaiveDateTime;

use super::rounds::EventData;
use super::{EventError, EventView};
use crate::db::DbConnection;
use crate::tournament::standings::StandingRow;

/// Events kept at once; past this the cache starts afresh (cheap and bounded).
const CAPACITY: usize = 256;

type Entries<K, V> = Mutex<HashMap<i64, (K, Arc<V>)>>;

/// Standings also depend on the event's own settings, which its version and
/// update time follow.
pub type StandingsKey = (i64, i32, NaiveDateTime);

#[derive(Default)]
pub struct EventDataCache {
    entries: Entries<i64, EventData>,
    standings: Entries<StandingsKey, Vec<StandingRow>>,
    /// The web layer's rendering of the standings table, kept under the
    /// same key as the rows it shows (it holds nothing per visitor).
    standings_html: Entries<StandingsKey, String>,
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
        if let Some(rows) = lookup(&self.standings, view.id(), &key) {
            return Ok((key, rows));
        }
        let data = self.load(conn, view)?;
        let rows = Arc::new(super::standings::compute(view, &data));
        store(&self.standings, view.id(), key, Arc::clone(&rows));
        Ok((key, rows))
    }

    /// The rendered standings table for `key`, rendering it on a miss.
    pub fn standings_html<E>(
        &self,
        event_id: i64,
        key: StandingsKey,
        render: impl FnOnce() -> Result<String, E>,
    ) -> Result<Arc<String>, E> {
        if let Some(html) = lookup(&self.standings_html, event_id, &key) {
            return Ok(html);
        }
        let html = Arc::new(render()?);
        store(&self.standings_html, event_id, key, Arc::clone(&html));
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
        if let Some(data) = lookup(&self.entries, view.id(), &revision) {
            return Ok(data);
        }
        let data = Arc::new(EventData::load(conn, view.id())?);
        store(&self.entries, view.id(), revision, Arc::clone(&data));
        Ok(data)
    }
}

fn lookup<K: PartialEq, V>(entries: &Entries<K, V>, event_id: i64, key: &K) -> Option<Arc<V>> {
    lock(entries)
        .get(&event_id)
        .filter(|(cached, _)| cached == key)
        .map(|(_, value)| Arc::clone(value))
}

fn store<K, V>(entries: &Entries<K, V>, event_id: i64, key: K, value: Arc<V>) {
    let mut entries = lock(entries);
    if entries.len() >= CAPACITY {
        entries.clear();
    }
    entries.insert(event_id, (key, value));
}

fn lock<K, V>(entries: &Entries<K, V>) -> std::sync::MutexGuard<'_, HashMap<i64, (K, Arc<V>)>> {
    // A panic while holding the lock cannot leave a half-written entry.
    entries
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
