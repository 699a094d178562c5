//! A database that takes no writes (read-only, or its disk full): the
//! server does not start on one, saying why; and when a running server's
//! database stops taking writes, readiness (`/healthz`) says so within a
//! heartbeat and every write answers 503 with the reason, while pages that
//! only read still work; once it takes writes again, so does the server.
//!
//! On SQLite the file is made immutable (`chattr +i`, which holds even for
//! root); on PostgreSQL the server's sessions default to read-only
//! transactions, as on a standby. Turning a running SQLite database
//! read-only cannot be done here (its open connections keep writing to the
//! write-ahead log), so the running case is PostgreSQL's.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use diesel::{Connection, PgConnection, RunQueryDsl};

use crate::support::{Backend, TestDb};

const SECRET: &str = "writes-refused-test-secret-0123456789abcdef";

both_backends!(a_database_that_takes_no_writes_is_refused_at_start);

/// Makes an SQLite file immutable until dropped.
struct Immutable(std::path::PathBuf);

impl Immutable {
    fn new(path: std::path::PathBuf) -> Self {
        let status = Command::new("chattr")
            .arg("+i")
            .arg(&path)
            .status()
            .expect("chattr (e2fsprogs) runs");
        assert!(status.success(), "chattr +i {}", path.display());
        Self(path)
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
    }
}

async fn a_database_that_takes_no_writes_is_refused_at_start(backend: Backend) {
    let db = TestDb::create(&backend);
    // Migrated and with the shipped pools: nothing left for a start to write
    // but the heartbeat.
    drop(db.open());
    let url = db.url_setting();
    let (url, _immutable) = match backend {
        Backend::Sqlite => {
            let file = std::path::PathBuf::from(&url);
            (url, Some(Immutable::new(file)))
        }
        Backend::Postgres { .. } => (
            format!("{url}%20-cdefault_transaction_read_only%3Don"),
            None,
        ),
    };
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_soulstone"))
        .current_dir(dir.path())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("SOULSTONE_BIND", "127.0.0.1:0")
        .env("DATABASE_URL", &url)
        .env("SOULSTONE_SECRET", SECRET)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start soulstone");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server started on a database that takes no writes");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(!status.success(), "{log}");
    assert!(
        log.contains("refuses writes") && log.contains("read-only"),
        "the refusal says why: {log}"
    );
}

/// The address of database `name` on the server of `admin_url`.
fn database_url(admin_url: &str, name: &str) -> String {
    let mut url = url::Url::parse(admin_url).expect("a PostgreSQL URL");
    url.set_path(name);
    url.to_string()
}

fn set_read_only(admin: &mut PgConnection, name: &str, read_only: bool) {
    diesel::sql_query(format!(
        "ALTER DATABASE {name} SET default_transaction_read_only = {}",
        if read_only { "on" } else { "off" }
    ))
    .execute(admin)
    .unwrap();
    // The server's connections start again, with the new default.
    diesel::sql_query(format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = '{name}' AND pid <> pg_backend_pid()"
    ))
    .execute(admin)
    .unwrap();
}

async fn health_until(base: &str, writes: &str) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(reply) = reqwest::get(format!("{base}/healthz")).await {
            let status = reply.status().as_u16();
            if let Ok(body) = reply.json::<serde_json::Value>().await
                && body["writes"] == writes
            {
                let expected = if writes == "ok" { 200 } else { 503 };
                assert_eq!(status, expected, "{body}");
                return body;
            }
        }
        assert!(
            Instant::now() < deadline,
            "/healthz never said writes are {writes}"
        );
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
}

#[actix_web::test]
async fn a_running_server_says_when_its_database_stops_taking_writes() {
    let Some(Backend::Postgres { admin_url }) = Backend::postgres_or_announce_skip() else {
        return;
    };
    let name = format!(
        "soulstone_ro_{}_{}",
        std::process::id(),
        rand::random::<u32>()
    );
    let mut admin = PgConnection::establish(&admin_url).unwrap();
    diesel::sql_query(format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .unwrap();
    let url = database_url(&admin_url, &name);
    {
        let db = soulstone::db::Db::open(&soulstone::config::DatabaseUrl::Postgres(url.clone()), 2)
            .unwrap();
        let mut conn = db.conn().unwrap();
        crate::support::app::create_verified_account(&mut conn, "ro@example.org", "Ro", false);
    }
    let dir = tempfile::tempdir().unwrap();
    let server = crate::binary::start(
        dir.path(),
        &[("DATABASE_URL", url.as_str()), ("SOULSTONE_SECRET", SECRET)],
    );
    let base = format!("http://{}", server.address);
    let http = reqwest::Client::new();
    let sign_in = || {
        http.post(format!("{base}/api/v1/token"))
            .json(&serde_json::json!({"email": "ro@example.org", "password": crate::support::PASSWORD}))
            .send()
    };
    health_until(&base, "ok").await;
    assert_eq!(sign_in().await.unwrap().status(), 200);

    set_read_only(&mut admin, &name, true);
    let health = health_until(&base, "refused").await;
    assert_eq!(health["status"], "unavailable");
    assert_eq!(health["problem"], "the database is read-only", "{health}");
    // A write is refused with the reason, not a generic server error...
    let refused = sign_in().await.unwrap();
    assert_eq!(refused.status(), 503);
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "unavailable", "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("Nothing could be saved: the database is read-only"),
        "{body}"
    );
    // ...while what only reads still answers.
    let events = http.get(format!("{base}/events")).send().await.unwrap();
    assert_eq!(events.status(), 200);

    set_read_only(&mut admin, &name, false);
    health_until(&base, "ok").await;
    assert_eq!(sign_in().await.unwrap().status(), 200);

    drop(server);
    diesel::sql_query(format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut admin)
        .unwrap();
}
