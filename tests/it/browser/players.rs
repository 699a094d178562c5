//! Players in a browser: reporting, confirming and disputing results, and
//! a ranked player's profile.

use super::*;

both_backends!(
    players_report_confirm_and_dispute_in_the_browser,
    a_ranked_player_finds_their_profile_and_hides_it,
);

/// Four registered players on their phones: they register, report their
/// games and confirm or dispute their opponent's report; the organiser
/// resolves the dispute; the standings show exactly those results.
async fn players_report_confirm_and_dispute_in_the_browser(backend: Backend) {
    use crate::events::{create_event, event_body, set_status};
    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-players", backend.name());
    app.create_account("org@example.org", "Orla Organiser", false)
        .await;
    let names = ["Ines", "Jon", "Kai", "Lea"];
    for name in names {
        app.create_account(&format!("{}@example.org", name.to_lowercase()), name, false)
            .await;
    }
    let api = app.api_client("org@example.org").await;
    let mut body = event_body("Phone Cup");
    body["game_system"] = json!("m3e");
    body["pool"] = json!("m3e-gg3");
    body["rounds_planned"] = json!(1);
    let event = create_event(&api, body).await;
    set_status(&api, event, "registration").await;

    let mut driver = Driver::start();
    let mut phones = Vec::new();
    for name in names {
        let phone = driver.session().await;
        sign_in(
            &phone,
            &app,
            &format!("{}@example.org", name.to_lowercase()),
        )
        .await;
        visit(&phone, &app.url(&format!("/events/{event}"))).await;
        click_button(&phone, "Register for this event").await;
        phones.push((name, phone));
    }
    check_page(&phones[0].1, &format!("{prefix}-registered")).await;

    let (_, detail) = api.get(&format!("/events/{event}")).await;
    for player in detail["players"].as_array().unwrap() {
        api.post(
            &format!("/events/{event}/players/{}/check-in", player["id"]),
            json!({"checked_in": true}),
        )
        .await;
    }
    set_status(&api, event, "running").await;
    let (status, _) = api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(status, 201);
    api.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;

    // Each table: the first of its players to look reports; the other answers.
    let mut reported: Vec<String> = Vec::new();
    let mut disputed = None;
    for (name, phone) in &phones {
        visit(phone, &app.url(&format!("/events/{event}/rounds/1"))).await;
        follow_link(phone, "Your game").await;
        let game_url = phone.current_url().await.unwrap().to_string();
        let text = body_text(phone).await;
        if text.contains("Confirm the reported result") {
            if disputed.is_none() {
                check_page(phone, &format!("{prefix}-to-confirm")).await;
                fill(phone, "note", "We played 4 to 1, not 5 to 1").await;
                click_button(phone, "Dispute").await;
                let text = body_text(phone).await;
                assert!(text.contains("Disputed"), "{text}");
                disputed = Some(game_url);
            } else {
                click_button(phone, "Confirm").await;
                let text = body_text(phone).await;
                assert!(text.contains("Result confirmed"), "{name}: {text}");
            }
        } else {
            check_page(phone, &format!("{prefix}-to-report")).await;
            fill(phone, "a_strategy_vp", "3").await;
            fill(phone, "a_scheme_vp", "2").await;
            fill(phone, "b_strategy_vp", "1").await;
            fill(phone, "b_scheme_vp", "0").await;
            click_button(phone, "Save the result").await;
            let text = body_text(phone).await;
            assert!(text.contains("5 – 1"), "{name}: {text}");
            reported.push(game_url);
        }
    }
    assert_eq!(reported.len(), 2, "two tables, one report each");
    let disputed = disputed.expect("one report was disputed");

    // The organiser resolves the dispute from the game page: 4–1.
    let organiser = driver.session().await;
    sign_in(&organiser, &app, "org@example.org").await;
    visit(&organiser, &disputed).await;
    let text = body_text(&organiser).await;
    assert!(text.contains("We played 4 to 1"), "{text}");
    check_page(&organiser, &format!("{prefix}-dispute")).await;
    fill(&organiser, "a_strategy_vp", "3").await;
    fill(&organiser, "a_scheme_vp", "1").await;
    fill(&organiser, "b_strategy_vp", "1").await;
    fill(&organiser, "b_scheme_vp", "0").await;
    click_button(&organiser, "Save the result").await;
    let text = body_text(&organiser).await;
    assert!(text.contains("4 – 1"), "{text}");

    // Standings: two winners with 3 points, scored 5 and 4; two losers with 1 VP.
    let (_, rows) = api.get(&format!("/events/{event}/standings")).await;
    let rows = rows.as_array().unwrap();
    let mut points: Vec<i64> = rows.iter().map(|r| r["points"].as_i64().unwrap()).collect();
    points.sort_unstable();
    assert_eq!(points, vec![0, 0, 3, 3], "{rows:?}");
    let mut scored: Vec<i64> = rows.iter().map(|r| r["scored"].as_i64().unwrap()).collect();
    scored.sort_unstable();
    assert_eq!(scored, vec![1, 1, 4, 5], "{rows:?}");
    visit(
        &phones[3].1,
        &app.url(&format!("/events/{event}/standings")),
    )
    .await;
    check_page(&phones[3].1, &format!("{prefix}-standings")).await;

    for (_, phone) in phones {
        phone.close().await.unwrap();
    }
    organiser.close().await.unwrap();
}

