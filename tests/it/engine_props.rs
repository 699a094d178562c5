//! Property tests of the rules engine: random games played through
//! `pending`, with random (mostly illegal) commands thrown in at every step.

use proptest::prelude::*;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::support::{shipped_content, shipped_markers, shipped_tokens, token};
use soulstone_engine::ability::Ability;
use soulstone_engine::command::{Boost, FlowCommand, PlayerCommand, Submission};
use soulstone_engine::duel::{
    ActionKind, DamageProfile, DuelSpec, Stat, TriggerEffect, TriggerSpec,
};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::fate::{Card, Suit};
use std::collections::BTreeSet;

use soulstone_engine::model::{
    ActionCard, ActionEffect, Model, ModelCard, ModelId, Placement, Reduction, Token, Tokens,
    UpgradeCard, UpgradeFace, UpgradeHolder,
};
use soulstone_engine::pending::Choice;
use soulstone_engine::pile::Pile;
use soulstone_engine::scenario::Scenario;
use soulstone_engine::state::Frame;
use soulstone_engine::state::NewGame;
use soulstone_engine::table::{BaseMm, Footprint, ObjectId, Point, Terrain, Trait, Traits, milli};
use soulstone_engine::{
    Edition, Event, GameState, RuleError, Seat, Viewer, apply, decide, execute, pending, view,
};

fn model(rng: &mut ChaCha8Rng, id: u16, owner: Seat, edition: Edition) -> Model {
    let max_health = rng.random_range(1..=8);
    let mut tokens = Tokens::default();
    // Any of the edition's tokens.
    for token in edition_tokens(edition) {
        if rng.random_bool(0.2) {
            tokens.set(token, 1);
        }
    }
    let mut reductions = Vec::new();
    if rng.random_bool(0.3) {
        reductions.push(Reduction {
            name: "Armor".into(),
            amount: 1,
            once_per_activation: false,
            optional: false,
            can_reach_zero: false,
            to_zero: false,
            soulstones: 0,
            defense: any_defense(rng),
            then_moves: 0,
        });
    }
    if rng.random_bool(0.2) {
        reductions.push(Reduction {
            name: "Hard to Kill".into(),
            amount: 0,
            once_per_activation: true,
            optional: true,
            can_reach_zero: true,
            to_zero: true,
            soulstones: 1,
            defense: any_defense(rng),
            // On a table, its player then moves the model (or not).
            then_moves: 2,
        });
    }
    let card = ModelCard {
        name: format!("Model {id}").into(),
        df: rng.random_range(2..=7),
        wp: rng.random_range(2..=7),
        sz: 2,
        base: BaseMm::SMALL,
        max_health,
        soulstone_user: edition == Edition::Third && rng.random_bool(0.6),
        infuses_on_death: rng.random_bool(0.5),
        peon: false,
        insignificant: false,
        master: false,
        unique: false,
        totem: false,
        henchman: false,
        minion: false,
        cost: 0,
        speed: 5,
        reductions,
        demise: None,
        rebirth_health: None,
        rebirth_beside: None,
        keywords: vec!["Dummy".into()],
        remains_markers: Vec::new(),
        abilities: random_abilities(rng, edition),
        actions: Vec::new(),
        summon_tn: None,
        model_limit: 1,
    };
    Model {
        tokens,
        ..Model::new(ModelId(id), owner, std::sync::Arc::new(card))
    }
}

/// A random game's setup: four models, a random seed and soulstones.
pub(crate) fn new_setup(rng: &mut ChaCha8Rng, edition: Edition) -> NewGame {
    let models = (1..=4)
        .map(|id| model(rng, id, if id <= 2 { Seat::A } else { Seat::B }, edition))
        .collect();
    NewGame {
        edition,
        seed: Bytes32(rng.random()),
        soulstones: [rng.random_range(0..=3), rng.random_range(0..=3)],
        models,
        tokens: shipped_tokens(edition),
        marker_types: shipped_markers(edition),
        terrain: Vec::new(),
        summonable: Default::default(),
        upgrade_cards: Vec::new(),
        encounter: None,
    }
}

fn new_game(rng: &mut ChaCha8Rng, edition: Edition) -> GameState {
    GameState::new(new_setup(rng, edition)).unwrap()
}

