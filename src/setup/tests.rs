use std::collections::{BTreeMap, BTreeSet};

use super::pool::Pool;
use super::shipped::{newest_shipped_pool, shipped_pools};
use super::*;

fn pool(id: &str) -> Pool {
    shipped_pools()
        .unwrap()
        .into_iter()
        .find(|p| p.id() == id)
        .unwrap()
}

fn m4e_pool() -> Pool {
    let mut toml =
        String::from("id = \"m4e-test\"\nname = \"Test\"\nedition = \"m4e\"\nsource = \"test\"\n");
    for (suit, name) in [
        ("rams", "S1"),
        ("masks", "S2"),
        ("tomes", "S3"),
        ("crows", "S4"),
    ] {
        toml.push_str(&format!(
            "[[strategies]]\nsuit = \"{suit}\"\nname = \"{name}\"\n"
        ));
    }
    for n in 1..=8 {
        toml.push_str(&format!("[[schemes]]\nname = \"Scheme {n}\"\n"));
    }
    Pool::parse_toml(&toml).unwrap()
}

fn request(system: GameSystem, pool: Option<&Pool>, seed: u64) -> SetupRequest<'_> {
    SetupRequest {
        system,
        pool,
        seed,
        encounter_size: EncounterSize::Scrap,
    }
}

fn malifaux_result(setup: &Setup) -> &MalifauxSetup {
    match &setup.result {
        SetupResult::Malifaux(m) => m,
        other => panic!("not a Malifaux setup: {other:?}"),
    }
}

#[test]
fn every_shipped_pool_is_valid_and_ids_are_stable() {
    let pools = shipped_pools().unwrap();
    let ids: Vec<&str> = pools.iter().map(|p| p.id()).collect();
    assert_eq!(
        ids,
        [
            "m3e-core",
            "m3e-gg1",
            "m3e-gg2",
            "m3e-gg3",
            "m3e-gg4",
            "m4e-soulstone",
            "m1e-core"
        ]
    );
    for p in &pools {
        assert!(!p.def().source.is_empty(), "{} has no source", p.id());
    }
    assert_eq!(
        newest_shipped_pool(&pools, GameSystem::Malifaux3)
            .unwrap()
            .id(),
        "m3e-gg4"
    );
    assert_eq!(
        newest_shipped_pool(&pools, GameSystem::Malifaux4)
            .unwrap()
            .id(),
        "m4e-soulstone"
    );
    let gg1 = pool("m3e-gg1");
    assert_eq!(
        gg1.strategy(Suit::Rams).unwrap().name,
        "Corrupted Ley Lines"
    );
    assert_eq!(gg1.strategy(Suit::Crows).unwrap().name, "Public Enemies");
    assert_eq!(gg1.scheme_by_value(1).unwrap().name, "Breakthrough");
    assert_eq!(gg1.scheme_by_value(13).unwrap().name, "Runic Binding");
}

#[test]
fn same_seed_same_setup_and_the_flips_explain_it() {
    let core = pool("m3e-core");
    for seed in 0..200 {
        let a = generate(request(GameSystem::Malifaux3, Some(&core), seed)).unwrap();
        let b = generate(request(GameSystem::Malifaux3, Some(&core), seed)).unwrap();
        assert_eq!(a, b);
        let m = malifaux_result(&a);
        // The last used attacker/defender flips are the recorded cards.
        let used: Vec<&Flip> = a
            .flips
            .iter()
            .filter(|f| {
                f.purpose == FlipPurpose::AttackerDefender && f.outcome == FlipOutcome::Used
            })
            .collect();
        assert_eq!(used.len(), 2, "seed {seed}");
        assert!(
            used.iter()
                .any(|f| f.seat == m.attacker && f.drawn == Drawn::Card(m.attacker_card.unwrap()))
        );
        assert!(
            used.iter().any(|f| f.seat == m.attacker.other()
                && f.drawn == Drawn::Card(m.defender_card.unwrap()))
        );
        assert!(m.attacker_card.unwrap().value() > m.defender_card.unwrap().value());
        let pool_flips: Vec<&Flip> = a
            .flips
            .iter()
            .filter(|f| f.purpose == FlipPurpose::SchemePool && f.outcome == FlipOutcome::Used)
            .collect();
        assert_eq!(pool_flips.len(), 5);
        assert!(pool_flips.iter().all(|f| f.seat == m.attacker));
    }
}

