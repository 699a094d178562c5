//! The card pages and the crew builder, through HTTP as a browser without
//! scripts uses them: every shipped card has a page with its actions and
//! abilities; every shipped crew can be written step by step in the
//! builder to the same list and cost the engine gives it; a broken hiring
//! rule is named; a refused step changes nothing; pasted text that cannot
//! be read comes back to be mended; and the builder hands its list to the
//! practice page.

use soulstone_engine::Edition;
use soulstone_engine::content::crew::CrewList;

use crate::support::{Backend, TestApp, TestClient, html_escaped, shipped_content};

both_backends!(
    every_shipped_card_has_a_page,
    every_shipped_crew_is_written_step_by_step,
    a_broken_rule_is_named_and_a_refused_step_changes_nothing,
    saved_lists_are_kept_declared_and_deleted,
    the_saved_list_limit_holds_under_concurrency,
    a_saved_list_is_brought_to_a_practice_game_and_an_invitation,
);

/// `text` as it was before the templates escaped it.
fn unescaped(text: &str) -> String {
    text.replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Where the index's link named `name` leads.
fn link_to(index: &str, name: &str) -> String {
    let link_end = format!("\">{}</a>", html_escaped(name));
    let at = index
        .find(&link_end)
        .unwrap_or_else(|| panic!("{name} is listed"));
    let start = index[..at].rfind("href=\"").expect("its link") + "href=\"".len();
    unescaped(&index[start..at])
}

/// The list the builder's form carries to its next step.
fn carried(html: &str) -> CrewList {
    let marker = "name=\"list\" value=\"";
    let start = html.find(marker).expect("the carried list") + marker.len();
    let end = html[start..].find('"').expect("its end");
    serde_json::from_str(&unescaped(&html[start..start + end])).expect("the carried JSON")
}

/// One step of the builder: the carried list and the fields a button sends.
async fn step(client: &TestClient, list: &CrewList, fields: &[(&str, &str)]) -> (u16, String) {
    let json = serde_json::to_string(list).expect("JSON");
    let mut all = vec![("list", json.as_str())];
    all.extend_from_slice(fields);
    let query = serde_urlencoded::to_string(&all).expect("a query");
    client.get_text(&format!("/crews/build?{query}")).await
}

async fn every_shipped_card_has_a_page(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let visitor = app.new_client();
    for edition in [Edition::Fourth, Edition::Third] {
        let (status, index) = visitor
            .get_text(&format!("/cards?system={}", edition.code()))
            .await;
        assert_eq!(status, 200);
        let cards: Vec<_> = shipped_content()
            .cards()
            .filter(|card| card.edition == edition)
            .collect();
        assert!(cards.len() >= 10, "{} cards", cards.len());
        for card in cards {
            let name = card.full_name();
            let href = link_to(&index, &name);
            assert!(
                href.starts_with(&format!("/cards/{}/", edition.code())),
                "{href}"
            );
            let (status, page) = visitor.get_text(&href).await;
            assert_eq!(status, 200, "{href}");
            assert!(page.contains(&html_escaped(&name)), "{href} names the card");
            for action in &card.actions {
                assert!(
                    page.contains(&html_escaped(&action.name)),
                    "{href} shows {}",
                    action.name
                );
            }
            for ability in &card.abilities {
                assert!(
                    page.contains(&html_escaped(&ability.name)),
                    "{href} shows {}",
                    ability.name
                );
            }
        }
    }
    // The 1st edition's models, with their weapons, spells and abilities.
    let (status, index) = visitor.get_text("/cards?system=m1e").await;
    assert_eq!(status, 200);
    let (book, _) = soulstone::content::first_edition_content().expect("1st edition content");
    assert!(book.models().count() >= 10);
    for card in book.models() {
        let href = link_to(&index, &card.name);
        assert!(href.starts_with("/cards/m1e/"), "{href}");
        let (status, page) = visitor.get_text(&href).await;
        assert_eq!(status, 200, "{href}");
        let names = card
            .weapons
            .iter()
            .map(|w| w.name.clone())
            .chain(card.spells.iter().map(|s| s.name.clone()))
            .chain(
                card.abilities
                    .iter()
                    .map(|a| soulstone_engine::first_edition::words::ability(a).0),
            );
        for name in std::iter::once(card.name.clone()).chain(names) {
            assert!(page.contains(&html_escaped(&name)), "{href} shows {name}");
        }
    }
    // Mage Knight's warriors, with their dials click by click.
    let (status, index) = visitor.get_text("/cards?system=mk").await;
    assert_eq!(status, 200);
    let roster = soulstone::content::mage_knight_roster().expect("Mage Knight content");
    assert!(roster.warriors().count() >= 10);
    for warrior in roster.warriors() {
        let href = link_to(&index, &warrior.name);
        assert!(href.starts_with("/cards/mk/"), "{href}");
        let (status, page) = visitor.get_text(&href).await;
        assert_eq!(status, 200, "{href}");
        assert!(page.contains(&html_escaped(&warrior.name)), "{href}");
        let rows = page.matches("<tr><td>").count();
        assert_eq!(rows, warrior.dial.len(), "{href}: a row per click");
        for ability in warrior.dial.iter().flat_map(|click| &click.abilities) {
            assert!(
                page.contains(ability.name()),
                "{href} shows {}",
                ability.name()
            );
        }
    }
    let (status, page) = visitor.get_text("/crews/build?system=m1e").await;
    assert_eq!(status, 400);
    assert!(page.contains("writes 4th and 3rd edition lists"), "{page}");
    assert_eq!(visitor.get_text("/cards?system=chess").await.0, 400);
    assert_eq!(visitor.get_text("/cards/m4e/nobody-at-all").await.0, 404);
    assert_eq!(visitor.get_text("/cards/chess/brann-cole").await.0, 404);
}

async fn every_shipped_crew_is_written_step_by_step(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, player) = app.user("builder@example.org", "Builder").await;
    let catalog = shipped_content();
    let shipped = soulstone::content::shipped_crews();
    assert!(shipped.len() >= 8);
    for (path, text) in shipped {
        let wanted = CrewList::parse(text).expect("a shipped list");
        let hired = wanted.hire(catalog).expect("a shipped list hires");
        let size = wanted.size.to_string();
        let query = serde_urlencoded::to_string([
            ("system", wanted.edition.code()),
            ("faction", wanted.faction.as_str()),
            ("leader", wanted.leader.as_str()),
            ("size", size.as_str()),
        ])
        .expect("a query");
        let (status, mut html) = player.get_text(&format!("/crews/build?{query}")).await;
        assert_eq!(status, 200, "{path}");
        let mut list = carried(&html);
        assert_eq!(list.leader, wanted.leader);
        for model in &wanted.models {
            let (status, next) = step(&player, &list, &[("add", model)]).await;
            assert_eq!(status, 200, "{path}: hiring {model}");
            html = next;
            list = carried(&html);
        }
        for bought in &wanted.upgrades {
            let on = bought.on.to_string();
            let fields = [
                ("buy", "1"),
                ("upgrade", bought.upgrade.as_str()),
                ("upgrade_on", on.as_str()),
            ];
            let (status, next) = step(&player, &list, &fields).await;
            assert_eq!(status, 200, "{path}: buying {}", bought.upgrade);
            html = next;
            list = carried(&html);
        }
        assert_eq!(list, wanted, "{path}");
        assert!(html.contains("This crew hires legally."), "{path}");
        assert!(
            html.contains(&format!(
                "<strong>{} of {}</strong>",
                hired.spent, wanted.size
            )),
            "{path}: spends {}",
            hired.spent
        );
        assert!(
            html.contains(&html_escaped(&wanted.to_text())),
            "{path}: the list's text"
        );
        // The builder hands the list to the practice page's own-list box.
        let marker = "href=\"/play?";
        let start = html.find(marker).expect("the practice link") + "href=\"".len();
        let end = start + html[start..].find('"').expect("its end");
        let (status, practice) = player.get_text(&unescaped(&html[start..end])).await;
        assert_eq!(status, 200);
        assert!(
            practice.contains(&html_escaped(&wanted.to_text())),
            "{path}: the practice page holds the list"
        );
        // And to an invitation, as the one crew brought.
        let invite = unescaped(&html[start..end]).replacen("/play?", "/play/invite?", 1);
        let (status, page) = player.get_text(&invite).await;
        assert_eq!(status, 200);
        assert!(
            page.contains(&html_escaped(&wanted.to_text())),
            "{path}: the invitation page holds the list"
        );
        let ticked = page.match_indices("name=\"crew\"").any(|(at, _)| {
            let tag = &page[at..];
            tag[..tag.find('>').unwrap_or(tag.len())].contains("checked")
        });
        assert!(!ticked, "{path}: no ready crew ticked besides");
    }
}

