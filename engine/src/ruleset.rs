//! What differs between the editions, in one place per edition: a
//! [`RuleSet`] per edition instead of `if fourth` checks spread through
//! the procedures.
//!
//! Tokens (4th edition) and conditions (3rd edition) that act inside duels
//! and damage are data here: each edition lists, per token, the timing
//! [`Window`] at which it acts, the [`Condition`] under which it does, and
//! the [`Effect`]s it has. The procedures open a window and apply whatever
//! the model's tokens say; none of them names a token. Abilities from
//! content (the next issue) use the same windows and effects.

use super::Edition;
use super::duel::{ActionKind, DuelSpec, Stat};
use super::model::{Model, Token, Tokens};

/// A moment in the rules at which tokens (and abilities) act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// A duel has started, before anyone modifies it (the initiator's tokens).
    DuelStarted,
    /// A side is about to cheat fate.
    Cheating,
    /// Triggers are about to be declared.
    DeclaringTriggers,
    /// A duel is over (the initiator's tokens).
    DuelEnded,
    /// A successful attack's damage is being worked out (the attacker's tokens).
    AddingDamage,
    /// Damage is being reduced (the damaged model's tokens), after the
    /// named reductions and the tie.
    ReducingDamage,
    /// The model was killed (its own tokens).
    Killed,
}

/// When a token's effect applies at its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    Always,
    /// The action's duel targets an enemy model.
    TargetsEnemy,
    /// The model is the initiator of an action that targets an enemy.
    InitiatorTargetingEnemy,
    /// The duel is opposed (an attack with a resister).
    Opposed,
}

/// What a token does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// A fate modifier on the model's side of the duel.
    FateModifier(i8),
    /// The token goes (`by` 0: all of it, a 3rd edition condition's whole value).
    Remove { by: u8 },
    /// The side may not cheat, for this reason.
    ForbidCheating(&'static str),
    /// The side declares no triggers.
    ForbidTriggers,
    /// The damage grows by this much.
    AddDamage(u8),
    /// The damage shrinks by this much (never below 0).
    ReduceDamage(u8),
    /// The killed model infuses no soulstone.
    NoSoulstoneOnDeath,
}

/// One token's rule: at `window`, if `when` holds, `effects` happen in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenRule {
    pub token: Token,
    pub window: Window,
    pub when: Condition,
    pub effects: &'static [Effect],
}

/// What holds at the moment a window opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Situation {
    pub targets_enemy: bool,
    pub is_initiator: bool,
    pub opposed: bool,
}

impl Situation {
    /// The situation of a side of `spec`'s duel.
    pub fn in_duel(spec: &DuelSpec, is_initiator: bool) -> Self {
        Self {
            targets_enemy: spec.targets_enemy,
            is_initiator,
            opposed: spec.is_opposed(),
        }
    }
}

impl Condition {
    fn holds(self, situation: Situation) -> bool {
        match self {
            Condition::Always => true,
            Condition::TargetsEnemy => situation.targets_enemy,
            Condition::InitiatorTargetingEnemy => situation.is_initiator && situation.targets_enemy,
            Condition::Opposed => situation.opposed,
        }
    }
}

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

    /// The tokens' (or conditions') rules, by window.
    fn token_rules(&self) -> &'static [TokenRule];

    /// The effects `tokens` have at `window` in `situation`, each with the
    /// token that causes it, in the order the rules list them.
    fn effects_at(
        &self,
        tokens: &Tokens,
        window: Window,
        situation: Situation,
    ) -> Vec<(Token, Effect)> {
        // Most models hold no token: no list is built for them.
        if tokens.iter().next().is_none() {
            return Vec::new();
        }
        self.token_rules()
            .iter()
            .filter(|rule| {
                rule.window == window && tokens.has(rule.token) && rule.when.holds(situation)
            })
            .flat_map(|rule| rule.effects.iter().map(|effect| (rule.token, *effect)))
            .collect()
    }

    /// Df or Wp as a duel reads it (tokens change it).
    fn stat(&self, model: &Model, stat: Stat) -> i16;

    /// What gaining `token` (with `value`) does to a model holding `tokens`.
    fn gain(&self, tokens: &Tokens, token: Token, value: u8) -> TokenGain;

    fn duel_boost(&self) -> DuelBoost;

    /// The tokens a model may spend while modifying a duel.
    fn usable_tokens(&self, opposed: bool) -> &'static [Token];

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

