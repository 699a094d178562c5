//! A whole 4th edition encounter: deployment, schemes, four turns of
//! alternating activations, the end phase's scoring and the final VP.
//!
//! The encounter is the game flow: with `NewGame::encounter` set, the
//! engine itself moves from step to step (procedure/encounter/) and the
//! players' commands are all it waits for. The steps follow the rules'
//! Encounter Setup (from the choice of deployment zone on: the size, the
//! table, the scenario flips and the scheme pool come in with the setup)
//! and Turn Sequence.

pub mod objectives;
pub mod scoring;
mod setup;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::Seat;
use crate::hidden::Hidden;
use crate::model::ModelId;
use crate::table::measure::{Deployment, Layout};
use objectives::{ObjectiveBook, SchemeChoice, StrategyDef};

pub use setup::{
    Brought, GivenScenario, SetupError, deployment_for, new_encounter, new_encounter_in,
    scenario_from_flips,
};

/// A crew has at most five friendly markers of one type in play.
pub const MAX_FRIENDLY_MARKERS: usize = 5;
/// Chain activations: at most two models of one player in a row.
pub const MAX_IN_A_ROW: u8 = 2;

/// What the encounter is, fixed before the game starts: the setup flips'
/// results (attacker, strategy, deployment), the scheme pool, the encounter
/// size and the crews each player may hire, secret from the opponent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterSetup {
    /// In soulstones (masters take three actions at 50 or more).
    pub size: u8,
    pub attacker: Seat,
    pub deployment: Deployment,
    pub strategy: StrategyDef,
    /// The three schemes both crews choose from.
    pub scheme_pool: Vec<String>,
    /// Every scheme a crew may select (the pool and what their Next
    /// Available Schemes name); no strategies.
    pub schemes: ObjectiveBook,
    /// The crews each player brought, of which they hire one (steps F to
    /// H). Empty for a game whose models are given (scenarios).
    #[serde(default = "no_offers", skip_serializing_if = "offers_are_empty")]
    pub offers: Offers,
}

/// Each player's crews, secret from the other.
pub type Offers = [Hidden<Vec<CrewOffer>>; 2];

fn no_offers() -> Offers {
    Seat::BOTH.map(Hidden::unknown)
}

fn offers_are_empty(offers: &Offers) -> bool {
    offers
        .iter()
        .all(|o| o.value.as_ref().is_none_or(Vec::is_empty))
}

/// A crew a player may hire, already checked against the hiring rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrewOffer {
    /// How its player calls it (unique among that player's offers).
    pub name: String,
    pub faction: String,
    /// The leader's name without its title: what step F reveals.
    pub leader: String,
    /// Soulstones left over from hiring.
    pub soulstones: u16,
    /// The models, leader first, each with its crew card's abilities.
    pub models: Vec<Arc<crate::model::ModelCard>>,
    /// The models its actions may summon, with the same crew card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summonable: Vec<Arc<crate::model::ModelCard>>,
    /// Upgrades bought at hiring (3rd edition): the model, by its place
    /// in `models`, and the upgrade, whose abilities and actions are
    /// already on that model's card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades: Vec<(usize, String)>,
}

/// The secret, simultaneous choices of setup steps F and H.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Declaration {
    Faction,
    Leader,
    Crew,
}

impl Declaration {
    pub fn label(self) -> &'static str {
        match self {
            Declaration::Faction => "faction",
            Declaration::Leader => "leader",
            Declaration::Crew => "crew",
        }
    }
}

impl EncounterSetup {
    pub fn defender(&self) -> Seat {
        self.attacker.other()
    }

    pub fn layout(&self) -> Layout {
        Layout {
            deployment: self.deployment,
        }
    }

    /// The crews `seat` brought (none in the opponent's view).
    pub fn offers(&self, seat: Seat) -> &[CrewOffer] {
        self.offers[seat.index()]
            .value
            .as_deref()
            .unwrap_or_default()
    }
}

