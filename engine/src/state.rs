//! The game state and `apply`, the only place it changes.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::ability::AbilityEffect;
use super::damage::{DamageInstance, DamageProgress};
use super::duel::DuelStep;
use super::duel::Role;
use super::duel::{Duel, Outcome};
use super::encounter::{Encounter, EncounterSetup, Step};
use super::event::{ActionSlot, Event};
use super::fairness::{self, Bytes32, FAIRNESS_SCHEME};
use super::fate::{Card, DECK_SIZE};
use super::flip::{FlipInProgress, FlipPurpose, RevealedCards};
use super::limits::{MAX_MARKERS, MAX_MODELS, MAX_SOULSTONES};
use super::marker::{MarkerBook, MarkerDef};
use super::model::{Model, ModelId, ModelStatus, Placement};
use super::pile::Pile;
use super::table::{Marker, MarkerKind, ObjectId, Piece, Point, Table, Terrain};
use super::token::TokenBook;
use super::{Edition, Seat};

/// One player's cards and soulstones.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PlayerState {
    /// Face down; the top card is last.
    pub deck: Pile,
    pub hand: Pile,
    /// Face up; the top card is last.
    pub discard: Pile,
    pub removed: Pile,
    /// Cards revealed by a flip, waiting for the choice of which one to use.
    pub revealed: Pile,
    /// Cards in the conflict (two when both sides of a duel are this player's).
    pub conflict: Pile,
    pub soulstones: u16,
    /// Victory points scored so far.
    #[serde(default)]
    pub victory_points: u8,
}

impl PlayerState {
    /// Every card this player owns, wherever it is (always 54).
    pub fn card_count(&self) -> usize {
        self.deck.len()
            + self.hand.len()
            + self.discard.len()
            + self.removed.len()
            + self.revealed.len()
            + self.conflict.len()
    }
}

/// The server's commitment, the players' contributions and the shuffles so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fairness {
    /// Borrowed for new games: copying a state then allocates nothing for it.
    pub scheme: std::borrow::Cow<'static, str>,
    pub commitment: Bytes32,
    /// Secret until the game ends; never shown in a view before that.
    pub seed: Bytes32,
    pub contributions: [Option<Bytes32>; 2],
    pub shuffles: [u32; 2],
    pub revealed: bool,
}

impl Fairness {
    pub fn new(seed: Bytes32) -> Self {
        Self {
            scheme: std::borrow::Cow::Borrowed(FAIRNESS_SCHEME),
            commitment: fairness::commitment(&seed),
            seed,
            contributions: [None, None],
            shuffles: [0, 0],
            revealed: false,
        }
    }

    pub fn contributions_or_zero(&self) -> [Bytes32; 2] {
        [
            self.contributions[0].unwrap_or_default(),
            self.contributions[1].unwrap_or_default(),
        ]
    }
}

/// The stack of procedures in progress, innermost last. A state and its
/// copies share each frame until one of them writes it: a command usually
/// writes only the innermost, and a bot's probe copies the whole state.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Frames(Vec<Arc<Frame>>);

impl Clone for Frames {
    fn clone(&self) -> Self {
        // Room for the procedures a command starts: a copy made exactly
        // as long would grow again at its first push.
        let mut frames = Vec::with_capacity(self.0.len() + 2);
        frames.extend(self.0.iter().cloned());
        Self(frames)
    }
}

impl Frames {
    fn of(frame: Frame) -> Self {
        Self(vec![Arc::new(frame)])
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn last(&self) -> Option<&Frame> {
        self.0.last().map(|f| &**f)
    }

    pub fn get(&self, index: usize) -> Option<&Frame> {
        self.0.get(index).map(|f| &**f)
    }

    /// Outermost first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Frame> + ExactSizeIterator {
        self.0.iter().map(|f| &**f)
    }

    fn push(&mut self, frame: Frame) {
        self.0.push(Arc::new(frame));
    }

    fn pop(&mut self) {
        self.0.pop();
    }

    fn clear(&mut self) {
        self.0.clear();
    }

    /// The innermost frame, to write (copied if shared).
    fn last_mut(&mut self) -> Option<&mut Frame> {
        self.0.last_mut().map(Arc::make_mut)
    }

    /// The innermost frame `is` picks, to write (only it is copied).
    fn innermost_mut(&mut self, is: impl Fn(&Frame) -> bool) -> Option<&mut Frame> {
        let index = self.0.iter().rposition(|f| is(f))?;
        self.0.get_mut(index).map(Arc::make_mut)
    }

    /// Every frame `is` picks, to write (only they are copied).
    fn iter_mut_where(&mut self, is: impl Fn(&Frame) -> bool) -> impl Iterator<Item = &mut Frame> {
        self.0.iter_mut().filter(move |f| is(f)).map(Arc::make_mut)
    }
}

/// A procedure in progress. The state holds a stack of them, innermost
/// last: each starts inside the one below and hands back to it when it ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "frame", rename_all = "snake_case")]
pub enum Frame {
    /// Waiting for both players' entropy before the first shuffle.
    Contributions,
    Duel {
        /// Inline, not boxed: the state is copied for every command.
        duel: Duel,
    },
    Damage {
        progress: Box<DamageProgress>,
    },
    /// A model's action: its duel, the damage it deals and what follows
    /// happen inside it.
    Action {
        action: Box<ActionInProgress>,
    },
    /// A single flip outside a duel (a 3rd edition damage flip).
    Flip {
        flip: FlipInProgress,
    },
    /// A model's activation: the game flow's actions for it happen inside.
    Activation {
        model: ModelId,
        /// Hazardous terrain suffered this activation, by model and name:
        /// each piece at most once.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hazards: Vec<(ModelId, String)>,
    },
    /// A player must discard `count` cards of their choice (all they hold,
    /// if fewer).
    Discard {
        seat: Seat,
        count: u8,
        reason: DiscardReason,
    },
    /// Abilities that fired at once, waiting for a player to order them.
    Abilities {
        batch: Box<super::ability::AbilityBatch>,
    },
    /// A player picks one of `options` for an effect (`then`).
    ChooseModel {
        seat: Seat,
        options: Vec<ModelId>,
        then: super::ability::ModelChoice,
    },
    /// A player picks one of the markers `options` for an effect (`then`).
    ChooseMarker {
        seat: Seat,
        options: Vec<ObjectId>,
        then: super::ability::MarkerChoice,
    },
    /// An effect's place: `seat` picks where `model` goes, within `inches`
    /// or, when `touching` is given, in base contact with that model.
    Place {
        seat: Seat,
        model: ModelId,
        inches: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        touching: Option<ModelId>,
    },
    /// 3rd edition blasts: `seat` drops `count` markers (those `dropped`
    /// so far), then the models they touch suffer `damage`.
    Blasts {
        seat: Seat,
        target: ModelId,
        count: u8,
        damage: u8,
        source: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        credit: Option<ModelId>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dropped: Vec<Point>,
    },
    /// An execute effect's way out: `seat` discards a card or a soulstone
    /// for `model`, or lets it be killed.
    KillUnlessPaid {
        seat: Seat,
        model: ModelId,
    },
    /// `seat` may draw up to `up_to` cards of value 1 to `max_value`
    /// from its discard pile (Resupply).
    DrawFromDiscard {
        seat: Seat,
        up_to: u8,
        max_value: u8,
    },
    /// An effect's move: `seat` sends the path `model` moves along, up
    /// to `inches` (staying put is a path too).
    Move {
        seat: Seat,
        model: ModelId,
        inches: u8,
        /// A push: one straight line (3rd edition Disengage's).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        push: bool,
    },
    /// 3rd edition Disengage by `model`, inside its action: the strike an
    /// engaging enemy may make, the flip a successful one asks for, then
    /// the push.
    Disengage {
        model: ModelId,
        stage: DisengageStage,
    },
    /// A replace: `seat` picks where the model called `with` stands,
    /// touching `model`, which it replaces.
    Replace {
        seat: Seat,
        model: ModelId,
        with: String,
        /// The other models it replaces along with `model`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        also: Vec<ModelId>,
    },
    /// A summoning action's success: `seat` picks which of `options` to
    /// summon and where, around `summoner`.
    Summon {
        seat: Seat,
        summoner: ModelId,
        options: Vec<String>,
    },
    /// A "this or that" choice for `model`, waiting for its controller.
    Either {
        seat: Seat,
        model: ModelId,
        options: [super::ability::EitherOption; 2],
    },
}

/// Where a Disengage stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum DisengageStage {
    /// The enemy crew chooses a model engaging it to strike, or none.
    Strike,
    /// The strike succeeded: `seat` flips for the reduction once the
    /// strike has ended.
    Struck { seat: Seat, modifiers: i8 },
    /// The push, this many inches short of its Mv.
    Push { reduction: u8 },
}

/// Why a player discards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscardReason {
    /// Down to the maximum hand size.
    HandLimit,
    /// An ability asks for it.
    Ability,
}

/// An action being resolved (the action procedure's frame).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionInProgress {
    pub actor: ModelId,
    pub name: String,
    pub target: Option<ModelId>,
    /// How it was declared: an additional action an effect generated may
    /// not generate another (one a Charge generated may).
    #[serde(default)]
    pub slot: ActionSlot,
    /// The crew making its decisions when it is not the model's own: an
    /// action under control, or one an action under control generated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<Seat>,
    /// Its after-succeeding effects have resolved (set when one of them
    /// kills a model or asks a player for a model, which may wait on
    /// players before the action can end).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub effects_resolved: bool,
    /// The trigger its model declared in its duel, for the after-succeeding
    /// effects that resolve once the duel and its damage are over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// Hazardous terrain models were pushed through during the action, by
    /// model: each suffers it once the action has resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pushed_through: Vec<(ModelId, String)>,
}

/// An additional action waiting for the action that generated it to end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedAction {
    pub model: ModelId,
    /// None until its controller names it: an action generated under
    /// control is chosen from the model's card as soon as the action that
    /// generated it has resolved, before any queued action is declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The model it must target; none: chosen when it is declared.
    pub target: Option<ModelId>,
    /// "A different model": the target chosen may not be this one, the
    /// one the effect most recently affected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub different_from: Option<ModelId>,
    /// Who makes its decisions, when not the model's own crew (control).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<Seat>,
    /// The melee action a Charge generated: any melee action of the model,
    /// named when it comes to be declared; unlike other additional
    /// actions it may generate another.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_charge: bool,
    /// An action of this kind the model may declare, or decline, named
    /// when it comes to be declared (Ash on the Wind's melee action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of_kind: Option<crate::duel::ActionKind>,
}

/// The general actions a controlled model may be made to declare in
/// `edition`: once named, the controller sends the command itself (a path,
/// a marker, a token).
pub fn controlled_general_actions(edition: Edition) -> &'static [&'static str] {
    crate::encounter::EncounterRules::of(edition).general_actions
}

