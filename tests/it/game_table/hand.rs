//! What the player's hand does for each kind of choice: clicks, drags,
//! keys and buttons on the page, and what it does when the page cannot.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::json;
use soulstone::hosted::HostedGame;
use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::command::Interaction;
use soulstone_engine::pending::Choice;
use soulstone_engine::{PlayerCommand, Seat, Viewer};

use crate::browser::xpath_literal;
use crate::support::TestApp;

use super::page::{
    BoardGeometry, attribute, clear_ruler, click_at, click_css, click_located, drag, load,
    nearest_model, point_inches, press, sent_or_refused, shortcut_of, text_of, wait_for_ruler,
    way_inches,
};
use super::{SWAP_DEADLINE, Tally};

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

/// Clicks the decision's button that sends exactly `command`.
async fn click_choice(client: &Client, command: &PlayerCommand) {
    let json = serde_json::to_string(command).unwrap();
    let xpath = format!(
        "//div[@class='choices']/form[input[@name='command' and @value={}]]//button",
        xpath_literal(&json)
    );
    click_located(
        client,
        Locator::XPath(&xpath),
        &format!("the button for {json}"),
    )
    .await;
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

/// Makes `command` through the page; the person's actions it took.
pub(super) async fn act(
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
            } else if path
                .iter()
                .any(|w| on_another_base(&game.state, way_inches(w)))
            {
                // The path passes over a friend (the rules allow it): a
                // click there is on that model, so a player would lay the
                // path round it; this one is sent as the engine chose it.
                through_the_api(app, game, command, tally).await
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

/// Whether `point` lies on the base of a model in play other than the
/// acting one.
fn on_another_base(state: &soulstone_engine::GameState, point: (f64, f64)) -> bool {
    let acting = state.acting_model();
    state
        .models
        .iter()
        .filter(|m| m.in_play() && Some(m.id) != acting)
        .filter_map(|m| Some((point_inches(m.placement?.at), m.card.base.radius())))
        .any(|(at, radius)| (at.0 - point.0).hypot(at.1 - point.1) <= radius + 0.05)
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

fn is_plain_command(game: &HostedGame, command: &PlayerCommand) -> bool {
    soulstone_engine::pending::decision(&game.state, Seat::A).is_some_and(|d| {
        d.choices
            .iter()
            .any(|c| matches!(c, Choice::Command { command: offered } if offered == command))
    })
}
