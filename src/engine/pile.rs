//! A pile of fate cards with fixed capacity: the whole deck fits, no heap
//! allocation, and copying a game state is a plain memory copy.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::fate::{Card, DECK_SIZE};

/// Cards in order; for a deck, the top card is the last.
#[derive(Clone, Copy)]
pub struct Pile {
    cards: [Card; DECK_SIZE],
    len: u8,
}

// Slots beyond `len` hold stale cards; equality and hashing look at the pile only.
impl PartialEq for Pile {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Pile {}

impl std::hash::Hash for Pile {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl Default for Pile {
    fn default() -> Self {
        Self {
            cards: [Card::BLACK_JOKER; DECK_SIZE],
            len: 0,
        }
    }
}

impl fmt::Debug for Pile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Pile {
    pub fn new() -> Self {
        Self::default()
    }

    /// A pile from a list, first card at the bottom.
    pub fn from_bottom_up(cards: &[Card]) -> Self {
        let mut pile = Self::new();
        for &card in cards.iter().take(DECK_SIZE) {
            pile.push(card);
        }
        pile
    }

    /// A deck from a list written top card first.
    pub fn from_top_down(cards: &[Card]) -> Self {
        let mut pile = Self::new();
        for &card in cards.iter().rev().take(DECK_SIZE) {
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
    pub fn push(&mut self, card: Card) {
        if self.len() < DECK_SIZE {
            self.cards[self.len()] = card;
            self.len += 1;
        }
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

impl Serialize for Pile {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for Pile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        if cards.len() > DECK_SIZE {
            return Err(serde::de::Error::custom("a pile holds at most 54 cards"));
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
}
