//! A game's page: report a result, confirm or dispute it, and (organisers)
//! enter or correct it; its full history. League open play records games here.

use crate::events::{GameStatus, RegistrationStatus, RoundStatus};
use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use serde::Deserialize;

use super::{actor_of, ctx_of, form_errors, service_ctx};
use crate::events::results::{self, MAGE_KNIGHT_OBJECTIVES, ResultInput, vp_limits};
use crate::events::rounds::EventData;
use crate::events::{self, Access, EventError, EventView};
use crate::events::{Declaration, GameRow, Registration, ResultChange};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::forms::{FormErrors, render_invalid};
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, MaybeUser};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(new_open_game_page)
        .service(record_open_game)
        .service(game_page)
        .service(report)
        .service(confirm)
        .service(dispute);
}

fn game_path(id: i64, game: i64) -> String {
    format!("/events/{id}/games/{game}")
}

fn opt(v: Option<i32>) -> Option<String> {
    v.map(|v| v.to_string())
}

/// The form prefilled with the game's current result and declarations.
fn prefill(game: &GameRow, declarations: &[Declaration]) -> ResultInput {
    let declared = |reg: Option<i64>| declarations.iter().find(|d| Some(d.registration_id) == reg);
    let a = declared(Some(game.player_a));
    let b = declared(game.player_b);
    ResultInput {
        a_strategy_vp: opt(game.a_strategy_vp),
        a_scheme_vp: opt(game.a_scheme_vp),
        b_strategy_vp: opt(game.b_strategy_vp),
        b_scheme_vp: opt(game.b_scheme_vp),
        a_objectives: opt(game.a_objectives),
        b_objectives: opt(game.b_objectives),
        a_eliminated: opt(game.a_eliminated),
        b_eliminated: opt(game.b_eliminated),
        a_army: opt(game.a_army),
        b_army: opt(game.b_army),
        a_leader: a.map(|d| d.leader.clone()),
        a_crew: a.map(|d| d.crew.clone()),
        b_leader: b.map(|d| d.leader.clone()),
        b_crew: b.map(|d| d.crew.clone()),
        version: Some(game.version.to_string()),
        note: None,
    }
}

#[derive(Template)]
#[template(path = "events/game.html")]
struct GamePage {
    ctx: PageContext,
    view: EventView,
    access: Access,
    game: GameRow,
    round: Option<i32>,
    a: String,
    b: String,
    summary: String,
    form: ResultInput,
    errors: FormErrors,
    history: Vec<results::HistoryLine>,
    /// Both sides of a disputed result, for whoever resolves it.
    dispute: Option<results::DisputeSides>,
    /// The table's setup, naming the players.
    setup: Option<crate::web::setup::SetupView>,
    can_report: bool,
    can_confirm: bool,
    strategy_max: i32,
    scheme_max: i32,
    objectives_max: i32,
}

struct Loaded {
    view: EventView,
    access: Access,
    game: GameRow,
    data: EventData,
    declarations: Vec<Declaration>,
    history: Vec<(ResultChange, Option<String>)>,
}

async fn load_game(
    state: &web::Data<AppState>,
    id: i64,
    game_id: i64,
    actor: Option<crate::events::Actor>,
) -> Result<Loaded, AppError> {
    state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            let game = events::reads::game_of_event(conn, id, game_id)?;
            let data = EventData::load(conn, id)?;
            let round = game
                .round_id
                .and_then(|r| data.rounds.iter().find(|x| x.id == r));
            if round.is_some_and(|r| r.status == RoundStatus::Draft) && !access.is_staff() {
                return Err(AppError::NotFound);
            }
            let declarations = events::reads::declarations_of_game(conn, id, game_id)?;
            let history = events::reads::history_of_game(conn, game_id)?;
            Ok(Loaded {
                view,
                access,
                game,
                data,
                declarations,
                history,
            })
        })
        .await
}

fn side(access: &Access, game: &GameRow) -> bool {
    results::side_of(access, game).is_some()
}

