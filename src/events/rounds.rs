//! Rounds: pairing the next round as a draft, adjusting it by hand,
//! publishing it (with mail to every player), and the round clock; its
//! setups are in `round_setups.rs`.

pub use super::pairing_record::{PairingRecord, StoredPairing};
use super::round_setups::{TableSetup, setup_summary};
use super::stored_json::to_json;
use super::{GameStatus, RegistrationStatus, RoundStatus};
use crate::db::WriteTransaction;
use std::collections::{BTreeMap, BTreeSet};

use rand::RngCore;

use super::{Access, Ctx, EventError, EventStatus, EventView, notify, require_not_finished};
use crate::db::events::{self as db_events, GameRow, NewGame, PlayoffRow, Registration, Round};
use crate::db::{DbConnection, audit};
use crate::setup::SeatNames;
use crate::tournament::pairing::{
    PairingSettings, RoundPairing, SolverOptions, TablePair, pair_round_with,
};
use crate::tournament::snapshot::{EventSnapshot, RoundRecord, SNAPSHOT_FORMAT};
use crate::tournament::{Game, GameScore, Player};

/// Everything about an event's entries and games, loaded once.
#[derive(Debug, Clone)]
pub struct EventData {
    pub registrations: Vec<Registration>,
    pub rounds: Vec<Round>,
    pub games: Vec<GameRow>,
    /// The playoff cut, once made.
    pub playoff: Option<PlayoffRow>,
    /// A team event's teams and the team matches of its rounds.
    pub teams: Vec<crate::db::teams::TeamRow>,
    pub team_matches: Vec<crate::db::teams::TeamMatchRow>,
}

impl EventData {
    /// Players who played (or had a bye) in any round so far.
    pub fn players_who_played(&self) -> BTreeSet<i64> {
        self.games
            .iter()
            .flat_map(|g| std::iter::once(g.player_a).chain(g.player_b))
            .collect()
    }

    pub fn load(conn: &mut DbConnection, event_id: i64) -> Result<Self, EventError> {
        Ok(Self {
            registrations: db_events::list_registrations(conn, event_id)?,
            rounds: db_events::list_rounds(conn, event_id)?,
            games: db_events::games_of_event(conn, event_id)?,
            playoff: db_events::find_playoffs(conn, event_id)?,
            teams: crate::db::teams::teams_of_event(conn, event_id)?,
            team_matches: crate::db::teams::team_matches_of_event(conn, event_id)?,
        })
    }

    /// Whether a round (by number) belongs to the playoff rather than the
    /// Swiss rounds.
    pub fn is_playoff_round(&self, number: Option<u32>) -> bool {
        match (&self.playoff, number) {
            (Some(p), Some(n)) => i64::from(n) >= i64::from(p.first_round),
            _ => false,
        }
    }

    /// The playoff rounds stored so far, in order (none before the cut).
    pub fn playoff_rounds(&self) -> impl Iterator<Item = &Round> {
        self.rounds
            .iter()
            .filter(|r| self.is_playoff_round(u32::try_from(r.number).ok()))
    }

    pub fn registration(&self, id: i64) -> Option<&Registration> {
        self.registrations.iter().find(|r| r.id == id)
    }

    pub fn name_of(&self, id: i64) -> &str {
        self.registration(id)
            .map(|r| r.display_name.as_str())
            .unwrap_or("?")
    }

    pub fn round_number_of(&self, game: &GameRow) -> Option<i32> {
        game.round_id
            .and_then(|id| self.rounds.iter().find(|r| r.id == id))
            .map(|r| r.number)
    }

    /// Team matches of a round whose captains are still choosing: their
    /// games are made when the last pair is.
    pub fn matches_still_choosing(&self, round_id: i64) -> usize {
        self.team_matches
            .iter()
            .filter(|m| m.round_id == round_id && m.team_b.is_some())
            .filter(|m| !self.games.iter().any(|g| g.team_match_id == Some(m.id)))
            .count()
    }

    pub fn games_of_round(&self, round_id: i64) -> impl Iterator<Item = &GameRow> {
        self.games
            .iter()
            .filter(move |g| g.round_id == Some(round_id))
    }

