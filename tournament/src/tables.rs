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
    // Tables in use: one per pair, and as far as any fixed table reaches.
    // A pair moved to avoid a repeat stays within them, so numbers never
    // run past the tables in use nor leave one empty between.
    let in_use = taken
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(u32::try_from(pairs.len()).unwrap_or(u32::MAX));
    let mut next_candidate = 1u32;
    for (i, &(a, b)) in pairs.iter().enumerate() {
        if assigned[i].is_some() {
            continue;
        }
        while taken.contains(&next_candidate) {
            next_candidate += 1;
        }
        let free: Vec<u32> = (next_candidate..=in_use)
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

    proptest::proptest! {
        /// Whatever the fixed tables and past tables: every pair gets its
        /// own table, a fixed table is kept, and the numbers are exactly
        /// 1 to the tables in use (one per pair, or as far as a fixed
        /// table reaches), none skipped.
        #[test]
        fn tables_are_distinct_kept_and_never_skip_a_number(
            n in 1usize..40,
            fixed_seed in proptest::collection::vec((0u32..80, 1u32..50), 0..6),
            used_seed in proptest::collection::vec((0u32..80, 1u32..50), 0..60),
        ) {
            let pairs: Vec<(PlayerId, PlayerId)> =
                (0..n).map(|i| (2 * i as PlayerId, 2 * i as PlayerId + 1)).collect();
            let players = 2 * n as PlayerId;
            let fixed: BTreeMap<PlayerId, u32> = fixed_seed
                .into_iter()
                .filter(|(p, _)| PlayerId::from(*p) < players)
                .map(|(p, t)| (PlayerId::from(p), t))
                .collect();
            let mut used: BTreeMap<PlayerId, BTreeSet<u32>> = BTreeMap::new();
            for (p, t) in used_seed {
                used.entry(PlayerId::from(p) % players).or_default().insert(t);
            }
            let assigned = assign_tables(&pairs, &fixed, &used);
            proptest::prop_assert_eq!(assigned.len(), n);
            let tables: BTreeSet<u32> = assigned.iter().map(|t| t.0).collect();
            proptest::prop_assert_eq!(tables.len(), n, "one table per pair");
            let max_fixed = assigned
                .iter()
                .filter(|(t, a, b)| fixed.get(a) == Some(t) || fixed.get(b) == Some(t))
                .map(|t| t.0)
                .max()
                .unwrap_or(0);
            let in_use = max_fixed.max(n as u32);
            proptest::prop_assert!(tables.iter().all(|t| (1..=in_use).contains(t)), "{:?}", tables);
            if max_fixed <= n as u32 {
                proptest::prop_assert_eq!(tables, (1..=n as u32).collect::<BTreeSet<_>>());
            }
        }
    }
}
