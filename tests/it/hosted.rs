//! Hosted play's service, on both backends: a practice game against a bot
//! is stored as a log, a stale or refused command changes nothing, a
//! retried key is applied once, one of two simultaneous writers wins, and
//! a whole game played through `submit` ends, scores, and replays.

use soulstone::content::{load_for_server, shipped_crews};
use soulstone::hosted::{self, BroughtList, HostedError, HostedStatus, PracticeRequest, Submitted};
use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::state::NewGame;
use soulstone_engine::system::Malifaux;
use soulstone_engine::{GameState, PlayerCommand, Seat};

use crate::support::app::create_verified_account;
use crate::support::{Backend, TestDb};
use crate::support::{TestApp, extract_input_value, id_after, location};
use soulstone::db::Db;

both_backends!(
    a_digital_round_is_played_in_the_browser_and_reports_its_results,
    a_seasons_entries_the_engine_cannot_score_are_claimed_and_a_dispute_goes_to_the_organisers,
    clocks_run_for_the_player_waited_for_and_end_the_game_at_zero,
    a_resigned_event_game_goes_to_the_organisers,
    a_practice_game_is_started_and_played_from_the_pages_and_the_api,
    the_stream_resumes_without_a_gap_or_a_repeat,
    streams_of_one_game_at_different_places_each_get_their_own_facts,
    a_move_on_one_instance_reaches_a_spectator_on_another,
    a_practice_game_is_a_log_that_refuses_stale_and_repeated_commands,
    two_simultaneous_commands_at_one_version_apply_once,
    a_whole_practice_game_played_through_submit_ends_and_replays,
    a_player_invites_another_by_a_link_and_they_play,
    spectators_of_an_event_watch_behind_and_its_staff_live,
    an_absent_opponent_is_claimed_and_the_organisers_confirm,
    a_clock_running_out_can_let_the_score_so_far_stand,
    a_single_table_is_played_in_the_browser,
    a_declared_crew_is_offered_and_its_faction_kept,
    no_secret_reaches_the_opponent_or_spectators_over_a_whole_game,
    the_board_shows_zones_health_and_the_acting_models_reach,
    a_league_game_by_invitation_reports_itself_in_the_league,
    a_third_edition_practice_game_is_started_from_the_page_and_played_to_its_fifth_turn,
    a_third_edition_digital_round_plays_the_rulebook_scenario_and_reports_its_result,
);

fn lists(which: &[usize]) -> Vec<BroughtList> {
    let shipped: Vec<(&str, &str)> = shipped_crews()
        .iter()
        .copied()
        .filter(|(path, _)| path.contains("m4e"))
        .collect();
    which
        .iter()
        .map(|&i| {
            let (path, text) = shipped[i % shipped.len()];
            BroughtList {
                name: path.rsplit('/').next().unwrap_or(path).to_string(),
                list: CrewList::parse(text).unwrap(),
            }
        })
        .collect()
}

pub(crate) fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

/// A practice game for a new account; returns (database, pool, account, game).
pub(crate) fn practice(backend: &Backend, seed: u8) -> (TestDb, Db, i64, i64) {
    let test_db = TestDb::create(backend);
    let db = test_db.open();
    let mut conn = db.conn().unwrap();
    let account = create_verified_account(&mut conn, "player@example.org", "Player", false);
    let catalog = load_for_server(None).unwrap();
    let request = PracticeRequest {
        content: Default::default(),
        account_id: account,
        lists: lists(&[0, 1]),
        bot: BotKind::Random,
        bot_lists: lists(&[2]),
        seed: Bytes32([seed; 32]),
        time_control_ms: None,
    };
    let game = hosted::start_practice(&mut conn, &catalog, &request, now()).unwrap();
    drop(conn);
    (test_db, db, account, game)
}

/// The command the engine's own bot would send for the player.
pub(crate) fn a_legal_command(state: &GameState, salt: u64) -> PlayerCommand {
    Bot::new(BotKind::Random, Seat::A, state.version ^ salt)
        .decide(state)
        .expect("the game waits for the player")
}

async fn a_practice_game_is_a_log_that_refuses_stale_and_repeated_commands(backend: Backend) {
    let (_test_db, db, account, id) = practice(&backend, 3);
    let mut conn = db.conn().unwrap();
    let game = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    assert_eq!(game.status, HostedStatus::Playing);
    assert_eq!(game.seat_of(account), Some(Seat::A));
    let start = game.state.version;
    assert!(start > 0, "the setup's automatic steps are stored");

    // A stranger cannot act for a seat.
    let stranger = create_verified_account(&mut conn, "stranger@example.org", "Stranger", false);
    let command = a_legal_command(&game.state, 1);
    let refused =
        hosted::submit::<Malifaux>(&mut conn, id, stranger, start, "k1", command.clone(), now());
    assert!(
        matches!(refused, Err(HostedError::NotAPlayer)),
        "{refused:?}"
    );

    // A stale version, and a command the rules refuse: nothing changes.
    let stale = hosted::submit::<Malifaux>(
        &mut conn,
        id,
        account,
        start - 1,
        "k1",
        command.clone(),
        now(),
    );
    assert!(
        matches!(stale, Err(HostedError::MovedOn { current }) if current == start),
        "{stale:?}"
    );
    let nonsense = PlayerCommand::Pass;
    let refused = hosted::submit::<Malifaux>(&mut conn, id, account, start, "k2", nonsense, now());
    assert!(
        matches!(refused, Err(HostedError::Refused(_))),
        "{refused:?}"
    );
    assert_eq!(
        hosted::load::<Malifaux>(&mut conn, id)
            .unwrap()
            .state
            .version,
        start
    );

    // Applied once; the same key again is answered, not applied again.
    let applied =
        hosted::submit::<Malifaux>(&mut conn, id, account, start, "k1", command.clone(), now())
            .unwrap();
    let Submitted::Applied { version, facts, .. } = &applied else {
        panic!("applied: {applied:?}");
    };
    assert_eq!(*version, start + facts.len() as u64);
    let again =
        hosted::submit::<Malifaux>(&mut conn, id, account, start, "k1", command, now()).unwrap();
    assert_eq!(again, Submitted::Repeated { version: *version });
    let reloaded = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    assert_eq!(reloaded.state.version, *version);
    let stored = hosted::facts_after::<Malifaux>(&mut conn, id, 0).unwrap();
    assert_eq!(stored.len() as u64, *version);
    assert!(stored.iter().zip(1..).all(|((seq, _), n)| *seq == n));
}

async fn two_simultaneous_commands_at_one_version_apply_once(backend: Backend) {
    let (_test_db, db, account, id) = practice(&backend, 5);
    let state = hosted::load::<Malifaux>(&mut db.conn().unwrap(), id)
        .unwrap()
        .state;
    let start = state.version;
    let racers: Vec<_> = (0..2)
        .map(|i| {
            let db = db.clone();
            let command = a_legal_command(&state, i);
            std::thread::spawn(move || {
                let mut conn = db.conn().unwrap();
                hosted::submit::<Malifaux>(
                    &mut conn,
                    id,
                    account,
                    start,
                    &format!("race-{i}"),
                    command,
                    now(),
                )
            })
        })
        .collect();
    let results: Vec<_> = racers.into_iter().map(|r| r.join().unwrap()).collect();
    let applied = results
        .iter()
        .filter(|r| matches!(r, Ok(Submitted::Applied { .. })))
        .count();
    let moved_on = results
        .iter()
        .filter(|r| matches!(r, Err(HostedError::MovedOn { .. })))
        .count();
    assert_eq!((applied, moved_on), (1, 1), "{results:?}");
    let mut conn = db.conn().unwrap();
    let game = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    let winner = results.iter().find_map(|r| r.as_ref().ok()).unwrap();
    assert_eq!(game.state.version, winner.version());
    assert_eq!(
        hosted::facts_after::<Malifaux>(&mut conn, id, 0)
            .unwrap()
            .len() as u64,
        game.state.version,
        "no fact of the loser was written"
    );
}

async fn a_whole_practice_game_played_through_submit_ends_and_replays(backend: Backend) {
    let (_test_db, db, account, id) = practice(&backend, 8);
    let mut conn = db.conn().unwrap();
    for n in 0..20_000u64 {
        let game = hosted::load::<Malifaux>(&mut conn, id).unwrap();
        if game.status == HostedStatus::Finished {
            break;
        }
        let command = a_legal_command(&game.state, n);
        hosted::submit::<Malifaux>(
            &mut conn,
            id,
            account,
            game.state.version,
            &format!("cmd-{n}"),
            command,
            now(),
        )
        .unwrap_or_else(|e| panic!("command {n}: {e}"));
    }
    let game = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    assert_eq!(game.status, HostedStatus::Finished);
    assert!(game.state.ended);
    let encounter = game.state.encounter.as_deref().unwrap();
    assert_eq!(encounter.turn, 4);
    assert!(
        game.state.version > hosted::SNAPSHOT_EVERY as u64,
        "long enough to be loaded from a snapshot"
    );
    // The stored log, replayed from the setup alone, gives the same state.
    let row = soulstone::db::hosted::find_game(&mut conn, id)
        .unwrap()
        .unwrap();
    assert_eq!(
        (row.vp_a, row.vp_b),
        (
            Some(i32::from(game.state.player(Seat::A).victory_points)),
            Some(i32::from(game.state.player(Seat::B).victory_points))
        )
    );
    let setup: NewGame = serde_json::from_str(&row.setup).unwrap();
    let log = soulstone_engine::log::GameLog {
        log_format: soulstone_engine::log::LOG_FORMAT,
        rules_version: soulstone_engine::log::RULES_VERSION,
        setup,
        facts: hosted::facts_after::<Malifaux>(&mut conn, id, 0)
            .unwrap()
            .into_iter()
            .map(|(_, fact)| fact)
            .collect(),
        commands: Vec::new(),
        content: None,
        seal: None,
    };
    assert_eq!(log.replay().unwrap(), game.state);
    log.verify()
        .expect("every shuffle matches the revealed seed");
    // The finished log keeps every command the game took (the player's,
    // the bot's, those taken by standing answers): played through the
    // rules again they make every fact, and the server's seal holds.
    let mut finished = hosted::finished_log::<Malifaux>(&mut conn, id).unwrap();
    assert_eq!(finished.facts, log.facts);
    assert!(finished.commands.len() > 20, "{}", finished.commands.len());
    match finished.replay_commands().unwrap() {
        soulstone_engine::log::CommandReplay::Same { commands, state } => {
            assert_eq!(commands, finished.commands.len());
            // The same position (the published setup holds only the crews
            // hired, so the states differ in the lists not chosen).
            use soulstone_engine::log::Position;
            assert_eq!(Position::of(&state), Position::of(&game.state));
        }
        other => panic!("the commands were not played again: {other:?}"),
    }
    let signer = hosted::seal::LogSigner::from_secret(b"a server secret of thirty-two bytes");
    signer.seal(&mut finished);
    let key = signer.public_key_hex();
    assert_eq!(
        hosted::seal::check_seal(&finished, Some(&key)),
        Ok(hosted::seal::SealCheck::Signed { key: key.clone() })
    );
    // A finished game takes no more commands.
    let over = hosted::submit::<Malifaux>(
        &mut conn,
        id,
        account,
        game.state.version,
        "late",
        PlayerCommand::Pass,
        now(),
    );
    assert!(matches!(over, Err(HostedError::Over)), "{over:?}");

    // After an upgrade: a game stored under an older rules version, whose
    // snapshots the new engine cannot read, still loads (from its setup and
    // facts) and shows the same game.
    {
        use diesel::prelude::*;
        use soulstone::db::schema::{hosted_game_snapshots as snap, hosted_games as g};
        diesel::update(g::table.find(id))
            .set(g::rules_version.eq(2))
            .execute(&mut conn)
            .unwrap();
        diesel::update(snap::table.filter(snap::game_id.eq(id)))
            .set(snap::state.eq("{\"an older engine's state\": true}"))
            .execute(&mut conn)
            .unwrap();
    }
    let upgraded = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    assert_eq!(upgraded.state, game.state);
}

