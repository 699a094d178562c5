//! A Swiss event cut to a top-8 playoff, through the API: seeding by the
//! standings (a dropped player left out), byes, a draw settled by the tie
//! rule, the third-place game, standings untouched by playoff games, and the
//! final placings.

use serde_json::{Value, json};

use crate::events::{create_event, event_body, set_status, walk_ins_checked_in};
use crate::support::{ApiClient, Backend, TestApp};

both_backends!(a_swiss_event_cut_to_a_top_eight_playoff);

/// Pairs and publishes the next round: its number and tables.
pub(crate) async fn pair_and_publish(to: &ApiClient, event: i64) -> (i64, Vec<Value>) {
    let (code, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 201, "{round}");
    let number = round["number"].as_i64().unwrap();
    let (code, body) = to
        .post(
            &format!("/events/{event}/rounds/{number}/publish"),
            json!({}),
        )
        .await;
    assert_eq!(code, 204, "{body}");
    (number, round["tables"].as_array().unwrap().clone())
}

/// Each table's players, A first.
fn pairs_of(tables: &[Value]) -> Vec<(i64, i64)> {
    tables
        .iter()
        .map(|t| {
            (
                t["player_a"].as_i64().unwrap(),
                t["player_b"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// The organiser enters a result: each side's VP, strategy first.
pub(crate) async fn enter(to: &ApiClient, event: i64, game: i64, a_vp: i64, b_vp: i64) {
    let (code, state) = to
        .post(
            &format!("/events/{event}/games/{game}/result"),
            json!({"a_strategy_vp": a_vp.min(5), "a_scheme_vp": (a_vp - 5).max(0),
                   "b_strategy_vp": b_vp.min(5), "b_scheme_vp": (b_vp - 5).max(0)}),
        )
        .await;
    assert_eq!(code, 200, "{state}");
}

async fn a_swiss_event_cut_to_a_top_eight_playoff(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("to@example.org", "Tess the TO", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, event_body("Cut to the Eight")).await;
    set_status(&to, event, "registration").await;
    let players = walk_ins_checked_in(&to, event, "Player", 12, 12).await;
    set_status(&to, event, "running").await;

    // A cut before any round, or while a round is open, is refused.
    let (code, body) = to
        .post(&format!("/events/{event}/playoffs"), json!({"cut": 8}))
        .await;
    assert_eq!(code, 409, "{body}");
    for round in 1..=3 {
        let (number, tables) = pair_and_publish(&to, event).await;
        assert_eq!(number, round);
        for (i, table) in tables.iter().enumerate() {
            let game = table["game"].as_i64().unwrap();
            let i = i as i64;
            enter(&to, event, game, (i + round) % 6, (2 * i + 1) % 6).await;
        }
    }
    // The third player drops before the cut: the cut leaves them out.
    let (_, standings) = to.get(&format!("/events/{event}/standings")).await;
    let order: Vec<i64> = standings
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_i64().unwrap())
        .collect();
    assert_eq!(order.len(), 12);
    let (code, _) = to
        .post(
            &format!("/events/{event}/players/{}/drop", order[2]),
            json!({"dropped": true}),
        )
        .await;
    assert_eq!(code, 204);
    let seeded: Vec<i64> = order.iter().copied().filter(|p| *p != order[2]).collect();
    let (_, standings) = to.get(&format!("/events/{event}/standings")).await;

    // Too large a cut names the limit and changes nothing.
    let (code, body) = to
        .post(&format!("/events/{event}/playoffs"), json!({"cut": 12}))
        .await;
    assert_eq!(code, 400, "{body}");
    assert!(body.to_string().contains("at most"), "{body}");
    let (code, _) = to.get(&format!("/events/{event}/bracket")).await;
    assert_eq!(code, 404);

    let (code, bracket) = to
        .post(
            &format!("/events/{event}/playoffs"),
            json!({"cut": 6, "third_place": true, "tie": "higher_seed"}),
        )
        .await;
    assert_eq!(code, 201, "{bracket}");
    let (code, body) = to
        .post(&format!("/events/{event}/playoffs"), json!({"cut": 6}))
        .await;
    assert_eq!(code, 409, "a second cut: {body}");
    // Undone before its first round, the cut can be made again.
    let (code, body) = to
        .post(&format!("/events/{event}/playoffs/undo"), json!({}))
        .await;
    assert_eq!(code, 204, "{body}");
    let (code, _) = to.get(&format!("/events/{event}/bracket")).await;
    assert_eq!(code, 404);
    let (code, bracket) = to
        .post(
            &format!("/events/{event}/playoffs"),
            json!({"cut": 6, "third_place": true, "tie": "higher_seed"}),
        )
        .await;
    assert_eq!(code, 201, "{bracket}");
    assert_eq!(bracket["first_round"], 4);
    let rounds = bracket["rounds"].as_array().unwrap();
    let names: Vec<&str> = rounds.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Quarterfinals", "Semifinals", "Final"]);
    // Seeds 1 and 2 have byes; 4 meets 5 and 3 meets 6.
    let first = rounds[0]["matches"].as_array().unwrap();
    assert_eq!(first[0]["high"]["player"], seeded[0]);
    assert_eq!(first[0]["low"]["label"], "bye");
    assert_eq!(first[1]["high"]["player"], seeded[3]);
    assert_eq!(first[1]["low"]["player"], seeded[4]);

    // Quarterfinals: two games, the higher seed as player A; the first drawn.
    let (number, tables) = pair_and_publish(&to, event).await;
    assert_eq!(number, 4);
    let (code, body) = to
        .post(&format!("/events/{event}/playoffs/undo"), json!({}))
        .await;
    assert_eq!(code, 409, "the playoff is under way: {body}");
    let pairs = pairs_of(&tables);
    assert_eq!(pairs, [(seeded[3], seeded[4]), (seeded[2], seeded[5])]);
    enter(&to, event, tables[0]["game"].as_i64().unwrap(), 3, 3).await;
    // The lower seed wins the other.
    enter(&to, event, tables[1]["game"].as_i64().unwrap(), 1, 4).await;
    let (_, after) = to.get(&format!("/events/{event}/standings")).await;
    assert_eq!(
        after, standings,
        "playoff games leave the Swiss standings alone"
    );

    // Semifinals: 1 v the winner of 4-5 (4, by the tie rule), 2 v 6.
    let (number, tables) = pair_and_publish(&to, event).await;
    assert_eq!(number, 5);
    let pairs = pairs_of(&tables);
    assert_eq!(pairs, [(seeded[0], seeded[3]), (seeded[1], seeded[5])]);
    let (_, bracket) = to.get(&format!("/events/{event}/bracket")).await;
    let tied = &bracket["rounds"][0]["matches"][1];
    assert_eq!(tied["state"]["by_tie_rule"], true, "{tied}");
    assert_eq!(tied["high"]["advanced"], true);
    enter(&to, event, tables[0]["game"].as_i64().unwrap(), 5, 2).await;
    enter(&to, event, tables[1]["game"].as_i64().unwrap(), 2, 5).await;

    // The final and the third-place game are paired together.
    let (number, tables) = pair_and_publish(&to, event).await;
    assert_eq!(number, 6);
    let pairs = pairs_of(&tables);
    assert_eq!(pairs, [(seeded[0], seeded[5]), (seeded[1], seeded[3])]);
    enter(&to, event, tables[0]["game"].as_i64().unwrap(), 2, 6).await;
    enter(&to, event, tables[1]["game"].as_i64().unwrap(), 4, 0).await;
    let (code, body) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 409, "{body}");
    assert!(body.to_string().contains("Every playoff round"), "{body}");

    let (_, bracket) = to.get(&format!("/events/{event}/bracket")).await;
    assert_eq!(bracket["finished"], true);
    let placings: Vec<(i64, i64, i64)> = bracket["placings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["player"].as_i64().unwrap(),
                p["place"].as_i64().unwrap(),
                p["last_place"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(placings.len(), players.len());
    assert_eq!(
        placings[..6],
        [
            (seeded[5], 1, 1),
            (seeded[0], 2, 2),
            (seeded[1], 3, 3),
            (seeded[3], 4, 4),
            (seeded[4], 5, 6),
            (seeded[2], 5, 6),
        ]
    );
    // Below the cut, the Swiss order (the dropped player included).
    let rest: Vec<i64> = placings[6..].iter().map(|p| p.0).collect();
    let swiss_rest: Vec<i64> = order
        .iter()
        .copied()
        .filter(|p| !seeded[..6].contains(p))
        .collect();
    assert_eq!(rest, swiss_rest);
    assert_eq!(placings[6].1, 7);

    // The standings page, its CSV and the event's overview lead with the
    // final placings: the playoff's winner (the sixth seed) first, though
    // the Swiss standings list them sixth.
    let name_at = |index: usize| {
        bracket["placings"][index]["name"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (winner, runner_up) = (name_at(0), name_at(1));
    let page = app
        .get(&format!("/events/{event}/standings"))
        .await
        .text()
        .await
        .unwrap();
    let final_section = page
        .split("Final placings")
        .nth(1)
        .and_then(|rest| rest.split("<h2>Swiss standings</h2>").next())
        .unwrap_or_else(|| panic!("no final placings before the Swiss standings: {page}"));
    let placed = |name: &str| {
        final_section
            .find(&format!("<td>{name}</td>"))
            .unwrap_or_else(|| panic!("{name} is not placed: {final_section}"))
    };
    let (winner_at, runner_up_at) = (placed(&winner), placed(&runner_up));
    assert!(winner_at < runner_up_at, "{final_section}");
    assert!(
        final_section.contains("5–6"),
        "a shared place: {final_section}"
    );
    assert!(page.contains(&format!("/events/{event}/bracket")), "{page}");
    let csv = app
        .get(&format!("/events/{event}/standings.csv"))
        .await
        .text()
        .await
        .unwrap();
    let mut lines = csv.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("final_place,rank,player_id,"),
        "{csv}"
    );
    let first_row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(first_row[0], "1", "{csv}");
    assert_eq!(
        first_row[2],
        seeded[5].to_string(),
        "the winner first: {csv}"
    );
    let swiss_rank = standings
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == seeded[5])
        .unwrap()["rank"]
        .to_string();
    assert_eq!(first_row[1], swiss_rank, "their Swiss rank beside: {csv}");
    assert_ne!(swiss_rank, "1");
    let overview = app
        .get(&format!("/events/{event}"))
        .await
        .text()
        .await
        .unwrap();
    let podium = overview
        .split("id=\"podium-heading\"")
        .nth(1)
        .and_then(|rest| rest.split("</section>").next())
        .unwrap_or_else(|| panic!("no final placings on the overview: {overview}"));
    let listed = |name: &str| {
        podium
            .find(&format!("</strong> {name}</li>"))
            .unwrap_or_else(|| panic!("{name} is not on the podium: {podium}"))
    };
    assert!(listed(&winner) < listed(&runner_up), "{podium}");

    // A round's page has tabs to every round, the playoff's by name.
    let round_page = app
        .get(&format!("/events/{event}/rounds/6"))
        .await
        .text()
        .await
        .unwrap();
    let tabs = round_page
        .split("aria-label=\"Rounds\"")
        .nth(1)
        .and_then(|rest| rest.split("</nav>").next())
        .unwrap_or_else(|| panic!("no round tabs: {round_page}"));
    assert!(
        tabs.contains(&format!("href=\"/events/{event}/rounds/1\">Round 1</a>")),
        "{tabs}"
    );
    assert!(
        tabs.contains(&format!(
            "href=\"/events/{event}/rounds/6\" aria-current=\"page\">Final</a>"
        )),
        "{tabs}"
    );
    assert!(podium.contains("<strong>1.</strong>"), "{podium}");
}
