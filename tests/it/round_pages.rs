//! A round's page as visitors without a session see it is kept whole and
//! sent as the same bytes to each of them, but for its clock: it must still
//! follow the clock, the results and the round's games in the browser. And
//! what a round stores is shown as stored, or refused, never half read.

use crate::hosted::{DigitalPairing, digital_pairing, play_digital_game_until};
use crate::support::{Backend, TestApp};
use soulstone::web::page_cache::CLOCK_MARK;

both_backends!(
    a_kept_round_page_follows_its_clock_its_games_in_the_browser_and_its_results,
    an_unreadable_stored_setup_is_refused_and_kept,
);

/// A round whose stored setup history cannot be read: its page (which
/// shows the history) refuses it, and flipping again refuses too rather
/// than writing a new history over the old one.
async fn an_unreadable_stored_setup_is_refused_and_kept(backend: Backend) {
    use crate::events::{create_event, event_body, set_status, walk_ins_checked_in};
    use diesel::RunQueryDsl;
    use serde_json::json;

    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("keeper-to@example.org", "Keeper TO").await;
    let to_api = app.api_client("keeper-to@example.org").await;
    let mut body = event_body("Kept setups");
    body["game_system"] = json!("m3e");
    body["pool"] = json!("m3e-core");
    let event = create_event(&to_api, body).await;
    set_status(&to_api, event, "registration").await;
    walk_ins_checked_in(&to_api, event, "Keeper", 4, 4).await;
    set_status(&to_api, event, "running").await;
    let (status, _) = to_api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(status, 201);
    let round_path = format!("/events/{event}/rounds/1");
    for _ in 0..2 {
        let response = to
            .post_form(&format!("{round_path}/setup"), &[("per_table", "false")])
            .await;
        assert_eq!(response.status(), 303);
    }
    assert_eq!(to.get(&round_path).await.status(), 200);

    let garbled = "[{\"replaced_at\": \"not a time\"}]";
    let set = format!("UPDATE rounds SET setup_history = '{garbled}' WHERE event_id = {event}");
    app.with_conn(move |conn| diesel::sql_query(set).execute(conn).unwrap())
        .await;
    assert_eq!(to.get(&round_path).await.status(), 500);
    let response = to
        .post_form(&format!("{round_path}/setup"), &[("per_table", "false")])
        .await;
    assert_eq!(response.status(), 500, "a flip over an unreadable history");

    #[derive(diesel::QueryableByName)]
    struct Stored {
        #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
        setup_history: Option<String>,
    }
    let read = format!("SELECT setup_history FROM rounds WHERE event_id = {event}");
    let stored = app
        .with_conn(move |conn| diesel::sql_query(read).get_result::<Stored>(conn).unwrap())
        .await;
    assert_eq!(stored.setup_history.as_deref(), Some(garbled));
}

/// The round clock as the page shows it.
fn clock_of(html: &str) -> &str {
    let start = html.find("Round clock: <strong>").expect("the round clock") + 21;
    let end = start + html[start..].find("</strong>").expect("the clock's end");
    &html[start..end]
}

async fn a_kept_round_page_follows_its_clock_its_games_in_the_browser_and_its_results(
    backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let DigitalPairing {
        event,
        hosted_id,
        apis,
        ..
    } = digital_pairing(&app).await;
    let page = format!("/events/{event}/rounds/1");
    let visitor = app.new_client();
    let (code, first) = visitor.get_text(&page).await;
    assert_eq!(code, 200, "{first}");
    assert_eq!(clock_of(&first), "not started");
    assert!(first.contains("play or watch in the browser"), "{first}");
    assert!(first.contains("live: setting up"), "{first}");
    assert!(!first.contains(CLOCK_MARK));
    assert!(!first.contains("Sign out"));
    let (_, again) = app.new_client().get_text(&page).await;
    assert_eq!(again, first, "one page for every visitor");

    // The game reaches its first turn: the event did not change, the page
    // does (within a second or so: the kept page trusts what it showed of
    // the games that long).
    let turn = play_digital_game_until(&app, hosted_id, &apis, false, Some(1)).await;
    assert_eq!(turn, 1);
    let mut playing = String::new();
    for _ in 0..30 {
        playing = visitor.get_text(&page).await.1;
        if playing.contains("live: turn 1") {
            break;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(playing.contains("live: turn 1"), "{playing}");

    // The organiser starts the clock; between two visits it moves on, and
    // nothing else on the page does.
    let organiser = app.signed_in_client("to@example.org").await;
    let started = organiser.post_form(&format!("{page}/clock"), &[]).await;
    assert!(started.status().is_redirection(), "{}", started.status());
    let (_, before) = visitor.get_text(&page).await;
    let before_clock = clock_of(&before).to_owned();
    assert!(before_clock.contains(':'), "{before_clock}");
    actix_web::rt::time::sleep(std::time::Duration::from_millis(1_100)).await;
    let (_, after) = visitor.get_text(&page).await;
    let after_clock = clock_of(&after).to_owned();
    assert_ne!(after_clock, before_clock, "the kept page's clock runs");
    assert_eq!(
        after.replacen(&after_clock, "", 1),
        before.replacen(&before_clock, "", 1)
    );

    // Played out, the game reports its result: the page shows it.
    play_digital_game_until(&app, hosted_id, &apis, false, None).await;
    let (_, over) = visitor.get_text(&page).await;
    assert!(over.contains("replay in the browser"), "{over}");
    assert!(!over.contains("live: turn"), "{over}");

    // A signed-in player still gets a page of their own.
    let player = app.signed_in_client("ann@example.org").await;
    let (_, own) = player.get_text(&page).await;
    assert!(
        own.contains("Sign out") && own.contains("Your game"),
        "{own}"
    );
}
