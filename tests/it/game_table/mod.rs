//! The game table in a real browser, as a person plays it: a whole
//! practice encounter in each edition through the page with its script,
//! the table as the input (models clicked and dragged, paths laid point by
//! point, points clicked), the duel's numbers on screen, no page load per
//! decision. The test counts what a person would do (clicks, drags, key
//! presses) per activation and the page loads, and keeps screenshots at a
//! laptop's and a phone's size under `test-artifacts/screenshots/`.
//!
//! Seat A's choices come from the greedy bot (so the crews close in and
//! fight); each is then made through the page, never sent behind it.

mod hand;
mod page;

use std::time::Duration;

use serde_json::json;
use soulstone::hosted::{self, HostedGame, HostedStatus};
use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::pending::Choice;
use soulstone_engine::table::milli;
use soulstone_engine::table::movement::Waypoint;
use soulstone_engine::{Edition, PlayerCommand, Seat};

use crate::browser::{Driver, check_page, sign_in, visit};
use crate::support::{Backend, TestApp};
use hand::act;
use page::{
    attribute, click_css, load, page_loads, point_inches, screenshots, set_viewport, text_of,
    wait_for_text, wait_for_version,
};

both_backends!(
    a_fourth_edition_practice_encounter_through_the_table,
    a_third_edition_practice_encounter_through_the_table,
);

async fn a_fourth_edition_practice_encounter_through_the_table(backend: Backend) {
    play_through_the_table(backend, Edition::Fourth).await;
}

async fn a_third_edition_practice_encounter_through_the_table(backend: Backend) {
    play_through_the_table(backend, Edition::Third).await;
}

/// How long the page may take to show a choice's result.
const SWAP_DEADLINE: Duration = Duration::from_secs(60);

/// The seed of the game played unless `SOULSTONE_TABLE_SEED` names another.
/// One game each run keeps CI's verdict about the code, not the draw; other
/// seeds are other games, to try the table on more of them.
const TABLE_SEED: u64 = 1;

fn table_seed() -> u64 {
    std::env::var("SOULSTONE_TABLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(TABLE_SEED)
}

fn seed_bytes(seed: u64) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_mut(8) {
        chunk.copy_from_slice(&seed.to_le_bytes());
    }
    bytes
}

/// What one game through the table came to.
#[derive(Default)]
struct Tally {
    /// A person's actions (clicks, drags, key presses) per activation of
    /// seat A's models.
    per_activation: Vec<u32>,
    /// Decisions the player made through the page (the game took the rest).
    decisions: u32,
    /// Commands only the API could send (a climb, a fall's landing place).
    through_the_api: u32,
    kinds: std::collections::BTreeSet<&'static str>,
    /// For each command's type: how many, and the actions they took.
    by_command: std::collections::BTreeMap<String, (u32, u32)>,
}