#[test]
fn jokers_never_decide_the_attacker_and_ties_reflip() {
    let core = pool("m3e-core");
    let mut saw_joker_reflip = false;
    let mut saw_tie_reflip = false;
    for seed in 0..3_000 {
        let setup = generate(request(GameSystem::Malifaux3, Some(&core), seed)).unwrap();
        let m = malifaux_result(&setup);
        assert!(!m.attacker_card.unwrap().is_joker() && !m.defender_card.unwrap().is_joker());
        for flip in &setup.flips {
            if let Drawn::Card(card) = flip.drawn
                && card.is_joker()
            {
                assert_ne!(
                    flip.outcome,
                    FlipOutcome::Used,
                    "seed {seed}: a joker was used"
                );
                saw_joker_reflip |= flip.purpose == FlipPurpose::AttackerDefender;
            }
            saw_tie_reflip |= flip.outcome == FlipOutcome::ReflippedTie;
        }
    }
    assert!(saw_joker_reflip && saw_tie_reflip);
}

#[test]
fn third_edition_scheme_pools_are_five_distinct_schemes_chosen_by_value() {
    let core = pool("m3e-core");
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    let runs = 13_000;
    let mut saw_duplicate = false;
    for seed in 0..runs {
        let setup = generate(request(GameSystem::Malifaux3, Some(&core), seed)).unwrap();
        let schemes = &malifaux_result(&setup).scheme_pool;
        assert_eq!(schemes.len(), 5);
        let distinct: BTreeSet<&str> = schemes.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(distinct.len(), 5, "seed {seed}: {schemes:?}");
        for s in schemes {
            assert_eq!(core.scheme_by_value(s.value.unwrap()).unwrap().name, s.name);
            *counts.entry(s.name.clone()).or_default() += 1;
        }
        saw_duplicate |= setup
            .flips
            .iter()
            .any(|f| f.outcome == FlipOutcome::ReflippedDuplicate);
    }
    assert!(saw_duplicate);
    assert_eq!(counts.len(), 13);
    // Each scheme is in 5/13 of the pools: 5,000 expected, sd ≈ 55.
    for (name, count) in counts {
        assert!((4_700..=5_300).contains(&count), "{name}: {count}");
    }
}

#[test]
fn strategies_and_deployments_are_equally_likely() {
    let core = pool("m3e-core");
    let mut strategies: BTreeMap<String, u32> = BTreeMap::new();
    let mut deployments: BTreeMap<DeploymentKind, u32> = BTreeMap::new();
    let mut attackers: BTreeMap<Seat, u32> = BTreeMap::new();
    for seed in 0..20_000 {
        let setup = generate(request(GameSystem::Malifaux3, Some(&core), seed)).unwrap();
        let m = malifaux_result(&setup);
        *strategies.entry(m.strategy.name.clone()).or_default() += 1;
        *deployments.entry(m.deployment.unwrap()).or_default() += 1;
        *attackers.entry(m.attacker).or_default() += 1;
        assert_eq!(
            core.strategy(m.attacker_card.unwrap().suit().unwrap())
                .unwrap()
                .name,
            m.strategy.name
        );
        assert_eq!(
            core.deployment(m.defender_card.unwrap().suit().unwrap()),
            m.deployment
        );
    }
    // 5,000 expected each; sd ≈ 61.
    for count in strategies.values().chain(deployments.values()) {
        assert!(
            (4_650..=5_350).contains(count),
            "{strategies:?} {deployments:?}"
        );
    }
    assert_eq!(strategies.len(), 4);
    assert_eq!(deployments.len(), 4);
    for count in attackers.values() {
        assert!((9_500..=10_500).contains(count), "{attackers:?}");
    }
}

#[test]
fn fourth_edition_deals_three_distinct_scheme_cards_evenly() {
    let pool = m4e_pool();
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for seed in 0..16_000 {
        let setup = generate(request(GameSystem::Malifaux4, Some(&pool), seed)).unwrap();
        let m = malifaux_result(&setup);
        assert_eq!(m.scheme_pool.len(), 3);
        let distinct: BTreeSet<&str> = m.scheme_pool.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(distinct.len(), 3);
        let dealt: Vec<&Flip> = setup
            .flips
            .iter()
            .filter(|f| matches!(f.drawn, Drawn::SchemeCard(_)))
            .collect();
        assert_eq!(dealt.len(), 3);
        assert!(dealt.iter().all(|f| f.seat == m.attacker));
        for s in &m.scheme_pool {
            *counts.entry(s.name.clone()).or_default() += 1;
        }
    }
    // 3/8 of 16,000 = 6,000 expected; sd ≈ 61.
    assert_eq!(counts.len(), 8);
    for (name, count) in counts {
        assert!((5_650..=6_350).contains(&count), "{name}: {count}");
    }
}

#[test]
fn pool_must_match_the_edition() {
    let core = pool("m3e-core");
    let err = generate(request(GameSystem::Malifaux4, Some(&core), 1)).unwrap_err();
    assert!(matches!(err, SetupError::WrongEdition { .. }), "{err}");
    let err = generate(request(GameSystem::Malifaux3, None, 1)).unwrap_err();
    assert!(matches!(err, SetupError::PoolRequired { .. }));
    assert!(generate(request(GameSystem::MageKnight, None, 1)).is_ok());
}