async fn a_broken_rule_is_named_and_a_refused_step_changes_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let visitor = app.new_client();
    let catalog = shipped_content();
    let (status, html) = visitor
        .get_text("/crews/build?system=m4e&faction=Guild")
        .await;
    assert_eq!(status, 200);
    let start = carried(&html);
    assert_eq!(start.faction, "Guild");

    // Another faction's model may be written down; the rule it breaks is named.
    let outsider = catalog
        .cards()
        .find(|c| c.edition == Edition::Fourth && !c.factions.iter().any(|f| f == "Guild"))
        .filter(|c| c.cost.is_some())
        .map(|c| c.full_name())
        .expect("a card of another faction");
    let (status, html) = step(&visitor, &start, &[("add", &outsider)]).await;
    assert_eq!(status, 200);
    assert!(html.contains("not a model of Guild"), "{html}");
    assert!(!html.contains("This crew hires legally."));
    assert!(!html.contains("Play it in a practice game"));
    let with_outsider = carried(&html);
    assert_eq!(with_outsider.models, vec![outsider.clone()]);
    // A visitor's way to sign in comes back to the list.
    let marker = "href=\"/signin?";
    let from = html.find(marker).expect("a sign-in link") + marker.len();
    let to = from + html[from..].find('"').expect("its end");
    let query: Vec<(String, String)> =
        serde_urlencoded::from_str(&unescaped(&html[from..to])).expect("a query");
    let next = &query.iter().find(|(k, _)| k == "next").expect("next").1;
    let back: Vec<(String, String)> =
        serde_urlencoded::from_str(next.strip_prefix("/crews/build?").expect("to the builder"))
            .expect("the builder's query");
    let list = &back.iter().find(|(k, _)| k == "list").expect("the list").1;
    assert_eq!(
        serde_json::from_str::<CrewList>(list).expect("JSON"),
        with_outsider
    );

    // Taken out again, the list is as it was.
    let (status, html) = step(&visitor, &with_outsider, &[("remove", "1")]).await;
    assert_eq!(status, 200);
    assert_eq!(carried(&html), start);

    // Refused steps: a card no edition has, a model not in the list, a size
    // out of range, a faction with no cards. Each says why, with 422, and
    // the list carried on is unchanged.
    for fields in [
        vec![("add", "Nobody At All")],
        vec![("remove", "7")],
        vec![("remove", "first")],
        vec![("size", "5")],
        vec![("faction", "Nobody's Own")],
        vec![("give_back", "0")],
        vec![("buy", "1")],
    ] {
        let (status, html) = step(&visitor, &start, &fields).await;
        assert_eq!(status, 422, "{fields:?}");
        assert!(html.contains("flash-error"), "{fields:?}");
        assert_eq!(carried(&html), start, "{fields:?} changed nothing");
    }

    // A carried list longer than any list may be is not read.
    let mut long = start.clone();
    long.models = vec!["Wick Boy".to_string(); 41];
    let (status, html) = step(&visitor, &long, &[]).await;
    assert_eq!(status, 422);
    assert!(html.contains("could not be read"), "{html}");
    assert_eq!(carried(&html).models, Vec::<String>::new());

    // Over the encounter's size: the total and the rule say so.
    let mut list = start.clone();
    list.size = 10;
    let minion = catalog
        .cards()
        .find(|c| {
            c.edition == Edition::Fourth
                && c.factions.iter().any(|f| f == "Guild")
                && c.cost.is_some_and(|cost| cost >= 4)
                && c.model_limit() >= 3
        })
        .map(|c| c.full_name())
        .expect("a Guild minion");
    for _ in 0..3 {
        let (_, html) = step(&visitor, &list, &[("add", &minion)]).await;
        list = carried(&html);
    }
    let (_, html) = step(&visitor, &list, &[]).await;
    assert!(html.contains("more than the 10 allowed"), "{html}");

    // Pasted text that cannot be read comes back with the reason.
    let pasted = "Edition: m4e\nFaction: Guild\nThis line is nonsense\n";
    let response = visitor
        .post_form("/crews/build", &[("import", pasted)])
        .await;
    assert_eq!(response.status().as_u16(), 422);
    let html = response.text().await.expect("body");
    assert!(html.contains("The pasted list was not read"), "{html}");
    assert!(
        html.contains(&html_escaped(pasted.trim_end())),
        "the text is kept"
    );

    // A readable one replaces the list, in its own edition.
    let (_, text) = soulstone::content::shipped_crews()
        .iter()
        .find(|(path, _)| path.contains("m3e"))
        .expect("a 3rd edition list");
    let response = visitor.post_form("/crews/build", &[("import", text)]).await;
    assert_eq!(response.status().as_u16(), 200);
    let html = response.text().await.expect("body");
    assert_eq!(carried(&html), CrewList::parse(text).expect("parses"));
    assert!(html.contains("Malifaux 3rd edition"));
}

