//! Hosted play in the browser and the API: starting a practice game, the
//! game page with the decision it waits for as forms, and the JSON
//! commands. The rules of who may act live in `crate::hosted`; a seat
//! always comes from the session.

pub mod api;
mod board;
pub mod command;
pub mod limits;
pub mod live;
pub mod words;

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use serde::Deserialize;
use soulstone_engine::bot::BotKind;
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::pending::Choice;
use soulstone_engine::table::inches;
use soulstone_engine::{GameState, PlayerCommand, Seat, Viewer, view};

use crate::error::AppError;
use crate::events::digital::Watching;
use crate::hosted::{
    self, BroughtList, EndedBy, HostedError, HostedGame, HostedStatus, PracticeRequest, SeatHolder,
    Submitted,
};
use crate::web::AppState;
use crate::web::layout::download;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, MaybeUser};
use command::command_from_form;

mod invite;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(practice_page)
        .service(start_practice)
        .service(game_page)
        .service(replay_page)
        .service(log_download)
        .service(verify_page)
        .service(resign_page)
        .service(resign)
        .service(claim_page)
        .service(claim)
        .service(live::stream)
        .service(post_command);
    invite::routes(cfg);
}

/// Log lines the game page shows, newest last.
const LOG_LINES: u64 = 40;

impl From<HostedError> for AppError {
    fn from(error: HostedError) -> Self {
        match error {
            HostedError::NotFound => AppError::NotFound,
            HostedError::NotAPlayer => AppError::forbidden(error.to_string()),
            HostedError::MovedOn { .. } | HostedError::Over | HostedError::NotOver => {
                AppError::Conflict(error.to_string())
            }
            HostedError::Refused(_) | HostedError::Invalid(_) => {
                AppError::bad_request(error.to_string())
            }
            HostedError::Db(db) => db.into(),
            HostedError::Corrupt { .. } => AppError::internal(error.to_string()),
        }
    }
}

fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

