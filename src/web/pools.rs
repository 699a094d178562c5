//! Strategy and scheme pools: view, export, and for organisers create, edit,
//! clone and import. A pool in use by a running event cannot be edited
//! (cloning is offered instead); nothing invalid is ever half-saved.

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use serde::Deserialize;

use crate::pools::{self, Editor, FoundPool, PoolError, PoolRow};
use crate::setup::pool::{
    DeploymentKind, MarkerPoint, Pool, PoolDef, SchemeDef, StrategyDef, default_deployments,
};
use crate::systems::GameSystem;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::forms::{FormErrors, render_invalid};
use crate::web::layout::download;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, MaybeUser, NoFields};
use soulstone_engine::fate::Suit;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(list)
        .service(new_page)
        .service(create)
        .service(import_page)
        .service(import)
        .service(show)
        .service(export_toml)
        .service(export_json)
        .service(edit_page)
        .service(update)
        .service(clone_pool)
        .service(feature);
}

fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

pub struct PoolLine {
    pub slug: String,
    pub name: String,
    pub edition: String,
    pub shipped: bool,
}

#[derive(Template)]
#[template(path = "pools/list.html")]
struct ListPage {
    ctx: PageContext,
    pools: Vec<PoolLine>,
}

#[get("/pools")]
async fn list(ctx: PageContext, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    let rows = state.with_db(|conn| Ok(pools::list(conn)?)).await?;
    let pools = rows
        .into_iter()
        .map(|p| PoolLine {
            edition: p
                .edition
                .parse::<GameSystem>()
                .map(|s| s.name().to_owned())
                .unwrap_or(p.edition),
            slug: p.slug,
            name: p.name,
            shipped: p.shipped,
        })
        .collect();
    render_page(
        &ctx,
        &ListPage {
            ctx: ctx.clone(),
            pools,
        },
    )
}

#[derive(Template)]
#[template(path = "pools/show.html")]
struct ShowPage {
    ctx: PageContext,
    row: PoolRow,
    def: PoolDef,
    edition: String,
    can_edit: bool,
    in_use_by: Vec<String>,
}

impl ShowPage {
    fn strategy_of(&self, suit: &Suit) -> String {
        self.def
            .strategies
            .iter()
            .find(|s| s.suit == *suit)
            .map(|s| s.name.clone())
            .unwrap_or_default()
    }

    fn deployment_of(&self, suit: &Suit) -> &'static str {
        self.def
            .deployments
            .get(suit)
            .map(|d| d.name())
            .unwrap_or("")
    }

    fn suits(&self) -> [Suit; 4] {
        Suit::ALL
    }
}

async fn load(state: &web::Data<AppState>, slug: String) -> Result<FoundPool, AppError> {
    state
        .with_db(move |conn| Ok(pools::find(conn, &slug)?))
        .await
}

fn editor(user: &crate::web::session::SessionUser) -> Editor {
    Editor {
        account_id: user.id(),
        is_admin: user.is_admin(),
    }
}

#[get("/pools/{slug}")]
async fn show(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let FoundPool {
        row,
        pool,
        in_use_by,
    } = load(&state, path.into_inner()).await?;
    let can_edit = pools::may_edit(user.0.as_deref().map(editor), &row);
    let page = ShowPage {
        ctx: ctx.clone(),
        edition: pool.edition().name().to_owned(),
        def: pool.into_def(),
        row,
        can_edit,
        in_use_by,
    };
    render_page(&ctx, &page)
}

#[derive(Debug, Deserialize)]
struct FeatureForm {
    #[serde(default)]
    featured: String,
}

/// A site admin features a pool: the public generator then offers it as
/// its edition's default. Nobody else can move what anonymous visitors flip.
#[post("/pools/{slug}/feature")]
async fn feature(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: CsrfForm<FeatureForm>,
) -> Result<HttpResponse, AppError> {
    let slug = path.into_inner();
    let featured = form.featured == "true";
    let editor = editor(&user);
    let back = format!("/pools/{slug}");
    state
        .with_db(move |conn| Ok(pools::set_featured(conn, editor, &slug, featured, now())?))
        .await?;
    Ok(redirect_with_flash(
        &state,
        &back,
        FlashLevel::Success,
        if featured {
            "Featured: the generator's default for its game is now this pool."
        } else {
            "No longer featured."
        },
    ))
}

