//! Load driver for hosted play: many concurrent games, each with its two
//! players and one spectator on live streams, moves chosen by the engine's
//! bot and sent through the HTTP API; measures the time from a command's
//! arrival to each of its facts on every stream, the errors, and the
//! server's memory per idle game. See docs/benchmarks.md, "Hosted play
//! under load".
//!
//!     cargo build --release
//!     cargo bench --bench play_load -- --server target/release/soulstone \
//!         [--backend sqlite|postgres] [--games 1000] [--moves 12] [--think-ms 4000]
//!
//! The server runs as its own process (so its memory is its own); the
//! driver prepares the database directly (accounts, API tokens signed with
//! the server's secret, games started as casual games between two
//! accounts), then plays every game through the API.

// A measuring program: a broken assumption stops it, as in the other benches.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use soulstone::auth::token::{TokenKind, TokenSigner, TokenSubject};
use soulstone::config::DatabaseUrl;
use soulstone::db::{Db, accounts};
use soulstone::hosted::{self, BroughtList};
use soulstone_engine::Seat;
use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::content::crew::CrewList;

const SECRET: &str = "load-driver-secret-0123456789abcdef0123456789abcdef";

struct Args {
    server: String,
    backend: String,
    games: usize,
    moves: usize,
    think_ms: u64,
    pg_admin: String,
}