/// The shipped crew lists a player may bring, 4th edition first: (file,
/// list).
fn shipped_lists() -> Vec<(&'static str, CrewList)> {
    let mut lists: Vec<(&'static str, CrewList)> = crate::content::shipped_crews()
        .iter()
        .filter_map(|(path, text)| Some((*path, CrewList::parse(text).ok()?)))
        .collect();
    lists.sort_by_key(|(_, list)| list.edition != soulstone_engine::Edition::Fourth);
    lists
}

/// "content/m4e/crews/mudlark-50.txt" → "mudlark-50".
fn list_name(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.strip_suffix(".txt").unwrap_or(file).to_string()
}

pub struct CrewOption {
    pub value: String,
    pub label: String,
}

pub struct GameLine {
    pub id: i64,
    pub status: &'static str,
    pub score: String,
}

#[derive(Template)]
#[template(path = "play/practice.html")]
struct PracticePage {
    ctx: PageContext,
    crews: Vec<CrewOption>,
    games: Vec<GameLine>,
    error: Option<String>,
    own_list: String,
    /// Invitations this player sent that nobody has taken yet.
    invitations: Vec<crate::hosted::invitations::Invitation>,
}

async fn practice_page_with(
    ctx: PageContext,
    user: &CurrentUser,
    state: &web::Data<AppState>,
    error: Option<String>,
    own_list: String,
) -> Result<HttpResponse, AppError> {
    let account = user.id();
    let (rows, invitations) = state
        .with_db(move |conn| {
            Ok((
                crate::db::hosted::games_of(conn, account, 20)?,
                crate::hosted::invitations::open_of(conn, account, now())?,
            ))
        })
        .await?;
    let games = rows
        .into_iter()
        .map(|row| GameLine {
            id: row.id,
            status: row
                .status
                .parse::<HostedStatus>()
                .map_or("Unknown", HostedStatus::label),
            score: match (row.vp_a, row.vp_b) {
                (Some(a), Some(b)) => format!("{a}–{b}"),
                _ => String::new(),
            },
        })
        .collect();
    let crews = crew_options(None);
    let page = PracticePage {
        ctx: ctx.clone(),
        crews,
        games,
        error,
        own_list,
        invitations,
    };
    if page.error.is_some() {
        crate::web::forms::render_invalid(&ctx, &page)
    } else {
        render_page(&ctx, &page)
    }
}

/// The crews a player brings, from the crews fieldset
/// (`templates/play/crews_fieldset.html`): ticked shipped lists and a
/// pasted list. Also gives back the pasted text, to show again; on a
/// problem, the message and that text.
pub(crate) fn brought_from_form(
    fields: &[(String, String)],
) -> Result<(Vec<BroughtList>, String), (String, String)> {
    let shipped = shipped_lists();
    let own = fields
        .iter()
        .find(|(key, _)| key == "own_list")
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_default();
    let mut lists: Vec<BroughtList> = Vec::new();
    for (key, value) in fields {
        if key != "crew" {
            continue;
        }
        let Some((path, list)) = shipped.iter().find(|(path, _)| list_name(path) == *value) else {
            return Err((format!("There is no crew list {value:?}."), own));
        };
        lists.push(BroughtList {
            name: list_name(path),
            list: list.clone(),
        });
    }
    if !own.is_empty() {
        match CrewList::parse(&own) {
            Ok(list) => lists.push(BroughtList {
                name: "my list".into(),
                list,
            }),
            Err(problem) => {
                return Err((format!("Your own list could not be read: {problem}"), own));
            }
        }
    }
    if let Some(first) = lists.first()
        && let Some(other) = lists.iter().find(|b| b.list.edition != first.list.edition)
    {
        return Err((
            format!(
                "The crews you bring must be of one edition: {} is {}, {} is {}.",
                first.name,
                first.list.edition.name(),
                other.name,
                other.list.edition.name()
            ),
            own,
        ));
    }
    if lists.is_empty() {
        return Err((
            "Bring at least one crew: tick a list or paste your own.".into(),
            own,
        ));
    }
    Ok((lists, own))
}

/// The practice form's time control: minutes per player, or none.
fn time_control_ms(fields: &[(String, String)]) -> Option<i64> {
    let minutes: i64 = fields
        .iter()
        .find(|(key, _)| key == "minutes")
        .and_then(|(_, v)| v.trim().parse().ok())
        .filter(|m| (1..=600).contains(m))?;
    Some(minutes * 60_000)
}

/// The shipped lists as the crews fieldset offers them.
/// The shipped crews to choose from: of `edition` only, when it is given
/// (an event's).
pub(crate) fn crew_options(edition: Option<soulstone_engine::Edition>) -> Vec<CrewOption> {
    shipped_lists()
        .into_iter()
        .filter(|(_, list)| edition.is_none_or(|e| list.edition == e))
        .map(|(path, list)| CrewOption {
            value: list_name(path),
            label: format!(
                "{} ({}, {} models, {})",
                list.leader,
                list.faction,
                list.models.len() + 1,
                list.edition.name()
            ),
        })
        .collect()
}

#[get("/play")]
async fn practice_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    practice_page_with(ctx, &user, &state, None, String::new()).await
}

#[post("/play/practice")]
async fn start_practice(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    use rand::Rng;
    let fields = form.0;
    let (lists, own) = match brought_from_form(&fields) {
        Ok(read) => read,
        Err((error, own)) => return practice_page_with(ctx, &user, &state, Some(error), own).await,
    };
    let shipped = shipped_lists();
    let bot = match fields
        .iter()
        .find(|(key, _)| key == "bot")
        .map(|(_, v)| v.as_str())
    {
        Some("greedy") => BotKind::Greedy,
        _ => BotKind::Random,
    };
    let mut rng = rand::rng();
    // The bot brings a shipped list of the player's edition.
    let edition = lists
        .first()
        .map_or(soulstone_engine::Edition::Fourth, |b| b.list.edition);
    let of_edition: Vec<_> = shipped
        .into_iter()
        .filter(|(_, list)| list.edition == edition)
        .collect();
    let (bot_path, bot_list) = of_edition
        .get(rng.random_range(0..of_edition.len().max(1)))
        .cloned()
        .ok_or_else(|| AppError::internal("no shipped crew lists of that edition"))?;
    let request = PracticeRequest {
        account_id: user.id(),
        lists,
        bot,
        bot_lists: vec![BroughtList {
            name: list_name(bot_path),
            list: bot_list,
        }],
        seed: soulstone_engine::fairness::Bytes32(rng.random()),
        time_control_ms: time_control_ms(&fields),
    };
    let catalog = std::sync::Arc::clone(&state.catalog);
    let started = state
        .with_db(move |conn| Ok(hosted::start_practice(conn, &catalog, &request, now())))
        .await?;
    match started {
        Ok(id) => Ok(HttpResponse::SeeOther()
            .insert_header(("Location", format!("/games/{id}")))
            .finish()),
        Err(HostedError::Invalid(problem)) => {
            practice_page_with(ctx, &user, &state, Some(problem), own).await
        }
        Err(other) => Err(other.into()),
    }
}

