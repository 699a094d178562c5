//! The access-control matrix: every route × every kind of visitor → the
//! expected status. A new route gets a row in `MATRIX`; the test also fails
//! when a registered route has no row (see `every_route_is_in_the_matrix`).

mod matrix;

use crate::support::{Backend, TestApp, TestClient};
use matrix::Method::{ApiGet, ApiPost, Get, Post};
use matrix::{Case, MATRIX, ROLES, Role};

struct Fixture {
    values: Vec<(&'static str, String)>,
}

impl Fixture {
    fn fill(&self, path: &str) -> String {
        self.values
            .iter()
            .fold(path.to_owned(), |p, (key, value)| p.replace(key, value))
    }
}

/// A running event with a published round, a draft event and a pool in use.
async fn fixture(app: &TestApp, visitors: &[Visitor]) -> Fixture {
    use serde_json::json;
    let api = |role: Role| {
        let v = visitors.iter().find(|v| v.role == role).unwrap();
        crate::support::ApiClient {
            base: app.address.clone(),
            http: reqwest::Client::builder()
                .pool_idle_timeout(crate::support::POOL_IDLE)
                .build()
                .unwrap(),
            token: v.bearer.clone().unwrap(),
        }
    };
    let owner = api(Role::Owner);
    let owner_id = app
        .with_conn(|conn| {
            soulstone::db::accounts::find_by_email(conn, "owner@example.org")
                .unwrap()
                .unwrap()
                .id
        })
        .await;
    let pool = soulstone::setup::pool::Pool::parse_toml(
        "id = \"access-pool\"\nname = \"Access pool\"\nedition = \"m4e\"\nsource = \"test\"\n\
         [[strategies]]\nsuit = \"rams\"\nname = \"S1\"\n[[strategies]]\nsuit = \"masks\"\nname = \"S2\"\n\
         [[strategies]]\nsuit = \"tomes\"\nname = \"S3\"\n[[strategies]]\nsuit = \"crows\"\nname = \"S4\"\n\
         [[schemes]]\nname = \"A\"\n[[schemes]]\nname = \"B\"\n[[schemes]]\nname = \"C\"\n",
    )
    .unwrap();
    app.with_conn(move |conn| {
        let inserted = soulstone::db::pools::insert_pool(
            conn,
            &pool,
            owner_id,
            chrono::Utc::now().naive_utc(),
        )
        .unwrap();
        assert!(inserted.inserted());
    })
    .await;
    let body = json!({
        "name": "Access event", "starts_on": "2026-12-05", "ends_on": "2026-12-05", "game_system": "m4e",
        "format": "swiss", "rounds_planned": 3, "round_minutes": 120, "encounter_size": 50,
        "visibility": "public", "pool": "access-pool", "points_win": 3, "points_draw": 1, "points_loss": 0,
        "bye_scored": 5, "bye_conceded": 0, "tiebreakers": "vp_diff"
    });
    let (_, event) = owner.post("/events", body.clone()).await;
    let event = event["id"].as_i64().unwrap();
    let (_, draft) = owner.post("/events", body).await;
    let draft = draft["id"].as_i64().unwrap();
    let owner_browser = &visitors
        .iter()
        .find(|v| v.role == Role::Owner)
        .unwrap()
        .browser;
    let judge_browser = &visitors
        .iter()
        .find(|v| v.role == Role::Judge)
        .unwrap()
        .browser;
    for (nth, id) in [event, draft].into_iter().enumerate() {
        let r = owner_browser
            .post_form(
                &format!("/events/{id}/staff"),
                &[("email", "judge@example.org"), ("role", "judge")],
            )
            .await;
        assert_eq!(r.status(), 303);
        app.accept_staff_invitation(judge_browser, "judge@example.org", nth + 1)
            .await;
    }
    owner
        .post(
            &format!("/events/{event}/status"),
            json!({"status": "registration"}),
        )
        .await;
    let mut player_reg = 0;
    for role in [Role::Player, Role::OtherPlayer] {
        let (code, entry) = api(role)
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(code, 201);
        if role == Role::Player {
            player_reg = entry["id"].as_i64().unwrap();
        }
    }
    owner
        .post(
            &format!("/events/{event}/status"),
            json!({"status": "running"}),
        )
        .await;
    for name in ["Walk One", "Walk Two"] {
        owner
            .post(&format!("/events/{event}/players"), json!({"name": name}))
            .await;
    }
    let (_, detail) = owner.get(&format!("/events/{event}")).await;
    for p in detail["players"].as_array().unwrap() {
        owner
            .post(
                &format!("/events/{event}/players/{}/check-in", p["id"]),
                json!({"checked_in": true}),
            )
            .await;
    }
    let (code, round) = owner
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(code, 201, "{round}");
    // The other player must not be the player's opponent: swap them apart if drawn together.
    let other_reg = detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "OtherPlayer")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let together = round["tables"].as_array().unwrap().iter().any(|t| {
        let ids = [t["player_a"].as_i64(), t["player_b"].as_i64()];
        ids.contains(&Some(player_reg)) && ids.contains(&Some(other_reg))
    });
    if together {
        let walk = detail["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "Walk One")
            .unwrap()["id"]
            .to_string();
        let (_, event_detail) = owner.get(&format!("/events/{event}")).await;
        let version = event_detail["version"].to_string();
        let r = owner_browser
            .post_form(
                &format!("/events/{event}/rounds/1/swap"),
                &[
                    ("version", &version),
                    ("first", &other_reg.to_string()),
                    ("second", &walk),
                ],
            )
            .await;
        assert_eq!(r.status(), 303);
    }
    owner
        .post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let (_, round) = owner.get(&format!("/events/{event}/rounds/1")).await;
    let game = round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["player_a"] == player_reg || t["player_b"] == player_reg)
        .unwrap()["game"]
        .as_i64()
        .unwrap();
    let practice = |seed: u8| {
        app.with_conn(move |conn| {
            let player = soulstone::db::accounts::find_by_email(conn, "player@example.org")
                .unwrap()
                .unwrap()
                .id;
            let shipped = soulstone::content::shipped_crews()
                .iter()
                .find(|(path, _)| path.contains("m4e"))
                .unwrap();
            let list = soulstone::hosted::BroughtList {
                name: "mine".into(),
                list: soulstone_engine::content::crew::CrewList::parse(shipped.1).unwrap(),
            };
            let request = soulstone::hosted::PracticeRequest {
                content: Default::default(),
                account_id: player,
                lists: vec![list.clone()],
                bot: soulstone_engine::bot::BotKind::Random,
                bot_lists: vec![list],
                seed: soulstone_engine::fairness::Bytes32([seed; 32]),
                time_control_ms: None,
            };
            let catalog = soulstone::content::load_for_server(None).unwrap();
            soulstone::hosted::start_practice(
                conn,
                &catalog,
                &request,
                chrono::Utc::now().naive_utc(),
            )
            .unwrap()
        })
    };
    let hosted = practice(4).await;
    let resigned = practice(5).await;
    let player_account = app
        .with_conn(|conn| {
            soulstone::db::accounts::find_by_email(conn, "player@example.org")
                .unwrap()
                .unwrap()
                .id
        })
        .await;
    Fixture {
        values: vec![
            ("{missing}", "999999".into()),
            ("{event}", event.to_string()),
            ("{draft}", draft.to_string()),
            ("{player_reg}", player_reg.to_string()),
            ("{player}", player_account.to_string()),
            ("{game}", game.to_string()),
            ("{pool}", "access-pool".into()),
            ("{hosted}", hosted.to_string()),
            ("{resigned}", resigned.to_string()),
        ],
    }
}

