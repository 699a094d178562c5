//! Commands: what a player (or the game flow) asks the engine to do. Each
//! carries the state version it was made against; a stale one is refused.

use crate::rules::GeneralAction;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

use super::Seat;
use super::duel::DuelSpec;
use super::fairness::Bytes32;
use super::fate::{Card, Suit};
use super::model::{ModelId, Token};
use super::table::movement::Waypoint;
use super::table::{ObjectId, Point};

/// A command with its sender and the version it was made against. A
/// player's decision and the game flow's step are different types, so a
/// request from a browser (which can only ever hold a [`PlayerCommand`])
/// cannot ask for a game-flow step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Submission {
    /// A player's decision; the seat comes from who sent it (the session),
    /// never from the command.
    Player {
        seat: Seat,
        version: u64,
        command: PlayerCommand,
    },
    /// The game flow: turn sequence, scenario scripts, the server.
    Flow { version: u64, command: FlowCommand },
}

impl Submission {
    pub fn player(seat: Seat, version: u64, command: PlayerCommand) -> Self {
        Submission::Player {
            seat,
            version,
            command,
        }
    }

    pub fn flow(version: u64, command: FlowCommand) -> Self {
        Submission::Flow { version, command }
    }

    /// The state version the command was made against.
    pub fn version(&self) -> u64 {
        match self {
            Submission::Player { version, .. } | Submission::Flow { version, .. } => *version,
        }
    }
}

/// What a soulstone spent before a 3rd edition duel buys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Boost {
    /// A positive fate modifier.
    Modifier,
    /// A suit added to the final duel total.
    Suit(Suit),
}

/// A step of the game flow: only the engine's own procedures, the server
/// and scenario scripts send these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FlowCommand {
    /// A model takes an action from its card: the engine works out the duel
    /// from the card, the target and the table (`action::duel_for`). Until
    /// activations exist this is the game flow's; inside an activation it
    /// becomes the active player's decision.
    TakeAction {
        model: ModelId,
        action: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<ModelId>,
    },
    /// Starts a duel (an action's duel, or a duel an ability calls for).
    StartDuel {
        /// Shared: the duel in progress and its log keep the same spec.
        spec: std::sync::Arc<DuelSpec>,
    },
    /// Damage from outside a duel (falling, hazards, tokens at end of turn).
    DealDamage {
        target: ModelId,
        amount: u8,
        #[serde(default)]
        irreducible: bool,
        #[serde(default)]
        source: String,
        /// The model credited if this kills the target.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        credit: Option<ModelId>,
    },
    /// A player draws cards (Start Phase, effects).
    Draw { seat: Seat, count: u8 },
    /// Gives a model a token (or raises a 3rd edition condition's value).
    GainToken {
        model: ModelId,
        token: Token,
        value: u8,
        /// The crew applying it (none: no crew, as terrain).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<Seat>,
    },
    /// End of turn: each player shuffles their discard pile into their deck.
    ShuffleDiscards,
    /// A model activates: its start-of-activation effects resolve, and
    /// once-per-activation limits start again. Actions follow inside it.
    StartActivation { model: ModelId },
    /// The active model's activation ends: its end-of-activation effects
    /// resolve.
    EndActivation,
    /// The end phase: every model's end-phase tokens and abilities, the
    /// `first` player's models first (the player with initiative).
    EndPhase { first: Seat },
    /// Ends the game and reveals the server seed.
    EndGame,
}