/// One form of the decision the game waits for.
pub struct ChoiceForm {
    /// How `command_from_form` reads it.
    pub kind: &'static str,
    pub label: String,
    /// For `command`: the command as JSON.
    pub command: String,
    /// Cards to tick (code, name) and how many must be (0: any number).
    pub cards: Vec<(String, String)>,
    pub count: u8,
    /// Models to pick from (id, name).
    pub models: Vec<(u16, String)>,
    /// Models to summon, by name.
    pub summonable: Vec<String>,
    /// The model on the table a command names (the one it activates or
    /// targets): clicking it on the board picks out this choice.
    pub piece: Option<u16>,
}

impl ChoiceForm {
    fn command(label: String, command: String) -> Self {
        Self {
            kind: "command",
            label,
            command,
            cards: Vec::new(),
            count: 0,
            models: Vec::new(),
            summonable: Vec::new(),
            piece: None,
        }
    }

    fn parts(kind: &'static str, label: String) -> Self {
        Self {
            kind,
            ..Self::command(label, String::new())
        }
    }
}

pub struct PlayerLine {
    pub label: String,
    pub who: String,
    pub vp: u8,
    pub soulstones: u16,
    pub hand: usize,
    pub deck: usize,
}

pub struct ModelLine {
    pub name: String,
    pub side: String,
    pub health: String,
    pub tokens: String,
    pub place: String,
}

#[derive(Template)]
#[template(path = "play/game.html")]
struct GamePage {
    ctx: PageContext,
    id: i64,
    finished: bool,
    you: Option<String>,
    players: Vec<PlayerLine>,
    summary: Vec<(String, String)>,
    your_scheme: Option<String>,
    hand: Vec<String>,
    board: String,
    models: Vec<ModelLine>,
    prompt: String,
    forms: Vec<ChoiceForm>,
    waiting: String,
    version: u64,
    key: String,
    log: Vec<String>,
    /// Stepping through a finished game: where, and where to go.
    replay: Option<ReplayNav>,
    /// Each player's clock ("Player A: 29:41, running"), if timed.
    clocks: Vec<String>,
    /// Why the game ended before its time, if it did.
    stopped: Option<&'static str>,
    /// How a spectator watches (live, as the event's staff, or behind).
    watching_note: Option<String>,
    /// For a player of an event game: how long the opponent has been away,
    /// once long enough to claim the game.
    claimable_after: Option<i64>,
}

