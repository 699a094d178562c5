//! The card pages: every stat card this instance plays with (shipped and
//! the operator's), listed by faction and shown as the game page shows a
//! model's card.

use actix_web::{HttpResponse, get, web};
use askama::Template;
use serde::Deserialize;
use soulstone_engine::Edition;
use soulstone_engine::content::card::{Characteristic, StatCard, Station};

use crate::crews::builder::{cards_of, factions};
use crate::systems::GameSystem;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{PageContext, render_page};
use crate::web::play::cards::{self as stat_cards, StatCardView};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(card_index).service(card_page);
}

/// The editions whose cards are written in the shared stat-card format.
pub const CARD_SYSTEMS: [GameSystem; 2] = [GameSystem::Malifaux4, GameSystem::Malifaux3];

/// The edition a `system` query or path names, or why not.
pub fn card_edition(code: Option<&str>) -> Result<(GameSystem, Edition), AppError> {
    let system = match code.map(str::trim) {
        None | Some("") => CARD_SYSTEMS[0],
        Some(code) => code
            .parse::<GameSystem>()
            .map_err(|error| AppError::bad_request(error.to_string()))?,
    };
    let edition = system.engine_edition().ok_or_else(|| {
        AppError::bad_request(format!(
            "Card pages cover the 4th and 3rd editions; {} cards are not shown yet.",
            system.name()
        ))
    })?;
    Ok((system, edition))
}

/// A card's address on this site, from its full name.
pub fn card_href(edition: Edition, full_name: &str) -> String {
    format!("/cards/{}/{}", edition.code(), slug::slugify(full_name))
}

/// The station as a player reads it, with the model limit.
pub fn station_words(card: &StatCard) -> String {
    let station = match card.station {
        Station::Master => "Master",
        Station::Henchman => "Henchman",
        Station::Enforcer => "Enforcer",
        Station::Minion => "Minion",
        Station::Peon => "Peon",
    };
    let mut words = match card.limit {
        Some(limit) if limit > 1 => format!("{station} ({limit})"),
        _ => station.to_string(),
    };
    for (characteristic, word) in [
        (Characteristic::Henchman, "Henchman"),
        (Characteristic::Totem, "Totem"),
        (Characteristic::Unique, "Unique"),
    ] {
        if card.has(characteristic) && word != station {
            words.push_str(", ");
            words.push_str(word);
        }
    }
    words
}

pub struct CardRow {
    pub name: String,
    pub href: String,
    pub station: String,
    /// "7", or "–" for a master.
    pub cost: String,
    pub keywords: String,
}

impl CardRow {
    fn of(card: &StatCard) -> Self {
        Self {
            name: card.full_name(),
            href: card_href(card.edition, &card.full_name()),
            station: station_words(card),
            cost: card.cost.map_or_else(|| "–".to_string(), |c| c.to_string()),
            keywords: card.keywords.join(", "),
        }
    }
}

pub struct FactionCards {
    pub faction: String,
    pub cards: Vec<CardRow>,
}

#[derive(Debug, Default, Deserialize)]
struct IndexQuery {
    #[serde(default)]
    system: Option<String>,
}

#[derive(Template)]
#[template(path = "cards/index.html")]
struct CardIndexPage {
    ctx: PageContext,
    system: GameSystem,
    systems: &'static [GameSystem],
    factions: Vec<FactionCards>,
}

#[get("/cards")]
async fn card_index(
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<IndexQuery>,
) -> Result<HttpResponse, AppError> {
    let (system, edition) = card_edition(query.system.as_deref())?;
    let factions = factions(&state.catalog, edition)
        .into_iter()
        .map(|faction| FactionCards {
            cards: cards_of(&state.catalog, edition, &faction)
                .into_iter()
                .map(CardRow::of)
                .collect(),
            faction,
        })
        .collect();
    render_page(
        &ctx,
        &CardIndexPage {
            ctx: ctx.clone(),
            system,
            systems: &CARD_SYSTEMS,
            factions,
        },
    )
}

#[derive(Template)]
#[template(path = "cards/card.html")]
struct CardPage {
    ctx: PageContext,
    system: GameSystem,
    card: StatCardView,
    /// The card's first faction, which the builder link opens with.
    faction: String,
    /// Where the crew builder opens with this card's faction.
    builder_href: String,
}

#[get("/cards/{system}/{slug}")]
async fn card_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let (system_code, slug) = path.into_inner();
    let (system, edition) = card_edition(Some(&system_code)).map_err(|_| AppError::NotFound)?;
    let card = state
        .catalog
        .cards()
        .find(|card| card.edition == edition && slug::slugify(card.full_name()) == slug)
        .ok_or(AppError::NotFound)?;
    let faction = card.factions.first().cloned().unwrap_or_default();
    let builder_href = format!(
        "/crews/build?{}",
        serde_urlencoded::to_string([("system", system.code()), ("faction", &faction)])
            .unwrap_or_default()
    );
    render_page(
        &ctx,
        &CardPage {
            ctx: ctx.clone(),
            system,
            card: stat_cards::of_card(card),
            faction,
            builder_href,
        },
    )
}
