//! The game page: one screen with the table beside the decision, the
//! score and clocks, the duel's numbers, the selected model's card, the
//! hand and the log. The server renders all of it; the page's script
//! (`static/play.js`) fetches it again when the game moves on and swaps
//! the game in place, and lets the table be the input (`docs/play.md`).

use actix_web::{HttpResponse, get, web};
use askama::Template;
use serde::Deserialize;
use soulstone_engine::forced::StandingAnswers;
use soulstone_engine::system::Malifaux;
use soulstone_engine::{Event, GameState, Seat, Viewer, view};

use super::board;
use super::cards::{self, StatCardView};
use super::duel_panel::{self, DuelPanel};
use super::forms::{ChoiceForm, forms_for};
use super::names::Names;
use super::words::{LogEntry, Words, log_entries};
use super::{now, watching_note};
use crate::hosted::{self, EndedBy, HostedError, HostedGame, HostedStatus, SeatHolder};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{PageContext, render_page};
use crate::web::session::MaybeUser;

/// Facts read for the log (its entries group them).
const LOG_FACTS: u64 = 160;
/// Log entries the page shows, newest last.
const LOG_ENTRIES: usize = 30;

pub struct PlayerLine {
    pub label: String,
    pub who: String,
    pub side_class: &'static str,
    pub vp: u8,
    pub soulstones: u16,
    pub hand: usize,
    pub deck: usize,
    pub clock: Option<ClockView>,
}

/// A player's clock: milliseconds left (the script counts it down while
/// it runs), and the same in words for a page without scripts.
pub struct ClockView {
    pub ms_left: i64,
    pub running: bool,
    pub words: String,
}

/// A line of the legend beside the table: what a short label stands for.
pub struct LegendLine {
    pub id: u16,
    pub short: String,
    pub name: String,
    pub side_class: &'static str,
    pub health: String,
    pub tokens: String,
    pub acting: bool,
    pub activated: bool,
    pub on_table: bool,
}

/// The acting model's reach in words (the rings on the table).
pub struct ActingLine {
    pub name: String,
    pub reach: String,
}

