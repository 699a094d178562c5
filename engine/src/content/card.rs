//! The stat card format: one TOML file per model (`docs/content.md`). Both
//! editions share it; fields that only one edition prints are optional and
//! checked against the card's edition.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::crew_card::CrewCard;
use crate::Edition;
use crate::ability::{Ability, AbilityEffect, AbilityWindow};
use crate::duel::{ActionKind, DamageProfile, Stat, Suits, TriggerEffect, TriggerSpec};
use crate::fate::Suit;
use crate::model::{ActionCard, ActionEffect, ModelCard, TargetRestriction};
use crate::rules::{DamageRule, SpeedStat};
use crate::table::BaseMm;
use crate::token::Condition;

/// A model's station.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Station {
    Master,
    /// 3rd edition (in 4th edition Henchman is a characteristic).
    Henchman,
    /// 3rd edition.
    Enforcer,
    Minion,
    /// 4th edition.
    Peon,
}

/// Characteristics a stat card lists besides its station.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Characteristic {
    Unique,
    /// 4th edition: a henchman (a characteristic, not a station).
    Henchman,
    /// Hired with its master (see `totem_of`).
    Totem,
    /// Hired out of keyword without the extra cost.
    Versatile,
    /// Hired only when allied with the leader (sharing a keyword).
    Loyal,
    Living,
    Undead,
    Construct,
    Beast,
    Spirit,
}

pub use crate::model::OncePer;

/// The 3rd edition markers a killed model drops (`content/m3e/markers.toml`).
pub const CORPSE_MARKER: &str = "Corpse Marker";
pub const SCRAP_MARKER: &str = "Scrap Marker";

pub use crate::duel::TriggerTiming;

/// What a trigger does, from the engine's building blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TriggerDoes {
    /// After succeeding, this model attaches the upgrade the action's own
    /// `attach_upgrade` effect names.
    AttachActionsUpgradeToThisModel,
    /// More damage on this action (additive).
    AddDamage { amount: u8 },
    /// A separate damage instance to the target.
    InstanceDamage { amount: u8 },
    /// The raise value of this duel becomes this.
    SetRaiseValue { value: u8 },
    /// The attacker's crew infuses a soulstone if the target is killed.
    InfuseOnKill,
    /// The target gains this token.
    TargetGainsToken { token: crate::model::Token },
    /// The model takes this action again against the same target once the
    /// action has resolved: an additional action, outside its limit.
    TakeActionAgain,
    /// The model takes this action again against a model its controller
    /// picks, any but the one it just targeted ("a different model").
    TakeActionAgainAtDifferentModel,
    /// The target declares an action of its card, chosen by the acting
    /// crew and under its control (a master or a leader cannot be).
    TargetTakesAction,
    /// After succeeding, another model within `within` inches of the
    /// target (any but this model, the target included), picked by this
    /// model's player, heals `amount`.
    AnotherModelHeals { amount: u8, within: u8 },
    /// After succeeding, the target is pushed `inches` directly away from
    /// this model.
    PushTargetAway { inches: u8 },
    /// After succeeding, this model is placed anywhere within `inches` of
    /// where it stands, picked by its player; then, with
    /// `then_may_declare`, it may declare an action of that kind
    /// ("melee") as an additional action.
    PlaceThisModel {
        inches: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        then_may_declare: Option<crate::duel::ActionKind>,
    },
    /// After succeeding, this model is placed in base contact with an enemy
    /// model within `within` inches, picked by its player, and then takes
    /// this action again against that model, as an additional action.
    Pounce { within: u8 },
    /// Described in its text; the engine does not resolve it yet.
    Described,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TriggerDef {
    pub name: String,
    /// The suit the total must include (none for a soulstone trigger).
    #[serde(default)]
    pub suit: Option<Suit>,
    /// Soulstones drained to declare it.
    #[serde(default)]
    pub soulstones: u8,
    #[serde(default)]
    pub timing: TriggerTiming,
    pub does: TriggerDoes,
    /// Its own targeting restrictions, which the action's target must meet.
    #[serde(default)]
    pub targets: Vec<TargetRestriction>,
    /// The trigger in our own words.
    #[serde(default)]
    pub text: String,
}

