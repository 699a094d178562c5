//! The HTTP side: application state, routes, server start-up.

mod account_sessions;
pub mod accounts;
pub mod admin;
pub mod api;
pub mod assets;
pub mod card_pages;
pub mod client;
pub mod connections;
pub mod control_characters;
pub mod crew_builder;
pub mod error;
pub mod error_page;
pub mod events;
pub mod forms;
pub mod health;
pub mod home;
pub mod layout;
pub mod packs;
pub mod page_cache;
pub mod play;
pub mod pools;
pub mod rankings;
mod request_log;
pub mod saved_crews;
pub mod session;
pub mod setup;
pub mod tls;
pub mod upload;

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::cookie::Key;
use actix_web::dev::Server;
use actix_web::middleware::{Compress, DefaultHeaders, NormalizePath, TrailingSlash};
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use tracing_actix_web::TracingLogger;

use crate::auth::csrf::CsrfKey;
use crate::auth::token::TokenSigner;
use crate::config::Settings;
use crate::db::{Db, DbConnection};
use crate::web::error::{ApiError, AppError};

/// Everything a handler may need, shared by all workers.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub settings: Arc<Settings>,
    /// Signs the small cookies the site sets (flash messages).
    pub cookie_key: Key,
    pub tokens: TokenSigner,
    /// Seals finished games' logs (`hosted::seal`).
    pub log_signer: crate::hosted::seal::LogSigner,
    pub csrf: CsrfKey,
    /// Codes an organiser shows at the venue to open sign-up for the room.
    pub venue_codes: crate::auth::venue::VenueCodes,
    /// Wakes the mail sender when a handler queued mail.
    pub mail_wakeup: Arc<tokio::sync::Notify>,
    /// Tells this process's work claims from other instances'.
    pub instance_id: String,
    /// What read-only event pages load, checked against the event's revision.
    pub event_data: Arc<crate::events::cache::EventDataCache>,
    /// Public pages as visitors without a session see them, per revision.
    pub public_pages: Arc<page_cache::PublicPageCache>,
    /// The stat cards this instance plays with (shipped plus the operator's).
    pub catalog: Arc<soulstone_engine::content::Catalog>,
    /// The same with the hash that names it, and with content packs on top.
    pub content: Arc<crate::content::ServerContent>,
    /// Wakes the live streams of a game whose log grew.
    pub game_updates: play::live::GameUpdates,
    /// The threads that play searching bots' turns.
    pub bot_turns: Arc<crate::hosted::bot_turns::BotTurns>,
    /// Commands and streams one account may ask for.
    pub play_limits: Arc<play::limits::PlayLimits>,
    /// Requests each client address has in flight.
    pub in_flight: Arc<client::InFlight>,
    /// Held while the server runs: threads of its own (the game listener)
    /// stop once every copy of the state is gone.
    pub alive: Arc<()>,
    /// Whether the database took this instance's last heartbeat write:
    /// readiness (`/healthz`) says so.
    pub writes: Arc<health::WriteCheck>,
}

