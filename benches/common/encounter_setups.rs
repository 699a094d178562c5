//! Whole encounters set up from the shipped crew lists, for the benches
//! that play them (included with `#[path]`: not a bench of its own).

use soulstone::content::{load_for_server, shipped_crews};
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::encounter::{Brought, new_encounter};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::state::NewGame;

/// `count` 4th edition encounters, seed `s` bringing list `s` against list
/// `opponent(s)` (both taken round the shipped lists).
#[allow(dead_code)] // each bench includes this file and uses what it needs
pub fn setups(count: u64, opponent: impl Fn(usize) -> usize) -> Vec<NewGame> {
    setups_of("m4e", count, opponent)
}

/// As [`setups`], for the edition whose content folder is `edition`.
pub fn setups_of(edition: &str, count: u64, opponent: impl Fn(usize) -> usize) -> Vec<NewGame> {
    let catalog = load_for_server(None).expect("content");
    let lists: Vec<(String, CrewList)> = shipped_crews()
        .iter()
        .filter(|(path, _)| path.contains(edition))
        .map(|(path, text)| {
            (
                path.to_string(),
                CrewList::parse(text).expect("a crew list"),
            )
        })
        .collect();
    (0..count)
        .map(|seed| {
            let bring = |i: usize| {
                let (name, list) = &lists[i % lists.len()];
                [Brought { name, list }]
            };
            let (a, b) = (bring(seed as usize), bring(opponent(seed as usize)));
            let mut bytes = [0u8; 32];
            bytes[..8].copy_from_slice(&seed.to_le_bytes());
            new_encounter(&catalog, [&a, &b], Bytes32(bytes), None).expect("an encounter")
        })
        .collect()
}
