//! What a player or a spectator may see of a game: their own hand, the
//! opponent's hand only as a count, decks only as counts, the server seed
//! only once the game has ended, and decisions only for their own seat.

use serde::{Deserialize, Serialize};

use super::damage::DamageInstance;
use super::duel::Outcome;
use super::fairness::Bytes32;
use super::fate::Card;
use super::model::Model;
use super::pending::{Decision, decision, waits_for};
use super::state::{Frame, GameState};
use super::{Edition, Seat};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Player(Seat),
    Spectator,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Only in the player's own view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Card>>,
    pub hand_count: usize,
    pub deck_count: usize,
    /// Face up: the top card is last.
    pub discard: Vec<Card>,
    pub removed: Vec<Card>,
    pub revealed: Vec<Card>,
    pub conflict: Vec<Card>,
    pub soulstones: u16,
    pub victory_points: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FairnessView {
    pub scheme: String,
    pub commitment: Bytes32,
    /// Only after the game has ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Bytes32>,
    pub contributions: [Option<Bytes32>; 2],
    pub shuffles: [u32; 2],
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub viewer: Viewer,
    pub version: u64,
    pub edition: Edition,
    pub fairness: FairnessView,
    pub players: [PlayerView; 2],
    pub models: Vec<Model>,
    /// The procedures in progress, innermost last.
    pub frames: Vec<Frame>,
    pub ended: bool,
    pub damage_queue: Vec<DamageInstance>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_outcome: Option<Outcome>,
    /// Seats the game waits for.
    pub waiting_for: Vec<Seat>,
    /// The viewer's own decision and its options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// The encounter (turn, step, VP, markers' scoring...), with a scheme
    /// shown only to its owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<crate::encounter::Encounter>,
}

/// The game as `viewer` may see it.
pub fn view(state: &GameState, viewer: Viewer) -> View {
    let player_view = |seat: Seat| {
        let player = state.player(seat);
        PlayerView {
            hand: (viewer == Viewer::Player(seat)).then(|| player.hand.as_slice().to_vec()),
            hand_count: player.hand.len(),
            deck_count: player.deck.len(),
            discard: player.discard.as_slice().to_vec(),
            removed: player.removed.as_slice().to_vec(),
            revealed: player.revealed.as_slice().to_vec(),
            conflict: player.conflict.as_slice().to_vec(),
            soulstones: player.soulstones,
            victory_points: player.victory_points,
        }
    };
    // Only the viewer's own options are worked out whole; for the others,
    // whether the game waits for them at all.
    let decision = match viewer {
        Viewer::Player(seat) => decision(state, seat),
        Viewer::Spectator => None,
    };
    let waiting_for: Vec<Seat> = Seat::BOTH
        .into_iter()
        .filter(|seat| match &decision {
            Some(mine) if mine.seat == *seat => true,
            _ if viewer == Viewer::Player(*seat) => false,
            _ => waits_for(state, *seat),
        })
        .collect();
    View {
        viewer,
        version: state.version,
        edition: state.edition,
        fairness: FairnessView {
            scheme: state.fairness.scheme.to_string(),
            commitment: state.fairness.commitment,
            seed: state.fairness.revealed.then_some(state.fairness.seed),
            contributions: state.fairness.contributions,
            shuffles: state.fairness.shuffles,
        },
        players: [player_view(Seat::A), player_view(Seat::B)],
        models: state.models.iter().map(|m| Model::clone(m)).collect(),
        frames: state.frames.iter().cloned().collect(),
        ended: state.ended,
        damage_queue: state.damage_queue.clone(),
        last_outcome: state.last_outcome,
        waiting_for,
        decision,
        encounter: state
            .encounter
            .as_deref()
            .map(|e| crate::encounter::for_viewer(e, viewer)),
    }
}
