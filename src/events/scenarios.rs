//! Scenarios a round shares at every table (strategy, deployment, scheme
//! pool): flipped or announced for a draft round, or prepared before the
//! event for each planned round, which pairing that round then uses.

use rand::RngCore;

use super::round_setups::{event_pool, share_scenario};
use super::rounds::require_draft_round;
use super::stored_json::to_json;
use super::{Access, Ctx, EventError, EventView, require_not_finished};
use crate::db::events as db_events;
use crate::db::{DbConnection, WriteTransaction, audit};
use crate::setup::{self, Announcement, SetupRequest, SetupResult};
use crate::setup::{EncounterSize, Setup};

/// A scenario prepared for a planned round.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    pub round: i32,
    pub setup: Setup,
}

/// The scenarios prepared for the event's rounds, by round number.
pub fn prepared(conn: &mut DbConnection, view: &EventView) -> Result<Vec<Prepared>, EventError> {
    db_events::prepared_scenarios(conn, view.id())?
        .into_iter()
        .map(|(round, json)| {
            serde_json::from_str(&json)
                .map(|setup| Prepared { round, setup })
                .map_err(|e| EventError::Corrupt(format!("prepared scenario: {e}")))
        })
        .collect()
}

/// The planned rounds not paired yet: the ones a scenario can be prepared for.
fn rounds_to_come(conn: &mut DbConnection, view: &EventView) -> Result<Vec<i32>, EventError> {
    let paired = rounds_paired(conn, view)?;
    Ok(((paired + 1)..=view.event.rounds_planned).collect())
}

/// The number of the event's last paired round (0 before the first).
pub fn rounds_paired(conn: &mut DbConnection, view: &EventView) -> Result<i32, EventError> {
    Ok(db_events::list_rounds(conn, view.id())?
        .last()
        .map_or(0, |r| r.number))
}

fn require_shared_scenarios(view: &EventView) -> Result<(), EventError> {
    if view.system.shares_round_scenarios() {
        Ok(())
    } else {
        Err(EventError::Conflict(format!(
            "{} setups belong to each pair of players: they are flipped per table when a round is paired.",
            view.system.name()
        )))
    }
}

/// Which strategy and deployment a scenario has, to tell repeats.
fn strategy_and_deployment(setup: &Setup) -> Option<(String, String)> {
    match &setup.result {
        SetupResult::Malifaux(m) => Some((m.strategy.name.clone(), m.deployment_name())),
        _ => None,
    }
}

/// At most this many flips to find a scenario that repeats nothing.
const REPEAT_TRIES: usize = 200;

/// Flips a scenario for every planned round not paired yet (replacing
/// those prepared before). With `avoid_repeats`, a round's scenario is
/// flipped again while its strategy or deployment was already drawn for
/// an earlier round (or played in one), as long as unused ones remain.
/// Returns how many rounds were prepared.
pub fn prepare_by_flipping(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    avoid_repeats: bool,
    ctx: &Ctx<'_>,
) -> Result<usize, EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    require_shared_scenarios(view)?;
    conn.write_transaction(|conn| {
        let pool = event_pool(conn, view)?;
        if pool.is_none() && view.system != crate::systems::GameSystem::Malifaux4 {
            return Err(EventError::Conflict(
                "Choose a strategy and scheme pool in the event settings first.".into(),
            ));
        }
        let strategies_in_pool = pool.as_ref().map_or(4, |p| p.strategies().len());
        let deployments_in_pool = pool.as_ref().map_or(4, |p| p.deployments().len());
        // What rounds already played used counts as used.
        let mut used: Vec<(String, String)> = Vec::new();
        for round in db_events::list_rounds(conn, view.id())? {
            if let Some(setup) = super::round_setups::round_setup(&round)? {
                used.extend(strategy_and_deployment(&setup));
            }
        }
        let rounds = rounds_to_come(conn, view)?;
        for &number in &rounds {
            let mut setup = flip(view, pool.as_ref())?;
            if avoid_repeats {
                for _ in 0..REPEAT_TRIES {
                    let Some((strategy, deployment)) = strategy_and_deployment(&setup) else {
                        break;
                    };
                    let strategy_free = used.len() >= strategies_in_pool
                        || used.iter().all(|(s, _)| *s != strategy);
                    let deployment_free = used.len() >= deployments_in_pool
                        || used.iter().all(|(_, d)| *d != deployment);
                    if strategy_free && deployment_free {
                        break;
                    }
                    setup = flip(view, pool.as_ref())?;
                }
            }
            if let Some(pair) = strategy_and_deployment(&setup) {
                used.push(pair);
            }
            db_events::set_prepared_scenario(conn, view.id(), number, &to_json(&setup)?, ctx.now)?;
        }
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "scenarios.prepared",
            &format!("rounds {rounds:?}, avoiding repeats: {avoid_repeats}"),
            ctx.now,
        )?;
        Ok(rounds.len())
    })
}

fn flip(view: &EventView, pool: Option<&setup::pool::Pool>) -> Result<Setup, EventError> {
    Ok(setup::generate(SetupRequest {
        system: view.system,
        pool,
        seed: rand::rng().next_u64(),
        encounter_size: EncounterSize::Scrap,
    })?)
}

/// Where an announced scenario goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScenarioFor {
    /// A paired round still in draft: at once, each table flipping sides.
    DraftRound(i32),
    /// A planned round not paired yet: used when it is paired.
    PlannedRound(i32),
}

/// Enters the scenario the organisers announced (a season's published
/// round, say) instead of flipping: the pool's names, checked.
pub fn announce(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    target: ScenarioFor,
    announcement: &Announcement<'_>,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    require_shared_scenarios(view)?;
    conn.write_transaction(|conn| {
        let pool = event_pool(conn, view)?.ok_or_else(|| {
            EventError::Conflict(
                "An announced scenario is named from the event's pool: choose one (or import the season) in the event settings first.".into(),
            )
        })?;
        let setup = setup::announce(view.system, &pool, announcement)
            .map_err(|err| EventError::invalid("scenario", err.to_string()))?;
        match target {
            ScenarioFor::DraftRound(number) => {
                let round = db_events::find_round(conn, view.id(), number)?
                    .ok_or(EventError::NotFound)?;
                require_draft_round(&round)?;
                share_scenario(conn, view, &round, &setup, ctx.now)?;
            }
            ScenarioFor::PlannedRound(number) => {
                if !rounds_to_come(conn, view)?.contains(&number) {
                    return Err(EventError::Conflict(format!(
                        "Round {number} is paired already or not planned: enter its scenario on the round's page."
                    )));
                }
                db_events::set_prepared_scenario(conn, view.id(), number, &to_json(&setup)?, ctx.now)?;
            }
        }
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "scenario.announced",
            &format!("{target:?}: {}", announcement.strategy),
            ctx.now,
        )?;
        Ok(())
    })
}

/// When a round is paired: the scenario prepared for it, if any, becomes
/// its shared scenario (each table flipping its own attacker).
pub(crate) fn use_prepared(
    conn: &mut DbConnection,
    view: &EventView,
    round: &crate::db::events::Round,
    now: chrono::NaiveDateTime,
) -> Result<(), EventError> {
    if !view.system.shares_round_scenarios() {
        return Ok(());
    }
    if let Some(prepared) = prepared(conn, view)?
        .into_iter()
        .find(|p| p.round == round.number)
    {
        share_scenario(conn, view, round, &prepared.setup, now)?;
    }
    Ok(())
}