    /// The players as the pairing and standings code sees them.
    pub fn tournament_players(&self) -> Vec<Player> {
        self.registrations
            .iter()
            .filter(|r| r.status == RegistrationStatus::Registered)
            .map(|r| Player {
                id: r.id,
                name: r.display_name.clone(),
                club: r.club.clone(),
                dropped: r.dropped,
                fixed_table: r.fixed_table.and_then(|t| u32::try_from(t).ok()),
                initial_points: r.initial_points,
            })
            .collect()
    }

    /// The games as the pairing and standings code sees them; results only
    /// where accepted (confirmed, resolved by staff, or a bye).
    pub fn tournament_games(&self) -> Vec<Game> {
        self.games
            .iter()
            .map(|g| Game {
                round: self.round_number_of(g).and_then(|n| u32::try_from(n).ok()),
                table: g.table_number.and_then(|t| u32::try_from(t).ok()),
                a: g.player_a,
                b: g.player_b,
                result: accepted_score(g),
            })
            .collect()
    }
}

/// A game's result where it counts: confirmed, resolved by staff, or a bye.
pub fn accepted_score(game: &GameRow) -> Option<GameScore> {
    if game.status.is_accepted() {
        score_of(game)
    } else {
        None
    }
}

/// The stored result of a game as a score, if it has one.
pub fn score_of(game: &GameRow) -> Option<GameScore> {
    if let (Some(a_obj), Some(b_obj), Some(a_el), Some(b_el), Some(a_army), Some(b_army)) = (
        game.a_objectives,
        game.b_objectives,
        game.a_eliminated,
        game.b_eliminated,
        game.a_army,
        game.b_army,
    ) {
        return Some(GameScore::MageKnight {
            a_objectives: a_obj,
            b_objectives: b_obj,
            a_eliminated: a_el,
            b_eliminated: b_el,
            a_army,
            b_army,
        });
    }
    match (
        game.a_strategy_vp,
        game.a_scheme_vp,
        game.b_strategy_vp,
        game.b_scheme_vp,
    ) {
        (Some(a1), Some(a2), Some(b1), Some(b2)) => Some(GameScore::Malifaux {
            a_vp: a1 + a2,
            b_vp: b1 + b2,
        }),
        _ => None,
    }
}

pub(super) fn round_in(
    conn: &mut DbConnection,
    view: &EventView,
    number: i32,
) -> Result<Round, EventError> {
    db_events::find_round(conn, view.id(), number)?.ok_or(EventError::NotFound)
}

pub(super) fn claim_version(
    conn: &mut DbConnection,
    view: &EventView,
    expected: i32,
) -> Result<(), EventError> {
    if db_events::bump_event_version(conn, view.id(), expected)? {
        Ok(())
    } else {
        Err(EventError::Conflict(
            "The rounds were changed by someone else a moment ago (another organiser, another tab, or a double click). Nothing was changed; reload the page to see the current state.".into(),
        ))
    }
}

fn pairing_settings(view: &EventView, seed: u64) -> PairingSettings {
    PairingSettings {
        scoring: view.settings.scoring,
        tiebreakers: view.settings.tiebreakers.clone(),
        avoid_same_club: view.settings.avoid_same_club,
        seed,
    }
}

/// How long the optimiser may search before it settles for its best pairing
/// found (marked not proven, with the least any pairing could cost).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairingSearch {
    /// About ten seconds of work on a pathological field; every field
    /// measured so far is proven well within it.
    Standard,
    /// Six times as long: offered when a draft came back unproven.
    Longer,
}

impl PairingSearch {
    fn options(self) -> SolverOptions {
        let standard = SolverOptions::default();
        match self {
            Self::Standard => standard,
            Self::Longer => SolverOptions {
                work_limit: standard.work_limit.saturating_mul(6),
                ..standard
            },
        }
    }
}

/// Pairs the next round as a draft for the organiser to review.
pub fn pair_next_round(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    expected_version: i32,
    ctx: &Ctx<'_>,
) -> Result<Round, EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    conn.write_transaction(|conn| {
        claim_version(conn, view, expected_version)?;
        pair_in(conn, view, access, PairingSearch::Standard, ctx)
    })
}

