//! Events: everything that happens in a game. Applying them is the only way
//! the state changes, and the list of events is the game log. Events that
//! carry secrets (a drawn card, a card looked at) are redacted for the other
//! player by [`Event::for_viewer`].

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::Seat;
use super::damage::DamageInstance;
use super::duel::{DuelSpec, Outcome, Role, Suits};
use super::fairness::Bytes32;
use super::fate::{Card, Suit};
use super::flip::RevealedCards;
use super::hidden::Hidden;
use super::model::{ModelId, Placement, Token};
use super::view::Viewer;

/// A short description in an event: most are fixed words, so they are
/// borrowed rather than allocated on the hot path of a duel.
pub type Label = Cow<'static, str>;

/// What an action uses of the acting model's action limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionSlot {
    /// One of its actions (or, outside an encounter, just an action).
    #[default]
    Normal,
    /// Its signature action for the activation.
    Signature,
    /// Does not count (the melee action after a Charge).
    Free,
    /// An additional action an effect generated (it does not count either).
    Additional,
    /// 3rd edition: its bonus action, outside the limit (one per activation).
    Bonus,
    /// 3rd edition: the melee action an enemy model takes at a model
    /// disengaging from it, outside any activation; no triggers, and a
    /// success shortens the push instead of its normal effects.
    Strike,
}

impl ActionSlot {
    fn is_normal(&self) -> bool {
        *self == ActionSlot::Normal
    }
}

