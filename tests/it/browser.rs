//! End to end in a real browser: Debian's Chromium driven through
//! chromedriver (WebDriver), at a phone-sized viewport, with screenshots kept
//! under `test-artifacts/screenshots/` and an accessibility check of every
//! page visited.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use crate::support::{Backend, PASSWORD, TestApp};

both_backends!(
    a_player_plays_a_practice_game_in_the_browser,
    an_organiser_runs_a_small_event_in_the_browser,
    an_organiser_signs_in_from_a_phone_on_the_venue_network,
    players_report_confirm_and_dispute_in_the_browser,
    an_organiser_runs_a_thirty_two_player_day_from_a_phone,
    two_players_play_a_digital_round_in_their_browsers,
    two_players_play_a_third_edition_digital_round_in_their_browsers,
    an_organiser_cuts_twelve_players_to_a_top_eight_in_the_browser,
    a_ranked_player_finds_their_profile_and_hides_it,
    four_teams_of_three_with_captains_choosing_in_the_browser,
);

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";
/// How long a page may take to load after a click or a visit. Generous: CI
/// runs every test at once on two cores, a browser and a server each.
const PAGE_DEADLINE: Duration = Duration::from_secs(60);

/// chromedriver, stopped on drop; each session is its own headless Chromium
/// with a fresh profile (its own cookies: one person each).
pub(crate) struct Driver {
    process: Child,
    port: u16,
    profiles: Vec<tempfile::TempDir>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

impl Driver {
    pub(crate) fn start() -> Self {
        assert!(
            std::path::Path::new(CHROMEDRIVER).exists() && std::path::Path::new(CHROMIUM).exists(),
            "browser tests need Debian's Chromium: apt-get install chromium chromium-driver \
             (.ci/run installs them)"
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let process = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Self {
            process,
            port,
            profiles: Vec::new(),
        }
    }

    /// A new browser at a phone-sized viewport (390×844).
    pub(crate) async fn session(&mut self) -> Client {
        self.session_with(false).await
    }

    /// A phone whose browser runs no page scripts: every page must work
    /// with forms alone (the test driver's own scripts still run).
    pub(crate) async fn session_without_scripts(&mut self) -> Client {
        self.session_with_options(false, false).await
    }

    /// A phone whose owner accepted the venue server's self-signed
    /// certificate, as the warning page lets them.
    async fn session_accepting_self_signed(&mut self) -> Client {
        self.session_with(true).await
    }

    /// A desktop browser (no phone emulation) of the given window size:
    /// the projector at the venue.
    pub(crate) async fn screen(&mut self, width: u32, height: u32) -> Client {
        let profile = tempfile::tempdir().unwrap();
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                    format!("--user-data-dir={}", profile.path().display()),
                    format!("--window-size={width},{height}"),
                ],
            }),
        );
        self.profiles.push(profile);
        let client = ClientBuilder::native()
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("WebDriver session");
        // The window's inner size, whatever the browser's frame takes.
        client
            .set_window_size(width, height)
            .await
            .expect("window size");
        client
    }

    async fn session_with(&mut self, accept_self_signed: bool) -> Client {
        self.session_with_options(accept_self_signed, true).await
    }

    async fn session_with_options(&mut self, accept_self_signed: bool, scripts: bool) -> Client {
        let profile = tempfile::tempdir().unwrap();
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                    format!("--user-data-dir={}", profile.path().display()),
                    "--window-size=390,844",
                ],
                "mobileEmulation": {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1.0}},
            }),
        );
        if accept_self_signed {
            capabilities.insert("acceptInsecureCerts".into(), json!(true));
        }
        self.profiles.push(profile);
        let client = ClientBuilder::native()
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("WebDriver session");
        if !scripts {
            // The site's script files are refused, as a browser without
            // scripts would not run them. (Disabling JavaScript outright
            // also stops chromedriver's own, which it clicks with.)
            client
                .issue_cmd(DevTools::new("Network.enable", json!({})))
                .await
                .unwrap();
            client
                .issue_cmd(DevTools::new(
                    "Network.setBlockedURLs",
                    json!({"urls": ["*/static/*.js*"]}),
                ))
                .await
                .unwrap();
        }
        client
    }
}

/// A Chrome DevTools command, sent through chromedriver.
#[derive(Debug)]
struct DevTools {
    command: &'static str,
    params: serde_json::Value,
}

impl DevTools {
    fn new(command: &'static str, params: serde_json::Value) -> Self {
        Self { command, params }
    }
}

impl fantoccini::wd::WebDriverCompatibleCommand for DevTools {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({"cmd": self.command, "params": self.params});
        (http::Method::POST, Some(body.to_string()))
    }
}

pub(crate) fn artifacts_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test-artifacts/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The checks a page must pass, run inside the browser on the live DOM.
const ACCESSIBILITY_CHECK: &str = r#"
const problems = [];
if (!document.documentElement.lang) problems.push("the page has no lang attribute");
if (!document.title.trim()) problems.push("the page has no title");
const h1s = document.querySelectorAll("h1");
if (h1s.length !== 1) problems.push(`expected one h1, found ${h1s.length}`);
let last = 0;
for (const h of document.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
  const level = Number(h.tagName[1]);
  if (last && level > last + 1) problems.push(`heading "${h.textContent.trim()}" skips from h${last} to h${level}`);
  last = level;
}
for (const field of document.querySelectorAll("input, select, textarea")) {
  if (field.type === "hidden" || field.type === "submit" || field.type === "button") continue;
  const labelled = (field.id && document.querySelector(`label[for="${field.id}"]`))
    || field.closest("label") || field.getAttribute("aria-label") || field.getAttribute("aria-labelledby");
  if (!labelled) problems.push(`field "${field.name}" has no label`);
}
for (const button of document.querySelectorAll("button, a")) {
  const name = (button.textContent || "").trim() || button.getAttribute("aria-label") || button.getAttribute("title");
  if (!name) problems.push(`a ${button.tagName.toLowerCase()} has no accessible name`);
}
for (const img of document.querySelectorAll("img")) {
  if (!img.hasAttribute("alt")) problems.push("an image has no alt text");
}
for (const el of document.querySelectorAll("[tabindex]")) {
  if (Number(el.getAttribute("tabindex")) > 0) problems.push("a positive tabindex breaks the keyboard order");
}
// Text contrast (WCAG AA): 4.5:1, or 3:1 for large text.
const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
const luminance = ([r, g, b]) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
};
const background = (el) => {
  for (let e = el; e; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
  }
  return [255, 255, 255];
};
for (const el of document.querySelectorAll("body *")) {
  const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own || el.offsetParent === null) continue;
  const style = getComputedStyle(el);
  const fg = rgb(style.color).slice(0, 3), bg = background(el);
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
  const ratio = (hi + 0.05) / (lo + 0.05);
  const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
  const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
  if (ratio < needed) problems.push(`low contrast ${ratio.toFixed(2)}:1 for "${el.textContent.trim().slice(0, 30)}"`);
}
if (document.documentElement.scrollWidth > window.innerWidth + 1)
  problems.push(`the page is wider than the phone screen (${document.documentElement.scrollWidth}px)`);