impl AppState {
    pub fn new(db: Db, settings: Settings) -> Self {
        let commands_per_second = settings.play_commands_per_second;
        let requests_per_client = settings.requests_per_client;
        let secret = settings.secret.as_bytes();
        let game_updates = play::live::GameUpdates::default();
        let bot_turns = {
            let updates = game_updates.clone();
            // Half the cores: the web workers keep the rest.
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get() / 2);
            crate::hosted::bot_turns::BotTurns::start(db.clone(), threads, move |id, version| {
                updates.announce_at(id, version);
            })
        };
        // The shipped cards, which the tests keep loading cleanly; the
        // server replaces them with the operator's set (`with_content`).
        let content = crate::content::ServerContent::shipped();
        Self {
            cookie_key: derive_cookie_key(secret),
            tokens: TokenSigner::new(secret),
            log_signer: crate::hosted::seal::LogSigner::from_secret(secret),
            csrf: CsrfKey::new(secret),
            venue_codes: crate::auth::venue::VenueCodes::new(secret),
            db,
            settings: Arc::new(settings),
            mail_wakeup: Arc::new(tokio::sync::Notify::new()),
            instance_id: format!(
                "{}-{}",
                std::process::id(),
                &crate::auth::random_token()[..8]
            ),
            event_data: Arc::default(),
            public_pages: Arc::default(),
            catalog: Arc::clone(&content.catalog),
            content: Arc::new(content),
            game_updates,
            bot_turns: Arc::new(bot_turns),
            play_limits: Arc::new(play::limits::PlayLimits::new(commands_per_second)),
            in_flight: Arc::new(client::InFlight::new(requests_per_client)),
            alive: Arc::new(()),
            writes: Arc::default(),
        }
    }

    /// The game content this instance plays with.
    pub fn with_content(mut self, content: crate::content::ServerContent) -> Self {
        self.catalog = Arc::clone(&content.catalog);
        self.content = Arc::new(content);
        self
    }

    /// Starts the background work of this instance (the mail sender). Call
    /// inside the actix system; the tasks end with it.
    pub fn start_background_tasks(&self) -> Result<(), crate::mail::MailError> {
        let transport = crate::mail::Transport::from_settings(&self.settings.mail)?;
        let host = self
            .settings
            .base_url
            .split("://")
            .nth(1)
            .and_then(|rest| rest.split(['/', ':']).next())
            .unwrap_or("soulstone.invalid")
            .to_owned();
        let sender = crate::mail::Sender {
            db: self.db.clone(),
            transport,
            from: self.settings.mail_from.clone(),
            instance: self.instance_id.clone(),
            wakeup: self.mail_wakeup.clone(),
            host,
        };
        actix_web::rt::spawn(sender.run());
        actix_web::rt::spawn(
            self.game_updates
                .clone()
                .watch(self.db.clone(), self.settings.live_poll),
        );
        actix_web::rt::spawn(self.game_updates.clone().watch_clocks(self.db.clone()));
        actix_web::rt::spawn(beat_while_serving(self.db.clone(), self.writes.clone()));
        if let crate::config::DatabaseUrl::Postgres(url) = &self.settings.database_url {
            self.game_updates
                .clone()
                .listen(url.clone(), Arc::downgrade(&self.alive));
        }
        let db = self.db.clone();
        actix_web::rt::spawn(async move {
            // Housekeeping, hourly (`accounts::housekeeping`).
            let mut interval = tokio::time::interval(std::time::Duration::from_secs(3600));
            loop {
                interval.tick().await;
                let db = db.clone();
                let _ = web::block(move || {
                    let now = chrono::Utc::now().naive_utc();
                    let mut conn = db.conn()?;
                    crate::accounts::housekeeping(&mut conn, now)?;
                    Ok::<_, crate::db::DbError>(())
                })
                .await;
            }
        });
        Ok(())
    }

    /// Wakes the mail sender after mail was queued.
    pub fn mail_queued(&self) {
        self.mail_wakeup.notify_one();
    }

    /// Runs `work` on event `id` as `actor`, on the blocking pool: the
    /// event is loaded (refused if the actor may not see it) and the
    /// service's context made, as every event action needs. The outer error
    /// is the request's; the inner one is the service's answer, which the
    /// page may show (a conflict, a field to fix) or raise.
    pub async fn with_event<T, F>(
        &self,
        id: i64,
        actor: Option<crate::events::Actor>,
        work: F,
    ) -> Result<Result<T, crate::events::EventError>, AppError>
    where
        F: EventWork<T>,
        T: Send + 'static,
    {
        let now = chrono::Utc::now().naive_utc();
        let base_url = self.settings.base_url.clone();
        self.with_db(move |conn| {
            let (view, access) = crate::events::load(conn, id, actor)?;
            let ctx = crate::events::Ctx {
                now,
                base_url: &base_url,
            };
            Ok(work(conn, &view, &access, &ctx))
        })
        .await
    }

    /// Runs blocking database work on the blocking thread pool, never on the
    /// async executor threads.
    pub async fn with_db<T, F>(&self, work: F) -> Result<T, AppError>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, AppError> + Send + 'static,
        T: Send + 'static,
    {
        let db = self.db.clone();
        web::block(move || {
            let mut conn = db.conn()?;
            work(&mut conn)
        })
        .await?
    }
}

/// A call on an event's services, as [`AppState::with_event`] runs it.
pub trait EventWork<T>:
    FnOnce(
        &mut DbConnection,
        &crate::events::EventView,
        &crate::events::Access,
        &crate::events::Ctx<'_>,
    ) -> Result<T, crate::events::EventError>
    + Send
    + 'static
{
}