impl QueuedAction {
    /// The action in progress again, by the same model under the same
    /// control, as an additional action: against `target`, or against a
    /// model chosen when it is declared, other than `different_from`.
    pub(crate) fn again(
        action: &ActionInProgress,
        target: Option<ModelId>,
        different_from: Option<ModelId>,
    ) -> Self {
        QueuedAction {
            model: action.actor,
            action: Some(action.name.clone()),
            target,
            different_from,
            controller: action.controller,
            from_charge: false,
            of_kind: None,
        }
    }

    /// The kind its action must be: a Charge's is a melee action.
    pub fn required_kind(&self) -> Option<crate::duel::ActionKind> {
        if self.from_charge {
            Some(crate::duel::ActionKind::Melee)
        } else {
            self.of_kind
        }
    }

    /// Named only once it is first in line, against a model in reach
    /// then; its model "may" declare it, so its controller may decline.
    pub fn named_when_declared(&self) -> bool {
        self.required_kind().is_some()
    }

    /// The crew that decides for it: its controller, or the model's owner.
    pub fn decided_by(&self, state: &GameState) -> Option<Seat> {
        self.controller
            .or_else(|| state.model(self.model).map(|m| m.owner))
    }

    /// Whether it waits for its controller before it can be declared.
    pub fn needs_choice(&self) -> bool {
        self.action.is_none() || self.target.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// Moves on with every event; commands carry the version they saw.
    pub version: u64,
    pub edition: Edition,
    pub fairness: Fairness,
    pub players: [PlayerState; 2],
    /// Shared until an event changes a model, and each model shared until
    /// an event changes it: the state is copied for every command checked,
    /// and a command changes a model or two at most. Changed only through
    /// `models_mut`, which drops the table built from them.
    pub models: Arc<Vec<Arc<Model>>>,
    /// What each token does (content, fixed for the game).
    pub tokens: Arc<TokenBook>,
    /// The marker types (content, fixed for the game).
    pub marker_types: Arc<MarkerBook>,
    /// The models each crew's actions may summon (content: public once the
    /// crews are revealed, fixed from then on).
    #[serde(default, skip_serializing_if = "no_summonable")]
    pub summonable: Arc<Summonable>,
    /// The upgrade cards effects of this game may attach (content,
    /// carried from the setup so a replay needs none).
    #[serde(default, skip_serializing_if = "no_upgrades")]
    pub upgrade_cards: Arc<Vec<crate::model::UpgradeCard>>,
    /// The procedures in progress, innermost last (at most `MAX_FRAMES`);
    /// empty when the game waits for its flow's next command.
    pub frames: Frames,
    pub ended: bool,
    /// Damage waiting to be resolved, in order.
    pub damage_queue: Vec<DamageInstance>,
    /// Additional actions generated by effects, declared in order once the
    /// action that generated them has resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub action_queue: Vec<QueuedAction>,
    /// The table's terrain: fixed for the game, so shared between copies.
    #[serde(default)]
    pub terrain: Arc<crate::table::TerrainSet>,
    /// Markers on the table (remains, scheme and strategy markers).
    #[serde(default)]
    /// Shared with the tables built from the state (copied on write).
    /// Changed only through `markers_mut`, which drops the table.
    pub markers: Arc<Vec<Marker>>,
    /// The id the next marker gets.
    #[serde(default = "first_marker_id")]
    pub next_marker_id: u32,
    /// The last duel's outcome (the damage that follows reads it).
    pub last_outcome: Option<Outcome>,
    /// A whole encounter's game flow, when the game is one. Shared until a
    /// fact changes it: the state is copied for every command checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<Arc<Encounter>>,
    /// The table built from the state's models and markers (`GameState::table`).
    #[serde(skip)]
    pub table_cache: TableCache,
}

/// The table a state builds, kept until a model or marker changes: the
/// rules check the table many times between two facts, the copies a bot's
/// probes make share it, and most facts (a card cheated, a duel's step)
/// change neither. Whatever changes the models or markers empties it
/// (`GameState::models_mut`, `markers_mut`). Never part of what makes two
/// states equal.
#[derive(Default, Clone)]
pub struct TableCache(std::sync::OnceLock<Arc<Table>>);

impl PartialEq for TableCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for TableCache {}

impl std::fmt::Debug for TableCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TableCache")
    }
}

/// How a new game starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub edition: Edition,
    pub seed: Bytes32,
    pub soulstones: [u16; 2],
    pub models: Vec<Model>,
    /// The edition's tokens (`content/<edition>/tokens.toml`): the log keeps
    /// them, so a replay reads the tokens as the game did.
    pub tokens: TokenBook,
    /// The edition's marker types (`content/<edition>/markers.toml`), kept
    /// in the log like the tokens.
    pub marker_types: MarkerBook,
    /// The table's terrain (none: a game without a table, as in the duel
    /// examples).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<Terrain>,
    /// The models each crew's actions may summon (an encounter's come
    /// with the crew hired).
    #[serde(default, skip_serializing_if = "no_summonable")]
    pub summonable: Summonable,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrade_cards: Vec<crate::model::UpgradeCard>,
    /// A whole 4th edition encounter (none: the game flow comes from
    /// outside, as in the rulebook examples).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<EncounterSetup>,
}

/// Each crew's summonable models, by seat.
pub type Summonable = [Vec<Arc<crate::model::ModelCard>>; 2];

fn no_upgrades(cards: &Arc<Vec<crate::model::UpgradeCard>>) -> bool {
    cards.is_empty()
}

fn no_summonable(summonable: &Summonable) -> bool {
    summonable.iter().all(Vec::is_empty)
}

/// Table objects that are not models get ids from here up, so a model's id
/// is also its id on the table.
pub const FIRST_TABLE_OBJECT_ID: u32 = 1 << 16;

fn first_marker_id() -> u32 {
    FIRST_TABLE_OBJECT_ID + (1 << 15)
}

impl GameState {
    /// The first queued action still to be named whose model is in play:
    /// its controller names it before any queued action is declared.
    /// A Charge's melee action is named only once it is first in line.
    pub fn unnamed_queued(&self) -> Option<&QueuedAction> {
        self.action_queue.iter().enumerate().find_map(|(index, q)| {
            (q.action.is_none()
                && (!q.named_when_declared() || index == 0)
                && self.model(q.model).is_some_and(|m| m.in_play()))
            .then_some(q)
        })
    }

    /// The queue's first action, when it is a general action waiting for
    /// its command (a path, a marker, a token).
    pub fn queued_general(&self) -> Option<&QueuedAction> {
        self.action_queue.first().filter(|q| {
            q.target.is_none()
                && q.action
                    .as_deref()
                    .is_some_and(|a| controlled_general_actions(self.edition).contains(&a))
        })
    }

    /// A new game: full decks (shuffled once both players contribute).
    pub fn new(setup: NewGame) -> Result<Self, super::RuleError> {
        let mut players = [PlayerState::default(), PlayerState::default()];
        for (player, soulstones) in players.iter_mut().zip(setup.soulstones) {
            let cards: Vec<Card> = Card::all().collect();
            player.deck = Pile::from_top_down(&cards);
            player.soulstones = soulstones.min(MAX_SOULSTONES);
        }
        let state = Self {
            version: 0,
            edition: setup.edition,
            fairness: Fairness::new(setup.seed),
            players,
            models: Arc::new(setup.models.into_iter().map(Arc::new).collect()),
            tokens: Arc::new(setup.tokens),
            marker_types: Arc::new(setup.marker_types),
            summonable: Arc::new(setup.summonable),
            upgrade_cards: Arc::new(setup.upgrade_cards),
            // An encounter's shuffle comes after deployment (setup step L).
            frames: if setup.encounter.is_some() {
                Frames::default()
            } else {
                Frames::of(Frame::Contributions)
            },
            ended: false,
            terrain: Arc::new(setup.terrain.into()),
            markers: Arc::default(),
            next_marker_id: first_marker_id(),
            damage_queue: Vec::new(),
            action_queue: Vec::new(),
            last_outcome: None,
            encounter: setup
                .encounter
                .map(|e| Arc::new(Encounter::new(e, setup.edition))),
            table_cache: TableCache::default(),
        };
        state.validate()?;
        Ok(state)
    }

    /// Checks invariants of a state built by hand (scenarios).
    pub fn validate(&self) -> Result<(), super::RuleError> {
        use super::RuleError;
        if self.models.len() > MAX_MODELS {
            return Err(RuleError::invalid(format!("at most {MAX_MODELS} models")));
        }
        if self.markers.len() > MAX_MARKERS {
            return Err(RuleError::invalid(format!("at most {MAX_MARKERS} markers")));
        }
        for terrain in self.terrain.iter() {
            if terrain.id.0 < FIRST_TABLE_OBJECT_ID || terrain.id.0 >= first_marker_id() {
                return Err(RuleError::invalid(format!(
                    "terrain {:?} needs an id from {FIRST_TABLE_OBJECT_ID} to {}",
                    terrain.name,
                    first_marker_id() - 1
                )));
            }
            if let Some(token) = terrain.hazard
                && !self.tokens.contains(token)
            {
                return Err(RuleError::invalid(format!(
                    "terrain {:?}: its hazard gives {token}, which is not a token of {}",
                    terrain.name,
                    self.edition.name()
                )));
            }
        }
        for def in self.marker_types.markers() {
            if let Some(token) = def.hazard.filter(|t| !self.tokens.contains(*t)) {
                return Err(RuleError::invalid(format!(
                    "marker {:?}: its hazard gives {token}, which is not a token of {}",
                    def.name,
                    self.edition.name()
                )));
            }
        }
        if self.tokens.edition != self.edition || self.marker_types.edition != self.edition {
            return Err(RuleError::invalid(format!(
                "the tokens and markers must be {}'s",
                self.edition.name()
            )));
        }
        let mut ids = std::collections::BTreeSet::new();
        for model in self.models.iter() {
            model.validate().map_err(RuleError::invalid)?;
            for ability in &model.card.abilities {
                for effect in &ability.effects {
                    if let AbilityEffect::MakeMarker { marker }
                    | AbilityEffect::RemoveMarkers { marker, .. } = effect
                        && self.marker_types.named(marker).is_none()
                    {
                        return Err(RuleError::invalid(format!(
                            "{}: {}: no marker type called {marker:?}",
                            model.card.name, ability.name
                        )));
                    }
                }
            }
            if let Some((token, _)) = model.tokens.iter().find(|(t, _)| !self.tokens.contains(*t)) {
                return Err(RuleError::invalid(format!(
                    "{} holds {token}, which is not a token of {}",
                    model.card.name,
                    self.edition.name()
                )));
            }
            if !ids.insert(model.id) {
                return Err(RuleError::invalid(format!(
                    "model id {} is used twice",
                    model.id.0
                )));
            }
        }
        for (seat, player) in Seat::BOTH.iter().zip(&self.players) {
            if player.card_count() != DECK_SIZE {
                return Err(RuleError::invalid(format!(
                    "{} must own exactly 54 cards, not {}",
                    seat.label(),
                    player.card_count()
                )));
            }
            let mut seen = std::collections::BTreeSet::new();
            let all = player
                .deck
                .as_slice()
                .iter()
                .chain(player.hand.as_slice())
                .chain(player.discard.as_slice())
                .chain(player.removed.as_slice())
                .chain(player.revealed.as_slice())
                .chain(player.conflict.as_slice());
            for card in all {
                if !seen.insert(*card) {
                    return Err(RuleError::invalid(format!(
                        "{} has the card {card} twice",
                        seat.label()
                    )));
                }
            }
            if player.victory_points > super::limits::MAX_VICTORY_POINTS {
                return Err(RuleError::invalid(format!(
                    "at most {} victory points",
                    super::limits::MAX_VICTORY_POINTS
                )));
            }
            if player.soulstones > MAX_SOULSTONES {
                return Err(RuleError::invalid(format!(
                    "at most {MAX_SOULSTONES} soulstones"
                )));
            }
        }
        Ok(())
    }