/// A random game on a table: the models stand close enough to reach each
/// other, each with a melee and a missile action (some of which push), and
/// a wall may stand between them.
pub(crate) fn new_setup_on_table(rng: &mut ChaCha8Rng, edition: Edition) -> NewGame {
    let mut setup = new_setup(rng, edition);
    setup.upgrade_cards = vec![UpgradeCard {
        faces: vec![UpgradeFace {
            name: "Marksman".into(),
            abilities: Vec::new(),
            actions: Vec::new(),
        }],
        plentiful: None,
        restricted: Vec::new(),
        kind: None,
    }];
    let damage = |rng: &mut ChaCha8Rng| match edition {
        Edition::Fourth => DamageProfile::Fixed {
            amount: rng.random_range(1..=3),
        },
        // Blasts in the random games: bots drop them, the checks see them.
        Edition::Third => DamageProfile::Flip {
            weak: 1,
            moderate: 2,
            severe: 3,
            blasts: [0, 1, 2],
        },
    };
    for model in &mut setup.models {
        let x = match model.owner {
            Seat::A => rng.random_range(8.0..12.0),
            Seat::B => rng.random_range(13.0..17.0),
        };
        let y = rng.random_range(8.0..14.0);
        model.placement = Some(Placement {
            at: Point {
                x: milli(x),
                y: milli(y),
            },
            z: 0,
        });
        let push = rng.random_bool(0.5).then(|| ActionEffect::PushTargetAway {
            inches: rng.random_range(1..=3),
        });
        let mut action = |name: &str, kind, range, after_succeeding| ActionCard {
            name: name.into(),
            kind,
            range,
            skill: rng.random_range(4..=7),
            skill_suits: Default::default(),
            resist: Some(Stat::Df),
            tn: None,
            tn_suits: Default::default(),
            damage: damage(rng),
            irreducible: false,
            ignores: any_defense(rng).into_iter().collect(),
            triggers: Vec::new(),
            after_succeeding,
            signature: false,
            bonus: false,
            once_per: None,
            soulstones: 0,
            ignores_line_of_sight: rng.random_bool(0.2),
            summons: Vec::new(),
            targets: Vec::new(),
            damages_enemies_touching: None,
        };
        // An execute effect its target's player may pay off, on a raise
        // (hands kept full by the Shot's draws make two raises rare).
        let execute = ActionEffect::KillTarget {
            raises: 1,
            unless_paid: true,
        };
        let strike_effects = push.into_iter().chain([execute]).collect();
        let strike = action("Strike", ActionKind::Melee, 2, strike_effects);
        // A shot that attaches an upgrade to its shooter (one a crew),
        // then draws as Resupply does.
        let shot_effects = vec![
            ActionEffect::PushTargetAway { inches: 2 },
            ActionEffect::AttachUpgrade {
                upgrade: "Marksman".into(),
                to: UpgradeHolder::ThisModel,
            },
            ActionEffect::DrawCards { count: 1 },
            ActionEffect::DrawFromDiscard {
                up_to: 2,
                max_value: 5,
            },
        ];
        let shot = action("Shot", ActionKind::Missile, 10, shot_effects);
        let actions = vec![strike, shot];
        std::sync::Arc::make_mut(&mut model.card).actions = actions;
    }
    if rng.random_bool(0.5) {
        let id = ObjectId(soulstone_engine::state::FIRST_TABLE_OBJECT_ID);
        setup.terrain.push(Terrain {
            id,
            name: "Wall".into(),
            footprint: Footprint::Polygon {
                points: vec![
                    Point {
                        x: 12_300,
                        y: 9_000,
                    },
                    Point {
                        x: 12_700,
                        y: 9_000,
                    },
                    Point {
                        x: 12_700,
                        y: 12_000,
                    },
                    Point {
                        x: 12_300,
                        y: 12_000,
                    },
                ],
            },
            elevation: 0,
            height: milli(3.0),
            traits: Traits::from(vec![Trait::Blocking, Trait::Impassable]),
            hazard: None,
            parts: Vec::new(),
        });
    }
    setup
}

/// A model with actions takes one at a random model (often refused: out
/// of range, no line of sight, friendly, killed).
fn random_action(rng: &mut ChaCha8Rng, state: &GameState) -> Option<FlowCommand> {
    let actors: Vec<&Model> = state
        .models
        .iter()
        .filter(|m| !m.card.actions.is_empty())
        .map(|m| &**m)
        .collect();
    let actor = actors.choose(rng)?;
    let action = actor.card.actions.choose(rng)?;
    let target = state.models.choose(rng)?;
    Some(FlowCommand::TakeAction {
        model: actor.id,
        action: action.name.to_string(),
        target: Some(target.id),
    })
}

fn any_suit(rng: &mut ChaCha8Rng) -> Suit {
    Suit::ALL[rng.random_range(0..4)]
}

