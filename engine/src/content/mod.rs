//! Content: stat cards and crews as data. This module reads content from
//! text the caller supplies (the engine opens no files): each file is
//! parsed on its own with errors that name the file, the line and the
//! field, then the whole set is checked, and a set with any problem is
//! refused whole. The format is in `docs/content.md`.

pub mod card;
pub mod crew;
pub mod crew_card;
mod loading;
pub mod upgrade;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::Edition;
use crate::ability::AbilityEffect;
use crate::encounter::objectives::{ObjectiveBook, SchemeDef, StrategyDef};
use crate::marker::{MarkerBook, MarkerDef};
use crate::model::ModelCard;
use crate::table::MarkerKind;
use crate::token::{TokenBook, TokenDef};
use card::{AbilityDef, StatCard, Station, TriggerDoes};
use crew_card::CrewCard;
use upgrade::UpgradeDef;

/// Content files are small; anything bigger is a mistake.
pub const MAX_CONTENT_FILE_BYTES: usize = 64 * 1024;
/// Cards one content set may hold.
pub const MAX_CARDS: usize = 5_000;

/// One problem in one content file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{file}{}: {field}{}{message}", line.map(|l| format!(":{l}")).unwrap_or_default(), if field.is_empty() { "" } else { ": " })]
pub struct ContentError {
    pub file: String,
    pub line: Option<usize>,
    /// Where in the card, as `actions[2].range` (empty for the whole file).
    pub field: String,
    pub message: String,
}

/// Every card of every edition, by edition and full name, and each
/// edition's tokens.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    cards: BTreeMap<(EditionKey, String), StatCard>,
    tokens: BTreeMap<EditionKey, TokenBook>,
    markers: BTreeMap<EditionKey, MarkerBook>,
    objectives: BTreeMap<EditionKey, ObjectiveBook>,
    tables: BTreeMap<EditionKey, Vec<TableLayout>>,
    crew_cards: BTreeMap<(EditionKey, String), CrewCard>,
    upgrades: BTreeMap<(EditionKey, String), UpgradeDef>,
}

/// `Edition` as a map key (no ordering on the public type), ordered by
/// its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct EditionKey(Edition);

impl Ord for EditionKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.code().cmp(other.0.code())
    }
}

impl PartialOrd for EditionKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl From<Edition> for EditionKey {
    fn from(edition: Edition) -> Self {
        EditionKey(edition)
    }
}

/// Reads one TOML content file into `T`, with the line and field of the
/// first problem.
pub(crate) fn parse_toml<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<T, ContentError> {
    let error = |line, field: String, message: String| ContentError {
        file: file.to_string(),
        line,
        field,
        message,
    };
    if text.len() > MAX_CONTENT_FILE_BYTES {
        return Err(error(
            None,
            String::new(),
            format!("larger than {MAX_CONTENT_FILE_BYTES} bytes"),
        ));
    }
    let deserializer = toml::de::Deserializer::parse(text)
        .map_err(|e| error(line_of(text, e.span()), String::new(), e.message().into()))?;
    serde_path_to_error::deserialize(deserializer).map_err(|e| {
        let field = e.path().to_string();
        let field = if field == "." { String::new() } else { field };
        let inner = e.inner();
        error(line_of(text, inner.span()), field, inner.message().into())
    })
}

/// Reads one card file.
pub fn parse_card(file: &str, text: &str) -> Result<StatCard, ContentError> {
    let card: StatCard = parse_toml(file, text)?;
    if let Some((field, message)) = card.problems().into_iter().next() {
        return Err(ContentError {
            file: file.to_string(),
            line: line_of_field(text, &field),
            field,
            message,
        });
    }
    Ok(card)
}