/// The replay's position and the positions around it (fact numbers).
pub struct ReplayNav {
    pub at: u64,
    pub last: u64,
    pub links: Vec<(&'static str, u64)>,
}

impl ReplayNav {
    /// Turn and activation starts around `at`, and single facts.
    fn around(facts: &[soulstone_engine::Event], at: u64) -> Self {
        use soulstone_engine::Event;
        let last = facts.len() as u64;
        let starts = |wanted: fn(&Event) -> bool| -> Vec<u64> {
            facts
                .iter()
                .zip(1u64..)
                .filter(|(fact, _)| wanted(fact))
                .map(|(_, seq)| seq)
                .collect()
        };
        let turns = starts(|f| matches!(f, Event::TurnStarted { .. }));
        let activations = starts(|f| matches!(f, Event::ActivationStarted { .. }));
        let before = |marks: &[u64]| marks.iter().rev().copied().find(|&m| m < at);
        let after = |marks: &[u64]| marks.iter().copied().find(|&m| m > at);
        let mut links = vec![("Start", 0)];
        let candidates = [
            ("Previous turn", before(&turns)),
            ("Previous activation", before(&activations)),
            ("Previous fact", at.checked_sub(1)),
            ("Next fact", (at < last).then_some(at + 1)),
            ("Next activation", after(&activations)),
            ("Next turn", after(&turns)),
        ];
        links.extend(
            candidates
                .into_iter()
                .filter_map(|(label, to)| to.map(|to| (label, to))),
        );
        links.push(("End", last));
        Self { at, last, links }
    }
}

fn holder_name(holder: SeatHolder, seat: Seat, viewer: Viewer) -> String {
    match holder {
        _ if viewer == Viewer::Player(seat) => "you".into(),
        SeatHolder::Bot(BotKind::Random) => "the random bot".into(),
        SeatHolder::Bot(BotKind::Greedy) => "the greedy bot".into(),
        SeatHolder::Account(_) => "another player".into(),
    }
}

/// One model's name, for a form's label.
fn model_name(state: &GameState, id: soulstone_engine::model::ModelId) -> &str {
    state.model(id).map_or("the model", |m| m.name())
}

fn model_names(state: &GameState, ids: &[soulstone_engine::model::ModelId]) -> Vec<(u16, String)> {
    ids.iter()
        .filter_map(|id| state.model(*id).map(|m| (id.0, m.card.name.to_string())))
        .collect()
}

/// The forms for the decision `seat` faces now.
fn forms_for(state: &GameState, seat: Seat, choices: &[Choice]) -> Vec<ChoiceForm> {
    let viewer = Viewer::Player(seat);
    let cards = |from: &[soulstone_engine::fate::Card]| {
        from.iter()
            .map(|c| (c.to_string(), c.long_name()))
            .collect::<Vec<_>>()
    };
    choices
        .iter()
        .map(|choice| match choice {
            Choice::Command { command } => ChoiceForm {
                piece: match command {
                    PlayerCommand::Activate { model }
                    | PlayerCommand::ChainActivate { model }
                    | PlayerCommand::AssumeLeadership { model }
                    | PlayerCommand::TakeAction {
                        target: Some(model),
                        ..
                    } => Some(model.0),
                    _ => None,
                },
                ..ChoiceForm::command(
                    words::command(state, viewer, command),
                    serde_json::to_string(command).unwrap_or_default(),
                )
            },
            Choice::Entropy => ChoiceForm::parts(
                "entropy",
                "Cut your deck: type a few words or numbers of your own".into(),
            ),
            Choice::DiscardAny { from } => ChoiceForm {
                cards: cards(from),
                ..ChoiceForm::parts("discard_any", "Discard these (any, or none)".into())
            },
            Choice::DrawFromDiscard { up_to, from } => ChoiceForm {
                cards: cards(from),
                ..ChoiceForm::parts(
                    "draw_from_discard",
                    format!("Draw up to {up_to} of these from your discard pile (or none)"),
                )
            },
            Choice::DiscardCards { count, from } => ChoiceForm {
                cards: cards(from),
                count: *count,
                ..ChoiceForm::parts("discard_cards", format!("Discard exactly {count}"))
            },
            Choice::SplitCrew { models } => ChoiceForm {
                models: model_names(state, models),
                ..ChoiceForm::parts(
                    "split_crew",
                    "Tick the models of your first group; the rest are the second".into(),
                )
            },
            Choice::Deploy { models, .. } => ChoiceForm {
                models: model_names(state, models),
                ..ChoiceForm::parts(
                    "deploy",
                    "Deploy a model completely within your zone (inches from the bottom-left corner)"
                        .into(),
                )
            },
            Choice::Walk { model, inches } => ChoiceForm::parts(
                "walk",
                format!(
                    "Walk {} up to {inches}\" in a straight line to",
                    model_name(state, *model)
                ),
            ),
            Choice::Move { model, inches } => ChoiceForm {
                piece: Some(model.0),
                ..ChoiceForm::parts(
                    "move",
                    format!(
                        "Move {} up to {inches}\" in a straight line to",
                        model_name(state, *model)
                    ),
                )
            },
            Choice::Charge { inches, .. } => ChoiceForm::parts(
                "charge",
                format!("Charge up to {inches}\" in a straight line to"),
            ),
            Choice::MakeSchemeMarker { .. } => ChoiceForm::parts(
                "scheme_marker",
                "Interact: make a scheme marker within 1\" at".into(),
            ),
            Choice::PlantExplosives { model } => ChoiceForm::parts(
                "plant_explosives",
                format!(
                    "Interact: spend one of {}'s explosives tokens for a strategy marker in base contact, at",
                    model_name(state, *model)
                ),
            ),
            Choice::Place {
                model,
                touching: Some(onto),
                ..
            } => ChoiceForm {
                piece: Some(model.0),
                ..ChoiceForm::parts(
                    "place",
                    format!(
                        "Place {} in base contact with {}, its centre at",
                        model_name(state, *model),
                        model_name(state, *onto)
                    ),
                )
            },
            Choice::Place { model, inches, .. } => ChoiceForm {
                piece: Some(model.0),
                ..ChoiceForm::parts(
                    "place",
                    format!(
                        "Place {} within {inches}\" of where it stands, its centre at",
                        model_name(state, *model)
                    ),
                )
            },
            Choice::DropBlast { target, left } => ChoiceForm::parts(
                "drop_blast",
                format!(
                    "Drop a 50 mm blast marker ({left} to drop) touching {} or an earlier one, its centre at",
                    model_name(state, *target)
                ),
            ),
            Choice::Replace { model, with } => ChoiceForm {
                piece: Some(model.0),
                ..ChoiceForm::parts(
                    "place",
                    format!(
                        "{with} replaces {}: place it touching that model, its centre at",
                        model_name(state, *model)
                    ),
                )
            },
            Choice::Summon { summoner, models } => ChoiceForm {
                summonable: models.clone(),
                piece: Some(summoner.0),
                ..ChoiceForm::parts(
                    "summon",
                    "Summon a model touching its summoner and in its sight, its centre at".into(),
                )
            },
        })
        .collect()
}

fn game_page_data(
    ctx: PageContext,
    game: &HostedGame,
    account: Option<i64>,
    log: Vec<String>,
) -> GamePage {
    let state = &game.state;
    let viewer = game.viewer_for(account);
    let seen = view(state, viewer);
    let you = match viewer {
        Viewer::Player(seat) => Some(seat.label().to_string()),
        _ => None,
    };
    let players = Seat::BOTH
        .into_iter()
        .map(|seat| {
            let p = &seen.players[seat.index()];
            PlayerLine {
                label: seat.label().into(),
                who: holder_name(game.seats[seat.index()], seat, viewer),
                vp: p.victory_points,
                soulstones: p.soulstones,
                hand: p.hand_count,
                deck: p.deck_count,
            }
        })
        .collect();
    let mut summary = Vec::new();
    let mut your_scheme = None;
    if let Some(encounter) = &seen.encounter {
        let setup = &encounter.setup;
        summary.push(("Turn".into(), encounter.turn.to_string()));
        summary.push(("Attacker".into(), setup.attacker.label().into()));
        summary.push(("Strategy".into(), setup.strategy.name.clone()));
        summary.push(("Deployment".into(), format!("{:?}", setup.deployment)));
        summary.push(("Scheme pool".into(), setup.scheme_pool.join(", ")));
        if let Some(crews) = &encounter.choices.crews {
            summary.push(("Crews".into(), format!("A: {}; B: {}", crews[0], crews[1])));
        }
        if let Viewer::Player(seat) = viewer {
            // A 3rd edition crew holds two until it reveals them.
            let held: Vec<String> = encounter.choices.schemes[seat.index()]
                .iter()
                .filter_map(|held| held.value.as_ref())
                .map(|held| {
                    let name = |id| state.model(id).map_or("unknown", |m| &*m.card.name);
                    match (held.target, held.second_target) {
                        (Some(target), Some(second)) => format!(
                            "{} (targets: {} and {})",
                            held.name,
                            name(target),
                            name(second)
                        ),
                        (Some(target), None) => {
                            format!("{} (target: {})", held.name, name(target))
                        }
                        _ => held.name.clone(),
                    }
                })
                .collect();
            your_scheme = (!held.is_empty()).then(|| held.join("; "));
            if !encounter.choices.revealed[seat.index()].is_empty() {
                summary.push((
                    "Your revealed schemes".into(),
                    encounter.choices.revealed[seat.index()].join(", "),
                ));
            }
        }
    }
    let hand = match viewer {
        Viewer::Player(seat) => seen.players[seat.index()]
            .hand
            .as_deref()
            .unwrap_or_default()
            .iter()
            .map(|c| c.long_name())
            .collect(),
        _ => Vec::new(),
    };
    let board = board::render(state);
    let models = state
        .models
        .iter()
        .map(|m| ModelLine {
            name: m.card.name.to_string(),
            side: m.owner.label().into(),
            health: format!("{}/{}", m.health, m.card.max_health),
            tokens: m
                .tokens
                .iter()
                .map(|(token, n)| format!("{token} {n}"))
                // Plant Explosives' tokens are the encounter's, not conditions.
                .chain(
                    state
                        .encounter
                        .as_deref()
                        .map(|e| e.explosives_on(m.id))
                        .filter(|n| *n > 0)
                        .map(|n| format!("explosives {n}")),
                )
                .collect::<Vec<_>>()
                .join(", "),
            place: match (&m.placement, m.in_play()) {
                (_, false) => "out of play".into(),
                (Some(p), true) => format!("({:.1}, {:.1})", inches(p.at.x), inches(p.at.y)),
                (None, true) => "not deployed".into(),
            },
        })
        .collect();
    let (prompt, forms) = match (&seen.decision, viewer) {
        (Some(decision), Viewer::Player(seat)) if decision.seat == seat && !game.state.ended => (
            decision.prompt.clone(),
            forms_for(state, seat, &decision.choices),
        ),
        _ => (String::new(), Vec::new()),
    };
    let waiting = if state.ended {
        "The game is over.".to_string()
    } else {
        seen.waiting_for
            .iter()
            .map(|seat| holder_name(game.seats[seat.index()], *seat, viewer))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    GamePage {
        ctx,
        id: game.id,
        finished: game.status == HostedStatus::Finished,
        you,
        players,
        summary,
        your_scheme,
        hand,
        board,
        models,
        prompt,
        forms,
        waiting,
        version: state.version,
        key: hex::encode(rand::random::<[u8; 16]>()),
        log,
        replay: None,
        clocks: clock_lines(game),
        stopped: match game.ended_by {
            Some(EndedBy::Time) => Some("A player's clock ran out."),
            Some(EndedBy::Resignation) => Some("A player resigned."),
            Some(EndedBy::Absence) => Some("A player claimed the game: their opponent had gone."),
            _ => None,
        },
        watching_note: None,
        claimable_after: None,
    }
}

fn clock_lines(game: &HostedGame) -> Vec<String> {
    let Some(clocks) = game.clocks else {
        return Vec::new();
    };
    let left = hosted::clocks_left(&clocks, now());
    Seat::BOTH
        .into_iter()
        .map(|seat| {
            let ms = left[seat.index()];
            let running = game.status == HostedStatus::Playing && hosted::clock_runs(&clocks, seat);
            format!(
                "{}: {}:{:02}{}",
                seat.label(),
                ms / 60_000,
                (ms / 1000) % 60,
                if running { ", running" } else { "" }
            )
        })
        .collect()
}

#[get("/games/{id}")]
async fn game_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let account = user.0.as_ref().map(|u| u.id());
    let (game, facts, watching, claimable_after) = state
        .with_db(move |conn| {
            let (game, watching) = load_for(conn, id, account, now())?;
            let after = game.state.version.saturating_sub(LOG_LINES);
            let mut facts = hosted::facts_after(conn, id, after)?;
            facts.retain(|(seq, _)| *seq <= game.state.version);
            // A player of an event game whose opponent has been away long
            // enough may claim it.
            let claimable_after = match account.and_then(|a| game.seat_of(a)) {
                Some(seat) => {
                    let allowed =
                        crate::events::digital::absence_allowed(conn, game.pairing_game_id)?;
                    match (allowed, game.waiting_on_opponent_of(seat, now())) {
                        (Some(allowed), Some(minutes)) if minutes >= allowed.num_minutes() => {
                            Some(minutes)
                        }
                        _ => None,
                    }
                }
                None => None,
            };
            Ok((game, facts, watching, claimable_after))
        })
        .await?;
    let viewer = game.viewer_for(account);
    let log = facts
        .iter()
        .map(|(seq, fact)| format!("{seq}. {}", words::fact(&game.state, viewer, fact)))
        .collect();
    let mut page = game_page_data(ctx.clone(), &game, account, log);
    page.watching_note = watching_note(watching, viewer);
    page.claimable_after = claimable_after;
    render_page(&ctx, &page)
}

/// A game as `account` may see it now: a player and the event's staff see
/// it live; a spectator of an event with a delay sees it that far behind.
pub(crate) fn load_for(
    conn: &mut crate::db::DbConnection,
    id: i64,
    account: Option<i64>,
    now: chrono::NaiveDateTime,
) -> Result<(HostedGame, Watching), AppError> {
    let game = hosted::load(conn, id)?;
    if account.and_then(|a| game.seat_of(a)).is_some() {
        return Ok((game, Watching::Live));
    }
    let watching = crate::events::digital::watching(conn, game.pairing_game_id, account)?;
    match watching {
        Watching::Delayed(delay) => Ok((hosted::load_as_of(conn, id, now - delay)?, watching)),
        Watching::Live | Watching::Staff => Ok((game, watching)),
    }
}

fn watching_note(watching: Watching, viewer: Viewer) -> Option<String> {
    if matches!(viewer, Viewer::Player(_)) {
        return None;
    }
    match watching {
        Watching::Live => None,
        Watching::Staff => Some(
            "You watch as one of the event's organisers: live, with hands and secret choices hidden as from any spectator.".into(),
        ),
        Watching::Delayed(delay) => Some(format!(
            "Spectators of this event watch {} minutes behind the players.",
            delay.num_minutes()
        )),
    }
}

#[derive(Debug, Deserialize)]
pub struct ReplayQuery {
    #[serde(default)]
    pub at: Option<u64>,
}

/// A finished game at any fact, turn or activation, as the viewer saw it.
#[get("/games/{id}/replay")]
async fn replay_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<ReplayQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let account = user.0.as_ref().map(|u| u.id());
    let (game, log) = state
        .with_db(move |conn| Ok((hosted::load(conn, id)?, hosted::finished_log(conn, id)?)))
        .await?;
    let at = query.at.unwrap_or(0).min(log.facts.len() as u64);
    let mut replayed = GameState::new(log.setup.clone())
        .map_err(|e| AppError::internal(format!("game {id}: {e}")))?;
    let shown = usize::try_from(at).unwrap_or(usize::MAX);
    for fact in &log.facts[..shown] {
        soulstone_engine::apply(&mut replayed, fact);
    }
    let viewer = game.viewer_for(account);
    let lines = log.facts[..shown]
        .iter()
        .zip(1u64..)
        .skip(shown.saturating_sub(LOG_LINES as usize))
        .map(|(fact, seq)| format!("{seq}. {}", words::fact(&replayed, viewer, fact)))
        .collect();
    let nav = ReplayNav::around(&log.facts, at);
    let at_that_point = HostedGame {
        state: replayed,
        ..game
    };
    let mut page = game_page_data(ctx.clone(), &at_that_point, account, lines);
    page.forms.clear();
    page.replay = Some(nav);
    render_page(&ctx, &page)
}

