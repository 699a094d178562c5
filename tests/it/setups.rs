//! Setups and pools through the web: the page, the JSON API and the command
//! line agree for a seed; bad pools are refused whole; pools in use stay put.

use serde_json::{Value, json};

use crate::support::{Backend, TestApp, location};

both_backends!(
    page_api_and_cli_agree_for_the_same_seed,
    flipping_without_a_seed_gives_a_permalink,
    bad_pool_forms_are_refused_and_nothing_is_saved,
    fourth_edition_pool_typed_in_and_used_for_setups,
    pools_in_use_cannot_be_edited_but_can_be_cloned,
    the_shipped_pools_namespace_is_kept_for_them,
    a_permalink_shows_the_same_setup_after_the_pool_is_edited,
    only_a_site_admin_moves_what_visitors_flip,
);

fn cli_setup(args: &[&str]) -> Value {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_soulstone"))
        .arg("setup")
        .args(args)
        .arg("--json")
        .env_clear()
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

async fn page_api_and_cli_agree_for_the_same_seed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let client = app.new_client();
    for (edition, pool, seed) in [
        ("m3e", "m3e-gg2", 777u64),
        ("m3e", "m3e-core", 1),
        ("m1e", "m1e-core", 99),
        ("mk", "", 5),
    ] {
        let query = if pool.is_empty() {
            format!("edition={edition}&seed={seed}")
        } else {
            format!("edition={edition}&pool={pool}&seed={seed}")
        };
        let api: Value = client
            .get(&format!("/api/v1/setup?{query}"))
            .await
            .json()
            .await
            .unwrap();
        let mut args = vec!["--edition", edition];
        if !pool.is_empty() {
            args.extend(["--pool", pool]);
        }
        let seed_text = seed.to_string();
        args.extend(["--seed", &seed_text]);
        let cli = cli_setup(&args);
        assert_eq!(api, cli, "{edition} {pool} {seed}");
        let (status, html) = client.get_text(&format!("/setup?{query}")).await;
        assert_eq!(status, 200);
        match edition {
            "m3e" => {
                let strategy = api["result"]["malifaux"]["strategy"]["name"]
                    .as_str()
                    .unwrap();
                assert!(html.contains(strategy), "{strategy} missing from the page");
                for scheme in api["result"]["malifaux"]["scheme_pool"].as_array().unwrap() {
                    assert!(
                        html.contains(
                            scheme["name"]
                                .as_str()
                                .unwrap()
                                .replace('\'', "&#39;")
                                .as_str()
                        ) || html.contains(scheme["name"].as_str().unwrap())
                    );
                }
                assert!(html.contains("<svg"), "deployment map");
            }
            "mk" => {
                let distance = api["result"]["mage_knight"]["objective_distance_a"]
                    .as_i64()
                    .unwrap();
                assert!(
                    html.contains(&format!("Player A's {distance}\""))
                        || html.contains(&format!("Player A&#39;s {distance}")),
                    "{html}"
                );
            }
            _ => {}
        }
        // Every flip is listed, in order.
        assert_eq!(api["seed"], seed);
        assert!(html.contains(&format!("seed {seed}")));
    }
    // The 4th edition's shipped pool is Soulstone's own season: a fresh
    // install names real strategies and schemes, and says the season is
    // not a published one.
    let response = client.get("/api/v1/setup?edition=m4e&seed=1").await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["pool"]["id"], "m4e-soulstone", "{body}");
    assert!(
        body["result"]["malifaux"]["deployment"].is_string(),
        "{body}"
    );
    let strategy = body["result"]["malifaux"]["strategy"]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, html) = client.get_text("/setup?edition=m4e&seed=1").await;
    assert_eq!(status, 200);
    assert!(html.contains(&strategy), "{html}");
    assert!(html.contains("not a published season"), "{html}");
    // A pool of another game is a message beside the form, not a dead end.
    let (status, html) = client
        .get_text("/setup?edition=m4e&pool=m3e-core&seed=1")
        .await;
    assert_eq!(status, 400);
    assert!(html.contains("is for Malifaux 3rd edition, not"), "{html}");
    assert!(
        html.contains("<form method=\"get\" action=\"/setup\""),
        "{html}"
    );
}

