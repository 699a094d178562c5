//! One client cannot starve the others, on a server allowed the common
//! 1,024 open files: not by stalling request bodies (its share of requests
//! in flight), nor by holding connections that send nothing or half a
//! header (its share of connections, counted from accept, and the reserve
//! kept for addresses that hold few), from one address or from several.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::support::{Backend, TestDb};

both_backends!(
    a_client_stalling_request_bodies_cannot_starve_the_others,
    clients_holding_idle_connections_cannot_starve_the_others,
    stalled_uploads_from_a_hundred_addresses_cannot_starve_the_others,
);

/// The stalled-body attack: 1,050 connections from one address, each sending
/// its headers and one byte of a declared 100 kB body, against a server
/// allowed 1,024 open files (768 connections, 192 for one address). Another client is still answered within a
/// second, and so is a signed-in player at the attacker's own address (a
/// venue: signed-in requests spend their account's share, not the
/// address's); the attacker's requests beyond its share are refused and
/// closed at once, and the ones it holds end at the request deadline.
async fn a_client_stalling_request_bodies_cannot_starve_the_others(backend: Backend) {
    let db = TestDb::create(&backend);
    {
        let opened = db.open();
        let mut conn = opened.conn().unwrap();
        crate::support::app::create_verified_account(
            &mut conn,
            "player@example.org",
            "Pat at the venue",
            false,
        );
    }
    let data_dir = tempfile::tempdir().unwrap();
    let server = start_small_server(
        &db,
        &data_dir,
        &[
            ("SOULSTONE_REQUEST_TIMEOUT_SECS", "3"),
            ("SOULSTONE_REQUESTS_PER_CLIENT", "64"),
        ],
    );
    let venue_player = reqwest::Client::builder()
        .timeout(Duration::from_secs(1))
        .build()
        .unwrap();
    let token = crate::support::app::api_token(
        &venue_player,
        &format!("http://{}", server.address),
        "player@example.org",
    )
    .await;
    let attack_started = Instant::now();
    let mut stalled = Vec::new();
    for _ in 0..1050 {
        let mut stream = TcpStream::connect(&server.address).unwrap();
        stream
            .write_all(
                b"POST /signin HTTP/1.1\r\nHost: venue\r\n\
                  Content-Type: application/x-www-form-urlencoded\r\n\
                  Content-Length: 100000\r\n\r\ne",
            )
            .unwrap();
        stalled.push(stream);
    }

    // A player elsewhere loads a page while all of that is open.
    let player = reqwest::Client::builder()
        .local_address("127.0.0.2".parse::<std::net::IpAddr>().unwrap())
        .timeout(Duration::from_secs(1))
        .build()
        .unwrap();
    let started = Instant::now();
    let page = player
        .get(format!("http://{}/", server.address))
        .send()
        .await
        .expect("answered within a second during the attack");
    assert_eq!(page.status(), 200);
    eprintln!(
        "stalled-body attack: another client answered in {:?}",
        started.elapsed()
    );
    // The signed-in player shares the attacker's address (both 127.0.0.1).
    let started = Instant::now();
    let me = venue_player
        .get(format!("http://{}/api/v1/me", server.address))
        .bearer_auth(&token)
        .send()
        .await
        .expect("a signed-in player at the same address answered within a second");
    assert_eq!(me.status(), 200);
    eprintln!(
        "stalled-body attack: a signed-in player at its address answered in {:?}",
        started.elapsed()
    );

    // Past the deadline every stalled request has had its answer.
    let deadline = Duration::from_secs(3);
    actix_web::rt::time::sleep(
        (deadline + Duration::from_secs(1)).saturating_sub(attack_started.elapsed()),
    )
    .await;
    let mut answers: BTreeMap<String, usize> = BTreeMap::new();
    for stream in &mut stalled {
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut answer = Vec::new();
        // The server closes each of these connections after answering.
        stream
            .read_to_end(&mut answer)
            .expect("answered and closed");
        let status_line = String::from_utf8_lossy(&answer)
            .lines()
            .next()
            .unwrap_or("no answer")
            .to_owned();
        *answers.entry(status_line).or_default() += 1;
    }
    let refused = answers
        .get("HTTP/1.1 429 Too Many Requests")
        .copied()
        .unwrap_or(0);
    let timed_out = answers
        .get("HTTP/1.1 408 Request Timeout")
        .copied()
        .unwrap_or(0);
    // Past its share of connections (a quarter of 768) the address's
    // connections are closed on accept, before a byte is read; those
    // refused with 429 free theirs at once, so how many of each varies.
    let closed = answers.get("no answer").copied().unwrap_or(0);
    assert_eq!(refused + timed_out + closed, 1050, "{answers:?}");
    // The client's share of requests is held to the deadline and the rest
    // refused; a connection the server had not yet accepted when the first
    // share timed out may take a place in the next, so the split varies.
    assert!(timed_out >= 64, "{answers:?}");
    assert!(refused + closed >= 1050 - 3 * 64, "{answers:?}");
    eprintln!("stalled-body attack: {answers:?}");

    // The attacker's address is served again once its requests are over.
    let again = reqwest::get(format!("http://{}/", server.address))
        .await
        .unwrap();
    assert_eq!(again.status(), 200);
}

