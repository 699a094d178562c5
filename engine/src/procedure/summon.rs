//! New models during the game: summoning (4th edition "Summoning",
//! "Summon TNs" and "Model Limits") and replacing ("Replace").
//!
//! An action that summons is a simple duel against the lowest summon
//! target number (STN) among the models it may add; once it succeeds, its
//! total decides which of them its player may pick. The player places the
//! new model in base contact with the summoner and in its line of sight;
//! it joins the summoner's crew and gains the edition's summon tokens
//! (Summon and Slow), unless it is a peon. A model that cannot be placed
//! is not added.
//!
//! A model an effect replaces gives way to a new model of its crew, placed
//! touching it (no sight needed); a new model the crew may not add, or
//! that fits nowhere, is killed, and the original with it.

use super::*;
use crate::limits::MAX_MODELS;
use crate::model::{ActionCard, Model, ModelCard, ModelStatus, Placement};
use crate::state::innermost_action;
use crate::state::wait_in_action;
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
    state.summonable[seat.index()]
        .iter()
        .filter(|card| action.summons.contains(&card.name))
        .filter(|card| {
            card.summon_tn
                .is_some_and(|stn| total.is_none_or(|total| i16::from(stn) <= total))
        })
        .filter(|card| may_add(state, seat, card))
        .cloned()
        .collect()
}

/// The id a new model gets: one past the highest so far.
fn next_model_id(state: &GameState) -> ModelId {
    let highest = state.models.iter().map(|m| m.id.0).max().unwrap_or(0);
    ModelId(highest.saturating_add(1))
}

/// Whether `seat`'s crew may add a model of `card`: it holds fewer of it
/// (in play or buried) than its model limit, and the game has room.
fn may_add(state: &GameState, seat: Seat, card: &ModelCard) -> bool {
    if state.models.len() >= MAX_MODELS {
        return false;
    }
    let held = state
        .models
        .iter()
        .filter(|m| m.owner == seat && m.card.name == card.name)
        .filter(|m| matches!(m.status, ModelStatus::InPlay | ModelStatus::Buried))
        .count();
    held < usize::from(card.model_limit)
}

/// How a new model must stand beside the model it comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Beside {
    /// Summoned: touching its summoner and in its line of sight.
    InSight,
    /// Replacing: touching the original.
    Touching,
}

/// Where a new `card` would stand with its centre at `at`, or why it may
/// not: on a surface that holds at least half its base, clear of models
/// and impassable terrain, in base contact with `beside` (and in its line
/// of sight, for a summon).
pub(crate) fn new_model_placement(
    state: &GameState,
    beside: ModelId,
    card: &ModelCard,
    at: Point,
    how: Beside,
) -> Result<Placement, String> {
    let Some(seat) = state.model(beside).map(|m| m.owner) else {
        return Err("the model it comes from is gone".into());
    };
    let id = next_model_id(state);
    let mut table = (*state.table()).clone();
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
    let (new, by) = (body(id.object())?, body(beside.object())?);
    if !crate::table::measure::base_contact(&new, &by) {
        return Err(match how {
            Beside::InSight => "a summoned model is placed in base contact with its summoner",
            Beside::Touching => "the new model is placed in base contact with the one it replaces",
        }
        .into());
    }
    if how == Beside::Touching {
        return Ok(placement);
    }
    let (from, to) = (Target::Object(beside.object()), Target::Object(id.object()));
    if !sight::line_of_sight(&board, from, to).map_err(|e| e.to_string())? {
        return Err("a summoned model is placed in its summoner's line of sight".into());
    }
    Ok(placement)
}

/// How many even bearings around a model are tried for a base placed in
/// contact with it (for bots, and to tell whether no place fits at all).
pub(crate) const CONTACT_BEARINGS: u16 = 24;

