//! Games in a browser: a practice game against a bot and digital rounds
//! of an event, played through the game page (its forms and buttons).

use super::*;
use soulstone_engine::system::Malifaux;

both_backends!(
    a_player_plays_a_practice_game_in_the_browser,
    two_players_play_a_digital_round_in_their_browsers,
    two_players_play_a_third_edition_digital_round_in_their_browsers,
);

/// Submits the game page's form of `kind` (its first, if several) by
/// pressing its button (by the DOM's press).
async fn submit_choice(client: &Client, kind: &str) {
    press_by_script(
        client,
        "document.querySelector(`form.choice-${arguments[0]} button`).click();",
        vec![json!(kind)],
        &format!("{kind} form"),
    )
    .await;
}

async fn fill_in_form(client: &Client, kind: &str, name: &str, value: &str) {
    let field = client
        .find(Locator::Css(&format!(
            "form.choice-{kind} [name=\"{name}\"]"
        )))
        .await
        .unwrap_or_else(|e| panic!("no {name} in the {kind} form: {e}"));
    field
        .clear()
        .await
        .unwrap_or_else(|e| panic!("cannot clear {name} in the {kind} form: {e}"));
    field
        .send_keys(value)
        .await
        .unwrap_or_else(|e| panic!("cannot type {value} into {name} in the {kind} form: {e}"));
}

async fn tick_in_form(client: &Client, kind: &str, name: &str, value: &str) {
    client
        .find(Locator::Css(&format!(
            "form.choice-{kind} input[name=\"{name}\"][value=\"{value}\"]"
        )))
        .await
        .unwrap_or_else(|e| panic!("no {name} {value} in the {kind} form: {e}"))
        .click()
        .await
        .unwrap();
}

/// Sends `command` for `seat` of hosted game `id` through the game page the
/// browser shows: the form that writes it (a point, ticked cards or models,
/// the cut) or the button that is it. A path the forms cannot write
/// (climbing, several legs) goes through the API, as the page's script
/// would send it. Checks the game moved on; says which form was used
/// ("command" for a button, "api" for the API).
#[allow(clippy::too_many_arguments)]
async fn send_through_the_page(
    client: &Client,
    app: &TestApp,
    api: &crate::support::ApiClient,
    id: i64,
    game: &soulstone::hosted::HostedGame,
    seat: soulstone_engine::Seat,
    command: &soulstone_engine::PlayerCommand,
    n: u64,
) -> &'static str {
    use soulstone::hosted;
    use soulstone::web::play::words;
    use soulstone_engine::command::Interaction;
    use soulstone_engine::table::inches;
    use soulstone_engine::{PlayerCommand, Viewer};
    // Loaded afresh: the other player (or a bot) may have moved since.
    let url = format!("{}/games/{id}", current_origin(client).await);
    visit(client, &url).await;
    let kind = match command {
        PlayerCommand::Deploy { model, at } => {
            set_value(client, "model", &model.0.to_string()).await;
            fill_in_form(client, "deploy", "x", &format!("{:.3}", inches(at.x))).await;
            fill_in_form(client, "deploy", "y", &format!("{:.3}", inches(at.y))).await;
            "deploy"
        }
        PlayerCommand::Summon {
            model,
            at: Some(at),
        } => {
            // A summoned model's spot is a point in the summon form.
            set_value(client, "summon", model).await;
            fill_in_form(client, "summon", "x", &format!("{:.3}", inches(at.x))).await;
            fill_in_form(client, "summon", "y", &format!("{:.3}", inches(at.y))).await;
            "summon"
        }
        PlayerCommand::Walk { path, .. } if path.len() == 1 && path[0].z == 0 => {
            fill_in_form(client, "walk", "x", &format!("{:.3}", inches(path[0].x))).await;
            fill_in_form(client, "walk", "y", &format!("{:.3}", inches(path[0].y))).await;
            "walk"
        }
        PlayerCommand::Charge { to, .. } if to.z == 0 => {
            fill_in_form(client, "charge", "x", &format!("{:.3}", inches(to.x))).await;
            fill_in_form(client, "charge", "y", &format!("{:.3}", inches(to.y))).await;
            "charge"
        }
        PlayerCommand::Interact {
            with: Interaction::MakeSchemeMarker { at, .. },
        } => {
            fill_in_form(
                client,
                "scheme_marker",
                "x",
                &format!("{:.3}", inches(at.x)),
            )
            .await;
            fill_in_form(
                client,
                "scheme_marker",
                "y",
                &format!("{:.3}", inches(at.y)),
            )
            .await;
            "scheme_marker"
        }
        PlayerCommand::Contribute { .. } => {
            // Without scripts nobody fills the cut in: the player types it.
            fill_in_form(client, "entropy", "entropy", &format!("my own cut {n}")).await;
            "entropy"
        }
        PlayerCommand::DiscardBeforeDrawing { cards } => {
            for card in cards {
                tick_in_form(client, "discard_any", "card", &card.to_string()).await;
            }
            "discard_any"
        }
        PlayerCommand::DiscardDown { cards } => {
            for card in cards {
                tick_in_form(client, "discard_cards", "card", &card.to_string()).await;
            }
            "discard_cards"
        }
        PlayerCommand::SplitCrew { first } => {
            for model in first {
                tick_in_form(client, "split_crew", "model", &model.0.to_string()).await;
            }
            "split_crew"
        }
        PlayerCommand::Walk { .. } | PlayerCommand::Charge { .. } => {
            let body = json!({"version": game.state.version, "idempotency_key": format!("page-api-{n}"), "command": command});
            let (status, reply) = api.post(&format!("/games/{id}/commands"), body).await;
            assert_eq!(status, 200, "{reply}");
            visit(client, &url).await;
            return "api";
        }
        other => {
            // The button that sends exactly this command (its label starts
            // with its keyboard shortcut's number).
            let json = serde_json::to_string(other).unwrap();
            let xpath = format!(
                "//div[@class='choices']/form[input[@name='command' and @value={}]]//button",
                xpath_literal(&json)
            );
            let label = words::command(&game.state, Viewer::Player(seat), other);
            click_button_at(client, &xpath, &label).await;
            "command"
        }
    };
    if kind != "command" {
        submit_choice(client, kind).await;
    }
    let text = body_text(client).await;
    assert!(!text.contains("Not allowed"), "{kind}: {text}");
    let after = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
        .await;
    assert!(
        after.state.version > game.state.version,
        "the {kind} form was not applied: {text}"
    );
    kind
}

