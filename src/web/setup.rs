//! The public setup generator (no sign-in; the seed in the URL reproduces a
//! setup), and the presentation of a setup shared with the round pages.

use actix_web::{HttpResponse, get, web};
use askama::Template;
use rand::RngCore;
use serde::Deserialize;

use crate::db::pools;
use crate::error::AppError;
use crate::events::rounds::TableSetup;
use crate::setup::map::deployment_svg;
use crate::setup::pool::Pool;
use crate::setup::{
    Drawn, EncounterSize, FlipOutcome, FlipPurpose, Seat, SeatNames, Setup, SetupRequest,
    SetupResult, TableSides, generate,
};
use crate::systems::GameSystem;
use crate::web::AppState;
use crate::web::layout::{PageContext, redirect, render_page};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(generator_page);
}

/// A setup laid out for a page.
pub struct SetupView {
    pub system: String,
    pub seed: u64,
    pub pool: Option<String>,
    pub rows: Vec<(String, String)>,
    /// Inline SVG (built by us, never from user input).
    pub map_svg: Option<String>,
    pub map_caption: String,
    pub flips: Vec<String>,
}

fn purpose_label(purpose: FlipPurpose) -> &'static str {
    match purpose {
        FlipPurpose::AttackerDefender => "attacker/defender",
        FlipPurpose::SchemePool => "scheme pool",
        FlipPurpose::Deployment => "deployment",
        FlipPurpose::Strategy => "strategy",
        FlipPurpose::DeploymentOrder => "who deploys first",
    }
}

fn outcome_label(outcome: FlipOutcome) -> &'static str {
    match outcome {
        FlipOutcome::Used => "",
        FlipOutcome::ReflippedJoker => " (joker: flipped again)",
        FlipOutcome::ReflippedTie => " (tie: both flip again)",
        FlipOutcome::ReflippedDuplicate => " (same value again: flipped again)",
    }
}

/// How a setup is being shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framing {
    /// On its own: a table's own setup, or the generator's.
    Whole,
    /// A round's scenario for every table; attacker and defender are
    /// flipped at each table, so the flips' seats mean nothing here.
    Shared,
}

impl SetupView {
    /// A setup on its own (the generator): the seats are Player A and B.
    pub fn of(setup: &Setup) -> Self {
        Self::build(setup, &SeatNames::default(), Framing::Whole, None)
    }

    /// A round's scenario, shared by every table.
    pub fn shared(setup: &Setup) -> Self {
        Self::build(setup, &SeatNames::default(), Framing::Shared, None)
    }

    /// What one table plays, naming its players.
    pub fn for_table(table: &TableSetup, names: &SeatNames) -> Self {
        let framing = if table.shared {
            Framing::Shared
        } else {
            Framing::Whole
        };
        Self::build(&table.setup, names, framing, table.sides.as_ref())
    }