impl ActionDef {
    /// What the rules check beyond the shape of the action, for a card of
    /// `edition`: (field relative to the action, problem).
    pub fn problems(&self, edition: Edition) -> Vec<(String, String)> {
        let mut problems: Vec<(String, String)> = Vec::new();
        let rules = edition.rules();
        match (rules.duel.damage, self.damage) {
            (DamageRule::Fixed, Some(DamageDef::Flip { .. })) => problems.push((
                "damage".to_string(),
                "4th edition damage is a number".into(),
            )),
            (DamageRule::Flip, Some(DamageDef::Fixed(_))) => problems.push((
                "damage".to_string(),
                "3rd edition damage is weak, moderate and severe".into(),
            )),
            _ => {}
        }
        if self
            .triggers
            .iter()
            .any(|t| t.does == TriggerDoes::AttachActionsUpgradeToThisModel)
            && !self
                .after_succeeding
                .iter()
                .any(|e| matches!(e, ActionEffect::AttachUpgrade { .. }))
        {
            problems.push((
                "triggers".into(),
                "a trigger that attaches the action's upgrade needs the action's attach_upgrade effect".into(),
            ));
        }
        // Each of these waits on a player once the action succeeded.
        let waiting = self
            .after_succeeding
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    ActionEffect::PlaceThisModel { .. }
                        | ActionEffect::PlaceTarget { .. }
                        | ActionEffect::ReplaceThisModel { .. }
                        | ActionEffect::KillTarget { .. }
                        | ActionEffect::DrawFromDiscard { .. }
                )
            })
            .count();
        if waiting > 1 {
            problems.push((
                "after_succeeding".to_string(),
                "at most one of place_this_model, place_target, replace_this_model, kill_target and draw_from_discard (each waits on a player)".into(),
            ));
        }
        let summons = !self.summons.is_empty();
        // A trigger that places waits on a player too, after the
        // action's own effects.
        for (t, trigger) in self.triggers.iter().enumerate() {
            let places = matches!(
                trigger.does,
                TriggerDoes::PlaceThisModel { .. } | TriggerDoes::Pounce { .. }
            );
            if places && (waiting > 0 || summons) {
                problems.push((
                    format!("triggers[{t}].does"),
                    "a trigger that places this model cannot be on an action that already places, replaces, kills or summons".into(),
                ));
            }
        }
        let summoning_extras = self.resist.is_some()
            || self.tn.is_some()
            || self.range != 0
            || self.damage.is_some()
            || !self.after_succeeding.is_empty();
        if summons && summoning_extras {
            problems.push((
                "summons".to_string(),
                "a summoning action is a simple duel of the model alone against the summoned model's STN: range 0, and no resist, tn, damage or after_succeeding".into(),
            ));
        }
        if self.resist.is_none() && self.tn.is_none() && !summons {
            problems.push((
                "tn".to_string(),
                "a tactical action (no resist) needs a TN".into(),
            ));
        }
        if self.signature && !rules.content.signature_actions {
            problems.push((
                "signature".to_string(),
                "signature actions are 4th edition".into(),
            ));
        }
        if self.bonus && !rules.content.bonus_actions {
            problems.push(("bonus".to_string(), "bonus actions are 3rd edition".into()));
        }
        for (t, trigger) in self.triggers.iter().enumerate() {
            if trigger.suit.is_none() && trigger.soulstones == 0 {
                problems.push((
                    format!("triggers[{t}].suit"),
                    "a trigger needs a suit or a soulstone cost".into(),
                ));
            }
        }
        problems
    }

    /// The engine's definition of this action.
    pub fn action_card(&self) -> ActionCard {
        ActionCard {
            name: self.name.as_str().into(),
            kind: self.kind,
            range: self.range,
            skill: self.skill,
            skill_suits: self.skill_suit.map_or(Suits::none(), Suits::of),
            resist: self.resist,
            tn: self.tn,
            tn_suits: self.tn_suits.iter().fold(Suits::none(), |s, x| s.with(*x)),
            damage: match self.damage {
                None => DamageProfile::None,
                Some(DamageDef::Fixed(amount)) => DamageProfile::Fixed { amount },
                Some(DamageDef::Flip {
                    weak,
                    moderate,
                    severe,
                }) => DamageProfile::Flip {
                    weak,
                    moderate,
                    severe,
                    blasts: [0; 3],
                },
            },
            irreducible: self.irreducible,
            ignores: self.ignores.clone(),
            triggers: self
                .triggers
                .iter()
                .map(|trigger| TriggerSpec {
                    name: trigger.name.clone(),
                    suits: trigger.suit.map_or(Suits::none(), Suits::of),
                    soulstones: trigger.soulstones,
                    timing: trigger.timing,
                    effect: match trigger.does {
                        TriggerDoes::AddDamage { amount } => TriggerEffect::AddDamage { amount },
                        TriggerDoes::InstanceDamage { amount } => {
                            TriggerEffect::InstanceDamage { amount }
                        }
                        TriggerDoes::SetRaiseValue { value } => {
                            TriggerEffect::SetRaiseValue { value }
                        }
                        TriggerDoes::InfuseOnKill => TriggerEffect::InfuseOnKill,
                        TriggerDoes::TargetGainsToken { token } => {
                            TriggerEffect::TargetGainsToken { token }
                        }
                        TriggerDoes::TakeActionAgain => TriggerEffect::TakeActionAgain,
                        TriggerDoes::TakeActionAgainAtDifferentModel => {
                            TriggerEffect::TakeActionAgainAtDifferentModel
                        }
                        TriggerDoes::TargetTakesAction => TriggerEffect::TargetTakesAction,
                        TriggerDoes::AnotherModelHeals { amount, within } => {
                            TriggerEffect::AnotherModelHeals { amount, within }
                        }
                        TriggerDoes::PushTargetAway { inches } => {
                            TriggerEffect::PushTargetAway { inches }
                        }
                        TriggerDoes::PlaceThisModel {
                            inches,
                            then_may_declare,
                        } => TriggerEffect::PlaceThisModel {
                            inches,
                            then_may_declare,
                        },
                        TriggerDoes::Pounce { within } => TriggerEffect::Pounce { within },
                        TriggerDoes::AttachActionsUpgradeToThisModel => {
                            TriggerEffect::AttachActionsUpgradeToThisModel
                        }
                        TriggerDoes::Described => TriggerEffect::Other,
                    },
                    targets: trigger.targets.clone(),
                })
                .collect(),
            after_succeeding: self.after_succeeding.clone(),
            signature: self.signature,
            bonus: self.bonus,
            once_per: self.once_per,
            soulstones: self.soulstones,
            ignores_line_of_sight: self.ignores_line_of_sight,
            summons: self.summons.iter().map(|n| n.as_str().into()).collect(),
            targets: self.targets.clone(),
            damages_enemies_touching: self.damages_enemies_touching.clone(),
        }
    }
}