async fn flipping_without_a_seed_gives_a_permalink(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let client = app.new_client();
    let response = client.get("/setup?edition=m3e&pool=m3e-gg1").await;
    assert_eq!(response.status(), 303);
    let permalink = location(&response);
    assert!(permalink.contains("seed="), "{permalink}");
    let (_, first) = client.get_text(&permalink).await;
    let (_, second) = client.get_text(&permalink).await;
    assert_eq!(first, second, "the permalink reproduces the setup");
    let (status, _) = client.get_text("/setup?edition=m3e&seed=notanumber").await;
    assert_eq!(status, 400);
}

fn pool_form<'a>(id: &'a str, schemes: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("id", id),
        ("name", "Gaining Grounds test season"),
        ("edition", "m4e"),
        ("source", "Typed in by a test"),
        ("strategy_rams", "Supply Lines"),
        ("strategy_masks", "Cursed Ground"),
        ("strategy_tomes", "Hidden Archive"),
        ("strategy_crows", "Blood Feud"),
        ("markers_rams", "9,9; 27,27; 18,18"),
        ("deployment_rams", "standard"),
        ("deployment_masks", "wedge"),
        ("deployment_tomes", "flank"),
        ("deployment_crows", "corner"),
        ("schemes", schemes),
    ]
}

const GOOD_SCHEMES: &str =
    "Alpha: Beta, Gamma\nBeta: Alpha, Delta\nGamma: Delta\nDelta: Alpha, Beta, Gamma";

async fn bad_pool_forms_are_refused_and_nothing_is_saved(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("pools@example.org", "Pool TO").await;
    // Unknown next scheme, a duplicate, a missing strategy.
    let mut form = pool_form("club-bad", "Alpha: Beta, Nope\nAlpha: Beta\nBeta");
    form.retain(|(k, _)| *k != "strategy_crows");
    let response = to.post_form("/pools/new", &form).await;
    assert_eq!(response.status(), 422);
    let html = response.text().await.unwrap();
    assert!(html.contains("unknown next scheme"), "{html}");
    assert!(html.contains("appears twice"), "{html}");
    assert!(html.contains("the Crows strategy has no name"), "{html}");
    assert!(html.contains("Supply Lines"), "typed values are kept");
    let saved = app
        .with_conn(|conn| soulstone::db::pools::find_by_slug(conn, "club-bad").unwrap())
        .await;
    assert!(saved.is_none(), "nothing half-saved");
    // A bad marker position is refused too.
    let mut form = pool_form("club-bad", GOOD_SCHEMES);
    form.retain(|(k, _)| *k != "markers_rams");
    form.push(("markers_rams", "nine, nine"));
    let response = to.post_form("/pools/new", &form).await;
    assert_eq!(response.status(), 422);
    // Importing a broken file names the problem.
    let response = to
        .post_form(
            "/pools/import",
            &[("text", "id = \"x\"\nedition = \"m9e\"")],
        )
        .await;
    assert_eq!(response.status(), 422);
    assert!(response.text().await.unwrap().contains("could not be read"));
}