impl<T, F> EventWork<T> for F where
    F: FnOnce(
            &mut DbConnection,
            &crate::events::EventView,
            &crate::events::Access,
            &crate::events::Ctx<'_>,
        ) -> Result<T, crate::events::EventError>
        + Send
        + 'static
{
}

/// Cookie signing key: a labelled hash of the server secret, so the secret
/// itself is never used for two purposes.
fn derive_cookie_key(secret: &[u8]) -> Key {
    use sha2::{Digest, Sha512};
    let mut material = Vec::with_capacity(128);
    for label in [
        b"soulstone-cookie-key-1".as_slice(),
        b"soulstone-cookie-key-2",
    ] {
        let mut hasher = Sha512::new();
        hasher.update(label);
        hasher.update(secret);
        material.extend_from_slice(&hasher.finalize());
    }
    Key::from(&material)
}

/// All routes. Tests and the binary build the same application from here.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(health::healthz)
        .service(assets::asset)
        .service(home::index)
        .configure(events::routes)
        .configure(accounts::routes)
        .configure(admin::routes)
        .configure(pools::routes)
        .configure(setup::routes)
        .configure(play::routes)
        .configure(rankings::routes)
        .configure(card_pages::routes)
        .configure(crew_builder::routes)
        .configure(saved_crews::routes)
        .configure(packs::routes)
        .service(
            web::scope("/api/v1")
                .configure(api::routes)
                .configure(events::api::routes)
                .configure(play::api::routes)
                .configure(rankings::api_routes)
                .default_service(web::to(api_not_found)),
        );
}

async fn not_found(req: HttpRequest) -> HttpResponse {
    use actix_web::ResponseError;
    if req.path().starts_with("/api/") {
        ApiError(AppError::NotFound).error_response()
    } else {
        AppError::NotFound.error_response()
    }
}

async fn api_not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError(AppError::NotFound))
}

/// Builds the server on an already bound listener (port 0 in tests).
pub fn build_server(state: AppState, listener: TcpListener) -> std::io::Result<Server> {
    let workers = state.settings.workers;
    let production = state.settings.is_production();
    let served_state = state.clone();
    let data = web::Data::new(state);
    let mut server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .app_data(form_config())
            .app_data(query_config())
            .app_data(path_config())
            .app_data(json_config())
            .wrap(actix_web::middleware::from_fn(
                control_characters::refuse_control_characters,
            ))
            .wrap(security_headers(production))
            .wrap(actix_web::middleware::from_fn(session::session_middleware))
            .wrap(actix_web::middleware::from_fn(no_store_for_account_pages))
            .wrap(Compress::default())
            .wrap(NormalizePath::new(TrailingSlash::Trim))
            .wrap(actix_web::middleware::from_fn(client::guard_requests))
            .wrap(TracingLogger::<request_log::RequestLog>::new())
            .configure(routes)
            .default_service(web::to(not_found))
    })
    .shutdown_timeout(10)
    // `serve` answers the signals: it closes the live streams first.
    .disable_signals()
    // A client that closes its side is gone: its live stream ends and
    // frees its place at once, not at the next keep-alive (no browser
    // half-closes a connection and waits for the answer).
    .h1_allow_half_closed(false);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let workers = workers.unwrap_or(cores);
    let per_worker = connections_per_worker(workers);
    // Counted from accept, so set before the listener takes the hook. Behind
    // proxies every connection is a proxy's: they count the clients.
    if served_state.settings.proxy_hops == 0 {
        let counted = Arc::new(connections::Connections::new(per_worker * workers));
        server = server.on_connect(move |connection, data| {
            connections::on_connect(&counted, connection, data);
        });
    }
    server = match tls::acceptor(&served_state.settings).map_err(std::io::Error::other)? {
        Some(served) => {
            tracing::info!(
                certificate = %served.path.display(),
                fingerprint = %served.fingerprint,
                made_now = served.made_now,
                "serving HTTPS; browsers that warn about a self-signed certificate \
                 can compare this fingerprint before accepting it"
            );
            server.listen_openssl(listener, served.acceptor)?
        }
        None => server.listen(listener)?,
    };
    let blocking = served_state
        .settings
        .blocking_threads
        .unwrap_or(served_state.settings.db_pool_size as usize + cores);
    server = server
        .workers(workers)
        .worker_max_blocking_threads(blocking_threads_per_worker(blocking, workers))
        .max_connections(per_worker);
    Ok(server.run())
}

