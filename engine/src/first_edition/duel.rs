//! Duels (quick reference, "Simple Duel Sequence" and "Opposed Duel
//! Sequence"): a flip with its twists, the change of the starting totals
//! (cheating fate, then a soulstone's second card), one trigger a side,
//! and who won. What a won or lost duel does is its purpose's
//! ([`super::resolve`]).

use serde::{Deserialize, Serialize};

use super::card::Trigger;
use super::skirmish::ModelId;
use crate::Seat;
use crate::fate::{Card, Suit};
use crate::table::Point;

/// The most cards one flip turns over (a triple twist).
pub const MAX_FLIPPED: usize = 4;

/// How many cards a flip with `twist` turns over.
pub fn cards_for(twist: i8) -> usize {
    (1 + usize::from(twist.unsigned_abs())).min(MAX_FLIPPED)
}

/// The card a flip counts: the Black Joker whenever it shows; with a
/// positive twist the highest, with a negative one the lowest (the Red
/// Joker when it shows, the reference's exception); else the one card.
pub fn counted(flipped: &[Card], twist: i8) -> Option<Card> {
    if let Some(black) = flipped.iter().find(|c| c.is_black_joker()) {
        return Some(*black);
    }
    if twist < 0 {
        if let Some(red) = flipped.iter().find(|c| c.is_red_joker()) {
            return Some(*red);
        }
        flipped.iter().min_by_key(|c| c.value()).copied()
    } else {
        flipped.iter().max_by_key(|c| c.value()).copied()
    }
}

/// One side of a duel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duelist {
    pub model: ModelId,
    pub seat: Seat,
    /// The stat with its modifiers.
    pub stat: i16,
    pub twist: i8,
    pub flipped: Vec<Card>,
    /// The card that counts (the flip's, or the one cheated in).
    pub card: Card,
    pub cheated: bool,
    /// A soulstone's second card.
    pub stone: Option<Card>,
    /// A suit the stat always carries (a weapon's, a spell's).
    pub fixed_suit: Option<Suit>,
    /// The model may spend soulstones (and its crew has one).
    pub may_use_stone: bool,
    /// It has had its chance to change its total.
    pub changed: bool,
    /// Triggers it may declare on this duel.
    pub triggers: Vec<Trigger>,
    /// The trigger it declared.
    pub trigger: Option<String>,
    /// It has had its chance to declare one.
    pub asked: bool,
}

impl Duelist {
    pub fn total(&self) -> i16 {
        self.stat + i16::from(self.card.value()) + self.stone.map_or(0, |c| i16::from(c.value()))
    }

    /// The suits its total holds, a suit once for each time it is there.
    pub fn suits(&self) -> Vec<Suit> {
        [
            self.card.suit(),
            self.stone.and_then(Card::suit),
            self.fixed_suit,
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Cheating needs a card in hand and is barred by a negative twist or
    /// the Black Joker.
    pub fn may_cheat(&self, hand: &[Card]) -> bool {
        !self.changed && !hand.is_empty() && self.twist >= 0 && !self.card.is_black_joker()
    }

    /// The triggers its final total can pay for.
    pub fn payable(&self) -> Vec<&Trigger> {
        let suits = self.suits();
        self.triggers
            .iter()
            .filter(|t| {
                Suit::ALL.iter().all(|suit| {
                    let needed = t.suits.iter().filter(|s| *s == suit).count();
                    suits.iter().filter(|s| *s == suit).count() >= needed
                })
            })
            .collect()
    }

    pub fn declared(&self) -> Option<&Trigger> {
        let name = self.trigger.as_deref()?;
        self.triggers.iter().find(|t| t.name == name)
    }
}

/// What the actor's total is measured against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "against", rename_all = "snake_case")]
pub enum Versus {
    /// An opposed duel: the actor wins ties.
    Model { defender: Box<Duelist> },
    /// A simple duel against a target number, with its suit.
    Number {
        tn: i16,
        suit: Option<Suit>,
        /// A resist must beat the casting total, not tie it.
        must_exceed: bool,
    },
}

/// Why the duel is flipped, and so what its result does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "purpose", rename_all = "snake_case")]
pub enum Purpose {
    /// Cb against Df with a basic weapon (none: Bash).
    Strike {
        weapon: Option<u8>,
        ranged: bool,
        charge: bool,
        focus: bool,
    },
    /// A disengaging strike against a model walking away to `to`: a hit
    /// cancels the walk.
    Disengaging { to: Point },
    /// Ca against the spell's casting cost.
    Cast {
        spell: u8,
        target: ModelId,
        channel: bool,
    },
    /// The target's resist against the casting total.
    Resist {
        caster: ModelId,
        spell: u8,
        channel: bool,
        cast_total: i16,
    },
    /// Wp against a Terrifying model's number: a loss falls back.
    Morale {
        terror: ModelId,
        /// The charge that waits on the duel, if it was one.
        then: Option<Box<super::actions::Action>>,
    },
    /// Wp against 13 to attack a Harmless model: a loss ends the action.
    Harmless {
        target: ModelId,
        then: Box<super::actions::Action>,
    },
}

/// Whose turn it is within the duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum DuelStep {
    Changing { seat: Seat },
    Triggering { seat: Seat },
}

/// A duel under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duel {
    pub purpose: Purpose,
    pub actor: Duelist,
    pub versus: Versus,
    pub step: DuelStep,
    /// The seats in the order they change their totals: the side losing
    /// at the start first (fixed once the cards are flipped).
    pub order: Vec<Seat>,
}