/// The binary under a 1,024 open-file limit (768 connections) on `db`,
/// with two workers and `settings` besides the database's.
fn start_small_server(
    db: &TestDb,
    data_dir: &tempfile::TempDir,
    settings: &[(&str, &str)],
) -> crate::binary::Server {
    let url = db.url_setting();
    let mut env = vec![
        ("DATABASE_URL", url.as_str()),
        ("SOULSTONE_DATA_DIR", "data"),
        ("SOULSTONE_WORKERS", "2"),
    ];
    env.extend_from_slice(settings);
    crate::binary::start_with_open_files(data_dir.path(), &env, 1024)
}

/// Connections from `from` to `server`, each sending `opening` (perhaps
/// nothing) and then waiting.
fn hold_connections(server: &str, from: [u8; 4], count: usize, opening: &[u8]) -> Vec<TcpStream> {
    let local = std::net::SocketAddr::from((from, 0));
    (0..count)
        .map(|_| {
            let socket =
                socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
            socket.bind(&local.into()).unwrap();
            let target: std::net::SocketAddr = server.parse().unwrap();
            socket.connect(&target.into()).unwrap();
            let mut stream: TcpStream = socket.into();
            // A connection the server closed on accept may refuse the write.
            let _ = stream.write_all(opening);
            stream
        })
        .collect()
}

/// How many of `streams` the server still holds open (the rest it closed).
fn still_open(streams: &[TcpStream]) -> usize {
    streams
        .iter()
        .filter(|stream| {
            stream.set_nonblocking(true).unwrap();
            let mut byte = [0u8; 1];
            let open = matches!(
                (&**stream).read(&mut byte),
                Err(ref err) if err.kind() == std::io::ErrorKind::WouldBlock
            );
            stream.set_nonblocking(false).unwrap();
            open
        })
        .count()
}

/// A page from `from`, within a second, while the attack goes on.
async fn answered_within_a_second(server: &str, from: [u8; 4], path: &str) {
    let client = reqwest::Client::builder()
        .local_address(std::net::IpAddr::from(from))
        .timeout(Duration::from_secs(1))
        .build()
        .unwrap();
    let started = Instant::now();
    let response = client
        .get(format!("http://{server}{path}"))
        .send()
        .await
        .unwrap_or_else(|err| panic!("{path} from {from:?} not answered within a second: {err}"));
    assert_eq!(response.status(), 200, "{path}");
    eprintln!(
        "idle connections: {path} from {from:?} answered in {:?}",
        started.elapsed()
    );
}