/// A duel the game flow might start now (possibly one the rules refuse).
fn random_duel(rng: &mut ChaCha8Rng, state: &GameState) -> FlowCommand {
    // Mostly models still in play, so that duels happen after the first
    // deaths; now and then any model, so that refusals are exercised too.
    let only_in_play = rng.random_bool(0.9);
    let eligible =
        |m: &&std::sync::Arc<soulstone_engine::model::Model>| !only_in_play || m.in_play();
    let ids: Vec<ModelId> = state.models.iter().filter(eligible).map(|m| m.id).collect();
    let Some(&initiator) = ids.choose(rng) else {
        return FlowCommand::ShuffleDiscards;
    };
    let owner = state.model(initiator).unwrap().owner;
    let friendly = rng.random_bool(0.15);
    let candidates: Vec<ModelId> = state
        .models
        .iter()
        .filter(eligible)
        .filter(|m| m.id != initiator && (m.owner == owner) == friendly)
        .map(|m| m.id)
        .collect();
    let opposed = rng.random_bool(0.7) && !candidates.is_empty();
    let resister = opposed.then(|| *candidates.choose(rng).unwrap());
    let damage = match (rng.random_range(0..3), state.edition) {
        (0, _) => DamageProfile::None,
        (_, Edition::Fourth) => DamageProfile::Fixed {
            amount: rng.random_range(1..=4),
        },
        (_, Edition::Third) => DamageProfile::Flip {
            weak: 1,
            moderate: 2,
            severe: 4,
            blasts: [0, 0, 1],
        },
    };
    let mut triggers = Vec::new();
    if rng.random_bool(0.5) {
        let effect = match rng.random_range(0..4) {
            0 => TriggerEffect::AddDamage { amount: 1 },
            1 => TriggerEffect::InstanceDamage { amount: 1 },
            2 => TriggerEffect::SetRaiseValue { value: 3 },
            _ => TriggerEffect::TargetGainsToken {
                token: token("distracted"),
            },
        };
        triggers.push(TriggerSpec {
            name: "Trigger".into(),
            suits: soulstone_engine::duel::Suits::of(any_suit(rng)),
            soulstones: 0,
            // A bare duel has no action whose end would resolve it later.
            timing: soulstone_engine::duel::TriggerTiming::WhenResolving,
            effect,
            targets: Vec::new(),
        });
    }
    FlowCommand::StartDuel {
        spec: std::sync::Arc::new(DuelSpec {
            action: "Random action".into(),
            initiator,
            skill: rng.random_range(0..=8),
            skill_suits: Default::default(),
            modifiers: rng.random_range(-3..=3),
            resister,
            resist_stat: resister.map(|_| {
                if rng.random_bool(0.5) {
                    Stat::Df
                } else {
                    Stat::Wp
                }
            }),
            target: None,
            tn: (!opposed || rng.random_bool(0.3)).then(|| rng.random_range(8..=15)),
            tn_suits: Default::default(),
            kind: [ActionKind::Melee, ActionKind::Missile, ActionKind::Magic]
                [rng.random_range(0..3)],
            targets_enemy: !friendly,
            damage,
            irreducible: rng.random_bool(0.1),
            ignores: any_defense(rng).into_iter().collect(),
            raise_value: 5,
            triggers,
            resist_triggers: Vec::new(),
            friendly,
            own_tactical: false,
            cannot_cheat: rng.random_bool(0.05),
            cover: rng.random_bool(0.2),
            controller: None,
        }),
    }
}

pub(crate) fn random_flow_command(rng: &mut ChaCha8Rng, state: &GameState) -> FlowCommand {
    let model = ModelId(rng.random_range(1..=4));
    match rng.random_range(0..13) {
        10 => FlowCommand::StartActivation { model },
        11 => FlowCommand::EndActivation,
        12 => FlowCommand::EndPhase {
            first: if rng.random_bool(0.5) {
                Seat::A
            } else {
                Seat::B
            },
        },
        0..=4 => match random_action(rng, state).filter(|_| rng.random_bool(0.7)) {
            Some(action) => action,
            None => random_duel(rng, state),
        },
        5 => FlowCommand::DealDamage {
            target: model,
            amount: rng.random_range(1..=3),
            irreducible: rng.random_bool(0.3),
            source: "hazard".into(),
            credit: None,
        },
        6 => FlowCommand::Draw {
            seat: if rng.random_bool(0.5) {
                Seat::A
            } else {
                Seat::B
            },
            count: rng.random_range(1..=4),
        },
        7 => FlowCommand::ShuffleDiscards,
        8 => FlowCommand::ShuffleDiscards,
        _ => FlowCommand::GainToken {
            model,
            token: any_token(rng),
            value: 1,
            // From either crew or from none (terrain).
            from: match rng.random_range(0..3) {
                0 => Some(Seat::A),
                1 => Some(Seat::B),
                _ => None,
            },
        },
    }
}