#[get("/pools/{slug}/export.toml")]
async fn export_toml(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let found = load(&state, path.into_inner()).await?;
    Ok(download(
        "application/toml; charset=utf-8",
        &format!("{}.toml", found.row.slug),
        found.pool.to_toml(),
    ))
}

#[get("/pools/{slug}/export.json")]
async fn export_json(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let found = load(&state, path.into_inner()).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(found.pool.to_json()))
}

/// The pool form: four strategies, four deployments, and the schemes as
/// lines of text, so a season can be typed in within minutes.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct PoolForm {
    pub id: String,
    pub name: String,
    pub edition: String,
    pub source: String,
    pub description: String,
    pub strategy_rams: String,
    pub strategy_masks: String,
    pub strategy_tomes: String,
    pub strategy_crows: String,
    pub markers_rams: String,
    pub markers_masks: String,
    pub markers_tomes: String,
    pub markers_crows: String,
    pub deployment_rams: String,
    pub deployment_masks: String,
    pub deployment_tomes: String,
    pub deployment_crows: String,
    /// 4th edition: `Name: Next, Next, Next` per line. 3rd edition: one per
    /// line in card-value order (or `7. Name`).
    pub schemes: String,
}

impl PoolForm {
    fn strategy(&self, suit: Suit) -> &str {
        match suit {
            Suit::Rams => &self.strategy_rams,
            Suit::Masks => &self.strategy_masks,
            Suit::Tomes => &self.strategy_tomes,
            Suit::Crows => &self.strategy_crows,
        }
    }

    fn markers(&self, suit: Suit) -> &str {
        match suit {
            Suit::Rams => &self.markers_rams,
            Suit::Masks => &self.markers_masks,
            Suit::Tomes => &self.markers_tomes,
            Suit::Crows => &self.markers_crows,
        }
    }

    fn deployment(&self, suit: Suit) -> &str {
        match suit {
            Suit::Rams => &self.deployment_rams,
            Suit::Masks => &self.deployment_masks,
            Suit::Tomes => &self.deployment_tomes,
            Suit::Crows => &self.deployment_crows,
        }
    }

    pub fn is_fourth_edition(&self) -> bool {
        self.edition == "m4e"
    }

    fn blank(edition: &str) -> Self {
        let defaults = default_deployments();
        let code = |suit| {
            defaults
                .get(&suit)
                .map(|d| d.code().to_owned())
                .unwrap_or_default()
        };
        Self {
            edition: if edition == "m3e" {
                "m3e".into()
            } else {
                "m4e".into()
            },
            deployment_rams: code(Suit::Rams),
            deployment_masks: code(Suit::Masks),
            deployment_tomes: code(Suit::Tomes),
            deployment_crows: code(Suit::Crows),
            ..Self::default()
        }
    }

    fn of(def: &PoolDef) -> Self {
        let strategy = |suit: Suit| def.strategies.iter().find(|s| s.suit == suit);
        let name = |suit: Suit| strategy(suit).map(|s| s.name.clone()).unwrap_or_default();
        let markers = |suit: Suit| {
            strategy(suit)
                .map(|s| {
                    s.markers
                        .iter()
                        .map(|MarkerPoint(x, y)| format!("{x},{y}"))
                        .collect::<Vec<_>>()
                        .join("; ")
                })
                .unwrap_or_default()
        };
        let deployment = |suit: Suit| {
            def.deployments
                .get(&suit)
                .map(|d| d.code().to_owned())
                .unwrap_or_default()
        };
        let schemes = def
            .schemes
            .iter()
            .map(|s| match (s.value, s.next.is_empty()) {
                (Some(v), _) => format!("{v}. {}", s.name),
                (None, true) => s.name.clone(),
                (None, false) => format!("{}: {}", s.name, s.next.join(", ")),
            })
            .collect::<Vec<_>>()
            .join("\n");
        Self {
            id: def.id.clone(),
            name: def.name.clone(),
            edition: def.edition.code().into(),
            source: def.source.clone(),
            description: def.description.clone(),
            strategy_rams: name(Suit::Rams),
            strategy_masks: name(Suit::Masks),
            strategy_tomes: name(Suit::Tomes),
            strategy_crows: name(Suit::Crows),
            markers_rams: markers(Suit::Rams),
            markers_masks: markers(Suit::Masks),
            markers_tomes: markers(Suit::Tomes),
            markers_crows: markers(Suit::Crows),
            deployment_rams: deployment(Suit::Rams),
            deployment_masks: deployment(Suit::Masks),
            deployment_tomes: deployment(Suit::Tomes),
            deployment_crows: deployment(Suit::Crows),
            schemes,
        }
    }

