//! The crew builder page: one form, submitted by GET, that carries the
//! list's text from step to step, so a list being written is an address
//! one can keep or share, and every step works without scripts. What a
//! step may do is `crate::crews::builder`'s; the costs and the rules
//! broken are the engine's.

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use serde::Deserialize;
use soulstone_engine::content::crew::{CrewList, MAX_LIST_MODELS};

use crate::crews::builder::{self, Request, Step, Written};
use crate::systems::GameSystem;
use crate::web::AppState;
use crate::web::card_pages::{card_href, station_words};
use crate::web::error::AppError;
use crate::web::forms::render_invalid;
use crate::web::layout::{PageContext, render_page};
use crate::web::packs::{EventCardsView, PageCards};
use crate::web::session::CsrfForm;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(builder_page).service(import_list);
}

/// `page` with `list` carried in its address, as JSON (an address holds no
/// line break, and the plain-text form is all lines), and the event whose
/// cards it uses, if any.
fn with_list(page: &str, list: &CrewList, event: Option<i64>) -> String {
    let json = serde_json::to_string(list).unwrap_or_default();
    let event = event.map(|id| id.to_string());
    let mut fields = vec![("list", json.as_str())];
    if let Some(event) = &event {
        fields.push(("event", event.as_str()));
    }
    let query = serde_urlencoded::to_string(fields).unwrap_or_default();
    format!("{page}?{query}")
}

/// The builder, carrying on with `list`, with `event`'s cards when given.
pub fn builder_href(list: &CrewList, event: Option<i64>) -> String {
    with_list("/crews/build", list, event)
}

/// The practice page with `list` in its own-list box, in `event`'s
/// context when given (its cards).
pub fn practice_href(list: &CrewList, event: Option<i64>) -> String {
    with_list("/play", list, event)
}

/// The invitation page with `list` as the crew brought.
pub fn invite_href(list: &CrewList) -> String {
    with_list("/play/invite", list, None)
}

/// The editions the builder writes lists of: those in the shared list
/// format.
pub const LIST_SYSTEMS: [GameSystem; 2] = [GameSystem::Malifaux4, GameSystem::Malifaux3];

/// The edition a `system` field names, or why the builder does not write
/// its lists.
pub fn list_edition(code: Option<&str>) -> Result<soulstone_engine::Edition, AppError> {
    let system = match code.map(str::trim) {
        None | Some("") => LIST_SYSTEMS[0],
        Some(code) => code
            .parse::<GameSystem>()
            .map_err(|error| AppError::bad_request(error.to_string()))?,
    };
    system.engine_edition().ok_or_else(|| {
        AppError::bad_request(format!(
            "The crew builder writes 4th and 3rd edition lists; {} crews are brought on the practice and invitation pages.",
            system.name()
        ))
    })
}

/// A list carried in an address: JSON, since an address may hold no line
/// break (the plain-text form is all lines).
/// A list longer than the plain-text form allows is not read: each step
/// appraises the list once for every card on offer.
pub fn list_from_json(json: &str) -> Option<CrewList> {
    serde_json::from_str::<CrewList>(json).ok().filter(|list| {
        list.models.len() <= MAX_LIST_MODELS && list.upgrades.len() <= MAX_LIST_MODELS
    })
}

/// The save form as the player filled it in (kept on a refusal).
#[derive(Debug, Clone, Default)]
pub struct Saving {
    pub name: String,
    pub replace: bool,
}

#[derive(Debug, Default, Deserialize)]
struct BuildQuery {
    #[serde(default)]
    system: Option<String>,
    #[serde(default)]
    faction: Option<String>,
    #[serde(default)]
    leader: Option<String>,
    #[serde(default)]
    size: Option<String>,
    /// The list as the last step left it, as JSON.
    #[serde(default)]
    list: Option<String>,
    /// A card to hire (its full name).
    #[serde(default)]
    add: Option<String>,
    /// The list's `n`th model to take out.
    #[serde(default)]
    remove: Option<String>,
    /// The buy button, with the upgrade and the model (0: the leader) it
    /// is bought for.
    #[serde(default)]
    buy: Option<String>,
    #[serde(default)]
    upgrade: Option<String>,
    #[serde(default)]
    upgrade_on: Option<String>,
    /// The list's `n`th upgrade (0-based) to give back.
    #[serde(default)]
    give_back: Option<String>,
    /// Write with this event's cards.
    #[serde(default)]
    event: Option<i64>,
}

