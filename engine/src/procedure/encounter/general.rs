//! The general actions every model may take (Walk, Charge, Interact and
//! the others), their reach, and what Interact does.

use super::markers::Interacting;
use super::*;

/// How far Interact and Slam reach: 1" in 4th edition; base contact in
/// 3rd edition (`TOUCH` is the table's tolerance for touching).
pub(super) fn general_action_range(edition: crate::Edition) -> f64 {
    match edition.rules().actions.general_reach {
        crate::rules::GeneralReach::Inches(inches) => f64::from(inches),
        crate::rules::GeneralReach::BaseContact => crate::table::TOUCH,
    }
}

/// Whether a marker is within reach of a general action (Interact, Slam)
/// taken by the model whose base is `model`.
pub(super) fn within_general_action_range(
    edition: crate::Edition,
    model: &Body,
    marker: &Body,
) -> bool {
    crate::table::measure::horizontal_gap(model, marker) <= general_action_range(edition) + 1e-9
}

/// Whether any part of a terrain piece is within a general action's reach
/// of a model (1" in 4th edition; touching in 3rd).
fn terrain_within_reach(
    board: &crate::table::Board,
    model: &crate::table::Body,
    terrain: crate::table::ObjectId,
) -> bool {
    board.obstacles().filter(|o| o.id == terrain).any(|o| {
        crate::table::measure::distance_to_obstacle(model, o)
            <= general_action_range(board.edition) + 1e-9
    })
}

/// The words for that reach.
pub(super) fn general_action_reach(edition: crate::Edition) -> String {
    edition.rules().actions.general_reach.words()
}

/// The Interact, Prepare, Slam and Concentrate commands worth asking `decide` about for
/// `model`: a Prepare for each token it may give, an Interact with each
/// scheme or strategy marker within reach, a Slam for each other marker
/// within reach (making a scheme marker takes a point: not listed).
pub(crate) fn general_commands(state: &GameState, model: ModelId) -> Vec<PlayerCommand> {
    let Some(me) = state.model(model).and_then(crate::model::Model::body) else {
        return Vec::new();
    };
    let general = state.edition.rules().encounter.general_actions;
    let mut commands: Vec<PlayerCommand> = state
        .tokens
        .preparable()
        .filter(|_| general.contains(&GeneralAction::Prepare))
        .map(|token| PlayerCommand::Prepare { token })
        .collect();
    if general.contains(&GeneralAction::Concentrate) {
        commands.push(PlayerCommand::Concentrate);
    }
    // Offered unchecked: whether the model is engaged is dear to work out
    // at every step, and `decide` refuses it for a model that is not
    // (`pending` lists only what `decide` accepts).
    if general.contains(&GeneralAction::Disengage) {
        commands.push(PlayerCommand::Disengage);
    }
    if general.contains(&GeneralAction::Assist) {
        commands.extend(super::assist_commands(state, model));
    }
    for marker in state.markers.iter() {
        if !within_general_action_range(state.edition, &me, &marker.body()) {
            continue;
        }
        commands.push(match marker.kind {
            MarkerKind::Scheme => PlayerCommand::Interact {
                with: Interaction::RemoveSchemeMarker { marker: marker.id },
            },
            MarkerKind::Strategy => {
                let idols = state
                    .encounter
                    .as_deref()
                    .and_then(|e| e.setup.strategy.idols);
                match (idols, state.model(model)) {
                    (Some(rule), Some(m)) => {
                        commands.extend(super::idols::idol_moves(state, m, marker, rule));
                        continue;
                    }
                    _ => PlayerCommand::Interact {
                        with: Interaction::StrategyMarker { marker: marker.id },
                    },
                }
            }
            MarkerKind::Remains | MarkerKind::Other if general.contains(&GeneralAction::Slam) => {
                PlayerCommand::Slam { marker: marker.id }
            }
            MarkerKind::Remains | MarkerKind::Other => continue,
        });
    }
    // Slam also removes a destructible terrain piece within 1".
    if general.contains(&GeneralAction::Slam) {
        let table = state.table();
        let board = crate::table::Board::new(&table, state.edition);
        commands.extend(
            state
                .terrain
                .iter()
                .filter(|t| t.traits.has(crate::table::Trait::Destructible))
                .filter(|t| terrain_within_reach(&board, &me, t.id))
                .map(|t| PlayerCommand::SlamTerrain { terrain: t.id }),
        );
    }
    // Deliver a Message: enemy models a scheme of the pool may choose,
    // within 1".
    if let Some(encounter) = state.encounter.as_deref() {
        for target in state
            .models
            .iter()
            .filter(|t| t.owner != me_owner(state, model))
        {
            let near = target
                .body()
                .is_some_and(|b| me.center.dist(b.center) - me.radius - b.radius <= 1.0 + 1e-9);
            if near && encounter.may_deliver_message_to(me_owner(state, model), target) {
                commands.push(PlayerCommand::Interact {
                    with: Interaction::DeliverMessage { model: target.id },
                });
            }
        }
    }
    commands
}