/// Points around `beside` where a new `card` may stand, tried at
/// `CONTACT_BEARINGS` bearings in base contact.
pub(crate) fn new_model_spots(
    state: &GameState,
    beside: ModelId,
    card: &ModelCard,
    how: Beside,
) -> Vec<Point> {
    let Some(body) = state.model(beside).and_then(Model::body) else {
        return Vec::new();
    };
    crate::table::contact_points(&body, card.base, CONTACT_BEARINGS)
        .filter(|at| new_model_placement(state, beside, card, *at, how).is_ok())
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
        let card = self
            .state
            .summonable_card(seat, model)
            .ok_or(RuleError::NothingPending)?;
        let Some(at) = at else {
            if !new_model_spots(&self.state, summoner, &card, Beside::InSight).is_empty() {
                return refuse(format!(
                    "{model} fits in base contact with its summoner: choose where"
                ));
            }
            return self.emit(Event::SummonNotPlaced {
                seat,
                card: model.clone(),
            });
        };
        let placement = new_model_placement(&self.state, summoner, &card, *at, Beside::InSight)
            .map_err(RuleError::not_allowed)?;
        let id = next_model_id(&self.state);
        self.emit(Event::ModelSummoned {
            model: id,
            seat,
            card: model.clone(),
            at: placement,
        })?;
        // 3rd edition: each summoned model gives the opposing crew a pass token.
        if self.state.encounter.is_some()
            && self.state.edition.rules().encounter.passing == crate::rules::PassingRule::PassTokens
        {
            self.emit(Event::PassTokensGained {
                seat: seat.other(),
                count: 1,
            })?;
        }
        if !card.peon {
            let tokens: Vec<Token> = self.book().gained_on_summon().collect();
            for token in tokens {
                self.gain_token(id, token, 1, Some(seat))?;
            }
        }
        Ok(())
    }

    /// "Replace this model with `with`": its player places the new model
    /// touching it (step 1). A new model the crew may not add (its model
    /// limit) or that fits nowhere is not added, and the original is
    /// killed instead.
    pub(super) fn offer_replace(
        &mut self,
        action: &crate::state::ActionInProgress,
        with: &str,
        together_with: Option<&crate::model::AlsoReplaced>,
    ) -> Result<(), RuleError> {
        let original = action.actor;
        let Some(seat) = self
            .state
            .model(original)
            .filter(|m| m.on_table())
            .map(|m| m.owner)
        else {
            return Ok(());
        };
        let card = self.state.summonable_card(seat, with);
        let fits = card.is_some_and(|card| {
            may_add(&self.state, seat, &card)
                && !new_model_spots(&self.state, original, &card, Beside::Touching).is_empty()
        });
        if !fits {
            self.emit(Event::ModelExecuted {
                model: original,
                action: action.name.clone(),
            })?;
            let instance =
                DamageInstance::fixed(original, action.name.clone(), 0, true, self.batch());
            return self.killed(original, &instance, true);
        }
        let also = together_with.map_or_else(Vec::new, |spec| {
            also_replaced(&self.state, original, seat, spec)
        });
        self.push_check()?;
        self.emit(Event::ReplaceOffered {
            seat,
            model: original,
            with: with.to_string(),
            also,
        })
    }

    /// The player's point for a `replace` frame (`place`): the new model
    /// comes in touching the original, with its health and tokens.
    pub(super) fn replace_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::Replace {
            seat,
            model,
            with,
            also,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        let PlayerCommand::Place { at } = command else {
            return refuse(format!("choose where {with} is placed first"));
        };
        let card = self
            .state
            .summonable_card(seat, &with)
            .ok_or(RuleError::NothingPending)?;
        let placement = new_model_placement(&self.state, model, &card, *at, Beside::Touching)
            .map_err(RuleError::not_allowed)?;
        // The health of every original together (M4E Replace step 2).
        let health = std::iter::once(model)
            .chain(also.iter().copied())
            .filter_map(|id| self.state.model(id))
            .fold(0u16, |sum, m| sum.saturating_add(m.health));
        self.emit(Event::ModelReplaced {
            original: model,
            model: next_model_id(&self.state),
            seat,
            card: with,
            at: placement,
            health: health.min(card.max_health),
            also,
        })
    }
}

/// The other originals a replace takes along with `original`: friendly
/// models in play on the table with the card name `spec.name`, within
/// `spec.within` inches, the nearest first (ties by id), at most
/// `spec.up_to` of them.
fn also_replaced(
    state: &crate::state::GameState,
    original: ModelId,
    seat: Seat,
    spec: &crate::model::AlsoReplaced,
) -> Vec<ModelId> {
    let Some(me) = state.model(original).and_then(crate::model::Model::body) else {
        return Vec::new();
    };
    let mut candidates: Vec<(ModelId, crate::table::Body)> = state
        .models
        .iter()
        .filter(|m| m.id != original && m.owner == seat && m.on_table())
        .filter(|m| *m.card.name == *spec.name)
        .filter_map(|m| Some((m.id, m.body()?)))
        .collect();
    candidates.sort_by_key(|(id, _)| *id);
    crate::table::measure::nearest_within(
        state.edition,
        &me,
        &candidates,
        spec.within,
        usize::from(spec.up_to),
    )
}