/// Replaces a draft round the optimiser could not prove optimal with one
/// paired after a longer search: the organiser's way to wait for a better
/// pairing instead of publishing the best found.
///
/// The search runs outside any transaction: it may take a minute, and a
/// write transaction that long would hold up every result reported
/// meanwhile. The draft is replaced only if nothing the pairing depends on
/// changed in the meantime.
pub fn pair_draft_again_longer(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    number: i32,
    expected_version: i32,
    ctx: &Ctx<'_>,
) -> Result<Round, EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    super::teams::require_individual_event(view, "A longer pairing search")?;
    let draft = round_in(conn, view, number)?;
    require_unproven_draft(&draft)?;
    // The event as it would be without the draft.
    let without_draft = |mut data: EventData| {
        data.rounds.retain(|r| r.id != draft.id);
        data.games.retain(|g| g.round_id != Some(draft.id));
        data
    };
    let data = without_draft(EventData::load(conn, view.id())?);
    let planned = plan_round(view, &data, PairingSearch::Longer)?;
    conn.write_transaction(|conn| {
        let current = round_in(conn, view, number)?;
        if current.id != draft.id || current.pairing != draft.pairing {
            return Err(EventError::Conflict(format!(
                "Round {number} was changed while the search ran: nothing was replaced."
            )));
        }
        claim_version(conn, view, expected_version)?;
        let now = without_draft(EventData::load(conn, view.id())?);
        let (number_now, players_now, games_now) = pairing_inputs(view, &now)?;
        if number_now != planned.number
            || players_now != planned.players
            || games_now != planned.games
        {
            return Err(EventError::Conflict(
                "A result or an entry changed while the search ran: nothing was replaced. Search again."
                    .into(),
            ));
        }
        db_events::delete_round(conn, draft.id)?;
        insert_planned(conn, view, access, &planned, PairingSearch::Longer, ctx)
    })
}

/// Only a draft the optimiser paired and could not prove is searched again.
fn require_unproven_draft(round: &Round) -> Result<(), EventError> {
    require_draft(round)?;
    super::playoffs::require_swiss_round(round)?;
    let number = round.number;
    match PairingRecord::of(round)? {
        PairingRecord::Swiss(p) if !p.as_paired() => Err(EventError::Conflict(format!(
            "Round {number} has been changed by hand: delete the draft to pair it again."
        ))),
        PairingRecord::Swiss(p) if p.proven_optimal => Err(EventError::Conflict(format!(
            "Round {number} is already proven optimal: no search can find a better pairing."
        ))),
        PairingRecord::Swiss(_) => Ok(()),
        PairingRecord::Playoff(_) | PairingRecord::Team(_) => Err(EventError::Conflict(format!(
            "Round {number} was not paired by the optimiser here (it was imported): delete the draft to pair it again."
        ))),
    }
}

/// Pairs the next round inside the caller's transaction, which has claimed
/// the event's version.
fn pair_in(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    search: PairingSearch,
    ctx: &Ctx<'_>,
) -> Result<Round, EventError> {
    let data = EventData::load(conn, view.id())?;
    if data.playoff.is_some() {
        return pair_playoff_round(conn, view, access, &data, ctx);
    }
    if view.settings.teams.is_some() {
        let number = next_round_number(view, &data)?;
        return super::teams::pair_team_round(conn, view, access, &data, number, ctx);
    }
    let planned = plan_round(view, &data, search)?;
    insert_planned(conn, view, access, &planned, search, ctx)
}

/// Pairs the next playoff round from the bracket, as a draft.
fn pair_playoff_round(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    data: &EventData,
    ctx: &Ctx<'_>,
) -> Result<Round, EventError> {
    require_running(view)?;
    require_round_complete(data)?;
    let Some((number, name, tables)) = super::playoffs::plan_round(view, data)? else {
        return Err(EventError::Corrupt("the playoff has no bracket".into()));
    };
    let pairing = serde_json::to_string(&super::playoffs::PlayoffPairing {
        playoff: name.clone(),
    })
    .map_err(|e| EventError::Corrupt(e.to_string()))?;
    let round = db_events::insert_round(conn, view.id(), number, 0, &pairing, ctx.now)?
        .ok_or_else(|| {
            EventError::Conflict(format!("{name} were paired by someone else a moment ago."))
        })?;
    insert_games_of(conn, view, &round, &tables, &[], None, ctx.now)?;
    super::scenarios::use_prepared(conn, view, &round, ctx.now)?;
    audit::record(
        conn,
        access.account_id(),
        Some(view.id()),
        "round.paired",
        &format!("round {number}, playoff {name}"),
        ctx.now,
    )?;
    Ok(round)
}