    /// Builds and validates the pool; every problem is named.
    fn to_pool(&self) -> Result<Pool, FormErrors> {
        let mut errors = FormErrors::new();
        let edition: GameSystem = match self.edition.parse() {
            Ok(e @ (GameSystem::Malifaux4 | GameSystem::Malifaux3)) => e,
            _ => {
                errors.add("edition", "Pools made here are for 4th or 3rd edition.");
                GameSystem::Malifaux4
            }
        };
        let mut strategies = Vec::new();
        let mut deployments = std::collections::BTreeMap::new();
        for suit in Suit::ALL {
            let markers = parse_markers(self.markers(suit)).unwrap_or_else(|message| {
                errors.add(markers_field(suit), message);
                Vec::new()
            });
            strategies.push(StrategyDef {
                suit,
                name: self.strategy(suit).trim().to_owned(),
                markers,
                note: String::new(),
            });
            match DeploymentKind::parse_suited(self.deployment(suit)) {
                Some(kind) => {
                    deployments.insert(suit, kind);
                }
                None => errors.add(
                    deployment_field(suit),
                    format!("Choose the deployment for {suit}."),
                ),
            }
        }
        let schemes = parse_schemes(&self.schemes, edition).unwrap_or_else(|message| {
            errors.add("schemes", message);
            Vec::new()
        });
        let def = PoolDef {
            id: self.id.clone(),
            name: self.name.clone(),
            edition,
            source: self.source.clone(),
            description: self.description.clone(),
            strategies,
            deployments,
            schemes,
            strategy_table: Vec::new(),
            // A pool typed in is the organiser's own word.
            caveats: Vec::new(),
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        Pool::from_def(def).map_err(|err| {
            let mut errors = FormErrors::new();
            errors.set_general(err.problems.join(" · "));
            errors
        })
    }
}

fn markers_field(suit: Suit) -> &'static str {
    match suit {
        Suit::Rams => "markers_rams",
        Suit::Masks => "markers_masks",
        Suit::Tomes => "markers_tomes",
        Suit::Crows => "markers_crows",
    }
}

fn deployment_field(suit: Suit) -> &'static str {
    match suit {
        Suit::Rams => "deployment_rams",
        Suit::Masks => "deployment_masks",
        Suit::Tomes => "deployment_tomes",
        Suit::Crows => "deployment_crows",
    }
}

/// `9,9; 27,9; 18,18`: marker positions in inches.
fn parse_markers(raw: &str) -> Result<Vec<MarkerPoint>, String> {
    raw.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|point| {
            let (x, y) = point
                .split_once(',')
                .ok_or_else(|| format!("{point:?} is not a position like 9,18."))?;
            let x: f64 = x
                .trim()
                .parse()
                .map_err(|_| format!("{point:?} is not a position like 9,18."))?;
            let y: f64 = y
                .trim()
                .parse()
                .map_err(|_| format!("{point:?} is not a position like 9,18."))?;
            Ok(MarkerPoint(x, y))
        })
        .collect()
}

