//! How facts change the state: `apply`, the only way it changes. Each
//! procedure applies its own facts (`procedure::apply_*_facts`); the facts
//! about cards, models and markers every procedure shares are applied here.

use super::*;

/// Applies one event (see the module documentation of `engine`).
pub fn apply(state: &mut GameState, event: &Event) {
    state.version += 1;
    match event {
        Event::Contributed { .. }
        | Event::DeckShuffled { .. }
        | Event::Drew { .. }
        | Event::SoulstoneSpent { .. }
        | Event::SoulstoneInfused { .. }
        | Event::SeedRevealed { .. }
        | Event::GameEnded
        | Event::ContributionsComplete
        | Event::VictoryPointsGained { .. }
        | Event::EndPhaseStarted { .. } => apply_game_facts(state, event),
        Event::TokenGained { .. }
        | Event::TokenRemoved { .. }
        | Event::HealthChanged { .. }
        | Event::ModelKilled { .. }
        | Event::ModelRemoved { .. }
        | Event::ModelMoved { .. }
        | Event::UpgradeAttached { .. }
        | Event::UpgradeNotAttached { .. }
        | Event::ModelFell { .. }
        | Event::ModelPushed { .. }
        | Event::HazardSuffered { .. } => apply_model_facts(state, event),
        Event::DuelStarted { .. }
        | Event::Relented { .. }
        | Event::RelentDeclined { .. }
        | Event::ModifierAdded { .. }
        | Event::SuitAdded { .. }
        | Event::Empowered { .. }
        | Event::TokenUsed { .. }
        | Event::TopCardSeen { .. }
        | Event::TopCardKept { .. }
        | Event::TopCardDiscarded { .. }
        | Event::FinishedModifying { .. }
        | Event::CheatSkipped { .. }
        | Event::Cheated { .. }
        | Event::CheatDeclined { .. }
        | Event::JokerSuitChosen { .. }
        | Event::TotalsAnnounced { .. }
        | Event::TriggerDeclared { .. }
        | Event::TriggerDeclined { .. }
        | Event::RaiseValueChanged { .. }
        | Event::DuelResolved { .. }
        | Event::ConflictCleared { .. }
        | Event::DuelEnded
        | Event::DuelFlipped => procedure::apply_duel_facts(state, event),
        Event::DamageBlocked { .. }
        | Event::DamageReductionFlip { .. }
        | Event::ReductionUsed { .. }
        | Event::ReductionDeclined { .. }
        | Event::DamageReduced { .. }
        | Event::ReductionsApplied { .. }
        | Event::DamageQueued { .. }
        | Event::DamageResolving { .. }
        | Event::DamageFizzled { .. }
        | Event::BlockDeclined { .. }
        | Event::DamageDealt { .. }
        | Event::DamageFlipStarted { .. }
        | Event::DamageFlipEnded { .. } => procedure::apply_damage_facts(state, event),
        Event::RemainsDropped { .. }
        | Event::MarkerMade { .. }
        | Event::MarkerRemoved { .. }
        | Event::TerrainRemoved { .. }
        | Event::MarkerClaimed { .. } => apply_marker_facts(state, event),
        Event::Revealed { .. } | Event::CardChosen { .. } | Event::RevealedDiscarded { .. } => {
            procedure::apply_flip_facts(state, event)
        }
        Event::HandOverLimit { .. } | Event::DiscardRequired { .. } | Event::Discarded { .. } => {
            procedure::apply_hand_limit_facts(state, event)
        }
        Event::ActivationStarted { .. } | Event::ActivationEnded { .. } => {
            procedure::apply_activation_facts(state, event)
        }
        Event::EncounterStepBegan { .. }
        | Event::ZoneChosen { .. }
        | Event::Declared { .. }
        | Event::DeclarationsRevealed { .. }
        | Event::CrewSplit { .. }
        | Event::GroupChosen { .. }
        | Event::ModelDeployed { .. }
        | Event::SchemeSelected { .. }
        | Event::TurnStarted { .. }
        | Event::InitiativeSet { .. }
        | Event::DiscardedBeforeDrawing { .. }
        | Event::ActivePlayer { .. }
        | Event::LeadershipAssumed { .. }
        | Event::Passed { .. }
        | Event::InitiativeFlipped { .. }
        | Event::IdolPlaceFlipped { .. }
        | Event::IdolNotDropped
        | Event::PassTokensGained { .. }
        | Event::ChainActivationOffered { .. }
        | Event::ChainActivationTaken { .. }
        | Event::ChainActivationDeclined { .. }
        | Event::SoulstoneDrawDecided { .. }
        | Event::ExplosivesPlaced { .. }
        | Event::ExplosivesGained { .. }
        | Event::ExplosivesLost { .. }
        | Event::MessageDelivered { .. }
        | Event::StrategyScored { .. }
        | Event::SchemeRevealed { .. }
        | Event::SchemeScored { .. }
        | Event::SchemeAbandoned { .. }
        | Event::SchemeKept { .. }
        | Event::VpClaimed { .. }
        | Event::ClaimConfirmed { .. }
        | Event::ClaimDisputed { .. } => procedure::apply_encounter_facts(state, event),
        Event::AbilityUsed { .. }
        | Event::ResistStatChanged { .. }
        | Event::AbilitiesWaiting { .. } => procedure::apply_ability_facts(state, event),
        Event::ActionDeclared { .. }
        | Event::ActionEffectsResolved { .. }
        | Event::ActionEnded { .. }
        | Event::ActionQueued { .. }
        | Event::AdditionalActionIgnored { .. }
        | Event::QueuedActionDropped { .. }
        | Event::GeneratedActionNamed { .. }
        | Event::ActionSucceededWithoutDuel { .. }
        | Event::ActionFailedOutOfRange { .. }
        | Event::ControlRefused { .. } => procedure::apply_action_facts(state, event),
        Event::ModelChoiceOffered { .. }
        | Event::ModelChosen { .. }
        | Event::MarkerChoiceOffered { .. }
        | Event::MarkerChosen { .. }
        | Event::ChoiceDeclined { .. }
        | Event::PlaceOffered { .. }
        | Event::ModelPlaced { .. }
        | Event::BlastsOffered { .. }
        | Event::KillPaymentOffered { .. }
        | Event::KillPaidOff { .. }
        | Event::KillPaymentDeclined { .. }
        | Event::DrawFromDiscardOffered { .. }
        | Event::DrewFromDiscard { .. }
        | Event::MoveOffered { .. }
        | Event::BlastDropped { .. }
        | Event::BlastsLanded { .. }
        | Event::EitherOffered { .. }
        | Event::EitherChosen { .. } => procedure::apply_choice_facts(state, event),
        Event::DisengageStarted { .. }
        | Event::DisengageStrike { .. }
        | Event::DisengageStruck { .. }
        | Event::DisengageFlipStarted { .. }
        | Event::DisengageFlipEnded { .. }
        | Event::DisengagePushOffered { .. } => procedure::apply_disengage_facts(state, event),
        Event::AssistFlipStarted { .. } | Event::AssistFlipEnded { .. } => {
            procedure::apply_assist_facts(state, event)
        }
        Event::ReplaceOffered { .. }
        | Event::ModelReplaced { .. }
        | Event::SummonOffered { .. }
        | Event::ModelSummoned { .. }
        | Event::SummonNotPlaced { .. }
        | Event::ModelExecuted { .. } => procedure::apply_summon_facts(state, event),
    }
}

