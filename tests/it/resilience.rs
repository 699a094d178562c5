//! Conditions of the day: two instances over one database, and a server
//! killed (SIGKILL) while submissions are coming in.

use soulstone_engine::system::Malifaux;
use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::json;

use crate::events::{create_event, event_body, set_status};
use crate::support::{
    Backend, MailSetup, TestApp, TestClient, TestDb, app::create_verified_account,
};

both_backends!(
    event_revision_moves_with_every_change,
    two_instances_share_sessions_data_and_mail,
    mail_waits_while_smtp_is_down_and_goes_out_once_later,
    a_killed_server_keeps_every_acknowledged_submission,
    a_killed_server_keeps_every_acknowledged_game_command_once,
    simultaneous_submissions_leave_one_row_each,
    a_player_cap_holds_under_a_rush_of_sign_ups,
    a_burst_of_writes_to_one_event_all_succeed,
    a_write_the_database_gave_up_on_is_a_conflict_to_retry,
);

/// What a busy room does at once: a player double-clicks "register", both
/// players report the same game at the same moment, the opponent
/// double-clicks "confirm". One row each, no lost update, and the loser of
/// each race is told why.
async fn simultaneous_submissions_leave_one_row_each(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("rush-to@example.org", "TO", false).await;
    let to = app.api_client("rush-to@example.org").await;
    let event = create_event(&to, event_body("Rush")).await;
    set_status(&to, event, "registration").await;
    let mut players = Vec::new();
    for name in ["Quick", "Quicker"] {
        let email = format!("{}@example.org", name.to_lowercase());
        app.create_account(&email, name, false).await;
        let client = app.api_client(&email).await;
        let path = format!("/events/{event}/register");
        let (one, two) = tokio::join!(client.post(&path, json!({})), client.post(&path, json!({})));
        let winner = [&one, &two]
            .into_iter()
            .find(|r| r.0 == 201)
            .expect("one registration succeeds");
        let other = if one.0 == 201 { &two } else { &one };
        assert!(other.0 == 201 || other.0 == 409, "double-click: {other:?}");
        if other.0 == 201 {
            assert_eq!(
                other.1["id"], winner.1["id"],
                "the same registration, not a second one"
            );
        }
        players.push((winner.1["id"].as_i64().unwrap(), client));
    }
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    let names: Vec<&str> = detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "one row per player: {names:?}");
    set_status(&to, event, "running").await;
    for (id, _) in &players {
        to.post(
            &format!("/events/{event}/players/{id}/check-in"),
            json!({"checked_in": true}),
        )
        .await;
    }
    to.post(&format!("/events/{event}/rounds"), json!({})).await;
    to.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let table = &round["tables"][0];
    let game = table["game"].as_i64().unwrap();
    let version = table["version"].as_i64().unwrap();
    let result = format!("/events/{event}/games/{game}/result");
    // Both players report at the same moment, from the same page version.
    let (first, second) = tokio::join!(
        players[0].1.post(&result, json!({"a_strategy_vp": 4, "a_scheme_vp": 2, "b_strategy_vp": 1, "b_scheme_vp": 1, "version": version})),
        players[1].1.post(&result, json!({"a_strategy_vp": 1, "a_scheme_vp": 1, "b_strategy_vp": 4, "b_scheme_vp": 2, "version": version}))
    );
    let mut codes = [first.0, second.0];
    codes.sort_unstable();
    assert_eq!(codes, [200, 409], "{first:?} {second:?}");
    let loser = if first.0 == 409 { &first } else { &second };
    assert!(
        loser.1["message"]
            .as_str()
            .unwrap()
            .contains("changed by someone else"),
        "{loser:?}"
    );
    let reporter = if first.0 == 200 { 0 } else { 1 };
    let reported = if reporter == 0 { &first } else { &second };
    let expected_a_vp = if reporter == 0 { 6 } else { 2 };
    // The opponent double-clicks "confirm" on the same version.
    let confirm = format!("/events/{event}/games/{game}/confirm");
    let version = reported.1["version"].as_i64().unwrap();
    let opponent = &players[1 - reporter].1;
    let (c1, c2) = tokio::join!(
        opponent.post(&confirm, json!({"version": version})),
        opponent.post(&confirm, json!({"version": version}))
    );
    let mut codes = [c1.0, c2.0];
    codes.sort_unstable();
    assert_eq!(codes, [204, 409], "{c1:?} {c2:?}");
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let table = &round["tables"][0];
    assert_eq!(table["status"], "confirmed", "{table}");
    assert_eq!(table["score"]["a_vp"], expected_a_vp, "{table}");
}