/// Up to two abilities made of any building blocks, at any window.
fn random_abilities(rng: &mut ChaCha8Rng, edition: Edition) -> Vec<Ability> {
    use soulstone_engine::ability::{AbilityEffect as E, AbilityWindow as W, Selector, SideFilter};
    let windows = [
        W::ActivationStarted,
        W::ActivationEnded,
        W::EndPhase,
        W::DuelStarted,
        W::Targeted,
        W::AddingDamage,
        W::ReducingDamage,
        W::Damaged,
        W::Killed,
        W::Lasting,
    ];
    let tokens = edition_tokens(edition);
    let mut abilities = Vec::new();
    for number in 0..rng.random_range(0..=2) {
        let window = *windows.choose(rng).unwrap();
        let selectors = [
            Selector::ThisModel,
            Selector::OtherModel,
            Selector::ModelsWithin {
                inches: 6,
                side: SideFilter::Enemy,
                keyword: None,
            },
            Selector::ModelsWithin {
                inches: 0,
                side: SideFilter::Any,
                keyword: Some("Dummy".into()),
            },
        ];
        let chosen = selectors.choose(rng).unwrap().clone();
        let to = || chosen.clone();
        let token = *tokens.choose(rng).unwrap();
        let candidates = [
            E::FateModifier { by: 1, to: to() },
            E::ChangeRaiseValue { value: 3 },
            E::AddDamage { by: 1 },
            E::ReduceDamage {
                by: 1,
                to_zero: rng.random_bool(0.5),
            },
            E::GainToken { token, to: to() },
            E::RemoveToken { token, to: to() },
            E::Heal {
                amount: 1,
                to: to(),
            },
            E::DealDamage {
                amount: 1,
                to: to(),
                irreducible: rng.random_bool(0.5),
            },
            E::Push {
                inches: 2,
                to: to(),
            },
            E::MakeMarker {
                marker: "Scheme Marker".into(),
            },
            E::RemoveMarkers {
                marker: "Scheme Marker".into(),
                inches: 3,
            },
            E::DiscardCards { count: 1, to: to() },
            E::DiscardOrGainToken {
                count: 1,
                token,
                to: to(),
            },
            E::DrawCards { count: 1 },
            E::InfuseSoulstone,
            E::DrainSoulstone,
            E::GainVictoryPoints { amount: 1 },
            E::ChangeStat {
                stat: if rng.random_bool(0.5) {
                    soulstone_engine::duel::Stat::Df
                } else {
                    soulstone_engine::duel::Stat::Wp
                },
                by: if rng.random_bool(0.5) { -1 } else { 2 },
                to: to(),
            },
        ];
        let effects: Vec<E> = candidates
            .into_iter()
            .filter(|e| e.fits(window) && rng.random_bool(0.4))
            .collect();
        if effects.is_empty() {
            continue;
        }
        abilities.push(Ability {
            name: format!("Ability {number}"),
            window,
            when: soulstone_engine::token::Condition::Always,
            effects,
            once_per: [
                None,
                Some(soulstone_engine::model::OncePer::Activation),
                Some(soulstone_engine::model::OncePer::Turn),
            ]
            .choose(rng)
            .copied()
            .flatten(),
            defense: any_defense(rng),
        });
    }
    abilities
}

/// No defensive category most of the time, or any of the three.
fn any_defense(rng: &mut impl Rng) -> Option<soulstone_engine::model::Defense> {
    use soulstone_engine::model::Defense;
    [
        None,
        None,
        Some(Defense::Physical),
        Some(Defense::Magical),
        Some(Defense::Unusual),
    ]
    .choose(rng)
    .copied()
    .flatten()
}

/// Every token `edition` defines.
fn edition_tokens(edition: Edition) -> Vec<Token> {
    shipped_content()
        .tokens(edition)
        .unwrap()
        .tokens()
        .map(|(token, _)| token)
        .collect()
}

/// A token of either edition (so sometimes one the game's edition lacks).
fn any_token(rng: &mut ChaCha8Rng) -> Token {
    let edition = if rng.random_bool(0.5) {
        Edition::Fourth
    } else {
        Edition::Third
    };
    let tokens = edition_tokens(edition);
    *tokens.choose(rng).unwrap()
}

fn any_card(rng: &mut ChaCha8Rng) -> Card {
    let cards: Vec<Card> = Card::all().collect();
    *cards.choose(rng).unwrap()
}

