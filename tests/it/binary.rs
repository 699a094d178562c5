//! The real binary, as an operator starts it: defaults, migrations on start,
//! `/healthz`, and a graceful stop on SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{Backend, TestDb};

pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) address: String,
    log: std::sync::mpsc::Receiver<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `soulstone` with only the given environment (plus an ephemeral port).
pub(crate) fn start(data_dir: &std::path::Path, env: &[(&str, &str)]) -> Server {
    spawn(Command::new(env!("CARGO_BIN_EXE_soulstone")), data_dir, env)
}

/// Starts `soulstone` as [`start`] does, allowed only `open_files` open
/// files (soft and hard limit), as a small machine or a default systemd
/// unit might give it.
pub(crate) fn start_with_open_files(
    data_dir: &std::path::Path,
    env: &[(&str, &str)],
    open_files: u32,
) -> Server {
    let mut command = Command::new("sh");
    command.args([
        "-c",
        &format!("ulimit -n {open_files} && exec \"$0\""),
        env!("CARGO_BIN_EXE_soulstone"),
    ]);
    spawn(command, data_dir, env)
}

fn spawn(mut command: Command, data_dir: &std::path::Path, env: &[(&str, &str)]) -> Server {
    command
        .current_dir(data_dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("SOULSTONE_BIND", "127.0.0.1:0")
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("start soulstone");
    let stderr = child.stderr.take().expect("stderr");
    let (sender, log) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        let Ok(line) = log.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        if let Some(rest) = line.split("address=").nth(1) {
            let address = rest
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned();
            return Server {
                child,
                address,
                log,
            };
        }
        seen.push(line);
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("server did not start; log so far:\n{}", seen.join("\n"));
}

pub(crate) fn stop_with_sigterm(mut server: Server) -> (std::process::ExitStatus, Vec<String>) {
    let pid = server.child.id().to_string();
    let status = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = server.child.try_wait().expect("wait") {
            let log: Vec<String> = server.log.try_iter().collect();
            return (status, log);
        }
        assert!(Instant::now() < deadline, "server ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
}

async fn healthz(address: &str) -> serde_json::Value {
    reqwest::get(format!("http://{address}/healthz"))
        .await
        .expect("healthz request")
        .json()
        .await
        .expect("healthz json")
}

/// A bare start: SQLite under ./data, a generated development secret.
#[actix_web::test]
async fn bare_start_uses_embedded_sqlite_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), &[]);
    let health = healthz(&server.address).await;
    assert_eq!(health["status"], "ok");
    assert_eq!(health["database"], "sqlite");
    assert!(dir.path().join("data/soulstone.db").exists());
    assert!(dir.path().join("data/secret").exists());
    let (status, log) = stop_with_sigterm(server);
    assert!(status.success(), "exit status {status:?}");
    assert!(
        log.iter().any(|l| l.contains("shut down cleanly")),
        "{log:?}"
    );
}

#[actix_web::test]
async fn production_mode_without_secret_refuses_to_start() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_soulstone"))
        .current_dir(dir.path())
        .env_clear()
        .env("SOULSTONE_ENV", "production")
        .output()
        .expect("run soulstone");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("SOULSTONE_SECRET is required"), "{stderr}");
    assert!(!dir.path().join("data/secret").exists());
}

both_backends!(serves_on_database_url_and_migrate_command_works);

async fn serves_on_database_url_and_migrate_command_works(backend: Backend) {
    let db = TestDb::create(&backend);
    let url = db.url_setting();
    let dir = tempfile::tempdir().unwrap();
    let migrate = Command::new(env!("CARGO_BIN_EXE_soulstone"))
        .arg("migrate")
        .current_dir(dir.path())
        .env_clear()
        .env("DATABASE_URL", &url)
        .output()
        .expect("run migrate");
    assert!(
        migrate.status.success(),
        "{}",
        String::from_utf8_lossy(&migrate.stderr)
    );
    assert!(String::from_utf8_lossy(&migrate.stdout).contains("up to date"));

    let server = start(dir.path(), &[("DATABASE_URL", &url)]);
    let health = healthz(&server.address).await;
    assert_eq!(health["database"], backend.name());
    let (status, _) = stop_with_sigterm(server);
    assert!(status.success());
}
