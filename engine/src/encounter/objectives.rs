//! Strategies and schemes as content (`content/<edition>/strategies.toml`,
//! `schemes.toml`), built from scoring building blocks. The engine scores
//! what these blocks describe. An objective they cannot describe (a TO's
//! season entry the content lacks) is built from the `claimed` block: its
//! player claims the VP at the scoring step and the opponent confirms or
//! disputes, so nothing is scored silently.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Edition;
use crate::fate::Suit;

/// Where strategy markers are made when the game starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MarkerSpot {
    /// On the centerpoint.
    Centerpoint,
    /// In the centre of each table quarter (four markers).
    QuarterCenters,
    /// On the centreline, this many inches either side of the centerpoint
    /// (two markers).
    OnCenterline { inches: u8 },
}

/// What an Interact with a strategy marker does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MarkerInteract {
    /// Strategy markers cannot be interacted with.
    #[default]
    None,
    /// A neutral marker becomes friendly to the interacting crew; any
    /// other marker becomes neutral (Collapsing Mines).
    ClaimOrNeutralise,
    /// One step towards the interacting crew: an enemy marker becomes
    /// neutral, a neutral one friendly; a friendly one stays (Turf War).
    StepTowardFriendly,
    /// The marker is picked up: removed, and the interacting model gains
    /// an explosives token (Plant Explosives; see [`ExplosivesRule`]).
    PickUpForExplosives,
    /// The interacting model, in base contact with the marker, suffers up
    /// to the rule's most irreducible damage and drops the marker that
    /// many inches away (Corrupted Idols; see [`IdolRule`]).
    MoveForDamage,
}

/// Where on the centreline a marker drops, as the player with initiative
/// sees the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CenterlinePlace {
    /// This many inches in from where the centreline meets the table edge
    /// on that player's left...
    Left(u8),
    /// ...or on their right.
    Right(u8),
    /// On the centerpoint.
    Centerpoint,
    /// Where the centreline meets a table edge, the player choosing which
    /// (the marker's edge touching the table's).
    Edge,
}

/// A strategy marker dropped on the centreline at each start phase, once
/// initiative is settled, where the suit of the initiative player's flip
/// says (a Joker is flipped again); a model in base contact suffers damage
/// to move one (Corrupted Idols).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IdolRule {
    pub rams: CenterlinePlace,
    pub masks: CenterlinePlace,
    pub tomes: CenterlinePlace,
    pub crows: CenterlinePlace,
    /// The most irreducible damage an Interact takes: the marker moves up
    /// to that many inches.
    pub max_damage: u8,
}

impl IdolRule {
    pub fn place(&self, suit: Suit) -> CenterlinePlace {
        match suit {
            Suit::Rams => self.rams,
            Suit::Masks => self.masks,
            Suit::Tomes => self.tomes,
            Suit::Crows => self.crows,
        }
    }
}

/// Explosives tokens the crews put on their models after deployment,
/// spent by an Interact to drop a strategy marker in base contact
/// (Plant Explosives).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplosivesRule {
    /// Tokens each crew places, alternating from the attacker.
    pub per_crew: u8,
    /// At most this many placed on a minion (or a peon)...
    pub minion_max: u8,
    /// ...and on any other model.
    pub other_max: u8,
    /// A dropped marker may not be within this many inches of another
    /// friendly strategy marker.
    pub spacing: u8,
    /// A killed model's tokens go to an enemy model within this many
    /// inches of it (the nearest), or are discarded.
    pub passed_within: u8,
}

/// A part of the table, seen from one crew.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    /// The enemy table half (the half holding the enemy deployment zone).
    EnemyHalf,
    /// The enemy deployment zone (a model completely within it).
    EnemyDeploymentZone,
    /// Within this many inches of the centerpoint.
    NearCenter { inches: u8 },
    /// Within 1" of the centreline.
    OnCenterline,
    /// Touching the centreline (3rd edition's "on the centerline").
    AcrossCenterline,
}

/// Where a strategy marker counts as on the enemy half.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HalfCount {
    /// Any part of it on that half: one across the centreline counts in
    /// both halves (Plant Explosives).
    Touching,
    /// Completely on that half (Corrupted Idols).
    Completely,
}

