//! Logging set-up: structured events through `tracing`, text or JSON lines.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber (once per process; later calls are ignored).
pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,actix_server=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}