/// Every hidden value in `json` belongs to `seat`: no other player's card,
/// scheme or secret choice is in it (none at all for a spectator).
fn assert_only_own_secrets(json: &serde_json::Value, seat: Option<&str>, what: &str) {
    match json {
        serde_json::Value::Object(map) => {
            if let Some(owner) = map.get("hidden_from_all_but").and_then(|o| o.as_str()) {
                assert!(
                    Some(owner) == seat || !map.contains_key("value"),
                    "{what}: a secret of seat {owner} reached {seat:?}: {json}"
                );
            }
            for value in map.values() {
                assert_only_own_secrets(value, seat, what);
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                assert_only_own_secrets(item, seat, what);
            }
        }
        _ => {}
    }
}

/// `&quot;` and friends back to characters (a hidden input's value).
pub(crate) fn unescape_html(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('&') {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find(';') else {
            break;
        };
        let entity = &rest[start + 1..start + end];
        let decoded = match entity {
            "quot" => Some('"'),
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => out.push(c),
            None => out.push_str(&rest[start..=start + end]),
        }
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out
}

async fn a_practice_game_is_started_and_played_from_the_pages_and_the_api(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (account, browser) = app.user("player@example.org", "Player").await;
    let (_, spectator) = app.user("watcher@example.org", "Watcher").await;
    let (status, page) = browser.get_text("/play").await;
    assert_eq!(status, 200);
    assert!(page.contains("name=\"crew\""), "{page}");
    assert!(page.contains("mudlark-50"));

    // Nothing brought: refused, with the reason.
    let refused = browser
        .post_form("/play/practice", &[("bot", "random")])
        .await;
    assert_eq!(refused.status().as_u16(), 422);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("Bring at least one crew")
    );

    let started = browser
        .post_form(
            "/play/practice",
            &[
                ("crew", "mudlark-50"),
                ("crew", "tidewright-50"),
                ("bot", "random"),
            ],
        )
        .await;
    assert_eq!(started.status().as_u16(), 303);
    let id = id_after(&location(&started), "/games/");

    // The page shows the decision as forms; one is sent as the page sends it.
    let (status, page) = browser.get_text(&format!("/games/{id}")).await;
    assert_eq!(status, 200);
    assert!(page.contains("Your decision"), "{page}");
    let version = extract_input_value(&page, "version").unwrap();
    let key = extract_input_value(&page, "key").unwrap();
    let command = unescape_html(&extract_input_value(&page, "command").expect("a command form"));
    let sent = browser
        .post_form(
            &format!("/games/{id}/command"),
            &[
                ("version", &version),
                ("key", &key),
                ("kind", "command"),
                ("command", &command),
            ],
        )
        .await;
    assert_eq!(sent.status().as_u16(), 303);
    let after: u64 = version.parse::<u64>().unwrap();
    let now_at = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap().state.version)
        .await;
    if now_at <= after {
        let (_, page) = browser.get_text(&format!("/games/{id}")).await;
        panic!("the page's command was not applied ({command}): {page}");
    }
    // The same form again is stale: nothing happens, the page says why.
    let stale = browser
        .post_form(
            &format!("/games/{id}/command"),
            &[
                ("version", &version),
                ("key", "another-key"),
                ("kind", "command"),
                ("command", &command),
            ],
        )
        .await;
    assert_eq!(stale.status().as_u16(), 303);
    let (_, page) = browser.get_text(&format!("/games/{id}")).await;
    assert!(page.contains("The game moved on"), "{page}");
    // A spectator's page has no hand and no decision.
    let (status, watched) = spectator.get_text(&format!("/games/{id}")).await;
    assert_eq!(status, 200);
    assert!(watched.contains("You are watching"));
    assert!(!watched.contains("Your hand") && !watched.contains("Your decision"));

    // The API: the player's seat and view; a stale version is a conflict;
    // a key applied twice is answered, not applied again.
    let api = app.api_client("player@example.org").await;
    let watcher = app.api_client("watcher@example.org").await;
    let (status, game) = api.get(&format!("/games/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(game["seat"], "a");
    let stale_body = serde_json::json!({
        "version": 0, "idempotency_key": "stale", "command": {"type": "pass"}
    });
    let (status, body) = api.post(&format!("/games/{id}/commands"), stale_body).await;
    assert_eq!(status, 409, "{body}");
    // The refusal carries the game as it is now, seen as the player sees it.
    assert_eq!(body["version"], now_at, "{body}");
    assert_eq!(body["view"]["version"], now_at, "{body}");
    assert_only_own_secrets(&body, Some("a"), "a stale command's answer");
    let (status, _) = watcher
        .post(
            &format!("/games/{id}/commands"),
            serde_json::json!({"version": now_at, "idempotency_key": "w", "command": {"type": "pass"}}),
        )
        .await;
    assert_eq!(status, 403, "a spectator sends no command");

    // No log, replay or verification before the end.
    assert_eq!(
        browser
            .get(&format!("/games/{id}/log.json"))
            .await
            .status()
            .as_u16(),
        409
    );

    // The rest of the game through the API, the player's commands chosen
    // by the engine's bot; every response is scanned for secrets.
    let mut repeated_checked = false;
    for n in 0..20_000u64 {
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
            .await;
        if game.status == HostedStatus::Finished {
            break;
        }
        let command = a_legal_command(&game.state, n);
        let body = serde_json::json!({
            "version": game.state.version,
            "idempotency_key": format!("api-{n}"),
            "command": command,
        });
        let (status, response) = api
            .post(&format!("/games/{id}/commands"), body.clone())
            .await;
        assert_eq!(status, 200, "command {n}: {response}");
        assert_only_own_secrets(&response, Some("a"), "a command's facts");
        if !repeated_checked {
            let (status, again) = api.post(&format!("/games/{id}/commands"), body).await;
            assert_eq!(
                (status, &again["repeated"]),
                (200, &serde_json::json!(true))
            );
            assert_eq!(again["version"], response["version"]);
            repeated_checked = true;
        }
        if n % 25 == 0 {
            let (_, mine) = api.get(&format!("/games/{id}")).await;
            assert_only_own_secrets(&mine, Some("a"), "the player's view");
            let (_, theirs) = watcher.get(&format!("/games/{id}")).await;
            assert_only_own_secrets(&theirs, None, "a spectator's view");
            assert!(theirs["view"]["players"][0].get("hand").is_none());
        }
    }
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
        .await;
    assert_eq!(game.status, HostedStatus::Finished);
    assert_eq!(game.seat_of(account), Some(Seat::A));
    // The whole log, as each may read it.
    let (status, facts) = api.get(&format!("/games/{id}/facts?after=0")).await;
    assert_eq!(status, 200);
    assert_eq!(facts.as_array().unwrap().len() as u64, game.state.version);
    assert_only_own_secrets(&facts, Some("a"), "the player's log");
    let (_, facts) = watcher.get(&format!("/games/{id}/facts?after=0")).await;
    assert_only_own_secrets(&facts, None, "a spectator's log");
    let (_, page) = browser.get_text("/play").await;
    assert!(page.contains(&format!("/games/{id}")) && page.contains("Finished"));

    // The finished game: its log verifies, and keeps of the two lists the
    // player brought only the one hired; the replay steps through it.
    let response = watcher_page(&app, &format!("/games/{id}/log.json")).await;
    let log = soulstone_engine::log::GameLog::from_json(&response).unwrap();
    assert_eq!(log.facts.len() as u64, game.state.version);
    log.verify().expect("the downloaded log verifies");
    let offers = &log.setup.encounter.as_ref().unwrap().offers;
    assert_eq!(
        offers[0].value.as_ref().unwrap().len(),
        1,
        "only the hired list"
    );
    // It carries its commands, which make every fact again, and the
    // server's seal, under the key the server publishes.
    assert!(matches!(
        log.replay_commands(),
        Ok(soulstone_engine::log::CommandReplay::Same { .. })
    ));
    let key = watcher_page(&app, "/games/signing-key").await;
    assert_eq!(
        soulstone::hosted::seal::check_seal(&log, Some(key.trim())),
        Ok(soulstone::hosted::seal::SealCheck::Signed {
            key: key.trim().to_string()
        })
    );
    let (status, verified) = spectator.get_text(&format!("/games/{id}/verify")).await;
    assert_eq!(status, 200);
    assert!(verified.contains("matches the shuffles"), "{verified}");
    assert!(
        verified.contains("played through the rules again, make every fact it holds"),
        "{verified}"
    );
    assert!(verified.contains(key.trim()), "the page names the key");
    let (status, start) = spectator.get_text(&format!("/games/{id}/replay")).await;
    assert_eq!(status, 200);
    assert!(start.contains("Replay: after fact 0 of"), "{start}");
    assert!(start.contains("Next turn"));
    let half = game.state.version / 2;
    let (status, middle) = browser
        .get_text(&format!("/games/{id}/replay?at={half}"))
        .await;
    assert_eq!(status, 200);
    assert!(middle.contains("Previous fact") && middle.contains("Next fact"));
    // The player's own hand shows whenever it held cards at that point.
    let mut then = soulstone_engine::GameState::new(log.setup.clone()).unwrap();
    for fact in &log.facts[..half as usize] {
        soulstone_engine::apply(&mut then, fact);
    }
    assert_eq!(
        middle.contains("Your hand"),
        !then.player(Seat::A).hand.is_empty(),
        "the replay shows the player's hand as it was"
    );
    assert!(!middle.contains("name=\"kind\""), "no forms in a replay");
}

async fn watcher_page(app: &TestApp, path: &str) -> String {
    let (status, text) = crate::support::TestClient::new(&app.address)
        .get_text(path)
        .await;
    assert_eq!(status, 200, "{text}");
    text
}

/// Reads server-sent events until `want` facts have come: (id, data).
pub(crate) async fn read_facts(
    response: &mut reqwest::Response,
    buffer: &mut String,
    want: usize,
) -> Vec<(u64, serde_json::Value)> {
    let mut facts = Vec::new();
    while facts.len() < want {
        if let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            let mut id = None;
            let mut data = None;
            for line in event.lines() {
                if let Some(v) = line.strip_prefix("id: ") {
                    id = v.parse::<u64>().ok();
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data = serde_json::from_str(v).ok();
                }
            }
            if let (Some(id), Some(data)) = (id, data) {
                facts.push((id, data));
            }
            continue;
        }
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), response.chunk())
            .await
            .expect("a fact within 10 s")
            .expect("the stream reads")
            .expect("the stream is open");
        buffer.push_str(std::str::from_utf8(&chunk).unwrap());
    }
    facts
}

