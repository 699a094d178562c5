//! Round pages: pairing, reviewing and publishing a round, its setup, the
//! projector view with the round clock, and printable result sheets.

use crate::events::{GameStatus, RoundStatus};
use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use serde::Deserialize;

use super::{actor_of, event_path};
use crate::events::registration::Declared;
use crate::events::rounds::{self, EventData, StoredPairing, score_of};
use crate::events::{self, Access, EventError, EventView};
use crate::events::{GameRow, Round};
use crate::events::{round_clock, round_setups};
use crate::hosted::event_games::{self, LiveScore};
use crate::setup::{Seat, SeatNames};
use crate::tournament::GameScore;
use crate::tournament::pairing::RoundPairing;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::page_cache::{self, KeptRound, RoundLookup};
use crate::web::session::{CsrfForm, CurrentUser, MaybeUser, NoFields};
use crate::web::setup::SetupView;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(pair_next)
        .service(import_round)
        .service(round_page)
        .service(swap)
        .service(publish)
        .service(delete_draft)
        .service(search_longer)
        .service(generate_setup)
        .service(start_clock)
        .service(play_digitally)
        .service(play_table_digitally)
        .service(projector)
        .service(sheets);
}

fn round_path(id: i64, number: i32) -> String {
    format!("/events/{id}/rounds/{number}")
}

#[derive(Debug, Deserialize)]
struct VersionForm {
    #[serde(default)]
    version: String,
}

pub(super) fn version_of(raw: &str) -> Result<i32, AppError> {
    raw.trim()
        .parse()
        .map_err(|_| AppError::bad_request("The form is missing its version; reload the page."))
}

/// Runs a round action; conflicts and invalid input come back as a flash.
pub(super) async fn act<F>(
    state: &web::Data<AppState>,
    user: &CurrentUser,
    id: i64,
    back: String,
    success: String,
    work: F,
) -> Result<HttpResponse, AppError>
where
    F: crate::web::EventWork<Option<String>>,
{
    let outcome = state.with_event(id, actor_of(Some(user)), work).await?;
    Ok(match outcome {
        Ok(target) => {
            redirect_with_flash(state, &target.unwrap_or(back), FlashLevel::Success, success)
        }
        Err(
            err @ (EventError::Invalid(_)
            | EventError::Conflict(_)
            | EventError::Pairing(_)
            | EventError::Setup(_)),
        ) => redirect_with_flash(state, &back, FlashLevel::Error, err.for_people()),
        Err(err) => return Err(err.into()),
    })
}

#[post("/events/{id}/rounds")]
async fn pair_next(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<VersionForm>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let version = version_of(&form.version)?;
    act(
        &state,
        &user,
        id,
        event_path(id),
        "Draft pairings are ready: check them, then publish.".into(),
        move |conn, view, access, ctx| {
            let round = rounds::pair_next_round(conn, view, access, version, ctx)?;
            Ok(Some(round_path(id, round.number)))
        },
    )
    .await
}

#[derive(Debug, Deserialize)]
struct ImportForm {
    #[serde(default)]
    version: String,
    #[serde(default)]
    pairing: String,
}

/// A round paired offline with `soulstone pair`, pasted back in.
#[post("/events/{id}/rounds/import")]
async fn import_round(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<ImportForm>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let version = version_of(&form.version)?;
    let text = form.0.pairing;
    act(
        &state,
        &user,
        id,
        event_path(id),
        "The round is imported as a draft.".into(),
        move |conn, view, access, ctx| {
            access.require_staff()?;
            let pairing: RoundPairing = serde_json::from_str(&text).map_err(|err| {
                EventError::invalid(
                    "pairing",
                    format!("The pairing file could not be read: {err}"),
                )
            })?;
            let round = rounds::import_round(conn, view, access, &pairing, version, ctx)?;
            Ok(Some(round_path(id, round.number)))
        },
    )
    .await
}

/// One table of a round, ready for display.
pub struct TableRow {
    pub game: GameRow,
    pub table: String,
    pub a: String,
    pub b: String,
    pub score: String,
    pub status: GameStatus,
    /// The table's setup in full, naming its players.
    pub setup: Option<SetupView>,
    /// The same in one line ("Attacker: Dana Reyes · …").
    pub setup_line: String,
    /// Who attacks at this table, where that is known.
    pub attacker: Option<Seat>,
    /// Each player's faction and leader, once lists may be seen.
    pub a_declared: Option<String>,
    pub b_declared: Option<String>,
}

