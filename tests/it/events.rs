//! Events from sign-up to final standings: through the JSON API and through
//! the pages, with byes, drops, late entries, disputes, corrections, a
//! league, stale forms and the offline pairing tool.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::support::{
    ApiClient, Backend, PASSWORD, TestApp, TestClient, extract_input_value, id_after, location,
};

both_backends!(
    staff_invitations_reveal_no_accounts,
    league_games_and_report_mails_are_safe_to_repeat,
    a_no_show_is_not_paired_and_named_to_the_organiser,
    an_event_sent_twice_is_made_once,
    swiss_event_through_the_api,
    swiss_event_through_the_pages,
    waitlist_promotes_automatically,
    results_are_validated_against_the_edition,
    stale_and_double_submissions_change_nothing,
    league_open_play_with_caps,
    finished_events_are_read_only_except_for_admin_corrections,
    offline_pairing_matches_the_server_and_imports,
    an_unproven_draft_can_be_paired_again_with_a_longer_search,
    mage_knight_results_and_standings,
    crew_lists_are_read_and_their_hiring_shown,
    an_event_always_keeps_an_owner,
    control_and_invisible_characters_are_refused,
    walk_ins_are_entered_once_within_the_cap_and_can_be_taken_back,
    the_organiser_finds_players_and_checks_in_the_room_at_once,
    a_round_wide_scenario_flips_the_attacker_at_each_table,
    a_dispute_is_shown_side_by_side_flagged_and_mailed,
    a_player_drops_after_asking_and_may_come_back_until_the_next_round,
    an_open_league_takes_players_while_it_runs,
    times_are_the_venues_and_tables_the_venues,
    scenarios_are_prepared_before_the_event_or_entered_as_announced,
);

pub(crate) fn event_body(name: &str) -> Value {
    json!({
        "name": name, "starts_on": "2026-12-05", "ends_on": "2026-12-05", "venue": "Town hall",
        "game_system": "m4e", "format": "swiss", "rounds_planned": 3, "round_minutes": 135,
        "encounter_size": 50, "visibility": "public", "points_win": 3, "points_draw": 1,
        "points_loss": 0, "bye_scored": 5, "bye_conceded": 0,
        "tiebreakers": "vp_diff,vp_scored,sos", "avoid_same_club": true
    })
}

pub(crate) async fn create_event(api: &ApiClient, body: Value) -> i64 {
    let (status, event) = api.post("/events", body).await;
    assert_eq!(status, 201, "{event}");
    event["id"].as_i64().unwrap()
}

pub(crate) async fn set_status(api: &ApiClient, event: i64, status: &str) {
    let (code, body) = api
        .post(
            &format!("/events/{event}/status"),
            json!({"status": status}),
        )
        .await;
    assert_eq!(code, 204, "{status}: {body}");
}

/// Tournament points and VP difference, counted independently of the server.
#[derive(Debug, Default, Clone, PartialEq)]
struct Tally {
    points: i64,
    vp_diff: i64,
}

struct Field {
    to: ApiClient,
    /// Registration id → the player's API client (None for walk-ins).
    players: BTreeMap<i64, Option<ApiClient>>,
    tally: BTreeMap<i64, Tally>,
}

impl Field {
    fn record(&mut self, a: i64, b: i64, a_vp: i64, b_vp: i64) {
        let (pa, pb) = match a_vp.cmp(&b_vp) {
            std::cmp::Ordering::Greater => (3, 0),
            std::cmp::Ordering::Less => (0, 3),
            std::cmp::Ordering::Equal => (1, 1),
        };
        let ta = self.tally.entry(a).or_default();
        ta.points += pa;
        ta.vp_diff += a_vp - b_vp;
        let tb = self.tally.entry(b).or_default();
        tb.points += pb;
        tb.vp_diff += b_vp - a_vp;
    }

    fn bye(&mut self, player: i64) {
        let t = self.tally.entry(player).or_default();
        t.points += 3;
        t.vp_diff += 5;
    }
}

fn vp(strategy: i64, scheme: i64, other_strategy: i64, other_scheme: i64) -> Value {
    json!({"a_strategy_vp": strategy, "a_scheme_vp": scheme, "b_strategy_vp": other_strategy, "b_scheme_vp": other_scheme,
           "a_leader": "Seamus", "a_crew": "Copycat Killer", "b_leader": "Lady Justice", "b_crew": "Judge"})
}

/// Plays a published round: the first player reports, the opponent confirms;
/// walk-in games are entered by the organiser; the game at `dispute_table`
/// is disputed and then resolved by the organiser with other figures.
async fn play_round(field: &mut Field, event: i64, round: i64, dispute_table: Option<i64>) {
    let (status, detail) = field
        .to
        .get(&format!("/events/{event}/rounds/{round}"))
        .await;
    assert_eq!(status, 200, "{detail}");
    assert_eq!(detail["status"], "published");
    for (i, table) in detail["tables"].as_array().unwrap().iter().enumerate() {
        let game = table["game"].as_i64().unwrap();
        let a = table["player_a"].as_i64().unwrap();
        let Some(b) = table["player_b"].as_i64() else {
            assert_eq!(table["status"], "bye");
            field.bye(a);
            continue;
        };
        let (a_vp, b_vp) = ((i as i64 * 3 + round) % 10, (i as i64 + 2 * round) % 10);
        let body = vp(
            a_vp.min(5),
            (a_vp - 5).max(0),
            b_vp.min(5),
            (b_vp - 5).max(0),
        );
        let reporter = field.players[&a].clone();
        let confirmer = field.players[&b].clone();
        let game_path = format!("/events/{event}/games/{game}");
        match (reporter, confirmer) {
            (Some(reporter), Some(confirmer)) => {
                let (code, state) = reporter.post(&format!("{game_path}/result"), body).await;
                assert_eq!(code, 200, "{state}");
                assert_eq!(state["status"], "reported");
                if dispute_table == table["table"].as_i64() {
                    let (code, _) = confirmer
                        .post(
                            &format!("{game_path}/dispute"),
                            json!({"note": "Scheme VP wrong", "version": state["version"]}),
                        )
                        .await;
                    assert_eq!(code, 204);
                    // The organiser resolves with the corrected figures: 4–4.
                    let (code, state) = field
                        .to
                        .post(&format!("{game_path}/result"), vp(2, 2, 2, 2))
                        .await;
                    assert_eq!(code, 200, "{state}");
                    assert_eq!(state["status"], "resolved");
                    field.record(a, b, 4, 4);
                    continue;
                }
                // The reporter cannot confirm their own report.
                let version = json!({"version": state["version"]});
                let (code, _) = reporter
                    .post(&format!("{game_path}/confirm"), version.clone())
                    .await;
                assert_eq!(code, 403);
                // Without the version it saw, a confirmation is refused.
                let (code, body) = confirmer
                    .post(&format!("{game_path}/confirm"), json!({}))
                    .await;
                assert_eq!(code, 400, "{body}");
                assert!(body.to_string().contains("version"), "{body}");
                let (code, body) = confirmer
                    .post(&format!("{game_path}/confirm"), version)
                    .await;
                assert_eq!(code, 204, "{body}");
            }
            _ => {
                let (code, state) = field.to.post(&format!("{game_path}/result"), body).await;
                assert_eq!(code, 200, "{state}");
                assert_eq!(state["status"], "resolved");
            }
        }
        field.record(a, b, a_vp, b_vp);
    }
}

async fn assert_standings_match(field: &Field, event: i64) -> Vec<Value> {
    let (status, rows) = field.to.get(&format!("/events/{event}/standings")).await;
    assert_eq!(status, 200);
    let rows = rows.as_array().unwrap().clone();
    for row in &rows {
        let id = row["player"].as_i64().unwrap();
        let expected = field.tally.get(&id).cloned().unwrap_or_default();
        let initial = 0;
        assert_eq!(
            row["points"].as_i64().unwrap(),
            expected.points + initial,
            "points of {id}: {row}"
        );
        assert_eq!(
            row["tiebreaks"][0].as_i64().unwrap(),
            expected.vp_diff,
            "VP diff of {id}: {row}"
        );
    }
    // Ordered by points, then VP difference.
    for pair in rows.windows(2) {
        let key = |r: &Value| {
            (
                r["points"].as_i64().unwrap(),
                r["tiebreaks"][0].as_i64().unwrap(),
            )
        };
        assert!(
            key(&pair[0]) >= key(&pair[1]),
            "{} before {}",
            pair[0],
            pair[1]
        );
    }
    rows
}

async fn swiss_event_through_the_api(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("to@example.org", "Tess the TO", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, event_body("Winter Gaining Grounds")).await;
    set_status(&to, event, "registration").await;

    let mut players = BTreeMap::new();
    for i in 1..=6 {
        let email = format!("p{i}@example.org");
        app.create_account(&email, &format!("Player {i}"), false)
            .await;
        let api = app.api_client(&email).await;
        let (code, entry) = api
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(code, 201, "{entry}");
        players.insert(entry["id"].as_i64().unwrap(), Some(api));
    }
    // Registering twice is refused.
    let (code, body) = players
        .values()
        .next()
        .unwrap()
        .as_ref()
        .unwrap()
        .post(&format!("/events/{event}/register"), json!({}))
        .await;
    assert_eq!(code, 409, "{body}");
    let (code, walk_in) = to
        .post(
            &format!("/events/{event}/players"),
            json!({"name": "Wanda Walk-in", "club": "Nomads"}),
        )
        .await;
    assert_eq!(code, 201);
    players.insert(walk_in["id"].as_i64().unwrap(), None);

    // Pairing before the event starts is refused.
    let (code, _) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 409);
    set_status(&to, event, "running").await;
    let (code, body) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 409, "nobody checked in yet: {body}");
    for id in players.keys() {
        let (code, _) = to
            .post(
                &format!("/events/{event}/players/{id}/check-in"),
                json!({"checked_in": true}),
            )
            .await;
        assert_eq!(code, 204);
    }
    // A player cannot check others in.
    let some_player = players.values().flatten().next().unwrap().clone();
    let first_id = *players.keys().next().unwrap();
    let (code, _) = some_player
        .post(
            &format!("/events/{event}/players/{first_id}/check-in"),
            json!({"checked_in": false}),
        )
        .await;
    assert_eq!(code, 403);

    let mut field = Field {
        to: to.clone(),
        players,
        tally: BTreeMap::new(),
    };
    // Round 1: seven players, so one bye.
    let (code, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 201, "{round}");
    assert_eq!(round["status"], "draft");
    let tables = round["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 4);
    assert_eq!(tables.iter().filter(|t| t["player_b"].is_null()).count(), 1);
    // Players do not see a draft.
    let (code, _) = some_player.get(&format!("/events/{event}/rounds/1")).await;
    assert_eq!(code, 404);
    let (code, _) = to
        .post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    assert_eq!(code, 204);
    // Every player with an account is mailed their pairing.
    for i in 1..=6 {
        app.smtp
            .wait_for(&format!("p{i}@example.org"), "round 1 pairing")
            .await;
    }
    play_round(&mut field, event, 1, Some(1)).await;
    assert_standings_match(&field, event).await;

    // Round 2: the last-placed player drops first.
    let (_, rows) = to.get(&format!("/events/{event}/standings")).await;
    let dropped = rows.as_array().unwrap().last().unwrap()["player"]
        .as_i64()
        .unwrap();
    let (code, _) = to
        .post(
            &format!("/events/{event}/players/{dropped}/drop"),
            json!({"dropped": true}),
        )
        .await;
    assert_eq!(code, 204);
    let (code, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 201);
    let paired: Vec<i64> = round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| [t["player_a"].as_i64(), t["player_b"].as_i64()])
        .flatten()
        .collect();
    assert!(
        !paired.contains(&dropped),
        "dropped players are never paired"
    );
    assert_eq!(paired.len(), 6, "six players, no bye");
    assert_eq!(round["pairing"]["cost"]["rematches"], 0);
    let (code, _) = to
        .post(&format!("/events/{event}/rounds/2/publish"), json!({}))
        .await;
    assert_eq!(code, 204);
    play_round(&mut field, event, 2, None).await;

    // A late entry with starting points; seven again, the bye avoids repeats.
    let (code, late) = to
        .post(
            &format!("/events/{event}/players"),
            json!({"name": "Larry Late", "initial_points": 3}),
        )
        .await;
    assert_eq!(code, 201);
    let late = late["id"].as_i64().unwrap();
    field.players.insert(late, None);
    field.tally.entry(late).or_default().points += 3;
    let first_bye = field.tally.keys().copied().find(|_| false);
    let _ = first_bye;
    let (code, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 201, "{round}");
    let tables = round["tables"].as_array().unwrap();
    let bye = tables.iter().find(|t| t["player_b"].is_null()).unwrap()["player_a"]
        .as_i64()
        .unwrap();
    let (_, r1) = to.get(&format!("/events/{event}/rounds/1")).await;
    let round1_bye = r1["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["player_b"].is_null())
        .unwrap()["player_a"]
        .as_i64()
        .unwrap();
    assert_ne!(
        bye, round1_bye,
        "nobody gets a second bye while others have none"
    );
    assert!(
        tables
            .iter()
            .any(|t| t["player_a"] == late || t["player_b"] == late),
        "the late entry plays"
    );
    let (code, _) = to
        .post(&format!("/events/{event}/rounds/3/publish"), json!({}))
        .await;
    assert_eq!(code, 204);
    play_round(&mut field, event, 3, None).await;
    // Late entrant started with 3 points (tallied above).
    let rows = assert_standings_match(&field, event).await;
    assert!(
        rows.iter()
            .any(|r| r["player"] == dropped && r["dropped"] == true)
    );

    // No fourth round: all planned rounds are played.
    let (code, body) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 409, "{body}");
    set_status(&to, event, "finished").await;
}