/// A finished game's whole log, for `soulstone game verify` or a program
/// of one's own.
#[get("/games/{id}/log.json")]
async fn log_download(
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let log = state
        .with_db(move |conn| Ok(hosted::finished_log(conn, id)?))
        .await?;
    let json = serde_json::to_string(&log).map_err(AppError::internal)?;
    Ok(download(
        "application/json",
        &format!("soulstone-game-{id}.json"),
        json,
    ))
}

#[derive(Template)]
#[template(path = "play/verify.html")]
struct VerifyPage {
    ctx: PageContext,
    id: i64,
    facts: usize,
    seed: String,
    commitment: String,
    cuts: Vec<String>,
    outcome: Result<String, String>,
}

/// Replays a finished game's log and checks every card drawn or revealed
/// against the shuffles the revealed seed and both players' cuts make.
#[get("/games/{id}/verify")]
async fn verify_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let log = state
        .with_db(move |conn| Ok(hosted::finished_log(conn, id)?))
        .await?;
    let cuts = log
        .facts
        .iter()
        .filter_map(|fact| match fact {
            soulstone_engine::Event::Contributed { seat, entropy } => {
                Some(format!("{}: {}", seat.label(), hex::encode(entropy.0)))
            }
            _ => None,
        })
        .collect();
    let outcome = log.verify().map_err(|e| e.to_string()).map(|state| {
        format!(
            "Every card drawn or revealed matches the shuffles. Final score: Player A {} VP, Player B {} VP.",
            state.player(Seat::A).victory_points,
            state.player(Seat::B).victory_points
        )
    });
    let page = VerifyPage {
        ctx: ctx.clone(),
        id,
        facts: log.facts.len(),
        seed: hex::encode(log.setup.seed.0),
        commitment: hex::encode(soulstone_engine::fairness::commitment(&log.setup.seed).0),
        cuts,
        outcome,
    };
    render_page(&ctx, &page)
}

