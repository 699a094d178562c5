//! Models: the stat card every copy shares ([`ModelCard`], a definition)
//! and one model's changing state in a game ([`Model`]: health, tokens (4th
//! edition) or conditions (3rd edition, which carry a value), status and
//! place on the table).

use serde::{Deserialize, Serialize};

use std::sync::Arc;

use super::Seat;
use super::duel::{ActionKind, DamageProfile, Stat, Suits, TriggerSpec};
use super::limits::{MAX_ABILITIES, MAX_ACTIONS, MAX_NAME_LEN, MAX_REDUCTIONS};
use super::table::{BaseMm, Milli, Point};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ModelId(pub u16);

impl ModelId {
    /// The model's id on the table: the same number.
    pub fn object(self) -> super::table::ObjectId {
        super::table::ObjectId(u32::from(self.0))
    }
}

pub use super::token::{Token, Tokens};

/// The category of a defensive ability, marked beside its name: an action
/// that ignores one category leaves the others working (Defensive
/// Abilities).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Defense {
    Physical,
    Magical,
    Unusual,
}

/// Whether damage that ignores `ignored` categories passes by a defensive
/// ability of `category`.
pub fn ignored(category: Option<Defense>, ignored: &[Defense]) -> bool {
    category.is_some_and(|c| ignored.contains(&c))
}

/// A damage reduction the model has (Armor and the like).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reduction {
    pub name: String,
    pub amount: u8,
    /// 4th edition Armor-like abilities work once per activation.
    #[serde(default)]
    pub once_per_activation: bool,
    /// Whether the controller chooses to use it (otherwise it always applies).
    #[serde(default)]
    pub optional: bool,
    /// Whether it can take damage to 0 (most stop at 1).
    #[serde(default)]
    pub can_reach_zero: bool,
    /// It cancels the damage entirely (reduces it to 0).
    #[serde(default)]
    pub to_zero: bool,
    /// Soulstones drained to use it.
    #[serde(default)]
    pub soulstones: u8,
    /// Its defensive category, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<Defense>,
    /// Once used, the model may move up to this many inches (Kinetic
    /// Amplifier); 0: no move.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub then_moves: u8,
}

/// Damage dealt to other models when this one is killed (a Demise ability):
/// to the models it names and to those within a distance on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Demise {
    pub name: String,
    pub damage: u8,
    /// Models it damages, named.
    #[serde(default)]
    pub targets: Vec<ModelId>,
    /// And every other model within this many inches of the killed model,
    /// measured on the table as it is killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<u8>,
    #[serde(default)]
    pub irreducible: bool,
}

/// A model's stat card: what every copy of the model shares. Definitions
/// are immutable and shared (`Arc`) by every state that holds the model;
/// what changes during a game is in [`Model`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelCard {
    /// Shared: every table built for a check names its pieces with it.
    pub name: Arc<str>,
    pub df: i16,
    pub wp: i16,
    /// Size, for sight lines and cover.
    #[serde(default = "default_size")]
    pub sz: u8,
    /// Base diameter in millimetres.
    #[serde(default = "default_base")]
    pub base: BaseMm,
    pub max_health: u16,
    /// 3rd edition: Masters and Henchmen may spend soulstones.
    #[serde(default)]
    pub soulstone_user: bool,
    /// 4th edition: a soulstone icon ends its health bar (killed: infuse one).
    #[serde(default)]
    pub infuses_on_death: bool,
    /// Peons never infuse soulstones nor leave remains.
    #[serde(default)]
    pub peon: bool,
    /// 3rd edition Insignificant: strategies and schemes ignore it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub insignificant: bool,
    /// A master: in 4th edition it may take a third action in an
    /// encounter of 50 soulstones or more.
    #[serde(default)]
    pub master: bool,
    /// A henchman (4th edition: a characteristic), who may assume
    /// leadership when its crew has no master in play.
    #[serde(default)]
    pub henchman: bool,
    /// 3rd edition: a minion (peons are minions too), as Plant Explosives'
    /// placing limit reads it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub minion: bool,
    /// A totem (schemes count its cost as 5 when it has none; never a
    /// scheme's chosen model).
    #[serde(default)]
    pub totem: bool,
    /// Unique (a master is unique whatever its card says): what
    /// "unique only" and "non-unique" targeting restrictions read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unique: bool,
    /// Its cost as schemes read it: the hiring cost, or 10 for a master
    /// and 5 for a totem without one.
    #[serde(default)]
    pub cost: u8,
    /// Speed (4th edition Sp, 3rd edition Mv): inches a Walk may move.
    #[serde(default = "default_speed")]
    pub speed: u8,
    #[serde(default)]
    pub reductions: Vec<Reduction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub demise: Option<Demise>,
    /// Healed to this much when killed by damage (a rebirth-like ability).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebirth_health: Option<u16>,
    /// With the rebirth: healed, it is then placed in base contact with a
    /// friendly model of this name (Killjoy beside Titania), if one is on
    /// the table with room beside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebirth_beside: Option<String>,
    /// Keywords, for abilities that pick models by keyword.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// The markers it drops when killed (3rd edition: a Corpse Marker for
    /// a living, undead or beast model, a Scrap Marker for a construct).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remains_markers: Vec<String>,
    /// Abilities from building blocks (`crate::ability`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<crate::ability::Ability>,
    /// The attack and tactical actions on the card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<ActionCard>,
    /// Its summon target number (STN): a summoning action's duel total
    /// must reach it. None: no action summons it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summon_tn: Option<u8>,
    /// How many copies a crew may hold at once (Minion (3)); summoning
    /// never takes a crew past it.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub model_limit: u8,
}

