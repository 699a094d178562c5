//! Hardening against hostile input: a control character (NUL above all)
//! in an address, a form or a JSON body is refused with 400 and a message
//! on both backends, never a 500 from PostgreSQL or a NUL kept by SQLite.

use serde_json::json;

use crate::support::{Backend, TestApp};

both_backends!(control_characters_are_refused_on_both_backends);

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
