//! The events part of the JSON API (documented in `docs/api.md`). Same rules
//! as the pages: every call goes through `crate::events`.

use crate::events::{GameStatus, RegistrationStatus, RoundStatus};
use actix_web::{HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};

use super::{ctx_of, service_ctx};
use crate::events::input::EventInput;
use crate::events::manage;
use crate::events::registration;
use crate::events::results::{self, ResultInput};
use crate::events::round_setups;
use crate::events::rounds::{self, EventData};
use crate::events::{self, Actor, EventError, EventSettings, EventStatus, EventView};
use crate::events::{GameRow, Registration, Round};
use crate::tournament::standings::StandingRow;
use crate::web::AppState;
use crate::web::error::{ApiError, AppError};
use crate::web::session::ApiUser;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(list_events)
        .service(create_event)
        .service(get_event)
        .service(change_status)
        .service(register)
        .service(add_player)
        .service(check_in)
        .service(drop_player)
        .service(pair_round)
        .service(search_longer)
        .service(get_round)
        .service(publish_round)
        .service(report_result)
        .service(confirm_result)
        .service(dispute_result)
        .service(get_standings)
        .service(make_cut)
        .service(undo_cut)
        .service(get_bracket)
        .service(get_teams)
        .service(register_team)
        .service(choose_in_match);
}

fn actor(user: &ApiUser) -> Option<Actor> {
    Some(Actor::of(&user.account))
}

#[derive(Debug, Serialize)]
pub struct EventSummary {
    pub id: i64,
    pub name: String,
    pub starts_on: chrono::NaiveDate,
    pub ends_on: chrono::NaiveDate,
    pub venue: String,
    pub game_system: String,
    pub format: String,
    pub status: EventStatus,
    pub version: i32,
}

impl EventSummary {
    fn of(event: &events::EventRow) -> Self {
        Self {
            id: event.id,
            name: event.name.clone(),
            starts_on: event.starts_on,
            ends_on: event.ends_on,
            venue: event.venue.clone(),
            game_system: event.game_system.clone(),
            format: event.format.clone(),
            status: event.status,
            version: event.version,
        }
    }
}

#[get("/events")]
async fn list_events(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let events = state
        .with_db(|conn| Ok(events::reads::public_events(conn, 500)?))
        .await?;
    Ok(HttpResponse::Ok().json(events.iter().map(EventSummary::of).collect::<Vec<_>>()))
}

#[post("/events")]
async fn create_event(
    user: ApiUser,
    state: web::Data<AppState>,
    body: web::Json<EventInput>,
) -> Result<HttpResponse, ApiError> {
    let input = body.into_inner();
    let actor = actor(&user).ok_or(AppError::Unauthorized)?;
    let (now, base_url) = ctx_of(&state);
    let view = state
        .with_db(move |conn| {
            let spec = input.validate()?;
            Ok(manage::create_event(
                conn,
                actor,
                spec,
                &service_ctx(now, &base_url),
            )?)
        })
        .await?;
    Ok(HttpResponse::Created().json(EventSummary::of(&view.event)))
}

