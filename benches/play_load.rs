//! Load driver for hosted play: many concurrent games, each with its two
//! players and one spectator on live streams, moves chosen by the engine's
//! bot and sent through the HTTP API; measures the time from a command's
//! arrival to each of its facts on every stream, and (for a sample of
//! games) to the game page each viewer's browser fetches when its stream
//! says the game moved on, as the table's script does; the errors, and
//! the server's memory per idle game. See docs/benchmarks.md, "Hosted play
//! under load".
//!
//!     cargo build --release
//!     cargo bench --bench play_load -- --server target/release/soulstone \
//!         [--backend sqlite|postgres] [--games 1000] [--moves 12] [--think-ms 4000] \
//!         [--page-games 100]
//!
//! The server runs as its own process (so its memory is its own); the
//! driver prepares the database directly (accounts, API tokens signed with
//! the server's secret, games started as casual games between two
//! accounts), then plays every game through the API.

// A measuring program: a broken assumption stops it, as in the other benches.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use soulstone_engine::system::Malifaux;
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
    /// How many games' viewers also fetch the game page on each change.
    page_games: usize,
    pg_admin: String,
}

fn args() -> Args {
    let mut args = Args {
        server: "target/release/soulstone".into(),
        backend: "sqlite".into(),
        games: 1000,
        moves: 12,
        think_ms: 4000,
        page_games: 100,
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
            "--page-games" => args.page_games = value.parse().expect("--page-games N"),
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
type Received = Arc<Mutex<std::collections::BTreeMap<(i64, usize, u64), Instant>>>;

/// Each sampled viewer's page fetches: (game, viewer) to the version each
/// page showed and when it had arrived whole.
type Pages = Arc<Mutex<HashMap<(i64, usize), Vec<(u64, Instant, usize)>>>>;

/// Fetches a game page as a signed-in browser and reads the version it
/// shows (`data-version`) and its size in bytes; none if it failed.
async fn fetch_page(http: &reqwest::Client, url: &str, cookie: &str) -> Option<(u64, usize)> {
    let response = http
        .get(url)
        .header("Cookie", cookie)
        .header("Accept", "text/html")
        .send()
        .await
        .ok()?;
    if !response.status().is_success() {
        return None;
    }
    let html = response.text().await.ok()?;
    let at = html.find("data-version=\"")? + "data-version=\"".len();
    let version = html[at..].split('"').next()?.parse().ok()?;
    Some((version, html.len()))
}

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
            &hosted::CasualStart {
                accounts: [ids[0], ids[1]],
                lists: [a, b],
                seed: soulstone_engine::fairness::Bytes32(seed),
                time_control_ms: None,
                content: &Default::default(),
            },
            now,
        )
        .unwrap();
        let token = |account: i64, kind: TokenKind| {
            signer
                .issue(
                    TokenSubject {
                        account_id: account,
                        generation: 0,
                    },
                    kind,
                    chrono::Utc::now(),
                    None,
                )
                .unwrap()
                .0
        };
        let tokens = ids.map(|account| token(account, TokenKind::Api));
        let sessions = ids.map(|account| token(account, TokenKind::Session));
        games.push((id, ids, tokens, sessions));
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
        let pages: Pages = Arc::default();
        let page_errors = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        // Set once play starts: what a stream sends before is the log it
        // caught up on when it opened, which the page already shows.
        let playing = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut readers = Vec::new();
        for (n, (id, _, tokens, sessions)) in games.iter().enumerate() {
            for (k, token) in tokens.iter().enumerate() {
                let http = http.clone();
                let url = format!("{base}/games/{id}/events?after=0");
                let page_url = format!("{base}/games/{id}");
                let token = token.clone();
                // The sampled games' viewers fetch the page as a browser
                // signed in would (the session cookie).
                let cookie = (n < args.page_games).then(|| {
                    format!("{}={}", soulstone::web::session::SESSION_COOKIE, sessions[k])
                });
                let received = Arc::clone(&received);
                let errors = Arc::clone(&stream_errors);
                let pages = Arc::clone(&pages);
                let page_errors = Arc::clone(&page_errors);
                let playing = Arc::clone(&playing);
                let id = *id;
                readers.push(tokio::spawn(async move {
                    let mut paged = 0u64;
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
                                let newest = received
                                    .lock()
                                    .unwrap()
                                    .range((id, k, paged + 1)..=(id, k, u64::MAX))
                                    .next_back()
                                    .map(|((_, _, seq), _)| *seq);
                                // The script fetches the page when the stream
                                // says the game moved on (facts arriving
                                // meanwhile wait for the next fetch).
                                if let (Some(cookie), Some(_)) = (&cookie, newest)
                                    && playing.load(std::sync::atomic::Ordering::Acquire)
                                {
                                    match fetch_page(&http, &page_url, cookie).await {
                                        Some((version, bytes)) => {
                                            pages
                                                .lock()
                                                .unwrap()
                                                .entry((id, k))
                                                .or_default()
                                                .push((version, Instant::now(), bytes));
                                        }
                                        None => {
                                            page_errors
                                                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                        }
                                    }
                                }
                                if let Some(newest) = newest {
                                    paged = paged.max(newest);
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
        playing.store(true, std::sync::atomic::Ordering::Release);
        for (n, (id, _, tokens, _)) in games.iter().enumerate() {
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
                        let game = hosted::load::<Malifaux>(&mut conn, id).ok()?;
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
        // The page: for each command of a sampled game, the first page each
        // viewer got at the command's last fact or later.
        let pages = pages.lock().unwrap();
        let mut page_latencies = Vec::new();
        let mut pages_missing = 0usize;
        let sampled: std::collections::HashSet<i64> =
            games.iter().take(args.page_games).map(|g| g.0).collect();
        for (id, _, to, at) in sent.iter().filter(|s| sampled.contains(&s.0)) {
            for k in 0..3 {
                let got = pages.get(&(*id, k)).and_then(|list| {
                    list.iter()
                        .filter(|(version, when, _)| version >= to && when >= at)
                        .map(|(_, when, _)| *when)
                        .min()
                });
                match got {
                    Some(got) => page_latencies.push(got.saturating_duration_since(*at).as_secs_f64() * 1000.0),
                    None => pages_missing += 1,
                }
            }
        }
        page_latencies.sort_by(|a, b| a.total_cmp(b));
        let page_sizes: Vec<usize> = pages.values().flatten().map(|p| p.2).collect();
        let page_kib = page_sizes.iter().sum::<usize>() as f64
            / page_sizes.len().max(1) as f64
            / 1024.0;
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
        if args.page_games == 0 {
            println!("command to the swapped page: no page fetched (--page-games 0)");
        } else {
            println!(
                "command to the swapped page ({} games, 3 viewers each): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} pages of {page_kib:.0} KiB on average; {pages_missing} never fetched, {} fetches failed)",
                args.page_games.min(games.len()),
                percentile(&page_latencies, 0.5),
                percentile(&page_latencies, 0.99),
                page_latencies.last().copied().unwrap_or(f64::NAN),
                page_latencies.len(),
                page_errors.load(std::sync::atomic::Ordering::Relaxed)
            );
        }
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
