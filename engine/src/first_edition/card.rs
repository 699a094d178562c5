//! A 1st edition stat card: Wk, Cg, Ht, Wp, Df, Ca and Wd; basic weapons
//! with Rg, Cb and a weak, moderate and severe damage; abilities from the
//! quick reference's list; spells with a casting cost, a resist and a
//! range; triggers by stat and suits. Content of ours, read from
//! `content/m1e/models/*.toml` (`[[models]]` tables).

use serde::{Deserialize, Serialize};

use crate::fate::Suit;

/// A model's place in its crew.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Station {
    /// Leads the crew; has a soulstone cache and no cost.
    Master,
    Henchman,
    Minion,
    /// Hired with the master it is connected to (`totem_of`).
    Totem,
}

/// What a model is, besides its station (quick reference, "Characteristics").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Characteristic {
    Construct,
    Undead,
    Spirit,
    Graverobber,
    Scavenger,
    Insignificant,
    /// Hired by any faction, at one more soulstone outside its own.
    Mercenary,
    /// One copy in a crew at most.
    Unique,
}

/// A basic weapon's reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    Melee,
    Ranged,
}

/// Damage by the damage flip's band: weak (1–5), moderate (6–10), severe
/// (11 and up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Damage {
    pub weak: u8,
    pub moderate: u8,
    pub severe: u8,
}

impl Damage {
    fn problem(&self) -> Option<String> {
        (self.weak > self.moderate || self.moderate > self.severe)
            .then(|| "weak, moderate and severe damage never fall".to_owned())
    }
}

/// A basic melee or ranged weapon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub name: String,
    pub kind: WeaponKind,
    /// Inches.
    pub rg: u8,
    /// The Combat stat for a Strike with it.
    pub cb: u8,
    /// A suit the weapon's Cb always carries, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cb_suit: Option<Suit>,
    pub damage: Damage,
    /// A pair of weapons: the attack flip gains a positive twist.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paired: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<Trigger>,
}

/// An ability from the quick reference's list, with its number where it
/// has one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "ability", rename_all = "snake_case", deny_unknown_fields)]
pub enum Ability {
    /// Damage suffered is this much less, not below 1.
    Armor {
        value: u8,
    },
    /// As armor, against ranged attacks only.
    Bulletproof {
        value: u8,
    },
    /// As armor, against spells only.
    MagicResistant {
        value: u8,
    },
    /// With 2 or more wounds left, one source leaves it at 1 at least.
    HardToKill,
    /// Damage flips against it take this many negative twists (1–3).
    HardToWound {
        value: u8,
    },
    /// Living enemies engaged with it, or charging it, take a morale duel
    /// against this TN.
    Terrifying {
        value: u8,
    },
    /// Heals this much at the start of its activation.
    Regeneration {
        value: u8,
    },
    MeleeExpert,
    RangedExpert,
    CastingExpert,
    Fly,
    Float,
    Scout,
    Arachnid,
    PassThrough,
    Hunter,
    Ruthless,
    ImmuneToInfluence,
    Harmless,
    /// Masters have it; others only when their card says so.
    UseSoulstones,
}

impl Ability {
    fn problem(&self) -> Option<String> {
        match self {
            Ability::HardToWound { value } if !(1..=3).contains(value) => {
                Some("hard to wound is 1, 2 or 3".into())
            }
            Ability::Armor { value }
            | Ability::Bulletproof { value }
            | Ability::MagicResistant { value }
            | Ability::Terrifying { value }
            | Ability::Regeneration { value }
                if *value == 0 =>
            {
                Some("an ability's number is 1 or more".into())
            }
            _ => None,
        }
    }
}

/// The stat a trigger is declared on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TriggerStat {
    Cb,
    Ca,
    Df,
    Wp,
}

