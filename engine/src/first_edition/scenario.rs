//! 1st edition scenario files: a table laid out exactly (each model's card
//! from the book, where it stands and how it fares; each deck in order,
//! each hand and pool), the players' orders, and what must come of them.
//! The same runner as the other editions' files takes them (`edition =
//! "m1e"`); the format is in `docs/scenarios.md`. Text in, a report out: no
//! files here.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::crew::{Crew, Encounter};
use super::facts::Fact;
use super::flow::{Order, Submission, action_points, execute};
use super::objectives::{Deployment, SchemePick, Strategy};
use super::skirmish::{Skirmish, Stage};
use super::{Book, ConditionBook, Setup, start};
use crate::Seat;
use crate::fairness::Bytes32;
use crate::fate::Card;
use crate::scenario::{MAX_SCENARIO_BYTES, MAX_STEPS, Patterns, ScenarioError, unmet_patterns};
use crate::table::{Point, milli};

/// A 1st edition scenario file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// Where the rule comes from: the quick reference's or the errata's
    /// lines.
    pub source: String,
    #[serde(default)]
    pub description: String,
    /// Always "m1e".
    pub edition: String,
    #[serde(default = "scrap")]
    pub encounter: Encounter,
    /// The turn under way (the activation phase of it).
    #[serde(default = "first_turn")]
    pub turn: u8,
    /// The seat that activates first this turn.
    #[serde(default = "seat_a")]
    pub first: Seat,
    /// A model whose activation is under way, with the action points it
    /// starts with; without one, `activating` (or `first`) picks a model.
    #[serde(default)]
    pub acting: Option<u16>,
    #[serde(default)]
    pub activating: Option<Seat>,
    /// Any other stage to start in (the setup's, the draw phase's):
    /// `stage = { stage = "choosing_schemes" }`.
    #[serde(default)]
    pub stage: Option<Stage>,
    #[serde(default = "standard")]
    pub deployment: Deployment,
    /// The Treasure Hunt marker, loose on the table, in inches.
    #[serde(default)]
    pub treasure: Option<[f64; 2]>,
    /// The server seed, as text (its digest is the seed): the shuffles of
    /// discards the scenario causes come from it.
    #[serde(default)]
    pub seed: String,
    #[serde(default)]
    pub players: Players,
    /// Seat A's models first, then seat B's: a model's id is its place in
    /// this list, from 0.
    pub models: Vec<ModelSpec>,
    #[serde(default)]
    pub steps: Vec<Step>,
    #[serde(default)]
    pub expect: Option<Expect>,
}

fn scrap() -> Encounter {
    Encounter::Scrap
}
fn first_turn() -> u8 {
    1
}
fn seat_a() -> Seat {
    Seat::A
}
fn standard() -> Deployment {
    Deployment::Standard
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Players {
    #[serde(default)]
    pub a: PlayerSpec,
    #[serde(default)]
    pub b: PlayerSpec,
}

/// A player's cards, soulstones and objectives.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    /// The crew's faction (schemes and hiring read it).
    #[serde(default)]
    pub faction: Option<String>,
    /// The top of the deck, top card first; the cards not given anywhere
    /// go under it in the deck's fixed order.
    #[serde(default)]
    pub deck: Vec<Card>,
    #[serde(default)]
    pub hand: Vec<Card>,
    #[serde(default)]
    pub discard: Vec<Card>,
    #[serde(default)]
    pub soulstones: u8,
    #[serde(default)]
    pub strategy: Option<Strategy>,
    #[serde(default)]
    pub schemes: Vec<SchemePick>,
}

/// A model: its card from the book and how it stands.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSpec {
    /// Its place in the list (checked: it names the model in orders).
    pub id: u16,
    pub card: String,
    pub owner: Seat,
    /// Where it stands, in inches (none: off the table).
    #[serde(default)]
    pub at: Option<[f64; 2]>,
    /// Wounds left (the card's Wd when not given).
    #[serde(default)]
    pub wounds: Option<u8>,
    /// Conditions by the book's names, with their values.
    #[serde(default)]
    pub conditions: BTreeMap<String, u8>,
    #[serde(default)]
    pub activated: bool,
    #[serde(default)]
    pub defensive: bool,
    #[serde(default)]
    pub falling_back: bool,
    /// It carries the Treasure Hunt marker.
    #[serde(default)]
    pub carries_treasure: bool,
}

/// One order, and whether the rules refuse it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub by: Seat,
    pub order: Order,
    /// Words the refusal must contain: the order is refused and changes
    /// nothing.
    #[serde(default)]
    pub refused: Option<String>,
    #[serde(default)]
    pub note: String,
}

/// What must come out: facts in order (each matched as the docs say),
/// facts that must not happen, the final state, and who it waits for.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    #[serde(default)]
    pub facts: Vec<Value>,
    #[serde(default)]
    pub never: Vec<Value>,
    #[serde(default)]
    pub state: Option<Value>,
    #[serde(default)]
    pub waiting_for: Option<Vec<Seat>>,
}

