//! Scenario files: the engine's test contract. A scenario sets up a game
//! exactly (every deck's order, every hand, soulstones, models), scripts the
//! commands, and may state the expected outcome. The format is documented in
//! `docs/scenarios.md`; this module parses text and runs it (no files here).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::command::{FlowCommand, PlayerCommand, Submission};
use super::error::RuleError;
use super::event::Event;
use super::fairness::{Bytes32, shuffle_cards};
use super::fate::{Card, DECK_SIZE};
use std::sync::Arc;

use super::content::Catalog;
use super::model::{
    ActionCard, Demise, Model, ModelCard, ModelId, ModelStatus, Placement, Reduction, Tokens,
};
use super::pile::Pile;
use super::state::{FIRST_TABLE_OBJECT_ID, Fairness, GameState, PlayerState};
use super::table::scenario::{TerrainSpec, point};
use super::table::{BaseMm, ObjectId, milli};
use super::{Edition, Seat, apply, decide, pending};

mod hiring;
mod patterns;
mod spec;
pub use hiring::{HiringCheck, HiringReport};
pub use patterns::matches;
pub(crate) use patterns::{Patterns, unmet_patterns};
pub use spec::{EncounterSpec, HeldSpec, MarkerSpec, ModelSpec, SchemesSpec, SetupFlips};

/// Scenario files are small; anything bigger is a mistake or an attack.
pub const MAX_SCENARIO_BYTES: usize = 256 * 1024;
pub const MAX_STEPS: usize = 2_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// Where the example comes from (a rulebook section), in our words.
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub description: String,
    pub edition: Edition,
    /// The server seed (used by reshuffles during the scenario).
    #[serde(default)]
    pub seed: Bytes32,
    /// The players' entropy contributions (default: zeros).
    #[serde(default)]
    pub contributions: [Bytes32; 2],
    #[serde(default)]
    pub players: ScenarioPlayers,
    #[serde(default)]
    pub models: Vec<ModelSpec>,
    /// The table's terrain, for a scenario set on a table (see
    /// `docs/scenarios.md`); ids follow the order, from
    /// `state::FIRST_TABLE_OBJECT_ID`.
    #[serde(default)]
    pub terrain: Vec<TerrainSpec>,
    /// Markers on the table at the start, of the edition's marker types,
    /// with ids after the terrain's.
    #[serde(default)]
    pub markers: Vec<MarkerSpec>,
    /// Upgrade cards the scenario's effects may attach.
    #[serde(default)]
    pub upgrades: Vec<crate::model::UpgradeCard>,
    /// A whole encounter (4th edition) the scenario starts part way through.
    #[serde(default)]
    pub encounter: Option<EncounterSpec>,
    /// Crew lists hired against the content before the steps: each gives
    /// its soulstone pool or is refused, as the check says.
    #[serde(default)]
    pub hiring: Vec<HiringCheck>,
    #[serde(default)]
    pub steps: Vec<Step>,
    #[serde(default)]
    pub expect: Option<Expect>,
}

