//! Rankings across events and player profiles: which games count (every
//! accepted game between two account holders in the finished events of a
//! game system that their organisers marked ranked), the ratings they give
//! (`tournament::rating`), and what a profile shows. `docs/rankings.md`.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::db::rankings::{self as db_rankings, PublicAccount};
use crate::db::{DbConnection, DbError};
use crate::events::rounds::score_of;
use crate::events::{Actor, EventSettings};
use crate::systems::GameSystem;
use crate::tournament::rating::{PlayerRating, RatedEvent, RatedGame, ratings};
use crate::tournament::{Outcome, PlayerId};

/// A row of a public ranking.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankingRow {
    pub rank: u32,
    pub account: i64,
    pub name: String,
    pub region: Option<String>,
    pub club: Option<String>,
    /// Rounded; `low` and `high` are two deviations either side.
    pub rating: i64,
    pub low: i64,
    pub high: i64,
    pub provisional: bool,
    pub games: u32,
    pub events: u32,
}

/// The ratings of a game system, with the ranked events they came from.
pub struct SystemRatings {
    pub ratings: BTreeMap<PlayerId, PlayerRating>,
    /// Ranked event id → name and end date.
    pub events: BTreeMap<i64, (String, chrono::NaiveDate)>,
}

/// Every account's rating in a game system, from its ranked events.
pub fn system_ratings(
    conn: &mut DbConnection,
    system: GameSystem,
) -> Result<SystemRatings, DbError> {
    // An event whose settings do not read is an error, not an event left
    // out of everyone's rating without a word.
    let mut ranked = Vec::new();
    for event in db_rankings::finished_events(conn, system.code())? {
        let settings: EventSettings = serde_json::from_str(&event.settings).map_err(|error| {
            let reason = format!(
                "events.settings of row {} cannot be read: {error}",
                event.id
            );
            DbError::Query(diesel::result::Error::DeserializationError(reason.into()))
        })?;
        if settings.ranked {
            ranked.push(event);
        }
    }
    let ids: Vec<i64> = ranked.iter().map(|e| e.id).collect();
    let accounts: BTreeMap<i64, i64> = db_rankings::entry_accounts(conn, &ids)?
        .into_iter()
        .collect();
    let mut games_by_event: BTreeMap<i64, Vec<RatedGame>> = BTreeMap::new();
    for game in db_rankings::games_of_events(conn, &ids)? {
        let (Some(b), true) = (game.player_b, game.status.is_accepted()) else {
            continue;
        };
        let (Some(&a), Some(&b), Some(score)) = (
            accounts.get(&game.player_a),
            accounts.get(&b),
            score_of(&game),
        ) else {
            continue;
        };
        games_by_event
            .entry(game.event_id)
            .or_default()
            .push(RatedGame {
                a,
                b,
                outcome: score.outcome(),
            });
    }
    let rated: Vec<RatedEvent> = ranked
        .iter()
        .map(|e| RatedEvent {
            event: e.id,
            month: db_rankings::month_of(e.ends_on),
            games: games_by_event.remove(&e.id).unwrap_or_default(),
        })
        .collect();
    Ok(SystemRatings {
        ratings: ratings(&rated),
        events: ranked
            .into_iter()
            .map(|e| (e.id, (e.name, e.ends_on)))
            .collect(),
    })
}

/// The public ranking of a game system, best first. Hidden profiles are
/// left out.
pub fn ranking(conn: &mut DbConnection, system: GameSystem) -> Result<Vec<RankingRow>, DbError> {
    let rated = system_ratings(conn, system)?.ratings;
    let ids: Vec<i64> = rated.keys().copied().collect();
    let mut rows: Vec<(PublicAccount, &PlayerRating)> = db_rankings::public_accounts(conn, &ids)?
        .into_iter()
        .filter(|a| !a.profile_hidden)
        .filter_map(|a| {
            let r = rated.get(&a.id)?;
            Some((a, r))
        })
        .collect();
    rows.sort_by(|x, y| {
        y.1.rating
            .total_cmp(&x.1.rating)
            .then_with(|| x.0.display_name.cmp(&y.0.display_name))
    });
    Ok(rows
        .into_iter()
        .enumerate()
        .map(|(i, (account, r))| RankingRow {
            rank: i as u32 + 1,
            account: account.id,
            name: account.display_name,
            region: account.region,
            club: account.club,
            rating: r.rating.round() as i64,
            low: (r.rating - 2.0 * r.deviation).round() as i64,
            high: (r.rating + 2.0 * r.deviation).round() as i64,
            provisional: r.is_provisional(),
            games: r.games,
            events: r.events,
        })
        .collect())
}

