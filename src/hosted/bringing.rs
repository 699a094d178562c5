//! What the players of a digital pairing bring to it (Malifaux crew
//! lists, a 1st edition crew, a Mage Knight army), checked against the
//! event's system and size, and the game it starts once both are in: a
//! Malifaux encounter on the table's flipped scenario, a 1st edition
//! encounter at the event's soulstones (its setup flipped in the game
//! from the players' own decks), or a Mage Knight battle at the event's
//! build total.

use diesel::prelude::*;
use soulstone_engine::encounter::objectives::SeasonScheme;
use soulstone_engine::encounter::{GivenScenario, deployment_for};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::table::measure::Deployment;

use super::event_games::{DigitalState, game_in, limits_of, seat_of, state_of};
use crate::db::events::{self as db_events, GameRow};
use crate::db::hosted as db_hosted;
use crate::db::{DbConnection, WriteTransaction};
use crate::events::round_setups::TableSetup;
use crate::events::{Access, Ctx, EventError, EventView};
use crate::hosted::brought::{Brought, Content, Limits};
use crate::hosted::{self, BroughtList};
use crate::setup::SetupResult;
use crate::setup::pool::DeploymentKind;

/// A player who declared a faction for the event plays it all event: each
/// list they bring to an event game must be of that faction.
fn require_declared_faction(
    conn: &mut DbConnection,
    game: &GameRow,
    seat: &str,
    brought: &Brought,
) -> Result<(), EventError> {
    // (name, faction) of each list brought.
    let lists: Vec<(&str, &str)> = match brought {
        Brought::Crews(lists) => lists
            .iter()
            .map(|l| (l.name.as_str(), l.list.faction.as_str()))
            .collect(),
        Brought::FirstEdition(crew) => vec![(crew.name.as_str(), crew.faction.as_str())],
        Brought::Army(_) => return Ok(()),
    };
    let registration = match seat {
        "a" => Some(game.player_a),
        _ => game.player_b,
    };
    let declared = registration
        .map(|id| db_events::find_registration(conn, id))
        .transpose()?
        .flatten()
        .and_then(|r| r.faction)
        .filter(|faction| !faction.trim().is_empty());
    let Some(declared) = declared else {
        return Ok(());
    };
    match lists
        .iter()
        .find(|(_, faction)| !faction.eq_ignore_ascii_case(declared.trim()))
    {
        Some((name, faction)) => Err(EventError::Invalid(vec![(
            "crew",
            format!(
                "You declared {declared} for this event: bring {declared} crews ({name} is {faction})."
            ),
        )])),
        None => Ok(()),
    }
}

/// What a player brings to a digital pairing.
#[derive(Debug, Clone)]
pub struct Bringing {
    pub brought: Brought,
    /// The server seed of the game, if this starts it (random in a real
    /// game; committed to before either player's cut).
    pub seed: Bytes32,
}

