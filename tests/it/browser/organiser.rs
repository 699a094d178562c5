//! The organiser in a browser: a small event, signing in on the venue
//! network, a 32-player day, a playoff cut and a team event.

use super::*;

both_backends!(
    an_organiser_runs_a_small_event_in_the_browser,
    an_organiser_signs_in_from_a_phone_on_the_venue_network,
    an_organiser_runs_a_thirty_two_player_day_from_a_phone,
    an_organiser_cuts_twelve_players_to_a_top_eight_in_the_browser,
    four_teams_of_three_with_captains_choosing_in_the_browser,
);

async fn an_organiser_runs_a_small_event_in_the_browser(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    let mut driver = Driver::start();
    let session = driver.session().await;
    let client = &session;
    let prefix = backend.name();

    // The accessibility check itself catches what it is meant to.
    visit(
        client,
        "data:text/html,<html><head><title>t</title></head><body><h1>a</h1><h3>b</h3><input name=bare><button></button><p style='color:%23bbb'>pale</p></body></html>",
    )
    .await;
    let problems: Vec<String> =
        serde_json::from_value(client.execute(ACCESSIBILITY_CHECK, vec![]).await.unwrap()).unwrap();
    for expected in [
        "no lang",
        "skips from h1 to h3",
        "\"bare\" has no label",
        "no accessible name",
        "low contrast",
    ] {
        assert!(
            problems.iter().any(|p| p.contains(expected)),
            "{expected}: {problems:?}"
        );
    }

    // The public setup generator works for anyone.
    visit(client, &app.url("/setup")).await;
    set_value(client, "edition", "m3e").await;
    click_button(client, "Flip").await;
    let text = body_text(client).await;
    assert!(
        text.contains("Scheme pool") || text.contains("Strategy"),
        "{text}"
    );
    check_page(client, &format!("{prefix}-00-setup")).await;

    visit(client, &app.url("/signin")).await;
    check_page(client, &format!("{prefix}-01-signin")).await;
    fill(client, "email", "to@example.org").await;
    fill(client, "password", PASSWORD).await;
    click_button(client, "Sign in").await;
    let text = body_text(client).await;
    assert!(text.contains("Tess Organiser"), "{text}");

    // A new event: only the name and dates need typing.
    visit(client, &app.url("/events/new")).await;
    check_page(client, &format!("{prefix}-02-new-event")).await;
    fill(client, "name", "Browser Open").await;
    set_value(client, "starts_on", "2026-12-12").await;
    set_value(client, "ends_on", "2026-12-12").await;
    set_value(client, "rounds_planned", "3").await;
    // The shipped Gaining Grounds pool is 3rd edition's.
    set_value(client, "game_system", "m3e").await;
    set_value(client, "pool", "m3e-gg3").await;
    click_button(client, "Create the event").await;
    let text = body_text(client).await;
    assert!(text.contains("Browser Open"), "{text}");
    let event_url = client.current_url().await.unwrap().to_string();
    click_button(client, "Open registration").await;
    check_page(client, &format!("{prefix}-03-event")).await;

    // Eight walk-ins, checked in from the players page.
    let players = ["Ada", "Bram", "Cleo", "Dov", "Eli", "Fay", "Gus", "Hal"];
    visit(client, &format!("{event_url}/players")).await;
    for name in players {
        fill(client, "name", name).await;
        click_button(client, "Add the player").await;
    }
    for name in players {
        click_labelled(client, &format!("Check in {name}")).await;
    }
    let text = body_text(client).await;
    assert!(text.contains("8 of 8 checked in"), "{text}");
    check_page(client, &format!("{prefix}-04-players")).await;

    visit(client, &event_url).await;
    click_button(client, "Start the event").await;
    pair_and_publish(client, prefix, 1).await;
    assert_eq!(enter_round_results(client, prefix, 1).await, 4);

    // One player drops after round 1: rounds 2 and 3 have seven players and a bye.
    visit(client, &format!("{event_url}/players")).await;
    // Dropping asks first.
    let ask = client
        .find(Locator::Css("a[aria-label=\"Drop Dov…\"]"))
        .await
        .expect("a Drop link for Dov");
    let old_page = client.find(Locator::Css("html")).await.unwrap();
    ask.click().await.unwrap();
    while old_page.tag_name().await.is_ok() {
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    wait_until_loaded(client).await;
    assert!(
        body_text(client)
            .await
            .contains("Drop Dov from this event?")
    );
    click_button(client, "Drop the player").await;
    visit(client, &event_url).await;
    for round in 2..=3 {
        visit(client, &event_url).await;
        pair_and_publish(client, prefix, round).await;
        assert_eq!(enter_round_results(client, prefix, round).await, 3);
    }

    visit(client, &format!("{event_url}/standings")).await;
    check_page(client, &format!("{prefix}-05-standings")).await;
    let text = body_text(client).await;
    for name in players {
        assert!(text.contains(name), "{text}");
    }

    // The CSV export adds up: four wins in round 1, then three wins and a bye
    // in each of rounds 2 and 3, 3 points each.
    let csv = reqwest::get(format!("{event_url}/standings.csv"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 9, "{csv}");
    let header: Vec<&str> = lines[0].split(',').collect();
    let points = header.iter().position(|h| *h == "points").unwrap();
    let dropped = header.iter().position(|h| *h == "dropped").unwrap();
    let total: i64 = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(points).unwrap().parse::<i64>().unwrap())
        .sum();
    assert_eq!(total, 36, "{csv}");
    let dov = lines.iter().find(|l| l.contains("\"Dov\"")).unwrap();
    assert_eq!(dov.split(',').nth(dropped), Some("true"), "{csv}");

    session.close().await.unwrap();
}

/// The venue set-up of `docs/deploy.md` (production, HTTPS with the
/// certificate the server makes, reached at the machine's network address):
/// a phone signs in and stays signed in, its session cookie `Secure`.
async fn an_organiser_signs_in_from_a_phone_on_the_venue_network(backend: Backend) {
    let app = TestApp::spawn_at_venue(backend).await;
    assert!(app.address.starts_with("https://"), "{}", app.address);
    assert!(!app.address.contains("127.0.0.1"), "{}", app.address);
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    let mut driver = Driver::start();
    let phone = driver.session_accepting_self_signed().await;
    sign_in(&phone, &app, "to@example.org").await;
    assert!(
        body_text(&phone)
            .await
            .contains("Welcome back, Tess Organiser")
    );
    // The next page still knows who this is: the browser kept the cookie.
    visit(&phone, &app.url("/account")).await;
    assert_eq!(
        phone.current_url().await.unwrap().path(),
        "/account",
        "signed out again"
    );
    assert!(body_text(&phone).await.contains("to@example.org"));
    let session = phone
        .get_named_cookie("soulstone_session")
        .await
        .expect("a session cookie");
    assert_eq!(session.secure(), Some(true));
    phone.close().await.unwrap();
}

/// The day of a 32-player event, run by an organiser on a phone: 33 entries
/// of whom 32 come (found by search, checked in with one tap), the no-show
/// left out of every round, three rounds flipped and published from the
/// phone, a dispute resolved from its side-by-side view, standings without
/// the no-show, and the projector at 1920×1080 showing every table and the
/// scenario, then a top-8 cut played out to the final placings, which
/// lead the standings, their CSV and the overview. Results other than the
/// dispute are entered through the API.
async fn an_organiser_runs_a_thirty_two_player_day_from_a_phone(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-day32", backend.name());
    app.create_account("day-to@example.org", "Dee Organiser", false)
        .await;
    let to_api = app.api_client("day-to@example.org").await;
    let (status, event) = to_api
        .post(
            "/events",
            json!({
                "name": "Thirty-two", "starts_on": "2026-12-12", "ends_on": "2026-12-12",
                "venue": "Town hall", "game_system": "m3e", "pool": "m3e-core", "format": "swiss",
                "rounds_planned": 3, "round_minutes": 135, "encounter_size": 50,
                "visibility": "public", "tables": 16, "time_zone": "Europe/London",
                "tiebreakers": "vp_diff,vp_scored,sos", "points_win": 3, "points_draw": 1,
                "points_loss": 0, "bye_scored": 5, "bye_conceded": 0
            }),
        )
        .await;
    assert_eq!(status, 201, "{event}");
    let event = event["id"].as_i64().unwrap();
    let event_path = format!("/events/{event}");
    let (status, _) = to_api
        .post(
            &format!("{event_path}/status"),
            json!({"status": "registration"}),
        )
        .await;
    assert_eq!(status, 204);
    // Two players with accounts (they will dispute), 31 walk-ins, one of
    // whom never comes.
    let mut accounts = Vec::new();
    for (email, name) in [
        ("dana@example.org", "Dana Reyes"),
        ("eli@example.org", "Eli Moss"),
    ] {
        app.create_account(email, name, false).await;
        let api = app.api_client(email).await;
        let (status, entry) = api.post(&format!("{event_path}/register"), json!({})).await;
        assert_eq!(status, 201, "{entry}");
        accounts.push((entry["id"].as_i64().unwrap(), api));
    }
    let mut walk_ins = Vec::new();
    for i in 0..30 {
        let name = format!("Walk-in {i:02}");
        let (status, entry) = to_api
            .post(
                &format!("{event_path}/players"),
                json!({"name": name, "club": format!("Club {}", i % 6)}),
            )
            .await;
        assert_eq!(status, 201, "{entry}");
        walk_ins.push(entry["id"].as_i64().unwrap());
    }
    let (_, no_show) = to_api
        .post(
            &format!("{event_path}/players"),
            json!({"name": "Nora Noshow"}),
        )
        .await;
    let no_show = no_show["id"].as_i64().unwrap();

    let mut driver = Driver::start();
    let phone = driver.session().await;
    let client = &phone;
    sign_in(client, &app, "day-to@example.org").await;
    let base = current_origin(client).await;
    let players_url = format!("{base}{event_path}/players");

    // At the door: search finds one player among 33...
    visit(client, &players_url).await;
    fill(client, "q", "dana").await;
    click_button(client, "Find").await;
    let text = body_text(client).await;
    assert!(text.contains("Showing 1 of 33"), "{text}");
    check_page(client, &format!("{prefix}-01-search")).await;
    // ...and everyone who came is ticked and checked in with one tap.
    visit(client, &players_url).await;
    for id in accounts
        .iter()
        .map(|(id, _)| *id)
        .chain(walk_ins.iter().copied())
    {
        client
            .find(Locator::Css(&format!("#present-{id}")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
    }
    click_button(client, "Check in the ticked players").await;
    let text = body_text(client).await;
    assert!(text.contains("32 players checked in."), "{text}");
    assert!(
        text.contains("32 of 32 checked in") || text.contains("32 of 33 checked in"),
        "{text}"
    );
    check_page(client, &format!("{prefix}-02-checked-in")).await;

    visit(client, &format!("{base}{event_path}")).await;
    click_button(client, "Start the event").await;
    let text = body_text(client).await;
    assert!(
        text.contains("Nora Noshow"),
        "the no-show is named before pairing: {text}"
    );

    let (dana, eli) = (accounts[0].0, accounts[1].0);
    for round in 1..=3u32 {
        visit(client, &format!("{base}{event_path}")).await;
        click_button_starting(client, &format!("Pair round {round} of 3")).await;
        if round == 1 {
            // Dana and Eli are to meet: the organiser swaps Eli with Dana's opponent.
            let (_, detail) = to_api.get(&format!("{event_path}/rounds/1")).await;
            let table = detail["tables"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["player_a"] == dana || t["player_b"] == dana)
                .unwrap()
                .clone();
            let opponent = if table["player_a"] == dana {
                table["player_b"].as_i64().unwrap()
            } else {
                table["player_a"].as_i64().unwrap()
            };
            if opponent != eli {
                set_value(client, "first", &eli.to_string()).await;
                set_value(client, "second", &opponent.to_string()).await;
                click_button(client, "Swap them").await;
            }
        }
        click_button(client, "Flip one scenario for all tables").await;
        let text = body_text(client).await;
        assert!(text.contains("Scenario for every table"), "{text}");
        assert!(
            !text.contains("Nora Noshow"),
            "the no-show is not paired: {text}"
        );
        assert!(text.matches("attacker").count() >= 16, "{text}");
        if round == 2 {
            // Tabs lead between the rounds, and the swap form does not
            // start with one player on both sides.
            let tabs = client
                .find_all(Locator::Css("nav[aria-label=Rounds] a"))
                .await
                .unwrap();
            assert_eq!(tabs.len(), 2, "a tab per round so far");
            let swap: Vec<String> = serde_json::from_value(
                client
                    .execute(
                        "return ['first', 'second'].map((n) => document.querySelector(`[name=${n}]`).value);",
                        vec![],
                    )
                    .await
                    .unwrap(),
            )
            .unwrap();
            assert_ne!(swap[0], swap[1], "{swap:?}");
        }
        check_page(client, &format!("{prefix}-03-round{round}-draft")).await;
        click_button(client, "Publish and mail the players").await;

        let (_, detail) = to_api.get(&format!("{event_path}/rounds/{round}")).await;
        let tables = detail["tables"].as_array().unwrap().clone();
        assert_eq!(tables.len(), 16, "{detail}");
        let numbers: std::collections::BTreeSet<i64> = tables
            .iter()
            .map(|t| t["table"].as_i64().unwrap())
            .collect();
        assert_eq!(numbers, (1..=16).collect(), "tables 1 to 16, none skipped");
        for table in &tables {
            let game = table["game"].as_i64().unwrap();
            let path = format!("{event_path}/games/{game}/result");
            let pair = [
                table["player_a"].as_i64().unwrap(),
                table["player_b"].as_i64().unwrap(),
            ];
            if round == 1 && pair.contains(&dana) && pair.contains(&eli) {
                // Each says they won.
                let dana_is_a = pair[0] == dana;
                let says = |a_wins: bool| {
                    if a_wins {
                        json!({"a_strategy_vp": 4, "a_scheme_vp": 2, "b_strategy_vp": 2, "b_scheme_vp": 1})
                    } else {
                        json!({"a_strategy_vp": 2, "a_scheme_vp": 1, "b_strategy_vp": 4, "b_scheme_vp": 2})
                    }
                };
                let (status, body) = accounts[0].1.post(&path, says(dana_is_a)).await;
                assert_eq!(status, 200, "{body}");
                let (status, body) = accounts[1].1.post(&path, says(!dana_is_a)).await;
                assert_eq!(status, 200, "{body}");
                assert_eq!(body["status"], "disputed");
                continue;
            }
            let (status, body) = to_api
                .post(&path, json!({"a_strategy_vp": 3, "a_scheme_vp": 2, "b_strategy_vp": 1, "b_scheme_vp": 1}))
                .await;
            assert_eq!(status, 200, "{body}");
        }
        if round == 1 {
            // The organiser sees the dispute flagged, both sides in words,
            // and settles it from the phone.
            visit(client, &format!("{base}{event_path}")).await;
            let text = body_text(client).await;
            assert!(text.contains("1 disputed result to resolve"), "{text}");
            follow_link(client, "Dana Reyes").await;
            let text = body_text(client).await;
            assert!(text.contains("Disputed: what each side says"), "{text}");
            assert!(
                text.contains("Dana Reyes\n") || text.contains("Dana Reyes "),
                "{text}"
            );
            check_page(client, &format!("{prefix}-04-dispute")).await;
            for (field, value) in [
                ("a_strategy_vp", "3"),
                ("a_scheme_vp", "2"),
                ("b_strategy_vp", "3"),
                ("b_scheme_vp", "2"),
            ] {
                fill(client, field, value).await;
            }
            click_button(client, "Save the result").await;
            let text = body_text(client).await;
            assert!(text.contains("5 – 5"), "{text}");
        }
        if round == 2 {
            // The projector, on the venue's screen, mid-event.
            let screen = driver.screen(1920, 1080).await;
            visit(&screen, &format!("{base}{event_path}/rounds/2/projector")).await;
            let fits: bool = serde_json::from_value(
                screen
                    .execute(
                        "const seats = [...document.querySelectorAll('ol.seats li')];\
                         return seats.length === 32 && seats.every((li) => {\
                           const r = li.getBoundingClientRect();\
                           return r.bottom <= window.innerHeight && r.right <= window.innerWidth && r.height > 0;\
                         }) && document.querySelector('.scenario').getBoundingClientRect().bottom <= window.innerHeight;",
                        vec![],
                    )
                    .await
                    .unwrap(),
            )
            .unwrap();
            let png = screen.screenshot().await.unwrap();
            std::fs::write(
                artifacts_dir().join(format!("{prefix}-05-projector-1080p.png")),
                png,
            )
            .unwrap();
            assert!(fits, "all 32 players and the scenario fit a 1080p screen");
            let text = body_text(&screen).await;
            assert!(
                text.contains("Dana Reyes") && text.contains("table "),
                "{text}"
            );
            screen.close().await.unwrap();
        }
    }

    visit(client, &format!("{base}{event_path}/standings")).await;
    let text = body_text(client).await;
    assert!(
        !text.contains("Nora Noshow"),
        "no-shows are not in the standings: {text}"
    );
    check_page(client, &format!("{prefix}-06-standings")).await;
    let (_, rows) = to_api.get(&format!("{event_path}/standings")).await;
    assert_eq!(rows.as_array().unwrap().len(), 32, "{rows}");
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .all(|r| r["player"] != no_show)
    );

    // The top eight play it out: the organiser makes the cut and pairs and
    // publishes each playoff round from the phone; the results come
    // through the API, the higher seed (player A) winning every game.
    let top_seed = rows[0]["name"].as_str().unwrap().to_owned();
    let ninth = rows[8]["name"].as_str().unwrap().to_owned();
    visit(client, &format!("{base}{event_path}")).await;
    fill(client, "cut", "8").await;
    click_button(client, "Make the cut").await;
    let text = body_text(client).await;
    assert!(text.contains("The cut is made"), "{text}");
    for (round, name) in [(4, "Quarterfinals"), (5, "Semifinals"), (6, "Final")] {
        visit(client, &format!("{base}{event_path}")).await;
        click_button(client, "Pair the next playoff round").await;
        let text = body_text(client).await;
        assert!(text.contains(&format!("{name} (round {round})")), "{text}");
        click_button(client, "Flip one scenario for all tables").await;
        click_button(client, "Publish and mail the players").await;
        let (_, detail) = to_api.get(&format!("{event_path}/rounds/{round}")).await;
        for table in detail["tables"].as_array().unwrap() {
            let game = table["game"].as_i64().unwrap();
            let (status, body) = to_api
                .post(
                    &format!("{event_path}/games/{game}/result"),
                    json!({"a_strategy_vp": 4, "a_scheme_vp": 2, "b_strategy_vp": 1, "b_scheme_vp": 0}),
                )
                .await;
            assert_eq!(status, 200, "{body}");
        }
    }
    // The standings now lead with the final placings (the champion first,
    // the bracket a tap away), the Swiss order below; so do the CSV and
    // the overview.
    visit(client, &format!("{base}{event_path}/standings")).await;
    let text = body_text(client).await;
    let (final_at, swiss_at) = (
        text.find("Final placings")
            .unwrap_or_else(|| panic!("{text}")),
        text.find("Swiss standings")
            .unwrap_or_else(|| panic!("{text}")),
    );
    assert!(final_at < swiss_at, "{text}");
    let first = client
        .find(Locator::Css("table.placings tbody tr"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        first.split_whitespace().collect::<Vec<_>>().join(" "),
        format!("1 {top_seed}")
    );
    let placed = client
        .find_all(Locator::Css("table.placings tbody tr"))
        .await
        .unwrap()
        .len();
    assert_eq!(placed, 32, "every player has a final place");
    check_page(client, &format!("{prefix}-07-final-standings")).await;
    follow_link(client, "see the bracket").await;
    assert!(
        client
            .current_url()
            .await
            .unwrap()
            .path()
            .ends_with("/bracket"),
        "the standings link the bracket"
    );
    let csv = reqwest::get(format!("{base}{event_path}/standings.csv"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().starts_with("final_place,"), "{csv}");
    let champion_line = lines.next().unwrap();
    assert!(
        champion_line.starts_with("1,") && champion_line.contains(&top_seed),
        "{csv}"
    );
    let ninth_line = csv.lines().nth(9).unwrap();
    assert!(
        ninth_line.starts_with("9,") && ninth_line.contains(&ninth),
        "below the cut, places follow the Swiss standings: {csv}"
    );
    visit(client, &format!("{base}{event_path}")).await;
    let text = body_text(client).await;
    let podium = &text[text
        .find("Final placings")
        .unwrap_or_else(|| panic!("{text}"))..];
    assert!(podium.contains(&top_seed), "{text}");
    phone.close().await.unwrap();
}

/// Twelve players through three Swiss rounds (set up through the API), then
/// the organiser makes a top-8 cut with a third-place game in the browser on
/// a phone, pairs and publishes each playoff round, enters its results, and
/// the bracket shows the champion and the final placings.
async fn an_organiser_cuts_twelve_players_to_a_top_eight_in_the_browser(backend: Backend) {
    use crate::events::{create_event, event_body, set_status, walk_ins_checked_in};
    use crate::playoffs::{enter, pair_and_publish as api_pair_and_publish};
    let app = TestApp::spawn(backend.clone()).await;
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, event_body("Top Eight Cup")).await;
    set_status(&to, event, "registration").await;
    walk_ins_checked_in(&to, event, "Player", 12, 12).await;
    set_status(&to, event, "running").await;
    for _ in 1..=3 {
        let (_, tables) = api_pair_and_publish(&to, event).await;
        for (i, table) in tables.iter().enumerate() {
            enter(
                &to,
                event,
                table["game"].as_i64().unwrap(),
                (i % 6) as i64,
                2,
            )
            .await;
        }
    }
    let (_, standings) = to.get(&format!("/events/{event}/standings")).await;
    let top_seed = standings[0]["name"].as_str().unwrap().to_owned();

    let mut driver = Driver::start();
    let client = &driver.session().await;
    let prefix = format!("{}-playoff", backend.name());
    sign_in(client, &app, "to@example.org").await;
    let event_url = app.url(&format!("/events/{event}"));
    visit(client, &event_url).await;
    fill(client, "cut", "8").await;
    client
        .find(Locator::Css("[name=third_place]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    click_button(client, "Make the cut").await;
    let text = body_text(client).await;
    assert!(
        text.contains("The cut is made") && text.contains("Quarterfinals"),
        "{text}"
    );
    check_page(client, &format!("{prefix}-bracket")).await;

    for (round, name, games) in [
        (4, "Quarterfinals", 4),
        (5, "Semifinals", 2),
        (6, "Final", 2),
    ] {
        visit(client, &event_url).await;
        click_button(client, "Pair the next playoff round").await;
        let text = body_text(client).await;
        assert!(text.contains(&format!("{name} (round {round})")), "{text}");
        click_button(client, "Flip one scenario for all tables").await;
        click_button(client, "Publish and mail the players").await;
        assert!(body_text(client).await.contains("is published"));
        // The first player (the higher seed) wins every game.
        assert_eq!(enter_round_results(client, &prefix, round).await, games);
    }

    visit(client, &format!("{event_url}/bracket")).await;
    let text = body_text(client).await;
    assert!(text.contains("Final placings"), "{text}");
    check_page(client, &format!("{prefix}-placings")).await;
    let placings = client
        .find(Locator::Css("table.placings tbody tr"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let placings = placings.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(placings, format!("1 {top_seed}"));
    let csv = reqwest::get(format!("{event_url}/placings.csv"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(csv.lines().count(), 13, "{csv}");
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .ends_with(&format!("\"{top_seed}\"")),
        "{csv}"
    );
    assert!(
        csv.contains("5,8,"),
        "quarterfinal losers share 5th to 8th: {csv}"
    );

    // The projector view of the bracket drops the site's frame.
    visit(client, &format!("{event_url}/bracket?projector=1")).await;
    assert!(body_text(client).await.contains("Final"));
}

/// Four teams of three: a captain registers in a phone browser (a refused
/// entry keeps what was typed), the others through the API; after round 1
/// is paired and published, the two captains of one match take turns
/// choosing who plays whom in the browser, and the team standings show the
/// match once its results are in.
async fn four_teams_of_three_with_captains_choosing_in_the_browser(backend: Backend) {
    use crate::events::{create_event, set_status};
    use crate::playoffs::enter;
    use crate::teams::{captains, team_event_body};
    let app = TestApp::spawn(backend.clone()).await;
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, team_event_body("Team Cup", "captains_choice")).await;
    set_status(&to, event, "registration").await;
    let caps = captains(&app, &["Ava", "Bo", "Cy", "Di"]).await;

    let mut driver = Driver::start();
    let client = &driver.session().await;
    let prefix = format!("{}-teams", backend.name());
    sign_in(client, &app, "ava@example.org").await;
    let teams_url = app.url(&format!("/events/{event}/teams"));
    visit(client, &app.url(&format!("/events/{event}"))).await;
    follow_link(client, "Teams and registering a team").await;
    fill(client, "team_name", "Ravens").await;
    fill(client, "member_2", "Ava").await;
    fill(client, "member_3", "Rook").await;
    click_button(client, "Register the team").await;
    let text = body_text(client).await;
    assert!(text.contains("named twice"), "{text}");
    let kept = client
        .find(Locator::Css("#f-member_3"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(kept.as_deref(), Some("Rook"), "what was typed stays");
    fill(client, "member_2", "Raven").await;
    click_button(client, "Register the team").await;
    assert!(body_text(client).await.contains("Ravens is registered"));
    check_page(client, &format!("{prefix}-registered")).await;
    // The captain withdraws the team (after a confirmation) and enters again.
    follow_link(client, "Withdraw the team").await;
    click_button(client, "Withdraw the team").await;
    visit(client, &teams_url).await;
    assert!(
        body_text(client)
            .await
            .contains("No team has registered yet")
    );
    fill(client, "team_name", "Ravens").await;
    fill(client, "member_2", "Raven").await;
    fill(client, "member_3", "Rook").await;
    click_button(client, "Register the team").await;
    assert!(body_text(client).await.contains("Ravens is registered"));
    for (captain, name) in caps[1..].iter().zip(["Bats", "Cats", "Dogs"]) {
        let (code, body) = captain
            .post(
                &format!("/events/{event}/teams"),
                json!({"name": name, "members": [format!("{name} two"), format!("{name} three")]}),
            )
            .await;
        assert_eq!(code, 201, "{body}");
    }
    let (_, report) = to.get(&format!("/events/{event}/teams")).await;
    for team in report["teams"].as_array().unwrap() {
        for member in team["members"].as_array().unwrap() {
            to.post(
                &format!(
                    "/events/{event}/players/{}/check-in",
                    member["registration"]
                ),
                json!({"checked_in": true}),
            )
            .await;
        }
    }
    set_status(&to, event, "running").await;
    // The organiser pairs round 1 from a phone: team matches, a scenario
    // for every table, then published for the captains to choose.
    let organiser = driver.session().await;
    sign_in(&organiser, &app, "to@example.org").await;
    visit(&organiser, &teams_url).await;
    assert!(body_text(&organiser).await.contains("Enter a team"));
    check_page(&organiser, &format!("{prefix}-desk")).await;
    visit(&organiser, &app.url(&format!("/events/{event}"))).await;
    click_button(&organiser, "Pair round 1 of 3").await;
    let text = body_text(&organiser).await;
    assert!(
        text.contains("Team matches") && text.contains("Teams paired with seed"),
        "{text}"
    );
    // The captains' games do not exist yet: no setup per table to flip.
    assert!(!text.contains("Flip a setup per table"), "{text}");
    check_page(&organiser, &format!("{prefix}-round-draft")).await;
    click_button(&organiser, "Flip one scenario for all tables").await;
    click_button(&organiser, "Publish and mail the players").await;
    assert!(body_text(&organiser).await.contains("is published"));
    let (_, report) = to.get(&format!("/events/{event}/teams")).await;
    let captain_email = |team: &serde_json::Value| {
        let id = team.as_i64().unwrap();
        let entry = report["teams"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .unwrap();
        format!(
            "{}@example.org",
            entry["members"][0]["name"].as_str().unwrap().to_lowercase()
        )
    };
    let matches = report["matches"].as_array().unwrap().clone();
    let first = &matches[0];
    let (email_a, email_b) = (
        captain_email(&first["team_a"]),
        captain_email(&first["team_b"]),
    );

    // The two captains take turns on the match page until everyone is paired.
    let match_url = app.url(&format!("/events/{event}/matches/{}", first["id"]));
    let captain_a = driver.session().await;
    sign_in(&captain_a, &app, &email_a).await;
    let captain_b = driver.session().await;
    sign_in(&captain_b, &app, &email_b).await;
    for (turn, client) in [&captain_a, &captain_b, &captain_b, &captain_a]
        .into_iter()
        .enumerate()
    {
        visit(client, &match_url).await;
        if turn == 0 {
            check_page(client, &format!("{prefix}-choosing")).await;
        }
        client
            .find(Locator::Css("input[name=pick]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        click_button(client, "Confirm the choice").await;
        assert!(
            body_text(client).await.contains("Your choice is recorded"),
            "turn {turn}"
        );
    }
    let client = &captain_a;
    let text = body_text(client).await;
    assert!(text.contains("Every player is paired"), "{text}");
    let games = client.find_all(Locator::Css("ul.games li")).await.unwrap();
    assert_eq!(games.len(), 3);
    check_page(client, &format!("{prefix}-paired")).await;
    // Games made after the scenario was shared flip their own attacker.
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let tables = round["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 3, "{round}");
    for table in tables {
        let attacker = table["attacker"].as_i64();
        assert!(
            attacker == table["player_a"].as_i64() || attacker == table["player_b"].as_i64(),
            "{table}"
        );
    }

    // The other match chooses through the API: always the first option.
    let second = matches[1]["id"].as_i64().unwrap();
    loop {
        let (_, report) = to.get(&format!("/events/{event}/teams")).await;
        let state = report["matches"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == second)
            .unwrap()
            .clone();
        if state["next"]["step"] == "done" {
            break;
        }
        let (code, body) = to
            .post(
                &format!("/events/{event}/matches/{second}/choices"),
                json!({"step": state["step"], "pick": state["next"]["options"][0]}),
            )
            .await;
        assert_eq!(code, 200, "{body}");
    }
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    for table in round["tables"].as_array().unwrap() {
        enter(&to, event, table["game"].as_i64().unwrap(), 6, 2).await;
    }
    visit(client, &match_url).await;
    let text = body_text(client).await;
    assert!(
        text.contains("3 – 0") && text.contains("win the match"),
        "{text}"
    );
    visit(client, &teams_url).await;
    let standings = client
        .find(Locator::Css("table.team-standings tbody"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(standings.lines().count(), 4, "{standings}");
    // Rank, team, points, W-D-L, games won, VP difference: each match
    // went three games to none, 6-2 each.
    let first = standings.lines().next().unwrap();
    assert!(first.ends_with("3 1-0-0 3 12"), "{standings}");
    check_page(client, &format!("{prefix}-standings")).await;
}
