//! Damage and the killed timing, for both editions.

use serde::{Deserialize, Serialize};

use super::Seat;
use super::fate::Card;
use super::model::ModelId;

/// How much damage, before anything adds or reduces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DamageAmount {
    Fixed {
        amount: u8,
    },
    /// 3rd edition: a damage flip picks weak, moderate or severe.
    Flip {
        weak: u8,
        moderate: u8,
        severe: u8,
    },
}

/// One damage instance waiting to be (or being) resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageInstance {
    pub target: ModelId,
    pub source: String,
    /// The model credited if this kills the target.
    pub credit: Option<ModelId>,
    /// Who makes a damage flip (3rd edition).
    pub attacker: Option<Seat>,
    pub amount: DamageAmount,
    /// 3rd edition: fate modifiers on the damage flip (accuracy, cover...).
    pub modifiers: i8,
    /// 4th edition: +1 damage per raise (not for magic actions).
    pub raises: u8,
    pub additions: Vec<(String, u8)>,
    /// 4th edition: an opposed duel ended in a tie (1 less damage, minimum 0).
    pub tie: bool,
    pub cover: bool,
    pub irreducible: bool,
    /// An after-killing trigger infuses a soulstone for this seat.
    pub infuse_on_kill: Option<Seat>,
    /// Instances with the same batch were dealt at the same moment.
    pub batch: u32,
}

/// Where the damage timing of one instance stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageStage {
    /// Several instances were dealt at once: their owner picks the next.
    Order,
    /// 3rd edition: the damaged model may spend a soulstone for a negative modifier.
    Block,
    /// 3rd edition: the attacker picks the damage flip's card.
    FlipChoose,
    /// 3rd edition: the attacker may cheat the damage flip.
    FlipCheat,
    /// An optional reduction of the damaged model may be used.
    Reductions,
    /// 3rd edition: the damaged model may spend a soulstone to reduce damage.
    SoulstoneReduce,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageProgress {
    pub instance: DamageInstance,
    pub stage: DamageStage,
    /// 3rd edition: the damage flip's net fate modifier.
    pub flip_modifiers: i8,
    pub card: Option<Card>,
    /// Damage before reductions ("dealt").
    pub dealt: u8,
    /// Damage after the reductions so far.
    pub amount: u8,
    pub reductions: Vec<(String, u8)>,
    /// The next optional reduction to offer.
    pub next_reduction: u8,
    pub base: u8,
    pub raises_added: u8,
}

/// 3rd edition: the band a flipped card selects (0 weak, 1 moderate, 2 severe).
pub fn band(card: Card) -> u8 {
    match card.value() {
        0..=5 => 0,
        6..=10 => 1,
        _ => 2,
    }
}

/// 3rd edition damage of a flip: the Black Joker deals nothing, the Red
/// Joker the severe damage plus one.
pub fn flip_damage(card: Card, weak: u8, moderate: u8, severe: u8) -> u8 {
    if card.is_black_joker() {
        return 0;
    }
    if card.is_red_joker() {
        return severe.saturating_add(1);
    }
    match band(card) {
        0 => weak,
        1 => moderate,
        _ => severe,
    }
}

/// 3rd edition accuracy: the damage flip's modifier from the duel's margin.
pub fn accuracy(margin: i16) -> i8 {
    match margin {
        i16::MIN..=0 => -2,
        1..=5 => -1,
        6..=10 => 0,
        _ => 1,
    }
}
