//! The encounter's game flow: setup and deployment, choosing schemes, and
//! each turn's start, activation and end phases. The engine moves from step
//! to step itself (`advance_encounter`, the table of what follows each step)
//! and waits only for players; `encounter_command` hands a player's command
//! to the phase its step belongs to.
//!
//! - `setup`: the deployment zone, declared crews, dividing and deploying
//!   the crews, explosives tokens.
//! - `start`: the start phase (initiative, leadership, discards and draws)
//!   and the start-of-game and start-of-turn effects.
//! - `activations`: the activation phase, passing, chain activations, and
//!   each model's action limits.
//! - `general`, `moves`, `markers`: the general actions, moving models and
//!   placing or removing markers.
//! - `end`: the end phase, scoring the strategy and the turn's end.
//! - `schemes`: choosing, revealing, scoring and abandoning schemes.

use super::*;
use crate::command::Interaction;
use crate::encounter::objectives::{AfterScoring, MarkerInteract, RevealTiming, StrategyScoring};
use crate::encounter::{
    ClaimedObjective, Declaration, Encounter, HeldScheme, MAX_FRIENDLY_MARKERS, Step, scoring,
};
use crate::event::ActionSlot;
use crate::model::Placement;
use crate::rules::{
    ActionLimits, EncounterRules, InitiativeRule, PassingRule, SchemeMarkerRule, SchemeRule,
};
use crate::table::movement::{self, MoveKind, Waypoint};
use crate::table::{Board, Body, MarkerKind, ObjectId, Point, Target, inches, milli};

mod activations;
mod end;
mod facts;
mod general;
mod markers;
mod moves;
mod options;
mod schemes;
mod setup;
mod start;

pub(crate) use activations::{SlotRefused, out_of_pass_tokens};
pub(crate) use facts::apply_encounter_facts;
pub(crate) use general::general_commands;
pub(crate) use markers::{marker_spot_crowded, scheme_marker_offset};
pub(super) use moves::gap_to_models;
pub(crate) use options::{
    encounter_candidates, encounter_choices, explosives_beside, explosives_choice,
    scheme_marker_beside, scheme_marker_choice,
};
pub(crate) use schemes::{
    claimable_schemes, scheme_checked_and_met, scheme_marker_sets, selectable,
};
pub(crate) use setup::{deployable, explosives_placeable};

/// The refusal of a command that is no decision of this step.
fn wrong_step(step: Step) -> Result<(), RuleError> {
    refuse(format!(
        "that is not a decision of this step ({})",
        step_name(step)
    ))
}

fn step_name(step: Step) -> &'static str {
    match step {
        Step::ChooseZone => "the attacker chooses a deployment zone",
        Step::Declare { .. } => "choosing crews",
        Step::StartOfGame => "the start of the game",
        Step::StartEffects { game: true } => "effects at the start of the game",
        Step::StartEffects { game: false } => "effects of the start phase",
        Step::SplitCrew => "a player divides their crew",
        Step::ChooseGroup => "the opponent picks the group that deploys first",
        Step::Deploy { .. } => "deployment",
        Step::ChooseSchemes => "choosing schemes",
        Step::PlaceExplosives { .. } => "placing explosives tokens",
        Step::GiveInitiative { .. } => "giving initiative",
        Step::AssumeLeadership { .. } => "assuming leadership",
        Step::StartDiscard => "discarding before drawing",
        Step::SoulstoneDraw { .. } => "drawing with a soulstone",
        Step::InitiativeCheat { .. } => "cheating the initiative flip",
        Step::DropIdol { .. } => "dropping this turn's idol",
        Step::Activations => "the activation phase",
        Step::EndEffects => "end phase effects",
        Step::RevealScheme { .. } => "revealing schemes",
        Step::RevealAfterActivation { .. } => "revealing schemes after an activation",
        Step::AbandonScheme { .. } => "abandoning schemes",
        Step::RemoveStrategyMarker { .. } => "removing a strategy marker",
        Step::ClaimStrategy { .. } => "claiming the strategy's VP",
        Step::AnswerClaim { .. } => "answering a claim",
        Step::SelectSchemes => "selecting new schemes",
        Step::Over => "the game is over",
    }
}