fn page(
    ctx: &PageContext,
    loaded: Loaded,
    form: Option<ResultInput>,
    errors: FormErrors,
) -> Result<GamePage, EventError> {
    let Loaded {
        view,
        access,
        game,
        data,
        declarations,
        history,
    } = loaded;
    let plays = side(&access, &game);
    let finished = view.status == crate::events::EventStatus::Finished;
    let editable_by_player = matches!(game.status, GameStatus::Pending | GameStatus::Reported);
    let can_report = game.player_b.is_some()
        && ((plays && editable_by_player && !finished)
            || (access.is_staff() && (!finished || access.role == crate::events::Role::Admin)));
    let can_confirm = game.status == GameStatus::Reported
        && !finished
        && ((plays && game.reported_by != access.account_id()) || access.is_staff());
    let (strategy_max, scheme_max) = vp_limits(view.system);
    let summary = results::result_summary(
        data.name_of(game.player_a),
        game.player_b.map(|b| data.name_of(b)).unwrap_or("bye"),
        &game,
        &crate::events::ResultFields::of(&game),
    );
    let names = crate::setup::SeatNames::new(
        data.name_of(game.player_a),
        game.player_b.map_or("bye", |b| data.name_of(b)),
    );
    let round = game
        .round_id
        .and_then(|r| data.rounds.iter().find(|x| x.id == r))
        .filter(|_| game.player_b.is_some());
    let setup = match round {
        Some(round) => crate::events::round_setups::TableSetup::of(round, &game)?,
        None => None,
    }
    .map(|table| crate::web::setup::SetupView::for_table(&table, &names));
    let dispute_view = results::dispute_sides(&data, &game, &history)?;
    let history = results::history_in_words(&data, &game, &history)?;
    Ok(GamePage {
        ctx: ctx.clone(),
        round: data.round_number_of(&game),
        a: data.name_of(game.player_a).to_owned(),
        b: game
            .player_b
            .map(|b| data.name_of(b).to_owned())
            .unwrap_or_else(|| "BYE".into()),
        summary,
        form: form.unwrap_or_else(|| prefill(&game, &declarations)),
        errors,
        history,
        dispute: dispute_view,
        setup,
        can_report,
        can_confirm,
        strategy_max,
        scheme_max,
        objectives_max: MAGE_KNIGHT_OBJECTIVES,
        view,
        access,
        game,
    })
}

#[get("/events/{id}/games/{game}")]
async fn game_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, AppError> {
    let (id, game_id) = path.into_inner();
    let loaded = load_game(&state, id, game_id, actor_of(user.0.as_deref())).await?;
    render_page(&ctx, &page(&ctx, loaded, None, FormErrors::new())?)
}

#[post("/events/{id}/games/{game}/report")]
async fn report(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: CsrfForm<ResultInput>,
) -> Result<HttpResponse, AppError> {
    let (id, game_id) = path.into_inner();
    let input = form.0;
    let actor = actor_of(Some(&user));
    let (now, base_url) = ctx_of(&state);
    let submitted = input.clone();
    let outcome = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            let reported = results::report(
                conn,
                &view,
                &access,
                game_id,
                &submitted,
                &service_ctx(now, &base_url),
            );
            Ok(match reported {
                Ok(game) => {
                    let confirmer = results::who_confirms(conn, &access, &game)?;
                    Ok((game, confirmer))
                }
                Err(err) => Err(err),
            })
        })
        .await?;
    state.mail_queued();
    match outcome {
        Ok((game, confirmer)) => {
            let message = match game.status {
                GameStatus::Reported => match confirmer {
                    results::Confirmer::Opponent => {
                        "Result reported. Your opponent is asked to confirm it (by mail, too)."
                    }
                    results::Confirmer::Organisers => {
                        "Result reported. Your opponent has no account here, so an organiser will confirm it."
                    }
                },
                GameStatus::Confirmed => {
                    "Your report matches your opponent's: the result is confirmed."
                }
                GameStatus::Disputed => {
                    "Your report differs from your opponent's: an organiser will resolve it."
                }
                _ => "Result saved.",
            };
            Ok(redirect_with_flash(
                &state,
                &game_path(id, game_id),
                FlashLevel::Success,
                message,
            ))
        }
        Err(err) => {
            // Re-show the page with what was typed, beside the problems.
            let errors = match &err {
                EventError::Invalid(_) => form_errors(&err).unwrap_or_default(),
                EventError::Conflict(message) => {
                    let mut errors = FormErrors::new();
                    errors.set_general(message.clone());
                    errors
                }
                _ => return Err(err.into()),
            };
            let stale = matches!(err, EventError::Conflict(_));
            let loaded = load_game(&state, id, game_id, actor).await?;
            // After a conflict show the current result, not the stale form.
            let form = if stale { None } else { Some(input) };
            render_invalid(&ctx, &page(&ctx, loaded, form, errors)?)
        }
    }
}