    pub fn player(&self, seat: Seat) -> &PlayerState {
        &self.players[seat.index()]
    }

    pub fn player_mut(&mut self, seat: Seat) -> &mut PlayerState {
        &mut self.players[seat.index()]
    }

    /// `seat`'s scheme markers on the table.
    pub fn scheme_markers_of(&self, seat: Seat) -> impl Iterator<Item = &Marker> {
        self.markers
            .iter()
            .filter(move |m| m.kind == MarkerKind::Scheme && m.owner == Some(seat))
    }

    pub fn model(&self, id: super::model::ModelId) -> Option<&Model> {
        self.models.get(self.model_index(id)?).map(|m| &**m)
    }

    /// The model, shared: a procedure that reads it while it emits facts
    /// holds it without copying its card and tokens.
    pub fn shared_model(&self, id: super::model::ModelId) -> Option<Arc<Model>> {
        self.models.get(self.model_index(id)?).cloned()
    }

    /// The models, to change: the table built from them goes first.
    fn models_mut(&mut self) -> &mut Vec<Arc<Model>> {
        models_mut_of(&mut self.models, &mut self.table_cache)
    }

    /// The markers, to change: the table built from them goes first (it
    /// shares the list, so the list is then changed in place when no other
    /// state shares it).
    fn markers_mut(&mut self) -> &mut Vec<Marker> {
        self.table_cache = TableCache::default();
        Arc::make_mut(&mut self.markers)
    }

    pub fn model_mut(&mut self, id: super::model::ModelId) -> Option<&mut Model> {
        let index = self.model_index(id)?;
        self.models_mut().get_mut(index).map(Arc::make_mut)
    }

    /// Where `id` sits among the models. Hiring, summoning and replacing
    /// number models from 1 in the order they join, so it is usually at
    /// its id less one (looked up at every rules check); the search is
    /// for a state numbered otherwise (a scenario's).
    fn model_index(&self, id: super::model::ModelId) -> Option<usize> {
        let guess = usize::from(id.0).wrapping_sub(1);
        if self.models.get(guess).is_some_and(|m| m.id == id) {
            return Some(guess);
        }
        self.models.iter().position(|m| m.id == id)
    }

    /// The table as the table rules see it: the terrain, the markers, and
    /// every model in play that stands on it (its id on the table is its
    /// model id).
    pub fn table(&self) -> Arc<Table> {
        Arc::clone(
            self.table_cache
                .0
                .get_or_init(|| Arc::new(self.build_table())),
        )
    }

    fn build_table(&self) -> Table {
        let mut pieces = Vec::with_capacity(self.models.len());
        pieces.extend(
            self.models
                .iter()
                .filter(|m| m.in_play())
                .filter_map(|m| Some(Piece::of_card(m.id, &m.card, m.owner, m.placement?))),
        );
        Table {
            pieces,
            markers: Arc::clone(&self.markers),
            terrain: Arc::clone(&self.terrain),
            auras: self.aura_areas(),
        }
    }

    /// Whether `model` is engaged by an enemy other than `ignoring`. Most
    /// models have no enemy within reach: a look at the bases first, so
    /// that only a model with one builds the table to check sight.
    pub fn is_engaged(&self, model: ModelId, ignoring: Option<ModelId>) -> bool {
        let Some(me) = self.model(model).and_then(|m| m.body()) else {
            return false;
        };
        let near = self.models.iter().any(|enemy| {
            Some(enemy.owner) != me.seat
                && Some(enemy.id) != ignoring
                && enemy.in_play()
                && crate::table::measure::engagement_inches(self.edition, enemy.card.melee_reach())
                    .is_some_and(|inches| {
                        enemy.body().is_some_and(|it| {
                            crate::table::measure::within_card_range(self.edition, &me, &it, inches)
                        })
                    })
        });
        if !near {
            return false;
        }
        let table = self.table();
        let board = crate::table::Board::new(&table, self.edition);
        crate::table::measure::engaged_with(&board, model.object()).is_ok_and(|enemies| {
            enemies
                .iter()
                .any(|e| Some(*e) != ignoring.map(ModelId::object))
        })
    }

    /// The card of a model called `name` that `seat`'s crew may summon or
    /// replace a model with.
    pub fn summonable_card(&self, seat: Seat, name: &str) -> Option<Arc<crate::model::ModelCard>> {
        self.summonable[seat.index()]
            .iter()
            .find(|card| *card.name == *name)
            .cloned()
    }

    /// Whether a model in play holds an Aura token that makes hazardous
    /// terrain.
    pub fn holds_hazardous_aura(&self) -> bool {
        self.held_auras()
            .any(|(_, _, _, aura)| aura.terrain == crate::table::Trait::Hazardous)
    }

    /// Each Aura token a model in play holds: the model, the token, its
    /// definition and its area. Models without tokens (most) cost one
    /// look: a table is built for nearly every check.
    fn held_auras(
        &self,
    ) -> impl Iterator<
        Item = (
            &Model,
            crate::token::Token,
            &crate::token::TokenDef,
            crate::token::TokenAura,
        ),
    > + '_ {
        let any = self.tokens.has_auras();
        self.models
            .iter()
            .filter(move |m| any && !m.tokens.is_empty() && m.in_play())
            .flat_map(move |m| {
                m.tokens.iter().filter_map(move |(token, _)| {
                    let def = self.tokens.def(token)?;
                    Some((&**m, token, def, def.aura?))
                })
            })
    }

    /// The areas the models' Aura tokens make terrain.
    pub(crate) fn aura_areas(&self) -> Vec<crate::table::AuraArea> {
        self.held_auras()
            .filter_map(|(m, token, def, aura)| {
                Some(crate::table::AuraArea::new(
                    m.id.object(),
                    format!("{} of {}", def.name, m.card.name),
                    m.placement?,
                    m.card.base,
                    aura,
                    m.token_applier(token),
                ))
            })
            .collect()
    }

    /// Puts a new marker on the table (none past the limit: the table is
    /// full of markers long before a real game gets there).
    /// Makes a marker of type `def` at `spot` (nothing past the table's
    /// limit of markers).
    pub(crate) fn place_marker(&mut self, def: &MarkerDef, owner: Option<Seat>, spot: Placement) {
        if self.markers.len() >= MAX_MARKERS {
            return;
        }
        // A strategy may make its markers impassable (Turf War).
        let impassable = def.kind == MarkerKind::Strategy
            && self
                .encounter
                .as_deref()
                .is_some_and(|e| e.setup.strategy.impassable_markers);
        let traits = if impassable {
            def.traits().with(crate::table::Trait::Impassable)
        } else {
            def.traits()
        };
        let id = ObjectId(self.next_marker_id);
        self.markers_mut().push(Marker {
            id,
            name: def.name.clone(),
            kind: def.kind,
            owner,
            base: def.base(),
            height: def.height(),
            at: spot.at,
            z: spot.z,
            traits,
        });
        self.next_marker_id = self.next_marker_id.saturating_add(1);
    }

    /// The innermost procedure in progress.
    pub fn frame(&self) -> Option<&Frame> {
        self.frames.last()
    }

    /// Whether `model` leads its crew: its hired leader, or a henchman
    /// that assumed leadership.
    pub fn leads_crew(&self, model: super::model::ModelId) -> bool {
        let Some(owner) = self.model(model).map(|m| m.owner) else {
            return false;
        };
        self.encounter.as_deref().is_some_and(|e| {
            e.leaders[owner.index()] == Some(model)
                || e.assumed_leadership[owner.index()] == Some(model)
        })
    }

    /// The crew a kill is credited to: the crew named, or the crediting
    /// model's.
    pub fn killer_crew(&self, credit: Option<ModelId>, crew: Option<Seat>) -> Option<Seat> {
        crew.or_else(|| credit.and_then(|c| self.model(c)).map(|m| m.owner))
    }

    /// The model whose activation is under way, however deep the
    /// procedures inside it go (an action, its duel, damage).
    pub fn acting_model(&self) -> Option<super::model::ModelId> {
        self.frames.iter().rev().find_map(|frame| match frame {
            Frame::Activation { model, .. } => Some(*model),
            _ => None,
        })
    }

    /// The ability at `index` on `model`'s card (a fired ability's).
    pub fn ability(&self, model: ModelId, index: u8) -> Option<&crate::ability::Ability> {
        self.model(model)?.card.abilities.get(usize::from(index))
    }

    /// The innermost action in progress, however deep the procedures
    /// inside it go (its duel, damage, a choice its effect waits on).
    pub fn action_in_progress(&self) -> Option<&ActionInProgress> {
        self.frames.iter().rev().find_map(|frame| match frame {
            Frame::Action { action } => Some(&**action),
            _ => None,
        })
    }

    /// The duel in progress, if it is the innermost procedure.
    pub fn duel(&self) -> Option<&Duel> {
        match self.frame() {
            Some(Frame::Duel { duel }) => Some(duel),
            _ => None,
        }
    }

    fn duel_mut(&mut self) -> Option<&mut Duel> {
        match self.frames.last_mut() {
            Some(Frame::Duel { duel }) => Some(duel),
            _ => None,
        }
    }

    /// The damage resolving, if it is the innermost procedure.
    pub fn damage(&self) -> Option<&DamageProgress> {
        match self.frame() {
            Some(Frame::Damage { progress }) => Some(progress),
            _ => None,
        }
    }

    /// The flip in progress, if it is the innermost procedure.
    pub fn flip(&self) -> Option<&FlipInProgress> {
        match self.frame() {
            Some(Frame::Flip { flip }) => Some(flip),
            _ => None,
        }
    }

    fn flip_mut(&mut self) -> Option<&mut FlipInProgress> {
        match self.frames.last_mut() {
            Some(Frame::Flip { flip }) => Some(flip),
            _ => None,
        }
    }

    fn damage_mut(&mut self) -> Option<&mut DamageProgress> {
        match self.frames.last_mut() {
            Some(Frame::Damage { progress }) => Some(progress),
            _ => None,
        }
    }

    /// Ends the innermost procedure if it is the one `is` names.
    fn pop_frame(&mut self, is: impl Fn(&Frame) -> bool) {
        if self.frames.last().is_some_and(is) {
            self.frames.pop();
        }
    }

    /// Moves `model`'s Disengage on, wherever it is in the stack (the
    /// strike's action and duel sit above it).
    fn set_disengage_stage(&mut self, model: ModelId, next: DisengageStage) {
        let found = self
            .frames
            .innermost_mut(|f| matches!(f, Frame::Disengage { model: m, .. } if *m == model))
            .and_then(|f| match f {
                Frame::Disengage { stage, .. } => Some(stage),
                _ => None,
            });
        if let Some(stage) = found {
            *stage = next;
        }
    }

    /// The striker and the disengaging model of a strike in progress: the
    /// innermost action, when it is a strike made straight on top of that
    /// model's Disengage.
    pub fn strike_in_progress(&self) -> Option<(ModelId, ModelId)> {
        let index = self
            .frames
            .iter()
            .rposition(|f| matches!(f, Frame::Action { .. }))?;
        let Some(Frame::Action { action }) = self.frames.get(index) else {
            return None;
        };
        if action.slot != ActionSlot::Strike {
            return None;
        }
        match self.frames.get(index.checked_sub(1)?) {
            Some(Frame::Disengage { model, .. }) if action.target == Some(*model) => {
                Some((action.actor, *model))
            }
            _ => None,
        }
    }

    /// How many sides declare triggers: in 4th edition only the initiator,
    /// in 3rd edition both (the initiator first).
    pub fn trigger_slots(&self) -> u8 {
        super::ruleset::rules(self.edition).trigger_slots()
    }

    /// Moves the duel to the step `next` gives.
    fn duel_step(&mut self, next: impl Fn(&Duel) -> DuelStep) {
        if let Some(duel) = self.duel_mut() {
            duel.step = next(duel);
        }
    }

    fn side_mut(&mut self, role: Option<super::duel::Role>) -> Option<&mut super::duel::Side> {
        let role = role?;
        self.duel_mut()?.side_mut(role)
    }
}

