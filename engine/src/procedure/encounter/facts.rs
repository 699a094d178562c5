//! How the encounter's facts apply: its steps, declarations and hired
//! crews, schemes, initiative, passing and scores.

use super::*;
use crate::limits::MAX_SOULSTONES;
use crate::model::Model;
use crate::state::models_mut_of;

/// The encounter's facts: its steps, declarations, schemes, initiative and scores.
pub(crate) fn apply_encounter_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::DeclarationsRevealed {
            what: crate::encounter::Declaration::Crew,
            choices,
        } => {
            hire_revealed_crews(state, choices);
            apply_encounter(state, event);
        }
        Event::EncounterStepBegan {
            step: crate::encounter::Step::StartOfGame,
        } => {
            if state.fairness.contributions.iter().any(Option::is_none) {
                state.frames.push(Frame::Contributions);
            }
            apply_encounter(state, event);
        }
        Event::EncounterStepBegan { .. }
        | Event::SoulstoneDrawDecided { .. }
        | Event::ExplosivesPlaced { .. }
        | Event::ExplosivesGained { .. }
        | Event::ExplosivesLost { .. }
        | Event::Declared { .. }
        | Event::DeclarationsRevealed { .. }
        | Event::ZoneChosen { .. }
        | Event::CrewSplit { .. }
        | Event::GroupChosen { .. }
        | Event::SchemeSelected { .. }
        | Event::TurnStarted { .. }
        | Event::InitiativeSet { .. }
        | Event::ActivePlayer { .. }
        | Event::LeadershipAssumed { .. }
        | Event::Passed { .. }
        | Event::PassTokensGained { .. }
        | Event::ChainActivationOffered { .. }
        | Event::ChainActivationTaken { .. }
        | Event::ChainActivationDeclined { .. }
        | Event::StrategyScored { .. }
        | Event::SchemeRevealed { .. }
        | Event::SchemeScored { .. }
        | Event::SchemeAbandoned { .. }
        | Event::VpClaimed { .. }
        | Event::ClaimConfirmed { .. }
        | Event::ClaimDisputed { .. } => apply_encounter(state, event),
        // The log says a crew kept its scheme; the next step follows as a
        // fact of its own. The initiative flip's cards went to the discard
        // piles by the facts before it.
        Event::SchemeKept { .. } => {}
        // Log facts: the marker itself is made by a fact of its own.
        Event::IdolPlaceFlipped { .. } | Event::IdolNotDropped => {}
        Event::InitiativeFlipped { cards, .. } => {
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                encounter.initiative_flips = encounter.initiative_flips.saturating_add(1);
                encounter.initiative_cards = Some(*cards);
            }
        }
        Event::DiscardedBeforeDrawing { seat, cards } => {
            let player = state.player_mut(*seat);
            for card in cards {
                if player.hand.remove(*card) {
                    player.discard.push(*card);
                }
            }
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                encounter.done[seat.index()] = true;
            }
        }
        Event::ModelDeployed { model, at } => {
            if let Some(m) = state.model_mut(*model) {
                m.placement = Some(*at);
            }
        }
        Event::MessageDelivered { model, target } => {
            let seat = state.model(*model).map(|m| m.owner);
            if let (Some(seat), Some(encounter)) =
                (seat, state.encounter.as_mut().map(Arc::make_mut))
            {
                let turn = encounter.turn;
                encounter
                    .messages_delivered
                    .push(crate::encounter::DeliveredMessage {
                        seat,
                        target: *target,
                        turn,
                    });
            }
        }
        _ => {}
    }
}

/// The crews both players chose come into the game: their models (player
/// A's first, ids following the models already there), their soulstones,
/// and their leaders.
fn hire_revealed_crews(state: &mut GameState, choices: &[String; 2]) {
    let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) else {
        return;
    };
    let setup = Arc::clone(&encounter.setup);
    // The encounter, players and summonable lists are borrowed beside the
    // models: `models_mut` would borrow the whole state.
    let models = models_mut_of(&mut state.models, &mut state.table_cache);
    for seat in Seat::BOTH {
        let Some(offer) = setup
            .offers(seat)
            .iter()
            .find(|o| o.name == choices[seat.index()])
        else {
            continue;
        };
        for (i, card) in offer.models.iter().enumerate() {
            let id = ModelId(u16::try_from(models.len() + 1).unwrap_or(u16::MAX));
            if i == 0 {
                encounter.leaders[seat.index()] = Some(id);
            }
            let mut model = Model::new(id, seat, Arc::clone(card));
            model.upgrades = offer
                .upgrades
                .iter()
                .filter(|(on, _)| *on == i)
                .map(|(_, upgrade)| upgrade.clone())
                .collect();
            models.push(Arc::new(model));
        }
        let player = &mut state.players[seat.index()];
        player.soulstones = offer.soulstones.min(MAX_SOULSTONES);
        Arc::make_mut(&mut state.summonable)[seat.index()] = offer.summonable.clone();
    }
}