/// The triggers behind the event-data cache: every insert and update of a
/// registration, round or game moves the event's revision on.
async fn event_revision_moves_with_every_change(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("rev@example.org", "Rev", false).await;
    let api = app.api_client("rev@example.org").await;
    let event = create_event(&api, event_body("Revisions")).await;
    let revision = || {
        app.with_conn(move |conn| {
            soulstone::db::events::data_revision(conn, event)
                .unwrap()
                .unwrap()
        })
    };
    let mut last = revision().await;
    set_status(&api, event, "running").await;
    let mut players = Vec::new();
    for name in ["A", "B"] {
        let (_, player) = api
            .post(&format!("/events/{event}/players"), json!({"name": name}))
            .await;
        players.push(player["id"].as_i64().unwrap());
        let now = revision().await;
        assert!(now > last, "a new registration moves the revision on");
        last = now;
    }
    let (status, _) = api
        .post(
            &format!("/events/{event}/players/{}/drop", players[0]),
            json!({"dropped": true}),
        )
        .await;
    assert_eq!(status, 204);
    let now = revision().await;
    assert!(now > last, "an updated registration moves the revision on");
    api.post(
        &format!("/events/{event}/players/{}/drop", players[0]),
        json!({"dropped": false}),
    )
    .await;
    for player in &players {
        api.post(
            &format!("/events/{event}/players/{player}/check-in"),
            json!({"checked_in": true}),
        )
        .await;
    }
    last = revision().await;
    let (status, round) = api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(status, 201, "{round}");
    let now = revision().await;
    assert!(now > last, "a new round and its games move the revision on");
    let game = round["tables"][0]["game"].as_i64().unwrap();
    api.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    last = revision().await;
    let (status, body) = api
        .post(
            &format!("/events/{event}/games/{game}/result"),
            json!({"a_strategy_vp": 3, "a_scheme_vp": 0, "b_strategy_vp": 1, "b_scheme_vp": 0}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(revision().await > last, "a result moves the revision on");
}

async fn two_instances_share_sessions_data_and_mail(backend: Backend) {
    let first = TestApp::spawn(backend).await;
    // The second instance sends through the first one's SMTP server, so one
    // mailbox shows whether a mail went out twice.
    let second = TestApp::spawn_on(first.db.share(), MailSetup::SmtpAt(first.smtp.url())).await;
    first.create_account("two@example.org", "Two", false).await;

    // Signed in on one instance is signed in on the other (cookies are per host).
    let browser = first.signed_in_client("two@example.org").await;
    let on_second = TestClient {
        base: second.address.clone(),
        http: browser.http.clone(),
    };
    assert_eq!(on_second.get("/account").await.status(), 200);

    // A token from one works on the other; revoked on one, refused on both.
    let api_first = first.api_client("two@example.org").await;
    let api_second = crate::support::ApiClient {
        base: second.address.clone(),
        ..api_first.clone()
    };
    let (status, me) = api_second.get("/me").await;
    assert_eq!(status, 200, "{me}");

    // Data written through one instance is read at once through the other.
    let event = create_event(&api_first, event_body("Two servers")).await;
    set_status(&api_second, event, "running").await;
    let (status, _) = api_second
        .post(
            &format!("/events/{event}/players"),
            // Starting points (a league's carried-over score) put a player
            // in the standings before any game.
            json!({"name": "Walk-in", "initial_points": 3}),
        )
        .await;
    assert_eq!(status, 201);
    let (_, detail) = api_first.get(&format!("/events/{event}")).await;
    assert_eq!(detail["status"], "running", "{detail}");
    assert!(
        detail["players"].to_string().contains("Walk-in"),
        "{detail}"
    );
    // Standings are served from a cache checked against the event's revision:
    // a change made through the other instance shows at once.
    let (_, rows) = api_first.get(&format!("/events/{event}/standings")).await;
    assert_eq!(rows.as_array().map(Vec::len), Some(1), "{rows}");
    // So is the whole page visitors without a session share.
    let page = format!("/events/{event}/standings");
    let (_, html) = first.new_client().get_text(&page).await;
    assert!(html.contains("Walk-in") && !html.contains("Late"), "{html}");
    api_second
        .post(
            &format!("/events/{event}/players"),
            json!({"name": "Late", "initial_points": 1}),
        )
        .await;
    let (_, rows) = api_first.get(&format!("/events/{event}/standings")).await;
    assert_eq!(rows.as_array().map(Vec::len), Some(2), "{rows}");
    let (_, html) = first.new_client().get_text(&page).await;
    assert!(html.contains("Late"), "{html}");

    // Mail queued through both instances goes out exactly once each.
    let addresses: Vec<String> = (0..6).map(|i| format!("new{i}@example.org")).collect();
    for (i, address) in addresses.iter().enumerate() {
        let app = if i % 2 == 0 { &first } else { &second };
        let response = app
            .new_client()
            .post_form(
                "/signup",
                &[
                    ("display_name", &format!("New {i}")),
                    ("email", address),
                    ("password", crate::support::PASSWORD),
                ],
            )
            .await;
        assert_eq!(response.status(), 303);
    }
    for address in &addresses {
        first.smtp.wait_for(address, "Confirm your email").await;
    }
    // Both senders keep polling for a while: nothing may go out a second time.
    actix_web::rt::time::sleep(Duration::from_secs(3)).await;
    let mut received: BTreeMap<String, usize> = BTreeMap::new();
    for mail in first.smtp.received() {
        for address in &addresses {
            if mail
                .header("To")
                .is_some_and(|to| to.contains(address.as_str()))
            {
                *received.entry(address.clone()).or_default() += 1;
            }
        }
    }
    for address in &addresses {
        assert_eq!(received.get(address), Some(&1), "{address}: {received:?}");
    }
    assert!(
        second.smtp.received().is_empty(),
        "the second instance was told to use the first one's SMTP server"
    );

    let (status, _) = api_first.post("/token/revoke", json!({})).await;
    assert!(status == 204 || status == 200, "revoke: {status}");
    let (status, _) = api_second.get("/me").await;
    assert_eq!(
        status, 401,
        "a token revoked on one instance is refused by the other"
    );
}

async fn a_killed_server_keeps_every_acknowledged_submission(backend: Backend) {
    let db = TestDb::create(&backend);
    let data_dir = tempfile::tempdir().unwrap();
    let url = db.url_setting();
    {
        let opened = db.open();
        let mut conn = opened.conn().unwrap();
        create_verified_account(&mut conn, "kill@example.org", "Kill", false);
    }
    // A fixed secret: sessions made before the crash stay valid after it.
    let env = [
        ("DATABASE_URL", url.as_str()),
        (
            "SOULSTONE_SECRET",
            "a fixed secret for the crash test, 32+ chars",
        ),
        ("SOULSTONE_DATA_DIR", "data"),
    ];
    let server = crate::binary::start(data_dir.path(), &env);
    let base = format!("http://{}", server.address);
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let api = crate::support::ApiClient {
        base: base.clone(),
        http: http.clone(),
        token: crate::support::app::api_token(&http, &base, "kill@example.org").await,
    };
    let event = create_event(&api, event_body("Power cut")).await;
    set_status(&api, event, "running").await;

    // A round in progress: 100 games waiting for results.
    for i in 0..200 {
        let (status, player) = api
            .post(
                &format!("/events/{event}/players"),
                json!({"name": format!("Seed {i:03}")}),
            )
            .await;
        assert_eq!(status, 201);
        api.post(
            &format!("/events/{event}/players/{}/check-in", player["id"]),
            json!({"checked_in": true}),
        )
        .await;
    }
    let (status, round) = api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(status, 201, "{round}");
    api.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let games: Vec<i64> = round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["game"].as_i64().unwrap())
        .collect();
    assert_eq!(games.len(), 100);

    // Submit results and walk-ins, alternately, as fast as the server
    // answers; kill it mid-stream.
    let submitter = {
        let api = api.clone();
        actix_web::rt::spawn(async move {
            let mut walk_ins = Vec::new();
            let mut results = Vec::new();
            for i in 0..10_000usize {
                let (path, body) = match games.get(i / 2).filter(|_| i % 2 == 0) {
                    // Distinct scores per game, so a mixed-up result would show.
                    Some(game) => (
                        format!("games/{game}/result"),
                        json!({"a_strategy_vp": 4, "a_scheme_vp": i % 5, "b_strategy_vp": 0, "b_scheme_vp": 1}),
                    ),
                    None => (
                        "players".to_owned(),
                        json!({"name": format!("Player {i:05}")}),
                    ),
                };
                let Ok(response) = api
                    .http
                    .post(format!("{}/api/v1/events/{event}/{path}", api.base))
                    .bearer_auth(&api.token)
                    .json(&body)
                    .send()
                    .await
                else {
                    break;
                };
                match response.status().as_u16() {
                    200 => results.push((games[i / 2], 4 + (i % 5) as i64)),
                    201 => walk_ins.push(body["name"].as_str().unwrap().to_owned()),
                    _ => break,
                }
            }
            (walk_ins, results)
        })
    };
    actix_web::rt::time::sleep(Duration::from_millis(1_500)).await;
    let mut server = server;
    server.child.kill().unwrap(); // SIGKILL: no graceful shutdown
    server.child.wait().unwrap();
    let (acknowledged, results) = submitter.await.unwrap();
    assert!(
        acknowledged.len() >= 5 && results.len() >= 5,
        "the server should have accepted some submissions before the kill: {} walk-ins, {} results",
        acknowledged.len(),
        results.len()
    );

    // Restart on the same database: everything acknowledged is there, once.
    let restarted = crate::binary::start(data_dir.path(), &env);
    let api = crate::support::ApiClient {
        base: format!("http://{}", restarted.address),
        ..api
    };
    let (status, detail) = api.get(&format!("/events/{event}")).await;
    assert_eq!(status, 200, "{detail}");
    let names: Vec<String> = detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for name in &names {
        *counts.entry(name.as_str()).or_default() += 1;
    }
    assert!(
        counts.values().all(|&c| c == 1),
        "duplicates after the crash"
    );
    for name in &acknowledged {
        assert!(
            counts.contains_key(name.as_str()),
            "{name} was acknowledged but is lost"
        );
    }
    // At most the one request in flight at the kill may have landed unacknowledged.
    let walk_ins = names.iter().filter(|n| n.starts_with("Player ")).count();
    assert!(
        walk_ins <= acknowledged.len() + 1,
        "{walk_ins} stored, {} acknowledged",
        acknowledged.len()
    );
    // Every acknowledged result is stored with its own score.
    let (_, round) = api.get(&format!("/events/{event}/rounds/1")).await;
    let scores: BTreeMap<i64, serde_json::Value> = round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["game"].as_i64().unwrap(), t["score"].clone()))
        .collect();
    for (game, a_vp) in &results {
        let score = &scores[game];
        assert_eq!(score["a_vp"].as_i64(), Some(*a_vp), "game {game}: {score}");
        assert_eq!(score["b_vp"].as_i64(), Some(1), "game {game}: {score}");
    }
    let stored = scores.values().filter(|s| !s.is_null()).count();
    assert!(
        stored <= results.len() + 1,
        "{stored} results stored, {} acknowledged",
        results.len()
    );
    // The standings agree: three points for each winner of a stored result.
    let (_, rows) = api.get(&format!("/events/{event}/standings")).await;
    let points: i64 = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_i64().unwrap())
        .sum();
    assert_eq!(points, 3 * stored as i64);
    // The restarted server accepts work again.
    let (status, _) = api
        .post(
            &format!("/events/{event}/players"),
            json!({"name": "After the crash"}),
        )
        .await;
    assert_eq!(status, 201);
}

