//! Seeded randomness shared by the rules engine and the pairing: a ChaCha20
//! stream and a Fisher–Yates shuffle with rejection sampling, written here
//! rather than taken from a crate so that a dependency upgrade can never
//! change a recorded shuffle. Pure: no IO, no clock.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// Recorded with every shuffle so old logs can always be re-checked.
pub const SHUFFLE_ALGORITHM: &str = "fisher-yates/chacha20/rejection-u32/v1";

/// A ChaCha20 random stream with a 256-bit key, the only source of chance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomStream {
    rng: ChaCha20Rng,
}

impl RandomStream {
    pub fn from_key(key: [u8; 32]) -> Self {
        Self {
            rng: ChaCha20Rng::from_seed(key),
        }
    }

    /// A stream for a labelled purpose, derived from a public numeric seed
    /// (setups: the seed in a permalink reproduces the result).
    pub fn from_seed_and_label(seed: u64, label: &str) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(b"soulstone/stream/v1\0");
        hasher.update(seed.to_le_bytes());
        hasher.update(label.as_bytes());
        Self::from_key(hasher.finalize().into())
    }

    pub fn next_u32(&mut self) -> u32 {
        self.rng.next_u32()
    }

    /// 32 bytes: eight draws of [`Self::next_u32`], little-endian (a key,
    /// a seed or entropy drawn from this stream).
    pub fn next_bytes32(&mut self) -> [u8; 32] {
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_mut(4) {
            chunk.copy_from_slice(&self.next_u32().to_le_bytes());
        }
        bytes
    }

    /// A uniform integer in `0..bound` (`bound` ≥ 1) without modulo bias:
    /// draws that fall in the short final partial range are rejected.
    pub fn below(&mut self, bound: u32) -> u32 {
        if bound <= 1 {
            return 0;
        }
        // 2^32 mod bound values at the bottom would over-represent small results.
        let rejection_zone = bound.wrapping_neg() % bound;
        loop {
            let draw = self.next_u32();
            if draw >= rejection_zone {
                return draw % bound;
            }
        }
    }

    /// A die roll 1–`sides`.
    pub fn die(&mut self, sides: u32) -> u32 {
        self.below(sides) + 1
    }

    /// Fisher–Yates from the last position down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let bound = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let j = self.below(bound) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_unbiased_enough_and_in_range() {
        let mut stream = RandomStream::from_seed_and_label(3, "below");
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            let v = stream.below(6);
            counts[v as usize] += 1;
        }
        for count in counts {
            // Expected 10,000 each; six standard deviations is about ±550.
            assert!((9_400..=10_600).contains(&count), "{counts:?}");
        }
        assert_eq!(stream.below(1), 0);
    }

    #[test]
    fn shuffles_are_permutations_and_depend_on_the_label() {
        let mut a: Vec<u32> = (0..100).collect();
        let mut b = a.clone();
        RandomStream::from_seed_and_label(9, "x").shuffle(&mut a);
        RandomStream::from_seed_and_label(9, "y").shuffle(&mut b);
        assert_ne!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<u32>>());
    }
}
