//! Practice games against a bot: the page that starts one and lists a
//! player's games, and starting one.

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use soulstone_engine::bot::BotKind;

use super::{
    CrewOption, brought_from_form, crew_options, list_name, now, shipped_lists, time_control_ms,
};
use crate::hosted::{self, BroughtList, HostedError, PracticeRequest};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::events::actor_of;
use crate::web::layout::{PageContext, render_page};
use crate::web::packs::{EventCardsView, event_cards};
use crate::web::session::{CsrfForm, CurrentUser};

pub struct GameLine {
    pub id: i64,
    /// The game's page: Malifaux's or Mage Knight's.
    pub href: String,
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
    /// The opponent's level and the clock as chosen (kept on a refusal).
    bot: String,
    minutes: String,
    /// Invitations this player sent that nobody has taken yet.
    invitations: Vec<crate::hosted::invitations::Invitation>,
    /// Mage Knight's ready armies.
    mk_armies: Vec<String>,
    /// 1st edition's ready crews.
    m1e_crews: Vec<String>,
    /// The event whose cards the Malifaux game is made with, if asked for.
    event: Option<EventCardsView>,
}

/// The event a form asks for (`event`), if any.
fn event_field(fields: &[(String, String)]) -> Result<Option<i64>, AppError> {
    match fields.iter().find(|(key, _)| key == "event") {
        Some((_, value)) if !value.trim().is_empty() => value
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| AppError::bad_request("No such event.")),
        _ => Ok(None),
    }
}

/// What a refused form had chosen, to show it again as it was.
struct Chosen {
    crews: Vec<String>,
    own_list: String,
    bot: String,
    minutes: String,
}

impl Chosen {
    fn from_form(fields: &[(String, String)], own_list: String) -> Self {
        let value = |name: &str| {
            fields
                .iter()
                .find(|(key, _)| key == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        Self {
            crews: fields
                .iter()
                .filter(|(key, _)| key == "crew")
                .map(|(_, v)| v.clone())
                .collect(),
            own_list,
            bot: value("bot"),
            minutes: value("minutes"),
        }
    }
}

/// The level the practice page offers first.
const DEFAULT_LEVEL: &str = "normal";

async fn practice_page_with(
    ctx: PageContext,
    user: &CurrentUser,
    state: &web::Data<AppState>,
    error: Option<String>,
    chosen: Option<Chosen>,
    event: Option<i64>,
) -> Result<HttpResponse, AppError> {
    let event = match event {
        Some(id) => Some(EventCardsView::of(
            &event_cards(state, actor_of(Some(user)), id).await?,
        )),
        None => None,
    };
    let account = user.id();
    let (rows, invitations) = state
        .with_db(move |conn| {
            Ok((
                crate::hosted::games_of(conn, account, 20)?,
                crate::hosted::invitations::open_of(conn, account, now())?,
            ))
        })
        .await?;
    let games = rows
        .into_iter()
        .map(|row| GameLine {
            id: row.id,
            href: super::game_href(row.id, &row.table_game)
                .unwrap_or_else(|| format!("/games/{}", row.id)),
            status: row.status.label(),
            score: match (row.vp_a, row.vp_b) {
                (Some(a), Some(b)) => format!("{a}–{b}"),
                _ => String::new(),
            },
        })
        .collect();
    let saved = super::saved_lists(state, Some(account)).await?;
    let mut crews = crew_options(None, &saved);
    let (own_list, bot, minutes) = match chosen {
        None => (String::new(), DEFAULT_LEVEL.to_owned(), String::new()),
        Some(chosen) => {
            for crew in &mut crews {
                crew.ticked = chosen.crews.contains(&crew.value);
            }
            (chosen.own_list, chosen.bot, chosen.minutes)
        }
    };
    let page = PracticePage {
        ctx: ctx.clone(),
        crews,
        games,
        error,
        own_list,
        bot,
        minutes,
        invitations,
        mk_armies: super::mage_knight::army_names(),
        m1e_crews: super::first_edition::crew_names(),
        event,
    };
    if page.error.is_some() {
        crate::web::forms::render_invalid(&ctx, &page)
    } else {
        render_page(&ctx, &page)
    }
}

#[get("/play")]
pub(super) async fn practice_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    query: web::Query<PracticeQuery>,
) -> Result<HttpResponse, AppError> {
    // A list handed over by the crew builder (as JSON: an address holds no
    // line break) fills in the own-list box.
    let query = query.into_inner();
    let chosen = query
        .list
        .clone()
        .and_then(|json| {
            serde_json::from_str::<soulstone_engine::content::crew::CrewList>(&json).ok()
        })
        .map(|list| Chosen {
            crews: Vec::new(),
            own_list: list.to_text(),
            bot: DEFAULT_LEVEL.to_owned(),
            minutes: String::new(),
        });
    practice_page_with(ctx, &user, &state, None, chosen, query.event).await
}

#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct PracticeQuery {
    #[serde(default)]
    list: Option<String>,
    /// Practise with this event's cards.
    #[serde(default)]
    event: Option<i64>,
}

#[post("/play/practice")]
pub(super) async fn start_practice(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    use rand::Rng;
    let fields = form.0;
    let event = event_field(&fields)?;
    let saved = super::saved_lists(&state, Some(user.id())).await?;
    let (lists, own) = match brought_from_form(&fields, &saved) {
        Ok(read) => read,
        Err((error, own)) => {
            let chosen = Chosen::from_form(&fields, own);
            return practice_page_with(ctx, &user, &state, Some(error), Some(chosen), event).await;
        }
    };
    let time_control_ms = match time_control_ms(&fields) {
        Ok(clock) => clock,
        Err(error) => {
            let chosen = Chosen::from_form(&fields, own);
            return practice_page_with(ctx, &user, &state, Some(error), Some(chosen), event).await;
        }
    };
    let shipped = shipped_lists();
    let bot = match fields
        .iter()
        .find(|(key, _)| key == "bot")
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
    {
        None => BotKind::Normal,
        Some(level) => match level.parse::<BotKind>() {
            Ok(kind) => kind,
            Err(_) => {
                let error = "Choose an opponent: easy, normal, hard or random.".to_owned();
                let chosen = Chosen::from_form(&fields, own);
                return practice_page_with(ctx, &user, &state, Some(error), Some(chosen), event)
                    .await;
            }
        },
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
        time_control_ms,
        content: state.content.stamp(),
    };
    let (catalog, request) = match event {
        Some(id) => {
            let cards = event_cards(&state, actor_of(Some(&user)), id).await?;
            let request = PracticeRequest {
                content: cards.stamp,
                ..request
            };
            (cards.catalog, request)
        }
        None => (std::sync::Arc::clone(&state.catalog), request),
    };
    let started = state
        .with_db(move |conn| Ok(hosted::start_practice(conn, &catalog, &request, now())))
        .await?;
    match started {
        Ok(id) => {
            // The bot may move first; if it searches, it does so here.
            state.bot_turns.schedule(id);
            Ok(HttpResponse::SeeOther()
                .insert_header(("Location", format!("/games/{id}")))
                .finish())
        }
        Err(HostedError::Invalid(problem)) => {
            let chosen = Chosen::from_form(&fields, own);
            practice_page_with(ctx, &user, &state, Some(problem), Some(chosen), event).await
        }
        Err(other) => Err(other.into()),
    }
}