/// How a strategy scores at the end of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "rule", rename_all = "snake_case", deny_unknown_fields)]
pub enum StrategyScoring {
    /// The crew with the most friendly strategy markers scores (both on a tie,
    /// if any holds one).
    MostFriendlyMarkers,
    /// The crew controlling more table quarters scores (both on a tie, if
    /// any controls one): a crew controls a quarter when the cost of its
    /// non-peon models completely within it is greater than the enemy's.
    MostQuarters,
    /// The crew with more non-peon models in `area` (of the table, not of
    /// either crew: `near_center` or `on_centerline`) scores (both on a
    /// tie, if any has one).
    MostModelsIn { area: Area },
    /// Each crew on its own: 1 VP when its friendly strategy markers
    /// outnumber the VP it has already scored from the strategy (Turf War).
    MarkersAboveScored,
    /// Each crew on its own: 1 VP when the strategy markers on the enemy
    /// half, whoever's they are, outnumber the VP it has already scored
    /// from the strategy (Plant Explosives, Corrupted Idols).
    MarkersOnEnemyHalfAboveScored { counts: HalfCount },
    /// Each crew on its own: 1 VP when the enemy models killed this turn
    /// (a master or the leader counting 3, a henchman 2, any other 1)
    /// outnumber the VP it has already scored from the strategy, or when no
    /// enemy model is left in play (Reckoning).
    EnemyLossesAboveScored,
    /// The engine cannot score it: at each end phase every crew claims the
    /// VP it gained (initiative first) and the opponent confirms or
    /// disputes the claim; a disputed claim scores nothing and goes to the
    /// organisers.
    Claimed,
}

/// What happens after a strategy scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AfterScoring {
    /// The crew with fewer VP removes one strategy marker (on a tie, the
    /// player with initiative chooses: the rules are silent).
    FewestVpRemovesMarker,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrategyDef {
    pub name: String,
    /// The suit the setup flip picks it by, in the project's own season.
    #[serde(default)]
    pub suit: Option<Suit>,
    #[serde(default)]
    pub markers: Vec<MarkerSpot>,
    #[serde(default)]
    pub interact: MarkerInteract,
    pub scoring: StrategyScoring,
    /// A tie scores for both crews even when neither has anything (the
    /// rules' Collapsing Mines, read as written); otherwise a tie at
    /// nothing scores for neither.
    #[serde(default)]
    pub empty_tie_scores: bool,
    /// VP a crew gains when it scores (usually 1).
    #[serde(default = "one")]
    pub vp: u8,
    /// The VP gained on this turn are doubled.
    #[serde(default)]
    pub double_on_turn: Option<u8>,
    #[serde(default)]
    pub after_scoring: Option<AfterScoring>,
    /// A crew that kills an enemy model turns one strategy marker of the
    /// enemy's in the killed model's table quarter neutral (Turf War; the
    /// marker at the centre is in every quarter).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kill_neutralises_marker: bool,
    /// Its strategy markers are impassable: no model moves through one
    /// (Turf War).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub impassable_markers: bool,
    /// Explosives tokens carried by models (Plant Explosives).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explosives: Option<ExplosivesRule>,
    /// A marker dropped each start phase (Corrupted Idols).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idols: Option<IdolRule>,
    /// The rules in the project's own words.
    #[serde(default)]
    pub text: String,
}

fn one() -> u8 {
    1
}

fn is_end_of_turn(timing: &RevealTiming) -> bool {
    *timing == RevealTiming::EndOfTurn
}

impl StrategyDef {
    /// A strategy the content does not describe, scored by its players'
    /// claims: no markers, no rules of its own.
    pub fn claimed(name: &str, suit: Option<Suit>) -> Self {
        Self {
            name: name.to_string(),
            suit,
            markers: Vec::new(),
            interact: MarkerInteract::None,
            scoring: StrategyScoring::Claimed,
            empty_tie_scores: false,
            vp: 1,
            double_on_turn: None,
            after_scoring: None,
            kill_neutralises_marker: false,
            impassable_markers: false,
            explosives: None,
            idols: None,
            text: "Not described by the content: each end phase, every crew claims the VP it \
                   gained and the opponent confirms or disputes the claim."
                .into(),
        }
    }
}

/// A secret choice a scheme asks for when selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SchemeChoice {
    /// An enemy model that is neither a totem nor a peon.
    EnemyModel,
    /// An enemy minion or enforcer (Take Prisoner).
    EnemyMinionOrEnforcer,
    /// The enemy leader or an enemy master (Deliver a Message).
    EnemyLeaderOrMaster,
    /// A friendly model that is not the crew's leader (Claim Jump).
    FriendlyNonLeader,
    /// A friendly model that is not a totem, and an enemy model that is
    /// not the enemy leader and costs more (Vendetta).
    FriendlyAndCostlierEnemy,
}

