//! Typed settings: defaults, then flags and environment (clap handles the
//! layering), validated once at start-up into [`Settings`]. Nothing here is a
//! global: the settings travel inside the application state.

use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use rand::RngCore;

/// Where the database lives, decided from `DATABASE_URL`.
#[derive(Clone, PartialEq, Eq)]
pub enum DatabaseUrl {
    /// An embedded SQLite database file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection string (`postgres://` or `postgresql://`).
    Postgres(String),
}

impl DatabaseUrl {
    /// Accepts `postgres://…`, `postgresql://…`, `sqlite://path`, `sqlite:path`
    /// or a plain file path (SQLite).
    pub fn parse(raw: &str) -> Result<Self, ConfigError> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(ConfigError::Invalid("DATABASE_URL is empty".into()));
        }
        if raw.starts_with("postgres://") || raw.starts_with("postgresql://") {
            return Ok(Self::Postgres(raw.to_owned()));
        }
        let path = raw
            .strip_prefix("sqlite://")
            .or_else(|| raw.strip_prefix("sqlite:"))
            .unwrap_or(raw);
        if path.contains("://") {
            return Err(ConfigError::Invalid(format!(
                "DATABASE_URL scheme not supported (use postgres:// or a SQLite file path): {}",
                redact_url(raw)
            )));
        }
        Ok(Self::Sqlite(PathBuf::from(path)))
    }

    pub fn backend_name(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "sqlite",
            Self::Postgres(_) => "postgres",
        }
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sqlite(path) => write!(f, "sqlite:{}", path.display()),
            Self::Postgres(url) => f.write_str(&redact_url(url)),
        }
    }
}

/// Hides a password in a connection URL so it can be logged.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    match rest.split_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split(':').next().unwrap_or_default();
            if userinfo.contains(':') {
                format!("{scheme}://{user}:***@{host}")
            } else {
                format!("{scheme}://{user}@{host}")
            }
        }
        None => url.to_owned(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Environment {
    Development,
    Production,
}

/// Whether the server serves HTTPS itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TlsSetting {
    /// Plain HTTP: on loopback, or behind a proxy that serves HTTPS.
    Off,
    /// A certificate the server makes for its own address and keeps under
    /// the data directory (a venue with no proxy).
    SelfSigned,
    /// The operator's certificate chain and private key, PEM files.
    Files { cert: PathBuf, key: PathBuf },
}

/// `SOULSTONE_TLS`: how the server serves HTTPS itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TlsMode {
    Off,
    SelfSigned,
}

/// How outgoing mail leaves the server.
#[derive(Clone, PartialEq, Eq)]
pub enum MailTransport {
    /// No SMTP server configured: mails are written as `.eml` files.
    Outbox(PathBuf),
    /// `smtp://host:port` (plain or STARTTLS) or `smtps://host:port` (TLS).
    Smtp(SmtpUrl),
}

impl fmt::Debug for MailTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Outbox(dir) => write!(f, "outbox:{}", dir.display()),
            Self::Smtp(url) => write!(f, "{}", redact_url(&url.raw)),
        }
    }
}

#[derive(Clone, PartialEq, Eq)]
pub struct SmtpUrl {
    pub raw: String,
    pub tls: SmtpTls,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SmtpTls {
    /// Plain SMTP (a relay on the same machine or a test server).
    None,
    /// Upgrade with STARTTLS, refusing to send without it.
    Starttls,
    /// Implicit TLS from the first byte (usually port 465).
    Tls,
}

/// The server secret: signs session tokens and cookies.
#[derive(Clone)]
pub struct Secret(Vec<u8>);

impl Secret {
    pub const MIN_LEN: usize = 32;

