//! The encounter's setup steps: the deployment zone, declared crews,
//! dividing and deploying the crews, and explosives tokens.

use super::*;

/// The models `seat` may put an explosives token on now (Plant
/// Explosives): its models on the table below their limit, while it has
/// tokens left to place.
pub(crate) fn explosives_placeable(state: &GameState, seat: Seat) -> Vec<ModelId> {
    let Some(encounter) = state.encounter.as_deref() else {
        return Vec::new();
    };
    let Some(rule) = encounter.setup.strategy.explosives else {
        return Vec::new();
    };
    if encounter.explosives_placed[seat.index()] >= rule.per_crew {
        return Vec::new();
    }
    state
        .models
        .iter()
        .filter(|m| m.owner == seat && m.on_table() && m.card.counts_for_objectives())
        .filter(|m| {
            let max = if m.card.minion {
                rule.minion_max
            } else {
                rule.other_max
            };
            encounter.explosives_on(m.id) < max
        })
        .map(|m| m.id)
        .collect()
}

/// The models `seat` may deploy now (none outside its deployment step).
pub(crate) fn deployable(state: &GameState, seat: Seat) -> Vec<ModelId> {
    let Some(encounter) = state.encounter.as_deref() else {
        return Vec::new();
    };
    if encounter.step != (Step::Deploy { seat }) {
        return Vec::new();
    }
    let splitter = state
        .edition
        .rules()
        .encounter
        .splitting_seat(encounter.setup.attacker);
    let group = (seat == splitter).then(|| {
        let first = encounter.choices.first_group.unwrap_or(0);
        if Sim::to_deploy(state, seat.other(), None).is_empty() {
            1 - first
        } else {
            first
        }
    });
    Sim::to_deploy(state, seat, group)
}

