//! Ratings across events through the API and pages: only finished, ranked
//! events of the system count, only games between account holders, the
//! figures are the pure Glicko-2 computation's, and a hidden profile leaves
//! the public lists.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use soulstone::tournament::Outcome;
use soulstone::tournament::rating::{RatedEvent, RatedGame, RatingPoint, ratings};

use crate::events::{create_event, event_body, set_status, walk_ins_checked_in};
use crate::playoffs::{enter, pair_and_publish};
use crate::support::{ApiClient, Backend, TestApp};

both_backends!(ratings_come_from_finished_ranked_events_only);

/// Ann, Ben, Cat and Dan (`ann@example.org`…): account ids and API clients.
pub(crate) async fn four_account_holders(app: &TestApp) -> Vec<(i64, ApiClient)> {
    let mut players = Vec::new();
    for name in ["Ann", "Ben", "Cat", "Dan"] {
        let email = format!("{}@example.org", name.to_lowercase());
        let id = app.create_account(&email, name, false).await;
        players.push((id, app.api_client(&email).await));
    }
    players
}

/// Plays a one-round event of the four account holders and a walk-in: the
/// games as rated (account ids, player A always wins) and the event id.
pub(crate) async fn one_round_event(
    to: &ApiClient,
    players: &[(i64, ApiClient)],
    name: &str,
    ends_on: &str,
    ranked: bool,
) -> (i64, Vec<RatedGame>) {
    let mut body = event_body(name);
    body["starts_on"] = json!(ends_on);
    body["ends_on"] = json!(ends_on);
    body["ranked"] = json!(ranked);
    body["rounds_planned"] = json!(1);
    body["avoid_same_club"] = json!(false);
    let event = create_event(to, body).await;
    set_status(to, event, "registration").await;
    let mut account_of = BTreeMap::new();
    for (account, client) in players {
        let (code, entry) = client
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(code, 201, "{entry}");
        let reg = entry["id"].as_i64().unwrap();
        let (code, _) = to
            .post(
                &format!("/events/{event}/players/{reg}/check-in"),
                json!({"checked_in": true}),
            )
            .await;
        assert_eq!(code, 204);
        account_of.insert(reg, *account);
    }
    walk_ins_checked_in(to, event, "Walk-in", 1, 1).await;
    set_status(to, event, "running").await;
    let (_, tables) = pair_and_publish(to, event).await;
    let mut rated = Vec::new();
    for table in &tables {
        let Some(b) = table["player_b"].as_i64() else {
            continue;
        };
        let a = table["player_a"].as_i64().unwrap();
        enter(to, event, table["game"].as_i64().unwrap(), 6, 2).await;
        if let (Some(&a), Some(&b)) = (account_of.get(&a), account_of.get(&b)) {
            rated.push(RatedGame {
                a,
                b,
                outcome: Outcome::AWins,
            });
        }
    }
    (event, rated)
}

async fn ranking(client: &ApiClient, query: &str) -> Vec<Value> {
    let (code, rows) = client.get(&format!("/rankings?{query}")).await;
    assert_eq!(code, 200, "{rows}");
    rows.as_array().unwrap().clone()
}

fn rating_of(rows: &[Value], account: i64) -> Option<i64> {
    rows.iter()
        .find(|r| r["account"] == account)
        .map(|r| r["rating"].as_i64().unwrap())
}

