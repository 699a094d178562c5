//! Playoffs: the organisers cut the field after the Swiss rounds, seeded by
//! the Swiss standings, and the playoff rounds are paired from the bracket
//! (`tournament::bracket`) instead of by Swiss. Their games are reported,
//! confirmed and played digitally like any round's.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::rounds::{self, EventData};
use super::{Access, Ctx, EventError, EventFormat, EventStatus, EventView, require_not_finished};
use crate::db::events::{self as db_events, PlayoffRow, Round};
use crate::db::{DbConnection, WriteTransaction, audit};
use crate::tournament::PlayerId;
use crate::tournament::bracket::{
    self, Bracket, BracketMatch, Entrant, MAX_CUT, MIN_CUT, MatchState, NextPlayoffRound, Placing,
    PlayoffRules, PlayoffTie, Seeded,
};
use crate::tournament::pairing::TablePair;
use crate::tournament::standings::StandingRow;

/// What the organisers choose when they make the cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CutRequest {
    pub cut: u32,
    pub third_place: bool,
    pub tie: PlayoffTie,
    /// The higher seed of each game chooses to attack or defend, instead of
    /// the setup's flip deciding.
    pub higher_seed_chooses: bool,
}

/// The pairing record of a playoff round: its name in the bracket. A
/// Swiss round stores the optimiser's answer instead.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayoffPairing {
    pub playoff: String,
}

/// The bracket name of a playoff round ("Quarterfinals"), or None for a
/// Swiss round.
pub fn playoff_name(round: &Round) -> Result<Option<String>, EventError> {
    Ok(super::rounds::PairingRecord::of(round)?
        .playoff_name()
        .map(str::to_owned))
}

/// The playoff's rules as stored.
pub fn rules_of(row: &PlayoffRow) -> Result<PlayoffRules, EventError> {
    let tie = row
        .tie_rule
        .parse()
        .map_err(|_| EventError::Corrupt(format!("playoff tie rule {:?}", row.tie_rule)))?;
    Ok(PlayoffRules {
        cut: u32::try_from(row.cut_size)
            .map_err(|_| EventError::Corrupt(format!("cut size {}", row.cut_size)))?,
        third_place: row.third_place,
        tie,
    })
}

/// The event's bracket as its games stand, if the cut has been made.
pub fn bracket_of(view: &EventView, data: &EventData) -> Result<Option<Bracket>, EventError> {
    if data.playoff.is_none() {
        return Ok(None);
    }
    bracket_with(data, &super::standings::compute(view, data))
}

/// The bracket, given the Swiss standings (for the tie rule's VP difference).
fn bracket_with(
    data: &EventData,
    standings: &[StandingRow],
) -> Result<Option<Bracket>, EventError> {
    let Some(row) = &data.playoff else {
        return Ok(None);
    };
    let rules = rules_of(row)?;
    let swiss: BTreeMap<PlayerId, i32> =
        standings.iter().map(|r| (r.player, r.vp_diff())).collect();
    let mut seeded: Vec<(i32, Seeded)> = data
        .registrations
        .iter()
        .filter_map(|r| {
            let seed = r.playoff_seed?;
            Some((
                seed,
                Seeded {
                    player: r.id,
                    swiss_vp_diff: swiss.get(&r.id).copied().unwrap_or(0),
                },
            ))
        })
        .collect();
    seeded.sort_by_key(|(seed, _)| *seed);
    let seeds: Vec<Seeded> = seeded.into_iter().map(|(_, s)| s).collect();
    let games = data.tournament_games();
    let played: Vec<Vec<crate::tournament::Game>> = data
        .playoff_rounds()
        .map(|round| {
            let number = u32::try_from(round.number).ok();
            games
                .iter()
                .filter(|g| g.round == number)
                .cloned()
                .collect()
        })
        .collect();
    bracket::bracket(&rules, &seeds, &played)
        .map(Some)
        .map_err(|err| EventError::Corrupt(format!("bracket: {err}")))
}

/// The event's final order: the playoff's places for the players in the
/// cut, then everyone else in Swiss standings order. Empty until the
/// bracket is finished.
fn final_placings(bracket: &Bracket, standings: &[StandingRow]) -> Vec<Placing> {
    if !bracket.is_finished() {
        return Vec::new();
    }
    let mut placings = bracket.placings();
    let mut next = placings.len() as u32 + 1;
    for row in standings {
        if placings.iter().all(|p| p.player != row.player) {
            placings.push(Placing {
                player: row.player,
                place: next,
                last_place: next,
            });
            next += 1;
        }
    }
    placings
}