/// Which of the deployment's two zones: the lower one holds the bottom
/// edge, corner or quarter (the table's y = 0 side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    Lower,
    Upper,
}

/// Where the encounter stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// The attacker chooses their deployment zone.
    ChooseZone,
    /// Both players secretly choose their faction, then their leader, then
    /// the crew they hire; each is revealed once both are in.
    Declare {
        what: Declaration,
    },
    /// A player divides their crew into two groups (4th edition the
    /// defender, 3rd edition the attacker).
    SplitCrew,
    /// The other player picks the group that deploys first.
    ChooseGroup,
    /// `seat` deploys the models of this step, one at a time.
    Deploy {
        seat: Seat,
    },
    /// Both players secretly choose a scheme from the pool (3rd edition:
    /// two each, before deployment).
    ChooseSchemes,
    /// Plant Explosives, after deployment: `seat` puts an explosives token
    /// on one of its models; the crews alternate from the attacker.
    PlaceExplosives {
        seat: Seat,
    },
    /// Corrupted Idols, once initiative is settled: `seat`, with
    /// initiative, chooses where the marker the flip's `suit` places drops
    /// (which edge, or beside what is in the way).
    DropIdol {
        seat: Seat,
        suit: crate::fate::Suit,
    },
    /// Step L: the fresh shuffle, which both players cut, then the start
    /// of game.
    StartOfGame,
    /// Effects of the start of the game (`game`) or of the start phase
    /// resolve; the step is taken only when some ability fires then.
    StartEffects {
        game: bool,
    },
    /// Turn 2 on: the player who did not activate last gives initiative.
    GiveInitiative {
        chooser: Seat,
    },
    /// Start phase: each player discards any cards, then draws to seven.
    StartDiscard,
    /// 3rd edition start phase step C-2: `seat` may cheat its initiative
    /// flip with a card from its hand; the lower flip decides first (on a
    /// tie, the player with initiative), then the other (`first` false).
    InitiativeCheat {
        seat: Seat,
        first: bool,
    },
    /// 3rd edition start phase step B-2: `seat` may spend a soulstone to
    /// draw two cards (then discards down to its hand size).
    SoulstoneDraw {
        seat: Seat,
    },
    /// Start phase: `seat`, whose crew has no master in play, may have a
    /// henchman assume leadership (once a game).
    AssumeLeadership {
        seat: Seat,
    },
    /// Activation phase.
    Activations,
    /// Activation phase step C-4, once a model has finished activating:
    /// `seat` reveals a scheme timed for the end of an activation, or
    /// keeps its scheme (asked only of a crew that might hold one, as
    /// public facts tell: `Encounter::may_reveal_after_activation`).
    RevealAfterActivation {
        seat: Seat,
    },
    /// End phase: effects resolve.
    EndEffects,
    /// End phase step C: `seat` reveals their scheme, or not.
    RevealScheme {
        seat: Seat,
    },
    /// End phase step D: `seat` abandons their scheme, or keeps it.
    AbandonScheme {
        seat: Seat,
    },
    /// End phase step B for a strategy its players score: `seat` claims
    /// the VP its crew gained this turn (initiative first).
    ClaimStrategy {
        seat: Seat,
    },
    /// `seat` confirms or disputes the opponent's claim.
    AnswerClaim {
        seat: Seat,
    },
    /// The crew with fewer VP removes a strategy marker (Collapsing Mines).
    RemoveStrategyMarker {
        seat: Seat,
    },
    /// End phase: crews that revealed or abandoned select a new scheme.
    SelectSchemes,
    Over,
}

/// A scheme a crew holds, with its secret choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldScheme {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<ModelId>,
    /// The second chosen model of a scheme that chooses two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_target: Option<ModelId>,
}

/// What a claim is for: the strategy, or a scheme the claim reveals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "objective", rename_all = "snake_case")]
pub enum ClaimedObjective {
    Strategy { name: String },
    Scheme { scheme: HeldScheme },
}