async fn ratings_come_from_finished_ranked_events_only(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("to@example.org", "Tess the TO", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let players = four_account_holders(&app).await;
    let anonymous = ApiClient::anonymous(&app);

    let (first, first_games) =
        one_round_event(&to, &players, "December Ranked", "2026-12-05", true).await;
    let (unranked, _) = one_round_event(&to, &players, "Friendly", "2026-12-12", false).await;
    let (later, later_games) =
        one_round_event(&to, &players, "January Ranked", "2027-01-09", true).await;
    let (first_games_again, later_games_again) = (first_games.clone(), later_games.clone());
    // Nothing counts until an event is finished.
    assert!(ranking(&anonymous, "system=m4e").await.is_empty());
    for event in [first, unranked] {
        set_status(&to, event, "finished").await;
    }
    let expected = |events: Vec<RatedEvent>| ratings(&events);
    let month = |y: i32, m: i32| y * 12 + m - 1;
    let after_first = expected(vec![RatedEvent {
        event: first,
        month: month(2026, 12),
        games: first_games.clone(),
    }]);
    let rows = ranking(&anonymous, "system=m4e").await;
    assert_eq!(rows.len(), after_first.len(), "{rows:?}");
    for (account, r) in &after_first {
        assert_eq!(rating_of(&rows, *account), Some(r.rating.round() as i64));
    }
    // Best first; another system has no one.
    assert!(
        rows.windows(2)
            .all(|w| w[0]["rating"].as_i64() >= w[1]["rating"].as_i64())
    );
    assert!(ranking(&anonymous, "system=mk").await.is_empty());

    set_status(&to, later, "finished").await;
    let both = expected(vec![
        RatedEvent {
            event: first,
            month: month(2026, 12),
            games: first_games,
        },
        RatedEvent {
            event: later,
            month: month(2027, 1),
            games: later_games,
        },
    ]);
    let rows = ranking(&anonymous, "system=m4e").await;
    for (account, r) in &both {
        assert_eq!(rating_of(&rows, *account), Some(r.rating.round() as i64));
        let row = rows.iter().find(|row| row["account"] == *account).unwrap();
        assert_eq!(row["events"], r.events);
    }

    // A region narrows the list; a hidden profile leaves it and its page.
    // (Whoever had the byes may not be rated: pick two who are.)
    let rated: Vec<usize> = (0..players.len())
        .filter(|i| both.contains_key(&players[*i].0))
        .collect();
    assert!(rated.len() >= 2, "{both:?}");
    let email = |i: usize| ["ann", "ben", "cat", "dan"][i].to_owned() + "@example.org";
    let name = |i: usize| ["Ann", "Ben", "Cat", "Dan"][i];
    let (ann_index, ben_index) = (rated[0], rated[1]);
    let (ann, ben) = (&players[ann_index].0, &players[ben_index].0);
    let ben_browser = app.signed_in_client(&email(ben_index)).await;
    let response = ben_browser
        .post_form(
            "/account/profile",
            &[("display_name", name(ben_index)), ("region", "North")],
        )
        .await;
    assert_eq!(response.status(), 303);
    let north = ranking(&anonymous, "system=m4e&region=north").await;
    assert_eq!(north.len(), 1, "{north:?}");
    assert_eq!(north[0]["account"], *ben);
    let ann_browser = app.signed_in_client(&email(ann_index)).await;
    let response = ann_browser
        .post_form(
            "/account/profile",
            &[("display_name", name(ann_index)), ("profile_hidden", "on")],
        )
        .await;
    assert_eq!(response.status(), 303);
    let rows = ranking(&anonymous, "system=m4e").await;
    assert_eq!(rating_of(&rows, *ann), None);
    assert_eq!(rows.len(), both.len() - 1);
    let (code, _) = anonymous.get(&format!("/players/{ann}")).await;
    assert_eq!(code, 404);
    let (code, own) = players[ann_index].1.get(&format!("/players/{ann}")).await;
    assert_eq!(code, 200, "{own}");
    assert_eq!(own["hidden"], true);

    // The other's profile: three events, a rating with a point per ranked
    // event played, and a head-to-head record against whoever they met.
    let (code, profile) = anonymous.get(&format!("/players/{ben}")).await;
    assert_eq!(code, 200, "{profile}");
    assert_eq!(profile["events"].as_array().unwrap().len(), 3);
    let history = profile["ratings"][0]["history"].as_array().unwrap();
    assert_eq!(history.len(), both[ben].history.len(), "{profile}");
    assert_eq!(
        profile["ratings"][0]["rating"].as_i64(),
        Some(both[ben].rating.round() as i64)
    );
    let played: u64 = profile["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["wins"].as_u64().unwrap() + e["losses"].as_u64().unwrap())
        .sum();
    assert!(played >= 1, "{profile}");
    if let Some(opponent) = profile["opponents"][0][0].as_i64() {
        let (_, h2h) = anonymous
            .get(&format!("/players/{ben}?vs={opponent}"))
            .await;
        let h = &h2h["head_to_head"];
        assert_eq!(h["opponent"], opponent);
        assert!(h["wins"].as_u64().unwrap() + h["losses"].as_u64().unwrap() >= 1);
    }

    // More ranked events in December, until someone shown (not Ann, who
    // hid) has counted games at two of them (each event has a walk-in and
    // a bye, so who plays whom is left to the pairing): the month's events
    // share one rating, and each shows its own part of the month's change.
    let mut december_events = vec![(first, first_games_again)];
    let (all, player, december) = loop {
        assert!(
            december_events.len() < 8,
            "no one played two December events"
        );
        let name = format!("December Cup {}", december_events.len());
        let (cup, cup_games) = one_round_event(&to, &players, &name, "2026-12-19", true).await;
        set_status(&to, cup, "finished").await;
        december_events.push((cup, cup_games));
        let mut events: Vec<RatedEvent> = december_events
            .iter()
            .map(|(event, games)| RatedEvent {
                event: *event,
                month: month(2026, 12),
                games: games.clone(),
            })
            .collect();
        events.push(RatedEvent {
            event: later,
            month: month(2027, 1),
            games: later_games_again.clone(),
        });
        let all = expected(events);
        let twice = players
            .iter()
            .map(|(id, _)| *id)
            .filter(|id| id != ann)
            .find_map(|id| {
                let december: Vec<RatingPoint> = all
                    .get(&id)?
                    .history
                    .iter()
                    .filter(|p| december_events.iter().any(|(e, _)| *e == p.event))
                    .copied()
                    .collect();
                (december.len() >= 2).then_some((id, december))
            });
        if let Some((player, december)) = twice {
            break (all, player, december);
        }
    };
    let (_, profile) = anonymous.get(&format!("/players/{player}")).await;
    let change_of = |event: i64| {
        profile["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["event"] == event)
            .map(|e| e["rating_change"].clone())
            .unwrap()
    };
    for point in &all[&player].history {
        assert_eq!(
            change_of(point.event).as_i64(),
            Some(point.change.round() as i64),
            "{profile}"
        );
    }
    assert!(
        change_of(unranked).is_null(),
        "a friendly changes nothing: {profile}"
    );
    assert!(
        december.windows(2).all(|w| w[0].rating == w[1].rating),
        "one rating for the month"
    );
    let parts: f64 = december.iter().map(|p| p.change).sum();
    assert!(
        (1500.0 + parts - december[0].rating).abs() < 1e-6,
        "the parts add up to the month's change"
    );
    // The page says it in words, each ranked event with a signed change.
    let (status, page) = app
        .new_client()
        .get_text(&format!("/players/{player}"))
        .await;
    assert_eq!(status, 200);
    assert!(page.contains("Rating change"), "{page}");
    assert!(page.contains("not rated"), "the friendly: {page}");
    for point in &december {
        let rounded = point.change.round() as i64;
        let shown = match rounded.signum() {
            1 => format!("+{rounded}"),
            -1 => format!("\u{2212}{}", rounded.unsigned_abs()),
            _ => "0".into(),
        };
        assert!(
            page.contains(&format!("<td>{shown}</td>")),
            "{shown} in {page}"
        );
    }
}