/// What a step did.
#[derive(Debug, Clone, Serialize)]
pub struct StepReport {
    pub by: Seat,
    /// The facts it caused, or the refusal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// What running a scenario gave.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    pub name: String,
    pub initial: Skirmish,
    pub steps: Vec<StepReport>,
    pub facts: Vec<Fact>,
    #[serde(rename = "final")]
    pub final_state: Skirmish,
    pub waiting_for: Vec<Seat>,
    pub failures: Vec<String>,
}

impl Scenario {
    pub fn from_toml(text: &str) -> Result<Self, ScenarioError> {
        Self::checked(text, toml::from_str(text).map_err(|e| e.to_string()))
    }

    pub fn from_json(text: &str) -> Result<Self, ScenarioError> {
        Self::checked(text, serde_json::from_str(text).map_err(|e| e.to_string()))
    }

    fn checked(text: &str, parsed: Result<Self, String>) -> Result<Self, ScenarioError> {
        if text.len() > MAX_SCENARIO_BYTES {
            return Err(ScenarioError::Parse(format!(
                "larger than {MAX_SCENARIO_BYTES} bytes"
            )));
        }
        let scenario = parsed.map_err(ScenarioError::Parse)?;
        if scenario.edition != "m1e" {
            return Err(ScenarioError::Parse(format!(
                "edition {:?} is not the 1st edition (m1e)",
                scenario.edition
            )));
        }
        if scenario.steps.len() > MAX_STEPS {
            return Err(ScenarioError::Parse(format!("more than {MAX_STEPS} steps")));
        }
        Ok(scenario)
    }

