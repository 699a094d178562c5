//! The day of an event at a phone's size: the desk at the door (the cap,
//! ticks kept across a search, "Tick all shown", who is missing, a drop
//! that asks first, a finished event with nothing stale) and a newcomer
//! at the venue who signs up with the venue's code on the way to a
//! practice game.

use super::*;
use crate::events::{create_event, event_body, set_status};
use crate::venue_day::dropped;

both_backends!(
    the_desk_at_the_door_on_a_phone,
    a_newcomer_at_the_venue_signs_up_on_the_way_to_a_game,
    a_new_organiser_flips_a_fourth_edition_setup_on_a_phone,
);

/// The top of an element on the page (not the screen), in CSS pixels.
async fn page_top(client: &Client, selector: &str) -> f64 {
    let top = client
        .execute(
            "const el = document.querySelector(arguments[0]);\
             return el ? el.getBoundingClientRect().top + window.scrollY : null;",
            vec![json!(selector)],
        )
        .await
        .unwrap();
    top.as_f64()
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
}

/// Whether the check-in box of the entry `id` is ticked on the page.
async fn ticked(client: &Client, id: i64) -> bool {
    client
        .execute(
            "const box = document.getElementById(arguments[0]); return !!(box && box.checked);",
            vec![json!(format!("present-{id}"))],
        )
        .await
        .unwrap()
        .as_bool()
        .unwrap()
}

/// Where `name` first appears in `text` (a card's place in the list).
fn place_of(text: &str, name: &str) -> usize {
    text.find(name)
        .unwrap_or_else(|| panic!("{name} is not listed: {text}"))
}

/// Fills in the sign-up form for Nell Newcomer, with a venue code or none.
async fn sign_up_as_nell(client: &Client, venue: &str) {
    fill(client, "display_name", "Nell Newcomer").await;
    fill(client, "email", "nell@example.org").await;
    fill(client, "password", PASSWORD).await;
    fill(client, "venue", venue).await;
}

