//! Loading content: the edition files, the cards and the crew cards, read
//! and checked in phases. Every problem is kept, with its file, line and
//! field; a set with any problem is refused whole.

use super::*;

/// Each edition's tokens, markers, objectives, tables and upgrades, from
/// every file that has some, with the files' names.
type Definitions = BTreeMap<EditionKey, (EditionFile, Vec<String>)>;
/// Where each edition's table layouts were written: a hazard's token is
/// checked once all of the edition's tokens are known.
type TableOrigins = BTreeMap<EditionKey, Vec<ContentError>>;

/// A catalog being loaded: what is read so far, the problems found, and
/// where each upgrade and card was written (for later phases' errors and
/// a name's second definition).
#[derive(Default)]
pub(super) struct Loading {
    catalog: Catalog,
    errors: Vec<ContentError>,
    upgrade_origin: BTreeMap<(EditionKey, String), String>,
    card_origin: BTreeMap<(EditionKey, String), String>,
}

impl Loading {
    /// [`Catalog::load_with_crew_cards`]: every phase in turn.
    pub(super) fn load<'a>(
        edition_files: impl IntoIterator<Item = (&'a str, &'a str)>,
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
        crew_card_files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Catalog, Vec<ContentError>> {
        let mut loading = Loading::default();
        let (definitions, table_origins) = loading.read_edition_files(edition_files);
        loading.build_books(definitions, table_origins);
        loading.check_upgrade_names();
        loading.read_cards(files);
        loading.check_card_names();
        loading.read_crew_cards(crew_card_files);
        loading.check_references();
        if loading.errors.is_empty() {
            Ok(loading.catalog)
        } else {
            Err(loading.errors)
        }
    }

    /// The edition files: their definitions gathered per edition, and the
    /// upgrades, each defined once.
    fn read_edition_files<'a>(
        &mut self,
        edition_files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (Definitions, TableOrigins) {
        let mut definitions = Definitions::new();
        let mut table_origins = TableOrigins::new();
        for (file, text) in edition_files {
            match parse_edition_file(file, text) {
                Ok(parsed) => {
                    let (all, files) =
                        definitions.entry(parsed.edition.into()).or_insert_with(|| {
                            (
                                EditionFile {
                                    edition: parsed.edition,
                                    tokens: Vec::new(),
                                    markers: Vec::new(),
                                    strategies: Vec::new(),
                                    schemes: Vec::new(),
                                    tables: Vec::new(),
                                    upgrades: Vec::new(),
                                },
                                Vec::new(),
                            )
                        });
                    all.tokens.extend(parsed.tokens);
                    all.markers.extend(parsed.markers);
                    all.strategies.extend(parsed.strategies);
                    all.schemes.extend(parsed.schemes);
                    table_origins
                        .entry(parsed.edition.into())
                        .or_default()
                        .extend((0..parsed.tables.len()).map(|i| {
                            let field = format!("table[{i}].terrain");
                            ContentError {
                                file: file.to_string(),
                                line: line_of_field(text, &format!("table[{i}].name")),
                                field,
                                message: String::new(),
                            }
                        }));
                    all.tables.extend(parsed.tables);
                    for (i, upgrade) in parsed.upgrades.into_iter().enumerate() {
                        let key = (EditionKey::from(parsed.edition), upgrade.name.clone());
                        if let Some(first) = self.upgrade_origin.get(&key) {
                            self.errors.push(ContentError {
                                file: file.to_string(),
                                line: line_of_field(text, &format!("upgrade[{i}].name")),
                                field: format!("upgrade[{i}].name"),
                                message: format!("{} is already defined in {first}", key.1),
                            });
                            continue;
                        }
                        self.upgrade_origin.insert(key.clone(), file.to_string());
                        self.catalog.upgrades.insert(key, upgrade);
                    }
                    files.push(file.to_string());
                }
                Err(error) => self.errors.push(error),
            }
        }
        (definitions, table_origins)
    }

