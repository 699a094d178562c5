// A benchmark may stop at the first broken assumption.
#![allow(clippy::expect_used, clippy::unwrap_used)]

//! Hard pairing fields from issue 20, each paired once in a process of its
//! own so that its peak memory can be read: `cargo bench --bench
//! pairing_hard` prints a Markdown table (figures in docs/benchmarks.md).
//! It reports what it sees, proven or not, and asserts only that every
//! field pairs and that an unproven pairing carries its lower bound.

use std::process::Command;
use std::time::Instant;

use soulstone::tournament::synthetic::{Clubs, HardField};

fn fields() -> Vec<(String, HardField)> {
    let mut out = Vec::new();
    for players in [1_024usize, 8_192] {
        let base = HardField {
            players,
            rounds: 5,
            clubs: Clubs::None,
            uneven_initial_points: false,
            met_group: false,
            seed: 2026,
        };
        let shapes = [
            ("no clubs, after 5 rounds", base),
            (
                "two clubs 60/40, after 5 rounds",
                HardField {
                    clubs: Clubs::TwoClubs,
                    ..base
                },
            ),
            (
                "one region of 30%, after 5 rounds",
                HardField {
                    clubs: Clubs::OneRegion,
                    ..base
                },
            ),
            (
                "a group of six that all met, after 5 rounds",
                HardField {
                    clubs: Clubs::Many,
                    met_group: true,
                    ..base
                },
            ),
            (
                "round 1, initial points 1 or 3",
                HardField {
                    rounds: 0,
                    clubs: Clubs::Many,
                    uneven_initial_points: true,
                    ..base
                },
            ),
        ];
        for (label, field) in shapes {
            out.push((format!("{players} players, {label}"), field));
        }
        // The issue asks for 5 to 8 rounds: the later round too, where the
        // score groups are thinner and more pairs have met.
        for (label, field) in shapes.into_iter().filter(|(_, f)| f.rounds == 5) {
            out.push((
                format!(
                    "{players} players, {}",
                    label.replace("5 rounds", "8 rounds")
                ),
                HardField { rounds: 8, ..field },
            ));
        }
    }
    out.push((
        "100000 players in one club, round 1".into(),
        HardField {
            players: 100_000,
            rounds: 0,
            clubs: Clubs::OneClub,
            uneven_initial_points: false,
            met_group: false,
            seed: 2026,
        },
    ));
    out
}

/// Peak resident memory of this process, in MiB (Linux).
fn peak_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kib| kib.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

fn run_one(index: usize) {
    let (label, field) = &fields()[index];
    let snapshot = field.snapshot();
    let started = Instant::now();
    let pairing = snapshot.pair_next_round().expect("the field pairs");
    let elapsed = started.elapsed();
    assert_eq!(pairing.proven_optimal, pairing.lower_bound.is_none());
    let c = pairing.cost;
    let proof = match pairing.lower_bound {
        None => "proven".to_owned(),
        Some(b) => format!(
            "unproven, bound ({}, {}, {}, {})",
            b.rematches, b.same_club, b.score_diff_squared, b.rank_diff_squared
        ),
    };
    println!(
        "| {label} | {:.1} ms | {:.0} MiB | {:?} | {proof} | ({}, {}, {}, {}) |",
        elapsed.as_secs_f64() * 1e3,
        peak_mib(),
        pairing.method,
        c.rematches,
        c.same_club,
        c.score_diff_squared,
        c.rank_diff_squared,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--field") {
        run_one(args[i + 1].parse().expect("field index"));
        return;
    }
    println!("| field | time | peak memory | method | proof | cost |");
    println!("| --- | ---: | ---: | --- | --- | --- |");
    let exe = std::env::current_exe().expect("own path");
    for i in 0..fields().len() {
        let status = Command::new(&exe)
            .args(["--field", &i.to_string()])
            .status()
            .expect("run a field");
        assert!(status.success(), "field {i} failed");
    }
}