/// Follows a redirect's target and returns the page.
async fn follow(client: &TestClient, response: reqwest::Response) -> (u16, String) {
    assert_eq!(response.status(), 303, "expected a redirect");
    client.get_text(&location(&response)).await
}

async fn swiss_event_through_the_pages(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("page-to@example.org", "Page TO").await;
    let form = [
        ("name", "Pages Open"),
        ("description", "Bring your <b>crew</b>!\nDoors at 9."),
        ("venue", "Club house"),
        ("starts_on", "2026-12-12"),
        ("ends_on", "2026-12-12"),
        ("game_system", "m3e"),
        ("format", "swiss"),
        ("rounds_planned", "2"),
        ("round_minutes", "120"),
        ("encounter_size", "50"),
        ("visibility", "public"),
        ("pool", "m3e-gg3"),
        ("points_win", "3"),
        ("points_draw", "1"),
        ("points_loss", "0"),
        ("bye_scored", "5"),
        ("bye_conceded", "0"),
        ("tiebreaker_1", "vp_diff"),
        ("tiebreaker_2", "sos"),
        ("league_mode", "rounds"),
    ];
    // A broken form keeps what was typed and names the problem.
    let mut broken = form.to_vec();
    broken[7] = ("rounds_planned", "many");
    let response = to.post_form("/events/new", &broken).await;
    assert_eq!(response.status(), 422);
    let html = response.text().await.unwrap();
    assert!(html.contains("must be a whole number"), "{html}");
    assert!(html.contains("value=\"Pages Open\""));

    let response = to.post_form("/events/new", &form).await;
    assert_eq!(response.status(), 303);
    let event = id_after(&location(&response), "/events/");
    let (status, html) = to.get_text(&format!("/events/{event}")).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("Bring your &#60;b&#62;crew&#60;/b&#62;!")
            || html.contains("Bring your &lt;b&gt;crew&lt;/b&gt;!"),
        "description is escaped: {html}"
    );
    // Drafts are invisible to others.
    assert_eq!(
        app.new_client()
            .get(&format!("/events/{event}"))
            .await
            .status(),
        404
    );
    let response = to
        .post_form(
            &format!("/events/{event}/status"),
            &[("status", "registration")],
        )
        .await;
    assert_eq!(response.status(), 303);

    let mut browsers = Vec::new();
    for i in 1..=4 {
        let (_, b) = app
            .user(&format!("pp{i}@example.org"), &format!("Pat {i}"))
            .await;
        let response = b.post_form(&format!("/events/{event}/register"), &[]).await;
        assert_eq!(response.status(), 303);
        browsers.push(b);
    }
    let response = to
        .post_form(
            &format!("/events/{event}/players"),
            &[("name", "Walter Walk-in"), ("club", "")],
        )
        .await;
    assert_eq!(response.status(), 303);
    let response = to
        .post_form(&format!("/events/{event}/status"), &[("status", "running")])
        .await;
    assert_eq!(response.status(), 303);

    // Check everyone in from the players page.
    let (status, html) = to.get_text(&format!("/events/{event}/players")).await;
    assert_eq!(status, 200);
    let ids: Vec<i64> = html
        .split("id=\"reg-")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids.len(), 5);
    for id in &ids {
        let response = to
            .post_form(
                &format!("/events/{event}/players/{id}/check-in"),
                &[("value", "true")],
            )
            .await;
        assert_eq!(response.status(), 303);
    }
    let (_, html) = to.get_text(&format!("/events/{event}/players")).await;
    assert!(html.contains("5 of 5 checked in"), "{html}");

    // Pair, flip the setup, publish.
    let (_, html) = to.get_text(&format!("/events/{event}")).await;
    let version = crate::support::extract_input_value(&html, "version").unwrap();
    let response = to
        .post_form(&format!("/events/{event}/rounds"), &[("version", &version)])
        .await;
    let round_path = location(&response);
    assert_eq!(round_path, format!("/events/{event}/rounds/1"));
    let response = to
        .post_form(&format!("{round_path}/setup"), &[("per_table", "false")])
        .await;
    let (_, html) = follow(&to, response).await;
    assert!(html.contains("Scenario for every table"), "{html}");
    assert!(html.contains("<svg"), "a deployment map is shown");
    assert!(html.contains("Scheme pool"));
    let version = crate::support::extract_input_value(&html, "version").unwrap();
    let response = to
        .post_form(&format!("{round_path}/publish"), &[("version", &version)])
        .await;
    let (_, html) = follow(&to, response).await;
    assert!(html.contains("is published"), "{html}");
    let mail = app
        .smtp
        .wait_for("pp1@example.org", "round 1 pairing")
        .await;
    assert!(mail.body().contains("Table:"), "{}", mail.body());
    assert!(mail.body().contains("Setup:"), "the mail carries the setup");

    // Public and projector pages list the pairings.
    let (status, html) = app.new_client().get_text(&round_path).await;
    assert_eq!(status, 200);
    assert!(html.contains("Pat 1"));
    let (status, html) = app
        .new_client()
        .get_text(&format!("{round_path}/projector"))
        .await;
    assert_eq!(status, 200);
    assert!(html.contains("http-equiv=\"refresh\""));
    let (status, _) = to.get_text(&format!("{round_path}/sheets")).await;
    assert_eq!(status, 200);

    // Each player reports on the game page; the opponent confirms there. With five
    // players one of them has the bye, so report as the first player who has a game.
    let mut reporter = None;
    for (index, b) in browsers.iter().enumerate() {
        let (_, html) = b.get_text(&round_path).await;
        if html.contains("Your game: report") {
            reporter = Some((index, html));
            break;
        }
    }
    let (reporter, html) = reporter.expect("at most one of four registered players has the bye");
    let game_link = html
        .split("Your game: report")
        .next()
        .unwrap()
        .rsplit("href=\"")
        .next()
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let (status, game_html) = browsers[reporter].get_text(&game_link).await;
    let game_version = crate::support::extract_input_value(&game_html, "version")
        .unwrap_or_else(|| panic!("{game_link}: {status}\n{game_html}"));
    // Too many strategy VP for 3rd edition (4 at most): refused, typed values kept.
    let response = browsers[reporter]
        .post_form(
            &format!("{game_link}/report"),
            &[
                ("version", &game_version),
                ("a_strategy_vp", "7"),
                ("a_scheme_vp", "2"),
                ("b_strategy_vp", "1"),
                ("b_scheme_vp", "0"),
            ],
        )
        .await;
    assert_eq!(response.status(), 422);
    let html = response.text().await.unwrap();
    assert!(html.contains("between 0 and 4"), "{html}");
    assert!(html.contains("value=\"7\""));
    let response = browsers[reporter]
        .post_form(
            &format!("{game_link}/report"),
            &[
                ("version", &game_version),
                ("a_strategy_vp", "3"),
                ("a_scheme_vp", "2"),
                ("b_strategy_vp", "1"),
                ("b_scheme_vp", "0"),
            ],
        )
        .await;
    assert_eq!(response.status(), 303);
    // Find who the opponent is and confirm as them (or the organiser for the walk-in).
    let mut confirmed = false;
    for b in browsers
        .iter()
        .enumerate()
        .filter(|(index, _)| *index != reporter)
        .map(|(_, b)| b)
        .chain(std::iter::once(&to))
    {
        let (_, html) = b.get_text(&game_link).await;
        if html.contains("Confirm the reported result") {
            let version = html
                .split("/confirm\"")
                .nth(1)
                .and_then(|rest| crate::support::extract_input_value(rest, "version"))
                .unwrap();
            let response = b
                .post_form(&format!("{game_link}/confirm"), &[("version", &version)])
                .await;
            let (_, html) = follow(b, response).await;
            assert!(html.contains("Result confirmed"), "{html}");
            confirmed = true;
            break;
        }
    }
    assert!(confirmed);
    let (_, html) = app
        .new_client()
        .get_text(&format!("/events/{event}/standings"))
        .await;
    assert!(html.contains("Pat 1") && html.contains("Walter Walk-in"));
    let csv = app
        .new_client()
        .get(&format!("/events/{event}/standings.csv"))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        csv.starts_with("rank,player_id,player,club,faction,leader,points"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 6);
}

async fn waitlist_promotes_automatically(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("wto@example.org", "TO", false).await;
    let to = app.api_client("wto@example.org").await;
    let mut body = event_body("Capped");
    body["player_cap"] = json!(2);
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    let mut clients = Vec::new();
    for i in 1..=3 {
        let email = format!("w{i}@example.org");
        app.create_account(&email, &format!("W{i}"), false).await;
        let api = app.api_client(&email).await;
        let (code, entry) = api
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(code, 201);
        assert_eq!(
            entry["status"],
            if i <= 2 { "registered" } else { "waitlisted" }
        );
        clients.push(email);
    }
    // The first withdraws (through the page): the third is promoted and mailed.
    let browser = app.signed_in_client("w1@example.org").await;
    let (status, html) = browser
        .get_text(&format!("/events/{event}/confirm?action=withdraw"))
        .await;
    assert_eq!(status, 200);
    assert!(html.contains("Withdraw from this event?"));
    let response = browser
        .post_form(&format!("/events/{event}/withdraw"), &[])
        .await;
    assert_eq!(response.status(), 303);
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    let statuses: BTreeMap<String, String> = detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(statuses.get("W3").map(String::as_str), Some("registered"));
    assert!(!statuses.contains_key("W1"));
    app.smtp
        .wait_for("w3@example.org", "You have a place")
        .await;
}

