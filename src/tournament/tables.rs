//! Table numbers: the best-placed pairs get the lowest tables, a player with a
//! fixed table (accessibility) always gets it, and nobody sits at a table they
//! have already played at when a nearby free table avoids it.

use std::collections::{BTreeMap, BTreeSet};

use super::PlayerId;

/// How many free tables further down a pair may be moved to avoid a repeat.
const REPEAT_LOOKAHEAD: usize = 3;

/// Assigns tables to pairs given best-placed first. Returns (table, a, b)
/// sorted by table.
pub fn assign_tables(
    pairs: &[(PlayerId, PlayerId)],
    fixed: &BTreeMap<PlayerId, u32>,
    used_before: &BTreeMap<PlayerId, BTreeSet<u32>>,
) -> Vec<(u32, PlayerId, PlayerId)> {
    let mut taken: BTreeSet<u32> = BTreeSet::new();
    let mut assigned: Vec<Option<u32>> = vec![None; pairs.len()];
    // Fixed tables first, in placing order (a later claim on the same table loses).
    for (i, &(a, b)) in pairs.iter().enumerate() {
        let wanted = fixed.get(&a).or_else(|| fixed.get(&b)).copied();
        if let Some(table) = wanted.filter(|t| *t > 0 && !taken.contains(t)) {
            taken.insert(table);
            assigned[i] = Some(table);
        }
    }
    let sat_at =
        |player: PlayerId, table: u32| used_before.get(&player).is_some_and(|t| t.contains(&table));
    let mut next_candidate = 1u32;
    for (i, &(a, b)) in pairs.iter().enumerate() {
        if assigned[i].is_some() {
            continue;
        }
        while taken.contains(&next_candidate) {
            next_candidate += 1;
        }
        let free: Vec<u32> = (next_candidate..)
            .filter(|t| !taken.contains(t))
            .take(REPEAT_LOOKAHEAD + 1)
            .collect();
        let table = free
            .iter()
            .copied()
            .find(|&t| !sat_at(a, t) && !sat_at(b, t))
            .unwrap_or(next_candidate);
        taken.insert(table);
        assigned[i] = Some(table);
    }
    let mut result: Vec<(u32, PlayerId, PlayerId)> = pairs
        .iter()
        .zip(assigned)
        .map(|(&(a, b), t)| (t.unwrap_or(0), a, b))
        .collect();
    result.sort_unstable();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_pairs_low_tables_fixed_tables_kept_repeats_avoided() {
        let pairs = [(1, 2), (3, 4), (5, 6), (7, 8)];
        let plain = assign_tables(&pairs, &BTreeMap::new(), &BTreeMap::new());
        assert_eq!(plain, vec![(1, 1, 2), (2, 3, 4), (3, 5, 6), (4, 7, 8)]);

        let fixed = BTreeMap::from([(6, 1)]);
        let with_fixed = assign_tables(&pairs, &fixed, &BTreeMap::new());
        assert!(with_fixed.contains(&(1, 5, 6)));
        assert!(with_fixed.contains(&(2, 1, 2)));

        let used = BTreeMap::from([(1, BTreeSet::from([1]))]);
        let moved = assign_tables(&pairs, &BTreeMap::new(), &used);
        let table_of_1 = moved.iter().find(|(_, a, _)| *a == 1).unwrap().0;
        assert_ne!(table_of_1, 1, "player 1 already played at table 1");
        let tables: BTreeSet<u32> = moved.iter().map(|t| t.0).collect();
        assert_eq!(tables.len(), 4);
    }
}
