//! 1st edition games hosted (issue 55): a practice game stored and played
//! to its end through the host's boundary on both backends, and the same
//! from its page without scripts, every choice a button.

use soulstone::hosted::{self, HostedError, HostedStatus};

use super::hosted::now;
use crate::support::Backend;

both_backends!(a_first_edition_practice_game_is_hosted_to_its_end_through_the_boundary);

/// A 1st edition practice game against the greedy bot is stored, refuses
/// an unknown crew and a stale command, plays to its end through
/// `submit` (the host plays the bot's seat), leaves a log whose every
/// shuffle and card verifies, is never read as another system's game,
/// and a second one is resigned through the registry.
async fn a_first_edition_practice_game_is_hosted_to_its_end_through_the_boundary(backend: Backend) {
    use soulstone::hosted::{CrewPractice, SeatHolder, Submitted, start_crew_practice};
    use soulstone_engine::Seat;
    use soulstone_engine::bot::BotKind;
    use soulstone_engine::fairness::Bytes32;
    use soulstone_engine::first_edition::{FirstEdition, verify};
    use soulstone_engine::system::{MageKnight, TableGame};

    let test_db = crate::support::TestDb::create(&backend);
    let db = test_db.open();
    let mut conn = db.conn().unwrap();
    let account = crate::support::app::create_verified_account(
        &mut conn,
        "ottoline@example.org",
        "Ottoline",
        false,
    );
    let book = soulstone::content::shipped_first_edition().unwrap();
    let conditions = soulstone::content::shipped_first_edition_conditions().unwrap();
    let request = CrewPractice {
        content: Default::default(),
        account_id: account,
        crew: "Warden Grice's Watch".into(),
        bot: BotKind::Greedy,
        bot_crew: "The Lantern Widow's Mire".into(),
        seed: Bytes32([5; 32]),
        time_control_ms: None,
    };
    let unknown = CrewPractice {
        crew: "The Lost Posse".into(),
        ..request.clone()
    };
    let refused = start_crew_practice(&mut conn, &book, &conditions, &unknown, now());
    assert!(
        matches!(&refused, Err(HostedError::Invalid(m)) if m.contains("The Lost Posse")),
        "{refused:?}"
    );
    let id = start_crew_practice(&mut conn, &book, &conditions, &request, now()).unwrap();
    let game = hosted::load::<FirstEdition>(&mut conn, id).unwrap();
    assert_eq!(game.seat_of(account), Some(Seat::A));
    assert!(matches!(
        hosted::load::<MageKnight>(&mut conn, id),
        Err(HostedError::OtherSystem { stored, .. }) if stored == "malifaux_1e"
    ));
    let order = FirstEdition::bot_command(&game.state, Seat::A, BotKind::Greedy, 1).unwrap();
    let stale = hosted::submit::<FirstEdition>(
        &mut conn,
        id,
        account,
        game.state.version + 2,
        "stale",
        order,
        now(),
    );
    assert!(stale.is_err(), "{stale:?}");
    assert_eq!(
        hosted::load::<FirstEdition>(&mut conn, id)
            .unwrap()
            .state
            .version,
        game.state.version
    );
    for step in 0..5_000u64 {
        let game = hosted::load::<FirstEdition>(&mut conn, id).unwrap();
        if FirstEdition::is_over(&game.state) {
            break;
        }
        let seat = FirstEdition::waiting_for(&game.state)
            .into_iter()
            .find(|s| matches!(game.seats[s.index()], SeatHolder::Account(_)))
            .expect("the host plays the bot's seat: the game waits for the player");
        let order = FirstEdition::bot_command(&game.state, seat, BotKind::Greedy, step).unwrap();
        let made = hosted::submit::<FirstEdition>(
            &mut conn,
            id,
            account,
            game.state.version,
            &format!("m{step}"),
            order,
            now(),
        )
        .unwrap();
        assert!(matches!(made, Submitted::Applied { .. }), "{made:?}");
    }
    let game = hosted::load::<FirstEdition>(&mut conn, id).unwrap();
    assert_eq!(game.status, HostedStatus::Finished);
    let result = game.state.result.expect("a result");
    let log = hosted::finished_log::<FirstEdition>(&mut conn, id).unwrap();
    assert!(verify(&log).expect("every shuffle and card verifies") > 50);
    assert!(result.iter().all(|(strategy, _)| *strategy <= 4));

    let second = start_crew_practice(
        &mut conn,
        &book,
        &conditions,
        &CrewPractice {
            seed: Bytes32([6; 32]),
            ..request
        },
        now(),
    )
    .unwrap();
    hosted::resign(&mut conn, second, account, now()).unwrap();
    let resigned = hosted::load::<FirstEdition>(&mut conn, second).unwrap();
    assert_eq!(resigned.status, HostedStatus::Finished);
    assert!(FirstEdition::is_over(&resigned.state));
}

both_backends!(a_first_edition_practice_game_is_played_from_its_page_to_the_end);

