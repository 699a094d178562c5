//! Hosted games and the game system that plays them, on both backends.

use soulstone::hosted::{self, HostedError, HostedStatus};
use soulstone_engine::system::Malifaux;

use super::hosted::{a_legal_command, now, practice};
use crate::support::Backend;

both_backends!(a_game_another_system_plays_is_not_read_as_this_ones);

/// A game's row names the system that plays it: the host reads it back
/// only through that system, and refuses, changing nothing, a game whose
/// system this build does not know (as a newer build's game would be).
async fn a_game_another_system_plays_is_not_read_as_this_ones(backend: Backend) {
    use diesel::RunQueryDsl;
    let (_test_db, db, account, id) = practice(&backend, 5);
    let mut conn = db.conn().unwrap();
    let before = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    diesel::sql_query(format!(
        "UPDATE hosted_games SET table_game = 'chess' WHERE id = {id}"
    ))
    .execute(&mut conn)
    .unwrap();
    let other = |error: HostedError| matches!(error, HostedError::OtherSystem { stored, .. } if stored == "chess");
    assert!(other(hosted::load::<Malifaux>(&mut conn, id).unwrap_err()));
    assert!(other(
        hosted::resign(&mut conn, id, account, now()).unwrap_err()
    ));
    let command = a_legal_command(&before.state, 1);
    let refused = hosted::submit::<Malifaux>(
        &mut conn,
        id,
        account,
        before.state.version,
        "k-other",
        command,
        now(),
    );
    assert!(other(refused.unwrap_err()));
    diesel::sql_query(format!(
        "UPDATE hosted_games SET table_game = 'malifaux' WHERE id = {id}"
    ))
    .execute(&mut conn)
    .unwrap();
    let after = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    assert_eq!(after.status, HostedStatus::Playing, "nothing was resigned");
    assert_eq!(
        after.state.version, before.state.version,
        "nothing was played"
    );
}

both_backends!(a_mage_knight_practice_game_is_hosted_to_its_end_through_the_boundary);

/// Mage Knight goes through the host like Malifaux: a practice game
/// against the greedy bot starts, refuses a stale order, plays to its end
/// through `submit`, and leaves a log whose every roll verifies; it is
/// never read as a Malifaux game; a second one is resigned through the
/// registry.
async fn a_mage_knight_practice_game_is_hosted_to_its_end_through_the_boundary(backend: Backend) {
    use soulstone::hosted::{ArmyPractice, start_army_practice};
    use soulstone_engine::Seat;
    use soulstone_engine::bot::BotKind;
    use soulstone_engine::fairness::Bytes32;
    use soulstone_engine::mage_knight::{MageKnight, verify};
    use soulstone_engine::system::TableGame;

    let test_db = crate::support::TestDb::create(&backend);
    let db = test_db.open();
    let mut conn = db.conn().unwrap();
    let account = crate::support::app::create_verified_account(
        &mut conn,
        "knight@example.org",
        "Knight",
        false,
    );
    let roster = soulstone::content::shipped_mage_knight().unwrap();
    let request = ArmyPractice {
        content: Default::default(),
        account_id: account,
        army: "Brasshold Vanguard".into(),
        bot: BotKind::Greedy,
        bot_army: "Thornwake Wardens".into(),
        seed: Bytes32([9; 32]),
        time_control_ms: None,
    };
    let unknown = ArmyPractice {
        army: "The Lost Legion".into(),
        ..request.clone()
    };
    let refused = start_army_practice(&mut conn, &roster, &unknown, now());
    assert!(
        matches!(&refused, Err(HostedError::Invalid(m)) if m.contains("The Lost Legion")),
        "{refused:?}"
    );
    let id = start_army_practice(&mut conn, &roster, &request, now()).unwrap();
    let game = hosted::load::<MageKnight>(&mut conn, id).unwrap();
    assert_eq!(game.seat_of(account), Some(Seat::A));
    assert!(matches!(
        hosted::load::<Malifaux>(&mut conn, id),
        Err(HostedError::OtherSystem { stored, .. }) if stored == "mage_knight"
    ));

    // A stale order changes nothing.
    let order = MageKnight::bot_command(&game.state, Seat::A, BotKind::Greedy, 1).unwrap();
    let stale = hosted::submit::<MageKnight>(
        &mut conn,
        id,
        account,
        game.state.version + 3,
        "stale",
        order,
        now(),
    );
    assert!(stale.is_err(), "{stale:?}");
    assert_eq!(
        hosted::load::<MageKnight>(&mut conn, id).unwrap().state,
        game.state
    );

    play_out::<MageKnight>(&mut conn, id, BotKind::Greedy);
    let game = hosted::load::<MageKnight>(&mut conn, id).unwrap();
    assert_eq!(game.status, HostedStatus::Finished);
    let outcome = game.state.outcome.clone().expect("an outcome");
    let log = hosted::finished_log::<MageKnight>(&mut conn, id).unwrap();
    let rolls = verify(&log).expect("every roll verifies");
    assert!(rolls >= 2);
    assert!(!log.commands.is_empty());
    assert!(outcome.objectives[0] + outcome.objectives[1] <= 3);

    // Resigning finds the system from the row.
    let second = start_army_practice(
        &mut conn,
        &roster,
        &ArmyPractice {
            seed: Bytes32([10; 32]),
            ..request
        },
        now(),
    )
    .unwrap();
    hosted::resign(&mut conn, second, account, now()).unwrap();
    let resigned = hosted::load::<MageKnight>(&mut conn, second).unwrap();
    assert_eq!(resigned.status, HostedStatus::Finished);
    assert!(MageKnight::is_over(&resigned.state));
}

