//! Scraps between the shipped 1st edition crews, each crew against the
//! next in the book, with seeds of their own: the 1st edition benches'
//! games.

use soulstone_engine::fairness::Bytes32;
use soulstone_engine::first_edition as m1e;

/// `count` setups; setup `n` pits crew `n` against crew `n + 1` (the book
/// order, round and round).
pub fn setups(count: usize, label: &str) -> Vec<m1e::Setup> {
    let book = soulstone::content::shipped_first_edition().expect("1st edition content");
    let conditions =
        soulstone::content::shipped_first_edition_conditions().expect("1st edition conditions");
    let lists = book.crews();
    (0..count)
        .map(|seed| {
            let crews = [seed, seed + 1].map(|i| {
                book.hire(&lists[i % lists.len()])
                    .expect("a ready crew hires")
            });
            m1e::Setup {
                encounter: crews[0].encounter,
                crews,
                summonable: book.models().cloned().collect(),
                conditions: conditions.clone(),
                seed: Bytes32::digest_of(&format!("{label} {seed}")),
            }
        })
        .collect()
}