/// Damage, step by step (for the log and the damage examples).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageReport {
    pub target: ModelId,
    /// The damage before raises and additions (the action's Dmg, a flip's result...).
    pub base: u8,
    pub raises_added: u8,
    pub additions: Vec<(String, u8)>,
    /// "Dealt": before reductions.
    pub dealt: u8,
    pub reductions: Vec<(String, u8)>,
    /// What reaches the model after reductions.
    pub amount: u8,
    pub irreducible: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Contributed {
        seat: Seat,
        entropy: Bytes32,
    },
    /// A deck was shuffled (`with_deck`: the cards still in it were included,
    /// otherwise the discard pile became the deck).
    DeckShuffled {
        seat: Seat,
        number: u32,
        cards: u8,
        with_deck: bool,
    },
    /// A card was drawn into the hand; only its owner sees which.
    Drew {
        seat: Seat,
        card: Hidden<Card>,
    },
    TokenGained {
        model: ModelId,
        token: Token,
        value: u8,
        /// The crew that applied it, for the tokens whose rules ask
        /// (Burning: "enemy" is counted from that crew); none for the
        /// others, and for a token from no crew (terrain), which counts as
        /// an enemy of both.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<Seat>,
    },
    /// A token was used or removed (its value drops by `by`).
    TokenRemoved {
        model: ModelId,
        token: Token,
        by: u8,
    },
    DuelStarted {
        spec: Arc<DuelSpec>,
        initiator_seat: Seat,
        resister_seat: Option<Seat>,
        initiator_base: i16,
        resister_base: Option<i16>,
    },
    Relented {
        role: Role,
    },
    RelentDeclined {
        role: Role,
    },
    ModifierAdded {
        role: Role,
        amount: i8,
        source: Label,
    },
    SuitAdded {
        role: Role,
        suit: Suit,
        source: Label,
    },
    /// 4th edition: a card of value 5 or less discarded to empower.
    Empowered {
        role: Role,
        seat: Seat,
        card: Card,
    },
    /// A soulstone was drained from the pool (`role`: for a side of the duel).
    SoulstoneSpent {
        seat: Seat,
        purpose: Label,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<Role>,
    },
    /// A model removed a token to use it in a duel.
    TokenUsed {
        role: Role,
        model: ModelId,
        token: Token,
    },
    SoulstoneInfused {
        seat: Seat,
    },
    /// Insight: the player looks at the top card; only they see which.
    TopCardSeen {
        seat: Seat,
        card: Hidden<Card>,
    },
    TopCardKept {
        seat: Seat,
    },
    TopCardDiscarded {
        seat: Seat,
        card: Card,
    },
    FinishedModifying {
        role: Role,
    },
    /// Cards flipped for a side (or a damage flip); all are public.
    Revealed {
        seat: Seat,
        role: Option<Role>,
        cards: RevealedCards,
    },
    CardChosen {
        seat: Seat,
        role: Option<Role>,
        card: Card,
    },
    /// Revealed cards not chosen go to the discard pile.
    RevealedDiscarded {
        seat: Seat,
        cards: RevealedCards,
    },
    CheatSkipped {
        role: Role,
        reason: Label,
    },
    Cheated {
        seat: Seat,
        role: Option<Role>,
        card_in: Card,
        card_out: Card,
    },
    CheatDeclined {
        role: Option<Role>,
    },
    JokerSuitChosen {
        role: Role,
        suit: Option<Suit>,
    },
    TotalsAnnounced {
        initiator: i16,
        initiator_suits: Suits,
        resister: Option<i16>,
        resister_suits: Option<Suits>,
        last: bool,
    },
    TriggerDeclared {
        role: Role,
        name: Arc<str>,
    },
    TriggerDeclined {
        role: Role,
    },
    RaiseValueChanged {
        value: u8,
    },
    DuelResolved {
        outcome: Outcome,
    },
    /// The conflict is cleared: its cards go to their discard piles.
    ConflictCleared {
        cards: Vec<(Seat, Card)>,
    },
    DuelEnded,
    /// 3rd edition: a soulstone puts a negative modifier on the damage flip.
    DamageBlocked {
        seat: Seat,
        model: ModelId,
    },
    /// 3rd edition: a soulstone reduction flip.
    DamageReductionFlip {
        seat: Seat,
        card: Card,
        by: u8,
    },
    ReductionUsed {
        model: ModelId,
        name: String,
    },
    /// The damaged model chose not to use an optional reduction.
    ReductionDeclined {
        model: ModelId,
        name: String,
    },
    /// An optional reduction took `by` off the damage resolving.
    DamageReduced {
        target: ModelId,
        source: String,
        by: u8,
    },
    /// The reductions that apply by themselves (cover, named reductions,
    /// the tie, Shielded), in order, and the damage left after them.
    ReductionsApplied {
        target: ModelId,
        reductions: Vec<(String, u8)>,
        amount: u8,
    },
    /// Damage dealt that waits to be resolved after what is resolving now.
    DamageQueued {
        instance: Box<DamageInstance>,
    },
    /// The waiting damage to `target` dealt in `batch` starts resolving.
    DamageResolving {
        target: ModelId,
        batch: u32,
    },
    /// The damage does nothing: its target has left play.
    DamageFizzled {
        target: ModelId,
    },
    /// 3rd edition: the damaged model spends no soulstone to block.
    BlockDeclined {
        model: ModelId,
    },
    /// Step B: every side that did not relent has flipped its cards.
    DuelFlipped,
    /// A model declares an action from its card (at a target).
    ActionDeclared {
        model: ModelId,
        action: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<ModelId>,
        /// What it uses of an encounter activation's action limit.
        #[serde(default, skip_serializing_if = "ActionSlot::is_normal")]
        slot: ActionSlot,
        /// The crew making its decisions, when not the model's own (control).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        controller: Option<Seat>,
    },
    /// A model was pushed to a new place.
    ModelPushed {
        model: ModelId,
        from: Placement,
        to: Placement,
        /// Hazardous terrain it was pushed through or into (one name per
        /// piece): suffered once the action in progress has resolved.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hazards: Vec<String>,
    },
    /// The action's after-succeeding effects are done, though damage they
    /// dealt (a fall) is still to resolve before the action ends.
    ActionEffectsResolved {
        model: ModelId,
    },
    /// The action is over (its duel, damage and effects resolved).
    ActionEnded {
        model: ModelId,
        success: bool,
    },
    /// An effect generated an additional action: it waits in the queue
    /// until the action that generated it has resolved.
    ActionQueued {
        queued: crate::state::QueuedAction,
    },
    /// After an action, a model suffers a piece of hazardous terrain it
    /// moved through or acted in (pieces sharing a name are one piece; at
    /// most once per activation): 1 damage follows, queued.
    HazardSuffered {
        model: ModelId,
        terrain: String,
    },
    /// An additional action (not one a Charge generated) cannot generate
    /// another: this one is ignored, the rest of its effect still happens.
    AdditionalActionIgnored {
        model: ModelId,
        action: String,
    },
    /// The queue's first action could not be declared (its target is gone,
    /// out of range or sight, or a "once per" forbids it) and is dropped.
    QueuedActionDropped {
        model: ModelId,
        /// None: it was dropped before its controller named it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        action: Option<String>,
        reason: String,
    },
    /// The controller named the action a model under control declares
    /// (the first of its queued actions still unnamed).
    GeneratedActionNamed {
        model: ModelId,
        action: String,
    },
    /// A player picks a model for an effect, among `options`.
    ModelChoiceOffered {
        seat: Seat,
        options: Vec<ModelId>,
        then: crate::ability::ModelChoice,
    },
    /// The model picked (the effect follows).
    ModelChosen {
        seat: Seat,
        model: ModelId,
    },
    /// A player picks a marker for an effect, among `options`.
    MarkerChoiceOffered {
        seat: Seat,
        options: Vec<crate::table::ObjectId>,
        then: crate::ability::MarkerChoice,
    },
    /// The marker picked (the effect follows).
    MarkerChosen {
        seat: Seat,
        marker: crate::table::ObjectId,
    },
    /// The player picked none of the models or markers offered: the
    /// optional effect does not happen.
    ChoiceDeclined {
        seat: Seat,
    },
    /// An effect lets `seat` place `model` within `inches` of where it
    /// stands or, when `touching` is given, anywhere in base contact with
    /// that model (a pounce).
    PlaceOffered {
        seat: Seat,
        model: ModelId,
        inches: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        touching: Option<ModelId>,
        /// A rebirth's place, inside the killed timing: the action that
        /// dealt the damage still has its own effects to resolve.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        rebirth: bool,
    },
    /// A model is placed: picked up and put down (not a move). The
    /// hazardous terrain it started or ended in counts as moved through.
    ModelPlaced {
        model: ModelId,
        from: Placement,
        to: Placement,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hazards: Vec<String>,
    },
    /// 3rd edition: the target's damage flip picked a band with blasts:
    /// `seat` drops `count` blast markers, the first touching `target`,
    /// each other touching an earlier one; each model they touch but the
    /// target then suffers `damage` from `source`.
    BlastsOffered {
        seat: Seat,
        target: ModelId,
        count: u8,
        damage: u8,
        source: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        credit: Option<ModelId>,
    },
    /// An execute effect that can be paid off: `seat` may discard a card
    /// or a soulstone so that `model` is not killed.
    KillPaymentOffered {
        seat: Seat,
        model: ModelId,
    },
    /// It paid (the card or soulstone went just before): not killed.
    KillPaidOff {
        seat: Seat,
        model: ModelId,
    },
    /// It did not pay: the execute effect kills the model.
    KillPaymentDeclined {
        seat: Seat,
        model: ModelId,
    },
    /// An action that needs no duel (no resist, no TN) succeeds at once.
    ActionSucceededWithoutDuel {
        model: ModelId,
    },
    /// 4th edition: the action's target is out of range, so the declared
    /// action fails at once, without a duel.
    ActionFailedOutOfRange {
        model: ModelId,
        reason: String,
    },
    /// `seat` may draw up to `up_to` cards of value 1 to `max_value` from
    /// its discard pile.
    DrawFromDiscardOffered {
        seat: Seat,
        up_to: u8,
        max_value: u8,
    },
    /// `seat` took these cards (public: the discard pile is) from its
    /// discard pile into its hand.
    DrewFromDiscard {
        seat: Seat,
        cards: Vec<crate::fate::Card>,
    },
    /// `seat` may move `model` up to `inches` (a reduction's move, taken
    /// inside the damage it reduced).
    MoveOffered {
        seat: Seat,
        model: ModelId,
        inches: u8,
    },
    /// 3rd edition: `model` takes the Disengage action; the crew of the
    /// enemies engaging it may strike it first.
    DisengageStarted {
        model: ModelId,
    },
    /// The strike at disengaging `model`: by `striker`, or none (its crew
    /// declined, or no enemy engaging it could take a melee action at it).
    DisengageStrike {
        model: ModelId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        striker: Option<ModelId>,
    },
    /// The strike succeeded: once it ends, `seat` flips to shorten the
    /// push of `model` by 2/4/6 inches, under `modifiers` (the strike's
    /// accuracy, and a positive one for each other enemy engaging it).
    DisengageStruck {
        seat: Seat,
        model: ModelId,
        modifiers: i8,
    },
    /// The flip for the push's reduction awaits `seat`'s decisions.
    DisengageFlipStarted {
        seat: Seat,
        model: ModelId,
        modifiers: i8,
    },
    /// The flip took `reduction` inches off the push of `model`.
    DisengageFlipEnded {
        model: ModelId,
        reduction: u8,
    },
    /// 3rd edition Assist: `seat` flips for how much `model`'s condition
    /// `token` is lowered.
    AssistFlipStarted {
        seat: Seat,
        model: ModelId,
        token: crate::token::Token,
    },
    /// The Assist's flip lowers the condition by `by` (the value of the
    /// token removed follows as its own fact).
    AssistFlipEnded {
        model: ModelId,
        token: crate::token::Token,
        by: u8,
    },
    /// The disengaging `model` pushes up to `inches` in a straight line,
    /// where `seat` sends it (no push when 0).
    DisengagePushOffered {
        seat: Seat,
        model: ModelId,
        inches: u8,
    },
    /// A blast marker is dropped, centred `at`.
    BlastDropped {
        at: crate::table::Point,
    },
    /// Every blast marker is down: the models they touch (not the target),
    /// each dealt the blast's damage at the same moment.
    BlastsLanded {
        hit: Vec<ModelId>,
    },
    /// An effect replaces `model` with a model called `with` of its crew:
    /// `seat` picks where the new model stands, touching it.
    ReplaceOffered {
        seat: Seat,
        model: ModelId,
        with: String,
        /// Other friendly models replaced along with it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        also: Vec<ModelId>,
    },
    /// The new model (`model`, next id) takes the place of `original`,
    /// which is removed from the game: its health (at most the new card's
    /// maximum), its tokens, its place in schemes and leadership, and its
    /// activation.
    ModelReplaced {
        original: ModelId,
        model: ModelId,
        seat: Seat,
        card: String,
        at: Placement,
        health: u16,
        /// The other originals, removed too: their health is in `health`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        also: Vec<ModelId>,
    },
    /// A summoning action succeeded: `seat` picks one of `models` (full
    /// names, each within the duel total's reach and the crew's limits)
    /// and where it stands.
    SummonOffered {
        seat: Seat,
        summoner: ModelId,
        models: Vec<String>,
    },
    /// A new model joins `seat`'s crew (the summoner's), placed at `at`.
    ModelSummoned {
        model: ModelId,
        seat: Seat,
        card: String,
        at: Placement,
    },
    /// The model chosen could not be placed legally: it is not added.
    SummonNotPlaced {
        seat: Seat,
        card: String,
    },
    /// A "this or that" choice: the model's controller picks one option.
    EitherOffered {
        seat: Seat,
        model: ModelId,
        options: [crate::ability::EitherOption; 2],
    },
    /// The option picked (its effect follows).
    EitherChosen {
        seat: Seat,
        model: ModelId,
        option: crate::ability::EitherOption,
    },
    /// An action's effect kills the model whatever its health (an execute
    /// effect); the killed timing follows, and no heal saves it.
    ModelExecuted {
        model: ModelId,
        action: String,
    },
    /// An effect would have a model take an action under another crew's
    /// control, and the rules forbid it (a master or a leader): ignored,
    /// the rest of the effect still happens.
    ControlRefused {
        model: ModelId,
        reason: String,
    },
    /// Both players contributed; the decks are shuffled and play can begin.
    ContributionsComplete,
    DamageDealt {
        report: DamageReport,
    },
    HealthChanged {
        model: ModelId,
        from: u16,
        to: u16,
    },
    ModelKilled {
        model: ModelId,
        credit: Option<ModelId>,
        /// The crew credited when no model is: it controlled the action
        /// that killed (an enemy-controlled model earns no credit itself),
        /// or it gave the token whose damage killed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        crew: Option<Seat>,
    },
    RemainsDropped {
        model: ModelId,
        /// The killed model's crew, to which the Remains are friendly
        /// (none in games stored before the rule was kept).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        owner: Option<Seat>,
    },
    ModelRemoved {
        model: ModelId,
    },
    /// A damage flip (3rd edition) awaits its attacker's decisions.
    DamageFlipStarted {
        seat: Seat,
        target: ModelId,
        modifiers: i8,
    },
    /// The damage flip is over: the card's damage (`base`) and the damage
    /// dealt with additions.
    DamageFlipEnded {
        base: u8,
        dealt: u8,
    },
    HandOverLimit {
        seat: Seat,
        excess: u8,
    },
    /// A player must discard this many cards of their choice.
    DiscardRequired {
        seat: Seat,
        count: u8,
    },
    Discarded {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// A model's activation starts (once-per-activation limits start again).
    ActivationStarted {
        model: ModelId,
    },
    ActivationEnded {
        model: ModelId,
    },
    /// The turn's end phase: end-phase tokens and abilities follow.
    EndPhaseStarted {
        first: Seat,
    },
    /// A model's ability resolves (its effects follow as facts of their own).
    AbilityUsed {
        model: ModelId,
        /// Its place on the card.
        index: u8,
        name: Arc<str>,
    },
    /// The resister's stat changed between the start of the duel and the
    /// flip (its tokens changed): the flip uses the new value.
    ResistStatChanged {
        from: i16,
        to: i16,
    },
    /// A marker is made (an ability's), where the model stood or stands.
    MarkerMade {
        marker: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        owner: Option<Seat>,
        at: Placement,
    },
    MarkerRemoved {
        id: crate::table::ObjectId,
    },
    /// A terrain piece is removed from play (a Slam at destructible
    /// terrain).
    TerrainRemoved {
        id: crate::table::ObjectId,
    },
    /// A player scores victory points.
    VictoryPointsGained {
        seat: Seat,
        amount: u8,
        source: String,
    },
    /// Abilities fired at once and a player orders them.
    AbilitiesWaiting {
        batch: Box<super::ability::AbilityBatch>,
    },
    /// The encounter moves to a step of its setup or turn sequence.
    EncounterStepBegan {
        step: crate::encounter::Step,
    },
    /// The attacker's deployment zone.
    ZoneChosen {
        seat: Seat,
        zone: crate::encounter::Zone,
    },
    /// A player makes a secret choice of setup.
    Declared {
        seat: Seat,
        what: crate::encounter::Declaration,
        choice: Hidden<String>,
    },
    /// Both have chosen: the choices are revealed at once. Revealing the
    /// crews brings their models into the game (ids in seat order) and
    /// their soulstones.
    DeclarationsRevealed {
        what: crate::encounter::Declaration,
        choices: [String; 2],
    },
    /// The defender's crew in two groups.
    CrewSplit {
        seat: Seat,
        groups: [Vec<ModelId>; 2],
    },
    /// The defender's group that deploys first (0 or 1).
    GroupChosen {
        group: u8,
    },
    ModelDeployed {
        model: ModelId,
        at: Placement,
    },
    /// A crew selects its scheme (and any secret choice it asks for).
    SchemeSelected {
        seat: Seat,
        scheme: Hidden<crate::encounter::HeldScheme>,
    },
    TurnStarted {
        turn: u8,
    },
    /// Who has initiative this turn, and who gave it (none on turn 1:
    /// the attacker's).
    InitiativeSet {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Seat>,
    },
    /// Start phase: a player discards any cards before drawing (perhaps none).
    DiscardedBeforeDrawing {
        seat: Seat,
        cards: Vec<Card>,
    },
    ActivePlayer {
        seat: Seat,
    },
    /// A henchman assumes its crew's leadership (its soulstone is spent
    /// by the fact before), or the crew's player declines this turn.
    LeadershipAssumed {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<ModelId>,
    },
    /// The active player passes instead of activating a model (3rd
    /// edition: discarding a pass token, `with_token`).
    Passed {
        seat: Seat,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        with_token: bool,
    },
    /// 3rd edition start phase: both players flipped for initiative, each
    /// total its card's value plus its pass tokens; the higher chooses who
    /// has initiative, and a tie flips again.
    InitiativeFlipped {
        cards: [Card; 2],
        totals: [u8; 2],
    },
    /// Corrupted Idols: the suit of `seat`'s initiative flip (a Joker is
    /// flipped again) puts this turn's marker at `place`.
    IdolPlaceFlipped {
        seat: Seat,
        suit: crate::fate::Suit,
        place: crate::encounter::objectives::CenterlinePlace,
    },
    /// Corrupted Idols: nowhere on the centreline there is free, so no
    /// marker drops this turn.
    IdolNotDropped,
    /// 3rd edition: `seat` gains pass tokens (the crew with fewer models,
    /// each start phase, or an opponent's summoning).
    PassTokensGained {
        seat: Seat,
        count: u8,
    },
    /// An effect offers `seat` a chain activation: one of `models` may
    /// activate next, before the other player.
    ChainActivationOffered {
        seat: Seat,
        models: Vec<ModelId>,
    },
    /// The chain activation is taken: `model` activates next.
    ChainActivationTaken {
        model: ModelId,
    },
    ChainActivationDeclined {
        seat: Seat,
    },
    /// A model moved along a path (Walk, Charge).
    ModelMoved {
        model: ModelId,
        from: Placement,
        to: Placement,
        charge: bool,
        /// It left engagement with one or more enemies.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        left_engagement: bool,
    },
    /// A model whose move ended with less than half its base supported
    /// fell to where it landed (straight down, or beside what was in the
    /// way); falling damage, if any, follows as its own instance.
    ModelFell {
        model: ModelId,
        from: Placement,
        to: Placement,
    },
    /// An upgrade was attached to a model (by its face up).
    UpgradeAttached {
        model: ModelId,
        upgrade: String,
    },
    /// An upgrade could not be attached: its limitations, or a copy the
    /// model already has (it is discarded without effect).
    UpgradeNotAttached {
        model: ModelId,
        upgrade: String,
        reason: String,
    },
    /// 3rd edition start phase: `seat` has decided whether to spend a
    /// soulstone to draw two cards (the spending and drawing are facts of
    /// their own, before this one).
    SoulstoneDrawDecided {
        seat: Seat,
        drew: bool,
    },
    /// Plant Explosives, after deployment: `seat` put an explosives token
    /// on its model `model`.
    ExplosivesPlaced {
        seat: Seat,
        model: ModelId,
    },
    /// Plant Explosives: `model` gains `count` explosives tokens (picked up
    /// with a marker, or taken from the killed enemy `from`).
    ExplosivesGained {
        model: ModelId,
        count: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<ModelId>,
    },
    /// Plant Explosives: `model` loses `count` explosives tokens (one
    /// spent to drop a strategy marker, or all of a killed model's).
    ExplosivesLost {
        model: ModelId,
        count: u8,
    },
    /// 3rd edition: `model` interacts with the enemy model `target`
    /// (Deliver a Message).
    MessageDelivered {
        model: ModelId,
        target: ModelId,
    },
    /// A strategy marker becomes friendly to a crew, or neutral.
    MarkerClaimed {
        marker: crate::table::ObjectId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        owner: Option<Seat>,
    },
    /// A crew scores the strategy (after the cap).
    StrategyScored {
        seat: Seat,
        amount: u8,
    },
    /// A crew reveals its scheme and scores it (after the cap).
    SchemeRevealed {
        seat: Seat,
        scheme: crate::encounter::HeldScheme,
        amount: u8,
    },
    /// 3rd edition: a crew scores a scheme it revealed before, at the end
    /// of the game (after the cap; none if the claim was disputed).
    SchemeScored {
        seat: Seat,
        scheme: String,
        amount: u8,
    },
    /// A crew shows its scheme and discards it without scoring.
    SchemeAbandoned {
        seat: Seat,
        scheme: crate::encounter::HeldScheme,
    },
    /// A crew keeps its scheme this end phase.
    SchemeKept {
        seat: Seat,
    },
    /// A crew claims VP for an objective the engine cannot score (a claimed
    /// scheme is shown by the claim); unless it is 0, the opponent answers.
    VpClaimed {
        seat: Seat,
        objective: crate::encounter::ClaimedObjective,
        vp: u8,
    },
    /// The opponent confirmed `seat`'s claim; its VP follow as a fact.
    ClaimConfirmed {
        seat: Seat,
    },
    /// The opponent disputed `seat`'s claim: no VP now, the organisers decide.
    ClaimDisputed {
        seat: Seat,
    },
    SeedRevealed {
        seed: Bytes32,
    },
    GameEnded,
}

impl Event {
    /// The fact as a viewer may see it, in its JSON form: every [`Hidden`]
    /// value that is not the viewer's is removed (see [`super::hidden`]);
    /// everything else is public.
    pub fn for_viewer(&self, viewer: Viewer) -> serde_json::Value {
        // A fact is plain data with string keys: serialising cannot fail.
        let mut value = serde_json::to_value(self).unwrap_or_default();
        super::hidden::redact(&mut value, viewer);
        value
    }
}
