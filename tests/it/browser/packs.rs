//! A content pack on a phone: an organiser uploads a pack with a mistake,
//! reads the file, line and field of it with nothing loaded, uploads the
//! fixed file, and a player practises in the event's context with a model
//! of the pack in their crew.

use fantoccini::{Client, Locator};

use super::{Driver, body_text, check_page, click_button, fill, set_value, sign_in, visit};
use crate::events::{create_event, event_body, set_status};
use crate::packs::watchman;
use crate::support::{Backend, TestApp};

both_backends!(an_organiser_loads_a_pack_and_a_player_practises_with_it);

/// Chooses `path` in the page's file input.
async fn choose_file(client: &Client, path: &std::path::Path) {
    client
        .find(Locator::Css("input[type=file]"))
        .await
        .expect("the file input")
        .send_keys(&path.display().to_string())
        .await
        .expect("the file is chosen");
}

async fn an_organiser_loads_a_pack_and_a_player_practises_with_it(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    app.create_account("pia@example.org", "Pia Player", false)
        .await;
    let api = app.api_client("to@example.org").await;
    let event = create_event(&api, event_body("Harbour Cup")).await;
    set_status(&api, event, "registration").await;
    let files = tempfile::tempdir().expect("a folder");
    let card = files.path().join("harbour-watchman.toml");

    let mut driver = Driver::start();
    let client = &driver.session().await;
    let prefix = format!("{}-packs", backend.name());
    sign_in(client, &app, "to@example.org").await;
    visit(client, &app.url(&format!("/events/{event}"))).await;
    client
        .find(Locator::LinkText("Cards and content pack"))
        .await
        .expect("the organiser's link")
        .click()
        .await
        .expect("followed");
    super::wait_until_loaded(client).await;

    // A mistake: named with its file, line and field; nothing is loaded.
    std::fs::write(&card, watchman("\"five\"")).expect("written");
    fill(client, "name", "Harbour club").await;
    choose_file(client, &card).await;
    click_button(client, "Check and upload").await;
    let text = body_text(client).await;
    assert!(
        text.contains("harbour-watchman.toml, line 10, field df:"),
        "{text}"
    );
    assert!(text.contains("nothing of it is kept"), "{text}");
    assert!(
        text.contains("The server's own cards, with no pack."),
        "{text}"
    );
    check_page(client, &format!("{prefix}-refused")).await;

    // Fixed, uploaded again (the name is kept): pinned for the event.
    std::fs::write(&card, watchman("5")).expect("written");
    choose_file(client, &card).await;
    click_button(client, "Check and upload").await;
    let text = body_text(client).await;
    assert!(text.contains("is checked and kept as version"), "{text}");
    assert!(text.contains("The event now plays with it."), "{text}");
    assert!(text.contains("of Harbour club: 1 stat cards"), "{text}");
    check_page(client, &format!("{prefix}-pinned")).await;

    // A player practises with the event's cards.
    client.delete_all_cookies().await.expect("signed out");
    sign_in(client, &app, "pia@example.org").await;
    visit(client, &app.url(&format!("/events/{event}"))).await;
    client
        .find(Locator::LinkText("practise with them"))
        .await
        .expect("the player's link")
        .click()
        .await
        .expect("followed");
    super::wait_until_loaded(client).await;
    let text = body_text(client).await;
    assert!(text.contains("With the cards of Harbour Cup"), "{text}");
    fill(
        client,
        "own_list",
        "Edition: m4e\nFaction: Guild\nLeader: Odessa Vane, Lamplighter Marshal\nSize: 50\n- Wickling\n- Harbour Watchman x2\n- Lamplighter x3\n",
    )
    .await;
    set_value(client, "bot", "random").await;
    check_page(client, &format!("{prefix}-practice")).await;
    click_button(client, "Start the game").await;
    let url = client.current_url().await.expect("an address");
    let game: i64 = url
        .path()
        .trim_start_matches("/games/")
        .parse()
        .unwrap_or_else(|_| panic!("a game's page: {url}"));
    let (pack_hash, setup) = crate::packs::pack_and_setup(&app, game).await;
    assert!(pack_hash.is_some(), "the game records the pack's version");
    let offered = setup.matches("\"name\":\"Harbour Watchman\"").count();
    assert_eq!(offered, 2, "both Watchmen are in the player's crew");
    check_page(client, &format!("{prefix}-game")).await;
}
