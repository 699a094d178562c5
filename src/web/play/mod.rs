//! Hosted play in the browser and the API: starting a practice game, the
//! game page with the decision it waits for as forms, and the JSON
//! commands. The rules of who may act live in `crate::hosted`; a seat
//! always comes from the session.

pub mod api;
mod board;
pub mod cards;
pub mod command;
mod duel_panel;
pub mod first_edition_cards;
mod forms;
pub mod limits;
pub mod live;
pub mod names;
mod page;
mod practice;
mod preview;
mod system_pages;
pub mod words;

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::forced::StandingAnswers;
use soulstone_engine::system::Malifaux;
use soulstone_engine::{Seat, Viewer};

use crate::crews::saved::SavedCrew;
use crate::hosted::brought::Brought;
use crate::hosted::event_games::Watching;
use crate::hosted::{self, BroughtList, HostedError, Submitted};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::download;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser};
use command::command_from_form;

pub(crate) mod first_edition;
mod invite;
pub(crate) mod mage_knight;

pub fn routes(cfg: &mut web::ServiceConfig) {
    // Before "/games/{id}", which would take "signing-key" for an id.
    cfg.service(signing_key)
        .service(practice::practice_page)
        .service(practice::start_practice)
        .service(page::game_page)
        .service(page::replay_page)
        .service(log_download)
        .service(verify_page)
        .service(resign_page)
        .service(resign)
        .service(claim_page)
        .service(claim)
        .service(live::stream)
        .service(post_command)
        .service(preview::post_preview)
        .service(post_settings);
    invite::routes(cfg);
    mage_knight::routes(cfg);
    first_edition::routes(cfg);
}

impl From<HostedError> for AppError {
    fn from(error: HostedError) -> Self {
        match error {
            // This table plays Malifaux; another system's game is not here.
            HostedError::NotFound | HostedError::OtherSystem { .. } => AppError::NotFound,
            HostedError::NotAPlayer => AppError::forbidden(error.to_string()),
            HostedError::MovedOn { .. } | HostedError::Over | HostedError::NotOver => {
                AppError::Conflict(error.to_string())
            }
            HostedError::Refused(_) | HostedError::Invalid(_) => {
                AppError::bad_request(error.to_string())
            }
            HostedError::Db(db) => db.into(),
            HostedError::Event(event) => event.into(),
            HostedError::Corrupt { .. } => AppError::internal(error.to_string()),
        }
    }
}

/// The page of game `id`, played by the system stored as `code` (None for
/// a system this server has no page for).
pub(crate) fn game_href(id: i64, code: &str) -> Option<String> {
    use soulstone_engine::system::{FirstEdition, MageKnight, Malifaux, TableGame};
    if code == Malifaux::CODE {
        Some(format!("/games/{id}"))
    } else if code == MageKnight::CODE {
        Some(format!("/mk/games/{id}"))
    } else if code == FirstEdition::CODE {
        Some(format!("/m1e/games/{id}"))
    } else {
        None
    }
}

pub(super) fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

