//! The 1st edition table: starting a practice game against a bot, the
//! game page (the table drawn, the models' stats and wounds, the hand, the
//! duel's numbers, the log) with every legal choice as a button, a walk
//! or a deployment to any point, and the commands it sends. Works without
//! scripts. Who may act is `crate::hosted`'s; a seat comes from the
//! session.

use std::fmt::Write;

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::first_edition::actions::Action;
use soulstone_engine::first_edition::bots::choices;
use soulstone_engine::first_edition::flow::Order;
use soulstone_engine::first_edition::objectives::{Deployment, Strategy};
use soulstone_engine::first_edition::{FirstEdition, Skirmish, Stage, field, hidden_from, words};
use soulstone_engine::table::{Point, inches};

use super::{form_field, now, system_pages};
use crate::hosted::{self, CrewPractice, HostedError};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, MaybeUser};

/// Deployment spots offered as buttons (the form takes any point).
const DEPLOY_CHOICES: usize = 8;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(start_practice)
        .service(game_page)
        .service(post_order)
        .service(moves)
        .service(log_download);
}

/// The ready crews a player may bring, by name.
pub fn crew_names() -> Vec<String> {
    crate::content::first_edition_content()
        .map(|(book, _)| book.crews().iter().map(|c| c.name.clone()).collect())
        .unwrap_or_default()
}

#[post("/play/m1e/practice")]
async fn start_practice(
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let fields = form.0;
    let (book, conditions) = crate::content::first_edition_content().map_err(AppError::internal)?;
    let crew = form_field(&fields, "crew").to_owned();
    let bot = match form_field(&fields, "bot") {
        "" => BotKind::Normal,
        level => match level.parse::<BotKind>() {
            Ok(kind) => kind,
            Err(_) => {
                return Ok(redirect_with_flash(
                    &state,
                    "/play",
                    FlashLevel::Error,
                    "Choose a 1st edition opponent: easy, normal, hard or random.",
                ));
            }
        },
    };
    let names: Vec<&str> = book.crews().iter().map(|c| c.name.as_str()).collect();
    let bot_crew = system_pages::other_than(&names, &crew);
    let request = CrewPractice {
        account_id: user.id(),
        crew,
        bot,
        bot_crew,
        seed: Bytes32(rand::random()),
        time_control_ms: None,
        content: state.content.stamp(),
    };
    let started = state
        .with_db(move |conn| {
            Ok(hosted::start_crew_practice(
                conn,
                book,
                conditions,
                &request,
                now(),
            ))
        })
        .await?;
    match started {
        Ok(id) => {
            // The bot may move first; if it searches, it does so there.
            state.bot_turns.schedule(id);
            Ok(HttpResponse::SeeOther()
                .insert_header(("Location", format!("/m1e/games/{id}")))
                .finish())
        }
        Err(HostedError::Invalid(problem)) => Ok(redirect_with_flash(
            &state,
            "/play",
            FlashLevel::Error,
            problem,
        )),
        Err(other) => Err(other.into()),
    }
}

/// One command offered as a button: its words and the command as JSON.
struct Choice {
    words: String,
    order: String,
}

/// A model's line in the table beside the board.
struct ModelLine {
    id: u16,
    name: String,
    seat: &'static str,
    stats: String,
    wounds: String,
    conditions: String,
    at: String,
    activated: bool,
}

#[derive(Template)]
#[template(path = "play/first_edition.html")]
struct GamePage {
    ctx: PageContext,
    id: i64,
    title: String,
    board: String,
    status: String,
    seat: Option<&'static str>,
    your_decision: bool,
    version: u64,
    key: String,
    contributing: bool,
    choices: Vec<Choice>,
    /// The acting model's name, when a walk to any point is open.
    walker: Option<String>,
    /// Models to deploy (id, name), when deploying.
    deployable: Vec<(u16, String)>,
    /// The duel under way, in numbers.
    duel: Option<String>,
    /// The viewer's hand, soulstones, strategy and schemes.
    hand: Vec<String>,
    own: Vec<String>,
    /// What the other player has shown (strategy, announced schemes).
    theirs: Vec<String>,
    models: Vec<ModelLine>,
    log: Vec<String>,
    over: bool,
    watching: Option<String>,
}

