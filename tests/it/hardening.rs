//! Hardening against hostile input: a control character (NUL above all)
//! in an address, a form or a JSON body is refused with 400 and a message
//! on both backends, never a 500 from PostgreSQL or a NUL kept by SQLite;
//! and starting games costs something: the offered clocks only, a cap on
//! what an account keeps open and on what it creates an hour; and a flood of
//! wrong passwords queues apart from the pages.

use serde_json::json;

use crate::support::{Backend, TestApp};

both_backends!(
    control_characters_are_refused_on_both_backends,
    starting_games_is_limited_per_account,
    pages_are_not_held_behind_queued_password_checks,
);

async fn control_characters_are_refused_on_both_backends(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("organiser@example.org", "Olga Organiser", false)
        .await;
    let browser = app.signed_in_client("organiser@example.org").await;
    let api = app.api_client("organiser@example.org").await;
    let anonymous = crate::support::ApiClient::anonymous(&app);

    // Addresses: pages and the API, signed in and not.
    for path in [
        "/pools/%00",
        "/pools/x%00/edit",
        "/setup?pool=%00",
        "/setup?edition=m4e&pool=gg%00",
        "/play/invite/%00",
        "/events/1%00",
        "/rankings?region=%01",
    ] {
        let (status, body) = browser.get_text(path).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body.contains("control character"), "{path}: {body}");
    }
    for path in ["/pools/%00", "/events?q=%00"] {
        let (status, body) = api.get(path).await;
        assert_eq!(status, 400, "/api/v1{path}: {body}");
        assert!(
            body["message"]
                .as_str()
                .unwrap_or_default()
                .contains("control character"),
            "/api/v1{path}: {body}"
        );
    }
    for path in [
        "/play/invite/%00/accept",
        "/play/invite/%00/cancel",
        "/pools/%00/clone",
    ] {
        let response = browser.post_form(path, &[]).await;
        assert_eq!(response.status().as_u16(), 400, "{path}");
        let body = response.text().await.unwrap_or_default();
        assert!(body.contains("control character"), "{path}: {body}");
    }

    // JSON bodies: a sign-in, an event, a game command.
    let refused = |status: u16, body: &serde_json::Value| {
        assert_eq!(status, 400, "{body}");
        assert!(
            body["message"]
                .as_str()
                .unwrap_or_default()
                .contains("control character"),
            "{body}"
        );
    };
    let (status, body) = anonymous
        .post(
            "/token",
            json!({"email": "organiser@example.org\u{0}", "password": "x"}),
        )
        .await;
    refused(status, &body);
    let event = json!({
        "name": "Nul Open",
        "starts_on": "2027-01-09",
        "format": "swiss",
        "submission_key": "key\u{0}",
    });
    let (status, body) = api.post("/events", event).await;
    refused(status, &body);
    let (status, body) = api
        .post(
            "/games/1/commands",
            json!({"version": 0, "idempotency_key": "k\u{0}", "command": {"type": "pass"}}),
        )
        .await;
    refused(status, &body);
    // Nothing was made: the organiser has no event.
    let (status, body) = api.get("/events").await;
    assert_eq!(status, 200, "{body}");
    assert!(
        !body.to_string().contains("Nul Open"),
        "an event was made from a refused request: {body}"
    );

    // A line break in a JSON string is not a control character refused.
    let (status, body) = anonymous
        .post(
            "/token",
            json!({"email": "organiser@example.org", "password": "wrong\npassword"}),
        )
        .await;
    assert_ne!(status, 400, "{body}");
    assert_ne!(status, 500, "{body}");
}

