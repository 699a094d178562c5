//! Hosted games in the JSON API (`docs/api.md`): the caller's view, their
//! commands, and the log as they may read it.

use actix_web::{HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use soulstone_engine::system::Malifaux;
use soulstone_engine::{Seat, Viewer, view};

use super::command::CommandRequest;
use super::now;
use crate::hosted::{self, HostedError, Submitted};
use crate::web::AppState;
use crate::web::error::{ApiError, AppError};
use crate::web::session::ApiUser;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(api_game)
        .service(api_command)
        .service(api_resign)
        .service(api_facts);
}

/// A game as the API shows it to the caller.
#[derive(Debug, Serialize, Deserialize)]
pub struct GameResponse {
    pub id: i64,
    pub status: String,
    /// "rules", "time" or "resignation", once over.
    pub ended_by: Option<String>,
    /// Each player's time left in milliseconds (A's first) and whose clocks
    /// run ("a", "b", "ab"); none for an untimed game.
    pub clocks: Option<ClocksJson>,
    /// The caller's seat, if they play in it.
    pub seat: Option<Seat>,
    pub view: soulstone_engine::View,
}

#[get("/games/{id}")]
async fn api_game(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let account = user.id();
    // A spectator of an event with a delay sees the game that far behind.
    let game = state
        .with_db(move |conn| {
            Ok(crate::hosted::event_games::load_for_viewer::<Malifaux>(
                conn,
                id,
                Some(account),
                now(),
            )?
            .0)
        })
        .await?;
    // As the page does: a bot turn the queue could not take is taken up.
    if game.searching_bot_due() {
        state.bot_turns.schedule(id);
    }
    let viewer = game.viewer_for(Some(account));
    let clocks = game.clocks.map(|c| ClocksJson {
        control_ms: c.control_ms,
        left_ms: c.left_at(now()),
        running: c.running_code().map(String::from),
    });
    Ok(HttpResponse::Ok().json(GameResponse {
        id,
        status: game.status.code().into(),
        ended_by: game.ended_by.map(|e| e.code().to_string()),
        clocks,
        seat: game.seat_of(account),
        view: view(&game.state, viewer),
    }))
}

#[derive(Debug, Serialize, Deserialize)]
pub struct ClocksJson {
    pub control_ms: i64,
    pub left_ms: [i64; 2],
    pub running: Option<String>,
}

/// `POST /api/v1/games/{id}/resign`: the caller gives up the game.
#[post("/games/{id}/resign")]
async fn api_resign(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let account = user.id();
    state
        .with_db(move |conn| Ok(hosted::resign(conn, id, account, now())?))
        .await?;
    state.game_updates.announce(id);
    Ok(HttpResponse::NoContent().finish())
}

/// What a command did, for the API.
#[derive(Debug, Serialize, Deserialize)]
pub struct CommandResponse {
    pub version: u64,
    /// True when this key was applied before (nothing new happened).
    pub repeated: bool,
    /// The facts it added, as the caller may see them.
    pub facts: Vec<serde_json::Value>,
}

/// The answer to a command sent at a version the game has left.
#[derive(Debug, Serialize)]
struct MovedOnResponse {
    error: &'static str,
    message: String,
    /// The game's version now.
    version: u64,
    /// The game now, as the caller may see it.
    view: soulstone_engine::View,
}

#[post("/games/{id}/commands")]
async fn api_command(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let account = user.id();
    if !state
        .play_limits
        .allow_command(&super::limits::key_of(Some(account), ""))
    {
        return Err(AppError::TooManyRequests.into());
    }
    let request =
        CommandRequest::from_json(&body).map_err(|e| AppError::bad_request(e.to_string()))?;
    let outcome = state
        .with_db(move |conn| {
            let submitted = hosted::submit::<Malifaux>(
                conn,
                id,
                account,
                request.version,
                &request.idempotency_key,
                request.command,
                now(),
            );
            match submitted {
                Ok(submitted) => {
                    let seat = hosted::seat_in(conn, id, account)?;
                    Ok(Ok((submitted, seat)))
                }
                // The sender is behind: the game as it is now comes with
                // the refusal, so a client need not ask again.
                Err(moved @ HostedError::MovedOn { .. }) => {
                    let game = hosted::load::<Malifaux>(conn, id)?;
                    let current = view(&game.state, game.viewer_for(Some(account)));
                    Ok(Err((moved.to_string(), current)))
                }
                Err(other) => Err(other.into()),
            }
        })
        .await?;
    let (submitted, seat) = match outcome {
        Ok(done) => done,
        Err((message, current)) => {
            return Ok(HttpResponse::Conflict().json(MovedOnResponse {
                error: "conflict",
                message,
                version: current.version,
                view: current,
            }));
        }
    };
    if let Submitted::Applied {
        version,
        bot_to_move,
        ..
    } = &submitted
    {
        state.game_updates.announce_at(id, *version);
        if *bot_to_move {
            state.bot_turns.schedule(id);
        }
    }
    let viewer = seat.map_or(Viewer::Spectator, Viewer::Player);
    Ok(HttpResponse::Ok().json(match submitted {
        Submitted::Applied { version, facts, .. } => CommandResponse {
            version,
            repeated: false,
            facts: facts.iter().map(|f| f.for_viewer(viewer)).collect(),
        },
        Submitted::Repeated { version } => CommandResponse {
            version,
            repeated: true,
            facts: Vec::new(),
        },
    }))
}

#[derive(Debug, Deserialize)]
pub struct FactsQuery {
    #[serde(default)]
    pub after: u64,
}

/// One fact of the log as the caller may see it.
#[derive(Debug, Serialize, Deserialize)]
pub struct NumberedFact {
    pub seq: u64,
    pub fact: serde_json::Value,
}

#[get("/games/{id}/facts")]
async fn api_facts(
    user: ApiUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<FactsQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let after = query.after;
    let account = user.id();
    let (viewer, facts) = state
        .with_db(move |conn| {
            let (game, watching) = crate::hosted::event_games::load_for_viewer::<Malifaux>(
                conn,
                id,
                Some(account),
                now(),
            )?;
            let facts = match watching {
                crate::hosted::event_games::Watching::Delayed(delay) => {
                    hosted::facts_written_by::<Malifaux>(conn, id, after, now() - delay)?.0
                }
                _ => hosted::facts_after::<Malifaux>(conn, id, after)?,
            };
            Ok((game.viewer_for(Some(account)), facts))
        })
        .await?;
    let facts: Vec<NumberedFact> = facts
        .into_iter()
        .map(|(seq, fact)| NumberedFact {
            seq,
            fact: fact.for_viewer(viewer),
        })
        .collect();
    Ok(HttpResponse::Ok().json(facts))
}