#[derive(Template)]
#[template(path = "play/resign.html")]
struct ResignPage {
    ctx: PageContext,
    id: i64,
}

/// Asks before a player gives up a game.
#[get("/games/{id}/resign")]
async fn resign_page(
    ctx: PageContext,
    _user: CurrentUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    render_page(
        &ctx,
        &ResignPage {
            ctx: ctx.clone(),
            id: path.into_inner(),
        },
    )
}

#[derive(Template)]
#[template(path = "play/claim.html")]
struct ClaimPage {
    ctx: PageContext,
    id: i64,
}

#[get("/games/{id}/claim")]
async fn claim_page(
    ctx: PageContext,
    _user: CurrentUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    render_page(
        &ctx,
        &ClaimPage {
            ctx: ctx.clone(),
            id: path.into_inner(),
        },
    )
}

/// A player claims an event game whose opponent has gone: it ends, and
/// the organisers confirm the result.
#[post("/games/{id}/claim")]
async fn claim(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<crate::web::session::NoFields>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let account = user.id();
    let claimed = state
        .with_db(move |conn| {
            let pairing = hosted::load(conn, id)?.pairing_game_id;
            let allowed = crate::events::digital::absence_allowed(conn, pairing)?
                .unwrap_or(chrono::Duration::minutes(10));
            Ok(hosted::claim_absence(conn, id, account, allowed, now()))
        })
        .await?;
    let back = format!("/games/{id}");
    match claimed {
        Ok(()) => {
            state.game_updates.announce(id);
            Ok(redirect_with_flash(
                &state,
                &back,
                FlashLevel::Info,
                "Claimed: the game is over, and the organisers confirm its result.",
            ))
        }
        Err(HostedError::Invalid(problem)) => Ok(redirect_with_flash(
            &state,
            &back,
            FlashLevel::Error,
            problem,
        )),
        Err(other) => Err(other.into()),
    }
}

