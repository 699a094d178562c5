use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;

use soulstone::config::{
    DatabaseUrl, Environment, MailTransport, Secret, Settings, SmtpTls, SmtpUrl,
};
use soulstone::db::Db;
use soulstone::web::{AppState, build_server};

use super::smtp::SmtpServer;
use super::{Backend, TestDb};

pub const TEST_SECRET: &str = "test-secret-test-secret-test-secret-0123456789";
pub const PASSWORD: &str = "correct horse battery";

/// A running server on a random local port with its own database and its
/// own SMTP server on loopback.
pub struct TestApp {
    pub address: String,
    pub client: TestClient,
    pub state: AppState,
    pub db: TestDb,
    pub smtp: SmtpServer,
    pub data_dir: tempfile::TempDir,
}

/// How the app under test delivers mail.
pub enum MailSetup {
    /// A fresh SMTP server on loopback.
    Smtp,
    /// An SMTP URL given by the test (for example a port with nothing listening).
    SmtpAt(String),
}

pub fn test_settings(
    database_url: DatabaseUrl,
    bind: std::net::SocketAddr,
    data_dir: PathBuf,
    smtp_url: String,
) -> Settings {
    Settings {
        bind,
        content_dir: None,
        database_url,
        data_dir,
        environment: Environment::Development,
        secret: Secret::parse(TEST_SECRET).expect("secret"),
        base_url: format!("http://{bind}"),
        mail: MailTransport::Smtp(SmtpUrl {
            raw: smtp_url,
            tls: SmtpTls::None,
        }),
        mail_from: "Soulstone <noreply@soulstone.test>".into(),
        db_pool_size: 4,
        workers: Some(2),
        // The suite runs many servers and browsers at once on two cores;
        // the production bound (the pool plus a thread a core) is kept by
        // the tests that start the real binary (live_streams.rs), while
        // these in-process servers keep the old, roomier pool so a busy
        // test run does not starve one page of threads.
        blocking_threads: Some(64),
        log_json: false,
        tls: soulstone::config::TlsSetting::Off,
        proxy_hops: 0,
        request_timeout: std::time::Duration::from_secs(30),
        requests_per_client: 128,
        // Tests play whole games as fast as they can; the limit itself is
        // tested in `web::play::limits`.
        play_commands_per_second: 100_000,
        live_poll: std::time::Duration::from_millis(250),
    }
}

impl TestApp {
    pub async fn spawn(backend: Backend) -> Self {
        Self::spawn_with(backend, MailSetup::Smtp).await
    }

    pub async fn spawn_with(backend: Backend, mail: MailSetup) -> Self {
        let db = TestDb::create(&backend);
        Self::spawn_on(db, mail).await
    }

    /// Starts an app on an existing test database (a second instance, a restart).
    pub async fn spawn_on(db: TestDb, mail: MailSetup) -> Self {
        Self::spawn_listening(db, mail, Listening::Loopback, |_| {}).await
    }

    /// Starts an app on an existing test database with some settings changed.
    pub async fn spawn_on_configured(
        db: TestDb,
        mail: MailSetup,
        configure: impl FnOnce(&mut Settings),
    ) -> Self {
        Self::spawn_listening(db, mail, Listening::Loopback, configure).await
    }

    /// Starts an app on loopback with some settings changed (production
    /// headers, proxies in front).
    pub async fn spawn_configured(backend: Backend, configure: impl FnOnce(&mut Settings)) -> Self {
        let db = TestDb::create(&backend);
        Self::spawn_listening(db, MailSetup::Smtp, Listening::Loopback, configure).await
    }

    /// Starts an app as the venue set-up in `docs/deploy.md` runs it: in
    /// production, serving HTTPS with the certificate it makes, on this
    /// machine's network address rather than loopback (phones reach it
    /// there). Only a browser can talk to it: the test client has no TLS.
    pub async fn spawn_at_venue(backend: Backend) -> Self {
        let db = TestDb::create(&backend);
        Self::spawn_listening(db, MailSetup::Smtp, Listening::VenueHttps, |_| {}).await
    }