const FOURTH_TOKENS: &[TokenRule] = &[
    TokenRule {
        token: Token::Distracted,
        window: Window::DuelStarted,
        when: Condition::TargetsEnemy,
        effects: &[Effect::Remove { by: 1 }, Effect::FateModifier(-1)],
    },
    TokenRule {
        token: Token::Entranced,
        window: Window::Cheating,
        when: Condition::InitiatorTargetingEnemy,
        effects: &[Effect::ForbidCheating(
            "Entranced: this action cannot be cheated",
        )],
    },
    TokenRule {
        token: Token::Entranced,
        window: Window::DuelEnded,
        when: Condition::TargetsEnemy,
        effects: &[Effect::Remove { by: 1 }],
    },
    TokenRule {
        token: Token::Stunned,
        window: Window::DeclaringTriggers,
        when: Condition::Always,
        effects: &[Effect::ForbidTriggers],
    },
    TokenRule {
        token: Token::Impact,
        window: Window::AddingDamage,
        when: Condition::Opposed,
        effects: &[Effect::Remove { by: 1 }, Effect::AddDamage(1)],
    },
    TokenRule {
        token: Token::Shielded,
        window: Window::ReducingDamage,
        when: Condition::Always,
        effects: &[Effect::Remove { by: 1 }, Effect::ReduceDamage(1)],
    },
    TokenRule {
        token: Token::Summon,
        window: Window::Killed,
        when: Condition::Always,
        effects: &[Effect::NoSoulstoneOnDeath],
    },
];

const THIRD_CONDITIONS: &[TokenRule] = &[
    TokenRule {
        token: Token::Distracted,
        window: Window::DuelStarted,
        when: Condition::TargetsEnemy,
        effects: &[Effect::FateModifier(-1)],
    },
    TokenRule {
        token: Token::Distracted,
        window: Window::DuelEnded,
        when: Condition::TargetsEnemy,
        effects: &[Effect::Remove { by: 1 }],
    },
    TokenRule {
        token: Token::Stunned,
        window: Window::DeclaringTriggers,
        when: Condition::Always,
        effects: &[Effect::ForbidTriggers],
    },
    TokenRule {
        token: Token::Shielded,
        window: Window::ReducingDamage,
        when: Condition::Always,
        effects: &[Effect::Remove { by: 1 }, Effect::ReduceDamage(1)],
    },
];

impl RuleSet for Fourth {
    fn edition(&self) -> Edition {
        Edition::Fourth
    }

