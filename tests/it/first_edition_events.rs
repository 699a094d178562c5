//! 1st edition games between two players (issue 55): an event's round
//! played in the browser, each player bringing a crew hired at the event's
//! encounter, its result reported by itself; and a game by invitation.

use soulstone::hosted;
use soulstone::hosted::HostedStatus;

use crate::support::Backend;

/// The text of a shipped 1st edition crew file.
fn crew_file(name: &str) -> String {
    std::fs::read_to_string(format!("content/m1e/crews/{name}.toml")).unwrap()
}

both_backends!(a_first_edition_digital_round_is_played_with_crews_and_reports_its_result);

/// A 1st edition event's round played in the browser: an army, a Brawl
/// crew in a Scrap event and a crew hiring an unknown model are refused
/// with their reasons and change nothing; each player's crew is secret
/// until both are in; the second crew, written for 30 soulstones, is hired
/// at the event's 35; the game starts on the 1st edition page, is played
/// to its end, and its VP become the event's confirmed result.
async fn a_first_edition_digital_round_is_played_with_crews_and_reports_its_result(
    backend: Backend,
) {
    use crate::events::event_body;
    use crate::support::{PublishedRound, TestApp, id_after, location, published_round};
    use soulstone_engine::Seat;
    use soulstone_engine::bot::BotKind;
    use soulstone_engine::first_edition::{Book, FirstEdition};
    use soulstone_engine::system::{TableGame, Tally};

    let app = TestApp::spawn(backend).await;
    let mut body = event_body("Scraps by Lamplight");
    body["game_system"] = serde_json::json!("m1e");
    body["encounter_size"] = serde_json::json!(35);
    body["rounds_planned"] = serde_json::json!(1);
    let PublishedRound {
        event,
        pairing,
        to,
        to_browser,
        browsers,
        ..
    } = published_round(&app, body, false).await;
    let (_, round) = to_browser
        .get_text(&format!("/events/{event}/rounds/1"))
        .await;
    assert!(
        round.contains(&format!("/events/{event}/rounds/1/digital")),
        "the organisers may have a 1st edition round played in the browser: {round}"
    );
    let marked = to_browser
        .post_form(&format!("/events/{event}/rounds/1/digital"), &[])
        .await;
    assert_eq!(marked.status().as_u16(), 303);

    let play = format!("/events/{event}/games/{pairing}/play");
    let bring = format!("/events/{event}/games/{pairing}/crews");
    let (status, page) = browsers[0].get_text(&play).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("crew not brought yet")
            && page.contains("Warden Grice&#39;s Watch")
            && page.contains("a Scrap of 35 soulstones"),
        "{page}"
    );
    let refused_with = |reason: &'static str, fields: Vec<(&'static str, String)>| {
        let (browser, bring, play) = (&browsers[0], bring.clone(), play.clone());
        async move {
            crate::support::refused_when_brought(browser, (&bring, &play), reason, &fields).await;
        }
    };
    refused_with(
        "This is a Malifaux 1st edition game: bring a 1st edition crew.",
        vec![("game", "mk".into()), ("army", "Brasshold Vanguard".into())],
    )
    .await;
    let brawl = crew_file("grice-watch-35")
        .replace("encounter = \"scrap\"", "encounter = \"brawl\"")
        .replace("soulstones = 35", "soulstones = 50");
    refused_with(
        "bring a crew for a Scrap",
        vec![("game", "m1e".into()), ("m1e_crew_text", brawl)],
    )
    .await;
    let unknown = crew_file("grice-watch-35").replace("\"Brass Hound\"", "\"Brass Nobody\"");
    refused_with(
        "Brass Nobody",
        vec![("game", "m1e".into()), ("m1e_crew_text", unknown)],
    )
    .await;

    let first = browsers[0]
        .post_form(
            &bring,
            &[("game", "m1e"), ("m1e_crew", "Warden Grice's Watch")],
        )
        .await;
    assert_eq!(location(&first), play);
    let (_, mine) = browsers[0].get_text(&play).await;
    assert!(mine.contains("You brought: Warden Grice"), "{mine}");
    let (_, theirs) = browsers[1].get_text(&play).await;
    assert!(
        theirs.contains("crew brought") && !theirs.contains("You brought: Warden"),
        "{theirs}"
    );
    let smaller = crew_file("quill-workshop-35").replace("soulstones = 35", "soulstones = 30");
    let second = browsers[1]
        .post_form(&bring, &[("game", "m1e"), ("m1e_crew_text", &smaller)])
        .await;
    let started = location(&second);
    let hosted_id = id_after(&started, "/games/");
    let to_own_page = browsers[1].get(&started).await;
    assert_eq!(location(&to_own_page), format!("/m1e/games/{hosted_id}"));
    let (status, page) = browsers[1]
        .get_text(&format!("/m1e/games/{hosted_id}"))
        .await;
    assert_eq!(status, 200);
    assert!(page.contains("You are Player "), "{page}");
    let (status, watched) = to_browser
        .get_text(&format!("/m1e/games/{hosted_id}"))
        .await;
    assert_eq!(status, 200);
    assert!(!watched.contains("You are Player"), "{watched}");

    let game = app
        .with_conn(move |conn| hosted::load::<FirstEdition>(conn, hosted_id).unwrap())
        .await;
    let book = soulstone::content::shipped_first_edition().unwrap();
    let at_35 = Book::read_crew("quill", &crew_file("quill-workshop-35")).unwrap();
    let at_30 = Book::read_crew("quill", &smaller).unwrap();
    assert_ne!(
        book.hire(&at_30).unwrap().pool,
        book.hire(&at_35).unwrap().pool,
        "the pool tells the two apart"
    );
    let quill_seat = Seat::BOTH
        .into_iter()
        .find(|s| game.state.player(*s).crew_name == "Professor Quill's Workshop")
        .expect("the written crew plays");
    assert_eq!(
        game.state.player(quill_seat).soulstones,
        book.hire(&at_35).unwrap().pool,
        "the crew written for 30 soulstones is hired at the event's 35"
    );

    app.with_conn(move |conn| {
        crate::hosted_systems::play_out::<FirstEdition>(conn, hosted_id, BotKind::Greedy)
    })
    .await;
    let game = app
        .with_conn(move |conn| hosted::load::<FirstEdition>(conn, hosted_id).unwrap())
        .await;
    assert_eq!(game.status, HostedStatus::Finished);
    let Tally::VictoryPoints { strategy, schemes } = FirstEdition::score(&game.state).tally else {
        panic!("a 1st edition game is scored in VP");
    };
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let table = &round["tables"][0];
    assert_eq!(table["status"], "confirmed", "{table}");
    let score = &table["score"];
    assert_eq!(
        [&score["a_vp"], &score["b_vp"]],
        [
            &serde_json::json!(strategy[0] + schemes[0]),
            &serde_json::json!(strategy[1] + schemes[1])
        ],
        "{table}"
    );
}

