//! A team event through the API: captains register whole teams (the
//! player cap holding when they race), teams are paired by Swiss without a
//! rematch, captains take turns choosing who plays whom, and the team
//! standings follow games won and VP from the member games, reported by
//! the captains for their members.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::events::{create_event, event_body, set_status};
use crate::playoffs::enter;
use crate::support::{ApiClient, Backend, TestApp};

both_backends!(a_team_event_of_four_teams_of_three);
both_backends!(captains_racing_for_the_last_places_never_overfill_the_event);
both_backends!(organisers_enter_teams_at_the_desk_before_and_during_the_event);

/// A team event of teams of three: the API body.
pub(crate) fn team_event_body(name: &str, pairing: &str) -> Value {
    let mut body = event_body(name);
    body["team_size"] = json!(3);
    body["team_pairing"] = json!(pairing);
    body["avoid_same_club"] = json!(false);
    body
}

/// Captains with accounts, one per team name.
pub(crate) async fn captains(app: &TestApp, names: &[&str]) -> Vec<ApiClient> {
    let mut clients = Vec::new();
    for name in names {
        let email = format!("{}@example.org", name.to_lowercase());
        app.create_account(&email, name, false).await;
        clients.push(app.api_client(&email).await);
    }
    clients
}

async fn teams_of(api: &ApiClient, event: i64) -> Value {
    let (code, report) = api.get(&format!("/events/{event}/teams")).await;
    assert_eq!(code, 200, "{report}");
    report
}

/// Every member of every team, checked in by the organiser.
async fn check_in_everyone(to: &ApiClient, event: i64) {
    let report = teams_of(to, event).await;
    for team in report["teams"].as_array().unwrap() {
        for member in team["members"].as_array().unwrap() {
            let (code, body) = to
                .post(
                    &format!(
                        "/events/{event}/players/{}/check-in",
                        member["registration"]
                    ),
                    json!({"checked_in": true}),
                )
                .await;
            assert!(code < 300, "{body}");
        }
    }
}

