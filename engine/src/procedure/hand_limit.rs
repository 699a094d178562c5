//! Discarding by choice: a player over the maximum hand size discards down,
//! and abilities can ask a player to discard.

use super::*;

impl Sim<'_> {
    /// A player discards the cards the frame asks for: down to the hand
    /// limit, or as an ability says.
    pub(super) fn discard_command(
        &mut self,
        seat: Seat,
        chooser: Seat,
        count: u8,
        reason: DiscardReason,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        Self::require_seat(seat, chooser)?;
        let PlayerCommand::DiscardDown { cards } = command else {
            return refuse(match reason {
                DiscardReason::HandLimit => {
                    "discard down to your maximum hand size first".to_string()
                }
                DiscardReason::Ability => format!("discard {count} card(s) first"),
            });
        };
        let count = usize::from(count).min(self.state.player(chooser).hand.len());
        self.discard_chosen(chooser, count, cards)
    }

    /// A discard ends at once when the hand is empty (an ability's may
    /// have been asked for before the hand shrank).
    pub(super) fn advance_discard(&mut self) -> Result<bool, RuleError> {
        let Some(Frame::Discard { seat, .. }) = self.state.frame() else {
            return Ok(false);
        };
        let seat = *seat;
        if !self.state.player(seat).hand.is_empty() {
            return Ok(false);
        }
        self.emit(Event::Discarded {
            seat,
            cards: Vec::new(),
        })?;
        Ok(true)
    }

    /// Discards exactly `count` distinct cards of `over`'s hand.
    fn discard_chosen(
        &mut self,
        over: Seat,
        count: usize,
        cards: &[crate::fate::Card],
    ) -> Result<(), RuleError> {
        if cards.len() != count {
            return refuse(format!("discard exactly {count} card(s)"));
        }
        let mut distinct = cards.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() != cards.len() {
            return refuse("each card can only be discarded once");
        }
        for card in cards {
            if !self.state.player(over).hand.contains(*card) {
                return Err(RuleError::CardNotInHand {
                    seat: over,
                    card: card.to_string(),
                });
            }
        }
        self.emit(Event::Discarded {
            seat: over,
            cards: cards.to_vec(),
        })
    }

    pub(super) fn over_hand_limit(&self) -> Option<Seat> {
        let max = usize::from(self.state.edition.max_hand());
        Seat::BOTH
            .into_iter()
            .find(|s| self.state.player(*s).hand.len() > max)
    }
}

/// The hand size's facts: a hand over its limit and the discards.
pub(crate) fn apply_hand_limit_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::HandOverLimit { seat, excess } => {
            state.frames.push(Frame::Discard {
                seat: *seat,
                count: *excess,
                reason: DiscardReason::HandLimit,
            });
        }
        Event::DiscardRequired { seat, count } => {
            state.frames.push(Frame::Discard {
                seat: *seat,
                count: *count,
                reason: DiscardReason::Ability,
            });
        }
        Event::Discarded { seat, cards } => {
            let player = state.player_mut(*seat);
            for card in cards {
                if player.hand.remove(*card) {
                    player.discard.push(*card);
                }
            }
            state.pop_frame(|f| matches!(f, Frame::Discard { .. }));
        }
        _ => {}
    }
}