/// Summoning and replacing models.
pub(crate) fn apply_summon_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::ReplaceOffered {
            seat,
            model,
            with,
            also,
        } => {
            wait_in_action(
                state,
                Frame::Replace {
                    seat: *seat,
                    model: *model,
                    with: with.clone(),
                    also: also.clone(),
                },
            );
        }
        Event::ModelReplaced {
            original,
            model,
            seat,
            card,
            at,
            health,
            also,
        } => {
            state.pop_frame(|f| matches!(f, Frame::Replace { .. }));
            replace_model(state, *original, *model, *seat, card, *at, *health);
            for other in also {
                replace_another(state, *other, *model);
            }
        }
        Event::SummonOffered {
            seat,
            summoner,
            models,
        } => {
            wait_in_action(
                state,
                Frame::Summon {
                    seat: *seat,
                    summoner: *summoner,
                    options: models.clone(),
                },
            );
        }
        Event::ModelSummoned {
            model,
            seat,
            card,
            at,
        } => {
            state.pop_frame(|f| matches!(f, Frame::Summon { .. }));
            if let Some(card) = state.summonable_card(*seat, card) {
                let mut summoned = Model::new(*model, *seat, card);
                summoned.placement = Some(*at);
                state.models_mut().push(Arc::new(summoned));
            }
        }
        Event::SummonNotPlaced { .. } => {
            state.pop_frame(|f| matches!(f, Frame::Summon { .. }));
        }
        Event::ModelExecuted { .. } => {
            if let Some(action) = innermost_action(state) {
                action.effects_resolved = true;
            }
        }
        _ => {}
    }
}

/// Replace, steps 2 to 6, for one new model of the original's crew: it
/// comes in with the original's health and tokens and takes its place
/// wherever the game names it; the original leaves the game.
fn replace_model(
    state: &mut GameState,
    original: ModelId,
    new: ModelId,
    seat: Seat,
    card: &str,
    at: Placement,
    health: u16,
) {
    let Some(card) = state.summonable_card(seat, card) else {
        return;
    };
    let Some(old) = state.model(original).cloned() else {
        return;
    };
    let mut model = Model::new(new, seat, card);
    model.health = health.min(model.card.max_health);
    model.tokens = old.tokens.clone();
    model.token_from = old.token_from.clone();
    model.placement = Some(at);
    let models = state.models_mut();
    models.push(Arc::new(model));
    if let Some(gone) = state.model_mut(original) {
        gone.status = ModelStatus::Removed;
        gone.placement = None;
        gone.tokens = crate::token::Tokens::default();
        gone.token_from.clear();
    }
    let renamed = |id: &mut ModelId| {
        if *id == original {
            *id = new;
        }
    };
    // Only the frames that name the original are copied.
    for frame in state.frames.iter_mut_where(|f| match f {
        Frame::Activation { model, .. } => *model == original,
        Frame::Action { action } => action.actor == original,
        _ => false,
    }) {
        match frame {
            Frame::Activation { model, .. } => renamed(model),
            Frame::Action { action } => renamed(&mut action.actor),
            _ => {}
        }
    }
    encounter_names_the_new_model(state, original, new);
}

/// Replace step 4 in the encounter: whatever chose the original (the
/// leader, an assumed leadership, a scheme's chosen model) now names the
/// new model, which has activated if the original had.
fn encounter_names_the_new_model(state: &mut GameState, original: ModelId, new: ModelId) {
    let renamed = |id: &mut ModelId| {
        if *id == original {
            *id = new;
        }
    };
    if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
        if encounter.activated.contains(&original) && !encounter.activated.contains(&new) {
            encounter.activated.push(new);
        }
        encounter.leaders.iter_mut().flatten().for_each(renamed);
        encounter
            .assumed_leadership
            .iter_mut()
            .flatten()
            .for_each(renamed);
        // The choices are shared until written: only copied when a scheme
        // chose the original.
        let chosen = encounter.choices.schemes.iter().flatten().any(|held| {
            held.value
                .as_ref()
                .is_some_and(|s| s.target == Some(original))
        });
        if chosen {
            for held in encounter.choices_mut().schemes.iter_mut().flatten() {
                if let Some(scheme) = held.value.as_mut() {
                    scheme.target.iter_mut().for_each(renamed);
                }
            }
        }
    }
}

/// One more original of a replace (after `replace_model` placed `new`):
/// its tokens are gained by the new model (one of a kind: a token the new
/// model holds already stays as it is), the new model has activated if it
/// had, whatever chose it chooses the new model, and it leaves the game.
fn replace_another(state: &mut GameState, original: ModelId, new: ModelId) {
    let Some(old) = state.model(original).cloned() else {
        return;
    };
    if let Some(model) = state.model_mut(new) {
        for (token, count) in old.tokens.iter() {
            if !model.tokens.has(token) {
                model.tokens.set(token, count);
                if let Some(from) = old.token_from.iter().find(|(t, _)| *t == token) {
                    model.token_from.push(*from);
                }
            }
        }
    }
    if let Some(gone) = state.model_mut(original) {
        gone.status = ModelStatus::Removed;
        gone.placement = None;
        gone.tokens = crate::token::Tokens::default();
        gone.token_from.clear();
    }
    encounter_names_the_new_model(state, original, new);
}
