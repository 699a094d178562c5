//! Content packs through the web, on both backends: an upload with a
//! problem is refused whole with the file, line and field named and
//! nothing kept; a fixed one is kept as a version named by its hash and
//! pinned for the event; only the organiser uploads and pins, and not once
//! the rounds have begun; a practice game in the event's context hires a
//! model of the pack, and the game's log records the hashes it was made
//! with; a list saved from the event's builder, and a league's game by
//! invitation, use the event's cards too.

use serde_json::json;
use soulstone::content::pack::{PackFiles, Upload};
use soulstone::events::Actor;
use soulstone::packs::{self, PackError, PackScope};

use crate::events::{create_event, event_body, set_status};
use crate::support::{Backend, TestApp, TestClient, location};

both_backends!(
    a_pack_with_a_problem_is_refused_whole_and_a_fixed_one_is_pinned,
    only_the_organiser_changes_the_cards_and_not_once_rounds_begin,
    a_practice_game_for_the_event_hires_a_pack_model_and_records_the_hashes,
    a_saved_list_and_a_league_invitation_play_with_the_event_cards,
);

/// A Guild minion of the pack's own (`df` given as `df_value`).
pub(crate) fn watchman(df_value: &str) -> String {
    format!(
        r#"edition = "m4e"
name = "Harbour Watchman"
station = "minion"
limit = 2
characteristics = ["living"]
factions = ["Guild"]
keywords = ["Lamplighter"]
cost = 5
base = 30
df = {df_value}
wp = 4
sz = 2
sp = 5
health = 6

[[actions]]
name = "Boathook"
kind = "melee"
range = 2
skill = 5
resist = "df"
damage = 2
"#
    )
}

fn upload_of(name: &str, text: &str) -> Upload {
    Upload {
        name: name.into(),
        bytes: text.as_bytes().to_vec(),
    }
}

fn actor(account_id: i64) -> Actor {
    Actor {
        account_id,
        is_admin: false,
        confirmed: true,
    }
}

/// Uploads `files` for `event` as `owner` through the service.
async fn upload_for(
    app: &TestApp,
    content: &std::sync::Arc<soulstone::content::ServerContent>,
    event: i64,
    owner: i64,
    name: &'static str,
    files: PackFiles,
) -> Result<packs::Uploaded, PackError> {
    let content = std::sync::Arc::clone(content);
    app.with_conn(move |conn| {
        packs::upload(
            conn,
            &content,
            PackScope::Event(event),
            actor(owner),
            name,
            &files,
            chrono::Utc::now().naive_utc(),
        )
    })
    .await
}

async fn pack_rows(app: &TestApp) -> i64 {
    app.with_conn(|conn| {
        use diesel::prelude::*;
        soulstone::db::schema::content_packs::table
            .count()
            .get_result::<i64>(conn)
            .expect("counted")
    })
    .await
}