/// The 1st edition table without scripts: the practice page starts a
/// game, the game page draws the table and offers every legal choice as a
/// button; a deployment outside the zone and a walk off the table are
/// refused with their reasons and change nothing; a spectator sees no
/// decision, no hand and no seed; pressing the first choice each time
/// plays the game to its end, and its log verifies.
async fn a_first_edition_practice_game_is_played_from_its_page_to_the_end(backend: Backend) {
    use crate::support::{TestApp, extract_input_value, id_after, location};
    use soulstone_engine::first_edition::{FinishedLog, FirstEdition, verify};

    let app = TestApp::spawn(backend).await;
    let (_, browser) = app.user("ottoline@example.org", "Ottoline").await;
    let (_, spectator) = app.user("watcher@example.org", "Watcher").await;
    let (status, page) = browser.get_text("/play").await;
    assert_eq!(status, 200);
    assert!(page.contains("Start a 1st edition game"), "{page}");
    assert!(page.contains("Warden Grice"), "{page}");
    let started = browser
        .post_form(
            "/play/m1e/practice",
            &[("crew", "Warden Grice's Watch"), ("bot", "easy")],
        )
        .await;
    assert_eq!(started.status().as_u16(), 303);
    let id = id_after(&location(&started), "/m1e/games/");
    let seed = app
        .with_conn(move |conn| {
            format!(
                "{:?}",
                hosted::load::<FirstEdition>(conn, id).unwrap().state.seed
            )
        })
        .await;
    let version = || async {
        app.with_conn(move |conn| {
            hosted::load::<FirstEdition>(conn, id)
                .unwrap()
                .state
                .version
        })
        .await
    };
    let send = |page: String, fields: Vec<(&'static str, String)>| {
        let browser = &browser;
        async move {
            let mut all = vec![
                (
                    "version",
                    extract_input_value(&page, "version").expect("a version"),
                ),
                ("key", extract_input_value(&page, "key").expect("a key")),
            ];
            all.extend(fields);
            let refs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let sent = browser
                .post_form(&format!("/m1e/games/{id}/order"), &refs)
                .await;
            assert_eq!(sent.status().as_u16(), 303, "{refs:?}");
            browser.get_text(&format!("/m1e/games/{id}")).await.1
        }
    };

    let (status, page) = browser.get_text(&format!("/m1e/games/{id}")).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("<svg") && page.contains("Your decision"),
        "{page}"
    );
    let mut deployed_badly = false;
    let mut walked_badly = false;
    let mut watched_a_hand = false;
    for _ in 0..1_500 {
        let (_, page) = browser.get_text(&format!("/m1e/games/{id}")).await;
        if page.contains("Game over") {
            break;
        }
        if !watched_a_hand && page.contains("Your hand:") {
            watched_a_hand = true;
            let (status, watched) = spectator.get_text(&format!("/m1e/games/{id}")).await;
            assert_eq!(status, 200);
            assert!(!watched.contains("Your decision") && !watched.contains("Your hand"));
            assert!(
                !watched.contains(&seed) && !page.contains(&seed),
                "no one sees the seed"
            );
        }
        if !deployed_badly && page.contains("Deploy a model at a point") {
            deployed_badly = true;
            let model = extract_select_first(&page, "model");
            let before = version().await;
            let after = send(
                page.clone(),
                vec![
                    ("kind", "deploy".into()),
                    ("model", model),
                    ("x", "18".into()),
                    ("y", "18".into()),
                ],
            )
            .await;
            assert!(after.contains("deployment zone"), "{after}");
            assert_eq!(
                version().await,
                before,
                "a refused deployment changes nothing"
            );
            continue;
        }
        if !walked_badly && page.contains("to a point</legend>") {
            walked_badly = true;
            let after = send(
                page.clone(),
                vec![
                    ("kind", "walk".into()),
                    ("x", "40".into()),
                    ("y", "3".into()),
                ],
            )
            .await;
            assert!(
                after.contains("Across is a number of inches from 0 to 36."),
                "{after}"
            );
            continue;
        }
        let fields = if let Some(choice) = extract_input_value(&page, "order") {
            vec![
                ("kind", "choice".into()),
                ("order", super::hosted::unescape_html(&choice)),
            ]
        } else if page.contains("value=\"contribute\"") {
            vec![("kind", "contribute".into()), ("entropy", "my cut".into())]
        } else {
            panic!("the page offers no choice: {page}");
        };
        send(page, fields).await;
    }
    assert!(deployed_badly, "the deployment form was offered");
    assert!(walked_badly, "the walk form was offered");
    assert!(watched_a_hand, "the player's hand was shown");
    let (_, page) = browser.get_text(&format!("/m1e/games/{id}")).await;
    assert!(page.contains("Game over"), "{page}");
    let (status, json) = browser.get_text(&format!("/m1e/games/{id}/log")).await;
    assert_eq!(status, 200);
    let log: FinishedLog = serde_json::from_str(&json).unwrap();
    assert!(verify(&log).expect("every shuffle and card verifies") > 50);
    let game = app
        .with_conn(move |conn| hosted::load::<FirstEdition>(conn, id).unwrap())
        .await;
    assert_eq!(game.status, HostedStatus::Finished);
    let (_, page) = browser.get_text("/play").await;
    assert!(
        page.contains(&format!("/m1e/games/{id}")),
        "the game is listed with its own page"
    );
    // The Malifaux page sends a 1st edition game to its own page.
    let moved = browser.get(&format!("/games/{id}")).await;
    assert!(
        location(&moved).ends_with(&format!("/m1e/games/{id}")),
        "{}",
        location(&moved)
    );
}