/// Saves the builder's `list` as `name` through the page's form.
async fn save(
    client: &TestClient,
    list: &CrewList,
    name: &str,
    replace: bool,
) -> reqwest::Response {
    let json = serde_json::to_string(list).expect("JSON");
    let mut fields = vec![("list", json.as_str()), ("name", name)];
    if replace {
        fields.push(("replace", "1"));
    }
    client.post_form("/crews", &fields).await
}

/// The shipped Lamplighters, as the builder carries them.
fn lamplighters() -> CrewList {
    soulstone::content::shipped_crews()
        .iter()
        .find(|(path, _)| path.ends_with("lamplighters-50.txt"))
        .map(|(_, text)| CrewList::parse(text).expect("parses"))
        .expect("the shipped Lamplighters")
}

async fn saved_lists_are_kept_declared_and_deleted(backend: Backend) {
    use serde_json::json;

    use crate::events::{create_event, event_body, set_status};

    let app = TestApp::spawn(backend).await;
    let (keeper, player) = app.user("keeper@example.org", "Keeper").await;
    let (_, other) = app.user("other@example.org", "Other").await;
    let list = lamplighters();

    let response = save(&player, &list, "  Lamps  ", false).await;
    assert_eq!(response.status().as_u16(), 303);
    assert_eq!(crate::support::location(&response), "/crews");
    let (status, page) = player.get_text("/crews").await;
    assert_eq!(status, 200);
    assert!(page.contains(">Lamps<"), "the name is kept trimmed");
    assert!(page.contains(&html_escaped(&list.leader)));
    let (_, others) = other.get_text("/crews").await;
    assert!(
        !others.contains(">Lamps<"),
        "another player does not see it"
    );

    // The same name again is refused unless replacing is ticked; the
    // builder comes back with the list and the name as written.
    let mut smaller = list.clone();
    smaller.models.pop();
    let response = save(&player, &smaller, "Lamps", false).await;
    assert_eq!(response.status().as_u16(), 422);
    let html = response.text().await.expect("body");
    assert!(html.contains("already keep a list called"), "{html}");
    assert_eq!(carried(&html), smaller);
    assert!(html.contains("value=\"Lamps\""));
    let response = save(&player, &list, "", false).await;
    assert_eq!(response.status().as_u16(), 422);
    assert!(
        response
            .text()
            .await
            .expect("body")
            .contains("Give the list a name")
    );
    let response = save(&player, &smaller, "Lamps", true).await;
    assert_eq!(response.status().as_u16(), 303);

    let saved = app
        .with_conn(move |conn| {
            soulstone::crews::saved::saved_of(conn, keeper, None).expect("saved lists")
        })
        .await;
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].list, smaller, "replaced");
    let id = saved[0].id;

    // Declared for an event: the saved list takes the text's place.
    let api = app.api_client("keeper@example.org").await;
    let event = create_event(&api, event_body("Saved list cup")).await;
    set_status(&api, event, "registration").await;
    let (code, entry) = api
        .post(&format!("/events/{event}/register"), json!({}))
        .await;
    assert_eq!(code, 201, "{entry}");
    let reg = entry["id"].as_i64().expect("an entry");
    let (_, page) = player.get_text(&format!("/events/{event}")).await;
    assert!(page.contains(&format!("<option value=\"{id}\">Lamps</option>")));
    let id_text = id.to_string();
    let response = player
        .post_form(
            &format!("/events/{event}/players/{reg}/declare"),
            &[("faction", ""), ("army_list", ""), ("saved_crew", &id_text)],
        )
        .await;
    assert_eq!(response.status().as_u16(), 303);
    let (_, page) = player.get_text(&format!("/events/{event}")).await;
    assert!(
        page.contains(&html_escaped(smaller.to_text().trim_end())),
        "the declared list is the saved one"
    );
    // Another player cannot declare it, see it or delete it.
    let delete = format!("/crews/{id}/delete");
    assert_eq!(other.get_text(&delete).await.0, 404);
    assert_eq!(other.post_form(&delete, &[]).await.status().as_u16(), 404);

    // Deleting asks first, then deletes.
    let (status, confirm) = player.get_text(&delete).await;
    assert_eq!(status, 200);
    assert!(confirm.contains("Delete the list"));
    assert_eq!(player.post_form(&delete, &[]).await.status().as_u16(), 303);
    let (_, page) = player.get_text("/crews").await;
    assert!(!page.contains(">Lamps<"));
    assert_eq!(player.get_text(&delete).await.0, 404);
}