/// The practice page offers the 3rd edition crews too: a player bringing
/// one plays a 3rd edition encounter against a bot bringing another (a mix
/// of editions is refused, saying which lists), to the end of turn 5, and
/// the game page shows its held schemes to its player only.
async fn a_third_edition_practice_game_is_started_from_the_page_and_played_to_its_fifth_turn(
    backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let (account, browser) = app.user("player@example.org", "Player").await;
    let (_, page) = browser.get_text("/play").await;
    assert!(page.contains("assayers-50"), "{page}");
    assert!(page.contains("Malifaux 3rd edition"));

    let mixed = browser
        .post_form(
            "/play/practice",
            &[
                ("crew", "assayers-50"),
                ("crew", "mudlark-50"),
                ("bot", "random"),
            ],
        )
        .await;
    assert_eq!(mixed.status().as_u16(), 422);
    let text = mixed.text().await.unwrap();
    assert!(text.contains("must be of one edition"), "{text}");
    assert!(text.contains("Malifaux 4th edition"), "{text}");

    let started = browser
        .post_form(
            "/play/practice",
            &[("crew", "assayers-50"), ("bot", "random")],
        )
        .await;
    assert_eq!(started.status().as_u16(), 303);
    let id = id_after(&location(&started), "/games/");
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
        .await;
    assert_eq!(game.state.edition, soulstone_engine::Edition::Third);

    let mut saw_schemes = false;
    for n in 0..20_000u64 {
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
            .await;
        if game.status == HostedStatus::Finished {
            break;
        }
        // Once both crews hold their two schemes, the player's page names
        // its own and the spectators' API view holds none.
        let held = &game.state.encounter.as_deref().unwrap().choices.schemes;
        if !saw_schemes && held[0].len() == 2 && held[1].len() == 2 {
            saw_schemes = true;
            // With the model a scheme asks for, where it asks for one.
            let mine: Vec<Vec<String>> = held[0]
                .iter()
                .filter_map(|h| h.value.as_ref())
                .map(|v| {
                    let name = |id: Option<soulstone_engine::model::ModelId>| {
                        id.and_then(|t| game.state.model(t))
                            .map(|m| m.card.name.to_string())
                    };
                    // The page labels a target as it labels the model
                    // everywhere ("Grub 2 (enemy)"): its card's name is in it.
                    let mut words = vec![v.name.clone()];
                    words.extend(name(v.target));
                    words.extend(name(v.second_target));
                    words
                })
                .collect();
            let (_, page) = browser.get_text(&format!("/games/{id}")).await;
            let schemes = page
                .split("<h2")
                .find(|section| section.contains("Your schemes") || section.contains("Your scheme"))
                .unwrap_or(&page);
            for words in &mine {
                for word in words {
                    assert!(
                        schemes.contains(word.as_str()),
                        "the player's page names its schemes and their targets: {word}"
                    );
                }
            }
        }
        let command = a_legal_command(&game.state, n);
        app.with_conn(move |conn| {
            hosted::submit::<Malifaux>(
                conn,
                id,
                account,
                game.state.version,
                &format!("m3e-{n}"),
                command,
                now(),
            )
            .unwrap_or_else(|e| panic!("command {n}: {e}"))
        })
        .await;
    }
    assert!(saw_schemes);
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
        .await;
    assert_eq!(game.status, HostedStatus::Finished);
    let encounter = game.state.encounter.as_deref().unwrap();
    assert_eq!(encounter.turn, 5);
    assert!(encounter.strategy_vp.iter().all(|vp| *vp <= 4));
}

/// Starts a practice game through the page; returns its id.
async fn start_from_the_page(browser: &crate::support::TestClient) -> i64 {
    let started = browser
        .post_form(
            "/play/practice",
            &[("crew", "lamplighters-50"), ("bot", "random")],
        )
        .await;
    assert_eq!(started.status().as_u16(), 303);
    id_after(&location(&started), "/games/")
}

/// Plays one command for seat A through the API; returns the new version.
async fn play_one(app: &TestApp, api: &crate::support::ApiClient, id: i64, n: u64) -> u64 {
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
        .await;
    let body = serde_json::json!({
        "version": game.state.version,
        "idempotency_key": format!("live-{n}"),
        "command": a_legal_command(&game.state, n),
    });
    let (status, reply) = api.post(&format!("/games/{id}/commands"), body).await;
    assert_eq!(status, 200, "{reply}");
    reply["version"].as_u64().unwrap()
}

async fn the_stream_resumes_without_a_gap_or_a_repeat(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, browser) = app.user("player@example.org", "Player").await;
    let api = app.api_client("player@example.org").await;
    let id = start_from_the_page(&browser).await;
    let mut version = 0;
    for n in 100..200 {
        version = play_one(&app, &api, id, n).await;
        if version > 30 {
            break;
        }
    }
    assert!(version > 30);

    // From the start, then the connection drops part way.
    let mut first = browser.get(&format!("/games/{id}/events?after=0")).await;
    assert_eq!(first.status().as_u16(), 200);
    assert!(
        first.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let mut buffer = String::new();
    let seen = read_facts(&mut first, &mut buffer, 5).await;
    drop(first);
    let last = seen.last().unwrap().0;
    // Reconnecting with the last id it saw: the rest of the log, once each.
    let resumed = browser
        .http
        .get(browser.url(&format!("/games/{id}/events?after=0")))
        .header("Last-Event-ID", last.to_string())
        .send()
        .await
        .unwrap();
    let mut resumed = resumed;
    let mut buffer = String::new();
    let rest = read_facts(&mut resumed, &mut buffer, (version - last) as usize).await;
    // A move made now reaches the open stream.
    let moved_to = play_one(&app, &api, id, 1).await;
    let new = read_facts(&mut resumed, &mut buffer, (moved_to - version) as usize).await;
    let ids: Vec<u64> = seen
        .iter()
        .chain(&rest)
        .chain(&new)
        .map(|(id, _)| *id)
        .collect();
    assert_eq!(ids, (1..=moved_to).collect::<Vec<_>>(), "no gap, no repeat");
    for (_, fact) in seen.iter().chain(&rest).chain(&new) {
        assert_only_own_secrets(fact, Some("a"), "the player's stream");
    }
    // One account keeps a few streams open at once, no more. (The stream
    // dropped above may still hold its place until the server notices.)
    let path = format!("/games/{id}/events?after={moved_to}");
    let mut open = vec![resumed];
    let refused = loop {
        let stream = browser.get(&path).await;
        if stream.status().as_u16() == 429 {
            break true;
        }
        assert_eq!(stream.status().as_u16(), 200);
        open.push(stream);
        if open.len() > soulstone::web::play::limits::MAX_STREAMS {
            break false;
        }
    };
    assert!(
        refused,
        "more than {} streams at once",
        soulstone::web::play::limits::MAX_STREAMS
    );
    drop(open);
    // Closed streams free their places (at the latest at their next
    // keep-alive, when the server finds the connection gone).
    let mut reopened = false;
    for _ in 0..100 {
        actix_web::rt::time::sleep(std::time::Duration::from_millis(250)).await;
        if browser.get(&path).await.status().as_u16() == 200 {
            reopened = true;
            break;
        }
    }
    assert!(reopened, "a closed stream frees its place");
}

/// A game's streams share their reads of its new facts: each still gets
/// exactly the facts after its own place, redacted for its own viewer.
async fn streams_of_one_game_at_different_places_each_get_their_own_facts(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, browser) = app.user("player@example.org", "Player").await;
    let api = app.api_client("player@example.org").await;
    let id = start_from_the_page(&browser).await;
    let mut version = 0;
    for n in 300..400 {
        version = play_one(&app, &api, id, n).await;
        if version > 20 {
            break;
        }
    }
    assert!(version > 20);
    let spectator = crate::support::TestClient::new(&app.address);
    // The player's whole log first (its read is the one the others may
    // share), then a spectator part way, then the player at the end.
    let places = [0, version - 5, version];
    let mut streams = Vec::new();
    for (n, after) in places.into_iter().enumerate() {
        let client = if n == 1 { &spectator } else { &browser };
        let response = client
            .get(&format!("/games/{id}/events?after={after}"))
            .await;
        assert_eq!(response.status().as_u16(), 200);
        streams.push((after, response, String::new()));
    }
    let mut moved_to = version;
    for n in 0..3 {
        moved_to = play_one(&app, &api, id, 400 + n).await;
    }
    assert!(moved_to > version);
    for (n, (after, response, buffer)) in streams.iter_mut().enumerate() {
        let facts = read_facts(response, buffer, (moved_to - *after) as usize).await;
        let ids: Vec<u64> = facts.iter().map(|(id, _)| *id).collect();
        assert_eq!(
            ids,
            (*after + 1..=moved_to).collect::<Vec<_>>(),
            "stream {n}"
        );
        let seat = if n == 1 { None } else { Some("a") };
        for (_, fact) in &facts {
            assert_only_own_secrets(fact, seat, &format!("stream {n}"));
        }
    }
}

async fn a_move_on_one_instance_reaches_a_spectator_on_another(backend: Backend) {
    let postgres = matches!(backend, Backend::Postgres { .. });
    let first = TestApp::spawn(backend).await;
    // On PostgreSQL the second instance looks in the database only once an
    // hour: the move can reach it within the test's 10 s only by NOTIFY.
    // With SQLite its look, four times a second, is how it learns.
    let second = TestApp::spawn_on_configured(
        first.db.share(),
        crate::support::MailSetup::SmtpAt(first.smtp.url()),
        |settings| {
            if postgres {
                settings.live_poll = std::time::Duration::from_secs(3600);
            }
        },
    )
    .await;
    let (_, browser) = first.user("player@example.org", "Player").await;
    let api = first.api_client("player@example.org").await;
    let id = start_from_the_page(&browser).await;
    let version = first
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap().state.version)
        .await;
    // A spectator (signed out) watches on the second instance.
    let watcher = crate::support::TestClient::new(&second.address);
    let mut stream = watcher
        .get(&format!("/games/{id}/events?after={version}"))
        .await;
    assert_eq!(stream.status().as_u16(), 200);
    let moved_to = play_one(&first, &api, id, 2).await;
    let mut buffer = String::new();
    let facts = read_facts(&mut stream, &mut buffer, (moved_to - version) as usize).await;
    let ids: Vec<u64> = facts.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, (version + 1..=moved_to).collect::<Vec<_>>());
    for (_, fact) in &facts {
        assert_only_own_secrets(fact, None, "a spectator's stream");
    }
}