both_backends!(a_mage_knight_practice_game_is_played_from_its_page_to_the_end);

/// The Mage Knight table without scripts: the practice page starts a
/// game, the game page draws the battlefield and offers its orders as
/// buttons, a bad point is refused with its reason and changes nothing,
/// a spectator sees no seed, and pressing the first offered order each
/// time plays the game to its end, whose log downloads and verifies.
async fn a_mage_knight_practice_game_is_played_from_its_page_to_the_end(backend: Backend) {
    use crate::support::{TestApp, extract_input_value, id_after, location};
    use soulstone_engine::mage_knight::{FinishedLog, MageKnight, verify};

    let app = TestApp::spawn(backend).await;
    let (_, browser) = app.user("knight@example.org", "Knight").await;
    let (_, spectator) = app.user("watcher@example.org", "Watcher").await;
    let (status, page) = browser.get_text("/play").await;
    assert_eq!(status, 200);
    assert!(page.contains("Start a Mage Knight game"), "{page}");
    assert!(page.contains("Brasshold Vanguard"), "{page}");
    let started = browser
        .post_form(
            "/play/mk/practice",
            &[("army", "Brasshold Vanguard"), ("bot", "easy")],
        )
        .await;
    assert_eq!(started.status().as_u16(), 303);
    let id = id_after(&location(&started), "/mk/games/");
    let seed = app
        .with_conn(move |conn| {
            hosted::load::<MageKnight>(conn, id)
                .unwrap()
                .state
                .dice
                .seed
        })
        .await;
    let seed = format!("{seed:?}");

    let (status, page) = browser.get_text(&format!("/mk/games/{id}")).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("<svg") && page.contains("deployment area"),
        "{page}"
    );
    assert!(page.contains("Your decision"), "{page}");
    let (status, watched) = spectator.get_text(&format!("/mk/games/{id}")).await;
    assert_eq!(status, 200);
    assert!(!watched.contains("Your decision"));
    assert!(
        !watched.contains(&seed) && !page.contains(&seed),
        "no one sees the seed"
    );

    let order = with_version_and_key;
    let mut moved_badly = false;
    let mut attacked_badly = false;
    let mut bombarded = false;
    let mut placed_badly = false;
    let mut chose_domain = false;
    let mut deployed_badly = false;
    let mut domains_shown = false;
    for _ in 0..600 {
        let (_, page) = browser.get_text(&format!("/mk/games/{id}")).await;
        domains_shown |= page.contains("<h2>Domains</h2>") && page.contains("In play: ");
        if page.contains("The game is over") {
            break;
        }
        if !deployed_badly && page.contains("Deploy your warriors where you choose") {
            // A warrior typed into the middle of the battlefield: refused
            // with the rule, and nothing changes.
            deployed_badly = true;
            assert!(page.contains("name=\"warrior\" value=\"0\""), "{page}");
            let fields = vec![
                ("kind", "deploy".into()),
                ("warrior", "0".into()),
                ("x", "18".into()),
                ("y", "18".into()),
                ("facing", "90".into()),
            ];
            let sent = from_page(&app, &browser, id, &page, fields).await;
            sent.refused_with("must be in your deployment area");
            continue;
        }
        if page.contains("Choose the domain") {
            // Only the player's own cards are offered; the bot's army's
            // cards (any other shipped army's) are nowhere on the page.
            chose_domain = true;
            assert!(page.contains("Choose the domain Clear Skies"), "{page}");
            for theirs in ["Grave Chill", "Spring Thaw", "Overgrowth"] {
                assert!(!page.contains(theirs), "{theirs} shown before the reveal");
            }
        }
        if !attacked_badly && page.contains("<legend>Attack</legend>") {
            // A close attack on a warrior out of contact, from the attack
            // form: refused with the rule, and nothing changes.
            let game = app
                .with_conn(move |conn| hosted::load::<MageKnight>(conn, id).unwrap())
                .await;
            let battle = &game.state;
            let ready = battle
                .warriors
                .iter()
                .find(|w| {
                    w.seat == soulstone_engine::Seat::A
                        && w.on_battlefield()
                        && !w.acted
                        && w.tokens < 2
                })
                .expect("a warrior ready to act");
            let Some(far) = battle.warriors.iter().find(|w| {
                w.seat == soulstone_engine::Seat::B
                    && w.on_battlefield()
                    && w.center().dist(ready.center()) > 3.0
            }) else {
                continue;
            };
            attacked_badly = true;
            let (attacker, target) = (ready.id.0.to_string(), far.id.0.to_string());
            let fields = vec![
                ("kind", "attack".into()),
                ("attacker", attacker),
                ("style", "close".into()),
                ("target", target),
            ];
            let sent = from_page(&app, &browser, id, &page, fields).await;
            sent.refused_with("must be in base contact with");
            continue;
        }
        if !placed_badly && page.contains("Place a feature from the pile") {
            // A feature against the edge: refused with the rule, nothing
            // changes; the choices then place the pile.
            placed_badly = true;
            let fields = vec![
                ("kind", "place_terrain".into()),
                ("feature", "0".into()),
                ("x", "1".into()),
                ("y", "18".into()),
            ];
            let sent = from_page(&app, &browser, id, &page, fields).await;
            sent.refused_with("from the battlefield");
            continue;
        }
        if !bombarded && page.contains("Bombard: tokens") {
            // Too far, then in reach: the first is refused with the rule
            // and changes nothing, the second puts a token on the board.
            let game = app
                .with_conn(move |conn| hosted::load::<MageKnight>(conn, id).unwrap())
                .await;
            let battle = game.state;
            let mortar = battle
                .warriors
                .iter()
                .find(|w| {
                    w.seat == soulstone_engine::Seat::A
                        && w.card.name == "Cinder Mortar"
                        && !w.acted
                })
                .expect("the page offers a ready bombardier");
            let spot = |inches: f64| {
                let p = mortar.center().plus(
                    soulstone_engine::mage_knight::battlefield::facing_vector(mortar.facing)
                        .scale(inches),
                );
                format!("{:.2}, {:.2}", p.x.clamp(0.0, 36.0), p.y.clamp(0.0, 36.0))
            };
            for (at, refused) in [(spot(20.0), true), (spot(8.0), false)] {
                let fields = vec![
                    ("kind", "bombard".into()),
                    ("attacker", mortar.id.0.to_string()),
                    ("spots", at),
                ];
                let sent = from_page(&app, &browser, id, &page, fields).await;
                if refused {
                    sent.refused_with("beyond twice Cinder Mortar");
                } else {
                    assert!(sent.after > sent.before, "the bombardment was made");
                    assert!(sent.page.contains("mk-bombardment"), "the token is drawn");
                }
            }
            bombarded = true;
            continue;
        }
        if !moved_badly && page.contains("Move a warrior to a point") {
            moved_badly = true;
            let fields = vec![
                ("kind", "move".into()),
                ("warrior", "0".into()),
                ("x", "40".into()),
                ("y", "3".into()),
                ("facing", "90".into()),
            ];
            let sent = from_page(&app, &browser, id, &page, fields).await;
            sent.refused_with("Across is a number of inches from 0 to 36.");
            continue;
        }
        let fields = if let Some(choice) = extract_input_value(&page, "order") {
            order(
                &page,
                vec![
                    ("kind", "choice".into()),
                    ("order", super::hosted::unescape_html(&choice)),
                ],
            )
        } else if page.contains("value=\"contribute\"") {
            order(
                &page,
                vec![("kind", "contribute".into()), ("entropy", "dice".into())],
            )
        } else {
            order(&page, vec![("kind", "end_actions".into())])
        };
        let refs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let sent = browser
            .post_form(&format!("/mk/games/{id}/order"), &refs)
            .await;
        assert_eq!(sent.status().as_u16(), 303, "{refs:?}");
    }
    assert!(moved_badly, "the free move form was offered");
    assert!(attacked_badly, "the attack form was offered");
    assert!(bombarded, "the bombardment form was offered");
    assert!(placed_badly, "the terrain form was offered");
    assert!(
        chose_domain,
        "both armies bring domains: the player chose one"
    );
    assert!(deployed_badly, "the deployment form was offered");
    assert!(
        domains_shown,
        "the domains in play are listed once revealed"
    );
    let (_, page) = browser.get_text(&format!("/mk/games/{id}")).await;
    assert!(page.contains("The game is over"), "{page}");
    assert!(page.contains("in objectives"), "{page}");
    let (status, json) = browser.get_text(&format!("/mk/games/{id}/log")).await;
    assert_eq!(status, 200);
    let log: FinishedLog = serde_json::from_str(&json).unwrap();
    verify(&log).expect("every roll verifies");
    let (_, page) = browser.get_text("/play").await;
    assert!(
        page.contains(&format!("/mk/games/{id}")),
        "the game is listed with its own page"
    );
}