#[derive(Debug, Deserialize)]
struct DecisionForm {
    #[serde(default)]
    version: String,
    #[serde(default)]
    note: String,
}

async fn decide(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: i64,
    game_id: i64,
    form: DecisionForm,
    is_dispute: bool,
) -> Result<HttpResponse, AppError> {
    let version: i32 =
        form.version.trim().parse().map_err(|_| {
            AppError::bad_request("The form is missing its version; reload the page.")
        })?;
    let actor = actor_of(Some(&user));
    let (now, base_url) = ctx_of(&state);
    let outcome = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            let ctx = service_ctx(now, &base_url);
            Ok(if is_dispute {
                results::dispute(conn, &view, &access, game_id, version, &form.note, &ctx)
            } else {
                results::confirm(conn, &view, &access, game_id, version, &ctx)
            })
        })
        .await?;
    let back = game_path(id, game_id);
    Ok(match outcome {
        Ok(()) if is_dispute => redirect_with_flash(
            &state,
            &back,
            FlashLevel::Info,
            "Disputed: an organiser will look at it.",
        ),
        Ok(()) => redirect_with_flash(&state, &back, FlashLevel::Success, "Result confirmed."),
        Err(err @ (EventError::Conflict(_) | EventError::Invalid(_))) => {
            redirect_with_flash(&state, &back, FlashLevel::Error, err.for_people())
        }
        Err(err) => return Err(err.into()),
    })
}

#[post("/events/{id}/games/{game}/confirm")]
async fn confirm(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: CsrfForm<DecisionForm>,
) -> Result<HttpResponse, AppError> {
    let (id, game_id) = path.into_inner();
    decide(state, user, id, game_id, form.0, false).await
}

#[post("/events/{id}/games/{game}/dispute")]
async fn dispute(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: CsrfForm<DecisionForm>,
) -> Result<HttpResponse, AppError> {
    let (id, game_id) = path.into_inner();
    decide(state, user, id, game_id, form.0, true).await
}

#[derive(Template)]
#[template(path = "events/open_game.html")]
struct OpenGamePage {
    ctx: PageContext,
    view: EventView,
    opponents: Vec<Registration>,
    opponent: String,
    form: ResultInput,
    errors: FormErrors,
    strategy_max: i32,
    scheme_max: i32,
    objectives_max: i32,
    me: String,
    /// Made when the form is first shown; a repeat submission with it
    /// answers with the game the first one recorded.
    submission_key: String,
}

#[allow(clippy::too_many_arguments)]
async fn open_game_page(
    ctx: &PageContext,
    state: &web::Data<AppState>,
    user: &CurrentUser,
    id: i64,
    opponent: String,
    form: ResultInput,
    errors: FormErrors,
    submission_key: String,
) -> Result<OpenGamePage, AppError> {
    let actor = actor_of(Some(user));
    let (view, access, data) = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            Ok((view, access, EventData::load(conn, id)?))
        })
        .await?;
    let me = access
        .registration
        .clone()
        .filter(|r| r.status == RegistrationStatus::Registered)
        .ok_or_else(|| AppError::forbidden("Only registered players can record league games."))?;
    let opponents = data
        .registrations
        .into_iter()
        .filter(|r| r.status == RegistrationStatus::Registered && !r.dropped && r.id != me.id)
        .collect();
    let (strategy_max, scheme_max) = vp_limits(view.system);
    Ok(OpenGamePage {
        ctx: ctx.clone(),
        view,
        opponents,
        opponent,
        form,
        errors,
        strategy_max,
        scheme_max,
        objectives_max: MAGE_KNIGHT_OBJECTIVES,
        me: me.display_name,
        submission_key,
    })
}

