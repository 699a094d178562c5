//! What a seat knows, the ground a search bot stands on (issue 53): two
//! states that differ only in what a seat cannot see (the opponent's hand,
//! deck and schemes, the seat's own deck order, the secret seed) scrub to
//! one information set, while a change in what it can see (its own hand)
//! does not; and the worlds dealt from a set keep every public part and the
//! seat's own, hold each card once, give the opponent schemes it may hold,
//! and play on to the end.

use soulstone_engine::bot::info::InfoSet;
use soulstone_engine::bot::{Bot, BotKind, play_to_end};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::pile::Pile;
use soulstone_engine::{GameState, Seat, view};
use soulstone_random::RandomStream;

use crate::encounter::set_up;

/// Positions of a greedy game of `edition` once the crews are revealed,
/// every so often, with the game as it stood.
pub(crate) fn positions(edition: &str, seed: u64) -> Vec<GameState> {
    let mut state = Box::new(GameState::new(set_up(edition, seed)).expect("a valid game"));
    let mut bots = [
        Bot::new(BotKind::Greedy, Seat::A, seed),
        Bot::new(BotKind::Greedy, Seat::B, seed),
    ];
    let mut found = Vec::new();
    let _ = play_to_end(&mut state, &mut bots, 20_000, |state, _, _| {
        let revealed = state
            .encounter
            .as_ref()
            .is_some_and(|e| e.choices.crews.is_some());
        if revealed && !state.ended && state.version.is_multiple_of(41) {
            found.push(state.clone());
        }
    });
    assert!(
        found.len() >= 5,
        "{edition} seed {seed}: {} positions",
        found.len()
    );
    found
}

/// `state` with everything `seat` cannot see changed: the opponent's hand
/// and deck dealt again from the same cards, the seat's deck reordered,
/// another secret seed, and the opponent's first scheme another one.
pub(crate) fn with_hidden_changed(
    state: &GameState,
    seat: Seat,
    rng: &mut RandomStream,
) -> GameState {
    let mut changed = state.clone();
    changed.fairness.seed = Bytes32([7; 32]);
    let theirs = &mut changed.players[seat.other().index()];
    let mut pool: Vec<_> = theirs
        .hand
        .iter()
        .chain(theirs.deck.iter())
        .copied()
        .collect();
    rng.shuffle(&mut pool);
    let in_hand = theirs.hand.len();
    theirs.hand = pool[..in_hand].iter().copied().collect();
    theirs.deck = Pile::from_top_down(&pool[in_hand..]);
    let mine = &mut changed.players[seat.index()];
    let mut cards: Vec<_> = mine.deck.iter().copied().collect();
    rng.shuffle(&mut cards);
    mine.deck = Pile::from_top_down(&cards);
    if let Some(encounter) = changed.encounter.as_mut() {
        let encounter = std::sync::Arc::make_mut(encounter);
        let pool = encounter.setup.scheme_pool.clone();
        let choices = std::sync::Arc::make_mut(&mut encounter.choices);
        let slots = &mut choices.schemes[seat.other().index()];
        let held: Vec<String> = slots
            .iter()
            .filter_map(|slot| slot.value.as_ref().map(|h| h.name.clone()))
            .collect();
        let unheld = pool.iter().find(|name| !held.contains(name));
        if let (Some(first), Some(other)) = (
            slots.first_mut().and_then(|slot| slot.value.as_mut()),
            unheld,
        ) {
            first.name = other.clone();
        }
    }
    changed
}

fn looking_at_top(state: &GameState) -> bool {
    state.duel().is_some_and(|duel| {
        matches!(
            duel.step,
            soulstone_engine::duel::DuelStep::LookingAtTop { .. }
        )
    })
}

