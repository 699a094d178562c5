//! Everything that differs between the editions, as one value per edition:
//! [`Rules`], laid out in full in `fourth.rs` and `third.rs`. Procedures,
//! the table and the content checks read the value of the game's edition
//! (`edition.rules()`) instead of matching on the edition, so an edition
//! is added by writing its value and registering it in [`Edition::rules`].

pub mod content;
pub mod duel;
pub mod encounter;
pub mod table;

mod fourth;
mod third;

pub use content::{ContentRules, HiringRules, SpeedStat};
pub use duel::{DamageRule, DuelBoost, DuelRules, Raises, TokenGain, TokenHolding};
pub use encounter::{
    ActionLimits, EncounterRules, GeneralAction, InitiativeRule, PassingRule, SchemeMarkerRule,
    SchemeRule, Splitter,
};
pub use table::{
    ConcealmentException, CoverReach, EngagedWalk, Engagement, FallDamage, HeightBlocking,
    PassThrough, SightRules, StoodOnTerrain, Support, TableRules, TerrainContact, VerticalDistance,
};

use crate::Edition;

/// The rules of one edition: every number and reading that differs.
#[derive(Debug)]
pub struct Rules {
    pub edition: Edition,
    /// The short code crew lists and content files name it by ("m4e").
    pub code: &'static str,
    pub name: &'static str,
    /// How refusals name it ("4th edition").
    pub short_name: &'static str,
    pub duel: DuelRules,
    pub actions: ActionRules,
    pub encounter: EncounterRules,
    pub table: TableRules,
    pub content: ContentRules,
}

/// How Interact and Slam reach what they act on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GeneralReach {
    /// 4th edition: within this many inches.
    Inches(u8),
    /// 3rd edition: in base contact.
    BaseContact,
}

/// What bars a model from Interacting for the rest of its activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InteractBar {
    /// 4th edition: having walked out of engagement.
    LeavingEngagement,
    /// 3rd edition: having taken the Disengage action.
    Disengaging,
}

/// Declaring and resolving actions and abilities.
#[derive(Debug)]
pub struct ActionRules {
    /// 4th edition: an attack targets enemy models only, unless it says
    /// otherwise or the actor is controlled by the enemy.
    pub attacks_on_friends_refused: bool,
    /// 3rd edition: the target must be in range to be declared (M3E
    /// Actions, line 2012); 4th edition declares and then fails.
    pub target_in_range_to_declare: bool,
    /// 4th edition: a melee action needs the target within the lower
    /// model's height.
    pub melee_limited_by_height: bool,
    /// 3rd edition Friendly Fire: a missile attack at an engaged model
    /// takes a negative modifier.
    pub friendly_fire: bool,
    /// Two instances of one ability with a value: their values add up
    /// (3rd edition), or else the second has no effect (4th edition).
    pub same_name_values_add: bool,
    /// Whether "once per activation" effects may be used only inside an
    /// activation (M4E line 1052: never in the end phase).
    pub once_per_activation_only_inside_one: bool,
    /// A killed model may infuse a soulstone and drop remains (4th).
    pub killing_infuses_and_leaves_remains: bool,
    /// A piece of hazardous terrain affects a model at most once per
    /// activation (4th edition), or once per action or ability (3rd
    /// edition, M3E line 2597).
    pub hazard_once_per_activation: bool,
    pub general_reach: GeneralReach,
    pub interact_bar: InteractBar,
    /// 4th edition: an Interact with a marker is refused while an enemy
    /// touches it; 3rd edition does not care who touches it (M3E line 1962).
    pub interact_refused_while_enemy_touches: bool,
    /// 4th edition: a move may not end on a strategy marker; 3rd edition
    /// models may stop on markers.
    pub moves_end_off_strategy_markers: bool,
    /// 3rd edition: the state keeps the damage the acting model deals in
    /// its activation, and the killer's scheme markers near a model it
    /// kills, for the schemes that score them.
    pub tracks_activation_damage_and_kill_markers: bool,
    /// 4th edition: a model in a friendly simple duel it did not declare
    /// may relent.
    pub friendly_simple_duels_relent: bool,
    /// Whether an action a trigger generated may declare triggers of its
    /// own: yes in 4th edition (M4E line 1032), no in 3rd (M3E line 1625).
    pub generated_by_trigger_declares_triggers: bool,
}

impl Edition {
    /// Every edition the engine plays.
    pub const ALL: [Edition; 2] = [Edition::Fourth, Edition::Third];

    /// The rules of this edition: the one place each edition registers.
    pub fn rules(self) -> &'static Rules {
        match self {
            Edition::Fourth => &fourth::RULES,
            Edition::Third => &third::RULES,
        }
    }

    /// The edition a crew list or content file names by `code`.
    pub fn from_code(code: &str) -> Option<Edition> {
        Edition::ALL.into_iter().find(|e| e.rules().code == code)
    }
}

impl GeneralReach {
    /// The words for it.
    pub fn words(self) -> String {
        match self {
            GeneralReach::Inches(inches) => format!("within {inches}\""),
            GeneralReach::BaseContact => "in base contact".to_string(),
        }
    }
}
