//! A Mage Knight game in a real browser, without scripts and at a phone's
//! size: the practice page starts it, the game page's buttons and its
//! free move form play it.

use super::*;
use soulstone_engine::Seat;
use soulstone_engine::mage_knight::MageKnight;
use soulstone_engine::system::TableGame;

both_backends!(a_player_plays_a_mage_knight_game_in_the_browser);

/// Presses the button of the form whose `kind` field is `kind` (the
/// first, if several), by the DOM's press as the Malifaux table's tests
/// do, and waits for the page it leads to.
async fn press(client: &Client, kind: &str) {
    press_by_script(
        client,
        "document.querySelector(`input[name=kind][value=${arguments[0]}]`).form.querySelector('button').click();",
        vec![json!(kind)],
        &format!("{kind} form"),
    )
    .await;
}

/// The practice game's state once the bot has answered.
async fn game_of(app: &TestApp, id: i64) -> soulstone::hosted::HostedGame<MageKnight> {
    app.with_conn(move |conn| soulstone::hosted::load::<MageKnight>(conn, id).unwrap())
        .await
}

/// The game once it waits for the player (seat A) or is over: the
/// normal bot, the practice page's default, answers its actions off the
/// request path, a moment after the player's order.
async fn until_the_player_decides(
    app: &TestApp,
    id: i64,
) -> soulstone::hosted::HostedGame<MageKnight> {
    for _ in 0..600 {
        let game = game_of(app, id).await;
        if MageKnight::is_over(&game.state)
            || MageKnight::waiting_for(&game.state).contains(&Seat::A)
        {
            return game;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the bot answered within 30 seconds");
}

/// A signed-in player starts a Mage Knight practice game from the play
/// page, adds entropy to the dice, moves a warrior to a typed point,
/// presses offered orders and ends action phases through the page; the
/// rest is played through the host, and the page shows the game over.
/// A spectator's page, with its script, loads itself again as the game
/// moves on. Every page passes the accessibility and phone-width checks.
async fn a_player_plays_a_mage_knight_game_in_the_browser(backend: Backend) {
    use soulstone_engine::bot::BotKind;
    use soulstone_engine::mage_knight::bots::suggestions;
    use soulstone_engine::mage_knight::{Order, hidden_from_players};

    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-mage-knight", backend.name());
    app.create_account("knight@example.org", "Kit Knight", false)
        .await;
    let mut driver = Driver::start();
    let session = driver.session_without_scripts().await;
    let client = &session;
    sign_in(client, &app, "knight@example.org").await;
    visit(client, &app.url("/play")).await;
    click_button(client, "Start a Mage Knight game").await;
    let url = client.current_url().await.unwrap().to_string();
    let id: i64 = url.rsplit('/').next().unwrap().parse().unwrap();
    assert!(url.contains("/mk/games/"), "{url}");
    check_page(client, &format!("{prefix}-start")).await;
    // A spectator's browser, scripts on, follows the game by itself.
    let spectator = driver.session().await;
    visit(&spectator, &url).await;
    let watched_page = spectator.find(Locator::Css("html")).await.unwrap();

    let mut used = std::collections::BTreeSet::new();
    for pressed in 0..60 {
        let game = until_the_player_decides(&app, id).await;
        if MageKnight::is_over(&game.state) || (pressed >= 15 && used.len() >= 4) {
            break;
        }
        visit(client, &url).await;
        let version = game.state.version;
        let battle = hidden_from_players(&game.state);
        let free_move =
            suggestions(&battle, Seat::A, 12)
                .into_iter()
                .find_map(|order| match order {
                    Order::Move(m) if m.path.len() == 1 && !m.double_time => Some(m),
                    _ => None,
                });
        let kind = if text_has(client, "Add it to the dice").await {
            "contribute"
        } else if let Some(chosen) = free_move.filter(|_| !used.contains("move")) {
            let point = chosen.path[0].v2();
            set_value(client, "warrior", &chosen.warrior.0.to_string()).await;
            fill(client, "x", &format!("{:.3}", point.x)).await;
            fill(client, "y", &format!("{:.3}", point.y)).await;
            fill(client, "facing", &chosen.facing.to_string()).await;
            "move"
        } else if pressed % 3 == 2 && text_has(client, "End your action phase").await {
            "end_actions"
        } else {
            "choice"
        };
        press(client, kind).await;
        let text = body_text(client).await;
        assert!(
            !text.contains("could not") && !text.contains("refused"),
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
    wait_for_next_page(
        &spectator,
        &watched_page,
        "the game moving on (for the spectator)",
    )
    .await;
    check_page(&spectator, &format!("{prefix}-spectator")).await;
    spectator.close().await.unwrap();
    for kind in ["contribute", "move", "choice", "end_actions"] {
        assert!(used.contains(kind), "no {kind} through the page: {used:?}");
    }

    // The rest through the host, as the page's forms would send it.
    app.with_conn(move |conn| {
        crate::hosted_systems::play_out::<soulstone_engine::system::MageKnight>(
            conn,
            id,
            BotKind::Random,
        )
    })
    .await;
    visit(client, &url).await;
    let text = body_text(client).await;
    assert!(text.contains("The game is over"), "{text}");
    check_page(client, &format!("{prefix}-over")).await;
    session.close().await.unwrap();
}

async fn text_has(client: &Client, words: &str) -> bool {
    body_text(client).await.contains(words)
}
