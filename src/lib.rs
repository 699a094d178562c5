//! Soulstone: a tournament organizer service for tabletop skirmish games.
//!
//! Layers, with dependencies pointing one way: `web` uses `events` and `db`;
//! `db` stores plain data; `config` and `error` are shared. The rules engine
//! is its own crate, `soulstone_engine` (`engine/`), and uses none of these.

pub mod auth;
pub mod cli;
pub mod config;
pub mod content;
pub mod db;
pub mod error;
pub mod events;
pub mod game_cli;
pub mod hosted;
pub mod mail;
pub mod rankings;
pub mod setup;
pub mod systems;
pub mod telemetry;
pub mod tournament;
pub mod web;

/// The version shown in page footers and `/healthz`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
