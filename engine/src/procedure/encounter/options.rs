//! The encounter's options: every command a player might send at this
//! step, for `pending` to ask `decide` about.

use super::*;
use crate::action::attack_on_friend_refused;
use crate::pending::{Choice, legal, queued_general_choices};
use crate::table::measure::within_card_range;

/// The encounter's choices with parameters (a point, a path, a subset).
pub(crate) fn encounter_choices(state: &GameState, seat: Seat, probe: bool) -> Vec<Choice> {
    if !state.action_queue.is_empty() {
        let between_actions = matches!(state.frame(), None | Some(Frame::Activation { .. }))
            && state.damage_queue.is_empty();
        return if between_actions {
            queued_general_choices(state, seat, probe)
        } else {
            Vec::new()
        };
    }
    let Some(encounter) = state.encounter.as_deref() else {
        return Vec::new();
    };
    let idle = state.frame().is_none() && state.damage_queue.is_empty();
    let mut choices = Vec::new();
    match encounter.step {
        Step::SplitCrew
            if idle
                && seat
                    == state
                        .edition
                        .rules()
                        .encounter
                        .splitting_seat(encounter.setup.attacker) =>
        {
            choices.push(Choice::SplitCrew {
                models: state
                    .models
                    .iter()
                    .filter(|m| m.owner == seat && m.in_play())
                    .map(|m| m.id)
                    .collect(),
            });
        }
        Step::StartDiscard if idle && !encounter.done[seat.index()] => {
            choices.push(Choice::DiscardAny {
                from: state.player(seat).hand.as_slice().to_vec(),
            });
        }
        Step::Deploy { seat: deploying } if idle && deploying == seat => {
            let models = crate::procedure::deployable(state, seat);
            if !models.is_empty() {
                choices.push(Choice::Deploy {
                    models,
                    deployment: encounter.setup.deployment,
                    side: encounter.layout_side(seat),
                });
            }
        }
        Step::Activations => {
            let Some(Frame::Activation { model, .. }) = state.frame() else {
                return choices;
            };
            let Some(m) = state.model(*model).filter(|m| m.owner == seat) else {
                return choices;
            };
            let Some(here) = m.placement else {
                return choices;
            };
            let stay = Waypoint {
                x: here.at.x,
                y: here.at.y,
                z: here.z,
            };
            let used = encounter.activation;
            let speed = state.tokens.speed_of(m);
            let slot_left = used.actions < crate::procedure::action_limit(state, m.id);
            if !probe {
                if slot_left {
                    choices.push(Choice::Walk {
                        model: m.id,
                        inches: speed,
                    });
                    if !used.charged {
                        choices.push(Choice::Charge {
                            model: m.id,
                            inches: speed,
                        });
                    }
                    if !m.card.peon && !used.interact_barred(state.edition) {
                        choices.push(Choice::MakeSchemeMarker { model: m.id });
                        if encounter.explosives_on(m.id) > 0 {
                            choices.push(Choice::PlantExplosives { model: m.id });
                        }
                    }
                }
                return choices;
            }
            // Moving nowhere is legal whenever a move is: the probe.
            if legal(
                state,
                seat,
                &PlayerCommand::Walk {
                    path: vec![stay],
                    land_at: None,
                },
            ) {
                choices.push(Choice::Walk {
                    model: m.id,
                    inches: speed,
                });
            }
            if legal(
                state,
                seat,
                &PlayerCommand::Charge {
                    to: stay,
                    land_at: None,
                },
            ) {
                choices.push(Choice::Charge {
                    model: m.id,
                    inches: speed,
                });
            }
            choices.extend(scheme_marker_choice(state, seat, m));
            choices.extend(explosives_choice(state, seat, m));
        }
        _ => {}
    }
    choices
}

/// Planting explosives, if `seat` could with `m` at one of four points
/// beside it (`decide` tells).
pub(crate) fn explosives_choice(
    state: &GameState,
    seat: Seat,
    m: &crate::model::Model,
) -> Option<Choice> {
    explosives_beside(state, seat, m).map(|_| Choice::PlantExplosives { model: m.id })
}