return problems;
"#;

/// Saves a screenshot and fails on any accessibility problem of the page.
pub(crate) async fn check_page(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    std::fs::write(artifacts_dir().join(format!("{name}.png")), png).unwrap();
    let problems = client.execute(ACCESSIBILITY_CHECK, vec![]).await.unwrap();
    let problems: Vec<String> = serde_json::from_value(problems).unwrap();
    assert!(problems.is_empty(), "{name}: {problems:#?}");
}

async fn fill(client: &Client, name: &str, value: &str) {
    let field = client
        .find(Locator::Css(&format!("[name=\"{name}\"]")))
        .await
        .unwrap_or_else(|e| panic!("no field {name}: {e}"));
    field.clear().await.unwrap();
    field.send_keys(value).await.unwrap();
}

/// Clicks a button and waits for the page it leads to.
pub(crate) async fn click_button(client: &Client, text: &str) {
    click_button_at(
        client,
        &format!("//button[normalize-space(.)={}]", xpath_literal(text)),
        text,
    )
    .await;
}

/// Clicks the button whose text starts with `start` ("Pair round 2 of 3").
async fn click_button_starting(client: &Client, start: &str) {
    let xpath = format!(
        "//button[starts-with(normalize-space(.), {})]",
        xpath_literal(start)
    );
    click_button_at(client, &xpath, start).await;
}

/// `text` as an XPath 1.0 string literal. XPath has no escapes, so a label
/// holding both quote kinds (a position in inches, `(35.4", 0.6")`) is
/// spliced together with `concat()`.
pub(crate) fn xpath_literal(text: &str) -> String {
    if !text.contains('"') {
        return format!("\"{text}\"");
    }
    if !text.contains('\'') {
        return format!("'{text}'");
    }
    let parts: Vec<String> = text.split('"').map(|part| format!("\"{part}\"")).collect();
    format!("concat({})", parts.join(", '\"', "))
}

async fn click_button_at(client: &Client, xpath: &str, text: &str) {
    let button = client
        .find(Locator::XPath(xpath))
        .await
        .unwrap_or_else(|e| panic!("no button \"{text}\": {e}"));
    let old_page = client.find(Locator::Css("html")).await.unwrap();
    button
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click \"{text}\": {e}"));
    let deadline = Instant::now() + PAGE_DEADLINE;
    // The old document goes stale once the browser has moved on.
    while old_page.tag_name().await.is_ok() {
        assert!(Instant::now() < deadline, "clicking \"{text}\" led nowhere");
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    wait_until_loaded(client).await;
}