async fn play_through_the_table(backend: Backend, edition: Edition) {
    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-table-{}", backend.name(), edition.code());
    let account = app
        .create_account("table@example.org", "Tabitha Player", false)
        .await;
    let mut driver = Driver::start();
    let session = driver.screen(1366, 768).await;
    let client = &session;
    set_viewport(client, 1366, 768).await;
    sign_in(client, &app, "table@example.org").await;
    // A game of the edition's first shipped list against the greedy bot,
    // as the practice page starts one (tested in browser.rs), but with the
    // seed given, so a failing game can be played again.
    let seed = table_seed();
    eprintln!("{prefix}: the game's seed is {seed}; SOULSTONE_TABLE_SEED={seed} plays it again");
    let id = app
        .with_conn(move |conn| {
            crate::support::app::start_practice_against(
                conn,
                account,
                &crate::support::app::Practice {
                    edition,
                    bot: BotKind::Greedy,
                    bot_list: seed as usize,
                    seed: seed_bytes(seed),
                    time_control_ms: None,
                },
            )
        })
        .await;
    visit(client, &app.url(&format!("/games/{id}"))).await;
    // The player sets a standing answer as one who never boosts a duel
    // (the page's form), so the count below is of decisions they make.
    client
        .execute(
            "document.querySelector('input[name=never_boosts]').checked = true;",
            vec![],
        )
        .await
        .unwrap();
    // The script sends the form and swaps the answer in: no page load.
    click_css(client, "form.settings button[type=submit]").await;
    wait_for_text(client, "Your standing answers are saved").await;
    assert_eq!(
        client
            .execute(
                "return document.querySelector('input[name=never_boosts]').checked;",
                vec![],
            )
            .await
            .unwrap(),
        json!(true),
        "the answer did not stay ticked"
    );
    let loads_at_start = page_loads(client).await;

    let mut tally = Tally::default();
    let mut clicks_this_activation: Option<u32> = None;
    let mut shots = std::collections::BTreeSet::new();
    let mut last_facts_checked = 0u64;
    let mut numbers_in_the_log = false;
    for n in 0..3_000u64 {
        let game = load(&app, id).await;
        if game.status == HostedStatus::Finished {
            break;
        }
        wait_for_version(client, game.state.version).await;
        // The page says the game waits for the player exactly when it does.
        let mine = soulstone_engine::pending::decision(&game.state, Seat::A);
        let Some(decision) = mine else {
            // The bot never keeps the player waiting: a choice of its own
            // comes with the player's.
            panic!(
                "the game waits for nobody at version {}",
                game.state.version
            );
        };
        assert_eq!(
            attribute(client, "#game", "data-your-move").await,
            "yes",
            "the page does not say it is the player's move"
        );
        let bots_choice = Bot::new(BotKind::Greedy, Seat::A, n ^ 0x7ab1e)
            .decide(&game.state)
            .expect("the game waits for the player");
        // The greedy bot rarely walks in two legs or cheats: the player
        // does, once each, when the game offers it.
        let command = own_choice(&game, &decision.choices, &tally).unwrap_or(bots_choice);
        if matches!(command, PlayerCommand::Activate { .. }) {
            if let Some(clicks) = clicks_this_activation.take() {
                tally.per_activation.push(clicks);
            }
            clicks_this_activation = Some(0);
        }
        if matches!(command, PlayerCommand::Pass)
            && let Some(clicks) = clicks_this_activation.take()
        {
            tally.per_activation.push(clicks);
        }
        screenshots(client, &game, &decision.choices, &prefix, &mut shots).await;
        let clicks = act(client, &app, &game, &command, &mut tally).await;
        let kind = serde_json::to_value(&command).unwrap()["type"]
            .as_str()
            .unwrap_or("?")
            .to_string();
        let entry = tally.by_command.entry(kind).or_default();
        entry.0 += 1;
        entry.1 += clicks;
        if let Some(count) = clicks_this_activation.as_mut() {
            *count += clicks;
        }
        tally.decisions += 1;
        // The log says what happened in words with numbers: a duel's
        // totals, the damage and the health it took.
        if game.state.version > last_facts_checked + 100 {
            last_facts_checked = game.state.version;
            let log = text_of(client, ".game-log").await;
            assert!(!log.contains("1. 1."), "a log line numbered twice: {log}");
            if log.contains(" against ") && log.contains("damage") && log.contains("health ") {
                numbers_in_the_log = true;
            }
        }
    }
    if let Some(clicks) = clicks_this_activation.take() {
        tally.per_activation.push(clicks);
    }
    let game = load(&app, id).await;
    assert_eq!(game.status, HostedStatus::Finished, "the game did not end");
    assert!(game.state.ended);
    wait_for_version(client, game.state.version).await;
    let text = text_of(client, "main").await;
    assert!(text.contains("The game is over"), "{text}");
    check_page(client, &format!("{prefix}-over")).await;

    assert!(numbers_in_the_log, "the log never showed a duel's numbers");
    // No page was loaded for a decision: every result was swapped in.
    let loads = page_loads(client).await - loads_at_start;
    assert_eq!(loads, 0, "{loads} page loads during the game");
    let forced = app
        .with_conn(move |conn| hosted::forced_for(conn, id, Seat::A).unwrap().len())
        .await;
    let mut sorted = tally.per_activation.clone();
    sorted.sort_unstable();
    let median = sorted[sorted.len() / 2];
    let report = format!(
        "{} {}: {} decisions by the player through the page ({} through the API), {forced} taken by the game (its standing answers: one-option decisions, idle cheats, never boosting); {} activations, clicks per activation median {median}, max {}; page loads {loads}",
        backend.name(),
        edition.code(),
        tally.decisions,
        tally.through_the_api,
        sorted.len(),
        sorted.last().copied().unwrap_or(0)
    );
    println!("{report}");
    println!("by command (count, actions): {:?}", tally.by_command);
    std::fs::write(
        crate::browser::artifacts_dir().join(format!("{prefix}-tally.txt")),
        &report,
    )
    .unwrap();
    for kind in [
        "deploy",
        "activate",
        "activate and move",
        "walk-path",
        "attack",
        "cheat",
        "end phase",
    ] {
        assert!(
            tally.kinds.contains(kind),
            "no {kind} through the table: {:?}",
            tally.kinds
        );
    }
    assert!(
        tally.through_the_api * 20 <= tally.decisions,
        "too many commands the page could not make: {report}"
    );
    // The target is 5 for the 4th edition. The median moves with
    // the game (3 to 6 measured over seeds: a game full of duels where a
    // card would change the outcome asks for more), so the bound allows one
    // more; docs/play.md keeps the target and the runs.
    // The 3rd edition asks more (both players may cheat every flip, damage
    // included), and its bound only guards against losing ground.
    let most = if edition == Edition::Fourth { 6 } else { 10 };
    assert!(median <= most, "clicks per activation: {report}");
    // The player's decisions are written down against the 150 (see
    // docs/play.md); what is asserted is that the game takes what it may.
    assert!(forced > 0, "no decision was taken for the player: {report}");
    session.close().await.unwrap();
}