/// An order sent from the Mage Knight page's forms: the page after it,
/// and the game's version before and after.
struct FromPage {
    page: String,
    before: u64,
    after: u64,
}

impl FromPage {
    /// The page names why the order was refused, and the game is as it was.
    fn refused_with(&self, reason: &str) {
        assert!(self.page.contains(reason), "{reason:?} in {}", self.page);
        assert_eq!(self.after, self.before, "a refused order changes nothing");
    }
}

/// A Mage Knight page's form fields with the version and key it was
/// rendered with.
fn with_version_and_key(
    page: &str,
    fields: Vec<(&'static str, String)>,
) -> Vec<(&'static str, String)> {
    use crate::support::extract_input_value;
    let version = extract_input_value(page, "version").expect("a version");
    let key = extract_input_value(page, "key").expect("a key");
    let mut all = vec![("version", version), ("key", key)];
    all.extend(fields);
    all
}

async fn from_page(
    app: &crate::support::TestApp,
    browser: &crate::support::TestClient,
    id: i64,
    page: &str,
    fields: Vec<(&'static str, String)>,
) -> FromPage {
    use soulstone_engine::mage_knight::MageKnight;
    let version = || async {
        app.with_conn(move |conn| hosted::load::<MageKnight>(conn, id).unwrap().state.version)
            .await
    };
    let before = version().await;
    let all = with_version_and_key(page, fields);
    let refs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let sent = browser
        .post_form(&format!("/mk/games/{id}/order"), &refs)
        .await;
    assert_eq!(sent.status().as_u16(), 303, "{refs:?}");
    let (_, page) = browser.get_text(&format!("/mk/games/{id}")).await;
    FromPage {
        page,
        before,
        after: version().await,
    }
}

both_backends!(a_mage_knight_digital_round_is_played_with_armies_and_reports_its_result);

/// A Mage Knight event's round played in the browser: each player brings
/// an army (a crew list, an unknown warrior and an army over the event's
/// build total are refused with their reason and change nothing); the
/// second army starts the game, whose Malifaux address leads to the Mage
/// Knight page; both players play it to its end and its objectives,
/// points eliminated and armies become the event's confirmed result.
async fn a_mage_knight_digital_round_is_played_with_armies_and_reports_its_result(
    backend: Backend,
) {
    use crate::events::event_body;
    use crate::support::{
        PublishedRound, TestApp, extract_input_value, id_after, location, published_round,
    };
    use soulstone_engine::bot::BotKind;
    use soulstone_engine::mage_knight::MageKnight;

    let app = TestApp::spawn(backend).await;
    let mut body = event_body("Knights Online");
    body["game_system"] = serde_json::json!("mk");
    body["encounter_size"] = serde_json::json!(300);
    body["tiebreakers"] = serde_json::json!("points_eliminated,sos");
    body["rounds_planned"] = serde_json::json!(1);
    let PublishedRound {
        event,
        pairing,
        to,
        to_browser,
        browsers,
        ..
    } = published_round(&app, body, false).await;
    let marked = to_browser
        .post_form(&format!("/events/{event}/rounds/1/digital"), &[])
        .await;
    assert_eq!(marked.status().as_u16(), 303);

    let play = format!("/events/{event}/games/{pairing}/play");
    let bring = format!("/events/{event}/games/{pairing}/crews");
    let (status, page) = browsers[0].get_text(&play).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("army not brought yet") && page.contains("Brasshold Vanguard"),
        "{page}"
    );
    let refused_with = |reason: &'static str, fields: Vec<(&'static str, String)>| {
        let (browser, bring, play) = (&browsers[0], bring.clone(), play.clone());
        async move {
            crate::support::refused_when_brought(browser, (&bring, &play), reason, &fields).await;
        }
    };
    refused_with(
        "This is a Mage Knight game: bring an army.",
        vec![("crew", "mudlark-50".into())],
    )
    .await;
    refused_with(
        "no warrior is called Sir Nobody",
        vec![
            ("game", "mk".into()),
            (
                "army_text",
                "name = \"Odd\"\nbuild_total = 300\nwarriors = [\"Sir Nobody\"]".into(),
            ),
        ],
    )
    .await;
    // Twice the event's build total in warriors: the army's own total
    // allows them, the event's does not.
    let ready = std::fs::read_to_string("content/mk/armies/thornwake-wardens.toml").unwrap();
    let doubled: toml::Value = toml::from_str(&ready).unwrap();
    let mut warriors = doubled["warriors"].as_array().unwrap().clone();
    warriors.extend(warriors.clone());
    let big = format!(
        "name = \"Too Big\"\nbuild_total = 600\nwarriors = {}",
        toml::Value::Array(warriors)
    );
    refused_with("Too Big", vec![("game", "mk".into()), ("army_text", big)]).await;

    let first = browsers[0]
        .post_form(&bring, &[("game", "mk"), ("army", "Brasshold Vanguard")])
        .await;
    assert_eq!(location(&first), play);
    let (_, mine) = browsers[0].get_text(&play).await;
    assert!(mine.contains("You brought: Brasshold Vanguard"), "{mine}");
    let (_, theirs) = browsers[1].get_text(&play).await;
    assert!(
        theirs.contains("army brought") && !theirs.contains("Brasshold Vanguard."),
        "{theirs}"
    );
    let second = browsers[1]
        .post_form(&bring, &[("game", "mk"), ("army_text", &ready)])
        .await;
    let started = location(&second);
    let hosted_id = id_after(&started, "/games/");
    let to_own_page = browsers[1].get(&started).await;
    assert_eq!(location(&to_own_page), format!("/mk/games/{hosted_id}"));
    let (status, page) = browsers[1]
        .get_text(&format!("/mk/games/{hosted_id}"))
        .await;
    assert_eq!(status, 200);
    assert!(page.contains("You are Player "), "{page}");
    let (status, watched) = to_browser.get_text(&format!("/mk/games/{hosted_id}")).await;
    assert_eq!(status, 200);
    assert!(
        watched.contains("You watch as one of the event") && !watched.contains("You are"),
        "{watched}"
    );

    // The opponent's page hears that the game moved on when a player's
    // page sends an order (here, the first player's entropy).
    let mut notices = browsers[1]
        .get(&format!("/mk/games/{hosted_id}/moves"))
        .await;
    assert_eq!(notices.status().as_u16(), 200);
    let (_, page) = browsers[0]
        .get_text(&format!("/mk/games/{hosted_id}"))
        .await;
    let version = extract_input_value(&page, "version").expect("a version");
    let key = extract_input_value(&page, "key").expect("a key");
    let sent = browsers[0]
        .post_form(
            &format!("/mk/games/{hosted_id}/order"),
            &[
                ("version", version.as_str()),
                ("key", key.as_str()),
                ("kind", "contribute"),
                ("entropy", "mine"),
            ],
        )
        .await;
    assert_eq!(sent.status().as_u16(), 303);
    let mut heard = String::new();
    while !heard.contains("event: moved") {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), notices.chunk())
            .await
            .expect("a notice within 10 s")
            .expect("the stream reads")
            .expect("the stream is open");
        heard.push_str(std::str::from_utf8(&chunk).unwrap());
    }
    drop(notices);

    // Both play it out, each for their own seat.
    app.with_conn(move |conn| play_out::<MageKnight>(conn, hosted_id, BotKind::Random))
        .await;
    let game = app
        .with_conn(move |conn| hosted::load::<MageKnight>(conn, hosted_id).unwrap())
        .await;
    assert_eq!(game.status, HostedStatus::Finished);
    let outcome = game.state.outcome.clone().expect("an outcome");
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let table = &round["tables"][0];
    assert_eq!(table["status"], "confirmed", "{table}");
    let score = &table["score"];
    assert_eq!(
        [&score["a_objectives"], &score["b_objectives"]],
        [
            &serde_json::json!(outcome.objectives[0]),
            &serde_json::json!(outcome.objectives[1])
        ],
        "{table}"
    );
    assert_eq!(
        score["a_eliminated"],
        serde_json::json!(game.state.eliminated_points[0]),
        "{table}"
    );
}