async fn mail_waits_while_smtp_is_down_and_goes_out_once_later(backend: Backend) {
    use diesel::prelude::*;
    use soulstone::db::schema::mail_outbox;
    // A port bound but not listening: connections are refused, and no other
    // test can take it before the mail server comes up on it.
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket
        .bind(
            &"127.0.0.1:0"
                .parse::<std::net::SocketAddr>()
                .unwrap()
                .into(),
        )
        .unwrap();
    let port = socket.local_addr().unwrap().as_socket().unwrap().port();
    let app = TestApp::spawn_with(
        backend,
        MailSetup::SmtpAt(format!("smtp://127.0.0.1:{port}")),
    )
    .await;
    let response = app
        .new_client()
        .post_form(
            "/signup",
            &[
                ("display_name", "Later"),
                ("email", "later@example.org"),
                ("password", crate::support::PASSWORD),
            ],
        )
        .await;
    assert_eq!(response.status(), 303);
    let mail = app.mail_after_first_attempt("later@example.org").await;
    assert_eq!(mail.status.code(), "pending");

    // The mail server comes back; the retry is due (time passes: the backoff
    // is 30 s, so the test moves the schedule instead of waiting).
    socket.listen(16).unwrap();
    let smtp = crate::support::smtp::SmtpServer::start_on(socket.into(), port);
    let id = mail.id;
    app.with_conn(move |conn| {
        diesel::update(mail_outbox::table.find(id))
            .set(mail_outbox::next_attempt_at.eq(chrono::Utc::now().naive_utc()))
            .execute(conn)
            .unwrap()
    })
    .await;
    app.state.mail_wakeup.notify_one();
    smtp.wait_for("later@example.org", "Confirm your email")
        .await;
    actix_web::rt::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(smtp.received().len(), 1, "sent once, not again");
    let mails = app
        .with_conn(|conn| soulstone::db::mail::to_address(conn, "later@example.org").unwrap())
        .await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].status.code(), "sent");
    assert_eq!(mails[0].attempts, 2, "one failed attempt, one delivery");
}