/// The first of four points beside `m` where `seat` may plant explosives
/// with it, as a command.
pub(crate) fn explosives_beside(
    state: &GameState,
    seat: Seat,
    m: &crate::model::Model,
) -> Option<PlayerCommand> {
    if state
        .encounter
        .as_deref()
        .is_none_or(|e| e.explosives_on(m.id) == 0)
    {
        return None;
    }
    first_legal_beside(state, seat, m, MarkerKind::Strategy, |at| {
        Interaction::PlantExplosives { at }
    })
}

/// The first Interact `interaction` at one of the points beside `m` that
/// `seat` may send.
fn first_legal_beside(
    state: &GameState,
    seat: Seat,
    m: &crate::model::Model,
    kind: MarkerKind,
    interaction: impl Fn(Point) -> Interaction,
) -> Option<PlayerCommand> {
    marker_points_beside(state, m)
        // The spacing rule, checked cheaply before the whole command.
        .filter(|at| crate::procedure::marker_spot_crowded(state, seat, kind, *at).is_none())
        .map(|at| PlayerCommand::Interact {
            with: interaction(at),
        })
        .find(|command| legal(state, seat, command))
}

/// Four points beside `m` (right, up, left, down) where a marker dropped
/// by its general action would be (strategy and scheme markers share a
/// base size).
fn marker_points_beside(state: &GameState, m: &crate::model::Model) -> impl Iterator<Item = Point> {
    let here = m.placement.map(|p| p.at);
    let reach = crate::procedure::scheme_marker_offset(state, m.card.base.radius(), 0.6);
    [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)]
        .into_iter()
        .filter_map(move |(dx, dy)| {
            let here = here?;
            Some(Point {
                x: here.x + crate::table::milli(dx * reach),
                y: here.y + crate::table::milli(dy * reach),
            })
        })
}

/// Making a scheme marker, if `seat` could make one with `m` at one of
/// four points beside it (`decide` tells).
pub(crate) fn scheme_marker_choice(
    state: &GameState,
    seat: Seat,
    m: &crate::model::Model,
) -> Option<Choice> {
    scheme_marker_beside(state, seat, m).map(|_| Choice::MakeSchemeMarker { model: m.id })
}

/// The first of four points beside `m` where `seat` may make a scheme
/// marker with it, as a command.
pub(crate) fn scheme_marker_beside(
    state: &GameState,
    seat: Seat,
    m: &crate::model::Model,
) -> Option<PlayerCommand> {
    let replacing = crate::encounter::scheme_marker_to_replace(state, seat);
    first_legal_beside(state, seat, m, MarkerKind::Scheme, |at| {
        Interaction::MakeSchemeMarker { at, replacing }
    })
}