impl BuildQuery {
    /// The step the pressed button asks for, if any.
    fn step(&self) -> Result<Option<Step>, String> {
        let given = |field: &Option<String>| {
            field
                .as_deref()
                .map(str::trim)
                .filter(|value| !value.is_empty())
                .map(str::to_string)
        };
        let number = |value: String, what: &str| {
            value
                .parse::<usize>()
                .map_err(|_| format!("That {what} is not in the list."))
        };
        if let Some(name) = given(&self.add) {
            return Ok(Some(Step::Add(name)));
        }
        if let Some(n) = given(&self.remove) {
            return Ok(Some(Step::Remove(number(n, "model")?)));
        }
        if given(&self.buy).is_some() {
            let upgrade = given(&self.upgrade).ok_or("Choose an upgrade to buy.")?;
            let on = number(given(&self.upgrade_on).unwrap_or_default(), "model")?;
            return Ok(Some(Step::Buy { on, upgrade }));
        }
        if let Some(n) = given(&self.give_back) {
            return Ok(Some(Step::GiveBack(number(n, "upgrade")?)));
        }
        Ok(None)
    }
}

struct ListRow {
    /// 0 for the leader, else the model's place in the list (1-based).
    number: usize,
    name: String,
    href: String,
    cost: String,
    upgrades: Vec<UpgradeRow>,
}

/// An upgrade bought for a model of the list.
struct UpgradeRow {
    /// Its place among the list's upgrades (0-based), to give it back.
    index: usize,
    name: String,
    cost: String,
}

struct OfferRow {
    name: String,
    href: String,
    station: String,
    cost: String,
    /// The rules hiring it would break, in words; empty when it may.
    breaks: String,
}

#[derive(Template)]
#[template(path = "crews/build.html")]
struct BuilderPage {
    ctx: PageContext,
    system: GameSystem,
    systems: &'static [GameSystem],
    factions: Vec<String>,
    leaders: Vec<String>,
    faction: String,
    leader: String,
    size: u8,
    rows: Vec<ListRow>,
    spent: u8,
    pool: u8,
    /// The hiring rules the list breaks, each naming the model.
    broken: Vec<String>,
    offers: Vec<OfferRow>,
    /// Upgrades the list may buy (none in the 4th edition): name and cost.
    for_sale: Vec<(String, String)>,
    /// The models an upgrade may be bought for: 0 the leader, then each.
    holders: Vec<(usize, String)>,
    /// The list in its plain-text form, to copy or save.
    text: String,
    /// The list as JSON, which the form carries to the next step.
    carried: String,
    /// What of the submission was refused.
    refused: Vec<String>,
    /// Pasted text that could not be read, shown again to be mended.
    import: String,
    /// The practice page with this list filled in.
    practice_href: String,
    /// The save form (for a signed-in player).
    saving: Saving,
    /// Sign-in that comes back to this list (for a visitor).
    signin_href: String,
    /// The event whose cards the list is written with, if any.
    event: Option<EventCardsView>,
}

#[get("/crews/build")]
async fn builder_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<BuildQuery>,
) -> Result<HttpResponse, AppError> {
    let query = query.into_inner();
    let mut refused = Vec::new();
    // The carried list travels as JSON: an address may hold no line break.
    let carried = match query.list.as_deref().filter(|l| !l.trim().is_empty()) {
        None => None,
        Some(json) => match list_from_json(json) {
            Some(list) => Some(list),
            None => {
                refused
                    .push("The list this page carried could not be read; it starts again.".into());
                None
            }
        },
    };
    let code = query
        .system
        .as_deref()
        .or(carried.as_ref().map(|list| list.edition.code()));
    let edition = list_edition(code)?;
    let step = query.step().unwrap_or_else(|problem| {
        refused.push(problem);
        None
    });
    let request = Request {
        carried,
        import: None,
        faction: query.faction.as_deref(),
        leader: query.leader.as_deref(),
        size: query.size.as_deref(),
        step,
    };
    let cards = PageCards::of(&state, &ctx, query.event).await?;
    render_builder(&ctx, &cards, edition, &request, refused, Saving::default())
}

#[derive(Debug, Deserialize)]
struct ImportForm {
    #[serde(default)]
    import: String,
    #[serde(default)]
    event: Option<i64>,
}

/// A pasted list, sent by POST since it spans lines.
#[post("/crews/build")]
async fn import_list(
    ctx: PageContext,
    state: web::Data<AppState>,
    form: CsrfForm<ImportForm>,
) -> Result<HttpResponse, AppError> {
    let request = Request {
        import: Some(&form.0.import),
        ..Request::default()
    };
    let edition = list_edition(None)?;
    let cards = PageCards::of(&state, &ctx, form.0.event).await?;
    render_builder(
        &ctx,
        &cards,
        edition,
        &request,
        Vec::new(),
        Saving::default(),
    )
}