/// Two finished ranked events (through the API), then in a phone browser:
/// the ranking page links to a profile whose chart has a point per ranked
/// event, and the player hides their profile from the account page.
async fn a_ranked_player_finds_their_profile_and_hides_it(backend: Backend) {
    use crate::events::set_status;
    use crate::rankings::{four_account_holders, one_round_event};
    let app = TestApp::spawn(backend.clone()).await;
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let players = four_account_holders(&app).await;
    for (name, date) in [
        ("Autumn Ranked", "2026-10-03"),
        ("Winter Ranked", "2026-12-05"),
    ] {
        let (event, _) = one_round_event(&to, &players, name, date, true).await;
        set_status(&to, event, "finished").await;
    }
    let (_, rows) = to.get("/rankings?system=m4e").await;
    let top = rows[0].clone();
    let top_name = top["name"].as_str().unwrap().to_owned();
    let (_, profile) = to.get(&format!("/players/{}", top["account"])).await;
    let points = profile["ratings"][0]["history"].as_array().unwrap().len();

    let mut driver = Driver::start();
    let client = &driver.session().await;
    let prefix = format!("{}-rankings", backend.name());
    visit(client, &app.url("/rankings?system=m4e")).await;
    check_page(client, &format!("{prefix}-list")).await;
    follow_link(client, &top_name).await;
    let text = body_text(client).await;
    assert!(
        text.contains("Head to head") && text.contains("Winter Ranked"),
        "{text}"
    );
    let circles = client
        .find_all(Locator::Css("svg.rating-chart circle"))
        .await
        .unwrap();
    assert_eq!(circles.len(), points);
    // Each event has its own rating change, or "not rated" where the
    // player met only the walk-in (each event has one), and the page says
    // which games count.
    assert!(text.contains("games against walk-in entries"), "{text}");
    let mut changes = Vec::new();
    for cell in client
        .find_all(Locator::XPath(
            "//tr[td[a[normalize-space(.)='Autumn Ranked' or normalize-space(.)='Winter Ranked']]]/td[5]",
        ))
        .await
        .unwrap()
    {
        changes.push(cell.text().await.unwrap());
    }
    assert_eq!(changes.len(), 2, "{text}");
    assert!(
        changes
            .iter()
            .all(|c| c == "not rated" || c.replace('−', "-").parse::<i64>().is_ok()),
        "{changes:?}"
    );
    assert!(
        changes
            .iter()
            .any(|c| c.replace('−', "-").parse::<i64>().is_ok_and(|c| c != 0)),
        "the top player's rated event shows its change: {changes:?}"
    );
    check_page(client, &format!("{prefix}-profile")).await;

    // The player hides the profile: off the list, and not found by others.
    let email = format!("{}@example.org", top_name.to_lowercase());
    sign_in(client, &app, &email).await;
    visit(client, &app.url("/account")).await;
    client
        .find(Locator::Css("[name=profile_hidden]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    click_button(client, "Save profile").await;
    visit(client, &app.url("/rankings?system=m4e")).await;
    let table = client
        .find(Locator::Css("table.rankings"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!table.contains(&top_name), "{table}");
    let anonymous = reqwest::get(app.url(&format!("/players/{}", top["account"])))
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 404);
}