    pub fn parse(raw: &str) -> Result<Self, ConfigError> {
        let raw = raw.trim();
        if raw.len() < Self::MIN_LEN {
            return Err(ConfigError::Invalid(format!(
                "SOULSTONE_SECRET must be at least {} characters long",
                Self::MIN_LEN
            )));
        }
        Ok(Self(raw.as_bytes().to_vec()))
    }

    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Self(hex::encode(bytes).into_bytes())
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("invalid setting: {0}")]
    Invalid(String),
    #[error(
        "SOULSTONE_SECRET is required in production (at least {} characters)",
        Secret::MIN_LEN
    )]
    MissingSecret,
    #[error("cannot use {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The raw flags and environment variables, shared by every subcommand.
#[derive(Debug, Clone, Args)]
pub struct SettingsArgs {
    /// Database: a SQLite file path (default under the data directory) or a postgres:// URL.
    #[arg(long, env = "DATABASE_URL", global = true)]
    pub database_url: Option<String>,

    /// Directory for the embedded database, the development secret and the mail outbox.
    #[arg(
        long,
        env = "SOULSTONE_DATA_DIR",
        default_value = "data",
        global = true
    )]
    pub data_dir: PathBuf,

    /// A directory of extra game content (stat cards) loaded after the
    /// shipped cards; the server refuses to start if any card is wrong.
    #[arg(long, env = "SOULSTONE_CONTENT_DIR", global = true)]
    pub content_dir: Option<PathBuf>,

    /// Address to listen on.
    #[arg(
        long,
        env = "SOULSTONE_BIND",
        default_value = "127.0.0.1:8080",
        global = true
    )]
    pub bind: SocketAddr,

    /// Serve HTTPS with a certificate the server makes for its own address
    /// (`self-signed`, for a venue with no proxy in front), or not (`off`).
    #[arg(long, env = "SOULSTONE_TLS", value_enum, global = true)]
    pub tls: Option<TlsMode>,

    /// Serve HTTPS with this certificate chain (PEM); needs --tls-key.
    #[arg(long, env = "SOULSTONE_TLS_CERT", global = true)]
    pub tls_cert: Option<PathBuf>,

    /// The private key (PEM) for --tls-cert.
    #[arg(long, env = "SOULSTONE_TLS_KEY", global = true)]
    pub tls_key: Option<PathBuf>,

    /// Public URL of the site, used in links sent by mail (default: http://<bind>, https:// with TLS).
    #[arg(long, env = "SOULSTONE_BASE_URL", global = true)]
    pub base_url: Option<String>,

    /// Secret used to sign sessions; generated and kept under the data directory in development.
    #[arg(long, env = "SOULSTONE_SECRET", hide_env_values = true, global = true)]
    pub secret: Option<String>,

    /// Run in production mode (also SOULSTONE_ENV=production).
    #[arg(long, global = true)]
    pub production: bool,

    #[arg(long = "env", env = "SOULSTONE_ENV", value_enum, global = true)]
    pub environment: Option<Environment>,

    /// SMTP server, e.g. smtp://user:pass@mail.example.org:587; without it mails go to the outbox directory.
    #[arg(
        long,
        env = "SOULSTONE_SMTP_URL",
        hide_env_values = true,
        global = true
    )]
    pub smtp_url: Option<String>,

    /// Transport security for SMTP.
    #[arg(long, env = "SOULSTONE_SMTP_TLS", value_enum, global = true)]
    pub smtp_tls: Option<SmtpTls>,

    /// Sender address of outgoing mail.
    #[arg(
        long,
        env = "SOULSTONE_MAIL_FROM",
        default_value = "Soulstone <noreply@soulstone.invalid>",
        global = true
    )]
    pub mail_from: String,

    /// Maximum number of pooled database connections.
    #[arg(
        long,
        env = "SOULSTONE_DB_POOL_SIZE",
        default_value_t = 8,
        global = true
    )]
    pub db_pool_size: u32,

    /// Number of HTTP worker threads (default: one per core).
    #[arg(long, env = "SOULSTONE_WORKERS", global = true)]
    pub workers: Option<usize>,

    /// Threads for blocking work (database queries, password hashing),
    /// shared among the workers (default: the database pool's size plus
    /// one per core).
    #[arg(long, env = "SOULSTONE_BLOCKING_THREADS", global = true)]
    pub blocking_threads: Option<usize>,

    /// Log as JSON lines instead of human-readable text.
    #[arg(long, env = "SOULSTONE_LOG_JSON", global = true)]
    pub log_json: bool,

    /// One trusted reverse proxy is in front: the same as `--proxy-hops 1`.
    #[arg(long, env = "SOULSTONE_TRUST_PROXY", global = true)]
    pub trust_proxy: bool,

    /// How many reverse proxies of your own stand in front of the server;
    /// the client's address is read that many entries from the right of
    /// X-Forwarded-For (what the client wrote further left is ignored).
    #[arg(long, env = "SOULSTONE_PROXY_HOPS", global = true)]
    pub proxy_hops: Option<usize>,

    /// Seconds a request may take, reading its body included (408 after).
    #[arg(
        long,
        env = "SOULSTONE_REQUEST_TIMEOUT_SECS",
        default_value_t = 30,
        global = true
    )]
    pub request_timeout_secs: u64,

    /// Requests one client address may have in flight at once (429 beyond):
    /// a venue's players share one address, so it is generous.
    #[arg(
        long,
        env = "SOULSTONE_REQUESTS_PER_CLIENT",
        default_value_t = 128,
        global = true
    )]
    pub requests_per_client: usize,

    /// Game commands one account may send a second, sustained (twice as
    /// many at once).
    #[arg(
        long,
        env = "SOULSTONE_PLAY_COMMANDS_PER_SECOND",
        default_value_t = 20,
        global = true
    )]
    pub play_commands_per_second: u32,

    /// How often an instance looks in the database for games other
    /// instances changed, in milliseconds (default: 250 on SQLite; 5000 on
    /// PostgreSQL, where LISTEN/NOTIFY tells it at once and the look is
    /// only a fallback).
    #[arg(long, env = "SOULSTONE_LIVE_POLL_MS", global = true)]
    pub live_poll_ms: Option<u64>,
}

