// A benchmark may stop at the first broken assumption.
#![allow(clippy::expect_used, clippy::unwrap_used)]

//! Rules engine throughput: 4th edition opposed duels with scripted
//! decisions, and random legal play through `pending`. Figures are in
//! docs/benchmarks.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use soulstone_engine::command::{FlowCommand, PlayerCommand, Submission};
use soulstone_engine::duel::{DamageProfile, DuelSpec, DuelStep, Role, Stat};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::model::{Model, ModelCard, ModelId};
use soulstone_engine::pending::Choice;
use soulstone_engine::state::NewGame;
use soulstone_engine::table::BaseMm;
use soulstone_engine::{Edition, Event, GameState, Seat, execute, pending};

fn model(id: u16, owner: Seat) -> Model {
    let card = ModelCard {
        name: format!("Model {id}").into(),
        df: 5,
        wp: 5,
        sz: 2,
        base: BaseMm::SMALL,
        // Plenty of health: the duels never run out of targets.
        max_health: 1_000,
        soulstone_user: false,
        infuses_on_death: false,
        peon: false,
        insignificant: false,
        master: false,
        unique: false,
        totem: false,
        henchman: false,
        minion: false,
        cost: 0,
        speed: 5,
        reductions: Vec::new(),
        demise: None,
        rebirth_health: None,
        rebirth_beside: None,
        keywords: Vec::new(),
        remains_markers: Vec::new(),
        abilities: Vec::new(),
        actions: Vec::new(),
        summon_tn: None,
        model_limit: 1,
    };
    Model::new(ModelId(id), owner, std::sync::Arc::new(card))
}

/// A started 4th edition game (decks shuffled) with three cards in each hand.
fn started_game() -> GameState {
    let content = soulstone::content::load_for_server(None).expect("shipped content loads");
    let mut state = GameState::new(NewGame {
        edition: Edition::Fourth,
        seed: Bytes32([7; 32]),
        soulstones: [2, 2],
        models: vec![model(1, Seat::A), model(2, Seat::B)],
        tokens: content
            .tokens(Edition::Fourth)
            .expect("4th edition tokens")
            .clone(),
        marker_types: content
            .markers(Edition::Fourth)
            .expect("4th edition markers")
            .clone(),
        terrain: Vec::new(),
        summonable: Default::default(),
        upgrade_cards: Vec::new(),
        encounter: None,
    })
    .unwrap();
    for (seat, byte) in [(Seat::A, 1u8), (Seat::B, 2u8)] {
        play(
            &mut state,
            seat,
            PlayerCommand::Contribute {
                entropy: Bytes32([byte; 32]),
            },
        );
    }
    for seat in Seat::BOTH {
        flow(&mut state, FlowCommand::Draw { seat, count: 3 });
    }
    state
}

fn play(state: &mut GameState, seat: Seat, command: PlayerCommand) -> usize {
    let submission = Submission::player(seat, state.version, command);
    execute(state, &submission).expect("a legal command").len()
}

fn flow(state: &mut GameState, command: FlowCommand) -> usize {
    let submission = Submission::flow(state.version, command);
    execute(state, &submission).expect("a legal command").len()
}

fn opposed_duel() -> FlowCommand {
    FlowCommand::StartDuel {
        spec: std::sync::Arc::new(DuelSpec {
            action: "Strike".into(),
            initiator: ModelId(1),
            skill: 6,
            skill_suits: Default::default(),
            modifiers: 0,
            resister: Some(ModelId(2)),
            resist_stat: Some(Stat::Df),
            target: None,
            tn: Some(10),
            tn_suits: Default::default(),
            kind: Default::default(),
            targets_enemy: true,
            damage: DamageProfile::None,
            irreducible: false,
            ignores: Vec::new(),
            raise_value: 5,
            triggers: Vec::new(),
            resist_triggers: Vec::new(),
            friendly: false,
            own_tactical: false,
            cannot_cheat: false,
            cover: false,
            controller: None,
        }),
    }
}