impl ModelCard {
    /// What an attached upgrade's face up gives joins the card, after its
    /// own abilities and actions (at hiring or during the game alike).
    pub fn gain_upgrade(&mut self, face: UpgradeFace) {
        self.abilities.extend(face.abilities);
        self.actions.extend(face.actions);
    }

    /// Whether `what` is this model's name (with or without its title) or
    /// one of its keywords.
    pub fn is_called_or_keyworded(&self, what: &str) -> bool {
        let name: &str = &self.name;
        let untitled = name.split_once(',').map_or(name, |(name, _)| name);
        name == what || untitled.trim() == what || self.keywords.iter().any(|k| k == what)
    }

    /// Whether strategies and schemes see the model at all: not a peon
    /// (4th edition), not Insignificant (3rd).
    pub fn counts_for_objectives(&self) -> bool {
        !self.peon && !self.insignificant
    }

    /// The range of its longest melee action: its 3rd edition engagement
    /// range (none without a melee action).
    pub fn melee_reach(&self) -> Option<u8> {
        self.actions
            .iter()
            .filter(|a| a.kind == ActionKind::Melee)
            .map(|a| a.range)
            .max()
    }
}

fn one() -> u8 {
    1
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

fn default_size() -> u8 {
    2
}

fn default_speed() -> u8 {
    5
}

fn default_base() -> BaseMm {
    BaseMm::SMALL
}

/// An action as a stat card prints it. The engine turns it, the acting
/// model, a target and the table into a duel (`action::duel_for`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionCard {
    pub name: Arc<str>,
    pub kind: ActionKind,
    /// Range in inches: a melee action's reach, a missile or magic
    /// action's range. 0 for an action that targets only the model itself.
    pub range: u8,
    pub skill: i16,
    #[serde(default)]
    pub skill_suits: Suits,
    /// The target resists with this stat (an opposed duel); none for a
    /// simple duel against the TN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resist: Option<Stat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tn: Option<i16>,
    #[serde(default)]
    pub tn_suits: Suits,
    #[serde(default)]
    pub damage: DamageProfile,
    #[serde(default)]
    pub irreducible: bool,
    /// Defensive categories its damage ignores.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignores: Vec<Defense>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<TriggerSpec>,
    /// What happens once a successful action's damage has resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after_succeeding: Vec<ActionEffect>,
    /// 4th edition: a signature action, taken once per activation beyond
    /// the action limit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub signature: bool,
    /// 3rd edition: a bonus action, taken outside the action limit, one
    /// per activation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bonus: bool,
    /// Taken at most once per activation, turn or game (by this model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub once_per: Option<OncePer>,
    /// Soulstones drained from the crew's pool to declare it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub soulstones: u8,
    /// It does not need line of sight: any model in range may be its
    /// target (Breaking the Rules).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ignores_line_of_sight: bool,
    /// The models (full names) a success may summon: its duel's TN is the
    /// lowest summon target number among those the crew may add, and the
    /// duel total picks which.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summons: Vec<Arc<str>>,
    /// Its printed targeting restrictions: every one must hold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetRestriction>,
    /// Its damage goes, instead of to a target, to every enemy model in
    /// base contact with a marker of this name, sight lines aside
    /// (Wildland's Queen and Underbrush).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damages_enemies_touching: Option<String>,
}

