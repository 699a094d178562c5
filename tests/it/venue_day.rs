//! The day of the event, as the organiser at the desk meets it: the cap
//! holds when a waitlisted player is given a place (one tap or two at
//! once), the desk keeps its ticks across a search and shows who is still
//! missing, a drop is confirmed, a finished event offers nothing that
//! would be refused, and a venue's shared address can sign up and sign in
//! a room.

use serde_json::{Value, json};

use crate::events::{create_event, event_body, set_status};
use crate::support::{ApiClient, Backend, PASSWORD, TestApp, TestClient, location};

both_backends!(
    giving_a_place_stops_at_the_cap,
    the_desk_keeps_its_ticks_and_shows_who_is_missing,
    a_drop_is_confirmed_and_a_finished_event_offers_nothing_stale,
    a_venue_code_opens_sign_up_to_the_room_for_its_day,
    the_venue_pass_lets_the_room_sign_in_past_one_persons_mistakes,
);

/// Each entry of the event's API detail: (name, status, id).
async fn entries(to: &ApiClient, event: i64) -> Vec<(String, String, i64)> {
    let (_, detail) = to.get(&format!("/events/{event}")).await;
    detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["status"].as_str().unwrap().to_owned(),
                p["id"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn id_of(entries: &[(String, String, i64)], name: &str) -> i64 {
    entries
        .iter()
        .find(|(n, _, _)| n == name)
        .unwrap_or_else(|| panic!("no entry {name}: {entries:?}"))
        .2
}

fn registered(entries: &[(String, String, i64)]) -> usize {
    entries.iter().filter(|(_, s, _)| s == "registered").count()
}

async fn walk_in(to: &ApiClient, event: i64, name: &str, club: &str) -> i64 {
    let (status, entry) = to
        .post(
            &format!("/events/{event}/players"),
            json!({"name": name, "club": club}),
        )
        .await;
    assert_eq!(status, 201, "{entry}");
    entry["id"].as_i64().unwrap()
}

async fn check_in(to: &ApiClient, event: i64, id: i64) {
    let (status, body) = to
        .post(
            &format!("/events/{event}/players/{id}/check-in"),
            json!({"checked_in": true}),
        )
        .await;
    assert!(status < 300, "{body}");
}

/// "Give a place" on a full event is refused with a way forward (raise
/// the cap), and two taps for the last place give it once. The event is
/// made through the API with neither a visibility nor scoring figures:
/// the documented defaults.
async fn giving_a_place_stops_at_the_cap(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, desk) = app.user("cap-to@example.org", "Cap TO").await;
    let to = app.api_client("cap-to@example.org").await;
    let mut body = event_body("Full house");
    let fields = body.as_object_mut().unwrap();
    for left_out in [
        "visibility",
        "points_win",
        "points_draw",
        "points_loss",
        "bye_scored",
        "bye_conceded",
    ] {
        fields.remove(left_out);
    }
    body["player_cap"] = json!(3);
    let event = create_event(&to, body).await;
    let (visibility, scoring) = app
        .with_conn(move |conn| {
            let row = soulstone::db::events::find_event(conn, event)
                .unwrap()
                .unwrap();
            (row.visibility, row.settings)
        })
        .await;
    assert_eq!(visibility, "public");
    let scoring: Value = serde_json::from_str(&scoring).unwrap();
    assert_eq!(
        scoring["scoring"],
        json!({"win": 3, "draw": 1, "loss": 0, "bye_scored": 5, "bye_conceded": 0}),
        "{scoring}"
    );
    set_status(&to, event, "registration").await;
    for i in 1..=5 {
        let email = format!("cap{i}@example.org");
        app.create_account(&email, &format!("Cap {i}"), false).await;
        let (status, entry) = app
            .api_client(&email)
            .await
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(status, 201, "{entry}");
    }
    let players = format!("/events/{event}/players");
    let list = entries(&to, event).await;
    assert_eq!(registered(&list), 3, "{list:?}");

    // Full: the page offers to raise the cap instead of the button, and a
    // tap anyway is refused in words, changing nothing.
    let (_, html) = desk.get_text(&players).await;
    assert!(
        !html.contains("aria-label=\"Give Cap 4 a place\""),
        "{html}"
    );
    assert!(html.contains("raise the cap"), "{html}");
    let cap4 = id_of(&list, "Cap 4");
    let cap5 = id_of(&list, "Cap 5");
    let response = desk
        .post_form(&format!("{players}/{cap4}/promote"), &[])
        .await;
    assert_eq!(response.status(), 303);
    let (_, html) = desk.get_text(&location(&response)).await;
    assert!(html.contains("The event is full (3 of 3 places)"), "{html}");
    assert_eq!(registered(&entries(&to, event).await), 3);

    // Running, one entry removed before round 1: one place is free. The
    // organiser (on two devices) gives it to both waiting players at once:
    // one gets it, the other is refused.
    for (_, status, id) in &list {
        if status == "registered" {
            check_in(&to, event, *id).await;
        }
    }
    set_status(&to, event, "running").await;
    let cap1 = id_of(&list, "Cap 1");
    let response = desk
        .post_form(&format!("{players}/{cap1}/remove"), &[])
        .await;
    assert_eq!(response.status(), 303);
    assert_eq!(registered(&entries(&to, event).await), 2);
    let second_device = app.signed_in_client("cap-to@example.org").await;
    let (first, second) = futures_util::future::join(
        desk.post_form(&format!("{players}/{cap4}/promote"), &[]),
        second_device.post_form(&format!("{players}/{cap5}/promote"), &[]),
    )
    .await;
    assert_eq!(
        (first.status().as_u16(), second.status().as_u16()),
        (303, 303)
    );
    let after = entries(&to, event).await;
    assert_eq!(registered(&after), 3, "the cap holds: {after:?}");
    let waiting = after.iter().filter(|(_, s, _)| s == "waitlisted").count();
    assert_eq!(waiting, 1, "{after:?}");
}

/// At the door: absentees come first before round 1, a search keeps what
/// was ticked, "Tick all shown" ticks the players the search shows, a
/// filter shows only who is not checked in, and withdrawn entries leave
/// the list (kept under their own filter).
async fn the_desk_keeps_its_ticks_and_shows_who_is_missing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, desk) = app.user("desk-to@example.org", "Desk TO").await;
    let to = app.api_client("desk-to@example.org").await;
    let event = create_event(&to, event_body("At the desk")).await;
    set_status(&to, event, "registration").await;
    let players = format!("/events/{event}/players");
    let mut ids = Vec::new();
    for (name, club) in [
        ("Ada Hill", "Hill Club"),
        ("Bea Harbour", "Harbour Club"),
        ("Cy Hill", "Hill Club"),
        ("Di Harbour", "Harbour Club"),
        ("Ed Hill", "Hill Club"),
    ] {
        ids.push(walk_in(&to, event, name, club).await);
    }
    app.create_account("gone@example.org", "Gone Player", false)
        .await;
    let gone = app.api_client("gone@example.org").await;
    let (status, _) = gone
        .post(&format!("/events/{event}/register"), json!({}))
        .await;
    assert_eq!(status, 201);
    let leaver = app.signed_in_client("gone@example.org").await;
    let response = leaver
        .post_form(&format!("/events/{event}/withdraw"), &[])
        .await;
    assert_eq!(response.status(), 303);
    // Ada is here already.
    check_in(&to, event, ids[0]).await;

    let (_, html) = desk.get_text(&players).await;
    let at = |name: &str| {
        html.find(&format!("<strong>{name}</strong>"))
            .unwrap_or_else(|| panic!("{name} not listed: {html}"))
    };
    assert!(at("Bea Harbour") < at("Ada Hill"), "absentees first");
    assert!(at("Ed Hill") < at("Ada Hill"), "absentees first");
    assert!(
        !html.contains("<strong>Gone Player</strong>"),
        "a withdrawn entry leaves the list"
    );
    let (_, html) = desk.get_text(&format!("{players}?show=withdrawn")).await;
    assert!(html.contains("<strong>Gone Player</strong>"), "{html}");

    // Cy is ticked, then the organiser searches for the harbour club.
    let cy = format!("present-{}", ids[2]);
    let response = desk
        .post_form(
            &format!("{players}/check-in"),
            &[("desk", "find"), ("q", "harbour"), (&cy, "on")],
        )
        .await;
    assert_eq!(response.status(), 303);
    let found = location(&response);
    let (_, html) = desk.get_text(&found).await;
    assert!(html.contains("Showing 2 of 5 matching “harbour”"), "{html}");
    assert!(
        html.contains(&format!(
            "<input type=\"hidden\" name=\"{cy}\" value=\"on\">"
        )),
        "Cy stays ticked though not shown: {html}"
    );
    // Bea is ticked too: one submission checks in both.
    let bea = format!("present-{}", ids[1]);
    let response = desk
        .post_form(
            &format!("{players}/check-in"),
            &[
                ("desk", "check-in"),
                ("q", "harbour"),
                (&cy, "on"),
                (&bea, "on"),
            ],
        )
        .await;
    assert_eq!(response.status(), 303);
    let (_, html) = desk.get_text(&location(&response)).await;
    assert!(html.contains("2 players checked in."), "{html}");
    assert!(html.contains("3 of 5 checked in"), "{html}");

    // Who is still missing: Di and Ed only.
    let (_, html) = desk
        .get_text(&format!("{players}?show=not-checked-in"))
        .await;
    for (name, listed) in [
        ("Di Harbour", true),
        ("Ed Hill", true),
        ("Ada Hill", false),
        ("Bea Harbour", false),
        ("Cy Hill", false),
    ] {
        assert_eq!(
            html.contains(&format!("<strong>{name}</strong>")),
            listed,
            "{name}: {html}"
        );
    }

    // "Tick all shown" for the hill club ticks Ed (Ada and Cy are here).
    let response = desk
        .post_form(
            &format!("{players}/check-in"),
            &[("desk", "tick-shown"), ("q", "hill")],
        )
        .await;
    assert_eq!(response.status(), 303);
    let (_, html) = desk.get_text(&location(&response)).await;
    let ed_box = format!("name=\"present-{}\"", ids[4]);
    let ed_at = html.find(&ed_box).unwrap_or_else(|| panic!("{html}"));
    let ed_tag = &html[ed_at..ed_at + html[ed_at..].find('>').unwrap()];
    assert!(ed_tag.contains("checked"), "Ed is ticked: {ed_tag}");
    assert!(!html.contains("<strong>Di Harbour</strong>"), "{html}");
}