/// One address opens 1,000 connections, half sending nothing and half
/// half a header, and keeps opening more for three seconds, against a
/// server allowed 1,024 open files (768 connections). It keeps a quarter of
/// them; the rest are closed at once, and another address gets its page
/// and `/healthz` within a second, again and again. Then eight addresses
/// open 120 each: they fill the server to its reserve, past which only an
/// address holding at most one connection gets another, and a newcomer is
/// still answered within a second.
async fn clients_holding_idle_connections_cannot_starve_the_others(backend: Backend) {
    let db = TestDb::create(&backend);
    let data_dir = tempfile::tempdir().unwrap();
    let server = start_small_server(&db, &data_dir, &[]);
    let address = server.address.clone();
    // 1,024 open files leave 768 connections; a quarter for one address.
    let (capacity, share, reserve_at) = (768, 192, 576);

    let mut attack = hold_connections(&address, [127, 0, 0, 1], 500, b"");
    attack.extend(hold_connections(
        &address,
        [127, 0, 0, 1],
        500,
        b"GET / HTTP/1.1\r\nHost: venue\r\n",
    ));
    // The attacker keeps reopening while the others are served.
    let reopening = {
        let address = address.clone();
        std::thread::spawn(move || {
            let until = Instant::now() + Duration::from_secs(3);
            let mut opened = Vec::new();
            while Instant::now() < until {
                opened.extend(hold_connections(&address, [127, 0, 0, 1], 50, b"GET / HT"));
                opened.retain(|stream| still_open(std::slice::from_ref(stream)) == 1);
                std::thread::sleep(Duration::from_millis(50));
            }
            opened
        })
    };
    for _ in 0..5 {
        answered_within_a_second(&address, [127, 0, 0, 2], "/").await;
        answered_within_a_second(&address, [127, 0, 0, 2], "/healthz").await;
        actix_web::rt::time::sleep(Duration::from_millis(400)).await;
    }
    let reopened = reopening.join().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let held = still_open(&attack) + still_open(&reopened);
    eprintln!("idle connections: one address holds {held} of 1,000");
    assert!(held <= share, "{held}");
    drop((attack, reopened));
    // The server notices a thousand closed connections in its own time:
    // on a loaded host 300 ms was once too short, and the first of the
    // eight addresses found the reserve still full.
    std::thread::sleep(Duration::from_millis(1_000));

    let mut spread = BTreeMap::new();
    let mut crowd = Vec::new();
    for host in 10..18u8 {
        let streams = hold_connections(&address, [127, 0, 0, host], 120, b"");
        crowd.push(streams);
    }
    std::thread::sleep(Duration::from_millis(300));
    for (i, streams) in crowd.iter().enumerate() {
        spread.insert(10 + i, still_open(streams));
    }
    let total: usize = spread.values().sum();
    eprintln!("idle connections: eight addresses hold {total}: {spread:?}");
    assert!(
        total >= reserve_at - 8 && total <= reserve_at + 2 * 8,
        "{spread:?}"
    );
    assert!(total < capacity, "{spread:?}");
    answered_within_a_second(&address, [127, 0, 0, 3], "/").await;
    answered_within_a_second(&address, [127, 0, 0, 3], "/healthz").await;
    drop(crowd);
}

/// The stalled-body attack spread over 105 addresses, 10 connections each:
/// every address stays within its share of requests and of connections,
/// but together they would take every connection a server allowed 1,024
/// open files holds, to the request deadline. The reserve kept for
/// addresses holding at most one lets another address in within a second,
/// and every stalled connection is answered or closed once the deadline
/// passes.
async fn stalled_uploads_from_a_hundred_addresses_cannot_starve_the_others(backend: Backend) {
    let db = TestDb::create(&backend);
    let data_dir = tempfile::tempdir().unwrap();
    let server = start_small_server(&db, &data_dir, &[("SOULSTONE_REQUEST_TIMEOUT_SECS", "3")]);
    let address = server.address.clone();
    let started = Instant::now();
    let stalled: Vec<TcpStream> = (10..115u8)
        .flat_map(|host| {
            hold_connections(
                &address,
                [127, 0, 0, host],
                10,
                b"POST /signin HTTP/1.1\r\nHost: venue\r\n\
                  Content-Type: application/x-www-form-urlencoded\r\n\
                  Content-Length: 100000\r\n\r\ne",
            )
        })
        .collect();
    answered_within_a_second(&address, [127, 0, 0, 2], "/").await;
    answered_within_a_second(&address, [127, 0, 0, 3], "/healthz").await;
    let held = still_open(&stalled);
    eprintln!("stalled uploads from 105 addresses: the server holds {held} of 1,050");
    assert!(held < 768, "{held}");

    actix_web::rt::time::sleep((Duration::from_secs(4)).saturating_sub(started.elapsed())).await;
    for mut stream in stalled {
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut answer = Vec::new();
        // Answered (408) and closed, or closed on accept.
        let _ = stream.read_to_end(&mut answer);
    }
    answered_within_a_second(&address, [127, 0, 0, 10], "/").await;
}