/// The game's own facts: fairness, the decks, soulstones, victory points and
/// its end.
fn apply_game_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::Contributed { seat, entropy } => {
            state.fairness.contributions[seat.index()] = Some(*entropy);
        }
        Event::DeckShuffled {
            seat,
            number,
            with_deck,
            ..
        } => {
            let contributions = state.fairness.contributions_or_zero();
            let seed = state.fairness.seed;
            let player = state.player_mut(*seat);
            let mut cards = player.discard.take_all();
            if *with_deck {
                cards.extend(player.deck.take_all());
            }
            let shuffled = fairness::shuffle_cards(&seed, *seat, *number, &contributions, &cards);
            let player = state.player_mut(*seat);
            player.deck = Pile::from_top_down(&shuffled);
            state.fairness.shuffles[seat.index()] = *number;
        }
        Event::Drew { seat, .. } => {
            let player = state.player_mut(*seat);
            if let Some(card) = player.deck.pop() {
                player.hand.push(card);
            }
        }
        Event::SoulstoneSpent { seat, role, .. } => {
            let player = state.player_mut(*seat);
            player.soulstones = player.soulstones.saturating_sub(1);
            if let Some(side) = state.side_mut(*role) {
                side.soulstone_spent = true;
            }
        }
        Event::SoulstoneInfused { seat } => {
            let player = state.player_mut(*seat);
            player.soulstones = (player.soulstones + 1).min(MAX_SOULSTONES);
        }
        Event::EndPhaseStarted { .. } => {}
        Event::VictoryPointsGained { seat, amount, .. } => {
            let player = state.player_mut(*seat);
            player.victory_points = player
                .victory_points
                .saturating_add(*amount)
                .min(crate::limits::MAX_VICTORY_POINTS);
        }
        Event::SeedRevealed { .. } => {
            state.fairness.revealed = true;
        }
        Event::GameEnded => {
            state.frames.clear();
            state.ended = true;
        }
        Event::ContributionsComplete => {
            state.pop_frame(|f| matches!(f, Frame::Contributions));
        }
        _ => {}
    }
}

