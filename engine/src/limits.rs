//! Bounds on everything a game can grow, so no game can exhaust the server.

pub const MAX_MODELS: usize = 64;
pub const MAX_NAME_LEN: usize = 80;
pub const MAX_REDUCTIONS: usize = 8;
pub const MAX_TOKEN_VALUE: u8 = 20;
pub const MAX_TRIGGERS: usize = 16;
pub const MAX_SOULSTONES: u16 = 50;
/// Victory points a player can hold (an encounter scores far fewer).
pub const MAX_VICTORY_POINTS: u8 = 50;
/// Damage instances waiting to be resolved at once.
pub const MAX_QUEUED_DAMAGE: usize = 64;
/// Cards drawn by one command.
pub const MAX_DRAW: u8 = 20;
/// Stat, skill and TN values accepted in a duel.
pub const MAX_DUEL_VALUE: i16 = 30;
/// Events one command may produce (a runaway loop is refused instead).
pub const MAX_EVENTS_PER_COMMAND: usize = 512;
/// Fate modifiers reveal at most this many cards.
pub const MAX_REVEALED: usize = 4;
/// Procedures in progress at once (activation, action, duel, damage,
/// killed...): deep enough for any chain of effects the rules allow.
pub const MAX_FRAMES: usize = 16;
/// Actions on one stat card.
pub const MAX_ACTIONS: usize = 16;
/// Abilities on one stat card.
pub const MAX_ABILITIES: usize = 16;
/// Markers on the table at once (remains, scheme and strategy markers...).
pub const MAX_MARKERS: usize = 128;
