//! What a command would do before it is sent: whether the rules allow it
//! (the same [`decide`](crate::decide), on the same state, which it never
//! changes) and, for a move, how far the path is and what it costs. The
//! game page asks this while a player lays a path, so the ruler it draws
//! and the rules cannot disagree.

use serde::{Deserialize, Serialize};

use crate::command::{PlayerCommand, Submission};
use crate::pending::{Choice, unchecked_options};
use crate::state::GameState;
use crate::table::Board;
use crate::table::movement::{self, MoveError, MoveKind, Waypoint};
use crate::{Seat, decide};

/// The rules' answer to a command not yet sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Preview {
    pub legal: bool,
    /// Why not, in the words a refusal would give.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For a Walk, Charge or an effect's move: the path's measure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<PathMeasure>,
}

/// A path's length and cost in inches, as the movement rules measure it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PathMeasure {
    /// Along the table, waypoint to waypoint from where the model stands.
    pub length: f64,
    /// What it spends: severe terrain and climbing count again.
    pub cost: f64,
    /// What the model may spend on it.
    pub allowance: f64,
}

/// `seat`'s `command` put to the rules without sending it.
pub fn preview(state: &GameState, seat: Seat, command: &PlayerCommand) -> Preview {
    let submission = Submission::player(seat, state.version, command.clone());
    let verdict = decide(state, &submission);
    Preview {
        legal: verdict.is_ok(),
        reason: verdict.err().map(|e| e.to_string()),
        path: path_measure(state, seat, command),
    }
}

/// Which offered choice a move command answers: its kind, allowance and mover.
type OfferedMove = fn(&Choice) -> Option<(MoveKind, u8, u16)>;

/// The measure of a Walk, Charge or move the decision offers, if `command`
/// is one.
fn path_measure(state: &GameState, seat: Seat, command: &PlayerCommand) -> Option<PathMeasure> {
    let (path, wanted): (Vec<Waypoint>, OfferedMove) = match command {
        PlayerCommand::Walk { path, .. } => (path.clone(), |c| match c {
            Choice::Walk { model, inches } => Some((MoveKind::Walk, *inches, model.0)),
            _ => None,
        }),
        PlayerCommand::Charge { to, .. } => (vec![*to], |c| match c {
            Choice::Charge { model, inches } => Some((MoveKind::Charge, *inches, model.0)),
            _ => None,
        }),
        PlayerCommand::Move { path, .. } => (path.clone(), |c| match c {
            Choice::Move { model, inches } => Some((MoveKind::Effect, *inches, model.0)),
            _ => None,
        }),
        _ => return None,
    };
    // The cheap list is enough: it names the model and its allowance, and
    // the verdict comes from `decide`.
    let (kind, inches, model) = unchecked_options(state, seat).iter().find_map(wanted)?;
    let model = crate::model::ModelId(model);
    let start = state.model(model)?.placement?;
    let mut length = 0.0;
    let mut from = start.at.v2();
    for waypoint in &path {
        let to = crate::table::Point {
            x: waypoint.x,
            y: waypoint.y,
        }
        .v2();
        length += from.dist(to);
        from = to;
    }
    let table = state.table();
    let board = Board::new(&table, state.edition);
    let sp = f64::from(inches);
    match movement::validate_move(&board, model.object(), &path, kind, sp) {
        Ok(outcome) => Some(PathMeasure {
            length,
            cost: outcome.cost,
            allowance: outcome.allowance,
        }),
        Err(MoveError::TooFar {
            length: along,
            extra,
            allowance,
        }) => Some(PathMeasure {
            length,
            cost: along + extra,
            allowance,
        }),
        // Refused for another reason, which the verdict gives.
        Err(_) => None,
    }
}
