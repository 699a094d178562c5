//! Persistence: one diesel connection type over SQLite and PostgreSQL, a
//! connection pool, and the embedded migrations of both backends.

pub mod accounts;
pub mod audit;
pub mod crews;
pub mod events;
pub mod hosted;
pub mod introspect;
pub mod listen;
pub mod mail;
pub mod packs;
pub mod pools;
pub mod rankings;
pub mod rounds;
pub mod schema;
pub mod status;
pub mod teams;
pub mod throttle;

use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{self, ManageConnection, PooledConnection};
use diesel::{PgConnection, SqliteConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use crate::config::DatabaseUrl;

/// One connection type for both backends; queries written against it run on either.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Postgres(PgConnection),
    Sqlite(SqliteConnection),
}

pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// How long a SQLite writer waits for another writer before giving up.
const SQLITE_BUSY_TIMEOUT_MS: u32 = 5_000;

/// Serialises migrations when several instances start against one PostgreSQL database.
const MIGRATION_ADVISORY_LOCK: i64 = 0x5_0015_7011;

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("database query failed: {0}")]
    Query(#[from] diesel::result::Error),
    #[error("cannot connect to the database: {0}")]
    Connection(String),
    #[error("no database connection available: {0}")]
    Pool(#[from] r2d2::PoolError),
    #[error("migration failed: {0}")]
    Migration(String),
}

/// Why a database refuses every write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WritesRefused {
    ReadOnly,
    DiskFull,
}

impl WritesRefused {
    /// In words for an operator, a player or an organiser.
    pub fn reason(self) -> &'static str {
        match self {
            Self::ReadOnly => "the database is read-only",
            Self::DiskFull => "the database's disk is full",
        }
    }
}

impl DbError {
    /// True when the database gave up on this transaction because of a
    /// concurrent one: nothing of it was written, and trying again may
    /// succeed. PostgreSQL: a serialization failure, or a deadlock (diesel
    /// has no kind for SQLSTATE 40P01, so its message is matched); SQLite:
    /// still locked when the busy timeout ran out.
    pub fn is_transient_conflict(&self) -> bool {
        let Self::Query(diesel::result::Error::DatabaseError(kind, info)) = self else {
            return false;
        };
        matches!(
            kind,
            diesel::result::DatabaseErrorKind::SerializationFailure
        ) || info.message().contains("deadlock detected")
            || info.message().contains("database is locked")
    }

    /// Why the database refuses every write, when that is this error:
    /// it is read-only (PostgreSQL in a read-only transaction or standby,
    /// an SQLite file that cannot be written) or its disk is full. Trying
    /// again will not help until someone fixes the machine.
    pub fn refuses_writes(&self) -> Option<WritesRefused> {
        let (read_only_kind, message) = match self {
            Self::Query(diesel::result::Error::DatabaseError(kind, info)) => (
                matches!(kind, diesel::result::DatabaseErrorKind::ReadOnlyTransaction),
                info.message(),
            ),
            // A migration's error comes as its text.
            Self::Migration(message) => (false, message.as_str()),
            _ => return None,
        };
        if read_only_kind
            || message.contains("in a read-only transaction")
            || message.contains("readonly database")
        {
            Some(WritesRefused::ReadOnly)
        } else if message.contains("database or disk is full")
            || message.contains("No space left on device")
        {
            Some(WritesRefused::DiskFull)
        } else {
            None
        }
    }

    /// True when the error is a unique-constraint violation (a duplicate row).
    pub fn is_unique_violation(&self) -> bool {
        matches!(
            self,
            Self::Query(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                _
            ))
        )
    }
}

/// Transactions that write. On SQLite they start with `BEGIN IMMEDIATE`: a deferred
/// transaction that reads first and then writes cannot wait for a concurrent writer
/// (SQLite reports "database is locked" at once instead of honouring the busy timeout),
/// whereas an immediate one queues for the write lock up front.
pub trait WriteTransaction: Sized {
    fn write_transaction<T, E, F>(&mut self, body: F) -> Result<T, E>
    where
        F: FnOnce(&mut Self) -> Result<T, E>,
        E: From<diesel::result::Error>;
}