/// An action's damage: a number in 4th edition, weak/moderate/severe in 3rd.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DamageDef {
    Fixed(u8),
    Flip { weak: u8, moderate: u8, severe: u8 },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionDef {
    pub name: String,
    pub kind: ActionKind,
    /// Range in inches (0: the model itself).
    pub range: u8,
    pub skill: i16,
    #[serde(default)]
    pub skill_suit: Option<Suit>,
    /// The stat the target resists with (an attack); none for a tactical action.
    #[serde(default)]
    pub resist: Option<Stat>,
    #[serde(default)]
    pub tn: Option<i16>,
    #[serde(default)]
    pub tn_suits: Vec<Suit>,
    #[serde(default)]
    pub damage: Option<DamageDef>,
    #[serde(default)]
    pub irreducible: bool,
    /// Defensive categories its damage ignores (physical, magical,
    /// unusual): abilities of those categories do not reduce it.
    #[serde(default)]
    pub ignores: Vec<crate::model::Defense>,
    /// 4th edition signature action (once per activation, past the limit).
    #[serde(default)]
    pub signature: bool,
    /// 3rd edition bonus action.
    #[serde(default)]
    pub bonus: bool,
    /// Soulstones drained to declare it.
    #[serde(default)]
    pub soulstones: u8,
    #[serde(default)]
    pub once_per: Option<OncePer>,
    /// It does not need line of sight to its target.
    #[serde(default)]
    pub ignores_line_of_sight: bool,
    /// A cost printed in italics, in our words ("discard a card").
    #[serde(default)]
    pub cost_text: String,
    #[serde(default)]
    pub after_succeeding: Vec<ActionEffect>,
    #[serde(default)]
    pub triggers: Vec<TriggerDef>,
    /// Models (full names) it summons: a simple duel whose total picks a
    /// model with a summon target number at most that high (`summon_tn`).
    #[serde(default)]
    pub summons: Vec<String>,
    /// Printed targeting restrictions ("enemy", "ally", "other",
    /// "non_leader", "unique", "non_unique", `{ only = "Keyword" }`).
    #[serde(default)]
    pub targets: Vec<TargetRestriction>,
    /// Its damage goes to every enemy model touching a marker of this name
    /// (an action with no target).
    #[serde(default)]
    pub damages_enemies_touching: Option<String>,
    /// The action's effect in our own words.
    #[serde(default)]
    pub text: String,
}

