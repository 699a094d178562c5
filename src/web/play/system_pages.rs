//! What each game system's own page does alike (Mage Knight's, the 1st
//! edition's): the opponent a practice game draws, sending a command from
//! the page's forms, the moved-on notices its script listens to, and the
//! finished log's download.

use actix_web::{HttpRequest, HttpResponse, web};
use soulstone_engine::system::TableGame;

use super::now;
use crate::db::DbConnection;
use crate::hosted::{self, HostedError, Submitted};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::download;

/// A ready list for the bot, drawn from those other than the player's.
pub(super) fn other_than(names: &[&str], chosen: &str) -> String {
    use rand::Rng;
    let others: Vec<&str> = names.iter().copied().filter(|n| *n != chosen).collect();
    others
        .get(rand::rng().random_range(0..others.len().max(1)))
        .map_or_else(|| chosen.to_owned(), |name| (*name).to_owned())
}

/// Sends the command `make` gives (it may read the game first) for
/// `account`, at the version and key its form was made with, and goes
/// back to the page `here`: the live pages hear of it, and a searching
/// bot whose turn it now is starts thinking.
pub(super) async fn send_command<G: TableGame>(
    state: &web::Data<AppState>,
    account: i64,
    id: i64,
    (version, key): (u64, String),
    here: String,
    make: impl FnOnce(&mut DbConnection) -> Result<G::Command, HostedError> + Send + 'static,
) -> Result<HttpResponse, AppError> {
    if !state
        .play_limits
        .allow_command(&super::limits::key_of(Some(account), ""))
    {
        return Err(AppError::TooManyRequests);
    }
    let submitted = state
        .with_db(move |conn| {
            let command = make(conn)?;
            Ok(hosted::submit::<G>(
                conn,
                id,
                account,
                version,
                &key,
                command,
                now(),
            ))
        })
        .await?;
    if let Ok(Submitted::Applied {
        version,
        bot_to_move,
        ..
    }) = &submitted
    {
        state.game_updates.announce_at(id, *version);
        if *bot_to_move {
            state.bot_turns.schedule(id);
        }
    }
    super::back_to_game(state, here, submitted.map(|_| ()))
}

/// Notices that game `id` moved on, for its page's script: only for a
/// game of `G` its viewer may watch. A searching bot's turn left undone
/// is taken up.
pub(super) async fn moved_notices<G: TableGame>(
    req: &HttpRequest,
    account: Option<i64>,
    state: &web::Data<AppState>,
    id: i64,
) -> Result<HttpResponse, AppError> {
    let address = crate::web::client::client_address(req, state);
    let slot = state
        .play_limits
        .open_stream(super::limits::key_of(account, &address))
        .ok_or(AppError::TooManyRequests)?;
    let bot_due = state
        .with_db(move |conn| {
            let (game, _) = hosted::event_games::load_for_viewer::<G>(conn, id, account, now())?;
            Ok(game.searching_bot_due())
        })
        .await?;
    if bot_due {
        state.bot_turns.schedule(id);
    }
    Ok(super::live::moved_notices(state, id, slot))
}

/// A finished game's log (JSON) as `{stem}-{id}.json`, for `soulstone
/// game verify`.
pub(super) async fn log_download<G: TableGame>(
    state: &web::Data<AppState>,
    id: i64,
    stem: &str,
) -> Result<HttpResponse, AppError> {
    let json = state
        .with_db(move |conn| {
            let log = hosted::finished_log::<G>(conn, id)?;
            serde_json::to_string(&log).map_err(|e| AppError::internal(e.to_string()))
        })
        .await?;
    Ok(download(
        "application/json",
        &format!("{stem}-{id}.json"),
        json,
    ))
}