impl TableRow {
    pub fn a_attacks(&self) -> bool {
        self.attacker == Some(Seat::A)
    }

    pub fn b_attacks(&self) -> bool {
        self.attacker == Some(Seat::B)
    }

    fn of(
        data: &EventData,
        round: &Round,
        game: &GameRow,
        show_lists: bool,
    ) -> Result<Self, EventError> {
        let score = match score_of(game) {
            Some(GameScore::Malifaux { a_vp, b_vp }) => format!("{a_vp} – {b_vp}"),
            Some(GameScore::MageKnight {
                a_objectives,
                b_objectives,
                ..
            }) => format!("{a_objectives} – {b_objectives} obj."),
            None => String::new(),
        };
        let a = data.name_of(game.player_a).to_owned();
        let b = game
            .player_b
            .map(|b| data.name_of(b).to_owned())
            .unwrap_or_else(|| "BYE".into());
        let names = SeatNames::new(a.clone(), b.clone());
        let table_setup = match game.player_b {
            Some(_) => round_setups::TableSetup::of(round, game)?,
            None => None,
        };
        let attacker = table_setup
            .as_ref()
            .and_then(round_setups::TableSetup::attacker);
        let declared = |id: i64| {
            data.registration(id)
                .filter(|_| show_lists)
                .and_then(|r| Declared::of(r).label())
        };
        Ok(Self {
            table: game
                .table_number
                .map(|t| t.to_string())
                .unwrap_or_else(|| "–".into()),
            setup: table_setup
                .as_ref()
                .filter(|t| !t.shared)
                .map(|t| SetupView::for_table(t, &names)),
            setup_line: table_setup
                .as_ref()
                .map(|t| round_setups::setup_summary(t, &names))
                .unwrap_or_default(),
            attacker,
            a_declared: declared(game.player_a),
            b_declared: game.player_b.and_then(declared),
            a,
            b,
            score,
            status: game.status,
            game: game.clone(),
        })
    }
}

#[derive(Template)]
#[template(path = "events/round.html")]
struct RoundPage {
    ctx: PageContext,
    view: EventView,
    access: Access,
    round: Round,
    tables: Vec<TableRow>,
    players: Vec<(i64, String)>,
    warnings: Vec<String>,
    pairing: Option<StoredPairing>,
    /// A playoff round's name in the bracket.
    playoff_name: Option<String>,
    /// The scenario every table shares, if the round has one.
    setup: Option<SetupView>,
    /// Setups the round had before (flipped again before publishing).
    setup_history: Vec<round_setups::ReplacedSetup>,
    seconds_left: Option<i64>,
    /// Rendered to be kept: the clock is written in at each request.
    clock_to_be_written_in: bool,
    my_game: Option<i64>,
    /// The signed-in player sits this round out (odd player count).
    my_bye: bool,
    missing_results: usize,
    /// The round's pairings played in the browser.
    digital: Vec<i64>,
    /// The event's rounds this viewer may open (number, label), for the
    /// tabs between them.
    round_tabs: Vec<(i32, String)>,
    /// For the organisers: what could still move to the browser, and what
    /// stays at a table.
    movability: crate::hosted::event_games::RoundMovability,
    /// Their games' scores so far, where the viewer may see them live.
    live: Vec<LiveScore>,
    /// The pool's names, for entering an announced scenario (draft rounds).
    announce: Option<super::scenarios::AnnounceChoices>,
    /// Team matches whose captains have not chosen yet: setups per table
    /// wait for games that do not exist.
    still_choosing: usize,
    /// A team round's solver answer for the teams, and its team matches:
    /// (match id, number, team A, team B or "bye", where it stands).
    team_pairing: Option<StoredPairing>,
    matches: Vec<(i64, i32, String, String, &'static str)>,
}

impl RoundPage {
    /// "Round 3", or "Semifinals (round 5)" in the playoff.
    fn heading(&self) -> String {
        match &self.playoff_name {
            Some(name) => format!("{name} (round {})", self.round.number),
            None => format!("Round {}", self.round.number),
        }
    }

    fn is_digital(&self, game_id: i64) -> bool {
        self.digital.contains(&game_id)
    }

    /// The signed-in player's game is played in the browser.
    fn my_game_is_digital(&self) -> bool {
        self.my_game.is_some_and(|game| self.is_digital(game))
    }

    /// "live: turn 2, 3–1" for a game under way in the browser.
    fn live_of(&self, game_id: &i64) -> Option<String> {
        live_words(&self.live, *game_id)
    }