/// The match's next step as the API reports it.
fn match_in(report: &Value, id: i64) -> Value {
    report["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == id)
        .cloned()
        .unwrap()
}

async fn a_team_event_of_four_teams_of_three(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("to@example.org", "Tess the TO", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, team_event_body("Team Cup", "captains_choice")).await;
    set_status(&to, event, "registration").await;
    let caps = captains(&app, &["Ava", "Bo", "Cy", "Di"]).await;

    // A player alone cannot enter a team event.
    let (code, body) = caps[0]
        .post(&format!("/events/{event}/register"), json!({}))
        .await;
    assert_eq!(code, 409, "{body}");
    // A team short of a player, or naming someone twice, is refused whole.
    let (code, body) = caps[0]
        .post(
            &format!("/events/{event}/teams"),
            json!({"name": "Ravens", "members": ["Ann"]}),
        )
        .await;
    assert_eq!(code, 400, "{body}");
    let (code, body) = caps[0]
        .post(
            &format!("/events/{event}/teams"),
            json!({"name": "Ravens", "members": ["Ann", "ann"]}),
        )
        .await;
    assert_eq!(code, 400, "{body}");
    assert!(
        teams_of(&to, event).await["teams"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    for (i, (captain, name)) in caps
        .iter()
        .zip(["Ravens", "Bats", "Cats", "Dogs"])
        .enumerate()
    {
        let (code, body) = captain
            .post(
                &format!("/events/{event}/teams"),
                json!({"name": name, "club": format!("Club {i}"),
                       "members": [format!("{name} two"), format!("{name} three")]}),
            )
            .await;
        assert_eq!(code, 201, "{body}");
    }
    // A second team of the same name, or a captain already entered, is refused.
    let extra = captains(&app, &["Eve"]).await;
    let (code, body) = extra[0]
        .post(
            &format!("/events/{event}/teams"),
            json!({"name": "ravens", "members": ["X one", "X two"]}),
        )
        .await;
    assert!(code == 400 || code == 409, "{code} {body}");
    let (code, _) = caps[1]
        .post(
            &format!("/events/{event}/teams"),
            json!({"name": "Second", "members": ["Y one", "Y two"]}),
        )
        .await;
    assert_eq!(code, 409);

    let report = teams_of(&to, event).await;
    let teams = report["teams"].as_array().unwrap();
    assert_eq!(teams.len(), 4);
    let members: BTreeMap<i64, Vec<i64>> = teams
        .iter()
        .map(|t| {
            let ids = t["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["registration"].as_i64().unwrap())
                .collect();
            (t["id"].as_i64().unwrap(), ids)
        })
        .collect();
    assert_eq!(teams[0]["members"][0]["captain"], true);
    assert_eq!(teams[0]["members"][0]["name"], "Ava");
    let team_of: BTreeMap<i64, i64> = members
        .iter()
        .flat_map(|(team, ids)| ids.iter().map(move |id| (*id, *team)))
        .collect();
    let captain_of: BTreeMap<i64, &ApiClient> = members.keys().copied().zip(caps.iter()).collect();

    // Pairing waits for every member at the venue.
    set_status(&to, event, "running").await;
    let (code, body) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 409, "{body}");
    assert!(body.to_string().contains("check in"), "{body}");
    check_in_everyone(&to, event).await;

    let mut met: BTreeSet<(i64, i64)> = BTreeSet::new();
    // Independent tallies: team → (points, games won, VP difference).
    let mut tally: BTreeMap<i64, (i64, i64, i64)> = BTreeMap::new();
    for round in 1..=2 {
        let (code, paired) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
        assert_eq!(code, 201, "{paired}");
        assert!(
            paired["tables"].as_array().unwrap().is_empty(),
            "no member games before the captains choose: {paired}"
        );
        let report = teams_of(&to, event).await;
        let matches: Vec<Value> = report["matches"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["round"] == round)
            .cloned()
            .collect();
        assert_eq!(matches.len(), 2);
        for m in &matches {
            let pair = (m["team_a"].as_i64().unwrap(), m["team_b"].as_i64().unwrap());
            assert!(
                met.insert((pair.0.min(pair.1), pair.0.max(pair.1))),
                "teams {pair:?} meet again in round {round}"
            );
        }
        // Nobody chooses before the round is published.
        let first = matches[0]["id"].as_i64().unwrap();
        let a_captain = captain_of[&matches[0]["team_a"].as_i64().unwrap()];
        let pick = members[&matches[0]["team_a"].as_i64().unwrap()][1];
        let (code, body) = a_captain
            .post(
                &format!("/events/{event}/matches/{first}/choices"),
                json!({"step": 0, "pick": pick}),
            )
            .await;
        assert_eq!(code, 409, "{body}");
        let (code, body) = to
            .post(
                &format!("/events/{event}/rounds/{round}/publish"),
                json!({}),
            )
            .await;
        assert_eq!(code, 204, "{body}");
        // The results cannot move the event on while captains choose.
        let (code, body) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
        assert_eq!(code, 409, "{body}");
        assert!(body.to_string().contains("still choosing"), "{body}");

        for m in &matches {
            let id = m["id"].as_i64().unwrap();
            let (ta, tb) = (m["team_a"].as_i64().unwrap(), m["team_b"].as_i64().unwrap());
            // The other captain may not act out of turn.
            let (code, body) = captain_of[&tb]
                .post(
                    &format!("/events/{event}/matches/{id}/choices"),
                    json!({"step": 0, "pick": members[&tb][0]}),
                )
                .await;
            assert_eq!(code, 403, "{body}");
            // A then B then B then A: the captains always take the
            // second-listed option left, and the last two meet.
            loop {
                let report = teams_of(&to, event).await;
                let state = match_in(&report, id);
                let next = &state["next"];
                if next["step"] == "done" {
                    break;
                }
                let side = next["side"].as_str().unwrap();
                let team = if side == "a" { ta } else { tb };
                let options = next["options"].as_array().unwrap();
                let pick = options[options.len().min(2) - 1].as_i64().unwrap();
                assert!(members[&team].contains(&pick));
                let step = state["step"].as_i64().unwrap();
                // A stale step is refused and changes nothing.
                if step > 0 {
                    let (code, _) = captain_of[&team]
                        .post(
                            &format!("/events/{event}/matches/{id}/choices"),
                            json!({"step": step - 1, "pick": pick}),
                        )
                        .await;
                    assert_eq!(code, 409);
                }
                let (code, body) = captain_of[&team]
                    .post(
                        &format!("/events/{event}/matches/{id}/choices"),
                        json!({"step": step, "pick": pick}),
                    )
                    .await;
                assert_eq!(code, 200, "{body}");
            }
            let state = match_in(&teams_of(&to, event).await, id);
            let pairs = state["next"]["pairs"].as_array().unwrap();
            assert_eq!(pairs.len(), 3);
            for pair in pairs {
                assert_eq!(team_of[&pair[0].as_i64().unwrap()], ta);
                assert_eq!(team_of[&pair[1].as_i64().unwrap()], tb);
            }
        }
        // Every member plays once this round, against the other team.
        let (_, detail) = to.get(&format!("/events/{event}/rounds/{round}")).await;
        let tables = detail["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 6, "{detail}");
        let mut seen = BTreeSet::new();
        for (i, table) in tables.iter().enumerate() {
            let (a, b) = (
                table["player_a"].as_i64().unwrap(),
                table["player_b"].as_i64().unwrap(),
            );
            assert!(seen.insert(a) && seen.insert(b));
            let (ta, tb) = (team_of[&a], team_of[&b]);
            assert_ne!(ta, tb);
            // Round 1: team A wins two boards of three and loses one;
            // round 2: one board each and a draw, team B ahead on VP.
            let board = (i % 3) as i64;
            let (a_vp, b_vp) = match (round, board) {
                (1, 0) | (1, 1) => (6, 2),
                (1, _) => (1, 5),
                (_, 0) => (4, 4),
                (_, 1) => (3, 2),
                (_, _) => (0, 7),
            };
            let game = table["game"].as_i64().unwrap();
            if round == 2 {
                // The captains answer for their members: one reports, the
                // other confirms; a third team's captain may not touch it.
                let outsider = captain_of
                    .iter()
                    .find(|(team, _)| **team != ta && **team != tb)
                    .map(|(_, c)| *c)
                    .unwrap();
                let result = json!({"a_strategy_vp": a_vp.min(5), "a_scheme_vp": (a_vp - 5).max(0),
                                    "b_strategy_vp": b_vp.min(5), "b_scheme_vp": (b_vp - 5).max(0)});
                let path = format!("/events/{event}/games/{game}/result");
                let (code, _) = outsider.post(&path, result.clone()).await;
                assert_eq!(code, 403);
                let (code, reported) = captain_of[&ta].post(&path, result).await;
                assert_eq!(code, 200, "{reported}");
                assert_eq!(reported["status"], "reported");
                let (code, body) = captain_of[&tb]
                    .post(
                        &format!("/events/{event}/games/{game}/confirm"),
                        json!({"version": reported["version"]}),
                    )
                    .await;
                assert_eq!(code, 204, "{body}");
            } else {
                enter(&to, event, game, a_vp, b_vp).await;
            }
            let ea = tally.entry(ta).or_default();
            ea.1 += i64::from(a_vp > b_vp);
            ea.2 += a_vp - b_vp;
            let eb = tally.entry(tb).or_default();
            eb.1 += i64::from(b_vp > a_vp);
            eb.2 += b_vp - a_vp;
        }
        for m in &matches {
            let (ta, tb) = (m["team_a"].as_i64().unwrap(), m["team_b"].as_i64().unwrap());
            let (pa, pb) = if round == 1 { (3, 0) } else { (1, 1) };
            tally.entry(ta).or_default().0 += pa;
            tally.entry(tb).or_default().0 += pb;
        }
        // The team standings equal the independent tally, in order.
        let report = teams_of(&to, event).await;
        let rows = report["standings"].as_array().unwrap();
        for row in rows {
            let team = row["team"].as_i64().unwrap();
            let expected = tally[&team];
            assert_eq!(
                (
                    row["points"].as_i64().unwrap(),
                    row["games_won"].as_i64().unwrap(),
                    row["vp_diff"].as_i64().unwrap()
                ),
                expected,
                "{row}"
            );
        }
        let keys: Vec<(i64, i64, i64)> = rows
            .iter()
            .map(|r| tally[&r["team"].as_i64().unwrap()])
            .collect();
        let mut sorted = keys.clone();
        sorted.sort_by(|x, y| y.cmp(x));
        assert_eq!(keys, sorted, "ordered by points, games won, VP difference");
    }
    // The team standings export: a row per team in the same order.
    let csv = reqwest::get(app.url(&format!("/events/{event}/teams.csv")))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let report = teams_of(&to, event).await;
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5, "{csv}");
    assert!(lines[0].starts_with("rank,team_id,team,points"), "{csv}");
    for (line, row) in lines[1..]
        .iter()
        .zip(report["standings"].as_array().unwrap())
    {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields[1], row["team"].to_string(), "{csv}");
        assert_eq!(fields[3], row["points"].to_string(), "{csv}");
        assert_eq!(fields[8], row["games_won"].to_string(), "{csv}");
    }
    // Player by player changes are refused in a team event.
    let (code, body) = to
        .post(&format!("/events/{event}/playoffs"), json!({"cut": 4}))
        .await;
    assert_eq!(code, 409, "{body}");
    // The players' own standings count the member games.
    let (_, standings) = to.get(&format!("/events/{event}/standings")).await;
    assert_eq!(standings.as_array().unwrap().len(), 12);
    let played: i64 = standings
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["played"].as_i64().unwrap())
        .sum();
    assert_eq!(played, 24);
}

async fn captains_racing_for_the_last_places_never_overfill_the_event(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("to@example.org", "Tess the TO", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let mut body = team_event_body("Small Cup", "by_rank");
    body["player_cap"] = json!(9);
    let event = create_event(&to, body).await;
    set_status(&to, event, "registration").await;
    let caps = captains(&app, &["Ana", "Bea", "Cal", "Dov", "Eli"]).await;
    let path = format!("/events/{event}/teams");
    let posts = caps.iter().enumerate().map(|(i, c)| {
        c.post(
            &path,
            json!({"name": format!("Team {i}"), "members": [format!("P{i}a"), format!("P{i}b")]}),
        )
    });
    let results = futures_util::future::join_all(posts).await;
    let created = results.iter().filter(|(code, _)| *code == 201).count();
    let refused = results.iter().filter(|(code, _)| *code == 409).count();
    assert_eq!((created, refused), (3, 2), "{results:?}");
    let report = teams_of(&to, event).await;
    assert_eq!(report["teams"].as_array().unwrap().len(), 3);

    // By rank: board k meets board k as soon as the round is paired.
    check_in_everyone(&to, event).await;
    set_status(&to, event, "running").await;
    let (code, paired) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 201, "{paired}");
    let report = teams_of(&to, event).await;
    let members: BTreeMap<i64, Vec<i64>> = report["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["id"].as_i64().unwrap(),
                t["members"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["registration"].as_i64().unwrap())
                    .collect(),
            )
        })
        .collect();
    let matches = report["matches"].as_array().unwrap();
    let played = matches.iter().find(|m| !m["team_b"].is_null()).unwrap();
    let bye = matches.iter().find(|m| m["team_b"].is_null()).unwrap();
    let (ta, tb) = (
        played["team_a"].as_i64().unwrap(),
        played["team_b"].as_i64().unwrap(),
    );
    let tables = paired["tables"].as_array().unwrap();
    let games: Vec<(i64, Option<i64>)> = tables
        .iter()
        .map(|t| (t["player_a"].as_i64().unwrap(), t["player_b"].as_i64()))
        .collect();
    let byes = &members[&bye["team_a"].as_i64().unwrap()];
    for (board, (a, b)) in members[&ta].iter().zip(&members[&tb]).enumerate() {
        assert!(games.contains(&(*a, Some(*b))), "board {board}: {games:?}");
        // The team with the bye: a bye for each member.
        assert!(games.contains(&(byes[board], None)));
    }
    // Dropping one member drops the team: every member, and the team is
    // left out of the next pairing.
    let (code, body) = to
        .post(
            &format!("/events/{event}/players/{}/drop", members[&ta][1]),
            json!({"dropped": true}),
        )
        .await;
    assert_eq!(code, 204, "{body}");
    let report = teams_of(&to, event).await;
    let dropped = report["teams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == ta)
        .unwrap();
    assert_eq!(dropped["dropped"], true, "{dropped}");
    let (_, standings) = to.get(&format!("/events/{event}/standings")).await;
    let dropped_players = standings
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["dropped"] == true)
        .count();
    assert_eq!(dropped_players, 3);
}