/// The most lists an account keeps holds when saves arrive together.
async fn the_saved_list_limit_holds_under_concurrency(backend: Backend) {
    use soulstone::crews::saved::{MAX_SAVED_CREWS, save as save_list};

    let app = TestApp::spawn(backend).await;
    let (account, player) = app.user("many@example.org", "Many").await;
    let list = lamplighters();
    let kept = list.clone();
    app.with_conn(move |conn| {
        for n in 1..MAX_SAVED_CREWS {
            save_list(
                conn,
                account,
                &format!("List {n}"),
                &kept,
                None,
                false,
                chrono::Utc::now().naive_utc(),
            )
            .expect("saved");
        }
    })
    .await;
    let saves = (0..6).map(|n| {
        let (player, list) = (&player, &list);
        async move {
            save(player, list, &format!("Late {n}"), false)
                .await
                .status()
                .as_u16()
        }
    });
    let statuses = futures_util::future::join_all(saves).await;
    assert_eq!(
        statuses.iter().filter(|s| **s == 303).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 303 || *s == 422),
        "{statuses:?}"
    );
    let count = app
        .with_conn(move |conn| {
            soulstone::db::crews::count_saved_crews(conn, account).expect("count")
        })
        .await;
    assert_eq!(count, MAX_SAVED_CREWS);

    // A deleted account keeps none.
    let count = app
        .with_conn(move |conn| {
            soulstone::db::accounts::anonymise_account(
                conn,
                account,
                chrono::Utc::now().naive_utc(),
            )
            .expect("deleted");
            soulstone::db::crews::count_saved_crews(conn, account).expect("count")
        })
        .await;
    assert_eq!(count, 0);
}