    /// The organisers may still have some of this round played in the
    /// browser (published, results to come).
    fn may_go_digital(&self) -> bool {
        self.round.status != RoundStatus::Draft && self.movability.movable > 0
    }

    fn clock(&self) -> String {
        if self.clock_to_be_written_in {
            return page_cache::CLOCK_MARK.to_owned();
        }
        clock_text(self.seconds_left)
    }

    fn is_mine(&self, game_id: &i64) -> bool {
        self.my_game == Some(*game_id)
    }
}

/// A game under way in the browser, in words: "live: turn 2, 3–1".
fn live_words(live: &[LiveScore], game_id: i64) -> Option<String> {
    let score = live
        .iter()
        .find(|l| l.pairing_game_id == game_id && !l.finished)?;
    let vp = score
        .vp
        .map(|[a, b]| format!(", {a}–{b}"))
        .unwrap_or_default();
    Some(match score.turn {
        Some(turn) if turn > 0 => format!("live: turn {turn}{vp}"),
        _ => "live: setting up".into(),
    })
}

fn clock_text(seconds: Option<i64>) -> String {
    match seconds {
        None => "not started".into(),
        Some(s) if s <= 0 => "time is up".into(),
        Some(s) => format!("{}:{:02}", s / 60, s % 60),
    }
}

async fn load_round(
    state: &web::Data<AppState>,
    id: i64,
    number: i32,
    actor: Option<crate::events::Actor>,
) -> Result<(EventView, Access, Round, std::sync::Arc<EventData>), AppError> {
    let cache = std::sync::Arc::clone(&state.event_data);
    state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            let data = cache.load(conn, &view)?;
            let round = data
                .rounds
                .iter()
                .find(|r| r.number == number)
                .cloned()
                .ok_or(EventError::NotFound)?;
            // Draft pairings are for the staff's eyes only.
            if round.status == RoundStatus::Draft && !access.is_staff() {
                return Err(EventError::NotFound.into());
            }
            Ok((view, access, round, data))
        })
        .await
}

