//! The Mage Knight table: starting a practice game against a bot, the
//! game page (the battlefield drawn, the warriors' dials, the log with its
//! numbers, and the decision as forms: the orders worth making as
//! one-click choices, a move to any point, the end of the action phase),
//! and the orders it sends. Works without scripts. The rules of who may
//! act live in `crate::hosted`; a seat always comes from the session.

mod board;
mod forms;

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::bombardment;
use soulstone_engine::mage_knight::bots::suggestions;
use soulstone_engine::mage_knight::{Battle, MageKnight, Stage, hidden_from, words};
use soulstone_engine::system::TableGame;

use super::{form_field, now, system_pages};
use crate::hosted::{self, ArmyPractice, HostedError};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, MaybeUser};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(start_practice)
        .service(game_page)
        .service(post_order)
        .service(moves)
        .service(log_download);
}

/// The ready armies a player may bring, by name.
pub fn army_names() -> Vec<String> {
    crate::content::mage_knight_roster()
        .map(|roster| roster.armies().iter().map(|a| a.name.clone()).collect())
        .unwrap_or_default()
}

#[post("/play/mk/practice")]
async fn start_practice(
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let fields = form.0;
    let roster = crate::content::mage_knight_roster().map_err(AppError::internal)?;
    let army = form_field(&fields, "army").to_owned();
    let bot = match form_field(&fields, "bot") {
        "" => BotKind::Normal,
        level => match level.parse::<BotKind>() {
            Ok(kind) => kind,
            Err(_) => {
                return Ok(redirect_with_flash(
                    &state,
                    "/play",
                    FlashLevel::Error,
                    "Choose a Mage Knight opponent: easy, normal, hard or random.",
                ));
            }
        },
    };
    let names: Vec<&str> = roster.armies().iter().map(|a| a.name.as_str()).collect();
    let bot_army = system_pages::other_than(&names, &army);
    let request = ArmyPractice {
        account_id: user.id(),
        army,
        bot,
        bot_army,
        seed: Bytes32(rand::random()),
        time_control_ms: None,
        content: state.content.stamp(),
    };
    let started = state
        .with_db(move |conn| Ok(hosted::start_army_practice(conn, roster, &request, now())))
        .await?;
    match started {
        Ok(id) => {
            // The bot may move first; if it searches, it does so there.
            state.bot_turns.schedule(id);
            Ok(HttpResponse::SeeOther()
                .insert_header(("Location", format!("/mk/games/{id}")))
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

/// One order offered as a button: its words and the order as JSON.
struct Choice {
    words: String,
    order: String,
}

/// A warrior's line in the table under the board.
#[derive(Clone)]
struct WarriorLine {
    id: u16,
    name: String,
    seat: &'static str,
    values: String,
    damage: String,
    tokens: u8,
    at: String,
    /// Whom it holds captive, or who holds it.
    held: String,
    ready: bool,
}

#[derive(Template)]
#[template(path = "play/mage_knight.html")]
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
    choices: Vec<Choice>,
    /// The warriors a free move or attack may be given to.
    movable: Vec<WarriorLine>,
    /// Whether one of them holds a captive (the move form asks where it
    /// ends).
    captor_movable: bool,
    /// Opposing warriors on the battlefield, for a free attack's targets.
    targets: Vec<WarriorLine>,
    /// Friendly warriors on the battlefield without action tokens, who may
    /// gang up.
    helpers: Vec<WarriorLine>,
    /// The pile's features (number, words) while the player places one.
    pile: Vec<(usize, String)>,
    /// Placing the second of a constructed pair: only constructed
    /// terrain, or none.
    second_constructed: bool,
    /// Constructed features on the battlefield (number, words), which a
    /// warrior may attack.
    structures: Vec<(usize, String)>,
    /// The domains in play, or the viewer's own choice before they are
    /// revealed, in words.
    domains: Vec<String>,
    /// Where each warrior would deploy (the bots' rows), for the player
    /// to change: (id, name, across, up, facing, a wing warrior).
    deployment: Vec<(u16, String, String, String, u16, bool)>,
    /// Items the player may drop now ("warrior:item", words): at the
    /// start of its turn, before any action.
    droppable: Vec<(String, String)>,
    /// Dropped items on the battlefield (number, words), for a pick-up.
    loose: Vec<(usize, String)>,
    /// Ready warriors whose dial shows Bombardment now, with how many
    /// tokens each places.
    bombardiers: Vec<(WarriorLine, u8)>,
    can_end_actions: bool,
    contributing: bool,
    warriors: Vec<WarriorLine>,
    log: Vec<String>,
    over: bool,
    /// How a spectator watches (live or delayed).
    watching: Option<String>,
}

/// The domains in play once revealed; before, the viewer's own chosen
/// card (its view holds no other).
fn domain_lines(battle: &Battle, seat: Option<Seat>) -> Vec<String> {
    if !battle.domains.is_empty() {
        return battle
            .domains
            .iter()
            .map(|d| format!("In play: {}. {}", d.name, d.text))
            .collect();
    }
    seat.and_then(|s| {
        let chosen = battle.domain_choice[s.index()]?;
        let card = battle.domain_decks[s.index()].get(usize::from(chosen))?;
        Some(format!(
            "You chose {}: it is revealed once your opponent has chosen. {}",
            card.name, card.text
        ))
    })
    .into_iter()
    .collect()
}

fn warrior_lines(battle: &Battle, seat: Option<Seat>) -> Vec<WarriorLine> {
    battle
        .warriors
        .iter()
        .map(|w| {
            let click = w.click();
            let at = w.at.map_or_else(
                || {
                    if w.eliminated {
                        "eliminated".into()
                    } else {
                        "not deployed".into()
                    }
                },
                |p| {
                    format!(
                        "({:.1}, {:.1}) facing {}°{}",
                        p.v2().x,
                        p.v2().y,
                        w.facing,
                        if w.soaring { ", soaring" } else { "" }
                    )
                },
            );
            let wielding = if w.items.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = w.items.iter().map(|i| i.name.as_str()).collect();
                format!(" (wielding {})", names.join(", "))
            };
            WarriorLine {
                id: w.id.0,
                name: format!("{}{wielding}", w.card.name),
                seat: w.seat.label(),
                values: format!(
                    "{} / {} / {} / {}",
                    click.speed, click.attack, click.defense, click.damage
                ),
                damage: format!("{} of {}", w.damage, w.card.clicks()),
                tokens: w.tokens,
                at,
                held: match (w.captor, w.captive) {
                    (Some(captor), _) => format!("captive of #{}", captor.0),
                    (None, Some(captive)) => format!("holds #{} captive", captive.0),
                    (None, None) => String::new(),
                },
                ready: Some(w.seat) == seat
                    && matches!(battle.stage, Stage::Acting { .. })
                    && w.on_battlefield()
                    && !w.is_captive()
                    && !w.acted
                    && w.tokens < 2
                    && battle.actions_left > 0,
            }
        })
        .collect()
}

#[get("/mk/games/{id}")]
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
            // Players and staff see it live; an event's spectators as late
            // as the event delays them.
            let (game, watching) =
                hosted::event_games::load_for_viewer::<MageKnight>(conn, id, account, now())?;
            let mut facts = hosted::facts_after::<MageKnight>(conn, id, 0)?;
            facts.retain(|(seq, _)| *seq <= game.state.version);
            Ok((game, facts, watching))
        })
        .await?;
    // A bot's turn the queue could not take, or one a restart cut short,
    // is taken up when someone looks.
    let bot_thinking = game.searching_bot_due();
    if bot_thinking {
        state.bot_turns.schedule(id);
    }
    let seat = account.and_then(|a| game.seat_of(a));
    // The page shows what the seat may see: never the dice's seed, nor
    // the other player's domain cards before they are revealed.
    let battle = hidden_from(&game.state, seat);
    let your_decision = seat.is_some_and(|s| battle.waits_for(s));
    let choices = match seat {
        Some(s) if your_decision => suggestions(&battle, s, 12)
            .into_iter()
            .map(|order| Choice {
                words: words::order(&battle, s, &order),
                order: serde_json::to_string(&order).unwrap_or_default(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let warriors = warrior_lines(&battle, seat);
    let movable: Vec<WarriorLine> = warriors.iter().filter(|w| w.ready).cloned().collect();
    let captor_movable = movable.iter().any(|line| {
        battle
            .warrior(soulstone_engine::mage_knight::WarriorId(line.id))
            .is_some_and(|w| w.captive.is_some())
    });
    let pile = if your_decision && matches!(battle.stage, Stage::PlacingTerrain { .. }) {
        battle
            .pile
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let (_, radius) = f.shape().bounding_circle();
                let built = words::construction(f, 0)
                    .map(|w| format!("; {w}"))
                    .unwrap_or_default();
                (
                    i,
                    format!(
                        "{} ({}, {:.1}\" across{built})",
                        f.name,
                        f.kind.words(),
                        radius * 2.0
                    ),
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    // The deployment the choices would send, each place open to change.
    let deployment = match seat {
        Some(s) if your_decision && matches!(battle.stage, Stage::Deploying { .. }) => {
            suggestions(&battle, s, 1)
                .into_iter()
                .find_map(|order| match order {
                    soulstone_engine::mage_knight::Order::Deploy { placements } => Some(placements),
                    _ => None,
                })
                .unwrap_or_default()
                .into_iter()
                .filter_map(|p| {
                    let w = battle.warrior(p.warrior)?;
                    let at = p.at.v2();
                    Some((
                        p.warrior.0,
                        w.card.name.clone(),
                        format!("{:.2}", at.x),
                        format!("{:.2}", at.y),
                        p.facing,
                        w.card.speed_type
                            == soulstone_engine::mage_knight::warrior::SpeedType::Wing,
                    ))
                })
                .collect()
        }
        _ => Vec::new(),
    };
    let droppable = match seat {
        Some(s) if your_decision && matches!(battle.stage, Stage::Acting { .. }) => battle
            .army(s)
            .filter(|w| w.on_battlefield())
            .flat_map(|w| {
                w.items.iter().enumerate().map(move |(i, item)| {
                    (
                        format!("{}:{i}", w.id.0),
                        format!("#{} {} drops {}", w.id.0, w.card.name, item.name),
                    )
                })
            })
            .filter(|_| !battle.army(s).any(|w| w.acted))
            .collect(),
        _ => Vec::new(),
    };
    let loose = if movable.is_empty() {
        Vec::new()
    } else {
        battle
            .loose_items
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let at = l.at.v2();
                (i, format!("{} at ({:.1}, {:.1})", l.item.name, at.x, at.y))
            })
            .collect()
    };
    let structures = if movable.is_empty() {
        Vec::new()
    } else {
        battle
            .terrain
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let taken = battle.structure_damage(u8::try_from(i).ok()?);
                Some((i, format!("{}, {}", f.name, words::construction(f, taken)?)))
            })
            .collect()
    };
    let bombardiers = match seat {
        Some(seat) if your_decision => movable
            .iter()
            .filter_map(|line| {
                let id = soulstone_engine::mage_knight::WarriorId(line.id);
                let (_, token) = bombardment::may_bombard(&battle, seat, id).ok()?;
                Some((line.clone(), token.tokens))
            })
            .collect(),
        _ => Vec::new(),
    };
    let standing = |w: &&WarriorLine| {
        battle
            .warrior(soulstone_engine::mage_knight::WarriorId(w.id))
            .is_some_and(|w| w.on_battlefield())
    };
    let (targets, helpers) = match seat {
        Some(seat) if your_decision => (
            warriors
                .iter()
                .filter(standing)
                .filter(|w| w.seat != seat.label())
                .cloned()
                .collect(),
            warriors
                .iter()
                .filter(standing)
                .filter(|w| w.seat == seat.label() && w.tokens == 0)
                .cloned()
                .collect(),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let log: Vec<String> = facts
        .iter()
        .rev()
        .filter_map(|(_, fact)| words::fact(&battle, fact))
        .take(60)
        .collect();
    let over = MageKnight::is_over(&battle);
    let status = match &battle.outcome {
        Some(outcome) => outcome.words(),
        None => {
            format!(
                "Round {} of {}; the game waits for {}{}",
                battle.round().max(1),
                battle.rounds,
                soulstone_engine::mage_knight::orders::asking(&battle.stage),
                if matches!(battle.stage, Stage::Acting { .. }) {
                    format!(" ({} actions left)", battle.actions_left)
                } else {
                    String::new()
                }
            ) + if bot_thinking {
                ". The bot is thinking; its answer shows when you look again"
            } else {
                ""
            }
        }
    };
    let page = GamePage {
        ctx: ctx.clone(),
        id,
        title: format!("{} against {}", battle.army_names[0], battle.army_names[1]),
        board: board::svg(&battle),
        status,
        seat: seat.map(Seat::label),
        your_decision,
        version: battle.version,
        key: hex::encode(rand::random::<[u8; 16]>()),
        choices,
        movable,
        captor_movable,
        targets,
        helpers,
        bombardiers,
        pile,
        second_constructed: battle.second_constructed,
        structures,
        domains: domain_lines(&battle, seat),
        droppable,
        loose,
        deployment,
        can_end_actions: your_decision && matches!(battle.stage, Stage::Acting { .. }),
        contributing: your_decision && battle.stage == Stage::Contributing,
        warriors,
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

#[post("/mk/games/{id}/order")]
async fn post_order(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let here = format!("/mk/games/{id}");
    let fields = form.0;
    let version_and_key = super::version_and_key(&fields)?;
    let asked = match forms::asked_by_form(&fields) {
        Ok(asked) => asked,
        Err(problem) => {
            return Ok(redirect_with_flash(
                &state,
                &here,
                FlashLevel::Error,
                problem,
            ));
        }
    };
    // A formation following its leader needs the warriors' places.
    system_pages::send_command::<MageKnight>(
        &state,
        user.id(),
        id,
        version_and_key,
        here,
        move |conn| {
            Ok(match asked {
                forms::Asked::Order(order) => order,
                follow => follow.into_order(&hosted::load::<MageKnight>(conn, id)?.state),
            })
        },
    )
    .await
}

/// Notices that the game moved on, for the page's script.
#[get("/mk/games/{id}/moves")]
async fn moves(
    req: actix_web::HttpRequest,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let account = user.0.as_ref().map(|u| u.id());
    system_pages::moved_notices::<MageKnight>(&req, account, &state, path.into_inner()).await
}

/// A finished game's log (JSON), for `soulstone game verify`.
#[get("/mk/games/{id}/log")]
async fn log_download(
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    system_pages::log_download::<MageKnight>(&state, path.into_inner(), "mage-knight").await
}