#[derive(Debug, Serialize)]
pub struct PlayerEntry {
    pub id: i64,
    pub name: String,
    pub club: Option<String>,
    pub status: RegistrationStatus,
    pub checked_in: bool,
    pub dropped: bool,
    pub faction: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct EventDetail {
    #[serde(flatten)]
    pub summary: EventSummary,
    pub description: String,
    pub rounds_planned: i32,
    pub round_minutes: i32,
    pub encounter_size: i32,
    pub player_cap: Option<i32>,
    pub settings: EventSettings,
    pub players: Vec<PlayerEntry>,
    pub rounds: Vec<RoundSummary>,
    /// The caller's own entry id, if registered.
    pub my_registration: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct RoundSummary {
    pub number: i32,
    pub status: RoundStatus,
}

fn player_entry(r: &Registration, show_lists: bool) -> PlayerEntry {
    PlayerEntry {
        id: r.id,
        name: r.display_name.clone(),
        club: r.club.clone(),
        status: r.status,
        checked_in: r.checked_in,
        dropped: r.dropped,
        faction: if show_lists { r.faction.clone() } else { None },
    }
}

#[get("/events/{id}")]
async fn get_event(
    user: Option<ApiUser>,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let actor = user.as_ref().and_then(actor);
    let (view, access, data) = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            Ok((view, access, EventData::load(conn, id)?))
        })
        .await?;
    let show_lists = registration::can_see_lists(&view, &access);
    Ok(HttpResponse::Ok().json(EventDetail {
        summary: EventSummary::of(&view.event),
        description: view.event.description.clone(),
        rounds_planned: view.event.rounds_planned,
        round_minutes: view.event.round_minutes,
        encounter_size: view.event.encounter_size,
        player_cap: view.event.player_cap,
        settings: view.settings.clone(),
        players: data
            .registrations
            .iter()
            .filter(|r| r.status != RegistrationStatus::Withdrawn)
            .map(|r| player_entry(r, show_lists))
            .collect(),
        rounds: data
            .rounds
            .iter()
            .filter(|r| r.status != RoundStatus::Draft || access.is_staff())
            .map(|r| RoundSummary {
                number: r.number,
                status: r.status,
            })
            .collect(),
        my_registration: access.registration.as_ref().map(|r| r.id),
    }))
}