/// An event with two players and a published round, played in the
/// browser: both have brought their crews, so its hosted game is under way.
pub(crate) struct DigitalPairing {
    pub(crate) event: i64,
    pub(crate) pairing: i64,
    pub(crate) hosted_id: i64,
    pub(crate) to: crate::support::ApiClient,
    pub(crate) apis: Vec<crate::support::ApiClient>,
}

pub(crate) async fn digital_pairing(app: &TestApp) -> DigitalPairing {
    digital_pairing_with(app, serde_json::json!({})).await
}

/// The same, with fields of the event's form set (the digital settings).
async fn digital_pairing_with(app: &TestApp, settings: serde_json::Value) -> DigitalPairing {
    digital_pairing_bringing(app, settings, &["hollowmarch-50"]).await
}

/// The same, the second player bringing `second_crews`.
async fn digital_pairing_bringing(
    app: &TestApp,
    settings: serde_json::Value,
    second_crews: &[&str],
) -> DigitalPairing {
    digital_pairing_of(
        app,
        settings,
        [&["mudlark-50", "tidewright-50"], second_crews],
    )
    .await
}

/// The same, each player bringing their `crews`.
async fn digital_pairing_of(
    app: &TestApp,
    settings: serde_json::Value,
    crews: [&[&str]; 2],
) -> DigitalPairing {
    let mut body = crate::events::event_body("Digital Cup");
    for (key, value) in settings.as_object().unwrap() {
        body[key] = value.clone();
    }
    let crate::support::PublishedRound {
        event,
        pairing,
        to,
        to_browser,
        browsers,
        apis,
    } = crate::support::published_round(app, body, true).await;

    // The organiser has the round played in the browser.
    let marked = to_browser
        .post_form(&format!("/events/{event}/rounds/1/digital"), &[])
        .await;
    assert_eq!(marked.status().as_u16(), 303);
    let (_, page) = browsers[0]
        .get_text(&format!("/events/{event}/rounds/1"))
        .await;
    assert!(
        page.contains(&format!("/events/{event}/games/{pairing}/play")),
        "{page}"
    );

    // Each brings crews; the game starts when both are in. A stranger may not.
    let play = format!("/events/{event}/games/{pairing}/play");
    let crews_path = format!("/events/{event}/games/{pairing}/crews");
    let refused = to_browser
        .post_form(&crews_path, &[("crew", crews[0][0])])
        .await;
    assert_eq!(refused.status().as_u16(), 403);
    let [first_crews, second_crews] = crews;
    let brought: Vec<(&str, &str)> = first_crews.iter().map(|c| ("crew", *c)).collect();
    let first = browsers[0].post_form(&crews_path, &brought).await;
    assert_eq!(location(&first), play);
    let (status, waiting) = browsers[1].get_text(&play).await;
    assert_eq!(status, 200);
    assert!(
        waiting.contains("crews brought") && waiting.contains("not brought yet"),
        "{waiting}"
    );
    // B's page says A's crews are in, never which ("You brought" is only
    // ever the viewer's own).
    assert!(!waiting.contains("You brought"), "B sees A's lists");
    let brought: Vec<(&str, &str)> = second_crews.iter().map(|c| ("crew", *c)).collect();
    let second = browsers[1].post_form(&crews_path, &brought).await;
    let started = location(&second);
    let hosted_id = id_after(&started, "/games/");
    assert_eq!(location(&browsers[0].get(&play).await), started);

    DigitalPairing {
        event,
        pairing,
        hosted_id,
        to,
        apis,
    }
}

async fn a_digital_round_is_played_in_the_browser_and_reports_its_results(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let DigitalPairing {
        event,
        pairing,
        hosted_id,
        to,
        apis,
    } = digital_pairing(&app).await;
    // The game plays the round's scenario: the table's own attacker, the
    // strategy and deployment the round's suits pick (no pool: the
    // content's season).
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
        .await;
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let flipped = &round["setup"]["result"]["malifaux"];
    let suit = |name: &serde_json::Value| -> soulstone_engine::fate::Suit {
        serde_json::from_value(name.clone()).unwrap()
    };
    let setup = &game.state.encounter.as_ref().unwrap().setup;
    let table_attacker = round["tables"][0]["sides"]["attacker"].as_str().unwrap();
    let expected = if table_attacker == "a" {
        Seat::A
    } else {
        Seat::B
    };
    assert_eq!(setup.attacker, expected);
    assert_eq!(
        setup.deployment,
        soulstone_engine::encounter::deployment_for(suit(&flipped["deployment_suit"]))
    );
    assert_eq!(
        setup.strategy.suit,
        Some(suit(&flipped["strategy"]["suit"]))
    );
    // Both play it out through the API, each for their own seat; the
    // result is in the event, confirmed, with nobody typing it.
    play_digital_game_out(&app, hosted_id, &apis, false).await;
    assert_result_reported(&app, &to, event, hosted_id).await;
    let (code, standings) = to.get(&format!("/events/{event}/standings")).await;
    assert_eq!(code, 200);
    assert!(standings.to_string().contains("Ann"));
    let history = app
        .with_conn(move |conn| {
            use diesel::prelude::*;
            use soulstone::db::schema::result_changes;
            result_changes::table
                .filter(result_changes::game_id.eq(pairing))
                .select(result_changes::action)
                .load::<String>(conn)
                .unwrap()
        })
        .await;
    assert_eq!(history, vec!["reported by the engine".to_string()]);
}

/// Plays a digital pairing's game to its end through the API, each player
/// for their own seat with the random bot (claims confirmed when
/// `confirm_claims`: a disputed one would send the result to the
/// organisers), checking that no reply carries the other seat's secrets.
/// Returns the last turn played.
async fn play_digital_game_out(
    app: &TestApp,
    hosted_id: i64,
    apis: &[crate::support::ApiClient],
    confirm_claims: bool,
) -> u8 {
    play_digital_game_until(app, hosted_id, apis, confirm_claims, None).await
}

/// Plays the game with random commands, each through its own player's API
/// client, until it ends or its turn reaches `stop_at_turn`; returns the
/// last turn played.
pub(crate) async fn play_digital_game_until(
    app: &TestApp,
    hosted_id: i64,
    apis: &[crate::support::ApiClient],
    confirm_claims: bool,
    stop_at_turn: Option<u8>,
) -> u8 {
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
        .await;
    let mut seat_api = std::collections::HashMap::new();
    for (i, api) in apis.iter().enumerate() {
        let (_, me) = api.get("/me").await;
        let account = me["id"].as_i64().unwrap();
        let seat = game.seat_of(account).expect("each player has a seat");
        seat_api.insert(seat, i);
    }
    let mut last_turn = 0;
    for n in 0..40_000u64 {
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
            .await;
        if game.status == HostedStatus::Finished {
            return last_turn;
        }
        last_turn = game.state.encounter.as_ref().map_or(0, |e| e.turn);
        if stop_at_turn.is_some_and(|turn| last_turn >= turn) {
            return last_turn;
        }
        let pending = soulstone_engine::pending(&game.state);
        let decision = pending.decisions.first().expect("someone decides");
        let seat = decision.seat;
        let confirm = confirm_claims
            && decision.choices.iter().any(|c| {
                matches!(
                    c,
                    soulstone_engine::pending::Choice::Command {
                        command: PlayerCommand::ConfirmClaim
                    }
                )
            });
        let command = if confirm {
            PlayerCommand::ConfirmClaim
        } else {
            Bot::new(BotKind::Random, seat, n)
                .decide(&game.state)
                .expect("a legal command")
        };
        let body = serde_json::json!({
            "version": game.state.version,
            "idempotency_key": format!("d-{n}"),
            "command": command,
        });
        let (status, reply) = apis[seat_api[&seat]]
            .post(&format!("/games/{hosted_id}/commands"), body)
            .await;
        assert_eq!(status, 200, "{reply}");
        assert_only_own_secrets(
            &reply,
            Some(if seat == Seat::A { "a" } else { "b" }),
            "a player's facts",
        );
    }
    panic!("the game did not end");
}

/// The finished game's VP are its table's result in round 1, confirmed.
async fn assert_result_reported(
    app: &TestApp,
    to: &crate::support::ApiClient,
    event: i64,
    hosted_id: i64,
) {
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
        .await;
    assert_eq!(game.status, HostedStatus::Finished);
    let vp = |seat: Seat| i64::from(game.state.player(seat).victory_points);
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let table = &round["tables"][0];
    assert_eq!(table["status"], "confirmed", "{table}");
    let score = table["score"].to_string();
    assert!(
        score.contains(&format!("\"a_vp\":{}", vp(Seat::A)))
            && score.contains(&format!("\"b_vp\":{}", vp(Seat::B))),
        "{score} vs {} {}",
        vp(Seat::A),
        vp(Seat::B)
    );
}

/// A 3rd edition event's digital round: a 4th edition list is refused,
/// the game plays the round's scenario from the rulebook's pool (its
/// strategy and scheme pool by name) under the 3rd edition rules for five
/// turns, and its result reports itself into the event. Claims are
/// confirmed here: a disputed one goes to the organisers (tested above).
async fn a_third_edition_digital_round_plays_the_rulebook_scenario_and_reports_its_result(
    backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let DigitalPairing {
        event,
        pairing,
        hosted_id,
        to,
        apis,
    } = digital_pairing_of(
        &app,
        serde_json::json!({"game_system": "m3e", "pool": "m3e-core"}),
        [&["assayers-50"], &["lodestar-50", "cattail-50"]],
    )
    .await;
    let ann = app.signed_in_client("ann@example.org").await;
    let refused = ann
        .post_form(
            &format!("/events/{event}/games/{pairing}/crews"),
            &[("crew", "mudlark-50")],
        )
        .await;
    assert_eq!(refused.status().as_u16(), 303);
    let (_, page) = ann.get_text(&format!("/games/{hosted_id}")).await;
    assert!(
        page.contains(
            "mudlark-50 is a Malifaux 4th edition list; this game plays Malifaux 3rd edition."
        ),
        "{page}"
    );

    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
        .await;
    assert_eq!(game.state.edition, soulstone_engine::Edition::Third);
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let flipped = &round["setup"]["result"]["malifaux"];
    let setup = &game.state.encounter.as_ref().unwrap().setup;
    assert_eq!(
        serde_json::json!(setup.strategy.name),
        flipped["strategy"]["name"],
        "the round's strategy plays"
    );
    let pool: Vec<serde_json::Value> = flipped["scheme_pool"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].clone())
        .collect();
    assert_eq!(pool.len(), 5, "{flipped}");
    assert_eq!(
        serde_json::json!(setup.scheme_pool),
        serde_json::json!(pool)
    );

    let last_turn = play_digital_game_out(&app, hosted_id, &apis, true).await;
    assert_eq!(last_turn, 5, "five turns");
    assert_result_reported(&app, &to, event, hosted_id).await;
}

