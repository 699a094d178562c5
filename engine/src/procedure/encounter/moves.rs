//! Moving a model in the encounter: the path checked against the table and
//! the rules, falls, hazards, and leaving engagement.

use super::*;

/// How far a marker of `radius` centred at `center` is from the nearest
/// model's base on `board` (negative: overlapping it; infinite with no
/// model on the table).
pub(in crate::procedure) fn gap_to_models(
    board: &Board,
    center: crate::table::geometry::V2,
    radius: f64,
) -> f64 {
    board
        .bodies()
        .map(|b| center.dist(b.center) - b.radius - radius)
        .fold(f64::INFINITY, f64::min)
}

/// Whether a marker of `radius` centred at `center` would overlap a
/// model's base (more than touching it).
pub(super) fn overlaps_a_model(
    board: &Board,
    center: crate::table::geometry::V2,
    radius: f64,
) -> bool {
    gap_to_models(board, center, radius) < -crate::table::TOUCH
}

/// A move the table and the game allow: where the model stood and will
/// stand, whether it leaves engagement, and the hazardous terrain it moves
/// through (what it started in counts too).
struct CheckedMove {
    from: Placement,
    /// Where it ends: the path's end, or where it landed from a fall.
    to: Placement,
    /// The path's end, where it fell from, and the falling damage.
    fall: Option<(Placement, u8)>,
    left_engagement: bool,
    hazards: Vec<String>,
}