    async fn spawn_listening(
        db: TestDb,
        mail: MailSetup,
        listening: Listening,
        configure: impl FnOnce(&mut Settings),
    ) -> Self {
        // Internal errors are logged, never sent to clients: show them beside a failing test.
        let filter = tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error,tracing_actix_web=off"));
        let _already_set = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .try_init();
        let smtp = SmtpServer::start();
        let smtp_url = match mail {
            MailSetup::Smtp => smtp.url(),
            MailSetup::SmtpAt(url) => url,
        };
        let data_dir = tempfile::tempdir().expect("temp data dir");
        let ip = match listening {
            Listening::Loopback => std::net::IpAddr::from([127, 0, 0, 1]),
            Listening::VenueHttps => network_address(),
        };
        let listener = TcpListener::bind((ip, 0)).expect("bind test port");
        let bind = listener.local_addr().expect("local addr");
        let mut settings = test_settings(
            db.url.clone(),
            bind,
            data_dir.path().to_path_buf(),
            smtp_url,
        );
        if listening == Listening::VenueHttps {
            settings.environment = Environment::Production;
            settings.tls = soulstone::config::TlsSetting::SelfSigned;
            settings.base_url = format!("https://{bind}");
        }
        configure(&mut settings);
        let url = db.url.clone();
        let opened = actix_web::web::block(move || Db::open(&url, 4))
            .await
            .expect("blocking open")
            .expect("open database");
        let settings_base_url = settings.base_url.clone();
        let state = AppState::new(opened, settings);
        state.start_background_tasks().expect("background tasks");
        let server = build_server(state.clone(), listener).expect("build server");
        actix_web::rt::spawn(server);
        let address = settings_base_url;
        Self {
            client: TestClient::new(&address),
            address,
            state,
            db,
            smtp,
            data_dir,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(path).await
    }

    /// A client with its own cookie jar (another browser).
    pub fn new_client(&self) -> TestClient {
        TestClient::new(&self.address)
    }

    /// Accepts, in `browser` (signed in as `email`), the `nth` staff
    /// invitation mailed to `email` (counting from 1).
    pub async fn accept_staff_invitation(&self, browser: &TestClient, email: &str, nth: usize) {
        let mail = self
            .smtp
            .wait_for_nth(email, "You are invited to help run", nth)
            .await;
        let link = mail.link(&self.address).expect("a link in the invitation");
        let (status, html) = browser.get_text(&link).await;
        assert_eq!(status, 200, "{html}");
        let token = link.split("token=").nth(1).expect("a token in the link");
        let accepted = browser
            .post_form("/staff/accept", &[("token", token)])
            .await;
        assert_eq!(accepted.status(), 303, "{:?}", accepted.text().await);
    }

    /// Another browser, connecting from another loopback address (Linux
    /// routes all of 127.0.0.0/8 to the loopback interface), so the server
    /// sees a different client address.
    pub fn client_from(&self, address: &str) -> TestClient {
        TestClient {
            base: self.address.clone(),
            http: reqwest::Client::builder()
                .cookie_store(true)
                .pool_idle_timeout(POOL_IDLE)
                .redirect(reqwest::redirect::Policy::none())
                .local_address(address.parse::<std::net::IpAddr>().expect("an address"))
                .build()
                .expect("client"),
        }
    }

    /// Runs blocking database work for a test.
    pub async fn with_conn<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut soulstone::db::DbConnection) -> T + Send + 'static,
    ) -> T {
        let db = self.state.db.clone();
        actix_web::web::block(move || {
            let mut conn = db.conn().expect("connection");
            work(&mut conn)
        })
        .await
        .expect("blocking task")
    }

    /// The outbox mail to `address` once a delivery attempt was made (20 s at most).
    pub async fn mail_after_first_attempt(&self, address: &str) -> soulstone::db::mail::OutboxMail {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let owned = address.to_owned();
            let mails = self
                .with_conn(move |conn| soulstone::db::mail::to_address(conn, &owned).unwrap())
                .await;
            if let Some(mail) = mails.into_iter().find(|m| m.attempts > 0) {
                return mail;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no delivery attempt recorded for {address}"
            );
            actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }

    /// Creates a verified account directly in the database; returns its id.
    pub async fn create_account(&self, email: &str, name: &str, admin: bool) -> i64 {
        let (email, name) = (email.to_owned(), name.to_owned());
        self.with_conn(move |conn| create_verified_account(conn, &email, &name, admin))
            .await
    }

    /// A new browser signed in as an existing account (password [`PASSWORD`]).
    pub async fn signed_in_client(&self, email: &str) -> TestClient {
        let client = self.new_client();
        let response = client
            .post_form(
                "/signin",
                &[
                    ("email", email),
                    ("password", PASSWORD),
                    ("next", "/account"),
                ],
            )
            .await;
        assert_eq!(response.status(), 303, "sign-in of {email} failed");
        client
    }

    /// Creates an account and signs a new browser in as it.
    pub async fn user(&self, email: &str, name: &str) -> (i64, TestClient) {
        let id = self.create_account(email, name, false).await;
        (id, self.signed_in_client(email).await)
    }
}