fn require_running(view: &EventView) -> Result<(), EventError> {
    if view.status == EventStatus::Running {
        Ok(())
    } else {
        Err(EventError::Conflict(
            "Start the event before pairing a round.".into(),
        ))
    }
}

/// The last round is published and every one of its results accepted.
pub(super) fn require_round_complete(data: &EventData) -> Result<(), EventError> {
    let Some(last) = data.rounds.last() else {
        return Ok(());
    };
    if last.status == RoundStatus::Draft {
        return Err(EventError::Conflict(format!(
            "Round {} is still a draft: publish or delete it first.",
            last.number
        )));
    }
    let choosing = data.matches_still_choosing(last.id);
    if choosing > 0 {
        return Err(EventError::Conflict(format!(
            "Round {}: the captains of {choosing} team match(es) are still choosing who plays whom.",
            last.number
        )));
    }
    let missing = data
        .games_of_round(last.id)
        .filter(|g| !g.status.is_accepted())
        .count();
    if missing > 0 {
        return Err(EventError::Conflict(format!(
            "Round {} still has {missing} result(s) to confirm or resolve.",
            last.number
        )));
    }
    Ok(())
}

/// The number of the round to pair next, once the rules allow pairing it.
fn next_round_number(view: &EventView, data: &EventData) -> Result<i32, EventError> {
    require_running(view)?;
    if view.is_open_league() {
        return Err(EventError::Conflict(
            "This league is open play: players record their own games, there are no rounds.".into(),
        ));
    }
    require_round_complete(data)?;
    let number = data.rounds.last().map(|r| r.number).unwrap_or(0) + 1;
    if number > view.event.rounds_planned {
        return Err(EventError::Conflict(format!(
            "All {} planned rounds are paired. Raise the number of rounds in the event settings to add one.",
            view.event.rounds_planned
        )));
    }
    Ok(number)
}

/// A round worked out but not yet stored, with what it was worked out from.
struct PlannedRound {
    number: i32,
    seed: u64,
    pairing: RoundPairing,
    players: Vec<Player>,
    games: Vec<Game>,
}

/// Checks that the next round may be paired and pairs it (no writes).
fn plan_round(
    view: &EventView,
    data: &EventData,
    search: PairingSearch,
) -> Result<PlannedRound, EventError> {
    let (number, players, games) = pairing_inputs(view, data)?;
    let seed = rand::rng().next_u64();
    let pairing = pair_round_with(
        &players,
        &games,
        &pairing_settings(view, seed),
        number as u32,
        search.options(),
    )?;
    Ok(PlannedRound {
        number,
        seed,
        pairing,
        players,
        games,
    })
}

/// The next round's number and what its pairing is worked out from, once
/// the rules allow pairing it.
fn pairing_inputs(
    view: &EventView,
    data: &EventData,
) -> Result<(i32, Vec<Player>, Vec<Game>), EventError> {
    let number = next_round_number(view, data)?;
    let mut players = data.tournament_players();
    let eligible = eligible_for(data, number);
    if eligible.len() < 2 {
        return Err(EventError::Conflict(if number == 1 {
            "Check in at least two players before pairing round 1.".into()
        } else {
            "At least two players must still be playing.".into()
        }));
    }
    // Players not taking part this round are treated as dropped for the pairing.
    for player in &mut players {
        if !eligible.contains(&player.id) {
            player.dropped = true;
        }
    }
    Ok((number, players, data.tournament_games()))
}

/// Stores a planned round as a draft, with its games.
fn insert_planned(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    planned: &PlannedRound,
    search: PairingSearch,
    ctx: &Ctx<'_>,
) -> Result<Round, EventError> {
    let PlannedRound {
        number,
        seed,
        ref pairing,
        ..
    } = *planned;
    let pairing_json = serde_json::to_string(&StoredPairing::from(pairing))
        .map_err(|e| EventError::Corrupt(e.to_string()))?;
    let round =
        db_events::insert_round(conn, view.id(), number, seed as i64, &pairing_json, ctx.now)?
            .ok_or_else(|| {
                EventError::Conflict(format!(
                    "Round {number} was paired by someone else a moment ago."
                ))
            })?;
    insert_pairing_games(conn, view, &round, pairing, ctx.now)?;
    super::scenarios::use_prepared(conn, view, &round, ctx.now)?;
    let longer = if search == PairingSearch::Longer {
        ", longer search"
    } else {
        ""
    };
    audit::record(
        conn,
        access.account_id(),
        Some(view.id()),
        "round.paired",
        &format!("round {number}, seed {seed}{longer}"),
        ctx.now,
    )?;
    Ok(round)
}