/// A player's decision. This is the only command type the web accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum PlayerCommand {
    /// Of the abilities that fired at once, this one resolves next.
    ResolveAbility {
        model: ModelId,
        name: String,
    },
    /// A player's entropy for the deck shuffles (the digital cut).
    Contribute {
        entropy: Bytes32,
    },
    /// The resisting (or, in a friendly simple duel, the acting) model relents.
    Relent,
    /// ...or does not.
    Resist,
    /// Uses a token before the duel (Focused, Adaptable with a suit, Insight).
    UseToken {
        token: Token,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suit: Option<Suit>,
    },
    /// 4th edition: discards a card of value 5 or less for a positive
    /// modifier and the card's suit.
    Empower {
        card: Card,
    },
    /// 3rd edition: spends a soulstone for a positive modifier or a suit.
    SpendSoulstone {
        boost: Boost,
    },
    /// Done modifying the duel.
    FinishModifying,
    /// After Insight: keeps the top card on the deck...
    KeepTopCard,
    /// ...or discards it.
    DiscardTopCard,
    /// Chooses which revealed card the flip uses.
    ChooseCard {
        card: Card,
    },
    /// The suit the Red Joker takes (or none).
    ChooseJokerSuit {
        #[serde(default)]
        suit: Option<Suit>,
    },
    /// Replaces the flipped card with one from the hand.
    Cheat {
        card: Card,
    },
    DeclineCheat,
    DeclareTrigger {
        name: String,
    },
    DeclineTrigger,
    /// 3rd edition: spends a soulstone for a negative modifier on the damage flip.
    BlockDamage,
    DeclineBlock,
    /// 3rd edition: spends a soulstone and flips to reduce damage by 1/2/3.
    ReduceDamage,
    DeclineReduce,
    /// Uses an optional damage reduction of the damaged model.
    UseReduction {
        name: String,
    },
    DeclineReduction,
    /// Picks which of several damage instances resolves next.
    ResolveDamageFirst {
        model: ModelId,
    },
    /// Discards down to the maximum hand size.
    DiscardDown {
        cards: Vec<Card>,
    },
    // The encounter's decisions (4th edition), in the order they come.
    /// The attacker chooses their deployment zone.
    ChooseZone {
        zone: crate::encounter::Zone,
    },
    /// A secret choice of setup: a faction, then a leader (its name), then
    /// the crew to hire (the name its player gave it).
    Declare {
        what: crate::encounter::Declaration,
        choice: String,
    },
    /// The defender divides their crew: these models are the first group,
    /// the rest the second.
    SplitCrew {
        first: Vec<ModelId>,
    },
    /// The attacker picks the defender's group that deploys first (0 or 1).
    ChooseGroup {
        group: u8,
    },
    /// Puts a model on the table, completely within its crew's zone.
    Deploy {
        model: ModelId,
        at: Point,
    },
    /// Selects a scheme (from the pool, or from the Next Available
    /// Schemes of the one just revealed or abandoned), with the model it
    /// secretly chooses if it asks for one.
    SelectScheme {
        scheme: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<ModelId>,
        /// The second model a scheme choosing two asks for (Vendetta's
        /// enemy).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        second_target: Option<ModelId>,
    },
    /// Plant Explosives, after deployment: puts an explosives token on one
    /// of the crew's models.
    PlaceExplosives {
        model: ModelId,
    },
    /// 3rd edition start phase: spends a soulstone to draw two cards.
    DrawWithSoulstone,
    /// 3rd edition start phase: draws no more cards.
    DeclineSoulstoneDraw,
    /// Gives initiative for the turn (the player who did not activate last).
    GiveInitiative {
        to: Seat,
    },
    /// Start phase: a henchman assumes leadership (a soulstone is drained;
    /// its action limit is 3 for the rest of the encounter)...
    AssumeLeadership {
        model: ModelId,
    },
    /// ...or not this turn.
    DeclineLeadership,
    /// Start phase: discards any cards (perhaps none) before drawing.
    DiscardBeforeDrawing {
        cards: Vec<Card>,
    },
    /// The active player passes.
    Pass,
    /// Takes the chain activation an effect offered: this model activates
    /// next.
    ChainActivate {
        model: ModelId,
    },
    /// Declines the chain activation offered.
    DeclineChainActivation,
    /// The active player activates one of their models.
    Activate {
        model: ModelId,
    },
    /// The acting model takes an action from its card. `signature`: this
    /// is its signature action for the activation.
    TakeAction {
        /// Shared with the card: the option list offers every action at
        /// every step, and a copied name would be an allocation each.
        action: Arc<str>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<ModelId>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        signature: bool,
    },
    /// General action Walk: the acting model moves along the path
    /// (waypoints of its base's centre; its position first is implied).
    Walk {
        path: Vec<Waypoint>,
        /// Where the base lands when the path ends in a fall with several
        /// equally near landing places (the mover picks; see `pending`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        land_at: Option<Point>,
    },
    /// General action Charge: one straight line, then a melee action that
    /// does not count against the limit.
    Charge {
        to: Waypoint,
        /// Where the base lands when the path ends in a fall with several
        /// equally near landing places (the mover picks; see `pending`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        land_at: Option<Point>,
    },
    /// General action Interact.
    Interact {
        with: Interaction,
    },
    /// General action Prepare: gains one of the tokens Prepare may give.
    Prepare {
        token: Token,
    },
    /// General action Slam: removes a marker within 1" (not a scheme or
    /// strategy marker).
    Slam {
        marker: ObjectId,
    },
    /// General action Slam at a destructible terrain piece within 1": the
    /// piece is removed from play (M4E Slam, line 938; Destructible, line
    /// 1816).
    SlamTerrain {
        terrain: ObjectId,
    },
    /// 3rd edition general action Concentrate, once per activation: the
    /// model gains Focused +1.
    Concentrate,
    /// 3rd edition general action Disengage, only while engaged: an enemy
    /// engaging the model may strike it first, then it pushes up to its
    /// Mv (less what a successful strike takes off) in a straight line.
    Disengage,
    /// The crew of the models engaging a disengaging model strikes it with
    /// `model`'s melee action `action` (neither side declares triggers)...
    Strike {
        model: ModelId,
        action: String,
    },
    /// ...or lets it go without a strike.
    DeclineStrike,
    /// 3rd edition general action Assist: another friendly model within
    /// 2" and in sight has the value of its condition `token` (one the
    /// book lets Assist lower) lowered by a 1/2/3 flip.
    Assist {
        target: ModelId,
        token: Token,
    },
    /// Picks the model an effect applies to, among those offered.
    ChooseModel {
        model: ModelId,
    },
    /// Picks the marker an effect applies to, among those offered.
    ChooseMarker {
        marker: ObjectId,
    },
    /// Picks none of the models or markers offered, where the effect is
    /// one the rules let a crew forgo (a Turf War kill's marker, a killed
    /// carrier's explosives).
    DeclineChoice,
    /// Places the model an effect lets its player place, its base centre
    /// at `at` (where it stands is always a place within range).
    Place {
        at: Point,
    },
    /// Summons one of the models offered, its base centre at `at`: in base
    /// contact with the summoner and in its line of sight. None only when
    /// no place around the summoner fits it (the model is not added).
    Summon {
        model: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Point>,
    },
    /// A "this or that" choice: the first option (`first`) or the second.
    ChooseEither {
        first: bool,
    },
    /// Names the action a model under this crew's control declares (the
    /// first generated action still unnamed), from that model's card.
    NameGeneratedAction {
        action: String,
    },
    /// Pays so that an execute effect does not kill the model: this card
    /// from the hand, or (none) a soulstone from the crew's pool.
    PayAgainstKill {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    /// Does not pay: the execute effect kills the model.
    DeclinePayment,
    /// Draws these cards (up to the number offered, each of a value the
    /// effect allows; none is fine) from the discard pile into the hand.
    DrawFromDiscard {
        cards: Vec<Card>,
    },
    /// Moves the model an effect lets move (a `move` frame) along `path`.
    Move {
        path: Vec<Waypoint>,
        /// Where the base lands when the path ends in a fall with several
        /// equally near landing places (the mover picks; see `pending`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        land_at: Option<Point>,
    },
    /// 3rd edition: drops the next blast marker, centred `at`: touching
    /// the target (the first) or an earlier blast marker, overlapping
    /// neither.
    DropBlast {
        at: Point,
    },
    /// Declines the generated action a model "may" declare (a Charge's
    /// melee action, Ash on the Wind's), when it comes to be named.
    DeclineGeneratedAction,
    /// Declares the first queued additional action against `target` (none
    /// for an action without one): an action under control, or one taken
    /// again at "a different model".
    DeclareGeneratedAction {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<ModelId>,
    },
    /// The acting model's player ends its activation (the game flow's
    /// `end_activation` is another command, for games without an encounter).
    FinishActivation,
    /// End phase: reveals the crew's scheme (its conditions hold)...
    RevealScheme,
    /// ...or shows and discards it without scoring...
    AbandonScheme,
    /// ...or keeps it.
    KeepScheme,
    /// End phase, a scheme the engine cannot check: reveals it by claiming
    /// `vp` (1, or 2 with its additional VP) for the opponent to answer.
    /// A 3rd edition crew holds two schemes and names the one (`scheme`),
    /// claiming 1 VP. A scheme that removes scheme markers to score
    /// removes `markers` (which must meet its requirement on their own),
    /// or, none named, the first ones that do.
    ClaimScheme {
        vp: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scheme: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        markers: Vec<ObjectId>,
    },
    /// End phase step B, a strategy the engine cannot score: the VP the
    /// crew gained this turn (0 claims nothing and asks nobody).
    ClaimStrategy {
        vp: u8,
    },
    /// The opponent's claim stands: its VP are gained.
    ConfirmClaim,
    /// The opponent's claim is disputed: it scores nothing now and goes to
    /// the organisers with the result.
    DisputeClaim,
    /// Removes a strategy marker (the crew with fewer VP, when the
    /// strategy says so).
    RemoveStrategyMarker {
        marker: ObjectId,
    },
    /// Corrupted Idols: the player with initiative drops this turn's
    /// marker centred at `at`, one of the spots the rules leave them.
    DropIdol {
        at: Point,
    },
}