impl Duel {
    /// Whether the actor wins (or is winning) with the totals as they are.
    pub fn actor_wins(&self) -> bool {
        let total = self.actor.total();
        match &self.versus {
            Versus::Model { defender } => total >= defender.total(),
            Versus::Number {
                tn,
                suit,
                must_exceed,
            } => {
                let enough = if *must_exceed {
                    total > *tn
                } else {
                    total >= *tn
                };
                enough && suit.is_none_or(|s| self.actor.suits().contains(&s))
            }
        }
    }

    /// The margin of the actor's total over the other side's (or the TN).
    pub fn margin(&self) -> i16 {
        match &self.versus {
            Versus::Model { defender } => self.actor.total() - defender.total(),
            Versus::Number { tn, .. } => self.actor.total() - tn,
        }
    }

    pub fn side(&self, seat: Seat) -> Option<&Duelist> {
        if self.actor.seat == seat {
            return Some(&self.actor);
        }
        match &self.versus {
            Versus::Model { defender } if defender.seat == seat => Some(defender),
            _ => None,
        }
    }

    pub fn side_mut(&mut self, seat: Seat) -> Option<&mut Duelist> {
        if self.actor.seat == seat {
            return Some(&mut self.actor);
        }
        match &mut self.versus {
            Versus::Model { defender } if defender.seat == seat => Some(defender),
            _ => None,
        }
    }

    /// The seats, the side losing now first: who changes totals (at the
    /// start) and declares triggers (at the end) first.
    pub fn losing_first(&self) -> Vec<Seat> {
        match &self.versus {
            Versus::Model { defender } if defender.seat != self.actor.seat => {
                if self.actor_wins() {
                    vec![defender.seat, self.actor.seat]
                } else {
                    vec![self.actor.seat, defender.seat]
                }
            }
            _ => vec![self.actor.seat],
        }
    }

    pub fn waits_for(&self) -> Seat {
        match self.step {
            DuelStep::Changing { seat } | DuelStep::Triggering { seat } => seat,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        text.parse().expect("a card")
    }

    #[test]
    fn twists_pick_the_card_the_reference_gives() {
        let flip = [card("3R"), card("11C"), card("7M")];
        assert_eq!(counted(&flip, 2), Some(card("11C")));
        assert_eq!(counted(&flip, -2), Some(card("3R")));
        assert_eq!(counted(&[card("3R"), card("RJ")], -1), Some(card("RJ")));
        assert_eq!(
            counted(&[card("BJ"), card("13T")], 1),
            Some(Card::BLACK_JOKER)
        );
        assert_eq!(cards_for(0), 1);
        assert_eq!(cards_for(-3), 4);
        assert_eq!(cards_for(5), MAX_FLIPPED);
    }
}