/// Before a 4th edition season is imported, a flip still gives attacker,
/// defender and the two suits, and says what the suits are for; the same
/// seed with the season's pool picks the same suits and then names them.
#[test]
fn fourth_edition_flips_suits_without_a_pool() {
    let season = m4e_pool();
    for seed in 0..200 {
        let bare = generate(request(GameSystem::Malifaux4, None, seed)).unwrap();
        let full = generate(request(GameSystem::Malifaux4, Some(&season), seed)).unwrap();
        let (b, f) = (malifaux_result(&bare), malifaux_result(&full));
        assert_eq!(b.attacker, f.attacker);
        assert_eq!(b.strategy.suit, f.strategy.suit);
        assert_eq!(b.deployment_suit, f.deployment_suit);
        assert!(b.deployment.is_none() && b.scheme_pool.is_empty());
        assert!(b.strategy.name.contains(&b.strategy.suit.to_string()));
        assert!(bare.pool.is_none());
    }
}

/// An announced scenario is the pool's own names, the right number of
/// schemes, nothing flipped; anything not in the pool is refused by name.
#[test]
fn announced_scenarios_are_checked_against_the_pool() {
    let season = m4e_pool();
    let schemes: Vec<String> = ["Scheme 1", "Scheme 4", "Scheme 7"]
        .map(String::from)
        .to_vec();
    let setup = announce(
        GameSystem::Malifaux4,
        &season,
        &Announcement {
            strategy: "S3",
            deployment: "flank",
            schemes: &schemes,
        },
    )
    .unwrap();
    assert!(setup.announced && setup.flips.is_empty());
    let m = malifaux_result(&setup);
    assert_eq!(m.strategy.name, "S3");
    assert_eq!(m.deployment, Some(pool::DeploymentKind::Flank));
    assert_eq!(m.scheme_pool.len(), 3);
    assert_eq!(
        setup.pool.as_ref().and_then(|p| p.revision.clone()),
        Some(season.revision())
    );
    let two = &schemes[..2];
    for (strategy, deployment, schemes, words) in [
        ("Nope", "flank", &schemes[..], "strategy \"Nope\""),
        ("S3", "diagonal", &schemes[..], "deployment \"diagonal\""),
        ("S3", "Flank Deployment", two, "3 different schemes, not 2"),
    ] {
        let err = announce(
            GameSystem::Malifaux4,
            &season,
            &Announcement {
                strategy,
                deployment,
                schemes,
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains(words), "{err}");
    }
}

#[test]
fn first_edition_follows_the_tables() {
    let core = pool("m1e-core");
    let mut strategy_counts: BTreeMap<Option<String>, u32> = BTreeMap::new();
    let mut joker_deployments = 0;
    let runs = 27_000;
    for seed in 0..runs {
        let setup = generate(SetupRequest {
            system: GameSystem::Malifaux1,
            pool: Some(&core),
            seed,
            encounter_size: EncounterSize::Brawl,
        })
        .unwrap();
        let SetupResult::FirstEdition(first) = &setup.result else {
            panic!("not 1st edition");
        };
        assert_eq!(first.encounter.max_hand, 7);
        assert_eq!(first.encounter.masters, 2);
        let value = first.deployment_card.value();
        match value {
            0 => assert_eq!(first.deployment_chosen_by, Some(Seat::A)),
            14 => assert_eq!(first.deployment_chosen_by, Some(Seat::B)),
            1..=4 => assert_eq!(first.deployment, Some(DeploymentKind::Diagonal)),
            5..=9 => assert_eq!(first.deployment, Some(DeploymentKind::StandardFirstEdition)),
            _ => assert_eq!(first.deployment, Some(DeploymentKind::Corners)),
        }
        if first.deployment.is_none() {
            joker_deployments += 1;
        }
        assert_eq!(first.strategies.len(), 2);
        for s in &first.strategies {
            match s.card.value() {
                0 | 14 => assert!(s.strategy.is_none()),
                v => assert_eq!(s.strategy.as_deref(), core.strategy_for_value(v)),
            }
            *strategy_counts.entry(s.strategy.clone()).or_default() += 1;
        }
    }
    assert!(joker_deployments > 0);
    // Treasure Hunt takes values 1–3: 12 of 54 cards; 54,000 flips → 12,000 expected.
    let treasure = strategy_counts[&Some("Treasure Hunt".to_owned())];
    assert!((11_600..=12_400).contains(&treasure), "{strategy_counts:?}");
    let choice = strategy_counts[&None];
    assert!((1_800..=2_200).contains(&choice), "{strategy_counts:?}");
}

#[test]
fn mage_knight_rolls_decide_first_player_and_distances() {
    let mut firsts: BTreeMap<Seat, u32> = BTreeMap::new();
    let mut saw_reroll = false;
    for seed in 0..10_000 {
        let setup = generate(request(GameSystem::MageKnight, None, seed)).unwrap();
        let SetupResult::MageKnight(mk) = setup.result else {
            panic!("not Mage Knight");
        };
        let last_two = &setup.rolls[setup.rolls.len() - 2..];
        assert_eq!(last_two[0].total, mk.objective_distance_a);
        assert_eq!(last_two[1].total, mk.objective_distance_b);
        assert_ne!(mk.objective_distance_a, mk.objective_distance_b);
        let first_is_a = mk.objective_distance_a > mk.objective_distance_b;
        assert_eq!(mk.first_player == Seat::A, first_is_a);
        for roll in &setup.rolls {
            assert!(roll.dice.iter().all(|d| (1..=6).contains(d)));
            assert!((2..=12).contains(&roll.total));
        }
        saw_reroll |= setup.rolls.iter().any(|r| r.rerolled);
        *firsts.entry(mk.first_player).or_default() += 1;
    }
    assert!(saw_reroll);
    for count in firsts.values() {
        assert!((4_750..=5_250).contains(count), "{firsts:?}");
    }
}

/// Pins exact outputs: a change here means old permalinks show different setups.
#[test]
fn fixed_seed_outputs_are_pinned() {
    let core = pool("m3e-core");
    let setup = generate(request(GameSystem::Malifaux3, Some(&core), 42)).unwrap();
    let m = malifaux_result(&setup);
    let summary = format!(
        "{:?} {} {} {} {:?} {:?}",
        m.attacker,
        m.attacker_card.unwrap(),
        m.defender_card.unwrap(),
        m.strategy.name,
        m.deployment.unwrap(),
        m.scheme_pool
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
    );
    assert_eq!(summary, PINNED_M3E_SEED_42);
    let mk = generate(request(GameSystem::MageKnight, None, 42)).unwrap();
    assert_eq!(format!("{:?}", mk.result), PINNED_MK_SEED_42);
}

const PINNED_M3E_SEED_42: &str = "A 11C 9R Reckoning Wedge [\"Detonate Charges\", \"Deliver a Message\", \"Take Prisoner\", \"Hold Up Their Forces\", \"Search the Ruins\"]";
const PINNED_MK_SEED_42: &str = "MageKnight(MageKnightSetup { first_player: A, objective_distance_a: 11, objective_distance_b: 3 })";

/// A round's shared scenario leaves the attacker to each table's own flip:
/// over many tables each seat attacks about half the time, the flip is
/// reproducible from its seed, and the higher card always attacks.
#[test]
fn table_sides_favour_neither_seat() {
    let tables = 4_000;
    let mut a_attacks = 0;
    for seed in 0..tables {
        let sides = flip_sides(GameSystem::Malifaux4, seed).unwrap();
        assert_eq!(sides, flip_sides(GameSystem::Malifaux4, seed).unwrap());
        assert!(sides.attacker_card.value() > sides.defender_card.value());
        assert!(!sides.attacker_card.is_joker() && !sides.defender_card.is_joker());
        if sides.attacker == Seat::A {
            a_attacks += 1;
        }
    }
    let share = f64::from(a_attacks) / tables as f64;
    // 4,000 fair flips land within 0.47–0.53 but for one time in 10^4.
    assert!((0.47..=0.53).contains(&share), "seat A attacked {share}");
}

/// Soulstone's own 4th edition pool names what the engine plays: each
/// suited strategy of the objectives file under its suit, and every scheme
/// with the same successors, so a setup flipped with the pool is a game
/// the browser can host.
#[test]
fn the_shipped_4e_pool_matches_the_engines_objectives() {
    let objectives: toml::Value =
        toml::from_str(include_str!("../../content/m4e/objectives.toml")).unwrap();
    let pools = shipped_pools().unwrap();
    let pool = pools.iter().find(|p| p.id() == "m4e-soulstone").unwrap();
    let suited: Vec<(Suit, String)> = objectives["strategy"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| {
            let suit: Suit = s.get("suit")?.clone().try_into().unwrap();
            Some((suit, s["name"].as_str()?.to_owned()))
        })
        .collect();
    assert_eq!(suited.len(), 4);
    for (suit, name) in suited {
        assert_eq!(pool.strategy(suit).unwrap().name, name, "{suit:?}");
    }
    let engine_schemes: Vec<(String, Vec<String>)> = objectives["scheme"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let next = s["next"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap().to_owned())
                .collect();
            (s["name"].as_str().unwrap().to_owned(), next)
        })
        .collect();
    let pool_schemes: Vec<(String, Vec<String>)> = pool
        .def()
        .schemes
        .iter()
        .map(|s| (s.name.clone(), s.next.clone()))
        .collect();
    assert_eq!(pool_schemes, engine_schemes);
}