/// A practice game of `account`'s against the random bot, both sides with
/// the first shipped 4th edition list, waiting for the player.
pub fn start_practice_game(
    conn: &mut soulstone::db::DbConnection,
    account: i64,
    seed: u8,
    time_control_ms: Option<i64>,
) -> i64 {
    start_practice_against(
        conn,
        account,
        &Practice {
            edition: soulstone_engine::Edition::Fourth,
            bot: soulstone_engine::bot::BotKind::Random,
            bot_list: 0,
            seed: [seed; 32],
            time_control_ms,
        },
    )
}

/// A practice game as the practice page starts one, with what the page
/// leaves to chance given instead (so a test that plays it can be run
/// again to the same game).
pub struct Practice {
    pub edition: soulstone_engine::Edition,
    pub bot: soulstone_engine::bot::BotKind,
    /// Which of the edition's shipped lists the bot brings; the player
    /// brings the first.
    pub bot_list: usize,
    pub seed: [u8; 32],
    pub time_control_ms: Option<i64>,
}

pub fn start_practice_against(
    conn: &mut soulstone::db::DbConnection,
    account: i64,
    practice: &Practice,
) -> i64 {
    use soulstone::hosted;
    use soulstone_engine::content::crew::CrewList;
    let lists: Vec<hosted::BroughtList> = soulstone::content::shipped_crews()
        .iter()
        .map(|(path, text)| hosted::BroughtList {
            name: path.rsplit('/').next().unwrap_or(path).into(),
            list: CrewList::parse(text).expect("a shipped list"),
        })
        .filter(|brought| brought.list.edition == practice.edition)
        .collect();
    assert!(
        !lists.is_empty(),
        "no shipped list of {:?}",
        practice.edition
    );
    let request = hosted::PracticeRequest {
        content: Default::default(),
        account_id: account,
        lists: vec![lists[0].clone()],
        bot: practice.bot,
        bot_lists: vec![lists[practice.bot_list % lists.len()].clone()],
        seed: soulstone_engine::fairness::Bytes32(practice.seed),
        time_control_ms: practice.time_control_ms,
    };
    hosted::start_practice(
        conn,
        crate::support::shipped_content(),
        &request,
        chrono::Utc::now().naive_utc(),
    )
    .expect("a practice game starts")
}

/// Creates a verified account (password [`PASSWORD`]); returns its id.
pub fn create_verified_account(
    conn: &mut soulstone::db::DbConnection,
    email: &str,
    name: &str,
    admin: bool,
) -> i64 {
    use soulstone::db::accounts;
    let now = chrono::Utc::now().naive_utc();
    let hash = soulstone::auth::password::hash_password(PASSWORD).unwrap();
    let account = accounts::create_account(
        conn,
        &accounts::NewAccount {
            email,
            display_name: name,
            password_hash: &hash,
            club: None,
            region: None,
            is_admin: admin,
            created_at: now,
        },
    )
    .unwrap()
    .expect("new account");
    accounts::mark_email_verified(conn, account.id, now).unwrap();
    account.id
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Listening {
    Loopback,
    VenueHttps,
}

/// This machine's address on its network: the source address of its route
/// outwards (a UDP "connection" sends nothing).
fn network_address() -> std::net::IpAddr {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").expect("a UDP socket");
    socket
        .connect("203.0.113.1:9")
        .expect("this machine has a network route (the venue test needs one)");
    let ip = socket.local_addr().expect("local address").ip();
    assert!(
        !ip.is_loopback(),
        "the venue test needs a network address other than loopback"
    );
    ip
}

/// A browser: a cookie jar, no automatic redirects.
#[derive(Clone)]
pub struct TestClient {
    pub base: String,
    pub http: reqwest::Client,
}

/// Connections idle this long are not reused. The server closes an idle
/// connection after 5 s (actix's keep-alive), and a request sent on one as
/// it closes fails with an incomplete message: a flaky test, not a bug.
pub const POOL_IDLE: Duration = Duration::from_secs(2);

impl TestClient {
    pub fn new(base: &str) -> Self {
        Self {
            base: base.to_owned(),
            http: reqwest::Client::builder()
                .cookie_store(true)
                .pool_idle_timeout(POOL_IDLE)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("client"),
        }
    }

    pub fn url(&self, path: &str) -> String {
        if path.starts_with("http") {
            path.to_owned()
        } else {
            format!("{}{}", self.base, path)
        }
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.http.get(self.url(path)).send().await.expect("GET")
    }

    pub async fn get_text(&self, path: &str) -> (u16, String) {
        let response = self.get(path).await;
        let status = response.status().as_u16();
        (status, response.text().await.expect("body"))
    }

    /// The CSRF token this browser's pages carry (fetching a page sets the cookie).
    pub async fn csrf_token(&self) -> String {
        let (_, html) = self.get_text("/").await;
        csrf_token_in(&html)
    }

    /// Posts a form with this browser's CSRF token added.
    pub async fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
        let token = self.csrf_token().await;
        let mut all: Vec<(&str, &str)> = fields.to_vec();
        all.push(("csrf_token", &token));
        self.post_form_raw(path, &all).await
    }

    /// Posts exactly the given fields (no CSRF token added).
    pub async fn post_form_raw(&self, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
        self.http
            .post(self.url(path))
            .form(fields)
            .send()
            .await
            .expect("POST")
    }
}