impl ClaimedObjective {
    pub fn name(&self) -> &str {
        match self {
            ClaimedObjective::Strategy { name } => name,
            ClaimedObjective::Scheme { scheme } => &scheme.name,
        }
    }
}

/// VP a crew claims for an objective the engine cannot score, waiting
/// for the opponent's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    pub seat: Seat,
    pub objective: ClaimedObjective,
    pub vp: u8,
}

/// A claim the opponent disputed: it scored nothing, and the organisers
/// decide it after the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisputedClaim {
    pub turn: u8,
    pub seat: Seat,
    pub objective: String,
    pub vp: u8,
}

/// What the acting model has used of its activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ActivationUse {
    pub actions: u8,
    pub signature: bool,
    /// 3rd edition: its bonus action is taken.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bonus: bool,
    pub charged: bool,
    /// It walked out of engagement: no Interact until its activation ends.
    pub left_engagement: bool,
    /// 3rd edition: it took the Disengage action (no Interact after it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disengaged: bool,
    /// A Charge gave it a melee action that does not count.
    pub free_melee: bool,
}

impl ActivationUse {
    /// Whether the acting model may no longer Interact: 4th edition after
    /// walking out of engagement, 3rd edition after Disengage.
    pub fn interact_barred(&self, edition: crate::Edition) -> bool {
        match edition.rules().actions.interact_bar {
            crate::rules::InteractBar::LeavingEngagement => self.left_engagement,
            crate::rules::InteractBar::Disengaging => self.disengaged,
        }
    }
}

/// The encounter as it stands (in the game state).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encounter {
    pub setup: Arc<EncounterSetup>,
    /// Written at a few steps only: shared between the state's copies
    /// until then (the state is copied for every command checked). Flat in
    /// the state's JSON.
    #[serde(flatten)]
    pub choices: Arc<Choices>,
    pub step: Step,
    /// 0 during setup.
    pub turn: u8,
    /// The zone the attacker chose.
    pub attacker_zone: Option<Zone>,
    /// Each crew's leader, once hired.
    #[serde(default)]
    pub leaders: [Option<ModelId>; 2],
    pub initiative: Seat,
    pub active: Seat,
    /// Models that have activated this turn.
    pub activated: Vec<ModelId>,
    pub last_passed: bool,
    pub last_activated_by: Option<Seat>,
    /// The acting model's use of its activation.
    pub activation: ActivationUse,
    /// The active player must hand over (an activation ended or they passed).
    pub transfer_due: bool,
    pub strategy_vp: [u8; 2],
    pub scheme_vp: [u8; 2],
    /// The step's decision each player has made (discarding, selecting).
    pub done: [bool; 2],
    /// Enemy models each crew killed this turn.
    pub kills_this_turn: [u8; 2],
    /// Every model killed this turn, whoever killed it (Reckoning).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub killed_this_turn: Vec<ModelId>,
    /// Models killed by their own crew, with the turn (what 3rd edition
    /// schemes that choose an enemy model read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub own_crew_kills: Vec<OwnCrewKill>,
    /// 3rd edition: enemy models a crew killed within 1" of its scheme
    /// markers, with those markers (Dig Their Graves).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kills_by_scheme_markers: Vec<KillBySchemeMarkers>,
    /// 3rd edition: the models the acting model has damaged in this
    /// activation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub damaged_this_activation: Vec<ModelId>,
    /// 3rd edition: a model damaged by another in that one's activation and
    /// left at half its health or less, in play, when it ended (Vendetta).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_at_half_health: Vec<DamagedInActivation>,
    /// 3rd edition: initiative flips made this start phase (a tie flips
    /// again, a bounded number of times).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub initiative_flips: u8,
    /// 3rd edition: enemy models a crew's models interacted with (Deliver
    /// a Message).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages_delivered: Vec<DeliveredMessage>,
    /// The henchman that assumed its crew's leadership (action limit 3).
    #[serde(default)]
    pub assumed_leadership: [Option<ModelId>; 2],
    /// Actions restricted "once per" that a model has taken, until their
    /// limit starts again (the activation's end, the start phase, never).
    #[serde(default)]
    pub once_used: Vec<(ModelId, String, crate::model::OncePer)>,
    /// Abilities restricted "once per" that have been used: the model, the
    /// ability's place on its card, and the limit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities_used: Vec<(ModelId, u8, crate::model::OncePer)>,
    /// A chain activation an effect offered as the last activation ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_offer: Option<ChainOffer>,
    /// Models the active player has activated since the last hand-over
    /// (a chain activation makes it two; never more than `MAX_IN_A_ROW`).
    #[serde(default)]
    pub in_a_row: u8,
    /// 3rd edition: each player's pass tokens, spent to pass or added to
    /// the next initiative flip, then all discarded.
    #[serde(default, skip_serializing_if = "no_tokens")]
    pub pass_tokens: [u8; 2],
    /// Plant Explosives: the explosives tokens each model carries (public).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explosives: Vec<(ModelId, u8)>,
    /// Plant Explosives: the tokens each crew has placed after deployment.
    #[serde(default, skip_serializing_if = "no_tokens")]
    pub explosives_placed: [u8; 2],
    /// 3rd edition: the cards of this start phase's last initiative flip,
    /// as cheated (Corrupted Idols drops its marker by the suit of the
    /// card of the player with initiative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative_cards: Option<[crate::fate::Card; 2]>,
}