/// A TO's season whose strategy and schemes the content does not describe:
/// the digital round plays them as the round flipped them (never the
/// content's instead), each end phase asks both players to claim the
/// strategy's VP and the opponent to answer, and a game with a disputed
/// claim goes to the organisers, disputed, with the claims in its note.
async fn a_seasons_entries_the_engine_cannot_score_are_claimed_and_a_dispute_goes_to_the_organisers(
    backend: Backend,
) {
    use soulstone_engine::encounter::Step;
    use soulstone_engine::encounter::objectives::StrategyScoring;
    let app = TestApp::spawn(backend).await;
    let (owner, _) = app.user("season@example.org", "Season Keeper").await;
    let pool = soulstone::setup::pool::Pool::parse_toml(
        r#"
id = "claims-season"
name = "A season of claims"
edition = "m4e"
source = "typed in by a test"

[[strategies]]
suit = "rams"
name = "Night Market"
[[strategies]]
suit = "masks"
name = "Toll Road"
[[strategies]]
suit = "tomes"
name = "Lantern Vigil"
[[strategies]]
suit = "crows"
name = "Salvage Rights"

[[schemes]]
name = "Smuggle the Cargo"
next = ["Burn the Ledgers", "Forge the Seal"]
[[schemes]]
name = "Burn the Ledgers"
next = ["Smuggle the Cargo"]
[[schemes]]
name = "Forge the Seal"
next = ["Burn the Ledgers"]
"#,
    )
    .unwrap();
    app.with_conn(move |conn| {
        let inserted = soulstone::db::pools::insert_pool(conn, &pool, owner, now()).unwrap();
        assert!(inserted.inserted());
    })
    .await;
    let DigitalPairing {
        event,
        pairing,
        hosted_id,
        to,
        apis,
    } = digital_pairing_with(&app, serde_json::json!({ "pool": "claims-season" })).await;
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
        .await;
    let setup = &game.state.encounter.as_ref().unwrap().setup;
    let season = [
        "Night Market",
        "Toll Road",
        "Lantern Vigil",
        "Salvage Rights",
    ];
    assert!(
        season.contains(&setup.strategy.name.as_str()),
        "{}",
        setup.strategy.name
    );
    assert_eq!(setup.strategy.scoring, StrategyScoring::Claimed);
    assert_eq!(setup.scheme_pool.len(), 3);
    for name in &setup.scheme_pool {
        let scheme = setup.schemes.scheme(name).expect("in the book");
        assert!(scheme.is_claimed(), "{name}");
    }
    assert_eq!(
        setup.schemes.scheme("Smuggle the Cargo").unwrap().next,
        ["Burn the Ledgers", "Forge the Seal"]
    );
    let strategy = setup.strategy.name.clone();

    let mut account_of = std::collections::HashMap::new();
    let mut page_of = std::collections::HashMap::new();
    for (api, email) in apis.iter().zip(["ann@example.org", "bo@example.org"]) {
        let (_, me) = api.get("/me").await;
        let account = me["id"].as_i64().unwrap();
        let seat = game.seat_of(account).expect("a seat");
        account_of.insert(seat, account);
        page_of.insert(seat, app.signed_in_client(email).await);
    }
    let mut pages_seen = false;
    // Player A claims 1 VP each turn and B disputes it; B claims 1 and A
    // confirms; neither claims a scheme. Everything else is a bot's.
    for n in 0..40_000u64 {
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
            .await;
        if game.status == HostedStatus::Finished {
            break;
        }
        let pending = soulstone_engine::pending(&game.state);
        let seat = pending.decisions.first().expect("someone decides").seat;
        let step = game.state.encounter.as_ref().map(|e| e.step);
        if let (Some(Step::AnswerClaim { .. }), false) = (step, pages_seen) {
            // The first claim as the game page shows it: the answering
            // player gets the claim in words and both answers; the
            // claimant only waits.
            pages_seen = true;
            let (status, page) = page_of[&seat]
                .get_text(&format!("/games/{hosted_id}"))
                .await;
            assert_eq!(status, 200);
            assert!(
                page.contains(&format!("claims 1 VP for {strategy}"))
                    && page.contains("Confirm the claim")
                    && page.contains("Dispute the claim"),
                "{page}"
            );
            let (_, theirs) = page_of[&seat.other()]
                .get_text(&format!("/games/{hosted_id}"))
                .await;
            assert!(!theirs.contains("Dispute the claim"), "{theirs}");
        }
        let command = match step {
            Some(Step::ClaimStrategy { .. }) => PlayerCommand::ClaimStrategy { vp: 1 },
            Some(Step::AnswerClaim { .. }) if seat == Seat::B => PlayerCommand::DisputeClaim,
            Some(Step::AnswerClaim { .. }) => PlayerCommand::ConfirmClaim,
            Some(Step::RevealScheme { .. }) => PlayerCommand::KeepScheme,
            _ => Bot::new(BotKind::Random, seat, n)
                .decide(&game.state)
                .expect("a legal command"),
        };
        let account = account_of[&seat];
        let version = game.state.version;
        app.with_conn(move |conn| {
            hosted::submit::<Malifaux>(
                conn,
                hosted_id,
                account,
                version,
                &format!("c-{n}"),
                command,
                now(),
            )
            .unwrap()
        })
        .await;
    }
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
        .await;
    assert_eq!(game.status, HostedStatus::Finished);
    assert!(pages_seen, "a claim was answered");
    let encounter = game.state.encounter.as_ref().unwrap();
    assert_eq!(encounter.strategy_vp, [0, 4], "A's claims were disputed");
    assert_eq!(encounter.choices.disputed.len(), 4);

    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    assert_eq!(round["tables"][0]["status"], "disputed", "{round}");
    let (history, note) = app
        .with_conn(move |conn| {
            use diesel::prelude::*;
            use soulstone::db::schema::result_changes;
            let history = result_changes::table
                .filter(result_changes::game_id.eq(pairing))
                .select(result_changes::action)
                .load::<String>(conn)
                .unwrap();
            let game = soulstone::db::events::find_game(conn, pairing)
                .unwrap()
                .unwrap();
            (history, game.dispute_note)
        })
        .await;
    assert_eq!(history, vec!["claims disputed in the browser".to_string()]);
    let note = note.expect("a note for the organisers");
    for turn in 1..=4 {
        assert!(
            note.contains(&format!(
                "turn {turn}, Player A claimed 1 VP for {strategy}"
            )),
            "{note}"
        );
    }
}

/// Each player's clock runs while the game waits for them; a clock that
/// runs out ends the game with the score so far.
async fn clocks_run_for_the_player_waited_for_and_end_the_game_at_zero(backend: Backend) {
    let test_db = TestDb::create(&backend);
    let db = test_db.open();
    let mut conn = db.conn().unwrap();
    let account = create_verified_account(&mut conn, "clock@example.org", "Clock", false);
    let catalog = load_for_server(None).unwrap();
    let start = now();
    let request = PracticeRequest {
        content: Default::default(),
        account_id: account,
        lists: lists(&[0]),
        bot: BotKind::Random,
        bot_lists: lists(&[1]),
        seed: Bytes32([6; 32]),
        time_control_ms: Some(60_000),
    };
    let id = hosted::start_practice(&mut conn, &catalog, &request, start).unwrap();
    let game = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    let clocks = game.clocks.expect("a timed game");
    assert_eq!(
        clocks.running_code(),
        Some("a"),
        "the player's clock runs, not the bot's"
    );
    assert_eq!(
        clocks.left_at(start + chrono::Duration::seconds(15)),
        [45_000, 60_000]
    );
    // A command 10 s in: 10 s off the player's clock.
    let later = start + chrono::Duration::seconds(10);
    let command = a_legal_command(&game.state, 0);
    hosted::submit::<Malifaux>(
        &mut conn,
        id,
        account,
        game.state.version,
        "c1",
        command,
        later,
    )
    .unwrap();
    let game = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    let clocks = game.clocks.unwrap();
    assert_eq!(clocks.left_ms, [50_000, 60_000]);
    assert!(
        !hosted::flag_if_out_of_time(&mut conn, id, later + chrono::Duration::seconds(49)).unwrap()
    );
    // At zero the game ends, with the score so far, and takes no command.
    assert!(
        hosted::flag_if_out_of_time(&mut conn, id, later + chrono::Duration::seconds(51)).unwrap()
    );
    let game = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    assert_eq!(game.status, HostedStatus::Finished);
    assert_eq!(game.ended_by, Some(hosted::EndedBy::Time));
    assert!(game.state.ended);
    let late = hosted::submit::<Malifaux>(
        &mut conn,
        id,
        account,
        game.state.version,
        "c2",
        PlayerCommand::Pass,
        later + chrono::Duration::seconds(52),
    );
    assert!(matches!(late, Err(HostedError::Over)), "{late:?}");
}

/// A player resigns a digital game: it ends, and its result goes to the
/// organisers, never scored silently.
async fn a_resigned_event_game_goes_to_the_organisers(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let DigitalPairing {
        event,
        hosted_id,
        to,
        apis,
        ..
    } = digital_pairing(&app).await;
    let (code, body) = to
        .post(&format!("/games/{hosted_id}/resign"), serde_json::json!({}))
        .await;
    assert_eq!(code, 403, "only a player resigns: {body}");
    let (code, body) = apis[1]
        .post(&format!("/games/{hosted_id}/resign"), serde_json::json!({}))
        .await;
    assert_eq!(code, 204, "{body}");
    let (_, game) = apis[0].get(&format!("/games/{hosted_id}")).await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["ended_by"], "resignation");
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    assert_eq!(round["tables"][0]["status"], "disputed", "{round}");
    // The organisers' note names who resigned.
    let pairing = round["tables"][0]["game"].as_i64().unwrap();
    let note = app
        .with_conn(move |conn| {
            soulstone::db::events::find_game(conn, pairing)
                .unwrap()
                .unwrap()
                .dispute_note
        })
        .await
        .unwrap_or_default();
    assert!(note.starts_with("Bo resigned in turn"), "{note}");
}