/// One scheme per line; see [`PoolForm::schemes`].
fn parse_schemes(raw: &str, edition: GameSystem) -> Result<Vec<SchemeDef>, String> {
    let mut schemes = Vec::new();
    for (index, line) in raw
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
    {
        if edition == GameSystem::Malifaux3 {
            let (value, name) = match line.split_once('.') {
                Some((v, name)) if v.trim().parse::<u8>().is_ok() => {
                    (v.trim().parse::<u8>().ok(), name.trim())
                }
                _ => (u8::try_from(index + 1).ok(), line),
            };
            schemes.push(SchemeDef {
                value,
                name: name.to_owned(),
                next: Vec::new(),
                note: String::new(),
            });
        } else {
            let (name, next) = match line.split_once(':') {
                Some((name, next)) => (
                    name.trim(),
                    next.split(',')
                        .map(|n| n.trim().to_owned())
                        .filter(|n| !n.is_empty())
                        .collect(),
                ),
                None => (line, Vec::new()),
            };
            schemes.push(SchemeDef {
                value: None,
                name: name.to_owned(),
                next,
                note: String::new(),
            });
        }
    }
    if schemes.is_empty() {
        return Err("Enter the schemes, one per line.".into());
    }
    Ok(schemes)
}

#[derive(Template)]
#[template(path = "pools/form.html")]
struct FormPage {
    ctx: PageContext,
    form: PoolForm,
    errors: FormErrors,
    /// The pool being edited; empty for a new one.
    editing: String,
    deployments: Vec<(&'static str, &'static str)>,
}

impl FormPage {
    fn suits(&self) -> [(Suit, &'static str, &'static str, &'static str); 4] {
        [
            (
                Suit::Rams,
                "strategy_rams",
                "markers_rams",
                "deployment_rams",
            ),
            (
                Suit::Masks,
                "strategy_masks",
                "markers_masks",
                "deployment_masks",
            ),
            (
                Suit::Tomes,
                "strategy_tomes",
                "markers_tomes",
                "deployment_tomes",
            ),
            (
                Suit::Crows,
                "strategy_crows",
                "markers_crows",
                "deployment_crows",
            ),
        ]
    }

    fn strategy(&self, suit: &Suit) -> &str {
        self.form.strategy(*suit)
    }

    fn markers(&self, suit: &Suit) -> &str {
        self.form.markers(*suit)
    }

    fn deployment(&self, suit: &Suit) -> &str {
        self.form.deployment(*suit)
    }
}

fn deployment_choices() -> Vec<(&'static str, &'static str)> {
    DeploymentKind::SUITED
        .iter()
        .map(|d| (d.code(), d.name()))
        .collect()
}

#[derive(Debug, Deserialize)]
struct NewQuery {
    #[serde(default)]
    edition: String,
}

#[get("/pools/new")]
async fn new_page(
    ctx: PageContext,
    _user: CurrentUser,
    query: web::Query<NewQuery>,
) -> Result<HttpResponse, AppError> {
    render_page(
        &ctx,
        &FormPage {
            ctx: ctx.clone(),
            form: PoolForm::blank(&query.edition),
            errors: FormErrors::new(),
            editing: String::new(),
            deployments: deployment_choices(),
        },
    )
}

#[post("/pools/new")]
async fn create(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<PoolForm>,
) -> Result<HttpResponse, AppError> {
    // Before anything is checked: no typing for nothing (see the notice on every page).
    crate::auth::require_confirmed_address(user.account.is_verified())?;
    let form = form.0;
    let pool = match form.to_pool() {
        Ok(pool) => pool,
        Err(errors) => {
            return render_invalid(
                &ctx,
                &FormPage {
                    ctx: ctx.clone(),
                    form,
                    errors,
                    editing: String::new(),
                    deployments: deployment_choices(),
                },
            );
        }
    };
    let owner = user.id();
    let slug = pool.id().to_owned();
    let created = state
        .with_db(move |conn| match pools::create(conn, owner, &pool, now()) {
            Err(PoolError::IdRefused(why)) => Ok(Err(why)),
            other => Ok(Ok(other?)),
        })
        .await?;
    if let Err(why) = created {
        let mut errors = FormErrors::new();
        errors.add("id", why);
        return render_invalid(
            &ctx,
            &FormPage {
                ctx: ctx.clone(),
                form,
                errors,
                editing: String::new(),
                deployments: deployment_choices(),
            },
        );
    }
    Ok(redirect_with_flash(
        &state,
        &format!("/pools/{slug}"),
        FlashLevel::Success,
        "The pool is saved.",
    ))
}

/// Loads a pool for editing, refusing shipped pools, other people's pools,
/// and pools that a running event uses.
async fn editable(
    state: &web::Data<AppState>,
    user: &CurrentUser,
    slug: String,
) -> Result<(PoolRow, Pool), AppError> {
    let editor = editor(user);
    let found = state
        .with_db(move |conn| Ok(pools::editable(conn, editor, &slug)?))
        .await?;
    Ok((found.row, found.pool))
}

#[get("/pools/{slug}/edit")]
async fn edit_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let (row, pool) = editable(&state, &user, path.into_inner()).await?;
    render_page(
        &ctx,
        &FormPage {
            ctx: ctx.clone(),
            form: PoolForm::of(pool.def()),
            errors: FormErrors::new(),
            editing: row.slug,
            deployments: deployment_choices(),
        },
    )
}

