//! A round's setups: one scenario shared by every table (each table
//! flipping its own attacker) or a setup per table, flipped while the round
//! is a draft, with the history of what each flip replaced.

use rand::RngCore;

use super::rounds::{EventData, require_draft, round_in};
use super::stored_json::{from_stored_json, to_json};
use super::{Access, Ctx, EventError, EventView, require_not_finished};
use crate::db::events::{self as db_events, GameRow, Round};
use crate::db::{DbConnection, WriteTransaction, audit, pools};
use crate::setup::{self, Seat, SeatNames, Setup, SetupRequest, SetupResult, TableSides};
use crate::systems::GameSystem;

/// The setup a table plays: a setup of its own, or the round's shared
/// scenario with the table's own attacker.
#[derive(Debug, Clone, PartialEq)]
pub struct TableSetup {
    pub setup: Setup,
    /// Set when the setup is the round's shared scenario.
    pub sides: Option<TableSides>,
    pub shared: bool,
}

impl TableSetup {
    /// What a table of `round` plays, if a setup was flipped for it.
    pub fn of(round: &Round, game: &GameRow) -> Result<Option<Self>, EventError> {
        if let Some(json) = game.setup.as_deref() {
            return Ok(Some(Self {
                setup: from_stored_json("games.setup", game.id, json)?,
                sides: None,
                shared: false,
            }));
        }
        let Some(setup) = round_setup(round)? else {
            return Ok(None);
        };
        let sides = game
            .sides
            .as_deref()
            .map(|json| from_stored_json("games.sides", game.id, json))
            .transpose()?;
        Ok(Some(Self {
            setup,
            sides,
            shared: true,
        }))
    }

    /// The seat that attacks, where the system has attackers and it is known.
    pub fn attacker(&self) -> Option<Seat> {
        match (&self.sides, &self.setup.result) {
            (Some(sides), _) => Some(sides.attacker),
            (None, SetupResult::Malifaux(m)) if !self.shared => Some(m.attacker),
            _ => None,
        }
    }
}

/// The round's shared setup, if it has one.
pub fn round_setup(round: &Round) -> Result<Option<Setup>, EventError> {
    round
        .setup
        .as_deref()
        .map(|json| from_stored_json("rounds.setup", round.id, json))
        .transpose()
}

/// A setup a round had before it was flipped again: kept, so the players
/// see how often the organisers flipped before publishing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReplacedSetup {
    pub replaced_at: chrono::NaiveDateTime,
    /// One setup for every table, or one per table.
    pub per_table: bool,
    /// What it was (for a per-table flip, the first table's).
    pub summary: String,
}

/// The setups a round had before its current one, oldest first.
pub fn setup_history(round: &Round) -> Result<Vec<ReplacedSetup>, EventError> {
    round
        .setup_history
        .as_deref()
        .map(|json| from_stored_json("rounds.setup_history", round.id, json))
        .transpose()
        .map(Option::unwrap_or_default)
}

/// A one-line description of a table's setup, naming the players, for
/// mails and lists.
pub fn setup_summary(table: &TableSetup, names: &SeatNames) -> String {
    let mut parts = Vec::new();
    if let Some(attacker) = table.attacker() {
        parts.push(format!("Attacker: {}", names.of(attacker)));
    }
    parts.push(scenario_summary(&table.setup, names));
    parts.join(" · ")
}

