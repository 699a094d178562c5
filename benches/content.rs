// A benchmark may stop at the first broken assumption.
#![allow(clippy::expect_used, clippy::unwrap_used)]

//! Game content: loading every shipped stat card and the tokens (parse,
//! check, index) and
//! checking a crew list against the hiring rules. Targets: under 50 ms and
//! under 1 ms. Figures are in docs/benchmarks.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use soulstone_engine::content::Catalog;
use soulstone_engine::content::crew::CrewList;

fn content(c: &mut Criterion) {
    let tokens = soulstone::content::shipped_edition_files();
    let cards = soulstone::content::shipped_cards();
    let load = || {
        Catalog::load(tokens.iter().copied(), cards.iter().copied()).expect("shipped content loads")
    };
    let catalog = load();
    assert!(catalog.len() >= 30);
    let (_, text) = soulstone::content::shipped_crews()[0];
    let list = CrewList::parse(text).unwrap();
    assert!(list.hire(&catalog).is_ok());

    let mut group = c.benchmark_group("content");
    group.bench_function("load_all_shipped_cards", |b| b.iter(|| black_box(load())));
    group.bench_function("parse_and_hire_a_crew_list", |b| {
        b.iter(|| {
            let list = CrewList::parse(black_box(text)).unwrap();
            black_box(list.hire(&catalog).is_ok())
        })
    });
    group.finish();
}

criterion_group!(benches, content);
criterion_main!(benches);