#[post("/pools/{slug}/edit")]
async fn update(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: CsrfForm<PoolForm>,
) -> Result<HttpResponse, AppError> {
    let (row, _) = editable(&state, &user, path.into_inner()).await?;
    let mut form = form.0;
    // The id is fixed once a pool exists (events refer to it).
    form.id = row.slug.clone();
    let pool = match form.to_pool() {
        Ok(pool) => pool,
        Err(errors) => {
            return render_invalid(
                &ctx,
                &FormPage {
                    ctx: ctx.clone(),
                    form,
                    errors,
                    editing: row.slug,
                    deployments: deployment_choices(),
                },
            );
        }
    };
    let editor = editor(&user);
    let slug = row.slug.clone();
    state
        .with_db(move |conn| Ok(pools::update(conn, editor, &slug, &pool, now())?))
        .await?;
    Ok(redirect_with_flash(
        &state,
        &format!("/pools/{}", row.slug),
        FlashLevel::Success,
        "The pool is saved.",
    ))
}

#[post("/pools/{slug}/clone")]
async fn clone_pool(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    // Before anything is checked: no typing for nothing (see the notice on every page).
    crate::auth::require_confirmed_address(user.account.is_verified())?;
    let slug = path.into_inner();
    let owner = user.id();
    let new_slug = state
        .with_db(move |conn| Ok(pools::clone_pool(conn, owner, &slug, now())?))
        .await?;
    Ok(redirect_with_flash(
        &state,
        &format!("/pools/{new_slug}/edit"),
        FlashLevel::Success,
        "This is your copy: edit it as you like.",
    ))
}

#[derive(Template)]
#[template(path = "pools/import.html")]
struct ImportPage {
    ctx: PageContext,
    text: String,
    errors: FormErrors,
}

#[get("/pools/import")]
async fn import_page(ctx: PageContext, _user: CurrentUser) -> Result<HttpResponse, AppError> {
    render_page(
        &ctx,
        &ImportPage {
            ctx: ctx.clone(),
            text: String::new(),
            errors: FormErrors::new(),
        },
    )
}

#[derive(Debug, Deserialize)]
struct ImportForm {
    #[serde(default)]
    text: String,
}

#[post("/pools/import")]
async fn import(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<ImportForm>,
) -> Result<HttpResponse, AppError> {
    // Before anything is checked: no typing for nothing (see the notice on every page).
    crate::auth::require_confirmed_address(user.account.is_verified())?;
    let text = form.0.text;
    let pool = match pools::parse_import(&text) {
        Ok(pool) => pool,
        Err(problems) => {
            let mut errors = FormErrors::new();
            errors.set_general(problems);
            return render_invalid(
                &ctx,
                &ImportPage {
                    ctx: ctx.clone(),
                    text,
                    errors,
                },
            );
        }
    };
    let owner = user.id();
    let slug = pool.id().to_owned();
    let created = state
        .with_db(move |conn| match pools::create(conn, owner, &pool, now()) {
            Err(PoolError::IdRefused(why)) => Ok(Err(why)),
            other => Ok(Ok(other?)),
        })
        .await?;
    if let Err(why) = created {
        let mut errors = FormErrors::new();
        errors.set_general(format!("{why} Change the id in the file."));
        return render_invalid(
            &ctx,
            &ImportPage {
                ctx: ctx.clone(),
                text,
                errors,
            },
        );
    }
    Ok(redirect_with_flash(
        &state,
        &format!("/pools/{slug}"),
        FlashLevel::Success,
        "The pool is imported.",
    ))
}