/// An organiser at the door of a capped event, on a phone with scripts
/// (the desk's progressive enhancement) and one without: the walk-in form
/// comes before the cards, a full event offers to raise the cap instead
/// of "Give a place", a search keeps the ticks, "Tick all shown" ticks
/// the players found (with scripts at once, without them through the
/// server), the not-checked-in filter and the absentees-first order show
/// who is missing, Drop asks first, and once the event is finished no
/// button that would be refused is left.
async fn the_desk_at_the_door_on_a_phone(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-desk", backend.name());
    app.create_account("desk-to@example.org", "Desk Organiser", false)
        .await;
    let to = app.api_client("desk-to@example.org").await;
    let mut body = event_body("Doors open");
    body["player_cap"] = json!(5);
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    let mut ids = std::collections::BTreeMap::new();
    for (email, name) in [
        ("ada@example.org", "Ada Hill"),
        ("bea@example.org", "Bea Harbour"),
        ("cy@example.org", "Cy Hill"),
    ] {
        app.create_account(email, name, false).await;
        let (status, entry) = app
            .api_client(email)
            .await
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(status, 201, "{entry}");
        ids.insert(name, entry["id"].as_i64().unwrap());
    }

    let mut driver = Driver::start();
    let phone = driver.session().await;
    sign_in(&phone, &app, "desk-to@example.org").await;
    let players_url = app.url(&format!("/events/{event}/players"));
    visit(&phone, &players_url).await;
    assert!(
        page_top(&phone, "#walk-in").await < page_top(&phone, "#entries").await,
        "the walk-in form comes before the cards"
    );
    // Two walk-ins at the desk fill the last places.
    for (name, club) in [("Di Harbour", "Harbour Club"), ("Ed Hill", "")] {
        fill(&phone, "name", name).await;
        fill(&phone, "club", club).await;
        click_button(&phone, "Add the player").await;
    }
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    for player in detail["players"].as_array().unwrap() {
        let name = player["name"].as_str().unwrap_or_default();
        if let Some(name) = ["Di Harbour", "Ed Hill"].into_iter().find(|n| *n == name) {
            ids.insert(name, player["id"].as_i64().unwrap());
        }
    }
    assert_eq!(ids.len(), 5, "{detail}");
    // A sixth player waits: the event is full, and the desk says how to
    // make room rather than offering a place it would refuse.
    app.create_account("fay@example.org", "Fay Late", false)
        .await;
    let (status, entry) = app
        .api_client("fay@example.org")
        .await
        .post(&format!("/events/{event}/register"), json!({}))
        .await;
    assert_eq!(status, 201, "{entry}");
    visit(&phone, &players_url).await;
    let text = body_text(&phone).await;
    assert!(
        text.contains("The event is full: raise the cap to give Fay Late a place."),
        "{text}"
    );
    assert!(
        phone
            .find(Locator::Css("button[aria-label=\"Give Fay Late a place\"]"))
            .await
            .is_err(),
        "no Give a place on a full event"
    );
    check_page(&phone, &format!("{prefix}-01-full")).await;

    // Ada is ticked, then the organiser looks for the harbour players:
    // Ada's tick survives the search, and "Tick all shown" ticks the two
    // found, without a page load.
    phone
        .find(Locator::Css(&format!("#present-{}", ids["Ada Hill"])))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    fill(&phone, "q", "harbour").await;
    click_button(&phone, "Find").await;
    let text = body_text(&phone).await;
    assert!(text.contains("matching “harbour”"), "{text}");
    assert!(text.contains("1 ticked."), "Ada's tick is kept: {text}");
    assert!(!text.contains("Ada Hill"), "{text}");
    phone
        .find(Locator::XPath(
            "//button[normalize-space(.)=\"Tick all shown\"]",
        ))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    for name in ["Bea Harbour", "Di Harbour"] {
        assert!(ticked(&phone, ids[name]).await, "{name} is ticked");
    }
    let text = body_text(&phone).await;
    assert!(
        text.contains("3 ticked."),
        "the count follows the ticks: {text}"
    );
    check_page(&phone, &format!("{prefix}-02-search")).await;
    click_button(&phone, "Check in the ticked players").await;
    let text = body_text(&phone).await;
    assert!(text.contains("3 players checked in."), "{text}");
    assert!(text.contains("3 of 5 checked in"), "{text}");

    // Who is missing: the filter shows Cy and Ed only; everyone's list
    // puts them first.
    set_value(&phone, "show", "not-checked-in").await;
    fill(&phone, "q", "").await;
    click_button(&phone, "Find").await;
    let text = body_text(&phone).await;
    let cards = &text[place_of(&text, "Showing")..];
    for (name, listed) in [
        ("Cy Hill", true),
        ("Ed Hill", true),
        ("Ada Hill", false),
        ("Bea Harbour", false),
    ] {
        assert_eq!(cards.contains(name), listed, "{name}: {text}");
    }
    check_page(&phone, &format!("{prefix}-03-missing")).await;
    visit(&phone, &players_url).await;
    let text = body_text(&phone).await;
    assert!(
        place_of(&text, "Ed Hill") < place_of(&text, "Ada Hill")
            && place_of(&text, "Cy Hill") < place_of(&text, "Bea Harbour"),
        "absentees first: {text}"
    );

    // Without scripts "Tick all shown" goes through the server and ticks
    // the same players.
    let plain = driver.session_without_scripts().await;
    sign_in(&plain, &app, "desk-to@example.org").await;
    visit(&plain, &players_url).await;
    fill(&plain, "q", "hill").await;
    click_button(&plain, "Tick all shown").await;
    for (name, expected) in [("Cy Hill", true), ("Ed Hill", true)] {
        assert_eq!(ticked(&plain, ids[name]).await, expected, "{name}");
    }
    click_button(&plain, "Check in the ticked players").await;
    let text = body_text(&plain).await;
    assert!(text.contains("2 players checked in."), "{text}");
    plain.close().await.unwrap();

    // Running: Drop asks first, Cancel changes nothing, the second time
    // the organiser confirms.
    set_status(&to, event, "running").await;
    let bea = ids["Bea Harbour"];
    let drop_link = "a[aria-label=\"Drop Bea Harbour…\"]";
    for confirm in [false, true] {
        visit(&phone, &players_url).await;
        let href = phone
            .find(Locator::Css(drop_link))
            .await
            .unwrap_or_else(|e| panic!("no Drop… for Bea: {e}"))
            .attr("href")
            .await
            .unwrap()
            .unwrap();
        visit(&phone, &app.url(&href)).await;
        let text = body_text(&phone).await;
        assert!(text.contains("Drop Bea Harbour from this event?"), "{text}");
        if confirm {
            click_button(&phone, "Drop the player").await;
        } else {
            check_page(&phone, &format!("{prefix}-04-drop")).await;
            follow_link(&phone, "Cancel").await;
            let url = phone.current_url().await.unwrap();
            assert!(url.path().ends_with("/players"), "{url}");
            let (_, detail) = to.get(&format!("/events/{event}")).await;
            assert!(!dropped(&detail, bea), "asking changes nothing: {detail}");
        }
    }
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    assert!(dropped(&detail, bea), "{detail}");

    // Finished: the entries stay, nothing that would be refused is offered,
    // and the overview speaks to the organiser as the organiser.
    set_status(&to, event, "finished").await;
    visit(&phone, &players_url).await;
    let text = body_text(&phone).await;
    for stale in [
        "Undo check-in",
        "Undo drop",
        "Drop…",
        "Check in the ticked players",
        "Tick all shown",
        "Add the player",
        "Give a place",
    ] {
        assert!(!text.contains(stale), "{stale} on a finished event: {text}");
    }
    assert!(
        text.contains("The event is finished") && text.contains("Ada Hill"),
        "{text}"
    );
    check_page(&phone, &format!("{prefix}-05-finished")).await;
    visit(&phone, &app.url(&format!("/events/{event}"))).await;
    let text = body_text(&phone).await;
    assert!(!text.contains("ask the organiser"), "{text}");
    phone.close().await.unwrap();
}

