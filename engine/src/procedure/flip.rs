//! The flip procedure: one player reveals cards under fate modifiers,
//! chooses one and may cheat it. What the card means when the flip ends is
//! its purpose's (today the 3rd edition damage flip; the initiative flip
//! will be another). A duel's two flips happen together inside the duel.

use super::duel::choice_reason;
use super::*;
use crate::flip::{FlipInProgress, FlipPurpose, FlipStage};

impl Sim<'_> {
    pub(super) fn flip_command(
        &mut self,
        seat: Seat,
        stage: FlipStage,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let flip = self.state.flip().ok_or(RuleError::NothingPending)?.clone();
        Self::require_seat(seat, flip.seat)?;
        match stage {
            FlipStage::Choose => {
                let PlayerCommand::ChooseCard { card } = command else {
                    return refuse("choose the flip's card");
                };
                let revealed = self.state.player(seat).revealed.as_slice().to_vec();
                if !allowed_choices(&revealed, flip.modifiers).contains(*card) {
                    return refuse(choice_reason(&revealed, flip.modifiers));
                }
                self.choose(seat, None, *card)
            }
            FlipStage::Cheat => match command {
                PlayerCommand::Cheat { card } => {
                    if !self.state.player(seat).hand.contains(*card) {
                        return Err(RuleError::CardNotInHand {
                            seat,
                            card: card.to_string(),
                        });
                    }
                    let Some(out) = flip.card else {
                        return refuse("there is no card to replace");
                    };
                    self.emit(Event::Cheated {
                        seat,
                        role: None,
                        card_in: *card,
                        card_out: out,
                    })
                }
                PlayerCommand::DeclineCheat => self.emit(Event::CheatDeclined { role: None }),
                _ => refuse("cheat the flip or decline"),
            },
        }
    }

    /// The flip's automatic steps: a forced choice, a cheat that cannot
    /// happen, and the end. False while the flipper decides.
    pub(super) fn advance_flip(&mut self) -> Result<bool, RuleError> {
        let flip = self.state.flip().ok_or(RuleError::NothingPending)?.clone();
        match flip.stage() {
            FlipStage::Choose => {
                let revealed = self.state.player(flip.seat).revealed.as_slice().to_vec();
                match allowed_choices(&revealed, flip.modifiers).as_slice() {
                    // No card could be flipped.
                    [] => self.end_flip(&flip)?,
                    [only] => self.choose(flip.seat, None, *only)?,
                    _ => return Ok(false),
                }
                Ok(true)
            }
            FlipStage::Cheat => {
                if flip.may_cheat(self.state.player(flip.seat).hand.is_empty()) {
                    return Ok(false);
                }
                self.end_flip(&flip)?;
                Ok(true)
            }
        }
    }

    fn end_flip(&mut self, flip: &FlipInProgress) -> Result<(), RuleError> {
        match flip.purpose {
            FlipPurpose::Damage => self.end_damage_flip(flip),
            FlipPurpose::Disengage => self.end_disengage_flip(flip),
            FlipPurpose::Assist { model, token } => self.end_assist_flip(flip, model, token),
        }
    }
}

/// A flip's facts: the cards revealed and the one chosen (in a duel or a flip of its own).
pub(crate) fn apply_flip_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::Revealed { seat, role, cards } => {
            let player = state.player_mut(*seat);
            let mut moved = RevealedCards::new();
            for _ in cards {
                if let Some(card) = player.deck.pop() {
                    player.revealed.push(card);
                    moved.push(card);
                }
            }
            if let Some(side) = state.side_mut(*role) {
                // A flip reveals at most four cards in all, so this fits.
                for card in &moved {
                    side.revealed.push(*card);
                }
            }
        }
        Event::CardChosen { seat, role, card } => {
            let player = state.player_mut(*seat);
            if player.revealed.remove(*card) {
                player.conflict.push(*card);
            }
            if let Some(side) = state.side_mut(*role) {
                side.revealed.clear();
                side.card = Some(*card);
                side.flipped_black_joker = card.is_black_joker();
                side.flipped_red_joker = card.is_red_joker();
            }
            if role.is_some() {
                state.duel_step(|duel| match duel.step {
                    DuelStep::Choose { role } => DuelStep::Choose {
                        role: duel.choosing().unwrap_or(role),
                    },
                    step => step,
                });
            } else if let Some(flip) = state.flip_mut()
                && flip.card.is_none()
            {
                flip.card = Some(*card);
            }
        }
        Event::RevealedDiscarded { seat, cards } => {
            let player = state.player_mut(*seat);
            for card in cards {
                if player.revealed.remove(*card) {
                    player.discard.push(*card);
                }
            }
        }
        _ => {}
    }
}