impl ActionCard {
    /// Whether its own model may be its target: not for an attack (one
    /// the target resists), nor for a summoning action, which has none.
    pub fn may_target_itself(&self) -> bool {
        self.resist.is_none() && self.summons.is_empty()
    }
}

/// A targeting restriction printed on an action or trigger: who its
/// target may be, with friend and enemy seen from the acting model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetRestriction {
    Enemy,
    Friendly,
    /// Friendly and sharing a keyword with the acting model (a model is
    /// its own ally).
    Ally,
    /// "Another" or "other": not the acting model.
    Other,
    /// Neither a crew's leader nor a master.
    NonLeader,
    Unique,
    NonUnique,
    /// "X only": a model of that name or with that keyword.
    Only(String),
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The "once per" restriction of an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OncePer {
    Activation,
    Turn,
    Game,
}

/// An effect of an action beyond its damage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "effect", rename_all = "snake_case", deny_unknown_fields)]
pub enum ActionEffect {
    /// The target is pushed this many inches directly away from the actor.
    PushTargetAway { inches: u8 },
    /// The target declares an action that this model's controller chooses
    /// from the target's card, as an additional action under that crew's
    /// control (Obey). A master or a leader cannot be controlled.
    TargetTakesAction,
    /// With at least `raises` raises, the target is killed whatever its
    /// health: resolved after the action's damage and its other effects,
    /// and a heal then does not save it (an execute effect). With
    /// `unless_paid`, the target's controller may discard a card or a
    /// soulstone instead, and it is killed only if they do not (Executioner
    /// Claws).
    KillTarget {
        raises: u8,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unless_paid: bool,
    },
    /// This model is placed anywhere within `inches` of where it stands
    /// (its player picks the point; sight lines do not matter). Resolved
    /// last of its effects.
    PlaceThisModel { inches: u8 },
    /// The target is placed anywhere within `inches` of where it stands,
    /// by this action's player (sight lines do not matter). Resolved last
    /// of its effects.
    PlaceTarget { inches: u8 },
    /// This model's crew draws `count` cards from its deck (Resupply).
    DrawCards { count: u8 },
    /// Its player may then draw up to `up_to` cards of value 1 to
    /// `max_value` from the crew's discard pile (Resupply). Resolved last
    /// of its effects.
    DrawFromDiscard { up_to: u8, max_value: u8 },
    /// An upgrade (by the name of the face attached face up) is attached
    /// to the target or to this model, as its limitations allow
    /// (Executive Order's Legalese).
    AttachUpgrade { upgrade: String, to: UpgradeHolder },
    /// This model is replaced by the model `with` (a full name) of its
    /// own crew: placed touching it, at its health (at most the new
    /// card's maximum), with its tokens and its place in schemes,
    /// leadership and the activation. Resolved last of its effects.
    /// With `together_with`, other friendly models are replaced with it
    /// by the one new model (M4E Replace, line 1525 on).
    ReplaceThisModel {
        with: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        together_with: Option<AlsoReplaced>,
    },
}

/// The other originals of a replace: up to `up_to` friendly models called
/// `name` within `within` inches of the model whose effect it is, the
/// nearest first. The new model's health is all of theirs together (at
/// most its maximum), it gains their tokens, and it has activated if any
/// of them had.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AlsoReplaced {
    pub name: String,
    pub within: u8,
    pub up_to: u8,
}

/// The model an effect attaches an upgrade to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UpgradeHolder {
    Target,
    ThisModel,
}

/// An upgrade card: lasting effects a model gains during the game when
/// an action or ability attaches it. Unique to its crew unless
/// Plentiful; a double-sided card has two faces, and only the face up
/// counts, while both count as one upgrade for its limitations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpgradeCard {
    /// One face, or two for a double-sided upgrade.
    pub faces: Vec<UpgradeFace>,
    /// Plentiful (X): the crew may possess up to X copies (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plentiful: Option<u8>,
    /// Restricted (X): only a model with each of these as its name or a
    /// keyword may attach it (one, written as a string, or several).
    #[serde(
        default,
        deserialize_with = "one_or_many",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub restricted: Vec<String>,
    /// Its type, which effects may name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// One face of an upgrade card: what the model it is attached to gains.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpgradeFace {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<crate::ability::Ability>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<ActionCard>,
}

/// A string, or a list of them.
fn one_or_many<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(deserializer)? {
        OneOrMany::One(one) => vec![one],
        OneOrMany::Many(many) => many,
    })
}

impl UpgradeCard {
    /// The card's name: both faces' for a double-sided one.
    pub fn name(&self) -> String {
        self.faces
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(" / ")
    }