impl WriteTransaction for DbConnection {
    fn write_transaction<T, E, F>(&mut self, body: F) -> Result<T, E>
    where
        F: FnOnce(&mut Self) -> Result<T, E>,
        E: From<diesel::result::Error>,
    {
        use diesel::connection::{AnsiTransactionManager, TransactionManager};
        type Manager = <DbConnection as Connection>::TransactionManager;
        let DbConnection::Sqlite(sqlite) = self else {
            return self.transaction(body);
        };
        let depth =
            AnsiTransactionManager::transaction_manager_status_mut(sqlite).transaction_depth()?;
        if depth.is_some() {
            // Nested: a savepoint inside the already immediate outer transaction.
            return self.transaction(body);
        }
        AnsiTransactionManager::begin_transaction_sql(sqlite, "BEGIN IMMEDIATE")?;
        match body(self) {
            Ok(value) => {
                Manager::commit_transaction(self)?;
                Ok(value)
            }
            Err(error) => match Manager::rollback_transaction(self) {
                Ok(()) | Err(diesel::result::Error::BrokenTransactionManager) => Err(error),
                Err(rollback_error) => Err(rollback_error.into()),
            },
        }
    }
}

/// Opens connections for the pool and sets each one up for its backend.
#[derive(Debug, Clone)]
pub struct DbManager {
    url: DatabaseUrl,
}

impl DbManager {
    pub fn new(url: DatabaseUrl) -> Self {
        Self { url }
    }

    fn connect(&self) -> Result<DbConnection, DbError> {
        match &self.url {
            DatabaseUrl::Postgres(url) => PgConnection::establish(url)
                .map(DbConnection::Postgres)
                .map_err(|err| DbError::Connection(err.to_string())),
            DatabaseUrl::Sqlite(path) => {
                let path = path.to_str().ok_or_else(|| {
                    DbError::Connection(format!("SQLite path is not UTF-8: {}", path.display()))
                })?;
                let mut conn = SqliteConnection::establish(path)
                    .map_err(|err| DbError::Connection(err.to_string()))?;
                // WAL lets readers run beside the single writer; foreign keys are off by
                // default in SQLite; the busy timeout makes writers queue instead of failing.
                // The busy timeout comes first so that switching to WAL also waits.
                // FULL: every acknowledged commit survives a power cut (NORMAL can lose
                // the last ones in WAL mode).
                conn.batch_execute(&format!(
                    "PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS};
                     PRAGMA journal_mode = WAL;
                     PRAGMA synchronous = FULL;
                     PRAGMA foreign_keys = ON;"
                ))?;
                Ok(DbConnection::Sqlite(conn))
            }
        }
    }
}

impl ManageConnection for DbManager {
    type Connection = DbConnection;
    type Error = DbError;

    fn connect(&self) -> Result<DbConnection, DbError> {
        DbManager::connect(self)
    }

    fn is_valid(&self, conn: &mut DbConnection) -> Result<(), DbError> {
        conn.batch_execute("SELECT 1").map_err(DbError::from)
    }

    fn has_broken(&self, _conn: &mut DbConnection) -> bool {
        false
    }
}

pub type DbPool = r2d2::Pool<DbManager>;
pub type PooledDb = PooledConnection<DbManager>;

/// The pool plus what the rest of the service needs to know about the backend.
#[derive(Clone)]
pub struct Db {
    pool: DbPool,
    backend: &'static str,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("backend", &self.backend)
            .finish()
    }
}

impl Db {
    /// Opens the pool, runs pending migrations and brings the shipped
    /// strategy and scheme pools up to date.
    pub fn open(url: &DatabaseUrl, pool_size: u32) -> Result<Self, DbError> {
        let db = Self::connect(url, pool_size)?;
        let shipped = crate::setup::shipped::shipped_pools()
            .map_err(|err| DbError::Migration(err.to_string()))?;
        let mut conn = db.conn()?;
        // Instances starting together on one database take turns: every
        // start-up write (migrations, the shipped pools) runs under one lock.
        with_startup_lock(&mut conn, |conn| {
            run_migrations(conn)?;
            pools::sync_shipped(conn, &shipped, chrono::Utc::now().naive_utc())
        })?;
        drop(conn);
        Ok(db)
    }

    /// Opens the pool, creating the SQLite file and its directory if needed.
    pub fn connect(url: &DatabaseUrl, pool_size: u32) -> Result<Self, DbError> {
        if let DatabaseUrl::Sqlite(path) = url
            && let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty())
        {
            std::fs::create_dir_all(parent).map_err(|err| {
                DbError::Connection(format!("cannot create {}: {err}", parent.display()))
            })?;
        }
        let manager = DbManager::new(url.clone());
        let pool = r2d2::Pool::builder()
            .max_size(pool_size)
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(10))
            .build(manager)?;
        Ok(Self {
            pool,
            backend: url.backend_name(),
        })
    }

    pub fn backend(&self) -> &'static str {
        self.backend
    }

    /// A connection from the pool. Blocking: call it off the async executor.
    pub fn conn(&self) -> Result<PooledDb, DbError> {
        Ok(self.pool.get()?)
    }

    /// Applies pending migrations; returns the names of those applied.
    pub fn migrate(&self) -> Result<Vec<String>, DbError> {
        let mut conn = self.conn()?;
        run_migrations(&mut conn)
    }

    /// Round-trips to the database (health checks).
    pub fn ping(&self) -> Result<(), DbError> {
        let mut conn = self.conn()?;
        conn.batch_execute("SELECT 1")?;
        Ok(())
    }
}