/// Each worker's share of the blocking threads. Bounded, because every
/// request's database work waits for one: left to the default (512 in all)
/// a burst of thousands of live streams grew the pool to hundreds of
/// threads, each keeping its own allocator heap, about 1 MiB per idle game
/// (docs/benchmarks.md, issue 58). More threads than pooled connections
/// would only wait for a connection.
fn blocking_threads_per_worker(total: usize, workers: usize) -> usize {
    total.div_ceil(workers.max(1)).max(1)
}

/// Connections each worker may hold: what the open-file limit leaves after
/// the database, mail and files, shared among the workers. Beyond it new
/// connections wait to be accepted instead of failing with "too many open
/// files", which would refuse everyone.
fn connections_per_worker(workers: usize) -> usize {
    const KEPT_FOR_THE_REST: u64 = 256;
    let (open_files, _) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap_or((1024, 1024));
    let for_connections = open_files.saturating_sub(KEPT_FOR_THE_REST);
    (usize::try_from(for_connections).unwrap_or(usize::MAX) / workers.max(1)).max(16)
}

/// Headers on every answer. The pages carry no inline script or style, so
/// the content security policy allows only the site's own files; HSTS is
/// sent in production, where the site is served over HTTPS.
fn security_headers(production: bool) -> DefaultHeaders {
    let headers = DefaultHeaders::new()
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("X-Frame-Options", "DENY"))
        .add(("Referrer-Policy", "same-origin"))
        .add(("Content-Security-Policy", CONTENT_SECURITY_POLICY));
    if production {
        headers.add(("Strict-Transport-Security", "max-age=31536000"))
    } else {
        headers
    }
}

pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'";

/// Pages about an account (and its sign-in, password and email links) are
/// never kept by a browser or a proxy: a shared device's back button must
/// not show them to the next person.
async fn no_store_for_account_pages(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let private = is_account_path(req.path());
    let mut response = next.call(req).await?;
    if private {
        response.headers_mut().insert(
            actix_web::http::header::CACHE_CONTROL,
            actix_web::http::header::HeaderValue::from_static("no-store"),
        );
    }
    Ok(response)
}

/// The account, sign-in, password and email-confirmation pages.
pub fn is_account_path(path: &str) -> bool {
    [
        "/account",
        "/signin",
        "/signup",
        "/signout",
        "/password",
        "/verify-email",
    ]
    .iter()
    .any(|prefix| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

fn form_config() -> web::FormConfig {
    web::FormConfig::default()
        .limit(256 * 1024)
        .error_handler(|err, _req| {
            AppError::bad_request(format!("The form could not be read: {err}")).into()
        })
}

fn query_config() -> web::QueryConfig {
    web::QueryConfig::default()
        .error_handler(|err, _req| AppError::bad_request(format!("Invalid query: {err}")).into())
}

fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|_err, _req| AppError::NotFound.into())
}

/// The largest JSON body the API reads.
pub(crate) const JSON_BODY_LIMIT: usize = 1024 * 1024;

fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(JSON_BODY_LIMIT)
        .error_handler(|err, _req| {
            ApiError(AppError::bad_request(format!(
                "The JSON body could not be read: {err}"
            )))
            .into()
        })
}