/// The value of the first option of a select.
fn extract_select_first(page: &str, name: &str) -> String {
    let at = page
        .find(&format!("name=\"{name}\""))
        .unwrap_or_else(|| panic!("a select named {name}"));
    let rest = &page[at..];
    let value = rest.find("value=\"").expect("an option") + 7;
    rest[value..]
        .split('"')
        .next()
        .unwrap_or_default()
        .to_owned()
}

both_backends!(a_normal_first_edition_bot_searches_on_the_bot_threads);

/// The practice page offers the searching levels for the 1st edition.
/// A player's command that leaves the normal bot a searched decision (a
/// model to activate, or its model's action) is answered with the bot
/// still to move: the request never searches. A look at the game page
/// hands the game to the bot threads, whose replies are stored without
/// another request from the player.
async fn a_normal_first_edition_bot_searches_on_the_bot_threads(backend: Backend) {
    use crate::support::{TestApp, id_after, location};
    use soulstone::hosted::Submitted;
    use soulstone_engine::Seat;
    use soulstone_engine::bot::BotKind;
    use soulstone_engine::first_edition::FirstEdition;
    use soulstone_engine::system::TableGame;

    let app = TestApp::spawn(backend).await;
    let (account, browser) = app.user("ottoline@example.org", "Ottoline").await;
    let (_, page) = browser.get_text("/play").await;
    let form = &page[page
        .find("/play/m1e/practice")
        .expect("the 1st edition form")..];
    assert!(
        form.contains("value=\"normal\" selected") && form.contains("value=\"hard\""),
        "{form}"
    );
    let started = browser
        .post_form(
            "/play/m1e/practice",
            &[("crew", "Warden Grice's Watch"), ("bot", "normal")],
        )
        .await;
    assert_eq!(started.status().as_u16(), 303);
    let id = id_after(&location(&started), "/m1e/games/");
    let load = || async {
        app.with_conn(move |conn| hosted::load::<FirstEdition>(conn, id).unwrap())
            .await
    };
    let patience = std::time::Instant::now();
    let mut left_to_the_threads = 0;
    let mut last_answer = 0;
    for n in 0..3_000u64 {
        let game = load().await;
        if FirstEdition::is_over(&game.state) {
            break;
        }
        let players_turn = FirstEdition::waiting_for(&game.state).contains(&Seat::A);
        if players_turn && left_to_the_threads >= 3 {
            // The last decision handed over was taken on the threads.
            assert!(game.state.version > last_answer);
            break;
        }
        if !players_turn {
            // The bot's turn, on its threads: a liveness bound, not a
            // speed target.
            assert!(
                patience.elapsed() < std::time::Duration::from_secs(120),
                "the bot never replied at version {}",
                game.state.version
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            continue;
        }
        let order = FirstEdition::bot_command(&game.state, Seat::A, BotKind::Greedy, n)
            .expect("the player can move");
        let version = game.state.version;
        let submitted = app
            .with_conn(move |conn| {
                hosted::submit::<FirstEdition>(
                    conn,
                    id,
                    account,
                    version,
                    &format!("m1e-{n}"),
                    order,
                    now(),
                )
            })
            .await
            .expect("a legal order");
        let Submitted::Applied {
            version: answered,
            bot_to_move,
            facts,
        } = submitted
        else {
            panic!("a new key is applied");
        };
        if !bot_to_move {
            continue;
        }
        // The game as the answer left it (rebuilt from the facts it
        // stored, not read again: a bot thread still finishing an earlier
        // turn may move on at any moment) waits for the bot's searched
        // decision: the request did not make it.
        let mut answered_state = game.state.clone();
        for fact in &facts {
            FirstEdition::apply(&mut answered_state, fact);
        }
        assert_eq!(FirstEdition::version(&answered_state), answered);
        assert!(FirstEdition::bot_thinks_long(
            &answered_state,
            Seat::B,
            BotKind::Normal
        ));
        last_answer = answered;
        // A look at the page hands it over; the reply comes on its own.
        let (status, _) = browser.get_text(&format!("/m1e/games/{id}")).await;
        assert_eq!(status, 200);
        left_to_the_threads += 1;
    }
    assert!(
        left_to_the_threads >= 3,
        "the normal bot searched off the request path {left_to_the_threads} times"
    );
}