impl SchemeChoice {
    /// What the player is asked to choose, for messages.
    pub fn label(self) -> &'static str {
        match self {
            SchemeChoice::EnemyModel => "an enemy model in play that is neither a totem nor a peon",
            SchemeChoice::EnemyMinionOrEnforcer => "an enemy minion or enforcer",
            SchemeChoice::EnemyLeaderOrMaster => "the enemy leader or an enemy master",
            SchemeChoice::FriendlyNonLeader => "a friendly model that is not your leader",
            SchemeChoice::FriendlyAndCostlierEnemy => {
                "a friendly model that is not a totem, and an enemy model that is not the \
                 enemy leader and costs more"
            }
        }
    }

    /// Whether it chooses two models.
    pub fn chooses_two(self) -> bool {
        self == SchemeChoice::FriendlyAndCostlierEnemy
    }
}

/// A condition a scheme checks, from the revealing crew's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "rule", rename_all = "snake_case", deny_unknown_fields)]
pub enum SchemeCondition {
    /// The secretly chosen model has been killed.
    ChosenModelKilled,
    /// The chosen model's cost (masters count 10, totems 5) is at least this.
    ChosenModelCostAtLeast { cost: u8 },
    /// At least `count` friendly scheme markers in `area`.
    SchemeMarkersIn { area: Area, count: u8 },
    /// At least `count` friendly non-peon models in `area`.
    ModelsIn { area: Area, count: u8 },
    /// Friendly non-peon models are in at least `count` different table
    /// quarters (completely within each).
    ModelsInQuarters { count: u8 },
    /// The crew killed at least `count` enemy models this turn.
    KilledThisTurn { count: u8 },
    /// At least `count` enemy non-peon models are at half their maximum
    /// health or less.
    EnemiesAtHalfHealth { count: u8 },
    /// The model that has just finished its activation is friendly, not a
    /// peon, and in `area` (completely, for a deployment zone). Only for a
    /// scheme revealed at the end of an activation.
    ActivatedModelIn { area: Area },
    /// At least `count` friendly scheme markers within `inches` of one and
    /// the same enemy model.
    SchemeMarkersNearOneEnemy { inches: u8, count: u8 },
    /// A friendly model (completely) in `area` with no enemy model within
    /// `inches` of it.
    ModelClearOfEnemiesIn { area: Area, inches: u8 },
    /// At least `count` friendly scheme markers in `area`, each touching a
    /// different terrain piece.
    SchemeMarkersOnTerrain { area: Area, count: u8 },
    /// At least `count` friendly models, each engaging a different enemy
    /// model that costs more than it.
    EngagingCostlier { count: u8 },
    /// At least `count` friendly models, each within `inches` of a
    /// different end of the centreline (where it meets the table's edge).
    ModelsNearCenterlineEnds { inches: u8, count: u8 },
    /// At least `count` friendly scheme markers, each within `inches` of a
    /// different table corner, at most `own_zone_at_most` of those corners
    /// in the crew's own deployment zone.
    SchemeMarkersNearCorners {
        inches: u8,
        count: u8,
        own_zone_at_most: u8,
    },
    /// This turn the crew killed an enemy model within 1" of a friendly
    /// scheme marker that is still on the table (it counts one).
    KilledBySchemeMarker,
    /// At least `count` friendly scheme markers, each within `inches` of a
    /// different remains marker (3rd edition: Corpse or Scrap Markers).
    SchemeMarkersNearRemains { inches: u8, count: u8 },
    /// The enemy leader is in play at half its maximum health or less.
    EnemyLeaderAtHalfHealth,
    /// The enemy leader is not in play.
    EnemyLeaderGone,
    /// A friendly model engages the chosen model.
    ChosenEngaged,
    /// No enemy model other than the chosen one is within `inches` of it.
    ChosenAloneWithin { inches: u8 },
    /// The chosen model is in play, (completely) in `area`.
    ChosenIn { area: Area },
    /// No enemy model is within `inches` of the chosen (friendly) model.
    ChosenClearOfEnemies { inches: u8 },
    /// The chosen model is in play with half its maximum health or more.
    ChosenAtHalfHealthOrMore,
    /// The chosen model is in play within `inches` of a friendly scheme
    /// marker.
    ChosenNearSchemeMarker { inches: u8 },
    /// After the scheme was revealed, the chosen model was killed by its
    /// own crew.
    ChosenKilledByOwnCrewAfterReveal,
    /// This turn a friendly model interacted with the chosen model.
    ChosenInteractedWith,
    /// The chosen model is in play.
    ChosenInPlay,
    /// The second chosen model is not in play.
    SecondChosenGone,
    /// This turn the chosen model damaged the second chosen model in its
    /// activation and left it in play at half its health or less.
    ChosenLeftSecondAtHalfHealth,
    /// The engine cannot check it: revealing the scheme becomes a claim
    /// the opponent confirms or disputes (the other conditions are still
    /// checked).
    Claimed,
}