async fn fourth_edition_pool_typed_in_and_used_for_setups(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("gg@example.org", "GG TO").await;
    let response = to
        .post_form("/pools/new", &pool_form("club-test", GOOD_SCHEMES))
        .await;
    assert_eq!(
        response.status(),
        303,
        "{}",
        response.text().await.unwrap_or_default()
    );
    let (status, html) = to.get_text("/pools/club-test").await;
    assert_eq!(status, 200);
    assert!(html.contains("Supply Lines") && html.contains("Beta, Gamma"));
    // Export, and the CLI flips from the exported file what the API flips from the pool.
    let toml = to
        .get("/pools/club-test/export.toml")
        .await
        .text()
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pool.toml");
    std::fs::write(&file, &toml).unwrap();
    let cli = cli_setup(&[
        "--edition",
        "m4e",
        "--pool-file",
        file.to_str().unwrap(),
        "--seed",
        "31",
    ]);
    let api: Value = to
        .get("/api/v1/setup?edition=m4e&pool=club-test&seed=31")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(cli, api);
    // With the shipped own season the page says how to flip from a real
    // season; with the organiser's own season chosen it says nothing of it.
    let (_, html) = to.get_text("/setup?edition=m4e&seed=31").await;
    assert!(html.contains("class=\"season-hint\""), "{html}");
    let (_, html) = to
        .get_text("/setup?edition=m4e&pool=club-test&seed=31")
        .await;
    assert!(html.contains("Gaining Grounds test season"), "{html}");
    assert!(!html.contains("season-hint"), "{html}");
    let pool = &api["result"]["malifaux"]["scheme_pool"];
    assert_eq!(
        pool.as_array().unwrap().len(),
        3,
        "4th edition turns three scheme cards"
    );
    // Re-importing the export under another id works.
    let response = to
        .post_form(
            "/pools/import",
            &[("text", &toml.replace("club-test", "club-test-2"))],
        )
        .await;
    assert_eq!(response.status(), 303);
    let (status, _) = to.get_text("/pools/club-test-2").await;
    assert_eq!(status, 200);
    // The owner can edit it while no running event uses it.
    let mut form = pool_form("ignored", GOOD_SCHEMES);
    form.retain(|(k, _)| *k != "name");
    form.push(("name", "Renamed season"));
    let response = to.post_form("/pools/club-test/edit", &form).await;
    assert_eq!(response.status(), 303);
    let (_, html) = to.get_text("/pools/club-test").await;
    assert!(html.contains("Renamed season"));
    // Someone else cannot.
    let (_, stranger) = app.user("stranger@example.org", "Stranger").await;
    assert_eq!(stranger.get("/pools/club-test/edit").await.status(), 403);
}

async fn pools_in_use_cannot_be_edited_but_can_be_cloned(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("inuse@example.org", "TO").await;
    let response = to
        .post_form("/pools/new", &pool_form("club-live", GOOD_SCHEMES))
        .await;
    assert_eq!(response.status(), 303);
    let api = app.api_client("inuse@example.org").await;
    let (code, event) = api
        .post(
            "/events",
            json!({"name": "Live", "starts_on": "2026-12-01", "ends_on": "2026-12-01", "game_system": "m4e",
                   "format": "swiss", "rounds_planned": 3, "round_minutes": 120, "encounter_size": 50,
                   "visibility": "public", "pool": "club-live", "points_win": 3, "points_draw": 1,
                   "points_loss": 0, "bye_scored": 5, "bye_conceded": 0, "tiebreakers": "vp_diff"}),
        )
        .await;
    assert_eq!(code, 201, "{event}");
    api.post(
        &format!("/events/{}/status", event["id"]),
        json!({"status": "running"}),
    )
    .await;
    let response = to.get("/pools/club-live/edit").await;
    assert_eq!(response.status(), 409);
    assert!(response.text().await.unwrap().contains("Clone it"));
    let response = to
        .post_form("/pools/club-live/edit", &pool_form("x", GOOD_SCHEMES))
        .await;
    assert_eq!(response.status(), 409);
    let response = to.post_form("/pools/club-live/clone", &[]).await;
    assert_eq!(location(&response), "/pools/club-live-copy/edit");
    assert_eq!(to.get("/pools/club-live-copy/edit").await.status(), 200);
    // Shipped pools are never edited, only cloned.
    assert_eq!(to.get("/pools/m3e-gg1/edit").await.status(), 409);
    // An event's pool must be of its edition.
    let (code, body) = api
        .post(
            "/events",
            json!({"name": "Wrong", "starts_on": "2026-12-01", "ends_on": "2026-12-01", "game_system": "m3e",
                   "format": "swiss", "rounds_planned": 3, "round_minutes": 120, "encounter_size": 50,
                   "visibility": "public", "pool": "club-live", "points_win": 3, "points_draw": 1,
                   "points_loss": 0, "bye_scored": 5, "bye_conceded": 0}),
        )
        .await;
    assert_eq!(code, 400, "{body}");
}