/// Any player command at all, mostly illegal at the moment it is sent.
fn random_player_command(rng: &mut ChaCha8Rng) -> PlayerCommand {
    match rng.random_range(0..20) {
        0 => PlayerCommand::Relent,
        1 => PlayerCommand::Resist,
        2 => PlayerCommand::UseToken {
            token: any_token(rng),
            suit: rng.random_bool(0.5).then(|| any_suit(rng)),
        },
        3 => PlayerCommand::Empower {
            card: any_card(rng),
        },
        4 => PlayerCommand::SpendSoulstone {
            boost: if rng.random_bool(0.5) {
                Boost::Modifier
            } else {
                Boost::Suit(any_suit(rng))
            },
        },
        5 => PlayerCommand::FinishModifying,
        6 => PlayerCommand::KeepTopCard,
        7 => PlayerCommand::DiscardTopCard,
        8 => PlayerCommand::ChooseCard {
            card: any_card(rng),
        },
        9 => PlayerCommand::ChooseJokerSuit {
            suit: Some(any_suit(rng)),
        },
        10 => PlayerCommand::Cheat {
            card: any_card(rng),
        },
        11 => PlayerCommand::DeclineCheat,
        12 => PlayerCommand::DeclareTrigger {
            name: "Trigger".into(),
        },
        13 => PlayerCommand::DeclineTrigger,
        14 => PlayerCommand::BlockDamage,
        15 => PlayerCommand::ReduceDamage,
        16 => PlayerCommand::UseReduction {
            name: "Hard to Kill".into(),
        },
        17 => PlayerCommand::ResolveDamageFirst {
            model: ModelId(rng.random_range(1..=4)),
        },
        18 => PlayerCommand::DiscardDown {
            cards: (0..rng.random_range(0..3)).map(|_| any_card(rng)).collect(),
        },
        _ => PlayerCommand::Contribute {
            entropy: Bytes32(rng.random()),
        },
    }
}

/// Whether `pending` lists `command` for `seat`.
fn is_listed(state: &GameState, seat: Seat, command: &PlayerCommand) -> bool {
    let Some(decision) = pending(state).for_seat(seat).cloned() else {
        return false;
    };
    decision
        .choices
        .iter()
        .any(|choice| match (choice, command) {
            (Choice::Command { command: listed }, _) => listed == command,
            (Choice::DiscardCards { count, from }, PlayerCommand::DiscardDown { cards }) => {
                cards.len() == usize::from(*count) && cards.iter().all(|c| from.contains(c))
            }
            (Choice::Entropy, PlayerCommand::Contribute { .. }) => true,
            _ => false,
        })
}

/// The same game with every card a player may not see moved around: the
/// opponent's hand and deck mixed and re-dealt, and the viewer's deck reordered.
fn with_hidden_cards_moved(state: &GameState, viewer: Seat, rng: &mut ChaCha8Rng) -> GameState {
    let mut other = state.clone();
    let opponent = other.player_mut(viewer.other());
    let mut unseen: Vec<Card> = opponent
        .hand
        .as_slice()
        .iter()
        .chain(opponent.deck.as_slice())
        .copied()
        .collect();
    unseen.shuffle(rng);
    let hand_len = opponent.hand.len();
    opponent.hand = Pile::from_bottom_up(&unseen[..hand_len]);
    opponent.deck = Pile::from_bottom_up(&unseen[hand_len..]);
    let own = other.player_mut(viewer);
    let mut deck = own.deck.as_slice().to_vec();
    deck.shuffle(rng);
    own.deck = Pile::from_bottom_up(&deck);
    other
}

fn submit(
    state: &mut GameState,
    log: &mut Vec<Event>,
    submission: Submission,
) -> Result<Vec<Event>, RuleError> {
    // `execute` works in place: it must give decide's answer, keep the
    // state unchanged on a refusal, and otherwise equal applying the events.
    let mut executed = state.clone();
    let executed_result = execute(&mut executed, &submission);
    let events = match decide(state, &submission) {
        Ok(events) => events,
        Err(refusal) => {
            assert_eq!(executed_result.as_ref(), Err(&refusal));
            assert_eq!(&executed, state, "a refused command changed the state");
            return Err(refusal);
        }
    };
    assert_eq!(executed_result.as_ref(), Ok(&events));
    for event in &events {
        apply(state, event);
    }
    assert_eq!(&executed, state);
    log.extend(events.iter().cloned());
    Ok(events)
}

fn check_invariants(state: &GameState) {
    state.validate().unwrap();
    for player in &state.players {
        assert_eq!(player.card_count(), 54);
        assert!(usize::from(player.hand.len() as u8) <= 54);
    }
    for model in state.models.iter() {
        assert!(model.health <= model.card.max_health);
    }
    // The table kept for this version is the one the state builds afresh.
    let mut fresh = state.clone();
    fresh.table_cache = soulstone_engine::state::TableCache::default();
    assert_eq!(*state.table(), *fresh.table());
}