/// A file of an edition's own content (`<edition>/tokens.toml`,
/// `<edition>/markers.toml`): token and marker definitions. Either list may
/// be left out.
#[derive(Debug, Clone, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditionFile {
    pub edition: Edition,
    #[serde(rename = "token", default)]
    pub tokens: Vec<TokenDef>,
    #[serde(rename = "marker", default)]
    pub markers: Vec<MarkerDef>,
    /// Strategies and schemes (4th edition encounters).
    #[serde(rename = "strategy", default, skip_serializing_if = "Vec::is_empty")]
    pub strategies: Vec<StrategyDef>,
    #[serde(rename = "scheme", default, skip_serializing_if = "Vec::is_empty")]
    pub schemes: Vec<SchemeDef>,
    /// Table layouts an encounter may be played on.
    #[serde(rename = "table", default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<TableLayout>,
    /// Upgrade cards: hired with a 3rd edition crew, or attached during
    /// the game.
    #[serde(rename = "upgrade", default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades: Vec<UpgradeDef>,
}

/// A table layout written for the project: its terrain, as scenario files
/// write terrain (`docs/scenarios.md`).
#[derive(Debug, Clone, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableLayout {
    pub name: String,
    #[serde(default)]
    pub text: String,
    pub terrain: Vec<crate::table::scenario::TerrainSpec>,
}

impl TableLayout {
    /// The terrain with its ids (from `state::FIRST_TABLE_OBJECT_ID`).
    pub fn build(&self) -> Result<Vec<crate::table::Terrain>, String> {
        self.terrain
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let id = crate::table::ObjectId(
                    crate::state::FIRST_TABLE_OBJECT_ID + u32::try_from(i).unwrap_or(u32::MAX),
                );
                spec.build(id)
                    .map_err(|e| format!("terrain[{i}] ({}): {e}", spec.name))
            })
            .collect()
    }
}

/// Reads one edition file, checked on its own.
pub fn parse_edition_file(file: &str, text: &str) -> Result<EditionFile, ContentError> {
    let parsed: EditionFile = parse_toml(file, text)?;
    let problem = |(field, message): (String, String)| ContentError {
        file: file.to_string(),
        line: line_of_field(text, &field),
        field,
        message,
    };
    TokenBook::new(parsed.edition, parsed.tokens.clone()).map_err(problem)?;
    MarkerBook::new(parsed.edition, parsed.markers.clone()).map_err(problem)?;
    ObjectiveBook::new(parsed.strategies.clone(), parsed.schemes.clone()).map_err(problem)?;
    for (i, table) in parsed.tables.iter().enumerate() {
        table
            .build()
            .map_err(|message| problem((format!("table[{i}].terrain"), message)))?;
    }
    for (i, upgrade) in parsed.upgrades.iter().enumerate() {
        if let Some((field, message)) = upgrade.problems(parsed.edition).into_iter().next() {
            return Err(problem((format!("upgrade[{i}].{field}"), message)));
        }
    }
    Ok(parsed)
}

/// A table layout's hazard must give one of the edition's tokens: an
/// error for each that does not, where its table was written.
fn unknown_hazard_tokens(
    tables: &[TableLayout],
    tokens: &TokenBook,
    origins: Vec<ContentError>,
) -> Vec<ContentError> {
    tables
        .iter()
        .zip(origins)
        .filter_map(|(table, mut origin)| {
            let spec = table.terrain.iter().find(|spec| {
                spec.hazard.as_deref().is_some_and(|name| {
                    crate::token::Token::from_name(name).is_ok_and(|t| !tokens.contains(t))
                })
            })?;
            origin.message = format!(
                "terrain {:?}: its hazard gives {:?}, which is not a token of {}",
                spec.name,
                spec.hazard.as_deref().unwrap_or_default(),
                tokens.edition.name()
            );
            Some(origin)
        })
        .collect()
}

/// The 1-based line a byte span starts on.
fn line_of(text: &str, span: Option<std::ops::Range<usize>>) -> Option<usize> {
    let start = span?.start.min(text.len());
    Some(text[..start].matches('\n').count() + 1)
}

