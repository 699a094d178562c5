//! What differs between the editions' encounters, in one table per
//! edition: the procedures ask [`EncounterRules::of`] instead of checking
//! the edition.

use crate::{Edition, Seat};

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
    /// The general actions the engine plays, which a controlled model may
    /// also be made to declare (3rd edition's Assist and Disengage are not
    /// built yet).
    pub general_actions: &'static [&'static str],
}

const FOURTH: EncounterRules = EncounterRules {
    turns: 4,
    max_strategy_vp: 5,
    max_scheme_vp: 5,
    first_scoring_turn: 1,
    scheme_pool: 3,
    initiative: InitiativeRule::GivenByLastActivator,
    passing: PassingRule::FewerModels,
    splitter: Splitter::Defender,
    schemes: SchemeRule::OneHeld,
    assume_leadership: true,
    action_limits: ActionLimits::BySizeAndStation,
    scheme_markers: SchemeMarkerRule::AtMostFive,
    general_actions: &["Walk", "Charge", "Interact", "Prepare", "Slam"],
};

const THIRD: EncounterRules = EncounterRules {
    turns: 5,
    max_strategy_vp: 4,
    // Two schemes of at most 2 VP each.
    max_scheme_vp: 4,
    // No VP at all on turn 1.
    first_scoring_turn: 2,
    scheme_pool: 5,
    initiative: InitiativeRule::Flip,
    passing: PassingRule::PassTokens,
    splitter: Splitter::Attacker,
    schemes: SchemeRule::TwoFromThePool,
    assume_leadership: false,
    action_limits: ActionLimits::LeadersAndMasters,
    scheme_markers: SchemeMarkerRule::Spaced { spacing: 4 },
    general_actions: &[
        "Walk",
        "Charge",
        "Interact",
        "Concentrate",
        "Disengage",
        "Assist",
    ],
};

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
    pub fn of(edition: Edition) -> &'static EncounterRules {
        match edition {
            Edition::Fourth => &FOURTH,
            Edition::Third => &THIRD,
        }
    }

    /// The player who splits their crew, given the attacker.
    pub fn splitting_seat(&self, attacker: Seat) -> Seat {
        match self.splitter {
            Splitter::Defender => attacker.other(),
            Splitter::Attacker => attacker,
        }
    }
}