/// Whether a command is one of the encounter's.
pub(super) fn is_encounter_command(command: &PlayerCommand) -> bool {
    matches!(
        command,
        PlayerCommand::ChooseZone { .. }
            | PlayerCommand::Declare { .. }
            | PlayerCommand::SplitCrew { .. }
            | PlayerCommand::ChooseGroup { .. }
            | PlayerCommand::Deploy { .. }
            | PlayerCommand::PlaceExplosives { .. }
            | PlayerCommand::SelectScheme { .. }
            | PlayerCommand::GiveInitiative { .. }
            | PlayerCommand::DiscardBeforeDrawing { .. }
            | PlayerCommand::DrawWithSoulstone
            | PlayerCommand::DeclineSoulstoneDraw
            | PlayerCommand::AssumeLeadership { .. }
            | PlayerCommand::DeclineLeadership
            | PlayerCommand::Pass
            | PlayerCommand::ChainActivate { .. }
            | PlayerCommand::DeclineChainActivation
            | PlayerCommand::Activate { .. }
            | PlayerCommand::TakeAction { .. }
            | PlayerCommand::Walk { .. }
            | PlayerCommand::Charge { .. }
            | PlayerCommand::Interact { .. }
            | PlayerCommand::Prepare { .. }
            | PlayerCommand::Slam { .. }
            | PlayerCommand::SlamTerrain { .. }
            | PlayerCommand::Concentrate
            | PlayerCommand::Disengage
            | PlayerCommand::Assist { .. }
            | PlayerCommand::FinishActivation
            | PlayerCommand::RevealScheme
            | PlayerCommand::AbandonScheme
            | PlayerCommand::KeepScheme
            | PlayerCommand::ClaimScheme { .. }
            | PlayerCommand::ClaimStrategy { .. }
            | PlayerCommand::ConfirmClaim
            | PlayerCommand::DisputeClaim
            | PlayerCommand::RemoveStrategyMarker { .. }
            | PlayerCommand::DropIdol { .. }
    )
}

