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
    /// 3rd edition: a damage flip picks weak, moderate or severe, and the
    /// band picked may drop blast markers (by band: weak, moderate, severe).
    Flip {
        weak: u8,
        moderate: u8,
        severe: u8,
        #[serde(default, skip_serializing_if = "no_blasts")]
        blasts: [u8; 3],
    },
}

/// No band drops a blast marker.
pub fn no_blasts(blasts: &[u8; 3]) -> bool {
    *blasts == [0; 3]
}

/// 3rd edition: what a blast deals to the models it touches, one step
/// below the band the target's flip picked (severe: moderate; moderate:
/// weak; weak: 1), whatever was added to the target's damage.
pub fn blast_damage(band: u8, weak: u8, moderate: u8) -> u8 {
    match band {
        0 => 1,
        1 => weak,
        _ => moderate,
    }
}

/// One damage instance waiting to be (or being) resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageInstance {
    pub target: ModelId,
    pub source: String,
    /// The model credited if this kills the target.
    pub credit: Option<ModelId>,
    /// The crew credited instead, when an enemy-controlled model dealt it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_crew: Option<Seat>,
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
    /// Defensive categories it ignores: reductions and abilities of those
    /// categories do not reduce it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignores: Vec<crate::model::Defense>,
    /// An after-killing trigger infuses a soulstone for this seat.
    pub infuse_on_kill: Option<Seat>,
    /// Instances with the same batch were dealt at the same moment.
    pub batch: u32,
    /// Dealt by an ability: it sets off no `reducing_damage` or `damaged`
    /// ability, so two models cannot bounce damage between them forever.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_ability: bool,
}

impl DamageInstance {
    /// A fixed amount of damage from `source` with nothing else about it
    /// (no credit, no flip, no tie or cover); callers set what differs.
    pub fn fixed(
        target: ModelId,
        source: String,
        amount: u8,
        irreducible: bool,
        batch: u32,
    ) -> Self {
        DamageInstance {
            target,
            source,
            credit: None,
            credit_crew: None,
            attacker: None,
            amount: DamageAmount::Fixed { amount },
            modifiers: 0,
            raises: 0,
            additions: Vec::new(),
            tie: false,
            cover: false,
            irreducible,
            ignores: Vec::new(),
            infuse_on_kill: None,
            batch,
            from_ability: false,
        }
    }
}

/// Where the damage timing of one instance stands: worked out from what
/// has happened (the flags of [`DamageProgress`]), never stored or logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageStage {
    /// 3rd edition: the damaged model may spend a soulstone for a negative modifier.
    Block,
    /// An optional reduction of the damaged model may be used.
    Reductions,
    /// 3rd edition: the damaged model may spend a soulstone to reduce damage.
    SoulstoneReduce,
}

/// One damage instance resolving: the damage procedure's frame. Only facts
/// change it (see `state::apply`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageProgress {
    pub instance: DamageInstance,
    /// 3rd edition: the damage flip's net fate modifier.
    pub flip_modifiers: i8,
    pub block_decided: bool,
    /// The damage flip (a frame above this one) has started.
    pub flip_started: bool,
    /// The damage flip is over (or there was none: fixed damage).
    pub flip_ended: bool,
    /// Damage before reductions ("dealt").
    pub dealt: u8,
    /// Damage after the reductions so far.
    pub amount: u8,
    pub reductions: Vec<(String, u8)>,
    /// Optional reductions before this index were offered already.
    pub next_reduction: u8,
    /// The reductions that apply by themselves were applied.
    pub reductions_applied: bool,
    pub base: u8,
    pub raises_added: u8,
}

impl DamageProgress {
    /// The frame for a damage instance that starts resolving.
    pub fn begin(instance: DamageInstance) -> Self {
        let mut progress = Self {
            flip_modifiers: instance.modifiers,
            block_decided: false,
            flip_started: false,
            flip_ended: false,
            dealt: 0,
            amount: 0,
            reductions: Vec::new(),
            next_reduction: 0,
            reductions_applied: false,
            base: 0,
            raises_added: 0,
            instance,
        };
        if let DamageAmount::Fixed { amount } = progress.instance.amount {
            progress.base = amount;
            // Raises add to damage only when there is damage to add to.
            let raises = if amount > 0 || !progress.instance.additions.is_empty() {
                progress.instance.raises
            } else {
                0
            };
            progress.raises_added = raises;
            let additions: u8 = progress.instance.additions.iter().map(|(_, a)| *a).sum();
            progress.dealt = amount.saturating_add(raises).saturating_add(additions);
            progress.amount = progress.dealt;
            progress.flip_ended = true;
        }
        progress
    }

    /// The step the damage timing is at.
    pub fn stage(&self) -> DamageStage {
        if self.reductions_applied {
            DamageStage::SoulstoneReduce
        } else if self.flip_ended {
            DamageStage::Reductions
        } else {
            // While the damage flip is in progress it is the frame above
            // this one, and decisions go to it.
            DamageStage::Block
        }
    }
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
/// The band the card gives a damage flip (the Red Joker: severe), or none
/// for the Black Joker, which deals nothing.
pub fn flip_band(card: Card) -> Option<u8> {
    if card.is_black_joker() {
        None
    } else if card.is_red_joker() {
        Some(2)
    } else {
        Some(band(card))
    }
}

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
