//! A searching bot replies off the request path (issue 53): the player's
//! command is answered with the version it made, and the bot's reply is
//! stored afterwards by the bot turn threads and reaches the player's open
//! stream; the practice page offers the levels and refuses one it does
//! not know, and the page names the level the player faces.

use soulstone::hosted;
use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::system::Malifaux;
use soulstone_engine::{Seat, pending};

use crate::support::{Backend, TestApp, id_after, location};

both_backends!(a_normal_bot_replies_on_the_stream_after_the_players_command_is_answered);

/// How long a test waits for the bot threads at most: a liveness bound for
/// a loaded machine, not a speed target (those are in docs/benchmarks.md).
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(120);

/// The game once it waits for the player (seat A) or has ended: a
/// searching bot replies on a thread of its own, after the request.
pub(crate) async fn until_the_players_turn(app: &TestApp, id: i64) -> hosted::HostedGame {
    let started = std::time::Instant::now();
    loop {
        let game = app
            .with_conn(move |conn| hosted::load::<Malifaux>(conn, id).expect("the game loads"))
            .await;
        if game.state.ended || pending::waits_for(&game.state, Seat::A) {
            return game;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "game {id} still waits at version {} for the bot",
            game.state.version
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

async fn a_normal_bot_replies_on_the_stream_after_the_players_command_is_answered(
    backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let (_, browser) = app.user("player@example.org", "Player").await;
    let api = app.api_client("player@example.org").await;

    let (status, page) = browser.get_text("/play").await;
    assert_eq!(status, 200);
    for level in ["easy", "normal", "hard"] {
        assert!(page.contains(&format!("value=\"{level}\"")), "{page}");
    }
    let refused = browser
        .post_form(
            "/play/practice",
            &[("crew", "lamplighters-50"), ("bot", "grandmaster")],
        )
        .await;
    assert_eq!(refused.status().as_u16(), 422);
    assert!(refused.text().await.unwrap().contains("Choose an opponent"));
    // A refused form comes back as the player filled it in.
    let refused = browser
        .post_form(
            "/play/practice",
            &[("crew", "mudlark-50"), ("bot", "hard"), ("minutes", "45")],
        )
        .await;
    assert_eq!(refused.status().as_u16(), 422);
    let again = refused.text().await.unwrap();
    assert_eq!(again.matches(" checked>").count(), 1, "{again}");
    assert!(
        again.contains("value=\"mudlark-50\" checked>"),
        "the crew ticked: {again}"
    );
    assert!(again.contains("value=\"hard\" selected>"), "{again}");
    let refused = browser
        .post_form(
            "/play/practice",
            &[
                ("crew", "mudlark-50"),
                ("bot", "grandmaster"),
                ("minutes", "60"),
            ],
        )
        .await;
    let again = refused.text().await.unwrap();
    assert!(again.contains("value=\"60\" selected>"), "{again}");

    let started = browser
        .post_form(
            "/play/practice",
            &[("crew", "lamplighters-50"), ("bot", "normal")],
        )
        .await;
    assert_eq!(started.status().as_u16(), 303);
    let id = id_after(&location(&started), "/games/");
    let (status, page) = browser.get_text(&format!("/games/{id}")).await;
    assert_eq!(status, 200);
    assert!(page.contains("normal bot"), "{page}");

    // The player plays on through the API until the bot has replied on
    // its own at least a few times, into the turns, where it searches.
    let mut stream = browser.get(&format!("/games/{id}/events?after=0")).await;
    assert_eq!(stream.status().as_u16(), 200);
    let mut buffer = String::new();
    let mut read = 0u64;
    let mut replies_after_answers = 0;
    for n in 0..400u64 {
        let game = until_the_players_turn(&app, id).await;
        if game.state.ended {
            break;
        }
        let in_turns = game.state.encounter.as_deref().is_some_and(|e| e.turn > 0);
        if in_turns && replies_after_answers >= 3 {
            break;
        }
        let command = Bot::new(BotKind::Random, Seat::A, game.state.version ^ n)
            .decide(&game.state)
            .expect("the game waits for the player");
        let body = serde_json::json!({
            "version": game.state.version,
            "idempotency_key": format!("turns-{n}"),
            "command": command,
        });
        let (status, reply) = api.post(&format!("/games/{id}/commands"), body).await;
        assert_eq!(status, 200, "{reply}");
        let answered = reply["version"].as_u64().expect("a version");
        if !in_turns {
            continue;
        }
        // Whatever happens after the answer, with no other request from
        // the player, is the bot's reply from its own thread: a bot
        // playing inside the request would be in the answer's version.
        let game = until_the_players_turn(&app, id).await;
        if game.state.version > answered {
            replies_after_answers += 1;
            // Its facts reach the stream that was open all along.
            let facts = crate::hosted::read_facts(
                &mut stream,
                &mut buffer,
                usize::try_from(game.state.version - read).expect("a count"),
            )
            .await;
            read = facts.last().map_or(read, |(id, _)| *id);
            assert_eq!(read, game.state.version, "the stream is behind the game");
        }
    }
    assert!(
        replies_after_answers >= 3,
        "the normal bot replied off the request path {replies_after_answers} times"
    );
}