    fn build(
        setup: &Setup,
        names: &SeatNames,
        framing: Framing,
        sides: Option<&TableSides>,
    ) -> Self {
        let mut rows = Vec::new();
        let mut map = None;
        if let Some(sides) = sides {
            rows.push((
                "Attacker".into(),
                format!(
                    "{} (flipped the {}; {} the {})",
                    names.of(sides.attacker),
                    sides.attacker_card.long_name(),
                    names.of(sides.attacker.other()),
                    sides.defender_card.long_name()
                ),
            ));
        }
        match &setup.result {
            SetupResult::Malifaux(m) => {
                match framing {
                    Framing::Whole => {
                        rows.push((
                            "Attacker".into(),
                            format!(
                                "{} (flipped the {}; {} the {})",
                                names.of(m.attacker),
                                m.attacker_card.long_name(),
                                names.of(m.attacker.other()),
                                m.defender_card.long_name()
                            ),
                        ));
                        rows.push((
                            "Strategy".into(),
                            format!(
                                "{} (by the attacker's {})",
                                m.strategy.name, m.strategy.suit
                            ),
                        ));
                        rows.push((
                            "Deployment".into(),
                            format!(
                                "{} (by the defender's {})",
                                m.deployment.name(),
                                m.deployment_suit
                            ),
                        ));
                    }
                    Framing::Shared => {
                        rows.push((
                            "Strategy".into(),
                            format!(
                                "{} (by the higher card, the {})",
                                m.strategy.name,
                                m.attacker_card.long_name()
                            ),
                        ));
                        rows.push((
                            "Deployment".into(),
                            format!(
                                "{} (by the lower card, the {})",
                                m.deployment.name(),
                                m.defender_card.long_name()
                            ),
                        ));
                        if sides.is_none() {
                            rows.push((
                                "Attacker and defender".into(),
                                "Flipped at each table: the attacker chooses the deployment zone and has the initiative in turn 1.".into(),
                            ));
                        }
                    }
                }
                let schemes: Vec<String> = m
                    .scheme_pool
                    .iter()
                    .map(|s| match s.value {
                        Some(v) => format!("{v}. {}", s.name),
                        None => s.name.clone(),
                    })
                    .collect();
                rows.push(("Scheme pool".into(), schemes.join(" · ")));
                map = Some((m.deployment, m.strategy.markers.clone()));
            }
            SetupResult::FirstEdition(f) => {
                let limits = f.encounter;
                rows.push((
                    "Encounter".into(),
                    format!(
                        "{}: {}–{} soulstones, hand of {}, {} master(s), soulstone pool up to {}, 0–{} schemes",
                        limits.size.name(),
                        limits.soulstones_min,
                        limits.soulstones_max,
                        limits.max_hand,
                        limits.masters,
                        limits.max_soulstone_pool,
                        limits.max_schemes
                    ),
                ));
                let deployment = match (f.deployment, f.deployment_chosen_by) {
                    (Some(kind), _) => format!(
                        "{} (flipped the {})",
                        kind.name(),
                        f.deployment_card.long_name()
                    ),
                    (None, Some(seat)) => format!(
                        "{} chooses (flipped the {})",
                        names.of(seat),
                        f.deployment_card.long_name()
                    ),
                    (None, None) => "?".into(),
                };
                rows.push(("Deployment".into(), deployment));
                for s in &f.strategies {
                    rows.push((
                        format!("{}'s strategy", names.of(s.seat)),
                        format!(
                            "{} (flipped the {})",
                            s.strategy.as_deref().unwrap_or("player's choice"),
                            s.card.long_name()
                        ),
                    ));
                }
                rows.push((
                    "Sides and deployment order".into(),
                    format!("{} decides", names.of(f.deployment_order_decided_by)),
                ));
                rows.push((
                    "Game length".into(),
                    format!(
                        "At least {} turns; from then on a flip of {} or more at the end of a turn plays another",
                        f.minimum_turns, f.continue_on_value
                    ),
                ));
                map = f.deployment.map(|d| (d, Vec::new()));
            }
            SetupResult::MageKnight(mk) => {
                rows.push(("First player".into(), names.of(mk.first_player).into()));
                rows.push((
                    "Objectives".into(),
                    format!(
                        "{}'s {}\" and {}'s {}\" from the far edge of their own deployment area; one more at the centre",
                        names.a, mk.objective_distance_a, names.b, mk.objective_distance_b
                    ),
                ));
            }
        }
        let flips = setup
            .flips
            .iter()
            .map(|f| {
                let drawn = match &f.drawn {
                    Drawn::Card(card) => card.long_name(),
                    Drawn::SchemeCard(name) => format!("scheme card {name}"),
                };
                let outcome = outcome_label(f.outcome);
                match (framing, f.purpose) {
                    (Framing::Shared, FlipPurpose::AttackerDefender) => format!(
                        "{} card: {drawn}, for strategy and deployment{outcome}",
                        match f.seat {
                            Seat::A => "First",
                            Seat::B => "Second",
                        }
                    ),
                    (Framing::Shared, purpose) => format!(
                        "The organisers flip {drawn} for {}{outcome}",
                        purpose_label(purpose)
                    ),
                    (Framing::Whole, purpose) => format!(
                        "{} flips {drawn} for {}{outcome}",
                        names.of(f.seat),
                        purpose_label(purpose)
                    ),
                }
            })
            .chain(sides.into_iter().flat_map(|sides| {
                sides.flips.iter().map(|f| {
                    let drawn = match &f.drawn {
                        Drawn::Card(card) => card.long_name(),
                        Drawn::SchemeCard(name) => name.clone(),
                    };
                    format!(
                        "At this table, {} flips {} for attacker/defender{}",
                        names.of(f.seat),
                        drawn,
                        outcome_label(f.outcome)
                    )
                })
            }))
            .chain(setup.rolls.iter().map(|r| {
                format!(
                    "{} rolls {} + {} = {}{}",
                    names.of(r.seat),
                    r.dice[0],
                    r.dice[1],
                    r.total,
                    if r.rerolled {
                        " (tie: both roll again)"
                    } else {
                        ""
                    }
                )
            }))
            .collect();
        let (map_svg, map_caption) = match map {
            Some((kind, markers)) => (
                Some(deployment_svg(
                    kind,
                    &markers,
                    &format!("{} on a 36 by 36 inch table", kind.name()),
                )),
                kind.summary().to_owned(),
            ),
            None => (None, String::new()),
        };
        Self {
            system: setup.system.name().into(),
            seed: setup.seed,
            pool: setup.pool.as_ref().map(|p| p.name.clone()),
            rows,
            map_svg,
            map_caption,
            flips,
        }
    }
}

/// A pool in the generator's list: id, name, edition code.
pub type PoolChoice = (String, String, String);

#[derive(Debug, Deserialize)]
pub struct GeneratorQuery {
    #[serde(default)]
    pub edition: Option<String>,
    #[serde(default)]
    pub pool: Option<String>,
    #[serde(default)]
    pub seed: Option<String>,
    #[serde(default)]
    pub size: Option<String>,
}

