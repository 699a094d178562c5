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

mod crews;
mod first_edition;
mod mage_knight;
mod organiser;
mod packs;
mod play;
mod players;
mod venue_day;

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
    wait_for_next_page(client, &old_page, &format!("clicking \"{text}\"")).await;
}

/// Waits for the page after `old_page`, which goes stale once the browser
/// has moved on (by a click, a form, or the page loading itself again).
pub(crate) async fn wait_for_next_page(
    client: &Client,
    old_page: &fantoccini::elements::Element,
    what: &str,
) {
    let deadline = Instant::now() + PAGE_DEADLINE;
    while old_page.tag_name().await.is_ok() {
        assert!(Instant::now() < deadline, "{what} led nowhere");
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    wait_until_loaded(client).await;
}

/// Presses a button by `script` (the DOM's press: chromedriver's
/// synthesised click was seen to land nowhere below long legends on a
/// phone-sized page) and waits for the page it leads to.
pub(crate) async fn press_by_script(
    client: &Client,
    script: &str,
    args: Vec<serde_json::Value>,
    what: &str,
) {
    let old_page = client.find(Locator::Css("html")).await.unwrap();
    client
        .execute(script, args)
        .await
        .unwrap_or_else(|e| panic!("no {what}: {e}"));
    wait_for_next_page(client, &old_page, what).await;
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

#[test]
fn xpath_literals_quote_any_label() {
    assert_eq!(xpath_literal("Flip"), "\"Flip\"");
    assert_eq!(xpath_literal("at (1\", 2\")"), "'at (1\", 2\")'");
    assert_eq!(
        xpath_literal("Tom's \"idol\""),
        "concat(\"Tom's \", '\"', \"idol\", '\"', \"\")"
    );
}