/// A signed-in player starts a practice game from the home page and plays
/// its setup (secret choices, deployment by coordinates, the cut, the
/// first discards) and its first activations through the page's forms, at
/// a phone's size; the rest is played through the API the page's forms
/// stand for, and the finished game's page shows the result.
async fn a_player_plays_a_practice_game_in_the_browser(backend: Backend) {
    use soulstone::hosted::HostedStatus;
    use soulstone_engine::Seat;
    use soulstone_engine::bot::{Bot, BotKind};

    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-practice", backend.name());
    app.create_account("solo@example.org", "Sol Player", false)
        .await;
    let mut driver = Driver::start();
    let session = driver.session_without_scripts().await;
    let client = &session;
    sign_in(client, &app, "solo@example.org").await;
    visit(client, &app.url("/")).await;
    follow_link(client, "Play a practice game").await;
    check_page(client, &format!("{prefix}-new")).await;
    // The easy level: a whole game against the normal bot's searches would
    // load the machine the timing-sensitive tests share (its replies off
    // the request path are tested in bot_turns).
    set_value(client, "bot", "easy").await;
    click_button(client, "Start the game").await;
    let url = client.current_url().await.unwrap().to_string();
    let id: i64 = url.rsplit('/').next().unwrap().parse().unwrap();
    check_page(client, &format!("{prefix}-setup")).await;

    let mut through_the_page = 0;
    let mut kinds_used = std::collections::BTreeSet::new();
    for n in 0..150u64 {
        let game = crate::bot_turns::until_the_players_turn(&app, id).await;
        let encounter = game.state.encounter.as_deref().unwrap();
        // The game takes the decisions with one option, so how many are
        // left to the page varies with the deal: play on until it has had
        // its twenty (the loop's bound ends a game that never gives them).
        if encounter.turn >= 1 && encounter.activated.len() >= 4 && through_the_page >= 20 {
            break;
        }
        let command = Bot::new(BotKind::Random, Seat::A, n)
            .decide(&game.state)
            .expect("the game waits for the player");
        let api = app.api_client("solo@example.org").await;
        let sent = send_through_the_page(client, &app, &api, id, &game, Seat::A, &command, n).await;
        if sent != "api" {
            through_the_page += 1;
            kinds_used.insert(sent);
        }
    }
    // (Turn 1 starts with empty hands: nothing to discard, so no form.)
    for kind in ["command", "deploy", "entropy"] {
        assert!(
            kinds_used.contains(kind),
            "no {kind} through the page: {kinds_used:?}"
        );
    }
    assert!(
        through_the_page >= 20,
        "{through_the_page} commands through the page"
    );
    check_page(client, &format!("{prefix}-turn1")).await;

    // The rest through the API.
    let api = app.api_client("solo@example.org").await;
    for n in 0..20_000u64 {
        let game = crate::bot_turns::until_the_players_turn(&app, id).await;
        if game.status == HostedStatus::Finished || game.state.ended {
            break;
        }
        let command = Bot::new(BotKind::Random, Seat::A, n ^ 0x5eed)
            .decide(&game.state)
            .expect("the game waits for the player");
        let body = json!({"version": game.state.version, "idempotency_key": format!("r{n}"), "command": command});
        let (status, reply) = api.post(&format!("/games/{id}/commands"), body).await;
        assert_eq!(status, 200, "{reply}");
    }
    visit(client, &url).await;
    let text = body_text(client).await;
    assert!(text.contains("The game is over"), "{text}");
    check_page(client, &format!("{prefix}-over")).await;
    session.close().await.unwrap();
}