/// The builder's page after one submission.
pub fn render_builder(
    ctx: &PageContext,
    cards: &PageCards,
    edition: soulstone_engine::Edition,
    request: &Request<'_>,
    mut refused: Vec<String>,
    saving: Saving,
) -> Result<HttpResponse, AppError> {
    let catalog = &cards.catalog;
    let event = cards.event_id();
    // A card's page shows the event's pack cards too.
    let card_href = |edition, name: &str| match event {
        Some(id) => format!("{}?event={id}", card_href(edition, name)),
        None => card_href(edition, name),
    };
    let Written {
        list,
        refused: refused_steps,
        unread,
    } = builder::write(catalog, edition, request).ok_or_else(|| {
        AppError::bad_request(format!("This site has no {} cards.", edition.name()))
    })?;
    refused.extend(refused_steps);
    let system = LIST_SYSTEMS
        .into_iter()
        .find(|s| s.engine_edition() == Some(list.edition))
        .unwrap_or(LIST_SYSTEMS[0]);
    let appraisal = list.appraise(catalog);
    let upgrades_on = |n: usize| {
        list.upgrades
            .iter()
            .enumerate()
            .filter(|(_, u)| u.on == n)
            .map(|(index, u)| UpgradeRow {
                index,
                name: u.upgrade.clone(),
                cost: appraisal
                    .crew
                    .upgrades
                    .iter()
                    .find(|hired| hired.on == n && hired.upgrade == u.upgrade)
                    .map_or_else(|| "?".to_string(), |hired| hired.cost.to_string()),
            })
            .collect::<Vec<_>>()
    };
    let cost_of = |name: &str, skip: usize| {
        appraisal
            .crew
            .costs
            .iter()
            .filter(|(hired, _)| hired == name)
            .nth(skip)
            .map_or_else(|| "?".to_string(), |(_, cost)| cost.to_string())
    };
    let mut rows = vec![ListRow {
        number: 0,
        name: list.leader.clone(),
        href: card_href(list.edition, &list.leader),
        cost: "leader".to_string(),
        upgrades: upgrades_on(0),
    }];
    for (index, model) in list.models.iter().enumerate() {
        // The nth copy of a name costs what the appraisal's nth entry says.
        let before = list.models[..index].iter().filter(|m| *m == model).count();
        rows.push(ListRow {
            number: index + 1,
            name: model.clone(),
            href: card_href(list.edition, model),
            cost: cost_of(model, before),
            upgrades: upgrades_on(index + 1),
        });
    }
    let offers = builder::offers(catalog, &list)
        .into_iter()
        .map(|offer| OfferRow {
            name: offer.card.full_name(),
            href: card_href(list.edition, &offer.card.full_name()),
            station: station_words(offer.card),
            cost: offer
                .cost
                .map_or_else(|| "–".to_string(), |c| c.to_string()),
            breaks: offer
                .breaks
                .iter()
                .map(|b| b.rule.clone())
                .collect::<Vec<_>>()
                .join("; "),
        })
        .collect();
    let text = list.to_text();
    let carried = serde_json::to_string(&list).unwrap_or_default();
    let practice_href = with_list("/play", &list, event);
    let page = BuilderPage {
        ctx: ctx.clone(),
        system,
        systems: &LIST_SYSTEMS,
        factions: builder::factions(catalog, list.edition),
        leaders: builder::leaders(catalog, list.edition, &list.faction)
            .into_iter()
            .map(|card| card.full_name())
            .collect(),
        faction: list.faction.clone(),
        leader: list.leader.clone(),
        size: list.size,
        rows,
        spent: appraisal.crew.spent,
        pool: appraisal.crew.pool,
        broken: appraisal.errors.iter().map(ToString::to_string).collect(),
        offers,
        for_sale: builder::upgrades_for_sale(catalog, &list)
            .into_iter()
            .map(|u| {
                let cost = u.cost.map_or_else(|| "–".to_string(), |c| c.to_string());
                (u.name.clone(), cost)
            })
            .collect(),
        holders: std::iter::once(&list.leader)
            .chain(&list.models)
            .enumerate()
            .map(|(n, name)| (n, name.clone()))
            .collect(),
        refused,
        import: unread.unwrap_or_default(),
        text,
        carried,
        practice_href,
        saving,
        signin_href: format!(
            "/signin?{}",
            serde_urlencoded::to_string([(
                "next",
                with_list("/crews/build", &list, event).as_str()
            )])
            .unwrap_or_default()
        ),
        event: cards.event.clone(),
    };
    if page.refused.is_empty() {
        render_page(ctx, &page)
    } else {
        render_invalid(ctx, &page)
    }
}
