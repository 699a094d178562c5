//! Standings of an event from its stored results, and their exports.

use super::{GameStatus, RoundStatus};
use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use super::EventView;
use super::rounds::{EventData, score_of};
use crate::tournament::standings::{StandingRow, standings};

/// The event's standings, recomputed from every accepted result.
///
/// Players who never had a game (no-shows, a mistaken entry) are left out,
/// unless they start with points (a league's carried-over score): with no
/// games they would rank above everyone who played and lost.
pub fn compute(view: &EventView, data: &EventData) -> Vec<StandingRow> {
    let with_games = data.players_who_played();
    let players: Vec<_> = data
        .tournament_players()
        .into_iter()
        .filter(|p| with_games.contains(&p.id) || p.initial_points != 0)
        .collect();
    let mut games = data.tournament_games();
    // Playoff games decide the bracket, not the Swiss standings.
    games.retain(|g| !data.is_playoff_round(g.round));
    if let Some(cap) = view.settings.league.max_counted_games {
        // A league counts each player's first `cap` games; a game counts
        // when it is within the cap of both of its players.
        let mut counted: BTreeMap<i64, u32> = BTreeMap::new();
        for game in games
            .iter_mut()
            .filter(|g| g.result.is_some() && g.b.is_some())
        {
            let players_of_game = [game.a, game.b.unwrap_or(game.a)];
            let within = players_of_game
                .iter()
                .all(|p| counted.get(p).copied().unwrap_or(0) < cap);
            if within {
                for p in players_of_game {
                    *counted.entry(p).or_default() += 1;
                }
            } else {
                game.result = None;
            }
        }
    }
    standings(
        &players,
        &games,
        &view.settings.scoring,
        &view.settings.tiebreakers,
    )
}

pub fn csv_field(value: &str) -> String {
    // Quote everything and neutralise spreadsheet formulas in names.
    let safe = if value.starts_with(['=', '+', '-', '@']) {
        format!("'{value}")
    } else {
        value.to_owned()
    };
    format!("\"{}\"", safe.replace('"', "\"\""))
}

/// Every player's declaration, if the event has published its lists.
pub fn published_declarations(
    view: &EventView,
    data: &EventData,
) -> BTreeMap<i64, super::registration::Declared> {
    if !view.event.lists_published {
        return BTreeMap::new();
    }
    data.registrations
        .iter()
        .map(|r| (r.id, super::registration::Declared::of(r)))
        .collect()
}

/// Standings as CSV, one row per player, the event's tiebreakers as columns.
///
/// `declared` holds each player's faction and leader once lists are
/// published (empty before: the columns stay blank). Once a playoff is
/// finished, `placings` gives the final places: a `final_place` column
/// comes first and the rows follow it ("5–8" for a shared place), the
/// Swiss `rank` beside.
pub fn standings_csv(
    view: &EventView,
    rows: &[StandingRow],
    declared: &BTreeMap<i64, super::registration::Declared>,
    placings: Option<&[super::playoffs::NamedPlacing]>,
) -> String {
    let mut out = String::new();
    if placings.is_some() {
        out.push_str("final_place,");
    }
    out.push_str(
        "rank,player_id,player,club,faction,leader,points,played,wins,draws,losses,byes,scored,conceded,difference",
    );
    for t in &view.settings.tiebreakers {
        let _ = write!(out, ",{}", t.code());
    }
    out.push_str(",dropped\n");
    let ordered: Vec<(Option<String>, &StandingRow)> = match placings {
        Some(placings) => {
            let place_of: BTreeMap<i64, (usize, String)> = placings
                .iter()
                .enumerate()
                .map(|(order, p)| (p.player, (order, p.place_text())))
                .collect();
            let mut ordered: Vec<(usize, Option<String>, &StandingRow)> = rows
                .iter()
                .map(|r| match place_of.get(&r.player) {
                    Some((order, text)) => (*order, Some(text.clone()), r),
                    None => (usize::MAX, Some(String::new()), r),
                })
                .collect();
            ordered.sort_by_key(|(order, _, _)| *order);
            ordered.into_iter().map(|(_, text, r)| (text, r)).collect()
        }
        None => rows.iter().map(|r| (None, r)).collect(),
    };
    for (final_place, r) in ordered {
        if let Some(place) = final_place {
            let _ = write!(out, "{place},");
        }
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.rank,
            r.player,
            csv_field(&r.name),
            csv_field(r.club.as_deref().unwrap_or("")),
            csv_field(
                declared
                    .get(&r.player)
                    .and_then(|d| d.faction.as_deref())
                    .unwrap_or("")
            ),
            csv_field(
                declared
                    .get(&r.player)
                    .and_then(|d| d.leader.as_deref())
                    .unwrap_or("")
            ),
            r.points,
            r.played,
            r.wins,
            r.draws,
            r.losses,
            r.byes,
            r.scored,
            r.conceded,
            r.vp_diff()
        );
        for value in &r.tiebreaks {
            let _ = write!(out, ",{value}");
        }
        let _ = writeln!(out, ",{}", r.dropped);
    }
    out
}

