//! Where an account is signed in, on its account page: browser sessions
//! and API tokens listed with their last use, signing out everywhere else,
//! and revoking one token after a confirmation; and signing out ends every
//! copy of the session's token.

use crate::support::{Backend, PASSWORD, TestApp};
use soulstone::auth::token::{TokenKind, TokenSubject};

both_backends!(
    the_account_page_lists_sessions_and_signs_out_the_others,
    the_account_page_lists_api_tokens_and_revokes_them,
    sign_out_ends_every_token_of_the_session,
);

async fn the_account_page_lists_sessions_and_signs_out_the_others(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let id = app.create_account("ida@example.org", "Ida", false).await;
    let laptop = app.signed_in_client("ida@example.org").await;
    let phone = app.signed_in_client("ida@example.org").await;
    let sessions = |html: &str| html.matches("<td>").count() / 3;
    let (status, page) = laptop.get_text("/account").await;
    assert_eq!(status, 200);
    assert_eq!(sessions(&page), 2, "both browsers are listed: {page}");
    assert_eq!(page.matches("(this browser)").count(), 1);
    assert!(page.contains("Sign out everywhere else"));

    let ended = laptop.post_form("/account/sessions/end-others", &[]).await;
    assert_eq!(ended.status(), 303);
    assert_eq!(
        phone.get("/account").await.status(),
        303,
        "the phone is signed out"
    );
    let (status, page) = laptop.get_text("/account").await;
    assert_eq!(status, 200, "this browser stays signed in");
    assert!(page.contains("1 other session is signed out."), "{page}");
    assert_eq!(sessions(&page), 1);
    assert!(!page.contains("Sign out everywhere else"));

    // Without its CSRF token the form changes nothing.
    let again = app.signed_in_client("ida@example.org").await;
    let forged = laptop
        .post_form_raw("/account/sessions/end-others", &[])
        .await;
    assert_eq!(forged.status(), 403);
    assert_eq!(again.get("/account").await.status(), 200);

    // Signing out takes a session off the list.
    let signed_out = again.post_form("/signout", &[]).await;
    assert_eq!(signed_out.status(), 303);
    let listed = app
        .with_conn(move |conn| {
            soulstone::db::accounts::sessions_of(conn, id)
                .unwrap()
                .len()
        })
        .await;
    assert_eq!(listed, 1, "only the laptop's session is left");
    // Housekeeping forgets sessions unused for longer than a token lives.
    let left = app
        .with_conn(move |conn| {
            let now = chrono::Utc::now().naive_utc();
            let keep_recent = now - chrono::Duration::hours(1);
            soulstone::db::accounts::purge_expired(conn, now, now, keep_recent).unwrap();
            let kept = soulstone::db::accounts::sessions_of(conn, id)
                .unwrap()
                .len();
            let later = now + chrono::Duration::hours(2);
            soulstone::db::accounts::purge_expired(conn, now, now, later).unwrap();
            (
                kept,
                soulstone::db::accounts::sessions_of(conn, id)
                    .unwrap()
                    .len(),
            )
        })
        .await;
    assert_eq!(left, (1, 0));
}