async fn results_are_validated_against_the_edition(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("vto@example.org", "TO", false).await;
    let to = app.api_client("vto@example.org").await;
    let event = create_event(&to, event_body("Validation")).await;
    set_status(&to, event, "running").await;
    for name in ["A", "B"] {
        let (_, p) = to
            .post(&format!("/events/{event}/players"), json!({"name": name}))
            .await;
        to.post(
            &format!("/events/{event}/players/{}/check-in", p["id"]),
            json!({"checked_in": true}),
        )
        .await;
    }
    let (_, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    to.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let game = round["tables"][0]["game"].as_i64().unwrap();
    // 4th edition: at most 5 from the strategy and 5 from schemes.
    let (code, body) = to
        .post(
            &format!("/events/{event}/games/{game}/result"),
            json!({"a_strategy_vp": 6, "a_scheme_vp": 1, "b_strategy_vp": 0, "b_scheme_vp": -1}),
        )
        .await;
    assert_eq!(code, 400, "{body}");
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("a_strategy_vp") && message.contains("b_scheme_vp"),
        "{message}"
    );
    let (code, body) = to
        .post(
            &format!("/events/{event}/games/{game}/result"),
            json!({"a_strategy_vp": 5}),
        )
        .await;
    assert_eq!(code, 400, "{body}");
    let (_, detail) = to.get(&format!("/events/{event}/rounds/1")).await;
    assert_eq!(
        detail["tables"][0]["status"], "pending",
        "nothing was saved"
    );
}

async fn stale_and_double_submissions_change_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("sto@example.org", "TO", false).await;
    let to = app.api_client("sto@example.org").await;
    let event = create_event(&to, event_body("Stale")).await;
    set_status(&to, event, "running").await;
    for name in ["A", "B", "C", "D"] {
        let (_, p) = to
            .post(&format!("/events/{event}/players"), json!({"name": name}))
            .await;
        to.post(
            &format!("/events/{event}/players/{}/check-in", p["id"]),
            json!({"checked_in": true}),
        )
        .await;
    }
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    let version = detail["version"].as_i64().unwrap();
    // Two organisers press "pair" on the same page at once: one wins.
    let path = format!("/events/{event}/rounds");
    let (first, second) = tokio::join!(
        to.post(&path, json!({"version": version})),
        to.post(&path, json!({"version": version}))
    );
    let mut codes = [first.0, second.0];
    codes.sort_unstable();
    assert_eq!(codes, [201, 409], "{first:?} {second:?}");
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    assert_eq!(
        detail["rounds"].as_array().unwrap().len(),
        1,
        "exactly one round"
    );
    // A stale result form (old version) is refused and changes nothing.
    to.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let game = round["tables"][0]["game"].as_i64().unwrap();
    let version = round["tables"][0]["version"].as_i64().unwrap();
    let first = json!({"a_strategy_vp": 3, "a_scheme_vp": 1, "b_strategy_vp": 2, "b_scheme_vp": 2, "version": version});
    let second = json!({"a_strategy_vp": 0, "a_scheme_vp": 0, "b_strategy_vp": 5, "b_scheme_vp": 5, "version": version});
    let (c1, _) = to
        .post(&format!("/events/{event}/games/{game}/result"), first)
        .await;
    let (c2, body) = to
        .post(&format!("/events/{event}/games/{game}/result"), second)
        .await;
    assert_eq!(c1, 200);
    assert_eq!(c2, 409, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("changed by someone else")
    );
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    assert_eq!(round["tables"][0]["score"]["a_vp"], 4);
}

async fn league_open_play_with_caps(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("lto@example.org", "TO", false).await;
    let to = app.api_client("lto@example.org").await;
    let mut body = event_body("Autumn League");
    body["format"] = json!("league");
    body["league_mode"] = json!("open");
    body["league_max_games_vs_same"] = json!(1);
    body["rounds_planned"] = json!(10);
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    let mut ids = Vec::new();
    for i in 1..=3 {
        let email = format!("l{i}@example.org");
        app.create_account(&email, &format!("L{i}"), false).await;
        let (_, entry) = app
            .api_client(&email)
            .await
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        ids.push(entry["id"].as_i64().unwrap());
    }
    set_status(&to, event, "running").await;
    // No rounds in open play.
    let (code, _) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 409);
    let l1 = app.signed_in_client("l1@example.org").await;
    let record = |opponent: i64, a: &'static str, b: &'static str| {
        let l1 = l1.clone();
        let opponent = opponent.to_string();
        async move {
            l1.post_form(
                &format!("/events/{event}/games/new"),
                &[
                    ("opponent", &opponent),
                    ("a_strategy_vp", a),
                    ("a_scheme_vp", "1"),
                    ("b_strategy_vp", b),
                    ("b_scheme_vp", "0"),
                ],
            )
            .await
        }
    };
    let response = record(ids[1], "4", "1").await;
    assert_eq!(response.status(), 303);
    let game_path = location(&response);
    // Cap: one game against the same opponent.
    let again = record(ids[1], "2", "2").await;
    assert_eq!(again.status(), 422);
    assert!(again.text().await.unwrap().contains("this league allows 1"));
    // The cap holds when both players record the same game at once (and
    // one of them double-clicks): one game, the others are told why.
    let l3 = app.signed_in_client("l3@example.org").await;
    let l1_id = ids[0].to_string();
    let from_l3 = async {
        l3.post_form(
            &format!("/events/{event}/games/new"),
            &[
                ("opponent", &l1_id),
                ("a_strategy_vp", "3"),
                ("a_scheme_vp", "1"),
                ("b_strategy_vp", "2"),
                ("b_scheme_vp", "0"),
            ],
        )
        .await
    };
    let (first, second, third) =
        tokio::join!(record(ids[2], "4", "1"), record(ids[2], "4", "1"), from_l3);
    let mut codes = [
        first.status().as_u16(),
        second.status().as_u16(),
        third.status().as_u16(),
    ];
    codes.sort_unstable();
    assert_eq!(codes, [303, 422, 422], "one game between L1 and L3");
    // The opponent confirms by mail link.
    let mail = app.smtp.wait_for("l2@example.org", "please confirm").await;
    assert!(mail.body().contains(&game_path), "{}", mail.body());
    let l2 = app.signed_in_client("l2@example.org").await;
    let (_, html) = l2.get_text(&game_path).await;
    let version = html
        .split("/confirm\"")
        .nth(1)
        .and_then(|rest| crate::support::extract_input_value(rest, "version"))
        .unwrap();
    let response = l2
        .post_form(&format!("{game_path}/confirm"), &[("version", &version)])
        .await;
    assert_eq!(response.status(), 303);
    let (_, rows) = to.get(&format!("/events/{event}/standings")).await;
    let top = &rows[0];
    assert_eq!(top["player"].as_i64(), Some(ids[0]));
    assert_eq!(top["points"], 3);
    // L1 and L3 have played their one game (in the race above).
    let response = record(ids[2], "1", "1").await;
    assert_eq!(response.status(), 422);
}

/// A registered player who never checks in is left out of every round (not
/// only the first), named beside the pairing button, and paired once the
/// organiser checks them in late.
async fn a_no_show_is_not_paired_and_named_to_the_organiser(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("ns-to@example.org", "TO", false).await;
    let to = app.api_client("ns-to@example.org").await;
    let event = create_event(&to, event_body("No-show Open")).await;
    set_status(&to, event, "registration").await;
    let mut players = BTreeMap::new();
    let mut no_show = 0;
    for name in ["Ann", "Ben", "Cat", "Dan", "Nora No-show"] {
        let (code, entry) = to
            .post(&format!("/events/{event}/players"), json!({"name": name}))
            .await;
        assert_eq!(code, 201, "{entry}");
        let id = entry["id"].as_i64().unwrap();
        players.insert(id, None);
        if name.starts_with("Nora") {
            no_show = id;
            continue;
        }
        to.post(
            &format!("/events/{event}/players/{id}/check-in"),
            json!({"checked_in": true}),
        )
        .await;
    }
    set_status(&to, event, "running").await;
    let mut field = Field {
        to: to.clone(),
        players,
        tally: BTreeMap::new(),
    };
    let paired = |round: Value| -> Vec<i64> {
        round["tables"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| [t["player_a"].as_i64(), t["player_b"].as_i64()])
            .flatten()
            .collect()
    };
    let page = app.signed_in_client("ns-to@example.org").await;
    for round in 1..=2 {
        let (_, html) = page.get_text(&format!("/events/{event}")).await;
        assert!(
            html.contains("Not checked in, so the next round leaves them out: Nora No-show"),
            "{html}"
        );
        let (code, detail) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
        assert_eq!(code, 201, "{detail}");
        let seated = paired(detail);
        assert_eq!(seated.len(), 4, "round {round}: {seated:?}");
        assert!(!seated.contains(&no_show), "round {round}");
        to.post(
            &format!("/events/{event}/rounds/{round}/publish"),
            json!({}),
        )
        .await;
        play_round(&mut field, event, round, None).await;
    }
    // The standings leave out who never played: Nora would otherwise rank
    // above everyone who lost.
    let (_, rows) = to.get(&format!("/events/{event}/standings")).await;
    let listed: Vec<i64> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_i64().unwrap())
        .collect();
    assert_eq!(listed.len(), 4, "{rows}");
    assert!(!listed.contains(&no_show));
    let csv = page
        .get(&format!("/events/{event}/standings.csv"))
        .await
        .text()
        .await
        .unwrap();
    assert!(!csv.contains("Nora"), "{csv}");
    assert_eq!(csv.lines().count(), 5, "{csv}");
    // Nora arrives late: checked in, she is paired in round 3.
    to.post(
        &format!("/events/{event}/players/{no_show}/check-in"),
        json!({"checked_in": true}),
    )
    .await;
    let (_, html) = page.get_text(&format!("/events/{event}")).await;
    assert!(
        !html.contains("Not checked in, so the next round"),
        "{html}"
    );
    let (code, detail) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 201, "{detail}");
    assert!(paired(detail).contains(&no_show));
}

/// The new-event form (or an API client's request) sent twice with the same
/// submission key makes one event; both answers name it.
async fn an_event_sent_twice_is_made_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, page) = app.user("twice@example.org", "Twice").await;
    let (_, html) = page.get_text("/events/new").await;
    let key = extract_input_value(&html, "submission_key").expect("a submission key");
    let fields = [
        ("name", "Double Click Open"),
        ("starts_on", "2026-12-12"),
        ("ends_on", "2026-12-12"),
        ("game_system", "m3e"),
        ("format", "swiss"),
        ("rounds_planned", "2"),
        ("round_minutes", "120"),
        ("encounter_size", "50"),
        ("visibility", "public"),
        ("pool", "m3e-gg3"),
        ("points_win", "3"),
        ("points_draw", "1"),
        ("points_loss", "0"),
        ("bye_scored", "5"),
        ("bye_conceded", "0"),
        ("tiebreaker_1", "vp_diff"),
        ("league_mode", "rounds"),
        ("submission_key", key.as_str()),
    ];
    let (first, second) = tokio::join!(
        page.post_form("/events/new", &fields),
        page.post_form("/events/new", &fields)
    );
    assert_eq!(first.status(), 303);
    assert_eq!(second.status(), 303);
    assert_eq!(location(&first), location(&second));
    let api = app.api_client("twice@example.org").await;
    let mut body = event_body("Retried Open");
    body["submission_key"] = json!("api-retry-1");
    let (a, first) = api.post("/events", body.clone()).await;
    let (b, again) = api.post("/events", body).await;
    assert_eq!((a, b), (201, 201));
    assert_eq!(first["id"], again["id"]);
    let owned = app
        .with_conn(|conn| {
            let account = soulstone::db::accounts::find_by_email(conn, "twice@example.org")
                .unwrap()
                .unwrap();
            soulstone::db::events::events_staffed_by(conn, account.id)
                .unwrap()
                .len()
        })
        .await;
    assert_eq!(owned, 2, "one event per key");
}