#[get("/events/{id}/games/new")]
async fn new_open_game_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let page = open_game_page(
        &ctx,
        &state,
        &user,
        id,
        String::new(),
        ResultInput::default(),
        FormErrors::new(),
        crate::auth::random_token(),
    )
    .await?;
    render_page(&ctx, &page)
}

#[derive(Debug, Deserialize)]
struct OpenGameForm {
    #[serde(default)]
    opponent: String,
    #[serde(default)]
    submission_key: String,
    #[serde(flatten)]
    result: std::collections::BTreeMap<String, String>,
}

#[post("/events/{id}/games/new")]
async fn record_open_game(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<OpenGameForm>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let form = form.0;
    let get = |k: &str| form.result.get(k).cloned();
    let input = ResultInput {
        a_strategy_vp: get("a_strategy_vp"),
        a_scheme_vp: get("a_scheme_vp"),
        b_strategy_vp: get("b_strategy_vp"),
        b_scheme_vp: get("b_scheme_vp"),
        a_objectives: get("a_objectives"),
        b_objectives: get("b_objectives"),
        a_eliminated: get("a_eliminated"),
        b_eliminated: get("b_eliminated"),
        a_army: get("a_army"),
        b_army: get("b_army"),
        a_leader: get("a_leader"),
        a_crew: get("a_crew"),
        b_leader: get("b_leader"),
        b_crew: get("b_crew"),
        version: None,
        note: None,
    };
    let opponent: Option<i64> = form.opponent.trim().parse().ok();
    let actor = actor_of(Some(&user));
    let (now, base_url) = ctx_of(&state);
    let submitted = input.clone();
    let key = Some(form.submission_key.trim().to_owned()).filter(|key| !key.is_empty());
    let outcome = match opponent {
        None => Err(EventError::invalid("opponent", "Choose your opponent.")),
        Some(opponent) => {
            state
                .with_db(move |conn| {
                    let (view, access) = events::load(conn, id, actor)?;
                    let recorded = results::record_open_game(
                        conn,
                        &view,
                        &access,
                        opponent,
                        &submitted,
                        key.as_deref(),
                        &service_ctx(now, &base_url),
                    );
                    Ok(match recorded {
                        Ok(game) => {
                            let confirmer = results::who_confirms(conn, &access, &game)?;
                            Ok((game, confirmer))
                        }
                        Err(err) => Err(err),
                    })
                })
                .await?
        }
    };
    state.mail_queued();
    match outcome {
        Ok((game, confirmer)) => Ok(redirect_with_flash(
            &state,
            &game_path(id, game.id),
            FlashLevel::Success,
            match confirmer {
                results::Confirmer::Opponent => {
                    "Game recorded. Your opponent is asked to confirm it (by mail, too)."
                }
                results::Confirmer::Organisers => {
                    "Game recorded. Your opponent has no account here, so an organiser will confirm it."
                }
            },
        )),
        Err(err) => {
            let errors = match &err {
                EventError::Invalid(_) => form_errors(&err).unwrap_or_default(),
                EventError::Conflict(m) => {
                    let mut e = FormErrors::new();
                    e.set_general(m.clone());
                    e
                }
                _ => return Err(err.into()),
            };
            let page = open_game_page(
                &ctx,
                &state,
                &user,
                id,
                form.opponent.clone(),
                input,
                errors,
                form.submission_key.clone(),
            )
            .await?;
            render_invalid(&ctx, &page)
        }
    }
}