impl Scenario {
    /// The upgrade cards of the game: the scenario's own, and the
    /// content's its models start with.
    fn upgrade_cards(&self, catalog: &Catalog) -> Vec<crate::model::UpgradeCard> {
        let mut cards = self.upgrades.clone();
        for name in self.models.iter().flat_map(|m| &m.upgrades) {
            if let Some(upgrade) = catalog.upgrade(self.edition, name)
                && !cards.iter().any(|c| c.face(name).is_some())
            {
                cards.push(upgrade.upgrade_card());
            }
        }
        cards
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioPlayers {
    #[serde(default)]
    pub a: ScenarioPlayer,
    #[serde(default)]
    pub b: ScenarioPlayer,
}

/// Where the cards a scenario does not place go.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rest {
    /// Under the listed deck cards, in the standard order (1–13 of Rams,
    /// Masks, Tomes, Crows, then the Black and Red Jokers).
    #[default]
    Ordered,
    /// Under the listed deck cards, shuffled with the scenario's seed.
    Shuffled,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioPlayer {
    /// The top of the deck, top card first.
    #[serde(default)]
    pub deck: Vec<Card>,
    #[serde(default)]
    pub hand: Vec<Card>,
    /// The discard pile, bottom card first.
    #[serde(default)]
    pub discard: Vec<Card>,
    #[serde(default)]
    pub removed: Vec<Card>,
    #[serde(default)]
    pub soulstones: u16,
    /// Victory points scored before the scenario starts.
    #[serde(default)]
    pub victory_points: u8,
    #[serde(default)]
    pub rest: Rest,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepActor {
    System,
    A,
    B,
}

impl StepActor {
    /// The submission this step makes: a player's decision for `a` and `b`,
    /// a game-flow step for `system`. A command of the other kind is a
    /// mistake in the file, reported with the step's number.
    fn submission(self, command: &Value, version: u64) -> Result<Submission, String> {
        let seat = match self {
            StepActor::System => {
                let command = FlowCommand::deserialize(command).map_err(|e| {
                    format!("not a game-flow command ({e}); a player's decision needs by = \"a\" or \"b\"")
                })?;
                return Ok(Submission::flow(version, command));
            }
            StepActor::A => Seat::A,
            StepActor::B => Seat::B,
        };
        let command = PlayerCommand::deserialize(command).map_err(|e| {
            format!("not a player's command ({e}); a game-flow step needs by = \"system\"")
        })?;
        Ok(Submission::player(seat, version, command))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub by: StepActor,
    /// A [`PlayerCommand`] for `by = "a"` or `"b"`, a [`FlowCommand`] for
    /// `by = "system"`.
    pub command: Value,
    /// The version the command claims (default: the current one).
    #[serde(default)]
    pub version: Option<u64>,
    /// The step must be refused with this error code (e.g. "not_allowed"),
    /// and the state must stay unchanged.
    #[serde(default)]
    pub refused: Option<String>,
    /// With `refused`: words the refusal's message must contain, so the
    /// step is refused for the reason it is about.
    #[serde(default)]
    pub because: Option<String>,
    #[serde(default)]
    pub note: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Each pattern must match an event, in this order (other events may
    /// come between). A pattern matches when every field it names matches.
    #[serde(default)]
    pub events: Vec<Value>,
    /// A pattern for the final state (fields not named are not checked;
    /// lists must have the same length; a null field, in a JSON file,
    /// must be missing).
    #[serde(default)]
    pub state: Option<Value>,
    /// The seats the game waits for at the end.
    #[serde(default)]
    pub waiting_for: Option<Vec<Seat>>,
    /// Patterns no event may match (what the rules say must not happen).
    #[serde(default)]
    pub never: Vec<Value>,
}

#[derive(Debug, Clone, Serialize)]
pub struct StepReport {
    pub index: usize,
    pub by: StepActor,
    pub command: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<RuleError>,
}

/// The result of running a scenario.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    pub name: String,
    pub initial: GameState,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hiring: Vec<HiringReport>,
    pub steps: Vec<StepReport>,
    pub events: Vec<Event>,
    #[serde(rename = "final")]
    pub final_state: GameState,
    /// What the game waits for at the end (handy when writing the next step).
    pub pending: super::pending::Pending,
    /// Unexpected refusals and, when checked, expectations not met.
    pub failures: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    #[error("the scenario file is not valid: {0}")]
    Parse(String),
    #[error("the scenario's setup is not valid: {0}")]
    Setup(String),
}

impl Scenario {
    pub fn from_toml(text: &str) -> Result<Self, ScenarioError> {
        if text.len() > MAX_SCENARIO_BYTES {
            return Err(ScenarioError::Parse(format!(
                "larger than {MAX_SCENARIO_BYTES} bytes"
            )));
        }
        toml::from_str(text).map_err(|e| ScenarioError::Parse(e.to_string()))
    }

    pub fn from_json(text: &str) -> Result<Self, ScenarioError> {
        if text.len() > MAX_SCENARIO_BYTES {
            return Err(ScenarioError::Parse(format!(
                "larger than {MAX_SCENARIO_BYTES} bytes"
            )));
        }
        serde_json::from_str(text).map_err(|e| ScenarioError::Parse(e.to_string()))
    }

    /// What the content cards of `seat`'s models may summon, each in its
    /// summoner's crew (by name, the first summoner's).
    fn summonable(&self, seat: Seat, catalog: &Catalog) -> Vec<Arc<ModelCard>> {
        let mut all: Vec<Arc<ModelCard>> = Vec::new();
        for spec in self.models.iter().filter(|m| m.owner == seat) {
            let Some(card) = spec
                .card
                .as_deref()
                .and_then(|n| catalog.card(self.edition, n))
            else {
                continue;
            };
            let crew_card = spec
                .crew_card
                .as_deref()
                .and_then(|n| catalog.crew_card(self.edition, n));
            for summoned in catalog.summonable(self.edition, [card], crew_card) {
                if !all.iter().any(|c| c.name == summoned.name) {
                    all.push(summoned);
                }
            }
        }
        all
    }

    /// The exact starting state the scenario describes, with `catalog`'s
    /// tokens and its cards for models that name one.
    pub fn initial_state(&self, catalog: &Catalog) -> Result<GameState, ScenarioError> {
        let (Some(tokens), Some(marker_types)) =
            (catalog.tokens(self.edition), catalog.markers(self.edition))
        else {
            return Err(ScenarioError::Setup(format!(
                "the content has no tokens and markers for {}",
                self.edition.name()
            )));
        };
        if self.steps.len() > MAX_STEPS {
            return Err(ScenarioError::Setup(format!("at most {MAX_STEPS} steps")));
        }
        let fairness = Fairness {
            contributions: [Some(self.contributions[0]), Some(self.contributions[1])],
            ..Fairness::new(self.seed)
        };
        let mut players = [PlayerState::default(), PlayerState::default()];
        for (seat, (setup, player)) in Seat::BOTH.into_iter().zip(
            [&self.players.a, &self.players.b]
                .into_iter()
                .zip(&mut players),
        ) {
            *player = build_player(seat, setup, &fairness)?;
        }
        let terrain = self
            .terrain
            .iter()
            .enumerate()
            .map(|(index, spec)| {
                spec.build(ObjectId(FIRST_TABLE_OBJECT_ID + index as u32))
                    .map_err(|e| ScenarioError::Setup(e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut state = GameState {
            version: 0,
            edition: self.edition,
            fairness,
            players,
            models: Arc::new(
                self.models
                    .iter()
                    .map(|m| m.model(self.edition, catalog).map(Arc::new))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            tokens: Arc::new(tokens.clone()),
            marker_types: Arc::new(marker_types.clone()),
            summonable: Arc::new(Seat::BOTH.map(|seat| self.summonable(seat, catalog))),
            upgrade_cards: Arc::new(self.upgrade_cards(catalog)),
            frames: crate::state::Frames::default(),
            ended: false,
            terrain: Arc::new(terrain.into()),
            markers: Arc::default(),
            next_marker_id: FIRST_TABLE_OBJECT_ID + (1 << 15),
            damage_queue: Vec::new(),
            action_queue: Vec::new(),
            last_outcome: None,
            encounter: None,
            table_cache: crate::state::TableCache::default(),
        };
        // The encounter comes first: its strategy may make its markers
        // impassable.
        if let Some(spec) = &self.encounter {
            let encounter = spec.build(catalog, self.edition)?;
            for seat in Seat::BOTH {
                state.player_mut(seat).victory_points =
                    encounter.strategy_vp[seat.index()] + encounter.scheme_vp[seat.index()];
            }
            state.encounter = Some(Arc::new(encounter));
        }
        for marker in &self.markers {
            let def = marker_types.named(&marker.name).ok_or_else(|| {
                ScenarioError::Setup(format!("there is no marker type called {:?}", marker.name))
            })?;
            let at = crate::table::scenario::point(marker.at);
            let z = crate::table::milli(marker.z);
            state.place_marker(def, marker.owner, crate::model::Placement { at, z });
        }
        let setup = state
            .encounter
            .as_deref()
            .filter(|e| e.attacker_zone.is_some())
            .map(|e| Arc::clone(&e.setup));
        if let (Some(setup), Some(def)) = (
            setup,
            marker_types.of_kind(crate::table::MarkerKind::Strategy),
        ) {
            for at in crate::encounter::scoring::strategy_marker_points(&setup) {
                state.place_marker(def, None, crate::model::Placement { at, z: 0 });
            }
        }
        state
            .validate()
            .map_err(|e| ScenarioError::Setup(e.to_string()))?;
        Ok(state)
    }

    /// Runs every step. A refusal the scenario did not expect stops the run
    /// and is reported in `failures`.
    pub fn run(&self, catalog: &Catalog) -> Result<Run, ScenarioError> {
        let initial = self.initial_state(catalog)?;
        let mut state = initial.clone();
        let mut events = Vec::new();
        let mut steps = Vec::new();
        let mut failures = Vec::new();
        let mut hiring = Vec::new();
        for (index, check) in self.hiring.iter().enumerate() {
            let (report, wrong) = check.run(index + 1, self.edition, catalog)?;
            hiring.push(report);
            failures.extend(wrong);
        }
        for (index, step) in self.steps.iter().enumerate() {
            let submission = step
                .by
                .submission(&step.command, step.version.unwrap_or(state.version))
                .map_err(|e| ScenarioError::Parse(format!("step {}: {e}", index + 1)))?;
            let mut report = StepReport {
                index: index + 1,
                by: step.by,
                command: step.command.clone(),
                events: None,
                refused: None,
            };
            match decide(&state, &submission) {
                Ok(new_events) => {
                    for event in &new_events {
                        apply(&mut state, event);
                    }
                    report.events = Some(new_events.len());
                    events.extend(new_events);
                    if let Some(code) = &step.refused {
                        failures.push(format!(
                            "step {}: expected a refusal ({code}) but the command was accepted",
                            index + 1
                        ));
                    }
                }
                Err(error) => {
                    let code = error_code(&error);
                    let message = error.to_string();
                    match &step.refused {
                        Some(expected)
                            if *expected == code
                                && step.because.as_ref().is_some_and(|b| !message.contains(b)) =>
                        {
                            failures.push(format!(
                                "step {}: refused as expected, but for another reason: {message}",
                                index + 1
                            ))
                        }
                        Some(expected) if *expected == code => {}
                        Some(expected) => failures.push(format!(
                            "step {}: expected a refusal {expected} but got {code}: {error}",
                            index + 1
                        )),
                        None => failures.push(format!("step {}: refused: {error}", index + 1)),
                    }
                    report.refused = Some(error);
                    let stop = step.refused.is_none();
                    steps.push(report);
                    if stop {
                        break;
                    }
                    continue;
                }
            }
            steps.push(report);
        }
        Ok(Run {
            name: self.name.clone(),
            initial,
            hiring,
            steps,
            events,
            pending: pending(&state),
            final_state: state,
            failures,
        })
    }

    /// Runs the scenario and checks its expectations; the failures, if any.
    pub fn check(&self, catalog: &Catalog) -> Result<Run, ScenarioError> {
        let mut run = self.run(catalog)?;
        if let Some(expect) = &self.expect {
            run.failures.extend(check_expectations(expect, &run));
        }
        Ok(run)
    }
}

fn build_player(
    seat: Seat,
    setup: &ScenarioPlayer,
    fairness: &Fairness,
) -> Result<PlayerState, ScenarioError> {
    let placed: Vec<Card> = setup
        .deck
        .iter()
        .chain(&setup.hand)
        .chain(&setup.discard)
        .chain(&setup.removed)
        .copied()
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for card in &placed {
        if !seen.insert(*card) {
            return Err(ScenarioError::Setup(format!(
                "{} places the card {card} twice",
                seat.label()
            )));
        }
    }
    let mut rest: Vec<Card> = Card::all().filter(|c| !seen.contains(c)).collect();
    if setup.rest == Rest::Shuffled {
        rest = shuffle_cards(
            &fairness.seed,
            seat,
            0,
            &fairness.contributions_or_zero(),
            &rest,
        );
    }
    let mut deck_top_down = setup.deck.clone();
    deck_top_down.extend(rest);
    debug_assert_eq!(
        deck_top_down.len() + setup.hand.len() + setup.discard.len() + setup.removed.len(),
        DECK_SIZE
    );
    Ok(PlayerState {
        deck: Pile::from_top_down(&deck_top_down),
        hand: Pile::from_bottom_up(&setup.hand),
        discard: Pile::from_bottom_up(&setup.discard),
        removed: Pile::from_bottom_up(&setup.removed),
        revealed: Pile::new(),
        conflict: Pile::new(),
        soulstones: setup.soulstones,
        victory_points: setup.victory_points,
    })
}

/// The machine-readable code of an error ("not_allowed", "stale_version"...).
pub fn error_code(error: &RuleError) -> String {
    serde_json::to_value(error)
        .ok()
        .and_then(|v| v.get("code").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_default()
}

fn check_expectations(expect: &Expect, run: &Run) -> Vec<String> {
    let events: Vec<Value> = run
        .events
        .iter()
        .map(|e| serde_json::to_value(e).unwrap_or(Value::Null))
        .collect();
    let state = serde_json::to_value(&run.final_state).unwrap_or(Value::Null);
    let mut failures = unmet_patterns(
        Patterns {
            kind: "type",
            noun: "event",
            in_order: &expect.events,
            never: &expect.never,
            state: expect.state.as_ref(),
        },
        &events,
        &state,
    );
    if let Some(seats) = &expect.waiting_for {
        let waiting = pending(&run.final_state).seats();
        if &waiting != seats {
            failures.push(format!(
                "expected the game to wait for {seats:?}, but it waits for {waiting:?}"
            ));
        }
    }
    failures
}

/// How a scenario file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    Toml,
    Json,
}

impl FileFormat {
    /// `json` for a `.json` file name, TOML otherwise.
    pub fn from_extension(extension: Option<&str>) -> Self {
        match extension {
            Some(ext) if ext.eq_ignore_ascii_case("json") => FileFormat::Json,
            _ => FileFormat::Toml,
        }
    }
}

/// Any scenario file: a game scenario (a position and scripted commands) or
/// a table scenario (a table and checks of what the table rules decide).
/// One runner for both, so `soulstone scenario run` and the test suite take
/// every file under `tests/scenarios/`.
#[derive(Debug, Clone)]
pub enum ScenarioFile {
    Game(Box<Scenario>),
    Table(Box<super::table::scenario::TableScenario>),
    /// A 1st edition table and orders (`edition = "m1e"`).
    FirstEdition(Box<crate::first_edition::scenario::Scenario>),
}

/// The content scenario files name cards from: the Malifaux catalog and
/// the 1st edition's book and conditions.
#[derive(Clone, Copy)]
pub struct ScenarioContent<'a> {
    pub catalog: &'a Catalog,
    pub first_edition: &'a crate::first_edition::Book,
    pub first_edition_conditions: &'a crate::first_edition::ConditionBook,
}

/// What running a scenario file gave.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScenarioReport {
    Game(Box<Run>),
    Table(super::table::scenario::TableRun),
    FirstEdition(Box<crate::first_edition::scenario::Run>),
}

impl ScenarioReport {
    pub fn failures(&self) -> &[String] {
        match self {
            ScenarioReport::Game(run) => &run.failures,
            ScenarioReport::Table(run) => &run.failures,
            ScenarioReport::FirstEdition(run) => &run.failures,
        }
    }
}

impl ScenarioFile {
    /// Reads any kind: a file with `checks` is a table scenario, one of
    /// `edition = "m1e"` a 1st edition one.
    pub fn parse(text: &str, format: FileFormat) -> Result<Self, String> {
        use super::table::scenario::TableScenario;
        use crate::first_edition::scenario::Scenario as FirstEditionScenario;
        let (has_checks, first_edition) = match format {
            FileFormat::Toml => {
                let table = toml::from_str::<toml::Table>(text)
                    .map_err(|e| ScenarioError::Parse(e.to_string()).to_string())?;
                (
                    table.contains_key("checks"),
                    table.get("edition").and_then(toml::Value::as_str) == Some("m1e"),
                )
            }
            FileFormat::Json => {
                let value = serde_json::from_str::<Value>(text)
                    .map_err(|e| ScenarioError::Parse(e.to_string()).to_string())?;
                (
                    value.get("checks").is_some(),
                    value.get("edition").and_then(Value::as_str) == Some("m1e"),
                )
            }
        };
        let error = |e: &dyn std::fmt::Display| e.to_string();
        if first_edition {
            let scenario = match format {
                FileFormat::Toml => FirstEditionScenario::from_toml(text),
                FileFormat::Json => FirstEditionScenario::from_json(text),
            };
            return Ok(ScenarioFile::FirstEdition(Box::new(
                scenario.map_err(|e| error(&e))?,
            )));
        }
        Ok(match (has_checks, format) {
            (true, FileFormat::Toml) => ScenarioFile::Table(Box::new(
                TableScenario::from_toml(text).map_err(|e| error(&e))?,
            )),
            (true, FileFormat::Json) => ScenarioFile::Table(Box::new(
                TableScenario::from_json(text).map_err(|e| error(&e))?,
            )),
            (false, FileFormat::Toml) => {
                ScenarioFile::Game(Box::new(Scenario::from_toml(text).map_err(|e| error(&e))?))
            }
            (false, FileFormat::Json) => {
                ScenarioFile::Game(Box::new(Scenario::from_json(text).map_err(|e| error(&e))?))
            }
        })
    }

    /// Whether the file says what it expects (a table scenario's checks are
    /// its expectations).
    pub fn has_expectations(&self) -> bool {
        match self {
            ScenarioFile::Game(scenario) => {
                scenario.expect.is_some() || !scenario.hiring.is_empty()
            }
            ScenarioFile::Table(scenario) => !scenario.checks.is_empty(),
            ScenarioFile::FirstEdition(scenario) => scenario.expect.is_some(),
        }
    }

    /// Runs the file; with `expect`, a game scenario's expectations are
    /// checked too. Failures are in the report, not errors.
    /// `content`: the game content (its tokens, and the cards models name).
    pub fn run(
        &self,
        expect: bool,
        content: ScenarioContent<'_>,
    ) -> Result<ScenarioReport, String> {
        match self {
            ScenarioFile::Game(scenario) => {
                let run = if expect {
                    scenario.check(content.catalog)
                } else {
                    scenario.run(content.catalog)
                };
                Ok(ScenarioReport::Game(Box::new(
                    run.map_err(|e| e.to_string())?,
                )))
            }
            ScenarioFile::Table(scenario) => Ok(ScenarioReport::Table(
                scenario.check().map_err(|e| e.to_string())?,
            )),
            ScenarioFile::FirstEdition(scenario) => {
                let (book, conditions) = (content.first_edition, content.first_edition_conditions);
                let run = if expect {
                    scenario.check(book, conditions)
                } else {
                    scenario.run(book, conditions)
                };
                Ok(ScenarioReport::FirstEdition(Box::new(
                    run.map_err(|e| e.to_string())?,
                )))
            }
        }
    }
}