async fn organisers_enter_teams_at_the_desk_before_and_during_the_event(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.create_account("to@example.org", "Tess the TO", false)
        .await;
    let to = app.api_client("to@example.org").await;
    let event = create_event(&to, team_event_body("Desk Cup", "by_rank")).await;
    set_status(&to, event, "registration").await;
    let caps = captains(&app, &["Gus"]).await;
    let (code, body) = caps[0]
        .post(
            &format!("/events/{event}/teams"),
            json!({"name": "Gulls", "members": ["Gull two", "Gull three"]}),
        )
        .await;
    assert_eq!(code, 201, "{body}");
    // Only the organisers enter a team at the desk, naming every player.
    let desk =
        |name: &str, members: &[&str]| json!({"name": name, "members": members, "at_desk": true});
    let path = format!("/events/{event}/teams");
    let (code, _) = caps[0]
        .post(&path, desk("Owls", &["Olga", "Otto", "Oona"]))
        .await;
    assert_eq!(code, 403);
    let (code, body) = to.post(&path, desk("Owls", &["Olga", "Otto"])).await;
    assert_eq!(code, 400, "a short team: {body}");
    let (code, body) = to
        .post(&path, desk("Owls", &["Olga", "Otto", "Oona"]))
        .await;
    assert_eq!(code, 201, "{body}");
    let owls = body["teams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "Owls")
        .unwrap()
        .clone();
    assert_eq!(owls["members"][0]["name"], "Olga");
    assert_eq!(owls["members"][0]["captain"], false, "no captain account");

    check_in_everyone(&to, event).await;
    set_status(&to, event, "running").await;
    let (code, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 201, "{round}");
    assert_eq!(round["tables"].as_array().unwrap().len(), 3);
    // A late team joins the next round, already checked in.
    let (code, body) = to.post(&path, desk("Bats", &["Bea", "Bob", "Bux"])).await;
    assert_eq!(code, 201, "{body}");
    let (code, body) = to
        .post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    assert_eq!(code, 204, "{body}");
    for table in round["tables"].as_array().unwrap() {
        enter(&to, event, table["game"].as_i64().unwrap(), 4, 2).await;
    }
    let (code, round) = to.post(&format!("/events/{event}/rounds"), json!({})).await;
    assert_eq!(code, 201, "{round}");
    let report = teams_of(&to, event).await;
    let second: Vec<&Value> = report["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["round"] == 2)
        .collect();
    assert_eq!(second.len(), 2, "three teams: a match and a bye");
    assert!(second.iter().any(|m| m["team_b"].is_null()), "{second:?}");
}