/// Runs `body` holding the start-up lock: on PostgreSQL a session advisory
/// lock keyed by the schema (so test schemas do not wait for each other),
/// released whatever `body` returns; on SQLite one write transaction
/// (`BEGIN IMMEDIATE`), so a second instance waits and then finds nothing
/// left to do.
fn with_startup_lock<T>(
    conn: &mut DbConnection,
    body: impl FnOnce(&mut DbConnection) -> Result<T, DbError>,
) -> Result<T, DbError> {
    const KEY: &str = "hashtext('soulstone-start-up:' || current_schema())";
    if !matches!(conn, DbConnection::Postgres(_)) {
        return conn.write_transaction(body);
    }
    conn.batch_execute(&format!("SELECT pg_advisory_lock({KEY})"))?;
    let result = body(conn);
    let unlocked = conn.batch_execute(&format!("SELECT pg_advisory_unlock({KEY})"));
    let value = result?;
    unlocked?;
    Ok(value)
}

/// Applies the pending migrations of the connection's backend.
pub fn run_migrations(conn: &mut DbConnection) -> Result<Vec<String>, DbError> {
    let migration_err =
        |err: Box<dyn std::error::Error + Send + Sync>| DbError::Migration(err.to_string());
    let names = |versions: Vec<diesel::migration::MigrationVersion<'_>>| {
        versions.iter().map(ToString::to_string).collect::<Vec<_>>()
    };
    match conn {
        DbConnection::Sqlite(conn) => conn
            .run_pending_migrations(SQLITE_MIGRATIONS)
            .map(names)
            .map_err(migration_err),
        DbConnection::Postgres(conn) => {
            // Two instances starting together must not both run one migration.
            conn.batch_execute(&format!(
                "SELECT pg_advisory_lock({MIGRATION_ADVISORY_LOCK})"
            ))?;
            let result = conn
                .run_pending_migrations(POSTGRES_MIGRATIONS)
                .map(names)
                .map_err(migration_err);
            conn.batch_execute(&format!(
                "SELECT pg_advisory_unlock({MIGRATION_ADVISORY_LOCK})"
            ))?;
            result
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::result::{DatabaseErrorKind, Error};

    fn database_error(kind: DatabaseErrorKind, message: &str) -> DbError {
        DbError::Query(Error::DatabaseError(kind, Box::new(message.to_owned())))
    }

    // The read-only cases are also met for real (tests/it/writes_refused.rs);
    // a full disk cannot be made here, so its messages are checked as the
    // two backends word them.
    #[test]
    fn what_refuses_every_write_is_told_apart() {
        let cases = [
            (
                database_error(DatabaseErrorKind::Unknown, "database or disk is full"),
                Some(WritesRefused::DiskFull),
            ),
            (
                database_error(
                    DatabaseErrorKind::Unknown,
                    "could not extend file \"base/16384/2619\": No space left on device",
                ),
                Some(WritesRefused::DiskFull),
            ),
            (
                database_error(
                    DatabaseErrorKind::ReadOnlyTransaction,
                    "cannot execute INSERT in a read-only transaction",
                ),
                Some(WritesRefused::ReadOnly),
            ),
            (
                database_error(
                    DatabaseErrorKind::Unknown,
                    "attempt to write a readonly database",
                ),
                Some(WritesRefused::ReadOnly),
            ),
            (
                DbError::Migration("cannot execute CREATE TABLE in a read-only transaction".into()),
                Some(WritesRefused::ReadOnly),
            ),
            (
                database_error(DatabaseErrorKind::UniqueViolation, "duplicate key"),
                None,
            ),
            (
                database_error(DatabaseErrorKind::Unknown, "database is locked"),
                None,
            ),
            (DbError::Connection("refused".into()), None),
        ];
        for (error, expected) in cases {
            assert_eq!(error.refuses_writes(), expected, "{error}");
        }
    }
}