/// A choice the player makes instead of the bot's, to play what the bot
/// would not: a Walk with a waypoint, a cheat.
fn own_choice(game: &HostedGame, choices: &[Choice], tally: &Tally) -> Option<PlayerCommand> {
    // A duel's cheat (3rd edition also cheats damage flips, outside one).
    if !tally.kinds.contains("cheat") && game.state.duel().is_some() {
        let cheat = choices.iter().find_map(|c| match c {
            Choice::Command {
                command: command @ PlayerCommand::Cheat { .. },
            } => Some(command.clone()),
            _ => None,
        });
        if cheat.is_some() {
            return cheat;
        }
    }
    if tally.kinds.contains("walk-path")
        || !choices.iter().any(|c| matches!(c, Choice::Walk { .. }))
    {
        return None;
    }
    let from = game
        .state
        .acting_model()
        .and_then(|id| game.state.model(id))?
        .placement?
        .at;
    let (x, y) = point_inches(from);
    // Two legs of 1.5", turning a little, in the first direction the rules allow.
    (0..16).find_map(|step| {
        let angle = f64::from(step) * std::f64::consts::TAU / 16.0;
        let leg = |along: f64, turn: f64| Waypoint {
            x: milli(x + along * (angle + turn).cos()),
            y: milli(y + along * (angle + turn).sin()),
            z: 0,
        };
        let middle = leg(1.5, 0.0);
        let end = Waypoint {
            x: middle.x + milli(1.5 * (angle + 0.5).cos()),
            y: middle.y + milli(1.5 * (angle + 0.5).sin()),
            z: 0,
        };
        // Clicks land to a pixel: a path that grazes the table's edge in
        // the rules may leave it on the page, so keep an inch clear of it.
        let table = f64::from(soulstone_engine::table::TABLE_SIZE) / 1000.0;
        let clear = |w: &Waypoint| {
            let (x, y) = (f64::from(w.x) / 1000.0, f64::from(w.y) / 1000.0);
            (1.5..=table - 1.5).contains(&x) && (1.5..=table - 1.5).contains(&y)
        };
        if !clear(&middle) || !clear(&end) {
            return None;
        }
        let walk = PlayerCommand::Walk {
            path: vec![middle, end],
            land_at: None,
        };
        soulstone_engine::preview::preview(&game.state, Seat::A, &walk)
            .legal
            .then_some(walk)
    })
}