/// A player makes an invitation (crews and a clock) and sends its link;
/// another account opens it, brings crews and accepts: the game starts
/// with the inviter in seat A. Nobody else can take the seat, the inviter
/// cannot accept their own, a cancelled link starts nothing, and the
/// inviter's crews never show on the invitation.
async fn a_player_invites_another_by_a_link_and_they_play(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, ana) = app.user("ana@example.org", "Ana Inviter").await;
    let (_, ben) = app.user("ben@example.org", "Ben Guest").await;
    let (_, cal) = app.user("cal@example.org", "Cal Late").await;
    let invite = |client: &crate::support::TestClient, crew: &'static str| {
        let client = client.clone();
        async move {
            client
                .post_form("/play/invite", &[("crew", crew), ("minutes", "60")])
                .await
        }
    };
    let made = invite(&ana, "mudlark-50").await;
    assert_eq!(made.status().as_u16(), 303);
    let link = location(&made);
    assert!(link.starts_with("/play/invite/"), "{link}");
    let (_, page) = ana.get_text(&link).await;
    assert!(
        page.contains(&format!("{}{link}", app.address)),
        "the link to send: {page}"
    );
    let (_, page) = ana.get_text("/play").await;
    assert!(page.contains(&link), "open invitations are listed: {page}");
    // The inviter cannot take the other seat.
    let own = ana
        .post_form(&format!("{link}/accept"), &[("crew", "lamplighters-50")])
        .await;
    assert_eq!(own.status().as_u16(), 422);

    let (status, page) = ben.get_text(&link).await;
    assert_eq!(status, 200);
    assert!(page.contains("Ana Inviter invites you to a game"), "{page}");
    assert!(page.contains("60 minutes each"), "{page}");
    // Before Ben's own crews form (which offers every shipped list), the
    // page says nothing of what Ana brought.
    let before_form = page
        .split("<form method=\"post\" action=\"/play/invite/")
        .next()
        .unwrap();
    assert!(
        !before_form.to_lowercase().contains("mudlark"),
        "the inviter's crews stay secret: {page}"
    );
    let accepted = ben
        .post_form(&format!("{link}/accept"), &[("crew", "tidewright-50")])
        .await;
    assert_eq!(accepted.status().as_u16(), 303);
    let game = id_after(&location(&accepted), "/games/");
    let seats = app
        .with_conn(move |conn| {
            let row = soulstone::db::hosted::find_game(conn, game)
                .unwrap()
                .unwrap();
            (
                row.kind,
                row.seat_a_account_id,
                row.seat_b_account_id,
                row.time_control_ms,
            )
        })
        .await;
    let ana_id = app
        .with_conn(|conn| accounts_id(conn, "ana@example.org"))
        .await;
    let ben_id = app
        .with_conn(|conn| accounts_id(conn, "ben@example.org"))
        .await;
    assert_eq!(
        seats,
        ("casual".into(), Some(ana_id), Some(ben_id), Some(3_600_000))
    );
    for (client, seat) in [(&ana, "a"), (&ben, "b")] {
        let (status, html) = client.get_text(&format!("/games/{game}")).await;
        assert_eq!(status, 200);
        assert!(
            html.contains("You are ") && !html.contains("You are watching"),
            "{seat}: {html}"
        );
    }
    // The seat is taken: nobody else starts a second game from the link.
    let late = cal
        .post_form(&format!("{link}/accept"), &[("crew", "hollowmarch-50")])
        .await;
    assert_eq!(late.status().as_u16(), 422);
    assert!(
        late.text()
            .await
            .unwrap()
            .contains("accepted this invitation already")
    );

    // A cancelled invitation starts nothing.
    let made = invite(&ana, "lamplighters-50").await;
    let second = location(&made);
    let response = ana.post_form(&format!("{second}/cancel"), &[]).await;
    assert_eq!(response.status().as_u16(), 303);
    let refused = cal
        .post_form(&format!("{second}/accept"), &[("crew", "hollowmarch-50")])
        .await;
    assert_eq!(refused.status().as_u16(), 422);
    assert!(refused.text().await.unwrap().contains("cancelled it"));
}

fn accounts_id(conn: &mut soulstone::db::DbConnection, email: &str) -> i64 {
    soulstone::db::accounts::find_by_email(conn, email)
        .unwrap()
        .unwrap()
        .id
}

/// Plays random legal commands for whichever player the game waits for,
/// through the API, until `stop` holds (or the game ends); returns the game.
async fn play_until(
    app: &TestApp,
    hosted_id: i64,
    apis: &[crate::support::ApiClient],
    stop: impl Fn(&hosted::HostedGame) -> bool,
) -> hosted::HostedGame {
    let mut seat_api = std::collections::HashMap::new();
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
        .await;
    for (i, api) in apis.iter().enumerate() {
        let (_, me) = api.get("/me").await;
        let seat = game.seat_of(me["id"].as_i64().unwrap()).unwrap();
        seat_api.insert(seat, i);
    }
    for n in 0..10_000u64 {
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
            .await;
        if game.status == HostedStatus::Finished || stop(&game) {
            return game;
        }
        let seat = soulstone_engine::pending(&game.state).decisions[0].seat;
        let command = Bot::new(BotKind::Random, seat, n)
            .decide(&game.state)
            .unwrap();
        let body = serde_json::json!({
            "version": game.state.version,
            "idempotency_key": format!("u-{n}"),
            "command": command,
        });
        let (status, reply) = apis[seat_api[&seat]]
            .post(&format!("/games/{hosted_id}/commands"), body)
            .await;
        assert_eq!(status, 200, "{reply}");
    }
    panic!("the game never reached the state wanted");
}

/// An event with a spectators' delay: a spectator sees the game as it
/// stood that long ago (page, API view and facts), the event's staff and
/// the players see it live, and the round page shows live scores only to
/// those who may see them.
async fn spectators_of_an_event_watch_behind_and_its_staff_live(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let DigitalPairing {
        event,
        hosted_id,
        to,
        apis,
        ..
    } = digital_pairing_with(&app, serde_json::json!({"spectator_delay_minutes": 5})).await;
    let game = play_until(&app, hosted_id, &apis, |g| g.state.version >= 40).await;
    let version = game.state.version;
    // The first 25 facts were written ten minutes ago, the rest just now.
    let old = now() - chrono::Duration::minutes(10);
    app.with_conn(move |conn| {
        use diesel::prelude::*;
        use soulstone::db::schema::hosted_game_facts as f;
        diesel::update(
            f::table
                .filter(f::game_id.eq(hosted_id))
                .filter(f::seq.le(25)),
        )
        .set(f::at.eq(Some(old)))
        .execute(conn)
        .unwrap();
    })
    .await;
    app.create_account("fan@example.org", "A Fan", false).await;
    let fan = app.api_client("fan@example.org").await;
    let (_, seen) = fan.get(&format!("/games/{hosted_id}")).await;
    assert_eq!(seen["seat"], serde_json::Value::Null);
    assert_eq!(
        seen["view"]["version"], 25,
        "a spectator is five minutes behind"
    );
    let (_, facts) = fan.get(&format!("/games/{hosted_id}/facts?after=0")).await;
    assert_eq!(facts.as_array().unwrap().len(), 25);
    for fact in facts.as_array().unwrap() {
        assert_only_own_secrets(fact, None, "a delayed spectator's facts");
    }
    let (_, staff) = to.get(&format!("/games/{hosted_id}")).await;
    assert_eq!(
        staff["view"]["version"], version,
        "the judge's view is live"
    );
    let (_, player) = apis[0].get(&format!("/games/{hosted_id}")).await;
    assert_eq!(player["view"]["version"], version);
    let (_, page) = crate::support::TestClient::new(&app.address)
        .get_text(&format!("/games/{hosted_id}"))
        .await;
    assert!(page.contains("watch 5 minutes behind"), "{page}");

    let (_, round) = crate::support::TestClient::new(&app.address)
        .get_text(&format!("/events/{event}/rounds/1"))
        .await;
    assert!(
        !round.contains("live: "),
        "no live score for spectators: {round}"
    );
    let (_, round) = app
        .signed_in_client("to@example.org")
        .await
        .get_text(&format!("/events/{event}/rounds/1"))
        .await;
    assert!(
        round.contains("live: "),
        "the organisers see it live: {round}"
    );
}

/// A player whose opponent has not moved for longer than the event allows
/// (while the game waits only for that opponent) claims the game after a
/// confirmation; it ends, and its result goes to the organisers, saying
/// who claimed. Too soon, or waited for, there is nothing to claim.
async fn an_absent_opponent_is_claimed_and_the_organisers_confirm(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let DigitalPairing {
        event,
        pairing,
        hosted_id,
        to,
        apis,
    } = digital_pairing(&app).await;
    let game = play_until(&app, hosted_id, &apis, |g| {
        soulstone_engine::pending(&g.state).seats().len() == 1 && g.state.version > 10
    })
    .await;
    let waited_for = soulstone_engine::pending(&game.state).seats()[0];
    let emails = ["ann@example.org", "bo@example.org"];
    let mut claimant = None;
    for email in emails {
        let (_, me) = app.api_client(email).await.get("/me").await;
        if game.seat_of(me["id"].as_i64().unwrap()) == Some(waited_for.other()) {
            claimant = Some(app.signed_in_client(email).await);
        }
    }
    let claimant = claimant.unwrap();
    // Too soon: a message, and the game goes on.
    let response = claimant
        .post_form(&format!("/games/{hosted_id}/claim"), &[])
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let (_, page) = claimant.get_text(&format!("/games/{hosted_id}")).await;
    assert!(page.contains("the event allows a claim after 10"), "{page}");
    // Fifteen minutes of silence later (the row's last move moved back).
    app.with_conn(move |conn| {
        use diesel::prelude::*;
        use soulstone::db::schema::hosted_games as g;
        diesel::update(g::table.find(hosted_id))
            .set(g::updated_at.eq(now() - chrono::Duration::minutes(15)))
            .execute(conn)
            .unwrap();
    })
    .await;
    let (_, page) = claimant.get_text(&format!("/games/{hosted_id}")).await;
    assert!(page.contains("Claim the game"), "{page}");
    let (status, question) = claimant
        .get_text(&format!("/games/{hosted_id}/claim"))
        .await;
    assert_eq!(status, 200);
    assert!(question.contains("Claim game"), "{question}");
    let response = claimant
        .post_form(&format!("/games/{hosted_id}/claim"), &[])
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
        .await;
    assert_eq!(game.status, HostedStatus::Finished);
    assert_eq!(game.ended_by, Some(hosted::EndedBy::Absence));
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let table = round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["game"] == pairing)
        .unwrap()
        .clone();
    assert_eq!(table["status"], "disputed", "{table}");
    let note = app
        .with_conn(move |conn| {
            soulstone::db::events::find_game(conn, pairing)
                .unwrap()
                .unwrap()
                .dispute_note
        })
        .await
        .unwrap_or_default();
    assert!(
        note.contains("claimed the game") && note.contains("had not moved for"),
        "{note}"
    );
}

