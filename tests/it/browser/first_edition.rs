//! A 1st edition game in a real browser, without scripts and at a phone's
//! size: the practice page starts it, the game page's buttons, its
//! deployment form and its walk form play it.

use super::*;
use soulstone_engine::Seat;
use soulstone_engine::first_edition::{FirstEdition, Stage};
use soulstone_engine::system::TableGame;

both_backends!(a_player_plays_a_first_edition_game_in_the_browser);

/// Presses the button of the first form whose `kind` field is `kind`.
async fn press(client: &Client, kind: &str) {
    press_by_script(
        client,
        "document.querySelector(`input[name=kind][value=${arguments[0]}]`).form.querySelector('button').click();",
        vec![json!(kind)],
        &format!("{kind} form"),
    )
    .await;
}

async fn game_of(app: &TestApp, id: i64) -> soulstone::hosted::HostedGame<FirstEdition> {
    app.with_conn(move |conn| soulstone::hosted::load::<FirstEdition>(conn, id).unwrap())
        .await
}

/// A signed-in player starts a 1st edition practice game from the play
/// page, cuts the decks, deploys a model at a typed point, walks a model
/// to a typed point and presses offered choices; the rest is played
/// through the host, and the page shows the game over. Every page passes
/// the accessibility and phone-width checks.
async fn a_player_plays_a_first_edition_game_in_the_browser(backend: Backend) {
    use soulstone_engine::bot::BotKind;
    use soulstone_engine::first_edition::bots::choices;
    use soulstone_engine::first_edition::flow::Order;
    use soulstone_engine::first_edition::{actions::Action, hidden_from};

    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-first-edition", backend.name());
    app.create_account("grice@example.org", "Ottoline Grice", false)
        .await;
    let mut driver = Driver::start();
    let session = driver.session_without_scripts().await;
    let client = &session;
    sign_in(client, &app, "grice@example.org").await;
    visit(client, &app.url("/play")).await;
    // The easy level: the rest of the game is played through the host
    // below, which a normal bot would leave to its threads.
    client
        .execute(
            "document.getElementById('f-m1e-bot').value = 'easy';",
            vec![],
        )
        .await
        .expect("the 1st edition opponent is chosen");
    click_button(client, "Start a 1st edition game").await;
    let url = client.current_url().await.unwrap().to_string();
    let id: i64 = url.rsplit('/').next().unwrap().parse().unwrap();
    assert!(url.contains("/m1e/games/"), "{url}");
    check_page(client, &format!("{prefix}-start")).await;

    let mut used = std::collections::BTreeSet::new();
    for _ in 0..120 {
        let game = game_of(&app, id).await;
        if FirstEdition::is_over(&game.state) || used.len() >= 4 {
            break;
        }
        visit(client, &url).await;
        let version = game.state.version;
        let seen = hidden_from(&game.state, Some(Seat::A));
        let kind = match &seen.stage {
            Stage::Contributing => "contribute",
            Stage::Deploying { .. } if !used.contains("deploy") => {
                let Some(Order::Deploy { model, at }) = choices(&seen, Seat::A).into_iter().next()
                else {
                    panic!("a deployment is offered");
                };
                set_value(client, "model", &model.0.to_string()).await;
                fill(
                    client,
                    "x",
                    &format!("{:.3}", soulstone_engine::table::inches(at.x)),
                )
                .await;
                fill(
                    client,
                    "y",
                    &format!("{:.3}", soulstone_engine::table::inches(at.y)),
                )
                .await;
                "deploy"
            }
            Stage::Acting { .. } if !used.contains("walk") => {
                let walk = choices(&seen, Seat::A).into_iter().find_map(|o| match o {
                    Order::Act {
                        action: Action::Walk { to },
                    } => Some(to),
                    _ => None,
                });
                match walk {
                    Some(to) => {
                        fill(
                            client,
                            "x",
                            &format!("{:.3}", soulstone_engine::table::inches(to.x)),
                        )
                        .await;
                        fill(
                            client,
                            "y",
                            &format!("{:.3}", soulstone_engine::table::inches(to.y)),
                        )
                        .await;
                        "walk"
                    }
                    None => "choice",
                }
            }
            _ => "choice",
        };
        press(client, kind).await;
        let text = body_text(client).await;
        assert!(
            !text.contains("could not") && !text.contains("Not allowed"),
            "{kind}: {text}"
        );
        assert!(
            game_of(&app, id).await.state.version > version,
            "the {kind} form moved the game on"
        );
        if used.insert(kind) {
            check_page(client, &format!("{prefix}-{kind}")).await;
        }
    }
    for kind in ["contribute", "deploy", "walk", "choice"] {
        assert!(used.contains(kind), "no {kind} through the page: {used:?}");
    }
    // The rest through the host, as the page's buttons would send it.
    app.with_conn(move |conn| {
        for step in 0..5_000u64 {
            let game = soulstone::hosted::load::<FirstEdition>(conn, id).unwrap();
            if FirstEdition::is_over(&game.state) {
                return;
            }
            let order =
                FirstEdition::bot_command(&game.state, Seat::A, BotKind::Random, step).unwrap();
            soulstone::hosted::submit::<FirstEdition>(
                conn,
                id,
                match game.seats[0] {
                    soulstone::hosted::SeatHolder::Account(account) => account,
                    soulstone::hosted::SeatHolder::Bot(_) => panic!("the player sits in seat A"),
                },
                game.state.version,
                &format!("b{step}"),
                order,
                crate::hosted::now(),
            )
            .unwrap();
        }
        panic!("the game did not end");
    })
    .await;
    visit(client, &url).await;
    let text = body_text(client).await;
    assert!(text.contains("Game over"), "{text}");
    check_page(client, &format!("{prefix}-over")).await;
    session.close().await.unwrap();
}
