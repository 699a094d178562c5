//! Soulstone: a tournament organizer service for tabletop skirmish games.
//!
//! Layers, with dependencies pointing one way (a test reads the imports and
//! holds them to it): `web` (handlers, pages, the API and its errors) uses
//! the services (`hosted`, `rankings`, `events`, `pools`, `accounts`,
//! `mail`), which use `db`, which uses the plain modules (`auth`,
//! `chess_clock`, `config`, `content`, `setup`, `systems`, `telemetry`,
//! `tournament`); `cli` and `game_cli` start it all. The rules engine
//! (`soulstone_engine`, `engine/`) and the tournament rules
//! (`soulstone_tournament`, `tournament/`) are crates of their own and use
//! none of these.

pub mod accounts;
pub mod auth;
pub mod chess_clock;
pub mod cli;
pub mod config;
pub mod content;
pub mod crews;
pub mod db;
pub mod events;
pub mod game_cli;
pub mod hosted;
pub mod mail;
pub mod packs;
pub mod pools;
pub mod rankings;
pub mod setup;
pub mod systems;
pub mod telemetry;
/// Pairing, standings, tiebreakers and ratings: the pure crate `soulstone-tournament`.
pub use soulstone_tournament as tournament;
pub mod web;

/// The version shown in page footers and `/healthz`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