pub use super::procedure::decide;

/// Applies one event (see the module documentation of `engine`).
pub fn apply(state: &mut GameState, event: &Event) {
    state.version += 1;
    match event {
        Event::Contributed { seat, entropy } => {
            state.fairness.contributions[seat.index()] = Some(*entropy);
        }
        Event::DeckShuffled {
            seat,
            number,
            with_deck,
            ..
        } => {
            let contributions = state.fairness.contributions_or_zero();
            let seed = state.fairness.seed;
            let player = state.player_mut(*seat);
            let mut cards = player.discard.take_all();
            if *with_deck {
                cards.extend(player.deck.take_all());
            }
            let shuffled = fairness::shuffle_cards(&seed, *seat, *number, &contributions, &cards);
            let player = state.player_mut(*seat);
            player.deck = Pile::from_top_down(&shuffled);
            state.fairness.shuffles[seat.index()] = *number;
        }
        Event::Drew { seat, .. } => {
            let player = state.player_mut(*seat);
            if let Some(card) = player.deck.pop() {
                player.hand.push(card);
            }
        }
        Event::TokenGained {
            model,
            token,
            value,
            from,
        } => {
            if let Some(m) = state.model_mut(*model) {
                let current = m.tokens.value(*token);
                m.tokens.set(*token, current.saturating_add(*value));
                m.token_from.retain(|(t, _)| t != token);
                if let Some(seat) = from {
                    m.token_from.push((*token, *seat));
                }
            }
        }
        Event::TokenRemoved { model, token, by } => {
            if let Some(m) = state.model_mut(*model) {
                let current = m.tokens.value(*token);
                m.tokens.set(*token, current.saturating_sub(*by));
                if !m.tokens.has(*token) {
                    m.token_from.retain(|(t, _)| t != token);
                }
            }
        }
        Event::DuelStarted {
            spec,
            initiator_seat,
            resister_seat,
            initiator_base,
            resister_base,
        } => {
            use super::duel::{Duel, Side, Sides};
            let initiator = Side::new(
                spec.initiator,
                *initiator_seat,
                *initiator_base,
                spec.skill_suits,
                spec.modifiers,
            );
            let resister = match (spec.resister, resister_seat, resister_base) {
                (Some(resister), Some(seat), Some(base)) => {
                    Some(Side::new(resister, *seat, *base, Default::default(), 0))
                }
                _ => None,
            };
            state.last_outcome = None;
            let fourth = state.edition == Edition::Fourth;
            state.frames.push(Frame::Duel {
                duel: Duel {
                    raise_value: spec.raise_value,
                    spec: std::sync::Arc::clone(spec),
                    step: Duel::first_step(spec, fourth),
                    sides: Sides::new(initiator, resister),
                },
            });
        }
        Event::Relented { role } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.relented = true;
                side.modified = true;
                side.cheat_decided = true;
                side.trigger_decided = true;
            }
            state.duel_step(Duel::modify_or_flip);
        }
        Event::RelentDeclined { .. } => state.duel_step(Duel::modify_or_flip),
        Event::TotalsAnnounced { last: false, .. } => {
            state.duel_step(|duel| duel.cheat_from(duel.cheat_order(), 0));
        }
        Event::TotalsAnnounced { last: true, .. } => {
            let slots = state.trigger_slots();
            state.duel_step(|duel| duel.triggers_from(0, slots));
        }
        Event::TopCardKept { .. } => state.duel_step(back_to_modifying),
        Event::CheatSkipped { .. } => state.duel_step(next_cheat),
        Event::DuelFlipped => state.duel_step(|duel| DuelStep::Choose {
            role: duel.choosing().unwrap_or(Role::Initiator),
        }),
        Event::DamageDealt { report, .. } => {
            // 3rd edition: damage the acting model deals in its activation
            // (Vendetta).
            let by_acting = report.amount > 0
                && state.edition == Edition::Third
                && state
                    .damage()
                    .and_then(|d| d.instance.credit)
                    .is_some_and(|credit| state.acting_model() == Some(credit));
            if by_acting
                && let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut)
                && !encounter.damaged_this_activation.contains(&report.target)
            {
                encounter.damaged_this_activation.push(report.target);
            }
            state.pop_frame(|f| matches!(f, Frame::Damage { .. }));
        }
        Event::DamageFizzled { .. } => {
            state.pop_frame(|f| matches!(f, Frame::Damage { .. }));
        }
        Event::DamageFlipStarted {
            seat, modifiers, ..
        } => {
            if let Some(progress) = state.damage_mut() {
                progress.block_decided = true;
                progress.flip_started = true;
            }
            state.frames.push(Frame::Flip {
                flip: FlipInProgress {
                    seat: *seat,
                    modifiers: *modifiers,
                    purpose: FlipPurpose::Damage,
                    card: None,
                    cheat_decided: false,
                },
            });
        }
        Event::DamageFlipEnded { base, dealt } => {
            state.pop_frame(|f| matches!(f, Frame::Flip { .. }));
            if let Some(progress) = state.damage_mut() {
                progress.base = *base;
                progress.dealt = *dealt;
                progress.amount = *dealt;
                progress.flip_ended = true;
            }
        }
        Event::DamageBlocked { .. } => {
            if let Some(progress) = state.damage_mut() {
                progress.flip_modifiers = progress.flip_modifiers.saturating_sub(1);
                progress.block_decided = true;
            }
        }
        Event::BlockDeclined { .. } => {
            if let Some(progress) = state.damage_mut() {
                progress.block_decided = true;
            }
        }
        Event::RemainsDropped { model, owner } => {
            let spot = state.model(*model).and_then(|m| m.placement);
            let types = Arc::clone(&state.marker_types);
            if let (Some(spot), Some(def)) = (spot, types.of_kind(MarkerKind::Remains)) {
                state.place_marker(def, *owner, spot);
            }
        }
        Event::MarkerMade { marker, owner, at } => {
            let types = Arc::clone(&state.marker_types);
            if let Some(def) = types.named(marker) {
                state.place_marker(def, *owner, *at);
            }
        }
        Event::MarkerRemoved { id } => {
            state.markers_mut().retain(|m| m.id != *id);
        }
        Event::TerrainRemoved { id } => {
            // The table built from the terrain goes first; the terrain is
            // shared between copies of the state, so this state gets its
            // own, without the piece.
            state.table_cache = TableCache::default();
            Arc::make_mut(&mut state.terrain)
                .pieces_mut()
                .retain(|t| t.id != *id);
        }
        Event::ModifierAdded { role, amount, .. } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.modifiers = side.modifiers.saturating_add(*amount);
            }
        }
        Event::SuitAdded { role, suit, .. } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.suits = side.suits.with(*suit);
            }
        }
        Event::Empowered { role, seat, card } => {
            let player = state.player_mut(*seat);
            if player.hand.remove(*card) {
                player.discard.push(*card);
            }
            if let Some(side) = state.side_mut(Some(*role)) {
                side.empowered = true;
            }
        }
        Event::SoulstoneSpent { seat, role, .. } => {
            let player = state.player_mut(*seat);
            player.soulstones = player.soulstones.saturating_sub(1);
            if let Some(side) = state.side_mut(*role) {
                side.soulstone_spent = true;
            }
        }
        Event::TokenUsed { role, token, .. } => {
            // Spending it is the choice; its effects (removing it among
            // them) are facts of their own.
            if let Some(side) = state.side_mut(Some(*role)) {
                side.spent.push(*token);
            }
        }
        Event::SoulstoneInfused { seat } => {
            let player = state.player_mut(*seat);
            player.soulstones = (player.soulstones + 1).min(MAX_SOULSTONES);
        }
        Event::TopCardSeen { .. } => {
            if let Some(duel) = state.duel_mut()
                && let super::duel::DuelStep::Modify { role } = duel.step
            {
                duel.step = super::duel::DuelStep::LookingAtTop { role };
            }
        }
        Event::TopCardDiscarded { seat, .. } => {
            let player = state.player_mut(*seat);
            if let Some(card) = player.deck.pop() {
                player.discard.push(card);
            }
            state.duel_step(back_to_modifying);
        }
        Event::FinishedModifying { role } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.modified = true;
            }
            state.duel_step(Duel::modify_or_flip);
        }
        Event::Revealed { seat, role, cards } => {
            let player = state.player_mut(*seat);
            let mut moved = RevealedCards::new();
            for _ in cards {
                if let Some(card) = player.deck.pop() {
                    player.revealed.push(card);
                    moved.push(card);
                }
            }
            if let Some(side) = state.side_mut(*role) {
                // A flip reveals at most four cards in all, so this fits.
                for card in &moved {
                    side.revealed.push(*card);
                }
            }
        }
        Event::CardChosen { seat, role, card } => {
            let player = state.player_mut(*seat);
            if player.revealed.remove(*card) {
                player.conflict.push(*card);
            }
            if let Some(side) = state.side_mut(*role) {
                side.revealed.clear();
                side.card = Some(*card);
                side.flipped_black_joker = card.is_black_joker();
                side.flipped_red_joker = card.is_red_joker();
            }
            if role.is_some() {
                state.duel_step(|duel| match duel.step {
                    DuelStep::Choose { role } => DuelStep::Choose {
                        role: duel.choosing().unwrap_or(role),
                    },
                    step => step,
                });
            } else if let Some(flip) = state.flip_mut()
                && flip.card.is_none()
            {
                flip.card = Some(*card);
            }
        }
        Event::RevealedDiscarded { seat, cards } => {
            let player = state.player_mut(*seat);
            for card in cards {
                if player.revealed.remove(*card) {
                    player.discard.push(*card);
                }
            }
        }
        Event::Cheated {
            seat,
            role,
            card_in,
            card_out,
        } => {
            let player = state.player_mut(*seat);
            if player.hand.remove(*card_in) && player.conflict.remove(*card_out) {
                player.conflict.push(*card_in);
                player.discard.push(*card_out);
            }
            if let Some(side) = state.side_mut(*role) {
                side.card = Some(*card_in);
                side.cheat_decided = true;
            }
            cheat_decided(state, *role, Some(*card_in));
        }
        Event::CheatDeclined { role } => {
            if let Some(side) = state.side_mut(*role) {
                side.cheat_decided = true;
            }
            cheat_decided(state, *role, None);
        }
        Event::JokerSuitChosen { role, suit } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.joker_suit = *suit;
                side.joker_suit_chosen = true;
            }
            state.duel_step(Duel::joker_suit_step);
        }
        Event::TriggerDeclared { role, name } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.trigger = Some(name.clone());
                side.trigger_decided = true;
            }
            if *role == crate::duel::Role::Initiator
                && let Some(action) = innermost_action(state)
            {
                action.trigger = Some(name.to_string());
            }
            let slots = state.trigger_slots();
            state.duel_step(|duel| next_trigger(duel, slots));
        }
        Event::TriggerDeclined { role } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.trigger_decided = true;
            }
            let slots = state.trigger_slots();
            state.duel_step(|duel| next_trigger(duel, slots));
        }
        Event::RaiseValueChanged { value } => {
            if let Some(duel) = state.duel_mut() {
                duel.raise_value = *value;
            }
        }
        Event::DuelResolved { outcome } => {
            state.last_outcome = Some(*outcome);
        }
        Event::ConflictCleared { cards } => {
            for (seat, card) in cards {
                let player = state.player_mut(*seat);
                if player.conflict.remove(*card) {
                    player.discard.push(*card);
                }
            }
        }
        Event::DuelEnded => state.pop_frame(|f| matches!(f, Frame::Duel { .. })),
        Event::DamageReductionFlip { by, .. } => {
            if let Some(progress) = state.damage_mut() {
                let before = progress.amount;
                progress.amount = before.saturating_sub(*by);
                progress
                    .reductions
                    .push(("soulstone".into(), before - progress.amount));
            }
        }
        Event::ReductionUsed { model, name } => {
            let index = state
                .model(*model)
                .and_then(|m| m.card.reductions.iter().position(|r| &r.name == name));
            if let Some(index) = index {
                let optional = state
                    .model(*model)
                    .is_some_and(|m| m.card.reductions[index].optional);
                if let Some(m) = state.model_mut(*model)
                    && m.card.reductions[index].once_per_activation
                {
                    m.reductions_used.push(index as u8);
                }
                if optional {
                    offered(state, index);
                }
            }
        }
        Event::ReductionDeclined { model, name } => {
            let index = state
                .model(*model)
                .and_then(|m| m.card.reductions.iter().position(|r| &r.name == name));
            if let Some(index) = index {
                offered(state, index);
            }
        }
        Event::DamageReduced { source, by, .. } => {
            if let Some(progress) = state.damage_mut() {
                progress.amount = progress.amount.saturating_sub(*by);
                progress.reductions.push((source.clone(), *by));
            }
        }
        Event::ReductionsApplied {
            reductions, amount, ..
        } => {
            if let Some(progress) = state.damage_mut() {
                progress.reductions.extend(reductions.iter().cloned());
                progress.amount = *amount;
                progress.reductions_applied = true;
            }
        }
        Event::HealthChanged { model, to, .. } => {
            if let Some(m) = state.model_mut(*model) {
                m.health = *to;
            }
        }
        Event::ModelKilled {
            model,
            credit,
            crew,
        } => {
            let victim = state.model(*model).map(|m| m.owner);
            // Strategies and schemes ignore the kill of a model they do not
            // count (a peon, an Insignificant model): no crew gets it there.
            let killer = state.killer_crew(*credit, *crew).filter(|_| {
                state
                    .model(*model)
                    .is_some_and(|m| m.card.counts_for_objectives())
            });
            // 3rd edition: the killer's scheme markers within 1" of the
            // model killed (Dig Their Graves).
            let body = state.model(*model).and_then(|m| m.body());
            let by_markers: Vec<ObjectId> = match (killer, body) {
                (Some(killer), Some(body))
                    if state.edition == Edition::Third && victim != Some(killer) =>
                {
                    state
                        .markers
                        .iter()
                        .filter(|k| k.kind == MarkerKind::Scheme && k.owner == Some(killer))
                        .filter(|k| {
                            k.at.v2().dist(body.center) - k.base.radius() - body.radius
                                <= 1.0 + 1e-9
                        })
                        .map(|k| k.id)
                        .collect()
                }
                _ => Vec::new(),
            };
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                encounter.killed_this_turn.push(*model);
                let turn = encounter.turn;
                if victim.is_some() && victim == killer {
                    encounter
                        .own_crew_kills
                        .push(crate::encounter::OwnCrewKill {
                            model: *model,
                            turn,
                        });
                }
                if let (Some(seat), false) = (killer, by_markers.is_empty()) {
                    encounter
                        .kills_by_scheme_markers
                        .push(crate::encounter::KillBySchemeMarkers {
                            seat,
                            turn,
                            markers: by_markers,
                        });
                }
            }
            if let (Some(victim), Some(killer), Some(encounter)) =
                (victim, killer, state.encounter.as_mut().map(Arc::make_mut))
                && victim != killer
            {
                let kills = &mut encounter.kills_this_turn[killer.index()];
                *kills = kills.saturating_add(1);
            }
            leave_play(state, *model, ModelStatus::Killed)
        }
        Event::ModelRemoved { model } => leave_play(state, *model, ModelStatus::Removed),
        Event::HandOverLimit { seat, excess } => {
            state.frames.push(Frame::Discard {
                seat: *seat,
                count: *excess,
                reason: DiscardReason::HandLimit,
            });
        }
        Event::DiscardRequired { seat, count } => {
            state.frames.push(Frame::Discard {
                seat: *seat,
                count: *count,
                reason: DiscardReason::Ability,
            });
        }
        Event::Discarded { seat, cards } => {
            let player = state.player_mut(*seat);
            for card in cards {
                if player.hand.remove(*card) {
                    player.discard.push(*card);
                }
            }
            state.pop_frame(|f| matches!(f, Frame::Discard { .. }));
        }
        Event::ActivationStarted { model } => {
            // Once-per-activation limits hold during each activation, any
            // model's.
            if state.models.iter().any(|m| !m.reductions_used.is_empty()) {
                for m in state.models_mut() {
                    if !m.reductions_used.is_empty() {
                        Arc::make_mut(m).reductions_used.clear();
                    }
                }
            }
            state.frames.push(Frame::Activation {
                model: *model,
                hazards: Vec::new(),
            });
            let owner = state.model(*model).map(|m| m.owner);
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                encounter.activated.push(*model);
                encounter.in_a_row = encounter.in_a_row.saturating_add(1);
                encounter.last_activated_by = owner;
                encounter.last_passed = false;
                encounter.activation = Default::default();
            }
        }
        Event::EndPhaseStarted { .. } => {}
        Event::VictoryPointsGained { seat, amount, .. } => {
            let player = state.player_mut(*seat);
            player.victory_points = player
                .victory_points
                .saturating_add(*amount)
                .min(super::limits::MAX_VICTORY_POINTS);
        }
        Event::ActivationEnded { model } => {
            state.pop_frame(|f| matches!(f, Frame::Activation { .. }));
            // Those it damaged and left at half health or less, in play.
            let left: Vec<ModelId> = state
                .encounter
                .as_deref()
                .map(|e| e.damaged_this_activation.clone())
                .unwrap_or_default()
                .into_iter()
                .filter(|id| {
                    state.model(*id).is_some_and(|m| {
                        m.in_play() && u32::from(m.health) * 2 <= u32::from(m.card.max_health)
                    })
                })
                .collect();
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                let turn = encounter.turn;
                encounter.damaged_this_activation.clear();
                encounter
                    .left_at_half_health
                    .extend(
                        left.into_iter()
                            .map(|target| crate::encounter::DamagedInActivation {
                                by: *model,
                                target,
                                turn,
                            }),
                    );
                encounter.transfer_due = true;
                // Step C-5: once-per-activation effects may be used again.
                encounter
                    .once_used
                    .retain(|(_, _, per)| *per != crate::model::OncePer::Activation);
                encounter
                    .abilities_used
                    .retain(|(_, _, per)| *per != crate::model::OncePer::Activation);
            }
        }
        Event::DeclarationsRevealed {
            what: crate::encounter::Declaration::Crew,
            choices,
        } => {
            hire_revealed_crews(state, choices);
            apply_encounter(state, event);
        }
        Event::EncounterStepBegan {
            step: crate::encounter::Step::StartOfGame,
        } => {
            if state.fairness.contributions.iter().any(Option::is_none) {
                state.frames.push(Frame::Contributions);
            }
            apply_encounter(state, event);
        }
        Event::EncounterStepBegan { .. }
        | Event::SoulstoneDrawDecided { .. }
        | Event::ExplosivesPlaced { .. }
        | Event::ExplosivesGained { .. }
        | Event::ExplosivesLost { .. }
        | Event::Declared { .. }
        | Event::DeclarationsRevealed { .. }
        | Event::ZoneChosen { .. }
        | Event::CrewSplit { .. }
        | Event::GroupChosen { .. }
        | Event::SchemeSelected { .. }
        | Event::TurnStarted { .. }
        | Event::InitiativeSet { .. }
        | Event::ActivePlayer { .. }
        | Event::LeadershipAssumed { .. }
        | Event::Passed { .. }
        | Event::PassTokensGained { .. }
        | Event::ChainActivationOffered { .. }
        | Event::ChainActivationTaken { .. }
        | Event::ChainActivationDeclined { .. }
        | Event::StrategyScored { .. }
        | Event::SchemeRevealed { .. }
        | Event::SchemeScored { .. }
        | Event::SchemeAbandoned { .. }
        | Event::VpClaimed { .. }
        | Event::ClaimConfirmed { .. }
        | Event::ClaimDisputed { .. } => apply_encounter(state, event),
        // The log says a crew kept its scheme; the next step follows as a
        // fact of its own. The initiative flip's cards went to the discard
        // piles by the facts before it.
        Event::SchemeKept { .. } => {}
        // Log facts: the marker itself is made by a fact of its own.
        Event::IdolPlaceFlipped { .. } | Event::IdolNotDropped => {}
        Event::InitiativeFlipped { cards, .. } => {
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                encounter.initiative_flips = encounter.initiative_flips.saturating_add(1);
                encounter.initiative_cards = Some(*cards);
            }
        }
        Event::DiscardedBeforeDrawing { seat, cards } => {
            let player = state.player_mut(*seat);
            for card in cards {
                if player.hand.remove(*card) {
                    player.discard.push(*card);
                }
            }
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                encounter.done[seat.index()] = true;
            }
        }
        Event::ModelDeployed { model, at } => {
            if let Some(m) = state.model_mut(*model) {
                m.placement = Some(*at);
            }
        }
        Event::ModelMoved {
            model,
            to,
            charge,
            left_engagement,
            ..
        } => {
            state.pop_frame(|f| matches!(f, Frame::Move { .. }));
            if let Some(m) = state.model_mut(*model) {
                m.placement = Some(*to);
            }
            // What the move uses of an activation is the acting model's
            // (a model moved under control is not acting).
            let acting = state
                .frames
                .iter()
                .any(|f| matches!(f, Frame::Activation { model: m, .. } if m == model));
            if acting && let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                let used = &mut encounter.activation;
                if *charge {
                    used.charged = true;
                    used.free_melee = true;
                }
                used.left_engagement |= *left_engagement;
            }
        }
        Event::MessageDelivered { model, target } => {
            let seat = state.model(*model).map(|m| m.owner);
            if let (Some(seat), Some(encounter)) =
                (seat, state.encounter.as_mut().map(Arc::make_mut))
            {
                let turn = encounter.turn;
                encounter
                    .messages_delivered
                    .push(crate::encounter::DeliveredMessage {
                        seat,
                        target: *target,
                        turn,
                    });
            }
        }
        Event::MarkerClaimed { marker, owner } => {
            if let Some(m) = state.markers_mut().iter_mut().find(|m| m.id == *marker) {
                m.owner = *owner;
            }
        }
        // Its effects are facts of their own; in a batch it leaves the queue.
        Event::AbilityUsed { model, index, .. } => {
            let once = state.ability(*model, *index).and_then(|a| a.once_per);
            if let (Some(per), Some(encounter)) =
                (once, state.encounter.as_mut().map(Arc::make_mut))
            {
                encounter.abilities_used.push((*model, *index, per));
            }
            if let Some(Frame::Abilities { batch }) = state.frames.last_mut() {
                if let Some(at) = batch
                    .pending
                    .iter()
                    .position(|f| f.model == *model && f.index == *index)
                {
                    batch.pending.remove(at);
                }
                batch.resolving = batch
                    .pending
                    .iter()
                    .any(|f| f.model == *model)
                    .then_some(*model);
                if batch.pending.is_empty() {
                    state.frames.pop();
                }
            }
        }
        Event::ResistStatChanged { to, .. } => {
            if let Some(side) = state.side_mut(Some(Role::Resister)) {
                side.base = *to;
            }
        }
        Event::AbilitiesWaiting { batch } => {
            state.frames.push(Frame::Abilities {
                batch: batch.clone(),
            });
        }
        Event::SeedRevealed { .. } => {
            state.fairness.revealed = true;
        }
        Event::GameEnded => {
            state.frames.clear();
            state.ended = true;
        }
        Event::DamageQueued { instance } => {
            state.damage_queue.push((**instance).clone());
        }
        Event::DamageResolving { target, batch } => {
            if let Some(index) = state
                .damage_queue
                .iter()
                .position(|d| d.batch == *batch && d.target == *target)
            {
                let instance = state.damage_queue.remove(index);
                state.frames.push(Frame::Damage {
                    progress: Box::new(DamageProgress::begin(instance)),
                });
            }
        }
        Event::ActionDeclared {
            model,
            action,
            target,
            slot,
            controller,
        } => {
            state.frames.push(Frame::Action {
                action: Box::new(ActionInProgress {
                    actor: *model,
                    name: action.clone(),
                    target: *target,
                    slot: *slot,
                    controller: *controller,
                    effects_resolved: false,
                    trigger: None,
                    pushed_through: Vec::new(),
                }),
            });
            // An additional action is declared from the front of the queue
            // (a Charge's melee action, queued, as a free one).
            let from_queue = match slot {
                ActionSlot::Additional => true,
                ActionSlot::Free => state
                    .action_queue
                    .first()
                    .is_some_and(|q| q.from_charge && q.model == *model),
                _ => false,
            };
            if from_queue && !state.action_queue.is_empty() {
                state.action_queue.remove(0);
            }
            let once = state
                .model(*model)
                .and_then(|m| m.card.actions.iter().find(|a| *a.name == **action))
                .and_then(|a| a.once_per)
                .or_else(|| {
                    (action == crate::procedure::CONCENTRATE)
                        .then_some(crate::model::OncePer::Activation)
                });
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                if let Some(per) = once {
                    encounter.once_used.push((*model, action.clone(), per));
                }
                let used = &mut encounter.activation;
                match slot {
                    ActionSlot::Normal => used.actions = used.actions.saturating_add(1),
                    ActionSlot::Signature => used.signature = true,
                    ActionSlot::Bonus => used.bonus = true,
                    ActionSlot::Free | ActionSlot::Additional | ActionSlot::Strike => {}
                }
                // The melee action a Charge gives comes straight after it.
                used.free_melee = false;
            }
        }
        Event::UpgradeAttached { model, upgrade } => {
            let face = state
                .upgrade_cards
                .iter()
                .find_map(|card| card.face(upgrade))
                .cloned();
            if let (Some(face), Some(m)) = (face, state.model_mut(*model)) {
                m.upgrades.push(upgrade.clone());
                Arc::make_mut(&mut m.card).gain_upgrade(face);
            }
        }
        Event::UpgradeNotAttached { .. } => {}
        Event::ModelFell { model, to, .. } => {
            if let Some(m) = state.model_mut(*model) {
                m.placement = Some(*to);
            }
        }
        Event::ModelPushed {
            model, to, hazards, ..
        } => {
            if let Some(m) = state.model_mut(*model) {
                m.placement = Some(*to);
            }
            if let Some(action) = innermost_action(state) {
                action
                    .pushed_through
                    .extend(hazards.iter().map(|name| (*model, name.clone())));
            }
        }
        Event::ActionEffectsResolved { .. } => {
            if let Some(action) = innermost_action(state) {
                action.effects_resolved = true;
            }
        }
        Event::ActionEnded { .. } => {
            state.pop_frame(|f| matches!(f, Frame::Action { .. }));
        }
        Event::ActionQueued { queued } => state.action_queue.push(queued.clone()),
        Event::HazardSuffered { model, terrain } => {
            let activation = state
                .frames
                .innermost_mut(|f| matches!(f, Frame::Activation { .. }))
                .and_then(|f| match f {
                    Frame::Activation { hazards, .. } => Some(hazards),
                    _ => None,
                });
            if let Some(hazards) = activation {
                hazards.push((*model, terrain.clone()));
            }
        }
        Event::AdditionalActionIgnored { .. } | Event::ControlRefused { .. } => {}
        Event::EitherOffered {
            seat,
            model,
            options,
        } => state.frames.push(Frame::Either {
            seat: *seat,
            model: *model,
            options: *options,
        }),
        Event::EitherChosen { .. } => state.pop_frame(|f| matches!(f, Frame::Either { .. })),
        Event::ModelChoiceOffered {
            seat,
            options,
            then,
        } => {
            let frame = Frame::ChooseModel {
                seat: *seat,
                options: options.clone(),
                then: *then,
            };
            if then.inside_action() {
                wait_in_action(state, frame);
            } else {
                state.frames.push(frame);
            }
        }
        Event::ModelChosen { .. } => {
            state.pop_frame(|f| matches!(f, Frame::ChooseModel { .. }));
        }
        Event::MarkerChoiceOffered {
            seat,
            options,
            then,
        } => state.frames.push(Frame::ChooseMarker {
            seat: *seat,
            options: options.clone(),
            then: *then,
        }),
        Event::MarkerChosen { .. } => {
            state.pop_frame(|f| matches!(f, Frame::ChooseMarker { .. }));
        }
        Event::ChoiceDeclined { .. } => {
            state
                .pop_frame(|f| matches!(f, Frame::ChooseModel { .. } | Frame::ChooseMarker { .. }));
        }
        Event::PlaceOffered {
            seat,
            model,
            inches,
            touching,
            rebirth,
        } => {
            let frame = Frame::Place {
                seat: *seat,
                model: *model,
                inches: *inches,
                touching: *touching,
            };
            // A rebirth's place comes before the action's own effects,
            // which still resolve after it.
            if *rebirth {
                state.frames.push(frame);
            } else {
                wait_in_action(state, frame);
            }
        }
        Event::BlastsOffered {
            seat,
            target,
            count,
            damage,
            source,
            credit,
        } => state.frames.push(Frame::Blasts {
            seat: *seat,
            target: *target,
            count: *count,
            damage: *damage,
            source: source.clone(),
            credit: *credit,
            dropped: Vec::new(),
        }),
        Event::KillPaymentOffered { seat, model } => wait_in_action(
            state,
            Frame::KillUnlessPaid {
                seat: *seat,
                model: *model,
            },
        ),
        Event::KillPaidOff { .. } | Event::KillPaymentDeclined { .. } => {
            state.pop_frame(|f| matches!(f, Frame::KillUnlessPaid { .. }));
        }
        Event::DrawFromDiscardOffered {
            seat,
            up_to,
            max_value,
        } => wait_in_action(
            state,
            Frame::DrawFromDiscard {
                seat: *seat,
                up_to: *up_to,
                max_value: *max_value,
            },
        ),
        Event::DrewFromDiscard { seat, cards } => {
            state.pop_frame(|f| matches!(f, Frame::DrawFromDiscard { .. }));
            let player = state.player_mut(*seat);
            for card in cards {
                if player.discard.remove(*card) {
                    player.hand.push(*card);
                }
            }
        }
        Event::ActionFailedOutOfRange { .. } => {
            state.last_outcome = Some(crate::duel::Outcome::without_duel(false));
        }
        Event::ActionSucceededWithoutDuel { .. } => {
            state.last_outcome = Some(crate::duel::Outcome::without_duel(true));
        }
        Event::MoveOffered {
            seat,
            model,
            inches,
        } => state.frames.push(Frame::Move {
            seat: *seat,
            model: *model,
            inches: *inches,
            push: false,
        }),
        Event::DisengageStarted { model } => {
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                encounter.activation.disengaged = true;
            }
            state.frames.push(Frame::Disengage {
                model: *model,
                stage: DisengageStage::Strike,
            });
        }
        Event::DisengageStrike { model, .. } => {
            state.set_disengage_stage(*model, DisengageStage::Push { reduction: 0 });
        }
        Event::DisengageStruck {
            seat,
            model,
            modifiers,
        } => state.set_disengage_stage(
            *model,
            DisengageStage::Struck {
                seat: *seat,
                modifiers: *modifiers,
            },
        ),
        Event::DisengageFlipStarted {
            seat, modifiers, ..
        } => state.frames.push(Frame::Flip {
            flip: FlipInProgress {
                seat: *seat,
                modifiers: *modifiers,
                purpose: FlipPurpose::Disengage,
                card: None,
                cheat_decided: false,
            },
        }),
        Event::AssistFlipStarted { seat, model, token } => state.frames.push(Frame::Flip {
            flip: FlipInProgress {
                seat: *seat,
                modifiers: 0,
                purpose: FlipPurpose::Assist {
                    model: *model,
                    token: *token,
                },
                card: None,
                cheat_decided: false,
            },
        }),
        Event::AssistFlipEnded { .. } => {
            state.pop_frame(|f| matches!(f, Frame::Flip { .. }));
        }
        Event::DisengageFlipEnded { model, reduction } => {
            state.pop_frame(|f| matches!(f, Frame::Flip { .. }));
            state.set_disengage_stage(
                *model,
                DisengageStage::Push {
                    reduction: *reduction,
                },
            );
        }
        Event::DisengagePushOffered {
            seat,
            model,
            inches,
        } => {
            state.pop_frame(|f| matches!(f, Frame::Disengage { .. }));
            if *inches > 0 {
                state.frames.push(Frame::Move {
                    seat: *seat,
                    model: *model,
                    inches: *inches,
                    push: true,
                });
            }
        }
        Event::BlastDropped { at } => {
            if let Some(Frame::Blasts { dropped, .. }) = state.frames.last_mut() {
                dropped.push(*at);
            }
        }
        Event::BlastsLanded { .. } => {
            state.pop_frame(|f| matches!(f, Frame::Blasts { .. }));
        }
        Event::ModelPlaced {
            model, to, hazards, ..
        } => {
            state.pop_frame(|f| matches!(f, Frame::Place { .. }));
            if let Some(m) = state.model_mut(*model) {
                m.placement = Some(*to);
            }
            // Suffered once the action has resolved, as a push's are.
            if let Some(action) = innermost_action(state) {
                action
                    .pushed_through
                    .extend(hazards.iter().map(|name| (*model, name.clone())));
            }
        }
        Event::ReplaceOffered {
            seat,
            model,
            with,
            also,
        } => {
            wait_in_action(
                state,
                Frame::Replace {
                    seat: *seat,
                    model: *model,
                    with: with.clone(),
                    also: also.clone(),
                },
            );
        }
        Event::ModelReplaced {
            original,
            model,
            seat,
            card,
            at,
            health,
            also,
        } => {
            state.pop_frame(|f| matches!(f, Frame::Replace { .. }));
            replace_model(state, *original, *model, *seat, card, *at, *health);
            for other in also {
                replace_another(state, *other, *model);
            }
        }
        Event::SummonOffered {
            seat,
            summoner,
            models,
        } => {
            wait_in_action(
                state,
                Frame::Summon {
                    seat: *seat,
                    summoner: *summoner,
                    options: models.clone(),
                },
            );
        }
        Event::ModelSummoned {
            model,
            seat,
            card,
            at,
        } => {
            state.pop_frame(|f| matches!(f, Frame::Summon { .. }));
            if let Some(card) = state.summonable_card(*seat, card) {
                let mut summoned = Model::new(*model, *seat, card);
                summoned.placement = Some(*at);
                state.models_mut().push(Arc::new(summoned));
            }
        }
        Event::SummonNotPlaced { .. } => {
            state.pop_frame(|f| matches!(f, Frame::Summon { .. }));
        }
        Event::ModelExecuted { .. } => {
            if let Some(action) = innermost_action(state) {
                action.effects_resolved = true;
            }
        }
        Event::GeneratedActionNamed { model, action } => {
            if let Some(queued) = state
                .action_queue
                .iter_mut()
                .find(|q| q.model == *model && q.action.is_none())
            {
                queued.action = Some(action.clone());
            }
        }
        // The queue's first entry, or the first still unnamed.
        Event::QueuedActionDropped { model, action, .. } => {
            if let Some(index) = state
                .action_queue
                .iter()
                .position(|q| q.model == *model && q.action == *action)
            {
                state.action_queue.remove(index);
            }
        }
        Event::ContributionsComplete => {
            state.pop_frame(|f| matches!(f, Frame::Contributions));
        }
    }
}

