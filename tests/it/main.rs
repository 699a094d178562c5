//! The integration suite: one test binary (linking once is much faster than
//! one binary per file). Database tests run on SQLite and on PostgreSQL.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[macro_use]
mod support;

mod access;
mod account_sessions;
mod accounts;
mod binary;
mod bot_turns;
mod browser;
mod conformance;
mod connections;
mod content;
mod content_upgrades;
mod encounter;
mod engine_props;
mod events;
mod forced;
mod foundation;
mod game_table;
mod hardening;
mod hosted;
mod hosted_systems;
mod information_sets;
mod layers;
mod live_streams;
mod log_proof;
mod mage_knight;
mod mage_knight_bombardment;
mod mage_knight_captives;
mod mage_knight_constructed;
mod mage_knight_domains;
mod mage_knight_elevated;
mod mage_knight_formations;
mod mage_knight_items;
mod mage_knight_placing;
mod mage_knight_rules;
mod mage_knight_soaring;
mod onboarding;
mod outage;
mod playoffs;
mod preview;
mod rankings;
mod replays;
mod resilience;
mod round_pages;
mod scenarios;
mod search_bot;
mod setups;
mod sign_in_throttles;
mod table;
mod teams;
mod tokens;
mod venue_day;
mod writes_refused;
