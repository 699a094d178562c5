//! An event with two players and its first round published: where the
//! tests of event games played in the browser (Malifaux and Mage Knight)
//! start.

use super::{ApiClient, TestApp, TestClient};

/// An event of `body` with Ann and Bo registered and checked in, running,
/// its first round paired (its scenario flipped when `flip`) and
/// published: the organiser's API and browser, and the players'.
pub struct PublishedRound {
    pub event: i64,
    pub pairing: i64,
    pub to: ApiClient,
    pub to_browser: TestClient,
    pub browsers: Vec<TestClient>,
    pub apis: Vec<ApiClient>,
}

pub async fn published_round(app: &TestApp, body: serde_json::Value, flip: bool) -> PublishedRound {
    use crate::events::{create_event, set_status};

    let (_, to_browser) = app.user("to@example.org", "Tess Organiser").await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    let mut browsers = Vec::new();
    let mut apis = Vec::new();
    for (email, name) in [("ann@example.org", "Ann"), ("bo@example.org", "Bo")] {
        let (_, browser) = app.user(email, name).await;
        let api = app.api_client(email).await;
        let (code, body) = api
            .post(&format!("/events/{event}/register"), serde_json::json!({}))
            .await;
        assert_eq!(code, 201, "{body}");
        let (code, _) = to
            .post(
                &format!("/events/{event}/players/{}/check-in", body["id"]),
                serde_json::json!({"checked_in": true}),
            )
            .await;
        assert!(code < 300);
        browsers.push(browser);
        apis.push(api);
    }
    set_status(&to, event, "running").await;
    let (code, body) = to
        .post(&format!("/events/{event}/rounds"), serde_json::json!({}))
        .await;
    assert!(code == 201 || code == 200, "{body}");
    if flip {
        // The round's scenario is flipped (each table flips its attacker).
        let flipped = to_browser
            .post_form(&format!("/events/{event}/rounds/1/setup"), &[])
            .await;
        assert_eq!(flipped.status().as_u16(), 303);
    }
    let (code, body) = to
        .post(
            &format!("/events/{event}/rounds/1/publish"),
            serde_json::json!({}),
        )
        .await;
    assert!(code < 300, "{body}");
    let (_, round) = to.get(&format!("/events/{event}/rounds/1")).await;
    let pairing = round["tables"][0]["game"].as_i64().unwrap();
    PublishedRound {
        event,
        pairing,
        to,
        to_browser,
        browsers,
        apis,
    }
}

/// What a player brings to digital pairing `bring` is refused: the page
/// `play` comes back (422) with `reason` and the text they wrote, and
/// nothing is kept.
pub async fn refused_when_brought(
    browser: &TestClient,
    (bring, play): (&str, &str),
    reason: &str,
    fields: &[(&str, String)],
) {
    let refs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let sent = browser.post_form(bring, &refs).await;
    assert_eq!(sent.status().as_u16(), 422);
    let shown = sent.text().await.unwrap();
    assert!(shown.contains(reason), "{reason}: {shown}");
    if let Some((_, text)) = fields.iter().find(|(k, _)| k.ends_with("_text")) {
        let first_line = text.lines().next().unwrap_or_default();
        assert!(
            shown.contains(&super::html_escaped(first_line)),
            "what was written is kept: {shown}"
        );
    }
    let (_, page) = browser.get_text(play).await;
    assert!(!page.contains("You brought"), "nothing was kept: {page}");
}