async fn a_pack_with_a_problem_is_refused_whole_and_a_fixed_one_is_pinned(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.create_account("to@example.org", "TO", false).await;
    let api = app.api_client("to@example.org").await;
    let event = create_event(&api, event_body("Harbour Cup")).await;
    let content = std::sync::Arc::new(soulstone::content::ServerContent::shipped());

    // A card with a wrong field: every problem named, nothing kept.
    let broken = PackFiles::read(vec![upload_of(
        "harbour-watchman.toml",
        &watchman("\"five\""),
    )])
    .expect("the files are read");
    let refused = upload_for(&app, &content, event, owner, "Harbour", broken).await;
    let Err(PackError::Invalid(problems)) = refused else {
        panic!("refused as invalid: {refused:?}");
    };
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].file, "harbour-watchman.toml");
    assert_eq!(problems[0].line, Some(10), "{problems:?}");
    assert_eq!(problems[0].field, "df", "{problems:?}");
    assert_eq!(pack_rows(&app).await, 0, "nothing of it is kept");

    // A card named like a shipped one is refused too.
    let clash = PackFiles::read(vec![upload_of(
        "clash.toml",
        &watchman("5").replace("Harbour Watchman", "Lamplighter"),
    )])
    .expect("read");
    let refused = upload_for(&app, &content, event, owner, "Clash", clash).await;
    assert!(
        matches!(&refused, Err(PackError::Invalid(p)) if p[0].file == "clash.toml"),
        "{refused:?}"
    );

    // Fixed: kept, named by its hash, pinned; the event's cards hire it.
    let fixed =
        PackFiles::read(vec![upload_of("harbour-watchman.toml", &watchman("5"))]).expect("read");
    let hash = fixed.hash();
    let shared = std::sync::Arc::clone(&content);
    let again = fixed.clone();
    let (first, second, cards) = app
        .with_conn(move |conn| {
            let now = chrono::Utc::now().naive_utc();
            let first = packs::upload(
                conn,
                &shared,
                PackScope::Event(event),
                actor(owner),
                "Harbour",
                &fixed,
                now,
            )
            .expect("kept");
            let second = packs::upload(
                conn,
                &shared,
                PackScope::Event(event),
                actor(owner),
                "Harbour again",
                &again,
                now,
            )
            .expect("kept");
            let cards = packs::event_cards(conn, &shared, event, Some(actor(owner)))
                .expect("the event's cards");
            (first, second, cards)
        })
        .await;
    assert_eq!(first.version.hash, hash);
    assert!(first.pinned && !first.already_kept);
    assert_eq!(first.version.cards, 1);
    assert!(second.already_kept, "the same files are one version");
    assert_eq!(second.version.id, first.version.id);
    assert_eq!(pack_rows(&app).await, 1);
    assert!(
        cards
            .catalog
            .card(soulstone_engine::Edition::Fourth, "Harbour Watchman")
            .is_some(),
        "the event's cards hold the pack's"
    );
    assert_eq!(cards.stamp.pack_hash.as_deref(), Some(hash.as_str()));
    assert_eq!(cards.stamp.content_hash, content.hash);
    assert!(
        content
            .catalog
            .card(soulstone_engine::Edition::Fourth, "Harbour Watchman")
            .is_none(),
        "the server's own cards do not"
    );
}

async fn only_the_organiser_changes_the_cards_and_not_once_rounds_begin(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("to@example.org", "TO", false).await;
    let (other, other_client) = app.user("player@example.org", "Player").await;
    let organiser = app.signed_in_client("to@example.org").await;
    let api = app.api_client("to@example.org").await;
    let event = create_event(&api, event_body("Harbour Cup")).await;
    set_status(&api, event, "registration").await;
    let content = std::sync::Arc::new(soulstone::content::ServerContent::shipped());
    let files = PackFiles::read(vec![upload_of("w.toml", &watchman("5"))]).expect("read");

    let by_other = upload_for(&app, &content, event, other, "Mine", files).await;
    assert!(
        matches!(by_other, Err(PackError::Forbidden(_))),
        "{by_other:?}"
    );
    // Through the web, a player's upload is refused before it is read.
    let page = format!("/events/{event}/pack");
    let refused = upload(&other_client, &page, "Mine", "w.toml", &watchman("5")).await;
    assert_eq!(refused.status().as_u16(), 403);
    assert_eq!(pack_rows(&app).await, 0);
    // A site admin's upload is a player's page away for nobody else.
    let site = upload(&organiser, "/admin/packs", "Site", "w.toml", &watchman("5")).await;
    assert_eq!(site.status().as_u16(), 403);

    // The organiser uploads through the page: pinned at once.
    let response = upload(&organiser, &page, "Harbour", "w.toml", &watchman("5")).await;
    assert_eq!(response.status().as_u16(), 303, "{}", location(&response));
    let (_, shown) = organiser.get_text(&page).await;
    assert!(shown.contains("of <strong>Harbour</strong>"), "pinned");
    // Unpinned again while there is no round.
    let back = organiser
        .post_form(&format!("{page}/pin"), &[("pack", "")])
        .await;
    assert_eq!(back.status().as_u16(), 303);
    let (_, shown) = organiser.get_text(&page).await;
    assert!(shown.contains("The server's own cards, with no pack."));

    // Once round 1 is paired, the cards no longer change.
    for n in 0..2 {
        let email = format!("p{n}@example.org");
        app.create_account(&email, &format!("P{n}"), false).await;
        let player = app.api_client(&email).await;
        let (code, body) = player
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(code, 201, "{body}");
        let id = body["id"].as_i64().expect("an entry");
        let (code, _) = api
            .post(
                &format!("/events/{event}/players/{id}/check-in"),
                json!({"checked_in": true}),
            )
            .await;
        assert_eq!(code, 204);
    }
    set_status(&api, event, "running").await;
    let (code, body) = api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert!(code < 300, "{code}: {body}");
    let pack_id = app
        .with_conn(move |conn| {
            soulstone::db::packs::packs_for_event(conn, event).expect("versions")[0].id
        })
        .await;
    let refused = organiser
        .post_form(&format!("{page}/pin"), &[("pack", &pack_id.to_string())])
        .await;
    assert_eq!(refused.status().as_u16(), 422);
    let text = refused.text().await.expect("the page");
    assert!(text.contains("no longer change"), "says why");
    let (_, shown) = organiser.get_text(&page).await;
    assert!(
        shown.contains("The server's own cards, with no pack."),
        "unchanged"
    );
}

