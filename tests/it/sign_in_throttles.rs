//! Sign-in's throttles: failed sign-ins are answered alike and held per
//! client, address and account; strangers' guesses never lock out a browser
//! or an API client that signed in before; a burst spends each budget once;
//! the account pages' password checks are held like sign-in; sign-ups and
//! reset mails are held per network; behind a proxy, the address it vouches
//! for is the one held.

use crate::support::{Backend, PASSWORD, TestApp, TestClient};

both_backends!(
    failed_sign_ins_are_generic_and_throttled,
    strangers_guessing_cannot_lock_out_a_browser_that_signed_in_before,
    strangers_guessing_cannot_lock_out_an_api_client_that_signed_in_before,
    password_checks_on_account_pages_are_throttled_like_sign_in,
    sign_ups_and_reset_mails_are_throttled,
    concurrent_guesses_spend_the_budget_once_each,
    behind_a_proxy_the_address_it_vouches_for_is_throttled,
);

async fn failed_sign_ins_are_generic_and_throttled(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("cy@example.org", "Cy", false).await;
    let browser = app.new_client();
    let unknown = browser
        .post_form(
            "/signin",
            &[
                ("email", "nobody@example.org"),
                ("password", "whatever it is"),
            ],
        )
        .await;
    let wrong = browser
        .post_form(
            "/signin",
            &[("email", "cy@example.org"), ("password", "wrong password!")],
        )
        .await;
    assert_eq!(unknown.status(), 401);
    assert_eq!(wrong.status(), 401);
    let unknown_html = unknown
        .text()
        .await
        .unwrap()
        .replace("nobody@example.org", "X");
    let wrong_html = wrong.text().await.unwrap().replace("cy@example.org", "X");
    assert_eq!(
        unknown_html, wrong_html,
        "the two failures must look the same"
    );

    for _ in 0..4 {
        let r = browser
            .post_form(
                "/signin",
                &[("email", "cy@example.org"), ("password", "wrong password!")],
            )
            .await;
        assert_eq!(r.status(), 401);
    }
    // Five failures: now even the right password waits.
    let blocked = browser
        .post_form(
            "/signin",
            &[("email", "cy@example.org"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(blocked.status(), 429);
    let api = app
        .client
        .http
        .post(app.url("/api/v1/token"))
        .json(&serde_json::json!({"email": "cy@example.org", "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(api.status(), 429);
    let body: serde_json::Value = api.json().await.unwrap();
    assert_eq!(body["error"], "too_many_requests");
}

async fn strangers_guessing_cannot_lock_out_a_browser_that_signed_in_before(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("to@example.org", "The Organiser", false)
        .await;
    let sign_in = |client: TestClient, password: &'static str| async move {
        client
            .post_form(
                "/signin",
                &[("email", "to@example.org"), ("password", password)],
            )
            .await
            .status()
            .as_u16()
    };
    // The organiser's phone signs in once, at the venue, and signs out.
    let phone = app.client_from("127.0.0.1");
    assert_eq!(sign_in(phone.clone(), PASSWORD).await, 303);
    assert_eq!(phone.post_form("/signout", &[]).await.status(), 303);

    // A player on the same venue network guesses, then one elsewhere does,
    // the first claiming another address in a header no proxy vouches for.
    let neighbour = app.client_from("127.0.0.1");
    let remote = app.client_from("127.0.0.2");
    for _ in 0..5 {
        let forged = neighbour
            .http
            .post(neighbour.url("/signin"))
            .header("X-Forwarded-For", "198.51.100.1")
            .form(&[
                ("email", "to@example.org"),
                ("password", "a wrong guess"),
                ("csrf_token", &neighbour.csrf_token().await),
            ])
            .send()
            .await
            .unwrap();
        assert_eq!(forged.status(), 401);
        assert_eq!(sign_in(remote.clone(), "another guess").await, 401);
    }
    // Each stranger's own budget is spent, the right password included.
    assert_eq!(sign_in(neighbour.clone(), PASSWORD).await, 429);
    assert_eq!(sign_in(remote.clone(), PASSWORD).await, 429);
    // The phone that signed in before has its own budget and gets in, from
    // the very address the neighbour guessed from; so does a new browser
    // elsewhere, within the account's ceiling.
    assert_eq!(sign_in(phone.clone(), PASSWORD).await, 303);
    assert_eq!(sign_in(app.client_from("127.0.0.3"), PASSWORD).await, 303);

    // The phone's budget is its own to spend: five wrong guesses there
    // hold the phone, not the organiser's other browsers.
    let laptop = app.client_from("127.0.0.4");
    assert_eq!(sign_in(laptop.clone(), PASSWORD).await, 303);
    for _ in 0..5 {
        assert_eq!(sign_in(phone.clone(), "typo").await, 401);
    }
    assert_eq!(sign_in(phone.clone(), PASSWORD).await, 429);
    assert_eq!(sign_in(laptop, PASSWORD).await, 303);
}

/// 110 wrong guesses from 22 addresses spend the account's ceiling for
/// unknown clients, which then holds even the right password from a new
/// client. An API client that sends back the device mark of its last token
/// request has a budget of its own and gets its token; a forged mark is no
/// mark.
async fn strangers_guessing_cannot_lock_out_an_api_client_that_signed_in_before(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("bot@example.org", "League Bot", false)
        .await;
    let request = |from: String, password: &'static str, device: Option<String>| {
        let client = app.client_from(&from);
        async move {
            let mut body = serde_json::json!({"email": "bot@example.org", "password": password});
            if let Some(device) = device {
                body["device"] = device.into();
            }
            let response = client
                .http
                .post(client.url("/api/v1/token"))
                .json(&body)
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            let body: serde_json::Value = response.json().await.unwrap_or_default();
            (status, body)
        }
    };
    let (status, first) = request("127.0.0.1".into(), PASSWORD, None).await;
    assert_eq!(status, 200, "{first}");
    let mark = first["device"].as_str().unwrap().to_owned();

    let mut answers = std::collections::BTreeMap::<u16, usize>::new();
    for host in 10..32 {
        for _ in 0..5 {
            let (status, _) = request(format!("127.0.0.{host}"), "a guess", None).await;
            *answers.entry(status).or_default() += 1;
        }
    }
    assert_eq!(answers.get(&401), Some(&100), "{answers:?}");
    assert_eq!(answers.get(&429), Some(&10), "{answers:?}");
    // A new client with the right password is held by the ceiling...
    let (status, _) = request("127.0.0.50".into(), PASSWORD, None).await;
    assert_eq!(status, 429);
    let (status, _) = request("127.0.0.50".into(), PASSWORD, Some("forged".into())).await;
    assert_eq!(status, 429);
    // ...the client that signed in before is not, whatever its address.
    let (status, again) = request("127.0.0.51".into(), PASSWORD, Some(mark)).await;
    assert_eq!(status, 200, "{again}");
    assert!(
        again["token"].is_string() && again["device"].is_string(),
        "{again}"
    );
}

async fn password_checks_on_account_pages_are_throttled_like_sign_in(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("guess@example.org", "Guess", false)
        .await;
    let stolen = app.signed_in_client("guess@example.org").await;
    let change = |current: &'static str| {
        let stolen = &stolen;
        async move {
            stolen
                .post_form(
                    "/account/password",
                    &[
                        ("current_password", current),
                        ("new_password", "the thief's new password"),
                    ],
                )
                .await
                .status()
                .as_u16()
        }
    };
    for _ in 0..5 {
        assert_eq!(change("a wrong guess here").await, 422);
    }
    // The budget is spent: even the right password is not checked now.
    assert_eq!(change(PASSWORD).await, 429);
    let delete = stolen
        .post_form("/account/delete", &[("password", PASSWORD)])
        .await;
    assert_eq!(delete.status(), 429);
    assert_eq!(
        stolen.get("/account").await.status(),
        200,
        "nothing changed"
    );
    // The thief's guesses spent the stolen session's budget, not the
    // owner's: the owner still signs in from another browser.
    let owner = app.new_client();
    let signin = owner
        .post_form(
            "/signin",
            &[("email", "guess@example.org"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(signin.status(), 303);
    // The password did not change: after the window, the old one works.
    let account_hash = app
        .with_conn(|conn| {
            soulstone::db::accounts::find_by_email(conn, "guess@example.org")
                .unwrap()
                .unwrap()
                .password_hash
        })
        .await;
    assert!(soulstone::auth::password::verify_password(
        PASSWORD,
        &account_hash
    ));
}

/// One network creates at most ten accounts an hour, and one address is
/// sent at most three reset mails in fifteen minutes (the answer to the
/// reset form stays the same, so it reveals nothing).
async fn sign_ups_and_reset_mails_are_throttled(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let mut codes = Vec::new();
    for i in 0..11 {
        let response = app
            .new_client()
            .post_form(
                "/signup",
                &[
                    ("display_name", &format!("Flood {i}")),
                    ("email", &format!("flood{i}@example.org")),
                    ("password", PASSWORD),
                ],
            )
            .await;
        codes.push(response.status().as_u16());
        if i == 10 {
            let html = response.text().await.unwrap();
            assert!(html.contains("Too many accounts"), "{html}");
        }
    }
    assert_eq!(&codes[..10], &[303; 10], "{codes:?}");
    assert_eq!(codes[10], 429, "{codes:?}");

    app.create_account("often@example.org", "Often", false)
        .await;
    let browser = app.new_client();
    for _ in 0..5 {
        let response = browser
            .post_form("/password/forgot", &[("email", "often@example.org")])
            .await;
        assert_eq!(response.status(), 200);
    }
    let queued = app
        .with_conn(|conn| soulstone::db::mail::to_address(conn, "often@example.org").unwrap())
        .await;
    assert_eq!(queued.len(), 3, "three reset mails, not five");

    // Signing up again and again with someone's address, from many
    // addresses, sends its owner three "you already have an account" mails.
    app.create_account("victim@example.org", "Victim", false)
        .await;
    for i in 0..6 {
        let response = app
            .client_from(&format!("127.0.0.{}", 20 + i))
            .post_form(
                "/signup",
                &[
                    ("display_name", "Not Victim"),
                    ("email", "victim@example.org"),
                    ("password", PASSWORD),
                ],
            )
            .await;
        assert_eq!(response.status(), 303, "the same answer as ever");
    }
    let queued = app
        .with_conn(|conn| soulstone::db::mail::to_address(conn, "victim@example.org").unwrap())
        .await;
    assert_eq!(queued.len(), 3, "three mails, not six");
}

/// A burst of wrong passwords at once: each takes its turn at the budget,
/// so exactly the budget's worth are checked and the rest are refused
/// unchecked, at sign-in (the API's token endpoint) and on the account pages.
async fn concurrent_guesses_spend_the_budget_once_each(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("burst@example.org", "Burst", false)
        .await;
    // Signed in before the burst, which spends this address's budget.
    let stolen = app.signed_in_client("burst@example.org").await;
    let http = reqwest::Client::builder()
        .pool_idle_timeout(crate::support::POOL_IDLE)
        .build()
        .unwrap();
    let guesses = (0..24).map(|i| {
        let http = http.clone();
        let url = app.url("/api/v1/token");
        async move {
            http.post(url)
                .json(&serde_json::json!({
                    "email": "burst@example.org",
                    "password": format!("wrong guess {i}"),
                }))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    });
    let statuses = futures_util::future::join_all(guesses).await;
    let checked = statuses.iter().filter(|s| **s == 401).count();
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!((checked, refused), (5, 19), "{statuses:?}");

    let token = stolen.csrf_token().await;
    let deletes = (0..24).map(|i| {
        let stolen = stolen.clone();
        let token = token.clone();
        async move {
            stolen
                .post_form_raw(
                    "/account/delete",
                    &[
                        ("password", &format!("wrong guess {i}")),
                        ("csrf_token", &token),
                    ],
                )
                .await
                .status()
                .as_u16()
        }
    });
    let statuses = futures_util::future::join_all(deletes).await;
    let checked = statuses.iter().filter(|s| **s == 422).count();
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!((checked, refused), (5, 19), "{statuses:?}");
    assert_eq!(stolen.get("/account").await.status(), 200, "not deleted");
}

/// With one proxy in front, the address that proxy appended is the client:
/// guesses are held by it, whatever the client wrote further left, and
/// another address behind the same proxy is not held.
async fn behind_a_proxy_the_address_it_vouches_for_is_throttled(backend: Backend) {
    let app = TestApp::spawn_configured(backend, |settings| settings.proxy_hops = 1).await;
    app.create_account("proxied@example.org", "Proxied", false)
        .await;
    let http = reqwest::Client::builder()
        .pool_idle_timeout(crate::support::POOL_IDLE)
        .build()
        .unwrap();
    // Each guess names another address, so only the per-client budget
    // (30 failures) can hold them.
    let guess = |forwarded: String, n: usize| {
        let http = http.clone();
        let url = app.url("/api/v1/token");
        async move {
            http.post(url)
                .header("X-Forwarded-For", forwarded)
                .json(&serde_json::json!({
                    "email": format!("nobody{n}@example.org"),
                    "password": "a guess",
                }))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    // 30 guesses from one client, each pretending to be somewhere new.
    for i in 0..30 {
        let status = guess(format!("198.51.100.{i}, 203.0.113.7"), i).await;
        assert_eq!(status, 401, "guess {i}");
    }
    assert_eq!(guess("198.51.100.99, 203.0.113.7".into(), 99).await, 429);
    // Another client behind the same proxy is not held by them.
    assert_eq!(guess("203.0.113.8".into(), 100).await, 401);
}