/// What a trigger does, as building blocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TriggerEffect {
    /// The defender suffers this much more damage.
    AddDamage { amount: u8 },
    /// The damage flip gains a positive twist.
    TwistDamage,
    /// The target is pushed directly away.
    PushTarget { inches: u8 },
    /// The attacker discards a card and draws one.
    Surge,
    /// The target gains a condition (see [`SpellEffect::Condition`]).
    Condition { condition: String, value: u8 },
    /// The model heals this many wounds.
    Heal { wounds: u8 },
}

/// A trigger: a stat, the suits its final total must hold, and what it does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trigger {
    pub name: String,
    pub stat: TriggerStat,
    /// One to three suits (a suit twice means two of it).
    pub suits: Vec<Suit>,
    pub does: TriggerEffect,
    /// In our words.
    pub text: String,
}

/// The stat a spell's target resists with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Resist {
    Df,
    Wp,
}

/// What a spell does once cast (and not resisted), as building blocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "effect", rename_all = "snake_case", deny_unknown_fields)]
pub enum SpellEffect {
    /// A damage flip against the target.
    Damage {
        damage: Damage,
    },
    Heal {
        wounds: u8,
    },
    /// The target is pushed directly away (negative: toward the caster).
    Push {
        inches: i8,
    },
    /// The target gains a condition by its name, with a number where it
    /// has one (the general action modifiers and counters of the quick
    /// reference). Conditions are content, as every edition's tokens are;
    /// the encounter's step gives them their book.
    Condition {
        condition: String,
        value: u8,
    },
    /// Places a model of this name within 6" of the caster.
    Summon {
        model: String,
    },
}

/// A spell: its action points, casting cost (TN and suit), resist and range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    pub name: String,
    /// Action points to cast (0, 1 or 2).
    pub ap: u8,
    /// The casting duel's target number.
    pub cc: u8,
    /// The suit the casting total must hold, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cc_suit: Option<Suit>,
    /// The stat a target resists with; none for a spell not resisted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resist: Option<Resist>,
    /// Inches; 0 for the caster itself.
    pub rg: u8,
    pub effects: Vec<SpellEffect>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<Trigger>,
    /// In our words.
    pub text: String,
}

/// A 1st edition model's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelCard {
    pub name: String,
    pub faction: String,
    pub station: Station,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characteristics: Vec<Characteristic>,
    /// Copies allowed in a Scrap (twice as many in a Brawl); none: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rare: Option<u8>,
    /// The master a totem is connected to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub totem_of: Option<String>,
    /// Soulstones to hire it (not a master's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<u8>,
    /// Soulstones a master adds to its crew's pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<u8>,
    /// Base size in millimetres: 30, 40 or 50.
    pub base: u8,
    pub wk: u8,
    pub cg: u8,
    pub ht: u8,
    pub wp: u8,
    pub df: u8,
    /// Casting; 0 for a model that casts no spells.
    #[serde(default)]
    pub ca: u8,
    pub wd: u8,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<Weapon>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<Ability>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<Spell>,
}

impl ModelCard {
    pub fn is(&self, characteristic: Characteristic) -> bool {
        self.characteristics.contains(&characteristic)
    }

    /// Living unless it is a construct, undead or a spirit.
    pub fn is_living(&self) -> bool {
        ![
            Characteristic::Construct,
            Characteristic::Undead,
            Characteristic::Spirit,
        ]
        .iter()
        .any(|c| self.is(*c))
    }

    pub fn has(&self, ability: &Ability) -> bool {
        self.abilities.contains(ability)
    }

    /// Whether it may use soulstones: every master, and a model whose card
    /// says so.
    pub fn uses_soulstones(&self) -> bool {
        self.station == Station::Master || self.has(&Ability::UseSoulstones)
    }