/// A league game's form sent twice (a double click, a retry after a lost
/// answer) records one game, and a reporter amending a result over and
/// over sends the opponent one mail, which carries the newest result.
async fn league_games_and_report_mails_are_safe_to_repeat(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("rto@example.org", "TO", false).await;
    let to = app.api_client("rto@example.org").await;
    let mut body = event_body("Repeat League");
    body["format"] = json!("league");
    body["league_mode"] = json!("open");
    body["rounds_planned"] = json!(10);
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    let mut ids = Vec::new();
    for name in ["r1", "r2"] {
        let email = format!("{name}@example.org");
        app.create_account(&email, name, false).await;
        let (_, entry) = app
            .api_client(&email)
            .await
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        ids.push(entry["id"].as_i64().unwrap());
    }
    set_status(&to, event, "running").await;
    let r1 = app.signed_in_client("r1@example.org").await;
    let new_game = format!("/events/{event}/games/new");
    let games = || async {
        app.with_conn(move |conn| {
            soulstone::events::rounds::EventData::load(conn, event)
                .unwrap()
                .games
                .len()
        })
        .await
    };
    let opponent = ids[1].to_string();
    let submit = |key: String| {
        let (r1, new_game, opponent) = (r1.clone(), new_game.clone(), opponent.clone());
        async move {
            r1.post_form(
                &new_game,
                &[
                    ("opponent", opponent.as_str()),
                    ("submission_key", key.as_str()),
                    ("a_strategy_vp", "4"),
                    ("a_scheme_vp", "1"),
                    ("b_strategy_vp", "1"),
                    ("b_scheme_vp", "0"),
                ],
            )
            .await
        }
    };
    let form_key = || async {
        let (_, html) = r1.get_text(&new_game).await;
        extract_input_value(&html, "submission_key").expect("a submission key")
    };
    let key = form_key().await;
    let (first, second) = tokio::join!(submit(key.clone()), submit(key.clone()));
    let retry = submit(key).await;
    assert_eq!(first.status(), 303);
    for repeat in [&second, &retry] {
        assert_eq!(repeat.status(), 303);
        assert_eq!(location(repeat), location(&first), "the same game");
    }
    assert_eq!(games().await, 1);
    // A new form is a new game (this league has no cap).
    assert_eq!(submit(form_key().await).await.status(), 303);
    assert_eq!(games().await, 2);

    // The reporter changes their mind 25 times.
    let game = location(&first)
        .rsplit('/')
        .next()
        .unwrap()
        .parse::<i64>()
        .unwrap();
    let reporter = app.api_client("r1@example.org").await;
    let mut version = app
        .with_conn(move |conn| {
            soulstone::db::events::find_game(conn, game)
                .unwrap()
                .unwrap()
                .version
        })
        .await;
    for amended in 0..25 {
        let (status, answer) = reporter
            .post(
                &format!("/events/{event}/games/{game}/result"),
                json!({"a_strategy_vp": 4, "a_scheme_vp": amended % 5, "b_strategy_vp": 1,
                       "b_scheme_vp": 0, "version": version}),
            )
            .await;
        assert_eq!(status, 200, "{answer}");
        version = answer["version"].as_i64().unwrap() as i32;
    }
    let first_mail = app.smtp.wait_for("r2@example.org", "please confirm").await;
    actix_web::rt::time::sleep(std::time::Duration::from_secs(2)).await;
    let about_game =
        |mail: &crate::support::smtp::ReceivedMail| mail.body().contains(&format!("/games/{game}"));
    let delivered = app
        .smtp
        .received()
        .into_iter()
        .filter(|m| m.to.iter().any(|t| t == "r2@example.org") && about_game(m))
        .count();
    assert_eq!(delivered, 1, "one mail for 26 reports of one game");
    assert!(first_mail.body().contains("r1 5 "), "{}", first_mail.body());
    // The newest result waits in the one mail still queued for later.
    let waiting = app
        .with_conn(move |conn| {
            soulstone::db::mail::to_address(conn, "r2@example.org")
                .unwrap()
                .into_iter()
                .filter(|m| {
                    m.to_address == "r2@example.org"
                        && m.status.code() == "pending"
                        && m.dedupe_key
                            .as_deref()
                            .is_some_and(|k| k.starts_with(&format!("result-to-confirm:{game}:")))
                })
                .collect::<Vec<_>>()
        })
        .await;
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    assert!(
        waiting[0].body_text.contains("r1 8 – 1 r2"),
        "{}",
        waiting[0].body_text
    );
}

async fn finished_events_are_read_only_except_for_admin_corrections(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("fto@example.org", "TO", false).await;
    app.create_account("admin@example.org", "Admin", true).await;
    let to = app.api_client("fto@example.org").await;
    let admin = app.api_client("admin@example.org").await;
    let mut body = event_body("Done");
    body["rounds_planned"] = json!(1);
    let event = create_event(&to, body).await;
    set_status(&to, event, "running").await;
    for name in ["A", "B"] {
        let (_, p) = to
            .post(&format!("/events/{event}/players"), json!({"name": name}))
            .await;
        to.post(
            &format!("/events/{event}/players/{}/check-in", p["id"]),
            json!({"checked_in": true}),
        )
        .await;
    }
    let (_, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    to.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let game = round["tables"][0]["game"].as_i64().unwrap();
    let result = |a: i64| json!({"a_strategy_vp": a, "a_scheme_vp": 0, "b_strategy_vp": 1, "b_scheme_vp": 0});
    let (code, _) = to
        .post(&format!("/events/{event}/games/{game}/result"), result(3))
        .await;
    assert_eq!(code, 200);
    set_status(&to, event, "finished").await;
    let (code, body) = to
        .post(&format!("/events/{event}/games/{game}/result"), result(0))
        .await;
    assert_eq!(code, 409, "{body}");
    let (code, _) = to
        .post(
            &format!("/events/{event}/players"),
            json!({"name": "Too late"}),
        )
        .await;
    assert_eq!(code, 409);
    // A site admin may correct; the change is logged.
    let (code, body) = admin
        .post(&format!("/events/{event}/games/{game}/result"), result(0))
        .await;
    assert_eq!(code, 200, "{body}");
    let entries = app
        .with_conn(move |conn| soulstone::db::audit::for_event(conn, event).unwrap())
        .await;
    assert!(
        entries.iter().any(|e| e.action == "result.corrected"),
        "{entries:?}"
    );
    // After the correction the second player of the game won 1–0.
    let winner = round["tables"][0]["name_b"].clone();
    let (_, rows) = to.get(&format!("/events/{event}/standings")).await;
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .any(|r| r["points"] == 3 && r["name"] == winner),
        "{rows}"
    );
    // The history on the game page keeps both figures.
    let admin_browser = app.signed_in_client("admin@example.org").await;
    let (_, html) = admin_browser
        .get_text(&format!("/events/{event}/games/{game}"))
        .await;
    assert!(
        html.contains("corrected") && html.contains("entered"),
        "{html}"
    );
}

/// `count` walk-ins named `{prefix} {i}`, in `clubs` clubs in turn, all
/// checked in: their registration ids.
pub(crate) async fn walk_ins_checked_in(
    to: &ApiClient,
    event: i64,
    prefix: &str,
    count: usize,
    clubs: usize,
) -> Vec<i64> {
    let mut ids = Vec::new();
    for i in 0..count {
        let (_, p) = to
            .post(
                &format!("/events/{event}/players"),
                json!({"name": format!("{prefix} {i}"), "club": format!("C{}", i % clubs)}),
            )
            .await;
        to.post(
            &format!("/events/{event}/players/{}/check-in", p["id"]),
            json!({"checked_in": true}),
        )
        .await;
        ids.push(p["id"].as_i64().unwrap());
    }
    ids
}

async fn offline_pairing_matches_the_server_and_imports(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, browser) = app.user("oto@example.org", "TO").await;
    let to = app.api_client("oto@example.org").await;
    let event = create_event(&to, event_body("Offline")).await;
    set_status(&to, event, "running").await;
    walk_ins_checked_in(&to, event, "Off", 9, 3).await;
    let response = browser.get(&format!("/events/{event}/snapshot.json")).await;
    assert_eq!(response.status(), 200);
    let snapshot_text = response.text().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("snapshot.json");
    std::fs::write(&file, &snapshot_text).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_soulstone"))
        .arg("pair")
        .arg(&file)
        .env_clear()
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed = String::from_utf8(output.stdout).unwrap();
    // The command prints exactly what the library (and so the server) computes.
    let snapshot = soulstone::tournament::snapshot::EventSnapshot::parse(&snapshot_text).unwrap();
    let expected = snapshot.pair_next_round().unwrap();
    let printed_pairing: soulstone::tournament::pairing::RoundPairing =
        serde_json::from_str(&printed).unwrap();
    assert_eq!(printed_pairing, expected);
    assert!(printed_pairing.bye.is_some(), "nine players: one bye");
    assert_eq!(printed_pairing.cost.same_club, 0);

    let (_, html) = browser.get_text(&format!("/events/{event}")).await;
    let version = crate::support::extract_input_value(&html, "version").unwrap();
    let response = browser
        .post_form(
            &format!("/events/{event}/rounds/import"),
            &[("version", &version), ("pairing", &printed)],
        )
        .await;
    assert_eq!(location(&response), format!("/events/{event}/rounds/1"));
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    assert_eq!(round["tables"].as_array().unwrap().len(), 5);
    // A bad file is refused with a reason and changes nothing.
    let response = browser
        .post_form(
            &format!("/events/{event}/rounds/import"),
            &[("version", &version), ("pairing", "{not json")],
        )
        .await;
    let (_, html) = follow(&browser, response).await;
    assert!(html.contains("could not be read"), "{html}");
}

/// A draft the optimiser left unproven can be replaced by one paired after a
/// longer search; a proven, published or hand-changed draft cannot.
async fn an_unproven_draft_can_be_paired_again_with_a_longer_search(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, browser) = app.user("lto@example.org", "TO").await;
    let to = app.api_client("lto@example.org").await;
    let event = create_event(&to, event_body("Longer")).await;
    set_status(&to, event, "running").await;
    let mut ids = walk_ins_checked_in(&to, event, "Long", 8, 2).await;
    let (code, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 201, "{round}");
    assert_eq!(round["pairing"]["proven_optimal"], true, "{round}");

    // A proven draft: nothing to search for, and nothing changes.
    let (code, body) = to
        .post(
            &format!("/events/{event}/rounds/1/search-longer"),
            json!({}),
        )
        .await;
    assert_eq!(code, 409, "{body}");
    assert!(
        body.to_string().contains("already proven optimal"),
        "{body}"
    );
    let (_, html) = browser.get_text(&format!("/events/{event}/rounds/1")).await;
    assert!(!html.contains("search-longer"), "{html}");

    // Stand in for a field the budget could not prove: mark the stored
    // pairing unproven, with a lower bound, as the optimiser would.
    app.with_conn(move |conn| {
        let round = soulstone::db::events::find_round(conn, event, 1)
            .unwrap()
            .unwrap();
        let mut stored: soulstone::events::rounds::StoredPairing =
            serde_json::from_str(&round.pairing).unwrap();
        stored.proven_optimal = false;
        stored.lower_bound = Some(stored.cost);
        soulstone::db::events::set_round_pairing(
            conn,
            round.id,
            &serde_json::to_string(&stored).unwrap(),
        )
        .unwrap();
    })
    .await;
    let (_, html) = browser.get_text(&format!("/events/{event}/rounds/1")).await;
    assert!(html.contains("not proven optimal"), "{html}");
    assert!(
        html.contains("Search longer and replace this draft"),
        "{html}"
    );
    let version = extract_input_value(&html, "version").unwrap();

    // The page's button pairs the round again: still a draft, still
    // everyone paired once, proven this time.
    let response = browser
        .post_form(
            &format!("/events/{event}/rounds/1/search-longer"),
            &[("version", &version)],
        )
        .await;
    assert_eq!(location(&response), format!("/events/{event}/rounds/1"));
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    assert_eq!(round["status"], "draft");
    assert_eq!(round["pairing"]["proven_optimal"], true, "{round}");
    let mut seated: Vec<i64> = round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| [t["player_a"].as_i64(), t["player_b"].as_i64()])
        .flatten()
        .collect();
    seated.sort_unstable();
    ids.sort_unstable();
    assert_eq!(seated, ids, "{round}");
    let entries = app
        .with_conn(move |conn| soulstone::db::audit::for_event(conn, event).unwrap())
        .await;
    assert!(
        entries
            .iter()
            .any(|e| e.action == "round.paired" && e.detail.contains("longer search")),
        "{entries:?}"
    );
    // The same form again (a double click) is refused: the event moved on.
    let response = browser
        .post_form(
            &format!("/events/{event}/rounds/1/search-longer"),
            &[("version", &version)],
        )
        .await;
    let (_, html) = follow(&browser, response).await;
    assert!(
        html.contains("already proven optimal") || html.contains("changed"),
        "{html}"
    );

    // Published: no longer a draft to replace.
    let (code, _) = to
        .post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    assert_eq!(code, 204);
    let (code, body) = to
        .post(
            &format!("/events/{event}/rounds/1/search-longer"),
            json!({}),
        )
        .await;
    assert_eq!(code, 409, "{body}");
}