/// Ids that start with a game system's code (`m4e-…`) are kept for the
/// pools Soulstone ships: a TO's pool cannot take one, by form, import or
/// copy, so a later release never finds its id squatted.
async fn the_shipped_pools_namespace_is_kept_for_them(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    for pool in soulstone::setup::shipped::shipped_pools().unwrap() {
        assert!(
            soulstone::setup::pool::is_reserved_pool_id(pool.id()),
            "shipped pool {} is outside the shipped namespace",
            pool.id()
        );
    }
    let (_, to) = app.user("squatter@example.org", "Squatter").await;
    let response = to
        .post_form("/pools/new", &pool_form("m4e-gg9", GOOD_SCHEMES))
        .await;
    assert_eq!(response.status(), 422);
    let html = response.text().await.unwrap();
    assert!(
        html.contains("kept for the pools Soulstone ships"),
        "{html}"
    );
    // Importing one is refused the same way.
    let (_, toml) = to.get_text("/pools/m3e-gg1/export.toml").await;
    let response = to
        .post_form(
            "/pools/import",
            &[("text", &toml.replace("m3e-gg1", "m3e-gg9"))],
        )
        .await;
    assert_eq!(response.status(), 422);
    assert!(
        response
            .text()
            .await
            .unwrap()
            .contains("kept for the pools Soulstone ships")
    );
    for squatted in ["m4e-gg9", "m3e-gg9"] {
        let saved = app
            .with_conn(move |conn| soulstone::db::pools::find_by_slug(conn, squatted).unwrap())
            .await;
        assert!(saved.is_none(), "{squatted} was saved");
    }
    // A copy of a shipped pool gets an id of the TO's own.
    let response = to.post_form("/pools/m3e-gg1/clone", &[]).await;
    assert_eq!(location(&response), "/pools/my-m3e-gg1-copy/edit");
    assert_eq!(to.get("/pools/my-m3e-gg1-copy/edit").await.status(), 200);

    // A TO's pool that took a shipped id before the namespace was kept
    // moves aside when the shipped pools are installed, keeping its row.
    let moved = app
        .with_conn(|conn| {
            use diesel::prelude::*;
            use soulstone::db::schema::pools;
            let copy = soulstone::db::pools::find_by_slug(conn, "my-m3e-gg1-copy")
                .unwrap()
                .unwrap();
            diesel::delete(pools::table.filter(pools::slug.eq("m3e-gg4")))
                .execute(conn)
                .unwrap();
            diesel::update(pools::table.find(copy.id))
                .set(pools::slug.eq("m3e-gg4"))
                .execute(conn)
                .unwrap();
            let shipped = soulstone::setup::shipped::shipped_pools().unwrap();
            soulstone::db::pools::sync_shipped(conn, &shipped, chrono::Utc::now().naive_utc())
                .unwrap();
            let back = soulstone::db::pools::find_by_slug(conn, "m3e-gg4")
                .unwrap()
                .unwrap();
            let aside = soulstone::db::pools::find_by_slug(conn, "my-m3e-gg4")
                .unwrap()
                .unwrap();
            (back.shipped, aside.shipped, aside.id == copy.id)
        })
        .await;
    assert_eq!(moved, (true, false, true));
}