#[post("/games/{id}/resign")]
async fn resign(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<crate::web::session::NoFields>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let account = user.id();
    state
        .with_db(move |conn| Ok(hosted::resign(conn, id, account, now())?))
        .await?;
    state.game_updates.announce(id);
    Ok(redirect_with_flash(
        &state,
        &format!("/games/{id}"),
        FlashLevel::Info,
        "You resigned. The game is over.",
    ))
}

#[post("/games/{id}/command")]
async fn post_command(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let here = format!("/games/{id}");
    let fields = form.0;
    let field = |name: &str| {
        fields
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let version: u64 = field("version").parse().map_err(|_| {
        AppError::bad_request("The form lacks the game's version: reload the page.")
    })?;
    let key = field("key");
    if key.is_empty() || key.len() > command::MAX_IDEMPOTENCY_KEY {
        return Err(AppError::bad_request(
            "The form lacks its key: reload the page.",
        ));
    }
    let account = user.id();
    if !state
        .play_limits
        .allow_command(&limits::key_of(Some(account), ""))
    {
        return Err(AppError::TooManyRequests);
    }
    let outcome = state
        .with_db(move |conn| {
            let game = hosted::load(conn, id)?;
            let seat = game.seat_of(account).ok_or(HostedError::NotAPlayer)?;
            let command = match command_from_form(&fields, &game.state, seat) {
                Ok(command) => command,
                Err(problem) => return Ok(Err(problem)),
            };
            Ok(Ok(hosted::submit(
                conn,
                id,
                account,
                version,
                &key,
                command,
                now(),
            )))
        })
        .await?;
    let submitted = match outcome {
        Ok(submitted) => submitted,
        Err(problem) => {
            return Ok(redirect_with_flash(
                &state,
                &here,
                FlashLevel::Error,
                problem,
            ));
        }
    };
    if let Ok(Submitted::Applied { version, .. }) = &submitted {
        state.game_updates.announce_at(id, *version);
    }
    Ok(match submitted {
        Ok(_) => HttpResponse::SeeOther()
            .insert_header(("Location", here))
            .finish(),
        Err(HostedError::MovedOn { .. }) => redirect_with_flash(
            &state,
            &here,
            FlashLevel::Warning,
            "The game moved on before your choice arrived: here it is now. Choose again.",
        ),
        Err(HostedError::Refused(reason)) => redirect_with_flash(
            &state,
            &here,
            FlashLevel::Error,
            format!("Not allowed: {reason}"),
        ),
        Err(other) => return Err(other.into()),
    })
}
