//! What one seat knows, and the worlds consistent with it: the base of a
//! search bot that must never read what its seat may not see (issue 53).
//!
//! [`InfoSet::of`] scrubs a state down to its seat's knowledge: the
//! opponent's hand and deck become one sorted pool split by their counts,
//! the seat's own deck is sorted (but for a top card it is looking at), the
//! game's secret seed (which fixes every later reshuffle) is zeroed, and
//! the opponent's schemes, secret declarations and crew offers are blanked.
//! Two states that differ only in what the seat cannot see scrub to equal
//! information sets, so whatever is worked out from one alone cannot tell
//! them apart.
//!
//! [`InfoSet::determinize`] deals one world from it with the bot's own
//! random stream: the opponent's hand and deck shuffled together and split
//! again, the seat's deck shuffled, a fresh seed, and every hidden scheme
//! slot filled with one the opponent may hold (with the models it would
//! have chosen). A rollout can then be played on the copy to its end
//! without peeking at a true card or a true scheme.

use soulstone_random::RandomStream;

use crate::Seat;
use crate::duel::DuelStep;
use crate::encounter::{Encounter, HeldScheme};
use crate::fairness::Bytes32;
use crate::fate::Card;
use crate::model::ModelId;
use crate::pile::Pile;
use crate::state::GameState;

/// A state scrubbed to what `seat` knows (see the module's notes). The
/// state inside is not a game anyone plays: it is only read, and dealt from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfoSet {
    seat: Seat,
    state: GameState,
}

/// Why no world can be dealt from an information set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// Before the crews are revealed the opponent's hiring choices are
    /// secret and not worth guessing: the search plays from the first turn.
    #[error("the crews are not revealed yet")]
    CrewsSecret,
}