both_backends!(a_first_edition_invitation_starts_a_game_between_two_crews);

/// A 1st edition game by invitation: the invitation says the game and the
/// encounter the one accepting is hired at (the inviter's crew stays
/// secret, like every system's lists: `hosted.rs` checks the page); an army and an unreadable
/// crew are refused with their reasons (the crew kept on the page) and
/// change nothing; a crew accepts it, and the casual game starts with the
/// inviter in seat A and the chosen clock, on the 1st edition page.
async fn a_first_edition_invitation_starts_a_game_between_two_crews(backend: Backend) {
    use crate::support::{TestApp, location};
    use soulstone::hosted::{HostedKind, SeatHolder};
    use soulstone_engine::Seat;
    use soulstone_engine::first_edition::FirstEdition;

    let app = TestApp::spawn(backend).await;
    let (ann_id, ann) = app.user("ann@example.org", "Ann").await;
    let (bo_id, bo) = app.user("bo@example.org", "Bo").await;
    let (status, page) = ann.get_text("/play/invite").await;
    assert_eq!(status, 200);
    assert!(
        page.contains("Or a Malifaux 1st edition game")
            && page.contains("The Lantern Widow&#39;s Mire")
            && page.contains("id=\"f-m1e-minutes\""),
        "{page}"
    );
    let made = ann
        .post_form(
            "/play/invite",
            &[
                ("game", "m1e"),
                ("m1e_crew", "Warden Grice's Watch"),
                ("minutes", "30"),
            ],
        )
        .await;
    let link = location(&made);
    assert!(link.starts_with("/play/invite/"), "{link}");
    let (_, invitation) = bo.get_text(&link).await;
    assert!(
        invitation.contains("<dd>Malifaux 1st edition</dd>")
            && invitation.contains("Your 1st edition crew")
            && invitation.contains("a Scrap of 35 soulstones"),
        "the game and its size are shown: {invitation}"
    );

    let army = bo
        .post_form(
            &format!("{link}/accept"),
            &[("game", "mk"), ("army", "Thornwake Wardens")],
        )
        .await;
    assert_eq!(army.status().as_u16(), 422);
    let page = army.text().await.unwrap();
    assert!(
        page.contains(
            "This invitation is to a Malifaux 1st edition game: bring a 1st edition crew."
        ),
        "{page}"
    );
    let unreadable = bo
        .post_form(
            &format!("{link}/accept"),
            &[("game", "m1e"), ("m1e_crew_text", "name = \"Half a crew\"")],
        )
        .await;
    assert_eq!(unreadable.status().as_u16(), 422);
    let page = unreadable.text().await.unwrap();
    assert!(
        page.contains("your crew") && page.contains("Half a crew&#34;</textarea>"),
        "the problem is named and the crew kept: {page}"
    );
    let (_, still) = bo.get_text(&link).await;
    assert!(still.contains("open, until"), "nothing changed: {still}");

    let accepted = bo
        .post_form(
            &format!("{link}/accept"),
            &[("game", "m1e"), ("m1e_crew", "The Lantern Widow's Mire")],
        )
        .await;
    let started = location(&accepted);
    let id = crate::support::id_after(&started, "/games/");
    assert_eq!(
        location(&bo.get(&started).await),
        format!("/m1e/games/{id}")
    );
    let game = app
        .with_conn(move |conn| hosted::load::<FirstEdition>(conn, id).unwrap())
        .await;
    assert_eq!(game.kind, HostedKind::Casual);
    assert_eq!(
        game.seats,
        [SeatHolder::Account(ann_id), SeatHolder::Account(bo_id)]
    );
    assert_eq!(
        Seat::BOTH.map(|s| game.state.player(s).crew_name.clone()),
        [
            "Warden Grice's Watch".to_owned(),
            "The Lantern Widow's Mire".to_owned()
        ]
    );
    assert!(game.clocks.is_some(), "the chosen clock runs");
}