/// Results on every table, drops, check-ins and walk-ins at the same
/// moment: each write also moves the event's data revision (a trigger
/// updating the event row), so lock order matters on PostgreSQL. No write
/// may fail with a server error (a deadlock aborts one transaction).
async fn a_burst_of_writes_to_one_event_all_succeed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("burst-to@example.org", "TO", false)
        .await;
    let to = app.api_client("burst-to@example.org").await;
    let event = create_event(&to, event_body("Burst")).await;
    set_status(&to, event, "running").await;
    let mut players = Vec::new();
    for i in 0..20 {
        let (code, p) = to
            .post(
                &format!("/events/{event}/players"),
                json!({"name": format!("Player {i}")}),
            )
            .await;
        assert_eq!(code, 201, "{p}");
        players.push(p["id"].as_i64().unwrap());
    }
    for id in &players {
        to.post(
            &format!("/events/{event}/players/{id}/check-in"),
            json!({"checked_in": true}),
        )
        .await;
    }
    let (code, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 201, "{round}");
    to.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let tables = round["tables"].as_array().unwrap().clone();
    assert_eq!(tables.len(), 10, "{round}");

    let mut writes = Vec::new();
    for (i, table) in tables.iter().enumerate() {
        let (client, game, version) = (
            to.clone(),
            table["game"].as_i64().unwrap(),
            table["version"].as_i64().unwrap(),
        );
        let path = format!("/events/{event}/games/{game}/result");
        let body = json!({"a_strategy_vp": 4, "a_scheme_vp": i % 3, "b_strategy_vp": 2, "b_scheme_vp": 1, "version": version});
        writes.push(actix_web::rt::spawn(async move {
            (path.clone(), client.post(&path, body).await)
        }));
    }
    // Players at tables drop, others check out for the next round,
    // walk-ins arrive.
    let seated: Vec<i64> = tables
        .iter()
        .take(2)
        .map(|t| t["player_b"].as_i64().unwrap())
        .collect();
    for id in seated {
        let (client, path) = (to.clone(), format!("/events/{event}/players/{id}/drop"));
        writes.push(actix_web::rt::spawn(async move {
            (
                path.clone(),
                client.post(&path, json!({"dropped": true})).await,
            )
        }));
    }
    for table in tables.iter().skip(2).take(4) {
        let id = table["player_a"].as_i64().unwrap();
        let (client, path) = (to.clone(), format!("/events/{event}/players/{id}/check-in"));
        writes.push(actix_web::rt::spawn(async move {
            (
                path.clone(),
                client.post(&path, json!({"checked_in": false})).await,
            )
        }));
    }
    for i in 0..3 {
        let (client, path) = (to.clone(), format!("/events/{event}/players"));
        writes.push(actix_web::rt::spawn(async move {
            let body = json!({"name": format!("Walk-in {i}")});
            (path.clone(), client.post(&path, body).await)
        }));
    }
    for write in writes {
        let (path, (code, body)) = write.await.unwrap();
        assert!((200..300).contains(&code), "{path}: {code} {body}");
    }
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    for table in round["tables"].as_array().unwrap() {
        assert_ne!(
            table["status"], "pending",
            "every result is stored: {table}"
        );
    }
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    assert_eq!(
        detail["players"].as_array().map(Vec::len),
        Some(23),
        "{detail}"
    );
}

