//! 1st edition content from text (the engine opens no files): model files
//! (`content/m1e/models/*.toml`, `[[models]]` tables) and ready crews
//! (`content/m1e/crews/*.toml`). Every problem is kept with its file, line
//! and field, and a set with any problem is refused whole.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::card::ModelCard;
use super::crew::{Crew, CrewList};
use crate::content::{ContentError, line_of_field, parse_toml};

/// A model file.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelFile {
    pub models: Vec<ModelCard>,
}

/// Every model by name, and the ready crews (each hires legally).
#[derive(Debug, Clone, Default)]
pub struct Book {
    models: BTreeMap<String, ModelCard>,
    crews: Vec<CrewList>,
}

impl Book {
    pub fn model(&self, name: &str) -> Option<&ModelCard> {
        self.models.get(name)
    }

    pub fn models(&self) -> impl Iterator<Item = &ModelCard> {
        self.models.values()
    }

    pub fn crews(&self) -> &[CrewList] {
        &self.crews
    }

    /// The crew `list` hires from this book's models, or its problems in
    /// words.
    pub fn hire(&self, list: &CrewList) -> Result<Crew, Vec<String>> {
        list.hire(|name| self.model(name)).map_err(|problems| {
            problems
                .into_iter()
                .map(|(field, message)| format!("{field}: {message}"))
                .collect()
        })
    }

    /// Reads a crew list a player wrote in the crew file format (whether
    /// it hires is [`Book::hire`]'s to say).
    pub fn read_crew(file: &str, text: &str) -> Result<CrewList, ContentError> {
        parse_toml(file, text)
    }

    /// Reads model files and crew files, (file name, text) each.
    pub fn load<'a>(
        model_files: impl IntoIterator<Item = (&'a str, &'a str)>,
        crew_files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Book, Vec<ContentError>> {
        let mut book = Book::default();
        let mut errors = Vec::new();
        let mut origin: BTreeMap<String, String> = BTreeMap::new();
        for (file, text) in model_files {
            let parsed: ModelFile = match parse_toml(file, text) {
                Ok(parsed) => parsed,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            for (i, card) in parsed.models.into_iter().enumerate() {
                let at = |field: &str, message: String| {
                    let field = if field.is_empty() {
                        format!("models[{i}]")
                    } else {
                        format!("models[{i}].{field}")
                    };
                    ContentError {
                        file: file.to_owned(),
                        line: line_of_field(text, &field),
                        field,
                        message,
                    }
                };
                if let Some((field, message)) = card.problem() {
                    errors.push(at(&field, message));
                    continue;
                }
                if let Some(first) = origin.get(&card.name) {
                    errors.push(at(
                        "name",
                        format!("{} is also a model of {first}", card.name),
                    ));
                    continue;
                }
                origin.insert(card.name.clone(), file.to_owned());
                book.models.insert(card.name.clone(), card);
            }
        }
        // A totem's master, and a summoned model, are models of the book.
        for card in book.models.values() {
            let missing = card
                .totem_of
                .iter()
                .chain(card.spells.iter().flat_map(|s| {
                    s.effects.iter().filter_map(|e| match e {
                        super::card::SpellEffect::Summon { model } => Some(model),
                        _ => None,
                    })
                }))
                .find(|name| !book.models.contains_key(*name));
            if let Some(name) = missing {
                let file = origin.get(&card.name).cloned().unwrap_or_default();
                errors.push(ContentError {
                    file,
                    line: None,
                    field: String::new(),
                    message: format!("{} names {name}, which is no model", card.name),
                });
            }
        }
        for (file, text) in crew_files {
            let list: CrewList = match parse_toml(file, text) {
                Ok(list) => list,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            match list.hire(|name| book.model(name)) {
                Ok(_) => book.crews.push(list),
                Err(problems) => errors.extend(problems.into_iter().map(|(field, message)| {
                    // `hires[2]` is on the line of `hires`.
                    let key = field.split('[').next().unwrap_or(&field);
                    ContentError {
                        file: file.to_owned(),
                        line: line_of_field(text, key),
                        field,
                        message,
                    }
                })),
            }
        }
        if errors.is_empty() {
            Ok(book)
        } else {
            Err(errors)
        }
    }
}

/// The JSON schema of a model file.
pub fn model_file_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(ModelFile)).unwrap_or_default()
}

/// The JSON schema of a crew list.
pub fn crew_list_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(CrewList)).unwrap_or_default()
}