both_backends!(a_mage_knight_invitation_starts_a_game_between_two_armies);

/// A game by invitation with armies: a bad army is refused with its reason
/// and kept on the page; the invitation says it is to a Mage Knight game,
/// refuses crews from the one accepting and changes nothing; an army
/// accepts it, and the casual game starts with the inviter in seat A and
/// the chosen clock, at the Mage Knight page.
async fn a_mage_knight_invitation_starts_a_game_between_two_armies(backend: Backend) {
    use crate::support::{TestApp, location};
    use soulstone::hosted::{HostedKind, SeatHolder};
    use soulstone_engine::mage_knight::MageKnight;

    let app = TestApp::spawn(backend).await;
    let (ann_id, ann) = app.user("ann@example.org", "Ann").await;
    let (bo_id, bo) = app.user("bo@example.org", "Bo").await;
    let (status, page) = ann.get_text("/play/invite").await;
    assert_eq!(status, 200);
    assert!(
        page.contains("Or a Mage Knight game")
            && page.contains("Brasshold Vanguard")
            && page.contains("id=\"f-minutes\"")
            && page.contains("id=\"f-mk-minutes\""),
        "{page}"
    );
    let odd = "name = \"Odd\"\nbuild_total = 300\nwarriors = [\"Sir Nobody\"]";
    let refused = ann
        .post_form(
            "/play/invite",
            &[("game", "mk"), ("army_text", odd), ("minutes", "")],
        )
        .await;
    assert_eq!(refused.status().as_u16(), 422);
    let page = refused.text().await.unwrap();
    assert!(
        page.contains("no warrior is called Sir Nobody")
            && page.contains("Sir Nobody&#34;]</textarea>"),
        "{page}"
    );
    let made = ann
        .post_form(
            "/play/invite",
            &[
                ("game", "mk"),
                ("army", "Brasshold Vanguard"),
                ("minutes", "30"),
            ],
        )
        .await;
    let link = location(&made);
    assert!(link.starts_with("/play/invite/"), "{link}");
    let (_, invitation) = bo.get_text(&link).await;
    assert!(
        invitation.contains("<dd>Mage Knight</dd>") && invitation.contains("Your Mage Knight army"),
        "{invitation}"
    );

    let crews = bo
        .post_form(&format!("{link}/accept"), &[("crew", "mudlark-50")])
        .await;
    assert_eq!(crews.status().as_u16(), 422);
    let page = crews.text().await.unwrap();
    assert!(
        page.contains("This invitation is to a Mage Knight game: bring an army."),
        "{page}"
    );
    let (_, still) = bo.get_text(&link).await;
    assert!(still.contains("open, until"), "nothing changed: {still}");

    let accepted = bo
        .post_form(
            &format!("{link}/accept"),
            &[("game", "mk"), ("army", "Thornwake Wardens")],
        )
        .await;
    let started = location(&accepted);
    let id = crate::support::id_after(&started, "/games/");
    assert_eq!(location(&bo.get(&started).await), format!("/mk/games/{id}"));
    let game = app
        .with_conn(move |conn| hosted::load::<MageKnight>(conn, id).unwrap())
        .await;
    assert_eq!(game.kind, HostedKind::Casual);
    assert_eq!(
        game.seats,
        [SeatHolder::Account(ann_id), SeatHolder::Account(bo_id)]
    );
    assert_eq!(
        game.state.army_names,
        [
            "Brasshold Vanguard".to_owned(),
            "Thornwake Wardens".to_owned()
        ]
    );
    assert!(game.clocks.is_some(), "the chosen clock runs");
}

