//! Duels, damage and tokens: how an edition strengthens, cheats, triggers,
//! raises and deals damage, and how a model holds tokens. What each token
//! does is content (`crate::token`).

use crate::duel::ActionKind;
use crate::token::{Token, TokenBook, Tokens};

/// How a player strengthens a duel before flipping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuelBoost {
    /// 4th edition: discard a card of value 5 or less (empower).
    DiscardLowCard,
    /// 3rd edition: a soulstone user spends a soulstone.
    Soulstone,
}

/// How gaining a token changes a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenGain {
    Nothing,
    Gain {
        value: u8,
    },
    /// The opposite token cancels: it loses `by` and nothing is gained.
    Cancel {
        token: Token,
        by: u8,
    },
}

/// How a model holds tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenHolding {
    /// 4th edition: a token is held or not.
    Once,
    /// 3rd edition: a condition defined with a value adds to it.
    WithValues,
}

/// What a successful initiator's margin buys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Raises {
    /// 4th edition: a raise per raise value of margin over the higher of
    /// the resister's total and the TN, plus one for the Red Joker; raises
    /// add damage except to magic.
    ByMargin,
    /// 3rd edition: no raises.
    None,
}

/// What an attack's damage is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DamageRule {
    /// 4th edition: a fixed amount, reduced by cover and ties.
    Fixed,
    /// 3rd edition: a flip of weak, moderate or severe with modifiers
    /// (accuracy, cover).
    Flip,
}

/// The duel and damage rules of one edition.
#[derive(Debug)]
pub struct DuelRules {
    pub boost: DuelBoost,
    /// 3rd edition: a flip with a negative modifier cannot be cheated.
    pub negative_flips_uncheatable: bool,
    /// How many sides declare triggers (the initiator first).
    pub trigger_slots: u8,
    pub raises: Raises,
    pub damage: DamageRule,
    /// An opposed tie costs the initiator 1 damage.
    pub tie_reduces_damage: bool,
    /// Cover reduces an attack's damage by 1 (else it worsens the flip).
    pub cover_reduces_damage: bool,
    /// Cover gives the target +1 Df (M3E line 2572).
    pub cover_adds_defense: bool,
    /// A soulstone user may spend a soulstone to reduce damage.
    pub soulstones_reduce_damage: bool,
    pub tokens: TokenHolding,
    /// The maximum control hand size.
    pub max_hand: u8,
}

impl DuelRules {
    /// What gaining `token` (with `value`) does to a model holding `tokens`.
    pub fn gain(&self, book: &TokenBook, tokens: &Tokens, token: Token, value: u8) -> TokenGain {
        match self.tokens {
            TokenHolding::Once => {
                if tokens.has(token) {
                    return TokenGain::Nothing;
                }
                match book.cancelled_by(token) {
                    // Gaining a token that its opposite cancels removes both.
                    Some(other) if tokens.has(other) => TokenGain::Cancel {
                        token: other,
                        by: 1,
                    },
                    _ => TokenGain::Gain { value: 1 },
                }
            }
            TokenHolding::WithValues => {
                // A condition with a value adds to it; one without is held or not.
                let has_value = book.def(token).is_some_and(|def| def.has_value);
                match book.cancelled_by(token) {
                    Some(other) if tokens.has(other) => TokenGain::Cancel {
                        token: other,
                        by: tokens.value(other),
                    },
                    _ if has_value => TokenGain::Gain { value },
                    _ if tokens.has(token) => TokenGain::Nothing,
                    _ => TokenGain::Gain { value: 1 },
                }
            }
        }
    }

    /// Why cheating is forbidden by the edition's own rule, if it is.
    pub fn cheat_forbidden(&self, fate_modifiers: i8) -> Option<&'static str> {
        (self.negative_flips_uncheatable && fate_modifiers < 0)
            .then_some("in 3rd edition a flip with a negative modifier cannot be cheated")
    }

    /// Raises of a successful initiator: margin over the higher of the
    /// resister's total and the TN, per raise value, plus the Red Joker.
    pub fn raises(&self, margin: i16, raise_value: u8, red_joker: bool) -> u8 {
        match self.raises {
            Raises::ByMargin => {
                let from_margin =
                    u8::try_from(margin.max(0) / i16::from(raise_value.max(1))).unwrap_or(u8::MAX);
                from_margin.saturating_add(u8::from(red_joker))
            }
            Raises::None => 0,
        }
    }

    /// Whether raises add damage for this kind of action.
    pub fn raises_add_damage(&self, kind: ActionKind) -> bool {
        self.raises == Raises::ByMargin && kind != ActionKind::Magic
    }

    /// Whether damage is a flip with modifiers rather than a fixed amount.
    pub fn damage_flips(&self) -> bool {
        self.damage == DamageRule::Flip
    }
}