/// The line of a field: `cost` is the line of `cost = ...`;
/// `actions[2].damage` is the `damage = ...` line after the third
/// `[[actions]]` header (or the header itself). Best effort: `None` when
/// the field is not written out.
pub(crate) fn line_of_field(text: &str, field: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let is_key = |line: &str, key: &str| {
        let line = line.trim_start();
        line.strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    };
    let mut from = 0;
    let mut key = field;
    if let Some((table, rest)) = field.split_once('.')
        && let Some((name, index)) = table.split_once('[')
        && let Ok(index) = index.trim_end_matches(']').parse::<usize>()
    {
        let header = format!("[[{name}]]");
        from = lines
            .iter()
            .enumerate()
            .filter(|(_, line)| line.trim() == header)
            .nth(index)
            .map(|(number, _)| number)?;
        key = rest.split(['.', '[']).next().unwrap_or(rest);
        let end = lines
            .iter()
            .enumerate()
            .skip(from + 1)
            .find(|(_, line)| line.trim() == header)
            .map_or(lines.len(), |(number, _)| number);
        // A subtable of the entry (`[terrain.construction]`), then its key.
        if let Some((sub, inner)) = rest.split_once('.')
            && !sub.contains('[')
        {
            let sub_header = format!("[{name}.{sub}]");
            if let Some(start) = (from..end).find(|n| lines[*n].trim() == sub_header) {
                let inner = inner.split(['.', '[']).next().unwrap_or(inner);
                return Some(
                    (start..end)
                        .find(|n| is_key(lines[*n], inner))
                        .unwrap_or(start)
                        + 1,
                );
            }
        }
        return Some((from..end).find(|n| is_key(lines[*n], key)).unwrap_or(from) + 1);
    }
    let key = key.split('[').next().unwrap_or(key);
    (from..lines.len())
        .find(|n| is_key(lines[*n], key))
        .map(|index| index + 1)
}

impl Catalog {
    /// Reads every edition file (tokens and markers) and every card file
    /// (path, text); all problems are returned, and a set with any problem
    /// is refused whole. An edition's tokens and markers may come in
    /// several files (an operator's own beside the shipped ones); each is
    /// defined once.
    pub fn load<'a>(
        edition_files: impl IntoIterator<Item = (&'a str, &'a str)>,
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Catalog, Vec<ContentError>> {
        Self::load_with_crew_cards(edition_files, files, [])
    }

    /// [`Catalog::load`], with the crew cards (`<edition>/crew-cards/`).
    pub fn load_with_crew_cards<'a>(
        edition_files: impl IntoIterator<Item = (&'a str, &'a str)>,
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
        crew_card_files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Catalog, Vec<ContentError>> {
        loading::Loading::load(edition_files, files, crew_card_files)
    }