/// The practice and invitation forms offer the player's own lists beside
/// the shipped ones; another player's list is not theirs to bring.
async fn a_saved_list_is_brought_to_a_practice_game_and_an_invitation(backend: Backend) {
    use soulstone::crews::saved::save as save_list;

    let app = TestApp::spawn(backend).await;
    let (account, player) = app.user("keeper@example.org", "Keeper").await;
    let (_, other) = app.user("other@example.org", "Other").await;
    let list = lamplighters();
    let kept = list.clone();
    let id = app
        .with_conn(move |conn| {
            save_list(
                conn,
                account,
                "Night watch",
                &kept,
                None,
                false,
                chrono::Utc::now().naive_utc(),
            )
            .expect("saved")
        })
        .await;
    let value = format!("saved:{id}");
    for page in ["/play", "/play/invite"] {
        let (status, html) = player.get_text(page).await;
        assert_eq!(status, 200);
        assert!(
            html.contains(&format!("value=\"{value}\"")) && html.contains("Night watch"),
            "{page} offers the saved list"
        );
        let (_, theirs) = other.get_text(page).await;
        assert!(
            !theirs.contains("Night watch"),
            "{page} is the player's own"
        );
    }
    // Another player cannot bring it.
    let refused = other
        .post_form("/play/practice", &[("crew", &value), ("bot", "random")])
        .await;
    assert_eq!(refused.status().as_u16(), 422);
    assert!(
        refused
            .text()
            .await
            .expect("page")
            .contains("You keep no such list.")
    );
    let started = player
        .post_form("/play/practice", &[("crew", &value), ("bot", "random")])
        .await;
    assert_eq!(started.status().as_u16(), 303);
    let game: i64 = crate::support::location(&started)
        .trim_start_matches("/games/")
        .parse()
        .expect("a game");
    let setup = app
        .with_conn(move |conn| {
            soulstone::db::hosted::find_game(conn, game)
                .expect("read")
                .expect("the game")
                .setup
        })
        .await;
    assert!(
        setup.contains("Night watch"),
        "the list is brought under its name"
    );
    let invited = player.post_form("/play/invite", &[("crew", &value)]).await;
    assert_eq!(invited.status().as_u16(), 303, "an invitation takes it too");
}