/// An ability: its text in our own words and, when the engine resolves
/// it, the building blocks it is made of (`docs/content.md`, "Abilities").
/// An ability with no window is described only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AbilityDef {
    pub name: String,
    pub text: String,
    #[serde(default)]
    pub window: Option<AbilityWindow>,
    #[serde(default)]
    pub when: Condition,
    #[serde(default)]
    pub effects: Vec<AbilityEffect>,
    /// "Once per activation", "turn" or "game": the model uses it at most
    /// that often.
    #[serde(default)]
    pub once_per: Option<OncePer>,
    /// Its defensive category (physical, magical or unusual), which an
    /// action may ignore.
    #[serde(default)]
    pub defense: Option<crate::model::Defense>,
}

impl AbilityDef {
    /// What is wrong with the ability's building blocks: (field, problem),
    /// the field relative to the ability.
    pub fn problems(&self) -> Vec<(String, String)> {
        let mut problems = Vec::new();
        match self.window {
            None if !self.effects.is_empty() => problems.push((
                "window".to_string(),
                "an ability with effects needs the window it acts at".to_string(),
            )),
            Some(_) if self.effects.is_empty() => problems.push((
                "effects".to_string(),
                "an ability with a window needs at least one effect".to_string(),
            )),
            _ => {}
        }
        if let Some(window) = self.window
            && let Some((e, effect)) = self
                .effects
                .iter()
                .enumerate()
                .find(|(_, effect)| !effect.fits(window))
        {
            problems.push((
                format!("effects[{e}]"),
                format!("{effect:?} does not act at {window:?}"),
            ));
        }
        // The engine reads a category where damage is reduced; elsewhere
        // it would be ignored without a word.
        if self.defense.is_some() && self.window != Some(AbilityWindow::ReducingDamage) {
            problems.push((
                "defense".to_string(),
                "a defensive category is read on abilities that reduce damage (window reducing_damage)".to_string(),
            ));
        }
        problems
    }

    /// The engine's ability, if the engine resolves it (it has a window).
    pub fn ability(&self) -> Option<Ability> {
        Some(Ability {
            name: self.name.clone(),
            window: self.window?,
            when: self.when,
            effects: self.effects.clone(),
            once_per: self.once_per,
            defense: self.defense,
        })
    }
}