/// Which players the next round would pair: those registered, not dropped,
/// and present (checked in, or seen playing an earlier round). A player who
/// never came is left out, and named to the organisers ([`absent_for`]).
fn eligible_for(data: &EventData, number: i32) -> BTreeSet<i64> {
    let played = data.players_who_played();
    data.registrations
        .iter()
        .filter(|r| {
            r.status == RegistrationStatus::Registered && !r.dropped && r.joined_round <= number
        })
        .filter(|r| r.checked_in || played.contains(&r.id))
        .map(|r| r.id)
        .collect()
}

/// Registered players the next round would leave out because they are not
/// present yet (never checked in, never played): the organisers see them
/// named beside the pairing button, and check in any who arrive late.
pub fn absent_for_next_round(data: &EventData) -> Vec<&Registration> {
    let next = data.rounds.last().map(|r| r.number).unwrap_or(0) + 1;
    let eligible = eligible_for(data, next);
    data.registrations
        .iter()
        .filter(|r| {
            r.status == RegistrationStatus::Registered && !r.dropped && r.joined_round <= next
        })
        .filter(|r| !eligible.contains(&r.id))
        .collect()
}

/// The event as a pairing snapshot: what `soulstone pair` needs to pair the
/// next round exactly as the server would (with the snapshot's seed).
pub fn snapshot_of(view: &EventView, data: &EventData) -> EventSnapshot {
    let next = data.rounds.last().map(|r| r.number).unwrap_or(0) + 1;
    let eligible = eligible_for(data, next);
    let players = data
        .tournament_players()
        .into_iter()
        .map(|mut p| {
            p.dropped = !eligible.contains(&p.id);
            p
        })
        .collect();
    let games = data.tournament_games();
    let rounds = data
        .rounds
        .iter()
        .map(|r| RoundRecord {
            number: r.number as u32,
            games: games
                .iter()
                .filter(|g| g.round == Some(r.number as u32))
                .map(|g| Game {
                    round: None,
                    ..g.clone()
                })
                .collect(),
        })
        .collect();
    EventSnapshot {
        format: SNAPSHOT_FORMAT.to_owned(),
        event: Some(view.event.name.clone()),
        settings: pairing_settings(view, rand::rng().next_u64()),
        players,
        rounds,
    }
}

/// Makes a draft round from a pairing computed offline (`soulstone pair`).
pub fn import_round(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    pairing: &RoundPairing,
    expected_version: i32,
    ctx: &Ctx<'_>,
) -> Result<Round, EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    super::teams::require_individual_event(view, "Importing a pairing")?;
    if view.status != EventStatus::Running {
        return Err(EventError::Conflict(
            "Start the event before adding a round.".into(),
        ));
    }
    conn.write_transaction(|conn| {
        claim_version(conn, view, expected_version)?;
        let data = EventData::load(conn, view.id())?;
        if data.playoff.is_some() {
            return Err(EventError::Conflict(
                "The playoff rounds are paired from the bracket: there is nothing to import."
                    .into(),
            ));
        }
        let number = data.rounds.last().map(|r| r.number).unwrap_or(0) + 1;
        if pairing.round as i32 != number {
            return Err(EventError::invalid(
                "file",
                format!(
                    "The file pairs round {}, but the next round is {number}.",
                    pairing.round
                ),
            ));
        }
        if data
            .rounds
            .last()
            .is_some_and(|r| r.status == RoundStatus::Draft)
        {
            return Err(EventError::Conflict(
                "The last round is still a draft: publish or delete it first.".into(),
            ));
        }
        let eligible = eligible_for(&data, number);
        let mut seen = BTreeSet::new();
        let players = pairing
            .pairs
            .iter()
            .flat_map(|p| [p.a, p.b])
            .chain(pairing.bye);
        for id in players {
            if !eligible.contains(&id) {
                return Err(EventError::invalid(
                    "file",
                    format!("Player {id} is not playing in round {number} of this event."),
                ));
            }
            if !seen.insert(id) {
                return Err(EventError::invalid(
                    "file",
                    format!("Player {id} appears twice."),
                ));
            }
        }
        if seen.len() != eligible.len() {
            return Err(EventError::invalid(
                "file",
                "The file leaves out players who are playing this round.",
            ));
        }
        let json = serde_json::to_string(&StoredPairing::from(pairing))
            .map_err(|e| EventError::Corrupt(e.to_string()))?;
        let round =
            db_events::insert_round(conn, view.id(), number, pairing.seed as i64, &json, ctx.now)?
                .ok_or_else(|| EventError::Conflict(format!("Round {number} exists already.")))?;
        insert_pairing_games(conn, view, &round, pairing, ctx.now)?;
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "round.imported",
            &format!("round {number}"),
            ctx.now,
        )?;
        Ok(round)
    })
}

