//! Hearing, on PostgreSQL, the games other instances moved on: a
//! connection of its own (outside the pool) LISTENs on
//! [`GAMES_CHANNEL`], whose notices `hosted::notify_changed` sends, and
//! each notice of this schema is read back into (game, version) here,
//! beside the format it was written in. SQLite has no such channel: its
//! instances poll (`hosted::changed_since`).

use std::sync::Weak;
use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection, RunQueryDsl};

use super::hosted::GAMES_CHANNEL;

/// How often the listener reads notices that arrived on its connection
/// (a read of the socket, no query).
const LISTEN_EVERY: Duration = Duration::from_millis(10);
/// How often the listener checks its connection is alive, and waits before
/// connecting again after losing it.
pub const LISTENER_CHECK: Duration = Duration::from_secs(5);

/// A notice's payload, `<schema>:<game id>:<version>`, read as (game,
/// version) if it is one of `schema`'s.
pub fn game_moved(payload: &str, schema: &str) -> Option<(i64, u64)> {
    let mut parts = payload.strip_prefix(schema)?.strip_prefix(':')?.split(':');
    let id = parts.next()?.parse().ok()?;
    let version = parts.next()?.parse().ok()?;
    Some((id, version))
}

/// One connection's worth of listening on the database at `url`: tells
/// `moved` of every game of this schema another instance moved on, until
/// `alive` can no longer be upgraded (quietly) or the connection fails
/// (with why).
pub fn listen_once(url: &str, alive: &Weak<()>, moved: &dyn Fn(i64, u64)) -> Result<(), String> {
    let mut conn = PgConnection::establish(url).map_err(|e| e.to_string())?;
    conn.batch_execute(&format!("LISTEN {GAMES_CHANNEL}"))
        .map_err(|e| e.to_string())?;
    #[derive(diesel::QueryableByName)]
    struct Schema {
        #[diesel(sql_type = diesel::sql_types::Text)]
        name: String,
    }
    let schema = diesel::sql_query("SELECT current_schema() AS name")
        .get_result::<Schema>(&mut conn)
        .map_err(|e| e.to_string())?
        .name;
    let mut checked = Instant::now();
    while alive.strong_count() > 0 {
        for notice in conn.notifications_iter() {
            let notice = notice.map_err(|e| e.to_string())?;
            if let Some((id, version)) = game_moved(&notice.payload, &schema) {
                moved(id, version);
            }
        }
        if checked.elapsed() >= LISTENER_CHECK {
            conn.batch_execute("SELECT 1").map_err(|e| e.to_string())?;
            checked = Instant::now();
        }
        std::thread::sleep(LISTEN_EVERY);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_is_read_for_its_own_schema_only() {
        assert_eq!(game_moved("public:12:340", "public"), Some((12, 340)));
        assert_eq!(game_moved("test_7:12:340", "test_7"), Some((12, 340)));
        assert_eq!(game_moved("test_7:12:340", "test_71"), None);
        assert_eq!(game_moved("test_71:12:340", "test_7"), None);
        assert_eq!(game_moved("public:12", "public"), None);
        assert_eq!(game_moved("public:x:340", "public"), None);
    }
}
