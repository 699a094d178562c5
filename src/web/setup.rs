//! The public setup generator (no sign-in; the seed in the URL reproduces a
//! setup), and the presentation of a setup shared with the round pages.

use actix_web::{HttpResponse, get, web};
use askama::Template;
use rand::RngCore;
use serde::Deserialize;

use crate::events::round_setups::TableSetup;
use crate::pools;
use crate::setup::map::deployment_svg;
use crate::setup::{
    Drawn, EncounterSize, FlipOutcome, FlipPurpose, Seat, SeatNames, Setup, SetupResult, TableSides,
};
use crate::systems::GameSystem;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{PageContext, redirect, render_page};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(generator_page);
}

/// A setup laid out for a page.
pub struct SetupView {
    pub system: String,
    pub seed: u64,
    pub pool: Option<String>,
    /// No pool, or the project's own season: the page says how to flip from
    /// the current Gaining Grounds season instead.
    pub without_published_season: bool,
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
        FlipPurpose::Location => "the location",
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
                let card = |c: Option<soulstone_engine::fate::Card>| {
                    c.map_or_else(|| "no card".to_owned(), |c| c.long_name())
                };
                match (framing, setup.announced) {
                    (_, true) => {
                        rows.push(("Strategy".into(), m.strategy.name.clone()));
                        rows.push(("Deployment".into(), m.deployment_name()));
                        rows.push((
                            "How it was chosen".into(),
                            "Announced by the organisers, not flipped.".into(),
                        ));
                    }
                    (Framing::Whole, false) => {
                        rows.push((
                            "Attacker".into(),
                            format!(
                                "{} (flipped the {}; {} the {})",
                                names.of(m.attacker),
                                card(m.attacker_card),
                                names.of(m.attacker.other()),
                                card(m.defender_card)
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
                                m.deployment_name(),
                                m.deployment_suit
                            ),
                        ));
                    }
                    (Framing::Shared, false) => {
                        rows.push((
                            "Strategy".into(),
                            format!(
                                "{} (by the higher card, the {})",
                                m.strategy.name,
                                card(m.attacker_card)
                            ),
                        ));
                        rows.push((
                            "Deployment".into(),
                            format!(
                                "{} (by the lower card, the {})",
                                m.deployment_name(),
                                card(m.defender_card)
                            ),
                        ));
                    }
                }
                if framing == Framing::Shared && sides.is_none() {
                    rows.push((
                        "Attacker and defender".into(),
                        "Flipped at each table: the attacker chooses the deployment zone and has the initiative in turn 1.".into(),
                    ));
                }
                let schemes: Vec<String> = m
                    .scheme_pool
                    .iter()
                    .map(|s| match s.value {
                        Some(v) => format!("{v}. {}", s.name),
                        None => s.name.clone(),
                    })
                    .collect();
                rows.push((
                    "Scheme pool".into(),
                    if schemes.is_empty() {
                        m.scheme_names()
                    } else {
                        schemes.join(" · ")
                    },
                ));
                if m.deployment.is_none() {
                    rows.push((
                        "Without the season's pool".into(),
                        "Look the suits up in your Gaining Grounds season, or import the season as a pool (Pools, then Import) and choose it in the event's settings, so the generator names them. To start at once, choose the pool \"Soulstone's own season\": the strategies and schemes its browser games play.".into(),
                    ));
                }
                map = m.deployment.map(|d| (d, m.strategy.markers.clone()));
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
                if let Some(card) = f.location_card {
                    rows.push((
                        "Location".into(),
                        format!(
                            "The {}: look it up in your encounter's list of locations (the quick reference has no table of its own), then players take turns placing terrain",
                            card.long_name()
                        ),
                    ));
                }
                rows.push((
                    "Game length".into(),
                    format!(
                        "At least {} turns; from then on a flip of {} or more at the end of a turn plays another. A joker there counts as in any flip: the Red Joker (14) plays another turn, the Black Joker (0) ends the game (the quick reference does not say; this is our ruling)",
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
            without_published_season: setup
                .pool
                .as_ref()
                .is_none_or(|p| p.id == crate::setup::shipped::OWN_SEASON_POOL),
            rows,
            map_svg,
            map_caption,
            flips,
        }
    }
}

/// A pool in the generator's list: id, name, edition code.
pub type PoolChoice = (String, String, String);

#[derive(Debug, Default, Deserialize)]
pub struct GeneratorQuery {
    #[serde(default)]
    pub edition: Option<String>,
    #[serde(default)]
    pub pool: Option<String>,
    #[serde(default)]
    pub seed: Option<String>,
    #[serde(default)]
    pub size: Option<String>,
    /// The pool's revision a permalink pins (see `PoolRow::revision`).
    #[serde(default)]
    pub rev: Option<String>,
}

/// Reads the generator's inputs (shared by the page and the API); the
/// pools service flips the setup they ask for.
pub fn asked_of(query: &GeneratorQuery, seed: u64) -> Result<pools::SetupAsked, AppError> {
    let system: GameSystem = query
        .edition
        .as_deref()
        .unwrap_or("m4e")
        .parse()
        .map_err(|e: crate::systems::UnknownGameSystem| AppError::bad_request(e.to_string()))?;
    let size = match query.size.as_deref() {
        Some("brawl") => EncounterSize::Brawl,
        _ => EncounterSize::Scrap,
    };
    Ok(pools::SetupAsked {
        system,
        pool: query
            .pool
            .as_deref()
            .filter(|p| !p.is_empty())
            .map(str::to_owned),
        revision: query
            .rev
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_owned),
        size,
        seed,
    })
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
    /// What was wrong with the choices; the form stays for another try.
    error: Option<String>,
    /// The pool's caveats (suits or values not checked against a source).
    caveats: Vec<String>,
}