/// Dropping a player asks first (and Cancel returns to the desk); once
/// the event is finished, the desk offers no button that would be
/// refused, and the overview speaks to the organiser as the organiser.
async fn a_drop_is_confirmed_and_a_finished_event_offers_nothing_stale(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, desk) = app.user("drop-to@example.org", "Drop TO").await;
    let to = app.api_client("drop-to@example.org").await;
    let event = create_event(&to, event_body("Drops")).await;
    set_status(&to, event, "registration").await;
    let players = format!("/events/{event}/players");
    let mut ids = Vec::new();
    for name in ["Fay", "Gil", "Hal", "Ivy"] {
        let id = walk_in(&to, event, name, "").await;
        check_in(&to, event, id).await;
        ids.push(id);
    }
    set_status(&to, event, "running").await;

    let (_, html) = desk.get_text(&players).await;
    assert!(
        !html.contains("aria-label=\"Drop Gil\""),
        "no one-tap drop: {html}"
    );
    let ask = format!("/events/{event}/confirm?action=drop-entry-{}", ids[1]);
    assert!(html.contains(&ask), "{html}");
    let (status, question) = desk.get_text(&ask).await;
    assert_eq!(status, 200);
    assert!(question.contains("Drop Gil from this event?"), "{question}");
    assert!(
        question.contains(&format!("href=\"{players}#reg-{}\"", ids[1])),
        "Cancel goes back to the desk: {question}"
    );
    let (_, before) = to.get(&format!("/events/{event}")).await;
    assert!(!dropped(&before, ids[1]), "asking changes nothing");
    let response = desk
        .post_form(
            &format!("{players}/{}/drop", ids[1]),
            &[("value", "true"), ("back", "players")],
        )
        .await;
    assert_eq!(response.status(), 303);
    let (_, after) = to.get(&format!("/events/{event}")).await;
    assert!(dropped(&after, ids[1]), "{after}");

    // While it runs, the overview sends the organiser to the desk for a
    // late entry rather than to "the organiser".
    let (_, overview) = desk.get_text(&format!("/events/{event}")).await;
    assert!(!overview.contains("ask the organiser"), "{overview}");
    assert!(overview.contains("add a late entry"), "{overview}");

    set_status(&to, event, "finished").await;
    let (_, html) = desk.get_text(&players).await;
    for stale in [
        "Undo check-in",
        "Undo drop",
        ">Drop…<",
        "Check in the ticked players",
        "Add the player",
        "Save declaration",
    ] {
        assert!(!html.contains(stale), "{stale} on a finished event: {html}");
    }
    assert!(html.contains("The event is finished"), "{html}");
    assert!(
        html.contains("<strong>Gil</strong>"),
        "the entries stay listed"
    );
}