async fn mage_knight_results_and_standings(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("mto@example.org", "TO", false).await;
    let to = app.api_client("mto@example.org").await;
    let mut body = event_body("Mage Knight Open");
    body["game_system"] = json!("mk");
    body["encounter_size"] = json!(300);
    body["tiebreakers"] = json!("points_eliminated,sos");
    body["rounds_planned"] = json!(1);
    let event = create_event(&to, body).await;
    set_status(&to, event, "running").await;
    let mut ids = Vec::new();
    for name in ["Knight", "Mage"] {
        let (_, p) = to
            .post(&format!("/events/{event}/players"), json!({"name": name}))
            .await;
        ids.push(p["id"].as_i64().unwrap());
        to.post(
            &format!("/events/{event}/players/{}/check-in", p["id"]),
            json!({"checked_in": true}),
        )
        .await;
    }
    let (_, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    to.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let game = round["tables"][0]["game"].as_i64().unwrap();
    let a = round["tables"][0]["player_a"].as_i64().unwrap();
    // The standings page keeps its rendered table per data revision: fill
    // that cache now, and check below that a result moves it on.
    let standings_page = format!("/events/{event}/standings");
    let (_, before) = app.new_client().get_text(&standings_page).await;
    assert!(
        before.contains("Knight") && !before.contains("<strong>3</strong>"),
        "{before}"
    );
    // A phone refreshing an unchanged page is told "not modified".
    let phone = app.new_client();
    let first = phone.get(&standings_page).await;
    let tag = first.headers()["etag"].to_str().unwrap().to_owned();
    assert_eq!(first.headers()["cache-control"], "no-cache");
    let refresh = |tag: String| {
        let request = phone
            .http
            .get(phone.url(&standings_page))
            .header("if-none-match", tag);
        async move { request.send().await.unwrap() }
    };
    let unchanged = refresh(tag.clone()).await;
    assert_eq!(unchanged.status(), 304);
    assert!(unchanged.text().await.unwrap().is_empty());
    // Four objectives cannot be held in a two-player game.
    let (code, body) = to
        .post(&format!("/events/{event}/games/{game}/result"), json!({"a_objectives": 2, "b_objectives": 2, "a_eliminated": 100, "b_eliminated": 50, "a_army": 300, "b_army": 290}))
        .await;
    assert_eq!(code, 400, "{body}");
    // One objective each: points eliminated decide.
    let (code, _) = to
        .post(&format!("/events/{event}/games/{game}/result"), json!({"a_objectives": 1, "b_objectives": 1, "a_eliminated": 80, "b_eliminated": 120, "a_army": 300, "b_army": 290}))
        .await;
    assert_eq!(code, 200);
    let (_, rows) = to.get(&format!("/events/{event}/standings")).await;
    assert_ne!(
        rows[0]["player"].as_i64(),
        Some(a),
        "the side that eliminated more wins"
    );
    assert_eq!(rows[0]["points"], 3);
    assert_eq!(rows[0]["tiebreaks"][0], 120);
    let changed = refresh(tag.clone()).await;
    assert_eq!(changed.status(), 200, "a result makes the old copy stale");
    let current_tag = changed.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(current_tag, tag);
    assert!(changed.text().await.unwrap().contains("<strong>3</strong>"));
    let (_, after) = app.new_client().get_text(&standings_page).await;
    assert!(after.contains("<strong>3</strong>"), "{after}");
    assert!(!after.contains("Sign out"));
    // Visitors without a session share one copy of the whole page.
    let (code, again) = app.new_client().get_text(&standings_page).await;
    assert_eq!((code, &again), (200, &after));
    // The cached table is shared; the page around it stays the visitor's own.
    let signed_in = app.signed_in_client("mto@example.org").await;
    let own = signed_in
        .http
        .get(signed_in.url(&standings_page))
        .header("if-none-match", current_tag)
        .send()
        .await
        .unwrap();
    assert_eq!(own.status(), 200, "a signed-in user's page is their own");
    let own = own.text().await.unwrap();
    assert!(
        own.contains("Sign out") && own.contains("<strong>3</strong>"),
        "{own}"
    );
    let _ = PASSWORD;
}

/// A 4th edition event takes each player's crew list with the faction: a
/// list that cannot be read is refused and changes nothing; a readable one
/// is kept, and the organiser sees what it breaks of the hiring rules.
async fn crew_lists_are_read_and_their_hiring_shown(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, page) = app.user("lists-to@example.org", "List TO").await;
    let to = app.api_client("lists-to@example.org").await;
    let event = create_event(&to, event_body("Lists Open")).await;
    set_status(&to, event, "registration").await;
    app.create_account("lister@example.org", "Lister", false)
        .await;
    let (code, entry) = app
        .api_client("lister@example.org")
        .await
        .post(&format!("/events/{event}/register"), json!({}))
        .await;
    assert_eq!(code, 201, "{entry}");
    let registration = entry["id"].as_i64().unwrap();
    let player = app.signed_in_client("lister@example.org").await;
    let declare = format!("/events/{event}/players/{registration}/declare");
    let stored = || async {
        app.with_conn(move |conn| {
            soulstone::db::events::find_registration(conn, registration)
                .unwrap()
                .and_then(|r| r.army_list)
        })
        .await
    };

    let starter = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("content/m4e/crews/lamplighters-50.txt"),
    )
    .unwrap();
    let response = player
        .post_form(&declare, &[("faction", "Guild"), ("army_list", &starter)])
        .await;
    assert_eq!(response.status(), 303);
    let (_, html) = follow(&player, response).await;
    assert!(html.contains("Declaration saved."), "{html}");
    assert_eq!(stored().await.as_deref(), Some(starter.trim()));
    let (_, html) = page.get_text(&format!("/events/{event}/players")).await;
    assert!(html.contains("Leader: Odessa Vane"), "the list is shown");
    assert!(
        !html.contains("does not hire legally"),
        "the starter list is legal"
    );

    // Unreadable, another faction's: refused, and the stored list stays.
    for (list, words) in [
        (
            "Faction: Guild\nLeader: Odessa Vane, Lamplighter Marshal\nSize: fifty\n",
            "line 3",
        ),
        (
            &starter.replace("Faction: Guild", "Faction: Bayou")[..],
            "declared faction is Guild",
        ),
    ] {
        let response = player
            .post_form(&declare, &[("faction", "Guild"), ("army_list", list)])
            .await;
        let (_, html) = follow(&player, response).await;
        assert!(html.contains(words), "{words}: {html}");
        assert_eq!(stored().await.as_deref(), Some(starter.trim()));
    }

    // A readable list that breaks a hiring rule is kept and shown with it.
    let loyal = format!(
        "{}- Iron Deputy\n",
        starter.replace("- Tollgate Sentry\n", "")
    );
    let response = player
        .post_form(&declare, &[("faction", "Guild"), ("army_list", &loyal)])
        .await;
    assert_eq!(response.status(), 303);
    let (_, html) = page.get_text(&format!("/events/{event}/players")).await;
    assert!(html.contains("does not hire legally"), "{html}");
    assert!(html.contains("Iron Deputy: loyal"), "{html}");

    // Once the lists are published, faction and leader show beside the
    // player in the pairings and standings, and in the standings export.
    let leader = starter
        .lines()
        .find_map(|l| l.strip_prefix("Leader:"))
        .unwrap()
        .trim()
        .to_owned();
    let (status, walk_in) = to
        .post(
            &format!("/events/{event}/players"),
            json!({"name": "Other"}),
        )
        .await;
    assert_eq!(status, 201);
    for id in [registration, walk_in["id"].as_i64().unwrap()] {
        to.post(
            &format!("/events/{event}/players/{id}/check-in"),
            json!({"checked_in": true}),
        )
        .await;
    }
    set_status(&to, event, "running").await;
    let (_, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    to.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let game = round["tables"][0]["game"].as_i64().unwrap();
    to.post(
        &format!("/events/{event}/games/{game}/result"),
        json!({"a_strategy_vp": 3, "a_scheme_vp": 1, "b_strategy_vp": 1, "b_scheme_vp": 1}),
    )
    .await;
    let label = format!("Guild · {leader}");
    let (_, html) = app
        .new_client()
        .get_text(&format!("/events/{event}/rounds/1"))
        .await;
    assert!(!html.contains(&label), "hidden before publishing: {html}");
    let response = page
        .post_form(&format!("/events/{event}/lists"), &[("published", "true")])
        .await;
    assert_eq!(response.status(), 303);
    let visitor = app.new_client();
    let (_, html) = visitor.get_text(&format!("/events/{event}/rounds/1")).await;
    assert!(html.contains(&label), "{label} in {html}");
    let (_, html) = visitor
        .get_text(&format!("/events/{event}/standings"))
        .await;
    assert!(html.contains(&label), "{label} in {html}");
    let (_, csv) = visitor
        .get_text(&format!("/events/{event}/standings.csv"))
        .await;
    assert!(
        csv.starts_with("rank,player_id,player,club,faction,leader,"),
        "{csv}"
    );
    assert!(csv.contains(&format!(",\"Guild\",\"{leader}\",")), "{csv}");
}

/// Adding staff never tells the organiser whether an address has an
/// account: every address gets the same answer and an invitation by mail,
/// and only the invited, confirmed address can accept it, once.
async fn staff_invitations_reveal_no_accounts(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, organiser) = app.user("inv-to@example.org", "Organiser").await;
    let (_, judge) = app.user("known@example.org", "Known Judge").await;
    let to = app.api_client("inv-to@example.org").await;
    let event = create_event(&to, event_body("Invited")).await;
    let staff = format!("/events/{event}/staff");
    let mut answers = Vec::new();
    for email in ["known@example.org", "stranger@example.org"] {
        let response = organiser
            .post_form(&staff, &[("email", email), ("role", "judge")])
            .await;
        assert_eq!(response.status(), 303);
        let (_, html) = follow(&organiser, response).await;
        let flash = html
            .split("An invitation went to")
            .nth(1)
            .and_then(|rest| rest.split('<').next())
            .unwrap_or_else(|| panic!("no invitation message: {html}"))
            .replace(email, "X");
        answers.push(flash);
        assert!(html.contains("Invited, not answered yet"), "{html}");
        app.smtp
            .wait_for(email, "You are invited to help run")
            .await;
    }
    assert_eq!(answers[0], answers[1], "the same answer for both addresses");
    // Someone else signed in cannot use the link; the invited one can, once.
    let mail = app
        .smtp
        .wait_for("known@example.org", "You are invited to help run")
        .await;
    let link = mail.link(&app.address).unwrap();
    let token = link.split("token=").nth(1).unwrap().to_owned();
    let (_, intruder) = app.user("intruder@example.org", "Intruder").await;
    let refused = intruder
        .post_form("/staff/accept", &[("token", &token)])
        .await;
    assert_eq!(refused.status(), 403);
    let (_, html) = intruder.get_text(&link).await;
    assert!(
        html.contains("This invitation is for known@example.org"),
        "{html}"
    );
    let staff_count = || async {
        app.with_conn(move |conn| {
            soulstone::db::events::list_staff(conn, event)
                .unwrap()
                .len()
        })
        .await
    };
    assert_eq!(staff_count().await, 1);
    app.accept_staff_invitation(&judge, "known@example.org", 1)
        .await;
    assert_eq!(staff_count().await, 2);
    let again = judge.post_form("/staff/accept", &[("token", &token)]).await;
    assert_eq!(again.status(), 400);
    assert_eq!(staff_count().await, 2);

    // The stranger signs up with the invited address, confirms it, accepts.
    let stranger = app.new_client();
    let signed_up = stranger
        .post_form(
            "/signup",
            &[
                ("display_name", "New Judge"),
                ("email", "stranger@example.org"),
                ("password", crate::support::PASSWORD),
            ],
        )
        .await;
    assert_eq!(signed_up.status(), 303);
    let invitation = app
        .smtp
        .wait_for("stranger@example.org", "You are invited to help run")
        .await;
    let invitation_token = invitation
        .link(&app.address)
        .unwrap()
        .split("token=")
        .nth(1)
        .unwrap()
        .to_owned();
    let signin = stranger
        .post_form(
            "/signin",
            &[
                ("email", "stranger@example.org"),
                ("password", crate::support::PASSWORD),
            ],
        )
        .await;
    assert_eq!(signin.status(), 303);
    let unconfirmed = stranger
        .post_form("/staff/accept", &[("token", &invitation_token)])
        .await;
    assert_eq!(unconfirmed.status(), 403, "an unconfirmed address waits");
    let confirm = app
        .smtp
        .wait_for("stranger@example.org", "Confirm your email")
        .await;
    let (status, _) = stranger
        .get_text(&confirm.link(&app.address).unwrap())
        .await;
    assert_eq!(status, 200);
    app.accept_staff_invitation(&stranger, "stranger@example.org", 1)
        .await;
    assert_eq!(staff_count().await, 3);

    // An organiser cannot turn invitations into a mail cannon.
    for _ in 0..5 {
        organiser
            .post_form(&staff, &[("email", "flood@example.org"), ("role", "judge")])
            .await;
    }
    let response = organiser
        .post_form(&staff, &[("email", "flood@example.org"), ("role", "judge")])
        .await;
    let (_, html) = follow(&organiser, response).await;
    assert!(
        html.contains("several invitations in the last hour"),
        "{html}"
    );
}