/// What a random game went through.
#[derive(Debug, Default)]
struct Played {
    duels: usize,
    /// Models still in play at the end (hazard damage alone can kill all).
    in_play: usize,
    /// Every stack of procedures seen between commands, innermost last.
    stacks: BTreeSet<Vec<&'static str>>,
    pushes: usize,
    /// Upgrades attached, and attachments the limitations refused.
    upgrades: [usize; 2],
}

fn frame_names(state: &GameState) -> Vec<&'static str> {
    state
        .frames
        .iter()
        .map(|frame| match frame {
            Frame::Contributions => "contributions",
            Frame::Duel { .. } => "duel",
            Frame::Damage { .. } => "damage",
            Frame::Discard { .. } => "discard",
            Frame::Activation { .. } => "activation",
            Frame::Action { .. } => "action",
            Frame::Flip { .. } => "flip",
            Frame::Abilities { .. } => "abilities",
            Frame::Either { .. } => "either",
            Frame::ChooseModel { .. } => "choose_model",
            Frame::ChooseMarker { .. } => "choose_marker",
            Frame::Place { .. } => "place",
            Frame::Replace { .. } => "replace",
            Frame::Summon { .. } => "summon",
            Frame::Blasts { .. } => "blasts",
            Frame::Move { .. } => "move",
            Frame::Disengage { .. } => "disengage",
            Frame::DrawFromDiscard { .. } => "draw_from_discard",
            Frame::KillUnlessPaid { .. } => "kill_unless_paid",
        })
        .collect()
}