/// The replay's position and the positions around it (fact numbers).
pub struct ReplayNav {
    pub at: u64,
    pub last: u64,
    pub links: Vec<(&'static str, u64)>,
}

impl ReplayNav {
    /// Turn and activation starts around `at`, and single facts.
    fn around(facts: &[Event], at: u64) -> Self {
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

#[derive(Template)]
#[template(path = "play/game.html")]
pub(super) struct GamePage {
    ctx: PageContext,
    id: i64,
    finished: bool,
    /// The viewer's seat ("Player A"), if they play.
    you: Option<String>,
    /// "a" or "b", for the page's script.
    you_code: &'static str,
    players: Vec<PlayerLine>,
    summary: Vec<(String, String)>,
    turn: u8,
    your_scheme: Option<String>,
    hand: Vec<String>,
    board: String,
    table_inches: f64,
    legend: Vec<LegendLine>,
    cards: Vec<StatCardView>,
    acting: Option<ActingLine>,
    duel: Option<DuelPanel>,
    prompt: String,
    pub(super) forms: Vec<ChoiceForm>,
    /// Whether the game waits for the viewer.
    your_move: bool,
    waiting: String,
    version: u64,
    key: String,
    log: Vec<LogEntry>,
    /// Stepping through a finished game: where, and where to go.
    pub(super) replay: Option<ReplayNav>,
    /// Why the game ended before its time, if it did.
    stopped: Option<String>,
    /// How a spectator watches (live, as the event's staff, or behind).
    watching_note: Option<String>,
    /// For a player of an event game: how long the opponent has been away,
    /// once long enough to claim the game.
    claimable_after: Option<i64>,
    /// For a player: whether the game takes their one-option decisions.
    standing: Option<StandingAnswers>,
}

impl GamePage {
    /// The page's title: it says so when the game waits for the viewer.
    fn title(&self) -> String {
        if self.your_move && self.replay.is_none() {
            format!("Your move · Game {}", self.id)
        } else {
            format!("Game {}", self.id)
        }
    }
}

fn holder_name(holder: SeatHolder, seat: Seat, viewer: Viewer) -> String {
    match holder {
        _ if viewer == Viewer::Player(seat) => "you".into(),
        SeatHolder::Bot(kind) => format!("the {} bot", kind.level_name()),
        SeatHolder::Account(_) => "another player".into(),
    }
}

fn side_class(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "side-a",
        Seat::B => "side-b",
    }
}

fn clock_views(game: &HostedGame) -> [Option<ClockView>; 2] {
    let Some(clocks) = game.clocks else {
        return [None, None];
    };
    let left = clocks.left_at(now());
    Seat::BOTH.map(|seat| {
        let ms = left[seat.index()];
        let running = game.status == HostedStatus::Playing && clocks.runs(seat);
        Some(ClockView {
            ms_left: ms,
            running,
            words: format!(
                "{}:{:02}{}",
                ms / 60_000,
                (ms / 1000) % 60,
                if running { " (running)" } else { "" }
            ),
        })
    })
}

/// Why a game ended early: whose clock ran out, when one did.
fn stopped_words(game: &HostedGame, viewer: Viewer) -> Option<String> {
    match game.ended_by? {
        EndedBy::Time => {
            let flagged = game.clocks.and_then(|clocks| {
                let left = clocks.left_at(now());
                Seat::BOTH.into_iter().find(|seat| left[seat.index()] <= 0)
            });
            Some(match flagged {
                Some(seat) if viewer == Viewer::Player(seat) => "Your clock ran out.".into(),
                Some(seat) => format!("{}'s clock ran out.", seat.label()),
                None => "A clock ran out.".into(),
            })
        }
        EndedBy::Resignation => Some("The game ended by resignation.".into()),
        EndedBy::Absence => Some("The game was claimed: a player had been away too long.".into()),
        EndedBy::Rules => None,
    }
}

pub(super) struct PageInput<'a> {
    pub game: &'a HostedGame,
    pub account: Option<i64>,
    pub facts: &'a [(u64, Event)],
    pub catalog: &'a soulstone_engine::content::Catalog,
    pub standing: Option<StandingAnswers>,
    /// Fact ranges of the decisions the game took for the viewer.
    pub forced: &'a [(u64, u64)],
}

pub(super) fn game_page_data(ctx: PageContext, input: PageInput<'_>) -> GamePage {
    let game = input.game;
    let state = &game.state;
    let viewer = game.viewer_for(input.account);
    let you_seat = match viewer {
        Viewer::Player(seat) => Some(seat),
        Viewer::Spectator => None,
    };
    let names = Names::of(state, viewer);
    let seen = view(state, viewer);
    let clocks = clock_views(game);
    let players = Seat::BOTH
        .into_iter()
        .zip(clocks)
        .map(|(seat, clock)| {
            let p = &seen.players[seat.index()];
            PlayerLine {
                label: seat.label().into(),
                who: holder_name(game.seats[seat.index()], seat, viewer),
                side_class: side_class(seat),
                vp: p.victory_points,
                soulstones: p.soulstones,
                hand: p.hand_count,
                deck: p.deck_count,
                clock,
            }
        })
        .collect();
    let mut summary = Vec::new();
    let mut your_scheme = None;
    let mut turn = 0;
    if let Some(encounter) = &seen.encounter {
        let setup = &encounter.setup;
        turn = encounter.turn;
        summary.push(("Strategy".into(), setup.strategy.name.clone()));
        summary.push(("Deployment".into(), format!("{:?}", setup.deployment)));
        summary.push(("Attacker".into(), setup.attacker.label().into()));
        summary.push(("Scheme pool".into(), setup.scheme_pool.join(", ")));
        if let Some(crews) = &encounter.choices.crews {
            summary.push(("Crews".into(), format!("A: {}; B: {}", crews[0], crews[1])));
        }
        if let Viewer::Player(seat) = viewer {
            // A 3rd edition crew holds two until it reveals them.
            let held: Vec<String> = encounter.choices.schemes[seat.index()]
                .iter()
                .filter_map(|held| held.value.as_ref())
                .map(|held| match (held.target, held.second_target) {
                    (Some(target), Some(second)) => format!(
                        "{} (targets: {} and {})",
                        held.name,
                        names.labelled(target),
                        names.labelled(second)
                    ),
                    (Some(target), None) => {
                        format!("{} (target: {})", held.name, names.labelled(target))
                    }
                    _ => held.name.clone(),
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
        Viewer::Spectator => Vec::new(),
    };
    let acting_id = state.acting_model();
    let activated: &[soulstone_engine::model::ModelId] = state
        .encounter
        .as_deref()
        .map_or(&[], |e| e.activated.as_slice());
    let legend = state
        .models
        .iter()
        .map(|m| LegendLine {
            id: m.id.0,
            short: names.short(m.id),
            name: names.name(m.id),
            side_class: side_class(m.owner),
            health: format!("{}/{}", m.health, m.card.max_health),
            tokens: m
                .tokens
                .iter()
                .map(|(token, n)| {
                    let name = state.tokens.name(token);
                    if n > 1 {
                        format!("{name} {n}")
                    } else {
                        name.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(", "),
            acting: acting_id == Some(m.id),
            activated: activated.contains(&m.id),
            on_table: m.in_play() && m.placement.is_some(),
        })
        .collect();
    let cards = state
        .models
        .iter()
        .map(|m| cards::of_model(state, m, &names, input.catalog))
        .collect();
    let acting = acting_id.and_then(|id| state.model(id)).map(|m| {
        let speed = state.tokens.speed_of(m);
        let mut reach = vec![format!("walks {speed}\"")];
        for action in m.card.actions.iter().filter(|a| a.range > 0) {
            reach.push(format!("{} {}\"", action.name, action.range));
        }
        ActingLine {
            name: names.name(m.id),
            reach: reach.join(", "),
        }
    });
    let (prompt, forms) = match (&seen.decision, viewer) {
        (Some(decision), Viewer::Player(seat)) if decision.seat == seat && !state.ended => (
            decision.prompt.clone(),
            forms_for(state, seat, &names, &decision.choices),
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
    let words = Words::new(state, viewer, &names);
    let mut log = log_entries(&words, input.facts);
    for entry in &mut log {
        if input
            .forced
            .iter()
            .any(|(from, to)| (*from..=*to).contains(&entry.seq))
        {
            entry.summary.push_str(" (taken for you: the only choice)");
        }
    }
    let skip = log.len().saturating_sub(LOG_ENTRIES);
    let log: Vec<LogEntry> = log.into_iter().skip(skip).collect();
    GamePage {
        ctx,
        id: game.id,
        finished: game.status == HostedStatus::Finished,
        you: you_seat.map(|s| s.label().to_string()),
        you_code: match you_seat {
            Some(Seat::A) => "a",
            Some(Seat::B) => "b",
            None => "",
        },
        your_move: !forms.is_empty(),
        players,
        summary,
        turn,
        your_scheme,
        hand,
        board: board::render(state, &names, you_seat),
        table_inches: board::table_inches(),
        legend,
        cards,
        acting,
        duel: duel_panel::panel(state, &names),
        prompt,
        forms,
        waiting,
        version: state.version,
        key: hex::encode(rand::random::<[u8; 16]>()),
        log,
        replay: None,
        stopped: stopped_words(game, viewer),
        watching_note: None,
        claimable_after: None,
        standing: input.standing,
    }
}

#[get("/games/{id}")]
pub(super) async fn game_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let account = user.0.as_ref().map(|u| u.id());
    let loaded = state
        .with_db(move |conn| {
            let (game, watching) = match crate::hosted::event_games::load_for_viewer::<Malifaux>(
                conn,
                id,
                account,
                now(),
            ) {
                // Another system's game has a page of its own.
                Err(HostedError::OtherSystem { stored, .. }) => return Ok(Err(stored)),
                loaded => loaded?,
            };
            let after = game.state.version.saturating_sub(LOG_FACTS);
            let mut facts = hosted::facts_after::<Malifaux>(conn, id, after)?;
            facts.retain(|(seq, _)| *seq <= game.state.version);
            let seat = account.and_then(|a| game.seat_of(a));
            // A player of an event game whose opponent has been away long
            // enough may claim it.
            let claimable_after = match seat {
                Some(seat) => {
                    let allowed =
                        crate::hosted::event_games::absence_allowed(conn, game.pairing_game_id)?;
                    match (allowed, game.waiting_on_opponent_of(seat, now())) {
                        (Some(allowed), Some(minutes)) if minutes >= allowed.num_minutes() => {
                            Some(minutes)
                        }
                        _ => None,
                    }
                }
                None => None,
            };
            let (standing, forced) = match (seat, account) {
                (Some(seat), Some(account)) => (
                    Some(hosted::standing_answers(conn, account)?),
                    hosted::forced_for(conn, id, seat)?,
                ),
                _ => (None, Vec::new()),
            };
            Ok(Ok((
                game,
                facts,
                watching,
                claimable_after,
                standing,
                forced,
            )))
        })
        .await?;
    let (game, facts, watching, claimable_after, standing, forced) = match loaded {
        Ok(loaded) => loaded,
        Err(system) => {
            return match super::game_href(id, &system) {
                Some(href) => Ok(HttpResponse::SeeOther()
                    .insert_header(("Location", href))
                    .finish()),
                None => Err(AppError::NotFound),
            };
        }
    };
    if game.searching_bot_due() {
        state.bot_turns.schedule(id);
    }
    let viewer = game.viewer_for(account);
    let mut page = game_page_data(
        ctx.clone(),
        PageInput {
            game: &game,
            account,
            facts: &facts,
            catalog: &state.catalog,
            standing,
            forced: &forced,
        },
    );
    page.watching_note = watching_note(watching, viewer);
    page.claimable_after = claimable_after;
    render_page(&ctx, &page)
}

#[derive(Debug, Deserialize)]
pub struct ReplayQuery {
    #[serde(default)]
    pub at: Option<u64>,
}

/// A finished game at any fact, turn or activation, as the viewer saw it.
#[get("/games/{id}/replay")]
pub(super) async fn replay_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<ReplayQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let account = user.0.as_ref().map(|u| u.id());
    let (game, log) = state
        .with_db(move |conn| {
            Ok((
                hosted::load::<Malifaux>(conn, id)?,
                hosted::finished_log::<Malifaux>(conn, id)?,
            ))
        })
        .await?;
    let at = query.at.unwrap_or(0).min(log.facts.len() as u64);
    let mut replayed = GameState::new(log.setup.clone())
        .map_err(|e| AppError::internal(format!("game {id}: {e}")))?;
    let shown = usize::try_from(at).unwrap_or(usize::MAX);
    for fact in &log.facts[..shown] {
        soulstone_engine::apply(&mut replayed, fact);
    }
    let facts: Vec<(u64, Event)> = log.facts[..shown]
        .iter()
        .zip(1u64..)
        .skip(shown.saturating_sub(LOG_FACTS as usize))
        .map(|(fact, seq)| (seq, fact.clone()))
        .collect();
    let nav = ReplayNav::around(&log.facts, at);
    let at_that_point = HostedGame {
        state: replayed,
        ..game
    };
    let mut page = game_page_data(
        ctx.clone(),
        PageInput {
            game: &at_that_point,
            account,
            facts: &facts,
            catalog: &state.catalog,
            standing: None,
            forced: &[],
        },
    );
    page.forms.clear();
    page.your_move = false;
    page.replay = Some(nav);
    render_page(&ctx, &page)
}
