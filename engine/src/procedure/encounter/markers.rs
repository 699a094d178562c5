//! Markers on the table: where one may be dropped, making scheme markers,
//! strategy markers and what a kill does to them.

use super::general::{general_action_range, general_action_reach, within_general_action_range};
use super::moves::overlaps_a_model;
use super::*;

/// How far from a model's centre a new scheme marker's centre goes for
/// the options and the bots: `reach_4e` inches in 4th edition (any point
/// whose marker is within 1"); in base contact in 3rd edition.
pub(crate) fn scheme_marker_offset(state: &GameState, model_radius: f64, reach_4e: f64) -> f64 {
    match state.edition.rules().actions.general_reach {
        crate::rules::GeneralReach::Inches(_) => model_radius + reach_4e,
        crate::rules::GeneralReach::BaseContact => {
            let marker = state
                .marker_types
                .of_kind(MarkerKind::Scheme)
                .map_or(crate::table::BaseMm::SMALL, crate::marker::MarkerDef::base);
            model_radius + marker.radius()
        }
    }
}

/// How far apart the spacing rule keeps a crew's markers of `kind`
/// (3rd edition scheme markers, Plant Explosives' strategy markers), if
/// a rule does.
fn marker_spacing(state: &GameState, kind: MarkerKind) -> Option<u8> {
    match kind {
        MarkerKind::Scheme => match state.edition.rules().encounter.scheme_markers {
            SchemeMarkerRule::Spaced { spacing } => Some(spacing),
            SchemeMarkerRule::AtMostFive => None,
        },
        MarkerKind::Strategy => state
            .encounter
            .as_deref()
            .and_then(|e| e.setup.strategy.explosives)
            .map(|rule| rule.spacing),
        MarkerKind::Remains | MarkerKind::Other => None,
    }
}

/// The spacing the rule demands, if `seat`'s marker of `kind` at `at`
/// would stand closer than that to another of its markers of that kind.
/// Cheap beside `decide`: the bots skip such spots with it.
pub(crate) fn marker_spot_crowded(
    state: &GameState,
    seat: Seat,
    kind: MarkerKind,
    at: crate::table::Point,
) -> Option<u8> {
    let spacing = marker_spacing(state, kind)?;
    let radius = state.marker_types.of_kind(kind)?.base().radius();
    let center = at.v2();
    state
        .markers
        .iter()
        .any(|k| {
            k.kind == kind
                && k.owner == Some(seat)
                && k.at.v2().dist(center) - k.base.radius() - radius < f64::from(spacing) - 1e-9
        })
        .then_some(spacing)
}

/// Who interacts: the acting model, its crew, the action slot it takes
/// and the player controlling it (when not its owner).
#[derive(Debug, Clone, Copy)]
pub(super) struct Interacting {
    pub(super) seat: Seat,
    pub(super) actor: ModelId,
    pub(super) slot: ActionSlot,
    pub(super) controller: Option<Seat>,
}

