//! Accounts: sign-up with mail verification over real SMTP, sign-in and out,
//! password reset, tokens, CSRF, throttling, deletion.

use crate::support::{Backend, MailSetup, PASSWORD, TestApp, extract_input_value, location};
use soulstone::auth::token::{TokenKind, TokenSubject};
use soulstone::db::accounts;

both_backends!(
    sign_up_verify_sign_in_and_out,
    sign_up_with_a_taken_address_reveals_nothing,
    password_reset_by_single_use_link,
    an_unconfirmed_address_waits_for_what_others_see,
    forms_without_a_valid_csrf_token_are_refused_and_change_nothing,
    tampered_expired_and_revoked_tokens_are_refused,
    api_token_and_me,
    password_change_ends_other_sessions,
    production_answers_carry_hsts,
    a_new_reset_link_or_password_ends_older_links,
    deleting_an_account_anonymises_it,
    undeliverable_mail_waits_and_is_shown_to_the_admin,
    profile_validation_keeps_what_was_typed,
    admin_create_from_the_command_line,
);

async fn sign_up_verify_sign_in_and_out(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let browser = app.new_client();
    let response = browser
        .post_form(
            "/signup",
            &[
                ("display_name", "Ada Lovelace"),
                ("email", "Ada@Example.org"),
                ("password", PASSWORD),
                ("club", "Analytical Engines"),
            ],
        )
        .await;
    assert_eq!(response.status(), 303);
    assert_eq!(location(&response), "/signup/check-email");

    let mail = app
        .smtp
        .wait_for("ada@example.org", "Confirm your email")
        .await;
    assert!(mail.header("message-id").unwrap().contains("outbox-"));
    let link = mail.link(&app.address).expect("a link in the mail");
    assert!(link.contains("/verify-email?token="), "{link}");

    // The link signs in the browser that opens it, and goes home (this
    // sign-up was on its way nowhere in particular).
    let confirmed = browser.get(&link).await;
    assert_eq!(confirmed.status(), 303);
    assert_eq!(location(&confirmed), "/");
    let (_, html) = browser.get_text("/").await;
    assert!(html.contains("email address is confirmed"), "{html}");
    assert!(html.contains("Ada Lovelace"), "{html}");
    let (status, html) = browser.get_text(&link).await;
    assert_eq!(status, 400, "a used link must not work twice");
    assert!(html.contains("already been used"), "{html}");

    // A next address that a browser would turn into another site, or that
    // carries a line break, is not followed (and is no server error).
    for next in [
        "/\t/evil.example/",
        "/\n/evil.example",
        "/ /evil",
        "//evil.example",
        "/\\evil",
        "/a\r\nSet-Cookie: x=1",
    ] {
        let response = app
            .new_client()
            .post_form(
                "/signin",
                &[
                    ("email", "ada@example.org"),
                    ("password", PASSWORD),
                    ("next", next),
                ],
            )
            .await;
        assert_eq!(response.status(), 303, "{next:?}");
        assert_eq!(location(&response), "/", "{next:?}");
    }

    // Sign in (the address is matched case-insensitively), then out.
    let response = browser
        .post_form(
            "/signin",
            &[
                ("email", "ADA@example.org"),
                ("password", PASSWORD),
                ("next", "/account"),
            ],
        )
        .await;
    assert_eq!(response.status(), 303);
    assert_eq!(location(&response), "/account");
    let session_cookie = response
        .cookies()
        .find(|c| c.name() == "soulstone_session")
        .expect("session cookie");
    assert!(session_cookie.http_only());
    assert!(session_cookie.same_site_lax());
    let session_value = session_cookie.value().to_owned();
    let (status, html) = browser.get_text("/account").await;
    assert_eq!(status, 200);
    assert!(html.contains("Ada Lovelace") && html.contains("ada@example.org"));
    assert!(!html.contains("is not confirmed yet"));

    let response = browser.post_form("/signout", &[]).await;
    assert_eq!(response.status(), 303);
    let response = browser.get("/account").await;
    assert_eq!(response.status(), 303);
    assert!(location(&response).starts_with("/signin?next="));

    // The signed-out token is revoked on the server, not just forgotten.
    let replay = app.new_client();
    let response = replay
        .http
        .get(app.url("/account"))
        .header("cookie", format!("soulstone_session={session_value}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 303);
}

async fn sign_up_with_a_taken_address_reveals_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("taken@example.org", "First", false)
        .await;
    let browser = app.new_client();
    let response = browser
        .post_form(
            "/signup",
            &[
                ("display_name", "Second"),
                ("email", "Taken@example.org"),
                ("password", "another long password"),
            ],
        )
        .await;
    assert_eq!(response.status(), 303);
    assert_eq!(location(&response), "/signup/check-email");
    let mail = app.smtp.wait_for("taken@example.org", "already have").await;
    assert!(mail.body().contains("/password/forgot"));
    let count = app
        .with_conn(|conn| {
            use diesel::prelude::*;
            use soulstone::db::schema::accounts::dsl::*;
            accounts
                .filter(email.eq("taken@example.org"))
                .count()
                .get_result::<i64>(conn)
                .unwrap()
        })
        .await;
    assert_eq!(count, 1);
    // The old password still works; the second sign-up changed nothing.
    app.signed_in_client("taken@example.org").await;
}

async fn password_reset_by_single_use_link(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("bo@example.org", "Bo", false).await;
    let old_session = app.signed_in_client("bo@example.org").await;
    let browser = app.new_client();

    // Unknown and known addresses get the same answer.
    let unknown = browser
        .post_form("/password/forgot", &[("email", "nobody@example.org")])
        .await;
    let known = browser
        .post_form("/password/forgot", &[("email", "bo@example.org")])
        .await;
    assert_eq!(unknown.status(), known.status());
    let unknown_text = unknown
        .text()
        .await
        .unwrap()
        .replace("nobody@example.org", "X");
    let known_text = known.text().await.unwrap().replace("bo@example.org", "X");
    assert!(known_text.contains("If an account uses X"));
    assert_eq!(
        extract_flash(&unknown_text),
        extract_flash(&known_text),
        "the reply must not reveal whether the address exists"
    );

    let mail = app
        .smtp
        .wait_for("bo@example.org", "Reset your Soulstone password")
        .await;
    let link = mail.link(&app.address).unwrap();
    // Once delivered, the outbox keeps no usable link (a database backup
    // must not hand out password resets).
    let stored = app.mail_after_first_attempt("bo@example.org").await;
    assert_eq!(stored.body_text, soulstone::db::mail::SENT_BODY);
    let path = link.trim_start_matches(&app.address);
    assert!(!stored.body_text.contains(path), "{}", stored.body_text);
    let (status, html) = browser.get_text(&link).await;
    assert_eq!(status, 200);
    let token = extract_input_value(&html, "token").unwrap();

    // Too short: refused, and the link still works afterwards.
    let response = browser
        .post_form(
            "/password/reset",
            &[("token", &token), ("password", "short")],
        )
        .await;
    assert_eq!(response.status(), 422);
    let response = browser
        .post_form(
            "/password/reset",
            &[("token", &token), ("password", "a brand new password")],
        )
        .await;
    assert_eq!(response.status(), 303);
    assert_eq!(location(&response), "/signin");

    let again = browser
        .post_form(
            "/password/reset",
            &[("token", &token), ("password", "yet another password")],
        )
        .await;
    assert_eq!(again.status(), 400, "the link works once");
    let (status, _) = browser.get_text(&link).await;
    assert_eq!(status, 400);

    let old = browser
        .post_form(
            "/signin",
            &[("email", "bo@example.org"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(old.status(), 401);
    let new = browser
        .post_form(
            "/signin",
            &[
                ("email", "bo@example.org"),
                ("password", "a brand new password"),
            ],
        )
        .await;
    assert_eq!(new.status(), 303);
    // The session from before the reset has ended.
    assert_eq!(old_session.get("/account").await.status(), 303);
    app.smtp
        .wait_for("bo@example.org", "password was changed")
        .await;
}

fn extract_flash(html: &str) -> String {
    html.split("class=\"flash")
        .nth(1)
        .unwrap_or_default()
        .split("</div>")
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// An account whose address is not confirmed looks around and is told what
/// waits for the confirmation; creating events or pools and registering
/// are refused until then, and work after.
async fn an_unconfirmed_address_waits_for_what_others_see(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("host@example.org", "Host", false).await;
    let host = app.api_client("host@example.org").await;
    let event = crate::events::create_event(&host, crate::events::event_body("Open")).await;
    crate::events::set_status(&host, event, "registration").await;

    let browser = app.new_client();
    let signed_up = browser
        .post_form(
            "/signup",
            &[
                ("display_name", "Newcomer"),
                ("email", "new@example.org"),
                ("password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(signed_up.status(), 303);
    let signin = browser
        .post_form(
            "/signin",
            &[("email", "new@example.org"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(signin.status(), 303);
    let (_, home) = browser.get_text("/events").await;
    assert!(home.contains("not confirmed yet"), "{home}");
    let newcomer = app.api_client("new@example.org").await;

    let refusals = [
        newcomer
            .post("/events", crate::events::event_body("Mine"))
            .await,
        newcomer
            .post(&format!("/events/{event}/register"), serde_json::json!({}))
            .await,
    ];
    for (status, body) in &refusals {
        assert_eq!(*status, 403, "{body}");
        assert!(body.to_string().contains("confirm your email"), "{body}");
    }
    let pool = browser
        .post_form("/pools/import", &[("definition", "id = \"x\"")])
        .await;
    assert_eq!(pool.status(), 403);
    let registered = app
        .with_conn(move |conn| {
            soulstone::db::events::list_registrations(conn, event)
                .unwrap()
                .len()
        })
        .await;
    assert_eq!(registered, 0);

    let confirm = app
        .smtp
        .wait_for("new@example.org", "Confirm your email")
        .await;
    let (status, _) = browser.get_text(&confirm.link(&app.address).unwrap()).await;
    assert_eq!(status, 200);
    let (_, home) = browser.get_text("/events").await;
    assert!(!home.contains("not confirmed yet"), "{home}");
    let (status, body) = newcomer
        .post(&format!("/events/{event}/register"), serde_json::json!({}))
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = newcomer
        .post("/events", crate::events::event_body("Mine"))
        .await;
    assert_eq!(status, 201, "{body}");
}

async fn forms_without_a_valid_csrf_token_are_refused_and_change_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (id, browser) = app.user("dee@example.org", "Dee").await;

    let no_token = browser
        .post_form_raw("/account/profile", &[("display_name", "Hacked")])
        .await;
    assert_eq!(no_token.status(), 403);
    let html = no_token.text().await.unwrap();
    assert!(html.contains("did not come from this site"), "{html}");

    // A token made for another browser's cookie does not fit this one.
    let other_token = app.new_client().csrf_token().await;
    let foreign = browser
        .post_form_raw(
            "/account/profile",
            &[("display_name", "Hacked"), ("csrf_token", &other_token)],
        )
        .await;
    assert_eq!(foreign.status(), 403);
    let garbage = browser
        .post_form_raw(
            "/account/profile",
            &[("display_name", "Hacked"), ("csrf_token", "00ff")],
        )
        .await;
    assert_eq!(garbage.status(), 403);

    let anonymous = app.new_client();
    let signup = anonymous
        .post_form_raw(
            "/signup",
            &[
                ("display_name", "Eve"),
                ("email", "eve@example.org"),
                ("password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(signup.status(), 403);
    let signout = browser.post_form_raw("/signout", &[]).await;
    assert_eq!(signout.status(), 403);

    let (name, eve) = app
        .with_conn(move |conn| {
            let name = accounts::find_by_id(conn, id)
                .unwrap()
                .unwrap()
                .display_name;
            let eve = accounts::find_by_email(conn, "eve@example.org").unwrap();
            (name, eve)
        })
        .await;
    assert_eq!(name, "Dee");
    assert!(eve.is_none());
    // Still signed in: the refused sign-out did nothing.
    assert_eq!(browser.get("/account").await.status(), 200);

    let ok = browser
        .post_form("/account/profile", &[("display_name", "Dee Dee")])
        .await;
    assert_eq!(ok.status(), 303);
}

async fn tampered_expired_and_revoked_tokens_are_refused(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let id = app.create_account("fay@example.org", "Fay", false).await;
    let me = |token: String| {
        let http = app.client.http.clone();
        let url = app.url("/api/v1/me");
        async move {
            http.get(url)
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    let subject = TokenSubject {
        account_id: id,
        generation: 0,
    };
    let now = chrono::Utc::now();
    let (good, claims) = app
        .state
        .tokens
        .issue(subject, TokenKind::Api, now, None)
        .unwrap();
    assert_eq!(me(good.clone()).await, 200);

    // Tampered: swap the payload for another account's, keep the signature.
    let (other, _) = app
        .state
        .tokens
        .issue(
            TokenSubject {
                account_id: id + 1,
                ..subject
            },
            TokenKind::Api,
            now,
            None,
        )
        .unwrap();
    let good_parts: Vec<&str> = good.split('.').collect();
    let other_parts: Vec<&str> = other.split('.').collect();
    let tampered = format!("{}.{}.{}", good_parts[0], other_parts[1], good_parts[2]);
    assert_eq!(me(tampered.clone()).await, 401);
    // Signed with another secret.
    let foreign = soulstone::auth::token::TokenSigner::new(b"some other secret of enough length!!")
        .issue(subject, TokenKind::Api, now, None)
        .unwrap()
        .0;
    assert_eq!(me(foreign).await, 401);
    // Expired.
    let (expired, _) = app
        .state
        .tokens
        .issue(
            subject,
            TokenKind::Api,
            now - chrono::Duration::days(2),
            None,
        )
        .unwrap();
    assert_eq!(me(expired.clone()).await, 401);
    // Revoked.
    let revoke = app
        .client
        .http
        .post(app.url("/api/v1/token/revoke"))
        .bearer_auth(&good)
        .send()
        .await
        .unwrap();
    assert_eq!(revoke.status(), 204);
    assert_eq!(me(good).await, 401);
    let _ = claims;

    // A session token is no API token, and an API token no session.
    let (session, _) = app
        .state
        .tokens
        .issue(subject, TokenKind::Session, now, None)
        .unwrap();
    assert_eq!(
        me(session.clone()).await,
        401,
        "a session token as a bearer"
    );
    let (api, _) = app
        .state
        .tokens
        .issue(subject, TokenKind::Api, now, None)
        .unwrap();
    assert_eq!(me(api.clone()).await, 200);
    for (token, signed_in) in [(session, true), (api, false)] {
        let response = app
            .new_client()
            .http
            .get(app.url("/account"))
            .header("cookie", format!("soulstone_session={token}"))
            .send()
            .await
            .unwrap();
        let expected = if signed_in { 200 } else { 303 };
        assert_eq!(response.status(), expected, "signed in: {signed_in}");
    }

    // The same tokens in the session cookie are treated as signed out.
    for token in [tampered, expired] {
        let browser = app.new_client();
        let response = browser
            .http
            .get(app.url("/account"))
            .header("cookie", format!("soulstone_session={token}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 303);
        let cleared = response.cookies().find(|c| c.name() == "soulstone_session");
        assert!(
            cleared.is_some_and(|c| c.value().is_empty()),
            "a bad session cookie is cleared"
        );
    }
}

async fn api_token_and_me(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("gil@example.org", "Gil", false).await;
    let http = &app.client.http;
    let missing = http.get(app.url("/api/v1/me")).send().await.unwrap();
    assert_eq!(missing.status(), 401);
    let body: serde_json::Value = missing.json().await.unwrap();
    assert_eq!(body["error"], "unauthorized");

    let refused = http
        .post(app.url("/api/v1/token"))
        .json(&serde_json::json!({"email": "gil@example.org", "password": "not the password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);

    let bad_json = http
        .post(app.url("/api/v1/token"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(bad_json.status(), 400);
    let body: serde_json::Value = bad_json.json().await.unwrap();
    assert_eq!(body["error"], "invalid_input");

    let token: serde_json::Value = http
        .post(app.url("/api/v1/token"))
        .json(&serde_json::json!({"email": "GIL@example.org", "password": PASSWORD}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = token["token"].as_str().unwrap();
    let me: serde_json::Value = http
        .get(app.url("/api/v1/me"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["email"], "gil@example.org");
    assert_eq!(me["display_name"], "Gil");
    assert_eq!(me["is_admin"], false);
    assert_eq!(me["email_verified"], true);
}

async fn password_change_ends_other_sessions(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("hal@example.org", "Hal", false).await;
    let laptop = app.signed_in_client("hal@example.org").await;
    let phone = app.signed_in_client("hal@example.org").await;
    let wrong = laptop
        .post_form(
            "/account/password",
            &[
                ("current_password", "not it at all"),
                ("new_password", "a new password here"),
            ],
        )
        .await;
    assert_eq!(wrong.status(), 422);
    let changed = laptop
        .post_form(
            "/account/password",
            &[
                ("current_password", PASSWORD),
                ("new_password", "a new password here"),
            ],
        )
        .await;
    assert_eq!(changed.status(), 303);
    assert_eq!(
        laptop.get("/account").await.status(),
        200,
        "this browser stays signed in"
    );
    assert_eq!(
        phone.get("/account").await.status(),
        303,
        "other sessions end"
    );
}

async fn deleting_an_account_anonymises_it(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (id, browser) = app.user("ivy@example.org", "Ivy").await;
    // No one can take the placeholder address the deletion will use.
    let squatter = app
        .new_client()
        .post_form(
            "/signup",
            &[
                ("display_name", "Squatter"),
                ("email", &format!("deleted-{id}@deleted.invalid")),
                ("password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(squatter.status(), 422);
    let (status, html) = browser.get_text("/account/delete").await;
    assert_eq!(status, 200);
    assert!(html.contains("cannot be undone"));
    // Account pages are never cached; public pages may be.
    for (path, private) in [
        ("/account", true),
        ("/account/delete", true),
        ("/signin", true),
        ("/", false),
    ] {
        let response = browser.get(path).await;
        let cache = response
            .headers()
            .get("cache-control")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        assert_eq!(cache.contains("no-store"), private, "{path}: {cache:?}");
    }
    let wrong = browser
        .post_form("/account/delete", &[("password", "not my password")])
        .await;
    assert_eq!(wrong.status(), 422);
    let done = browser
        .post_form("/account/delete", &[("password", PASSWORD)])
        .await;
    assert_eq!(done.status(), 303);
    assert_eq!(browser.get("/account").await.status(), 303);
    let (row, by_email) = app
        .with_conn(move |conn| {
            use diesel::prelude::*;
            use soulstone::db::schema::accounts::dsl;
            let row: (String, String, Option<chrono::NaiveDateTime>) = dsl::accounts
                .find(id)
                .select((dsl::email, dsl::display_name, dsl::deleted_at))
                .first(conn)
                .unwrap();
            (
                row,
                accounts::find_by_email(conn, "ivy@example.org").unwrap(),
            )
        })
        .await;
    assert!(!row.0.contains("ivy"), "{row:?}");
    assert_eq!(row.1, format!("Deleted player #{id}"));
    assert!(row.2.is_some());
    assert!(by_email.is_none());
    // The address is free again.
    let again = app
        .new_client()
        .post_form(
            "/signup",
            &[
                ("display_name", "Ivy"),
                ("email", "ivy@example.org"),
                ("password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(again.status(), 303);
    app.smtp
        .wait_for("ivy@example.org", "Confirm your email")
        .await;
}

async fn undeliverable_mail_waits_and_is_shown_to_the_admin(backend: Backend) {
    // Nothing listens on port 1 (tcpmux, unused): every delivery attempt is refused.
    // A freed ephemeral port would not do: a parallel test's SMTP server may take it.
    assert!(
        std::net::TcpStream::connect("127.0.0.1:1").is_err(),
        "this test needs port 1 on loopback to be closed"
    );
    let app = TestApp::spawn_with(backend, MailSetup::SmtpAt("smtp://127.0.0.1:1".into())).await;
    app.create_account("root@example.org", "Root", true).await;
    let admin = app.signed_in_client("root@example.org").await;
    let response = app
        .new_client()
        .post_form(
            "/signup",
            &[
                ("display_name", "Jo"),
                ("email", "jo@example.org"),
                ("password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(
        response.status(),
        303,
        "sign-up never waits for the mail server"
    );

    let mail = app.mail_after_first_attempt("jo@example.org").await;
    assert_eq!(
        mail.status.code(),
        "pending",
        "a failed attempt is retried later"
    );
    assert!(mail.last_error.is_some());
    assert!(
        mail.next_attempt_at > mail.created_at,
        "the retry waits (backoff)"
    );
    let (status, html) = admin.get_text("/admin/mail").await;
    assert_eq!(status, 200);
    assert!(html.contains("jo@example.org"), "{html}");

    // Undelivered past the longest life of a link, the mail is given up and
    // its text (the confirmation link) is not kept; it cannot be retried.
    let link_was_kept = mail.body_text.contains("/verify-email?token=");
    assert!(link_was_kept, "{}", mail.body_text);
    let id = mail.id;
    let (given_up, after, retried) = app
        .with_conn(move |conn| {
            let later = mail.created_at + soulstone::db::mail::LONGEST_LINK_LIFETIME;
            let given_up = soulstone::db::mail::expire_undelivered(
                conn,
                later + chrono::Duration::seconds(1),
                later,
            )
            .unwrap();
            let after = soulstone::db::mail::to_address(conn, "jo@example.org").unwrap();
            let retried = soulstone::db::mail::retry(conn, id, later).unwrap();
            (given_up, after, retried)
        })
        .await;
    assert_eq!(given_up, 1);
    assert_eq!(after[0].body_text, soulstone::db::mail::EXPIRED_BODY);
    assert_eq!(after[0].status.code(), "failed");
    assert!(!retried);
}

async fn profile_validation_keeps_what_was_typed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, browser) = app.user("kai@example.org", "Kai").await;
    let long_club = "c".repeat(81);
    let response = browser
        .post_form(
            "/account/profile",
            &[
                ("display_name", "Kai Renamed"),
                ("club", &long_club),
                ("region", "North"),
            ],
        )
        .await;
    assert_eq!(response.status(), 422);
    let html = response.text().await.unwrap();
    assert!(html.contains("Club is at most 80 characters"), "{html}");
    assert!(
        html.contains("value=\"Kai Renamed\""),
        "the typed name is kept"
    );
    assert!(html.contains("value=\"North\""));
    let signup = app
        .new_client()
        .post_form(
            "/signup",
            &[
                ("display_name", "Lu"),
                ("email", "not-an-email"),
                ("password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(signup.status(), 422);
    let html = signup.text().await.unwrap();
    assert!(html.contains("valid email address"));
    assert!(html.contains("value=\"not-an-email\""));
    assert!(!html.contains(PASSWORD), "passwords are never echoed back");
}

/// The first admin comes from the command line, reading the password from stdin.
async fn admin_create_from_the_command_line(backend: Backend) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let test_db = crate::support::TestDb::create(&backend);
    let db_url = test_db.url_setting();
    let dir = tempfile::tempdir().unwrap();
    let run = |stdin: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_soulstone"))
            .args([
                "admin",
                "create",
                "--email",
                "Boss@Example.org",
                "--name",
                "The Boss",
            ])
            .env_clear()
            .env("DATABASE_URL", &db_url)
            .env("SOULSTONE_DATA_DIR", dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let short = run("short\n");
    assert!(!short.status.success());
    assert!(String::from_utf8_lossy(&short.stderr).contains("at least 10"));
    let created = run(&format!("{PASSWORD}\n"));
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    assert!(
        String::from_utf8_lossy(&created.stdout).contains("created site admin boss@example.org")
    );

    let db = test_db.open();
    let account = accounts::find_by_email(&mut db.conn().unwrap(), "boss@example.org")
        .unwrap()
        .unwrap();
    assert!(account.is_admin && account.is_verified());
    assert!(soulstone::auth::password::verify_password(
        PASSWORD,
        &account.password_hash
    ));
    let again = run("");
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("already had an account"));
}

/// A new reset link ends the older ones, and a changed password ends every
/// reset link still out.
async fn a_new_reset_link_or_password_ends_older_links(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("rea@example.org", "Rea", false).await;
    let browser = app.new_client();
    let links = |count: usize| {
        let app = &app;
        async move {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
            loop {
                let found: Vec<String> = app
                    .smtp
                    .received()
                    .into_iter()
                    .filter(|m| m.to.iter().any(|t| t.contains("rea@example.org")))
                    .filter(|m| m.data.contains("Reset your Soulstone password"))
                    .filter_map(|m| m.link(&app.address))
                    .collect();
                if found.len() >= count {
                    return found;
                }
                assert!(std::time::Instant::now() < deadline, "{count} reset mails");
                actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        }
    };
    browser
        .post_form("/password/forgot", &[("email", "rea@example.org")])
        .await;
    let first = links(1).await.remove(0);
    browser
        .post_form("/password/forgot", &[("email", "rea@example.org")])
        .await;
    let all = links(2).await;
    let second = all.into_iter().find(|l| *l != first).unwrap();
    assert_eq!(
        browser.get_text(&first).await.0,
        400,
        "the older link ended"
    );
    assert_eq!(browser.get_text(&second).await.0, 200, "the newest works");

    // Changing the password ends the reset link still out.
    let signed_in = app.signed_in_client("rea@example.org").await;
    let changed = signed_in
        .post_form(
            "/account/password",
            &[
                ("current_password", PASSWORD),
                ("new_password", "another long password"),
            ],
        )
        .await;
    assert_eq!(changed.status(), 303);
    assert_eq!(
        browser.get_text(&second).await.0,
        400,
        "ended by the change"
    );
}

/// Production answers tell browsers to keep to HTTPS; development ones,
/// which may be plain HTTP on a laptop, do not.
async fn production_answers_carry_hsts(backend: Backend) {
    let production = TestApp::spawn_configured(backend.clone(), |settings| {
        settings.environment = soulstone::config::Environment::Production;
    })
    .await;
    let response = production.get("/").await;
    assert_eq!(response.status(), 200);
    let hsts = response
        .headers()
        .get("strict-transport-security")
        .map(|value| value.to_str().unwrap().to_owned());
    assert_eq!(hsts.as_deref(), Some("max-age=31536000"));
    let development = TestApp::spawn(backend).await;
    let response = development.get("/").await;
    assert!(
        response
            .headers()
            .get("strict-transport-security")
            .is_none()
    );
}
