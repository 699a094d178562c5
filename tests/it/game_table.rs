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

use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, Locator};
use serde_json::json;
use soulstone::hosted::{self, HostedGame, HostedStatus};
use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::command::Interaction;
use soulstone_engine::pending::Choice;
use soulstone_engine::table::movement::Waypoint;
use soulstone_engine::table::{Point, inches, milli};
use soulstone_engine::{Edition, PlayerCommand, Seat, Viewer};

use crate::browser::{Driver, check_page, sign_in, visit, xpath_literal};
use crate::support::{Backend, TestApp};

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

async fn load(app: &TestApp, id: i64) -> HostedGame {
    app.with_conn(move |conn| hosted::load(conn, id).unwrap())
        .await
}

async fn page_loads(client: &Client) -> u32 {
    let value = client
        .execute(
            "return Number(sessionStorage.getItem('soulstone.loads') || '0')",
            vec![],
        )
        .await
        .unwrap();
    value.as_u64().unwrap_or(0) as u32
}

async fn attribute(client: &Client, selector: &str, name: &str) -> String {
    client
        .execute(
            "const e = document.querySelector(arguments[0]); return e ? (e.getAttribute(arguments[1]) || '') : '';",
            vec![json!(selector), json!(name)],
        )
        .await
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_string()
}