impl InfoSet {
    /// What `seat` knows of `state`.
    pub fn of(state: &GameState, seat: Seat) -> Self {
        let mut known = state.clone();
        known.table_cache = Default::default();
        known.fairness.seed = Bytes32::default();
        let opponent = seat.other();
        // The opponent's hand and deck: one pool, in a fixed order.
        redeal(&mut known.players[opponent.index()], |pool| {
            pool.sort_unstable()
        });
        // The seat's own deck: its order is unknown, but for a top card it
        // is looking at.
        let looked_at = looking_at_top(state, seat);
        let mine = &mut known.players[seat.index()];
        mine.deck = sorted_keeping_top(&mine.deck, looked_at);
        if let Some(encounter) = known.encounter.as_mut() {
            let encounter = std::sync::Arc::make_mut(encounter);
            let choices = std::sync::Arc::make_mut(&mut encounter.choices);
            for held in &mut choices.schemes[opponent.index()] {
                held.value = None;
            }
            if let Some(declared) = choices.declared[opponent.index()].as_mut() {
                declared.value = None;
            }
            let setup = std::sync::Arc::make_mut(&mut encounter.setup);
            setup.offers[opponent.index()].value = None;
        }
        Self { seat, state: known }
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The scrubbed state, to read what is public and the seat's own.
    pub fn known(&self) -> &GameState {
        &self.state
    }

    /// One world consistent with what the seat knows, dealt with `rng`.
    pub fn determinize(&self, rng: &mut RandomStream) -> Result<GameState, DealError> {
        let mut world = self.state.clone();
        let (seat, opponent) = (self.seat, self.seat.other());
        if world
            .encounter
            .as_ref()
            .is_some_and(|e| e.choices.crews.is_none())
        {
            return Err(DealError::CrewsSecret);
        }
        world.fairness.seed = Bytes32(rng.next_bytes32());
        redeal(&mut world.players[opponent.index()], |pool| {
            rng.shuffle(pool)
        });
        let looked_at = looking_at_top(&world, seat);
        let mine = &mut world.players[seat.index()];
        let mut cards: Vec<Card> = mine.deck.iter().copied().collect();
        // Top last (pile.rs): a card looked at stays where it is.
        let kept = if looked_at { cards.pop() } else { None };
        rng.shuffle(&mut cards);
        cards.extend(kept);
        mine.deck = Pile::from_bottom_up(&cards);
        if let Some(encounter) = world.encounter.as_mut() {
            let encounter = std::sync::Arc::make_mut(encounter);
            let dealt = deal_schemes(encounter, &world.models, opponent, rng);
            let choices = std::sync::Arc::make_mut(&mut encounter.choices);
            for (slot, scheme) in choices.schemes[opponent.index()].iter_mut().zip(dealt) {
                slot.value = Some(scheme);
            }
        }
        Ok(world)
    }
}

/// A player's hand and deck pooled, put in `order`, and split again by the
/// hand's size (the rest is the deck).
fn redeal(player: &mut crate::state::PlayerState, order: impl FnOnce(&mut Vec<Card>)) {
    let mut pool: Vec<Card> = player
        .hand
        .iter()
        .chain(player.deck.iter())
        .copied()
        .collect();
    order(&mut pool);
    let hand_count = player.hand.len();
    player.hand = pool[..hand_count].iter().copied().collect();
    player.deck = Pile::from_top_down(&pool[hand_count..]);
}

/// Whether `seat` is looking at its own top card (Insight's effect): that
/// one card of its deck it knows.
fn looking_at_top(state: &GameState, seat: Seat) -> bool {
    state.duel().is_some_and(|duel| match duel.step {
        DuelStep::LookingAtTop { role } => duel.side(role).is_some_and(|side| side.seat == seat),
        _ => false,
    })
}

/// `deck` sorted, its top card kept on top when `keep_top`.
fn sorted_keeping_top(deck: &Pile, keep_top: bool) -> Pile {
    let mut cards: Vec<Card> = deck.iter().copied().collect();
    let kept = if keep_top { cards.pop() } else { None };
    cards.sort_unstable();
    cards.extend(kept);
    Pile::from_bottom_up(&cards)
}

/// A scheme for each of `owner`'s hidden slots: ones it may hold (in 4th
/// edition from the Next Available list it selected after, or the pool; in
/// 3rd edition from the pool), none it revealed or holds twice, each with
/// the models it would have chosen among those it may choose now.
fn deal_schemes(
    encounter: &Encounter,
    models: &[std::sync::Arc<crate::model::Model>],
    owner: Seat,
    rng: &mut RandomStream,
) -> Vec<HeldScheme> {
    let choices = &encounter.choices;
    let slots = &choices.schemes[owner.index()];
    let known: Vec<&str> = slots
        .iter()
        .filter_map(|slot| slot.value.as_ref().map(|held| held.name.as_str()))
        .collect();
    let allowed: Vec<String> = match choices.selected_after[owner.index()]
        .as_deref()
        .and_then(|name| encounter.setup.schemes.scheme(name))
    {
        Some(after) => after.next.clone(),
        None => encounter.setup.scheme_pool.clone(),
    };
    let mut candidates: Vec<String> = allowed
        .into_iter()
        .filter(|name| !choices.has_revealed(owner, name) && !known.contains(&name.as_str()))
        .collect();
    let mut dealt = Vec::new();
    for slot in slots {
        if let Some(held) = &slot.value {
            dealt.push(held.clone());
            continue;
        }
        let Some(index) = pick(rng, candidates.len()) else {
            break;
        };
        let name = candidates.remove(index);
        let choice = encounter
            .setup
            .schemes
            .scheme(&name)
            .and_then(|def| def.choice);
        let (target, second_target) = match choice {
            Some(choice) => {
                let firsts: Vec<&crate::model::Model> = models
                    .iter()
                    .map(|m| &**m)
                    .filter(|m| encounter.may_choose(owner, choice, m))
                    .collect();
                let first = pick(rng, firsts.len()).map(|i| firsts[i]);
                let seconds: Vec<ModelId> = first
                    .map(|first| {
                        models
                            .iter()
                            .filter(|m| encounter.may_choose_second(owner, choice, first, m))
                            .map(|m| m.id)
                            .collect()
                    })
                    .unwrap_or_default();
                let second = pick(rng, seconds.len()).map(|i| seconds[i]);
                (first.map(|m| m.id), second)
            }
            None => (None, None),
        };
        dealt.push(HeldScheme {
            name,
            target,
            second_target,
        });
    }
    dealt
}

/// A uniform index below `len`, if there is any.
fn pick(rng: &mut RandomStream, len: usize) -> Option<usize> {
    let bound = u32::try_from(len).ok().filter(|&n| n > 0)?;
    usize::try_from(rng.below(bound)).ok()
}
