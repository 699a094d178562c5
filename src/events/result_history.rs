//! A game's results in words: one result as a line ("Dana 6 – 3 Eli"),
//! the history of its reports, confirmations and corrections naming who
//! made each, and what the two sides of a dispute said, for the organiser
//! who resolves it. Stored result fields that do not read are an error,
//! never dropped.

use super::EventError;
use super::GameStatus;
use super::rounds::{EventData, score_of};
use crate::db::events::{self as db_events, GameRow, ResultFields};
use crate::tournament::{GameScore, Outcome};

/// A short human description of a result, for mails and the history.
pub fn result_summary(a: &str, b: &str, game: &GameRow, fields: &ResultFields) -> String {
    let row = GameRow {
        a_strategy_vp: fields.a_strategy_vp,
        a_scheme_vp: fields.a_scheme_vp,
        b_strategy_vp: fields.b_strategy_vp,
        b_scheme_vp: fields.b_scheme_vp,
        a_objectives: fields.a_objectives,
        b_objectives: fields.b_objectives,
        a_eliminated: fields.a_eliminated,
        b_eliminated: fields.b_eliminated,
        a_army: fields.a_army,
        b_army: fields.b_army,
        ..game.clone()
    };
    match score_of(&row) {
        Some(GameScore::Malifaux { a_vp, b_vp }) => format!("{a} {a_vp} – {b_vp} {b}"),
        Some(
            score @ GameScore::MageKnight {
                a_objectives,
                b_objectives,
                a_eliminated,
                b_eliminated,
                ..
            },
        ) => {
            let winner = match score.outcome() {
                Outcome::AWins => a,
                Outcome::BWins => b,
                Outcome::Draw => "nobody (a draw)",
            };
            format!(
                "{a} {a_objectives} objectives, {a_eliminated} points eliminated; {b} {b_objectives} objectives, {b_eliminated} points eliminated; winner: {winner}"
            )
        }
        None => "no result".into(),
    }
}

/// One line of a game's history, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryLine {
    pub at: chrono::NaiveDateTime,
    /// Who did it: a player's name, a staff member's, or "the engine".
    pub who: String,
    pub action: String,
    /// The result before and after, in words ("Dana 6 – 3 Eli").
    pub before: Option<String>,
    pub after: Option<String>,
    pub note: Option<String>,
}

/// A game's history of results in words, naming the players, instead of
/// the stored fields.
pub fn history_in_words(
    data: &EventData,
    game: &GameRow,
    changes: &[(db_events::ResultChange, Option<String>)],
) -> Result<Vec<HistoryLine>, EventError> {
    let a = data.name_of(game.player_a);
    let b = game.player_b.map_or("bye", |b| data.name_of(b));
    let words = |id: i64, json: Option<&str>| -> Result<Option<String>, EventError> {
        Ok(stored_result(id, json)?.map(|fields| result_summary(a, b, game, &fields)))
    };
    changes
        .iter()
        .map(|(change, account_name)| {
            Ok(HistoryLine {
                at: change.at,
                who: player_named(data, game, change.account_id)
                    .or_else(|| account_name.clone())
                    .unwrap_or_else(|| "the engine".into()),
                action: change.action.clone(),
                before: words(change.id, change.before_json.as_deref())?,
                after: words(change.id, change.after_json.as_deref())?,
                note: change.note.clone(),
            })
        })
        .collect()
}

/// The result fields a change recorded, if it recorded any.
fn stored_result(change_id: i64, json: Option<&str>) -> Result<Option<ResultFields>, EventError> {
    json.map(|json| super::stored_json::from_stored_json("result_changes", change_id, json))
        .transpose()
}

/// The name a player of this game has in the event, if the account is one
/// of the two players.
fn player_named(data: &EventData, game: &GameRow, account: Option<i64>) -> Option<String> {
    let account = account?;
    std::iter::once(game.player_a)
        .chain(game.player_b)
        .filter_map(|id| data.registration(id))
        .find(|r| r.account_id == Some(account))
        .map(|r| r.display_name.clone())
}

/// What the two sides of a disputed game said, side by side, for the
/// organiser who resolves it: each player's latest report in words, and
/// the note of a player who disputed without reporting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisputeSides {
    pub claims: Vec<(String, String)>,
}

pub fn dispute_sides(
    data: &EventData,
    game: &GameRow,
    changes: &[(db_events::ResultChange, Option<String>)],
) -> Result<Option<DisputeSides>, EventError> {
    if game.status != GameStatus::Disputed {
        return Ok(None);
    }
    let a = data.name_of(game.player_a);
    let b = game.player_b.map_or("bye", |b| data.name_of(b));
    let mut claims: Vec<(String, String)> = Vec::new();
    for (change, _) in changes {
        let Some(who) = player_named(data, game, change.account_id) else {
            continue;
        };
        let claim = match change.action.as_str() {
            "reported" | "amended" | "disputed" => {
                match stored_result(change.id, change.after_json.as_deref())? {
                    Some(fields) => result_summary(a, b, game, &fields),
                    None => format!(
                        "disputes the report: {}",
                        change.note.as_deref().unwrap_or("no reason given")
                    ),
                }
            }
            _ => continue,
        };
        match claims.iter_mut().find(|(name, _)| *name == who) {
            Some(existing) => existing.1 = claim,
            None => claims.push((who, claim)),
        }
    }
    // A game stopped in the browser (clock, resignation) has no player's
    // claim: its note says what happened.
    if claims.is_empty()
        && let Some(note) = &game.dispute_note
    {
        claims.push(("What happened".into(), note.clone()));
    }
    Ok(Some(DisputeSides { claims }))
}