    pub fn face(&self, name: &str) -> Option<&UpgradeFace> {
        self.faces.iter().find(|f| f.name == name)
    }

    /// The first of its restrictions `model` does not meet: each is a
    /// name (with or without the title) or a keyword the model must have.
    pub fn unmet_restriction(&self, model: &ModelCard) -> Option<&str> {
        self.restricted
            .iter()
            .find(|needed| !model.is_called_or_keyworded(needed))
            .map(String::as_str)
    }
}

/// Where a model is in the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelStatus {
    #[default]
    InPlay,
    /// Off the table for now, still in the game.
    Buried,
    Killed,
    /// Removed from the game without being killed.
    Removed,
}

/// One model in a game: its card (shared) and everything that changes.
/// The same id names it in the game and on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    pub id: ModelId,
    pub owner: Seat,
    pub card: Arc<ModelCard>,
    pub health: u16,
    #[serde(default)]
    pub tokens: Tokens,
    /// The crew that applied each held token whose rules ask which (see
    /// `Event::TokenGained`); a held token missing here came from no crew.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub token_from: Vec<(Token, Seat)>,
    /// Reductions used this activation (by index).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reductions_used: Vec<u8>,
    #[serde(default)]
    pub status: ModelStatus,
    /// Where it stands on the table (none: not placed, or no table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// The upgrades attached to it, by the name of the face up (their
    /// abilities and actions are on its card).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades: Vec<String>,
}

/// A model's place on the table: its base centre and the elevation the
/// base stands at, in thousandths of an inch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub at: Point,
    #[serde(default)]
    pub z: Milli,
}

impl Model {
    /// The crew that applied a held token, if its rules asked and a crew did.
    pub fn token_applier(&self, token: Token) -> Option<Seat> {
        self.token_from
            .iter()
            .find(|(t, _)| *t == token)
            .map(|(_, seat)| *seat)
    }

    /// Its base as the table rules see it, if it stands on the table: the
    /// same body the table's piece for it gives.
    pub fn body(&self) -> Option<crate::table::Body> {
        crate::table::model_body(self)
    }

    /// A new model at full health, in play.
    pub fn new(id: ModelId, owner: Seat, card: Arc<ModelCard>) -> Self {
        Self {
            id,
            owner,
            health: card.max_health,
            card,
            tokens: Tokens::default(),
            token_from: Vec::new(),
            reductions_used: Vec::new(),
            status: ModelStatus::InPlay,
            placement: None,
            upgrades: Vec::new(),
        }
    }

    pub fn name(&self) -> &str {
        &self.card.name
    }

    pub fn in_play(&self) -> bool {
        self.status == ModelStatus::InPlay
    }

    /// In play and standing on the table (not buried, not off it).
    pub fn on_table(&self) -> bool {
        self.in_play() && self.placement.is_some()
    }

    pub fn validate(&self) -> Result<(), String> {
        let card = &self.card;
        if card.name.trim().is_empty() || card.name.chars().count() > MAX_NAME_LEN {
            return Err(format!(
                "model {} needs a name of 1–{MAX_NAME_LEN} characters",
                self.id.0
            ));
        }
        if card.max_health == 0 || self.health > card.max_health {
            return Err(format!(
                "{}: health must be between 0 and a maximum of at least 1",
                card.name
            ));
        }
        if !(0..=20).contains(&card.df) || !(0..=20).contains(&card.wp) {
            return Err(format!("{}: Df and Wp must be between 0 and 20", card.name));
        }
        if card.reductions.len() > MAX_REDUCTIONS {
            return Err(format!(
                "{}: at most {MAX_REDUCTIONS} damage reductions",
                card.name
            ));
        }
        if card.actions.len() > MAX_ACTIONS {
            return Err(format!("{}: at most {MAX_ACTIONS} actions", card.name));
        }
        if card.abilities.len() > MAX_ABILITIES {
            return Err(format!("{}: at most {MAX_ABILITIES} abilities", card.name));
        }
        for (index, ability) in card.abilities.iter().enumerate() {
            // A player names the ability to resolve next: names are unique.
            if card.abilities[..index]
                .iter()
                .any(|a| a.name == ability.name)
            {
                return Err(format!(
                    "{}: two abilities called {}",
                    card.name, ability.name
                ));
            }
            if let Some(effect) = ability.effects.iter().find(|e| !e.fits(ability.window)) {
                return Err(format!(
                    "{}: {}: {effect:?} does not act at {:?}",
                    card.name, ability.name, ability.window
                ));
            }
        }
        Ok(())
    }
}