/// Validated settings; built once and passed to whatever needs them.
#[derive(Debug, Clone)]
pub struct Settings {
    pub bind: SocketAddr,
    /// Extra game content loaded after the shipped cards.
    pub content_dir: Option<PathBuf>,
    pub database_url: DatabaseUrl,
    pub data_dir: PathBuf,
    pub environment: Environment,
    pub secret: Secret,
    pub base_url: String,
    pub mail: MailTransport,
    pub mail_from: String,
    pub db_pool_size: u32,
    pub workers: Option<usize>,
    /// Threads for blocking work in all, when the operator sets it.
    pub blocking_threads: Option<usize>,
    pub log_json: bool,
    pub tls: TlsSetting,
    /// Reverse proxies of the operator's own in front (0: the peer is the client).
    pub proxy_hops: usize,
    /// How long a request may take, reading its body included.
    pub request_timeout: std::time::Duration,
    /// Requests one client address may have in flight at once.
    pub requests_per_client: usize,
    pub play_commands_per_second: u32,
    /// How often to look for games other instances changed.
    pub live_poll: std::time::Duration,
}

/// What resolving the settings had to say that the operator should know.
#[derive(Debug, Default)]
pub struct SettingsNotes {
    pub warnings: Vec<String>,
}

impl Settings {
    /// Validates the raw arguments. In development a missing secret is
    /// generated once and kept in `<data_dir>/secret`.
    pub fn resolve(args: &SettingsArgs) -> Result<(Self, SettingsNotes), ConfigError> {
        let mut notes = SettingsNotes::default();
        let environment = if args.production {
            Environment::Production
        } else {
            args.environment.unwrap_or(Environment::Development)
        };
        let database_url = match &args.database_url {
            Some(raw) => DatabaseUrl::parse(raw)?,
            None => DatabaseUrl::Sqlite(args.data_dir.join("soulstone.db")),
        };
        let secret = match (&args.secret, environment) {
            (Some(raw), _) => Secret::parse(raw)?,
            (None, Environment::Production) => return Err(ConfigError::MissingSecret),
            (None, Environment::Development) => {
                let (secret, created) = load_or_create_dev_secret(&args.data_dir)?;
                let path = args.data_dir.join("secret");
                notes.warnings.push(if created {
                    format!(
                        "SOULSTONE_SECRET is not set: generated a development secret in {}",
                        path.display()
                    )
                } else {
                    format!(
                        "SOULSTONE_SECRET is not set: using the development secret in {}",
                        path.display()
                    )
                });
                secret
            }
        };
        let mail = match &args.smtp_url {
            Some(raw) => MailTransport::Smtp(parse_smtp_url(raw, args.smtp_tls)?),
            None => MailTransport::Outbox(args.data_dir.join("outbox")),
        };
        if let (MailTransport::Outbox(dir), Environment::Production) = (&mail, environment) {
            notes.warnings.push(format!(
                "SOULSTONE_SMTP_URL is not set: mails (account confirmations, password resets, \
                 pairings) are written to {} and reach nobody. Set it to a mail server, or pass \
                 those links on by hand; the files hold live links, so keep them private.",
                dir.display()
            ));
        }
        let tls = match (&args.tls_cert, &args.tls_key, args.tls) {
            (Some(cert), Some(key), None | Some(TlsMode::SelfSigned)) => TlsSetting::Files {
                cert: cert.clone(),
                key: key.clone(),
            },
            (Some(_), None, _) | (None, Some(_), _) => {
                return Err(ConfigError::Invalid(
                    "SOULSTONE_TLS_CERT and SOULSTONE_TLS_KEY go together: give both".into(),
                ));
            }
            (Some(_), Some(_), Some(TlsMode::Off)) => {
                return Err(ConfigError::Invalid(
                    "SOULSTONE_TLS=off contradicts SOULSTONE_TLS_CERT: give one or the other"
                        .into(),
                ));
            }
            (None, None, Some(TlsMode::SelfSigned)) => TlsSetting::SelfSigned,
            (None, None, None | Some(TlsMode::Off)) => TlsSetting::Off,
        };
        let scheme = if tls == TlsSetting::Off {
            "http"
        } else {
            "https"
        };
        let base_url = args
            .base_url
            .clone()
            .unwrap_or_else(|| format!("{scheme}://{}", args.bind))
            .trim_end_matches('/')
            .to_owned();
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(ConfigError::Invalid(format!(
                "SOULSTONE_BASE_URL must start with http:// or https://, got {base_url}"
            )));
        }
        if tls != TlsSetting::Off && base_url.starts_with("http://") {
            return Err(ConfigError::Invalid(format!(
                "the server serves HTTPS, but SOULSTONE_BASE_URL is {base_url}: make it https://"
            )));
        }
        if environment == Environment::Production && !sessions_survive(&base_url) {
            return Err(ConfigError::Invalid(format!(
                "in production, sign-in cookies are Secure, and browsers keep them only over \
                 HTTPS, so at {base_url} nobody could stay signed in. Serve HTTPS: at a venue, \
                 add SOULSTONE_TLS=self-signed (and SOULSTONE_BASE_URL=https://…); behind a \
                 proxy that serves HTTPS, set SOULSTONE_BASE_URL to its https:// address. \
                 See docs/deploy.md."
            )));
        }
        // With LISTEN/NOTIFY (PostgreSQL) the look is only a fallback.
        let live_poll = std::time::Duration::from_millis(
            args.live_poll_ms
                .unwrap_or(match &database_url {
                    DatabaseUrl::Postgres(_) => 5_000,
                    DatabaseUrl::Sqlite(_) => 250,
                })
                .max(10),
        );
        if args.blocking_threads == Some(0) {
            return Err(ConfigError::Invalid(
                "SOULSTONE_BLOCKING_THREADS must be at least 1".into(),
            ));
        }
        if args.db_pool_size == 0 {
            return Err(ConfigError::Invalid(
                "SOULSTONE_DB_POOL_SIZE must be at least 1".into(),
            ));
        }
        Ok((
            Self {
                bind: args.bind,
                content_dir: args.content_dir.clone(),
                database_url,
                data_dir: args.data_dir.clone(),
                environment,
                secret,
                base_url,
                mail,
                mail_from: args.mail_from.clone(),
                db_pool_size: args.db_pool_size,
                workers: args.workers,
                blocking_threads: args.blocking_threads,
                log_json: args.log_json,
                tls,
                proxy_hops: args.proxy_hops.unwrap_or(usize::from(args.trust_proxy)),
                request_timeout: std::time::Duration::from_secs(args.request_timeout_secs.max(1)),
                requests_per_client: args.requests_per_client.max(1),
                play_commands_per_second: args.play_commands_per_second,
                live_poll,
            },
            notes,
        ))
    }

    pub fn is_production(&self) -> bool {
        self.environment == Environment::Production
    }
}

