//! 3rd edition Assist, a general action: another friendly model within 2"
//! and in sight has one of its conditions that the book lets Assist lower
//! (Burning, Distracted, Injured: `assist = true` in the token book)
//! lowered by a 1/2/3 variable flip. No duel: the acting crew flips one
//! card (weak, moderate, severe; the Black Joker lowers nothing, the Red
//! one severe + 1) and may cheat it.

use super::*;
use crate::event::ActionSlot;
use crate::flip::FlipInProgress;
use crate::flip::FlipPurpose;
use crate::table::Board;

/// How far Assist reaches, in inches.
const ASSIST_RANGE: u8 = 2;

/// Why `actor`, acting for `crew`, may not Assist `target` with `token`,
/// if it may not. Sight is checked only once the cheaper checks pass.
pub(crate) fn assist_refusal(
    state: &GameState,
    crew: Seat,
    actor: ModelId,
    target: ModelId,
    token: Token,
) -> Option<String> {
    if !state.tokens.assist_lowers().any(|t| t == token) {
        let names: Vec<String> = state
            .tokens
            .assist_lowers()
            .map(|t| state.tokens.name(t))
            .collect();
        return Some(format!("Assist lowers only {}", names.join(", ")));
    }
    if target == actor {
        return Some("Assist is for another model".into());
    }
    let (Some(me), Some(them)) = (state.model(actor), state.model(target)) else {
        return Some("there is no such model".into());
    };
    if them.owner != crew || !them.in_play() {
        return Some(format!("{} is not a friendly model in play", them.name()));
    }
    if !them.tokens.has(token) {
        return Some(format!(
            "{} has no {} to lower",
            them.name(),
            state.tokens.name(token)
        ));
    }
    let (Some(from), Some(to)) = (me.body(), them.body()) else {
        return Some("both models must be on the table".into());
    };
    if !crate::table::measure::within_card_range(state.edition, &from, &to, ASSIST_RANGE) {
        return Some(format!("{} is not within {ASSIST_RANGE}\"", them.name()));
    }
    let table = state.table();
    let board = Board::new(&table, state.edition);
    let seen = crate::table::sight::line_of_sight(
        &board,
        crate::table::Target::Object(actor.object()),
        crate::table::Target::Object(target.object()),
    )
    .unwrap_or(false);
    (!seen).then(|| format!("{} is not in sight", them.name()))
}

/// The Assists worth asking `decide` about for `actor`: each friendly
/// model within reach holding a condition Assist lowers (sight is the
/// check's).
pub(crate) fn assist_commands(state: &GameState, actor: ModelId) -> Vec<PlayerCommand> {
    let Some(me) = state.model(actor) else {
        return Vec::new();
    };
    let Some(from) = me.body() else {
        return Vec::new();
    };
    let mut commands = Vec::new();
    for them in state.models.iter() {
        if them.id == actor || them.owner != me.owner || !them.in_play() || them.tokens.is_empty() {
            continue;
        }
        let near = them.body().is_some_and(|to| {
            crate::table::measure::within_card_range(state.edition, &from, &to, ASSIST_RANGE)
        });
        if !near {
            continue;
        }
        for token in state.tokens.assist_lowers() {
            if them.tokens.has(token) {
                commands.push(PlayerCommand::Assist {
                    target: them.id,
                    token,
                });
            }
        }
    }
    commands
}

impl Sim<'_> {
    /// The Assist command: checked, declared, then the flip.
    pub(super) fn assist(
        &mut self,
        seat: Seat,
        actor: ModelId,
        target: ModelId,
        token: Token,
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        if let Some(reason) = assist_refusal(&self.state, seat, actor, target, token) {
            return refuse(reason);
        }
        self.declare_general(actor, crate::rules::GeneralAction::Assist, slot, controller)?;
        self.push_check()?;
        self.emit(Event::AssistFlipStarted {
            seat,
            model: target,
            token,
        })?;
        self.reveal(seat, None, 1)?;
        Ok(())
    }

    /// The flip's card lowers the condition; the Assist then ends.
    pub(super) fn end_assist_flip(
        &mut self,
        flip: &FlipInProgress,
        model: ModelId,
        token: Token,
    ) -> Result<(), RuleError> {
        let by = flip
            .card
            .map_or(0, |card| crate::damage::flip_damage(card, 1, 2, 3));
        if let Some(card) = flip.card {
            self.emit(Event::ConflictCleared {
                cards: vec![(flip.seat, card)],
            })?;
        }
        self.emit(Event::AssistFlipEnded { model, token, by })?;
        if by > 0 {
            self.remove_token(model, token, by)?;
        }
        let actor = self
            .state
            .action_in_progress()
            .map(|action| action.actor)
            .ok_or(RuleError::NothingPending)?;
        self.general_ended(actor, Vec::new())
    }
}

/// An assist's flip.
pub(crate) fn apply_assist_facts(state: &mut GameState, event: &Event) {
    match event {
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
        _ => {}
    }
}