fn check_edition(edition: &str, seed: u64) {
    let mut rng = RandomStream::from_seed_and_label(seed, "information sets");
    let mut rolled_out = 0;
    for (n, state) in positions(edition, seed).into_iter().enumerate() {
        if looking_at_top(&state) {
            continue;
        }
        for seat in Seat::BOTH {
            let changed = with_hidden_changed(&state, seat, &mut rng);
            assert_ne!(state, changed, "{edition} #{n}: nothing was changed");
            let seen = soulstone_engine::Viewer::Player(seat);
            assert_eq!(
                view(&state, seen),
                view(&changed, seen),
                "{edition} #{n}: the change showed in {seat:?}'s view"
            );
            let info = InfoSet::of(&state, seat);
            assert_eq!(
                info,
                InfoSet::of(&changed, seat),
                "{edition} #{n}: {seat:?}'s information set told the two apart"
            );
            // What the seat sees does count: another card in its hand is
            // another information set.
            let mut own = state.clone();
            let player = &mut own.players[seat.index()];
            if let (Some(&in_hand), Some(&in_deck)) = (player.hand.first(), player.deck.first())
                && in_hand != in_deck
            {
                let mut hand: Vec<_> = player.hand.iter().copied().collect();
                let mut deck: Vec<_> = player.deck.iter().copied().collect();
                hand[0] = in_deck;
                deck[0] = in_hand;
                player.hand = hand.into_iter().collect();
                player.deck = Pile::from_bottom_up(&deck);
                assert_ne!(
                    info,
                    InfoSet::of(&own, seat),
                    "{edition} #{n}: own hand ignored"
                );
            }

            // A world dealt from the set: the same for both states.
            let deal = |info: &InfoSet| {
                let mut dealer = RandomStream::from_seed_and_label(seed + n as u64, "deal");
                info.determinize(&mut dealer).expect("crews are revealed")
            };
            let world = deal(&info);
            assert_eq!(world, deal(&InfoSet::of(&changed, seat)));
            world
                .validate()
                .unwrap_or_else(|e| panic!("{edition} #{n}: {e}"));
            let (mine, theirs) = (seat.index(), seat.other().index());
            assert_eq!(world.players[mine].hand, state.players[mine].hand);
            assert_eq!(world.players[mine].discard, state.players[mine].discard);
            assert_eq!(world.players[theirs].discard, state.players[theirs].discard);
            assert_eq!(
                world.players[theirs].hand.len(),
                state.players[theirs].hand.len()
            );
            assert_eq!(world.models, state.models);
            assert_eq!(world.version, state.version);
            let encounter = world.encounter.as_ref().expect("an encounter");
            let pool = &encounter.setup.scheme_pool;
            for slot in &encounter.choices.schemes[theirs] {
                let held = slot
                    .value
                    .as_ref()
                    .unwrap_or_else(|| panic!("{edition} #{n}: a hidden scheme slot left empty"));
                let after = encounter.choices.selected_after[theirs].as_deref();
                let allowed = match after.and_then(|name| encounter.setup.schemes.scheme(name)) {
                    Some(def) => def.next.contains(&held.name),
                    None => pool.contains(&held.name),
                };
                assert!(allowed, "{edition} #{n}: {} may not be held", held.name);
                assert!(!encounter.choices.has_revealed(seat.other(), &held.name));
            }
            // Every fourth world is played to its end by random bots: a
            // rollout on a dealt world never gets stuck.
            if (n + seat.index()) % 4 == 0 {
                let mut world = Box::new(world);
                let mut bots = [
                    Bot::new(BotKind::Random, Seat::A, seed),
                    Bot::new(BotKind::Random, Seat::B, seed),
                ];
                play_to_end(&mut world, &mut bots, 20_000, |_, _, _| {})
                    .unwrap_or_else(|e| panic!("{edition} #{n}: the rollout stopped: {e}"));
                rolled_out += 1;
            }
        }
    }
    assert!(rolled_out >= 2, "{edition}: {rolled_out} rollouts");
}

#[test]
fn fourth_edition_worlds_are_dealt_from_what_a_seat_knows() {
    for seed in [3, 11] {
        check_edition("m4e", seed);
    }
}

#[test]
fn third_edition_worlds_are_dealt_from_what_a_seat_knows() {
    for seed in [5, 12] {
        check_edition("m3e", seed);
    }
}