/// Sends a pack page's upload form with one file.
async fn upload(
    client: &TestClient,
    page: &str,
    name: &str,
    file_name: &str,
    text: &str,
) -> reqwest::Response {
    let token = client.csrf_token().await;
    let form = reqwest::multipart::Form::new()
        .text("csrf_token", token)
        .text("name", name.to_owned())
        .part(
            "files",
            reqwest::multipart::Part::text(text.to_owned()).file_name(file_name.to_owned()),
        );
    client
        .http
        .post(client.url(page))
        .multipart(form)
        .send()
        .await
        .expect("sent")
}

async fn a_practice_game_for_the_event_hires_a_pack_model_and_records_the_hashes(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("to@example.org", "TO", false).await;
    let organiser = app.signed_in_client("to@example.org").await;
    let (_, player) = app.user("player@example.org", "Player").await;
    let api = app.api_client("to@example.org").await;
    let event = create_event(&api, event_body("Harbour Cup")).await;
    set_status(&api, event, "registration").await;
    let page = format!("/events/{event}/pack");

    // The broken pack's problems are on the page; nothing is loaded.
    let refused = upload(
        &organiser,
        &page,
        "Harbour",
        "w.toml",
        &watchman("\"five\""),
    )
    .await;
    assert_eq!(refused.status().as_u16(), 422);
    let text = refused.text().await.expect("the page");
    assert!(
        text.contains("<code>w.toml</code>, line 10, field <code>df</code>"),
        "{text}"
    );
    assert!(text.contains("value=\"Harbour\""), "the name is kept");
    assert_eq!(pack_rows(&app).await, 0);
    let fixed = upload(&organiser, &page, "Harbour", "w.toml", &watchman("5")).await;
    assert_eq!(fixed.status().as_u16(), 303);

    // The card has a page in the event's context, and none outside it.
    let (status, card) = player
        .get_text(&format!("/cards/m4e/harbour-watchman?event={event}"))
        .await;
    assert_eq!(status, 200);
    assert!(card.contains("Boathook"));
    assert_eq!(player.get_text("/cards/m4e/harbour-watchman").await.0, 404);

    let list = "Edition: m4e\nFaction: Guild\nLeader: Odessa Vane, Lamplighter Marshal\nSize: 50\n- Wickling\n- Harbour Watchman\n- Lamplighter x3\n";
    // Outside the event the model is unknown: refused, nothing started.
    let outside = player
        .post_form("/play/practice", &[("own_list", list), ("bot", "random")])
        .await;
    assert_eq!(outside.status().as_u16(), 422);
    let text = outside.text().await.expect("the page");
    assert!(
        text.contains("Harbour Watchman"),
        "the unknown card is named"
    );
    let event_text = event.to_string();
    let started = player
        .post_form(
            "/play/practice",
            &[
                ("own_list", list),
                ("bot", "random"),
                ("event", &event_text),
            ],
        )
        .await;
    let status = started.status().as_u16();
    if status != 303 {
        let text = started.text().await.unwrap_or_default();
        let at = text.find("flash-error").unwrap_or(0);
        panic!("{status}: {}", &text[at..(at + 400).min(text.len())]);
    }
    let game: i64 = location(&started)
        .trim_start_matches("/games/")
        .parse()
        .expect("a game");
    let (content_hash, pack_hash, setup) = app
        .with_conn(move |conn| {
            let row = soulstone::db::hosted::find_game(conn, game)
                .expect("read")
                .expect("the game");
            (row.content_hash, row.pack_hash, row.setup)
        })
        .await;
    let shipped = soulstone::content::ServerContent::shipped();
    assert_eq!(content_hash.as_deref(), Some(shipped.hash.as_str()));
    let expected = PackFiles::read(vec![upload_of("w.toml", &watchman("5"))])
        .expect("read")
        .hash();
    assert_eq!(pack_hash.as_deref(), Some(expected.as_str()));
    assert!(
        setup.contains("Harbour Watchman"),
        "the pack's model is one of the player's offered crew"
    );
}

