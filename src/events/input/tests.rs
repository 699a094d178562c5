use super::*;

fn valid() -> EventInput {
    let mut input = EventInput::new_event_defaults(NaiveDate::from_ymd_opt(2026, 12, 5).unwrap());
    input.name = "Winter Gaining Grounds".into();
    input
}

#[test]
fn defaults_validate() {
    let spec = valid().validate().unwrap();
    assert_eq!(spec.fields.game_system, "m4e");
    assert_eq!(
        spec.settings.tiebreakers,
        vec![Tiebreaker::VpDiff, Tiebreaker::VpScored, Tiebreaker::Sos]
    );
    assert_eq!(spec.settings.scoring.win, 3);
}

#[test]
fn every_problem_is_named() {
    let mut input = valid();
    input.name = "  ".into();
    input.rounds_planned = "zero".into();
    input.ends_on = "2026-12-01".into();
    input.points_draw = "5".into();
    input.tiebreaker_2 = "vp_diff".into();
    let EventError::Invalid(problems) = input.validate().unwrap_err() else {
        panic!("not invalid");
    };
    let fields: Vec<&str> = problems.iter().map(|(f, _)| *f).collect();
    for expected in [
        "name",
        "rounds_planned",
        "ends_on",
        "points_win",
        "tiebreakers",
    ] {
        assert!(
            fields.contains(&expected),
            "{expected} missing from {problems:?}"
        );
    }
}

/// The API may leave out what a new event's form fills in: public,
/// and the default scoring (3, 1, 0; a bye 5–0).
#[test]
fn visibility_and_scoring_left_out_take_the_forms_defaults() {
    let input: EventInput = serde_json::from_value(serde_json::json!({
        "name": "Quick Cup", "starts_on": "2026-12-05", "ends_on": "2026-12-05",
        "game_system": "m4e", "format": "swiss", "rounds_planned": 3,
        "round_minutes": 135, "encounter_size": 50
    }))
    .unwrap();
    let spec = input.validate().unwrap();
    assert_eq!(spec.fields.visibility, "public");
    assert_eq!(spec.settings.scoring, crate::tournament::Scoring::default());
    // A figure that is given is still checked.
    let input: EventInput = serde_json::from_value(serde_json::json!({
        "name": "Quick Cup", "starts_on": "2026-12-05", "ends_on": "2026-12-05",
        "game_system": "m4e", "format": "swiss", "rounds_planned": 3,
        "round_minutes": 135, "encounter_size": 50, "points_win": "three"
    }))
    .unwrap();
    let EventError::Invalid(problems) = input.validate().unwrap_err() else {
        panic!("not invalid");
    };
    assert!(problems.iter().any(|(field, _)| *field == "points_win"));
}

#[test]
fn mage_knight_needs_hundreds_and_no_pool() {
    let mut input = valid();
    input.game_system = "mk".into();
    input.encounter_size = "250".into();
    input.pool = "m3e-gg1".into();
    let EventError::Invalid(problems) = input.validate().unwrap_err() else {
        panic!("not invalid");
    };
    assert!(
        problems
            .iter()
            .any(|(f, m)| *f == "encounter_size" && m.contains("multiples of 100"))
    );
    assert!(problems.iter().any(|(f, _)| *f == "pool"));
}

#[test]
fn json_numbers_and_lists_are_accepted() {
    let input: EventInput = serde_json::from_value(serde_json::json!({
        "name": "League", "starts_on": "2026-12-01", "ends_on": "2027-02-01",
        "game_system": "m3e", "format": "league", "rounds_planned": 8, "round_minutes": 150,
        "encounter_size": 50, "visibility": "unlisted", "points_win": 3, "points_draw": 1,
        "points_loss": 0, "bye_scored": 5, "bye_conceded": 0, "tiebreakers": ["sos", "vp_diff"],
        "avoid_same_club": true, "league_mode": "open", "league_max_games_vs_same": 2
    }))
    .unwrap();
    let spec = input.validate().unwrap();
    assert_eq!(
        spec.settings.tiebreakers,
        vec![Tiebreaker::Sos, Tiebreaker::VpDiff]
    );
    assert!(spec.settings.avoid_same_club);
    assert_eq!(spec.settings.league.mode, LeagueMode::Open);
    assert_eq!(spec.settings.league.max_games_vs_same, Some(2));
}