/// A one-line description of what a setup decides beyond the attacker.
pub fn scenario_summary(setup: &Setup, names: &SeatNames) -> String {
    match &setup.result {
        SetupResult::Malifaux(m) => format!(
            "{} · {} · schemes: {}",
            m.strategy.name,
            m.deployment_name(),
            m.scheme_names()
        ),
        SetupResult::FirstEdition(f) => format!(
            "{} · {}",
            f.deployment
                .map(|d| d.name())
                .unwrap_or("deployment chosen by a player"),
            f.strategies
                .iter()
                .map(|s| format!(
                    "{}: {}",
                    names.of(s.seat),
                    s.strategy.as_deref().unwrap_or("player's choice")
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        SetupResult::MageKnight(mk) => format!(
            "{} goes first · objectives {}\" and {}\" from the deployment edges",
            names.of(mk.first_player),
            mk.objective_distance_a,
            mk.objective_distance_b
        ),
    }
}

/// Generates the round's setup while the round is a draft: one scenario
/// for every table (with attacker and defender flipped at each table), or
/// a whole setup per table. Flipping again keeps what it replaces in the
/// round's setup history, which the players see once the round is out.
pub fn generate_setup(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    number: i32,
    per_table: bool,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    if !per_table && !view.system.shares_round_scenarios() {
        return Err(EventError::Conflict(format!(
            "{} setups belong to each pair of players: flip a setup per table.",
            view.system.name()
        )));
    }
    conn.write_transaction(|conn| {
        let round = round_in(conn, view, number)?;
        require_draft(&round)?;
        if per_table && EventData::load(conn, view.id())?.matches_still_choosing(round.id) > 0 {
            return Err(EventError::Conflict(
                "The captains choose who plays whom once the round is published, so its games do not exist yet: flip one scenario for all tables instead (each table flips its own attacker when its game is made).".into(),
            ));
        }
        let pool = event_pool(conn, view)?;
        if pool.is_none() && view.system.uses_pools() && view.system != GameSystem::Malifaux4 {
            return Err(EventError::Conflict(
                "Choose a strategy and scheme pool in the event settings first.".into(),
            ));
        }
        let make = |seed: u64| {
            setup::generate(SetupRequest {
                system: view.system,
                pool: pool.as_ref(),
                seed,
                encounter_size: view.first_edition_size(),
            })
        };
        if per_table {
            let games = db_events::games_of_round(conn, round.id)?;
            let history = history_json(&round, &games, ctx.now)?;
            db_events::set_round_setup(conn, round.id, None, history.as_deref())?;
            for game in &games {
                let setup = match game.player_b {
                    Some(_) => Some(to_json(&make(rand::rng().next_u64())?)?),
                    None => None,
                };
                db_events::set_game_setup(conn, game.id, setup.as_deref(), None)?;
            }
        } else {
            share_scenario(conn, view, &round, &make(rand::rng().next_u64())?, ctx.now)?;
        }
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "round.setup",
            &format!("round {number}, per table: {per_table}"),
            ctx.now,
        )?;
        Ok(())
    })
}

/// The event's strategy and scheme pool, if it has one.
pub(crate) fn event_pool(
    conn: &mut DbConnection,
    view: &EventView,
) -> Result<Option<crate::setup::pool::Pool>, EventError> {
    match view.event.pool_id {
        Some(id) => Ok(Some(
            pools::find_by_id(conn, id)?
                .ok_or(EventError::NotFound)?
                .pool()?,
        )),
        None => Ok(None),
    }
}

/// Makes `setup` the round's scenario for every table, each table flipping
/// its own attacker; whatever the round had before goes to its history.
pub(crate) fn share_scenario(
    conn: &mut DbConnection,
    view: &EventView,
    round: &Round,
    setup: &Setup,
    now: chrono::NaiveDateTime,
) -> Result<(), EventError> {
    let games = db_events::games_of_round(conn, round.id)?;
    let history = history_json(round, &games, now)?;
    db_events::set_round_setup(conn, round.id, Some(&to_json(setup)?), history.as_deref())?;
    for game in &games {
        let sides = match game.player_b {
            Some(_) => Some(to_json(&setup::flip_sides(
                view.system,
                rand::rng().next_u64(),
            )?)?),
            None => None,
        };
        db_events::set_game_setup(conn, game.id, None, sides.as_deref())?;
    }
    Ok(())
}

/// Games added to a round after its scenario was shared (a team match
/// whose captains finished choosing) flip their own attacker too.
pub(super) fn give_sides_to_new_games(
    conn: &mut DbConnection,
    view: &EventView,
    round: &Round,
) -> Result<(), EventError> {
    let Some(current) = db_events::find_round(conn, view.id(), round.number)? else {
        return Ok(());
    };
    if current.setup.is_none() || !view.system.shares_round_scenarios() {
        return Ok(());
    }
    for game in db_events::games_of_round(conn, round.id)? {
        if game.player_b.is_some() && game.sides.is_none() && game.setup.is_none() {
            let sides = to_json(&setup::flip_sides(view.system, rand::rng().next_u64())?)?;
            db_events::set_game_setup(conn, game.id, None, Some(&sides))?;
        }
    }
    Ok(())
}

/// The round's setup history as stored, with what is about to be replaced.
fn history_json(
    round: &Round,
    games: &[GameRow],
    now: chrono::NaiveDateTime,
) -> Result<Option<String>, EventError> {
    let history = replaced_history(round, games, now)?;
    if history.is_empty() {
        Ok(None)
    } else {
        Ok(Some(to_json(&history)?))
    }
}

/// The round's setup history with the setup about to be replaced added.
fn replaced_history(
    round: &Round,
    games: &[GameRow],
    now: chrono::NaiveDateTime,
) -> Result<Vec<ReplacedSetup>, EventError> {
    let mut history = setup_history(round)?;
    let names = SeatNames::default();
    if let Some(setup) = round_setup(round)? {
        history.push(ReplacedSetup {
            replaced_at: now,
            per_table: false,
            summary: scenario_summary(&setup, &names),
        });
        return Ok(history);
    }
    for game in games {
        if let Some(first) = TableSetup::of(round, game)?.filter(|t| !t.shared) {
            history.push(ReplacedSetup {
                replaced_at: now,
                per_table: true,
                summary: scenario_summary(&first.setup, &names),
            });
            break;
        }
    }
    Ok(history)
}