/// Replace, steps 2 to 6, for one new model of the original's crew: it
/// comes in with the original's health and tokens and takes its place
/// wherever the game names it; the original leaves the game.
fn replace_model(
    state: &mut GameState,
    original: ModelId,
    new: ModelId,
    seat: Seat,
    card: &str,
    at: Placement,
    health: u16,
) {
    let Some(card) = state.summonable_card(seat, card) else {
        return;
    };
    let Some(old) = state.model(original).cloned() else {
        return;
    };
    let mut model = Model::new(new, seat, card);
    model.health = health.min(model.card.max_health);
    model.tokens = old.tokens.clone();
    model.token_from = old.token_from.clone();
    model.placement = Some(at);
    let models = state.models_mut();
    models.push(Arc::new(model));
    if let Some(gone) = state.model_mut(original) {
        gone.status = ModelStatus::Removed;
        gone.placement = None;
        gone.tokens = crate::token::Tokens::default();
        gone.token_from.clear();
    }
    let renamed = |id: &mut ModelId| {
        if *id == original {
            *id = new;
        }
    };
    // Only the frames that name the original are copied.
    for frame in state.frames.iter_mut_where(|f| match f {
        Frame::Activation { model, .. } => *model == original,
        Frame::Action { action } => action.actor == original,
        _ => false,
    }) {
        match frame {
            Frame::Activation { model, .. } => renamed(model),
            Frame::Action { action } => renamed(&mut action.actor),
            _ => {}
        }
    }
    encounter_names_the_new_model(state, original, new);
}