/// Whether browsers keep `Secure` cookies for this public address: over
/// HTTPS, or plain HTTP on loopback (which browsers count as secure).
fn sessions_survive(base_url: &str) -> bool {
    let Ok(url) = url::Url::parse(base_url) else {
        return false;
    };
    match url.host() {
        _ if url.scheme() == "https" => true,
        Some(url::Host::Domain(name)) => name == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

fn parse_smtp_url(raw: &str, tls: Option<SmtpTls>) -> Result<SmtpUrl, ConfigError> {
    let raw = raw.trim();
    let default_tls = if raw.starts_with("smtps://") {
        SmtpTls::Tls
    } else if raw.starts_with("smtp://") {
        SmtpTls::None
    } else {
        return Err(ConfigError::Invalid(format!(
            "SOULSTONE_SMTP_URL must start with smtp:// or smtps://, got {}",
            redact_url(raw)
        )));
    };
    Ok(SmtpUrl {
        raw: raw.to_owned(),
        tls: tls.unwrap_or(default_tls),
    })
}

fn load_or_create_dev_secret(data_dir: &Path) -> Result<(Secret, bool), ConfigError> {
    let path = data_dir.join("secret");
    let io_err = |source| ConfigError::Io {
        path: path.clone(),
        source,
    };
    match std::fs::read_to_string(&path) {
        Ok(raw) => Ok((Secret::parse(&raw)?, false)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(data_dir).map_err(io_err)?;
            let secret = Secret::generate();
            write_private_file(&path, secret.as_bytes()).map_err(io_err)?;
            Ok((secret, true))
        }
        Err(err) => Err(io_err(err)),
    }
}

/// Writes a file readable only by its owner (where the platform allows).
fn write_private_file(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct TestCli {
        #[command(flatten)]
        settings: SettingsArgs,
    }

    fn args(extra: &[&str]) -> SettingsArgs {
        let mut argv = vec!["soulstone"];
        argv.extend_from_slice(extra);
        TestCli::parse_from(argv).settings
    }

    #[test]
    fn database_url_forms() {
        assert_eq!(
            DatabaseUrl::parse("postgres://u:p@h/db").unwrap(),
            DatabaseUrl::Postgres("postgres://u:p@h/db".into())
        );
        assert_eq!(
            DatabaseUrl::parse("sqlite://data/x.db").unwrap(),
            DatabaseUrl::Sqlite("data/x.db".into())
        );
        assert_eq!(
            DatabaseUrl::parse("x.db").unwrap(),
            DatabaseUrl::Sqlite("x.db".into())
        );
        assert!(DatabaseUrl::parse("mysql://h/db").is_err());
        assert!(DatabaseUrl::parse("  ").is_err());
    }

    #[test]
    fn production_refuses_a_public_address_where_no_session_could_last() {
        let secret = "--secret=0123456789abcdef0123456789abcdef";
        let venue = args(&[
            "--production",
            secret,
            "--base-url=http://192.168.1.20:8080",
        ]);
        let message = Settings::resolve(&venue).unwrap_err().to_string();
        assert!(message.contains("SOULSTONE_TLS=self-signed"), "{message}");
        // HTTPS served by the server itself, or by a proxy, or loopback: fine.
        for ok in [
            vec![
                "--production",
                secret,
                "--tls=self-signed",
                "--bind=0.0.0.0:8443",
                "--base-url=https://192.168.1.20:8443",
            ],
            vec![
                "--production",
                secret,
                "--base-url=https://events.example.org",
            ],
            vec!["--production", secret, "--base-url=http://localhost:8080"],
            vec!["--production", secret],
        ] {
            let (settings, _) = Settings::resolve(&args(&ok)).unwrap();
            assert!(settings.is_production());
        }
        let (made, _) = Settings::resolve(&args(&[
            secret,
            "--tls=self-signed",
            "--bind=10.0.0.5:8443",
        ]))
        .unwrap();
        assert_eq!(made.tls, TlsSetting::SelfSigned);
        assert_eq!(made.base_url, "https://10.0.0.5:8443");
        // HTTPS served but plain links mailed, or half a certificate: refused.
        for wrong in [
            vec![
                secret,
                "--tls=self-signed",
                "--base-url=http://10.0.0.5:8443",
            ],
            vec![secret, "--tls-cert=venue.crt"],
        ] {
            assert!(Settings::resolve(&args(&wrong)).is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            redact_url("postgres://user:hunter2@host/db"),
            "postgres://user:***@host/db"
        );
        let shown = format!("{:?}", DatabaseUrl::parse("postgresql://a:b@c/d").unwrap());
        assert!(!shown.contains(":b@"), "{shown}");
    }

    #[test]
    fn production_without_a_mail_server_says_where_mails_go() {
        let secret = "--secret=0123456789abcdef0123456789abcdef";
        let (_, notes) = Settings::resolve(&args(&["--production", secret])).unwrap();
        assert!(
            notes
                .warnings
                .iter()
                .any(|w| w.contains("SOULSTONE_SMTP_URL is not set") && w.contains("outbox")),
            "{:?}",
            notes.warnings
        );
        let (_, notes) = Settings::resolve(&args(&[
            "--production",
            secret,
            "--smtp-url=smtp://mail.example.org:25",
        ]))
        .unwrap();
        assert!(notes.warnings.is_empty(), "{:?}", notes.warnings);
    }

    #[test]
    fn production_requires_a_secret() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().to_str().unwrap();
        let err = Settings::resolve(&args(&["--production", "--data-dir", data])).unwrap_err();
        assert!(matches!(err, ConfigError::MissingSecret));
        assert!(!dir.path().join("secret").exists());
    }

    #[test]
    fn development_secret_is_generated_once_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("nested");
        let data = data.to_str().unwrap();
        let (first, notes) = Settings::resolve(&args(&["--data-dir", data])).unwrap();
        assert_eq!(notes.warnings.len(), 1);
        let (second, _) = Settings::resolve(&args(&["--data-dir", data])).unwrap();
        assert_eq!(first.secret.as_bytes(), second.secret.as_bytes());
        assert!(first.secret.as_bytes().len() >= Secret::MIN_LEN);
        assert_eq!(
            first.database_url,
            DatabaseUrl::Sqlite(PathBuf::from(data).join("soulstone.db"))
        );
    }

    #[test]
    fn short_secret_is_refused() {
        let err = Settings::resolve(&args(&["--secret", "short"])).unwrap_err();
        assert!(err.to_string().contains("at least 32"), "{err}");
    }

    #[test]
    fn smtp_url_picks_tls_from_scheme() {
        let secret = "x".repeat(40);
        let (s, _) = Settings::resolve(&args(&[
            "--secret",
            &secret,
            "--smtp-url",
            "smtps://mail.example.org",
        ]))
        .unwrap();
        assert!(matches!(
            s.mail,
            MailTransport::Smtp(SmtpUrl {
                tls: SmtpTls::Tls,
                ..
            })
        ));
        assert!(
            Settings::resolve(&args(&["--secret", &secret, "--smtp-url", "http://x"])).is_err()
        );
    }
}