    /// The game the file lays out, its models' cards from `book`.
    pub fn initial_state(
        &self,
        book: &Book,
        conditions: &ConditionBook,
    ) -> Result<Skirmish, ScenarioError> {
        let setup_error = |message: String| ScenarioError::Setup(message);
        let mut owners_seen_b = false;
        for (place, model) in self.models.iter().enumerate() {
            if usize::from(model.id) != place {
                return Err(setup_error(format!(
                    "model {} is listed at place {place}: a model's id is its place in the list, from 0",
                    model.id
                )));
            }
            owners_seen_b |= model.owner == Seat::B;
            if owners_seen_b && model.owner == Seat::A {
                return Err(setup_error(format!(
                    "model {} of seat A follows seat B's: list seat A's models first",
                    model.id
                )));
            }
        }
        let crew = |seat: Seat, spec: &PlayerSpec| -> Result<Crew, ScenarioError> {
            let models = self
                .models
                .iter()
                .filter(|m| m.owner == seat)
                .map(|m| {
                    book.model(&m.card)
                        .cloned()
                        .ok_or_else(|| setup_error(format!("the book has no model {:?}", m.card)))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Crew {
                name: format!("Scenario crew {}", seat.label()),
                faction: spec.faction.clone().unwrap_or_default(),
                encounter: self.encounter,
                models,
                spent: 0,
                pool: spec.soulstones,
            })
        };
        let crews = [
            crew(Seat::A, &self.players.a)?,
            crew(Seat::B, &self.players.b)?,
        ];
        let mut game = start(Setup {
            encounter: self.encounter,
            crews,
            summonable: book.models().cloned().collect(),
            conditions: conditions.clone(),
            seed: Bytes32::digest_of(&self.seed),
        })
        .map_err(|e| setup_error(e.to_string()))?;
        game.contributions = [Some(Bytes32::default()); 2];
        game.deployment = Some(self.deployment);
        game.first_deployer = Some(Seat::A);
        game.turn = self.turn;
        game.first = self.first;
        game.treasure = self.treasure.map(inches);
        for (seat, spec) in Seat::BOTH
            .into_iter()
            .zip([&self.players.a, &self.players.b])
        {
            lay_out_player(&mut game, seat, spec).map_err(setup_error)?;
        }
        for (model, spec) in game.models.iter_mut().zip(&self.models) {
            model.at = spec.at.map(inches);
            if let Some(wounds) = spec.wounds {
                if wounds == 0 || wounds > model.card.wd {
                    return Err(setup_error(format!(
                        "model {}: wounds are 1 to its Wd {}",
                        spec.id, model.card.wd
                    )));
                }
                model.wounds_left = wounds;
            }
            for (name, value) in &spec.conditions {
                if conditions.rule(name).is_none() {
                    return Err(setup_error(format!(
                        "model {}: the condition book has no {name:?}",
                        spec.id
                    )));
                }
                model.conditions.push((name.clone(), *value));
            }
            model.activated = spec.activated;
            model.defensive = spec.defensive;
            model.falling_back = spec.falling_back;
            model.carries_treasure = spec.carries_treasure;
        }
        game.stage = match (self.acting, &self.stage) {
            (Some(_), Some(_)) => {
                return Err(setup_error(
                    "a file gives a model acting or a stage, not both".into(),
                ));
            }
            (None, Some(stage)) => stage.clone(),
            (Some(id), None) => {
                let model = game
                    .models
                    .get_mut(usize::from(id))
                    .ok_or_else(|| setup_error(format!("no model {id} is acting")))?;
                model.activated = true;
                let model = model.clone();
                Stage::Acting {
                    activation: action_points(&game, &model),
                }
            }
            (None, None) => Stage::Activating {
                seat: self.activating.unwrap_or(self.first),
            },
        };
        // In the schemes' stage nobody has chosen yet.
        if game.stage == Stage::ChoosingSchemes {
            for player in &mut game.players {
                player.schemes_chosen = false;
            }
        }
        Ok(game)
    }

    /// Sends the steps' orders; a step refused when it should not be (or
    /// the other way round) is a failure, and the run stops there.
    pub fn run(&self, book: &Book, conditions: &ConditionBook) -> Result<Run, ScenarioError> {
        let initial = self.initial_state(book, conditions)?;
        let mut game = initial.clone();
        let mut facts = Vec::new();
        let mut steps = Vec::new();
        let mut failures = Vec::new();
        for (number, step) in self.steps.iter().enumerate() {
            let submission = Submission::Player {
                seat: step.by,
                version: game.version,
                order: step.order.clone(),
            };
            let before = serde_json::to_value(&game).unwrap_or(Value::Null);
            match (execute(&mut game, &submission), &step.refused) {
                (Ok(made), None) => {
                    steps.push(StepReport {
                        by: step.by,
                        facts: Some(made.len()),
                        refused: None,
                    });
                    facts.extend(made);
                }
                (Err(error), Some(words)) => {
                    let message = error.to_string();
                    if !message.contains(words.as_str()) {
                        failures.push(format!(
                            "step {}: refused with {message:?}, which does not say {words:?}",
                            number + 1
                        ));
                    }
                    if serde_json::to_value(&game).unwrap_or(Value::Null) != before {
                        failures.push(format!("step {}: the refusal changed the game", number + 1));
                    }
                    steps.push(StepReport {
                        by: step.by,
                        facts: None,
                        refused: Some(message),
                    });
                }
                (Ok(_), Some(words)) => {
                    failures.push(format!(
                        "step {}: {:?} was allowed, but the file expects it refused ({words:?})",
                        number + 1,
                        step.order
                    ));
                    break;
                }
                (Err(error), None) => {
                    failures.push(format!(
                        "step {}: {:?} by {} was refused: {error}",
                        number + 1,
                        step.order,
                        step.by.label()
                    ));
                    break;
                }
            }
        }
        let waiting_for = Seat::BOTH
            .into_iter()
            .filter(|s| game.waits_for(*s))
            .collect();
        Ok(Run {
            name: self.name.clone(),
            initial,
            steps,
            facts,
            final_state: game,
            waiting_for,
            failures,
        })
    }

    /// Runs the file and checks what it expects.
    pub fn check(&self, book: &Book, conditions: &ConditionBook) -> Result<Run, ScenarioError> {
        let mut run = self.run(book, conditions)?;
        if let Some(expect) = &self.expect {
            let failures = expectations_unmet(expect, &run);
            run.failures.extend(failures);
        }
        Ok(run)
    }
}

fn inches([x, y]: [f64; 2]) -> Point {
    Point {
        x: milli(x),
        y: milli(y),
    }
}

/// Lays out a player's cards, soulstones and objectives.
fn lay_out_player(game: &mut Skirmish, seat: Seat, spec: &PlayerSpec) -> Result<(), String> {
    let given: Vec<Card> = spec
        .deck
        .iter()
        .chain(&spec.hand)
        .chain(&spec.discard)
        .copied()
        .collect();
    for (i, card) in given.iter().enumerate() {
        if given[..i].contains(card) {
            return Err(format!("{} holds {card} twice", seat.label()));
        }
    }
    // The deck's top is its last card.
    let mut deck: Vec<Card> = Card::all().filter(|c| !given.contains(c)).collect();
    deck.extend(spec.deck.iter().rev());
    let player = &mut game.players[seat.index()];
    player.deck_size = deck.len();
    player.deck = deck;
    player.hand = spec.hand.clone();
    player.hand_size = spec.hand.len();
    player.discards = spec.discard.clone();
    player.soulstones = spec.soulstones;
    player.strategy = spec.strategy;
    player.schemes = spec.schemes.clone();
    player.schemes_chosen = true;
    Ok(())
}

fn expectations_unmet(expect: &Expect, run: &Run) -> Vec<String> {
    let facts: Vec<Value> = run
        .facts
        .iter()
        .map(|f| serde_json::to_value(f).unwrap_or(Value::Null))
        .collect();
    let state = serde_json::to_value(&run.final_state).unwrap_or(Value::Null);
    let mut failures = unmet_patterns(
        Patterns {
            kind: "fact",
            noun: "fact",
            in_order: &expect.facts,
            never: &expect.never,
            state: expect.state.as_ref(),
        },
        &facts,
        &state,
    );
    if let Some(seats) = &expect.waiting_for
        && &run.waiting_for != seats
    {
        failures.push(format!(
            "expected the game to wait for {seats:?}, but it waits for {:?}",
            run.waiting_for
        ));
    }
    failures
}