/// Makes the cut: the top `cut` players of the Swiss standings who have not
/// dropped are seeded in standings order. Every Swiss result must be in.
pub fn make_cut(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    request: CutRequest,
    expected_version: i32,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    super::teams::require_individual_event(view, "A playoff cut")?;
    if view.status != EventStatus::Running || view.format != EventFormat::Swiss {
        return Err(EventError::Conflict(
            "A playoff cut follows the Swiss rounds of a running event.".into(),
        ));
    }
    if !(MIN_CUT..=MAX_CUT).contains(&request.cut) {
        return Err(EventError::invalid(
            "cut",
            format!("Choose a cut of {MIN_CUT} to {MAX_CUT} players."),
        ));
    }
    conn.write_transaction(|conn| {
        rounds::claim_version(conn, view, expected_version)?;
        let data = EventData::load(conn, view.id())?;
        if data.playoff.is_some() {
            return Err(EventError::Conflict(
                "The cut has been made already.".into(),
            ));
        }
        let Some(last) = data.rounds.last() else {
            return Err(EventError::Conflict(
                "Play the Swiss rounds before making the cut.".into(),
            ));
        };
        rounds::require_round_complete(&data)?;
        let standing: Vec<PlayerId> = super::standings::compute(view, &data)
            .into_iter()
            .filter(|r| !r.dropped)
            .map(|r| r.player)
            .collect();
        if standing.len() < request.cut as usize {
            return Err(EventError::invalid(
                "cut",
                format!(
                    "Only {} players are still in the event: choose a cut of at most that many.",
                    standing.len()
                ),
            ));
        }
        let seeded = &standing[..request.cut as usize];
        let row = PlayoffRow {
            event_id: view.id(),
            cut_size: request.cut as i32,
            third_place: request.third_place,
            tie_rule: request.tie.code().to_owned(),
            higher_seed_chooses: request.higher_seed_chooses,
            first_round: last.number + 1,
            created_at: ctx.now,
        };
        if !db_events::insert_playoffs(conn, &row, seeded)? {
            return Err(EventError::Conflict(
                "The cut has been made already.".into(),
            ));
        }
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "playoffs.cut",
            &format!(
                "top {} after round {}{}",
                request.cut,
                last.number,
                if request.third_place {
                    ", third-place game"
                } else {
                    ""
                }
            ),
            ctx.now,
        )?;
        Ok(())
    })
}

/// Undoes the cut, while no playoff round has been paired.
pub fn undo_cut(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    expected_version: i32,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    conn.write_transaction(|conn| {
        rounds::claim_version(conn, view, expected_version)?;
        let data = EventData::load(conn, view.id())?;
        let Some(row) = &data.playoff else {
            return Err(EventError::Conflict("There is no cut to undo.".into()));
        };
        if data.playoff_rounds().next().is_some() {
            return Err(EventError::Conflict(
                "A playoff round has been paired: delete its draft first. Once published, the cut stays."
                    .into(),
            ));
        }
        db_events::delete_playoffs(conn, view.id())?;
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "playoffs.undone",
            &format!("top {} cut removed", row.cut_size),
            ctx.now,
        )?;
        Ok(())
    })
}

/// The next playoff round worked out from the bracket: its number, name
/// and tables (higher seed as player A; the third-place game last).
pub(super) fn plan_round(
    view: &EventView,
    data: &EventData,
) -> Result<Option<(i32, String, Vec<TablePair>)>, EventError> {
    let (Some(row), Some(bracket)) = (&data.playoff, bracket_of(view, data)?) else {
        return Ok(None);
    };
    let stored = data.playoff_rounds().count();
    match bracket.next(stored) {
        NextPlayoffRound::Pair { index, name, games } => {
            let tables = (1..)
                .zip(games)
                .map(|(table, (a, b))| TablePair { table, a, b })
                .collect();
            Ok(Some((row.first_round + index as i32, name, tables)))
        }
        NextPlayoffRound::Waiting => Err(EventError::Conflict(
            "A playoff game still waits for its result.".into(),
        )),
        NextPlayoffRound::Finished => Err(EventError::Conflict(
            "Every playoff round is paired. When the final's result is in, finish the event."
                .into(),
        )),
    }
}

/// Refuses what only a Swiss round allows (swapping players, searching
/// longer) on a playoff round.
pub fn require_swiss_round(round: &Round) -> Result<(), EventError> {
    match playoff_name(round)? {
        Some(name) => Err(EventError::Conflict(format!(
            "{name} is a playoff round: its games follow the bracket and cannot be swapped by hand."
        ))),
        None => Ok(()),
    }
}

