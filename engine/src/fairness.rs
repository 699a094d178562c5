//! Provable fairness. At game start the server commits to a secret 256-bit
//! seed by publishing its SHA-256. Before any shuffle each player contributes
//! entropy (the digital cut of the deck). Every shuffle of a deck uses a
//! ChaCha20 stream keyed by HMAC-SHA256(seed, label, seat, shuffle number,
//! both contributions). At the end the seed is revealed, and anyone can
//! check the commitment and re-run every shuffle with [`shuffle_cards`].

use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::Seat;
use super::fate::Card;
use soulstone_random::{RandomStream, SHUFFLE_ALGORITHM};

/// Named with every game so a log states exactly how it was shuffled.
pub const FAIRNESS_SCHEME: &str =
    "soulstone-fairness/v1 (hmac-sha256 stream keys; fisher-yates/chacha20/rejection-u32/v1)";

pub fn shuffle_algorithm() -> &'static str {
    SHUFFLE_ALGORITHM
}

/// A 32-byte value written as 64 hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bytes32(pub [u8; 32]);

impl std::fmt::Debug for Bytes32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", hex::encode(self.0))
    }
}

impl Serialize for Bytes32 {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&hex::encode(self.0))
    }
}

impl<'de> Deserialize<'de> for Bytes32 {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Bytes32::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl Bytes32 {
    pub fn parse(text: &str) -> Result<Self, String> {
        let bytes = hex::decode(text.trim()).map_err(|_| "expected 64 hex digits".to_owned())?;
        let array: [u8; 32] = bytes
            .try_into()
            .map_err(|_| "expected 64 hex digits (32 bytes)".to_owned())?;
        Ok(Self(array))
    }

    /// A value derived from any text (players may type their contribution).
    pub fn digest_of(text: &str) -> Self {
        Self(Sha256::digest(text.as_bytes()).into())
    }
}

/// The public commitment to a server seed.
pub fn commitment(seed: &Bytes32) -> Bytes32 {
    let mut hasher = Sha256::new();
    hasher.update(b"soulstone/seed-commitment/v1\0");
    hasher.update(seed.0);
    Bytes32(hasher.finalize().into())
}

/// The key of one shuffle's random stream.
pub fn shuffle_key(
    seed: &Bytes32,
    seat: Seat,
    shuffle_number: u32,
    contributions: &[Bytes32; 2],
) -> [u8; 32] {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&seed.0)
        .unwrap_or_else(|_| <Hmac<Sha256> as KeyInit>::new(&Default::default()));
    mac.update(b"soulstone/deck-shuffle/v1\0");
    mac.update(match seat {
        Seat::A => b"a",
        Seat::B => b"b",
    });
    mac.update(&shuffle_number.to_le_bytes());
    mac.update(&contributions[0].0);
    mac.update(&contributions[1].0);
    mac.finalize().into_bytes().into()
}

/// Shuffles a set of cards for one deck shuffle. The input order does not
/// matter: cards are sorted first, so the result depends only on which cards
/// are shuffled and the key. Returns the deck top card first.
pub fn shuffle_cards(
    seed: &Bytes32,
    seat: Seat,
    shuffle_number: u32,
    contributions: &[Bytes32; 2],
    cards: &[Card],
) -> Vec<Card> {
    let mut sorted = cards.to_vec();
    sorted.sort_unstable();
    let mut stream = RandomStream::from_key(shuffle_key(seed, seat, shuffle_number, contributions));
    stream.shuffle(&mut sorted);
    sorted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitments_and_shuffles_are_reproducible_and_depend_on_every_input() {
        let seed = Bytes32([7; 32]);
        let contributions = [Bytes32::digest_of("alice"), Bytes32::digest_of("bob")];
        let cards: Vec<Card> = Card::all().collect();
        let first = shuffle_cards(&seed, Seat::A, 1, &contributions, &cards);
        let reversed: Vec<Card> = cards.iter().rev().copied().collect();
        assert_eq!(
            first,
            shuffle_cards(&seed, Seat::A, 1, &contributions, &reversed)
        );
        assert_ne!(
            first,
            shuffle_cards(&seed, Seat::B, 1, &contributions, &cards)
        );
        assert_ne!(
            first,
            shuffle_cards(&seed, Seat::A, 2, &contributions, &cards)
        );
        let other = [contributions[0], Bytes32::digest_of("mallory")];
        assert_ne!(
            first,
            shuffle_cards(&seed, Seat::A, 1, &other, &cards),
            "the opponent's cut matters"
        );
        assert_ne!(commitment(&seed), commitment(&Bytes32([8; 32])));
        let json = serde_json::to_string(&seed).unwrap();
        assert_eq!(serde_json::from_str::<Bytes32>(&json).unwrap(), seed);
    }
}
