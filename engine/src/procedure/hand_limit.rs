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
        if cards.len() != excess {
            return refuse(format!("discard exactly {excess} card(s)"));
        }
        let mut distinct = cards.clone();
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
            cards: cards.clone(),
        })
    }

    pub(super) fn over_hand_limit(&self) -> Option<Seat> {
        let max = usize::from(self.state.edition.max_hand());
        Seat::BOTH
            .into_iter()
            .find(|s| self.state.player(*s).hand.len() > max)
    }
}
