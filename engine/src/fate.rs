//! The fate deck: 54 cards, values 1–13 in four suits plus two jokers, and a
//! shuffle that anyone can re-run from the seed.
//!
//! Shuffles use [`soulstone_random::RandomStream`], written by hand so that a
//! dependency upgrade can never change a recorded game;
//! [`SHUFFLE_ALGORITHM`] names that exact procedure in every log.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use soulstone_random::{RandomStream, SHUFFLE_ALGORITHM};

/// The number of cards in a fate deck.
pub const DECK_SIZE: usize = 54;

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Suit {
    Rams,
    Masks,
    Tomes,
    Crows,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Rams, Suit::Masks, Suit::Tomes, Suit::Crows];

    pub fn name(self) -> &'static str {
        match self {
            Self::Rams => "Rams",
            Self::Masks => "Masks",
            Self::Tomes => "Tomes",
            Self::Crows => "Crows",
        }
    }

    /// The single letter used in compact card names ("9R").
    pub fn letter(self) -> char {
        match self {
            Self::Rams => 'R',
            Self::Masks => 'M',
            Self::Tomes => 'T',
            Self::Crows => 'C',
        }
    }

    pub fn from_letter(letter: char) -> Option<Self> {
        match letter.to_ascii_uppercase() {
            'R' => Some(Self::Rams),
            'M' => Some(Self::Masks),
            'T' => Some(Self::Tomes),
            'C' => Some(Self::Crows),
            _ => None,
        }
    }

    fn index(self) -> u8 {
        match self {
            Self::Rams => 0,
            Self::Masks => 1,
            Self::Tomes => 2,
            Self::Crows => 3,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Suit {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        Suit::ALL
            .into_iter()
            .find(|suit| {
                let name = suit.name().to_ascii_lowercase();
                lower == name || lower == name.trim_end_matches('s')
            })
            .or_else(|| {
                let mut chars = lower.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Suit::from_letter(c),
                    _ => None,
                }
            })
            .ok_or_else(|| CardParseError(format!("unknown suit {s:?}")))
    }
}

/// One of the 54 fate cards, identified by a number 0–53 so that decks are
/// compact and every card exists exactly once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    pub const BLACK_JOKER: Card = Card(52);
    pub const RED_JOKER: Card = Card(53);

    /// A suited card; `value` must be 1–13.
    pub fn suited(value: u8, suit: Suit) -> Option<Card> {
        (1..=13)
            .contains(&value)
            .then(|| Card(suit.index() * 13 + value - 1))
    }

    pub fn from_index(index: u8) -> Option<Card> {
        (usize::from(index) < DECK_SIZE).then_some(Card(index))
    }

    pub fn index(self) -> u8 {
        self.0
    }

    /// All 54 cards in a fixed order (the order of a new, unshuffled deck).
    pub fn all() -> impl Iterator<Item = Card> {
        (0..DECK_SIZE as u8).map(Card)
    }

    pub fn is_black_joker(self) -> bool {
        self == Self::BLACK_JOKER
    }

    pub fn is_red_joker(self) -> bool {
        self == Self::RED_JOKER
    }

    pub fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// The printed value: 1–13, the Black Joker 0, the Red Joker 14.
    pub fn value(self) -> u8 {
        match self.0 {
            52 => 0,
            53 => 14,
            n => n % 13 + 1,
        }
    }

    /// The printed suit; jokers have none (the Red Joker's chosen suit is a
    /// decision of its owner, recorded separately).
    pub fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            return None;
        }
        Suit::ALL.get(usize::from(self.0 / 13)).copied()
    }

    /// A human-readable name: "9 of Rams", "Black Joker".
    pub fn long_name(self) -> String {
        match self.suit() {
            Some(suit) => format!("{} of {}", self.value(), suit),
            None if self.is_red_joker() => "Red Joker".to_owned(),
            None => "Black Joker".to_owned(),
        }
    }
}

impl fmt::Display for Card {
    /// Compact form used in logs and scenario files: "9R", "13C", "BJ", "RJ".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.suit() {
            Some(suit) => write!(f, "{}{}", self.value(), suit.letter()),
            None if self.is_red_joker() => f.write_str("RJ"),
            None => f.write_str("BJ"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CardParseError(pub String);

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        match s.to_ascii_uppercase().as_str() {
            "BJ" => return Ok(Card::BLACK_JOKER),
            "RJ" => return Ok(Card::RED_JOKER),
            _ => {}
        }
        let invalid = || {
            CardParseError(format!(
                "{s:?} is not a card (use e.g. 9R, 13C, 1M, 7T, BJ, RJ)"
            ))
        };
        let suit_letter = s.chars().last().ok_or_else(invalid)?;
        let suit = Suit::from_letter(suit_letter).ok_or_else(invalid)?;
        let value: u8 = s[..s.len() - suit_letter.len_utf8()]
            .parse()
            .map_err(|_| invalid())?;
        Card::suited(value, suit).ok_or_else(invalid)
    }
}

impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        raw.parse().map_err(serde::de::Error::custom)
    }
}

/// A face-down pile of cards; the top is the end of the vector.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Deck {
    cards: Vec<Card>,
}

impl Deck {
    /// All 54 cards, shuffled by the stream.
    pub fn shuffled(stream: &mut RandomStream) -> Self {
        let mut cards: Vec<Card> = Card::all().collect();
        stream.shuffle(&mut cards);
        Self { cards }
    }

    /// A deck in exactly the given order, first card on top (scenarios and tests).
    pub fn from_top_down(top_first: Vec<Card>) -> Self {
        let mut cards = top_first;
        cards.reverse();
        Self { cards }
    }

    /// Takes the top card; `None` when empty.
    pub fn draw(&mut self) -> Option<Card> {
        self.cards.pop()
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The cards from the top down (for checks and the end-of-game reveal).
    pub fn top_down(&self) -> impl Iterator<Item = Card> + '_ {
        self.cards.iter().rev().copied()
    }

    /// Replaces the deck with `cards`, shuffled.
    pub fn refill_shuffled(&mut self, cards: Vec<Card>, stream: &mut RandomStream) {
        self.cards = cards;
        stream.shuffle(&mut self.cards);
    }

    pub fn contains(&self, card: Card) -> bool {
        self.cards.contains(&card)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_card_has_a_unique_value_and_suit() {
        let cards: Vec<Card> = Card::all().collect();
        assert_eq!(cards.len(), 54);
        let distinct: BTreeSet<(u8, Option<Suit>)> =
            cards.iter().map(|c| (c.value(), c.suit())).collect();
        assert_eq!(distinct.len(), 54);
        assert_eq!(Card::BLACK_JOKER.value(), 0);
        assert_eq!(Card::RED_JOKER.value(), 14);
        assert_eq!(Card::suited(13, Suit::Crows).unwrap().value(), 13);
        assert_eq!(
            Card::suited(1, Suit::Masks).unwrap().suit(),
            Some(Suit::Masks)
        );
        assert!(Card::suited(0, Suit::Rams).is_none());
        assert!(Card::suited(14, Suit::Rams).is_none());
    }

    #[test]
    fn card_names_round_trip() {
        for card in Card::all() {
            let text = card.to_string();
            assert_eq!(text.parse::<Card>().unwrap(), card, "{text}");
            let json = serde_json::to_string(&card).unwrap();
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        }
        assert!("14R".parse::<Card>().is_err());
        assert!("9X".parse::<Card>().is_err());
        assert!("".parse::<Card>().is_err());
        assert_eq!("rj".parse::<Card>().unwrap(), Card::RED_JOKER);
    }

    #[test]
    fn the_same_key_gives_the_same_shuffle() {
        let a = Deck::shuffled(&mut RandomStream::from_seed_and_label(7, "a"));
        let b = Deck::shuffled(&mut RandomStream::from_seed_and_label(7, "a"));
        let c = Deck::shuffled(&mut RandomStream::from_seed_and_label(7, "b"));
        assert_eq!(a, b);
        assert_ne!(a, c);
        let set: BTreeSet<Card> = a.top_down().collect();
        assert_eq!(set.len(), 54);
    }

    /// Pins the algorithm: if this changes, old logs no longer replay.
    #[test]
    fn shuffle_output_is_pinned() {
        let mut deck = Deck::shuffled(&mut RandomStream::from_seed_and_label(1, "pin"));
        let top: Vec<String> = (0..5)
            .filter_map(|_| deck.draw())
            .map(|c| c.to_string())
            .collect();
        assert_eq!(top, PINNED_TOP_FIVE);
    }
    const PINNED_TOP_FIVE: [&str; 5] = ["6C", "1R", "6R", "12M", "9R"];

    #[test]
    fn every_position_is_equally_likely_for_the_first_card() {
        let mut counts = [0u32; DECK_SIZE];
        for seed in 0..27_000u64 {
            let mut deck = Deck::shuffled(&mut RandomStream::from_seed_and_label(seed, "pos"));
            let top = deck.draw().unwrap();
            counts[usize::from(top.index())] += 1;
        }
        // Expected 500 per card; allow about five standard deviations.
        for (index, count) in counts.iter().enumerate() {
            assert!((390..=610).contains(count), "card {index}: {count}");
        }
    }
}
