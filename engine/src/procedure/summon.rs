//! Summoning (4th edition "Summoning", "Summon TNs" and "Model Limits").
//! An action that summons is a simple duel against the lowest summon
//! target number (STN) among the models it may add; once it succeeds, its
//! total decides which of them its player may pick. The player places the
//! new model in base contact with the summoner and in its line of sight;
//! it joins the summoner's crew and gains the edition's summon tokens
//! (Summon and Slow), unless it is a peon. A model that cannot be placed
//! is not added.

use super::*;
use crate::limits::MAX_MODELS;
use crate::model::{ActionCard, Model, ModelCard, ModelStatus, Placement};
use crate::table::{Board, Piece, Point, Target, movement, sight};

/// The models `seat`'s crew may summon with `action` now: named by the
/// action, with an STN no higher than `total` (any STN, when none), and
/// fewer of them in the crew (in play or buried) than their model limit.
pub(crate) fn summon_options(
    state: &GameState,
    seat: Seat,
    action: &ActionCard,
    total: Option<i16>,
) -> Vec<Arc<ModelCard>> {
    if state.models.len() >= MAX_MODELS {
        return Vec::new();
    }
    let held = |card: &ModelCard| {
        state
            .models
            .iter()
            .filter(|m| m.owner == seat && m.card.name == card.name)
            .filter(|m| matches!(m.status, ModelStatus::InPlay | ModelStatus::Buried))
            .count()
    };
    state.summonable[seat.index()]
        .iter()
        .filter(|card| action.summons.contains(&card.name))
        .filter(|card| {
            card.summon_tn
                .is_some_and(|stn| total.is_none_or(|total| i16::from(stn) <= total))
        })
        .filter(|card| held(card) < usize::from(card.model_limit))
        .cloned()
        .collect()
}

/// The id a new model gets: one past the highest so far.
fn next_model_id(state: &GameState) -> ModelId {
    let highest = state.models.iter().map(|m| m.id.0).max().unwrap_or(0);
    ModelId(highest.saturating_add(1))
}

/// Where a summoned `card` would stand with its centre at `at`, or why
/// it may not: on a surface that holds at least half its base, clear of
/// models and impassable terrain, in base contact with `summoner` and in
/// its line of sight.
pub(crate) fn summon_placement(
    state: &GameState,
    summoner: ModelId,
    card: &ModelCard,
    at: Point,
) -> Result<Placement, String> {
    let Some(seat) = state.model(summoner).map(|m| m.owner) else {
        return Err("the summoner is gone".into());
    };
    let id = next_model_id(state);
    let mut table = state.table();
    table
        .pieces
        .push(Piece::of_card(id, card, seat, Placement { at, z: 0 }));
    let landed = {
        let board = Board::new(&table, state.edition);
        movement::place(&board, id.object(), at, None, false).map_err(|e| e.to_string())?
    };
    let placement = Placement {
        at,
        z: landed.end.z,
    };
    if let Some(piece) = table.pieces.last_mut() {
        piece.z = placement.z;
    }
    let board = Board::new(&table, state.edition);
    let body = |object| {
        board
            .body(Target::Object(object))
            .map_err(|e| e.to_string())
    };
    let (new, by) = (body(id.object())?, body(summoner.object())?);
    if !crate::table::measure::base_contact(&new, &by) {
        return Err("a summoned model is placed in base contact with its summoner".into());
    }
    let (from, to) = (
        Target::Object(summoner.object()),
        Target::Object(id.object()),
    );
    if !sight::line_of_sight(&board, from, to).map_err(|e| e.to_string())? {
        return Err("a summoned model is placed in its summoner's line of sight".into());
    }
    Ok(placement)
}

/// Points around `summoner` where `card` may be summoned, tried at
/// `SUMMON_BEARINGS` even bearings in base contact (for bots, and to tell
/// whether no place fits at all).
pub(crate) fn summon_spots(state: &GameState, summoner: ModelId, card: &ModelCard) -> Vec<Point> {
    const SUMMON_BEARINGS: u16 = 24;
    let Some(body) = state.model(summoner).and_then(Model::body) else {
        return Vec::new();
    };
    crate::table::contact_points(&body, card.base, SUMMON_BEARINGS)
        .filter(|at| summon_placement(state, summoner, card, *at).is_ok())
        .collect()
}

impl Sim<'_> {
    /// A summoning action succeeded: its player picks a model its duel
    /// total reaches (none within reach, or none the crew may add: the
    /// action summons nothing).
    pub(super) fn offer_summon(
        &mut self,
        summoner: ModelId,
        action: &ActionCard,
    ) -> Result<(), RuleError> {
        let seat = self.model_owner(summoner)?;
        let total = self.state.last_outcome.map(|o| o.initiator_total);
        let models: Vec<String> = summon_options(&self.state, seat, action, total)
            .iter()
            .map(|card| card.name.to_string())
            .collect();
        if models.is_empty() {
            return Ok(());
        }
        self.push_check()?;
        self.emit(Event::SummonOffered {
            seat,
            summoner,
            models,
        })
    }

    /// The player's pick for a `summon` frame: the model joins the crew
    /// where they put it, then gains the summon tokens.
    pub(super) fn summon_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::Summon {
            seat,
            summoner,
            options,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        let PlayerCommand::Summon { model, at } = command else {
            return refuse("choose the model to summon and where it stands first");
        };
        if !options.contains(model) {
            return refuse(format!("{model} is not one of the models you may summon"));
        }
        let card = self.state.summonable[seat.index()]
            .iter()
            .find(|c| *c.name == **model)
            .cloned()
            .ok_or(RuleError::NothingPending)?;
        let Some(at) = at else {
            if !summon_spots(&self.state, summoner, &card).is_empty() {
                return refuse(format!(
                    "{model} fits in base contact with its summoner: choose where"
                ));
            }
            return self.emit(Event::SummonNotPlaced {
                seat,
                card: model.clone(),
            });
        };
        let placement =
            summon_placement(&self.state, summoner, &card, *at).map_err(RuleError::not_allowed)?;
        let id = next_model_id(&self.state);
        self.emit(Event::ModelSummoned {
            model: id,
            seat,
            card: model.clone(),
            at: placement,
        })?;
        if !card.peon {
            let tokens: Vec<Token> = self.book().gained_on_summon().collect();
            for token in tokens {
                self.gain_token(id, token, 1, Some(seat))?;
            }
        }
        Ok(())
    }
}