    /// The first thing wrong with the card, with its field (relative to
    /// the card).
    pub fn problem(&self) -> Option<(String, String)> {
        let field = |name: &str, message: &str| Some((name.to_owned(), message.to_owned()));
        if self.name.trim().is_empty() {
            return field("name", "a model has a name");
        }
        if ![30, 40, 50].contains(&self.base) {
            return field("base", "a base is 30, 40 or 50 mm");
        }
        if self.wd == 0 {
            return field("wd", "a model has at least 1 wound");
        }
        if self.wk == 0 || self.cg < self.wk {
            return field("cg", "Wk is 1 or more and Cg at least Wk");
        }
        if self.ht == 0 {
            return field("ht", "a model's height is 1 or more");
        }
        match self.station {
            Station::Master if self.cache.is_none() || self.cost.is_some() => {
                return field("cache", "a master has a soulstone cache and no cost");
            }
            Station::Henchman | Station::Minion | Station::Totem
                if self.cost.is_none() || self.cache.is_some() =>
            {
                return field(
                    "cost",
                    "a model other than a master has a cost and no cache",
                );
            }
            _ => {}
        }
        if (self.station == Station::Totem) != self.totem_of.is_some() {
            return field("totem_of", "a totem, and only a totem, names its master");
        }
        if self.rare == Some(0) {
            return field("rare", "rare is 1 or more");
        }
        if self.is(Characteristic::Unique) && self.rare.is_some() {
            return field("rare", "a unique model is not also rare");
        }
        if self.weapons.is_empty() {
            return field("weapons", "a model has at least one basic weapon");
        }
        for (i, weapon) in self.weapons.iter().enumerate() {
            if let Some(problem) = weapon.damage.problem() {
                return Some((format!("weapons[{i}].damage"), problem));
            }
            if weapon.kind == WeaponKind::Melee && weapon.rg > 3 {
                return Some((
                    format!("weapons[{i}].rg"),
                    "a melee weapon reaches 3\" at most".into(),
                ));
            }
            if let Some(problem) =
                trigger_problem(&weapon.triggers, &[TriggerStat::Cb, TriggerStat::Df])
            {
                return Some((format!("weapons[{i}].triggers"), problem));
            }
        }
        for (i, ability) in self.abilities.iter().enumerate() {
            if let Some(problem) = ability.problem() {
                return Some((format!("abilities[{i}]"), problem));
            }
        }
        if !self.spells.is_empty() && self.ca == 0 {
            return field("ca", "a model with spells has a Ca");
        }
        for (i, spell) in self.spells.iter().enumerate() {
            if spell.ap > 2 {
                return Some((
                    format!("spells[{i}].ap"),
                    "a spell takes 0, 1 or 2 action points".into(),
                ));
            }
            if spell.effects.is_empty() {
                return Some((
                    format!("spells[{i}].effects"),
                    "a spell does something".into(),
                ));
            }
            for effect in &spell.effects {
                let problem = match effect {
                    SpellEffect::Damage { damage } => damage.problem(),
                    SpellEffect::Condition { condition, .. } => unnamed(condition),
                    _ => None,
                };
                if let Some(problem) = problem {
                    return Some((format!("spells[{i}].effects"), problem));
                }
            }
            if let Some(problem) = trigger_problem(&spell.triggers, &[TriggerStat::Ca]) {
                return Some((format!("spells[{i}].triggers"), problem));
            }
        }
        None
    }
}

fn unnamed(condition: &str) -> Option<String> {
    condition
        .trim()
        .is_empty()
        .then(|| "a condition has a name".to_owned())
}

fn trigger_problem(triggers: &[Trigger], stats: &[TriggerStat]) -> Option<String> {
    triggers.iter().find_map(|t| {
        if let TriggerEffect::Condition { condition, .. } = &t.does
            && let Some(problem) = unnamed(condition)
        {
            Some(problem)
        } else if !(1..=3).contains(&t.suits.len()) {
            Some(format!("{} needs one to three suits", t.name))
        } else if !stats.contains(&t.stat) {
            Some(format!(
                "{} is declared on a stat this duel does not use",
                t.name
            ))
        } else {
            None
        }
    })
}