impl SchemeCondition {
    /// Whether it reads the scheme's chosen model.
    pub fn reads_chosen_model(self) -> bool {
        matches!(
            self,
            SchemeCondition::ChosenModelKilled
                | SchemeCondition::ChosenModelCostAtLeast { .. }
                | SchemeCondition::ChosenEngaged
                | SchemeCondition::ChosenAloneWithin { .. }
                | SchemeCondition::ChosenIn { .. }
                | SchemeCondition::ChosenClearOfEnemies { .. }
                | SchemeCondition::ChosenAtHalfHealthOrMore
                | SchemeCondition::ChosenNearSchemeMarker { .. }
                | SchemeCondition::ChosenKilledByOwnCrewAfterReveal
                | SchemeCondition::ChosenInPlay
                | SchemeCondition::ChosenInteractedWith
                | SchemeCondition::SecondChosenGone
                | SchemeCondition::ChosenLeftSecondAtHalfHealth
        )
    }
}

/// When a scheme may be revealed (the rules' common reveal timings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RevealTiming {
    /// End phase step C.
    #[default]
    EndOfTurn,
    /// Activation phase step C-4, once a model has completely finished
    /// activating (either crew's model).
    EndOfActivation,
    /// Both: a scheme revealed as soon as what it asks has happened
    /// (Assassinate, once its model is killed, M4E line 2151), offered at
    /// the end of the activation in which it happened, or of the turn.
    EndOfActivationOrTurn,
}

impl RevealTiming {
    pub fn label(self) -> &'static str {
        match self {
            RevealTiming::EndOfTurn => "at the end of a turn",
            RevealTiming::EndOfActivation => "at the end of an activation",
            RevealTiming::EndOfActivationOrTurn => "at the end of an activation or of a turn",
        }
    }

    /// Whether a scheme so timed may be revealed in `window` (the end of
    /// an activation, or of a turn).
    pub fn allows(self, window: RevealTiming) -> bool {
        self == window || self == RevealTiming::EndOfActivationOrTurn
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchemeDef {
    pub name: String,
    /// 3rd edition: the card value (1 to 13) that puts it in the pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<u8>,
    #[serde(default)]
    pub choice: Option<SchemeChoice>,
    #[serde(default, skip_serializing_if = "is_end_of_turn")]
    pub timing: RevealTiming,
    /// All must hold for the scheme to be revealed (at its timing).
    pub reveal: Vec<SchemeCondition>,
    /// Revealing gains 1 VP; these conditions, all met, gain 1 more.
    #[serde(default)]
    pub additional: Vec<SchemeCondition>,
    /// 3rd edition: the End requirement, all met at the end of the game
    /// for 1 VP (revealed or not). Empty: the scheme has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub end: Vec<SchemeCondition>,
    /// 3rd edition: the End requirement is also met when all of these
    /// hold ("..., or ...").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub end_otherwise: Vec<SchemeCondition>,
    /// 3rd edition: scoring removes the scheme markers the requirement
    /// counted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spends_markers: bool,
    /// The schemes a crew may select once this one is revealed or abandoned.
    /// A name the content does not define cannot be selected (the engine
    /// says which when it offers the rest).
    #[serde(default)]
    pub next: Vec<String>,
    #[serde(default)]
    pub text: String,
}

impl SchemeDef {
    /// A scheme the content does not describe (a TO's season entry),
    /// revealed by claiming its VP, with the season's Next Available
    /// Schemes.
    pub fn claimed(name: &str, next: Vec<String>) -> Self {
        Self {
            name: name.to_string(),
            card: None,
            choice: None,
            timing: RevealTiming::EndOfTurn,
            reveal: vec![SchemeCondition::Claimed],
            additional: vec![SchemeCondition::Claimed],
            end: vec![SchemeCondition::Claimed],
            end_otherwise: Vec::new(),
            spends_markers: false,
            next,
            text: "Not described by the content: revealing it claims 1 or 2 VP, which the \
                   opponent confirms or disputes."
                .into(),
        }
    }

    /// Whether revealing it is a claim the opponent answers.
    pub fn is_claimed(&self) -> bool {
        self.reveal
            .iter()
            .chain(&self.additional)
            .any(|c| *c == SchemeCondition::Claimed)
    }
}

/// A scheme of a TO's season as the service knows it: its name and its
/// Next Available Schemes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeasonScheme {
    pub name: String,
    #[serde(default)]
    pub next: Vec<String>,
}