impl Sim<'_> {
    /// Deployment goes on: the splitter's first group, the other crew
    /// whole, then the splitter's second group. False while `seat` has
    /// models to deploy.
    pub(super) fn advance_deployment(&mut self, seat: Seat) -> Result<bool, RuleError> {
        let attacker = self.encounter()?.setup.attacker;
        if !deployable(&self.state, seat).is_empty() {
            return Ok(false);
        }
        let splitter = self.encounter_rules().splitting_seat(attacker);
        let other = splitter.other();
        if seat == splitter && !Self::to_deploy(&self.state, other, None).is_empty() {
            self.step_to(Step::Deploy { seat: other })?;
        } else if seat == other {
            self.step_to(Step::Deploy { seat: splitter })?;
        } else if self.encounter_rules().schemes == SchemeRule::OneHeld {
            self.step_to(Step::ChooseSchemes)?;
        } else if self.encounter()?.setup.strategy.explosives.is_some() {
            // Plant Explosives: the attacker places first.
            self.step_to(Step::PlaceExplosives { seat: attacker })?;
        } else {
            self.step_to(Step::StartOfGame)?;
        }
        Ok(true)
    }

    /// Placing explosives tokens goes on: a crew that cannot place another
    /// token passes the turn to the other, and the game starts once neither
    /// can.
    pub(super) fn advance_explosives(&mut self, seat: Seat) -> Result<bool, RuleError> {
        if !explosives_placeable(&self.state, seat).is_empty() {
            return Ok(false);
        }
        if explosives_placeable(&self.state, seat.other()).is_empty() {
            self.step_to(Step::StartOfGame)?;
        } else {
            self.step_to(Step::PlaceExplosives { seat: seat.other() })?;
        }
        Ok(true)
    }

    /// The models `seat` deploys in this step, not yet on the table.
    pub(crate) fn to_deploy(state: &GameState, seat: Seat, group: Option<u8>) -> Vec<ModelId> {
        let Some(encounter) = state.encounter.as_deref() else {
            return Vec::new();
        };
        let members: Option<&Vec<ModelId>> = group.and_then(|g| {
            encounter
                .choices
                .groups
                .as_ref()
                .map(|groups| &groups[usize::from(g)])
        });
        state
            .models
            .iter()
            .filter(|m| m.owner == seat && m.in_play() && m.placement.is_none())
            .filter(|m| members.is_none_or(|list| list.contains(&m.id)))
            .map(|m| m.id)
            .collect()
    }

    pub(super) fn make_strategy_markers(&mut self) -> Result<(), RuleError> {
        let Some(def) = self.state.marker_types.of_kind(MarkerKind::Strategy) else {
            return refuse("the content defines no strategy marker");
        };
        let name = def.name.clone();
        for at in crate::encounter::scoring::strategy_marker_points(&self.encounter()?.setup) {
            self.drop_marker(name.clone(), None, at)?;
        }
        Ok(())
    }

    pub(super) fn deploy(
        &mut self,
        seat: Seat,
        model: ModelId,
        at: Point,
    ) -> Result<(), RuleError> {
        if !deployable(&self.state, seat).contains(&model) {
            return refuse(format!(
                "model {} is not one you deploy now (or it is already on the table)",
                model.0
            ));
        }
        let encounter = self.encounter()?;
        let side = encounter.layout_side(seat);
        let layout = encounter.setup.layout();
        let card = self
            .state
            .model(model)
            .map(|m| Arc::clone(&m.card))
            .ok_or(RuleError::NothingPending)?;
        let body = Body {
            id: Some(model.object()),
            center: at.v2(),
            radius: card.base.radius(),
            z: 0.0,
            size: f64::from(card.sz),
            seat: Some(seat),
            peon: card.peon,
        };
        if !layout.in_deployment_zone(side, &body) {
            return refuse("the model must be completely within your deployment zone");
        }
        // Put it there on a copy of the table to check it fits.
        let mut table = (*self.state.table()).clone();
        table.pieces.push(crate::table::Piece::of_card(
            model,
            &card,
            seat,
            Placement { at, z: 0 },
        ));
        let board = Board::new(&table, self.state.edition);
        let placed = movement::place(&board, model.object(), at, None, false)
            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        self.emit(Event::ModelDeployed {
            model,
            at: Placement {
                at,
                z: placed.end.z,
            },
        })
    }

    /// A command of the setup: the deployment zone, the declared crews, dividing
    /// and deploying the crews, and placing explosives tokens.
    pub(super) fn setup_command(
        &mut self,
        seat: Seat,
        encounter: &Encounter,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let attacker = encounter.setup.attacker;
        let step = encounter.step;
        match (step, command) {
            (Step::ChooseZone, PlayerCommand::ChooseZone { zone }) => {
                Self::require_seat(seat, attacker)?;
                self.emit(Event::ZoneChosen { seat, zone: *zone })?;
                self.make_strategy_markers()?;
                let hiring = Seat::BOTH
                    .iter()
                    .all(|s| !encounter.setup.offers(*s).is_empty());
                // 3rd edition: crews and schemes were chosen before.
                let fourth = self.encounter_rules().schemes == SchemeRule::OneHeld;
                self.step_to(if hiring && fourth {
                    Step::Declare {
                        what: Declaration::Faction,
                    }
                } else {
                    Step::SplitCrew
                })
            }
            (
                Step::Declare { what },
                PlayerCommand::Declare {
                    what: asked,
                    choice,
                },
            ) => {
                if what != *asked {
                    return refuse(format!("choose your {} now", what.label()));
                }
                if encounter.choices.declared[seat.index()].is_some() {
                    return refuse(format!("you have already chosen your {}", what.label()));
                }
                let options = encounter.declarable(seat, what);
                let Some(choice) = options
                    .into_iter()
                    .find(|o| o.eq_ignore_ascii_case(choice.trim()))
                else {
                    return refuse(format!(
                        "{choice:?} is not a {} you may choose",
                        what.label()
                    ));
                };
                self.emit(Event::Declared {
                    seat,
                    what,
                    choice: crate::hidden::Hidden::new(seat, choice),
                })
            }
            (Step::SplitCrew, PlayerCommand::SplitCrew { first }) => {
                Self::require_seat(seat, self.encounter_rules().splitting_seat(attacker))?;
                let mine: Vec<ModelId> = self
                    .state
                    .models
                    .iter()
                    .filter(|m| m.owner == seat && m.in_play())
                    .map(|m| m.id)
                    .collect();
                let mut first = first.clone();
                first.sort();
                first.dedup();
                if let Some(stranger) = first.iter().find(|id| !mine.contains(id)) {
                    return refuse(format!("model {} is not in your crew", stranger.0));
                }
                let second = mine
                    .iter()
                    .copied()
                    .filter(|id| !first.contains(id))
                    .collect();
                self.emit(Event::CrewSplit {
                    seat,
                    groups: [first, second],
                })?;
                self.step_to(Step::ChooseGroup)
            }
            (Step::ChooseGroup, PlayerCommand::ChooseGroup { group }) => {
                let splitter = self.encounter_rules().splitting_seat(attacker);
                Self::require_seat(seat, splitter.other())?;
                if *group > 1 {
                    return refuse("choose group 0 or 1");
                }
                self.emit(Event::GroupChosen { group: *group })?;
                self.step_to(Step::Deploy { seat: splitter })
            }
            (Step::Deploy { seat: deploying }, PlayerCommand::Deploy { model, at }) => {
                Self::require_seat(seat, deploying)?;
                self.deploy(seat, *model, *at)
            }
            (Step::PlaceExplosives { seat: placing }, PlayerCommand::PlaceExplosives { model }) => {
                Self::require_seat(seat, placing)?;
                if self.state.model(*model).is_none_or(|m| m.owner != seat) {
                    return refuse(format!("model {} is not one of your models", model.0));
                }
                if !explosives_placeable(&self.state, seat).contains(model) {
                    return refuse(format!(
                        "{} cannot take another explosives token (a minion carries one, \
                         any other model two)",
                        self.model_name(*model)
                    ));
                }
                self.emit(Event::ExplosivesPlaced {
                    seat,
                    model: *model,
                })?;
                if !explosives_placeable(&self.state, seat.other()).is_empty() {
                    self.step_to(Step::PlaceExplosives { seat: seat.other() })?;
                }
                Ok(())
            }
            _ => wrong_step(step),
        }
    }
}