/// A digital round in two players' browsers (and a spectator's): the
/// organiser has the round played in the browser, each player brings crews
/// from the pairing's page, and they play setup, deployment, a move, an
/// attack, a cheat, a trigger and an end phase through their game pages at
/// a phone's size; the rest through the API their pages stand for. The
/// spectator's page never shows a hand, the result lands in the standings
/// with nobody typing a score.
async fn two_players_play_a_digital_round_in_their_browsers(backend: Backend) {
    use crate::events::event_body;
    use soulstone::hosted::{self, HostedStatus};
    use soulstone_engine::bot::{Bot, BotKind};
    use soulstone_engine::pending::Choice;
    use soulstone_engine::{PlayerCommand, Seat};

    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-digital", backend.name());
    let (event, to) = two_player_digital_round(&app, event_body("Browser Cup"), false).await;

    let mut driver = Driver::start();
    let ann = driver.session_without_scripts().await;
    let bo = driver.session_without_scripts().await;
    let fan = driver.session().await;
    sign_in(&ann, &app, "ann@example.org").await;
    sign_in(&bo, &app, "bo@example.org").await;
    let base = current_origin(&ann).await;
    // The organiser's round page says what was moved to the browser and
    // no longer offers a move that has nothing left to move.
    let desk = driver.session().await;
    sign_in(&desk, &app, "dto@example.org").await;
    visit(&desk, &format!("{base}/events/{event}/rounds/1")).await;
    let text = body_text(&desk).await;
    assert!(text.contains("1 game is played in the browser"), "{text}");
    assert!(
        !text.contains("games in the browser") && !text.contains("game in the browser"),
        "nothing is left to move: {text}"
    );
    check_page(&desk, &format!("{prefix}-round-moved")).await;
    desk.close().await.unwrap();
    // Each brings a crew of their own choosing on the pairing's page
    // (crews whose actions have triggers).
    for (client, name, crew) in [(&ann, "ann", "mudlark-50"), (&bo, "bo", "tidewright-50")] {
        open_the_pairing_page(client, &base, event).await;
        check_page(client, &format!("{prefix}-crews-{name}")).await;
        bring_crew(client, crew).await;
    }
    let url = bo.current_url().await.unwrap().to_string();
    assert!(url.contains("/games/"), "the game started: {url}");
    let id: i64 = url.rsplit('/').next().unwrap().parse().unwrap();
    let apis = [
        app.api_client("ann@example.org").await,
        app.api_client("bo@example.org").await,
    ];
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
        .await;
    let (_, me) = apis[0].get("/me").await;
    let ann_seat = game.seat_of(me["id"].as_i64().unwrap()).unwrap();
    let client_of = |seat: Seat| {
        if seat == ann_seat {
            (&ann, &apis[0])
        } else {
            (&bo, &apis[1])
        }
    };

    // Each of these goes through a player's page the first time it comes
    // up (a deployment, a move, an attack, a cheat, a trigger, the end
    // phase's decisions); everything else through the API, to keep the
    // test short.
    let mut done = std::collections::BTreeSet::new();
    let wanted = ["deploy", "move", "attack", "cheat", "trigger", "end phase"];
    let mut n = 0u64;
    while !wanted.iter().all(|w| done.contains(w)) {
        n += 1;
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
            .await;
        assert_ne!(
            game.status,
            HostedStatus::Finished,
            "the game ended first: {done:?}"
        );
        let encounter = game.state.encounter.as_deref().unwrap();
        let in_end_phase = matches!(
            encounter.step,
            soulstone_engine::encounter::Step::RevealScheme { .. }
                | soulstone_engine::encounter::Step::AbandonScheme { .. }
                | soulstone_engine::encounter::Step::SelectSchemes
        );
        let pending = soulstone_engine::pending(&game.state);
        let decision = &pending.decisions[0];
        let seat = decision.seat;
        let offered = |wanted: fn(&PlayerCommand) -> bool| {
            decision.choices.iter().find_map(|c| match c {
                Choice::Command { command } if wanted(command) => Some(command.clone()),
                _ => None,
            })
        };
        // The initiator cheats in a card that brings a trigger's suit when it
        // has one (so that a trigger comes up soon); any cheat, a trigger, an
        // attack on an enemy when offered; else the greedy bot, which closes
        // in so that attacks come up.
        let brings_a_trigger = |command: &PlayerCommand| {
            let (PlayerCommand::Cheat { card }, Some(duel)) = (command, game.state.duel()) else {
                return false;
            };
            let initiator = duel.side(soulstone_engine::duel::Role::Initiator);
            initiator.is_some_and(|side| side.seat == seat)
                && card.suit().is_some_and(|suit| {
                    let total = initiator
                        .map_or(soulstone_engine::duel::Suits::none(), |side| side.suits)
                        .with(suit);
                    duel.spec
                        .triggers
                        .iter()
                        .any(|t| t.soulstones == 0 && total.contains_all(t.suits))
                })
        };
        let (command, what) = if let Some(c) = decision.choices.iter().find_map(|c| match c {
            Choice::Command { command } if brings_a_trigger(command) => Some(command.clone()),
            _ => None,
        }) {
            (c, Some("cheat"))
        } else if let Some(c) = offered(|c| matches!(c, PlayerCommand::Cheat { .. })) {
            (c, Some("cheat"))
        } else if let Some(c) = offered(|c| matches!(c, PlayerCommand::DeclareTrigger { .. })) {
            (c, Some("trigger"))
        } else if let Some(c) = decision.choices.iter().find_map(|c| match c {
            Choice::Command { command } if attacks_with_triggers(&game.state, seat, command) => {
                Some(command.clone())
            }
            _ => None,
        }) {
            // Attacks an enemy whenever it can with an action that has
            // triggers: such duels bring cheats and triggers.
            (c, Some("attack"))
        } else {
            let c = Bot::new(BotKind::Greedy, seat, n)
                .decide(&game.state)
                .unwrap();
            (c, None)
        };
        let by_page = match &command {
            PlayerCommand::Deploy { .. } => !done.contains("deploy"),
            PlayerCommand::Walk { .. } | PlayerCommand::Charge { .. } => !done.contains("move"),
            _ if in_end_phase => !done.contains("end phase"),
            _ => what.is_some_and(|w| !done.contains(w)),
        };
        let (client, api) = client_of(seat);
        if !by_page {
            let body = json!({"version": game.state.version, "idempotency_key": format!("quick-{n}"), "command": command});
            let (status, reply) = api.post(&format!("/games/{id}/commands"), body).await;
            assert_eq!(status, 200, "{reply}");
            continue;
        }
        let sent = send_through_the_page(client, &app, api, id, &game, seat, &command, n).await;
        if in_end_phase && sent != "api" {
            done.insert("end phase");
        }
        match (sent, what) {
            ("deploy", _) => {
                done.insert("deploy");
            }
            ("walk" | "charge", _) => {
                done.insert("move");
            }
            ("command", Some(what)) if done.insert(what) => {
                check_page(client, &format!("{prefix}-{}", what.replace(' ', "-"))).await;
                if what == "attack" {
                    // The table mid-activation: zones, health, the acting
                    // model's rings.
                    let board = client.find(Locator::Css(".board svg")).await.unwrap();
                    let png = board.screenshot().await.unwrap();
                    std::fs::write(artifacts_dir().join(format!("{prefix}-board.png")), png)
                        .unwrap();
                }
            }
            _ => {}
        }
        // The spectator looks in after each page: no hand.
        {
            visit(&fan, &format!("{base}/games/{id}")).await;
            let text = body_text(&fan).await;
            assert!(text.contains("You are watching"), "{text}");
            let hands = fan.find_all(Locator::Css(".hand")).await.unwrap();
            assert!(hands.is_empty(), "the spectator sees no hand");
        }
    }
    check_page(&fan, &format!("{prefix}-spectator")).await;

    // The rest through the API, each player for their own seat.
    for n in 0..20_000u64 {
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
            .await;
        if game.status == HostedStatus::Finished {
            break;
        }
        let seat = soulstone_engine::pending(&game.state).decisions[0].seat;
        let command = Bot::new(BotKind::Random, seat, n ^ 0xd161)
            .decide(&game.state)
            .unwrap();
        let body = json!({"version": game.state.version, "idempotency_key": format!("rest-{n}"), "command": command});
        let (status, reply) = client_of(seat)
            .1
            .post(&format!("/games/{id}/commands"), body)
            .await;
        assert_eq!(status, 200, "{reply}");
    }
    visit(&ann, &format!("{base}/games/{id}")).await;
    check_page(&ann, &format!("{prefix}-over")).await;
    // The result reported itself: confirmed, and in the standings.
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    assert_eq!(round["tables"][0]["status"], "confirmed", "{round}");
    visit(&fan, &format!("{base}/events/{event}/standings")).await;
    let text = body_text(&fan).await;
    assert!(
        text.contains("Ann Archer") && text.contains("Bo Brand"),
        "{text}"
    );
    check_page(&fan, &format!("{prefix}-standings")).await;
    for client in [ann, bo, fan] {
        client.close().await.unwrap();
    }
}

