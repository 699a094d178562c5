//! The card pages: every stat card this instance plays with (shipped and
//! the operator's), listed by faction: a Malifaux card shown as the game
//! page shows a model's card, a Mage Knight warrior with its dial.

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
use crate::web::packs::{EventCardsView, PageCards};
use crate::web::play::cards::{self as stat_cards, StatCardView};
use crate::web::play::first_edition_cards;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(card_index).service(card_page);
}

/// The systems whose cards have pages: the two editions in the shared
/// stat-card format, the 1st edition's own, and Mage Knight's warriors.
pub const CARD_SYSTEMS: [GameSystem; 4] = [
    GameSystem::Malifaux4,
    GameSystem::Malifaux3,
    GameSystem::Malifaux1,
    GameSystem::MageKnight,
];

/// The system a `system` query or path names.
fn card_system(code: Option<&str>) -> Result<GameSystem, AppError> {
    match code.map(str::trim) {
        None | Some("") => Ok(CARD_SYSTEMS[0]),
        Some(code) => code
            .parse::<GameSystem>()
            .map_err(|error| AppError::bad_request(error.to_string())),
    }
}

/// Mage Knight's warriors, or why they could not be read.
fn mage_knight_roster() -> Result<&'static soulstone_engine::mage_knight::content::Roster, AppError>
{
    crate::content::mage_knight_roster().map_err(|problem| AppError::Internal(problem.clone()))
}

/// The 1st edition's cards, or why they could not be read.
fn first_edition_book() -> Result<&'static soulstone_engine::first_edition::Book, AppError> {
    crate::content::first_edition_content()
        .map(|(book, _)| book)
        .map_err(|problem| AppError::Internal(problem.clone()))
}

/// A card's address on this site, from its full name.
pub fn card_href(edition: Edition, full_name: &str) -> String {
    system_card_href(edition.code(), full_name)
}

fn system_card_href(code: &str, full_name: &str) -> String {
    format!("/cards/{code}/{}", slug::slugify(full_name))
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
    /// With this event's cards (its pinned pack on top).
    #[serde(default)]
    event: Option<i64>,
}

#[derive(Debug, Default, Deserialize)]
struct CardQuery {
    #[serde(default)]
    event: Option<i64>,
}

/// `href` in the context of event `event`, if any.
fn in_event(href: String, event: Option<i64>) -> String {
    match event {
        Some(id) => format!("{href}?event={id}"),
        None => href,
    }
}

#[derive(Template)]
#[template(path = "cards/index.html")]
struct CardIndexPage {
    ctx: PageContext,
    system: GameSystem,
    systems: &'static [GameSystem],
    factions: Vec<FactionCards>,
    event: Option<EventCardsView>,
}