/// The encounter's finite commands worth asking `decide` about.
pub(crate) fn encounter_candidates(
    state: &GameState,
    seat: Seat,
    commands: &mut Vec<PlayerCommand>,
) {
    let Some(encounter) = state.encounter.as_deref() else {
        return;
    };
    match encounter.step {
        Step::ChooseZone if seat != encounter.setup.attacker => {}
        Step::ChooseGroup
            if seat
                == state
                    .edition
                    .rules()
                    .encounter
                    .splitting_seat(encounter.setup.attacker) => {}
        Step::GiveInitiative { chooser }
        | Step::AssumeLeadership { seat: chooser }
        | Step::RevealScheme { seat: chooser }
        | Step::RevealAfterActivation { seat: chooser }
        | Step::AbandonScheme { seat: chooser }
        | Step::RemoveStrategyMarker { seat: chooser }
        | Step::ClaimStrategy { seat: chooser }
        | Step::AnswerClaim { seat: chooser }
        | Step::SoulstoneDraw { seat: chooser }
        | Step::InitiativeCheat { seat: chooser, .. }
        | Step::DropIdol { seat: chooser, .. }
            if seat != chooser => {}
        Step::InitiativeCheat { .. } => {
            commands.extend(
                state
                    .player(seat)
                    .hand
                    .as_slice()
                    .iter()
                    .map(|card| PlayerCommand::Cheat { card: *card }),
            );
            commands.push(PlayerCommand::DeclineCheat);
        }
        Step::ChooseSchemes | Step::SelectSchemes if encounter.done[seat.index()] => {}
        Step::Declare { .. } if encounter.choices.declared[seat.index()].is_some() => {}
        Step::Declare { what } => commands.extend(
            encounter
                .declarable(seat, what)
                .into_iter()
                .map(|choice| PlayerCommand::Declare { what, choice }),
        ),
        // Between activations only the active player acts, or the crew a
        // chain activation is offered to.
        Step::Activations
            if state.frame().is_none()
                && encounter.chain_offer.is_none()
                && (seat != encounter.active || encounter.transfer_due) => {}
        Step::SoulstoneDraw { .. } if !encounter.done[seat.index()] => commands.extend([
            PlayerCommand::DrawWithSoulstone,
            PlayerCommand::DeclineSoulstoneDraw,
        ]),
        Step::ChooseZone => commands.extend(
            [crate::encounter::Zone::Lower, crate::encounter::Zone::Upper]
                .map(|zone| PlayerCommand::ChooseZone { zone }),
        ),
        Step::ChooseGroup => {
            commands.extend([0, 1].map(|group| PlayerCommand::ChooseGroup { group }))
        }
        Step::ChooseSchemes | Step::SelectSchemes => {
            scheme_candidates(state, encounter, seat, commands)
        }
        Step::GiveInitiative { .. } => {
            commands.extend(Seat::BOTH.map(|to| PlayerCommand::GiveInitiative { to }))
        }
        Step::PlaceExplosives { seat: placing } if placing == seat => commands.extend(
            crate::procedure::explosives_placeable(state, seat)
                .into_iter()
                .map(|model| PlayerCommand::PlaceExplosives { model }),
        ),
        Step::Activations => activation_candidates(state, encounter, seat, commands),
        Step::RevealScheme { .. }
            if state.edition.rules().encounter.schemes
                == crate::rules::SchemeRule::TwoFromThePool =>
        {
            for name in crate::procedure::claimable_schemes(state, seat) {
                // Where several sets of scheme markers would score it, the
                // player picks the ones to remove.
                let mut sets = crate::procedure::scheme_marker_sets(state, seat, &name);
                if sets.is_empty() {
                    sets.push(Vec::new());
                }
                commands.extend(sets.into_iter().map(|markers| PlayerCommand::ClaimScheme {
                    vp: 1,
                    scheme: Some(name.clone()),
                    markers,
                }));
            }
            commands.push(PlayerCommand::KeepScheme);
        }
        Step::RevealScheme { .. } => commands.extend([
            PlayerCommand::RevealScheme,
            PlayerCommand::ClaimScheme {
                vp: 1,
                scheme: None,
                markers: Vec::new(),
            },
            PlayerCommand::ClaimScheme {
                vp: 2,
                scheme: None,
                markers: Vec::new(),
            },
            PlayerCommand::KeepScheme,
        ]),
        Step::ClaimStrategy { .. } => commands.extend(
            (0..=state.edition.rules().encounter.max_strategy_vp)
                .map(|vp| PlayerCommand::ClaimStrategy { vp }),
        ),
        Step::AnswerClaim { .. } => {
            commands.extend([PlayerCommand::ConfirmClaim, PlayerCommand::DisputeClaim])
        }
        Step::AssumeLeadership { .. } => {
            commands.push(PlayerCommand::DeclineLeadership);
            commands.extend(
                state
                    .models
                    .iter()
                    .filter(|m| m.owner == seat && m.card.henchman)
                    .map(|m| PlayerCommand::AssumeLeadership { model: m.id }),
            );
        }
        Step::AbandonScheme { .. } => {
            commands.extend([PlayerCommand::AbandonScheme, PlayerCommand::KeepScheme])
        }
        // A claimed scheme is revealed at the end of a turn only.
        Step::RevealAfterActivation { .. } => {
            commands.extend([PlayerCommand::RevealScheme, PlayerCommand::KeepScheme])
        }
        Step::DropIdol { suit, .. } => commands.extend(
            crate::procedure::idol_spots(state, seat, suit)
                .into_iter()
                .map(|at| PlayerCommand::DropIdol { at }),
        ),
        Step::RemoveStrategyMarker { .. } => commands.extend(
            state
                .markers
                .iter()
                .filter(|m| m.kind == MarkerKind::Strategy)
                .map(|m| PlayerCommand::RemoveStrategyMarker { marker: m.id }),
        ),
        _ => {}
    }
}