/// A newcomer at the venue, on a phone on the venue's network, where ten
/// accounts were already made this hour: "Play a practice game" sends
/// them to sign in, they make an account instead, the network's limit
/// refuses it in words, today's venue code from the organiser lets it
/// through, and signing in carries them on to the practice page, which
/// speaks of both editions and points at lists they can use.
async fn a_newcomer_at_the_venue_signs_up_on_the_way_to_a_game(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-newcomer", backend.name());
    let (_, desk) = app.user("door-to@example.org", "Door Organiser").await;
    let to = app.api_client("door-to@example.org").await;
    let event = create_event(&to, event_body("Open doors")).await;
    set_status(&to, event, "registration").await;
    let code = crate::venue_day::venue_code(&desk, event).await;
    // Ten accounts from this address within the hour: the network's share.
    let room = app.new_client();
    for n in 0..10 {
        let (name, email) = (format!("Guest {n}"), format!("guest{n}@example.org"));
        let response = room
            .post_form(
                "/signup",
                &[
                    ("display_name", name.as_str()),
                    ("email", email.as_str()),
                    ("password", PASSWORD),
                ],
            )
            .await;
        assert_eq!(response.status(), 303, "guest {n}");
    }

    let mut driver = Driver::start();
    let phone = driver.session().await;
    visit(&phone, &app.url("/")).await;
    follow_link(&phone, "Play a practice game").await;
    assert!(
        phone.current_url().await.unwrap().path() == "/signin",
        "a visitor is asked to sign in first"
    );
    follow_link(&phone, "Create one").await;
    sign_up_as_nell(&phone, "").await;
    click_button(&phone, "Create account").await;
    let text = body_text(&phone).await;
    assert!(
        text.contains("Too many accounts were created from this network"),
        "{text}"
    );
    check_page(&phone, &format!("{prefix}-01-refused")).await;
    sign_up_as_nell(&phone, &code).await;
    click_button(&phone, "Create account").await;
    let text = body_text(&phone).await;
    assert!(text.contains("Check your email"), "{text}");
    check_page(&phone, &format!("{prefix}-02-check-email")).await;
    follow_link(&phone, "Sign in and carry on").await;
    fill(&phone, "email", "nell@example.org").await;
    fill(&phone, "password", PASSWORD).await;
    click_button(&phone, "Sign in").await;
    assert_eq!(phone.current_url().await.unwrap().path(), "/play");
    let text = body_text(&phone).await;
    assert!(text.contains("4th or 3rd edition"), "{text}");
    assert!(!text.contains("content/m4e"), "{text}");
    check_page(&phone, &format!("{prefix}-03-practice")).await;
    phone.close().await.unwrap();
}

/// A new organiser flips a 4th edition setup on a fresh install: the
/// shipped pool names a strategy, deployment and schemes (not only suits),
/// says it is not a published season, and the page says how to enter the
/// current season instead.
async fn a_new_organiser_flips_a_fourth_edition_setup_on_a_phone(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    let mut driver = Driver::start();
    let phone = driver.session().await;
    visit(&phone, &app.url("/setup")).await;
    set_value(&phone, "edition", "m4e").await;
    click_button(&phone, "Flip").await;
    let text = body_text(&phone).await;
    assert!(text.contains("Soulstone's own season"), "{text}");
    assert!(text.contains("not a published season"), "{text}");
    assert!(!text.contains("season's Masks strategy"), "{text}");
    let hint = phone
        .find(Locator::Css(".season-hint"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        hint.contains("current Gaining Grounds season") && hint.contains("type it in"),
        "{hint}"
    );
    let import = phone
        .find(Locator::Css(".season-hint a[href=\"/pools/import\"]"))
        .await;
    assert!(import.is_ok(), "the hint links the import page");
    check_page(&phone, &format!("{}-setup-m4e", backend.name())).await;
    phone.close().await.unwrap();
}
