//! The service skeleton: health, error pages, migrations on both backends.

use crate::support::{Backend, TestApp, TestDb};
use soulstone::db::introspect::{parse_schema_rs, schema_shape};

both_backends!(
    healthz_reports_the_database,
    home_page_renders_with_layout,
    unknown_pages_get_a_clean_404,
    migrations_are_idempotent,
    instances_starting_together_on_a_fresh_database_both_start,
    statuses_are_checked_by_the_database,
);

async fn healthz_reports_the_database(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["database"], backend.name());
}

async fn home_page_renders_with_layout(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    let response = app.get("/").await;
    assert_eq!(response.status(), 200);
    // Only the site's own scripts and styles, never inline ones.
    let policy = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(policy.contains("script-src 'self'"), "{policy}");
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    // SQLite keeps every acknowledged commit across a power cut.
    if matches!(backend, Backend::Sqlite) {
        let synchronous: i32 = app
            .with_conn(|conn| {
                use diesel::RunQueryDsl;
                #[derive(diesel::QueryableByName)]
                struct Row {
                    #[diesel(sql_type = diesel::sql_types::Integer)]
                    synchronous: i32,
                }
                diesel::sql_query("PRAGMA synchronous")
                    .get_result::<Row>(conn)
                    .unwrap()
                    .synchronous
            })
            .await;
        assert_eq!(synchronous, 2, "PRAGMA synchronous = FULL");
    }
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(content_type.starts_with("text/html"), "{content_type}");
    let html = response.text().await.unwrap();
    assert!(html.contains("<nav"), "no navigation in layout");
    assert!(html.contains("/static/style.css"));
    assert!(
        html.contains("name=\"viewport\""),
        "phones need a viewport meta tag"
    );
    let css = app.get("/static/style.css").await;
    assert_eq!(css.status(), 200);
    assert!(css.text().await.unwrap().contains("@media"));
}

async fn unknown_pages_get_a_clean_404(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let page = app.get("/no/such/page").await;
    assert_eq!(page.status(), 404);
    let html = page.text().await.unwrap();
    assert!(html.contains("Not found"), "{html}");
    assert!(html.contains("<nav"), "error pages use the layout");

    let api = app.get("/api/v1/no-such-endpoint").await;
    assert_eq!(api.status(), 404);
    let body: serde_json::Value = api.json().await.unwrap();
    assert_eq!(body["error"], "not_found");
    assert!(body["message"].as_str().unwrap().len() > 5);

    let missing_asset = app.get("/static/nope.css").await;
    assert_eq!(missing_asset.status(), 404);
}

async fn migrations_are_idempotent(backend: Backend) {
    let test_db = TestDb::create(&backend);
    let db = test_db.open();
    let again = db.migrate().unwrap();
    assert!(again.is_empty(), "second run applied {again:?}");
    db.ping().unwrap();
}

/// Every status column lets in exactly the codes of its enum: the checks the
/// migrations wrote list them, a known code is stored and read back as its
/// enum, and an unknown one is refused by the database itself.
async fn statuses_are_checked_by_the_database(backend: Backend) {
    use diesel::RunQueryDsl;
    use soulstone::db::status::{self, MailStatus};

    let test_db = TestDb::create(&backend);
    let db = test_db.open();
    let mut conn = db.conn().unwrap();
    for (table, codes) in status::all() {
        let mut expected: Vec<String> = codes.iter().map(|c| c.to_string()).collect();
        expected.sort();
        let allowed = soulstone::db::introspect::allowed_statuses(&mut conn, table).unwrap();
        assert_eq!(
            allowed,
            Some(expected),
            "{table}.status on {}",
            backend.name()
        );
    }

    let insert = |status: &str| {
        format!(
            "INSERT INTO mail_outbox (to_address, subject, body_text, status, attempts, \
             next_attempt_at, created_at) VALUES ('a@example.test', 's', 'b', '{status}', 0, \
             CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
        )
    };
    diesel::sql_query(insert("pending"))
        .execute(&mut *conn)
        .unwrap();
    let refused = diesel::sql_query(insert("sending")).execute(&mut *conn);
    assert!(refused.is_err(), "an unknown status was stored");
    let refused = diesel::sql_query("UPDATE mail_outbox SET status = 'lost'").execute(&mut *conn);
    assert!(
        refused.is_err(),
        "an unknown status was written over a known one"
    );
    let stored = soulstone::db::mail::to_address(&mut conn, "a@example.test").unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].status, MailStatus::Pending);
}

/// Four instances opening one fresh database at the same moment all start:
/// migrations and the shipped pools are written once, in turn.
async fn instances_starting_together_on_a_fresh_database_both_start(backend: Backend) {
    let test_db = TestDb::create(&backend);
    let url = test_db.url.clone();
    let starts: Vec<_> = (0..4)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || soulstone::db::Db::open(&url, 2).map(|_| ()))
        })
        .collect();
    for start in starts {
        start.join().unwrap().expect("every instance starts");
    }
    let db = test_db.open();
    assert!(db.migrate().unwrap().is_empty());
}

/// Both backends end with the same tables and columns, and `schema.rs` says the same.
#[actix_web::test]
async fn schema_matches_migrations_on_both_backends() {
    let declared = parse_schema_rs(include_str!("../../src/db/schema.rs"));
    assert!(!declared.is_empty(), "schema.rs parsed to nothing");

    let sqlite_db = TestDb::create(&Backend::Sqlite);
    let sqlite_shape = schema_shape(&mut sqlite_db.open().conn().unwrap()).unwrap();
    assert_eq!(
        sqlite_shape, declared,
        "SQLite migrations differ from schema.rs"
    );

    if let Some(backend) = Backend::postgres_or_announce_skip() {
        let pg_db = TestDb::create(&backend);
        let pg_shape = schema_shape(&mut pg_db.open().conn().unwrap()).unwrap();
        assert_eq!(
            pg_shape, declared,
            "PostgreSQL migrations differ from schema.rs"
        );
    }
}