/// One stat card, as a content file holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatCard {
    pub edition: Edition,
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    pub station: Station,
    /// The model limit printed after the station (Minion (3)); 1 when none.
    #[serde(default)]
    pub limit: Option<u8>,
    #[serde(default)]
    pub characteristics: Vec<Characteristic>,
    /// For a totem: the master it belongs to.
    #[serde(default)]
    pub totem_of: Option<String>,
    pub factions: Vec<String>,
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Soulstones to hire; none ("-") for masters.
    #[serde(default)]
    pub cost: Option<u8>,
    /// Base diameter in millimetres.
    pub base: u16,
    pub df: i16,
    pub wp: i16,
    pub sz: u8,
    /// 4th edition speed.
    #[serde(default)]
    pub sp: Option<u8>,
    /// 3rd edition move.
    #[serde(default)]
    pub mv: Option<u8>,
    pub health: u16,
    /// 4th edition: the health track ends in a soulstone (infused when killed).
    #[serde(default)]
    pub soulstone_on_death: bool,
    /// 3rd edition: may use soulstones.
    #[serde(default)]
    pub soulstone_user: bool,
    /// 3rd edition: the Insignificant ability (strategies and schemes
    /// ignore the model in every way).
    #[serde(default)]
    pub insignificant: bool,
    /// 4th edition: a master's crew card (by name), which a crew it leads
    /// brings along (`content/m4e/crew-cards/`).
    #[serde(default)]
    pub crew_card: Option<String>,
    #[serde(default)]
    pub abilities: Vec<AbilityDef>,
    #[serde(default)]
    pub actions: Vec<ActionDef>,
    /// Its summon target number (STN), if an action may summon it.
    #[serde(default)]
    pub summon_tn: Option<u8>,
}

impl StatCard {
    /// The markers the model drops when killed: in 3rd edition a Corpse
    /// Marker if it is living, undead or a beast, or else a Scrap Marker if
    /// it is a construct (4th edition leaves its remains by other rules).
    /// A model that would drop both drops one, its controller's choice: the
    /// engine drops the Corpse Marker.
    pub fn remains_markers(&self) -> Vec<String> {
        if !self.edition.rules().content.remains_by_characteristic {
            return Vec::new();
        }
        let corpse = [
            Characteristic::Living,
            Characteristic::Undead,
            Characteristic::Beast,
        ]
        .into_iter()
        .any(|c| self.has(c));
        if corpse {
            vec![CORPSE_MARKER.to_string()]
        } else if self.has(Characteristic::Construct) {
            vec![SCRAP_MARKER.to_string()]
        } else {
            Vec::new()
        }
    }

    /// The cost schemes read: a model without one counts 10 if a master,
    /// 5 if a totem, otherwise 0.
    pub fn scheme_cost(&self) -> u8 {
        match self.cost {
            Some(cost) => cost,
            None if self.station == Station::Master => 10,
            None if self.has(Characteristic::Totem) => 5,
            None => 0,
        }
    }

    /// The name and title a crew list writes ("Name, Title" or "Name").
    pub fn full_name(&self) -> String {
        match &self.title {
            Some(title) => format!("{}, {title}", self.name),
            None => self.name.clone(),
        }
    }

    pub fn has(&self, characteristic: Characteristic) -> bool {
        self.characteristics.contains(&characteristic)
    }

    /// How many of this model a crew may hire.
    pub fn model_limit(&self) -> u8 {
        if self.has(Characteristic::Unique) || self.station == Station::Master {
            1
        } else {
            self.limit.unwrap_or(1)
        }
    }

