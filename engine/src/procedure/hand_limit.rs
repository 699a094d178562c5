//! The hand limit: a player over the maximum hand size discards down.

use super::*;

impl Sim<'_> {
    pub(super) fn hand_limit_command(
        &mut self,
        seat: Seat,
        over: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        Self::require_seat(seat, over)?;
        let PlayerCommand::DiscardDown { cards } = command else {
            return refuse("discard down to your maximum hand size first");
        };
        let excess = self
            .state
            .player(over)
            .hand
            .len()
            .saturating_sub(usize::from(self.state.edition.max_hand()));
        self.discard_chosen(over, excess, cards)
    }

    /// A player discards the cards an ability asks for.
    pub(super) fn discard_command(
        &mut self,
        seat: Seat,
        chooser: Seat,
        count: u8,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        Self::require_seat(seat, chooser)?;
        let PlayerCommand::DiscardDown { cards } = command else {
            return refuse(format!("discard {count} card(s) first"));
        };
        let count = usize::from(count).min(self.state.player(chooser).hand.len());
        self.discard_chosen(chooser, count, cards)
    }

    /// A discard an ability asked for ends at once when the hand is empty
    /// (the hand may have shrunk since it was asked for).
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
