//! `POST /games/{id}/preview`: the game page's form, put to the rules
//! without being sent. The page's script asks while a player lays a path
//! or picks a point on the table, and draws the answer (the ruler turns
//! red with the refusal's words). The form is read exactly as a command
//! is, and the engine answers with the same `decide` on the same state,
//! so the preview and the command cannot disagree. It changes nothing,
//! and it answers only for points and paths: a preview of a duel's step
//! would run the flips that follow and is no one's business before then.

use actix_web::{HttpResponse, post, web};
use serde::Serialize;
use soulstone_engine::system::Malifaux;

use super::command::command_from_form;
use super::limits;
use crate::hosted::{self, HostedError};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::session::{CsrfForm, CurrentUser};

/// The form kinds a preview answers for: a point or a path on the table.
const PREVIEWED: [&str; 9] = [
    "deploy",
    "walk",
    "charge",
    "move",
    "place",
    "drop_blast",
    "summon",
    "scheme_marker",
    "plant_explosives",
];

#[derive(Debug, Serialize)]
struct PreviewReply {
    legal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// The game moved on since the page was drawn: reload it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stale: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<soulstone_engine::preview::PathMeasure>,
}

impl PreviewReply {
    fn refused(reason: impl Into<String>) -> Self {
        Self {
            legal: false,
            reason: Some(reason.into()),
            stale: false,
            path: None,
        }
    }
}

#[post("/games/{id}/preview")]
pub(super) async fn post_preview(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let account = user.id();
    // A preview is cheaper than a command but not free: the page asks a
    // few times a second while a path is laid, within the same allowance.
    if !state
        .play_limits
        .allow_command(&limits::key_of(Some(account), "preview"))
    {
        return Err(AppError::TooManyRequests);
    }
    let fields = form.0;
    let field = |name: &str| super::form_field(&fields, name);
    let kind = field("kind").to_string();
    if !PREVIEWED.contains(&kind.as_str()) {
        return Err(AppError::bad_request(format!(
            "{kind:?} is not a point or a path: only those are previewed"
        )));
    }
    let version: Option<u64> = field("version").parse().ok();
    let reply = state
        .with_db(move |conn| {
            let game = hosted::load::<Malifaux>(conn, id)?;
            let seat = game.seat_of(account).ok_or(HostedError::NotAPlayer)?;
            if Some(game.state.version) != version {
                return Ok(PreviewReply {
                    stale: true,
                    ..PreviewReply::refused("the game has moved on: reload the page")
                });
            }
            let command = match command_from_form(&fields, &game.state, seat) {
                Ok(command) => command,
                Err(problem) => return Ok(PreviewReply::refused(problem)),
            };
            let seen = soulstone_engine::preview::preview(&game.state, seat, &command);
            Ok(PreviewReply {
                legal: seen.legal,
                reason: seen.reason,
                stale: false,
                path: seen.path,
            })
        })
        .await?;
    Ok(HttpResponse::Ok().json(reply))
}