/// The games of a round the optimiser paired (or an imported pairing).
fn insert_pairing_games(
    conn: &mut DbConnection,
    view: &EventView,
    round: &Round,
    pairing: &RoundPairing,
    now: chrono::NaiveDateTime,
) -> Result<(), EventError> {
    insert_games_of(
        conn,
        view,
        round,
        &pairing.pairs,
        pairing.bye.as_slice(),
        None,
        now,
    )
}

/// The games of a freshly inserted round (or of one team match in it): a
/// table per pair, and the byes.
pub(super) fn insert_games_of(
    conn: &mut DbConnection,
    view: &EventView,
    round: &Round,
    pairs: &[TablePair],
    byes: &[i64],
    team_match_id: Option<i64>,
    now: chrono::NaiveDateTime,
) -> Result<(), EventError> {
    let game = |table: Option<u32>, a: i64, b: Option<i64>| NewGame {
        event_id: view.id(),
        round_id: Some(round.id),
        table_number: table.and_then(|t| i32::try_from(t).ok()),
        player_a: a,
        player_b: b,
        status: if b.is_some() {
            GameStatus::Pending
        } else {
            GameStatus::Bye
        },
        played_at: None,
        created_at: now,
        updated_at: now,
        team_match_id,
    };
    let games: Vec<NewGame> = pairs
        .iter()
        .map(|p| game(Some(p.table), p.a, Some(p.b)))
        .chain(byes.iter().map(|&bye| game(None, bye, None)))
        .collect();
    db_events::insert_games(conn, &games)?;
    Ok(())
}

pub(crate) fn require_draft_round(round: &Round) -> Result<(), EventError> {
    require_draft(round)
}

pub(super) fn require_draft(round: &Round) -> Result<(), EventError> {
    if round.status == RoundStatus::Draft {
        Ok(())
    } else {
        Err(EventError::Conflict(format!(
            "Round {} is published; its pairings can no longer change.",
            round.number
        )))
    }
}

/// Swaps two players between their games (or the bye) in a draft round.
pub fn swap_players(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    number: i32,
    (x, y): (i64, i64),
    expected_version: i32,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    super::teams::require_individual_event(view, "Swapping players between games")?;
    if x == y {
        return Err(EventError::invalid(
            "player",
            "Choose two different players.",
        ));
    }
    conn.write_transaction(|conn| {
        let round = round_in(conn, view, number)?;
        require_draft(&round)?;
        super::playoffs::require_swiss_round(&round)?;
        claim_version(conn, view, expected_version)?;
        let games = db_events::games_of_round(conn, round.id)?;
        let find = |id: i64| {
            games
                .iter()
                .find(|g| g.player_a == id || g.player_b == Some(id))
                .cloned()
        };
        let (Some(gx), Some(gy)) = (find(x), find(y)) else {
            return Err(EventError::invalid(
                "player",
                "Both players must be in this round.",
            ));
        };
        let replace = |g: &GameRow, from: i64, to: i64| {
            let a = if g.player_a == from { to } else { g.player_a };
            let b = g.player_b.map(|b| if b == from { to } else { b });
            (a, b)
        };
        if gx.id == gy.id {
            return Err(EventError::Conflict(
                "Those two players already play each other.".into(),
            ));
        }
        let (ax, bx) = replace(&gx, x, y);
        let (ay, by) = replace(&gy, y, x);
        db_events::set_game_players(conn, gx.id, ax, bx, gx.table_number)?;
        db_events::set_game_players(conn, gy.id, ay, by, gy.table_number)?;
        if let PairingRecord::Swiss(mut pairing) = PairingRecord::of(&round)? {
            pairing.swaps_by_hand += 1;
            db_events::set_round_pairing(conn, round.id, &to_json(&pairing)?)?;
        }
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "round.swapped",
            &format!("round {number}: players {x} and {y}"),
            ctx.now,
        )?;
        Ok(())
    })
}