/// An event of `body` with Ann Archer and Bo Brand registered and checked
/// in, its first round paired (its scenario flipped, with `flip_setup`),
/// published and to be played in the browser. Returns the event and its
/// organiser's API client.
async fn two_player_digital_round(
    app: &TestApp,
    body: serde_json::Value,
    flip_setup: bool,
) -> (i64, crate::support::ApiClient) {
    use crate::events::{create_event, set_status};
    let (_, to_browser) = app.user("dto@example.org", "Tess Organiser").await;
    let to = app.api_client("dto@example.org").await;
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    for (email, name) in [
        ("ann@example.org", "Ann Archer"),
        ("bo@example.org", "Bo Brand"),
    ] {
        app.create_account(email, name, false).await;
        let api = app.api_client(email).await;
        let (status, entry) = api
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(status, 201, "{entry}");
        to.post(
            &format!("/events/{event}/players/{}/check-in", entry["id"]),
            json!({"checked_in": true}),
        )
        .await;
    }
    set_status(&to, event, "running").await;
    to.post(&format!("/events/{event}/rounds"), json!({})).await;
    if flip_setup {
        let flipped = to_browser
            .post_form(&format!("/events/{event}/rounds/1/setup"), &[])
            .await;
        assert_eq!(flipped.status().as_u16(), 303);
    }
    to.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let marked = to_browser
        .post_form(&format!("/events/{event}/rounds/1/digital"), &[])
        .await;
    assert_eq!(marked.status().as_u16(), 303);
    (event, to)
}