/// Plays a random game (on a table, with actions, if `on_table`).
fn play(seed: u64, edition: Edition, steps: usize, on_table: bool) -> Played {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let initial = if on_table {
        GameState::new(new_setup_on_table(&mut rng, edition)).unwrap()
    } else {
        new_game(&mut rng, edition)
    };
    let mut state = initial.clone();
    let mut log: Vec<Event> = Vec::new();
    let mut stacks = BTreeSet::new();
    for _ in 0..steps {
        check_invariants(&state);
        stacks.insert(frame_names(&state));

        // Noise: a random command from a random sender. Whatever the rules
        // accept must be an option `pending` lists (or the game flow's turn).
        let noisy_seat = if rng.random_bool(0.5) {
            Seat::A
        } else {
            Seat::B
        };
        let noise = random_player_command(&mut rng);
        let noisy = Submission::player(noisy_seat, state.version, noise.clone());
        match decide(&state, &noisy) {
            Ok(_) => assert!(
                is_listed(&state, noisy_seat, &noise),
                "accepted a command pending does not list: {noise:?}"
            ),
            Err(error) => assert!(!error.to_string().is_empty()),
        }
        // A stale version is always refused.
        if state.version > 0 {
            let stale = Submission::player(noisy_seat, state.version - 1, noise.clone());
            assert!(matches!(
                decide(&state, &stale),
                Err(RuleError::StaleVersion { .. })
            ));
        }

        // Views: moving hidden cards around changes nothing a player sees.
        for seat in Seat::BOTH {
            let moved = with_hidden_cards_moved(&state, seat, &mut rng);
            assert_eq!(
                view(&state, Viewer::Player(seat)),
                view(&moved, Viewer::Player(seat)),
                "{seat:?}'s view depends on cards they may not see"
            );
        }
        let seed_hex = serde_json::to_string(&state.fairness.seed).unwrap();
        let spectator = serde_json::to_string(&view(&state, Viewer::Spectator)).unwrap();
        assert_eq!(spectator.contains(&seed_hex), state.fairness.revealed);

        // Progress: a legal option, or the game flow's next command.
        let waiting = pending(&state);
        if waiting.ended {
            break;
        }
        let hands_before = [state.players[0].hand, state.players[1].hand];
        let discards_before = [state.players[0].discard, state.players[1].discard];
        let events = if let Some(decision) = waiting.decisions.choose(&mut rng).cloned() {
            let choice = decision.choices.choose(&mut rng).unwrap().clone();
            let command = match choice {
                Choice::Command { command } => command,
                Choice::DiscardCards { count, from } => PlayerCommand::DiscardDown {
                    cards: from.iter().take(usize::from(count)).copied().collect(),
                },
                Choice::Entropy => PlayerCommand::Contribute {
                    entropy: Bytes32(rng.random()),
                },
                Choice::DrawFromDiscard { up_to, from } => PlayerCommand::DrawFromDiscard {
                    cards: from
                        .choose_multiple(&mut rng, usize::from(up_to))
                        .copied()
                        .collect(),
                },
                // Points and paths: the random bot picks one the table allows.
                Choice::DropBlast { .. } | Choice::Move { .. } => {
                    let mut bot = soulstone_engine::bot::Bot::new(
                        soulstone_engine::bot::BotKind::Random,
                        decision.seat,
                        rng.random(),
                    );
                    bot.decide(&state)
                        .unwrap_or_else(|| panic!("no legal {choice:?} for the bot"))
                }
                other => panic!("an encounter's choice outside an encounter: {other:?}"),
            };
            let submission = Submission::player(decision.seat, state.version, command.clone());
            submit(&mut state, &mut log, submission)
                .unwrap_or_else(|e| panic!("a listed option was refused: {command:?}: {e}"))
        } else {
            assert!(waiting.waiting_for_game);
            let command = random_flow_command(&mut rng, &state);
            let submission = Submission::flow(state.version, command);
            submit(&mut state, &mut log, submission).unwrap_or_default()
        };

        // Events as shown to a player never name the opponent's new cards in hand.
        for seat in Seat::BOTH {
            let opponent = seat.other().index();
            let drawn: Vec<Card> = state.players[opponent]
                .hand
                .as_slice()
                .iter()
                .filter(|c| !hands_before[opponent].contains(**c))
                // One taken from the discard pile (Resupply) was face up.
                .filter(|c| !discards_before[opponent].contains(**c))
                .copied()
                .collect();
            for event in &events {
                let shown_value = event.for_viewer(Viewer::Player(seat));
                let shown = serde_json::to_string(&shown_value).unwrap();
                // Each player has a deck of the same 54 cards: a fact about
                // the viewer's own cards names them, not the opponent's.
                let about_own_cards = shown_value["seat"] == serde_json::json!(seat);
                let own = &state.players[seat.index()];
                let own_visible = |card: &Card| {
                    [
                        &own.hand,
                        &own.discard,
                        &own.removed,
                        &own.revealed,
                        &own.conflict,
                    ]
                    .iter()
                    .any(|pile| pile.contains(*card))
                };
                for card in drawn
                    .iter()
                    .filter(|card| !about_own_cards && !own_visible(card))
                {
                    assert!(
                        !shown.contains(&format!("\"{card}\"")),
                        "{seat:?} was shown the opponent's drawn {card}: {shown}"
                    );
                }
                // A spectator sees no hidden value at all; the owner sees theirs.
                let spectator =
                    serde_json::to_string(&event.for_viewer(Viewer::Spectator)).unwrap();
                if let Event::Drew { seat: owner, card } = event
                    && let Some(card) = card.value
                {
                    let card = format!("\"{card}\"");
                    assert!(!spectator.contains(&card), "{spectator}");
                    let own =
                        serde_json::to_string(&event.for_viewer(Viewer::Player(*owner))).unwrap();
                    assert!(own.contains(&card), "the owner lost their own card: {own}");
                }
            }
        }
    }
    check_invariants(&state);

    // Replaying the log from the start reproduces the state exactly.
    let mut replayed = initial.clone();
    for event in &log {
        apply(&mut replayed, event);
    }
    assert_eq!(replayed, state);
    assert_eq!(state.version, log.len() as u64);
    // And the state survives its JSON form unchanged.
    let json = serde_json::to_string(&state).unwrap();
    assert_eq!(serde_json::from_str::<GameState>(&json).unwrap(), state);
    Played {
        in_play: state.models.iter().filter(|m| m.in_play()).count(),
        duels: log
            .iter()
            .filter(|e| matches!(e, Event::DuelResolved { .. }))
            .count(),
        stacks,
        pushes: log
            .iter()
            .filter(|e| matches!(e, Event::ModelPushed { .. }))
            .count(),
        upgrades: [
            log.iter()
                .filter(|e| matches!(e, Event::UpgradeAttached { .. }))
                .count(),
            log.iter()
                .filter(|e| matches!(e, Event::UpgradeNotAttached { .. }))
                .count(),
        ],
    }
}