/// Warnings about a round's current pairings: rematches and same-club pairs.
pub fn pairing_warnings(
    view: &EventView,
    data: &EventData,
    round: &Round,
) -> Result<Vec<String>, EventError> {
    // A playoff meets whoever the bracket brings: rematches are expected.
    if super::playoffs::playoff_name(round)?.is_some() {
        return Ok(Vec::new());
    }
    let avoid_same_club = view.settings.avoid_same_club;
    let mut met: BTreeMap<(i64, i64), i32> = BTreeMap::new();
    for g in data.games.iter().filter(|g| g.round_id != Some(round.id)) {
        if let Some(b) = g.player_b {
            *met.entry((g.player_a.min(b), g.player_a.max(b)))
                .or_default() += 1;
        }
    }
    let mut warnings = Vec::new();
    for g in data.games_of_round(round.id) {
        let Some(b) = g.player_b else { continue };
        let (na, nb) = (data.name_of(g.player_a), data.name_of(b));
        if let Some(times) = met.get(&(g.player_a.min(b), g.player_a.max(b))) {
            warnings.push(format!(
                "Rematch: {na} and {nb} have met {times} time(s) before."
            ));
        }
        let club = |id: i64| {
            data.registration(id)
                .and_then(|r| r.club.clone())
                .map(|c| c.to_lowercase())
        };
        if avoid_same_club && club(g.player_a).is_some() && club(g.player_a) == club(b) {
            warnings.push(format!("Same club: {na} and {nb}."));
        }
    }
    if let Some(tables) = view.settings.tables {
        let highest = data
            .games_of_round(round.id)
            .filter_map(|g| g.table_number)
            .max()
            .unwrap_or(0);
        if u32::try_from(highest).unwrap_or(0) > tables {
            warnings.push(format!(
                "This round needs {highest} tables; the venue has {tables}. Raise the number of tables in the event's settings, or drop or pair players by hand."
            ));
        }
    }
    Ok(warnings)
}

/// Publishes a draft round: pairings go public and every player gets a mail.
pub fn publish_round(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    number: i32,
    expected_version: i32,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    conn.write_transaction(|conn| {
        let round = round_in(conn, view, number)?;
        require_draft(&round)?;
        claim_version(conn, view, expected_version)?;
        db_events::set_round_status(conn, round.id, RoundStatus::Published, ctx.now)?;
        let data = EventData::load(conn, view.id())?;
        for game in data.games_of_round(round.id) {
            let names = SeatNames::new(
                data.name_of(game.player_a),
                game.player_b.map_or("", |b| data.name_of(b)),
            );
            let summary = TableSetup::of(&round, game)?
                .map(|table| setup_summary(&table, &names))
                .unwrap_or_default();
            let a = data.registration(game.player_a).cloned();
            let b = game.player_b.and_then(|id| data.registration(id)).cloned();
            if let Some(a) = &a {
                notify::pairing_published(
                    conn,
                    view,
                    number,
                    round.id,
                    a,
                    b.as_ref(),
                    game.table_number,
                    &summary,
                    ctx,
                )?;
            }
            if let Some(b) = &b {
                notify::pairing_published(
                    conn,
                    view,
                    number,
                    round.id,
                    b,
                    a.as_ref(),
                    game.table_number,
                    &summary,
                    ctx,
                )?;
            }
        }
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "round.published",
            &format!("round {number}"),
            ctx.now,
        )?;
        Ok(())
    })
}

/// Deletes a draft round (to pair it again).
pub fn delete_draft_round(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    number: i32,
    expected_version: i32,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    conn.write_transaction(|conn| {
        let round = round_in(conn, view, number)?;
        require_draft(&round)?;
        claim_version(conn, view, expected_version)?;
        db_events::delete_round(conn, round.id)?;
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "round.deleted",
            &format!("draft round {number}"),
            ctx.now,
        )?;
        Ok(())
    })
}
