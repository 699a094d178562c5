//! A warrior's card: what is printed on its base (point value, types,
//! range, targets, attack bonus) and its combat dial, click by click.
//! Damage turns the dial forward, healing back; past the last click (the
//! three skulls) the warrior is eliminated.

use serde::{Deserialize, Serialize};

use super::bombardment::BombardmentToken;

/// How a warrior moves (its speed type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SpeedType {
    /// On foot: double-time, pushed for it.
    Boot,
    /// Mounted: double-time without pushing; breaks away unless it rolls a
    /// 1, and shakes off warriors behind its front arc.
    Horseshoe,
    /// Swims: water is clear terrain to it, and it defends better in it.
    Wave,
    /// Flies: bases and terrain do not stop its movement path; breaks away
    /// unless it rolls a 1.
    Wing,
}

/// What a warrior excels at attacking with (a warrior may have none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttackType {
    /// Close combat: gang up and surge.
    Sword,
    /// Ranged: point blank and precision.
    Bow,
    /// Ranged magic: cannot target magic immune warriors.
    Wand,
}

impl SpeedType {
    /// Its name in a sentence.
    pub fn word(self) -> &'static str {
        match self {
            SpeedType::Boot => "boot",
            SpeedType::Horseshoe => "horseshoe",
            SpeedType::Wave => "wave",
            SpeedType::Wing => "wing",
        }
    }
}

impl Ability {
    /// The ability's name as a dial shows it.
    pub fn name(self) -> &'static str {
        match self {
            Ability::Demoralized => "Demoralized",
            Ability::Armoured => "Armoured",
            Ability::Fury => "Fury",
            Ability::Surefooted => "Surefooted",
            Ability::Mender => "Mender",
            Ability::Bombardment => "Bombardment",
        }
    }
}

impl AttackType {
    /// Its name in a sentence.
    pub fn word(self) -> &'static str {
        match self {
            AttackType::Sword => "sword",
            AttackType::Bow => "bow",
            AttackType::Wand => "wand",
        }
    }

    pub fn is_ranged(self) -> bool {
        matches!(self, AttackType::Bow | AttackType::Wand)
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum DefenseType {
    #[default]
    Normal,
    /// Wand attacks cannot target it.
    MagicImmunity,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum DamageType {
    #[default]
    Normal,
    /// Healing stops at a repair marker, and none happens while one shows.
    Golem,
}

/// The special abilities a click may show: the building blocks shipped
/// warriors are made of (ours, not the Special Abilities Card's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Shaken: the warrior is not able (it may only be given move
    /// actions, and does not keep its player in the game).
    Demoralized,
    /// Damage its attackers deal it is one less (pushing damage is not
    /// reduced).
    Armoured,
    /// +1 to its damage value in close combat (a modifier).
    Fury,
    /// Hindering terrain does not halve its speed nor stop its movement.
    Surefooted,
    /// A close combat action against a friendly warrior in base contact
    /// with its front arc heals that warrior of 1 damage (2 on a critical
    /// hit) if the attack result reaches its defense value.
    Mender,
    /// May make bombardment attacks with the tokens on its card; once it
    /// no longer shows, a waiting attack uses the tokens' own values.
    Bombardment,
}

/// One click of a combat dial: the four values in the stat slot and the
/// abilities shown with them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Click {
    pub speed: u8,
    pub attack: u8,
    pub defense: u8,
    pub damage: u8,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<Ability>,
    /// A golem's repair marker shows on this click.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repair: bool,
}

/// A warrior as printed: its base and its dial.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WarriorCard {
    pub name: String,
    pub faction: String,
    /// Without rank stars: an army holds one at most.
    #[serde(default)]
    pub unique: bool,
    pub points: u16,
    pub speed_type: SpeedType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_type: Option<AttackType>,
    #[serde(default)]
    pub defense_type: DefenseType,
    #[serde(default)]
    pub damage_type: DamageType,
    /// Inches; 0: no ranged combat.
    #[serde(default)]
    pub range: u8,
    /// The arrows by the range: how many warriors one ranged attack may
    /// target.
    #[serde(default = "one")]
    pub targets: u8,
    #[serde(default)]
    pub ranged_damage: u8,
    /// Added to attacks of its attack type; not a modifier.
    #[serde(default)]
    pub attack_bonus: u8,
    /// How many items it may wield (slots in its base).
    #[serde(default)]
    pub item_slots: u8,
    /// What its bombardment tokens show, if its dial has Bombardment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bombardment: Option<BombardmentToken>,
    /// From the starting marker to the last click before the skulls.
    pub dial: Vec<Click>,
}

fn one() -> u8 {
    1
}

/// The longest dial a card may have.
pub const MAX_CLICKS: usize = 16;

impl WarriorCard {
    /// The click shown after `damage` damage, if the warrior still stands.
    pub fn click(&self, damage: u8) -> Option<&Click> {
        self.dial.get(usize::from(damage))
    }

    /// How much damage eliminates it.
    pub fn clicks(&self) -> u8 {
        u8::try_from(self.dial.len()).unwrap_or(u8::MAX)
    }

    /// Problems with the card, each with the field it is in.
    pub fn problems(&self) -> Vec<(String, String)> {
        let mut found = Vec::new();
        let mut problem = |field: &str, message: String| found.push((field.to_owned(), message));
        if self.name.trim().is_empty() {
            problem("name", "a warrior needs a name".into());
        }
        if self.points == 0 {
            problem("points", "a warrior costs at least 1 point".into());
        }
        if self.dial.is_empty() || self.dial.len() > MAX_CLICKS {
            problem(
                "dial",
                format!("a dial has 1 to {MAX_CLICKS} clicks before its skulls"),
            );
        }
        if self.targets == 0 || self.targets > 4 {
            problem("targets", "a warrior has 1 to 4 target arrows".into());
        }
        if self.range > 0 && self.ranged_damage == 0 {
            problem(
                "ranged_damage",
                "a warrior with a range deals at least 1 ranged damage".into(),
            );
        }
        if self.range == 0 && self.attack_type.is_some_and(AttackType::is_ranged) {
            problem(
                "range",
                "a bow or wand attack type needs a range above 0".into(),
            );
        }
        if self.range > 24 {
            problem("range", "a range is at most 24 inches".into());
        }
        for (i, click) in self.dial.iter().enumerate() {
            if click.repair && self.damage_type != DamageType::Golem {
                problem(
                    &format!("dial[{i}].repair"),
                    "only a golem's dial has repair markers".into(),
                );
            }
            if click.speed > 20 || click.attack > 15 || click.defense > 25 || click.damage > 6 {
                problem(
                    &format!("dial[{i}]"),
                    "values are at most speed 20, attack 15, defense 25, damage 6".into(),
                );
            }
        }
        let mut token_problems = Vec::new();
        let bombards = self
            .dial
            .iter()
            .any(|c| c.abilities.contains(&Ability::Bombardment));
        match &self.bombardment {
            None if bombards => problem(
                "bombardment",
                "a dial showing Bombardment needs its tokens: a [bombardment] table".into(),
            ),
            Some(_) if !bombards => problem(
                "bombardment",
                "bombardment tokens need a click showing Bombardment".into(),
            ),
            Some(_) if self.range == 0 => problem(
                "range",
                "a bombardment attack is a ranged attack: it needs a range above 0".into(),
            ),
            Some(token) => token_problems = token.problems(),
            None => {}
        }
        if self.dial.first().is_some_and(|c| c.repair) {
            problem(
                "dial[0].repair",
                "the starting marker's click cannot show a repair marker".into(),
            );
        }
        found.extend(token_problems);
        found
    }
}
