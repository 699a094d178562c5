//! Reading the game page and moving the pointer over it: the board's
//! geometry, waiting for the page to catch up, clicks, drags and keys.

use soulstone_engine::system::Malifaux;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, Locator};
use serde_json::json;
use soulstone::hosted::{self, HostedGame};
use soulstone_engine::PlayerCommand;
use soulstone_engine::pending::Choice;
use soulstone_engine::table::movement::Waypoint;
use soulstone_engine::table::{Point, inches};

use crate::browser::check_page;
use crate::support::TestApp;

use super::SWAP_DEADLINE;

pub(super) async fn load(app: &TestApp, id: i64) -> HostedGame {
    app.with_conn(move |conn| hosted::load::<Malifaux>(conn, id).unwrap())
        .await
}

pub(super) async fn page_loads(client: &Client) -> u32 {
    let value = client
        .execute(
            "return Number(sessionStorage.getItem('soulstone.loads') || '0')",
            vec![],
        )
        .await
        .unwrap();
    value.as_u64().unwrap_or(0) as u32
}

pub(super) async fn attribute(client: &Client, selector: &str, name: &str) -> String {
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

pub(super) async fn text_of(client: &Client, selector: &str) -> String {
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
pub(super) async fn wait_for_version(client: &Client, version: u64) {
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
pub(super) async fn wait_for_text(client: &Client, words: &str) {
    let deadline = Instant::now() + SWAP_DEADLINE;
    while !text_of(client, "body").await.contains(words) {
        assert!(Instant::now() < deadline, "the page never said {words:?}");
        actix_web::rt::time::sleep(Duration::from_millis(40)).await;
    }
}

/// The board's place on the screen: where a table point is, in CSS pixels
/// from the viewport's corner.
pub(super) struct BoardGeometry {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    view: [f64; 4],
    size: f64,
}

impl BoardGeometry {
    pub(super) async fn read(client: &Client) -> Self {
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

    pub(super) fn at(&self, x: f64, y: f64) -> (f64, f64) {
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

pub(super) async fn click_at(client: &Client, board: &BoardGeometry, x: f64, y: f64) {
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

/// The model nearest to a table point other than the one at `from` (the
/// mover): its centre, radius and owner ("a" or "b").
pub(super) async fn nearest_model(
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

/// After a drag or a click: whether the choice went (the game moved on)
/// rather than the ruler refusing it; None: no answer within `patience`.
pub(super) async fn sent_or_refused(
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
pub(super) async fn clear_ruler(client: &Client) {
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
pub(super) async fn drag(client: &Client, board: &BoardGeometry, from: (f64, f64), to: (f64, f64)) {
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

pub(super) async fn press(client: &Client, key: &str) {
    use fantoccini::actions::{KeyAction, KeyActions};
    let ch = key.chars().next().unwrap();
    let keys = KeyActions::new("keys".into())
        .then(KeyAction::Down { value: ch })
        .then(KeyAction::Up { value: ch });
    client.perform_actions(keys).await.unwrap();
}

pub(super) fn point_inches(at: Point) -> (f64, f64) {
    (inches(at.x), inches(at.y))
}

pub(super) fn way_inches(w: &Waypoint) -> (f64, f64) {
    (inches(w.x), inches(w.y))
}

pub(super) async fn click_css(client: &Client, css: &str) {
    click_located(client, Locator::Css(css), css).await;
}

/// Clicks what `locator` finds. The page may swap in the game's next state
/// (the bot's reply on the stream) between finding the element and
/// clicking it: then it is found again in the page as it is now, as a
/// person would.
pub(super) async fn click_located(client: &Client, locator: Locator<'_>, what: &str) {
    for _ in 0..5 {
        let element = client
            .find(locator)
            .await
            .unwrap_or_else(|e| panic!("nothing at {what}: {e}"));
        match element.click().await {
            Ok(_) => return,
            Err(fantoccini::error::CmdError::Standard(e))
                if e.error == fantoccini::error::ErrorStatus::StaleElementReference =>
            {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            Err(e) => panic!("clicking {what}: {e}"),
        }
    }
    panic!("{what} was replaced five times before it could be clicked");
}

pub(super) async fn shortcut_of(client: &Client, command: &PlayerCommand) -> Option<String> {
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
pub(super) async fn wait_for_ruler(client: &Client) {
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
pub(super) async fn set_viewport(client: &Client, width: u32, height: u32) {
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
pub(super) async fn screenshots(
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