/// The scripted player: finish modifying, take the first revealed card,
/// never cheat, declare nothing, give the Red Joker no suit.
fn scripted_answer(state: &GameState) -> Option<(Seat, PlayerCommand)> {
    let duel = state.duel()?;
    let seat_of = |role: Role| duel.side(role).map(|s| s.seat);
    let (role, command) = match duel.step {
        DuelStep::Relent { role } => (role, PlayerCommand::Resist),
        DuelStep::Modify { role } => (role, PlayerCommand::FinishModifying),
        DuelStep::LookingAtTop { role } => (role, PlayerCommand::KeepTopCard),
        DuelStep::Choose { role } => {
            let card = *duel.side(role)?.revealed.first()?;
            (role, PlayerCommand::ChooseCard { card })
        }
        DuelStep::Cheat { order, next } => (order[usize::from(next)], PlayerCommand::DeclineCheat),
        DuelStep::JokerSuit { role } => (role, PlayerCommand::ChooseJokerSuit { suit: None }),
        DuelStep::Triggers { order, next } => {
            (order[usize::from(next)], PlayerCommand::DeclineTrigger)
        }
        DuelStep::Flip | DuelStep::Outcome => return None,
    };
    Some((seat_of(role)?, command))
}

/// Plays one opposed duel to its end with scripted decisions.
fn scripted_duel(state: &mut GameState) {
    flow(state, opposed_duel());
    while let Some((seat, command)) = scripted_answer(state) {
        play(state, seat, command);
    }
    debug_assert!(state.frames.is_empty());
    // Keep the hands as they were for the next duel (the duel may have
    // used none of them, as no one cheats).
}

/// Plays one opposed duel choosing uniformly among the options `pending` lists.
fn random_duel(state: &mut GameState, rng: &mut ChaCha8Rng) {
    flow(state, opposed_duel());
    loop {
        let waiting = pending(state);
        let Some(decision) = waiting.decisions.choose(rng) else {
            break;
        };
        let command = match decision.choices.choose(rng).expect("options") {
            Choice::Command { command } => command.clone(),
            Choice::DiscardCards { count, from } => PlayerCommand::DiscardDown {
                cards: from.iter().take(usize::from(*count)).copied().collect(),
            },
            Choice::Entropy => PlayerCommand::Contribute {
                entropy: Bytes32(rng.random()),
            },
            other => panic!("an encounter's choice outside an encounter: {other:?}"),
        };
        play(state, decision.seat, command);
    }
    // Top the hands up now and then so cheating stays possible.
    for seat in Seat::BOTH {
        if state.player(seat).hand.len() < 2 {
            flow(state, FlowCommand::Draw { seat, count: 3 });
        }
    }
}

fn duels(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine_m4e_opposed_duel");
    group.throughput(Throughput::Elements(1));
    let start = started_game();

    // Sanity: the scripted duel really resolves a duel.
    let mut probe = start.clone();
    let before = probe.version;
    scripted_duel(&mut probe);
    assert!(probe.version > before + 5);
    assert!(probe.last_outcome.is_some());

    group.bench_function("scripted", |b| {
        let mut state = start.clone();
        b.iter(|| {
            scripted_duel(&mut state);
            black_box(state.last_outcome.as_ref());
        })
    });
    group.bench_function("random_legal_play", |b| {
        let mut state = start.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        b.iter(|| {
            random_duel(&mut state, &mut rng);
            black_box(state.last_outcome.as_ref());
        })
    });
    group.finish();

    // One figure the docs quote directly: duels per second, single thread.
    let mut state = start.clone();
    let count = 200_000u32;
    let begun = std::time::Instant::now();
    for _ in 0..count {
        scripted_duel(&mut state);
    }
    let elapsed = begun.elapsed();
    let events: usize = {
        let mut s = start.clone();
        let v = s.version;
        scripted_duel(&mut s);
        usize::try_from(s.version - v).unwrap_or(0)
    };
    println!(
        "scripted 4th edition opposed duels: {count} in {elapsed:?} = {:.0} duels/s ({events} events each)",
        f64::from(count) / elapsed.as_secs_f64()
    );
    let _unused: Option<Event> = None;
}

criterion_group!(benches, duels);
criterion_main!(benches);