    fn token_rules(&self) -> &'static [TokenRule] {
        FOURTH_TOKENS
    }

    fn stat(&self, model: &Model, stat: Stat) -> i16 {
        // A token is held or not: one Injured or Bolstered counts once.
        let injured = i16::from(model.tokens.has(Token::Injured));
        let bolstered = i16::from(model.tokens.has(Token::Bolstered));
        (base_stat(model, stat) + bolstered - injured).max(0)
    }

    fn gain(&self, tokens: &Tokens, token: Token, _value: u8) -> TokenGain {
        if tokens.has(token) {
            return TokenGain::Nothing;
        }
        match token.cancelled_by() {
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

    fn usable_tokens(&self, _opposed: bool) -> &'static [Token] {
        &[Token::Focused, Token::Adaptable, Token::Insight]
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

    fn token_rules(&self) -> &'static [TokenRule] {
        THIRD_CONDITIONS
    }

    fn stat(&self, model: &Model, stat: Stat) -> i16 {
        // Conditions carry a value: Injured X lowers the stat by X.
        (base_stat(model, stat) - i16::from(model.tokens.value(Token::Injured))).max(0)
    }

    fn gain(&self, tokens: &Tokens, token: Token, value: u8) -> TokenGain {
        match token.cancelled_by() {
            Some(other) if tokens.has(other) => TokenGain::Cancel {
                token: other,
                by: tokens.value(other),
            },
            _ => TokenGain::Gain { value },
        }
    }

    fn duel_boost(&self) -> DuelBoost {
        DuelBoost::Soulstone
    }

    fn usable_tokens(&self, opposed: bool) -> &'static [Token] {
        // Focused helps only opposed duels.
        if opposed { &[Token::Focused] } else { &[] }
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

fn base_stat(model: &Model, stat: Stat) -> i16 {
    match stat {
        Stat::Df => model.card.df,
        Stat::Wp => model.card.wp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holding(token: Token) -> Tokens {
        let mut tokens = Tokens::default();
        tokens.set(token, 1);
        tokens
    }

    #[test]
    fn a_token_acts_only_at_its_window_and_under_its_condition() {
        let enemy = Situation {
            targets_enemy: true,
            is_initiator: true,
            opposed: true,
        };
        let distracted = holding(Token::Distracted);
        assert_eq!(
            rules(Edition::Fourth).effects_at(&distracted, Window::DuelStarted, enemy),
            vec![
                (Token::Distracted, Effect::Remove { by: 1 }),
                (Token::Distracted, Effect::FateModifier(-1)),
            ]
        );
        // 3rd edition: the condition stays until the action ends.
        assert_eq!(
            rules(Edition::Third).effects_at(&distracted, Window::DuelStarted, enemy),
            vec![(Token::Distracted, Effect::FateModifier(-1))]
        );
        let friendly = Situation {
            targets_enemy: false,
            ..enemy
        };
        assert!(
            rules(Edition::Fourth)
                .effects_at(&distracted, Window::DuelStarted, friendly)
                .is_empty()
        );
        assert!(
            rules(Edition::Fourth)
                .effects_at(&distracted, Window::Cheating, enemy)
                .is_empty()
        );
        // Entranced forbids only the initiator's cheating, and only in 4th edition.
        let entranced = holding(Token::Entranced);
        let resisting = Situation {
            is_initiator: false,
            ..enemy
        };
        assert!(
            rules(Edition::Fourth)
                .effects_at(&entranced, Window::Cheating, resisting)
                .is_empty()
        );
        assert!(matches!(
            rules(Edition::Fourth).effects_at(&entranced, Window::Cheating, enemy)[..],
            [(Token::Entranced, Effect::ForbidCheating(_))]
        ));
        assert!(
            rules(Edition::Third)
                .effects_at(&entranced, Window::Cheating, enemy)
                .is_empty()
        );
    }

    #[test]
    fn each_edition_gains_and_cancels_tokens_its_own_way() {
        let focused = holding(Token::Focused);
        assert_eq!(
            rules(Edition::Fourth).gain(&focused, Token::Focused, 1),
            TokenGain::Nothing
        );
        assert_eq!(
            rules(Edition::Third).gain(&focused, Token::Focused, 2),
            TokenGain::Gain { value: 2 }
        );
        let mut distracted = Tokens::default();
        distracted.set(Token::Distracted, 3);
        assert_eq!(
            rules(Edition::Third).gain(&distracted, Token::Focused, 1),
            TokenGain::Cancel {
                token: Token::Distracted,
                by: 3
            }
        );
        assert_eq!(
            rules(Edition::Fourth).gain(&distracted, Token::Focused, 1),
            TokenGain::Cancel {
                token: Token::Distracted,
                by: 1
            }
        );
    }
}
