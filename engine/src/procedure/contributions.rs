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
        self.shuffle_both_decks()?;
        self.emit(Event::ContributionsComplete)?;
        Ok(true)
    }
}