async fn text_of(client: &Client, selector: &str) -> String {
    client
        .execute(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';",
            vec![json!(selector)],
        )
        .await
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Waits until the page shows the game at `version` (its own choices are
/// swapped in; the bot's arrive on the stream).
async fn wait_for_version(client: &Client, version: u64) {
    let deadline = Instant::now() + SWAP_DEADLINE;
    loop {
        let shown: u64 = attribute(client, "#game", "data-version")
            .await
            .parse()
            .unwrap_or(0);
        if shown >= version {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the page still shows version {shown}, not {version}"
        );
        actix_web::rt::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Waits until the page says `words` somewhere (a flash after a form).
async fn wait_for_text(client: &Client, words: &str) {
    let deadline = Instant::now() + SWAP_DEADLINE;
    while !text_of(client, "body").await.contains(words) {
        assert!(Instant::now() < deadline, "the page never said {words:?}");
        actix_web::rt::time::sleep(Duration::from_millis(40)).await;
    }
}

/// The board's place on the screen: where a table point is, in CSS pixels
/// from the viewport's corner.
struct BoardGeometry {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    view: [f64; 4],
    size: f64,
}

impl BoardGeometry {
    async fn read(client: &Client) -> Self {
        let v = client
            .execute(
                "const s = document.querySelector('[data-board] svg'); s.scrollIntoView({block: 'nearest'}); \
                 const r = s.getBoundingClientRect(); const b = s.viewBox.baseVal; \
                 return [r.left, r.top, r.width, r.height, b.x, b.y, b.width, b.height, Number(document.getElementById('game').dataset.table)];",
                vec![],
            )
            .await
            .unwrap();
        let n: Vec<f64> = serde_json::from_value(v).unwrap();
        Self {
            left: n[0],
            top: n[1],
            width: n[2],
            height: n[3],
            view: [n[4], n[5], n[6], n[7]],
            size: n[8],
        }
    }

    fn at(&self, x: f64, y: f64) -> (f64, f64) {
        let [vx, vy, vw, vh] = self.view;
        (
            self.left + (x - vx) / vw * self.width,
            self.top + ((self.size - y) - vy) / vh * self.height,
        )
    }
}

fn mouse() -> MouseActions {
    MouseActions::new("mouse".into())
}

async fn click_at(client: &Client, board: &BoardGeometry, x: f64, y: f64) {
    let (px, py) = board.at(x, y);
    let actions = mouse()
        .then(PointerAction::MoveTo {
            duration: None,
            x: px,
            y: py,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(actions).await.unwrap();
}

/// Clicks a point for a point choice (deploying, a marker) until the page
/// sends it; the clicks it took. The bot aims at the edge of what is
/// allowed, and a pixel's rounding can tip such a point over it (a base
/// touching a model becomes one overlapping it): as a person would, the
/// test then clicks a little beside it, each click counted. 0: no click
/// near it was taken.
async fn click_point(
    client: &Client,
    app: &TestApp,
    board: &BoardGeometry,
    before: u64,
    (x, y): (f64, f64),
) -> u32 {
    let mut nudges = vec![(0.0, 0.0)];
    for step in [0.04, 0.1, 0.25] {
        nudges.extend([(step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step)]);
    }
    for (tries, (dx, dy)) in nudges.into_iter().enumerate() {
        clear_ruler(client).await;
        click_at(client, board, x + dx, y + dy).await;
        // A click the table does not take (on a model) gets no verdict.
        if sent_or_refused(client, app, before, Duration::from_secs(5)).await == Some(true) {
            return tries as u32 + 1;
        }
    }
    let ruler = text_of(client, "[data-ruler]").await;
    let kind = attribute(client, ".choices form.active", "data-kind").await;
    eprintln!("no {kind} point near {x}, {y} was allowed: {ruler}");
    0
}

/// The model nearest to a table point other than the one at `from` (the
/// mover): its centre, radius and owner ("a" or "b").
async fn nearest_model(
    client: &Client,
    from: (f64, f64),
    to: (f64, f64),
) -> Option<(f64, f64, f64, String)> {
    let found = client
        .execute(
            "const ms = [...document.querySelectorAll('[data-board] [data-model]')].map((m) => [Number(m.dataset.x), Number(m.dataset.y), Number(m.dataset.r), m.dataset.owner])                .filter((m) => Math.hypot(m[0] - arguments[0], m[1] - arguments[1]) > 0.01)                .sort((p, q) => (Math.hypot(p[0] - arguments[2], p[1] - arguments[3]) - p[2]) - (Math.hypot(q[0] - arguments[2], q[1] - arguments[3]) - q[2]));              return ms[0] || null;",
            vec![json!(from.0), json!(from.1), json!(to.0), json!(to.1)],
        )
        .await
        .unwrap();
    serde_json::from_value(found).ok()
}

/// Drags a move until the page sends it; the drags it took, 0 if none
/// was allowed. The bot's path may end exactly at its allowance or in
/// base contact, where a pixel's rounding makes it a hair too long or an
/// overlap: a person then drags a little short, or a little clear of the
/// model beside the end.
async fn drag_until_sent(
    client: &Client,
    app: &TestApp,
    board: &BoardGeometry,
    before: u64,
    from: (f64, f64),
    to: (f64, f64),
) -> u32 {
    let length = (to.0 - from.0).hypot(to.1 - from.1).max(0.001);
    let along = ((to.0 - from.0) / length, (to.1 - from.1) / length);
    let clear = match nearest_model(client, from, to).await {
        Some((x, y, _, _)) => {
            let d = (to.0 - x).hypot(to.1 - y).max(0.001);
            ((to.0 - x) / d, (to.1 - y) / d)
        }
        None => (0.0, 0.0),
    };
    let ends = [
        (0.0, 0.0),
        (0.06, 0.0),
        (0.04, 0.04),
        (0.0, 0.08),
        (0.15, 0.08),
        (0.3, 0.15),
    ];
    for (tries, (short, aside)) in ends.into_iter().enumerate() {
        let end = (
            to.0 - along.0 * short + clear.0 * aside,
            to.1 - along.1 * short + clear.1 * aside,
        );
        clear_ruler(client).await;
        drag(client, board, from, end).await;
        if sent_or_refused(client, app, before, SWAP_DEADLINE).await == Some(true) {
            return tries as u32 + 1;
        }
    }
    0
}

/// After a drag or a click: whether the choice went (the game moved on)
/// rather than the ruler refusing it; None: no answer within `patience`.
async fn sent_or_refused(
    client: &Client,
    app: &TestApp,
    before: u64,
    patience: Duration,
) -> Option<bool> {
    let deadline = Instant::now() + patience;
    loop {
        if load(app, id_of(client).await).await.state.version > before {
            return Some(true);
        }
        if attribute(client, "[data-ruler]", "class")
            .await
            .contains("refused")
        {
            return Some(false);
        }
        if Instant::now() > deadline {
            return None;
        }
        actix_web::rt::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Forgets the ruler's last verdict, so that the next one is the new
/// point's.
async fn clear_ruler(client: &Client) {
    client
        .execute(
            "const r = document.querySelector('[data-ruler]'); if (r) r.classList.remove('legal', 'refused');",
            vec![],
        )
        .await
        .unwrap();
}

async fn id_of(client: &Client) -> i64 {
    attribute(client, "#game", "data-game")
        .await
        .parse()
        .unwrap()
}

/// Drags from one table point to another, in a few steps as a hand would.
async fn drag(client: &Client, board: &BoardGeometry, from: (f64, f64), to: (f64, f64)) {
    let (fx, fy) = board.at(from.0, from.1);
    let (tx, ty) = board.at(to.0, to.1);
    let mut actions = mouse()
        .then(PointerAction::MoveTo {
            duration: None,
            x: fx,
            y: fy,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        });
    for step in 1..=6 {
        let f = f64::from(step) / 6.0;
        actions = actions.then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(30)),
            x: fx + (tx - fx) * f,
            y: fy + (ty - fy) * f,
        });
    }
    // The ruler waits for the engine's verdict before the drop.
    actions = actions
        .pause(Duration::from_millis(250))
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(actions).await.unwrap();
}

async fn press(client: &Client, key: &str) {
    use fantoccini::actions::{KeyAction, KeyActions};
    let ch = key.chars().next().unwrap();
    let keys = KeyActions::new("keys".into())
        .then(KeyAction::Down { value: ch })
        .then(KeyAction::Up { value: ch });
    client.perform_actions(keys).await.unwrap();
}

/// Clicks the decision's button that sends exactly `command`.
async fn click_choice(client: &Client, command: &PlayerCommand) {
    let json = serde_json::to_string(command).unwrap();
    let xpath = format!(
        "//div[@class='choices']/form[input[@name='command' and @value={}]]//button",
        xpath_literal(&json)
    );
    let button = client
        .find(Locator::XPath(&xpath))
        .await
        .unwrap_or_else(|e| panic!("no button for {json}: {e}"));
    button.click().await.unwrap();
}

/// Makes the point form of `kind` the one the table feeds (a click on its
/// legend), unless it is already.
async fn choose_mode(client: &Client, kind: &str) -> u32 {
    let active = client
        .execute(
            "const f = document.querySelector('.choices form.active'); return f ? f.dataset.kind : '';",
            vec![],
        )
        .await
        .unwrap();
    if active.as_str() == Some(kind) {
        return 0;
    }
    let legend = client
        .find(Locator::Css(&format!(
            ".choices form[data-kind=\"{kind}\"] legend"
        )))
        .await
        .unwrap_or_else(|e| panic!("no {kind} form: {e}"));
    legend.click().await.unwrap();
    1
}

fn point_inches(at: Point) -> (f64, f64) {
    (inches(at.x), inches(at.y))
}

fn way_inches(w: &Waypoint) -> (f64, f64) {
    (inches(w.x), inches(w.y))
}

/// Makes `command` through the page; the person's actions it took.
async fn act(
    client: &Client,
    app: &TestApp,
    game: &HostedGame,
    command: &PlayerCommand,
    tally: &mut Tally,
) -> u32 {
    let before = game.state.version;
    let board = BoardGeometry::read(client).await;
    let model_at = |id: soulstone_engine::model::ModelId| {
        game.state
            .model(id)
            .and_then(|m| m.placement)
            .map(|p| point_inches(p.at))
    };
    let mover = game
        .state
        .acting_model()
        .and_then(|id| game.state.model(id))
        .and_then(|m| m.placement)
        .map(|p| point_inches(p.at));
    let clicks = match command {
        PlayerCommand::Deploy { model, at } => {
            tally.kinds.insert("deploy");
            client
                .execute(
                    "const s = document.querySelector('[data-deploy-model]'); if (s.value !== arguments[0]) { s.value = arguments[0]; s.dispatchEvent(new Event('change')); return 1; } return 0;",
                    vec![json!(model.0.to_string())],
                )
                .await
                .unwrap()
                .as_u64()
                .unwrap_or(0) as u32
                + choose_mode(client, "deploy").await
                + match click_point(client, app, &board, before, point_inches(*at)).await {
                    0 => through_the_api(app, game, command, tally).await,
                    clicks => clicks,
                }
        }
        PlayerCommand::Activate { model } if model_at(*model).is_some() => {
            tally.kinds.insert("activate");
            let (x, y) = model_at(*model).unwrap();
            let (px, py) = board.at(x, y);
            let under = client
                .execute(
                    "const e = document.elementFromPoint(arguments[0], arguments[1]);                      const m = e && e.closest('[data-model]');                      return m ? m.dataset.model : (e ? e.outerHTML.slice(0, 160) : 'nothing');",
                    vec![json!(px), json!(py)],
                )
                .await
                .unwrap();
            if under != json!(model.0.to_string()) {
                eprintln!("model {} at ({x:.2}, {y:.2}) lies under {under}", model.0);
            }
            // Where the player means to move it, picked up and dropped
            // there in one drag: activated, then walked or charged.
            if let Some((drop, kind)) = move_after_activating(game, *model) {
                drag(client, &board, (x, y), drop).await;
                if carried_move(client, app, game.id, *model, (x, y)).await {
                    tally.kinds.insert("activate and move");
                    tally.decisions += 1;
                    tally.by_command.entry(kind.into()).or_default().0 += 1;
                }
                return 1;
            }
            click_at(client, &board, x, y).await;
            1
        }
        PlayerCommand::Walk {
            path,
            land_at: None,
        } if path.iter().all(|w| w.z == 0) && mover.is_some() => {
            let mode = choose_mode(client, "walk").await;
            let from = mover.unwrap();
            let end = way_inches(path.last().unwrap());
            let long = (end.0 - from.0).hypot(end.1 - from.1) > 1.5;
            if path.len() == 1 && long && !tally.kinds.contains("walk-path") {
                // Laid point by point: the middle, the end, then the end
                // again to send it.
                tally.kinds.insert("walk-path");
                let middle = ((from.0 + end.0) / 2.0, (from.1 + end.1) / 2.0);
                click_at(client, &board, middle.0, middle.1).await;
                wait_for_ruler(client).await;
                click_at(client, &board, end.0, end.1).await;
                wait_for_ruler(client).await;
                press(client, "\u{E007}").await;
                mode + 3
            } else if path.len() == 1 {
                tally.kinds.insert("walk-drag");
                match drag_until_sent(client, app, &board, before, from, end).await {
                    0 => through_the_api(app, game, command, tally).await,
                    drags => mode + drags,
                }
            } else {
                tally.kinds.insert("walk-path");
                for waypoint in path {
                    let (x, y) = way_inches(waypoint);
                    click_at(client, &board, x, y).await;
                    wait_for_ruler(client).await;
                }
                press(client, "\u{E007}").await;
                mode + path.len() as u32 + 1
            }
        }
        PlayerCommand::Charge { to, land_at: None } if to.z == 0 && mover.is_some() => {
            tally.kinds.insert("charge");
            let from = mover.unwrap();
            let to = way_inches(to);
            let charger = game.state.acting_model().unwrap();
            // Dropped on the enemy it ends beside: no mode to pick.
            let onto = match enemy_near(&game.state, charger, to) {
                Some(at) => {
                    drag(client, &board, from, at).await;
                    Some(sent_or_refused(client, app, before, SWAP_DEADLINE).await == Some(true))
                }
                None => None,
            };
            if onto == Some(false) {
                let ruler = text_of(client, "[data-ruler]").await;
                eprintln!("charge dropped on the enemy refused: {ruler}");
            }
            let walk_offered = soulstone_engine::pending::decision(&game.state, Seat::A)
                .is_some_and(|d| d.choices.iter().any(|c| matches!(c, Choice::Walk { .. })));
            if onto == Some(true) {
                tally.kinds.insert("charge-dropped");
                1
            } else if onto.is_none() && walk_offered {
                // A charge that reaches nobody moves as a walk does: the
                // hand walks it there.
                tally.kinds.insert("charge as a walk");
                let mode = choose_mode(client, "walk").await;
                match drag_until_sent(client, app, &board, before, from, to).await {
                    0 => through_the_api(app, game, command, tally).await,
                    drags => mode + drags,
                }
            } else {
                let mode = choose_mode(client, "charge").await;
                match drag_until_sent(client, app, &board, before, from, to).await {
                    0 => through_the_api(app, game, command, tally).await,
                    drags => mode + drags + u32::from(onto.is_some()),
                }
            }
        }
        PlayerCommand::Interact {
            with: Interaction::MakeSchemeMarker { at, .. },
        } => {
            tally.kinds.insert("scheme marker");
            let mode = choose_mode(client, "scheme_marker").await;
            match click_point(client, app, &board, before, point_inches(*at)).await {
                0 => through_the_api(app, game, command, tally).await,
                clicks => mode + clicks,
            }
        }
        PlayerCommand::TakeAction {
            target: Some(target),
            ..
        } if model_at(*target).is_some() && Some(*target) != game.state.acting_model() => {
            tally.kinds.insert("attack");
            // The target on the table, then the action beside it.
            let (x, y) = model_at(*target).unwrap();
            click_at(client, &board, x, y).await;
            let label =
                soulstone::web::play::words::command(&game.state, Viewer::Player(Seat::A), command);
            let item = client
                .find(Locator::XPath(&format!(
                    "//div[@class='popover']/button[normalize-space(.)={}]",
                    xpath_literal(&label)
                )))
                .await
                .unwrap_or_else(|e| panic!("no {label:?} beside the target: {e}"));
            item.click().await.unwrap();
            2
        }
        PlayerCommand::Cheat { .. } if game.state.duel().is_some() => {
            tally.kinds.insert("cheat");
            // The duel's numbers are on screen, and each card says what
            // cheating it would give.
            let duel = text_of(client, ".duel").await;
            assert!(duel.contains("Totals") || duel.contains("Total"), "{duel}");
            let json = serde_json::to_string(command).unwrap();
            let note = client
                .execute(
                    "const i = [...document.querySelectorAll('.choices input[name=command]')].find((i) => i.value === arguments[0]); \
                     const n = i && i.form.querySelector('.note'); return n ? n.textContent : '';",
                    vec![json!(json)],
                )
                .await
                .unwrap();
            assert!(
                note.as_str().unwrap_or_default().contains("against"),
                "no projection beside the cheat: {note}"
            );
            click_choice(client, command).await;
            1
        }
        PlayerCommand::DeclareTrigger { .. } => {
            tally.kinds.insert("trigger");
            click_choice(client, command).await;
            1
        }
        PlayerCommand::Contribute { .. } => {
            // The player's own words, not the page's random ones, so the
            // same seed deals the same cards again.
            let words = client
                .find(Locator::Css(
                    "form[data-kind='entropy'] input[name=entropy]",
                ))
                .await
                .unwrap();
            words.clear().await.unwrap();
            words
                .send_keys(&format!("my cut at {}", game.state.version))
                .await
                .unwrap();
            let cut = client
                .find(Locator::XPath("//form[@data-kind='entropy']//button"))
                .await
                .unwrap();
            cut.click().await.unwrap();
            1
        }
        PlayerCommand::DiscardBeforeDrawing { cards }
        | PlayerCommand::DiscardDown { cards }
        | PlayerCommand::DrawFromDiscard { cards } => {
            let kind = match command {
                PlayerCommand::DiscardBeforeDrawing { .. } => "discard_any",
                PlayerCommand::DiscardDown { .. } => "discard_cards",
                _ => "draw_from_discard",
            };
            for card in cards {
                click_css(
                    client,
                    &format!(".choices form[data-kind=\"{kind}\"] input[value=\"{card}\"]"),
                )
                .await;
            }
            click_css(
                client,
                &format!(".choices form[data-kind=\"{kind}\"] button"),
            )
            .await;
            cards.len() as u32 + 1
        }
        PlayerCommand::SplitCrew { first } => {
            for model in first {
                click_css(
                    client,
                    &format!(
                        ".choices form[data-kind=\"split_crew\"] input[value=\"{}\"]",
                        model.0
                    ),
                )
                .await;
            }
            click_css(client, ".choices form[data-kind=\"split_crew\"] button").await;
            first.len() as u32 + 1
        }
        other if is_plain_command(game, other) => {
            if matches!(
                other,
                PlayerCommand::RevealScheme
                    | PlayerCommand::KeepScheme
                    | PlayerCommand::AbandonScheme
                    | PlayerCommand::SelectScheme { .. }
                    | PlayerCommand::ClaimScheme { .. }
            ) {
                tally.kinds.insert("end phase");
            }
            // The first few by their keyboard shortcut, as a regular would.
            match shortcut_of(client, other).await {
                Some(key) => press(client, &key).await,
                None => click_choice(client, other).await,
            }
            1
        }
        // What the table cannot lay (a climb, a fall's landing place).
        other => through_the_api(app, game, other, tally).await,
    };
    // The choice went, and its result is on the page without a page load.
    let deadline = Instant::now() + SWAP_DEADLINE;
    loop {
        let now = load(app, game.id).await;
        if now.state.version > before {
            break;
        }
        if Instant::now() >= deadline {
            let ruler = text_of(client, "[data-ruler]").await;
            let seen = client
                .execute(
                    "const p = document.querySelector('.popover');                      const a = [...document.querySelectorAll('[role=alert]')].map((e) => e.textContent.trim()).join(' | ');                      return 'popover: ' + (p ? p.textContent : 'none') + '; alerts: ' + a;",
                    vec![],
                )
                .await
                .unwrap();
            panic!("{command:?} was not sent (ruler: {ruler:?}; {seen})");
        }
        actix_web::rt::time::sleep(Duration::from_millis(40)).await;
    }
    clicks
}

/// Where the player drops `model` when it is picked up before its
/// activation: the greedy bot's first move once activated, if it is a
/// one-leg walk on the ground (a little short of its end: the bot walks to
/// the last hair of its allowance, a pixel further than a hand would) or a
/// charge (onto the enemy nearest its end). With the move's name.
fn move_after_activating(
    game: &HostedGame,
    model: soulstone_engine::model::ModelId,
) -> Option<((f64, f64), &'static str)> {
    let mut after = game.state.clone();
    let version = after.version;
    soulstone_engine::execute(
        &mut after,
        &soulstone_engine::command::Submission::Player {
            seat: Seat::A,
            version,
            command: PlayerCommand::Activate { model },
        },
    )
    .ok()?;
    let from = point_inches(after.model(model)?.placement?.at);
    let end = match Bot::new(BotKind::Greedy, Seat::A, after.version ^ 0x7ab1e).decide(&after)? {
        PlayerCommand::Walk {
            path,
            land_at: None,
        } => match path.as_slice() {
            [end] if end.z == 0 => way_inches(end),
            _ => return None,
        },
        PlayerCommand::Charge { to, land_at: None } if to.z == 0 => {
            let to = way_inches(&to);
            match enemy_near(&after, model, to) {
                Some(at) => return Some((at, "charge")),
                // A charge that reaches nobody moves as a walk does: the
                // hand walks it there.
                None => to,
            }
        }
        _ => return None,
    };
    let length = (end.0 - from.0).hypot(end.1 - from.1);
    if length < 1.5 {
        return None;
    }
    let short = (length - 0.1) / length;
    Some((
        (
            from.0 + (end.0 - from.0) * short,
            from.1 + (end.1 - from.1) * short,
        ),
        "walk",
    ))
}

/// The enemy a charge by `charger` ending at `to` is for: the nearest
/// within 2" of the end (the bot's charge ends within reach of its target,
/// not always touching it; the hand drops it on the enemy).
fn enemy_near(
    state: &soulstone_engine::GameState,
    charger: soulstone_engine::model::ModelId,
    to: (f64, f64),
) -> Option<(f64, f64)> {
    let mover = state.model(charger)?.card.base.radius();
    state
        .models
        .iter()
        .filter(|m| m.owner == Seat::B && m.in_play())
        .filter_map(|m| {
            let at = point_inches(m.placement?.at);
            let gap = (at.0 - to.0).hypot(at.1 - to.1) - m.card.base.radius() - mover;
            (gap < 2.0).then_some((gap, at))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, at)| at)
}

/// After a model was dragged before its activation: whether its move went
/// with it (the model stands elsewhere) or the page said why not.
async fn carried_move(
    client: &Client,
    app: &TestApp,
    id: i64,
    model: soulstone_engine::model::ModelId,
    from: (f64, f64),
) -> bool {
    let deadline = Instant::now() + SWAP_DEADLINE;
    loop {
        let now = load(app, id).await;
        let at = now
            .state
            .model(model)
            .and_then(|m| m.placement)
            .map(|p| point_inches(p.at));
        if at.is_some_and(|at| (at.0 - from.0).hypot(at.1 - from.1) > 0.01) {
            return true;
        }
        let ruler = text_of(client, "[data-ruler]").await;
        if ruler.contains("not allowed") || ruler.contains("Activated") {
            eprintln!("the move after the activation was refused: {ruler}");
            return false;
        }
        assert!(
            Instant::now() < deadline,
            "a model dragged before its activation was neither activated and moved nor refused (ruler: {ruler:?})"
        );
        actix_web::rt::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Sends `command` through the API the page stands for, counted: what the
/// table could not lay.
async fn through_the_api(
    app: &TestApp,
    game: &HostedGame,
    command: &PlayerCommand,
    tally: &mut Tally,
) -> u32 {
    tally.through_the_api += 1;
    let before = game.state.version;
    let api = app.api_client("table@example.org").await;
    let body =
        json!({"version": before, "idempotency_key": format!("api-{before}"), "command": command});
    let (status, reply) = api
        .post(&format!("/games/{}/commands", game.id), body)
        .await;
    assert_eq!(status, 200, "{reply}");
    0
}

async fn click_css(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("nothing at {css}: {e}"))
        .click()
        .await
        .unwrap();
}

fn is_plain_command(game: &HostedGame, command: &PlayerCommand) -> bool {
    soulstone_engine::pending::decision(&game.state, Seat::A).is_some_and(|d| {
        d.choices
            .iter()
            .any(|c| matches!(c, Choice::Command { command: offered } if offered == command))
    })
}

async fn shortcut_of(client: &Client, command: &PlayerCommand) -> Option<String> {
    let json = serde_json::to_string(command).unwrap();
    client
        .execute(
            "const i = [...document.querySelectorAll('.choices input[name=command]')].find((i) => i.value === arguments[0]); \
             return i && i.form.dataset.shortcut ? i.form.dataset.shortcut : null;",
            vec![json!(json)],
        )
        .await
        .unwrap()
        .as_str()
        .map(String::from)
}

/// Waits until the ruler shows the engine's verdict on the path laid.
async fn wait_for_ruler(client: &Client) {
    let deadline = Instant::now() + SWAP_DEADLINE;
    loop {
        let class = attribute(client, "[data-ruler]", "class").await;
        if class.contains("legal") || class.contains("refused") {
            return;
        }
        assert!(Instant::now() < deadline, "the ruler gave no verdict");
        actix_web::rt::time::sleep(Duration::from_millis(30)).await;
    }
}

/// Sizes the window so that the page itself (the viewport) is `width` by
/// `height`, whatever the browser's frame takes.
async fn set_viewport(client: &Client, width: u32, height: u32) {
    client.set_window_size(width, height).await.unwrap();
    let inner: Vec<u32> = serde_json::from_value(
        client
            .execute("return [window.innerWidth, window.innerHeight]", vec![])
            .await
            .unwrap(),
    )
    .unwrap();
    client
        .set_window_size(width + width - inner[0], height + height - inner[1])
        .await
        .unwrap();
}

/// At the first deployment, activation, duel and end phase: screenshots
/// at a laptop's size and a phone's, each checking that the table and the
/// decision's first control are on screen together without scrolling.
async fn screenshots(
    client: &Client,
    game: &HostedGame,
    choices: &[Choice],
    prefix: &str,
    shots: &mut std::collections::BTreeSet<&'static str>,
) {
    let moment = if choices.iter().any(|c| matches!(c, Choice::Deploy { .. })) {
        "deploy"
    } else if game.state.duel().is_some() {
        "duel"
    } else if choices.iter().any(|c| matches!(c, Choice::Walk { .. })) {
        "activation"
    } else if choices.iter().any(|c| {
        matches!(
            c,
            Choice::Command {
                command: PlayerCommand::RevealScheme | PlayerCommand::KeepScheme
            }
        )
    }) {
        "end-phase"
    } else {
        return;
    };
    if !shots.insert(moment) {
        return;
    }
    for (width, height, size) in [(1366u32, 768u32, "desktop"), (390, 844, "phone")] {
        set_viewport(client, width, height).await;
        actix_web::rt::time::sleep(Duration::from_millis(150)).await;
        let seen = client
            .execute(
                "const inView = (e) => { if (!e) return 'missing'; const r = e.getBoundingClientRect(); \
                   return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 1 && r.right <= window.innerWidth + 1 && r.width > 0 ? 'yes' : `at ${Math.round(r.top)},${Math.round(r.left)} size ${Math.round(r.width)}x${Math.round(r.height)}`; }; \
                 window.scrollTo(0, 0); \
                 const control = document.querySelector('.choices button, .choices select, .choices input:not([type=hidden])'); \
                 return [inView(document.querySelector('[data-board] svg')), inView(control)];",
                vec![],
            )
            .await
            .unwrap();
        let seen: Vec<String> = serde_json::from_value(seen).unwrap();
        assert_eq!(
            seen,
            ["yes", "yes"],
            "{moment} at {width}x{height}: the table and the decision's first control are not both on screen"
        );
        check_page(client, &format!("{prefix}-{moment}-{size}")).await;
    }
    set_viewport(client, 1366, 768).await;
    actix_web::rt::time::sleep(Duration::from_millis(150)).await;
}