/// Loads the event, runs the call, and answers with the event's state.
async fn on_event<T, F>(
    state: &web::Data<AppState>,
    user: &ApiUser,
    id: i64,
    work: F,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: crate::web::EventWork<T>,
{
    let result = state
        .with_event(id, actor(user), work)
        .await?
        .map_err(AppError::from)?;
    state.mail_queued();
    Ok(result)
}

#[derive(Debug, Deserialize)]
struct StatusBody {
    status: String,
}

#[post("/events/{id}/status")]
async fn change_status(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    body: web::Json<StatusBody>,
) -> Result<HttpResponse, ApiError> {
    let target = EventStatus::parse(body.status.trim()).ok_or_else(|| {
        AppError::bad_request("status must be draft, registration, running or finished")
    })?;
    on_event(
        &state,
        &user,
        path.into_inner(),
        move |conn, view, access, ctx| manage::change_status(conn, view, access, target, ctx),
    )
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[post("/events/{id}/register")]
async fn register(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let registration = on_event(
        &state,
        &user,
        path.into_inner(),
        registration::register_self,
    )
    .await?;
    Ok(HttpResponse::Created().json(player_entry(&registration, true)))
}

#[derive(Debug, Deserialize)]
struct PlayerBody {
    name: String,
    #[serde(default)]
    club: String,
    #[serde(default)]
    initial_points: i32,
    /// A retry with the same key answers with the player the first made.
    #[serde(default)]
    submission_key: Option<String>,
}

#[post("/events/{id}/players")]
async fn add_player(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    body: web::Json<PlayerBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let registration = on_event(
        &state,
        &user,
        path.into_inner(),
        move |conn, view, access, ctx| {
            let walk_in = registration::WalkIn {
                name: &body.name,
                club: &body.club,
                initial_points: body.initial_points,
                submission_key: body.submission_key.as_deref(),
            };
            registration::add_walk_in(conn, view, access, &walk_in, ctx)
        },
    )
    .await?;
    Ok(HttpResponse::Created().json(player_entry(&registration, true)))
}

#[derive(Debug, Deserialize)]
struct CheckInBody {
    checked_in: bool,
}

#[post("/events/{id}/players/{reg}/check-in")]
async fn check_in(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    body: web::Json<CheckInBody>,
) -> Result<HttpResponse, ApiError> {
    let (id, reg) = path.into_inner();
    let value = body.checked_in;
    on_event(&state, &user, id, move |conn, view, access, _| {
        registration::set_checked_in(conn, view, access, reg, value)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, Deserialize)]
struct DropBody {
    dropped: bool,
}

#[post("/events/{id}/players/{reg}/drop")]
async fn drop_player(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    body: web::Json<DropBody>,
) -> Result<HttpResponse, ApiError> {
    let (id, reg) = path.into_inner();
    let value = body.dropped;
    on_event(&state, &user, id, move |conn, view, access, ctx| {
        registration::set_dropped(conn, view, access, reg, value, ctx)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, Serialize)]
pub struct TableEntry {
    pub game: i64,
    pub table: Option<i32>,
    pub player_a: i64,
    pub player_b: Option<i64>,
    pub name_a: String,
    pub name_b: Option<String>,
    pub status: GameStatus,
    pub version: i32,
    pub score: Option<crate::tournament::GameScore>,
    /// The table's own setup, when it was flipped per table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<crate::setup::Setup>,
    /// The table's attacker flip, when the round shares one scenario.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sides: Option<crate::setup::TableSides>,
    /// The player (registration id) who attacks at this table, if known.
    pub attacker: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct RoundDetail {
    pub number: i32,
    pub status: RoundStatus,
    pub seed: i64,
    pub pairing: Option<rounds::StoredPairing>,
    pub tables: Vec<TableEntry>,
    pub setup: Option<crate::setup::Setup>,
    pub event_version: i32,
}

fn round_detail(
    view: &EventView,
    round: &Round,
    data: &EventData,
) -> Result<RoundDetail, EventError> {
    let table = |g: &GameRow| -> Result<TableEntry, EventError> {
        let table_setup = match g.player_b {
            Some(_) => round_setups::TableSetup::of(round, g)?,
            None => None,
        };
        let attacker = table_setup
            .as_ref()
            .and_then(round_setups::TableSetup::attacker)
            .and_then(|seat| match seat {
                crate::setup::Seat::A => Some(g.player_a),
                crate::setup::Seat::B => g.player_b,
            });
        let (setup, sides) = match table_setup {
            Some(t) if t.shared => (None, t.sides),
            Some(t) => (Some(t.setup), None),
            None => (None, None),
        };
        Ok(TableEntry {
            game: g.id,
            table: g.table_number,
            player_a: g.player_a,
            player_b: g.player_b,
            name_a: data.name_of(g.player_a).to_owned(),
            name_b: g.player_b.map(|b| data.name_of(b).to_owned()),
            status: g.status,
            version: g.version,
            score: rounds::score_of(g)
                .filter(|_| g.status.is_accepted() || g.status == GameStatus::Reported),
            setup,
            sides,
            attacker,
        })
    };
    Ok(RoundDetail {
        number: round.number,
        status: round.status,
        seed: round.seed,
        pairing: rounds::PairingRecord::of(round)?.swiss().cloned(),
        tables: data
            .games_of_round(round.id)
            .map(table)
            .collect::<Result<_, _>>()?,
        setup: round_setups::round_setup(round)?,
        event_version: view.event.version,
    })
}

#[derive(Debug, Default, Deserialize)]
struct VersionBody {
    /// The event version the caller saw; without it the current one is used.
    #[serde(default)]
    version: Option<i32>,
}

#[post("/events/{id}/rounds")]
async fn pair_round(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    body: Option<web::Json<VersionBody>>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let version = body.and_then(|b| b.version);
    let detail = on_event(&state, &user, id, move |conn, view, access, ctx| {
        let round = rounds::pair_next_round(
            conn,
            view,
            access,
            version.unwrap_or(view.event.version),
            ctx,
        )?;
        detail_after_change(events::reads::reloaded(conn, id, access.actor)?, &round)
    })
    .await?;
    Ok(HttpResponse::Created().json(detail))
}

/// A round as it stands after a change to the event: the event is read
/// again (`events::reads::reloaded`), since the change moved its version.
fn detail_after_change(
    (view, data): (EventView, EventData),
    round: &Round,
) -> Result<RoundDetail, crate::events::EventError> {
    round_detail(&view, round, &data)
}

/// Replaces a draft the optimiser could not prove optimal with one paired
/// after a longer search.
#[post("/events/{id}/rounds/{number}/search-longer")]
async fn search_longer(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    body: Option<web::Json<VersionBody>>,
) -> Result<HttpResponse, ApiError> {
    let (id, number) = path.into_inner();
    let version = body.and_then(|b| b.version);
    let detail = on_event(&state, &user, id, move |conn, view, access, ctx| {
        let round = rounds::pair_draft_again_longer(
            conn,
            view,
            access,
            number,
            version.unwrap_or(view.event.version),
            ctx,
        )?;
        detail_after_change(events::reads::reloaded(conn, id, access.actor)?, &round)
    })
    .await?;
    Ok(HttpResponse::Created().json(detail))
}

#[get("/events/{id}/rounds/{number}")]
async fn get_round(
    user: Option<ApiUser>,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (id, number) = path.into_inner();
    let actor = user.as_ref().and_then(actor);
    let cache = std::sync::Arc::clone(&state.event_data);
    let detail = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            let data = cache.load(conn, &view)?;
            let round = data
                .rounds
                .iter()
                .find(|r| r.number == number)
                .ok_or(AppError::NotFound)?;
            if round.status == RoundStatus::Draft && !access.is_staff() {
                return Err(AppError::NotFound);
            }
            Ok(round_detail(&view, round, &data)?)
        })
        .await?;
    Ok(HttpResponse::Ok().json(detail))
}

#[post("/events/{id}/rounds/{number}/publish")]
async fn publish_round(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    body: Option<web::Json<VersionBody>>,
) -> Result<HttpResponse, ApiError> {
    let (id, number) = path.into_inner();
    let version = body.and_then(|b| b.version);
    on_event(&state, &user, id, move |conn, view, access, ctx| {
        rounds::publish_round(
            conn,
            view,
            access,
            number,
            version.unwrap_or(view.event.version),
            ctx,
        )
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, Serialize)]
struct GameState {
    game: i64,
    status: GameStatus,
    version: i32,
}

#[post("/events/{id}/games/{game}/result")]
async fn report_result(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    body: web::Json<ResultInput>,
) -> Result<HttpResponse, ApiError> {
    let (id, game_id) = path.into_inner();
    let mut input = body.into_inner();
    let game = on_event(&state, &user, id, move |conn, view, access, ctx| {
        if input.version.is_none() {
            let current = events::reads::game_of_event(conn, id, game_id)?;
            input.version = Some(current.version.to_string());
        }
        results::report(conn, view, access, game_id, &input, ctx)
    })
    .await?;
    Ok(HttpResponse::Ok().json(GameState {
        game: game.id,
        status: game.status,
        version: game.version,
    }))
}

#[derive(Debug, Default, Deserialize)]
struct DecisionBody {
    #[serde(default)]
    version: Option<i32>,
    #[serde(default)]
    note: String,
}

async fn decide(
    user: ApiUser,
    state: web::Data<AppState>,
    id: i64,
    game_id: i64,
    body: DecisionBody,
    dispute: bool,
) -> Result<HttpResponse, ApiError> {
    on_event(&state, &user, id, move |conn, view, access, ctx| {
        // The version the client saw is required: without it a newer
        // report (an amended score) could be confirmed by mistake.
        let Some(version) = body.version else {
            return Err(events::EventError::invalid(
                "version",
                "Send the version of the result you are answering (the game's `version`), so a newer report is never confirmed or disputed by mistake.",
            ));
        };
        if dispute {
            results::dispute(conn, view, access, game_id, version, &body.note, ctx)
        } else {
            results::confirm(conn, view, access, game_id, version, ctx)
        }
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[post("/events/{id}/games/{game}/confirm")]
async fn confirm_result(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    body: Option<web::Json<DecisionBody>>,
) -> Result<HttpResponse, ApiError> {
    let (id, game_id) = path.into_inner();
    decide(
        user,
        state,
        id,
        game_id,
        body.map(|b| b.into_inner()).unwrap_or_default(),
        false,
    )
    .await
}

#[post("/events/{id}/games/{game}/dispute")]
async fn dispute_result(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    body: Option<web::Json<DecisionBody>>,
) -> Result<HttpResponse, ApiError> {
    let (id, game_id) = path.into_inner();
    decide(
        user,
        state,
        id,
        game_id,
        body.map(|b| b.into_inner()).unwrap_or_default(),
        true,
    )
    .await
}

#[get("/events/{id}/standings")]
async fn get_standings(
    user: Option<ApiUser>,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let actor = user.as_ref().and_then(actor);
    let cache = std::sync::Arc::clone(&state.event_data);
    let rows: std::sync::Arc<Vec<StandingRow>> = state
        .with_db(move |conn| {
            let (view, _) = events::load(conn, id, actor)?;
            Ok(cache.standings(conn, &view)?)
        })
        .await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// Reads something worked out from an event's (cached) data, as whoever
/// asks may see the event.
async fn read_event<T, F>(
    state: &web::Data<AppState>,
    user: Option<&ApiUser>,
    id: i64,
    work: F,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&EventView, &EventData) -> Result<T, events::EventError> + Send + 'static,
{
    let actor = user.and_then(actor);
    let cache = std::sync::Arc::clone(&state.event_data);
    Ok(state
        .with_db(move |conn| {
            let (view, _) = events::load(conn, id, actor)?;
            let data = cache.load(conn, &view)?;
            Ok(work(&view, &data)?)
        })
        .await?)
}

#[derive(Debug, Deserialize)]
struct CutBody {
    cut: u32,
    #[serde(default)]
    third_place: bool,
    #[serde(default)]
    tie: crate::tournament::bracket::PlayoffTie,
    #[serde(default)]
    higher_seed_chooses: bool,
    #[serde(default)]
    version: Option<i32>,
}

#[post("/events/{id}/playoffs")]
async fn make_cut(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    body: web::Json<CutBody>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let body = body.into_inner();
    let request = crate::events::playoffs::CutRequest {
        cut: body.cut,
        third_place: body.third_place,
        tie: body.tie,
        higher_seed_chooses: body.higher_seed_chooses,
    };
    let report = on_event(&state, &user, id, move |conn, view, access, ctx| {
        let version = body.version.unwrap_or(view.event.version);
        crate::events::playoffs::make_cut(conn, view, access, request, version, ctx)?;
        let data = EventData::load(conn, id)?;
        let (view, _) = events::load(conn, id, access.actor)?;
        crate::events::playoffs::report(&view, &data)
    })
    .await?;
    Ok(HttpResponse::Created().json(report))
}

#[post("/events/{id}/playoffs/undo")]
async fn undo_cut(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    body: Option<web::Json<VersionBody>>,
) -> Result<HttpResponse, ApiError> {
    let version = body.and_then(|b| b.version);
    on_event(
        &state,
        &user,
        path.into_inner(),
        move |conn, view, access, ctx| {
            let version = version.unwrap_or(view.event.version);
            crate::events::playoffs::undo_cut(conn, view, access, version, ctx)
        },
    )
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[get("/events/{id}/bracket")]
async fn get_bracket(
    user: Option<ApiUser>,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let report = read_event(&state, user.as_ref(), path.into_inner(), |view, data| {
        crate::events::playoffs::report(view, data)?.ok_or(events::EventError::NotFound)
    })
    .await?;
    Ok(HttpResponse::Ok().json(report))
}

/// A team event's teams, team standings and team matches.
#[derive(Debug, Serialize)]
struct TeamsReport {
    team_size: u32,
    member_pairing: crate::tournament::teams::MemberPairing,
    teams: Vec<TeamEntryJson>,
    standings: Vec<crate::tournament::teams::TeamStandingRow>,
    matches: Vec<TeamMatchJson>,
}

#[derive(Debug, Serialize)]
struct TeamEntryJson {
    id: i64,
    name: String,
    club: Option<String>,
    dropped: bool,
    /// Registration ids and names, in board order (the captain first).
    members: Vec<TeamMemberJson>,
}

#[derive(Debug, Serialize)]
struct TeamMemberJson {
    registration: i64,
    name: String,
    board: Option<i32>,
    captain: bool,
}

#[derive(Debug, Serialize)]
struct TeamMatchJson {
    id: i64,
    round: i32,
    match_number: i32,
    team_a: i64,
    team_b: Option<i64>,
    /// What the captains' choice waits for (absent for a bye or by rank).
    next: Option<crate::tournament::teams::NextChoice>,
    /// How many choices are made: send it back with the next one.
    step: usize,
}

fn teams_report(view: &EventView, data: &EventData) -> Result<TeamsReport, events::EventError> {
    use crate::events::teams;
    let settings = view.settings.teams.ok_or(events::EventError::NotFound)?;
    let entries = teams::teams_of(data);
    let matches = data
        .team_matches
        .iter()
        .map(|m| teams::match_state(view, data, m.id))
        .map(|state| {
            state.map(|s| TeamMatchJson {
                id: s.row.id,
                round: s.round.number,
                match_number: s.row.match_number,
                team_a: s.row.team_a,
                team_b: s.row.team_b,
                step: s.step(),
                next: s.next,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TeamsReport {
        team_size: settings.size,
        member_pairing: settings.pairing,
        standings: teams::standings(view, data),
        teams: entries
            .iter()
            .map(|t| TeamEntryJson {
                id: t.team.id,
                name: t.team.name.clone(),
                club: t.team.club.clone(),
                dropped: t.dropped(),
                members: t
                    .members
                    .iter()
                    .map(|m| TeamMemberJson {
                        registration: m.id,
                        name: m.display_name.clone(),
                        board: m.team_board,
                        captain: t.is_captain(m),
                    })
                    .collect(),
            })
            .collect(),
        matches,
    })
}

#[get("/events/{id}/teams")]
async fn get_teams(
    user: Option<ApiUser>,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let report = read_event(&state, user.as_ref(), path.into_inner(), teams_report).await?;
    Ok(HttpResponse::Ok().json(report))
}

#[derive(Debug, Deserialize)]
struct TeamBody {
    name: String,
    #[serde(default)]
    club: String,
    /// The other members in board order after the captain; at the desk,
    /// every member.
    members: Vec<String>,
    /// An organiser enters the team at the desk (no captain account).
    #[serde(default)]
    at_desk: bool,
}

#[post("/events/{id}/teams")]
async fn register_team(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    body: web::Json<TeamBody>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let body = body.into_inner();
    let report = on_event(&state, &user, id, move |conn, view, access, ctx| {
        let entry = crate::events::teams::TeamEntry {
            name: &body.name,
            club: &body.club,
            members: body.members.iter().map(String::as_str).collect(),
        };
        if body.at_desk {
            crate::events::teams::add_team_at_desk(conn, view, access, &entry, ctx)?;
        } else {
            crate::events::teams::register_team(conn, view, access, &entry, ctx)?;
        }
        let data = EventData::load(conn, id)?;
        teams_report(view, &data)
    })
    .await?;
    Ok(HttpResponse::Created().json(report))
}

#[derive(Debug, Deserialize)]
struct ChoiceBody {
    /// The number of choices the chooser saw made.
    step: usize,
    /// The registration id put forward or picked.
    pick: i64,
}

#[post("/events/{id}/matches/{match_id}/choices")]
async fn choose_in_match(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    body: web::Json<ChoiceBody>,
) -> Result<HttpResponse, ApiError> {
    let (id, match_id) = path.into_inner();
    let ChoiceBody { step, pick } = body.into_inner();
    let report = on_event(&state, &user, id, move |conn, view, access, ctx| {
        crate::events::teams::choose(conn, view, access, match_id, step, pick, ctx)?;
        let data = EventData::load(conn, id)?;
        teams_report(view, &data)
    })
    .await?;
    Ok(HttpResponse::Ok().json(report))
}