/// An event whose rule is that the score so far stands: a clock running
/// out ends the game and its result is confirmed, not disputed.
async fn a_clock_running_out_can_let_the_score_so_far_stand(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let DigitalPairing {
        pairing, hosted_id, ..
    } = digital_pairing_with(
        &app,
        serde_json::json!({"clock_out": "score_so_far", "digital_minutes": 5}),
    )
    .await;
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
        .await;
    assert_eq!(
        game.clocks.unwrap().control_ms,
        5 * 60_000,
        "the event's clock"
    );
    let flagged = app
        .with_conn(move |conn| {
            hosted::flag_if_out_of_time(conn, hosted_id, now() + chrono::Duration::minutes(6))
                .unwrap()
        })
        .await;
    assert!(flagged);
    let (status, history) = app
        .with_conn(move |conn| {
            let game = soulstone::db::events::find_game(conn, pairing)
                .unwrap()
                .unwrap();
            let history: Vec<(String, Option<String>)> =
                soulstone::db::events::changes_of_game(conn, pairing)
                    .unwrap()
                    .into_iter()
                    .map(|(c, _)| (c.action, c.note))
                    .collect();
            (game.status, history)
        })
        .await;
    assert_eq!(status.code(), "confirmed");
    assert_eq!(
        history
            .iter()
            .map(|(action, _)| action.as_str())
            .collect::<Vec<_>>(),
        ["a clock ran out: the score so far stands"]
    );
    // Its note names whose clock it was.
    let note = history[0].1.clone().unwrap_or_default();
    assert!(
        note.starts_with("Ann's clock ran out") || note.starts_with("Bo's clock ran out"),
        "{note}"
    );
}

/// The organisers may move one table of a round to the browser, leaving
/// the others at their tables; a player may not.
async fn a_single_table_is_played_in_the_browser(backend: Backend) {
    use crate::events::{create_event, event_body, set_status};
    let app = TestApp::spawn(backend).await;
    let (_, to_browser) = app.user("to@example.org", "Tess Organiser").await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, event_body("One table")).await;
    set_status(&to, event, "registration").await;
    let mut players = Vec::new();
    for i in 0..4 {
        let email = format!("p{i}@example.org");
        let (_, browser) = app.user(&email, &format!("P{i}")).await;
        let api = app.api_client(&email).await;
        let (_, entry) = api
            .post(&format!("/events/{event}/register"), serde_json::json!({}))
            .await;
        to.post(
            &format!("/events/{event}/players/{}/check-in", entry["id"]),
            serde_json::json!({"checked_in": true}),
        )
        .await;
        players.push(browser);
    }
    set_status(&to, event, "running").await;
    to.post(&format!("/events/{event}/rounds"), serde_json::json!({}))
        .await;
    to.post(
        &format!("/events/{event}/rounds/1/publish"),
        serde_json::json!({}),
    )
    .await;
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let games: Vec<i64> = round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["game"].as_i64().unwrap())
        .collect();
    let (_, page) = to_browser
        .get_text(&format!("/events/{event}/rounds/1"))
        .await;
    assert!(
        page.contains(&format!("/events/{event}/games/{}/digital", games[0])),
        "{page}"
    );
    let refused = players[0]
        .post_form(&format!("/events/{event}/games/{}/digital", games[0]), &[])
        .await;
    assert_eq!(refused.status().as_u16(), 403);
    let marked = to_browser
        .post_form(&format!("/events/{event}/games/{}/digital", games[0]), &[])
        .await;
    assert_eq!(marked.status().as_u16(), 303);
    let (status, _) = to_browser
        .get_text(&format!("/events/{event}/games/{}/play", games[0]))
        .await;
    assert_eq!(status, 200, "the marked table is played in the browser");
    let (status, _) = to_browser
        .get_text(&format!("/events/{event}/games/{}/play", games[1]))
        .await;
    assert_eq!(status, 404, "the other stays at its table");

    // "Your game" opens the game where it is played: the browser for the
    // two players of the marked table, the report form for the others.
    let mut in_browser = 0;
    for player in &players {
        let (_, page) = player.get_text(&format!("/events/{event}/rounds/1")).await;
        let play = format!(
            "href=\"/events/{event}/games/{}/play\">Your game: play it in the browser",
            games[0]
        );
        let report = format!(
            "href=\"/events/{event}/games/{}\">Your game: report or confirm",
            games[1]
        );
        match (page.contains(&play), page.contains(&report)) {
            (true, false) => in_browser += 1,
            (false, true) => {}
            _ => panic!("one way to the player's game: {page}"),
        }
    }
    assert_eq!(in_browser, 2);

    // The organiser sees what was moved, and is offered only the rest;
    // once everything is moved, no button is left to say "No game could
    // be moved".
    let (_, page) = to_browser
        .get_text(&format!("/events/{event}/rounds/1"))
        .await;
    assert!(page.contains("1 game is played in the browser"), "{page}");
    assert!(
        page.contains("Play the other 1 game in the browser"),
        "{page}"
    );
    let moved = to_browser
        .post_form(&format!("/events/{event}/rounds/1/digital"), &[])
        .await;
    assert_eq!(moved.status().as_u16(), 303);
    let (_, page) = to_browser
        .get_text(&format!("/events/{event}/rounds/1"))
        .await;
    assert!(page.contains("2 games are played in the browser"), "{page}");
    assert!(
        !page.contains(&format!("/events/{event}/rounds/1/digital")),
        "{page}"
    );
}

/// A whole event game, both seats played through the API: every command's
/// answer, every message of the players' and a spectator's streams, their
/// API views and their pages (every 25 commands) are scanned. No hidden
/// value of the other seat is ever sent, the spectator's page shows no
/// hand, and the crew list Bo brought but did not hire (its name and its
/// leader's) never reaches Ann or the spectator.
async fn no_secret_reaches_the_opponent_or_spectators_over_a_whole_game(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let DigitalPairing {
        hosted_id, apis, ..
    } = digital_pairing_bringing(
        &app,
        serde_json::json!({}),
        &["hollowmarch-50", "lamplighters-50"],
    )
    .await;
    let ann = app.signed_in_client("ann@example.org").await;
    let bo = app.signed_in_client("bo@example.org").await;
    let spectator = crate::support::TestClient::new(&app.address);
    app.create_account("fan@example.org", "A Fan", false).await;
    let fan = app.api_client("fan@example.org").await;
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
        .await;
    let (_, me) = apis[0].get("/me").await;
    let ann_seat = if game.seat_of(me["id"].as_i64().unwrap()) == Some(Seat::A) {
        "a"
    } else {
        "b"
    };
    let bo_seat = if ann_seat == "a" { "b" } else { "a" };
    let stream = |client: &crate::support::TestClient| {
        let client = client.clone();
        async move {
            client
                .get(&format!("/games/{hosted_id}/events?after=0"))
                .await
        }
    };
    let mut streams = [
        stream(&ann).await,
        stream(&bo).await,
        stream(&spectator).await,
    ];
    // Everything Ann and the spectator were sent, for the canary at the end,
    // and what Bo was sent, to show the canary is there to find.
    let mut seen_by_others = String::new();
    let mut seen_by_bo = String::new();
    let mut n = 0u64;
    loop {
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, hosted_id).unwrap())
            .await;
        if game.status == HostedStatus::Finished {
            break;
        }
        let seat = soulstone_engine::pending(&game.state).decisions[0].seat;
        let command = Bot::new(BotKind::Random, seat, n)
            .decide(&game.state)
            .unwrap();
        let (api, seat_code) = match (seat, ann_seat) {
            (Seat::A, "a") | (Seat::B, "b") => (&apis[0], ann_seat),
            _ => (&apis[1], bo_seat),
        };
        let body = serde_json::json!({
            "version": game.state.version,
            "idempotency_key": format!("leak-{n}"),
            "command": command,
        });
        // During setup, what Bo is offered (the leaders Bo brought).
        if seat_code == bo_seat && game.state.version < 40 {
            let (_, view) = api.get(&format!("/games/{hosted_id}")).await;
            seen_by_bo.push_str(&view.to_string());
        }
        let (status, reply) = api
            .post(&format!("/games/{hosted_id}/commands"), body)
            .await;
        assert_eq!(status, 200, "{reply}");
        assert_only_own_secrets(&reply, Some(seat_code), "a command's answer");
        if seat_code == ann_seat {
            seen_by_others.push_str(&reply.to_string());
        } else {
            seen_by_bo.push_str(&reply.to_string());
        }
        if n.is_multiple_of(25) {
            for (client, who) in [
                (&apis[0], Some(ann_seat)),
                (&apis[1], Some(bo_seat)),
                (&fan, None),
            ] {
                let (_, view) = client.get(&format!("/games/{hosted_id}")).await;
                assert_only_own_secrets(&view, who, "an API view");
                if who != Some(bo_seat) {
                    seen_by_others.push_str(&view.to_string());
                }
            }
            let (_, page) = ann.get_text(&format!("/games/{hosted_id}")).await;
            seen_by_others.push_str(&page);
            let (_, page) = spectator.get_text(&format!("/games/{hosted_id}")).await;
            assert!(
                !page.contains("class=\"hand\""),
                "a spectator sees no hand: {page}"
            );
            seen_by_others.push_str(&page);
        }
        n += 1;
    }
    let last = app
        .with_conn(move |conn| {
            hosted::load::<Malifaux>(conn, hosted_id)
                .unwrap()
                .state
                .version
        })
        .await;
    for (i, response) in streams.iter_mut().enumerate() {
        let mut buffer = String::new();
        let facts = read_facts(response, &mut buffer, last as usize).await;
        let ids: Vec<u64> = facts.iter().map(|(id, _)| *id).collect();
        assert_eq!(
            ids,
            (1..=last).collect::<Vec<_>>(),
            "stream {i} has every fact once"
        );
        let who = match i {
            0 => Some(ann_seat),
            1 => Some(bo_seat),
            _ => None,
        };
        for (_, fact) in &facts {
            assert_only_own_secrets(fact, who, "a stream message");
            if i != 1 {
                seen_by_others.push_str(&fact.to_string());
            } else {
                seen_by_bo.push_str(&fact.to_string());
            }
        }
    }
    // Which of Bo's two lists Bo hired: its leader is on the table at the end.
    let (_, end) = fan.get(&format!("/games/{hosted_id}")).await;
    let end = end.to_string();
    let (kept, canary_list, canary_leader) = if end.contains("Odessa Vane") {
        ("Odessa Vane", "hollowmarch", "Ilse Marrow")
    } else {
        ("Ilse Marrow", "lamplighters", "Odessa Vane")
    };
    assert!(end.contains(kept), "{end}");
    assert!(
        seen_by_bo.contains(canary_leader),
        "Bo's own outputs name the leader Bo brought and left out (the canary is real)"
    );
    assert!(
        !seen_by_others.contains(canary_leader) && !seen_by_others.contains(canary_list),
        "the list Bo brought but did not hire reached Ann or a spectator"
    );
}