#[get("/events/{id}/rounds/{number}")]
async fn round_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    // Visitors without a session see no form here: one kept page for all.
    let shared = ctx.is_shared();
    let mut kept_under = None;
    if shared {
        match page_cache::current_round(&state, id, number).await? {
            Some(RoundLookup::Kept(kept)) => {
                let now = chrono::Utc::now().naive_utc();
                return Ok(kept.response(&clock_text(kept.seconds_left(now))));
            }
            Some(RoundLookup::Render(key)) => kept_under = Some(key),
            None => {}
        }
    }
    let (view, access, round, data) =
        load_round(&state, id, number, actor_of(user.0.as_deref())).await?;
    let show_lists = crate::events::registration::can_see_lists(&view, &access);
    let tables: Vec<TableRow> = data
        .games_of_round(round.id)
        .map(|g| TableRow::of(&data, &round, g, show_lists))
        .collect::<Result<_, _>>()?;
    let warnings = rounds::pairing_warnings(&view, &data, &round)?;
    let mut players: Vec<(i64, String)> = tables
        .iter()
        .flat_map(|t| std::iter::once(t.game.player_a).chain(t.game.player_b))
        .map(|pid| (pid, data.name_of(pid).to_owned()))
        .collect();
    players.sort_by(|a, b| a.1.cmp(&b.1));
    let my_table = access.registration.as_ref().and_then(|r| {
        tables
            .iter()
            .find(|t| t.game.player_a == r.id || t.game.player_b == Some(r.id))
    });
    // A bye has nothing to report, so it gets a note instead of the report button.
    let my_bye = my_table.is_some_and(|t| t.game.player_b.is_none());
    let my_game = my_table.filter(|_| !my_bye).map(|t| t.game.id);
    let missing_results = tables.iter().filter(|t| !t.status.is_accepted()).count();
    let round_tabs = data
        .rounds
        .iter()
        .filter(|r| r.status != RoundStatus::Draft || access.is_staff())
        .map(|r| {
            let label = crate::events::playoffs::playoff_name(r)?
                .unwrap_or_else(|| format!("Round {}", r.number));
            Ok((r.number, label))
        })
        .collect::<Result<_, EventError>>()?;
    let ids: Vec<i64> = tables.iter().map(|t| t.game.id).collect();
    let wants_pool = access.is_staff()
        && round.status == RoundStatus::Draft
        && view.system.shares_round_scenarios();
    let view_for_pool = view.clone();
    // Spectators of an event with a delay see no live scores.
    let live_for_all = view.settings.digital.spectator_delay_minutes == 0 || access.is_staff();
    let wants_movability = access.is_staff() && round.status != RoundStatus::Draft;
    let round_games: Vec<GameRow> = if wants_movability {
        tables.iter().map(|t| t.game.clone()).collect()
    } else {
        Vec::new()
    };
    let wants_live_key = kept_under.is_some();
    let round_game_ids = ids.clone();
    let (live_key, digital, pool, live, movability) = state
        .with_db(move |conn| {
            // Read before what it stands for: a change in between makes
            // the kept page look stale, never the other way round.
            let live_key = if wants_live_key {
                Some(event_games::live_key(conn, &ids)?)
            } else {
                None
            };
            let digital = event_games::digital_among(conn, &ids)?;
            let movability = event_games::round_movability(conn, &round_games, &digital)?;
            // A page to be kept shows the scores its key was read with.
            let live = match &live_key {
                _ if !live_for_all => Vec::new(),
                Some(key) => key.games.clone(),
                None => event_games::live_scores(conn, &ids)?,
            };
            let pool = if wants_pool {
                crate::events::round_setups::event_pool(conn, &view_for_pool)?
            } else {
                None
            };
            Ok((live_key, digital, pool, live, movability))
        })
        .await?;
    let announce = pool
        .as_ref()
        .map(|pool| super::scenarios::AnnounceChoices::of(&view, pool));
    let pairing_record = rounds::PairingRecord::of(&round)?;
    let team_pairing = match &pairing_record {
        rounds::PairingRecord::Team(team) => Some(team.teams.clone()),
        rounds::PairingRecord::Playoff(_) | rounds::PairingRecord::Swiss(_) => None,
    };
    let matches = crate::events::teams::matches_of_round(&view, &data, &round)
        .into_iter()
        .map(|m| {
            let standing = match (&m.next, &m.team_b) {
                (_, None) => "bye",
                (Some(crate::tournament::teams::NextChoice::Done { .. }) | None, _) => "paired",
                (Some(_), _) if round.status == RoundStatus::Draft => {
                    "captains choose once published"
                }
                (Some(_), _) => "captains choosing",
            };
            (
                m.row.id,
                m.row.match_number,
                m.team_a.team.name.clone(),
                m.team_b.map_or_else(|| "bye".to_owned(), |t| t.team.name),
                standing,
            )
        })
        .collect();
    let clock_ends_at = round_clock::clock_ends_at(&view, &round);
    let page = RoundPage {
        ctx: if shared { ctx.shared() } else { ctx.clone() },
        clock_to_be_written_in: kept_under.is_some(),
        still_choosing: data.matches_still_choosing(round.id),
        team_pairing,
        matches,
        pairing: pairing_record.swiss().cloned(),
        playoff_name: pairing_record.playoff_name().map(str::to_owned),
        setup: round_setups::round_setup(&round)?.map(|s| SetupView::shared(&s)),
        setup_history: round_setups::setup_history(&round)?,
        seconds_left: round_clock::seconds_left(&view, &round, chrono::Utc::now().naive_utc()),
        view,
        access,
        round,
        tables,
        players,
        warnings,
        my_game,
        my_bye,
        missing_results,
        digital,
        movability,
        round_tabs,
        live,
        announce,
    };
    let Some(key) = kept_under else {
        return render_page(&ctx, &page);
    };
    let body = page.render()?;
    let Some(kept) = KeptRound::new(&body, clock_ends_at, round_game_ids, live_key) else {
        // Not one clock on the page: sent as it is, not kept.
        let clock = clock_text(round_clock::seconds_left(
            &page.view,
            &page.round,
            chrono::Utc::now().naive_utc(),
        ));
        return Ok(HttpResponse::Ok()
            .content_type(actix_web::http::header::ContentType::html())
            .body(body.replace(page_cache::CLOCK_MARK, &clock)));
    };
    let response = kept.response(&clock_text(
        kept.seconds_left(chrono::Utc::now().naive_utc()),
    ));
    state.public_pages.put_round(id, number, key, kept);
    Ok(response)
}

#[derive(Debug, Deserialize)]
struct SwapForm {
    #[serde(default)]
    version: String,
    #[serde(default)]
    first: String,
    #[serde(default)]
    second: String,
}