/// A player opens their digital pairing's page from the round's, through
/// its "Your game" button (which, in a browser round, leads to the game
/// rather than to the paper report).
async fn open_the_pairing_page(client: &Client, base: &str, event: i64) {
    visit(client, &format!("{base}/events/{event}/rounds/1")).await;
    follow_link(client, "Your game: play it in the browser").await;
}

/// On the pairing's page, brings the one shipped crew `crew`.
async fn bring_crew(client: &Client, crew: &str) {
    client
        .execute(
            "document.querySelectorAll('input[name=crew]').forEach((box) => { box.checked = box.value === arguments[0]; });",
            vec![json!(crew)],
        )
        .await
        .unwrap();
    click_button(client, "Bring these crews").await;
}

/// A 3rd edition event's digital round in two players' browsers: the
/// pairing's page offers only 3rd edition crews; each player brings one
/// and plays the game's first decisions through their game page
/// (declaring, choosing two schemes, splitting and deploying, the start
/// phase), the rest through the API their page stands for, to the end of
/// turn 5; the result lands in the event.
async fn two_players_play_a_third_edition_digital_round_in_their_browsers(backend: Backend) {
    use crate::events::event_body;
    use soulstone::hosted::{self, HostedStatus};
    use soulstone_engine::bot::{Bot, BotKind};
    use soulstone_engine::pending::Choice;
    use soulstone_engine::{PlayerCommand, Seat};

    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-m3e-digital", backend.name());
    let mut body = event_body("Third Edition Cup");
    body["game_system"] = json!("m3e");
    body["pool"] = json!("m3e-core");
    let (event, to) = two_player_digital_round(&app, body, true).await;

    let mut driver = Driver::start();
    let ann = driver.session_without_scripts().await;
    let bo = driver.session_without_scripts().await;
    sign_in(&ann, &app, "ann@example.org").await;
    sign_in(&bo, &app, "bo@example.org").await;
    let base = current_origin(&ann).await;
    for (client, name, crew) in [(&ann, "ann", "assayers-50"), (&bo, "bo", "lodestar-50")] {
        open_the_pairing_page(client, &base, event).await;
        let text = body_text(client).await;
        assert!(
            text.contains("Malifaux 3rd edition") && !text.contains("Malifaux 4th edition"),
            "only 3rd edition crews are offered: {text}"
        );
        check_page(client, &format!("{prefix}-crews-{name}")).await;
        bring_crew(client, crew).await;
    }
    let url = bo.current_url().await.unwrap().to_string();
    assert!(url.contains("/games/"), "the game started: {url}");
    let id: i64 = url.rsplit('/').next().unwrap().parse().unwrap();
    let apis = [
        app.api_client("ann@example.org").await,
        app.api_client("bo@example.org").await,
    ];
    let game = app
        .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
        .await;
    assert_eq!(game.state.edition, soulstone_engine::Edition::Third);
    let (_, me) = apis[0].get("/me").await;
    let ann_seat = game.seat_of(me["id"].as_i64().unwrap()).unwrap();
    let client_of = |seat: Seat| {
        if seat == ann_seat {
            (&ann, &apis[0])
        } else {
            (&bo, &apis[1])
        }
    };

    // Setup and the first start phase through the pages; claims are
    // confirmed (a dispute would send the result to the organisers).
    let mut through_the_page = std::collections::BTreeSet::new();
    let mut last_turn = 0;
    for n in 0..40_000u64 {
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
            .await;
        if game.status == HostedStatus::Finished {
            break;
        }
        let encounter = game.state.encounter.as_deref().unwrap();
        last_turn = encounter.turn;
        let on_the_page = encounter.turn <= 1 && encounter.activated.is_empty();
        let pending = soulstone_engine::pending(&game.state);
        let decision = &pending.decisions[0];
        let seat = decision.seat;
        let confirm = decision.choices.iter().any(|c| {
            matches!(
                c,
                Choice::Command {
                    command: PlayerCommand::ConfirmClaim
                }
            )
        });
        let command = if confirm {
            PlayerCommand::ConfirmClaim
        } else {
            Bot::new(BotKind::Random, seat, n ^ 0x3e)
                .decide(&game.state)
                .unwrap()
        };
        let (client, api) = client_of(seat);
        if on_the_page {
            let sent = send_through_the_page(client, &app, api, id, &game, seat, &command, n).await;
            through_the_page.insert(sent);
            continue;
        }
        let body = json!({"version": game.state.version, "idempotency_key": format!("m3e-{n}"), "command": command});
        let (status, reply) = api.post(&format!("/games/{id}/commands"), body).await;
        assert_eq!(status, 200, "{reply}");
    }
    for kind in ["command", "deploy"] {
        assert!(
            through_the_page.contains(kind),
            "no {kind} through the page: {through_the_page:?}"
        );
    }
    assert_eq!(last_turn, 5, "five turns");
    visit(&ann, &format!("{base}/games/{id}")).await;
    check_page(&ann, &format!("{prefix}-over")).await;
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    assert_eq!(round["tables"][0]["status"], "confirmed", "{round}");
    for client in [ann, bo] {
        client.close().await.unwrap();
    }
}

/// Whether `command` is an action of `seat`'s at an enemy model, one that
/// has triggers on the card it comes from.
fn attacks_with_triggers(
    state: &soulstone_engine::GameState,
    seat: soulstone_engine::Seat,
    command: &soulstone_engine::PlayerCommand,
) -> bool {
    let soulstone_engine::PlayerCommand::TakeAction {
        action,
        target: Some(target),
        ..
    } = command
    else {
        return false;
    };
    let at_an_enemy = state.model(*target).is_some_and(|m| m.owner != seat);
    at_an_enemy
        && state.models.iter().filter(|m| m.owner == seat).any(|m| {
            m.card
                .actions
                .iter()
                .any(|a| &a.name == action && !a.triggers.is_empty())
        })
}