    /// What the rules check beyond the shape of the file: (field, problem).
    pub fn problems(&self) -> Vec<(String, String)> {
        let mut problems = Vec::new();
        let mut problem = |field: &str, message: &str| {
            problems.push((field.to_string(), message.to_string()));
        };
        if self.name.trim().is_empty() {
            problem("name", "a card needs a name");
        }
        if self.factions.is_empty() {
            problem("factions", "a card names at least one faction");
        }
        let format = &self.edition.rules().content;
        match (format.peons, self.station) {
            (true, Station::Henchman | Station::Enforcer) => problem(
                "station",
                "4th edition stations are master, minion and peon (henchman is a characteristic)",
            ),
            (false, Station::Peon) => problem("station", "3rd edition has no peons"),
            _ => {}
        }
        if self.station == Station::Master && self.cost.is_some() {
            problem("cost", "a master has no cost");
        }
        if self.station != Station::Master && self.cost.is_none() {
            problem("cost", "every model but a master has a cost");
        }
        if self.crew_card.is_some() && self.station != Station::Master {
            problem("crew_card", "only a master brings a crew card");
        }
        if self.crew_card.is_some() && !format.crew_cards {
            problem("crew_card", "crew cards are a 4th edition rule");
        }
        if self.has(Characteristic::Totem) != self.totem_of.is_some() {
            problem(
                "totem_of",
                "a totem names its master, and only a totem does",
            );
        }
        if format.speed == SpeedStat::Sp && self.sp.is_none() {
            problem("sp", "a 4th edition card has Sp");
        }
        if !format.insignificant && self.insignificant {
            problem(
                "insignificant",
                "Insignificant is a 3rd edition ability (4th edition has peons)",
            );
        }
        if format.speed == SpeedStat::Mv && self.mv.is_none() {
            problem("mv", "a 3rd edition card has Mv");
        }
        if self.health == 0 {
            problem("health", "health is at least 1");
        }
        if !(0..=20).contains(&self.df) || !(0..=20).contains(&self.wp) {
            problem("df", "Df and Wp are between 0 and 20");
        }
        if !format.soulstone_on_death && self.soulstone_on_death {
            problem(
                "soulstone_on_death",
                "3rd edition health tracks have no soulstone",
            );
        }
        for (index, ability) in self.abilities.iter().enumerate() {
            let field = |name: &str| format!("abilities[{index}].{name}");
            if self.abilities[..index]
                .iter()
                .any(|a| a.name == ability.name)
            {
                problems.push((
                    field("name"),
                    format!("two abilities called {}", ability.name),
                ));
            }
            for (field, message) in ability.problems() {
                problems.push((format!("abilities[{index}].{field}"), message));
            }
        }
        for (index, action) in self.actions.iter().enumerate() {
            for (field, message) in action.problems(self.edition) {
                problems.push((format!("actions[{index}].{field}"), message));
            }
        }
        problems
    }

    /// The engine's definition of this model.
    pub fn model_card(&self) -> Arc<ModelCard> {
        self.model_card_in_crew(None)
    }

    /// The engine's definition of this model in a crew whose crew card is
    /// `crew_card`: the abilities it grants the model's keywords count as
    /// printed on the card, after the card's own.
    pub fn model_card_in_crew(&self, crew_card: Option<&CrewCard>) -> Arc<ModelCard> {
        let actions = self.actions.iter().map(ActionDef::action_card).collect();
        Arc::new(ModelCard {
            name: self.full_name().into(),
            df: self.df,
            wp: self.wp,
            sz: self.sz,
            base: BaseMm(self.base),
            max_health: self.health,
            soulstone_user: self.soulstone_user
                || (self.edition.rules().content.non_peons_use_soulstones
                    && self.station != Station::Peon),
            infuses_on_death: self.soulstone_on_death,
            peon: self.station == Station::Peon,
            insignificant: self.insignificant,
            master: self.station == Station::Master,
            unique: self.has(Characteristic::Unique) || self.station == Station::Master,
            totem: self.has(Characteristic::Totem),
            henchman: self.has(Characteristic::Henchman) || self.station == Station::Henchman,
            minion: matches!(self.station, Station::Minion | Station::Peon),
            cost: self.scheme_cost(),
            speed: self.sp.or(self.mv).unwrap_or(5),
            reductions: Vec::new(),
            demise: None,
            rebirth_health: None,
            rebirth_beside: None,
            keywords: self.keywords.clone(),
            remains_markers: self.remains_markers(),
            abilities: self
                .abilities
                .iter()
                .chain(
                    crew_card
                        .into_iter()
                        .flat_map(|card| card.abilities_for(&self.keywords)),
                )
                .filter_map(AbilityDef::ability)
                .collect(),
            actions,
            summon_tn: self.summon_tn,
            model_limit: self.model_limit(),
        })
    }
}