impl Sim<'_> {
    /// Interact: make a scheme marker at `at`, in 4th edition first
    /// removing `replacing`, one of the crew's five.
    pub(super) fn make_scheme_marker(
        &mut self,
        board: &Board,
        by: Interacting,
        at: Point,
        replacing: Option<ObjectId>,
    ) -> Result<(), RuleError> {
        let Interacting {
            seat,
            actor,
            slot,
            controller,
        } = by;
        let Some(def) = self.state.marker_types.of_kind(MarkerKind::Scheme) else {
            return refuse("the content defines no scheme marker");
        };
        let radius = def.base().radius();
        let name = def.name.clone();
        self.check_marker_spot(board, actor, at, radius)?;
        let center = at.v2();
        let marker_rule = self.encounter_rules().scheme_markers;
        // 3rd edition drops it: it may lie under a model.
        if marker_rule == SchemeMarkerRule::AtMostFive && overlaps_a_model(board, center, radius) {
            return refuse("a made marker may not overlap a model");
        }
        self.check_marker_spacing(seat, MarkerKind::Scheme, at)?;
        let mine: Vec<ObjectId> = self.state.scheme_markers_of(seat).map(|k| k.id).collect();
        let remove = match replacing {
            Some(id) if mine.contains(&id) => Some(id),
            Some(_) => return refuse("you may only remove one of your own scheme markers"),
            None if mine.len() >= MAX_FRIENDLY_MARKERS
                && marker_rule == SchemeMarkerRule::AtMostFive =>
            {
                return refuse("you have five scheme markers: name one to remove first");
            }
            None => None,
        };
        if remove.is_some()
            && (mine.len() < MAX_FRIENDLY_MARKERS || marker_rule != SchemeMarkerRule::AtMostFive)
        {
            return refuse("a scheme marker is removed first only when you have five");
        }
        self.declare_general(
            actor,
            crate::rules::GeneralAction::Interact,
            slot,
            controller,
        )?;
        if let Some(id) = remove {
            self.emit(Event::MarkerRemoved { id })?;
        }
        self.drop_marker(name, Some(seat), at)?;
        Ok(())
    }

    /// Interact with a strategy marker, as the strategy says: pick it up
    /// for an explosives token, or make it friendly or neutral.
    pub(super) fn interact_with_strategy_marker(
        &mut self,
        board: &Board,
        by: Interacting,
        marker: ObjectId,
    ) -> Result<(), RuleError> {
        let Interacting {
            seat,
            actor,
            slot,
            controller,
        } = by;
        let interact = self.encounter()?.setup.strategy.interact;
        if interact == MarkerInteract::None {
            return refuse("this strategy's markers cannot be interacted with");
        }
        if interact == MarkerInteract::MoveForDamage {
            return refuse("a model moves this strategy's markers by suffering damage (move_idol)");
        }
        if self.marker_within(board, actor, marker)? != MarkerKind::Strategy {
            return refuse("that is not a strategy marker");
        }
        if interact == MarkerInteract::PickUpForExplosives {
            self.declare_general(
                actor,
                crate::rules::GeneralAction::Interact,
                slot,
                controller,
            )?;
            self.emit(Event::MarkerRemoved { id: marker })?;
            self.emit(Event::ExplosivesGained {
                model: actor,
                count: 1,
                from: None,
            })?;
            return Ok(());
        }
        let owner = self
            .state
            .markers
            .iter()
            .find(|k| k.id == marker)
            .and_then(|k| k.owner);
        let becomes = match (interact, owner) {
            (_, None) => Some(seat),
            (MarkerInteract::StepTowardFriendly, Some(friend)) if friend == seat => {
                return refuse("that strategy marker is already friendly");
            }
            (_, Some(_)) => None,
        };
        self.declare_general(
            actor,
            crate::rules::GeneralAction::Interact,
            slot,
            controller,
        )?;
        self.emit(Event::MarkerClaimed {
            marker,
            owner: becomes,
        })?;
        Ok(())
    }

    /// A strategy whose kills turn markers (Turf War): `killer`'s crew,
    /// having killed `victim`, may turn one of the victim crew's strategy
    /// markers in a table quarter the victim stood in (the centre's is in
    /// every quarter) neutral. It chooses which, or none: the rules say it
    /// "can" (and, for a model standing in several quarters, which quarter
    /// it was killed in).
    pub(in crate::procedure) fn neutralise_marker_after_kill(
        &mut self,
        victim: &crate::model::Model,
        killer: Seat,
    ) -> Result<(), RuleError> {
        let Some(encounter) = self.state.encounter.as_deref() else {
            return Ok(());
        };
        if !encounter.setup.strategy.kill_neutralises_marker || !victim.card.counts_for_objectives()
        {
            return Ok(());
        }
        let Some(body) = victim.body() else {
            return Ok(());
        };
        let quarters: Vec<usize> = (0..4)
            .filter(|q| {
                crate::table::measure::Layout::quarter(*q).signed_distance(body.center)
                    < body.radius
            })
            .collect();
        let options: Vec<ObjectId> = self
            .state
            .markers
            .iter()
            .filter(|k| k.kind == MarkerKind::Strategy && k.owner == Some(killer.other()))
            .filter(|k| {
                quarters.iter().any(|q| {
                    crate::table::measure::Layout::quarter(*q).signed_distance(k.at.v2())
                        <= crate::table::geometry::TOUCH
                })
            })
            .map(|k| k.id)
            .collect();
        if options.is_empty() {
            return Ok(());
        }
        self.push_check()?;
        self.emit(Event::MarkerChoiceOffered {
            seat: killer,
            options,
            then: crate::ability::MarkerChoice::Neutralise,
        })
    }

    /// Plant Explosives: a killed model's explosives tokens are lost, and
    /// a model of the opposing crew within reach of it "may" gain them:
    /// that crew picks which, or none.
    pub(in crate::procedure) fn pass_explosives_after_kill(
        &mut self,
        victim: &crate::model::Model,
    ) -> Result<(), RuleError> {
        let Some(encounter) = self.state.encounter.as_deref() else {
            return Ok(());
        };
        let (Some(rule), count) = (
            encounter.setup.strategy.explosives,
            encounter.explosives_on(victim.id),
        ) else {
            return Ok(());
        };
        let Some(body) = victim.body().filter(|_| count > 0) else {
            return Ok(());
        };
        let heirs: Vec<ModelId> = self
            .state
            .models
            .iter()
            .filter(|m| m.owner != victim.owner && m.in_play() && m.card.counts_for_objectives())
            .filter(|m| {
                m.body().is_some_and(|other| {
                    crate::table::measure::horizontal_gap(&body, &other)
                        <= f64::from(rule.passed_within) + 1e-9
                })
            })
            .map(|m| m.id)
            .collect();
        self.emit(Event::ExplosivesLost {
            model: victim.id,
            count,
        })?;
        if heirs.is_empty() {
            return Ok(());
        }
        self.push_check()?;
        self.emit(Event::ModelChoiceOffered {
            seat: victim.owner.other(),
            options: heirs,
            then: crate::ability::ModelChoice::GainExplosives {
                from: victim.id,
                count,
            },
        })
    }

    /// A marker within reach of the actor (in 4th edition one no enemy
    /// model touches): its kind.
    pub(in crate::procedure) fn marker_within(
        &self,
        board: &Board,
        actor: ModelId,
        marker: ObjectId,
    ) -> Result<MarkerKind, RuleError> {
        let found = self
            .state
            .markers
            .iter()
            .find(|m| m.id == marker)
            .ok_or_else(|| RuleError::not_allowed("there is no such marker"))?;
        let me = board
            .body(Target::Object(actor.object()))
            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        let it = board
            .body(Target::Object(marker))
            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        if !within_general_action_range(self.state.edition, &me, &it) {
            return refuse(format!(
                "the marker is not {}",
                general_action_reach(self.state.edition)
            ));
        }
        // 4th edition only: a 3rd edition Interact does not care who
        // touches the marker (M3E Interact, line 1962).
        if !self
            .state
            .edition
            .rules()
            .actions
            .interact_refused_while_enemy_touches
        {
            return Ok(found.kind);
        }
        let owner = self.model_owner(actor)?;
        // The board's bodies are the models on the table.
        let touched = board.bodies().any(|b| {
            b.seat.is_some_and(|s| s != owner) && crate::table::measure::base_contact(&b, &it)
        });
        if touched {
            return refuse("an enemy model is in base contact with that marker");
        }
        Ok(found.kind)
    }

    /// A marker of type `name` (`owner`'s, if any), dropped on the ground
    /// at `at`.
    pub(in crate::procedure) fn drop_marker(
        &mut self,
        name: String,
        owner: Option<Seat>,
        at: Point,
    ) -> Result<(), RuleError> {
        self.emit(Event::MarkerMade {
            marker: name,
            owner,
            at: Placement { at, z: milli(0.0) },
        })
    }

    /// A marker `actor` drops centred at `at`: on the table, within the
    /// general actions' reach, clear of impassable terrain.
    pub(super) fn check_marker_spot(
        &self,
        board: &Board,
        actor: ModelId,
        at: Point,
        radius: f64,
    ) -> Result<(), RuleError> {
        let me = board
            .body(Target::Object(actor.object()))
            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        let center = at.v2();
        let size = inches(crate::table::TABLE_SIZE);
        if center.x < radius
            || center.y < radius
            || center.x > size - radius
            || center.y > size - radius
        {
            return refuse("the marker must be on the table");
        }
        if center.dist(me.center) - me.radius - radius
            > general_action_range(self.state.edition) + 1e-9
        {
            return refuse(format!(
                "the marker must be made {}",
                general_action_reach(self.state.edition)
            ));
        }
        let impassable = board.obstacles().any(|o| {
            o.has(crate::table::Trait::Impassable)
                && o.bounds.0.dist(center) <= o.bounds.1 + radius
                && o.shape.gap_to_disc(center, radius) < -crate::table::TOUCH
        });
        if impassable {
            return refuse("a made marker may not overlap impassable terrain");
        }
        Ok(())
    }

    /// A marker of `kind` `seat` drops at `at` keeps the spacing rule's
    /// distance from its other ones of that kind.
    pub(super) fn check_marker_spacing(
        &self,
        seat: Seat,
        kind: MarkerKind,
        at: Point,
    ) -> Result<(), RuleError> {
        if let Some(spacing) = marker_spot_crowded(&self.state, seat, kind, at) {
            let what = if kind == MarkerKind::Scheme {
                "scheme"
            } else {
                "strategy"
            };
            return refuse(format!(
                "a {what} marker may not be dropped within {spacing}\" of another of yours"
            ));
        }
        Ok(())
    }
}