impl PlayerCommand {
    /// The general action this command takes, if it is one.
    pub fn general_action(&self) -> Option<GeneralAction> {
        match self {
            PlayerCommand::Walk { .. } => Some(GeneralAction::Walk),
            PlayerCommand::Charge { .. } => Some(GeneralAction::Charge),
            PlayerCommand::Interact { .. } => Some(GeneralAction::Interact),
            PlayerCommand::Prepare { .. } => Some(GeneralAction::Prepare),
            PlayerCommand::Slam { .. } | PlayerCommand::SlamTerrain { .. } => {
                Some(GeneralAction::Slam)
            }
            PlayerCommand::Concentrate => Some(GeneralAction::Concentrate),
            PlayerCommand::Disengage => Some(GeneralAction::Disengage),
            PlayerCommand::Assist { .. } => Some(GeneralAction::Assist),
            _ => None,
        }
    }
}

/// What an Interact does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Interaction {
    /// Makes a scheme marker within 1"; with five already, `replacing`
    /// names the one removed first.
    MakeSchemeMarker {
        at: Point,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replacing: Option<ObjectId>,
    },
    /// Removes a scheme marker within 1".
    RemoveSchemeMarker { marker: ObjectId },
    /// The strategy's Interact with a strategy marker within 1".
    StrategyMarker { marker: ObjectId },
    /// Plant Explosives: spends one of the model's explosives tokens to
    /// drop a strategy marker in base contact, centred at `at`.
    PlantExplosives { at: Point },
    /// Corrupted Idols: the model suffers `damage` irreducible damage
    /// (1 to the strategy's most, no more than its health) and drops the
    /// strategy marker in base contact with it centred at `to`, at most
    /// `damage` inches from where it was, touching no model and no
    /// impassable terrain.
    MoveIdol {
        marker: ObjectId,
        damage: u8,
        to: Point,
    },
    /// 3rd edition: an Interact with an enemy model within 1" that a
    /// scheme of the pool may choose (Deliver a Message); that model does
    /// not count as engaging the interacting one for it.
    DeliverMessage { model: ModelId },
}