fn no_tokens(tokens: &[u8; 2]) -> bool {
    *tokens == [0, 0]
}

/// What the players chose and revealed: written in setup and the end
/// phase, read throughout.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Choices {
    /// Each player's secret choice in a declaration step.
    #[serde(default)]
    pub declared: [Option<Hidden<String>>; 2],
    /// Each player's faction, leader's name and crew, once revealed.
    #[serde(default)]
    pub factions: Option<[String; 2]>,
    #[serde(default)]
    pub leader_names: Option<[String; 2]>,
    #[serde(default)]
    pub crews: Option<[String; 2]>,
    /// The splitting crew's two groups.
    pub groups: Option<[Vec<ModelId>; 2]>,
    /// The group that deploys first (0 or 1).
    pub first_group: Option<u8>,
    /// Each crew's schemes, secret until revealed: in 4th edition at most
    /// one, in 3rd edition the two chosen from the pool less those revealed.
    pub schemes: [Vec<Hidden<HeldScheme>>; 2],
    /// 3rd edition: every claim a crew made for a scheme, by turn (a scheme
    /// scores at most once a turn and twice a game). Public, as the claims.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scheme_scores: Vec<SchemeScore>,
    /// The names of the schemes each crew revealed (never twice).
    pub revealed: [Vec<String>; 2],
    /// 3rd edition: the revealed schemes that chose a model, with it (its
    /// End requirement still reads it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revealed_choices: Vec<(Seat, HeldScheme)>,
    /// This end phase: the scheme a crew revealed or abandoned, whose
    /// Next Available list it selects from (none: it kept its scheme).
    pub select_from: [Option<String>; 2],
    /// The scheme whose Next Available list each crew selected its current
    /// scheme from (none: from the pool). Public, as the reveal or abandon
    /// that led to it was: it bounds which schemes the crew may hold.
    #[serde(default, skip_serializing_if = "none_named")]
    pub selected_after: [Option<String>; 2],
    /// A claim waiting for the opponent's answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<Claim>,
    /// Claims the opponent disputed, for the organisers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disputed: Vec<DisputedClaim>,
}

/// A model its own crew killed, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnCrewKill {
    pub model: ModelId,
    pub turn: u8,
}

/// A model of `seat`'s crew interacted with the enemy model `target` on
/// `turn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveredMessage {
    pub seat: Seat,
    pub target: ModelId,
    pub turn: u8,
}

/// `target`, damaged by `by` in its activation on `turn`, was left at half
/// its health or less when that activation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamagedInActivation {
    pub by: ModelId,
    pub target: ModelId,
    pub turn: u8,
}