/// Replace step 4 in the encounter: whatever chose the original (the
/// leader, an assumed leadership, a scheme's chosen model) now names the
/// new model, which has activated if the original had.
fn encounter_names_the_new_model(state: &mut GameState, original: ModelId, new: ModelId) {
    let renamed = |id: &mut ModelId| {
        if *id == original {
            *id = new;
        }
    };
    if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
        if encounter.activated.contains(&original) && !encounter.activated.contains(&new) {
            encounter.activated.push(new);
        }
        encounter.leaders.iter_mut().flatten().for_each(renamed);
        encounter
            .assumed_leadership
            .iter_mut()
            .flatten()
            .for_each(renamed);
        // The choices are shared until written: only copied when a scheme
        // chose the original.
        let chosen = encounter.choices.schemes.iter().flatten().any(|held| {
            held.value
                .as_ref()
                .is_some_and(|s| s.target == Some(original))
        });
        if chosen {
            for held in encounter.choices_mut().schemes.iter_mut().flatten() {
                if let Some(scheme) = held.value.as_mut() {
                    scheme.target.iter_mut().for_each(renamed);
                }
            }
        }
    }
}

/// One more original of a replace (after `replace_model` placed `new`):
/// its tokens are gained by the new model (one of a kind: a token the new
/// model holds already stays as it is), the new model has activated if it
/// had, whatever chose it chooses the new model, and it leaves the game.
fn replace_another(state: &mut GameState, original: ModelId, new: ModelId) {
    let Some(old) = state.model(original).cloned() else {
        return;
    };
    if let Some(model) = state.model_mut(new) {
        for (token, count) in old.tokens.iter() {
            if !model.tokens.has(token) {
                model.tokens.set(token, count);
                if let Some(from) = old.token_from.iter().find(|(t, _)| *t == token) {
                    model.token_from.push(*from);
                }
            }
        }
    }
    if let Some(gone) = state.model_mut(original) {
        gone.status = ModelStatus::Removed;
        gone.placement = None;
        gone.tokens = crate::token::Tokens::default();
        gone.token_from.clear();
    }
    encounter_names_the_new_model(state, original, new);
}

