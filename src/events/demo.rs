//! Demo events with many players and played rounds, built through the same
//! service calls as the web pages: for benchmarks, load tests and trying the
//! service out.

use super::input::EventInput;
use super::manage::{change_status, create_event};
use super::registration::{WalkIn, add_walk_in, set_checked_in};
use super::results::{ResultInput, report};
use super::rounds::{EventData, pair_next_round, publish_round};
use super::{Actor, Ctx, EventError, EventStatus, load};
use crate::db::DbConnection;
use crate::db::events as db_events;
use soulstone_random::RandomStream;

/// What to build.
#[derive(Debug, Clone, Copy)]
pub struct DemoSpec {
    pub players: usize,
    /// Rounds paired, published and played.
    pub rounds: u32,
    /// Rounds planned in total (more than `rounds` leaves the event mid-way).
    pub rounds_planned: u32,
    pub seed: u64,
}

/// Builds a running Malifaux 4th edition event owned by `owner`; returns its id.
pub fn seed_event(
    conn: &mut DbConnection,
    owner: Actor,
    spec: DemoSpec,
    ctx: &Ctx<'_>,
) -> Result<i64, EventError> {
    let mut input = EventInput::new_event_defaults(ctx.now.date());
    input.name = format!("Demo event: {} players", spec.players);
    input.rounds_planned = spec.rounds_planned.max(spec.rounds).max(1).to_string();
    input.avoid_same_club = "on".into();
    let view = create_event(conn, owner, input.validate()?, ctx)?;
    let id = view.id();
    let (view, access) = load(conn, id, Some(owner))?;
    change_status(conn, &view, &access, EventStatus::Registration, ctx)?;
    let (view, access) = load(conn, id, Some(owner))?;
    let clubs = (spec.players / 8).max(2) as u32;
    let mut stream = RandomStream::from_seed_and_label(spec.seed, "demo-event");
    for i in 1..=spec.players {
        let club = format!("Club {:03}", stream.below(clubs));
        let name = format!("Player {i:04}");
        let walk_in = WalkIn {
            name: &name,
            club: &club,
            initial_points: 0,
            submission_key: None,
        };
        let entry = add_walk_in(conn, &view, &access, &walk_in, ctx)?;
        set_checked_in(conn, &view, &access, entry.id, true)?;
    }
    change_status(conn, &view, &access, EventStatus::Running, ctx)?;
    for number in 1..=spec.rounds {
        let (view, access) = load(conn, id, Some(owner))?;
        pair_next_round(conn, &view, &access, view.event.version, ctx)?;
        let (view, access) = load(conn, id, Some(owner))?;
        let number = number as i32;
        publish_round(conn, &view, &access, number, view.event.version, ctx)?;
        let data = EventData::load(conn, id)?;
        let round = db_events::find_round(conn, id, number)?.ok_or(EventError::NotFound)?;
        for game in data
            .games_of_round(round.id)
            .filter(|g| g.player_b.is_some())
        {
            let mut value = |max: u32| Some(stream.below(max + 1).to_string());
            let result = ResultInput {
                a_strategy_vp: value(5),
                a_scheme_vp: value(5),
                b_strategy_vp: value(5),
                b_scheme_vp: value(5),
                version: Some(game.version.to_string()),
                ..ResultInput::default()
            };
            report(conn, &view, &access, game.id, &result, ctx)?;
        }
    }
    Ok(id)
}
