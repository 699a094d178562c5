//! Fair dice, as the fate decks are fair (see [`crate::fairness`]): the
//! server commits to a secret seed before the game, each player adds their
//! own entropy, and roll number `n` comes from a ChaCha20 stream keyed by
//! HMAC-SHA256(seed, label, n, both contributions). No one can steer a
//! roll, and once the seed is revealed at the end anyone can re-roll every
//! die with [`roll`] and check the game's log.

use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use soulstone_random::RandomStream;

use crate::fairness::{self, Bytes32};

/// Named in every Mage Knight game so its log says how it rolled.
pub const DICE_SCHEME: &str = "soulstone-dice/v1 (hmac-sha256 roll keys; chacha20; rejection-u32)";

/// The commitment, the seed (secret until the end), the players'
/// contributions and how many rolls were made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dice {
    pub scheme: std::borrow::Cow<'static, str>,
    pub commitment: Bytes32,
    /// Never in a view before the game ends.
    pub seed: Bytes32,
    pub contributions: [Option<Bytes32>; 2],
    pub rolls: u32,
    pub revealed: bool,
}

impl Dice {
    pub fn new(seed: Bytes32) -> Self {
        Self {
            scheme: std::borrow::Cow::Borrowed(DICE_SCHEME),
            commitment: fairness::commitment(&seed),
            seed,
            contributions: [None, None],
            rolls: 0,
            revealed: false,
        }
    }

    /// The next roll of `count` six-sided dice (does not count it: the
    /// fact that records the roll does).
    pub fn next(&self, count: u8) -> Vec<u8> {
        let contributions = [
            self.contributions[0].unwrap_or_default(),
            self.contributions[1].unwrap_or_default(),
        ];
        roll(&self.seed, self.rolls, &contributions, count)
    }
}

/// Roll number `number` of a game: `count` dice, each 1–6.
pub fn roll(seed: &Bytes32, number: u32, contributions: &[Bytes32; 2], count: u8) -> Vec<u8> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&seed.0)
        .unwrap_or_else(|_| <Hmac<Sha256> as KeyInit>::new(&Default::default()));
    mac.update(b"soulstone/mk-roll/v1\0");
    mac.update(&number.to_le_bytes());
    mac.update(&contributions[0].0);
    mac.update(&contributions[1].0);
    let mut stream = RandomStream::from_key(mac.finalize().into_bytes().into());
    (0..count)
        .map(|_| u8::try_from(stream.die(6)).unwrap_or(1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_are_reproducible_fair_and_depend_on_every_input() {
        let seed = Bytes32([3; 32]);
        let cut = [Bytes32::digest_of("a"), Bytes32::digest_of("b")];
        assert_eq!(roll(&seed, 0, &cut, 2), roll(&seed, 0, &cut, 2));
        let many: Vec<Vec<u8>> = (0..40).map(|n| roll(&seed, n, &cut, 2)).collect();
        assert_ne!(
            many,
            (0..40)
                .map(|n| roll(&seed, n + 1, &cut, 2))
                .collect::<Vec<_>>()
        );
        let other_cut = [cut[0], Bytes32::digest_of("mallory")];
        assert_ne!(
            many,
            (0..40)
                .map(|n| roll(&seed, n, &other_cut, 2))
                .collect::<Vec<_>>(),
            "the opponent's entropy matters"
        );
        let mut counts = [0u32; 6];
        for n in 0..6_000 {
            for die in roll(&seed, n, &cut, 1) {
                assert!((1..=6).contains(&die));
                counts[usize::from(die - 1)] += 1;
            }
        }
        assert!(counts.iter().all(|c| (850..1150).contains(c)), "{counts:?}");
    }
}