fn model_lines(game: &Skirmish) -> Vec<ModelLine> {
    game.models
        .iter()
        .map(|m| {
            let c = &m.card;
            ModelLine {
                id: m.id.0,
                name: c.name.clone(),
                seat: m.seat.label(),
                stats: format!(
                    "Wk {} Cg {} Ht {} Wp {} Df {} Ca {}",
                    c.wk, c.cg, c.ht, c.wp, c.df, c.ca
                ),
                wounds: format!("{} of {}", m.wounds_left, c.wd),
                conditions: m
                    .conditions
                    .iter()
                    .map(|(n, v)| format!("{n} {v}"))
                    .chain(m.defensive.then(|| "defensive stance".to_owned()))
                    .chain(m.falling_back.then(|| "falling back".to_owned()))
                    .chain(
                        m.carries_treasure
                            .then(|| "carries the treasure".to_owned()),
                    )
                    .collect::<Vec<_>>()
                    .join(", "),
                at: if m.killed {
                    "killed".into()
                } else {
                    m.at.map_or_else(
                        || "not on the table".into(),
                        |p| format!("({:.1}, {:.1})", inches(p.x), inches(p.y)),
                    )
                },
                activated: m.activated,
            }
        })
        .collect()
}

/// What `seat` holds and has chosen, and what the other has shown.
fn player_lines(game: &Skirmish, seat: Option<Seat>) -> (Vec<String>, Vec<String>, Vec<String>) {
    let describe = |s: Seat| {
        let player = game.player(s);
        let mut lines = vec![format!(
            "{} ({}): {} soulstones, {} cards in hand, {} in the deck",
            player.crew_name, player.faction, player.soulstones, player.hand_size, player.deck_size
        )];
        if let Some(strategy) = player.strategy {
            lines.push(format!("Strategy: {}", strategy.name()));
        }
        for pick in &player.schemes {
            let named = pick
                .model
                .and_then(|m| game.model(m))
                .map(|m| format!(" ({})", m.card.name))
                .unwrap_or_default();
            lines.push(format!(
                "Scheme: {}{named}{}",
                pick.scheme.name(),
                if pick.announce { ", announced" } else { "" }
            ));
        }
        lines
    };
    let hand = seat
        .map(|s| game.player(s).hand.iter().map(|c| c.long_name()).collect())
        .unwrap_or_default();
    match seat {
        Some(s) => (hand, describe(s), describe(s.other())),
        None => (hand, describe(Seat::A), describe(Seat::B)),
    }
}

