//! Crew cards (4th edition): the card a master's title brings to its crew.
//! It names its master, and gives the crew's models of a keyword abilities
//! that count as printed on their own cards. One file per crew card under
//! `content/<edition>/crew-cards/`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::card::AbilityDef;
use crate::Edition;

/// One crew card, as a content file holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrewCard {
    pub edition: Edition,
    pub name: String,
    /// The master (name and title, as a crew list writes it) whose card
    /// names this crew card.
    pub master: String,
    /// The crew card in our own words.
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub grants: Vec<Grant>,
}

/// Abilities the crew card gives every model of the crew with `keyword`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Grant {
    pub keyword: String,
    pub abilities: Vec<AbilityDef>,
}

impl CrewCard {
    /// What the rules check beyond the shape of the file: (field, problem).
    pub fn problems(&self) -> Vec<(String, String)> {
        let mut problems = Vec::new();
        if !self.edition.rules().content.crew_cards {
            problems.push((
                "edition".to_string(),
                "crew cards are a 4th edition rule".to_string(),
            ));
        }
        if self.name.trim().is_empty() {
            problems.push(("name".into(), "a crew card needs a name".into()));
        }
        for (g, grant) in self.grants.iter().enumerate() {
            if grant.abilities.is_empty() {
                problems.push((
                    format!("grants[{g}].abilities"),
                    "a grant gives at least one ability".into(),
                ));
            }
            for (a, ability) in grant.abilities.iter().enumerate() {
                for (field, message) in ability.problems() {
                    problems.push((format!("grants[{g}].abilities[{a}].{field}"), message));
                }
            }
        }
        problems
    }

    /// The abilities a model with `keywords` gains from this card.
    pub fn abilities_for<'a>(
        &'a self,
        keywords: &'a [String],
    ) -> impl Iterator<Item = &'a AbilityDef> + 'a {
        self.grants
            .iter()
            .filter(|grant| keywords.contains(&grant.keyword))
            .flat_map(|grant| grant.abilities.iter())
    }
}
