//! The encounter's numbers and procedures: turns, VP, initiative,
//! passing, deployment and schemes.

use crate::Seat;

/// The actions every model has, whatever its card. Facts and the action
/// queue keep them by name ([`GeneralAction::name`]), as they keep a
/// card's actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GeneralAction {
    Walk,
    Charge,
    Interact,
    Prepare,
    Slam,
    Concentrate,
    Disengage,
    Assist,
}

impl GeneralAction {
    pub const ALL: [GeneralAction; 8] = [
        GeneralAction::Walk,
        GeneralAction::Charge,
        GeneralAction::Interact,
        GeneralAction::Prepare,
        GeneralAction::Slam,
        GeneralAction::Concentrate,
        GeneralAction::Disengage,
        GeneralAction::Assist,
    ];

    /// Its name, as facts and the queue keep it.
    pub fn name(self) -> &'static str {
        match self {
            GeneralAction::Walk => "Walk",
            GeneralAction::Charge => "Charge",
            GeneralAction::Interact => "Interact",
            GeneralAction::Prepare => "Prepare",
            GeneralAction::Slam => "Slam",
            GeneralAction::Concentrate => "Concentrate",
            GeneralAction::Disengage => "Disengage",
            GeneralAction::Assist => "Assist",
        }
    }

    /// The general action named exactly `name`, if one is.
    pub fn from_name(name: &str) -> Option<GeneralAction> {
        GeneralAction::ALL.into_iter().find(|g| g.name() == name)
    }
}

impl std::fmt::Display for GeneralAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How initiative is settled at the start of each turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitiativeRule {
    /// 4th edition: the attacker has it on turn 1; afterwards the player
    /// who did not activate the last model gives it to either player.
    GivenByLastActivator,
    /// 3rd edition: after drawing, both players flip, adding their pass
    /// tokens; the higher total chooses who has it (a tie flips again).
    /// The attacker holds it until turn 1's flip.
    Flip,
}

/// When a player may pass instead of activating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassingRule {
    /// 4th edition: with no more models left to activate than the
    /// opponent, and never twice in a row.
    FewerModels,
    /// 3rd edition: by discarding a pass token, which the crew with fewer
    /// models gains each start phase.
    PassTokens,
}

/// Which player divides their crew into the two groups of deployment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Splitter {
    /// 4th edition: the defender splits, the attacker picks the group that
    /// deploys first, and the defender's groups go down before and after
    /// the attacker's crew.
    Defender,
    /// 3rd edition: the attacker splits and the defender picks.
    Attacker,
}

/// How crews hold schemes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemeRule {
    /// 4th edition: one scheme at a time, chosen after deployment, a new
    /// one selected from Next Available Schemes once revealed or abandoned.
    OneHeld,
    /// 3rd edition: two schemes chosen in secret from the pool before
    /// deployment. Each scores at most 1 VP a turn and 2 a game: once when
    /// revealed, once at the end of the game.
    TwoFromThePool,
}

/// A model's action limit before Fast and Slow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionLimits {
    /// 4th edition: peons 1; masters 3 in an encounter of 50 soulstones or
    /// more, as is a henchman that assumed leadership; others 2.
    BySizeAndStation,
    /// 3rd edition: masters and the crew's leader 3, others 2.
    LeadersAndMasters,
}

/// How an Interact makes and removes scheme markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemeMarkerRule {
    /// 4th edition: made within 1", never overlapping a model; a crew has
    /// at most five (the first goes before a sixth is made); one is
    /// removed at a time.
    AtMostFive,
    /// 3rd edition: dropped in base contact (it may lie under a model),
    /// not within `spacing` inches of another friendly one, any number; an
    /// Interact removes every scheme marker in base contact.
    Spaced { spacing: u8 },
}

/// The encounter's numbers and procedures for one edition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncounterRules {
    pub turns: u8,
    /// VP a crew gains at most from the strategy.
    pub max_strategy_vp: u8,
    /// VP a crew gains at most from its schemes, all together.
    pub max_scheme_vp: u8,
    /// The first turn on which any VP is scored.
    pub first_scoring_turn: u8,
    /// Schemes in the pool both crews choose from.
    pub scheme_pool: usize,
    pub initiative: InitiativeRule,
    pub passing: PassingRule,
    pub splitter: Splitter,
    pub schemes: SchemeRule,
    /// 4th edition: a henchman may assume leadership of a crew whose
    /// master left play.
    pub assume_leadership: bool,
    pub action_limits: ActionLimits,
    pub scheme_markers: SchemeMarkerRule,
    /// The general actions the edition plays, which a controlled model
    /// may also be made to declare.
    pub general_actions: &'static [GeneralAction],
}

impl SchemeRule {
    /// How many schemes a crew holds once it has chosen.
    pub fn held(self) -> usize {
        match self {
            SchemeRule::OneHeld => 1,
            SchemeRule::TwoFromThePool => 2,
        }
    }
}

impl EncounterRules {
    /// The player who splits their crew, given the attacker.
    pub fn splitting_seat(&self, attacker: Seat) -> Seat {
        match self.splitter {
            Splitter::Defender => attacker.other(),
            Splitter::Attacker => attacker,
        }
    }
}