impl Sim<'_> {
    /// A move of `model` along `path` as the table and the game allow it.
    /// A path that ends unsupported falls: to `land_at` when the fall has
    /// several equally near landing places (the mover picks), and never,
    /// for a model its own crew controls (`friendly`), to its death.
    fn checked_move(
        &self,
        model: ModelId,
        path: &[Waypoint],
        land_at: Option<Point>,
        kind: MoveKind,
        inches: f64,
        friendly: bool,
    ) -> Result<CheckedMove, RuleError> {
        if path.is_empty() || path.len() > 16 {
            return refuse("a path has 1 to 16 waypoints");
        }
        let m = self.state.model(model).ok_or(RuleError::NothingPending)?;
        let from = m
            .placement
            .ok_or_else(|| RuleError::not_allowed("the model is not on the table"))?;
        let table = self.state.table();
        let board = Board::new(&table, self.state.edition);
        let outcome = movement::validate_move(&board, model.object(), path, kind, inches)
            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        let path_end = Placement {
            at: Point {
                x: outcome.end.x,
                y: outcome.end.y,
            },
            z: outcome.end.z,
        };
        let (to, fall) = match &outcome.fall {
            None => (path_end, None),
            Some(fall) => {
                let landing = Self::landing_place(fall, land_at)?;
                if friendly && u16::from(fall.damage) >= m.health {
                    return refuse(format!(
                        "{} may not choose to fall: the falling damage would kill it",
                        m.name()
                    ));
                }
                let to = Placement {
                    at: landing,
                    z: crate::table::milli(fall.to),
                };
                (to, Some((path_end, fall.damage)))
            }
        };
        if fall.is_none() && land_at.is_some() {
            return refuse("the move ends supported: it does not fall, so it has no landing place");
        }
        // 4th edition: models move through strategy markers but never end
        // on one (a model that stays where it is moves onto nothing). 3rd
        // edition models may stop on markers; the impassable ones stop
        // them on the table.
        let end = to.at.v2();
        let radius = m.card.base.radius();
        let on_marker = to != from
            && self
                .state
                .edition
                .rules()
                .actions
                .moves_end_off_strategy_markers
            && self.state.markers.iter().any(|k| {
                k.kind == MarkerKind::Strategy
                    && k.at.v2().dist(end) < radius + k.base.radius() - crate::table::TOUCH
            });
        if on_marker {
            return refuse("a move may not end overlapping a strategy marker");
        }
        let mut hazards = outcome.hazards.clone();
        hazards.extend(
            crate::table::measure::hazards_while_acting(&board, model.object()).unwrap_or_default(),
        );
        Ok(CheckedMove {
            from,
            to,
            fall,
            left_engagement: !outcome.left_engagement.is_empty(),
            hazards,
        })
    }

    /// Where a fall lands: its one landing place, or the one of several
    /// equally near ones the mover chose.
    fn landing_place(fall: &movement::Fall, land_at: Option<Point>) -> Result<Point, RuleError> {
        match (fall.choices.as_slice(), land_at) {
            ([only], None) => Ok(*only),
            (_, Some(chosen)) => fall.landing_at(chosen).ok_or_else(|| {
                RuleError::not_allowed(format!(
                    "the fall may land only at one of: {}",
                    fall.choices_in_inches()
                ))
            }),
            (choices, None) => refuse(format!(
                "the fall has {} equally near landing places; choose one with land_at: {}",
                choices.len(),
                fall.choices_in_inches()
            )),
        }
    }

    /// The facts of a checked move: it moved, it fell (the fall's damage,
    /// irreducible, is dealt by the model that fell, which caused it).
    fn moved(
        &mut self,
        model: ModelId,
        moved: &CheckedMove,
        charge: bool,
    ) -> Result<(), RuleError> {
        let path_end = moved.fall.map_or(moved.to, |(end, _)| end);
        self.emit(Event::ModelMoved {
            model,
            from: moved.from,
            to: path_end,
            charge,
            left_engagement: moved.left_engagement,
        })?;
        let Some((from, damage)) = moved.fall else {
            return Ok(());
        };
        self.emit(Event::ModelFell {
            model,
            from,
            to: moved.to,
        })?;
        if damage > 0 {
            let owner = self.model_owner(model)?;
            self.queue(DamageInstance {
                credit: Some(model),
                attacker: Some(owner),
                ..DamageInstance::fixed(model, "falling".into(), damage, true, self.batch())
            })?;
        }
        Ok(())
    }

    /// The path for a `move` frame (a reduction's move): the model goes,
    /// then suffers the hazards it moved through.
    pub(in crate::procedure) fn effect_move_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::Move {
            seat,
            model,
            inches,
            push,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        let PlayerCommand::Move { path, land_at } = command else {
            return refuse(format!(
                "send the path {} moves along (where it stands, to stay)",
                self.model_name(model)
            ));
        };
        // Staying where it stands is always allowed: it is not a move.
        let here = self.state.model(model).and_then(|m| m.placement);
        if let (Some(here), [only]) = (here, path.as_slice())
            && (only.x, only.y, only.z) == (here.at.x, here.at.y, here.z)
        {
            return self.emit(Event::ModelMoved {
                model,
                from: here,
                to: here,
                charge: false,
                left_engagement: false,
            });
        }
        // The move is the model's own (a reduction's, or its Disengage's
        // push): its crew chooses it.
        let kind = if push {
            MoveKind::Push
        } else {
            MoveKind::Effect
        };
        let moved = self.checked_move(model, path, *land_at, kind, f64::from(inches), true)?;
        self.moved(model, &moved, false)?;
        self.suffer_hazards(model, moved.hazards)
    }

    /// Walk or Charge along `path`. `controller`: a model moved under
    /// control, whose Charge queues its melee action instead of giving the
    /// acting model a free one.
    pub(in crate::procedure) fn move_model(
        &mut self,
        actor: ModelId,
        path: &[Waypoint],
        land_at: Option<Point>,
        kind: MoveKind,
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        let m = self.state.model(actor).ok_or(RuleError::NothingPending)?;
        let speed = f64::from(self.state.tokens.speed_of(m));
        let friendly = controller.is_none_or(|c| c == m.owner);
        let moved = self.checked_move(actor, path, land_at, kind, speed, friendly)?;
        let name = if kind == MoveKind::Charge {
            GeneralAction::Charge
        } else {
            GeneralAction::Walk
        };
        self.declare_general(actor, name, slot, controller)?;
        self.moved(actor, &moved, kind == MoveKind::Charge)?;
        if kind == MoveKind::Charge && slot == ActionSlot::Additional {
            self.emit(Event::ActionQueued {
                queued: crate::state::QueuedAction {
                    model: actor,
                    action: None,
                    target: None,
                    different_from: None,
                    controller,
                    from_charge: true,
                    of_kind: None,
                    by_trigger: false,
                },
            })?;
        }
        self.general_ended(actor, moved.hazards)
    }

    /// Whether the model is engaged by an enemy other than `ignoring`.
    pub(in crate::procedure) fn engaged_ignoring(
        &self,
        model: ModelId,
        ignoring: Option<ModelId>,
    ) -> bool {
        self.state.is_engaged(model, ignoring)
    }
}
