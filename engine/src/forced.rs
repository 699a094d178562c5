//! Decisions the game may take for a player: the ones with a single legal
//! option (the one declaration a crew brought allows, finishing a duel's
//! modifiers with nothing to modify with, keeping a scheme that cannot be
//! revealed, ending an activation with no action left). The hosting layer
//! takes them for players who want it (`docs/play.md`); the engine only
//! says which. Taking one at once shows that it was the only option (that
//! no card in hand could empower, that the scheme could not be revealed):
//! a player who would rather not show that decides every one themself.

use crate::Seat;
use crate::command::PlayerCommand;
use crate::pending::{Choice, decision};
use crate::state::GameState;

/// The command `seat` would have to send now, if the decision it faces has
/// one option and that option is a whole command (a point or a path is
/// never taken for a player).
pub fn forced_choice(state: &GameState, seat: Seat) -> Option<PlayerCommand> {
    let decision = decision(state, seat)?;
    match decision.choices.as_slice() {
        [Choice::Command { command }] => Some(command.clone()),
        _ => None,
    }
}