/// 3rd edition: `seat` claimed `vp` for its scheme `scheme` this turn
/// (0: disputed), kept with the turn.
fn scheme_scored(encounter: &mut Encounter, seat: Seat, scheme: &str, vp: u8) {
    let i = seat.index();
    encounter.scheme_vp[i] = encounter.scheme_vp[i].saturating_add(vp);
    let turn = encounter.turn;
    encounter
        .choices_mut()
        .scheme_scores
        .push(crate::encounter::SchemeScore {
            seat,
            scheme: scheme.to_string(),
            turn,
            vp,
        });
}

fn add_explosives(encounter: &mut crate::encounter::Encounter, model: ModelId, count: u8) {
    match encounter.explosives.iter_mut().find(|(m, _)| *m == model) {
        Some(entry) => entry.1 = entry.1.saturating_add(count),
        None => encounter.explosives.push((model, count)),
    }
}

/// The encounter's own facts.
fn apply_encounter(state: &mut GameState, event: &Event) {
    let rules = &state.edition.rules().encounter;
    let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) else {
        return;
    };
    let mut gained: Option<(Seat, u8)> = None;
    match event {
        Event::EncounterStepBegan { step } => {
            encounter.step = *step;
            encounter.done = [false; 2];
        }
        Event::SoulstoneDrawDecided { seat, .. } => encounter.done[seat.index()] = true,
        Event::ExplosivesPlaced { seat, model } => {
            let placed = &mut encounter.explosives_placed[seat.index()];
            *placed = placed.saturating_add(1);
            add_explosives(encounter, *model, 1);
        }
        Event::ExplosivesGained { model, count, .. } => add_explosives(encounter, *model, *count),
        Event::ExplosivesLost { model, count } => {
            if let Some(entry) = encounter.explosives.iter_mut().find(|(m, _)| m == model) {
                entry.1 = entry.1.saturating_sub(*count);
            }
            encounter.explosives.retain(|(_, n)| *n > 0);
        }
        Event::ZoneChosen { zone, .. } => encounter.attacker_zone = Some(*zone),
        Event::Declared { seat, choice, .. } => {
            encounter.choices_mut().declared[seat.index()] = Some(choice.clone());
        }
        Event::DeclarationsRevealed { what, choices } => {
            use crate::encounter::Declaration;
            encounter.choices_mut().declared = [None, None];
            let revealed = Some(choices.clone());
            match what {
                Declaration::Faction => encounter.choices_mut().factions = revealed,
                Declaration::Leader => encounter.choices_mut().leader_names = revealed,
                Declaration::Crew => encounter.choices_mut().crews = revealed,
            }
        }
        Event::CrewSplit { groups, .. } => encounter.choices_mut().groups = Some(groups.clone()),
        Event::GroupChosen { group } => encounter.choices_mut().first_group = Some(*group),
        Event::SchemeSelected { seat, scheme } => {
            let choices = encounter.choices_mut();
            let i = seat.index();
            choices.schemes[i].push(scheme.clone());
            choices.selected_after[i] = choices.select_from[i].clone();
            encounter.done[i] = choices.schemes[i].len() >= rules.schemes.held();
        }
        Event::TurnStarted { turn } => {
            encounter.turn = *turn;
            encounter.activated.clear();
            encounter.last_passed = false;
            encounter.transfer_due = false;
            // Models in a row are counted within a turn: a chain that ended
            // the last turn does not carry into this one.
            encounter.in_a_row = 0;
            encounter.kills_this_turn = [0; 2];
            encounter.killed_this_turn.clear();
            encounter.initiative_flips = 0;
            encounter.initiative_cards = None;
            // Start phase D-1: once-per-turn effects may be used again.
            encounter
                .once_used
                .retain(|(_, _, per)| *per == crate::model::OncePer::Game);
            encounter
                .abilities_used
                .retain(|(_, _, per)| *per == crate::model::OncePer::Game);
            encounter.choices_mut().select_from = [None, None];
        }
        Event::InitiativeSet { seat, .. } => {
            encounter.initiative = *seat;
            encounter.active = *seat;
            // 3rd edition: pass tokens are all discarded once initiative
            // is settled.
            encounter.pass_tokens = [0, 0];
        }
        Event::PassTokensGained { seat, count } => {
            let tokens = &mut encounter.pass_tokens[seat.index()];
            *tokens = tokens.saturating_add(*count);
        }
        Event::ActivePlayer { seat } => {
            encounter.active = *seat;
            encounter.transfer_due = false;
            encounter.in_a_row = 0;
        }
        Event::ChainActivationOffered { seat, models } => {
            encounter.chain_offer = Some(crate::encounter::ChainOffer {
                seat: *seat,
                models: models.clone(),
            });
        }
        // The chained model activates before any hand-over.
        Event::ChainActivationTaken { .. } => {
            encounter.chain_offer = None;
            encounter.transfer_due = false;
        }
        Event::ChainActivationDeclined { .. } => encounter.chain_offer = None,
        Event::LeadershipAssumed {
            seat,
            model: Some(model),
        } => encounter.assumed_leadership[seat.index()] = Some(*model),
        Event::Passed { seat, with_token } => {
            encounter.last_passed = true;
            encounter.transfer_due = true;
            if *with_token {
                let tokens = &mut encounter.pass_tokens[seat.index()];
                *tokens = tokens.saturating_sub(1);
            }
        }
        _ => gained = apply_scoring_facts(encounter, rules, event),
    }
    if matches!(event, Event::EncounterStepBegan { step: Step::Over }) {
        encounter.activation = Default::default();
    }
    if let Some((seat, amount)) = gained {
        let player = state.player_mut(seat);
        player.victory_points = player
            .victory_points
            .saturating_add(amount)
            .min(crate::limits::MAX_VICTORY_POINTS);
    }
}
/// Scores and claims: the VP the fact gives a crew, if any.
fn apply_scoring_facts(
    encounter: &mut Encounter,
    rules: &EncounterRules,
    event: &Event,
) -> Option<(Seat, u8)> {
    use crate::rules::SchemeRule;
    let mut gained = None;
    match event {
        Event::StrategyScored { seat, amount } => {
            let vp = &mut encounter.strategy_vp[seat.index()];
            *vp = vp.saturating_add(*amount);
            gained = Some((*seat, *amount));
        }
        Event::SchemeRevealed {
            seat,
            scheme,
            amount,
        } => {
            let i = seat.index();
            let choices = encounter.choices_mut();
            choices.revealed[i].push(scheme.name.clone());
            match rules.schemes {
                SchemeRule::OneHeld => {
                    choices.schemes[i].clear();
                    choices.select_from[i] = Some(scheme.name.clone());
                    encounter.scheme_vp[i] = encounter.scheme_vp[i].saturating_add(*amount);
                }
                SchemeRule::TwoFromThePool => {
                    if scheme.target.is_some() {
                        choices.revealed_choices.push((*seat, scheme.clone()));
                    }
                    // The other scheme stays secret.
                    choices.schemes[i].retain(|held| {
                        held.value
                            .as_ref()
                            .is_none_or(|h| !h.name.eq_ignore_ascii_case(&scheme.name))
                    });
                    scheme_scored(encounter, *seat, &scheme.name, *amount);
                }
            }
            gained = Some((*seat, *amount));
        }
        Event::SchemeScored {
            seat,
            scheme,
            amount,
        } => {
            scheme_scored(encounter, *seat, scheme, *amount);
            gained = Some((*seat, *amount));
        }
        Event::SchemeAbandoned { seat, scheme } => {
            let i = seat.index();
            encounter.choices_mut().schemes[i].clear();
            encounter.choices_mut().select_from[i] = Some(scheme.name.clone());
        }
        Event::VpClaimed {
            seat,
            objective,
            vp,
        } => {
            // A claim of nothing asks nobody.
            encounter.choices_mut().claim = (*vp > 0).then(|| crate::encounter::Claim {
                seat: *seat,
                objective: objective.clone(),
                vp: *vp,
            });
        }
        Event::ClaimConfirmed { .. } => encounter.choices_mut().claim = None,
        Event::ClaimDisputed { seat } => {
            let turn = encounter.turn;
            let choices = encounter.choices_mut();
            if let Some(claim) = choices.claim.take() {
                choices.disputed.push(crate::encounter::DisputedClaim {
                    turn,
                    seat: *seat,
                    objective: claim.objective.name().to_string(),
                    vp: claim.vp,
                });
            }
        }
        _ => {}
    }
    gained
}