/// An event always keeps an owner: its only owner cannot make themselves a
/// judge, and two owners removing each other at the same moment leave one.
async fn an_event_always_keeps_an_owner(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (alice, alice_page) = app.user("alice-to@example.org", "Alice").await;
    let (bob, bob_page) = app.user("bob-to@example.org", "Bob").await;
    let to = app.api_client("alice-to@example.org").await;
    let event = create_event(&to, event_body("Owned")).await;
    let owners = || async {
        app.with_conn(move |conn| {
            soulstone::db::events::list_staff(conn, event)
                .unwrap()
                .into_iter()
                .filter(|(s, _, _)| s.role == "owner")
                .map(|(s, _, _)| s.account_id)
                .collect::<Vec<i64>>()
        })
        .await
    };
    let staff = format!("/events/{event}/staff");
    let response = alice_page
        .post_form(
            &staff,
            &[("email", "alice-to@example.org"), ("role", "judge")],
        )
        .await;
    // Refused with the reason on the event page; nothing changed.
    assert_eq!(response.status(), 303);
    let (_, html) = follow(&alice_page, response).await;
    assert!(html.contains("your own address"), "{html}");
    assert_eq!(owners().await, vec![alice]);

    let response = alice_page
        .post_form(
            &staff,
            &[("email", "bob-to@example.org"), ("role", "co-organiser")],
        )
        .await;
    assert_eq!(response.status(), 303);
    assert_eq!(owners().await, vec![alice], "not before Bob accepts");
    app.accept_staff_invitation(&bob_page, "bob-to@example.org", 1)
        .await;
    let mut both = owners().await;
    both.sort_unstable();
    assert_eq!(both, vec![alice, bob]);
    let remove_bob = format!("{staff}/{bob}/remove");
    let remove_alice = format!("{staff}/{alice}/remove");
    let (a, b) = tokio::join!(
        alice_page.post_form(&remove_bob, &[]),
        bob_page.post_form(&remove_alice, &[]),
    );
    let mut codes = [a.status().as_u16(), b.status().as_u16()];
    codes.sort_unstable();
    assert_eq!(codes[0], 303, "one removal goes through: {codes:?}");
    // The loser is no longer staff: refused, or no longer shown the draft.
    assert!(
        [403, 404, 409].contains(&codes[1]),
        "the other is refused: {codes:?}"
    );
    assert_eq!(owners().await.len(), 1, "exactly one owner is left");
}

/// NUL bytes, line breaks and invisible or text-direction characters are
/// refused at the edge, with a clear message and the same on both
/// backends (a NUL was a PostgreSQL error, a line break reached mails).
async fn control_and_invisible_characters_are_refused(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("clean-to@example.org", "Clean", false)
        .await;
    let to = app.api_client("clean-to@example.org").await;
    for name in [
        "Nul\u{0}Open",
        "Open\r\nBcc: x@example.org",
        "\u{202E}nepO",
        "\u{200B}",
    ] {
        let mut body = event_body("x");
        body["name"] = json!(name);
        let (code, answer) = to.post("/events", body).await;
        assert_eq!(code, 400, "{name:?}: {answer}");
        assert!(answer.to_string().contains("name"), "{answer}");
    }
    let mut body = event_body("Fine");
    body["description"] = json!("Doors at 9.\nBring your crew.");
    let (code, answer) = to.post("/events", body).await;
    assert_eq!(code, 201, "a description keeps its line breaks: {answer}");

    for display_name in ["\u{202E}yvI", "\u{200B}\u{200B}", "A\u{0}B"] {
        let response = app
            .new_client()
            .post_form(
                "/signup",
                &[
                    ("display_name", display_name),
                    ("email", "someone-new@example.org"),
                    ("password", crate::support::PASSWORD),
                ],
            )
            .await;
        // A NUL is refused at the edge for every form; the rest by the field.
        let expected = if display_name.contains('\0') {
            400
        } else {
            422
        };
        assert_eq!(response.status(), expected, "{display_name:?}");
    }
    // Any field of any form, not only names: a pool's text, say.
    let page = app.signed_in_client("clean-to@example.org").await;
    let response = page
        .post_form(
            "/pools/import",
            &[(
                "definition",
                "id = \"nul-pool\"\nname = \"N\u{0}L\"\nedition = \"m4e\"\n",
            )],
        )
        .await;
    assert_eq!(response.status(), 400);
    assert!(response.text().await.unwrap().contains("NUL character"));
    let (status, _) = page.get_text("/pools/nul-pool").await;
    assert_eq!(status, 404, "nothing was stored");
}