/// The crew a model belongs to (its owner; seat A if it is gone).
fn me_owner(state: &GameState, model: ModelId) -> Seat {
    state.model(model).map_or(Seat::A, |m| m.owner)
}

impl Sim<'_> {
    /// Interact, Prepare, Slam or Concentrate by `actor`, decided by `seat`: in its own
    /// activation, or under `controller`'s control as an additional action.
    pub(in crate::procedure) fn general_action(
        &mut self,
        seat: Seat,
        actor: ModelId,
        command: &PlayerCommand,
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        if let Some(name) = command.general_action()
            && !self.encounter_rules().general_actions.contains(&name)
        {
            return refuse(format!(
                "{} has no general action {name}",
                self.state.edition.name()
            ));
        }
        match command {
            PlayerCommand::Interact { with } => self.interact(seat, actor, with, slot, controller),
            PlayerCommand::Prepare { token } => {
                if !self.book().preparable().any(|t| t == *token) {
                    return refuse(format!("Prepare cannot give {token}"));
                }
                self.declare_general(actor, GeneralAction::Prepare, slot, controller)?;
                // A token is friendly to the crew that controlled its
                // application: the controller's.
                self.gain_token(actor, *token, 1, Some(seat))?;
                self.general_ended(actor, Vec::new())
            }
            PlayerCommand::Slam { marker } => {
                let table = self.state.table();
                let found =
                    self.marker_within(&Board::new(&table, self.state.edition), actor, *marker)?;
                if matches!(found, MarkerKind::Scheme | MarkerKind::Strategy) {
                    return refuse("Slam removes markers other than scheme and strategy markers");
                }
                // Acting in hazardous terrain counts even if the action
                // removes that terrain.
                let standing_in = crate::table::measure::hazards_while_acting(
                    &Board::new(&table, self.state.edition),
                    actor.object(),
                )
                .unwrap_or_default();
                self.declare_general(actor, GeneralAction::Slam, slot, controller)?;
                self.emit(Event::MarkerRemoved { id: *marker })?;
                self.general_ended(actor, standing_in)
            }
            PlayerCommand::SlamTerrain { terrain } => {
                let table = self.state.table();
                let board = Board::new(&table, self.state.edition);
                let Some(piece) = self.state.terrain.iter().find(|t| t.id == *terrain) else {
                    return refuse("there is no such terrain piece");
                };
                if !piece.traits.has(crate::table::Trait::Destructible) {
                    return refuse(format!(
                        "{} is not destructible: Slam removes only destructible terrain",
                        piece.name
                    ));
                }
                let me = board
                    .body(Target::Object(actor.object()))
                    .map_err(|e| RuleError::not_allowed(e.to_string()))?;
                if !terrain_within_reach(&board, &me, *terrain) {
                    return refuse(format!("{} is not within 1\"", piece.name));
                }
                let standing_in =
                    crate::table::measure::hazards_while_acting(&board, actor.object())
                        .unwrap_or_default();
                self.declare_general(actor, GeneralAction::Slam, slot, controller)?;
                self.emit(Event::TerrainRemoved { id: *terrain })?;
                self.general_ended(actor, standing_in)
            }
            PlayerCommand::Concentrate => {
                if self
                    .encounter()?
                    .once_used_by(actor, GeneralAction::Concentrate.name())
                    .is_some()
                {
                    return refuse("Concentrate is once per activation");
                }
                let Some(token) = self.book().concentrate_gives() else {
                    return refuse("the content defines no token that Concentrate gives");
                };
                self.declare_general(actor, GeneralAction::Concentrate, slot, controller)?;
                self.gain_token(actor, token, 1, Some(seat))?;
                self.general_ended(actor, Vec::new())
            }
            PlayerCommand::Disengage => self.disengage(actor, slot, controller),
            PlayerCommand::Assist { target, token } => {
                self.assist(seat, actor, *target, *token, slot, controller)
            }
            _ => refuse("that is not a general action"),
        }
    }

    pub(in crate::procedure) fn declare_general(
        &mut self,
        actor: ModelId,
        action: GeneralAction,
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        self.push_check()?;
        self.emit(Event::ActionDeclared {
            model: actor,
            action: action.name().into(),
            target: None,
            slot,
            controller,
        })
    }

    /// Ends a general action; then the hazardous terrain the actor moved
    /// through (`moved_through`) or is in takes effect.
    pub(in crate::procedure) fn general_ended(
        &mut self,
        actor: ModelId,
        moved_through: Vec<String>,
    ) -> Result<(), RuleError> {
        self.emit(Event::ActionEnded {
            model: actor,
            success: true,
        })?;
        self.suffer_hazards(actor, moved_through)
    }

    /// Why `actor` may not Interact now, if it may not: a peon, a token
    /// that forbids it, engaged, or in its own activation after a Walk out
    /// of engagement.
    pub(in crate::procedure) fn interact_refusal(&self, actor: ModelId) -> Option<String> {
        self.interact_refusal_ignoring(actor, None)
    }

    /// The same, `ignoring` one enemy's engagement (the model a Deliver a
    /// Message Interact targets).
    fn interact_refusal_ignoring(
        &self,
        actor: ModelId,
        ignoring: Option<ModelId>,
    ) -> Option<String> {
        let m = self.state.model(actor)?;
        let barred = self.state.acting_model() == Some(actor)
            && self
                .state
                .encounter
                .as_deref()
                .is_some_and(|e| e.activation.interact_barred(self.state.edition));
        if m.card.peon {
            Some("peons cannot Interact".into())
        } else if self.book().forbids_interact(&m.tokens) {
            Some(format!(
                "{} may not Interact (a token forbids it)",
                m.name()
            ))
        } else if barred {
            Some(
                match self.state.edition.rules().actions.interact_bar {
                    crate::rules::InteractBar::LeavingEngagement => {
                        "a model that walked out of engagement may not Interact this activation"
                    }
                    crate::rules::InteractBar::Disengaging => {
                        "a model that took the Disengage action may not Interact this activation"
                    }
                }
                .into(),
            )
        } else if self.engaged_ignoring(actor, ignoring) {
            Some("an engaged model cannot Interact".into())
        } else {
            None
        }
    }

    /// `seat`: the crew controlling the action, whose markers it makes
    /// and claims.
    fn interact(
        &mut self,
        seat: Seat,
        actor: ModelId,
        with: &Interaction,
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        // Strategies and schemes ignore an Insignificant model: it takes no
        // Interact of theirs (making or removing scheme markers is the
        // general action's own).
        let objective = matches!(
            with,
            Interaction::StrategyMarker { .. }
                | Interaction::PlantExplosives { .. }
                | Interaction::MoveIdol { .. }
                | Interaction::DeliverMessage { .. }
        );
        if objective
            && let Some(m) = self.state.model(actor)
            && !m.card.counts_for_objectives()
        {
            return refuse(format!(
                "{} is Insignificant: strategies and schemes ignore it",
                m.name()
            ));
        }
        // Deliver a Message: the target is checked first; it does not count
        // as engaging the interacting model.
        let ignoring = match with {
            Interaction::DeliverMessage { model } => {
                let owner = self.state.model(actor).map_or(seat, |m| m.owner);
                let encounter = self.encounter()?;
                let may = self
                    .state
                    .model(*model)
                    .is_some_and(|target| encounter.may_deliver_message_to(owner, target));
                if !may {
                    return refuse("no scheme of the pool lets your crew interact with that model");
                }
                Some(*model)
            }
            _ => None,
        };
        if let Some(reason) = self.interact_refusal_ignoring(actor, ignoring) {
            return Err(RuleError::not_allowed(reason));
        }
        let table = self.state.table();
        let board = Board::new(&table, self.state.edition);
        match with {
            Interaction::MakeSchemeMarker { at, replacing } => {
                let by = Interacting {
                    seat,
                    actor,
                    slot,
                    controller,
                };
                self.make_scheme_marker(&board, by, *at, *replacing)?;
            }
            Interaction::PlantExplosives { at } => {
                if self.encounter()?.setup.strategy.explosives.is_none() {
                    return refuse("this strategy has no explosives");
                }
                if self.encounter()?.explosives_on(actor) == 0 {
                    return refuse(format!(
                        "{} carries no explosives token",
                        self.model_name(actor)
                    ));
                }
                let Some(def) = self.state.marker_types.of_kind(MarkerKind::Strategy) else {
                    return refuse("the content defines no strategy marker");
                };
                let radius = def.base().radius();
                let name = def.name.clone();
                // A dropped marker may lie under a model's base (3rd
                // edition, Drop and Create).
                self.check_marker_spot(&board, actor, *at, radius)?;
                self.check_marker_spacing(seat, MarkerKind::Strategy, *at)?;
                self.declare_general(actor, GeneralAction::Interact, slot, controller)?;
                self.emit(Event::ExplosivesLost {
                    model: actor,
                    count: 1,
                })?;
                self.drop_marker(name, Some(seat), *at)?;
            }
            Interaction::RemoveSchemeMarker { marker } => {
                if self.marker_within(&board, actor, *marker)? != MarkerKind::Scheme {
                    return refuse("that is not a scheme marker");
                }
                // 3rd edition: every scheme marker in base contact goes.
                let removed: Vec<ObjectId> = match self.encounter_rules().scheme_markers {
                    SchemeMarkerRule::AtMostFive => vec![*marker],
                    SchemeMarkerRule::Spaced { .. } => {
                        let me = board
                            .body(Target::Object(actor.object()))
                            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
                        self.state
                            .markers
                            .iter()
                            .filter(|k| {
                                k.kind == MarkerKind::Scheme
                                    && within_general_action_range(
                                        self.state.edition,
                                        &me,
                                        &k.body(),
                                    )
                            })
                            .map(|k| k.id)
                            .collect()
                    }
                };
                self.declare_general(actor, GeneralAction::Interact, slot, controller)?;
                for id in removed {
                    self.emit(Event::MarkerRemoved { id })?;
                }
            }
            Interaction::MoveIdol { marker, damage, to } => {
                return self.move_idol(&board, actor, (*marker, *damage, *to), slot, controller);
            }
            Interaction::StrategyMarker { marker } => {
                let by = Interacting {
                    seat,
                    actor,
                    slot,
                    controller,
                };
                self.interact_with_strategy_marker(&board, by, *marker)?;
            }
            Interaction::DeliverMessage { model } => {
                let (Some(me), Some(target)) = (
                    board.body(Target::Object(actor.object())).ok(),
                    self.state.model(*model),
                ) else {
                    return refuse("there is no such model");
                };
                let near = target
                    .body()
                    .is_some_and(|b| me.center.dist(b.center) - me.radius - b.radius <= 1.0 + 1e-9);
                if !near {
                    return refuse("the model must be within 1\"");
                }
                self.declare_general(actor, GeneralAction::Interact, slot, controller)?;
                self.emit(Event::MessageDelivered {
                    model: actor,
                    target: *model,
                })?;
            }
        }
        self.general_ended(actor, Vec::new())
    }
}