/// Today's venue code, read off the event's overview as its organiser
/// (`desk`) sees it.
pub(crate) async fn venue_code(desk: &TestClient, event: i64) -> String {
    let (_, overview) = desk.get_text(&format!("/events/{event}")).await;
    let marker = "/venue/";
    let at = overview
        .find(marker)
        .unwrap_or_else(|| panic!("no venue link for the organiser: {overview}"));
    overview[at + marker.len()..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect()
}

/// Whether the entry `id` is dropped, in the event's API detail.
pub(crate) fn dropped(detail: &Value, id: i64) -> bool {
    detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("{detail}"))["dropped"]
        .as_bool()
        .unwrap_or_else(|| panic!("{detail}"))
}

/// Everyone at the venue shares one address, which may create ten
/// accounts an hour. The organiser's overview shows today's venue link
/// (nobody else sees it); with its code the eleventh account is created,
/// a wrong code or the code of a finished event is refused in words, and
/// nothing is created then.
async fn a_venue_code_opens_sign_up_to_the_room_for_its_day(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, desk) = app.user("venue-to@example.org", "Venue TO").await;
    let to = app.api_client("venue-to@example.org").await;
    let event = create_event(&to, event_body("Open doors")).await;
    set_status(&to, event, "registration").await;
    let code = venue_code(&desk, event).await;
    assert!(code.starts_with(&format!("{event}-")), "{code}");
    let marker = "/venue/";
    let visitor = app.new_client();
    let (_, public) = visitor.get_text(&format!("/events/{event}")).await;
    assert!(
        !public.contains(marker),
        "the link is the organisers': {public}"
    );

    let room = app.new_client();
    let sign_up = |n: usize, venue: String| {
        let room = room.clone();
        async move {
            let name = format!("Guest {n}");
            let email = format!("guest{n}@example.org");
            room.post_form(
                "/signup",
                &[
                    ("display_name", name.as_str()),
                    ("email", email.as_str()),
                    ("password", PASSWORD),
                    ("venue", venue.as_str()),
                ],
            )
            .await
        }
    };
    for n in 0..10 {
        let response = sign_up(n, String::new()).await;
        assert_eq!(response.status(), 303, "guest {n}");
    }
    let refused = sign_up(10, String::new()).await;
    assert_eq!(refused.status(), 429);
    let wrong = sign_up(10, format!("{event}-0000000000")).await;
    assert_eq!(wrong.status(), 422);
    let html = wrong.text().await.unwrap();
    assert!(html.contains("venue code is not valid today"), "{html}");
    // The link prefills the code; with it the room signs up.
    let (_, form) = room.get_text(&format!("/signup?venue={code}")).await;
    assert!(form.contains(&format!("value=\"{code}\"")), "{form}");
    let welcomed = sign_up(10, code.clone()).await;
    assert_eq!(welcomed.status(), 303);
    assert_eq!(location(&welcomed), "/signup/check-email");
    app.smtp
        .wait_for("guest10@example.org", "Confirm your email")
        .await;

    // Once the event is over, its code opens nothing.
    set_status(&to, event, "running").await;
    set_status(&to, event, "finished").await;
    let late = sign_up(11, code.clone()).await;
    assert_eq!(late.status(), 422);
    let exists = app
        .with_conn(|conn| {
            soulstone::db::accounts::find_by_email(conn, "guest11@example.org")
                .unwrap()
                .is_some()
        })
        .await;
    assert!(!exists);
}

