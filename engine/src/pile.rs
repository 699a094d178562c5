//! Fate cards in a fixed-capacity array: a pile holds the whole deck, a flip
//! at most four cards; no heap allocation, and copying a game state is a
//! plain memory copy.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::fate::{Card, DECK_SIZE};

/// Up to `N` cards in order; for a deck, the top card is the last. Cards
/// beyond the capacity are never stored (`push` reports them).
#[derive(Clone, Copy)]
pub struct CardArray<const N: usize> {
    cards: [Card; N],
    len: u8,
}

/// A deck, hand, discard pile or the like: room for all 54 cards.
pub type Pile = CardArray<DECK_SIZE>;

// Slots beyond `len` hold stale cards; equality and hashing look at the pile only.
impl<const N: usize> PartialEq for CardArray<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<const N: usize> Eq for CardArray<N> {}

impl<const N: usize> std::hash::Hash for CardArray<N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<const N: usize> Default for CardArray<N> {
    fn default() -> Self {
        // The filler is never read: only the first `len` cards count.
        const { assert!(N <= u8::MAX as usize) };
        Self {
            cards: [Card::BLACK_JOKER; N],
            len: 0,
        }
    }
}

impl<const N: usize> std::ops::Deref for CardArray<N> {
    type Target = [Card];

    fn deref(&self) -> &[Card] {
        self.as_slice()
    }
}

impl<'a, const N: usize> IntoIterator for &'a CardArray<N> {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<const N: usize> FromIterator<Card> for CardArray<N> {
    /// Keeps the first `N` cards.
    fn from_iter<I: IntoIterator<Item = Card>>(cards: I) -> Self {
        let mut array = Self::new();
        for card in cards.into_iter().take(N) {
            array.push(card);
        }
        array
    }
}

impl<const N: usize> fmt::Debug for CardArray<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<const N: usize> CardArray<N> {
    pub fn new() -> Self {
        Self::default()
    }

    /// A pile from a list, first card at the bottom.
    pub fn from_bottom_up(cards: &[Card]) -> Self {
        cards.iter().copied().collect()
    }

    /// A deck from a list written top card first.
    pub fn from_top_down(cards: &[Card]) -> Self {
        let mut pile = Self::new();
        for &card in cards.iter().rev().take(N) {
            pile.push(card);
        }
        pile
    }

    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a card on top. A pile never holds more than a deck's 54 cards;
    /// a push beyond that is ignored (it cannot happen with card conservation).
    /// Adds a card on top; false (and nothing stored) when full.
    pub fn push(&mut self, card: Card) -> bool {
        let len = self.len();
        let Some(slot) = self.cards.get_mut(len) else {
            return false;
        };
        *slot = card;
        self.len += 1;
        true
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Takes the top card.
    pub fn pop(&mut self) -> Option<Card> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.cards[self.len()])
    }

    pub fn top(&self) -> Option<Card> {
        self.as_slice().last().copied()
    }

    pub fn contains(&self, card: Card) -> bool {
        self.as_slice().contains(&card)
    }

    /// Removes a card wherever it is; false if it is not here.
    pub fn remove(&mut self, card: Card) -> bool {
        let Some(position) = self.as_slice().iter().position(|&c| c == card) else {
            return false;
        };
        let len = self.len();
        self.cards.copy_within(position + 1..len, position);
        self.len -= 1;
        true
    }

    /// Empties the pile, returning its cards bottom first.
    pub fn take_all(&mut self) -> Vec<Card> {
        let cards = self.as_slice().to_vec();
        self.len = 0;
        cards
    }

    /// Top card first (the order a deck is written in).
    pub fn top_down(&self) -> impl Iterator<Item = Card> + '_ {
        self.as_slice().iter().rev().copied()
    }
}

impl<const N: usize> Serialize for CardArray<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

impl<'de, const N: usize> Deserialize<'de> for CardArray<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        if cards.len() > N {
            return Err(serde::de::Error::custom(format!(
                "at most {N} cards fit here, not {}",
                cards.len()
            )));
        }
        Ok(Self::from_bottom_up(&cards))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_pop_remove_keep_order() {
        let cards: Vec<Card> = Card::all().take(5).collect();
        let mut pile = Pile::from_top_down(&cards);
        assert_eq!(pile.top(), Some(cards[0]));
        assert!(pile.remove(cards[2]));
        assert!(!pile.remove(cards[2]));
        let order: Vec<Card> = pile.top_down().collect();
        assert_eq!(order, vec![cards[0], cards[1], cards[3], cards[4]]);
        assert_eq!(pile.pop(), Some(cards[0]));
        let json = serde_json::to_string(&pile).unwrap();
        let back: Pile = serde_json::from_str(&json).unwrap();
        assert_eq!(back, pile);
    }

    #[test]
    fn a_small_array_keeps_its_capacity() {
        let cards: Vec<Card> = Card::all().take(5).collect();
        let mut flip = CardArray::<4>::new();
        for card in &cards[..4] {
            assert!(flip.push(*card));
        }
        assert!(!flip.push(cards[4]), "a fifth card does not fit");
        assert_eq!(flip.as_slice(), &cards[..4]);
        let collected: CardArray<4> = cards.iter().copied().collect();
        assert_eq!(collected, flip);
        let too_many = serde_json::to_string(&cards).unwrap();
        let refused = serde_json::from_str::<CardArray<4>>(&too_many).unwrap_err();
        assert!(refused.to_string().contains("at most 4 cards"), "{refused}");
    }
}