/// The schemes `seat` may choose or select now, each with every target it
/// may name.
fn scheme_candidates(
    state: &GameState,
    encounter: &Encounter,
    seat: Seat,
    commands: &mut Vec<PlayerCommand>,
) {
    let names: Vec<String> = if encounter.step == Step::ChooseSchemes {
        encounter.setup.scheme_pool.clone()
    } else {
        crate::procedure::selectable(encounter, seat)
    };
    for name in names {
        let choice = encounter.setup.schemes.scheme(&name).and_then(|s| s.choice);
        if let Some(choice) = choice {
            for m in state
                .models
                .iter()
                .filter(|m| encounter.may_choose(seat, choice, m))
            {
                let select = |second: Option<crate::model::ModelId>| PlayerCommand::SelectScheme {
                    scheme: name.clone(),
                    target: Some(m.id),
                    second_target: second,
                };
                if !choice.chooses_two() {
                    commands.push(select(None));
                    continue;
                }
                for second in state
                    .models
                    .iter()
                    .filter(|s| encounter.may_choose_second(seat, choice, m, s))
                {
                    commands.push(select(Some(second.id)));
                }
            }
        } else {
            commands.push(PlayerCommand::SelectScheme {
                scheme: name,
                target: None,
                second_target: None,
            });
        }
    }
}

/// What `seat` may do in the activation phase with no step of its own:
/// the frame on top of the stack decides.
fn activation_candidates(
    state: &GameState,
    encounter: &Encounter,
    seat: Seat,
    commands: &mut Vec<PlayerCommand>,
) {
    match state.frame() {
        None if encounter.chain_offer.is_some() => {
            if let Some(offer) = encounter.chain_offer.as_ref().filter(|o| o.seat == seat) {
                commands.extend(
                    offer
                        .models
                        .iter()
                        .map(|m| PlayerCommand::ChainActivate { model: *m }),
                );
                commands.push(PlayerCommand::DeclineChainActivation);
            }
        }
        None => {
            if !crate::procedure::out_of_pass_tokens(state, encounter, seat) {
                commands.push(PlayerCommand::Pass);
            }
            commands.extend(
                state
                    .models
                    .iter()
                    .filter(|m| {
                        m.owner == seat && m.on_table() && !encounter.activated.contains(&m.id)
                    })
                    .map(|m| PlayerCommand::Activate { model: m.id }),
            );
        }
        Some(Frame::Activation { model, .. }) => {
            let Some(m) = state.model(*model).filter(|m| m.owner == seat) else {
                return;
            };
            commands.push(PlayerCommand::FinishActivation);
            let Some(me) = m.body() else {
                return;
            };
            // Only the targets and markers within reach are offered:
            // the first check `decide` makes, on the two bases alone.
            let mut targets: Vec<(ModelId, Seat, Body)> = Vec::with_capacity(state.models.len());
            targets.extend(
                state
                    .models
                    .iter()
                    .filter(|t| t.in_play())
                    .filter_map(|t| Some((t.id, t.owner, t.body()?))),
            );
            // The limit of the model's normal actions, for all of them.
            let normal = crate::procedure::normal_limits(state, m.id);
            for action in &m.card.actions {
                // Asked once per action, not per target: the limits the
                // activation checks first (slots left, once per). An
                // action they rule out is not aimed at all.
                let allowed = [false, true].map(|signature| {
                    crate::procedure::card_action_allowed(
                        state, encounter, m, action, signature, normal,
                    )
                });
                if allowed == [false, false] {
                    continue;
                }
                let in_reach = |(id, owner, body): &&(ModelId, Seat, Body)| {
                    if attack_on_friend_refused(state.edition, action, *owner == m.owner, false) {
                        return false;
                    }
                    if *id == m.id {
                        return action.may_target_itself();
                    }
                    within_card_range(state.edition, &me, body, action.range)
                };
                let mut offer = |target: Option<ModelId>| {
                    for signature in [false, true] {
                        if allowed[usize::from(signature)] {
                            commands.push(PlayerCommand::TakeAction {
                                action: action.name.clone(),
                                target,
                                signature,
                            });
                        }
                    }
                };
                if action.range == 0 {
                    offer(None);
                } else {
                    for (id, _, _) in targets.iter().filter(in_reach) {
                        offer(Some(*id));
                    }
                }
            }
            // General actions take one of the model's actions.
            if normal.is_err() {
                return;
            }
            commands.extend(crate::procedure::general_commands(state, m.id));
        }
        Some(_) => {}
    }
}
