//! The crew builder on a phone: a player writes a legal list by tapping,
//! sees an illegal hire refused with the rule named, saves the list and
//! declares it for an event, with no horizontal scrolling at 390 px.

use fantoccini::{Client, Locator};
use serde_json::json;

use super::{
    Driver, body_text, check_page, click_button, click_labelled, fill, set_value, sign_in, visit,
};
use crate::events::{create_event, event_body, set_status};
use crate::support::{Backend, TestApp};

both_backends!(a_player_builds_a_list_on_a_phone_and_declares_it);

/// Whether the page is wider than the phone's screen.
async fn scrolls_sideways(client: &Client) -> bool {
    client
        .execute(
            "return document.documentElement.scrollWidth > window.innerWidth;",
            vec![],
        )
        .await
        .unwrap()
        .as_bool()
        .unwrap()
}

async fn a_player_builds_a_list_on_a_phone_and_declares_it(backend: Backend) {
    let app = TestApp::spawn(backend.clone()).await;
    app.create_account("bea@example.org", "Bea Builder", false)
        .await;
    let api = app.api_client("bea@example.org").await;
    let event = create_event(&api, event_body("Builder Cup")).await;
    set_status(&api, event, "registration").await;
    let (code, entry) = api
        .post(&format!("/events/{event}/register"), json!({}))
        .await;
    assert_eq!(code, 201, "{entry}");

    let mut driver = Driver::start();
    let client = &driver.session().await;
    let prefix = format!("{}-crews", backend.name());
    sign_in(client, &app, "bea@example.org").await;
    visit(client, &app.url("/crews/build?system=m4e")).await;
    set_value(client, "faction", "Guild").await;
    click_button(client, "Update").await;
    set_value(client, "leader", "Odessa Vane, Lamplighter Marshal").await;
    click_button(client, "Update").await;
    for model in [
        "Wickling",
        "Brann Cole",
        "Lamplighter",
        "Lamplighter",
        "Lamplighter",
        "Wick Boy",
    ] {
        click_labelled(client, &format!("Hire {model}")).await;
    }
    // Each step lands on the running total, not the top of the form.
    let total_on_screen = client
        .execute(
            "const top = document.getElementById('crew-total').getBoundingClientRect().top; \
             return top > -2 && top < window.innerHeight;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        total_on_screen,
        json!(true),
        "the total is on screen after a hire"
    );
    let text = body_text(client).await;
    assert!(text.contains("This crew hires legally."), "{text}");
    // A fourth Lamplighter is past its limit: no button, the rule instead.
    assert!(
        client
            .find(Locator::Css("button[aria-label=\"Hire Lamplighter\"]"))
            .await
            .is_err()
    );
    assert!(text.contains("its limit is 3"), "{text}");
    assert!(!scrolls_sideways(client).await, "the builder fits 390 px");
    check_page(client, &format!("{prefix}-builder")).await;

    // A card's page from the list.
    let card = client
        .find(Locator::LinkText("Brann Cole"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    visit(client, &app.url(&card)).await;
    let text = body_text(client).await;
    assert!(
        text.contains("Long Pole") && text.contains("First Watch"),
        "{text}"
    );
    assert!(!scrolls_sideways(client).await, "a card page fits 390 px");
    check_page(client, &format!("{prefix}-card")).await;
    client.back().await.unwrap();

    fill(client, "name", "Phone list").await;
    click_button(client, "Save the list").await;
    let text = body_text(client).await;
    assert!(text.contains("Saved \"Phone list\"."), "{text}");
    assert!(
        !scrolls_sideways(client).await,
        "the saved lists fit 390 px"
    );
    check_page(client, &format!("{prefix}-saved")).await;

    visit(client, &app.url(&format!("/events/{event}"))).await;
    let saved = client
        .find(Locator::XPath(
            "//select[@name='saved_crew']/option[normalize-space(.)='Phone list']",
        ))
        .await
        .unwrap()
        .attr("value")
        .await
        .unwrap()
        .unwrap();
    set_value(client, "saved_crew", &saved).await;
    click_button(client, "Save declaration").await;
    let declared = client
        .find(Locator::Css("#f-crew_list"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(
        declared.contains("Leader: Odessa Vane, Lamplighter Marshal")
            && declared.contains("- Wick Boy"),
        "{declared}"
    );
}
