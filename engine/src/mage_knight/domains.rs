//! Domains (rulebook 661–667): cards that change the battlefield's
//! terrain, weather or conditions. When both armies bring domain cards,
//! each player secretly chooses one of their own once the terrain is
//! placed; both are revealed before deployment. A domain that cancels the
//! other's removes it (two that cancel each other are both removed); the
//! rest stay in play for the whole game.
//!
//! The seed prints no domain card, so a card's effects are our building
//! blocks, applied once when it is revealed: ranges, a speed type's speed,
//! one terrain type read as another.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::battlefield::TerrainKind;
use super::game::{Battle, Stage};
use super::warrior::SpeedType;
use crate::{RuleError, Seat};

/// The most domain cards an army brings to choose from.
pub const MAX_BROUGHT: usize = 4;

/// What a domain does while it is in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "effect", rename_all = "snake_case", deny_unknown_fields)]
pub enum DomainEffect {
    /// Every warrior with a range has it changed by `by` inches (never
    /// below 1).
    Range { by: i8 },
    /// Every warrior of `speed_type` has the speed of each click changed
    /// by `by` (never below 1, and a speed of 0 stays 0).
    Speed { speed_type: SpeedType, by: i8 },
    /// Every terrain feature of one type is of another.
    Terrain { from: TerrainKind, to: TerrainKind },
}

/// A domain card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DomainCard {
    pub name: String,
    /// The card's rules, in words for the page.
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<DomainEffect>,
    /// The domains it cancels, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cancels: Vec<String>,
}

impl DomainCard {
    /// What is wrong with the card, if anything, and in which field.
    pub fn problem(&self) -> Option<(&'static str, String)> {
        if self.name.trim().is_empty() {
            return Some(("name", "a domain has a name".into()));
        }
        if self.effects.is_empty() && self.cancels.is_empty() {
            return Some((
                "effects",
                format!("{}: a domain does something or cancels a domain", self.name),
            ));
        }
        self.effects.iter().find_map(|effect| match effect {
            DomainEffect::Range { by } | DomainEffect::Speed { by, .. }
                if *by == 0 || by.unsigned_abs() > 4 =>
            {
                Some((
                    "effects",
                    format!("{}: a change is -4 to 4 and not 0", self.name),
                ))
            }
            DomainEffect::Terrain { from, to } if from == to => Some((
                "effects",
                format!("{}: terrain becomes another type", self.name),
            )),
            _ => None,
        })
    }
}

/// Chooses domain card number `domain` of the player's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChooseDomain {
    pub domain: u8,
}

/// The stage once the terrain is placed: the players choose domains if
/// both armies brought some, else the first player deploys.
pub fn after_terrain(battle: &Battle) -> Stage {
    if battle.domain_decks.iter().all(|deck| !deck.is_empty()) && battle.domains.is_empty() {
        Stage::ChoosingDomains
    } else {
        Stage::Deploying {
            seat: battle.first.unwrap_or(Seat::A),
        }
    }
}

/// Checks a player's choice.
pub fn check(battle: &Battle, seat: Seat, order: &ChooseDomain) -> Result<(), RuleError> {
    if battle.domain_choice[seat.index()].is_some() {
        return Err(RuleError::not_allowed("you have chosen your domain"));
    }
    let deck = &battle.domain_decks[seat.index()];
    if usize::from(order.domain) >= deck.len() {
        return Err(RuleError::invalid(format!(
            "you brought {} domain cards: there is no domain {}",
            deck.len(),
            order.domain + 1
        )));
    }
    Ok(())
}

/// The chosen domains that stay in play: each removed if the other
/// cancels it.
pub fn in_play(chosen: [&DomainCard; 2]) -> Vec<DomainCard> {
    let [a, b] = chosen;
    let mut kept = Vec::new();
    if !b.cancels.contains(&a.name) {
        kept.push(a.clone());
    }
    // The same domain chosen twice is in play once.
    let twice = b.name == a.name && !kept.is_empty();
    if !a.cancels.contains(&b.name) && !twice {
        kept.push(b.clone());
    }
    kept
}

/// A range or speed effect on one card.
fn change_card(card: &mut super::warrior::WarriorCard, effect: &DomainEffect) {
    match effect {
        DomainEffect::Range { by } if card.range > 0 => {
            card.range = card.range.saturating_add_signed(*by).max(1);
        }
        DomainEffect::Speed { speed_type, by } if card.speed_type == *speed_type => {
            for click in card.dial.iter_mut().filter(|c| c.speed > 0) {
                click.speed = click.speed.saturating_add_signed(*by).max(1);
            }
        }
        _ => {}
    }
}

/// Puts the domains' effects on the warriors and terrain.
pub fn take_effect(battle: &mut Battle, domains: &[DomainCard]) {
    for effect in domains.iter().flat_map(|d| d.effects.iter()) {
        match effect {
            DomainEffect::Range { .. } | DomainEffect::Speed { .. } => {
                for w in &mut battle.warriors {
                    // A wielder's own card changes; its items go back on it.
                    match &mut w.bare {
                        Some(bare) => {
                            change_card(Arc::make_mut(bare), effect);
                            super::items::rearm(w);
                        }
                        None => change_card(Arc::make_mut(&mut w.card), effect),
                    }
                }
            }
            DomainEffect::Terrain { from, to } => {
                for feature in Arc::make_mut(&mut battle.terrain)
                    .iter_mut()
                    .filter(|f| f.kind == *from)
                {
                    feature.kind = *to;
                }
            }
        }
    }
}