/// When the database gives up on a write because of a concurrent one (a
/// PostgreSQL deadlock; SQLite still locked after its busy timeout), the
/// user is told to try again (409, not a server error) and nothing of that
/// write is kept.
async fn a_write_the_database_gave_up_on_is_a_conflict_to_retry(backend: Backend) {
    use actix_web::ResponseError;
    use diesel::connection::SimpleConnection;
    use soulstone::db::{DbError, WriteTransaction};

    let db = TestDb::create(&backend);
    let pool = db.open();
    pool.conn()
        .unwrap()
        .batch_execute(
            "CREATE TABLE probe (id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
             INSERT INTO probe (id, v) VALUES (1, 0), (2, 0);",
        )
        .unwrap();
    let bump = |conn: &mut soulstone::db::DbConnection, id: i32| {
        conn.batch_execute(&format!("UPDATE probe SET v = v + 1 WHERE id = {id}"))
            .map_err(DbError::from)
    };
    let failures: Vec<DbError> = match backend {
        Backend::Postgres { .. } => {
            // Two transactions take the same two rows in opposite orders.
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
            let writers: Vec<_> = [(1, 2), (2, 1)]
                .into_iter()
                .map(|(first, second)| {
                    let (pool, barrier) = (pool.clone(), barrier.clone());
                    std::thread::spawn(move || {
                        pool.conn().unwrap().write_transaction(|conn| {
                            bump(conn, first)?;
                            barrier.wait();
                            bump(conn, second)
                        })
                    })
                })
                .collect();
            writers
                .into_iter()
                .filter_map(|writer| writer.join().unwrap().err())
                .collect()
        }
        Backend::Sqlite => {
            // One writer holds the database past the other's busy timeout.
            let mut holder = pool.conn().unwrap();
            holder.batch_execute("BEGIN IMMEDIATE").unwrap();
            bump(&mut holder, 1).unwrap();
            let refused = pool.conn().unwrap().write_transaction(|conn| bump(conn, 2));
            holder.batch_execute("COMMIT").unwrap();
            refused.err().into_iter().collect()
        }
    };
    assert_eq!(
        failures.len(),
        1,
        "exactly one write gives way: {failures:?}"
    );
    let failure = failures.into_iter().next().unwrap();
    assert!(failure.is_transient_conflict(), "{failure}");
    let answer = soulstone::web::error::AppError::from(failure);
    assert_eq!(answer.status_code().as_u16(), 409);
    assert!(answer.public_message().contains("try again"), "{answer}");
    // One write went through whole; nothing of the other is left.
    let total: i64 = pool
        .conn()
        .unwrap()
        .write_transaction(|conn| {
            use diesel::prelude::*;
            diesel::sql_query("SELECT CAST(SUM(v) AS BIGINT) AS total FROM probe")
                .get_result::<Total>(conn)
                .map(|row| row.total)
                .map_err(DbError::from)
        })
        .unwrap();
    let expected = if matches!(backend, Backend::Sqlite) {
        1
    } else {
        2
    };
    assert_eq!(total, expected);
}