#[derive(Debug, Clone, Serialize)]
pub struct ResultRecord {
    pub game: i64,
    pub round: Option<i32>,
    pub table: Option<i32>,
    pub player_a_id: i64,
    pub player_a: String,
    pub player_b_id: Option<i64>,
    pub player_b: Option<String>,
    pub status: GameStatus,
    pub counts: bool,
    pub a_strategy_vp: Option<i32>,
    pub a_scheme_vp: Option<i32>,
    pub b_strategy_vp: Option<i32>,
    pub b_scheme_vp: Option<i32>,
    pub a_vp: Option<i32>,
    pub b_vp: Option<i32>,
    pub a_objectives: Option<i32>,
    pub b_objectives: Option<i32>,
    pub a_eliminated: Option<i32>,
    pub b_eliminated: Option<i32>,
    pub a_army: Option<i32>,
    pub b_army: Option<i32>,
}

/// Every game of the event, for the results exports.
pub fn results(data: &EventData) -> Vec<ResultRecord> {
    let drafts: Vec<i64> = data
        .rounds
        .iter()
        .filter(|r| r.status == RoundStatus::Draft)
        .map(|r| r.id)
        .collect();
    data.games
        .iter()
        .filter(|g| !g.round_id.is_some_and(|r| drafts.contains(&r)))
        .map(|g| {
            let (a_vp, b_vp) = match score_of(g) {
                Some(crate::tournament::GameScore::Malifaux { a_vp, b_vp }) => {
                    (Some(a_vp), Some(b_vp))
                }
                _ => (None, None),
            };
            ResultRecord {
                game: g.id,
                round: data.round_number_of(g),
                table: g.table_number,
                player_a_id: g.player_a,
                player_a: data.name_of(g.player_a).to_owned(),
                player_b_id: g.player_b,
                player_b: g.player_b.map(|b| data.name_of(b).to_owned()),
                status: g.status,
                counts: g.status.is_accepted(),
                a_strategy_vp: g.a_strategy_vp,
                a_scheme_vp: g.a_scheme_vp,
                b_strategy_vp: g.b_strategy_vp,
                b_scheme_vp: g.b_scheme_vp,
                a_vp,
                b_vp,
                a_objectives: g.a_objectives,
                b_objectives: g.b_objectives,
                a_eliminated: g.a_eliminated,
                b_eliminated: g.b_eliminated,
                a_army: g.a_army,
                b_army: g.b_army,
            }
        })
        .collect()
}

pub fn results_csv(records: &[ResultRecord]) -> String {
    let mut out = String::from(
        "game,round,table,player_a_id,player_a,player_b_id,player_b,status,counts,a_strategy_vp,a_scheme_vp,a_vp,b_strategy_vp,b_scheme_vp,b_vp,a_objectives,b_objectives,a_eliminated,b_eliminated,a_army,b_army\n",
    );
    let n = |v: Option<i32>| v.map(|v| v.to_string()).unwrap_or_default();
    for r in records {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.game,
            n(r.round),
            n(r.table),
            r.player_a_id,
            csv_field(&r.player_a),
            r.player_b_id.map(|b| b.to_string()).unwrap_or_default(),
            csv_field(r.player_b.as_deref().unwrap_or("(bye)")),
            r.status,
            r.counts,
            n(r.a_strategy_vp),
            n(r.a_scheme_vp),
            n(r.a_vp),
            n(r.b_strategy_vp),
            n(r.b_scheme_vp),
            n(r.b_vp),
            n(r.a_objectives),
            n(r.b_objectives),
            n(r.a_eliminated),
            n(r.b_eliminated),
            n(r.a_army),
            n(r.b_army)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_defuses_formulas() {
        assert_eq!(
            csv_field("Ann \"the Hammer\""),
            "\"Ann \"\"the Hammer\"\"\""
        );
        assert_eq!(csv_field("=cmd()"), "\"'=cmd()\"");
    }
}