    /// Each edition's books (tokens, objectives, markers) and tables.
    fn build_books(&mut self, definitions: Definitions, mut table_origins: TableOrigins) {
        for (key, (all, files)) in definitions {
            let files = files.join(", ");
            let problem = |(field, message): (String, String)| ContentError {
                file: files.clone(),
                line: None,
                field,
                message,
            };
            let origins = table_origins.remove(&key).unwrap_or_default();
            match TokenBook::new(all.edition, all.tokens) {
                Ok(book) => {
                    self.errors
                        .extend(unknown_hazard_tokens(&all.tables, &book, origins));
                    self.catalog.tokens.insert(key, book);
                }
                Err(e) => self.errors.push(problem(e)),
            }
            self.catalog.tables.insert(key, all.tables);
            match ObjectiveBook::new(all.strategies, all.schemes) {
                Ok(book) => {
                    self.catalog.objectives.insert(key, book);
                }
                Err(e) => self.errors.push(problem(e)),
            }
            match MarkerBook::new(all.edition, all.markers) {
                Ok(book) => {
                    if let Some(tokens) = self.catalog.tokens.get(&key) {
                        for def in book.markers() {
                            if let Some(token) = def.hazard.filter(|t| !tokens.contains(*t)) {
                                self.errors.push(problem((
                                    "marker.hazard".into(),
                                    format!("{}: {token} is not a token of this edition", def.name),
                                )));
                            }
                        }
                    }
                    let missing = missing_marker_kinds(&book);
                    if missing.is_empty() {
                        self.catalog.markers.insert(key, book);
                    } else {
                        self.errors.push(problem((
                            "marker".into(),
                            format!(
                                "{} needs marker types of kind {missing:?}",
                                all.edition.name()
                            ),
                        )));
                    }
                }
                Err(e) => self.errors.push(problem(e)),
            }
        }
    }

    /// The names an upgrade's abilities use exist in its edition.
    fn check_upgrade_names(&mut self) {
        for ((edition, name), upgrade) in &self.catalog.upgrades {
            let edition = edition.0;
            for (a, ability) in upgrade.abilities.iter().enumerate() {
                for (field, message) in self.catalog.unknown_names(edition, ability) {
                    self.errors.push(ContentError {
                        file: self
                            .upgrade_origin
                            .get(&(edition.into(), name.clone()))
                            .cloned()
                            .unwrap_or_default(),
                        line: None,
                        field: format!("abilities[{a}].{field}"),
                        message: format!("upgrade {name}: {message}"),
                    });
                }
            }
        }
    }