/// An enemy model `seat`'s crew killed on `turn` within 1" of these of
/// its scheme markers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KillBySchemeMarkers {
    pub seat: Seat,
    pub turn: u8,
    pub markers: Vec<crate::table::ObjectId>,
}

/// A claim for a 3rd edition scheme and what it gained (none if disputed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchemeScore {
    pub seat: Seat,
    pub scheme: String,
    pub turn: u8,
    pub vp: u8,
}

impl Choices {
    /// The scheme `seat` holds (4th edition: one at most).
    pub fn held(&self, seat: Seat) -> Option<&Hidden<HeldScheme>> {
        self.schemes[seat.index()].first()
    }

    /// The claims made this game for `seat`'s scheme `name`.
    pub fn scores_of<'a>(
        &'a self,
        seat: Seat,
        name: &'a str,
    ) -> impl Iterator<Item = &'a SchemeScore> + 'a {
        self.scheme_scores
            .iter()
            .filter(move |s| s.seat == seat && s.scheme.eq_ignore_ascii_case(name))
    }

    /// Whether `seat`'s crew has revealed a scheme called `name` (a crew
    /// never reveals the same scheme twice).
    pub fn has_revealed(&self, seat: Seat, name: &str) -> bool {
        self.revealed[seat.index()]
            .iter()
            .any(|r| r.eq_ignore_ascii_case(name))
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn none_named(names: &[Option<String>; 2]) -> bool {
    names.iter().all(Option::is_none)
}

/// Step C-6: the crew may activate one of these models next, before the
/// other player; or decline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainOffer {
    pub seat: Seat,
    pub models: Vec<ModelId>,
}

impl Encounter {
    pub fn new(setup: EncounterSetup, edition: crate::Edition) -> Self {
        let attacker = setup.attacker;
        let hiring = setup
            .offers
            .iter()
            .all(|o| o.value.as_ref().is_some_and(|v| !v.is_empty()));
        // 4th edition: the attacker's zone comes first (setup step E); 3rd
        // edition: factions, crews and schemes first, then deployment,
        // which starts with the attacker's zone.
        let step = match (edition.rules().encounter.schemes, hiring) {
            (crate::rules::SchemeRule::OneHeld, _) => Step::ChooseZone,
            (crate::rules::SchemeRule::TwoFromThePool, true) => Step::Declare {
                what: Declaration::Faction,
            },
            (crate::rules::SchemeRule::TwoFromThePool, false) => Step::ChooseSchemes,
        };
        Self {
            setup: Arc::new(setup),
            choices: Arc::default(),
            step,
            turn: 0,
            attacker_zone: None,
            leaders: [None; 2],
            initiative: attacker,
            active: attacker,
            activated: Vec::new(),
            last_passed: false,
            last_activated_by: None,
            activation: ActivationUse::default(),
            transfer_due: false,
            strategy_vp: [0; 2],
            scheme_vp: [0; 2],
            done: [false; 2],
            kills_this_turn: [0; 2],
            killed_this_turn: Vec::new(),
            own_crew_kills: Vec::new(),
            kills_by_scheme_markers: Vec::new(),
            damaged_this_activation: Vec::new(),
            left_at_half_health: Vec::new(),
            messages_delivered: Vec::new(),
            initiative_flips: 0,
            assumed_leadership: [None; 2],
            once_used: Vec::new(),
            abilities_used: Vec::new(),
            chain_offer: None,
            in_a_row: 0,
            pass_tokens: [0, 0],
            explosives: Vec::new(),
            explosives_placed: [0, 0],
            initiative_cards: None,
        }
    }

    /// How long `model`'s "once per" action (or general action) `action`
    /// stays used, if it has been taken.
    pub fn once_used_by(&self, model: ModelId, action: &str) -> Option<crate::model::OncePer> {
        self.once_used
            .iter()
            .find(|(m, name, _)| *m == model && name == action)
            .map(|(_, _, per)| *per)
    }

