//! Before the first shuffle: both players' entropy (the digital cut).

use super::*;

impl Sim<'_> {
    /// Both players' entropy is in: the first shuffles, and play begins.
    pub(super) fn advance_contributions(&mut self) -> Result<bool, RuleError> {
        if !self
            .state
            .fairness
            .contributions
            .iter()
            .all(Option::is_some)
        {
            return Ok(false);
        }
        for seat in Seat::BOTH {
            let number = self.state.fairness.shuffles[seat.index()] + 1;
            let cards = self.state.player(seat).deck.len() + self.state.player(seat).discard.len();
            self.emit(Event::DeckShuffled {
                seat,
                number,
                cards: cards as u8,
                with_deck: true,
            })?;
        }
        self.emit(Event::ContributionsComplete)?;
        Ok(true)
    }
}