    /// The stat cards, each defined once.
    fn read_cards<'a>(&mut self, files: impl IntoIterator<Item = (&'a str, &'a str)>) {
        for (file, text) in files {
            match parse_card(file, text) {
                Ok(card) => {
                    if self.catalog.cards.len() >= MAX_CARDS {
                        self.errors.push(ContentError {
                            file: file.into(),
                            line: None,
                            field: String::new(),
                            message: format!("more than {MAX_CARDS} cards"),
                        });
                        break;
                    }
                    let key = (EditionKey::from(card.edition), card.full_name());
                    if let Some(first) = self.card_origin.get(&key) {
                        self.errors.push(ContentError {
                            file: file.into(),
                            line: line_of_field(text, "name"),
                            field: "name".into(),
                            message: format!("{} is already defined in {first}", key.1),
                        });
                        continue;
                    }
                    self.card_origin.insert(key.clone(), file.to_string());
                    self.catalog.cards.insert(key, card);
                }
                Err(error) => self.errors.push(error),
            }
        }
    }

    /// Every edition with cards has its tokens, and a card names only those.
    fn check_card_names(&mut self) {
        for ((edition, name), card) in &self.catalog.cards {
            let file = || {
                self.card_origin
                    .get(&(*edition, name.clone()))
                    .cloned()
                    .unwrap_or_default()
            };
            let (Some(book), Some(_)) = (
                self.catalog.tokens.get(edition),
                self.catalog.markers.get(edition),
            ) else {
                self.errors.push(ContentError {
                    file: file(),
                    line: None,
                    field: "edition".into(),
                    message: "this edition has no tokens and markers (<edition>/tokens.toml, <edition>/markers.toml)".into(),
                });
                continue;
            };
            for (a, ability) in card.abilities.iter().enumerate() {
                for (field, message) in self.catalog.unknown_names(card.edition, ability) {
                    self.errors.push(ContentError {
                        file: file(),
                        line: None,
                        field: format!("abilities[{a}].{field}"),
                        message,
                    });
                }
            }
            for (a, action) in card.actions.iter().enumerate() {
                for (t, trigger) in action.triggers.iter().enumerate() {
                    if let TriggerDoes::TargetGainsToken { token } = trigger.does
                        && !book.contains(token)
                    {
                        self.errors.push(ContentError {
                            file: file(),
                            line: None,
                            field: format!("actions[{a}].triggers[{t}].does.token"),
                            message: format!("{token} is not a token of this edition"),
                        });
                    }
                }
            }
        }
    }

    /// Crew cards: each names an existing master, which names it back.
    fn read_crew_cards<'a>(
        &mut self,
        crew_card_files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) {
        let mut crew_card_origin: BTreeMap<(EditionKey, String), String> = BTreeMap::new();
        for (file, text) in crew_card_files {
            let error = |line, field: String, message: String| ContentError {
                file: file.to_string(),
                line,
                field,
                message,
            };
            let card: CrewCard = match parse_toml(file, text) {
                Ok(card) => card,
                Err(e) => {
                    self.errors.push(e);
                    continue;
                }
            };
            if let Some((field, message)) = card.problems().into_iter().next() {
                self.errors
                    .push(error(line_of_field(text, &field), field, message));
                continue;
            }
            let key = (EditionKey::from(card.edition), card.name.clone());
            if let Some(first) = crew_card_origin.get(&key) {
                self.errors.push(error(
                    line_of_field(text, "name"),
                    "name".into(),
                    format!("{} is already defined in {first}", card.name),
                ));
                continue;
            }
            let names_it = self
                .catalog
                .cards
                .get(&(key.0, card.master.trim().to_string()))
                .is_some_and(|m| m.crew_card.as_deref() == Some(card.name.as_str()));
            if !names_it {
                self.errors.push(error(
                    line_of_field(text, "master"),
                    "master".into(),
                    format!(
                        "no master card {:?} with crew_card = {:?}",
                        card.master, card.name
                    ),
                ));
            }
            let abilities: Vec<(String, &AbilityDef)> =
                card.grants
                    .iter()
                    .enumerate()
                    .flat_map(|(g, grant)| {
                        grant.abilities.iter().enumerate().map(move |(a, ability)| {
                            (format!("grants[{g}].abilities[{a}]"), ability)
                        })
                    })
                    .collect();
            for (field, ability) in abilities {
                for (f, message) in self.catalog.unknown_names(card.edition, ability) {
                    self.errors
                        .push(error(None, format!("{field}.{f}"), message));
                }
            }
            crew_card_origin.insert(key.clone(), file.to_string());
            self.catalog.crew_cards.insert(key, card);
        }
    }

    /// What a card names must exist: its crew card, a totem's master, the
    /// upgrades its actions attach and the models they summon or replace.
    fn check_references(&mut self) {
        for ((edition, name), card) in &self.catalog.cards {
            let mut missing = |field: &str, message: String| {
                self.errors.push(ContentError {
                    file: self
                        .card_origin
                        .get(&(*edition, name.clone()))
                        .cloned()
                        .unwrap_or_default(),
                    line: None,
                    field: field.into(),
                    message,
                })
            };
            if let Some(crew_card) = &card.crew_card
                && !self
                    .catalog
                    .crew_cards
                    .contains_key(&(*edition, crew_card.clone()))
            {
                missing("crew_card", format!("no crew card called {crew_card:?}"));
            }
            if let Some(master) = &card.totem_of {
                let found = self.catalog.cards.iter().any(|((e, _), c)| {
                    e == edition && c.name == *master && c.station == Station::Master
                });
                if !found {
                    missing("totem_of", format!("no master called {master:?}"));
                }
            }
            for (a, action) in card.actions.iter().enumerate() {
                for (e, effect) in action.after_succeeding.iter().enumerate() {
                    if let crate::model::ActionEffect::AttachUpgrade { upgrade, .. } = effect
                        && !self
                            .catalog
                            .upgrades
                            .contains_key(&(*edition, upgrade.clone()))
                    {
                        missing(
                            &format!("actions[{a}].after_succeeding[{e}].upgrade"),
                            format!("no upgrade called {upgrade:?} in this edition's content"),
                        );
                    }
                    if let crate::model::ActionEffect::ReplaceThisModel { with, .. } = effect
                        && !self
                            .catalog
                            .cards
                            .contains_key(&(*edition, with.trim().to_string()))
                    {
                        missing(
                            &format!("actions[{a}].after_succeeding[{e}].with"),
                            format!("no card called {with:?}"),
                        );
                    }
                    if let crate::model::ActionEffect::ReplaceThisModel {
                        together_with: Some(also),
                        ..
                    } = effect
                        && !self
                            .catalog
                            .cards
                            .iter()
                            .any(|((e, _), c)| e == edition && *c.name == *also.name)
                    {
                        missing(
                            &format!("actions[{a}].after_succeeding[{e}].together_with.name"),
                            format!("no model called {:?}", also.name),
                        );
                    }
                }
                for (m, summoned) in action.summons.iter().enumerate() {
                    let field = format!("actions[{a}].summons[{m}]");
                    match self
                        .catalog
                        .cards
                        .get(&(*edition, summoned.trim().to_string()))
                    {
                        None => missing(&field, format!("no card called {summoned:?}")),
                        Some(found) if found.summon_tn.is_none() => missing(
                            &field,
                            format!("{summoned} has no summon_tn, so nothing can summon it"),
                        ),
                        Some(_) => {}
                    }
                }
            }
        }
    }
}
