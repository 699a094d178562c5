//! The 1st edition encounter as it stands: the setup it starts from, each
//! player's fate deck, hand and soulstones, the models on the table, and
//! the stage the game waits at. It changes only by its facts
//! ([`super::facts`]).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::card::ModelCard;
use super::conditions::ConditionBook;
use super::crew::{Crew, Encounter};
use super::duel::Duel;
use super::objectives::{Deployment, SchemePick, Strategy};
use crate::Seat;
use crate::fairness::Bytes32;
use crate::fate::Card;
use crate::table::Point;

/// A model in the game, by its place in the list (crews' models, then
/// those summoned).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(transparent)]
pub struct ModelId(pub u16);

/// Everything a game starts from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Setup {
    pub encounter: Encounter,
    /// Player A's crew, then player B's, hired by the rules.
    pub crews: [Crew; 2],
    /// Cards the crews' spells may summon.
    #[serde(default)]
    pub summonable: Vec<ModelCard>,
    pub conditions: ConditionBook,
    /// The server's secret seed, committed to at the start.
    pub seed: Bytes32,
}

/// A player's cards and soulstones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub crew_name: String,
    pub faction: String,
    /// Face down, the top last. A view holds only its length.
    pub deck: Vec<Card>,
    pub deck_size: usize,
    /// The control hand; a view holds it for its owner only.
    pub hand: Vec<Card>,
    pub hand_size: usize,
    pub discards: Vec<Card>,
    pub soulstones: u8,
    /// Shuffles of this player's deck so far (each is keyed by its number).
    pub shuffles: u32,
    pub strategy: Option<Strategy>,
    /// Hidden from the other player until announced or the game's end.
    pub schemes: Vec<SchemePick>,
    pub schemes_chosen: bool,
    /// Scheme points scored during the game (Kidnap).
    pub scheme_points_scored: u8,
}

/// A model's lasting state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Model {
    pub id: ModelId,
    pub seat: Seat,
    pub card: Arc<ModelCard>,
    /// Not yet deployed (or summoned): none.
    pub at: Option<Point>,
    pub wounds_left: u8,
    pub killed: bool,
    pub activated: bool,
    /// Conditions by name, with their value (counters).
    pub conditions: Vec<(String, u8)>,
    /// Defensive stance until the closing phase.
    pub defensive: bool,
    /// Fell back after a failed morale duel; rallies at its next activation.
    pub falling_back: bool,
    /// Terrifying models it has passed a morale duel against.
    pub steeled_against: Vec<ModelId>,
    /// Carries the Treasure Hunt marker.
    pub carries_treasure: bool,
}

impl Model {
    pub fn on_table(&self) -> bool {
        self.at.is_some() && !self.killed
    }

    pub fn condition(&self, name: &str) -> u8 {
        self.conditions
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, v)| *v)
    }
}

/// The activation under way: its model and the action points it has left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    pub model: ModelId,
    pub general_ap: u8,
    /// Strikes and casts beyond the general action points (the experts).
    pub extra_melee: u8,
    pub extra_ranged: u8,
    pub extra_cast: u8,
    /// Actions taken so far (defensive stance must be the first).
    pub actions: u8,
    /// A (0) spell cast this activation.
    pub zero_cast: bool,
}

/// Who flipped what for initiative this turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Initiative {
    pub flips: [Option<Card>; 2],
    /// Seats that have used their soulstone re-flip this step.
    pub reflipped: [bool; 2],
}

/// A damage flip being resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageFlip {
    pub source: Option<ModelId>,
    pub target: ModelId,
    pub damage: super::card::Damage,
    pub kind: DamageKind,
    /// Twists on the flip (positive: the higher card).
    pub twist: i8,
    /// Damage added by triggers.
    pub added: u8,
    pub flipped: Vec<Card>,
    pub card: Card,
    /// The attacker's controller replaced the card from their hand.
    pub cheated: bool,
    /// The damage before reductions, once the flip is final.
    pub amount: Option<u8>,
    /// A melee strike's damage (Kidnap counts them).
    pub melee: bool,
}