#[post("/events/{id}/rounds/{number}/swap")]
async fn swap(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<SwapForm>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let version = version_of(&form.version)?;
    let parse = |raw: &str| {
        raw.trim()
            .parse::<i64>()
            .map_err(|_| AppError::bad_request("Choose two players to swap."))
    };
    let (x, y) = (parse(&form.first)?, parse(&form.second)?);
    act(
        &state,
        &user,
        id,
        round_path(id, number),
        "Players swapped. Check the warnings before publishing.".into(),
        move |conn, view, access, ctx| {
            rounds::swap_players(conn, view, access, number, (x, y), version, ctx)?;
            Ok(None)
        },
    )
    .await
}

#[post("/events/{id}/rounds/{number}/publish")]
async fn publish(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<VersionForm>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let version = version_of(&form.version)?;
    let result = act(
        &state,
        &user,
        id,
        round_path(id, number),
        format!("Round {number} is published and every player has been mailed."),
        move |conn, view, access, ctx| {
            rounds::publish_round(conn, view, access, number, version, ctx)?;
            Ok(None)
        },
    )
    .await;
    state.mail_queued();
    result
}

#[post("/events/{id}/rounds/{number}/delete")]
async fn delete_draft(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<VersionForm>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let version = version_of(&form.version)?;
    act(
        &state,
        &user,
        id,
        round_path(id, number),
        format!("Draft round {number} is deleted."),
        move |conn, view, access, ctx| {
            rounds::delete_draft_round(conn, view, access, number, version, ctx)?;
            Ok(Some(event_path(id)))
        },
    )
    .await
}

/// An unproven draft paired again after a longer search.
#[post("/events/{id}/rounds/{number}/search-longer")]
async fn search_longer(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<VersionForm>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let version = version_of(&form.version)?;
    act(
        &state,
        &user,
        id,
        round_path(id, number),
        format!("Round {number} is paired again after a longer search: check it, then publish."),
        move |conn, view, access, ctx| {
            let round = rounds::pair_draft_again_longer(conn, view, access, number, version, ctx)?;
            Ok(Some(round_path(id, round.number)))
        },
    )
    .await
}

#[derive(Debug, Deserialize)]
struct SetupForm {
    #[serde(default)]
    per_table: String,
}

#[post("/events/{id}/rounds/{number}/setup")]
async fn generate_setup(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    form: CsrfForm<SetupForm>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let per_table = form.per_table == "true";
    let message = if per_table {
        "A setup is flipped for every table."
    } else {
        "The round's setup is flipped."
    };
    act(
        &state,
        &user,
        id,
        round_path(id, number),
        message.into(),
        move |conn, view, access, ctx| {
            round_setups::generate_setup(conn, view, access, number, per_table, ctx)?;
            Ok(None)
        },
    )
    .await
}

#[post("/events/{id}/rounds/{number}/digital")]
async fn play_digitally(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    act(
        &state,
        &user,
        id,
        round_path(id, number),
        "These games are played in the browser: each player brings their crews or army from the game's page, and the result reports itself.".into(),
        move |conn, view, access, ctx| {
            let (marked, skipped) =
                crate::hosted::event_games::play_round_digitally(conn, view, access, number, ctx)?;
            if marked == 0 && skipped > 0 {
                return Err(EventError::Conflict(format!(
                    "No game could be moved to the browser: {skipped} have a player without an account."
                )));
            }
            Ok(None)
        },
    )
    .await
}

/// Has one table of a published round played in the browser.
#[post("/events/{id}/games/{game}/digital")]
async fn play_table_digitally(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let (id, game) = path.into_inner();
    let number = state
        .with_db(move |conn| {
            let game = crate::events::reads::game_of_event(conn, id, game)?;
            let data = EventData::load(conn, id)?;
            Ok(data.round_number_of(&game).unwrap_or(1))
        })
        .await?;
    act(
        &state,
        &user,
        id,
        round_path(id, number),
        "This table is played in the browser: each player brings their crews or army from its page.".into(),
        move |conn, view, access, ctx| {
            crate::hosted::event_games::play_game_digitally(conn, view, access, game, ctx)?;
            Ok(None)
        },
    )
    .await
}

#[post("/events/{id}/rounds/{number}/clock")]
async fn start_clock(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    act(
        &state,
        &user,
        id,
        round_path(id, number),
        "The round clock is running.".into(),
        move |conn, view, access, ctx| {
            round_clock::start_clock(conn, view, access, number, ctx)?;
            Ok(None)
        },
    )
    .await
}