/// The table from above: deployment zones, the Claim Jump area and the
/// treasure when in play, and each model as its base, numbered.
fn board(game: &Skirmish) -> String {
    let mut svg = String::from(
        r##"<svg class="m1e-board" viewBox="0 0 36 36" role="img" aria-label="The table, Player A's edge at the bottom"><rect width="36" height="36" fill="#e9e4d4"/>"##,
    );
    // Screen y grows downward; the table's grows from Player A's edge.
    let flip = |y: f64| 36.0 - y;
    if let Some(deployment) = game.deployment {
        for (side, colour) in [(0usize, "#c9d8f0"), (1, "#f0cccc")] {
            let points: Vec<(f64, f64)> = match deployment {
                Deployment::Standard => vec![(0.0, 0.0), (36.0, 0.0), (36.0, 6.0), (0.0, 6.0)],
                Deployment::Corners => vec![(0.0, 0.0), (8.0, 0.0), (8.0, 8.0), (0.0, 8.0)],
                Deployment::Diagonal => {
                    let near = 36.0 - 18.0 * std::f64::consts::SQRT_2;
                    let far = 36.0 - 10.0 * std::f64::consts::SQRT_2;
                    vec![(near, 0.0), (far, 0.0), (0.0, far), (0.0, near)]
                }
            };
            let side = if game.first_deployer.is_some_and(|s| s == Seat::B) {
                1 - side
            } else {
                side
            };
            let shown: Vec<String> = points
                .into_iter()
                .map(|(x, y)| {
                    if side == 0 {
                        (x, y)
                    } else {
                        (36.0 - x, 36.0 - y)
                    }
                })
                .map(|(x, y)| format!("{x:.2},{:.2}", flip(y)))
                .collect();
            let _ = write!(
                svg,
                r#"<polygon points="{}" fill="{colour}"/>"#,
                shown.join(" ")
            );
        }
    }
    if Seat::BOTH
        .iter()
        .any(|s| game.player(*s).strategy == Some(Strategy::ClaimJump))
    {
        svg.push_str(r##"<rect x="15" y="15" width="6" height="6" fill="none" stroke="#7a6a3a" stroke-width="0.1" stroke-dasharray="0.4 0.2"/>"##);
    }
    if let Some(marker) = game.treasure {
        let _ = write!(
            svg,
            r##"<circle cx="{:.2}" cy="{:.2}" r="0.59" fill="#d4af37" stroke="#5a4a1a" stroke-width="0.08"><title>The treasure</title></circle>"##,
            inches(marker.x),
            flip(inches(marker.y))
        );
    }
    let active = match &game.stage {
        Stage::Acting { activation } => Some(activation.model),
        _ => None,
    };
    for m in game.models.iter().filter(|m| m.on_table()) {
        let Some(p) = field::at(m) else { continue };
        let colour = if m.seat == Seat::A {
            "#3a6fc4"
        } else {
            "#c43a3a"
        };
        let ring = if Some(m.id) == active {
            r##" stroke="#f2c200" stroke-width="0.2""##
        } else {
            r##" stroke="#222" stroke-width="0.06""##
        };
        let _ = write!(
            svg,
            r#"<g><circle cx="{:.2}" cy="{:.2}" r="{:.3}" fill="{colour}"{ring}/><text x="{:.2}" y="{:.2}" font-size="0.7" text-anchor="middle" fill="white">{}</text></g>"#,
            p.x,
            flip(p.y),
            field::radius(&m.card),
            p.x,
            flip(p.y) + 0.25,
            m.id.0
        );
    }
    svg.push_str("</svg>");
    svg
}

#[get("/m1e/games/{id}")]
async fn game_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let account = user.0.as_ref().map(|u| u.id());
    let (game, facts, watching) = state
        .with_db(move |conn| {
            let (game, watching) =
                hosted::event_games::load_for_viewer::<FirstEdition>(conn, id, account, now())?;
            let mut facts = hosted::facts_after::<FirstEdition>(conn, id, 0)?;
            facts.retain(|(seq, _)| *seq <= game.state.version);
            Ok((game, facts, watching))
        })
        .await?;
    // A bot's turn the queue could not take, or one a restart cut short,
    // is taken up when someone looks.
    if game.searching_bot_due() {
        state.bot_turns.schedule(id);
    }
    let seat = account.and_then(|a| game.seat_of(a));
    // Only what the seat may see: no deck's order, no other hand, no
    // unannounced scheme of the other player's, no seed.
    let skirmish = hidden_from(&game.state, seat);
    let your_decision = seat.is_some_and(|s| skirmish.waits_for(s));
    let contributing = your_decision && skirmish.stage == Stage::Contributing;
    let mut offered = match seat {
        Some(s) if your_decision && !contributing => choices(&skirmish, s),
        _ => Vec::new(),
    };
    if matches!(skirmish.stage, Stage::Deploying { .. }) {
        offered.truncate(DEPLOY_CHOICES);
    }
    let choices = offered
        .iter()
        .map(|order| Choice {
            words: seat.map_or_else(String::new, |s| words::order(&skirmish, s, order)),
            order: serde_json::to_string(order).unwrap_or_default(),
        })
        .collect();
    let walker = match &skirmish.stage {
        Stage::Acting { activation } if your_decision => skirmish
            .model(activation.model)
            .map(|m| m.card.name.clone()),
        _ => None,
    };
    let deployable = match (&skirmish.stage, seat) {
        (Stage::Deploying { .. }, Some(s)) if your_decision => skirmish
            .crew(s)
            .filter(|m| m.at.is_none() && !m.killed)
            .map(|m| (m.id.0, m.card.name.clone()))
            .collect(),
        _ => Vec::new(),
    };
    let (hand, own, theirs) = player_lines(&skirmish, seat);
    let log = facts
        .iter()
        .rev()
        .filter_map(|(_, fact)| words::fact(&skirmish, fact, seat))
        .take(80)
        .collect();
    let over = skirmish.is_over();
    let status = match skirmish.result {
        Some(result) => format!(
            "Game over after turn {}: Player A {} VP ({} strategy, {} schemes), Player B {} VP ({} strategy, {} schemes).",
            skirmish.turn,
            result[0].0 + result[0].1,
            result[0].0,
            result[0].1,
            result[1].0 + result[1].1,
            result[1].0,
            result[1].1
        ),
        None => format!(
            "Turn {}; the game waits: {}.",
            skirmish.turn.max(1),
            words::asking(&skirmish.stage)
        ),
    };
    let page = GamePage {
        ctx: ctx.clone(),
        id,
        title: format!(
            "{} against {}",
            skirmish.players[0].crew_name, skirmish.players[1].crew_name
        ),
        board: board(&skirmish),
        status,
        seat: seat.map(Seat::label),
        your_decision,
        version: skirmish.version,
        key: hex::encode(rand::random::<[u8; 16]>()),
        contributing,
        choices,
        walker,
        deployable,
        duel: words::duel(&skirmish),
        hand,
        own,
        theirs,
        models: model_lines(&skirmish),
        log,
        over,
        watching: super::watching_note(
            watching,
            seat.map_or(
                soulstone_engine::Viewer::Spectator,
                soulstone_engine::Viewer::Player,
            ),
        ),
    };
    render_page(&ctx, &page)
}