    /// The models `hired`'s actions can summon or replace them with, and
    /// those theirs can, and so on: each as it would be in a crew with
    /// `crew_card`, by name.
    pub fn summonable<'a>(
        &self,
        edition: Edition,
        hired: impl IntoIterator<Item = &'a StatCard>,
        crew_card: Option<&CrewCard>,
    ) -> Vec<Arc<ModelCard>> {
        let mut names: Vec<&str> = Vec::new();
        let mut queue: Vec<&StatCard> = hired.into_iter().collect();
        let mut found: Vec<Arc<ModelCard>> = Vec::new();
        while let Some(card) = queue.pop() {
            for action in &card.actions {
                let replacements = action.after_succeeding.iter().filter_map(|e| match e {
                    crate::model::ActionEffect::ReplaceThisModel { with, .. } => Some(with),
                    _ => None,
                });
                for name in action.summons.iter().chain(replacements) {
                    if names.contains(&name.as_str()) {
                        continue;
                    }
                    names.push(name);
                    if let Some(summoned) = self.card(edition, name) {
                        found.push(summoned.model_card_in_crew(crew_card));
                        queue.push(summoned);
                    }
                }
            }
        }
        found
    }

    /// A card by its full name ("Name, Title" or "Name").
    pub fn card(&self, edition: Edition, full_name: &str) -> Option<&StatCard> {
        self.cards
            .get(&(edition.into(), full_name.trim().to_string()))
    }

    /// The tokens of `edition`.
    pub fn tokens(&self, edition: Edition) -> Option<&TokenBook> {
        self.tokens.get(&edition.into())
    }

    /// The tokens and marker types an ability names that `edition` does not
    /// define: (field relative to the ability, problem).
    fn unknown_names(&self, edition: Edition, ability: &AbilityDef) -> Vec<(String, String)> {
        let tokens = self.tokens(edition);
        let markers = self.markers(edition);
        let mut problems = Vec::new();
        for (e, effect) in ability.effects.iter().enumerate() {
            if let AbilityEffect::GainToken { token, .. } | AbilityEffect::RemoveToken { token, .. } =
                effect
                && !tokens.is_some_and(|book| book.contains(*token))
            {
                problems.push((
                    format!("effects[{e}].token"),
                    format!("{token} is not a token of this edition"),
                ));
            }
            if let AbilityEffect::MakeMarker { marker }
            | AbilityEffect::RemoveMarkers { marker, .. } = effect
                && markers.is_none_or(|book| book.named(marker).is_none())
            {
                problems.push((
                    format!("effects[{e}].marker"),
                    format!("no marker type called {marker:?} in this edition"),
                ));
            }
        }
        problems
    }

    /// An upgrade card by name.
    pub fn upgrade(&self, edition: Edition, name: &str) -> Option<&UpgradeDef> {
        self.upgrades
            .get(&(edition.into(), name.trim().to_string()))
    }

    /// The edition's upgrade cards, by name.
    pub fn upgrades(&self, edition: Edition) -> impl Iterator<Item = &UpgradeDef> {
        let edition = EditionKey::from(edition);
        self.upgrades
            .iter()
            .filter(move |((e, _), _)| *e == edition)
            .map(|(_, upgrade)| upgrade)
    }

    /// A crew card by name.
    pub fn crew_card(&self, edition: Edition, name: &str) -> Option<&CrewCard> {
        self.crew_cards.get(&(edition.into(), name.to_string()))
    }

    /// The crew card a crew led by `leader` (a full name) brings, if any.
    pub fn crew_card_of(&self, edition: Edition, leader: &str) -> Option<&CrewCard> {
        let name = self.card(edition, leader)?.crew_card.as_deref()?;
        self.crew_card(edition, name)
    }

    pub fn crew_cards(&self) -> impl Iterator<Item = &CrewCard> {
        self.crew_cards.values()
    }

    /// The marker types of `edition`.
    /// The edition's table layouts.
    pub fn tables(&self, edition: Edition) -> &[TableLayout] {
        self.tables.get(&edition.into()).map_or(&[], Vec::as_slice)
    }

    /// The edition's strategies and schemes.
    pub fn objectives(&self, edition: Edition) -> Option<&ObjectiveBook> {
        self.objectives.get(&edition.into())
    }

    pub fn markers(&self, edition: Edition) -> Option<&MarkerBook> {
        self.markers.get(&edition.into())
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    pub fn cards(&self) -> impl Iterator<Item = &StatCard> {
        self.cards.values()
    }

    /// The totems of the master called `master`.
    pub fn totems_of<'a>(
        &'a self,
        edition: Edition,
        master: &'a str,
    ) -> impl Iterator<Item = &'a StatCard> {
        let edition = EditionKey::from(edition);
        self.cards
            .iter()
            .filter(move |((e, _), card)| *e == edition && card.totem_of.as_deref() == Some(master))
            .map(|(_, card)| card)
    }
}

/// The JSON Schema of a crew card file (`docs/crew-card.schema.json`).
pub fn crew_card_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(CrewCard)).unwrap_or_default()
}

/// The JSON Schema of an edition file, tokens and markers
/// (`docs/edition.schema.json`).
pub fn edition_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(EditionFile)).unwrap_or_default()
}

/// The marker kinds the rules of the book's edition give a rule to and the
/// book lacks (remains exist only where killing leaves them).
fn missing_marker_kinds(book: &MarkerBook) -> Vec<MarkerKind> {
    let remains = book
        .edition
        .rules()
        .actions
        .killing_infuses_and_leaves_remains;
    [
        MarkerKind::Remains,
        MarkerKind::Scheme,
        MarkerKind::Strategy,
    ]
    .into_iter()
    .filter(|kind| (*kind != MarkerKind::Remains || remains) && book.of_kind(*kind).is_none())
    .collect()
}

/// The JSON Schema of a stat card file, for editors (`docs/content.schema.json`).
pub fn card_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(StatCard)).unwrap_or_default()
}