/// The models' facts every procedure shares: tokens, health, kills, moves,
/// pushes, falls, hazards and upgrades.
fn apply_model_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::TokenGained {
            model,
            token,
            value,
            from,
        } => {
            if let Some(m) = state.model_mut(*model) {
                let current = m.tokens.value(*token);
                m.tokens.set(*token, current.saturating_add(*value));
                m.token_from.retain(|(t, _)| t != token);
                if let Some(seat) = from {
                    m.token_from.push((*token, *seat));
                }
            }
        }
        Event::TokenRemoved { model, token, by } => {
            if let Some(m) = state.model_mut(*model) {
                let current = m.tokens.value(*token);
                m.tokens.set(*token, current.saturating_sub(*by));
                if !m.tokens.has(*token) {
                    m.token_from.retain(|(t, _)| t != token);
                }
            }
        }
        Event::HealthChanged { model, to, .. } => {
            if let Some(m) = state.model_mut(*model) {
                m.health = *to;
            }
        }
        Event::ModelMoved {
            model,
            to,
            charge,
            left_engagement,
            ..
        } => {
            state.pop_frame(|f| matches!(f, Frame::Move { .. }));
            if let Some(m) = state.model_mut(*model) {
                m.placement = Some(*to);
            }
            // What the move uses of an activation is the acting model's
            // (a model moved under control is not acting).
            let acting = state
                .frames
                .iter()
                .any(|f| matches!(f, Frame::Activation { model: m, .. } if m == model));
            if acting && let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                let used = &mut encounter.activation;
                if *charge {
                    used.charged = true;
                    used.free_melee = true;
                }
                used.left_engagement |= *left_engagement;
            }
        }
        Event::UpgradeAttached { model, upgrade } => {
            let face = state
                .upgrade_cards
                .iter()
                .find_map(|card| card.face(upgrade))
                .cloned();
            if let (Some(face), Some(m)) = (face, state.model_mut(*model)) {
                m.upgrades.push(upgrade.clone());
                Arc::make_mut(&mut m.card).gain_upgrade(face);
            }
        }
        Event::UpgradeNotAttached { .. } => {}
        Event::ModelFell { model, to, .. } => {
            if let Some(m) = state.model_mut(*model) {
                m.placement = Some(*to);
            }
        }
        Event::ModelPushed {
            model, to, hazards, ..
        } => moved_by_effect(state, *model, *to, hazards),
        Event::HazardSuffered { model, terrain } => {
            let activation = state
                .frames
                .innermost_mut(|f| matches!(f, Frame::Activation { .. }))
                .and_then(|f| match f {
                    Frame::Activation { hazards, .. } => Some(hazards),
                    _ => None,
                });
            if let Some(hazards) = activation {
                hazards.push((*model, terrain.clone()));
            }
        }
        _ => apply_leaving_play_facts(state, event),
    }
}
/// A model killed or removed: it leaves play, with what its death leaves
/// behind.
fn apply_leaving_play_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::ModelKilled {
            model,
            credit,
            crew,
        } => {
            let victim = state.model(*model).map(|m| m.owner);
            // Strategies and schemes ignore the kill of a model they do not
            // count (a peon, an Insignificant model): no crew gets it there.
            let killer = state.killer_crew(*credit, *crew).filter(|_| {
                state
                    .model(*model)
                    .is_some_and(|m| m.card.counts_for_objectives())
            });
            // 3rd edition: the killer's scheme markers within 1" of the
            // model killed (Dig Their Graves).
            let body = state.model(*model).and_then(|m| m.body());
            let by_markers: Vec<ObjectId> = match (killer, body) {
                (Some(killer), Some(body))
                    if state
                        .edition
                        .rules()
                        .actions
                        .tracks_activation_damage_and_kill_markers
                        && victim != Some(killer) =>
                {
                    state
                        .markers
                        .iter()
                        .filter(|k| k.kind == MarkerKind::Scheme && k.owner == Some(killer))
                        .filter(|k| {
                            k.at.v2().dist(body.center) - k.base.radius() - body.radius
                                <= 1.0 + 1e-9
                        })
                        .map(|k| k.id)
                        .collect()
                }
                _ => Vec::new(),
            };
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                encounter.killed_this_turn.push(*model);
                let turn = encounter.turn;
                if victim.is_some() && victim == killer {
                    encounter
                        .own_crew_kills
                        .push(crate::encounter::OwnCrewKill {
                            model: *model,
                            turn,
                        });
                }
                if let (Some(seat), false) = (killer, by_markers.is_empty()) {
                    encounter
                        .kills_by_scheme_markers
                        .push(crate::encounter::KillBySchemeMarkers {
                            seat,
                            turn,
                            markers: by_markers,
                        });
                }
            }
            if let (Some(victim), Some(killer), Some(encounter)) =
                (victim, killer, state.encounter.as_mut().map(Arc::make_mut))
                && victim != killer
            {
                let kills = &mut encounter.kills_this_turn[killer.index()];
                *kills = kills.saturating_add(1);
            }
            leave_play(state, *model, ModelStatus::Killed)
        }
        Event::ModelRemoved { model } => leave_play(state, *model, ModelStatus::Removed),
        _ => {}
    }
}