/// Where damage comes from: armor of one kind or another applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageKind {
    Melee,
    Ranged,
    Spell,
}

/// What the game waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Stage {
    /// Both players add entropy to the decks' shuffles.
    Contributing,
    /// A player whose strategy flip was a joker chooses one.
    ChoosingStrategy {
        seat: Seat,
    },
    /// A joker for deployment: this seat chooses the type.
    ChoosingDeployment {
        seat: Seat,
    },
    /// Both choose schemes at once, in secret.
    ChoosingSchemes,
    /// The higher deployment flip chooses to deploy first or second.
    ChoosingDeployOrder {
        seat: Seat,
    },
    /// This seat deploys its next model.
    Deploying {
        seat: Seat,
    },
    /// The draw phase: this seat discards any cards, then draws.
    Discarding {
        seat: Seat,
    },
    /// The lower initiative flip may spend a soulstone to flip again.
    Reflipping {
        seat: Seat,
        initiative: Initiative,
    },
    /// This seat picks a model to activate (or skips a halted one).
    Activating {
        seat: Seat,
    },
    /// A model spends its action points.
    Acting {
        activation: Activation,
    },
    /// A duel waits for a change or a trigger.
    Dueling {
        activation: Option<Activation>,
        duel: Box<Duel>,
    },
    /// A damage flip: the attacker's controller may cheat it.
    CheatingDamage {
        activation: Option<Activation>,
        flip: Box<DamageFlip>,
        then: Box<Continuation>,
    },
    /// The damaged model's controller may spend a soulstone to prevent.
    Preventing {
        activation: Option<Activation>,
        flip: Box<DamageFlip>,
        then: Box<Continuation>,
    },
    Over,
}

/// What happens once a damage flip is resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "then", rename_all = "snake_case")]
pub enum Continuation {
    /// Back to the activation (or the turn, outside one).
    Resume,
    /// The spell's remaining effects on its target.
    SpellEffects {
        caster: ModelId,
        spell: u8,
        target: ModelId,
        from: u8,
        /// The casting total over the resist (or the casting cost).
        margin: i16,
        channel: bool,
    },
}

/// The whole game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Skirmish {
    pub version: u64,
    pub encounter: Encounter,
    pub conditions: Arc<ConditionBook>,
    pub summonable: Arc<Vec<ModelCard>>,
    /// The server's seed: hidden from every view until revealed at the end.
    pub seed: Bytes32,
    pub commitment: Bytes32,
    pub contributions: [Option<Bytes32>; 2],
    pub revealed: bool,
    pub players: [Player; 2],
    pub models: Vec<Model>,
    pub deployment: Option<Deployment>,
    /// The deployment flip (a joker gives one player the choice).
    pub deployment_flip: Option<Card>,
    /// The seat that deploys first (its zone is the southern one).
    pub first_deployer: Option<Seat>,
    pub turn: u8,
    /// This turn's activation order, the first seat first.
    pub first: Seat,
    pub stage: Stage,
    /// The Treasure Hunt marker on the table, if it is there and loose.
    pub treasure: Option<Point>,
    /// Game-length flips after the 6th turn.
    pub final_turn: Option<u8>,
    /// Each seat's VP once the game is over: (strategy, schemes).
    pub result: Option<[(u8, u8); 2]>,
}

impl Skirmish {
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    pub fn model(&self, id: ModelId) -> Option<&Model> {
        self.models.get(usize::from(id.0))
    }

    pub fn crew(&self, seat: Seat) -> impl Iterator<Item = &Model> {
        self.models.iter().filter(move |m| m.seat == seat)
    }

    pub fn on_table(&self, seat: Seat) -> impl Iterator<Item = &Model> {
        self.crew(seat).filter(|m| m.on_table())
    }

    pub fn waits_for(&self, seat: Seat) -> bool {
        super::flow::waits_for(self, seat)
    }

    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }
}
