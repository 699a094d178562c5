//! The frames an action opens to ask a player: a model or marker to choose,
//! a place, a pounce, a kill's payment, cards from the discard.

use super::*;

/// Points where `model` may be placed in base contact with `onto`, tried
/// at `CONTACT_BEARINGS` around it (to offer only enemies it can reach,
/// and for bots).
pub(crate) fn pounce_spots(state: &GameState, model: ModelId, onto: ModelId) -> Vec<Point> {
    let (Some(me), Some(body)) = (state.model(model), state.model(onto).and_then(Model::body))
    else {
        return Vec::new();
    };
    let table = state.table();
    let board = Board::new(&table, state.edition);
    crate::table::contact_points(&body, me.card.base, super::summon::CONTACT_BEARINGS)
        .filter(|at| movement::place_touching(&board, model.object(), *at, onto.object()).is_ok())
        .collect()
}

/// Whether a card of the discard pile may be drawn by an effect allowing
/// values 1 to `max_value` (the jokers' 0 and 14 never are).
pub(crate) fn drawable_from_discard(card: crate::fate::Card, max_value: u8) -> bool {
    (1..=max_value).contains(&card.value())
}

impl Sim<'_> {
    /// The controller's answer to an execute effect it may pay off.
    pub(in crate::procedure) fn kill_payment_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::KillUnlessPaid { seat, model }) = self.state.frame().cloned() else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        match command {
            PlayerCommand::PayAgainstKill { card: Some(card) } => {
                if !self.state.player(seat).hand.contains(*card) {
                    return refuse(format!("{card} is not in your hand"));
                }
                self.emit(Event::Discarded {
                    seat,
                    cards: vec![*card],
                })?;
                self.emit(Event::KillPaidOff { seat, model })
            }
            PlayerCommand::PayAgainstKill { card: None } => {
                if self.state.player(seat).soulstones == 0 {
                    return refuse("your crew has no soulstone to discard");
                }
                self.emit(Event::SoulstoneSpent {
                    seat,
                    purpose: "not to be killed".into(),
                    role: None,
                })?;
                self.emit(Event::KillPaidOff { seat, model })
            }
            PlayerCommand::DeclinePayment => {
                let action = self
                    .state
                    .action_in_progress()
                    .cloned()
                    .ok_or(RuleError::NothingPending)?;
                self.emit(Event::KillPaymentDeclined { seat, model })?;
                self.execute(model, &action)
            }
            _ => refuse(format!(
                "discard a card or a soulstone so that {} is not killed, or decline",
                self.model_name(model)
            )),
        }
    }

    /// Pouncing: the enemy models within `within` of the acting model that
    /// it could be placed touching; its player picks one when there are
    /// several, then where it goes.
    pub(super) fn offer_pounce(
        &mut self,
        action: &ActionInProgress,
        within: u8,
    ) -> Result<(), RuleError> {
        let actor = action.actor;
        if self.state.model(actor).is_none_or(|m| !m.on_table()) {
            return Ok(());
        }
        let options: Vec<ModelId> = self
            .selected(
                &crate::ability::Selector::ModelsWithin {
                    inches: within,
                    side: crate::ability::SideFilter::Enemy,
                    keyword: None,
                },
                actor,
                None,
            )
            .into_iter()
            .filter(|enemy| !pounce_spots(&self.state, actor, *enemy).is_empty())
            .collect();
        let seat = self.decider(action)?;
        match options.as_slice() {
            [] => Ok(()),
            [only] => self.pounce_on(action, *only),
            _ => {
                self.push_check()?;
                self.emit(Event::ModelChoiceOffered {
                    seat,
                    options,
                    then: crate::ability::ModelChoice::PounceOn,
                })
            }
        }
    }

    /// The pounce on `enemy`: the action again against it is queued (or
    /// ignored, for an additional action), then the acting model's player
    /// places it touching `enemy`. A pounce is a trigger's, so the action
    /// again is one a trigger generated.
    fn pounce_on(&mut self, action: &ActionInProgress, enemy: ModelId) -> Result<(), RuleError> {
        if action.slot == crate::event::ActionSlot::Additional {
            self.emit(Event::AdditionalActionIgnored {
                model: action.actor,
                action: action.name.clone(),
            })?;
        } else {
            self.emit(Event::ActionQueued {
                queued: QueuedAction {
                    by_trigger: true,
                    ..QueuedAction::again(action, Some(enemy), None)
                },
            })?;
        }
        let seat = self.decider(action)?;
        self.push_check()?;
        self.emit(Event::PlaceOffered {
            seat,
            model: action.actor,
            inches: 0,
            touching: Some(enemy),
            rebirth: false,
        })
    }

    /// "Place this model within `inches`": its player picks the point, if
    /// it still stands on the table.
    pub(super) fn offer_place(
        &mut self,
        action: &ActionInProgress,
        model: ModelId,
        inches: u8,
    ) -> Result<(), RuleError> {
        if self.state.model(model).is_none_or(|m| !m.on_table()) {
            return Ok(());
        }
        let seat = self.decider(action)?;
        self.push_check()?;
        self.emit(Event::PlaceOffered {
            seat,
            model,
            inches,
            touching: None,
            rebirth: false,
        })
    }

    /// The player's point for a `place` frame: within range of where the
    /// model stood, half supported, clear of models and impassable terrain.
    pub(in crate::procedure) fn place_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::Place {
            seat,
            model,
            inches,
            touching,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        let PlayerCommand::Place { at } = command else {
            return refuse("choose where the model is placed first");
        };
        let from = self
            .state
            .model(model)
            .and_then(|m| m.placement)
            .ok_or(RuleError::NothingPending)?;
        let table = self.state.table();
        let board = Board::new(&table, self.state.edition);
        let placed = match touching {
            Some(other) => movement::place_touching(&board, model.object(), *at, other.object()),
            None => movement::place(&board, model.object(), *at, Some(inches.into()), false),
        }
        .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        self.emit(Event::ModelPlaced {
            model,
            from,
            to: Placement {
                at: *at,
                z: placed.end.z,
            },
            hazards: placed.hazards,
        })
    }

    /// The player's pick for a `choose_model` frame, and its effect.
    pub(in crate::procedure) fn choose_model_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::ChooseModel {
            seat,
            options,
            then,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        if *command == PlayerCommand::DeclineChoice && then.optional() {
            return self.emit(Event::ChoiceDeclined { seat });
        }
        let PlayerCommand::ChooseModel { model } = command else {
            return refuse(if then.optional() {
                "choose a model first, or decline (decline_choice)"
            } else {
                "choose a model first"
            });
        };
        if !options.contains(model) {
            return refuse(format!(
                "{} is not one of the models offered",
                self.model_name(*model)
            ));
        }
        self.emit(Event::ModelChosen {
            seat,
            model: *model,
        })?;
        match then {
            crate::ability::ModelChoice::Heal { amount } => self.heal(*model, amount),
            crate::ability::ModelChoice::PounceOn => {
                let action = self
                    .state
                    .action_in_progress()
                    .cloned()
                    .ok_or(RuleError::NothingPending)?;
                self.pounce_on(&action, *model)
            }
            crate::ability::ModelChoice::GainExplosives { from, count } => {
                self.emit(Event::ExplosivesGained {
                    model: *model,
                    count,
                    from: Some(from),
                })
            }
        }
    }

    /// The player's pick for a `choose_marker` frame, and its effect.
    pub(in crate::procedure) fn choose_marker_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::ChooseMarker {
            seat,
            options,
            then,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        if *command == PlayerCommand::DeclineChoice && then.optional() {
            return self.emit(Event::ChoiceDeclined { seat });
        }
        let PlayerCommand::ChooseMarker { marker } = command else {
            return refuse(if then.optional() {
                "choose a marker first, or decline (decline_choice)"
            } else {
                "choose a marker first"
            });
        };
        if !options.contains(marker) {
            return refuse("that marker is not one of those offered");
        }
        self.emit(Event::MarkerChosen {
            seat,
            marker: *marker,
        })?;
        match then {
            crate::ability::MarkerChoice::Neutralise => self.emit(Event::MarkerClaimed {
                marker: *marker,
                owner: None,
            }),
        }
    }

    /// The cards a Resupply-like effect draws from the discard pile.
    pub(in crate::procedure) fn draw_from_discard_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::DrawFromDiscard {
            seat,
            up_to,
            max_value,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        let PlayerCommand::DrawFromDiscard { cards } = command else {
            return refuse(format!(
                "choose up to {up_to} cards of value 1 to {max_value} from your discard pile (or none)"
            ));
        };
        if cards.len() > usize::from(up_to) {
            return refuse(format!("draw at most {up_to} cards"));
        }
        let discard = self.state.player(seat).discard.as_slice();
        for (i, card) in cards.iter().enumerate() {
            if cards[..i].contains(card) {
                return refuse(format!("{card} is named twice"));
            }
            if !discard.contains(card) {
                return refuse(format!("{card} is not in your discard pile"));
            }
            if !drawable_from_discard(*card, max_value) {
                return refuse(format!("{card} is not of value 1 to {max_value}"));
            }
        }
        self.emit(Event::DrewFromDiscard {
            seat,
            cards: cards.clone(),
        })
    }
}