/// An edition's strategies and schemes, checked on load.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ObjectiveBook {
    pub strategies: Vec<StrategyDef>,
    pub schemes: Vec<SchemeDef>,
}

/// The files' shapes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrategiesFile {
    pub edition: Edition,
    #[serde(rename = "strategy")]
    pub strategies: Vec<StrategyDef>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchemesFile {
    pub edition: Edition,
    #[serde(rename = "scheme")]
    pub schemes: Vec<SchemeDef>,
}

impl ObjectiveBook {
    /// Checks the book: names are unique and every condition makes sense.
    /// An error names the field (`scheme[2].additional`) and what is wrong.
    pub fn new(
        strategies: Vec<StrategyDef>,
        schemes: Vec<SchemeDef>,
    ) -> Result<Self, (String, String)> {
        let mut names = std::collections::BTreeSet::new();
        for (i, s) in strategies.iter().enumerate() {
            if s.name.trim().is_empty() || !names.insert(s.name.to_lowercase()) {
                return Err((
                    format!("strategy[{i}].name"),
                    "a strategy needs a name of its own".into(),
                ));
            }
            check_strategy(i, s)?;
        }
        let mut suits = std::collections::BTreeSet::new();
        for (i, s) in strategies.iter().enumerate() {
            if let Some(suit) = s.suit
                && !suits.insert(suit)
            {
                return Err((
                    format!("strategy[{i}].suit"),
                    format!("two strategies are picked by {suit:?}"),
                ));
            }
        }
        let mut names = std::collections::BTreeSet::new();
        for (i, s) in schemes.iter().enumerate() {
            if s.name.trim().is_empty() || !names.insert(s.name.to_lowercase()) {
                return Err((
                    format!("scheme[{i}].name"),
                    "a scheme needs a name of its own".into(),
                ));
            }
            check_scheme(i, s, &schemes)?;
        }
        Ok(Self {
            strategies,
            schemes,
        })
    }