async fn wait_until_loaded(client: &Client) {
    let deadline = Instant::now() + PAGE_DEADLINE;
    loop {
        let state = client
            .execute("return document.readyState", vec![])
            .await
            .unwrap_or_default();
        if state == "complete" {
            return;
        }
        assert!(Instant::now() < deadline, "the page did not finish loading");
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

pub(crate) async fn visit(client: &Client, url: &str) {
    client.goto(url).await.unwrap();
    wait_until_loaded(client).await;
}

/// The page's text. A game page reloads itself when the game moves on: if
/// it did so between finding the body and reading it, it is read again.
async fn body_text(client: &Client) -> String {
    let mut last_error = None;
    for _ in 0..5 {
        let read = match client.find(Locator::Css("body")).await {
            Ok(body) => body.text().await,
            Err(e) => Err(e),
        };
        match read {
            Ok(text) => return text,
            Err(e) => last_error = Some(e),
        }
        wait_until_loaded(client).await;
    }
    panic!("cannot read the page: {last_error:?}")
}

/// Sets a field's value directly (date pickers and selects differ by locale).
async fn set_value(client: &Client, name: &str, value: &str) {
    client
        .execute(
            "const field = document.querySelector(`[name=\"${arguments[0]}\"]`); \
             field.value = arguments[1]; field.dispatchEvent(new Event('change'));",
            vec![json!(name), json!(value)],
        )
        .await
        .unwrap_or_else(|e| panic!("cannot set {name}: {e}"));
}

async fn click_labelled(client: &Client, label: &str) {
    let button = client
        .find(Locator::Css(&format!("button[aria-label=\"{label}\"]")))
        .await
        .unwrap_or_else(|e| panic!("no button labelled \"{label}\": {e}"));
    let old_page = client.find(Locator::Css("html")).await.unwrap();
    button.click().await.unwrap();
    while old_page.tag_name().await.is_ok() {
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    wait_until_loaded(client).await;
}

/// Enters every open result of the round page the browser is on: the first
/// player wins 3+2 to 1+0.
async fn enter_round_results(client: &Client, prefix: &str, round: u32) -> usize {
    let mut links = Vec::new();
    for link in client.find_all(Locator::LinkText("enter")).await.unwrap() {
        links.push(link.attr("href").await.unwrap().unwrap());
    }
    for (i, link) in links.iter().enumerate() {
        visit(client, &format!("{}{link}", current_origin(client).await)).await;
        if i == 0 {
            check_page(client, &format!("{prefix}-round{round}-game")).await;
        }
        fill(client, "a_strategy_vp", "3").await;
        fill(client, "a_scheme_vp", "2").await;
        fill(client, "b_strategy_vp", "1").await;
        fill(client, "b_scheme_vp", "0").await;
        click_button(client, "Save the result").await;
        let text = body_text(client).await;
        assert!(
            text.contains("Result saved") && text.contains("5 – 1"),
            "{text}"
        );
    }
    links.len()
}

async fn current_origin(client: &Client) -> String {
    let url = client.current_url().await.unwrap();
    url.origin().ascii_serialization()
}

async fn pair_and_publish(client: &Client, prefix: &str, round: u32) {
    click_button_starting(client, &format!("Pair round {round} of")).await;
    click_button(client, "Flip one scenario for all tables").await;
    let text = body_text(client).await;
    assert!(text.contains("Scheme pool"), "{text}");
    click_button(client, "Publish and mail the players").await;
    let text = body_text(client).await;
    assert!(text.contains("is published"), "{text}");
    check_page(client, &format!("{prefix}-round{round}")).await;
}

async fn an_organiser_runs_a_small_event_in_the_browser(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    let mut driver = Driver::start();
    let session = driver.session().await;
    let client = &session;
    let prefix = backend.name();

    // The accessibility check itself catches what it is meant to.
    visit(
        client,
        "data:text/html,<html><head><title>t</title></head><body><h1>a</h1><h3>b</h3><input name=bare><button></button><p style='color:%23bbb'>pale</p></body></html>",
    )
    .await;
    let problems: Vec<String> =
        serde_json::from_value(client.execute(ACCESSIBILITY_CHECK, vec![]).await.unwrap()).unwrap();
    for expected in [
        "no lang",
        "skips from h1 to h3",
        "\"bare\" has no label",
        "no accessible name",
        "low contrast",
    ] {
        assert!(
            problems.iter().any(|p| p.contains(expected)),
            "{expected}: {problems:?}"
        );
    }

    // The public setup generator works for anyone.
    visit(client, &app.url("/setup")).await;
    set_value(client, "edition", "m3e").await;
    click_button(client, "Flip").await;
    let text = body_text(client).await;
    assert!(
        text.contains("Scheme pool") || text.contains("Strategy"),
        "{text}"
    );
    check_page(client, &format!("{prefix}-00-setup")).await;

    visit(client, &app.url("/signin")).await;
    check_page(client, &format!("{prefix}-01-signin")).await;
    fill(client, "email", "to@example.org").await;
    fill(client, "password", PASSWORD).await;
    click_button(client, "Sign in").await;
    let text = body_text(client).await;
    assert!(text.contains("Tess Organiser"), "{text}");

    // A new event: only the name and dates need typing.
    visit(client, &app.url("/events/new")).await;
    check_page(client, &format!("{prefix}-02-new-event")).await;
    fill(client, "name", "Browser Open").await;
    set_value(client, "starts_on", "2026-12-12").await;
    set_value(client, "ends_on", "2026-12-12").await;
    set_value(client, "rounds_planned", "3").await;
    // The shipped Gaining Grounds pool is 3rd edition's.
    set_value(client, "game_system", "m3e").await;
    set_value(client, "pool", "m3e-gg3").await;
    click_button(client, "Create the event").await;
    let text = body_text(client).await;
    assert!(text.contains("Browser Open"), "{text}");
    let event_url = client.current_url().await.unwrap().to_string();
    click_button(client, "Open registration").await;
    check_page(client, &format!("{prefix}-03-event")).await;

    // Eight walk-ins, checked in from the players page.
    let players = ["Ada", "Bram", "Cleo", "Dov", "Eli", "Fay", "Gus", "Hal"];
    visit(client, &format!("{event_url}/players")).await;
    for name in players {
        fill(client, "name", name).await;
        click_button(client, "Add the player").await;
    }
    for name in players {
        click_labelled(client, &format!("Check in {name}")).await;
    }
    let text = body_text(client).await;
    assert!(text.contains("8 of 8 checked in"), "{text}");
    check_page(client, &format!("{prefix}-04-players")).await;

    visit(client, &event_url).await;
    click_button(client, "Start the event").await;
    pair_and_publish(client, prefix, 1).await;
    assert_eq!(enter_round_results(client, prefix, 1).await, 4);

    // One player drops after round 1: rounds 2 and 3 have seven players and a bye.
    visit(client, &format!("{event_url}/players")).await;
    // Dropping asks first.
    let ask = client
        .find(Locator::Css("a[aria-label=\"Drop Dov…\"]"))
        .await
        .expect("a Drop link for Dov");
    let old_page = client.find(Locator::Css("html")).await.unwrap();
    ask.click().await.unwrap();
    while old_page.tag_name().await.is_ok() {
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    wait_until_loaded(client).await;
    assert!(
        body_text(client)
            .await
            .contains("Drop Dov from this event?")
    );
    click_button(client, "Drop the player").await;
    visit(client, &event_url).await;
    for round in 2..=3 {
        visit(client, &event_url).await;
        pair_and_publish(client, prefix, round).await;
        assert_eq!(enter_round_results(client, prefix, round).await, 3);
    }

    visit(client, &format!("{event_url}/standings")).await;
    check_page(client, &format!("{prefix}-05-standings")).await;
    let text = body_text(client).await;
    for name in players {
        assert!(text.contains(name), "{text}");
    }

    // The CSV export adds up: four wins in round 1, then three wins and a bye
    // in each of rounds 2 and 3, 3 points each.
    let csv = reqwest::get(format!("{event_url}/standings.csv"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 9, "{csv}");
    let header: Vec<&str> = lines[0].split(',').collect();
    let points = header.iter().position(|h| *h == "points").unwrap();
    let dropped = header.iter().position(|h| *h == "dropped").unwrap();
    let total: i64 = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(points).unwrap().parse::<i64>().unwrap())
        .sum();
    assert_eq!(total, 36, "{csv}");
    let dov = lines.iter().find(|l| l.contains("\"Dov\"")).unwrap();
    assert_eq!(dov.split(',').nth(dropped), Some("true"), "{csv}");

    session.close().await.unwrap();
}

/// The venue set-up of `docs/deploy.md` (production, HTTPS with the
/// certificate the server makes, reached at the machine's network address):
/// a phone signs in and stays signed in, its session cookie `Secure`.
async fn an_organiser_signs_in_from_a_phone_on_the_venue_network(backend: Backend) {
    let app = TestApp::spawn_at_venue(backend).await;
    assert!(app.address.starts_with("https://"), "{}", app.address);
    assert!(!app.address.contains("127.0.0.1"), "{}", app.address);
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    let mut driver = Driver::start();
    let phone = driver.session_accepting_self_signed().await;
    sign_in(&phone, &app, "to@example.org").await;
    assert!(
        body_text(&phone)
            .await
            .contains("Welcome back, Tess Organiser")
    );
    // The next page still knows who this is: the browser kept the cookie.
    visit(&phone, &app.url("/account")).await;
    assert_eq!(
        phone.current_url().await.unwrap().path(),
        "/account",
        "signed out again"
    );
    assert!(body_text(&phone).await.contains("to@example.org"));
    let session = phone
        .get_named_cookie("soulstone_session")
        .await
        .expect("a session cookie");
    assert_eq!(session.secure(), Some(true));
    phone.close().await.unwrap();
}

pub(crate) async fn sign_in(client: &Client, app: &TestApp, email: &str) {
    visit(client, &app.url("/signin")).await;
    fill(client, "email", email).await;
    fill(client, "password", PASSWORD).await;
    click_button(client, "Sign in").await;
}

async fn follow_link(client: &Client, text: &str) {
    let link = client
        .find(Locator::XPath(&format!(
            "//a[contains(normalize-space(.), {})]",
            xpath_literal(text)
        )))
        .await
        .unwrap_or_else(|e| panic!("no link \"{text}\": {e}"));
    let href = link.attr("href").await.unwrap().unwrap();
    visit(client, &format!("{}{href}", current_origin(client).await)).await;
}

/// Four registered players on their phones: they register, report their
/// games and confirm or dispute their opponent's report; the organiser
/// resolves the dispute; the standings show exactly those results.
async fn players_report_confirm_and_dispute_in_the_browser(backend: Backend) {
    use crate::events::{create_event, event_body, set_status};
    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-players", backend.name());
    app.create_account("org@example.org", "Orla Organiser", false)
        .await;
    let names = ["Ines", "Jon", "Kai", "Lea"];
    for name in names {
        app.create_account(&format!("{}@example.org", name.to_lowercase()), name, false)
            .await;
    }
    let api = app.api_client("org@example.org").await;
    let mut body = event_body("Phone Cup");
    body["game_system"] = json!("m3e");
    body["pool"] = json!("m3e-gg3");
    body["rounds_planned"] = json!(1);
    let event = create_event(&api, body).await;
    set_status(&api, event, "registration").await;

    let mut driver = Driver::start();
    let mut phones = Vec::new();
    for name in names {
        let phone = driver.session().await;
        sign_in(
            &phone,
            &app,
            &format!("{}@example.org", name.to_lowercase()),
        )
        .await;
        visit(&phone, &app.url(&format!("/events/{event}"))).await;
        click_button(&phone, "Register for this event").await;
        phones.push((name, phone));
    }
    check_page(&phones[0].1, &format!("{prefix}-registered")).await;

    let (_, detail) = api.get(&format!("/events/{event}")).await;
    for player in detail["players"].as_array().unwrap() {
        api.post(
            &format!("/events/{event}/players/{}/check-in", player["id"]),
            json!({"checked_in": true}),
        )
        .await;
    }
    set_status(&api, event, "running").await;
    let (status, _) = api
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(status, 201);
    api.post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;

    // Each table: the first of its players to look reports; the other answers.
    let mut reported: Vec<String> = Vec::new();
    let mut disputed = None;
    for (name, phone) in &phones {
        visit(phone, &app.url(&format!("/events/{event}/rounds/1"))).await;
        follow_link(phone, "Your game").await;
        let game_url = phone.current_url().await.unwrap().to_string();
        let text = body_text(phone).await;
        if text.contains("Confirm the reported result") {
            if disputed.is_none() {
                check_page(phone, &format!("{prefix}-to-confirm")).await;
                fill(phone, "note", "We played 4 to 1, not 5 to 1").await;
                click_button(phone, "Dispute").await;
                let text = body_text(phone).await;
                assert!(text.contains("Disputed"), "{text}");
                disputed = Some(game_url);
            } else {
                click_button(phone, "Confirm").await;
                let text = body_text(phone).await;
                assert!(text.contains("Result confirmed"), "{name}: {text}");
            }
        } else {
            check_page(phone, &format!("{prefix}-to-report")).await;
            fill(phone, "a_strategy_vp", "3").await;
            fill(phone, "a_scheme_vp", "2").await;
            fill(phone, "b_strategy_vp", "1").await;
            fill(phone, "b_scheme_vp", "0").await;
            click_button(phone, "Save the result").await;
            let text = body_text(phone).await;
            assert!(text.contains("5 – 1"), "{name}: {text}");
            reported.push(game_url);
        }
    }
    assert_eq!(reported.len(), 2, "two tables, one report each");
    let disputed = disputed.expect("one report was disputed");

    // The organiser resolves the dispute from the game page: 4–1.
    let organiser = driver.session().await;
    sign_in(&organiser, &app, "org@example.org").await;
    visit(&organiser, &disputed).await;
    let text = body_text(&organiser).await;
    assert!(text.contains("We played 4 to 1"), "{text}");
    check_page(&organiser, &format!("{prefix}-dispute")).await;
    fill(&organiser, "a_strategy_vp", "3").await;
    fill(&organiser, "a_scheme_vp", "1").await;
    fill(&organiser, "b_strategy_vp", "1").await;
    fill(&organiser, "b_scheme_vp", "0").await;
    click_button(&organiser, "Save the result").await;
    let text = body_text(&organiser).await;
    assert!(text.contains("4 – 1"), "{text}");

    // Standings: two winners with 3 points, scored 5 and 4; two losers with 1 VP.
    let (_, rows) = api.get(&format!("/events/{event}/standings")).await;
    let rows = rows.as_array().unwrap();
    let mut points: Vec<i64> = rows.iter().map(|r| r["points"].as_i64().unwrap()).collect();
    points.sort_unstable();
    assert_eq!(points, vec![0, 0, 3, 3], "{rows:?}");
    let mut scored: Vec<i64> = rows.iter().map(|r| r["scored"].as_i64().unwrap()).collect();
    scored.sort_unstable();
    assert_eq!(scored, vec![1, 1, 4, 5], "{rows:?}");
    visit(
        &phones[3].1,
        &app.url(&format!("/events/{event}/standings")),
    )
    .await;
    check_page(&phones[3].1, &format!("{prefix}-standings")).await;

    for (_, phone) in phones {
        phone.close().await.unwrap();
    }
    organiser.close().await.unwrap();
}

/// Submits the game page's form of `kind` (its first, if several) by
/// pressing its button. The press is the DOM's: chromedriver's synthesised
/// click on these buttons, below long legends on a phone-sized page, was
/// seen to land nowhere while the same form submitted from its button.
async fn submit_choice(client: &Client, kind: &str) {
    let old_page = client.find(Locator::Css("html")).await.unwrap();
    client
        .execute(
            "document.querySelector(`form.choice-${arguments[0]} button`).click();",
            vec![json!(kind)],
        )
        .await
        .unwrap_or_else(|e| panic!("no {kind} form: {e}"));
    let deadline = Instant::now() + PAGE_DEADLINE;
    while old_page.tag_name().await.is_ok() {
        assert!(Instant::now() < deadline, "the {kind} form led nowhere");
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    wait_until_loaded(client).await;
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
        .with_conn(move |conn| hosted::load(conn, id).unwrap())
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
    use soulstone::hosted::{self, HostedStatus};
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
    click_button(client, "Start the game").await;
    let url = client.current_url().await.unwrap().to_string();
    let id: i64 = url.rsplit('/').next().unwrap().parse().unwrap();
    check_page(client, &format!("{prefix}-setup")).await;

    let mut through_the_page = 0;
    let mut kinds_used = std::collections::BTreeSet::new();
    for n in 0..150u64 {
        let game = app
            .with_conn(move |conn| hosted::load(conn, id).unwrap())
            .await;
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
        let game = app
            .with_conn(move |conn| hosted::load(conn, id).unwrap())
            .await;
        if game.status == HostedStatus::Finished {
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

/// The day of a 32-player event, run by an organiser on a phone: 33 entries
/// of whom 32 come (found by search, checked in with one tap), the no-show
/// left out of every round, three rounds flipped and published from the
/// phone, a dispute resolved from its side-by-side view, standings without
/// the no-show, and the projector at 1920×1080 showing every table and the
/// scenario. Results other than the dispute are entered through the API.
async fn an_organiser_runs_a_thirty_two_player_day_from_a_phone(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    let prefix = format!("{}-day32", backend.name());
    app.create_account("day-to@example.org", "Dee Organiser", false)
        .await;
    let to_api = app.api_client("day-to@example.org").await;
    let (status, event) = to_api
        .post(
            "/events",
            json!({
                "name": "Thirty-two", "starts_on": "2026-12-12", "ends_on": "2026-12-12",
                "venue": "Town hall", "game_system": "m3e", "pool": "m3e-core", "format": "swiss",
                "rounds_planned": 3, "round_minutes": 135, "encounter_size": 50,
                "visibility": "public", "tables": 16, "time_zone": "Europe/London",
                "tiebreakers": "vp_diff,vp_scored,sos", "points_win": 3, "points_draw": 1,
                "points_loss": 0, "bye_scored": 5, "bye_conceded": 0
            }),
        )
        .await;
    assert_eq!(status, 201, "{event}");
    let event = event["id"].as_i64().unwrap();
    let event_path = format!("/events/{event}");
    let (status, _) = to_api
        .post(
            &format!("{event_path}/status"),
            json!({"status": "registration"}),
        )
        .await;
    assert_eq!(status, 204);
    // Two players with accounts (they will dispute), 31 walk-ins, one of
    // whom never comes.
    let mut accounts = Vec::new();
    for (email, name) in [
        ("dana@example.org", "Dana Reyes"),
        ("eli@example.org", "Eli Moss"),
    ] {
        app.create_account(email, name, false).await;
        let api = app.api_client(email).await;
        let (status, entry) = api.post(&format!("{event_path}/register"), json!({})).await;
        assert_eq!(status, 201, "{entry}");
        accounts.push((entry["id"].as_i64().unwrap(), api));
    }
    let mut walk_ins = Vec::new();
    for i in 0..30 {
        let name = format!("Walk-in {i:02}");
        let (status, entry) = to_api
            .post(
                &format!("{event_path}/players"),
                json!({"name": name, "club": format!("Club {}", i % 6)}),
            )
            .await;
        assert_eq!(status, 201, "{entry}");
        walk_ins.push(entry["id"].as_i64().unwrap());
    }
    let (_, no_show) = to_api
        .post(
            &format!("{event_path}/players"),
            json!({"name": "Nora Noshow"}),
        )
        .await;
    let no_show = no_show["id"].as_i64().unwrap();

    let mut driver = Driver::start();
    let phone = driver.session().await;
    let client = &phone;
    sign_in(client, &app, "day-to@example.org").await;
    let base = current_origin(client).await;
    let players_url = format!("{base}{event_path}/players");

    // At the door: search finds one player among 33...
    visit(client, &players_url).await;
    fill(client, "q", "dana").await;
    click_button(client, "Find").await;
    let text = body_text(client).await;
    assert!(text.contains("Showing 1 of 33"), "{text}");
    check_page(client, &format!("{prefix}-01-search")).await;
    // ...and everyone who came is ticked and checked in with one tap.
    visit(client, &players_url).await;
    for id in accounts
        .iter()
        .map(|(id, _)| *id)
        .chain(walk_ins.iter().copied())
    {
        client
            .find(Locator::Css(&format!("#present-{id}")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
    }
    click_button(client, "Check in the ticked players").await;
    let text = body_text(client).await;
    assert!(text.contains("32 players checked in."), "{text}");
    assert!(
        text.contains("32 of 32 checked in") || text.contains("32 of 33 checked in"),
        "{text}"
    );
    check_page(client, &format!("{prefix}-02-checked-in")).await;

    visit(client, &format!("{base}{event_path}")).await;
    click_button(client, "Start the event").await;
    let text = body_text(client).await;
    assert!(
        text.contains("Nora Noshow"),
        "the no-show is named before pairing: {text}"
    );

    let (dana, eli) = (accounts[0].0, accounts[1].0);
    for round in 1..=3u32 {
        visit(client, &format!("{base}{event_path}")).await;
        click_button_starting(client, &format!("Pair round {round} of 3")).await;
        if round == 1 {
            // Dana and Eli are to meet: the organiser swaps Eli with Dana's opponent.
            let (_, detail) = to_api.get(&format!("{event_path}/rounds/1")).await;
            let table = detail["tables"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["player_a"] == dana || t["player_b"] == dana)
                .unwrap()
                .clone();
            let opponent = if table["player_a"] == dana {
                table["player_b"].as_i64().unwrap()
            } else {
                table["player_a"].as_i64().unwrap()
            };
            if opponent != eli {
                set_value(client, "first", &eli.to_string()).await;
                set_value(client, "second", &opponent.to_string()).await;
                click_button(client, "Swap them").await;
            }
        }
        click_button(client, "Flip one scenario for all tables").await;
        let text = body_text(client).await;
        assert!(text.contains("Scenario for every table"), "{text}");
        assert!(
            !text.contains("Nora Noshow"),
            "the no-show is not paired: {text}"
        );
        assert!(text.matches("attacker").count() >= 16, "{text}");
        check_page(client, &format!("{prefix}-03-round{round}-draft")).await;
        click_button(client, "Publish and mail the players").await;

        let (_, detail) = to_api.get(&format!("{event_path}/rounds/{round}")).await;
        let tables = detail["tables"].as_array().unwrap().clone();
        assert_eq!(tables.len(), 16, "{detail}");
        let numbers: std::collections::BTreeSet<i64> = tables
            .iter()
            .map(|t| t["table"].as_i64().unwrap())
            .collect();
        assert_eq!(numbers, (1..=16).collect(), "tables 1 to 16, none skipped");
        for table in &tables {
            let game = table["game"].as_i64().unwrap();
            let path = format!("{event_path}/games/{game}/result");
            let pair = [
                table["player_a"].as_i64().unwrap(),
                table["player_b"].as_i64().unwrap(),
            ];
            if round == 1 && pair.contains(&dana) && pair.contains(&eli) {
                // Each says they won.
                let dana_is_a = pair[0] == dana;
                let says = |a_wins: bool| {
                    if a_wins {
                        json!({"a_strategy_vp": 4, "a_scheme_vp": 2, "b_strategy_vp": 2, "b_scheme_vp": 1})
                    } else {
                        json!({"a_strategy_vp": 2, "a_scheme_vp": 1, "b_strategy_vp": 4, "b_scheme_vp": 2})
                    }
                };
                let (status, body) = accounts[0].1.post(&path, says(dana_is_a)).await;
                assert_eq!(status, 200, "{body}");
                let (status, body) = accounts[1].1.post(&path, says(!dana_is_a)).await;
                assert_eq!(status, 200, "{body}");
                assert_eq!(body["status"], "disputed");
                continue;
            }
            let (status, body) = to_api
                .post(&path, json!({"a_strategy_vp": 3, "a_scheme_vp": 2, "b_strategy_vp": 1, "b_scheme_vp": 1}))
                .await;
            assert_eq!(status, 200, "{body}");
        }
        if round == 1 {
            // The organiser sees the dispute flagged, both sides in words,
            // and settles it from the phone.
            visit(client, &format!("{base}{event_path}")).await;
            let text = body_text(client).await;
            assert!(text.contains("1 disputed result to resolve"), "{text}");
            follow_link(client, "Dana Reyes").await;
            let text = body_text(client).await;
            assert!(text.contains("Disputed: what each side says"), "{text}");
            assert!(
                text.contains("Dana Reyes\n") || text.contains("Dana Reyes "),
                "{text}"
            );
            check_page(client, &format!("{prefix}-04-dispute")).await;
            for (field, value) in [
                ("a_strategy_vp", "3"),
                ("a_scheme_vp", "2"),
                ("b_strategy_vp", "3"),
                ("b_scheme_vp", "2"),
            ] {
                fill(client, field, value).await;
            }
            click_button(client, "Save the result").await;
            let text = body_text(client).await;
            assert!(text.contains("5 – 5"), "{text}");
        }
        if round == 2 {
            // The projector, on the venue's screen, mid-event.
            let screen = driver.screen(1920, 1080).await;
            visit(&screen, &format!("{base}{event_path}/rounds/2/projector")).await;
            let fits: bool = serde_json::from_value(
                screen
                    .execute(
                        "const seats = [...document.querySelectorAll('ol.seats li')];\
                         return seats.length === 32 && seats.every((li) => {\
                           const r = li.getBoundingClientRect();\
                           return r.bottom <= window.innerHeight && r.right <= window.innerWidth && r.height > 0;\
                         }) && document.querySelector('.scenario').getBoundingClientRect().bottom <= window.innerHeight;",
                        vec![],
                    )
                    .await
                    .unwrap(),
            )
            .unwrap();
            let png = screen.screenshot().await.unwrap();
            std::fs::write(
                artifacts_dir().join(format!("{prefix}-05-projector-1080p.png")),
                png,
            )
            .unwrap();
            assert!(fits, "all 32 players and the scenario fit a 1080p screen");
            let text = body_text(&screen).await;
            assert!(
                text.contains("Dana Reyes") && text.contains("table "),
                "{text}"
            );
            screen.close().await.unwrap();
        }
    }

    visit(client, &format!("{base}{event_path}/standings")).await;
    let text = body_text(client).await;
    assert!(
        !text.contains("Nora Noshow"),
        "no-shows are not in the standings: {text}"
    );
    check_page(client, &format!("{prefix}-06-standings")).await;
    let (_, rows) = to_api.get(&format!("{event_path}/standings")).await;
    assert_eq!(rows.as_array().unwrap().len(), 32, "{rows}");
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .all(|r| r["player"] != no_show)
    );
    phone.close().await.unwrap();
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
        .with_conn(move |conn| hosted::load(conn, id).unwrap())
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
            .with_conn(move |conn| hosted::load(conn, id).unwrap())
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
            .with_conn(move |conn| hosted::load(conn, id).unwrap())
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

/// A player opens their digital pairing's page from the round's.
async fn open_the_pairing_page(client: &Client, base: &str, event: i64) {
    visit(client, &format!("{base}/events/{event}/rounds/1")).await;
    follow_link(client, "in the browser").await;
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
        .with_conn(move |conn| hosted::load(conn, id).unwrap())
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
            .with_conn(move |conn| hosted::load(conn, id).unwrap())
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

/// Twelve players through three Swiss rounds (set up through the API), then
/// the organiser makes a top-8 cut with a third-place game in the browser on
/// a phone, pairs and publishes each playoff round, enters its results, and
/// the bracket shows the champion and the final placings.
async fn an_organiser_cuts_twelve_players_to_a_top_eight_in_the_browser(backend: Backend) {
    use crate::events::{create_event, event_body, set_status, walk_ins_checked_in};
    use crate::playoffs::{enter, pair_and_publish as api_pair_and_publish};
    let app = TestApp::spawn(backend.clone()).await;
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, event_body("Top Eight Cup")).await;
    set_status(&to, event, "registration").await;
    walk_ins_checked_in(&to, event, "Player", 12, 12).await;
    set_status(&to, event, "running").await;
    for _ in 1..=3 {
        let (_, tables) = api_pair_and_publish(&to, event).await;
        for (i, table) in tables.iter().enumerate() {
            enter(
                &to,
                event,
                table["game"].as_i64().unwrap(),
                (i % 6) as i64,
                2,
            )
            .await;
        }
    }
    let (_, standings) = to.get(&format!("/events/{event}/standings")).await;
    let top_seed = standings[0]["name"].as_str().unwrap().to_owned();

    let mut driver = Driver::start();
    let client = &driver.session().await;
    let prefix = format!("{}-playoff", backend.name());
    sign_in(client, &app, "to@example.org").await;
    let event_url = app.url(&format!("/events/{event}"));
    visit(client, &event_url).await;
    fill(client, "cut", "8").await;
    client
        .find(Locator::Css("[name=third_place]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    click_button(client, "Make the cut").await;
    let text = body_text(client).await;
    assert!(
        text.contains("The cut is made") && text.contains("Quarterfinals"),
        "{text}"
    );
    check_page(client, &format!("{prefix}-bracket")).await;

    for (round, name, games) in [
        (4, "Quarterfinals", 4),
        (5, "Semifinals", 2),
        (6, "Final", 2),
    ] {
        visit(client, &event_url).await;
        click_button(client, "Pair the next playoff round").await;
        let text = body_text(client).await;
        assert!(text.contains(&format!("{name} (round {round})")), "{text}");
        click_button(client, "Flip one scenario for all tables").await;
        click_button(client, "Publish and mail the players").await;
        assert!(body_text(client).await.contains("is published"));
        // The first player (the higher seed) wins every game.
        assert_eq!(enter_round_results(client, &prefix, round).await, games);
    }

    visit(client, &format!("{event_url}/bracket")).await;
    let text = body_text(client).await;
    assert!(text.contains("Final placings"), "{text}");
    check_page(client, &format!("{prefix}-placings")).await;
    let placings = client
        .find(Locator::Css("table.placings tbody tr"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let placings = placings.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(placings, format!("1 {top_seed}"));
    let csv = reqwest::get(format!("{event_url}/placings.csv"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(csv.lines().count(), 13, "{csv}");
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .ends_with(&format!("\"{top_seed}\"")),
        "{csv}"
    );
    assert!(
        csv.contains("5,8,"),
        "quarterfinal losers share 5th to 8th: {csv}"
    );

    // The projector view of the bracket drops the site's frame.
    visit(client, &format!("{event_url}/bracket?projector=1")).await;
    assert!(body_text(client).await.contains("Final"));
}

/// Two finished ranked events (through the API), then in a phone browser:
/// the ranking page links to a profile whose chart has a point per ranked
/// event, and the player hides their profile from the account page.
async fn a_ranked_player_finds_their_profile_and_hides_it(backend: Backend) {
    use crate::events::set_status;
    use crate::rankings::{four_account_holders, one_round_event};
    let app = TestApp::spawn(backend.clone()).await;
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let players = four_account_holders(&app).await;
    for (name, date) in [
        ("Autumn Ranked", "2026-10-03"),
        ("Winter Ranked", "2026-12-05"),
    ] {
        let (event, _) = one_round_event(&to, &players, name, date, true).await;
        set_status(&to, event, "finished").await;
    }
    let (_, rows) = to.get("/rankings?system=m4e").await;
    let top = rows[0].clone();
    let top_name = top["name"].as_str().unwrap().to_owned();
    let (_, profile) = to.get(&format!("/players/{}", top["account"])).await;
    let points = profile["ratings"][0]["history"].as_array().unwrap().len();

    let mut driver = Driver::start();
    let client = &driver.session().await;
    let prefix = format!("{}-rankings", backend.name());
    visit(client, &app.url("/rankings?system=m4e")).await;
    check_page(client, &format!("{prefix}-list")).await;
    follow_link(client, &top_name).await;
    let text = body_text(client).await;
    assert!(
        text.contains("Head to head") && text.contains("Winter Ranked"),
        "{text}"
    );
    let circles = client
        .find_all(Locator::Css("svg.rating-chart circle"))
        .await
        .unwrap();
    assert_eq!(circles.len(), points);
    check_page(client, &format!("{prefix}-profile")).await;

    // The player hides the profile: off the list, and not found by others.
    let email = format!("{}@example.org", top_name.to_lowercase());
    sign_in(client, &app, &email).await;
    visit(client, &app.url("/account")).await;
    client
        .find(Locator::Css("[name=profile_hidden]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    click_button(client, "Save profile").await;
    visit(client, &app.url("/rankings?system=m4e")).await;
    let table = client
        .find(Locator::Css("table.rankings"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!table.contains(&top_name), "{table}");
    let anonymous = reqwest::get(app.url(&format!("/players/{}", top["account"])))
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 404);
}

/// Four teams of three: a captain registers in a phone browser (a refused
/// entry keeps what was typed), the others through the API; after round 1
/// is paired and published, the two captains of one match take turns
/// choosing who plays whom in the browser, and the team standings show the
/// match once its results are in.
async fn four_teams_of_three_with_captains_choosing_in_the_browser(backend: Backend) {
    use crate::events::{create_event, set_status};
    use crate::playoffs::enter;
    use crate::teams::{captains, team_event_body};
    let app = TestApp::spawn(backend.clone()).await;
    app.create_account("to@example.org", "Tess Organiser", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, team_event_body("Team Cup", "captains_choice")).await;
    set_status(&to, event, "registration").await;
    let caps = captains(&app, &["Ava", "Bo", "Cy", "Di"]).await;

    let mut driver = Driver::start();
    let client = &driver.session().await;
    let prefix = format!("{}-teams", backend.name());
    sign_in(client, &app, "ava@example.org").await;
    let teams_url = app.url(&format!("/events/{event}/teams"));
    visit(client, &app.url(&format!("/events/{event}"))).await;
    follow_link(client, "Teams and registering a team").await;
    fill(client, "team_name", "Ravens").await;
    fill(client, "member_2", "Ava").await;
    fill(client, "member_3", "Rook").await;
    click_button(client, "Register the team").await;
    let text = body_text(client).await;
    assert!(text.contains("named twice"), "{text}");
    let kept = client
        .find(Locator::Css("#f-member_3"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(kept.as_deref(), Some("Rook"), "what was typed stays");
    fill(client, "member_2", "Raven").await;
    click_button(client, "Register the team").await;
    assert!(body_text(client).await.contains("Ravens is registered"));
    check_page(client, &format!("{prefix}-registered")).await;
    // The captain withdraws the team (after a confirmation) and enters again.
    follow_link(client, "Withdraw the team").await;
    click_button(client, "Withdraw the team").await;
    visit(client, &teams_url).await;
    assert!(
        body_text(client)
            .await
            .contains("No team has registered yet")
    );
    fill(client, "team_name", "Ravens").await;
    fill(client, "member_2", "Raven").await;
    fill(client, "member_3", "Rook").await;
    click_button(client, "Register the team").await;
    assert!(body_text(client).await.contains("Ravens is registered"));
    for (captain, name) in caps[1..].iter().zip(["Bats", "Cats", "Dogs"]) {
        let (code, body) = captain
            .post(
                &format!("/events/{event}/teams"),
                json!({"name": name, "members": [format!("{name} two"), format!("{name} three")]}),
            )
            .await;
        assert_eq!(code, 201, "{body}");
    }
    let (_, report) = to.get(&format!("/events/{event}/teams")).await;
    for team in report["teams"].as_array().unwrap() {
        for member in team["members"].as_array().unwrap() {
            to.post(
                &format!(
                    "/events/{event}/players/{}/check-in",
                    member["registration"]
                ),
                json!({"checked_in": true}),
            )
            .await;
        }
    }
    set_status(&to, event, "running").await;
    // The organiser pairs round 1 from a phone: team matches, a scenario
    // for every table, then published for the captains to choose.
    let organiser = driver.session().await;
    sign_in(&organiser, &app, "to@example.org").await;
    visit(&organiser, &teams_url).await;
    assert!(body_text(&organiser).await.contains("Enter a team"));
    check_page(&organiser, &format!("{prefix}-desk")).await;
    visit(&organiser, &app.url(&format!("/events/{event}"))).await;
    click_button(&organiser, "Pair round 1 of 3").await;
    let text = body_text(&organiser).await;
    assert!(
        text.contains("Team matches") && text.contains("Teams paired with seed"),
        "{text}"
    );
    // The captains' games do not exist yet: no setup per table to flip.
    assert!(!text.contains("Flip a setup per table"), "{text}");
    check_page(&organiser, &format!("{prefix}-round-draft")).await;
    click_button(&organiser, "Flip one scenario for all tables").await;
    click_button(&organiser, "Publish and mail the players").await;
    assert!(body_text(&organiser).await.contains("is published"));
    let (_, report) = to.get(&format!("/events/{event}/teams")).await;
    let captain_email = |team: &serde_json::Value| {
        let id = team.as_i64().unwrap();
        let entry = report["teams"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .unwrap();
        format!(
            "{}@example.org",
            entry["members"][0]["name"].as_str().unwrap().to_lowercase()
        )
    };
    let matches = report["matches"].as_array().unwrap().clone();
    let first = &matches[0];
    let (email_a, email_b) = (
        captain_email(&first["team_a"]),
        captain_email(&first["team_b"]),
    );

    // The two captains take turns on the match page until everyone is paired.
    let match_url = app.url(&format!("/events/{event}/matches/{}", first["id"]));
    let captain_a = driver.session().await;
    sign_in(&captain_a, &app, &email_a).await;
    let captain_b = driver.session().await;
    sign_in(&captain_b, &app, &email_b).await;
    for (turn, client) in [&captain_a, &captain_b, &captain_b, &captain_a]
        .into_iter()
        .enumerate()
    {
        visit(client, &match_url).await;
        if turn == 0 {
            check_page(client, &format!("{prefix}-choosing")).await;
        }
        client
            .find(Locator::Css("input[name=pick]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        click_button(client, "Confirm the choice").await;
        assert!(
            body_text(client).await.contains("Your choice is recorded"),
            "turn {turn}"
        );
    }
    let client = &captain_a;
    let text = body_text(client).await;
    assert!(text.contains("Every player is paired"), "{text}");
    let games = client.find_all(Locator::Css("ul.games li")).await.unwrap();
    assert_eq!(games.len(), 3);
    check_page(client, &format!("{prefix}-paired")).await;
    // Games made after the scenario was shared flip their own attacker.
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let tables = round["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 3, "{round}");
    for table in tables {
        let attacker = table["attacker"].as_i64();
        assert!(
            attacker == table["player_a"].as_i64() || attacker == table["player_b"].as_i64(),
            "{table}"
        );
    }

    // The other match chooses through the API: always the first option.
    let second = matches[1]["id"].as_i64().unwrap();
    loop {
        let (_, report) = to.get(&format!("/events/{event}/teams")).await;
        let state = report["matches"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == second)
            .unwrap()
            .clone();
        if state["next"]["step"] == "done" {
            break;
        }
        let (code, body) = to
            .post(
                &format!("/events/{event}/matches/{second}/choices"),
                json!({"step": state["step"], "pick": state["next"]["options"][0]}),
            )
            .await;
        assert_eq!(code, 200, "{body}");
    }
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    for table in round["tables"].as_array().unwrap() {
        enter(&to, event, table["game"].as_i64().unwrap(), 6, 2).await;
    }
    visit(client, &match_url).await;
    let text = body_text(client).await;
    assert!(
        text.contains("3 – 0") && text.contains("win the match"),
        "{text}"
    );
    visit(client, &teams_url).await;
    let standings = client
        .find(Locator::Css("table.team-standings tbody"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(standings.lines().count(), 4, "{standings}");
    // Rank, team, points, W-D-L, games won, VP difference: each match
    // went three games to none, 6-2 each.
    let first = standings.lines().next().unwrap();
    assert!(first.ends_with("3 1-0-0 3 12"), "{standings}");
    check_page(client, &format!("{prefix}-standings")).await;
}

#[test]
fn xpath_literals_quote_any_label() {
    assert_eq!(xpath_literal("Flip"), "\"Flip\"");
    assert_eq!(xpath_literal("at (1\", 2\")"), "'at (1\", 2\")'");
    assert_eq!(
        xpath_literal("Tom's \"idol\""),
        "concat(\"Tom's \", '\"', \"idol\", '\"', \"\")"
    );
}