#[get("/setup")]
async fn generator_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    query: web::Query<GeneratorQuery>,
) -> Result<HttpResponse, AppError> {
    let query = query.into_inner();
    let edition = query.edition.clone().unwrap_or_else(|| "m4e".into());
    let seed = match query.seed.as_deref().map(str::trim) {
        // "Flip" without a seed picks one.
        Some("") | None if query.edition.is_some() => {
            Some((rand::rng().next_u64() % 1_000_000_000, true))
        }
        None | Some("") => None,
        Some(raw) => match raw.parse::<u64>() {
            Ok(seed) => Some((seed, false)),
            Err(_) => {
                return generator_with_error(
                    &ctx,
                    &state,
                    &query,
                    "The seed must be a whole number.".into(),
                )
                .await;
            }
        },
    };
    let Some((seed, fresh)) = seed else {
        let pools = state.with_db(|conn| Ok(pools::choices(conn)?)).await?;
        return render_page(
            &ctx,
            &GeneratorPage {
                ctx: ctx.clone(),
                pool: query.pool.clone().unwrap_or_default(),
                size: query.size.clone().unwrap_or_else(|| "scrap".into()),
                edition,
                pools,
                systems: systems(),
                setup: None,
                permalink: String::new(),
                json_link: String::new(),
                error: None,
                caveats: Vec::new(),
            },
        );
    };
    let resolved = {
        let query = GeneratorQuery {
            edition: Some(edition.clone()),
            pool: query.pool.clone(),
            seed: None,
            size: query.size.clone(),
            rev: query.rev.clone(),
        };
        let asked = asked_of(&query, seed);
        state
            .with_db(move |conn| {
                let setup = pools::generate_setup(conn, &asked?, chrono::Utc::now().naive_utc())?;
                let caveats = match &setup.pool {
                    Some(p) => match pools::find(conn, &p.id) {
                        Ok(found) => found.pool.caveats(),
                        Err(pools::PoolError::NotFound) => Vec::new(),
                        Err(other) => return Err(other.into()),
                    },
                    None => Vec::new(),
                };
                Ok((setup, pools::choices(conn)?, caveats))
            })
            .await
    };
    let (setup, pools, caveats) = match resolved {
        Ok(found) => found,
        Err(AppError::BadRequest(message)) => {
            return generator_with_error(&ctx, &state, &query, message).await;
        }
        Err(err) => return Err(err),
    };
    let link = permalink_of(&setup, query.size.as_deref());
    // A fresh flip goes to its permalink, which names the pool and its
    // revision: the link shows this setup for good.
    if fresh {
        return Ok(redirect(&link));
    }
    let pool = setup
        .pool
        .as_ref()
        .map(|p| p.id.clone())
        .unwrap_or_default();
    render_page(
        &ctx,
        &GeneratorPage {
            ctx: ctx.clone(),
            edition,
            pool,
            size: query.size.unwrap_or_else(|| "scrap".into()),
            pools,
            systems: systems(),
            setup: Some(SetupView::of(&setup)),
            json_link: format!("/api/v1{link}"),
            permalink: link,
            error: None,
            caveats,
        },
    )
}

impl GeneratorPage {
    fn has_pools_for(&self, edition: &str) -> bool {
        self.pools.iter().any(|(_, _, ed)| ed == edition)
    }
}

fn systems() -> Vec<(&'static str, &'static str)> {
    GameSystem::ALL
        .iter()
        .map(|s| (s.code(), s.name()))
        .collect()
}

/// The generator again, with what was wrong and the choices kept (400).
async fn generator_with_error(
    ctx: &PageContext,
    state: &web::Data<AppState>,
    query: &GeneratorQuery,
    message: String,
) -> Result<HttpResponse, AppError> {
    let pools = state.with_db(|conn| Ok(pools::choices(conn)?)).await?;
    crate::web::forms::render_with_status(
        ctx,
        &GeneratorPage {
            ctx: ctx.clone(),
            edition: query.edition.clone().unwrap_or_else(|| "m4e".into()),
            pool: query.pool.clone().unwrap_or_default(),
            size: query.size.clone().unwrap_or_else(|| "scrap".into()),
            pools,
            systems: systems(),
            setup: None,
            permalink: String::new(),
            json_link: String::new(),
            error: Some(message),
            caveats: Vec::new(),
        },
        actix_web::http::StatusCode::BAD_REQUEST,
    )
}

/// The link that reproduces a setup: its edition, pool and the pool's
/// revision, size and seed.
pub fn permalink_of(setup: &Setup, size: Option<&str>) -> String {
    let mut params = vec![("edition", setup.system.code().to_owned())];
    if let Some(pool) = &setup.pool {
        params.push(("pool", pool.id.clone()));
        if let Some(revision) = &pool.revision {
            params.push(("rev", revision.clone()));
        }
    }
    if setup.system == GameSystem::Malifaux1
        && let Some(size) = size.filter(|s| !s.is_empty())
    {
        params.push(("size", size.to_owned()));
    }
    params.push(("seed", setup.seed.to_string()));
    format!(
        "/setup?{}",
        serde_urlencoded::to_string(params).unwrap_or_default()
    )
}