/// The rows of one region (case-insensitively), ranked within it.
pub fn in_region(rows: Vec<RankingRow>, region: &str) -> Vec<RankingRow> {
    let wanted = region.trim();
    rows.into_iter()
        .filter(|r| {
            r.region
                .as_deref()
                .is_some_and(|own| own.trim().eq_ignore_ascii_case(wanted))
        })
        .enumerate()
        .map(|(i, row)| RankingRow {
            rank: i as u32 + 1,
            ..row
        })
        .collect()
}

/// The regions of the players in a ranking, for its filter.
pub fn regions(rows: &[RankingRow]) -> Vec<String> {
    let set: BTreeSet<String> = rows.iter().filter_map(|r| r.region.clone()).collect();
    set.into_iter().collect()
}

/// A player's rating in one game system, with its history.
#[derive(Debug, Clone, Serialize)]
pub struct SystemProfile {
    pub system: GameSystem,
    pub rating: i64,
    pub deviation: i64,
    pub provisional: bool,
    pub games: u32,
    /// After each ranked event: its name, end date and the rating.
    pub history: Vec<HistoryPoint>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HistoryPoint {
    pub event: i64,
    pub name: String,
    pub date: chrono::NaiveDate,
    pub rating: f64,
    pub deviation: f64,
    /// This event's part of its month's change (the month's events are
    /// rated together, so one month's points share a rating).
    pub change: f64,
}

/// An event a player entered, with their record in it.
#[derive(Debug, Clone, Serialize)]
pub struct EventRecord {
    pub event: i64,
    pub name: String,
    pub system: GameSystem,
    pub date: chrono::NaiveDate,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// What the event did to the player's rating, rounded: none when it
    /// was not ranked or none of the player's games in it count.
    pub rating_change: Option<i64>,
}

/// Games between the player and one opponent, across every event.
#[derive(Debug, Clone, Serialize)]
pub struct HeadToHead {
    pub opponent: i64,
    pub opponent_name: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Profile {
    pub account: i64,
    pub name: String,
    pub club: Option<String>,
    pub region: Option<String>,
    pub hidden: bool,
    pub ratings: Vec<SystemProfile>,
    pub events: Vec<EventRecord>,
    /// Everyone the player has met (with an account, profile not hidden).
    pub opponents: Vec<(i64, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_to_head: Option<HeadToHead>,
}

/// A player's profile: `None` when there is no such account, or when it is
/// hidden and the viewer is neither its owner nor an admin.
pub fn profile(
    conn: &mut DbConnection,
    account: i64,
    viewer: Option<&Actor>,
    vs: Option<i64>,
) -> Result<Option<Profile>, DbError> {
    let Some(me) = db_rankings::public_accounts(conn, &[account])?.pop() else {
        return Ok(None);
    };
    let may_see_hidden = viewer.is_some_and(|v| v.account_id == account || v.is_admin);
    if me.profile_hidden && !may_see_hidden {
        return Ok(None);
    }
    let entries = db_rankings::entries_of_account(conn, account)?;
    let event_ids: Vec<i64> = entries.iter().map(|(e, _)| e.id).collect();
    let accounts: BTreeMap<i64, i64> = db_rankings::entry_accounts(conn, &event_ids)?
        .into_iter()
        .collect();
    let mine: BTreeSet<i64> = entries.iter().map(|(_, reg)| *reg).collect();
    // Per event: (wins, draws, losses); per opponent account: the same.
    let mut by_event: BTreeMap<i64, (u32, u32, u32)> = BTreeMap::new();
    let mut by_opponent: BTreeMap<i64, (u32, u32, u32)> = BTreeMap::new();
    for game in db_rankings::games_of_events(conn, &event_ids)? {
        let Some(b) = game.player_b else { continue };
        let (me_a, me_b) = (mine.contains(&game.player_a), mine.contains(&b));
        if me_a == me_b || !game.status.is_accepted() {
            continue;
        }
        let Some(score) = score_of(&game) else {
            continue;
        };
        let (won, lost) = match (score.outcome(), me_a) {
            (Outcome::Draw, _) => (false, false),
            (Outcome::AWins, true) | (Outcome::BWins, false) => (true, false),
            _ => (false, true),
        };
        let opponent_reg = if me_a { b } else { game.player_a };
        let tally = |t: &mut (u32, u32, u32)| match (won, lost) {
            (true, _) => t.0 += 1,
            (_, true) => t.2 += 1,
            _ => t.1 += 1,
        };
        tally(by_event.entry(game.event_id).or_default());
        if let Some(&opponent) = accounts.get(&opponent_reg) {
            tally(by_opponent.entry(opponent).or_default());
        }
    }
    let opponent_ids: Vec<i64> = by_opponent.keys().copied().collect();
    let opponents: Vec<(i64, String)> = db_rankings::public_accounts(conn, &opponent_ids)?
        .into_iter()
        .filter(|a| !a.profile_hidden)
        .map(|a| (a.id, a.display_name))
        .collect();
    let head_to_head = vs.and_then(|vs| {
        let (_, name) = opponents.iter().find(|(id, _)| *id == vs)?;
        let (wins, draws, losses) = by_opponent.get(&vs).copied().unwrap_or_default();
        Some(HeadToHead {
            opponent: vs,
            opponent_name: name.clone(),
            wins,
            draws,
            losses,
        })
    });
    let mut events: Vec<EventRecord> = entries
        .iter()
        .filter_map(|(event, _)| {
            let system: GameSystem = event.game_system.parse().ok()?;
            let (wins, draws, losses) = by_event.get(&event.id).copied().unwrap_or_default();
            Some(EventRecord {
                event: event.id,
                name: event.name.clone(),
                system,
                date: event.ends_on,
                wins,
                draws,
                losses,
                rating_change: None,
            })
        })
        .collect();
    let mut rating_list = Vec::new();
    let systems: BTreeSet<&str> = entries
        .iter()
        .map(|(e, _)| e.game_system.as_str())
        .collect();
    for system in GameSystem::ALL
        .into_iter()
        .filter(|s| systems.contains(s.code()))
    {
        let rated = system_ratings(conn, system)?;
        let Some(r) = rated.ratings.get(&account) else {
            continue;
        };
        rating_list.push(SystemProfile {
            system,
            rating: r.rating.round() as i64,
            deviation: r.deviation.round() as i64,
            provisional: r.is_provisional(),
            games: r.games,
            history: r
                .history
                .iter()
                .filter_map(|p| {
                    let (name, date) = rated.events.get(&p.event)?;
                    Some(HistoryPoint {
                        event: p.event,
                        name: name.clone(),
                        date: *date,
                        rating: p.rating,
                        deviation: p.deviation,
                        change: p.change,
                    })
                })
                .collect(),
        });
    }
    for point in rating_list.iter().flat_map(|r| &r.history) {
        if let Some(record) = events.iter_mut().find(|e| e.event == point.event) {
            record.rating_change = Some(point.change.round() as i64);
        }
    }
    Ok(Some(Profile {
        account,
        name: me.display_name,
        club: me.club,
        region: me.region,
        hidden: me.profile_hidden,
        ratings: rating_list,
        events,
        opponents,
        head_to_head,
    }))
}

/// The ranking as CSV.
pub fn ranking_csv(rows: &[RankingRow]) -> String {
    use std::fmt::Write;
    let mut out =
        String::from("rank,account,name,region,rating,low,high,provisional,games,events\n");
    for r in rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{}",
            r.rank,
            r.account,
            crate::events::standings::csv_field(&r.name),
            crate::events::standings::csv_field(r.region.as_deref().unwrap_or("")),
            r.rating,
            r.low,
            r.high,
            r.provisional,
            r.games,
            r.events
        );
    }
    out
}