/// The playoff as pages and the API show it: the rules, every match with
/// names and scores, and the final placings once the bracket is finished.
#[derive(Debug, Clone, Serialize)]
pub struct PlayoffReport {
    pub cut: u32,
    pub third_place: bool,
    pub tie_rule: PlayoffTie,
    pub tie_rule_text: &'static str,
    pub higher_seed_chooses: bool,
    /// The event round number of the first playoff round.
    pub first_round: i32,
    pub rounds: Vec<RoundReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub third_place_game: Option<MatchReport>,
    pub finished: bool,
    /// Every player's final place (the cut first), once finished.
    pub placings: Vec<NamedPlacing>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RoundReport {
    pub name: String,
    /// Its event round number.
    pub number: i32,
    pub matches: Vec<MatchReport>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MatchReport {
    pub high: SideReport,
    pub low: SideReport,
    pub state: MatchState,
}

impl MatchReport {
    /// The match's state in a few words, for the page.
    pub fn state_text(&self) -> &'static str {
        match self.state {
            MatchState::Waiting => "waiting for an earlier game",
            MatchState::ToPair => "to be paired",
            MatchState::Playing => "playing",
            MatchState::Decided {
                by_tie_rule: true, ..
            } => "drawn: decided by the tie rule",
            MatchState::Decided { .. } => "decided",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct SideReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u32>,
    /// "3. Ada", "bye" or "to be decided".
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    pub advanced: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct NamedPlacing {
    pub place: u32,
    pub last_place: u32,
    pub player: PlayerId,
    pub name: String,
}

impl NamedPlacing {
    /// "3", or "5–8" for a shared place.
    pub fn place_text(&self) -> String {
        if self.place == self.last_place {
            self.place.to_string()
        } else {
            format!("{}–{}", self.place, self.last_place)
        }
    }
}

/// The playoff report, if the cut has been made.
pub fn report(view: &EventView, data: &EventData) -> Result<Option<PlayoffReport>, EventError> {
    if data.playoff.is_none() {
        return Ok(None);
    }
    let standings = super::standings::compute(view, data);
    let (Some(row), Some(bracket)) = (&data.playoff, bracket_with(data, &standings)?) else {
        return Ok(None);
    };
    let rules = rules_of(row)?;
    let side = |entrant: Entrant, score: Option<i32>, winner: Entrant| SideReport {
        player: entrant.player(),
        seed: match entrant {
            Entrant::Player { seed, .. } => Some(seed),
            _ => None,
        },
        label: match entrant {
            Entrant::Player { player, seed } => format!("{seed}. {}", data.name_of(player)),
            Entrant::Bye => "bye".into(),
            Entrant::Undecided => "to be decided".into(),
        },
        score,
        advanced: entrant.player().is_some() && entrant == winner,
    };
    let match_report = |m: &BracketMatch| MatchReport {
        high: side(m.high, m.scores.map(|s| s.0), m.winner()),
        low: side(m.low, m.scores.map(|s| s.1), m.winner()),
        state: m.state,
    };
    let finished = bracket.is_finished();
    let placings = final_placings(&bracket, &standings)
        .into_iter()
        .map(|p| NamedPlacing {
            place: p.place,
            last_place: p.last_place,
            player: p.player,
            name: data.name_of(p.player).to_owned(),
        })
        .collect();
    Ok(Some(PlayoffReport {
        cut: rules.cut,
        third_place: rules.third_place,
        tie_rule: rules.tie,
        tie_rule_text: rules.tie.label(),
        higher_seed_chooses: row.higher_seed_chooses,
        first_round: row.first_round,
        rounds: bracket
            .rounds
            .iter()
            .enumerate()
            .map(|(index, round)| RoundReport {
                name: round.name.clone(),
                number: row.first_round + index as i32,
                matches: round.matches.iter().map(match_report).collect(),
            })
            .collect(),
        third_place_game: bracket.third_place.as_ref().map(match_report),
        finished,
        placings,
    }))
}

/// The final placings as CSV: place, shared-to place, player id and name.
pub fn placings_csv(report: &PlayoffReport) -> String {
    use std::fmt::Write;
    let mut out = String::from("place,last_place,player_id,name\n");
    for p in &report.placings {
        let _ = writeln!(
            out,
            "{},{},{},{}",
            p.place,
            p.last_place,
            p.player,
            super::standings::csv_field(&p.name)
        );
    }
    out
}
