// A benchmark may stop at the first broken assumption.
#![allow(clippy::expect_used, clippy::unwrap_used)]

//! Pairing synthetic events after five random rounds with clubs, and the
//! standings page of a 1,024-player, 6-round event on SQLite.
//! Figures and the networkx cross-check are in docs/benchmarks.md.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use soulstone::tournament::synthetic::random_event;

fn pairing(c: &mut Criterion) {
    let mut group = c.benchmark_group("pair_next_round");
    group.sample_size(10);
    for players in [16usize, 128, 1_024, 8_192] {
        let snapshot = random_event(players, 5, 2026);
        group.bench_with_input(
            BenchmarkId::from_parameter(players),
            &snapshot,
            |b, snapshot| {
                b.iter(|| {
                    let pairing = snapshot.pair_next_round().expect("pairing");
                    assert!(pairing.proven_optimal);
                    assert_eq!(pairing.cost.rematches, 0, "no avoidable rematches");
                    pairing
                })
            },
        );
    }
    group.finish();
}

fn standings_page(c: &mut Criterion) {
    use soulstone::config::DatabaseUrl;
    use soulstone::db::Db;
    use soulstone::events::demo::{DemoSpec, seed_event};
    use soulstone::events::rounds::EventData;
    use soulstone::events::{Actor, Ctx, EventView};
    use soulstone::web::layout::PageContext;

    let dir = tempfile::tempdir().expect("temp dir");
    let db = Db::open(&DatabaseUrl::Sqlite(dir.path().join("bench.db")), 2).expect("database");
    let mut conn = db.conn().expect("connection");
    let now = chrono::Utc::now().naive_utc();
    let hash = soulstone::auth::password::hash_password("benchmark password").expect("hash");
    let owner = soulstone::db::accounts::create_account(
        &mut conn,
        &soulstone::db::accounts::NewAccount {
            email: "bench@example.org",
            display_name: "Bench",
            password_hash: &hash,
            club: None,
            region: None,
            is_admin: false,
            created_at: now,
        },
    )
    .expect("insert")
    .expect("account");
    let actor = Actor {
        account_id: owner.id,
        is_admin: false,
        // The bench's organiser stands in for a confirmed one.
        confirmed: true,
    };
    let ctx = Ctx {
        now,
        base_url: "http://bench.invalid",
    };
    let spec = DemoSpec {
        players: 1_024,
        rounds: 6,
        rounds_planned: 6,
        seed: 7,
    };
    let event = seed_event(&mut conn, actor, spec, &ctx).expect("seed");
    let page = PageContext::anonymous();
    c.bench_function("standings_page_1024_players_6_rounds_sqlite", |b| {
        b.iter(|| {
            let row = soulstone::db::events::find_event(&mut conn, event)
                .expect("query")
                .expect("event");
            let view = EventView::from_row(row).expect("view");
            let data = EventData::load(&mut conn, event).expect("load");
            let html = soulstone::web::events::standings::standings_page_html(&page, view, &data)
                .expect("render");
            assert!(html.contains("Player 0001") || html.contains("Player 1024"));
            html.len()
        })
    });
}

criterion_group!(benches, pairing, standings_page);
criterion_main!(benches);