impl Sim<'_> {
    /// This edition's encounter rules.
    pub(crate) fn encounter_rules(&self) -> &'static EncounterRules {
        &self.state.edition.rules().encounter
    }

    /// The VP `seat` may still gain from the strategy (`scheme`: from
    /// schemes), under this edition's cap.
    fn vp_left(&self, seat: Seat, scheme: bool) -> Result<u8, RuleError> {
        let (rules, encounter) = (self.encounter_rules(), self.encounter()?);
        Ok(if scheme {
            rules
                .max_scheme_vp
                .saturating_sub(encounter.scheme_vp[seat.index()])
        } else {
            rules
                .max_strategy_vp
                .saturating_sub(encounter.strategy_vp[seat.index()])
        })
    }

    pub(super) fn encounter(&self) -> Result<&Encounter, RuleError> {
        self.state
            .encounter
            .as_deref()
            .ok_or(RuleError::NothingPending)
    }

    pub(super) fn step_to(&mut self, step: Step) -> Result<(), RuleError> {
        self.emit(Event::EncounterStepBegan { step })
    }

    /// The automatic steps of the encounter when no procedure is in
    /// progress. False while it waits for a player.
    pub(super) fn advance_encounter(&mut self) -> Result<bool, RuleError> {
        let encounter = self.encounter()?;
        let step = encounter.step;
        let attacker = encounter.setup.attacker;
        match step {
            Step::ChooseZone
            | Step::SplitCrew
            | Step::ChooseGroup
            | Step::GiveInitiative { .. }
            | Step::AssumeLeadership { .. }
            | Step::RevealScheme { .. }
            | Step::RevealAfterActivation { .. }
            | Step::AbandonScheme { .. }
            | Step::RemoveStrategyMarker { .. }
            | Step::ClaimStrategy { .. }
            | Step::AnswerClaim { .. }
            | Step::InitiativeCheat { .. }
            | Step::DropIdol { .. }
            | Step::Over => Ok(false),
            Step::SoulstoneDraw { seat } => {
                if !encounter.done[seat.index()] {
                    return Ok(false);
                }
                self.soulstone_draw_from(seat, false)?;
                Ok(true)
            }
            Step::Declare { what } => {
                let [Some(a), Some(b)] = &encounter.choices.declared else {
                    return Ok(false);
                };
                let choices = [a, b].map(|d| d.value.clone().unwrap_or_default());
                self.emit(Event::DeclarationsRevealed { what, choices })?;
                self.step_to(match what {
                    Declaration::Faction => Step::Declare {
                        what: Declaration::Leader,
                    },
                    Declaration::Leader => Step::Declare {
                        what: Declaration::Crew,
                    },
                    Declaration::Crew => match self.encounter_rules().schemes {
                        SchemeRule::OneHeld => Step::SplitCrew,
                        // 3rd edition step H: schemes, knowing both crews.
                        SchemeRule::TwoFromThePool => Step::ChooseSchemes,
                    },
                })?;
                Ok(true)
            }
            Step::Deploy { seat } => self.advance_deployment(seat),
            Step::PlaceExplosives { seat } => self.advance_explosives(seat),
            Step::ChooseSchemes => {
                if encounter.done != [true, true] {
                    return Ok(false);
                }
                match self.encounter_rules().schemes {
                    // Its fact asks both players to cut the fresh decks.
                    SchemeRule::OneHeld => self.step_to(Step::StartOfGame)?,
                    // 3rd edition: deployment follows, the attacker's zone first.
                    SchemeRule::TwoFromThePool => self.step_to(Step::ChooseZone)?,
                }
                Ok(true)
            }
            Step::StartOfGame => {
                // Effects at the start of the game, in the attacker's order.
                if !self.start_effects(AbilityWindow::StartOfGame, attacker)? {
                    self.start_turn(1, Some(attacker), None)?;
                }
                Ok(true)
            }
            // The effects have resolved (the stack is empty again).
            Step::StartEffects { game: true } => {
                self.start_turn(1, Some(attacker), None)?;
                Ok(true)
            }
            Step::StartEffects { game: false } => {
                self.begin_activations()?;
                Ok(true)
            }
            Step::StartDiscard => self.advance_start_discard(),
            Step::Activations => self.advance_activations(),
            Step::EndEffects => {
                self.score_strategy()?;
                Ok(true)
            }
            Step::SelectSchemes => {
                let needs = self.must_select();
                let done = self.encounter()?.done;
                if Seat::BOTH
                    .iter()
                    .any(|s| needs[s.index()] && !done[s.index()])
                {
                    return Ok(false);
                }
                self.end_turn()?;
                Ok(true)
            }
        }
    }

    /// A command of the encounter's, from `seat`, handed to the phase its
    /// step belongs to.
    pub(super) fn encounter_command(
        &mut self,
        seat: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        if !matches!(self.state.frame(), None | Some(Frame::Activation { .. }))
            || self.damage_order().is_some()
        {
            return refuse("finish what is in progress first");
        }
        // A shared handle: the command changes the state it reads from.
        let encounter = Arc::clone(
            self.state
                .encounter
                .as_ref()
                .ok_or(RuleError::NothingPending)?,
        );
        match encounter.step {
            Step::ChooseZone
            | Step::Declare { .. }
            | Step::SplitCrew
            | Step::ChooseGroup
            | Step::Deploy { .. }
            | Step::PlaceExplosives { .. } => self.setup_command(seat, &encounter, command),
            Step::ChooseSchemes
            | Step::SelectSchemes
            | Step::RevealScheme { .. }
            | Step::RevealAfterActivation { .. }
            | Step::AbandonScheme { .. } => self.scheme_command(seat, &encounter, command),
            Step::GiveInitiative { .. }
            | Step::AssumeLeadership { .. }
            | Step::InitiativeCheat { .. }
            | Step::SoulstoneDraw { .. }
            | Step::StartDiscard
            | Step::DropIdol { .. } => self.start_phase_command(seat, &encounter, command),
            Step::Activations => self.activation_phase_command(seat, &encounter, command),
            Step::RemoveStrategyMarker { .. }
            | Step::ClaimStrategy { .. }
            | Step::AnswerClaim { .. } => self.end_phase_command(seat, &encounter, command),
            Step::Over => Err(RuleError::GameOver),
            // The engine passes these steps itself.
            Step::StartOfGame | Step::StartEffects { .. } | Step::EndEffects => {
                wrong_step(encounter.step)
            }
        }
    }

    fn require_active(&self, seat: Seat, encounter: &Encounter) -> Result<(), RuleError> {
        if encounter.transfer_due {
            return Err(RuleError::NothingPending);
        }
        Self::require_seat(seat, encounter.active)
    }
}