#[derive(Template)]
#[template(path = "events/projector.html")]
struct ProjectorPage {
    ctx: PageContext,
    view: EventView,
    round: Round,
    /// One line per player, sorted by name, so each finds their own.
    seats: Vec<ProjectorSeat>,
    clock: String,
    /// Seconds left when the page was made, for the script that counts down.
    seconds_left: Option<i64>,
    /// The scenario every table shares, in one line.
    scenario: Option<String>,
    /// Tables flipped setups of their own (shown on their sheets and pages).
    per_table_setups: bool,
    /// For an organiser's screen: the link that opens sign-up to the room.
    venue_signup: Option<String>,
}

/// A player's line on the projector.
struct ProjectorSeat {
    name: String,
    table: String,
    opponent: String,
    /// "attacker", "defender" or empty.
    role: &'static str,
    /// A game under way in the browser: its score so far.
    live: Option<String>,
}

/// Large print for a screen at the venue: every player's table on one
/// 1080p screen (in columns), the scenario, and the round clock, which a
/// small script counts down; the page refreshes itself every 20 seconds,
/// so without scripts the clock and late changes still show up.
#[get("/events/{id}/rounds/{number}/projector")]
async fn projector(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let (view, access, round, data) =
        load_round(&state, id, number, actor_of(user.0.as_deref())).await?;
    let venue_signup = super::venue_signup_link(&state, &view, &access);
    let tables: Vec<TableRow> = data
        .games_of_round(round.id)
        .map(|g| TableRow::of(&data, &round, g, view.event.lists_published))
        .collect::<Result<_, _>>()?;
    // The projector is public: live scores only when spectators watch live.
    let live = if view.settings.digital.spectator_delay_minutes == 0 {
        let ids: Vec<i64> = tables.iter().map(|t| t.game.id).collect();
        state
            .with_db(move |conn| Ok(event_games::live_scores(conn, &ids)?))
            .await?
    } else {
        Vec::new()
    };
    let mut seats = Vec::with_capacity(tables.len() * 2);
    for t in &tables {
        let role = |attacks: bool| match t.attacker {
            None => "",
            Some(_) if attacks => "attacker",
            Some(_) => "defender",
        };
        seats.push(ProjectorSeat {
            name: t.a.clone(),
            table: t.table.clone(),
            opponent: t.b.clone(),
            role: role(t.a_attacks()),
            live: live_words(&live, t.game.id),
        });
        if t.game.player_b.is_some() {
            seats.push(ProjectorSeat {
                name: t.b.clone(),
                table: t.table.clone(),
                opponent: t.a.clone(),
                role: role(t.b_attacks()),
                live: live_words(&live, t.game.id),
            });
        }
    }
    seats.sort_by_cached_key(|s| s.name.to_lowercase());
    let seconds_left = round_clock::seconds_left(&view, &round, chrono::Utc::now().naive_utc());
    let scenario = round_setups::round_setup(&round)?
        .map(|s| round_setups::scenario_summary(&s, &SeatNames::default()));
    let per_table_setups = tables.iter().any(|t| t.setup.is_some());
    render_page(
        &ctx,
        &ProjectorPage {
            ctx: ctx.clone(),
            view,
            round,
            seats,
            clock: clock_text(seconds_left),
            seconds_left,
            scenario,
            per_table_setups,
            venue_signup,
        },
    )
}

#[derive(Template)]
#[template(path = "events/sheets.html")]
struct SheetsPage {
    ctx: PageContext,
    view: EventView,
    round: Round,
    tables: Vec<TableRow>,
    strategy_max: i32,
    scheme_max: i32,
    /// The site's public address: a sheet is read away from any screen.
    base_url: String,
}

/// One printable result sheet per table.
#[get("/events/{id}/rounds/{number}/sheets")]
async fn sheets(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> Result<HttpResponse, AppError> {
    let (id, number) = path.into_inner();
    let (view, access, round, data) = load_round(&state, id, number, actor_of(Some(&user))).await?;
    access.require_staff()?;
    let tables = data
        .games_of_round(round.id)
        .filter(|g| g.player_b.is_some())
        .map(|g| TableRow::of(&data, &round, g, true))
        .collect::<Result<_, EventError>>()?;
    let (strategy_max, scheme_max) = crate::events::results::vp_limits(view.system);
    render_page(
        &ctx,
        &SheetsPage {
            ctx: ctx.clone(),
            view,
            round,
            tables,
            strategy_max,
            scheme_max,
            base_url: state.settings.base_url.clone(),
        },
    )
}