fn args() -> Args {
    let mut args = Args {
        server: "target/release/soulstone".into(),
        backend: "sqlite".into(),
        games: 1000,
        moves: 12,
        think_ms: 4000,
        pg_admin: "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable".into(),
    };
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < raw.len() {
        let value = raw.get(i + 1).cloned().unwrap_or_default();
        match raw[i].as_str() {
            "--server" => args.server = value,
            "--backend" => args.backend = value,
            "--games" => args.games = value.parse().expect("--games N"),
            "--moves" => args.moves = value.parse().expect("--moves N"),
            "--think-ms" => args.think_ms = value.parse().expect("--think-ms N"),
            "--pg-admin" => args.pg_admin = value,
            // cargo bench passes --bench; nothing else is ours.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    args
}

/// The shipped 4th edition crew lists.
fn shipped_lists() -> Vec<BroughtList> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content/m4e/crews");
    let mut lists: Vec<BroughtList> = std::fs::read_dir(&dir)
        .expect("content/m4e/crews")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .map(|path| BroughtList {
            name: path.file_stem().unwrap().to_string_lossy().into_owned(),
            list: CrewList::parse(&std::fs::read_to_string(&path).unwrap()).unwrap(),
        })
        .collect();
    lists.sort_by(|a, b| a.name.cmp(&b.name));
    lists
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Commands as answered: (game, version sent at, version led to, when sent).
type Sent = Arc<Mutex<Vec<(i64, u64, u64, Instant)>>>;

/// Facts as received: (game, stream, seq) → when.
type Received = Arc<Mutex<HashMap<(i64, usize, u64), Instant>>>;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

fn main() {
    let args = args();
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let data = tempfile::tempdir().unwrap();
    let (url, schema) = match args.backend.as_str() {
        "postgres" => {
            let schema = format!("load_{}", std::process::id());
            let mut admin = <diesel::PgConnection as diesel::Connection>::establish(&args.pg_admin)
                .expect("PostgreSQL");
            diesel::connection::SimpleConnection::batch_execute(
                &mut admin,
                &format!("DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema};"),
            )
            .unwrap();
            let separator = if args.pg_admin.contains('?') {
                '&'
            } else {
                '?'
            };
            (
                format!(
                    "{}{separator}options=-csearch_path%3D{schema}",
                    args.pg_admin
                ),
                Some(schema),
            )
        }
        _ => (data.path().join("load.sqlite").display().to_string(), None),
    };
    let database = DatabaseUrl::parse(&url).unwrap();
    let db = Db::open(&database, 8).expect("database");
    let catalog = Arc::new(soulstone::content::load_for_server(None).unwrap());
    let lists = shipped_lists();
    let signer = TokenSigner::new(SECRET.as_bytes());
    let started = Instant::now();

    // Accounts (a player pair and a spectator per game) and their games.
    let hash = soulstone::auth::password::hash_password("load test password").unwrap();
    let mut conn = db.conn().unwrap();
    let now = chrono::Utc::now().naive_utc();
    let mut games = Vec::with_capacity(args.games);
    for g in 0..args.games {
        let mut ids = [0i64; 3];
        for (k, role) in ["a", "b", "s"].iter().enumerate() {
            let email = format!("{role}{g}@load.test");
            let account = accounts::create_account(
                &mut conn,
                &accounts::NewAccount {
                    email: &email,
                    display_name: &email,
                    password_hash: &hash,
                    club: None,
                    region: None,
                    is_admin: false,
                    created_at: now,
                },
            )
            .unwrap()
            .unwrap();
            accounts::mark_email_verified(&mut conn, account.id, now).unwrap();
            ids[k] = account.id;
        }
        let a = std::slice::from_ref(&lists[g % lists.len()]);
        let b = std::slice::from_ref(&lists[(g + 1) % lists.len()]);
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&(g as u64).to_le_bytes());
        let id = hosted::start_casual(
            &mut conn,
            &catalog,
            [ids[0], ids[1]],
            [a, b],
            soulstone_engine::fairness::Bytes32(seed),
            None,
            now,
        )
        .unwrap();
        let tokens = ids.map(|account| {
            signer
                .issue(
                    TokenSubject {
                        account_id: account,
                        generation: 0,
                    },
                    TokenKind::Api,
                    chrono::Utc::now(),
                    None,
                )
                .unwrap()
                .0
        });
        games.push((id, ids, tokens));
    }
    drop(conn);
    eprintln!(
        "prepared {} games and {} accounts in {:.1?}",
        args.games,
        args.games * 3,
        started.elapsed()
    );

    // The server, on its own.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let server = Server(
        Command::new(&args.server)
            .arg("serve")
            .env("DATABASE_URL", &url)
            .env("SOULSTONE_BIND", format!("127.0.0.1:{port}"))
            .env("SOULSTONE_SECRET", SECRET)
            .env("SOULSTONE_DATA_DIR", data.path())
            // One load driver is one client address with thousands of streams.
            .env("SOULSTONE_REQUESTS_PER_CLIENT", "100000")
            .env("SOULSTONE_PLAY_COMMANDS_PER_SECOND", "1000")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .spawn()
            .expect("the server binary (cargo build --release first)"),
    );
    let base = format!("http://127.0.0.1:{port}");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(4096)
            .build()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while http.get(format!("{base}/healthz")).send().await.is_err() {
            assert!(Instant::now() < deadline, "the server did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        let pid = server.0.id();
        let rss_started = rss_kib(pid);

        // Three streams a game: both players and the spectator.
        let received: Received = Arc::default();
        let stream_errors = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut readers = Vec::new();
        for (id, _, tokens) in &games {
            for (k, token) in tokens.iter().enumerate() {
                let http = http.clone();
                let url = format!("{base}/games/{id}/events?after=0");
                let token = token.clone();
                let received = Arc::clone(&received);
                let errors = Arc::clone(&stream_errors);
                let id = *id;
                readers.push(tokio::spawn(async move {
                    let response = match http.get(url).bearer_auth(token).send().await {
                        Ok(r) if r.status().is_success() => r,
                        _ => {
                            errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            return;
                        }
                    };
                    let mut response = response;
                    let mut buffer = String::new();
                    loop {
                        match response.chunk().await {
                            Ok(Some(chunk)) => {
                                let at = Instant::now();
                                buffer.push_str(&String::from_utf8_lossy(&chunk));
                                while let Some(end) = buffer.find("\n\n") {
                                    let event: String = buffer.drain(..end + 2).collect();
                                    if let Some(seq) = event
                                        .lines()
                                        .find_map(|l| l.strip_prefix("id: "))
                                        .and_then(|v| v.parse::<u64>().ok())
                                    {
                                        received.lock().unwrap().insert((id, k, seq), at);
                                    }
                                }
                            }
                            _ => return,
                        }
                    }
                }));
            }
        }
        // Every stream caught up with its game's setup facts.
        tokio::time::sleep(Duration::from_secs(5)).await;
        let rss_idle = rss_kib(pid);
        eprintln!(
            "{} streams open: server RSS {} MiB at start, {} MiB with every game's streams open and idle",
            readers.len(),
            rss_started / 1024,
            rss_idle / 1024
        );

        // Play: each game sends its moves, a think time apart.
        let sent: Sent = Arc::default();
        let command_errors = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let db = Arc::new(db);
        let mut players = Vec::new();
        let run_started = Instant::now();
        for (n, (id, _, tokens)) in games.iter().enumerate() {
            let (id, tokens) = (*id, tokens.clone());
            let http = http.clone();
            let base = base.clone();
            let db = Arc::clone(&db);
            let sent = Arc::clone(&sent);
            let errors = Arc::clone(&command_errors);
            let (moves, think) = (args.moves, args.think_ms);
            players.push(tokio::spawn(async move {
                // Spread the games' first moves over one think time.
                tokio::time::sleep(Duration::from_millis((n as u64 * 7919) % think.max(1))).await;
                for m in 0..moves {
                    let db = Arc::clone(&db);
                    let chosen = tokio::task::spawn_blocking(move || {
                        let mut conn = db.conn().ok()?;
                        let game = hosted::load(&mut conn, id).ok()?;
                        if game.state.ended {
                            return None;
                        }
                        let pending = soulstone_engine::pending(&game.state);
                        let seat = pending.decisions.first()?.seat;
                        let command = Bot::new(BotKind::Random, seat, m as u64).decide(&game.state)?;
                        Some((seat, game.state.version, command))
                    })
                    .await
                    .ok()
                    .flatten();
                    let Some((seat, version, command)) = chosen else {
                        return;
                    };
                    let token = &tokens[if seat == Seat::A { 0 } else { 1 }];
                    let body = serde_json::json!({
                        "version": version,
                        "idempotency_key": format!("load-{m}"),
                        "command": command,
                    });
                    let at = Instant::now();
                    let answer = http
                        .post(format!("{base}/api/v1/games/{id}/commands"))
                        .bearer_auth(token)
                        .json(&body)
                        .send()
                        .await;
                    match answer {
                        Ok(r) if r.status().is_success() => {
                            let json: serde_json::Value = r.json().await.unwrap_or_default();
                            let to = json["version"].as_u64().unwrap_or(version);
                            sent.lock().unwrap().push((id, version, to, at));
                        }
                        _ => {
                            errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                    let jitter = (id as u64 * 31 + m as u64 * 17) % think.max(1);
                    tokio::time::sleep(Duration::from_millis(think / 2 + jitter)).await;
                }
            }));
        }
        for player in players {
            let _ = player.await;
        }
        let played_for = run_started.elapsed();
        tokio::time::sleep(Duration::from_secs(3)).await;
        let rss_end = rss_kib(pid);

        // Latency: for every command, each of its facts on each of the
        // game's three streams.
        let received = received.lock().unwrap();
        let sent = sent.lock().unwrap();
        let mut latencies = Vec::new();
        let mut missing = 0usize;
        let mut facts = 0usize;
        for (id, from, to, at) in sent.iter() {
            for seq in from + 1..=*to {
                facts += 1;
                for k in 0..3 {
                    match received.get(&(*id, k, seq)) {
                        Some(got) => latencies.push(got.saturating_duration_since(*at).as_secs_f64() * 1000.0),
                        None => missing += 1,
                    }
                }
            }
        }
        latencies.sort_by(|a, b| a.total_cmp(b));
        let commands = sent.len();
        println!("backend: {}", args.backend);
        println!(
            "games: {}, streams: {}, commands: {commands} in {:.1?} ({:.0} a second), facts: {facts}",
            games.len(),
            games.len() * 3,
            played_for,
            commands as f64 / played_for.as_secs_f64()
        );
        println!(
            "command to fact on every stream: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} deliveries)",
            percentile(&latencies, 0.5),
            percentile(&latencies, 0.99),
            latencies.last().copied().unwrap_or(f64::NAN),
            latencies.len()
        );
        println!(
            "errors: {} commands, {} streams, {missing} facts never delivered",
            command_errors.load(std::sync::atomic::Ordering::Relaxed),
            stream_errors.load(std::sync::atomic::Ordering::Relaxed)
        );
        println!(
            "server RSS: {} MiB at start, {} MiB idle with {} streams, {} MiB after play; {:.0} KiB per idle game (its three streams included)",
            rss_started / 1024,
            rss_idle / 1024,
            games.len() * 3,
            rss_end / 1024,
            (rss_idle.saturating_sub(rss_started)) as f64 / games.len() as f64
        );
        drop(server);
    });
    if let Some(schema) = schema {
        let mut admin =
            <diesel::PgConnection as diesel::Connection>::establish(&args.pg_admin).unwrap();
        let _ = diesel::connection::SimpleConnection::batch_execute(
            &mut admin,
            &format!("DROP SCHEMA IF EXISTS {schema} CASCADE"),
        );
    }
}