both_backends!(a_first_edition_league_game_by_invitation_is_hired_at_the_league_encounter);

/// A game by invitation counting in an open 1st edition league of 40
/// soulstones: the league's page offers it; 4th edition crews are refused
/// with the system named; the invitation shows the league's encounter; a
/// crew written for 30 soulstones is hired at 40; the game is the
/// league's, and its VP, strategy and schemes apart, become the league's
/// confirmed result.
async fn a_first_edition_league_game_by_invitation_is_hired_at_the_league_encounter(
    backend: Backend,
) {
    use crate::events::{create_event, event_body, set_status};
    use crate::support::{TestApp, id_after, location};
    use soulstone_engine::Seat;
    use soulstone_engine::bot::BotKind;
    use soulstone_engine::first_edition::{Book, FirstEdition};
    use soulstone_engine::system::{TableGame, Tally};

    let app = TestApp::spawn(backend).await;
    app.create_account("lto@example.org", "League TO", false)
        .await;
    let to = app.api_client("lto@example.org").await;
    let mut body = event_body("Lamplight League");
    body["game_system"] = serde_json::json!("m1e");
    body["encounter_size"] = serde_json::json!(40);
    body["format"] = serde_json::json!("league");
    body["league_mode"] = serde_json::json!("open");
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    let (_, ana) = app.user("ana@example.org", "Ana Inviter").await;
    let (_, ben) = app.user("ben@example.org", "Ben Guest").await;
    for email in ["ana@example.org", "ben@example.org"] {
        let api = app.api_client(email).await;
        let (code, entry) = api
            .post(&format!("/events/{event}/register"), serde_json::json!({}))
            .await;
        assert_eq!(code, 201, "{entry}");
    }
    set_status(&to, event, "running").await;
    let (_, page) = ana.get_text(&format!("/events/{event}")).await;
    assert!(
        page.contains(&format!("/play/invite?league={event}")),
        "{page}"
    );
    let (_, form) = ana.get_text(&format!("/play/invite?league={event}")).await;
    assert!(
        form.contains(&format!(
            "<option value=\"{event}\" selected>Lamplight League"
        )),
        "{form}"
    );

    let league = event.to_string();
    let fourth = ana
        .post_form(
            "/play/invite",
            &[("crew", "mudlark-50"), ("league", &league)],
        )
        .await;
    assert_eq!(fourth.status().as_u16(), 422);
    let page = fourth.text().await.unwrap();
    assert!(
        page.contains("This is a Malifaux 1st edition game: bring a 1st edition crew."),
        "{page}"
    );
    let made = ana
        .post_form(
            "/play/invite",
            &[
                ("game", "m1e"),
                ("m1e_crew", "Warden Grice's Watch"),
                ("league", &league),
            ],
        )
        .await;
    assert_eq!(made.status().as_u16(), 303);
    let link = location(&made);
    let (_, invitation) = ben.get_text(&link).await;
    assert!(
        invitation.contains("Lamplight League</a>: the final score is the league")
            && invitation.contains("a Scrap of 40 soulstones"),
        "{invitation}"
    );
    let written_for_30 =
        crew_file("quill-workshop-35").replace("soulstones = 35", "soulstones = 30");
    let accepted = ben
        .post_form(
            &format!("{link}/accept"),
            &[("game", "m1e"), ("m1e_crew_text", &written_for_30)],
        )
        .await;
    assert_eq!(accepted.status().as_u16(), 303);
    let hosted_id = id_after(&location(&accepted), "/games/");
    let pairing = app
        .with_conn(move |conn| {
            soulstone::db::hosted::find_game(conn, hosted_id)
                .unwrap()
                .unwrap()
                .pairing_game_id
        })
        .await
        .expect("the league's game");

    let game = app
        .with_conn(move |conn| hosted::load::<FirstEdition>(conn, hosted_id).unwrap())
        .await;
    let book = soulstone::content::shipped_first_edition().unwrap();
    let quill = Book::read_crew("quill", &written_for_30).unwrap();
    let pool_at = |soulstones: u8| {
        let mut list = quill.clone();
        list.soulstones = soulstones;
        book.hire(&list).unwrap().pool
    };
    assert_ne!(pool_at(30), pool_at(40), "the pool tells the two apart");
    assert_eq!(
        game.state.player(Seat::B).soulstones,
        pool_at(40),
        "the crew written for 30 is hired at the league's 40 soulstones"
    );

    app.with_conn(move |conn| {
        crate::hosted_systems::play_out::<FirstEdition>(conn, hosted_id, BotKind::Greedy)
    })
    .await;
    let game = app
        .with_conn(move |conn| hosted::load::<FirstEdition>(conn, hosted_id).unwrap())
        .await;
    let Tally::VictoryPoints { strategy, schemes } = FirstEdition::score(&game.state).tally else {
        panic!("a 1st edition game is scored in VP");
    };
    let row = app
        .with_conn(move |conn| {
            soulstone::db::events::find_game(conn, pairing)
                .unwrap()
                .unwrap()
        })
        .await;
    assert_eq!((row.event_id, row.status.code()), (event, "confirmed"));
    assert_eq!(
        [
            row.a_strategy_vp,
            row.a_scheme_vp,
            row.b_strategy_vp,
            row.b_scheme_vp
        ],
        [
            Some(strategy[0]),
            Some(schemes[0]),
            Some(strategy[1]),
            Some(schemes[1])
        ]
    );
}