/// The shipped crew lists a player may bring, 4th edition first: (file,
/// list).
pub(super) fn shipped_lists() -> Vec<(&'static str, CrewList)> {
    let mut lists: Vec<(&'static str, CrewList)> = crate::content::shipped_crews()
        .iter()
        .filter_map(|(path, text)| Some((*path, CrewList::parse(text).ok()?)))
        .collect();
    lists.sort_by_key(|(_, list)| list.edition != soulstone_engine::Edition::Fourth);
    lists
}

/// "content/m4e/crews/mudlark-50.txt" → "mudlark-50".
pub(super) fn list_name(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.strip_suffix(".txt").unwrap_or(file).to_string()
}

pub struct CrewOption {
    pub value: String,
    pub label: String,
    /// Ticked when the form is shown.
    pub ticked: bool,
}

/// The crews a player brings, from the crews fieldset
/// (`templates/play/crews_fieldset.html`): ticked shipped lists and a
/// pasted list. Also gives back the pasted text, to show again; on a
/// problem, the message and that text.
/// What a player wrote on a form bringing crews or an army, to show again
/// when it is refused.
#[derive(Debug, Clone, Default)]
pub(crate) struct Written {
    pub own_list: String,
    pub own_army: String,
    pub own_first_edition_crew: String,
}

/// What a form brings: with `game=mk`, a Mage Knight army (one written in
/// the army file format, else a ready one by name); with `game=m1e`, a 1st
/// edition crew (the same way); otherwise crews ([`brought_from_form`]).
/// With what the player wrote; on a problem, the message and that.
pub(crate) fn brought_of(
    fields: &[(String, String)],
    saved: &[SavedCrew],
) -> Result<(Brought, Written), (String, Written)> {
    match form_field(fields, "game") {
        "mk" => army_of(fields),
        "m1e" => first_edition_crew_of(fields),
        _ => crews_of(fields, saved),
    }
}

/// What a crew option's value is for a list kept on the account.
const SAVED_PREFIX: &str = "saved:";

/// The lists `account` keeps, to offer beside the shipped ones (none for
/// a visitor).
pub(crate) async fn saved_lists(
    state: &web::Data<AppState>,
    account: Option<i64>,
) -> Result<Vec<SavedCrew>, AppError> {
    let Some(account) = account else {
        return Ok(Vec::new());
    };
    state
        .with_db(move |conn| Ok(crate::crews::saved::saved_of(conn, account, None)?))
        .await
}

/// A 1st edition crew from `templates/play/first_edition_crew_fieldset.html`.
fn first_edition_crew_of(
    fields: &[(String, String)],
) -> Result<(Brought, Written), (String, Written)> {
    let written = Written {
        own_first_edition_crew: form_field(fields, "m1e_crew_text").trim().replace('\r', ""),
        ..Written::default()
    };
    let crew = if written.own_first_edition_crew.is_empty() {
        crate::content::first_edition_content().and_then(|(book, _)| {
            crate::hosted::ready_crew(book, form_field(fields, "m1e_crew").trim())
                .cloned()
                .map_err(|e| e.to_string())
        })
    } else {
        soulstone_engine::first_edition::Book::read_crew(
            "your crew",
            &written.own_first_edition_crew,
        )
        .map_err(|e| e.to_string())
    };
    match crew {
        Ok(crew) => Ok((Brought::FirstEdition(crew), written)),
        Err(problem) => Err((problem, written)),
    }
}

/// Crew lists from `templates/play/crews_fieldset.html`.
fn crews_of(
    fields: &[(String, String)],
    saved: &[SavedCrew],
) -> Result<(Brought, Written), (String, Written)> {
    let written = |own_list| Written {
        own_list,
        ..Written::default()
    };
    match brought_from_form(fields, saved) {
        Ok((lists, own_list)) => Ok((Brought::Crews(lists), written(own_list))),
        Err((problem, own_list)) => Err((problem, written(own_list))),
    }
}

/// A Mage Knight army from `templates/play/army_fieldset.html`.
fn army_of(fields: &[(String, String)]) -> Result<(Brought, Written), (String, Written)> {
    let written = Written {
        own_army: form_field(fields, "army_text").trim().replace('\r', ""),
        ..Written::default()
    };
    let roster = match crate::content::mage_knight_roster() {
        Ok(roster) => roster,
        Err(problem) => return Err((problem.clone(), written)),
    };
    let army = if written.own_army.is_empty() {
        let ready = form_field(fields, "army").trim();
        crate::hosted::ready_army(roster, ready)
            .cloned()
            .map_err(|e| e.to_string())
    } else {
        roster
            .read_army("your army", &written.own_army)
            .map_err(|e| e.to_string())
    };
    match army {
        Ok(army) => Ok((Brought::Army(army), written)),
        Err(problem) => Err((problem, written)),
    }
}

pub(crate) fn brought_from_form(
    fields: &[(String, String)],
    saved: &[SavedCrew],
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
        if let Some(id) = value.strip_prefix(SAVED_PREFIX) {
            let Some(kept) = saved.iter().find(|c| c.id.to_string() == id) else {
                return Err(("You keep no such list.".to_string(), own));
            };
            lists.push(BroughtList {
                name: kept.name.clone(),
                list: kept.list.clone(),
            });
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
pub(super) fn time_control_ms(fields: &[(String, String)]) -> Result<Option<i64>, String> {
    let minutes = match fields
        .iter()
        .find(|(key, _)| key == "minutes")
        .map(|(_, v)| v.trim())
    {
        None | Some("") => None,
        Some(minutes) => Some(
            minutes
                .parse()
                .map_err(|_| crate::hosted::limits::clock_choices())?,
        ),
    };
    crate::hosted::limits::clock_ms(minutes).map_err(|refused| refused.to_string())
}

/// The shipped lists as the crews fieldset offers them.
/// The shipped crews to choose from: of `edition` only, when it is given
/// (an event's).
pub(crate) fn crew_options(
    edition: Option<soulstone_engine::Edition>,
    saved: &[SavedCrew],
) -> Vec<CrewOption> {
    let described = |list: &CrewList| {
        format!(
            "{}, {} models{}, {}",
            list.faction,
            list.models.len() + 1,
            match list.upgrades.len() {
                0 => String::new(),
                1 => ", 1 upgrade".to_string(),
                n => format!(", {n} upgrades"),
            },
            list.edition.name()
        )
    };
    let shipped = shipped_lists()
        .into_iter()
        .filter(|(_, list)| edition.is_none_or(|e| list.edition == e))
        .enumerate()
        .map(|(index, (path, list))| CrewOption {
            // The first is ticked, so the form starts ready to play.
            ticked: index == 0,
            value: list_name(path),
            label: format!("{} ({})", list.leader, described(&list)),
        });
    // The player's own lists come after, by the names they gave them.
    let kept = saved
        .iter()
        .filter(|crew| edition.is_none_or(|e| crew.list.edition == e))
        .map(|crew| CrewOption {
            ticked: false,
            value: format!("{SAVED_PREFIX}{}", crew.id),
            label: format!(
                "Your list \u{201c}{}\u{201d} ({}, {}){}",
                crew.name,
                crew.list.leader,
                described(&crew.list),
                // Its cards may be a pack's: it hires in that event's
                // context (its Practice link on /crews opens it).
                if crew.event.is_some() {
                    ", written with an event's cards"
                } else {
                    ""
                }
            ),
        });
    shipped.chain(kept).collect()
}

pub(super) fn watching_note(watching: Watching, viewer: Viewer) -> Option<String> {
    if matches!(viewer, Viewer::Player(_)) {
        return None;
    }
    match watching {
        Watching::Live => None,
        Watching::Staff => Some(
            "You watch as one of the event's organisers: live, with hands and secret choices hidden as from any spectator.".into(),
        ),
        Watching::Delayed(delay) => Some(match delay.num_minutes() {
            1 => "Spectators of this event watch a minute behind the players.".to_string(),
            minutes => format!("Spectators of this event watch {minutes} minutes behind the players."),
        }),
    }
}

/// A finished game's whole log, for `soulstone game verify` or a program
/// of one's own.
#[get("/games/{id}/log.json")]
async fn log_download(
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let mut log = state
        .with_db(move |conn| {
            let mut log = hosted::finished_log::<Malifaux>(conn, id)?;
            log.content = hosted::recorded_content(conn, id)?;
            Ok(log)
        })
        .await?;
    state.log_signer.seal(&mut log);
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
    /// The cards against the shuffles.
    outcome: Result<String, String>,
    /// The commands played through the rules again.
    commands: Result<String, String>,
    /// The log's seal, made as it is downloaded.
    signing_key: String,
    /// The hashes of the content it was made from, if recorded.
    content: Option<soulstone_engine::log::ContentHashes>,
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
        .with_db(move |conn| {
            let mut log = hosted::finished_log::<Malifaux>(conn, id)?;
            log.content = hosted::recorded_content(conn, id)?;
            Ok(log)
        })
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
    let commands = hosted::seal::commands_replayed(&log);
    let page = VerifyPage {
        ctx: ctx.clone(),
        id,
        facts: log.facts.len(),
        seed: hex::encode(log.setup.seed.0),
        commitment: hex::encode(soulstone_engine::fairness::commitment(&log.setup.seed).0),
        cuts,
        outcome,
        commands,
        signing_key: state.log_signer.public_key_hex(),
        content: log.content.clone(),
    };
    render_page(&ctx, &page)
}

/// The public key this server seals finished games' logs with (hex), for
/// `soulstone game verify --key`.
#[get("/games/signing-key")]
async fn signing_key(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(format!("{}\n", state.log_signer.public_key_hex()))
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
            let pairing = hosted::load::<Malifaux>(conn, id)?.pairing_game_id;
            let allowed = crate::hosted::event_games::absence_allowed(conn, pairing)?
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

/// A field of a posted form, empty when it is missing.
pub(crate) fn form_field<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
    fields
        .iter()
        .find(|(key, _)| key == name)
        .map_or("", |(_, v)| v.as_str())
}

/// The game version a command form was made for, and its idempotency key.
fn version_and_key(fields: &[(String, String)]) -> Result<(u64, String), AppError> {
    let version: u64 = form_field(fields, "version").parse().map_err(|_| {
        AppError::bad_request("The form lacks the game's version: reload the page.")
    })?;
    let key = form_field(fields, "key").to_owned();
    if key.is_empty() || key.len() > command::MAX_IDEMPOTENCY_KEY {
        return Err(AppError::bad_request(
            "The form lacks its key: reload the page.",
        ));
    }
    Ok((version, key))
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
    let (version, key) = version_and_key(&fields)?;
    let account = user.id();
    if !state
        .play_limits
        .allow_command(&limits::key_of(Some(account), ""))
    {
        return Err(AppError::TooManyRequests);
    }
    let outcome = state
        .with_db(move |conn| {
            let game = hosted::load::<Malifaux>(conn, id)?;
            let seat = game.seat_of(account).ok_or(HostedError::NotAPlayer)?;
            let command = match command_from_form(&fields, &game.state, seat) {
                Ok(command) => command,
                Err(problem) => return Ok(Err(problem)),
            };
            Ok(Ok(hosted::submit::<Malifaux>(
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
    back_to_game(&state, here, submitted.map(|_| ()))
}

/// Back to the game page after a command: with a notice if the game had
/// moved on or the rules refused it.
fn back_to_game(
    state: &AppState,
    here: String,
    submitted: Result<(), HostedError>,
) -> Result<HttpResponse, AppError> {
    Ok(match submitted {
        Ok(()) => HttpResponse::SeeOther()
            .insert_header(("Location", here))
            .finish(),
        Err(HostedError::MovedOn { .. }) => redirect_with_flash(
            state,
            &here,
            FlashLevel::Warning,
            "The game moved on before your choice arrived: here it is now. Choose again.",
        ),
        Err(HostedError::Refused(reason)) => redirect_with_flash(
            state,
            &here,
            FlashLevel::Error,
            format!("Not allowed: {reason}"),
        ),
        Err(other) => return Err(other.into()),
    })
}

/// The game page's standing answers: what the game decides for the player
/// (each a checkbox: "on" when ticked, absent when not). Back to the game
/// it came from.
#[post("/play/settings")]
async fn post_settings(
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let fields = form.0;
    let field = |name: &str| {
        fields
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    let ticked = |name: &str| match field(name).as_str() {
        "on" => Ok(true),
        "" | "off" => Ok(false),
        other => Err(AppError::bad_request(format!(
            "{name} is ticked (\"on\") or left out, not {other:?}"
        ))),
    };
    let answers = StandingAnswers {
        single_options: ticked("takes_forced_choices")?,
        idle_cheats: ticked("skips_idle_cheats")?,
        never_boost: ticked("never_boosts")?,
    };
    // Only back to a game page of this site.
    let back = field("back");
    let game = back
        .strip_prefix("/games/")
        .and_then(|id| id.parse::<i64>().ok())
        .filter(|id| format!("/games/{id}") == back);
    let back = match game {
        Some(id) => format!("/games/{id}"),
        None => "/play".to_string(),
    };
    let account = user.id();
    let moved = state
        .with_db(move |conn| {
            hosted::set_standing_answers(conn, account, answers)?;
            // The decision the game waits on may be one the new answers take.
            Ok(match game {
                Some(id) => hosted::apply_standing_answers(conn, id, account, now())?,
                None => None,
            })
        })
        .await?;
    if let (Some(id), Some(version)) = (game, moved) {
        state.game_updates.announce_at(id, version);
    }
    Ok(redirect_with_flash(
        &state,
        &back,
        FlashLevel::Info,
        "Your standing answers are saved.",
    ))
}

#[cfg(test)]
mod tests {
    /// A player tells the shipped crews apart by their labels: two lists
    /// with one leader differ at least in the upgrades they buy.
    #[test]
    fn every_shipped_crew_has_a_label_of_its_own() {
        let options = super::crew_options(None, &[]);
        let mut labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
        assert!(labels.iter().any(|l| l.contains("upgrades")), "{labels:?}");
        labels.sort_unstable();
        let count = labels.len();
        labels.dedup();
        assert_eq!(labels.len(), count, "two crews share a label: {labels:?}");
    }
}
