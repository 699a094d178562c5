//! What differs between the editions, in one place per edition: a
//! [`RuleSet`] per edition instead of `if fourth` checks spread through
//! the procedures. What each token does is content (`crate::token`); how
//! an edition holds tokens (once, or with a value) is here.

use super::Edition;
use super::duel::ActionKind;
use super::token::{Token, TokenBook, Tokens};

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

/// The rules of one edition.
pub trait RuleSet: Sync {
    fn edition(&self) -> Edition;

    /// What gaining `token` (with `value`) does to a model holding `tokens`.
    fn gain(&self, book: &TokenBook, tokens: &Tokens, token: Token, value: u8) -> TokenGain;

    fn duel_boost(&self) -> DuelBoost;

    /// Why cheating is forbidden by the edition's own rule, if it is.
    fn cheat_forbidden(&self, fate_modifiers: i8) -> Option<&'static str>;

    /// How many sides declare triggers (the initiator first).
    fn trigger_slots(&self) -> u8;

    /// Raises of a successful initiator: margin over the higher of the
    /// resister's total and the TN, per raise value, plus the Red Joker.
    fn raises(&self, margin: i16, raise_value: u8, red_joker: bool) -> u8;

    /// Whether raises add damage for this kind of action.
    fn raises_add_damage(&self, kind: ActionKind) -> bool;

    /// Whether damage is a flip with modifiers (accuracy, cover) rather
    /// than a fixed amount reduced by cover and ties.
    fn damage_flips(&self) -> bool;

    /// Whether cover reduces an attack's damage by 1 (else it worsens the
    /// damage flip).
    fn cover_reduces_damage(&self) -> bool {
        !self.damage_flips()
    }

    /// Two instances of one ability with a value ("Armor +1" twice):
    /// their values add up (3rd edition), or else the second has no effect
    /// (4th edition: a model cannot gain an ability it already has).
    fn same_name_values_add(&self) -> bool {
        self.damage_flips()
    }

    /// Whether "once per activation" effects may be used only inside an
    /// activation (M4E "once per" restrictions, line 1052: not outside
    /// step C of the Activation Phase, so never in the end phase).
    fn once_per_activation_only_inside_one(&self) -> bool {
        !self.damage_flips()
    }

    /// Whether a piece of hazardous terrain affects a model at most once
    /// per activation (4th edition), or once per action or ability, so a
    /// second action through it hurts again (3rd edition, M3E line 2597).
    fn hazard_once_per_activation(&self) -> bool {
        !self.damage_flips()
    }

    /// Whether cover gives the model an attack targets +1 Df (3rd edition,
    /// M3E line 2572, beside the damage flip's negative modifier).
    fn cover_adds_defense(&self) -> bool {
        self.damage_flips()
    }

    /// Whether an opposed tie costs the initiator 1 damage.
    fn tie_reduces_damage(&self) -> bool {
        !self.damage_flips()
    }

    /// Whether a soulstone user may spend a soulstone to reduce damage.
    fn soulstones_reduce_damage(&self) -> bool;

    /// Whether a killed model may infuse a soulstone and drop remains.
    fn killing_infuses_and_leaves_remains(&self) -> bool;

    fn max_hand(&self) -> u8;
}

/// The rules of `edition`.
pub fn rules(edition: Edition) -> &'static dyn RuleSet {
    match edition {
        Edition::Fourth => &Fourth,
        Edition::Third => &Third,
    }
}

pub struct Fourth;
pub struct Third;

impl RuleSet for Fourth {
    fn edition(&self) -> Edition {
        Edition::Fourth
    }

    fn gain(&self, book: &TokenBook, tokens: &Tokens, token: Token, _value: u8) -> TokenGain {
        // A token is held or not.
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

    fn duel_boost(&self) -> DuelBoost {
        DuelBoost::DiscardLowCard
    }

    fn cheat_forbidden(&self, _fate_modifiers: i8) -> Option<&'static str> {
        None
    }

    fn trigger_slots(&self) -> u8 {
        1
    }

    fn raises(&self, margin: i16, raise_value: u8, red_joker: bool) -> u8 {
        let from_margin =
            u8::try_from(margin.max(0) / i16::from(raise_value.max(1))).unwrap_or(u8::MAX);
        from_margin.saturating_add(u8::from(red_joker))
    }

    fn raises_add_damage(&self, kind: ActionKind) -> bool {
        kind != ActionKind::Magic
    }

    fn damage_flips(&self) -> bool {
        false
    }

    fn soulstones_reduce_damage(&self) -> bool {
        false
    }

    fn killing_infuses_and_leaves_remains(&self) -> bool {
        true
    }

    fn max_hand(&self) -> u8 {
        7
    }
}

impl RuleSet for Third {
    fn edition(&self) -> Edition {
        Edition::Third
    }

    fn gain(&self, book: &TokenBook, tokens: &Tokens, token: Token, value: u8) -> TokenGain {
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

    fn duel_boost(&self) -> DuelBoost {
        DuelBoost::Soulstone
    }

    fn cheat_forbidden(&self, fate_modifiers: i8) -> Option<&'static str> {
        (fate_modifiers < 0)
            .then_some("in 3rd edition a flip with a negative modifier cannot be cheated")
    }

    fn trigger_slots(&self) -> u8 {
        2
    }

    fn raises(&self, _margin: i16, _raise_value: u8, _red_joker: bool) -> u8 {
        0
    }

    fn raises_add_damage(&self, _kind: ActionKind) -> bool {
        false
    }

    fn damage_flips(&self) -> bool {
        true
    }

    fn soulstones_reduce_damage(&self) -> bool {
        true
    }

    fn killing_infuses_and_leaves_remains(&self) -> bool {
        false
    }

    fn max_hand(&self) -> u8 {
        6
    }
}