#[derive(diesel::QueryableByName)]
struct Total {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    total: i64,
}

/// Twenty-four players sign up at the same moment for an event capped at
/// five: five are registered and the rest waitlisted, on both backends.
async fn a_player_cap_holds_under_a_rush_of_sign_ups(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("cap-to@example.org", "TO", false).await;
    let to = app.api_client("cap-to@example.org").await;
    let mut body = event_body("Capped");
    body["player_cap"] = json!(5);
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    let mut clients = Vec::new();
    for i in 0..24 {
        let email = format!("rush{i}@example.org");
        app.create_account(&email, &format!("Rusher {i}"), false)
            .await;
        clients.push(app.api_client(&email).await);
    }
    let path = format!("/events/{event}/register");
    let handles: Vec<_> = clients
        .into_iter()
        .map(|client| {
            let path = path.clone();
            actix_web::rt::spawn(async move { client.post(&path, json!({})).await })
        })
        .collect();
    let mut answers = Vec::new();
    for handle in handles {
        answers.push(handle.await.unwrap());
    }
    let mut statuses = BTreeMap::new();
    for (code, entry) in &answers {
        assert_eq!(*code, 201, "{entry}");
        *statuses
            .entry(entry["status"].as_str().unwrap_or_default().to_owned())
            .or_insert(0) += 1;
    }
    assert_eq!(statuses.get("registered"), Some(&5), "{statuses:?}");
    assert_eq!(statuses.get("waitlisted"), Some(&19), "{statuses:?}");
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    let registered = detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["status"] == "registered")
        .count();
    assert_eq!(registered, 5, "{detail}");
}

