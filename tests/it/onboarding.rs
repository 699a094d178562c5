//! A newcomer on their way somewhere: "Play a practice game" sends them to
//! sign in, they make an account instead, and the way back to the game is
//! kept through sign-up (whether or not the address was known, the answer
//! is the same), so they carry on before confirming their address; the
//! confirmation link signs in the browser that opens it and carries on too.

use crate::support::{Backend, PASSWORD, TestApp, location};

both_backends!(a_newcomer_signs_up_and_carries_on_to_where_they_were_going);

async fn a_newcomer_signs_up_and_carries_on_to_where_they_were_going(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let browser = app.new_client();
    let response = browser.get("/play").await;
    assert_eq!(response.status(), 303);
    let signin = location(&response);
    assert!(signin.starts_with("/signin?next="), "{signin}");
    let (_, page) = browser.get_text(&signin).await;
    assert!(page.contains("/signup?next=%2Fplay"), "{page}");
    let (_, form) = browser.get_text("/signup?next=/play").await;
    assert!(
        form.contains("<input type=\"hidden\" name=\"next\" value=\"/play\">"),
        "{form}"
    );
    let sign_up = |email: &'static str, next: &'static str| {
        let browser = browser.clone();
        async move {
            browser
                .post_form(
                    "/signup",
                    &[
                        ("display_name", "Nell Newcomer"),
                        ("email", email),
                        ("password", PASSWORD),
                        ("next", next),
                    ],
                )
                .await
        }
    };
    let response = sign_up("nell@example.org", "/play").await;
    assert_eq!(response.status(), 303);
    let waiting = location(&response);
    assert_eq!(waiting, "/signup/check-email?next=%2Fplay");
    // An address that already has an account gets the same answer.
    let again = sign_up("nell@example.org", "/play").await;
    assert_eq!(location(&again), waiting);
    // Another site is never a destination.
    let hostile = sign_up("other@example.org", "//evil.example/").await;
    assert_eq!(location(&hostile), "/signup/check-email");

    let (_, page) = browser.get_text(&waiting).await;
    assert!(page.contains("Sign in and carry on"), "{page}");
    assert!(page.contains("href=\"/signin?next=%2Fplay\""), "{page}");
    let signed_in = browser
        .post_form(
            "/signin",
            &[
                ("email", "nell@example.org"),
                ("password", PASSWORD),
                ("next", "/play"),
            ],
        )
        .await;
    assert_eq!(signed_in.status(), 303);
    assert_eq!(location(&signed_in), "/play");
    let (status, page) = browser.get_text("/play").await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Start the game"), "{page}");

    // The confirmation mail's link, opened on another device (the phone the
    // mail arrived on), confirms the address, signs that device in and
    // carries on to the game.
    let mail = app
        .smtp
        .wait_for("nell@example.org", "Confirm your email")
        .await;
    let link = mail.link(&app.address).expect("a link in the mail");
    assert!(link.contains("next=%2Fplay"), "{link}");
    let phone = app.new_client();
    let confirmed = phone.get(&link).await;
    assert_eq!(confirmed.status(), 303);
    assert_eq!(location(&confirmed), "/play");
    let (status, page) = phone.get_text("/play").await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Start the game"), "{page}");
    assert!(page.contains("You are signed in"), "{page}");
    let (_, account) = phone.get_text("/account").await;
    assert!(account.contains("nell@example.org"), "{account}");
    assert!(!account.contains("is not confirmed yet"), "{account}");
    // The second sign-up's mail to the known address offers a sign-in that
    // carries on to the game too.
    let known = app
        .smtp
        .wait_for("nell@example.org", "already have a Soulstone account")
        .await;
    let signin = known.link(&app.address).expect("a sign-in link");
    assert!(signin.ends_with("/signin?next=%2Fplay"), "{signin}");
    // The hostile destination was dropped from the mail as well.
    let mail = app
        .smtp
        .wait_for("other@example.org", "Confirm your email")
        .await;
    let other_link = mail.link(&app.address).expect("a link in the mail");
    assert!(!other_link.contains("next="), "{other_link}");
    // A browser signed in to another account confirms the address but stays
    // who it was.
    let (status, page) = browser.get_text(&other_link).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("email address is confirmed"), "{page}");
    let (_, account) = browser.get_text("/account").await;
    assert!(account.contains("nell@example.org"), "{account}");
}
