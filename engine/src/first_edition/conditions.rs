//! The 1st edition's condition book: what each condition a card names
//! does, as content (`content/m1e/conditions.toml`), so the rules code names
//! none of them, as the other editions' tokens are kept.

use serde::{Deserialize, Serialize};

use crate::content::{ContentError, line_of_field, parse_toml};

/// How long a condition lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Lasting {
    /// Until the end of the model's current activation, if it gained it
    /// during one, or else its next (the general action modifiers).
    ThisOrNextActivation,
    /// A count of counters: one is spent at each of the model's
    /// activations, after it has done its harm.
    Counters,
}

/// One condition's effects, in building blocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConditionRule {
    /// The name cards give (lower case).
    pub name: String,
    pub lasting: Lasting,
    /// Added to the model's general action points while it lasts.
    #[serde(default)]
    pub general_ap: i8,
    /// No action points at all, no melee range, no triggers.
    #[serde(default)]
    pub halts: bool,
    /// At the start of each activation the model suffers a wound for each
    /// counter it holds.
    #[serde(default)]
    pub wounds_per_counter: bool,
    /// A summoned model gains it as it arrives.
    #[serde(default)]
    pub on_summon: bool,
    /// Gaining this condition removes that one instead (the two negate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancels: Option<String>,
}

/// Every condition by name.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConditionBook {
    pub conditions: Vec<ConditionRule>,
}

impl ConditionBook {
    pub fn rule(&self, name: &str) -> Option<&ConditionRule> {
        self.conditions.iter().find(|c| c.name == name)
    }

    /// Reads the book, or every problem with its file, line and field.
    pub fn load(file: &str, text: &str) -> Result<ConditionBook, Vec<ContentError>> {
        let book: ConditionBook = parse_toml(file, text).map_err(|e| vec![e])?;
        let mut errors = Vec::new();
        for (i, rule) in book.conditions.iter().enumerate() {
            let mut problem = |field: &str, message: String| {
                let field = format!("conditions[{i}].{field}");
                errors.push(ContentError {
                    file: file.to_owned(),
                    line: line_of_field(text, &field),
                    field,
                    message,
                });
            };
            if rule.name.is_empty() || rule.name != rule.name.to_lowercase() {
                problem("name", "a condition's name is lower case".into());
            }
            if book.conditions[..i].iter().any(|c| c.name == rule.name) {
                problem("name", format!("{} is named twice", rule.name));
            }
            if let Some(other) = &rule.cancels
                && book.rule(other).is_none()
            {
                problem("cancels", format!("{other} is no condition of the book"));
            }
            if rule.general_ap.abs() > 2 {
                problem("general_ap", "a condition adds or takes at most 2".into());
            }
        }
        if errors.is_empty() {
            Ok(book)
        } else {
            Err(errors)
        }
    }

    /// A card's condition names that the book does not hold.
    pub fn missing<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut missing: Vec<String> = names
            .into_iter()
            .filter(|n| self.rule(n).is_none())
            .map(str::to_owned)
            .collect();
        missing.sort();
        missing.dedup();
        missing
    }
}

/// The JSON schema of the condition book.
pub fn condition_book_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(ConditionBook)).unwrap_or_default()
}