async fn the_account_page_lists_api_tokens_and_revokes_them(backend: Backend) {
    let app = &TestApp::spawn(backend).await;
    let id = app.create_account("jo@example.org", "Jo", false).await;
    let laptop = app.signed_in_client("jo@example.org").await;
    let http = &app.client.http;
    let token_for = |client: &'static str| async move {
        let reply: serde_json::Value = http
            .post(app.url("/api/v1/token"))
            .header("user-agent", client)
            .json(&serde_json::json!({"email": "jo@example.org", "password": PASSWORD}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        reply["token"].as_str().unwrap().to_owned()
    };
    let standings = token_for("standings-script/1.0").await;
    let pairings = token_for("pairings-bot/2").await;
    let works = |token: String| async move {
        http.get(app.url("/api/v1/me"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .status()
            .as_u16()
    };
    assert_eq!(works(standings.clone()).await, 200);
    assert_eq!(works(pairings.clone()).await, 200);

    // Both are listed by their client, each with a link to revoke it.
    let (status, page) = laptop.get_text("/account").await;
    assert_eq!(status, 200);
    assert!(page.contains("standings-script/1.0"), "{page}");
    assert!(page.contains("pairings-bot/2"), "{page}");
    let handles: Vec<String> = page
        .match_indices("/account/tokens/")
        .map(|(at, _)| page[at + 16..].split('/').next().unwrap().to_owned())
        .collect();
    assert_eq!(handles.len(), 2, "{page}");
    assert!(!page.contains(&standings) && !page.contains(&pairings));
    // The list is newest first: the pairings bot's token, then the script's.
    let (pairings_handle, standings_handle) = (&handles[0], &handles[1]);

    // Asking first changes nothing.
    let (status, ask) = laptop
        .get_text(&format!("/account/tokens/{standings_handle}/revoke"))
        .await;
    assert_eq!(status, 200);
    assert!(ask.contains("Revoke this API token?"), "{ask}");
    assert!(ask.contains("standings-script/1.0"), "{ask}");
    assert_eq!(works(standings.clone()).await, 200);

    // Another account can neither see nor revoke it.
    app.create_account("kit@example.org", "Kit", false).await;
    let other = app.signed_in_client("kit@example.org").await;
    let path = format!("/account/tokens/{standings_handle}/revoke");
    assert_eq!(other.get(&path).await.status(), 404);
    assert_eq!(other.post_form(&path, &[]).await.status(), 303);
    assert_eq!(works(standings.clone()).await, 200);
    // Nor can a form without its CSRF token.
    assert_eq!(laptop.post_form_raw(&path, &[]).await.status(), 403);
    assert_eq!(works(standings.clone()).await, 200);

    let revoked = laptop.post_form(&path, &[]).await;
    assert_eq!(revoked.status(), 303);
    assert_eq!(
        works(standings.clone()).await,
        401,
        "the revoked token is refused"
    );
    assert_eq!(
        works(pairings.clone()).await,
        200,
        "the other token still works"
    );
    let (_, page) = laptop.get_text("/account").await;
    assert!(page.contains("The API token is revoked"), "{page}");
    assert!(!page.contains("standings-script/1.0"), "{page}");
    assert!(page.contains(pairings_handle.as_str()));

    // Signing out everywhere else leaves tokens alone unless asked.
    let phone = app.signed_in_client("jo@example.org").await;
    assert_eq!(
        laptop
            .post_form("/account/sessions/end-others", &[])
            .await
            .status(),
        303
    );
    assert_eq!(phone.get("/account").await.status(), 303);
    assert_eq!(works(pairings.clone()).await, 200);
    assert_eq!(
        laptop
            .post_form("/account/sessions/end-others", &[("api_tokens", "on")])
            .await
            .status(),
        303
    );
    assert_eq!(works(pairings.clone()).await, 401);
    let (_, page) = laptop.get_text("/account").await;
    assert!(
        page.contains("1 other session or API token is signed out."),
        "{page}"
    );
    assert!(page.contains("No API tokens"), "{page}");
    assert_eq!(
        laptop.get("/account").await.status(),
        200,
        "this browser stays"
    );

    // A token's use is written down at most once a minute, and its row
    // lives as long as the token, however long ago it was used.
    let fresh = token_for("standings-script/1.1").await;
    assert_eq!(works(fresh).await, 200);
    let (noted, quiet, kept, gone) = app
        .with_conn(move |conn| {
            use soulstone::db::accounts::{self, SessionKind};
            let token_of = |conn: &mut soulstone::db::DbConnection| {
                accounts::sessions_of(conn, id)
                    .unwrap()
                    .into_iter()
                    .find(|s| s.kind == SessionKind::Api)
                    .unwrap()
            };
            let token = token_of(conn);
            let later = token.last_seen_at + chrono::Duration::minutes(5);
            accounts::note_api_token_used(conn, &token.sid, later).unwrap();
            let noted = token_of(conn).last_seen_at;
            let soon = later + chrono::Duration::seconds(20);
            accounts::note_api_token_used(conn, &token.sid, soon).unwrap();
            let quiet = token_of(conn).last_seen_at;
            let now = chrono::Utc::now().naive_utc();
            let after_sessions = now + chrono::Duration::hours(2);
            accounts::purge_expired(conn, now, now, after_sessions).unwrap();
            let kept = accounts::sessions_of(conn, id)
                .unwrap()
                .iter()
                .any(|s| s.kind == SessionKind::Api);
            let after_token = now + chrono::Duration::hours(13);
            accounts::purge_expired(conn, after_token, now, after_token).unwrap();
            let gone = !accounts::sessions_of(conn, id)
                .unwrap()
                .iter()
                .any(|s| s.kind == SessionKind::Api);
            (noted == later, quiet == later, kept, gone)
        })
        .await;
    assert!(noted, "a use five minutes on is written down");
    assert!(quiet, "a use within the minute is not");
    assert!(kept, "an API token's row outlives a browser session's");
    assert!(gone, "and goes when the token has ended");
}

/// Signing out ends the whole session: a copy of its cookie taken before a
/// renewal (or the renewed one) no longer signs anyone in, page or API.
async fn sign_out_ends_every_token_of_the_session(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let id = app.create_account("sid@example.org", "Sid", false).await;
    // The session's first token, as an attacker copied it...
    let subject = TokenSubject {
        account_id: id,
        generation: 0,
    };
    let now = chrono::Utc::now();
    let (copied, first) = app
        .state
        .tokens
        .issue(subject, TokenKind::Session, now, None)
        .unwrap();
    // ...and the renewed token the owner's browser holds now.
    let (renewed, claims) = app
        .state
        .tokens
        .issue_in_session(
            subject,
            TokenKind::Session,
            now,
            Some(now),
            Some(first.session_id()),
        )
        .unwrap();
    assert_eq!(
        claims.session_id(),
        first.jti,
        "a renewal stays in the session"
    );
    let page = |token: String| {
        let http = app.client.http.clone();
        let url = app.url("/account");
        async move {
            http.get(url)
                .header("cookie", format!("soulstone_session={token}"))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    assert_eq!(page(copied.clone()).await, 200);
    assert_eq!(page(renewed.clone()).await, 200);
    // The owner signs out with the renewed token.
    assert_eq!(sign_out_with(&app, &renewed).await, 303);
    assert_eq!(page(renewed).await, 303, "the renewed token is signed out");
    assert_eq!(
        page(copied).await,
        303,
        "and so is the copy taken before it"
    );
}

/// Posts the sign-out form as the browser holding `token` would: it reads
/// a page (which gives it its CSRF cookie and form token) and sends both.
async fn sign_out_with(app: &TestApp, token: &str) -> u16 {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let page = http
        .get(app.url("/"))
        .header("cookie", format!("soulstone_session={token}"))
        .send()
        .await
        .unwrap();
    let csrf_cookie = page
        .cookies()
        .find(|c| c.name() == "soulstone_csrf")
        .map(|c| c.value().to_owned())
        .expect("a CSRF cookie");
    let form_token = crate::support::app::csrf_token_in(&page.text().await.unwrap());
    http.post(app.url("/signout"))
        .header(
            "cookie",
            format!("soulstone_session={token}; soulstone_csrf={csrf_cookie}"),
        )
        .form(&[("csrf_token", form_token.as_str())])
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}
