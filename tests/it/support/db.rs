use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use soulstone::config::DatabaseUrl;
use soulstone::db::Db;

pub const POSTGRES_URL_VAR: &str = "SOULSTONE_TEST_POSTGRES_URL";
pub const REPORT_DIR_VAR: &str = "SOULSTONE_TEST_REPORT_DIR";

#[derive(Debug, Clone)]
pub enum Backend {
    Sqlite,
    /// The server URL that test schemas are created in.
    Postgres {
        admin_url: String,
    },
}

impl Backend {
    /// PostgreSQL when configured; otherwise a visible skip notice and `None`.
    pub fn postgres_or_announce_skip() -> Option<Self> {
        match std::env::var(POSTGRES_URL_VAR) {
            Ok(url) if !url.trim().is_empty() => Some(Self::Postgres { admin_url: url }),
            _ => {
                // Written to the real stderr, not the captured test output, so
                // a skipped PostgreSQL test is never silent.
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "SKIPPED on PostgreSQL ({}): set {POSTGRES_URL_VAR} to run it",
                    test_name()
                );
                None
            }
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Postgres { .. } => "postgres",
        }
    }
}

fn test_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("unnamed-test")
        .to_owned()
}

/// A fresh, empty database (SQLite file or PostgreSQL schema), removed on drop.
pub struct TestDb {
    pub url: DatabaseUrl,
    pub backend: Backend,
    _dir: Option<tempfile::TempDir>,
    pg_schema: Option<(String, String)>,
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

impl TestDb {
    pub fn create(backend: &Backend) -> Self {
        record_run(backend);
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let path = dir.path().join("test.db");
                Self {
                    url: DatabaseUrl::Sqlite(path),
                    backend: backend.clone(),
                    _dir: Some(dir),
                    pg_schema: None,
                }
            }
            Backend::Postgres { admin_url } => {
                let schema = format!(
                    "t_{}_{}_{}",
                    std::process::id(),
                    COUNTER.fetch_add(1, Ordering::Relaxed),
                    rand_suffix()
                );
                let mut admin = PgConnection::establish(admin_url)
                    .unwrap_or_else(|err| panic!("cannot reach PostgreSQL at {admin_url}: {err}"));
                admin
                    .batch_execute(&format!("CREATE SCHEMA {schema}"))
                    .expect("create test schema");
                let separator = if admin_url.contains('?') { '&' } else { '?' };
                let url = format!("{admin_url}{separator}options=-csearch_path%3D{schema}");
                Self {
                    url: DatabaseUrl::Postgres(url),
                    backend: backend.clone(),
                    _dir: None,
                    pg_schema: Some((admin_url.clone(), schema)),
                }
            }
        }
    }

    /// Another handle on the same database (a second instance, a restart);
    /// the original handle still owns it and removes it.
    pub fn share(&self) -> Self {
        Self {
            url: self.url.clone(),
            backend: self.backend.clone(),
            _dir: None,
            pg_schema: None,
        }
    }

    /// The address an operator would give the server (`DATABASE_URL`).
    pub fn url_setting(&self) -> String {
        match &self.url {
            DatabaseUrl::Postgres(url) => url.clone(),
            DatabaseUrl::Sqlite(path) => path.display().to_string(),
        }
    }

    /// Opens the database with migrations applied.
    pub fn open(&self) -> Db {
        Db::open(&self.url, 4).expect("open test database")
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((admin_url, schema)) = &self.pg_schema
            && let Ok(mut admin) = PgConnection::establish(admin_url)
        {
            let _ = admin.batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
        }
    }
}

fn rand_suffix() -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    format!("{nanos:x}")
}

/// Leaves a marker for the CI script's per-backend test count.
fn record_run(backend: &Backend) {
    let Ok(dir) = std::env::var(REPORT_DIR_VAR) else {
        return;
    };
    let dir = std::path::Path::new(&dir).join(backend.name());
    let _ = std::fs::create_dir_all(&dir);
    let name = test_name().replace("::", ".");
    let _ = std::fs::write(dir.join(name), b"ran\n");
}
