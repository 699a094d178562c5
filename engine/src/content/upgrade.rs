//! Upgrade cards as content: written in an edition file as `[[upgrade]]`
//! (`docs/content.md`), checked on load, and turned into the engine's
//! [`UpgradeCard`] for a game. A 3rd edition crew buys them at hiring
//! (M3E Upgrade Cards, lines 1277 to 1306, and Hire Crew, line 2851); in
//! 4th edition they are only attached during the game (M4E line 1559).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::card::{AbilityDef, ActionDef};
use crate::Edition;
use crate::model::{UpgradeCard, UpgradeFace};

/// One upgrade card of an edition's content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpgradeDef {
    pub name: String,
    /// What it does, in our own words.
    pub text: String,
    /// Soulstones to hire it (3rd edition). None for an upgrade only
    /// attached during the game.
    #[serde(default)]
    pub cost: Option<u8>,
    /// The factions whose crews may hire it (M3E line 1287).
    #[serde(default)]
    pub factions: Vec<String>,
    /// Restricted: the model must have each of these as its name or a
    /// keyword to attach it.
    #[serde(default)]
    pub restricted: Vec<String>,
    /// Plentiful (X): a crew may possess up to X copies (default 1).
    #[serde(default)]
    pub plentiful: Option<u8>,
    /// Special: never hired, only attached during the game by an action or
    /// ability (M3E line 1294).
    #[serde(default)]
    pub special: bool,
    /// Its type, which effects may name.
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub abilities: Vec<AbilityDef>,
    #[serde(default)]
    pub actions: Vec<ActionDef>,
}

impl UpgradeDef {
    /// Whether a crew may buy it while hiring.
    pub fn hireable(&self) -> bool {
        self.cost.is_some() && !self.special
    }

    /// What the rules check beyond the shape of the card, for an upgrade of
    /// `edition`: (field, problem).
    pub fn problems(&self, edition: Edition) -> Vec<(String, String)> {
        let mut problems: Vec<(String, String)> = Vec::new();
        let mut problem = |field: &str, message: &str| {
            problems.push((field.to_string(), message.to_string()));
        };
        if self.name.trim().is_empty() || self.name.contains('/') {
            problem("name", "an upgrade needs a name, without a \"/\"");
        }
        if self.plentiful == Some(0) {
            problem("plentiful", "Plentiful allows at least 1 copy");
        }
        match (
            edition.rules().content.hiring.upgrades_hired,
            self.cost,
            self.special,
        ) {
            (false, Some(_), _) => problem(
                "cost",
                "4th edition crews hire no upgrades: they are attached during the game (M4E line 1559), so they have no cost",
            ),
            (true, Some(_), true) => problem(
                "cost",
                "a Special upgrade is never hired, so it has no cost",
            ),
            (true, None, false) => problem(
                "cost",
                "a 3rd edition upgrade has a cost, unless it is special",
            ),
            _ => {}
        }
        if self.hireable() && self.factions.is_empty() {
            problem(
                "factions",
                "an upgrade crews hire names the factions that may hire it",
            );
        }
        if self.abilities.is_empty() && self.actions.is_empty() {
            problem("abilities", "an upgrade gives an ability or an action");
        }
        for (index, ability) in self.abilities.iter().enumerate() {
            for (field, message) in ability.problems() {
                problems.push((format!("abilities[{index}].{field}"), message));
            }
        }
        for (index, action) in self.actions.iter().enumerate() {
            for (field, message) in action.problems(edition) {
                problems.push((format!("actions[{index}].{field}"), message));
            }
        }
        problems
    }

    /// Its one face, as the engine plays it: its abilities and actions.
    pub fn face(&self) -> UpgradeFace {
        UpgradeFace {
            name: self.name.clone(),
            abilities: self
                .abilities
                .iter()
                .filter_map(AbilityDef::ability)
                .collect(),
            actions: self.actions.iter().map(ActionDef::action_card).collect(),
        }
    }

    /// The engine's card: one face, giving its abilities and actions.
    pub fn upgrade_card(&self) -> UpgradeCard {
        UpgradeCard {
            faces: vec![self.face()],
            plentiful: self.plentiful,
            restricted: self.restricted.clone(),
            kind: self.kind.clone(),
        }
    }
}