/// An action's after-succeeding effect waits on a player (`frame`): the
/// action ends once it is answered, without resolving its effects again.
fn wait_in_action(state: &mut GameState, frame: Frame) {
    if let Some(action) = innermost_action(state) {
        action.effects_resolved = true;
    }
    state.frames.push(frame);
}

/// The innermost action in progress (below any duel or damage inside it).
fn innermost_action(state: &mut GameState) -> Option<&mut ActionInProgress> {
    match state
        .frames
        .innermost_mut(|f| matches!(f, Frame::Action { .. }))?
    {
        Frame::Action { action } => Some(&mut **action),
        _ => None,
    }
}

/// After looking at the top card (Insight), the side goes on modifying.
fn back_to_modifying(duel: &Duel) -> DuelStep {
    match duel.step {
        DuelStep::LookingAtTop { role } => DuelStep::Modify { role },
        step => step,
    }
}

fn next_cheat(duel: &Duel) -> DuelStep {
    match duel.step {
        DuelStep::Cheat { order, next } => duel.cheat_from(order, next + 1),
        step => step,
    }
}

fn next_trigger(duel: &Duel, slots: u8) -> DuelStep {
    match duel.step {
        DuelStep::Triggers { next, .. } => duel.triggers_from(next + 1, slots),
        step => step,
    }
}