/// A permalink names the pool's revision: after the pool is edited (here
/// its strategies reordered among the suits) the old link shows exactly
/// what it showed, and a fresh flip uses the pool as it is now.
async fn a_permalink_shows_the_same_setup_after_the_pool_is_edited(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, to) = app.user("perma@example.org", "Perma TO").await;
    let response = to
        .post_form("/pools/new", &pool_form("club-perma", GOOD_SCHEMES))
        .await;
    assert_eq!(response.status(), 303);
    let visitor = app.new_client();
    let response = visitor.get("/setup?edition=m4e&pool=club-perma").await;
    assert_eq!(response.status(), 303);
    let permalink = location(&response);
    assert!(permalink.contains("rev="), "{permalink}");
    let (_, before) = visitor.get_text(&permalink).await;
    let api_link = format!("/api/v1{permalink}");
    let api_before: Value = visitor.get(&api_link).await.json().await.unwrap();

    // The strategies move round the suits; the scheme list is reordered.
    let mut form = pool_form(
        "ignored",
        "Delta: Alpha, Beta, Gamma\nAlpha: Beta, Gamma\nBeta: Alpha, Delta\nGamma: Delta",
    );
    for (key, value) in form.iter_mut() {
        *value = match *key {
            "strategy_rams" => "Blood Feud",
            "strategy_masks" => "Supply Lines",
            "strategy_tomes" => "Cursed Ground",
            "strategy_crows" => "Hidden Archive",
            _ => value,
        };
    }
    let response = to.post_form("/pools/club-perma/edit", &form).await;
    assert_eq!(response.status(), 303);

    let (status, after) = visitor.get_text(&permalink).await;
    assert_eq!(status, 200);
    assert_eq!(before, after, "the old link shows the same setup");
    let api_after: Value = visitor.get(&api_link).await.json().await.unwrap();
    assert_eq!(api_before, api_after);
    // Without the revision, the same seed flips with the pool as it is now.
    let seed = api_before["seed"].as_u64().unwrap();
    let now: Value = visitor
        .get(&format!(
            "/api/v1/setup?edition=m4e&pool=club-perma&seed={seed}"
        ))
        .await
        .json()
        .await
        .unwrap();
    assert_ne!(
        now["result"]["malifaux"]["strategy"]["name"],
        api_before["result"]["malifaux"]["strategy"]["name"]
    );
    assert_ne!(now["pool"]["revision"], api_before["pool"]["revision"]);
    // A revision this server never kept is refused with the form kept.
    let (status, html) = visitor
        .get_text("/setup?edition=m4e&pool=club-perma&rev=000000000000&seed=1")
        .await;
    assert_eq!(status, 400);
    assert!(html.contains("does not keep"), "{html}");
}

/// Anyone may make a pool, but only a site admin features one, and the
/// public generator's default for an edition is a shipped or featured pool,
/// never the newest pool of whoever made one.
async fn only_a_site_admin_moves_what_visitors_flip(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, user) = app.user("someone@example.org", "Someone").await;
    let response = user
        .post_form("/pools/new", &pool_form("someones-pool", GOOD_SCHEMES))
        .await;
    assert_eq!(response.status(), 303);
    let visitor = app.new_client();
    let flip: Value = visitor
        .get("/api/v1/setup?edition=m4e&seed=5")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        flip["pool"]["id"], "m4e-soulstone",
        "a user's pool is not the default, the shipped one is: {flip}"
    );
    let response = user
        .post_form("/pools/someones-pool/feature", &[("featured", "true")])
        .await;
    assert_eq!(response.status(), 403);

    app.create_account("root@example.org", "Root", true).await;
    let admin = app.signed_in_client("root@example.org").await;
    let (_, page) = admin.get_text("/pools/someones-pool").await;
    assert!(page.contains("Feature as the public default"), "{page}");
    let response = admin
        .post_form("/pools/someones-pool/feature", &[("featured", "true")])
        .await;
    assert_eq!(response.status(), 303);
    let flip: Value = visitor
        .get("/api/v1/setup?edition=m4e&seed=5")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(flip["pool"]["id"], "someones-pool", "{flip}");
    // The shipped 3rd edition pools carry their caveats onto the page.
    let (_, html) = visitor
        .get_text("/setup?edition=m3e&pool=m3e-gg1&seed=3")
        .await;
    assert!(
        html.contains("not checked against the season document"),
        "{html}"
    );
}