#[get("/cards")]
async fn card_index(
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<IndexQuery>,
) -> Result<HttpResponse, AppError> {
    let system = card_system(query.system.as_deref())?;
    let cards = PageCards::of(&state, &ctx, query.event).await?;
    let event = cards.event_id();
    let factions = match system.engine_edition() {
        Some(edition) => factions(&cards.catalog, edition)
            .into_iter()
            .map(|faction| FactionCards {
                cards: cards_of(&cards.catalog, edition, &faction)
                    .into_iter()
                    .map(|card| {
                        let row = CardRow::of(card);
                        CardRow {
                            href: in_event(row.href.clone(), event),
                            ..row
                        }
                    })
                    .collect(),
                faction,
            })
            .collect(),
        None if system == GameSystem::MageKnight => warrior_rows(mage_knight_roster()?),
        None => first_edition_rows(first_edition_book()?),
    };
    render_page(
        &ctx,
        &CardIndexPage {
            ctx: ctx.clone(),
            system,
            systems: &CARD_SYSTEMS,
            factions,
            event: cards.event,
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
    /// Where the crew builder opens with this card's faction (none for the
    /// 1st edition, whose crews the builder does not write yet).
    builder_href: Option<String>,
}

#[get("/cards/{system}/{slug}")]
async fn card_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    query: web::Query<CardQuery>,
) -> Result<HttpResponse, AppError> {
    let (system_code, slug) = path.into_inner();
    let system = card_system(Some(&system_code)).map_err(|_| AppError::NotFound)?;
    let cards = PageCards::of(&state, &ctx, query.event).await?;
    let (card, faction, builder_href) = match system.engine_edition() {
        Some(edition) => {
            let card = cards
                .catalog
                .cards()
                .find(|card| card.edition == edition && slug::slugify(card.full_name()) == slug)
                .ok_or(AppError::NotFound)?;
            let faction = card.factions.first().cloned().unwrap_or_default();
            let event = cards.event_id().map(|id| id.to_string());
            let mut fields = vec![("system", system.code()), ("faction", faction.as_str())];
            if let Some(event) = &event {
                fields.push(("event", event.as_str()));
            }
            let builder_href = format!(
                "/crews/build?{}",
                serde_urlencoded::to_string(fields).unwrap_or_default()
            );
            (stat_cards::of_card(card), faction, Some(builder_href))
        }
        None if system == GameSystem::MageKnight => {
            let warrior = mage_knight_roster()?
                .warriors()
                .find(|w| slug::slugify(&w.name) == slug)
                .ok_or(AppError::NotFound)?;
            return render_page(
                &ctx,
                &WarriorPage {
                    ctx: ctx.clone(),
                    warrior: WarriorView::of(warrior),
                },
            );
        }
        None => {
            let card = first_edition_book()?
                .models()
                .find(|card| slug::slugify(&card.name) == slug)
                .ok_or(AppError::NotFound)?;
            (
                first_edition_cards::of_card(card),
                card.faction.clone(),
                None,
            )
        }
    };
    render_page(
        &ctx,
        &CardPage {
            ctx: ctx.clone(),
            system,
            card,
            faction,
            builder_href,
        },
    )
}

/// Rows grouped by faction (alphabetical), each faction's in `key` order.
fn by_faction<K: Ord>(rows: impl IntoIterator<Item = (String, K, CardRow)>) -> Vec<FactionCards> {
    let mut groups: std::collections::BTreeMap<String, Vec<(K, CardRow)>> = Default::default();
    for (faction, key, row) in rows {
        groups.entry(faction).or_default().push((key, row));
    }
    groups
        .into_iter()
        .map(|(faction, mut rows)| {
            rows.sort_by(|a, b| a.0.cmp(&b.0));
            FactionCards {
                faction,
                cards: rows.into_iter().map(|(_, row)| row).collect(),
            }
        })
        .collect()
}

/// The 1st edition's models by faction, masters first.
fn first_edition_rows(book: &soulstone_engine::first_edition::Book) -> Vec<FactionCards> {
    use soulstone_engine::first_edition::card::Station as M1Station;
    let rank = |station: M1Station| match station {
        M1Station::Master => 0,
        M1Station::Totem => 1,
        M1Station::Henchman => 2,
        M1Station::Minion => 3,
    };
    by_faction(book.models().map(|card| {
        let row = CardRow {
            name: card.name.clone(),
            href: system_card_href(GameSystem::Malifaux1.code(), &card.name),
            station: format!("{:?}", card.station),
            cost: card.cost.map_or_else(|| "–".to_string(), |c| c.to_string()),
            keywords: card
                .characteristics
                .iter()
                .map(|c| format!("{c:?}"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        (
            card.faction.clone(),
            (rank(card.station), card.name.clone()),
            row,
        )
    }))
}

/// Mage Knight's warriors by faction, by name.
fn warrior_rows(roster: &soulstone_engine::mage_knight::content::Roster) -> Vec<FactionCards> {
    by_faction(roster.warriors().map(|w| {
        let row = CardRow {
            name: w.name.clone(),
            href: system_card_href(GameSystem::MageKnight.code(), &w.name),
            station: WarriorView::types_of(w),
            cost: w.points.to_string(),
            keywords: if w.unique {
                "Unique".into()
            } else {
                String::new()
            },
        };
        (w.faction.clone(), w.name.clone(), row)
    }))
}

/// A Mage Knight warrior as printed: its base and its dial, click by click.
pub struct WarriorView {
    pub name: String,
    pub faction: String,
    /// "Unique · 45 points".
    pub summary: String,
    /// "boot, sword".
    pub types: String,
    /// Range, targets, damage, items: what the base shows besides.
    pub base: Vec<(&'static str, String)>,
    pub clicks: Vec<ClickRow>,
}

pub struct ClickRow {
    pub number: usize,
    pub speed: u8,
    pub attack: u8,
    pub defense: u8,
    pub damage: u8,
    pub abilities: String,
}

impl WarriorView {
    fn types_of(warrior: &soulstone_engine::mage_knight::warrior::WarriorCard) -> String {
        let mut types = vec![warrior.speed_type.word()];
        if let Some(attack) = warrior.attack_type {
            types.push(attack.word());
        }
        types.join(", ")
    }

    fn of(warrior: &soulstone_engine::mage_knight::warrior::WarriorCard) -> Self {
        use soulstone_engine::mage_knight::warrior::{DamageType, DefenseType};
        let mut base = Vec::new();
        if warrior.range > 0 {
            base.push(("Range", format!("{}\"", warrior.range)));
            base.push(("Targets", warrior.targets.to_string()));
        }
        if warrior.ranged_damage > 0 {
            base.push(("Ranged damage", warrior.ranged_damage.to_string()));
        }
        if warrior.attack_bonus > 0 {
            base.push(("Attack bonus", format!("+{}", warrior.attack_bonus)));
        }
        if warrior.item_slots > 0 {
            base.push(("Item slots", warrior.item_slots.to_string()));
        }
        if warrior.defense_type == DefenseType::MagicImmunity {
            base.push(("Defense", "magic immunity".into()));
        }
        if warrior.damage_type == DamageType::Golem {
            base.push(("Damage", "golem".into()));
        }
        let mut summary = Vec::new();
        if warrior.unique {
            summary.push("Unique".to_string());
        }
        summary.push(format!("{} points", warrior.points));
        Self {
            name: warrior.name.clone(),
            faction: warrior.faction.clone(),
            summary: summary.join(" · "),
            types: Self::types_of(warrior),
            base,
            clicks: warrior
                .dial
                .iter()
                .enumerate()
                .map(|(index, click)| ClickRow {
                    number: index + 1,
                    speed: click.speed,
                    attack: click.attack,
                    defense: click.defense,
                    damage: click.damage,
                    abilities: click
                        .abilities
                        .iter()
                        .map(|a| a.name())
                        .chain(click.repair.then_some("repair marker"))
                        .collect::<Vec<_>>()
                        .join(", "),
                })
                .collect(),
        }
    }
}

#[derive(Template)]
#[template(path = "cards/warrior.html")]
struct WarriorPage {
    ctx: PageContext,
    warrior: WarriorView,
}