/// A side of the duel (`role`) or the damage flip (`None`) decided on cheating.
fn cheat_decided(state: &mut GameState, role: Option<super::duel::Role>, card_in: Option<Card>) {
    if role.is_some() {
        state.duel_step(next_cheat);
    } else if let Some(flip) = state.flip_mut() {
        flip.cheat_decided = true;
        if card_in.is_some() {
            flip.card = card_in;
        }
    }
}

/// The optional reduction at `index` was offered (used or declined).
fn offered(state: &mut GameState, index: usize) {
    if let Some(progress) = state.damage_mut() {
        progress.next_reduction = progress.next_reduction.max(index as u8 + 1);
    }
}

/// The model leaves play: it is off the table from now on.
fn leave_play(state: &mut GameState, model: ModelId, status: ModelStatus) {
    if let Some(m) = state.model_mut(model) {
        m.status = status;
        m.placement = None;
    }
}

/// `GameState::models_mut` over the two fields it touches, for a caller
/// that holds other parts of the state borrowed.
fn models_mut_of<'a>(
    models: &'a mut Arc<Vec<Arc<Model>>>,
    table_cache: &mut TableCache,
) -> &'a mut Vec<Arc<Model>> {
    *table_cache = TableCache::default();
    Arc::make_mut(models)
}

/// The crews both players chose come into the game: their models (player
/// A's first, ids following the models already there), their soulstones,
/// and their leaders.
fn hire_revealed_crews(state: &mut GameState, choices: &[String; 2]) {
    let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) else {
        return;
    };
    let setup = Arc::clone(&encounter.setup);
    // The encounter, players and summonable lists are borrowed beside the
    // models: `models_mut` would borrow the whole state.
    let models = models_mut_of(&mut state.models, &mut state.table_cache);
    for seat in Seat::BOTH {
        let Some(offer) = setup
            .offers(seat)
            .iter()
            .find(|o| o.name == choices[seat.index()])
        else {
            continue;
        };
        for (i, card) in offer.models.iter().enumerate() {
            let id = ModelId(u16::try_from(models.len() + 1).unwrap_or(u16::MAX));
            if i == 0 {
                encounter.leaders[seat.index()] = Some(id);
            }
            let mut model = Model::new(id, seat, Arc::clone(card));
            model.upgrades = offer
                .upgrades
                .iter()
                .filter(|(on, _)| *on == i)
                .map(|(_, upgrade)| upgrade.clone())
                .collect();
            models.push(Arc::new(model));
        }
        let player = &mut state.players[seat.index()];
        player.soulstones = offer.soulstones.min(MAX_SOULSTONES);
        Arc::make_mut(&mut state.summonable)[seat.index()] = offer.summonable.clone();
    }
}

/// 3rd edition: `seat` claimed `vp` for its scheme `scheme` this turn
/// (0: disputed), kept with the turn.
fn scheme_scored(encounter: &mut Encounter, seat: Seat, scheme: &str, vp: u8) {
    let i = seat.index();
    encounter.scheme_vp[i] = encounter.scheme_vp[i].saturating_add(vp);
    let turn = encounter.turn;
    encounter
        .choices_mut()
        .scheme_scores
        .push(crate::encounter::SchemeScore {
            seat,
            scheme: scheme.to_string(),
            turn,
            vp,
        });
}

fn add_explosives(encounter: &mut crate::encounter::Encounter, model: ModelId, count: u8) {
    match encounter.explosives.iter_mut().find(|(m, _)| *m == model) {
        Some(entry) => entry.1 = entry.1.saturating_add(count),
        None => encounter.explosives.push((model, count)),
    }
}

/// The encounter's own facts.
fn apply_encounter(state: &mut GameState, event: &Event) {
    use crate::encounter::rules::SchemeRule;
    let rules = crate::encounter::EncounterRules::of(state.edition);
    let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) else {
        return;
    };
    let mut gained: Option<(Seat, u8)> = None;
    match event {
        Event::EncounterStepBegan { step } => {
            encounter.step = *step;
            encounter.done = [false; 2];
        }
        Event::SoulstoneDrawDecided { seat, .. } => encounter.done[seat.index()] = true,
        Event::ExplosivesPlaced { seat, model } => {
            let placed = &mut encounter.explosives_placed[seat.index()];
            *placed = placed.saturating_add(1);
            add_explosives(encounter, *model, 1);
        }
        Event::ExplosivesGained { model, count, .. } => add_explosives(encounter, *model, *count),
        Event::ExplosivesLost { model, count } => {
            if let Some(entry) = encounter.explosives.iter_mut().find(|(m, _)| m == model) {
                entry.1 = entry.1.saturating_sub(*count);
            }
            encounter.explosives.retain(|(_, n)| *n > 0);
        }
        Event::ZoneChosen { zone, .. } => encounter.attacker_zone = Some(*zone),
        Event::Declared { seat, choice, .. } => {
            encounter.choices_mut().declared[seat.index()] = Some(choice.clone());
        }
        Event::DeclarationsRevealed { what, choices } => {
            use crate::encounter::Declaration;
            encounter.choices_mut().declared = [None, None];
            let revealed = Some(choices.clone());
            match what {
                Declaration::Faction => encounter.choices_mut().factions = revealed,
                Declaration::Leader => encounter.choices_mut().leader_names = revealed,
                Declaration::Crew => encounter.choices_mut().crews = revealed,
            }
        }
        Event::CrewSplit { groups, .. } => encounter.choices_mut().groups = Some(groups.clone()),
        Event::GroupChosen { group } => encounter.choices_mut().first_group = Some(*group),
        Event::SchemeSelected { seat, scheme } => {
            let choices = encounter.choices_mut();
            let i = seat.index();
            choices.schemes[i].push(scheme.clone());
            choices.selected_after[i] = choices.select_from[i].clone();
            encounter.done[i] = choices.schemes[i].len() >= rules.schemes.held();
        }
        Event::TurnStarted { turn } => {
            encounter.turn = *turn;
            encounter.activated.clear();
            encounter.last_passed = false;
            encounter.transfer_due = false;
            // Models in a row are counted within a turn: a chain that ended
            // the last turn does not carry into this one.
            encounter.in_a_row = 0;
            encounter.kills_this_turn = [0; 2];
            encounter.killed_this_turn.clear();
            encounter.initiative_flips = 0;
            encounter.initiative_cards = None;
            // Start phase D-1: once-per-turn effects may be used again.
            encounter
                .once_used
                .retain(|(_, _, per)| *per == crate::model::OncePer::Game);
            encounter
                .abilities_used
                .retain(|(_, _, per)| *per == crate::model::OncePer::Game);
            encounter.choices_mut().select_from = [None, None];
        }
        Event::InitiativeSet { seat, .. } => {
            encounter.initiative = *seat;
            encounter.active = *seat;
            // 3rd edition: pass tokens are all discarded once initiative
            // is settled.
            encounter.pass_tokens = [0, 0];
        }
        Event::PassTokensGained { seat, count } => {
            let tokens = &mut encounter.pass_tokens[seat.index()];
            *tokens = tokens.saturating_add(*count);
        }
        Event::ActivePlayer { seat } => {
            encounter.active = *seat;
            encounter.transfer_due = false;
            encounter.in_a_row = 0;
        }
        Event::ChainActivationOffered { seat, models } => {
            encounter.chain_offer = Some(crate::encounter::ChainOffer {
                seat: *seat,
                models: models.clone(),
            });
        }
        // The chained model activates before any hand-over.
        Event::ChainActivationTaken { .. } => {
            encounter.chain_offer = None;
            encounter.transfer_due = false;
        }
        Event::ChainActivationDeclined { .. } => encounter.chain_offer = None,
        Event::LeadershipAssumed {
            seat,
            model: Some(model),
        } => encounter.assumed_leadership[seat.index()] = Some(*model),
        Event::Passed { seat, with_token } => {
            encounter.last_passed = true;
            encounter.transfer_due = true;
            if *with_token {
                let tokens = &mut encounter.pass_tokens[seat.index()];
                *tokens = tokens.saturating_sub(1);
            }
        }
        Event::StrategyScored { seat, amount } => {
            let vp = &mut encounter.strategy_vp[seat.index()];
            *vp = vp.saturating_add(*amount);
            gained = Some((*seat, *amount));
        }
        Event::SchemeRevealed {
            seat,
            scheme,
            amount,
        } => {
            let i = seat.index();
            let choices = encounter.choices_mut();
            choices.revealed[i].push(scheme.name.clone());
            match rules.schemes {
                SchemeRule::OneHeld => {
                    choices.schemes[i].clear();
                    choices.select_from[i] = Some(scheme.name.clone());
                    encounter.scheme_vp[i] = encounter.scheme_vp[i].saturating_add(*amount);
                }
                SchemeRule::TwoFromThePool => {
                    if scheme.target.is_some() {
                        choices.revealed_choices.push((*seat, scheme.clone()));
                    }
                    // The other scheme stays secret.
                    choices.schemes[i].retain(|held| {
                        held.value
                            .as_ref()
                            .is_none_or(|h| !h.name.eq_ignore_ascii_case(&scheme.name))
                    });
                    scheme_scored(encounter, *seat, &scheme.name, *amount);
                }
            }
            gained = Some((*seat, *amount));
        }
        Event::SchemeScored {
            seat,
            scheme,
            amount,
        } => {
            scheme_scored(encounter, *seat, scheme, *amount);
            gained = Some((*seat, *amount));
        }
        Event::SchemeAbandoned { seat, scheme } => {
            let i = seat.index();
            encounter.choices_mut().schemes[i].clear();
            encounter.choices_mut().select_from[i] = Some(scheme.name.clone());
        }
        Event::VpClaimed {
            seat,
            objective,
            vp,
        } => {
            // A claim of nothing asks nobody.
            encounter.choices_mut().claim = (*vp > 0).then(|| crate::encounter::Claim {
                seat: *seat,
                objective: objective.clone(),
                vp: *vp,
            });
        }
        Event::ClaimConfirmed { .. } => encounter.choices_mut().claim = None,
        Event::ClaimDisputed { seat } => {
            let turn = encounter.turn;
            let choices = encounter.choices_mut();
            if let Some(claim) = choices.claim.take() {
                choices.disputed.push(crate::encounter::DisputedClaim {
                    turn,
                    seat: *seat,
                    objective: claim.objective.name().to_string(),
                    vp: claim.vp,
                });
            }
        }
        _ => {}
    }
    if matches!(event, Event::EncounterStepBegan { step: Step::Over }) {
        encounter.activation = Default::default();
    }
    if let Some((seat, amount)) = gained {
        let player = state.player_mut(seat);
        player.victory_points = player
            .victory_points
            .saturating_add(amount)
            .min(super::limits::MAX_VICTORY_POINTS);
    }
}