/// One person at the venue trying 30 wrong passwords for made-up addresses
/// spends the shared address's sign-in budget, and a player's new browser
/// is held. A browser that opened the venue link (the projector's) signs
/// in on the event's allowance instead, until the event is over; the link
/// with a wrong code, or of a finished event, is refused in words.
async fn the_venue_pass_lets_the_room_sign_in_past_one_persons_mistakes(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, desk) = app.user("venue-to@example.org", "Venue TO").await;
    let to = app.api_client("venue-to@example.org").await;
    let event = create_event(&to, event_body("Busy room")).await;
    set_status(&to, event, "registration").await;
    let code = venue_code(&desk, event).await;
    app.create_account("pat@example.org", "Pat Player", false)
        .await;
    let sign_in = |browser: &TestClient, email: String, password: &'static str| {
        let browser = browser.clone();
        let next = format!("/events/{event}");
        async move {
            browser
                .post_form(
                    "/signin",
                    &[
                        ("email", email.as_str()),
                        ("password", password),
                        ("next", next.as_str()),
                    ],
                )
                .await
        }
    };
    // Two phones take the venue link before anything goes wrong.
    let phone = app.new_client();
    let (status, page) = phone.get_text(&format!("/venue/{code}")).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Welcome to Busy room"), "{page}");
    assert!(page.contains("Create an account"), "{page}");
    let late_phone = app.new_client();
    let (status, _) = late_phone.get_text(&format!("/venue/{code}")).await;
    assert_eq!(status, 200);

    let guesser = app.new_client();
    for n in 0..30 {
        let response = sign_in(
            &guesser,
            format!("made-up{n}@example.org"),
            "not the password",
        )
        .await;
        assert_eq!(response.status(), 401, "guess {n}");
    }
    // Without the pass, Pat's new browser is held by the address's budget.
    let held = sign_in(&app.new_client(), "pat@example.org".into(), PASSWORD).await;
    assert_eq!(held.status(), 429);
    // With it, Pat signs in and carries on to the event.
    let welcomed = sign_in(&phone, "pat@example.org".into(), PASSWORD).await;
    assert_eq!(welcomed.status(), 303);
    assert_eq!(location(&welcomed), format!("/events/{event}"));
    let (_, page) = phone.get_text("/account").await;
    assert!(page.contains("pat@example.org"), "{page}");

    // A wrong code is refused in words, and hands out no pass.
    let stranger = app.new_client();
    let wrong = stranger.get(&format!("/venue/{event}-0000000000")).await;
    assert_eq!(wrong.status(), 400);
    assert!(wrong.cookies().all(|c| c.name() != "soulstone_venue"));
    let html = wrong.text().await.unwrap();
    assert!(html.contains("not valid today"), "{html}");

    // Once the event is over, the pass it handed out holds nothing.
    set_status(&to, event, "running").await;
    set_status(&to, event, "finished").await;
    let after = sign_in(&late_phone, "pat@example.org".into(), PASSWORD).await;
    assert_eq!(after.status(), 429);
    let (status, _) = app.new_client().get_text(&format!("/venue/{code}")).await;
    assert_eq!(status, 400);
}