/// A point typed in inches, on the table.
fn point(fields: &[(String, String)]) -> Result<Point, String> {
    let number = |name: &str, label: &str| {
        form_field(fields, name)
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && (0.0..=field::SIZE).contains(v))
            .ok_or_else(|| format!("{label} is a number of inches from 0 to 36."))
    };
    let x = number("x", "Across")?;
    let y = number("y", "Up")?;
    Ok(field::point(soulstone_engine::table::geometry::V2::new(
        x, y,
    )))
}

/// The command a form asks for, or why it cannot be read.
fn order_from_form(fields: &[(String, String)]) -> Result<Order, String> {
    match form_field(fields, "kind") {
        "choice" => serde_json::from_str(form_field(fields, "order"))
            .map_err(|_| "That choice could not be read: reload the page.".to_owned()),
        "contribute" => {
            let typed = form_field(fields, "entropy").trim();
            let entropy = if typed.is_empty() {
                Bytes32(rand::random())
            } else {
                Bytes32::digest_of(typed)
            };
            Ok(Order::Contribute { entropy })
        }
        "walk" => Ok(Order::Act {
            action: Action::Walk { to: point(fields)? },
        }),
        "deploy" => {
            let model = form_field(fields, "model")
                .parse::<u16>()
                .map_err(|_| "Choose a model to deploy.".to_owned())?;
            Ok(Order::Deploy {
                model: soulstone_engine::first_edition::ModelId(model),
                at: point(fields)?,
            })
        }
        _ => Err("That form could not be read: reload the page.".into()),
    }
}

#[post("/m1e/games/{id}/order")]
async fn post_order(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let here = format!("/m1e/games/{id}");
    let fields = form.0;
    let version_and_key = super::version_and_key(&fields)?;
    let order = match order_from_form(&fields) {
        Ok(order) => order,
        Err(problem) => {
            return Ok(redirect_with_flash(
                &state,
                &here,
                FlashLevel::Error,
                problem,
            ));
        }
    };
    system_pages::send_command::<FirstEdition>(&state, user.id(), id, version_and_key, here, |_| {
        Ok(order)
    })
    .await
}

/// Notices that the game moved on, for a page's script.
#[get("/m1e/games/{id}/moves")]
async fn moves(
    req: actix_web::HttpRequest,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let account = user.0.as_ref().map(|u| u.id());
    system_pages::moved_notices::<FirstEdition>(&req, account, &state, path.into_inner()).await
}

/// A finished game's log (JSON), for `soulstone game verify`.
#[get("/m1e/games/{id}/log")]
async fn log_download(
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    system_pages::log_download::<FirstEdition>(&state, path.into_inner(), "malifaux-1e").await
}