/// Walk-ins: a double tap of one form adds one player, a name already
/// entered is refused, a full event takes no walk-in ahead of its
/// waitlist, the organiser gives a waitlisted player a place, and a
/// mistaken entry is removed after a confirmation (one who played is not).
async fn walk_ins_are_entered_once_within_the_cap_and_can_be_taken_back(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("walk-to@example.org", "Walk TO").await;
    let to_api = app.api_client("walk-to@example.org").await;
    let mut body = event_body("Walk-ins");
    body["player_cap"] = json!(3);
    let event = create_event(&to_api, body).await;
    set_status(&to_api, event, "registration").await;
    let players = format!("/events/{event}/players");

    // The same form sent twice (a double tap): one player.
    let (_, html) = to.get_text(&players).await;
    let key = extract_input_value(&html, "submission_key").expect("the form carries a key");
    for _ in 0..2 {
        let response = to
            .post_form(
                &players,
                &[("name", "Dana Reyes"), ("submission_key", &key)],
            )
            .await;
        assert_eq!(response.status(), 303);
    }
    // Through the API, with a key of the client's own, likewise.
    for _ in 0..2 {
        let (status, entry) = to_api
            .post(
                &players,
                json!({"name": "Eli Moss", "submission_key": "client-key-1"}),
            )
            .await;
        assert_eq!(status, 201, "{entry}");
    }
    let names = |detail: &Value| -> Vec<(String, String)> {
        detail["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["name"].as_str().unwrap().to_owned(),
                    p["status"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let (_, detail) = to_api.get(&format!("/events/{event}")).await;
    assert_eq!(names(&detail).len(), 2, "{detail}");

    // A new form with a name already entered (in another case) is refused.
    let (status, refusal) = to_api.post(&players, json!({"name": "dana reyes"})).await;
    assert_eq!(status, 400, "{refusal}");
    assert!(refusal.to_string().contains("already entered"), "{refusal}");

    // One place left: an account holder takes it, the next one waits, and
    // a walk-in is not put ahead of them.
    for (email, name) in [("p1@example.org", "Fay"), ("p2@example.org", "Gus")] {
        app.create_account(email, name, false).await;
        let api = app.api_client(email).await;
        let (status, _) = api
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(status, 201);
    }
    let (status, refusal) = to_api.post(&players, json!({"name": "Hal"})).await;
    assert_eq!(status, 409, "{refusal}");
    assert!(
        refusal.to_string().contains("1 on the waitlist"),
        "{refusal}"
    );
    let (_, detail) = to_api.get(&format!("/events/{event}")).await;
    let entries = names(&detail);
    assert!(
        entries.contains(&("Gus".into(), "waitlisted".into())),
        "{entries:?}"
    );
    let gus = detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Gus")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    // The event is full: giving Gus a place is refused, in words.
    let response = to.post_form(&format!("{players}/{gus}/promote"), &[]).await;
    assert_eq!(response.status(), 303);
    let (_, html) = to.get_text(&players).await;
    assert!(html.contains("The event is full (3 of 3 places)"), "{html}");
    let (_, detail) = to_api.get(&format!("/events/{event}")).await;
    assert!(names(&detail).contains(&("Gus".into(), "waitlisted".into())));

    // Eli was entered by mistake: the confirmation first, then removal,
    // which frees the place Gus is given (and mailed about).
    let eli = detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Eli Moss")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let (status, html) = to
        .get_text(&format!(
            "/events/{event}/confirm?action=remove-entry-{eli}"
        ))
        .await;
    assert_eq!(status, 200);
    assert!(html.contains("Remove Eli Moss from this event?"), "{html}");
    let response = to.post_form(&format!("{players}/{eli}/remove"), &[]).await;
    assert_eq!(response.status(), 303);
    let (_, detail) = to_api.get(&format!("/events/{event}")).await;
    assert!(!names(&detail).iter().any(|(name, _)| name == "Eli Moss"));
    app.smtp
        .wait_for("p2@example.org", "You have a place")
        .await;
    assert!(names(&detail).contains(&("Gus".into(), "registered".into())));

    // Once someone has a game, the entry stays: they are dropped instead.
    let (_, detail) = to_api.get(&format!("/events/{event}")).await;
    for player in detail["players"].as_array().unwrap() {
        let id = player["id"].as_i64().unwrap();
        to_api
            .post(
                &format!("/events/{event}/players/{id}/check-in"),
                json!({"checked_in": true}),
            )
            .await;
    }
    set_status(&to_api, event, "running").await;
    let (status, round) = to_api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(status, 201, "{round}");
    let dana = detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Dana Reyes")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let response = to.post_form(&format!("{players}/{dana}/remove"), &[]).await;
    assert_eq!(response.status(), 303);
    let (_, html) = to.get_text(&players).await;
    assert!(html.contains("has games in this event"), "{html}");
    assert!(html.contains("Dana Reyes"));
}

/// At the door: the organiser finds a player by part of the name or club,
/// and checks in everyone ticked with one submission; a ticked entry that
/// cannot be checked in checks in nobody.
async fn the_organiser_finds_players_and_checks_in_the_room_at_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("door-to@example.org", "Door TO").await;
    let to_api = app.api_client("door-to@example.org").await;
    let event = create_event(&to_api, event_body("At the door")).await;
    set_status(&to_api, event, "registration").await;
    let players = format!("/events/{event}/players");
    let mut ids = Vec::new();
    for i in 0..12 {
        let club = if i % 3 == 0 {
            "Harbour Club"
        } else {
            "Hill Club"
        };
        let (status, entry) = to_api
            .post(
                &players,
                json!({"name": format!("Player {i:02}"), "club": club}),
            )
            .await;
        assert_eq!(status, 201, "{entry}");
        ids.push(entry["id"].as_i64().unwrap());
    }
    let (_, html) = to.get_text(&format!("{players}?q=harbour")).await;
    assert!(html.contains("Showing 4 of 12"), "{html}");
    assert!(html.contains("Player 03") && !html.contains("Player 01"));

    // Ten are here: one submission.
    let mut fields: Vec<(String, String)> = ids[..10]
        .iter()
        .map(|id| (format!("present-{id}"), "on".to_owned()))
        .collect();
    let borrowed: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let response = to
        .post_form(&format!("{players}/check-in"), &borrowed)
        .await;
    assert_eq!(response.status(), 303);
    let (_, html) = to.get_text(&players).await;
    assert!(html.contains("10 players checked in."), "{html}");
    assert!(html.contains("10 of 12 checked in"), "{html}");

    // An id of no entry of this event among the ticked: nobody is checked in.
    fields.truncate(0);
    fields.push((format!("present-{}", ids[10]), "on".into()));
    fields.push(("present-999999".into(), "on".into()));
    let borrowed: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let response = to
        .post_form(&format!("{players}/check-in"), &borrowed)
        .await;
    assert_eq!(response.status(), 303);
    let (_, html) = to.get_text(&players).await;
    assert!(html.contains("10 of 12 checked in"), "{html}");
}

/// One scenario for every table shares strategy, deployment and schemes
/// only: each table flips its own attacker, so seat A (the better-placed
/// player) is not the attacker everywhere. Pages, sheets, the projector,
/// the API and the pairing mail name the attacker; flipping again is
/// recorded for the players to see.
async fn a_round_wide_scenario_flips_the_attacker_at_each_table(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("fair-to@example.org", "Fair TO").await;
    let to_api = app.api_client("fair-to@example.org").await;
    let mut body = event_body("Fair sides");
    body["game_system"] = json!("m3e");
    body["pool"] = json!("m3e-core");
    let event = create_event(&to_api, body).await;
    set_status(&to_api, event, "registration").await;
    // One account holder, to read the pairing mail.
    app.create_account("sides@example.org", "Sid Player", false)
        .await;
    let player = app.api_client("sides@example.org").await;
    let (status, _) = player
        .post(&format!("/events/{event}/register"), json!({}))
        .await;
    assert_eq!(status, 201);
    for i in 0..39 {
        let (status, entry) = to_api
            .post(
                &format!("/events/{event}/players"),
                json!({"name": format!("Walk-in {i:02}")}),
            )
            .await;
        assert_eq!(status, 201, "{entry}");
    }
    let (_, detail) = to_api.get(&format!("/events/{event}")).await;
    for p in detail["players"].as_array().unwrap() {
        let id = p["id"].as_i64().unwrap();
        to_api
            .post(
                &format!("/events/{event}/players/{id}/check-in"),
                json!({"checked_in": true}),
            )
            .await;
    }
    set_status(&to_api, event, "running").await;
    let (status, _) = to_api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(status, 201);
    let round_path = format!("/events/{event}/rounds/1");
    // Flipped twice: the first is kept in the round's history.
    for _ in 0..2 {
        let response = to
            .post_form(&format!("{round_path}/setup"), &[("per_table", "false")])
            .await;
        assert_eq!(response.status(), 303);
    }
    let (_, round) = to_api.get(&round_path).await;
    let tables = round["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 20);
    assert!(
        round["setup"]["result"]["malifaux"]["strategy"]["name"].is_string(),
        "{round}"
    );
    let mut seat_a_attacks = 0;
    for table in tables {
        let attacker = table["attacker"]
            .as_i64()
            .expect("every table has an attacker");
        assert!(table["sides"].is_object(), "{table}");
        assert!(
            table["setup"].is_null(),
            "the scenario is the round's: {table}"
        );
        if attacker == table["player_a"].as_i64().unwrap() {
            seat_a_attacks += 1;
        } else {
            assert_eq!(Some(attacker), table["player_b"].as_i64());
        }
    }
    // Before, seat A attacked at all 20 tables; by chance that is 1 in 10^6.
    assert!(
        (1..20).contains(&seat_a_attacks),
        "seat A attacked at {seat_a_attacks} of 20 tables"
    );

    let (_, html) = to.get_text(&round_path).await;
    assert!(html.contains("Scenario for every table"), "{html}");
    assert!(html.contains("Flipped again"), "{html}");
    assert!(html.contains(">attacker</span>"), "{html}");
    let (_, sheets) = to.get_text(&format!("{round_path}/sheets")).await;
    assert!(sheets.contains("Setup:</strong> Attacker: "), "{sheets}");
    assert!(sheets.contains(&format!("{}/events/{event}/games/", app.address)));
    let (_, projector) = to.get_text(&format!("{round_path}/projector")).await;
    assert_eq!(
        projector.matches("<li><span class=\"seat-name\">").count(),
        40,
        "{projector}"
    );
    assert!(projector.contains("attacker") && projector.contains("defender"));

    let version = extract_input_value(&html, "version").unwrap();
    let response = to
        .post_form(&format!("{round_path}/publish"), &[("version", &version)])
        .await;
    assert_eq!(response.status(), 303);
    let mail = app
        .smtp
        .wait_for("sides@example.org", "round 1 pairing")
        .await;
    assert!(mail.body().contains("Attacker: "), "{}", mail.body());

    // Mage Knight and 1st edition setups belong to each pair of players.
    let mut mk = event_body("Knights");
    mk["game_system"] = json!("mk");
    mk["encounter_size"] = json!(300);
    let mk_event = create_event(&to_api, mk).await;
    set_status(&to_api, mk_event, "registration").await;
    for name in ["Ana", "Ben"] {
        to_api
            .post(
                &format!("/events/{mk_event}/players"),
                json!({"name": name}),
            )
            .await;
    }
    let (_, detail) = to_api.get(&format!("/events/{mk_event}")).await;
    for p in detail["players"].as_array().unwrap() {
        let id = p["id"].as_i64().unwrap();
        to_api
            .post(
                &format!("/events/{mk_event}/players/{id}/check-in"),
                json!({"checked_in": true}),
            )
            .await;
    }
    set_status(&to_api, mk_event, "running").await;
    to_api
        .post(&format!("/events/{mk_event}/rounds"), json!({}))
        .await;
    let response = to
        .post_form(
            &format!("/events/{mk_event}/rounds/1/setup"),
            &[("per_table", "false")],
        )
        .await;
    let (_, html) = follow(&to, response).await;
    assert!(html.contains("flip a setup per table"), "{html}");
}

/// Two players report different results: the organisers are mailed both
/// claims, the event overview and the organiser's list flag the dispute,
/// the game page shows both sides in words (no raw fields), and resolving
/// it mails both players.
async fn a_dispute_is_shown_side_by_side_flagged_and_mailed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("dispute-to@example.org", "Dee Organiser").await;
    let to_api = app.api_client("dispute-to@example.org").await;
    let event = create_event(&to_api, event_body("Disputes")).await;
    set_status(&to_api, event, "registration").await;
    let mut players = Vec::new();
    for (email, name) in [
        ("dana@example.org", "Dana Reyes"),
        ("eli@example.org", "Eli Moss"),
    ] {
        app.create_account(email, name, false).await;
        let api = app.api_client(email).await;
        let (status, entry) = api
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(status, 201);
        to_api
            .post(
                &format!("/events/{event}/players/{}/check-in", entry["id"]),
                json!({"checked_in": true}),
            )
            .await;
        players.push((entry["id"].as_i64().unwrap(), api));
    }
    set_status(&to_api, event, "running").await;
    let (_, round) = to_api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    to_api
        .post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let table = &round["tables"][0];
    let game = table["game"].as_i64().unwrap();
    let a_is_dana = table["player_a"].as_i64() == Some(players[0].0);
    let (dana, eli) = (&players[0].1, &players[1].1);
    // Dana says she won 6–3; Eli says he won 7–3.
    let (dana_vp, eli_vp) = ((4, 2), (5, 2));
    let body = |mine: (i64, i64), theirs: (i64, i64), mine_is_a: bool| {
        let (a, b) = if mine_is_a {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        json!({"a_strategy_vp": a.0, "a_scheme_vp": a.1, "b_strategy_vp": b.0, "b_scheme_vp": b.1})
    };
    let path = format!("/events/{event}/games/{game}/result");
    let (status, _) = dana.post(&path, body(dana_vp, (2, 1), a_is_dana)).await;
    assert_eq!(status, 200);
    let (status, answer) = eli.post(&path, body(eli_vp, (2, 1), !a_is_dana)).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["status"], "disputed");

    let mail = app
        .smtp
        .wait_for("dispute-to@example.org", "a result is disputed")
        .await;
    let text = mail.body();
    assert!(
        text.contains("Dana Reyes:") && text.contains("Eli Moss:"),
        "{text}"
    );

    let (_, overview) = to.get_text(&format!("/events/{event}")).await;
    assert!(
        overview.contains("1 disputed result to resolve"),
        "{overview}"
    );
    let (_, list) = to.get_text("/events").await;
    assert!(list.contains("1 disputed result"), "{list}");
    let (_, page) = to.get_text(&format!("/events/{event}/games/{game}")).await;
    assert!(page.contains("Disputed: what each side says"), "{page}");
    assert!(
        !page.contains("&quot;a_strategy_vp&quot;"),
        "no raw fields: {page}"
    );
    assert!(
        !page.contains("objectives"),
        "no Mage Knight fields: {page}"
    );
    let (a_name, b_name) = if a_is_dana {
        ("Dana Reyes", "Eli Moss")
    } else {
        ("Eli Moss", "Dana Reyes")
    };
    let dana_says = if a_is_dana {
        format!("{a_name} 6 – 3 {b_name}")
    } else {
        format!("{a_name} 3 – 6 {b_name}")
    };
    assert!(page.contains(&dana_says), "{dana_says} in {page}");

    // The organiser enters the right result; both players hear of it.
    let version = extract_input_value(&page, "version").unwrap();
    let response = to
        .post_form(
            &format!("/events/{event}/games/{game}/report"),
            &[
                ("version", &version),
                ("a_strategy_vp", "3"),
                ("a_scheme_vp", "1"),
                ("b_strategy_vp", "2"),
                ("b_scheme_vp", "2"),
            ],
        )
        .await;
    assert_eq!(response.status(), 303);
    for email in ["dana@example.org", "eli@example.org"] {
        let mail = app
            .smtp
            .wait_for(email, "your disputed result is resolved")
            .await;
        // An en dash, whether the mail went quoted-printable or as 8 bits.
        let text = mail.body().replace("=E2=80=93", "–");
        assert!(text.contains("4 – 4"), "{text}");
    }
    let (_, overview) = to.get_text(&format!("/events/{event}")).await;
    assert!(!overview.contains("disputed result to resolve"));
}

/// Dropping is asked first, and the player may take it back by themselves
/// until the next round is paired; after that only an organiser can.
async fn a_player_drops_after_asking_and_may_come_back_until_the_next_round(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("drop-to@example.org", "TO", false).await;
    let to = app.api_client("drop-to@example.org").await;
    let event = create_event(&to, event_body("Drops")).await;
    set_status(&to, event, "registration").await;
    let (player_id, player) = app.user("dropper@example.org", "Dropper").await;
    let _ = player_id;
    let response = player
        .post_form(&format!("/events/{event}/register"), &[])
        .await;
    assert_eq!(response.status(), 303);
    for name in ["W1", "W2", "W3"] {
        to.post(&format!("/events/{event}/players"), json!({"name": name}))
            .await;
    }
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    let mut me = 0;
    for p in detail["players"].as_array().unwrap() {
        let id = p["id"].as_i64().unwrap();
        if p["name"] == "Dropper" {
            me = id;
        }
        to.post(
            &format!("/events/{event}/players/{id}/check-in"),
            json!({"checked_in": true}),
        )
        .await;
    }
    set_status(&to, event, "running").await;
    let (status, _) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(status, 201);
    to.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;

    let (_, page) = player.get_text(&format!("/events/{event}")).await;
    assert!(
        page.contains("action=drop"),
        "dropping is a link to a question: {page}"
    );
    let (_, question) = player
        .get_text(&format!("/events/{event}/confirm?action=drop"))
        .await;
    assert!(question.contains("Drop from this event?"), "{question}");
    let drop = |value: &'static str| {
        let player = player.clone();
        async move {
            player
                .post_form(
                    &format!("/events/{event}/players/{me}/drop"),
                    &[("value", value)],
                )
                .await
        }
    };
    assert_eq!(drop("true").await.status(), 303);
    let (_, page) = player.get_text(&format!("/events/{event}")).await;
    assert!(page.contains("Take my drop back"), "{page}");
    assert_eq!(drop("false").await.status(), 303);
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    let mine = |detail: &Value| {
        detail["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == me)
            .unwrap()["dropped"]
            .clone()
    };
    assert_eq!(mine(&detail), json!(false));

    // Dropped again, then round 2 is paired: only an organiser brings them back.
    assert_eq!(drop("true").await.status(), 303);
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    for table in round["tables"].as_array().unwrap() {
        if table["player_b"].is_null() {
            continue;
        }
        let game = table["game"].as_i64().unwrap();
        to.post(
            &format!("/events/{event}/games/{game}/result"),
            json!({"a_strategy_vp": 3, "a_scheme_vp": 0, "b_strategy_vp": 1, "b_scheme_vp": 0}),
        )
        .await;
    }
    let (status, body) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(status, 201, "{body}");
    let (_, page) = player.get_text(&format!("/events/{event}")).await;
    assert!(!page.contains("Take my drop back"), "{page}");
    let response = drop("false").await;
    assert_eq!(response.status(), 303);
    let (_, page) = player.get_text(&format!("/events/{event}")).await;
    assert!(
        page.contains("ask an organiser to bring you back"),
        "{page}"
    );
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    assert_eq!(mine(&detail), json!(true));
}

/// An open league takes new players after it starts, and its pages speak
/// of no check-in.
async fn an_open_league_takes_players_while_it_runs(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("league-to@example.org", "TO", false)
        .await;
    let to = app.api_client("league-to@example.org").await;
    let mut body = event_body("Open league");
    body["format"] = json!("league");
    body["league_mode"] = json!("open");
    body["rounds_planned"] = json!(10);
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    set_status(&to, event, "running").await;
    let (_, late) = app.user("late@example.org", "Late Joiner").await;
    let (_, page) = late.get_text(&format!("/events/{event}")).await;
    assert!(!page.contains("The event has started"), "{page}");
    let response = late
        .post_form(&format!("/events/{event}/register"), &[])
        .await;
    assert_eq!(response.status(), 303);
    let (_, page) = late.get_text(&format!("/events/{event}")).await;
    assert!(
        page.contains("You are <strong>registered</strong>."),
        "{page}"
    );
    assert!(!page.contains("checked in"), "{page}");
}

/// An event keeps its time zone: registration times are typed and shown
/// on the venue's clock (stored in UTC), an unknown zone is refused by
/// name, and the venue's tables bound the fixed tables.
async fn times_are_the_venues_and_tables_the_venues(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("tz-to@example.org", "Zoe").await;
    let to_api = app.api_client("tz-to@example.org").await;
    let mut body = event_body("Chicago open");
    body["time_zone"] = json!("Mars/Olympus");
    let (status, refusal) = to_api.post("/events", body.clone()).await;
    assert_eq!(status, 400);
    assert!(refusal.to_string().contains("Mars/Olympus"), "{refusal}");

    body["time_zone"] = json!("America/Chicago");
    body["tables"] = json!(2);
    body["registration_opens_at"] = json!("2036-12-01T09:00");
    let event = create_event(&to_api, body).await;
    set_status(&to_api, event, "registration").await;
    let (_, html) = to.get_text(&format!("/events/{event}")).await;
    // 09:00 in Chicago in December is 15:00 UTC; the page says 09:00 CST.
    assert!(
        html.contains("Registration opens Mon 1 Dec 2036, 09:00 CST."),
        "{html}"
    );
    assert!(html.contains("Sat 5 Dec 2026"), "one date format: {html}");
    let stored = app
        .with_conn(move |conn| {
            soulstone::db::events::find_event(conn, event)
                .unwrap()
                .unwrap()
                .registration_opens_at
        })
        .await;
    assert_eq!(
        stored.map(|t| t.format("%H:%M").to_string()).as_deref(),
        Some("15:00")
    );
    let (_, form) = to.get_text(&format!("/events/{event}/edit")).await;
    assert!(form.contains("value=\"2036-12-01T09:00\""), "{form}");

    let (status, entry) = to_api
        .post(
            &format!("/events/{event}/players"),
            json!({"name": "Wheel Chair"}),
        )
        .await;
    assert_eq!(status, 201);
    let id = entry["id"].as_i64().unwrap();
    let response = to
        .post_form(
            &format!("/events/{event}/players/{id}/edit"),
            &[("display_name", "Wheel Chair"), ("fixed_table", "3")],
        )
        .await;
    assert_eq!(response.status(), 303);
    let (_, page) = to.get_text(&format!("/events/{event}/players")).await;
    assert!(
        page.contains("from 1 to 2, the tables at the venue"),
        "{page}"
    );

    // A fixed table belongs to one player, and nobody starts below zero:
    // the pairing would refuse both, so the edit says so at once.
    let response = to
        .post_form(
            &format!("/events/{event}/players/{id}/edit"),
            &[("display_name", "Wheel Chair"), ("fixed_table", "1")],
        )
        .await;
    assert_eq!(response.status(), 303);
    let (status, second) = to_api
        .post(
            &format!("/events/{event}/players"),
            json!({"name": "Second Seat"}),
        )
        .await;
    assert_eq!(status, 201);
    let second = second["id"].as_i64().unwrap();
    let edit = format!("/events/{event}/players/{second}/edit");
    to.post_form(
        &edit,
        &[("display_name", "Second Seat"), ("fixed_table", "1")],
    )
    .await;
    let (_, page) = to.get_text(&format!("/events/{event}/players")).await;
    assert!(
        page.contains("Table 1 is already fixed for Wheel Chair"),
        "{page}"
    );
    to.post_form(
        &edit,
        &[("display_name", "Second Seat"), ("initial_points", "-3")],
    )
    .await;
    let (_, page) = to.get_text(&format!("/events/{event}/players")).await;
    assert!(page.contains("between 0 and 100"), "{page}");
    let tables = app
        .with_conn(move |conn| {
            soulstone::db::events::find_registration(conn, second)
                .unwrap()
                .map(|r| (r.fixed_table, r.initial_points))
        })
        .await;
    assert_eq!(tables, Some((None, 0)), "the refused edits changed nothing");
}

/// Before the event the organisers flip every round's scenario (no
/// strategy or deployment twice) and enter one round's as announced;
/// pairing each round then uses its scenario, each table flipping its own
/// attacker, and a draft round takes an announced scenario too.
async fn scenarios_are_prepared_before_the_event_or_entered_as_announced(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("plan-to@example.org", "Planner").await;
    let to_api = app.api_client("plan-to@example.org").await;
    let mut body = event_body("Planned");
    body["game_system"] = json!("m3e");
    body["pool"] = json!("m3e-core");
    body["rounds_planned"] = json!(4);
    let event = create_event(&to_api, body).await;
    let scenarios = format!("/events/{event}/scenarios");
    let response = to
        .post_form(&format!("{scenarios}/flip"), &[("avoid_repeats", "on")])
        .await;
    assert_eq!(response.status(), 303);
    let (_, html) = to.get_text(&scenarios).await;
    assert!(
        html.contains("Scenarios flipped for the 4 rounds to come."),
        "{html}"
    );
    let strategies = [
        "Turf War",
        "Plant Explosives",
        "Corrupted Idols",
        "Reckoning",
    ];
    for strategy in strategies {
        assert_eq!(
            html.matches(&format!("<dd>{strategy} (")).count(),
            1,
            "{strategy} once in {html}"
        );
    }
    // Round 2 is the one the organisers announced.
    let schemes = [
        "Take Prisoner",
        "Outflank",
        "Search the Ruins",
        "Claim Jump",
        "Assassinate",
    ];
    let mut form: Vec<(String, String)> = vec![
        ("strategy".into(), "Reckoning".into()),
        ("deployment".into(), "corner".into()),
    ];
    for (i, s) in schemes.iter().enumerate() {
        form.push((format!("scheme-{i}"), (*s).to_owned()));
    }
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let response = to
        .post_form(&format!("{scenarios}/2/announce"), &fields)
        .await;
    assert_eq!(response.status(), 303);
    let (_, html) = to.get_text(&scenarios).await;
    assert!(
        html.contains("Round 2&#39;s scenario is entered.")
            || html.contains("Round 2's scenario is entered."),
        "{html}"
    );
    assert!(html.contains("Announced by the organisers"), "{html}");
    // Four schemes are not a 3rd edition scheme pool.
    let response = to
        .post_form(&format!("{scenarios}/3/announce"), &fields[..6])
        .await;
    let (_, html) = follow(&to, response).await;
    assert!(html.contains("5 different schemes, not 4"), "{html}");

    set_status(&to_api, event, "registration").await;
    for i in 0..8 {
        to_api
            .post(
                &format!("/events/{event}/players"),
                json!({"name": format!("P{i}")}),
            )
            .await;
    }
    let (_, detail) = to_api.get(&format!("/events/{event}")).await;
    for p in detail["players"].as_array().unwrap() {
        to_api
            .post(
                &format!("/events/{event}/players/{}/check-in", p["id"]),
                json!({"checked_in": true}),
            )
            .await;
    }
    set_status(&to_api, event, "running").await;
    let (status, round) = to_api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(status, 201, "{round}");
    let (_, round) = to_api.get(&format!("/events/{event}/rounds/1")).await;
    assert!(
        round["setup"]["result"]["malifaux"]["strategy"]["name"].is_string(),
        "{round}"
    );
    for table in round["tables"].as_array().unwrap() {
        assert!(table["attacker"].is_i64(), "{table}");
    }
    // The draft round takes an announced scenario instead.
    let response = to
        .post_form(&format!("/events/{event}/rounds/1/announce"), &fields)
        .await;
    assert_eq!(response.status(), 303);
    let (_, round) = to_api.get(&format!("/events/{event}/rounds/1")).await;
    assert_eq!(
        round["setup"]["result"]["malifaux"]["strategy"]["name"],
        "Reckoning"
    );
    assert_eq!(round["setup"]["announced"], true);
    // Round 2, paired later, plays the scenario entered for it.
    for table in round["tables"].as_array().unwrap() {
        let game = table["game"].as_i64().unwrap();
        to_api
            .post(
                &format!("/events/{event}/games/{game}/result"),
                json!({"a_strategy_vp": 2, "a_scheme_vp": 1, "b_strategy_vp": 1, "b_scheme_vp": 1}),
            )
            .await;
    }
    to_api
        .post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    for table in round["tables"].as_array().unwrap() {
        let game = table["game"].as_i64().unwrap();
        let (status, body) = to_api
            .post(
                &format!("/events/{event}/games/{game}/result"),
                json!({"a_strategy_vp": 2, "a_scheme_vp": 1, "b_strategy_vp": 1, "b_scheme_vp": 1}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = to_api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(status, 201, "{body}");
    let (_, round) = to_api.get(&format!("/events/{event}/rounds/2")).await;
    assert_eq!(round["setup"]["announced"], true, "{round}");
    assert_eq!(round["setup"]["result"]["malifaux"]["deployment"], "corner");
}