/// The game page's table: both deployment zones once chosen, each model's
/// health under it, the acting model outlined with its walk and action
/// rings, and the choices that name a model marked with it (so that
/// clicking the model picks them out).
async fn the_board_shows_zones_health_and_the_acting_models_reach(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, browser) = app.user("player@example.org", "Player").await;
    let api = app.api_client("player@example.org").await;
    let id = start_from_the_page(&browser).await;
    let mut saw_activation_choices = false;
    let mut saw_acting_model = false;
    for n in 0..2_000u64 {
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
            .await;
        assert_ne!(game.status, HostedStatus::Finished, "the game ended first");
        let pending = soulstone_engine::pending(&game.state);
        let activating = pending.decisions.iter().any(|d| {
            d.seat == Seat::A
                && d.choices.iter().any(|c| {
                    matches!(
                        c,
                        soulstone_engine::pending::Choice::Command {
                            command: PlayerCommand::Activate { .. }
                        }
                    )
                })
        });
        let acting = game
            .state
            .acting_model()
            .and_then(|m| game.state.model(m))
            .filter(|m| m.placement.is_some())
            // The ring shows the Sp a Walk moves, tokens included (Hastened).
            .map(|m| (m.id, m.card.name.clone(), game.state.tokens.speed_of(m)));
        if (activating && !saw_activation_choices) || (acting.is_some() && !saw_acting_model) {
            let (status, page) = browser.get_text(&format!("/games/{id}")).await;
            assert_eq!(status, 200);
            assert_eq!(
                page.matches("class=\"zone ").count(),
                2,
                "both zones: {page}"
            );
            let model = game
                .state
                .models
                .iter()
                .find(|m| m.placement.is_some())
                .unwrap();
            let health = format!("{} of {} health", model.health, model.card.max_health);
            assert!(page.contains(&health), "health {health} under the model");
            if activating {
                assert!(
                    page.contains(
                        "class=\"choice choice-command\" data-kind=\"command\" data-piece="
                    ),
                    "{page}"
                );
                saw_activation_choices = true;
            }
            if let Some((model, name, speed)) = acting {
                assert!(
                    page.contains(&format!(" acting\" data-model=\"{}\"", model.0)),
                    "the acting model is outlined: {page}"
                );
                assert!(
                    page.contains("class=\"ring walk\"")
                        && page.contains(&format!("walk: {speed} inches")),
                    "{name}'s walk: {page}"
                );
                assert!(page.contains("class=\"ring range\""));
                saw_acting_model = true;
            }
        }
        if saw_activation_choices && saw_acting_model {
            return;
        }
        play_one(&app, &api, id, n).await;
    }
    panic!("no activation came up");
}

/// A game by invitation may count in an open league both play in: someone
/// outside the league cannot take it; accepted, it is the league's game,
/// played in the browser, which its players cannot report by hand; its
/// final score becomes the league's confirmed result; and the league's cap
/// on games against one opponent refuses another, changing nothing.
async fn a_league_game_by_invitation_reports_itself_in_the_league(backend: Backend) {
    use crate::events::{create_event, event_body, set_status};
    let app = TestApp::spawn(backend).await;
    app.create_account("lto@example.org", "League TO", false)
        .await;
    let to = app.api_client("lto@example.org").await;
    let mut body = event_body("Winter League");
    body["format"] = serde_json::json!("league");
    body["league_mode"] = serde_json::json!("open");
    body["league_max_games_vs_same"] = serde_json::json!(1);
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    let (_, ana) = app.user("ana@example.org", "Ana Inviter").await;
    let (_, ben) = app.user("ben@example.org", "Ben Guest").await;
    let (_, cal) = app.user("cal@example.org", "Cal Outsider").await;
    let mut apis = Vec::new();
    for email in ["ana@example.org", "ben@example.org"] {
        let api = app.api_client(email).await;
        let (code, entry) = api
            .post(&format!("/events/{event}/register"), serde_json::json!({}))
            .await;
        assert_eq!(code, 201, "{entry}");
        apis.push(api);
    }
    set_status(&to, event, "running").await;

    let (_, page) = ana.get_text(&format!("/events/{event}")).await;
    assert!(
        page.contains(&format!("/play/invite?league={event}")),
        "{page}"
    );
    let (_, form) = ana.get_text(&format!("/play/invite?league={event}")).await;
    assert!(
        form.contains(&format!("<option value=\"{event}\" selected>Winter League")),
        "{form}"
    );
    // Someone outside the league cannot make its invitations.
    let refused = cal
        .post_form(
            "/play/invite",
            &[("crew", "mudlark-50"), ("league", &event.to_string())],
        )
        .await;
    assert_eq!(refused.status().as_u16(), 422);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("Only players of Winter League")
    );
    let invite = |client: &crate::support::TestClient| {
        let client = client.clone();
        async move {
            client
                .post_form(
                    "/play/invite",
                    &[("crew", "mudlark-50"), ("league", &event.to_string())],
                )
                .await
        }
    };
    let made = invite(&ana).await;
    assert_eq!(made.status().as_u16(), 303);
    let link = location(&made);
    let (_, page) = ben.get_text(&link).await;
    assert!(
        page.contains("Winter League</a>: the final score is the league"),
        "{page}"
    );

    // Cal is not in the league: refused, and the link stays open for Ben.
    let outsider = cal
        .post_form(&format!("{link}/accept"), &[("crew", "tidewright-50")])
        .await;
    assert_eq!(outsider.status().as_u16(), 422);
    assert!(
        outsider
            .text()
            .await
            .unwrap()
            .contains("register for it first")
    );
    let accepted = ben
        .post_form(&format!("{link}/accept"), &[("crew", "tidewright-50")])
        .await;
    assert_eq!(accepted.status().as_u16(), 303);
    let hosted_id = id_after(&location(&accepted), "/games/");
    let (kind, pairing) = app
        .with_conn(move |conn| {
            let row = soulstone::db::hosted::find_game(conn, hosted_id)
                .unwrap()
                .unwrap();
            (row.kind, row.pairing_game_id)
        })
        .await;
    assert_eq!(kind, "event");
    let pairing = pairing.expect("the league's game");
    let row = app
        .with_conn(move |conn| {
            soulstone::db::events::find_game(conn, pairing)
                .unwrap()
                .unwrap()
        })
        .await;
    assert_eq!(
        (row.event_id, row.round_id, row.status.code()),
        (event, None, "pending")
    );

    // Nobody reports it by hand.
    let (code, body) = apis[1]
        .post(
            &format!("/events/{event}/games/{pairing}/result"),
            serde_json::json!({"a_strategy_vp": 0, "a_scheme_vp": 0, "b_strategy_vp": 5,
                               "b_scheme_vp": 5, "version": row.version.to_string()}),
        )
        .await;
    assert_eq!(code, 409, "{body}");
    assert!(body.to_string().contains("reports itself"), "{body}");

    let game = play_until(&app, hosted_id, &apis, |_| false).await;
    assert_eq!(game.status, HostedStatus::Finished);
    let vp = |seat: Seat| i32::from(game.state.player(seat).victory_points);
    let row = app
        .with_conn(move |conn| {
            soulstone::db::events::find_game(conn, pairing)
                .unwrap()
                .unwrap()
        })
        .await;
    assert_eq!(row.status.code(), "confirmed");
    let total = |strategy: Option<i32>, scheme: Option<i32>| strategy.unwrap() + scheme.unwrap();
    assert_eq!(
        (
            total(row.a_strategy_vp, row.a_scheme_vp),
            total(row.b_strategy_vp, row.b_scheme_vp)
        ),
        (vp(Seat::A), vp(Seat::B))
    );

    // The league allows one game against each opponent.
    let made = invite(&ana).await;
    let second = location(&made);
    let capped = ben
        .post_form(&format!("{second}/accept"), &[("crew", "tidewright-50")])
        .await;
    assert_eq!(capped.status().as_u16(), 422);
    assert!(
        capped
            .text()
            .await
            .unwrap()
            .contains("this league allows 1")
    );
    let games = app
        .with_conn(move |conn| {
            soulstone::db::events::games_of_event(conn, event)
                .unwrap()
                .len()
        })
        .await;
    assert_eq!(games, 1, "nothing of the refused game is kept");
}

/// A player who declared a faction and a crew list for the event finds the
/// list filled in on the game's page (no shipped list ticked beside it),
/// and may bring only crews of the declared faction.
async fn a_declared_crew_is_offered_and_its_faction_kept(backend: Backend) {
    use crate::events::{create_event, event_body, set_status};
    let app = TestApp::spawn(backend).await;
    let (_, to_browser) = app.user("to@example.org", "Tess Organiser").await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, event_body("Declared")).await;
    set_status(&to, event, "registration").await;
    let declared = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("content/m4e/crews/lamplighters-50.txt"),
    )
    .unwrap();
    let mut browsers = Vec::new();
    for (email, name) in [("ann@example.org", "Ann"), ("bo@example.org", "Bo")] {
        let (_, browser) = app.user(email, name).await;
        let (_, entry) = app
            .api_client(email)
            .await
            .post(&format!("/events/{event}/register"), serde_json::json!({}))
            .await;
        let reg = entry["id"].as_i64().unwrap();
        to.post(
            &format!("/events/{event}/players/{reg}/check-in"),
            serde_json::json!({"checked_in": true}),
        )
        .await;
        if name == "Ann" {
            let response = browser
                .post_form(
                    &format!("/events/{event}/players/{reg}/declare"),
                    &[("faction", "Guild"), ("army_list", declared.as_str())],
                )
                .await;
            assert_eq!(response.status().as_u16(), 303);
        }
        browsers.push(browser);
    }
    set_status(&to, event, "running").await;
    to.post(&format!("/events/{event}/rounds"), serde_json::json!({}))
        .await;
    to.post(
        &format!("/events/{event}/rounds/1/publish"),
        serde_json::json!({}),
    )
    .await;
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let pairing = round["tables"][0]["game"].as_i64().unwrap();
    let marked = to_browser
        .post_form(&format!("/events/{event}/rounds/1/digital"), &[])
        .await;
    assert_eq!(marked.status().as_u16(), 303);
    let play = format!("/events/{event}/games/{pairing}/play");
    let crews_path = format!("/events/{event}/games/{pairing}/crews");

    let (_, page) = browsers[0].get_text(&play).await;
    assert!(
        page.contains("Leader: Odessa Vane, Lamplighter Marshal"),
        "the declared list is filled in: {page}"
    );
    assert!(
        !page.contains(" checked>"),
        "no shipped list ticked: {page}"
    );
    let (_, page) = browsers[1].get_text(&play).await;
    assert!(page.contains(" checked>"), "Bo declared nothing: {page}");

    // Another faction's crew is refused, in words; the declared one goes in.
    let other = browsers[0]
        .post_form(&crews_path, &[("crew", "mudlark-50")])
        .await;
    assert_eq!(other.status().as_u16(), 422);
    let shown = other.text().await.unwrap();
    assert!(
        shown.contains("You declared Guild for this event"),
        "{shown}"
    );
    let (_, page) = browsers[0].get_text(&play).await;
    assert!(page.contains("crews not brought yet"), "{page}");
    let kept = browsers[0]
        .post_form(&crews_path, &[("own_list", declared.as_str())])
        .await;
    assert_eq!(location(&kept), play);
    let (_, page) = browsers[0].get_text(&play).await;
    assert!(page.contains("What you brought is in"), "{page}");
}