/// A player brings their crew lists (Malifaux) or army (Mage Knight) to a
/// digital pairing, replacing what they brought before the game started.
/// It is checked against the hiring rules or the build total. Once both
/// players' are in, the game starts.
pub fn bring(
    conn: &mut DbConnection,
    content: &Content,
    view: &EventView,
    access: &Access,
    game_id: i64,
    bringing: Bringing,
    ctx: &Ctx<'_>,
) -> Result<DigitalState, EventError> {
    let Bringing { brought, seed } = bringing;
    check_brought_for(content, view, &brought)?;
    let json = brought
        .to_json()
        .map_err(|e| EventError::Corrupt(format!("brought lists: {e}")))?;
    conn.write_transaction(|conn| {
        // Touching the pairing's row first makes two players bringing
        // their crews at once take turns, so the second sees the first's
        // and the game starts exactly once.
        diesel::update(crate::db::schema::games::table.find(game_id))
            .set(crate::db::schema::games::updated_at.eq(ctx.now))
            .execute(conn)?;
        let game = game_in(conn, view, game_id)?;
        let seat = seat_of(access, &game).ok_or_else(|| {
            EventError::Forbidden("Only the two players of this game bring crews to it.".into())
        })?;
        match state_of(conn, &game, Some(seat))? {
            DigitalState::NotDigital => {
                return Err(EventError::Conflict(
                    "This game is played at a table, not in the browser.".into(),
                ));
            }
            DigitalState::Started { .. } => {
                return Err(EventError::Conflict(
                    "The game has started: the crews are chosen.".into(),
                ));
            }
            DigitalState::Waiting { .. } => {}
        }
        require_declared_faction(conn, &game, seat, &brought)?;
        db_hosted::set_pairing_crews(conn, game.id, seat, &json, ctx.now)?;
        let stored = db_hosted::pairing_crews(conn, game.id)?;
        let find = |side: &str| -> Result<Option<Brought>, EventError> {
            stored
                .iter()
                .find(|(s, _)| s == side)
                .map(|(_, json)| {
                    Brought::from_json(json)
                        .map_err(|e| EventError::Corrupt(format!("brought lists: {e}")))
                })
                .transpose()
        };
        let (Some(a), Some(b)) = (find("a")?, find("b")?) else {
            return state_of(conn, &game, Some(seat));
        };
        let opening = Opening {
            accounts: [
                account_of(conn, Some(game.player_a))?,
                account_of(conn, game.player_b)?,
            ],
            time_control_ms: Some(minutes_per_player(view) * 60_000),
            seed,
        };
        let started = match (&a, &b) {
            (Brought::Crews(a), Brought::Crews(b)) => {
                start_crews(conn, content, &game, &opening, [a, b], ctx)
            }
            (Brought::Army(a), Brought::Army(b)) => {
                let build_total = u16::try_from(view.event.encounter_size).map_err(|_| {
                    EventError::Conflict("The event's build total is out of range.".into())
                })?;
                let pairing = hosted::ArmyGame {
                    pairing_game_id: Some(game.id),
                    accounts: opening.accounts,
                    armies: [a, b],
                    build_total: Some(build_total),
                    seed: opening.seed,
                    time_control_ms: opening.time_control_ms,
                    content: content.stamp,
                };
                hosted::start_army_game(conn, content.roster, &pairing, ctx.now)
            }
            (Brought::FirstEdition(a), Brought::FirstEdition(b)) => {
                let Limits::FirstEdition { encounter } = limits_of(view) else {
                    return Err(EventError::Corrupt(format!(
                        "pairing {} holds 1st edition crews in a {} event",
                        game.id, view.system
                    )));
                };
                let pairing = hosted::CrewGame {
                    pairing_game_id: Some(game.id),
                    accounts: opening.accounts,
                    crews: [a, b],
                    encounter,
                    seed: opening.seed,
                    time_control_ms: opening.time_control_ms,
                    content: content.stamp,
                };
                hosted::start_crew_game(
                    conn,
                    content.first_edition,
                    content.first_edition_conditions,
                    &pairing,
                    ctx.now,
                )
            }
            _ => {
                return Err(EventError::Corrupt(format!(
                    "pairing {} holds what two game systems are played with",
                    game.id
                )));
            }
        };
        let hosted_game_id = started.map_err(|e| match e {
            hosted::HostedError::Db(db) => EventError::Db(db),
            hosted::HostedError::Event(event) => event,
            other => EventError::Conflict(other.to_string()),
        })?;
        Ok(DigitalState::Started { hosted_game_id })
    })
}

/// Refuses what does not suit the event's system, encounter size or build
/// total, naming why.
fn check_brought_for(
    content: &Content<'_>,
    view: &EventView,
    brought: &Brought,
) -> Result<(), EventError> {
    brought
        .check(content, limits_of(view))
        .map_err(|problem| EventError::Invalid(vec![("crew", problem)]))
}

/// The account a pairing's registration plays with.
fn account_of(conn: &mut DbConnection, registration: Option<i64>) -> Result<i64, EventError> {
    registration
        .map(|id| db_events::find_registration(conn, id))
        .transpose()?
        .flatten()
        .and_then(|r| r.account_id)
        .ok_or_else(|| EventError::Conflict("Both players need an account to play here.".into()))
}

/// Each player's clock: the event's setting, or half the round's time.
fn minutes_per_player(view: &EventView) -> i64 {
    view.settings
        .digital
        .minutes_per_player
        .map_or(i64::from(view.event.round_minutes) / 2, i64::from)
}

