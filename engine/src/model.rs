//! Models as the duel and damage rules see them: stats, health, the
//! soulstone-related traits, named damage reductions, and tokens (4th
//! edition) or conditions (3rd edition, which carry a value).

use serde::{Deserialize, Serialize};

use super::Seat;
use super::limits::{MAX_NAME_LEN, MAX_REDUCTIONS, MAX_TOKEN_VALUE};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ModelId(pub u16);

/// Tokens (4th edition) and conditions (3rd edition) that act on duels and
/// damage. In 4th edition a model has a token or not (value 1); 3rd edition
/// conditions carry a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Token {
    /// May be removed before a duel for a positive fate modifier.
    Focused,
    /// Must be removed when targeting an enemy: a negative fate modifier.
    Distracted,
    /// 4th edition: may be removed before a duel to add a suit.
    Adaptable,
    /// 4th edition: may be removed before a duel to look at the top card.
    Insight,
    /// Reduces damage by 1 (to a minimum of 0), then goes (or counts down).
    Shielded,
    /// 4th edition: +1 damage on the next successful damaging attack.
    Impact,
    /// Cannot declare triggers.
    Stunned,
    /// 4th edition: actions targeting an enemy cannot be cheated.
    Entranced,
    /// +1 Df and Wp (4th edition).
    Bolstered,
    /// −1 Df and Wp (4th edition); 3rd edition: −X.
    Injured,
    /// 4th edition: never infuses a soulstone when killed.
    Summon,
}

impl Token {
    pub const ALL: [Token; 11] = [
        Token::Focused,
        Token::Distracted,
        Token::Adaptable,
        Token::Insight,
        Token::Shielded,
        Token::Impact,
        Token::Stunned,
        Token::Entranced,
        Token::Bolstered,
        Token::Injured,
        Token::Summon,
    ];

    fn index(self) -> usize {
        Token::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }

    /// Tokens that cancel each other when both would be held.
    pub fn cancelled_by(self) -> Option<Token> {
        match self {
            Token::Focused => Some(Token::Distracted),
            Token::Distracted => Some(Token::Focused),
            Token::Bolstered => Some(Token::Injured),
            Token::Injured => Some(Token::Bolstered),
            _ => None,
        }
    }
}

/// The tokens a model holds, with their values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Tokens([u8; 11]);

impl Tokens {
    pub fn value(&self, token: Token) -> u8 {
        self.0[token.index()]
    }

    pub fn has(&self, token: Token) -> bool {
        self.value(token) > 0
    }

    pub fn set(&mut self, token: Token, value: u8) {
        self.0[token.index()] = value.min(MAX_TOKEN_VALUE);
    }

    pub fn iter(&self) -> impl Iterator<Item = (Token, u8)> + '_ {
        Token::ALL
            .iter()
            .map(|&t| (t, self.value(t)))
            .filter(|(_, v)| *v > 0)
    }
}

impl Serialize for Tokens {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Tokens {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<Token, u8>::deserialize(deserializer)?;
        let mut tokens = Tokens::default();
        for (token, value) in map {
            if value > MAX_TOKEN_VALUE {
                return Err(serde::de::Error::custom(format!(
                    "{token:?} is at most {MAX_TOKEN_VALUE}"
                )));
            }
            tokens.set(token, value);
        }
        Ok(tokens)
    }
}

/// A damage reduction the model has (Armor and the like).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reduction {
    pub name: String,
    pub amount: u8,
    /// 4th edition Armor-like abilities work once per activation.
    #[serde(default)]
    pub once_per_activation: bool,
    /// Whether the controller chooses to use it (otherwise it always applies).
    #[serde(default)]
    pub optional: bool,
    /// Whether it can take damage to 0 (most stop at 1).
    #[serde(default)]
    pub can_reach_zero: bool,
    /// It cancels the damage entirely (reduces it to 0).
    #[serde(default)]
    pub to_zero: bool,
    /// Soulstones drained to use it.
    #[serde(default)]
    pub soulstones: u8,
}

/// Damage dealt to other models when this one is killed (a Demise ability),
/// to models the table picks (the engine does not measure here).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Demise {
    pub name: String,
    pub damage: u8,
    pub targets: Vec<ModelId>,
    #[serde(default)]
    pub irreducible: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    pub id: ModelId,
    pub name: String,
    pub owner: Seat,
    pub df: i16,
    pub wp: i16,
    pub health: u16,
    pub max_health: u16,
    /// 3rd edition: Masters and Henchmen may spend soulstones.
    #[serde(default)]
    pub soulstone_user: bool,
    /// 4th edition: a soulstone icon ends its health bar (killed: infuse one).
    #[serde(default)]
    pub infuses_on_death: bool,
    /// Peons never infuse soulstones nor leave remains.
    #[serde(default)]
    pub peon: bool,
    #[serde(default)]
    pub reductions: Vec<Reduction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub demise: Option<Demise>,
    /// Healed to this much when killed by damage (a rebirth-like ability).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebirth_health: Option<u16>,
    #[serde(default)]
    pub tokens: Tokens,
    /// Reductions used this activation (by index).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reductions_used: Vec<u8>,
    #[serde(default)]
    pub killed: bool,
}

impl Model {
    pub fn validate(&self) -> Result<(), String> {
        if self.name.trim().is_empty() || self.name.chars().count() > MAX_NAME_LEN {
            return Err(format!(
                "model {} needs a name of 1–{MAX_NAME_LEN} characters",
                self.id.0
            ));
        }
        if self.max_health == 0 || self.health > self.max_health {
            return Err(format!(
                "{}: health must be between 0 and a maximum of at least 1",
                self.name
            ));
        }
        if !(0..=20).contains(&self.df) || !(0..=20).contains(&self.wp) {
            return Err(format!("{}: Df and Wp must be between 0 and 20", self.name));
        }
        if self.reductions.len() > MAX_REDUCTIONS {
            return Err(format!(
                "{}: at most {MAX_REDUCTIONS} damage reductions",
                self.name
            ));
        }
        Ok(())
    }

    /// Df or Wp after tokens (never below 0).
    pub fn stat(&self, stat: super::duel::Stat, fourth_edition: bool) -> i16 {
        let base = match stat {
            super::duel::Stat::Df => self.df,
            super::duel::Stat::Wp => self.wp,
        };
        let injured = i16::from(self.tokens.value(Token::Injured));
        let bolstered = i16::from(self.tokens.value(Token::Bolstered));
        let adjusted = if fourth_edition {
            base + bolstered.min(1) - injured.min(1)
        } else {
            base - injured
        };
        adjusted.max(0)
    }
}