/// Plays game `id` of system `G` to its end through the host with
/// `kind`'s orders, one a look, each sent by the account of the first seat
/// the game waits for (both may be asked at once, but each answers at the
/// version it saw; the host plays the bots' seats). Every order must be
/// applied.
pub(crate) fn play_out<G: soulstone_engine::system::TableGame + std::fmt::Debug>(
    conn: &mut soulstone::db::DbConnection,
    id: i64,
    kind: soulstone_engine::bot::BotKind,
) {
    use soulstone::hosted::{SeatHolder, Submitted};

    for step in 0..5_000u64 {
        let game = hosted::load::<G>(conn, id).unwrap();
        if G::is_over(&game.state) {
            return;
        }
        let waiting = G::waiting_for(&game.state);
        let Some((seat, account)) =
            waiting
                .iter()
                .find_map(|seat| match game.seats[seat.index()] {
                    SeatHolder::Account(account) => Some((*seat, account)),
                    SeatHolder::Bot(_) => None,
                })
        else {
            // A searching bot: its turn, as the server's threads play it.
            assert!(
                game.searching_bot_due(),
                "the game waits for someone whenever it is not over"
            );
            soulstone::hosted::bot_turns::play_searching_bot(conn, id, now()).unwrap();
            continue;
        };
        let order = G::bot_command(&game.state, seat, kind, step).unwrap();
        let made = hosted::submit::<G>(
            conn,
            id,
            account,
            G::version(&game.state),
            &format!("k{step}{seat:?}"),
            order,
            now(),
        )
        .unwrap();
        assert!(matches!(made, Submitted::Applied { .. }), "{made:?}");
    }
    panic!("game {id} did not end within 5,000 orders");
}