    pub fn strategy(&self, name: &str) -> Option<&StrategyDef> {
        self.strategies
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    pub fn scheme(&self, name: &str) -> Option<&SchemeDef> {
        self.schemes
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    pub fn strategy_for_suit(&self, suit: Suit) -> Option<&StrategyDef> {
        self.strategies.iter().find(|s| s.suit == Some(suit))
    }

    /// The schemes a game may select: the content's, then a claimed one for
    /// every scheme of the season (`season`) or the pool (`pool`) that the
    /// content lacks. A content scheme keeps its own Next Available list.
    pub fn with_season(&self, pool: &[String], season: &[SeasonScheme]) -> Vec<SchemeDef> {
        let mut schemes = self.schemes.clone();
        let listed = season
            .iter()
            .map(|s| (s.name.as_str(), s.next.clone()))
            .chain(pool.iter().map(|name| (name.as_str(), Vec::new())));
        for (name, next) in listed {
            let name = name.trim();
            if name.is_empty() || schemes.iter().any(|s| s.name.eq_ignore_ascii_case(name)) {
                continue;
            }
            schemes.push(SchemeDef::claimed(name, next));
        }
        schemes
    }
}

/// The checks on one strategy of a pool that need no other: a field path
/// and what is wrong, for the first that fails.
fn check_strategy(i: usize, s: &StrategyDef) -> Result<(), (String, String)> {
    // Explosives and idols drop the markers there are to interact with.
    if s.interact != MarkerInteract::None
        && s.markers.is_empty()
        && s.explosives.is_none()
        && s.idols.is_none()
    {
        return Err((
            format!("strategy[{i}].interact"),
            "interacting needs strategy markers to interact with".into(),
        ));
    }
    if matches!(
        s.scoring,
        StrategyScoring::MostFriendlyMarkers | StrategyScoring::MarkersAboveScored
    ) && s.markers.is_empty()
    {
        return Err((
            format!("strategy[{i}].scoring"),
            "scoring by markers needs strategy markers".into(),
        ));
    }
    if s.impassable_markers && s.markers.is_empty() {
        return Err((
            format!("strategy[{i}].impassable_markers"),
            "only a strategy that makes markers can make them impassable".into(),
        ));
    }
    if s.kill_neutralises_marker && s.markers.is_empty() {
        return Err((
            format!("strategy[{i}].kill_neutralises_marker"),
            "a kill can turn a marker only where the strategy has markers".into(),
        ));
    }
    if (s.interact == MarkerInteract::PickUpForExplosives) != s.explosives.is_some() {
        return Err((
            format!("strategy[{i}].explosives"),
            "explosives tokens and picking markers up for them go together".into(),
        ));
    }
    if (s.interact == MarkerInteract::MoveForDamage) != s.idols.is_some() {
        return Err((
            format!("strategy[{i}].idols"),
            "idols dropped each turn and moving them for damage go together".into(),
        ));
    }
    if let Some(idols) = s.idols {
        if idols.max_damage == 0 {
            return Err((
                format!("strategy[{i}].idols.max_damage"),
                "at least 1: the damage is how far the marker moves".into(),
            ));
        }
        let too_far = Suit::ALL.into_iter().find(|suit| {
            matches!(idols.place(*suit), CenterlinePlace::Left(inches) | CenterlinePlace::Right(inches)
                if i64::from(inches) * 1000 >= i64::from(crate::table::TABLE_SIZE) / 2)
        });
        if let Some(suit) = too_far {
            return Err((
                format!("strategy[{i}].idols.{}", suit.name().to_lowercase()),
                "a place in from the table edge must be short of the centerpoint".into(),
            ));
        }
    }
    if let Some(explosives) = s.explosives
        && (explosives.per_crew == 0 || explosives.other_max == 0)
    {
        return Err((
            format!("strategy[{i}].explosives"),
            "a crew places at least one token, on a model that may carry one".into(),
        ));
    }
    if !(1..=5).contains(&s.vp) {
        return Err((format!("strategy[{i}].vp"), "1 to 5".into()));
    }
    Ok(())
}

/// The checks on scheme `i` of a pool, beside the others (`schemes`).
fn check_scheme(i: usize, s: &SchemeDef, schemes: &[SchemeDef]) -> Result<(), (String, String)> {
    if s.card.is_some_and(|card| !(1..=13).contains(&card)) {
        return Err((format!("scheme[{i}].card"), "a card value, 1 to 13".into()));
    }
    if let Some(card) = s.card
        && schemes[..i].iter().any(|other| other.card == Some(card))
    {
        return Err((
            format!("scheme[{i}].card"),
            format!("two schemes are picked by the card value {card}"),
        ));
    }
    if s.reveal.is_empty() {
        return Err((
            format!("scheme[{i}].reveal"),
            "a scheme needs a condition to reveal it".into(),
        ));
    }
    let needs_choice = s
        .reveal
        .iter()
        .chain(&s.additional)
        .chain(&s.end)
        .chain(&s.end_otherwise)
        .any(|c| c.reads_chosen_model());
    if needs_choice && s.choice.is_none() {
        return Err((
            format!("scheme[{i}].choice"),
            "its conditions read a chosen model: add a choice (\"enemy_model\", ...)".into(),
        ));
    }
    if s.end.is_empty() && !s.end_otherwise.is_empty() {
        return Err((
            format!("scheme[{i}].end_otherwise"),
            "an alternative to the End requirement needs an `end` to stand beside".into(),
        ));
    }
    let reads_activation = s
        .reveal
        .iter()
        .chain(&s.additional)
        .any(|c| matches!(c, SchemeCondition::ActivatedModelIn { .. }));
    if reads_activation && s.timing != RevealTiming::EndOfActivation {
        return Err((
            format!("scheme[{i}].timing"),
            "its conditions read the model that just activated: add timing = \"end_of_activation\""
                .into(),
        ));
    }
    if let Some(missing) = s.next.iter().find(|name| {
        !schemes
            .iter()
            .any(|other| other.name.eq_ignore_ascii_case(name))
    }) {
        return Err((
            format!("scheme[{i}].next"),
            format!("{missing:?} is not a scheme of this file: a crew could never select it"),
        ));
    }
    if s.timing != RevealTiming::EndOfTurn && s.is_claimed() {
        return Err((
            format!("scheme[{i}].timing"),
            "a claimed scheme is revealed at the end of a turn, where its opponent answers".into(),
        ));
    }
    Ok(())
}
