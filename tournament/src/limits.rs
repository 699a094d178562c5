//! The figures an event's standings and pairings are computed from, checked
//! before anything is added up: nothing negative, and no total (points, VP,
//! strength of schedule) beyond what the standings hold exactly. Release
//! builds wrap on overflow, so a figure too large would otherwise rank a
//! winner last or pair the extremes together without a word.

use std::collections::BTreeMap;

use super::{Game, GameScore, Outcome, Player, PlayerId, Scoring};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FigureError {
    #[error("the scoring's {figure} is {value}: tournament points cannot be negative")]
    NegativeScoring { figure: &'static str, value: i32 },
    #[error("{player} starts with {value} tournament points: initial points cannot be negative")]
    NegativeInitialPoints { player: String, value: i32 },
    #[error("{round}, {a} against {b}: the result has a negative figure ({value})")]
    NegativeResult {
        round: String,
        a: String,
        b: String,
        value: i32,
    },
    #[error(
        "{player}'s {total} would reach {value}, beyond the {limit} the standings can hold exactly"
    )]
    TooLarge {
        player: String,
        total: &'static str,
        value: i128,
        limit: i32,
    },
}

/// How a player is named in an error: their name and id.
pub fn describe(players: &BTreeMap<PlayerId, &Player>, id: PlayerId) -> String {
    match players.get(&id) {
        Some(p) => format!("{} (#{id})", p.name),
        None => format!("player #{id}"),
    }
}

/// Checks every figure and every total the standings will compute.
pub fn check_figures(
    players: &[Player],
    games: &[Game],
    scoring: &Scoring,
) -> Result<(), FigureError> {
    for (figure, value) in [
        ("points for a win", scoring.win),
        ("points for a draw", scoring.draw),
        ("points for a loss", scoring.loss),
        ("VP scored in a bye", scoring.bye_scored),
        ("VP conceded in a bye", scoring.bye_conceded),
    ] {
        if value < 0 {
            return Err(FigureError::NegativeScoring { figure, value });
        }
    }
    let by_id: BTreeMap<PlayerId, &Player> = players.iter().map(|p| (p.id, p)).collect();
    for p in players {
        if p.initial_points < 0 {
            return Err(FigureError::NegativeInitialPoints {
                player: describe(&by_id, p.id),
                value: p.initial_points,
            });
        }
    }

    // Totals in 128 bits: with every figure non-negative, each running sum
    // the standings keep in 32 bits is at most its final total, so checking
    // the totals checks every step.
    #[derive(Default)]
    struct Totals {
        points: i128,
        scored: i128,
        conceded: i128,
        eliminated: i128,
        opponents: Vec<PlayerId>,
    }
    let mut totals: BTreeMap<PlayerId, Totals> = players
        .iter()
        .map(|p| {
            let start = Totals {
                points: i128::from(p.initial_points),
                ..Totals::default()
            };
            (p.id, start)
        })
        .collect();
    for g in games {
        let Some(b) = g.b else {
            // A bye counts as a win with the event's figures, result or not.
            let t = totals.entry(g.a).or_default();
            t.points += i128::from(scoring.win);
            t.scored += i128::from(scoring.bye_scored);
            t.conceded += i128::from(scoring.bye_conceded);
            continue;
        };
        let Some(result) = g.result else { continue };
        let negative = figures_of(&result).into_iter().find(|v| *v < 0);
        if let Some(value) = negative {
            return Err(FigureError::NegativeResult {
                round: g
                    .round
                    .map_or_else(|| "open play".into(), |r| format!("round {r}")),
                a: describe(&by_id, g.a),
                b: describe(&by_id, b),
                value,
            });
        }
        let (a_scored, b_scored) = result.scored();
        let (a_eliminated, b_eliminated) = result.eliminated();
        let (a_points, b_points) = match result.outcome() {
            Outcome::AWins => (scoring.win, scoring.loss),
            Outcome::BWins => (scoring.loss, scoring.win),
            Outcome::Draw => (scoring.draw, scoring.draw),
        };
        for (me, them, points, scored, conceded, eliminated) in [
            (g.a, b, a_points, a_scored, b_scored, a_eliminated),
            (b, g.a, b_points, b_scored, a_scored, b_eliminated),
        ] {
            let t = totals.entry(me).or_default();
            t.points += i128::from(points);
            t.scored += i128::from(scored);
            t.conceded += i128::from(conceded);
            t.eliminated += i128::from(eliminated);
            t.opponents.push(them);
        }
    }
    let limit = i32::MAX;
    let too_large = |id: PlayerId, total: &'static str, value: i128| FigureError::TooLarge {
        player: describe(&by_id, id),
        total,
        value,
        limit,
    };
    let points_of = |id: &PlayerId| totals.get(id).map_or(0, |t| t.points);
    let mut sos: BTreeMap<PlayerId, i128> = BTreeMap::new();
    for (id, t) in &totals {
        for (total, value) in [
            ("tournament points", t.points),
            ("VP scored", t.scored),
            ("VP conceded", t.conceded),
            ("points eliminated", t.eliminated),
        ] {
            if value > i128::from(limit) {
                return Err(too_large(*id, total, value));
            }
        }
    }
    for (id, t) in &totals {
        let strength: i128 = t.opponents.iter().map(points_of).sum();
        if strength > i128::from(limit) {
            return Err(too_large(*id, "strength of schedule", strength));
        }
        sos.insert(*id, strength);
    }
    for (id, t) in &totals {
        let extended: i128 = t
            .opponents
            .iter()
            .map(|o| sos.get(o).copied().unwrap_or(0))
            .sum();
        if extended > i128::from(limit) {
            return Err(too_large(*id, "extended strength of schedule", extended));
        }
    }
    Ok(())
}

/// Every figure a result records (VP, or objectives, points eliminated and
/// army sizes).
fn figures_of(result: &GameScore) -> [i32; 6] {
    let (a_scored, b_scored) = result.scored();
    let (a_eliminated, b_eliminated) = result.eliminated();
    let (a_army, b_army) = match *result {
        GameScore::MageKnight { a_army, b_army, .. } => (a_army, b_army),
        GameScore::Malifaux { .. } => (0, 0),
    };
    [
        a_scored,
        b_scored,
        a_eliminated,
        b_eliminated,
        a_army,
        b_army,
    ]
}