/// Markers and terrain: made, claimed, removed.
fn apply_marker_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::RemainsDropped { model, owner } => {
            let spot = state.model(*model).and_then(|m| m.placement);
            let types = Arc::clone(&state.marker_types);
            if let (Some(spot), Some(def)) = (spot, types.of_kind(MarkerKind::Remains)) {
                state.place_marker(def, *owner, spot);
            }
        }
        Event::MarkerMade { marker, owner, at } => {
            let types = Arc::clone(&state.marker_types);
            if let Some(def) = types.named(marker) {
                state.place_marker(def, *owner, *at);
            }
        }
        Event::MarkerRemoved { id } => {
            state.markers_mut().retain(|m| m.id != *id);
        }
        Event::TerrainRemoved { id } => {
            // The table built from the terrain goes first; the terrain is
            // shared between copies of the state, so this state gets its
            // own, without the piece.
            state.table_cache = TableCache::default();
            Arc::make_mut(&mut state.terrain)
                .pieces_mut()
                .retain(|t| t.id != *id);
        }
        Event::MarkerClaimed { marker, owner } => {
            if let Some(m) = state.markers_mut().iter_mut().find(|m| m.id == *marker) {
                m.owner = *owner;
            }
        }
        _ => {}
    }
}

/// An action's after-succeeding effect waits on a player (`frame`): the
/// action ends once it is answered, without resolving its effects again.
pub(crate) fn wait_in_action(state: &mut GameState, frame: Frame) {
    if let Some(action) = innermost_action(state) {
        action.effects_resolved = true;
    }
    state.frames.push(frame);
}

/// The innermost action in progress (below any duel or damage inside it).
pub(crate) fn innermost_action(state: &mut GameState) -> Option<&mut ActionInProgress> {
    match state
        .frames
        .innermost_mut(|f| matches!(f, Frame::Action { .. }))?
    {
        Frame::Action { action } => Some(&mut **action),
        _ => None,
    }
}

/// The model leaves play: it is off the table from now on.
fn leave_play(state: &mut GameState, model: ModelId, status: ModelStatus) {
    if let Some(m) = state.model_mut(model) {
        m.status = status;
        m.placement = None;
    }
}

/// A model an effect moved (a push, a place) stands at `to`; the hazardous
/// terrain it went through is suffered once the action has resolved.
pub(crate) fn moved_by_effect(
    state: &mut GameState,
    model: ModelId,
    to: Placement,
    hazards: &[String],
) {
    if let Some(m) = state.model_mut(model) {
        m.placement = Some(to);
    }
    if let Some(action) = innermost_action(state) {
        action
            .pushed_through
            .extend(hazards.iter().map(|name| (model, name.clone())));
    }
}