    /// The explosives tokens `model` carries.
    pub fn explosives_on(&self, model: ModelId) -> u8 {
        self.explosives
            .iter()
            .find(|(m, _)| *m == model)
            .map_or(0, |(_, count)| *count)
    }

    /// The choices, to change them (copied first if shared).
    pub fn choices_mut(&mut self) -> &mut Choices {
        Arc::make_mut(&mut self.choices)
    }

    /// Whether the scheme `seat` holds is one its player claims (the
    /// engine cannot check it). Only the owner's view holds the scheme.
    pub fn holds_claimed_scheme(&self, seat: Seat) -> bool {
        self.choices
            .held(seat)
            .and_then(|held| held.value.as_ref())
            .and_then(|held| self.setup.schemes.scheme(&held.name))
            .is_some_and(|def| def.is_claimed())
    }

    /// Whether `seat` may choose `model` for a scheme asking for `choice`.
    pub fn may_choose(
        &self,
        seat: Seat,
        choice: SchemeChoice,
        model: &crate::model::Model,
    ) -> bool {
        let card = &model.card;
        let enemy = model.owner != seat;
        model.in_play()
            && card.counts_for_objectives()
            && match choice {
                SchemeChoice::EnemyModel => enemy && !card.totem && !card.peon,
                SchemeChoice::EnemyMinionOrEnforcer => {
                    enemy && !card.master && !card.henchman && !card.peon
                }
                SchemeChoice::EnemyLeaderOrMaster => {
                    enemy && (card.master || self.leaders[model.owner.index()] == Some(model.id))
                }
                SchemeChoice::FriendlyNonLeader => {
                    !enemy && self.leaders[seat.index()] != Some(model.id)
                }
                SchemeChoice::FriendlyAndCostlierEnemy => !enemy && !card.totem,
            }
    }

    /// For a scheme choosing two models: whether `seat` may choose
    /// `second` beside `first` (Vendetta: an enemy that is not its
    /// leader and costs more).
    pub fn may_choose_second(
        &self,
        seat: Seat,
        choice: SchemeChoice,
        first: &crate::model::Model,
        second: &crate::model::Model,
    ) -> bool {
        match choice {
            SchemeChoice::FriendlyAndCostlierEnemy => {
                second.in_play()
                    && second.owner != seat
                    && self.leaders[second.owner.index()] != Some(second.id)
                    && second.card.cost > first.card.cost
            }
            _ => false,
        }
    }

    /// Whether a model of `seat`'s may interact with `target` for a scheme
    /// of the pool (Deliver a Message): the pool holds such a scheme whose
    /// choice allows `target`. Read from the public pool, not from the
    /// schemes `seat` holds, so offering it gives nothing away.
    pub fn may_deliver_message_to(&self, seat: Seat, target: &crate::model::Model) -> bool {
        self.setup
            .scheme_pool
            .iter()
            .filter_map(|name| self.setup.schemes.scheme(name))
            .filter(|def| {
                def.reveal
                    .contains(&objectives::SchemeCondition::ChosenInteractedWith)
            })
            .filter_map(|def| def.choice)
            .any(|choice| target.owner != seat && self.may_choose(seat, choice, target))
    }

    /// Whether the scheme `seat` holds might be revealed at the end of an
    /// activation, as far as its opponent can tell: whether any scheme it
    /// could have selected (the pool, or the Next Available Schemes it
    /// selected from) and has not revealed is timed so. Read from public
    /// facts only, so asking the crew gives nothing away.
    pub fn may_reveal_after_activation(&self, seat: Seat) -> bool {
        let i = seat.index();
        // Asked after every activation: most books time no scheme so, and
        // then no name need be looked up.
        let timed_so = |def: &objectives::SchemeDef| {
            def.timing.allows(objectives::RevealTiming::EndOfActivation)
        };
        if self.choices.schemes[i].is_empty() || !self.setup.schemes.schemes.iter().any(timed_so) {
            return false;
        }
        let candidates: &[String] = match &self.choices.selected_after[i] {
            None => &self.setup.scheme_pool,
            Some(previous) => self
                .setup
                .schemes
                .scheme(previous)
                .map_or(&[], |def| def.next.as_slice()),
        };
        // The timing first: most schemes are revealed at the end of a turn.
        candidates
            .iter()
            .filter_map(|name| self.setup.schemes.scheme(name))
            .filter(|def| timed_so(def))
            .any(|def| !self.choices.has_revealed(seat, &def.name))
    }