/// An API token for `email` (password [`PASSWORD`]) from the server at
/// `base` (`http://host:port`).
pub async fn api_token(http: &reqwest::Client, base: &str, email: &str) -> String {
    let body: serde_json::Value = http
        .post(format!("{base}/api/v1/token"))
        .json(&serde_json::json!({"email": email, "password": PASSWORD}))
        .send()
        .await
        .expect("token request")
        .json()
        .await
        .expect("token answer");
    body["token"]
        .as_str()
        .unwrap_or_else(|| panic!("no token for {email}: {body}"))
        .to_owned()
}

/// The CSRF form token a page carries in its `csrf-token` meta tag.
pub fn csrf_token_in(html: &str) -> String {
    let marker = "<meta name=\"csrf-token\" content=\"";
    let start = html.find(marker).expect("a csrf-token meta tag") + marker.len();
    let end = html[start..].find('"').expect("end of the csrf token");
    html[start..start + end].to_owned()
}

/// The value of the first `<input name="...">` in a page.
pub fn extract_input_value(html: &str, name: &str) -> Option<String> {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker)? + marker.len();
    let end = html[start..].find('"')?;
    Some(html[start..start + end].replace("&amp;", "&"))
}

/// The Location header of a redirect.
pub fn location(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// A JSON API client with a bearer token.
#[derive(Clone)]
pub struct ApiClient {
    pub base: String,
    pub http: reqwest::Client,
    pub token: String,
}

impl ApiClient {
    /// A client without a token: what anyone may read.
    pub fn anonymous(app: &TestApp) -> Self {
        Self {
            base: app.address.clone(),
            http: reqwest::Client::new(),
            token: String::new(),
        }
    }

    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<serde_json::Value>,
    ) -> (u16, serde_json::Value) {
        let mut request = self
            .http
            .request(method, format!("{}/api/v1{path}", self.base));
        if !self.token.is_empty() {
            request = request.bearer_auth(&self.token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("API request");
        let status = response.status().as_u16();
        let text = response.text().await.unwrap_or_default();
        let value = if text.is_empty() {
            serde_json::Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
        };
        (status, value)
    }

    pub async fn get(&self, path: &str) -> (u16, serde_json::Value) {
        self.call(reqwest::Method::GET, path, None).await
    }

    pub async fn post(&self, path: &str, body: serde_json::Value) -> (u16, serde_json::Value) {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }
}

impl TestApp {
    /// An API client for an existing account (password [`PASSWORD`]).
    pub async fn api_client(&self, email: &str) -> ApiClient {
        let http = reqwest::Client::builder()
            .pool_idle_timeout(POOL_IDLE)
            .build()
            .expect("client");
        let token = api_token(&http, &self.address, email).await;
        ApiClient {
            base: self.address.clone(),
            http,
            token,
        }
    }
}

/// The id in a redirect like `/events/12` or `/events/12/rounds/1`.
pub fn id_after(location: &str, prefix: &str) -> i64 {
    location
        .strip_prefix(prefix)
        .and_then(|rest| rest.split(['/', '?', '#']).next())
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("no id after {prefix} in {location}"))
}