/// Random games on a table go through procedures inside procedures (a duel
/// inside an action, damage inside an action, a 3rd edition damage flip
/// inside that damage, blast markers dropped inside that damage, a push
/// inside an action) and still replay from
/// their log to the same state (checked in `play`).
#[test]
fn random_games_on_a_table_nest_procedures_and_replay() {
    let mut stacks = BTreeSet::new();
    let mut pushes = 0;
    let mut duels = 0;
    let mut upgrades = [0, 0];
    for seed in 0..48 {
        for edition in [Edition::Fourth, Edition::Third] {
            let played = play(seed, edition, 200, true);
            stacks.extend(played.stacks);
            pushes += played.pushes;
            duels += played.duels;
            upgrades[0] += played.upgrades[0];
            upgrades[1] += played.upgrades[1];
        }
    }
    // The Shot's upgrade is one a crew: attached once, then refused.
    assert!(
        upgrades[0] > 10 && upgrades[1] > 10,
        "upgrades attached and refused: {upgrades:?}"
    );
    for nested in [
        vec!["action", "duel"],
        vec!["action", "damage"],
        vec!["action", "damage", "flip"],
        // 3rd edition blasts dropped by the attacker's bot.
        vec!["action", "damage", "blasts"],
        // A reduction's move, taken inside the damage it reduced.
        vec!["action", "damage", "move"],
        // An execute effect waiting for its target's player to pay it off.
        vec!["action", "kill_unless_paid"],
        // Resupply's player picking cards from the discard pile.
        vec!["action", "draw_from_discard"],
    ] {
        assert!(
            stacks.contains(&nested),
            "never saw {nested:?} waiting for a player; saw {stacks:?}"
        );
    }
    // Abilities that fired at once waited for a player to order them, in a
    // duel and after damage (outside any duel).
    assert!(
        stacks.contains(&vec!["action", "duel", "abilities"]),
        "never saw abilities waiting inside a duel; saw {stacks:?}"
    );
    assert!(
        stacks
            .iter()
            .any(|stack| stack.last() == Some(&"abilities") && !stack.contains(&"duel")),
        "never saw abilities waiting after damage; saw {stacks:?}"
    );
    assert!(duels > 100, "only {duels} duels");
    assert!(pushes > 10, "only {pushes} pushes");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_fourth_edition_games_keep_every_invariant(seed in any::<u64>()) {
        // The game must really be played, not stuck at the start.
        let played = play(seed, Edition::Fourth, 160, false);
        prop_assert!(played.duels >= 1 || played.in_play == 0);
    }

    #[test]
    fn random_third_edition_games_keep_every_invariant(seed in any::<u64>()) {
        let played = play(seed, Edition::Third, 160, false);
        prop_assert!(played.duels >= 1 || played.in_play == 0);
    }

    /// Arbitrary JSON never panics the engine: it is refused as a command,
    /// or it is a command and `decide` answers with events or a RuleError.
    #[test]
    fn arbitrary_command_json_never_panics(text in "\\{\"type\":\"[a-z_]{3,20}\"(,\"[a-z_]{1,10}\":(\"[0-9A-Z]{1,3}\"|[0-9]{1,5}|null|true|\\[\\]))*\\}", seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let state = new_game(&mut rng, Edition::Fourth);
        if let Ok(command) = serde_json::from_str::<PlayerCommand>(&text) {
            for seat in Seat::BOTH {
                let _answer: Result<Vec<Event>, RuleError> =
                    decide(&state, &Submission::player(seat, state.version, command.clone()));
            }
        }
        if let Ok(command) = serde_json::from_str::<FlowCommand>(&text) {
            let _answer: Result<Vec<Event>, RuleError> =
                decide(&state, &Submission::flow(state.version, command));
        }
    }

    /// Arbitrary scenario text never panics: it parses or not, runs or not.
    #[test]
    fn arbitrary_scenario_text_never_panics(
        cards in proptest::collection::vec("(1[0-3]|[1-9])[RMTC]|BJ|RJ|X", 0..8),
        skill in -30i16..30,
        modifiers in -12i8..12,
        health in 0u16..4,
        steps in proptest::collection::vec("cheat|decline_cheat|finish_modifying|relent|choose_card|draw|shuffle_discards", 0..6),
    ) {
        let deck = cards.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", ");
        let mut text = format!(
            "name = \"fuzz\"\nedition = \"m4e\"\n[players.a]\ndeck = [{deck}]\nhand = [{deck}]\n\
             [[models]]\nid = 1\nname = \"M\"\nowner = \"a\"\ndf = 3\nwp = 3\nhealth = {health}\nmax_health = 3\n\
             [[steps]]\nby = \"system\"\ncommand = {{ type = \"start_duel\", spec = {{ initiator = 1, skill = {skill}, modifiers = {modifiers}, tn = 10 }} }}\n"
        );
        for step in steps {
            let command = match step.as_str() {
                "cheat" | "choose_card" => format!("{{ type = \"{step}\", card = \"{}\" }}", cards.first().map(String::as_str).unwrap_or("5R")),
                "draw" => "{ type = \"draw\", seat = \"a\", count = 3 }".to_owned(),
                other => format!("{{ type = \"{other}\" }}"),
            };
            text.push_str(&format!("[[steps]]\nby = \"a\"\ncommand = {command}\n"));
        }
        if let Ok(scenario) = Scenario::from_toml(&text)
            && let Ok(run) = scenario.run(shipped_content())
        {
            run.final_state.validate().unwrap();
        }
    }
}