    /// The zone `seat` deploys in, once the attacker has chosen.
    pub fn zone_of(&self, seat: Seat) -> Option<Zone> {
        let attacker = self.attacker_zone?;
        Some(if seat == self.setup.attacker {
            attacker
        } else {
            match attacker {
                Zone::Lower => Zone::Upper,
                Zone::Upper => Zone::Lower,
            }
        })
    }

    /// The seat the table's layout uses for `seat`'s zone (the layout puts
    /// player A's zone lower).
    pub fn layout_side(&self, seat: Seat) -> Seat {
        match self.zone_of(seat) {
            Some(Zone::Upper) => Seat::B,
            _ => Seat::A,
        }
    }

    pub fn offers(&self, seat: Seat) -> &[CrewOffer] {
        self.setup.offers(seat)
    }

    /// What `seat` may choose in a declaration step: its offers' factions,
    /// then the leaders of the faction it revealed, then the crews with
    /// that leader. Each once, in the order the offers came.
    pub fn declarable(&self, seat: Seat, what: Declaration) -> Vec<String> {
        let i = seat.index();
        let faction = self.choices.factions.as_ref().map(|f| f[i].as_str());
        let leader = self.choices.leader_names.as_ref().map(|l| l[i].as_str());
        let mut options: Vec<String> = Vec::new();
        for offer in self.offers(seat) {
            let option = match what {
                Declaration::Faction => &offer.faction,
                Declaration::Leader if faction == Some(offer.faction.as_str()) => &offer.leader,
                Declaration::Crew
                    if faction == Some(offer.faction.as_str())
                        && leader == Some(offer.leader.as_str()) =>
                {
                    &offer.name
                }
                Declaration::Leader | Declaration::Crew => continue,
            };
            if !options.contains(option) {
                options.push(option.clone());
            }
        }
        options
    }
}

/// The scheme marker of `seat`'s that a new one would replace: with five
/// in play, one must go first (the sixth's, counted in play order);
/// none while there is room, or in an edition without the limit.
pub fn scheme_marker_to_replace(
    state: &crate::state::GameState,
    seat: Seat,
) -> Option<crate::table::ObjectId> {
    if state.edition.rules().encounter.scheme_markers != crate::rules::SchemeMarkerRule::AtMostFive
    {
        return None;
    }
    state
        .scheme_markers_of(seat)
        .nth(MAX_FRIENDLY_MARKERS - 1)
        .map(|k| k.id)
}

/// The encounter as a viewer may see it: a scheme, a declaration and the
/// crews a player brought only their owner sees (a scheme until it is
/// revealed, a declaration until both are in).
pub fn for_viewer(encounter: &Encounter, viewer: crate::Viewer) -> Encounter {
    let mut shown = encounter.clone();
    let sees = |owner: Seat| viewer == crate::Viewer::Player(owner);
    for held in shown.choices_mut().schemes.iter_mut().flatten() {
        if !sees(held.owner) {
            held.value = None;
        }
    }
    for declared in shown.choices_mut().declared.iter_mut().flatten() {
        if !sees(declared.owner) {
            declared.value = None;
        }
    }
    if shown.setup.offers.iter().any(|o| !sees(o.owner)) {
        let setup = Arc::make_mut(&mut shown.setup);
        for offer in &mut setup.offers {
            if !sees(offer.owner) {
                offer.value = None;
            }
        }
    }
    shown
}