/// Resolves the generator's inputs into a setup (shared by the page and the API).
pub fn generate_for(
    conn: &mut crate::db::DbConnection,
    query: &GeneratorQuery,
    seed: u64,
) -> Result<(Setup, Vec<PoolChoice>), AppError> {
    let system: GameSystem = query
        .edition
        .as_deref()
        .unwrap_or("m4e")
        .parse()
        .map_err(|e: crate::systems::UnknownGameSystem| AppError::bad_request(e.to_string()))?;
    let rows = pools::list(conn)?;
    let choices = rows
        .iter()
        .map(|p| (p.slug.clone(), p.name.clone(), p.edition.clone()))
        .collect();
    let pool: Option<Pool> = if system.uses_pools() {
        let row = match query.pool.as_deref().filter(|s| !s.is_empty()) {
            Some(slug) => Some(
                pools::find_by_slug(conn, slug)?
                    .ok_or_else(|| AppError::bad_request(format!("There is no pool {slug:?}.")))?,
            ),
            // The newest shipped pool of the edition (or the newest of any, for 4th edition).
            None => rows
                .iter()
                .rev()
                .find(|p| p.edition == system.code() && p.shipped)
                .cloned()
                .or_else(|| {
                    rows.iter()
                        .rev()
                        .find(|p| p.edition == system.code())
                        .cloned()
                }),
        };
        let row = row.ok_or_else(|| {
            AppError::bad_request(format!(
                "There is no pool for {} yet. An organiser can add the current Gaining Grounds season under Pools.",
                system.name()
            ))
        })?;
        Some(row.pool()?)
    } else {
        None
    };
    let size = match query.size.as_deref() {
        Some("brawl") => EncounterSize::Brawl,
        _ => EncounterSize::Scrap,
    };
    let setup = generate(SetupRequest {
        system,
        pool: pool.as_ref(),
        seed,
        encounter_size: size,
    })
    .map_err(|e| AppError::bad_request(e.to_string()))?;
    Ok((setup, choices))
}

#[derive(Template)]
#[template(path = "setup/generator.html")]
struct GeneratorPage {
    ctx: PageContext,
    edition: String,
    pool: String,
    size: String,
    pools: Vec<PoolChoice>,
    systems: Vec<(&'static str, &'static str)>,
    setup: Option<SetupView>,
    permalink: String,
    json_link: String,
}

#[get("/setup")]
async fn generator_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<GeneratorQuery>,
) -> Result<HttpResponse, AppError> {
    let query = query.into_inner();
    let edition = query.edition.clone().unwrap_or_else(|| "m4e".into());
    // "Flip" without a seed picks one and redirects to the permalink.
    let seed = match query.seed.as_deref().map(str::trim) {
        Some("") | None if query.edition.is_some() => {
            let seed = rand::rng().next_u64() % 1_000_000_000;
            let link = permalink(&edition, query.pool.as_deref(), query.size.as_deref(), seed);
            return Ok(redirect(&link));
        }
        None | Some("") => None,
        Some(raw) => Some(
            raw.parse::<u64>()
                .map_err(|_| AppError::bad_request("The seed must be a whole number."))?,
        ),
    };
    let q2 = GeneratorQuery {
        edition: Some(edition.clone()),
        pool: query.pool.clone(),
        seed: None,
        size: query.size.clone(),
    };
    let (setup, pools) = match seed {
        Some(seed) => {
            let (setup, pools) = state
                .with_db(move |conn| generate_for(conn, &q2, seed))
                .await?;
            (Some(setup), pools)
        }
        None => (
            None,
            state
                .with_db(|conn| Ok(pools::list(conn)?))
                .await?
                .into_iter()
                .map(|p| (p.slug, p.name, p.edition))
                .collect(),
        ),
    };
    let pool = setup
        .as_ref()
        .and_then(|s| s.pool.as_ref().map(|p| p.id.clone()))
        .or(query.pool.clone())
        .unwrap_or_default();
    let (permalink, json_link) = match &setup {
        Some(s) => (
            permalink(&edition, Some(&pool), query.size.as_deref(), s.seed),
            format!(
                "/api/v1{}",
                permalink(&edition, Some(&pool), query.size.as_deref(), s.seed)
            ),
        ),
        None => (String::new(), String::new()),
    };
    render_page(
        &ctx,
        &GeneratorPage {
            ctx: ctx.clone(),
            edition,
            pool,
            size: query.size.unwrap_or_else(|| "scrap".into()),
            pools,
            systems: GameSystem::ALL
                .iter()
                .map(|s| (s.code(), s.name()))
                .collect(),
            setup: setup.as_ref().map(SetupView::of),
            permalink,
            json_link,
        },
    )
}

fn permalink(edition: &str, pool: Option<&str>, size: Option<&str>, seed: u64) -> String {
    let mut params = vec![("edition", edition.to_owned())];
    if let Some(pool) = pool.filter(|p| !p.is_empty()) {
        params.push(("pool", pool.to_owned()));
    }
    if let Some(size) = size.filter(|s| !s.is_empty()) {
        params.push(("size", size.to_owned()));
    }
    params.push(("seed", seed.to_string()));
    format!(
        "/setup?{}",
        serde_urlencoded::to_string(params).unwrap_or_default()
    )
}