/// A list with a pack's model, saved from an event's builder, is kept with
/// the event: the saved lists page appraises it with the event's cards and
/// sends it to practice in the event's context. A league's invitation with
/// that list is made and accepted with the league's cards, and the game
/// records the pack's hash.
async fn a_saved_list_and_a_league_invitation_play_with_the_event_cards(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("to@example.org", "TO", false).await;
    let organiser = app.signed_in_client("to@example.org").await;
    let api = app.api_client("to@example.org").await;
    let mut body = event_body("Harbour League");
    body["format"] = json!("league");
    body["league_mode"] = json!("open");
    let event = create_event(&api, body).await;
    set_status(&api, event, "registration").await;
    let pinned = upload(
        &organiser,
        &format!("/events/{event}/pack"),
        "Harbour",
        "w.toml",
        &watchman("5"),
    )
    .await;
    assert_eq!(pinned.status().as_u16(), 303);
    let (_, ana) = app.user("ana@example.org", "Ana Inviter").await;
    let (_, ben) = app.user("ben@example.org", "Ben Guest").await;
    for email in ["ana@example.org", "ben@example.org"] {
        let (code, entry) = app
            .api_client(email)
            .await
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(code, 201, "{entry}");
    }
    set_status(&api, event, "running").await;

    let text = "Edition: m4e\nFaction: Guild\nLeader: Odessa Vane, Lamplighter Marshal\nSize: 50\n- Wickling\n- Harbour Watchman\n- Lamplighter x3\n";
    let list = soulstone_engine::content::crew::CrewList::parse(text).expect("a list");
    let list_json = serde_json::to_string(&list).expect("json");
    let event_text = event.to_string();
    let saved = ana
        .post_form(
            "/crews",
            &[
                ("list", list_json.as_str()),
                ("name", "Harbour patrol"),
                ("event", &event_text),
            ],
        )
        .await;
    assert_eq!(saved.status().as_u16(), 303);
    let (_, page) = ana.get_text("/crews").await;
    assert!(
        page.contains(&format!(
            "<a href=\"/events/{event}\">Harbour League</a>'s cards"
        )),
        "{page}"
    );
    assert!(
        !page.contains("crew-broken"),
        "hired with the event's cards: {page}"
    );
    assert!(page.contains(&format!("event={event}")), "{page}");
    // Offered to bring, it says its cards may be an event's.
    let (_, form) = ana.get_text("/play/invite").await;
    assert!(
        form.contains("Harbour patrol\u{201d} (Odessa Vane, Lamplighter Marshal")
            && form.contains("written with an event"),
        "{form}"
    );

    // The league's invitation hires the pack's model; so does accepting it.
    let made = ana
        .post_form(
            "/play/invite",
            &[("own_list", text), ("league", &event_text)],
        )
        .await;
    let status = made.status().as_u16();
    if status != 303 {
        let page = made.text().await.unwrap_or_default();
        let at = page.find("flash-error").unwrap_or(0);
        panic!("{status}: {}", &page[at..(at + 400).min(page.len())]);
    }
    let link = location(&made);
    let accepted = ben
        .post_form(&format!("{link}/accept"), &[("crew", "tidewright-50")])
        .await;
    assert_eq!(accepted.status().as_u16(), 303);
    let game: i64 = location(&accepted)
        .trim_start_matches("/games/")
        .parse()
        .expect("a game");
    let (pack_hash, setup) = pack_and_setup(&app, game).await;
    let expected = PackFiles::read(vec![upload_of("w.toml", &watchman("5"))])
        .expect("read")
        .hash();
    assert_eq!(pack_hash.as_deref(), Some(expected.as_str()));
    assert!(setup.contains("Harbour Watchman"), "{setup}");
}

/// The pack version hosted game `game` recorded, and its setup.
pub(crate) async fn pack_and_setup(app: &TestApp, game: i64) -> (Option<String>, String) {
    app.with_conn(move |conn| {
        let row = soulstone::db::hosted::find_game(conn, game)
            .expect("read")
            .expect("the game");
        (row.pack_hash, row.setup)
    })
    .await
}
