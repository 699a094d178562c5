//! The one test app builder and per-test databases.
//!
//! Every database test is written once as `async fn name(backend: Backend)`
//! and listed in `both_backends!`, which makes `name::sqlite` and
//! `name::postgres`. PostgreSQL tests run when `SOULSTONE_TEST_POSTGRES_URL`
//! is set; otherwise they say so loudly on the terminal. When
//! `SOULSTONE_TEST_REPORT_DIR` is set, each test that really ran on a backend
//! leaves a marker there so the CI script can count them.

// Not every test module uses every helper.
#![allow(dead_code)]

pub mod app;
pub mod db;
pub mod rounds;
pub mod smtp;

pub use app::{
    ApiClient, MailSetup, PASSWORD, POOL_IDLE, TestApp, TestClient, extract_input_value, id_after,
    location,
};
pub use db::{Backend, TestDb};
pub use rounds::{PublishedRound, published_round, refused_when_brought};

/// The shipped content (cards and tokens), loaded once for every test.
pub fn shipped_content() -> &'static soulstone_engine::content::Catalog {
    static CATALOG: std::sync::OnceLock<soulstone_engine::content::Catalog> =
        std::sync::OnceLock::new();
    CATALOG
        .get_or_init(|| soulstone::content::load_for_server(None).expect("shipped content loads"))
}

/// The shipped tokens of `edition`.
pub fn shipped_tokens(edition: soulstone_engine::Edition) -> soulstone_engine::token::TokenBook {
    shipped_content()
        .tokens(edition)
        .expect("every edition ships its tokens")
        .clone()
}

/// The shipped marker types of `edition`.
pub fn shipped_markers(edition: soulstone_engine::Edition) -> soulstone_engine::marker::MarkerBook {
    shipped_content()
        .markers(edition)
        .expect("every edition ships its markers")
        .clone()
}

/// A token by its key.
pub fn token(key: &str) -> soulstone_engine::token::Token {
    soulstone_engine::token::Token::new(key).expect("a token key")
}

/// Declares the SQLite and PostgreSQL variants of database tests.
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[actix_web::test]
                async fn sqlite() {
                    super::$name($crate::support::Backend::Sqlite).await
                }

                #[actix_web::test]
                async fn postgres() {
                    if let Some(backend) = $crate::support::Backend::postgres_or_announce_skip() {
                        super::$name(backend).await
                    }
                }
            }
        )*
    };
}

/// `text` as the pages' templates escape it.
pub fn html_escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}