/// What every system's pairing game starts with.
struct Opening {
    accounts: [i64; 2],
    time_control_ms: Option<i64>,
    seed: Bytes32,
}

/// Starts a Malifaux pairing's game: the table's flipped scenario when
/// there is one.
fn start_crews(
    conn: &mut DbConnection,
    content: &Content<'_>,
    game: &GameRow,
    opening: &Opening,
    lists: [&[BroughtList]; 2],
    ctx: &Ctx<'_>,
) -> Result<i64, hosted::HostedError> {
    let round = match game.round_id {
        Some(id) => db_events::find_round_by_id(conn, id)?,
        None => None,
    };
    let table = match &round {
        Some(round) => TableSetup::of(round, game).map_err(hosted::HostedError::Event)?,
        None => None,
    };
    let scenario = table
        .map(|table| given_scenario(conn, &table))
        .transpose()
        .map_err(hosted::HostedError::Event)?
        .flatten();
    let start = hosted::PairingStart {
        pairing_game_id: game.id,
        accounts: opening.accounts,
        lists,
        seed: opening.seed,
        time_control_ms: opening.time_control_ms,
        scenario: scenario.as_ref(),
        content: content.stamp,
    };
    hosted::start_for_pairing(conn, content.catalog, &start, ctx.now)
}

/// The scenario a table's game plays: the round's flips (the table's own
/// attacker when the round shares its scenario), with the season's schemes
/// and their Next Available Schemes from the pool they were flipped from.
/// None when nothing was flipped for the table, or the flips are not a 4th
/// edition scenario: the game then flips its own.
fn given_scenario(
    conn: &mut DbConnection,
    table: &TableSetup,
) -> Result<Option<GivenScenario>, EventError> {
    let SetupResult::Malifaux(flipped) = &table.setup.result else {
        return Ok(None);
    };
    let deployment = match flipped.deployment {
        Some(DeploymentKind::Standard) => Deployment::Standard,
        Some(DeploymentKind::Corner) => Deployment::Corner,
        Some(DeploymentKind::Flank) => Deployment::Flank,
        Some(DeploymentKind::Wedge) => Deployment::Wedge,
        Some(
            DeploymentKind::Diagonal
            | DeploymentKind::StandardFirstEdition
            | DeploymentKind::Corners,
        ) => return Ok(None),
        // A flip without a pool: the suit picks the content's deployment.
        None => deployment_for(flipped.deployment_suit),
    };
    let attacker = table
        .sides
        .as_ref()
        .map_or(flipped.attacker, |s| s.attacker);
    let season_schemes = match &table.setup.pool {
        Some(pool_ref) => season_schemes(conn, pool_ref)?,
        None => Vec::new(),
    };
    Ok(Some(GivenScenario {
        // The pairing's player A sits in the hosted game's seat A.
        attacker: match attacker {
            crate::setup::Seat::A => soulstone_engine::Seat::A,
            crate::setup::Seat::B => soulstone_engine::Seat::B,
        },
        strategy_suit: flipped.strategy.suit,
        // A flip without a pool named no strategy, only its suit: the
        // content's strategy for that suit plays.
        strategy: table
            .setup
            .pool
            .is_some()
            .then(|| flipped.strategy.name.clone()),
        deployment,
        schemes: flipped.scheme_pool.iter().map(|s| s.name.clone()).collect(),
        season_schemes,
    }))
}

/// The schemes of the pool a setup was flipped from, as it was then (its
/// current form if that revision was not kept; none if it is gone).
fn season_schemes(
    conn: &mut DbConnection,
    pool_ref: &crate::setup::PoolRef,
) -> Result<Vec<SeasonScheme>, EventError> {
    let Some(row) = crate::db::pools::find_by_slug(conn, &pool_ref.id)? else {
        return Ok(Vec::new());
    };
    let pool = match pool_ref.revision.as_deref() {
        Some(revision) => match crate::db::pools::at_revision(conn, &row, revision)? {
            Some(pool) => pool,
            None => row.pool()?,
        },
        None => row.pool()?,
    };
    Ok(pool
        .schemes()
        .iter()
        .map(|s| SeasonScheme {
            name: s.name.clone(),
            next: s.next.clone(),
        })
        .collect())
}