struct Visitor {
    role: Role,
    browser: TestClient,
    bearer: Option<String>,
}

async fn visitors(app: &TestApp) -> Vec<Visitor> {
    let mut visitors = Vec::new();
    for role in ROLES {
        let email = match role {
            Role::OtherPlayer => "other@example.org".to_owned(),
            _ => format!("{role:?}@example.org").to_lowercase(),
        };
        let (browser, bearer) = if role == Role::Anonymous {
            (app.new_client(), None)
        } else {
            app.create_account(&email, &format!("{role:?}"), role == Role::Admin)
                .await;
            let browser = app.signed_in_client(&email).await;
            let token: serde_json::Value = browser
                .http
                .post(app.url("/api/v1/token"))
                .json(&serde_json::json!({"email": email, "password": crate::support::PASSWORD}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            (browser, Some(token["token"].as_str().unwrap().to_owned()))
        };
        visitors.push(Visitor {
            role,
            browser,
            bearer,
        });
    }
    visitors
}

async fn request(visitor: &Visitor, case: &Case, path: &str) -> u16 {
    let http = &visitor.browser.http;
    let url = visitor.browser.url(path);
    let response = match case.method {
        Get => http.get(url).send().await.unwrap(),
        Post => {
            let body = case
                .body
                .replace("{role}", &format!("{:?}-x", visitor.role));
            let mut fields: Vec<(String, String)> = serde_urlencoded::from_str(&body).unwrap();
            fields.push(("csrf_token".into(), visitor.browser.csrf_token().await));
            http.post(url).form(&fields).send().await.unwrap()
        }
        ApiGet | ApiPost => {
            let mut builder = if case.method == ApiGet {
                http.get(url)
            } else {
                http.post(url)
            };
            if let Some(token) = &visitor.bearer {
                builder = builder.bearer_auth(token);
            }
            if !case.body.is_empty() {
                builder = builder
                    .header("content-type", "application/json")
                    .body(case.body);
            }
            builder.send().await.unwrap()
        }
    };
    response.status().as_u16()
}

both_backends!(access_control_matrix);

async fn access_control_matrix(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let visitors = visitors(&app).await;
    let fixture = fixture(&app, &visitors).await;
    let mut failures = Vec::new();
    let ordered = MATRIX
        .iter()
        .filter(|c| !c.runs_last)
        .chain(MATRIX.iter().filter(|c| c.runs_last));
    for case in ordered {
        let path = fixture.fill(case.path);
        for (visitor, expected) in visitors.iter().zip(case.expect) {
            let got = request(visitor, case, &path).await;
            if got != expected {
                failures.push(format!(
                    "{:?} {path} as {:?}: expected {expected}, got {got}",
                    case.method, visitor.role
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "access-control mismatches:\n{}",
        failures.join("\n")
    );
}

/// The route patterns the handlers declare, read from their `#[get]` and
/// `#[post]` attributes (handlers in `api*.rs` files sit under `/api/v1`).
fn registered_routes() -> Vec<String> {
    let mut routes = Vec::new();
    let web_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let mut files = vec![web_dir];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let prefix = if name.starts_with("api") {
            "/api/v1"
        } else {
            ""
        };
        let source = std::fs::read_to_string(&path).unwrap();
        for line in source.lines() {
            let line = line.trim();
            for method in ["get", "post"] {
                let marker = format!("#[{method}(\"");
                if let Some(rest) = line.strip_prefix(&marker) {
                    let route = rest.split('"').next().unwrap();
                    routes.push(format!("{} {prefix}{route}", method.to_uppercase()));
                }
            }
        }
    }
    routes.sort();
    routes
}

/// Every registered route pattern has at least one row in the matrix.
#[test]
fn every_route_is_in_the_matrix() {
    let registered = registered_routes();
    assert!(
        registered.len() >= 20,
        "too few routes found: {registered:?}"
    );
    let covered: Vec<(String, String)> = MATRIX
        .iter()
        .map(|c| {
            let method = match c.method {
                Get | ApiGet => "GET",
                Post | ApiPost => "POST",
            };
            (
                method.to_owned(),
                c.path.split('?').next().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let mut missing = Vec::new();
    for route in &registered {
        let (method, pattern) = route.split_once(' ').unwrap();
        let matches = covered
            .iter()
            .any(|(m, path)| m == method && pattern_matches(pattern, path));
        if !matches {
            missing.push(route.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "routes without a row in MATRIX: {missing:?}"
    );
}

fn pattern_matches(pattern: &str, path: &str) -> bool {
    let pattern: Vec<&str> = pattern.split('/').collect();
    let path: Vec<&str> = path.split('/').collect();
    pattern.len() == path.len()
        && pattern
            .iter()
            .zip(&path)
            .all(|(p, s)| p == s || (p.starts_with('{') && (s.starts_with('{') || !s.is_empty())))
}