/// SIGKILL during a burst of game commands: after a restart, every
/// acknowledged command is in the log exactly once (its key answers as a
/// repeat, at the version it led to), the log replays and verifies, and
/// the game goes on.
async fn a_killed_server_keeps_every_acknowledged_game_command_once(backend: Backend) {
    use soulstone::hosted;
    use soulstone_engine::Seat;
    use soulstone_engine::bot::{Bot, BotKind};

    let db = TestDb::create(&backend);
    let data_dir = tempfile::tempdir().unwrap();
    let url = db.url_setting();
    let opened = db.open();
    let game = {
        let mut conn = opened.conn().unwrap();
        let account = create_verified_account(&mut conn, "crash@example.org", "Crash", false);
        crate::support::app::start_practice_game(&mut conn, account, 7, None)
    };
    let env = [
        ("DATABASE_URL", url.as_str()),
        (
            "SOULSTONE_SECRET",
            "a fixed secret for the crash test, 32+ chars",
        ),
        ("SOULSTONE_DATA_DIR", "data"),
    ];
    let server = crate::binary::start(data_dir.path(), &env);
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let base = format!("http://{}", server.address);
    let token: serde_json::Value = http
        .post(format!("{base}/api/v1/token"))
        .json(&json!({"email": "crash@example.org", "password": crate::support::PASSWORD}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = token["token"].as_str().unwrap().to_owned();

    // Commands as fast as the server answers, each chosen from the stored
    // state; the server is killed mid-stream.
    let submitter = {
        let (http, token, base, opened) =
            (http.clone(), token.clone(), base.clone(), opened.clone());
        actix_web::rt::spawn(async move {
            let mut acknowledged: Vec<(String, serde_json::Value, u64)> = Vec::new();
            for n in 0..100_000u64 {
                let state = {
                    let mut conn = opened.conn().unwrap();
                    hosted::load::<Malifaux>(&mut conn, game).unwrap().state
                };
                let Some(command) = Bot::new(BotKind::Random, Seat::A, n).decide(&state) else {
                    break;
                };
                let key = format!("burst-{n}");
                let body =
                    json!({"version": state.version, "idempotency_key": key, "command": command});
                let Ok(response) = http
                    .post(format!("{base}/api/v1/games/{game}/commands"))
                    .bearer_auth(&token)
                    .json(&body)
                    .send()
                    .await
                else {
                    break;
                };
                if response.status().as_u16() != 200 {
                    break;
                }
                let Ok(reply) = response.json::<serde_json::Value>().await else {
                    break;
                };
                acknowledged.push((key, body, reply["version"].as_u64().unwrap()));
            }
            acknowledged
        })
    };
    actix_web::rt::time::sleep(Duration::from_millis(1_500)).await;
    let mut server = server;
    server.child.kill().unwrap(); // SIGKILL: no graceful shutdown
    server.child.wait().unwrap();
    let acknowledged = submitter.await.unwrap();
    assert!(
        acknowledged.len() >= 5,
        "only {} commands before the kill",
        acknowledged.len()
    );

    let restarted = crate::binary::start(data_dir.path(), &env);
    let base = format!("http://{}", restarted.address);
    let mut conn = opened.conn().unwrap();
    let stored = hosted::load::<Malifaux>(&mut conn, game).unwrap();
    let facts = hosted::facts_after::<Malifaux>(&mut conn, game, 0).unwrap();
    assert_eq!(
        facts.len() as u64,
        stored.state.version,
        "the log and the game agree"
    );
    assert!(
        facts.iter().zip(1u64..).all(|((seq, _), n)| *seq == n),
        "no gap, no repeat"
    );
    let last = acknowledged.last().unwrap().2;
    assert!(stored.state.version >= last, "acknowledged facts are kept");
    // Each acknowledged key answers as a repeat, at the version it led to.
    for (key, body, version) in acknowledged.iter().rev().take(5) {
        let reply: serde_json::Value = http
            .post(format!("{base}/api/v1/games/{game}/commands"))
            .bearer_auth(&token)
            .json(body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(reply["repeated"], true, "{key}: {reply}");
        assert_eq!(reply["version"].as_u64(), Some(*version), "{key}");
    }
    // And the game goes on.
    let command = Bot::new(BotKind::Random, Seat::A, 1)
        .decide(&stored.state)
        .unwrap();
    let response = http
        .post(format!("{base}/api/v1/games/{game}/commands"))
        .bearer_auth(&token)
        .json(&json!({"version": stored.state.version, "idempotency_key": "after", "command": command}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    drop(restarted);
}