async fn starting_games_is_limited_per_account(backend: Backend) {
    use soulstone::hosted::limits::{
        MOST_CREATED_AN_HOUR, MOST_OPEN_INVITATIONS, MOST_OPEN_PRACTICE_GAMES,
    };
    let app = TestApp::spawn(backend).await;
    let (account, browser) = app.user("player@example.org", "Player").await;
    let practice_games = move |conn: &mut soulstone::db::DbConnection| {
        soulstone::db::hosted::count_games_of(
            conn,
            account,
            "practice",
            soulstone::hosted::HostedStatus::Playing,
        )
        .unwrap()
    };

    // A clock the forms do not offer: refused with the choices; nothing starts.
    for minutes in ["45", "600", "1", "an hour"] {
        let refused = browser
            .post_form(
                "/play/practice",
                &[
                    ("crew", "mudlark-50"),
                    ("bot", "random"),
                    ("minutes", minutes),
                ],
            )
            .await;
        assert_eq!(refused.status().as_u16(), 422, "{minutes}");
        let page = refused.text().await.unwrap();
        assert!(
            page.contains("Choose a clock of 30, 60 or 90 minutes a player, or none."),
            "{minutes}: {page}"
        );
        let invitation = browser
            .post_form(
                "/play/invite",
                &[("crew", "mudlark-50"), ("minutes", minutes)],
            )
            .await;
        assert_eq!(invitation.status().as_u16(), 422, "{minutes}");
    }
    assert_eq!(app.with_conn(practice_games).await, 0);

    // Eight practice games asked for at once: five start, three are told why.
    let asks = (0..8).map(|_| {
        browser.post_form(
            "/play/practice",
            &[("crew", "mudlark-50"), ("bot", "random"), ("minutes", "30")],
        )
    });
    let mut started = 0;
    for answer in futures_util::future::join_all(asks).await {
        match answer.status().as_u16() {
            303 => started += 1,
            422 => {
                let page = answer.text().await.unwrap();
                assert!(page.contains("practice games under way"), "{page}");
            }
            other => panic!("practice start answered {other}"),
        }
    }
    assert_eq!(started, MOST_OPEN_PRACTICE_GAMES);
    assert_eq!(
        app.with_conn(practice_games).await,
        MOST_OPEN_PRACTICE_GAMES
    );

    // Invitations: as many open as allowed, then a refusal naming the cap.
    let mut tokens = Vec::new();
    let invite = async || {
        let made = browser
            .post_form("/play/invite", &[("crew", "mudlark-50"), ("minutes", "60")])
            .await;
        (made.status().as_u16(), location_or_text(made).await)
    };
    for _ in 0..MOST_OPEN_INVITATIONS {
        let (status, at) = invite().await;
        assert_eq!(status, 303, "{at}");
        tokens.push(at.rsplit('/').next().unwrap().to_owned());
    }
    let (status, page) = invite().await;
    assert_eq!(status, 422);
    assert!(
        page.contains("invitations open, the most at once"),
        "{page}"
    );

    // Cancelled ones free their places, but not the hour's budget: what
    // was created counts (refusals do not).
    let mut created = MOST_OPEN_PRACTICE_GAMES + MOST_OPEN_INVITATIONS;
    while created < MOST_CREATED_AN_HOUR {
        let cancelled = std::mem::take(&mut tokens);
        app.with_conn(move |conn| {
            for token in cancelled {
                soulstone::hosted::invitations::cancel(
                    conn,
                    &token,
                    account,
                    chrono::Utc::now().naive_utc(),
                )
                .unwrap();
            }
        })
        .await;
        while tokens.len() < usize::try_from(MOST_OPEN_INVITATIONS).unwrap()
            && created < MOST_CREATED_AN_HOUR
        {
            let (status, at) = invite().await;
            assert_eq!(status, 303, "{at}");
            tokens.push(at.rsplit('/').next().unwrap().to_owned());
            created += 1;
        }
    }
    let cancelled = tokens.pop().unwrap();
    app.with_conn(move |conn| {
        soulstone::hosted::invitations::cancel(
            conn,
            &cancelled,
            account,
            chrono::Utc::now().naive_utc(),
        )
        .unwrap();
    })
    .await;
    let (status, page) = invite().await;
    assert_eq!(status, 422);
    assert!(page.contains("in the last hour"), "{page}");
}

/// Where a redirect goes, or the page's text when there is none.
async fn location_or_text(response: reqwest::Response) -> String {
    match response.headers().get("location") {
        Some(location) => location.to_str().unwrap().to_owned(),
        None => response.text().await.unwrap(),
    }
}

/// Twenty-four wrong sign-ins at once from four addresses (each within
/// every throttle), on a server with two threads for database work: the
/// password checks queue on threads of their own, so a signed-in player's
/// page, asked for while they wait, is answered before most of them. When
/// the checks waited on the database threads, the page waited behind them.
async fn pages_are_not_held_behind_queued_password_checks(backend: Backend) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let app = TestApp::spawn_configured(backend, |settings| {
        settings.blocking_threads = Some(2);
    })
    .await;
    app.create_account("player@example.org", "Pat Player", false)
        .await;
    let player = app.signed_in_client("player@example.org").await;
    let answered = Arc::new(AtomicUsize::new(0));
    let flood: Vec<_> = (0..24)
        .map(|n| {
            let client = app.client_from(&format!("127.0.0.{}", 10 + n % 4));
            let answered = Arc::clone(&answered);
            async move {
                let response = client
                    .http
                    .post(client.url("/api/v1/token"))
                    .json(&json!({"email": format!("nobody{n}@example.org"), "password": "wrong"}))
                    .send()
                    .await
                    .unwrap();
                answered.fetch_add(1, Ordering::SeqCst);
                response.status().as_u16()
            }
        })
        .collect();
    let page = async {
        // Once the checks are queued and under way: how many are answered
        // by then depends on the machine's speed, so the page is judged by
        // how many of the rest it waited for.
        actix_web::rt::time::sleep(std::time::Duration::from_millis(50)).await;
        while answered.load(Ordering::SeqCst) == 0 {
            actix_web::rt::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let queued = 24 - answered.load(Ordering::SeqCst);
        let (status, html) = player.get_text("/account").await;
        (status, html, queued, 24 - answered.load(Ordering::SeqCst))
    };
    let (codes, (status, html, queued, still_queued)) =
        tokio::join!(futures_util::future::join_all(flood), page);
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("player@example.org"), "{html}");
    assert!(codes.iter().all(|code| *code == 401), "{codes:?}");
    assert!(
        queued >= 8,
        "only {queued} password checks were queued when the page was asked for"
    );
    let waited = queued - still_queued;
    assert!(
        waited < queued / 2,
        "the page waited for {waited} of the {queued} queued password checks"
    );
}