impl From<crate::db::DbError> for ServeError {
    fn from(error: crate::db::DbError) -> Self {
        match error.refuses_writes() {
            Some(why) => Self::WritesRefused(why),
            None => Self::Db(error),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(
        "the database refuses writes ({}): the server would lose every sign-up, result and move, \
         so it does not start; make the database writable (or free disk space) and start it again",
        .0.reason()
    )]
    WritesRefused(crate::db::WritesRefused),
    #[error(transparent)]
    Db(crate::db::DbError),
    #[error("cannot listen on {address}: {source}")]
    Bind {
        address: std::net::SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("server failed: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Mail(#[from] crate::mail::MailError),
    #[error("the game content has {} problem(s):\n  {}", .0.len(), .0.join("\n  "))]
    Content(Vec<String>),
}

/// Opens the database, migrates, and serves until SIGTERM (graceful) or SIGINT.
pub fn serve(settings: Settings) -> Result<(), ServeError> {
    // Content first: a server with a wrong card does not start at all.
    let content = crate::content::ServerContent::load(settings.content_dir.as_deref())
        .map_err(|errors| ServeError::Content(errors.iter().map(ToString::to_string).collect()))?;
    tracing::info!(cards = content.catalog.len(), hash = %content.hash, "game content loaded");
    // Start-up work may block: no executor is running yet.
    let db = Db::open(&settings.database_url, settings.db_pool_size)?;
    tracing::info!(database = %settings.database_url, "database ready");
    // As many open files as the system allows this process: each connection is one.
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(open_files = limit, "open-file limit"),
        Err(err) => tracing::warn!(error = %err, "could not raise the open-file limit"),
    }
    let listener = TcpListener::bind(settings.bind).map_err(|source| ServeError::Bind {
        address: settings.bind,
        source,
    })?;
    let address = listener.local_addr()?;
    // The clocks get back the time nobody served first: the heartbeat
    // below would make that time look served.
    credit_time_not_served(&db);
    // A database that takes no writes (its start-up writes may all have
    // been done before) would take every sign-up, result and move and
    // lose it: the first heartbeat finds out before anything is served.
    // Any other trouble with it is the periodic heartbeat's to report.
    let first_beat = db.conn().and_then(|mut conn| {
        crate::hosted::clocks::beat(&mut conn, chrono::Utc::now().naive_utc())
    });
    if let Err(error) = first_beat {
        if let Some(why) = error.refuses_writes() {
            return Err(ServeError::WritesRefused(why));
        }
        tracing::warn!(%error, "could not note that this instance serves");
    }
    let state = AppState::new(db, settings).with_content(content);
    actix_web::rt::System::new().block_on(async move {
        tracing::info!(%address, "serving");
        state.start_background_tasks()?;
        let server = build_server(state.clone(), listener)?;
        let handle = server.handle();
        let updates = state.game_updates.clone();
        actix_web::rt::spawn(async move {
            let graceful = stop_signal().await;
            if graceful {
                // Streams never finish by themselves: ended now, their
                // connections close at once instead of being cut when the
                // drain gives up (the browser resumes from its last id).
                updates.close_streams();
            }
            handle.stop(graceful).await;
        });
        server.await?;
        // The last note is exact: a restart gives back only the time down.
        note_serving(state.db.clone(), &state.writes).await;
        tracing::info!("shut down cleanly");
        Ok(())
    })
}

/// Waits for the signal to stop: SIGTERM asks for a graceful stop (true:
/// requests in flight finish), SIGINT and SIGQUIT for an immediate one.
async fn stop_signal() -> bool {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let (Ok(mut term), Ok(mut interrupt), Ok(mut quit)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
            signal(SignalKind::quit()),
        ) {
            return tokio::select! {
                _ = term.recv() => true,
                _ = interrupt.recv() => false,
                _ = quit.recv() => false,
            };
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    false
}

/// At start: the game clocks get back the time no instance served.
fn credit_time_not_served(db: &Db) {
    let credited = db
        .conn()
        .map_err(crate::hosted::HostedError::from)
        .and_then(|mut conn| {
            crate::hosted::clocks::credit_time_not_served(&mut conn, chrono::Utc::now().naive_utc())
        });
    match credited {
        Ok(Some(gap)) => tracing::warn!(
            seconds = gap.num_seconds(),
            "no instance served for a while: the game clocks that were running get that time back"
        ),
        Ok(None) => {}
        Err(error) => tracing::warn!(%error, "could not credit the game clocks with the time down"),
    }
}

/// Notes that this instance serves, every beat, until the system ends.
async fn beat_while_serving(db: Db, writes: Arc<health::WriteCheck>) {
    let mut interval = tokio::time::interval(crate::hosted::clocks::BEAT_EVERY);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        note_serving(db.clone(), &writes).await;
    }
}

/// Notes once that this instance serves now, and whether the database took
/// the write.
async fn note_serving(db: Db, writes: &health::WriteCheck) {
    let beat = web::block(move || -> Result<(), crate::db::DbError> {
        let mut conn = db.conn()?;
        crate::hosted::clocks::beat(&mut conn, chrono::Utc::now().naive_utc())
    })
    .await;
    match beat {
        Ok(Ok(())) => writes.note(None),
        Ok(Err(error)) => {
            let refused = error.refuses_writes();
            if refused.is_some() {
                tracing::error!(%error, "the database refuses writes: nothing can be saved");
            } else {
                tracing::warn!(%error, "could not note that this instance serves");
            }
            writes.note(refused);
        }
        Err(_) => {}
    }
}
