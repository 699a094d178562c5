//! Content packs through the web: an event's organiser uploads the
//! event's pack and pins the version it plays with
//! (`/events/{id}/pack`); a site admin uploads packs every event may pin
//! (`/admin/packs`). The rules are `crate::packs`'s.

use actix_web::{FromRequest, HttpRequest, HttpResponse, get, post, web};
use askama::Template;
use serde::Deserialize;
use soulstone_engine::content::ContentError;

use crate::content::pack::{MAX_PACK_BYTES, MAX_PACK_FILES, PackFiles};
use crate::packs::{self, EventPacks, PackError, PackScope, PackVersion};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::events::{actor_of, event_path};
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{AdminUser, CsrfForm, CurrentUser};
use crate::web::upload::CsrfUpload;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(event_pack_page)
        .service(upload_event_pack)
        .service(pin_event_pack)
        .service(site_packs_page)
        .service(upload_site_pack);
}

/// An event whose cards a page uses (its pinned pack on top of the
/// server's), as the page names it.
#[derive(Debug, Clone)]
pub struct EventCardsView {
    pub id: i64,
    pub name: String,
    /// The pack's name and version, if the event pins one.
    pub pack: Option<(String, String)>,
}

impl EventCardsView {
    pub fn of(cards: &packs::EventCards) -> Self {
        Self {
            id: cards.event_id,
            name: cards.event_name.clone(),
            pack: cards
                .pack
                .as_ref()
                .map(|p| (p.name.clone(), p.short_hash().to_owned())),
        }
    }
}

/// The cards of event `event`, for an actor who may see it.
pub async fn event_cards(
    state: &web::Data<AppState>,
    actor: Option<crate::events::Actor>,
    event: i64,
) -> Result<packs::EventCards, AppError> {
    let content = std::sync::Arc::clone(&state.content);
    state
        .with_db(move |conn| Ok(packs::event_cards(conn, &content, event, actor)?))
        .await
}

/// The cards a page uses: the server's, or an event's (its pinned pack on
/// top) when the page is asked for in the event's context.
pub struct PageCards {
    pub catalog: std::sync::Arc<soulstone_engine::content::Catalog>,
    pub event: Option<EventCardsView>,
}

impl PageCards {
    /// The server's cards, or event `event`'s for whoever asks (who must
    /// be able to see the event).
    pub async fn of(
        state: &web::Data<AppState>,
        ctx: &PageContext,
        event: Option<i64>,
    ) -> Result<Self, AppError> {
        Ok(match event {
            None => Self {
                catalog: std::sync::Arc::clone(&state.catalog),
                event: None,
            },
            Some(id) => {
                let cards = event_cards(state, actor_of(ctx.user.as_deref()), id).await?;
                Self {
                    event: Some(EventCardsView::of(&cards)),
                    catalog: cards.catalog,
                }
            }
        })
    }

    pub fn event_id(&self) -> Option<i64> {
        self.event.as_ref().map(|e| e.id)
    }
}

fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

/// One problem of a refused pack, as the page lists it.
pub struct ProblemLine {
    pub file: String,
    pub line: Option<usize>,
    pub field: String,
    pub message: String,
}

impl ProblemLine {
    fn of(error: ContentError) -> Self {
        Self {
            file: error.file,
            line: error.line,
            field: error.field,
            message: error.message,
        }
    }
}

/// What a refused upload brings back to its page.
#[derive(Default)]
struct Refusal {
    problems: Vec<ProblemLine>,
    error: Option<String>,
    name: String,
}

impl Refusal {
    fn refuses(&self) -> bool {
        self.error.is_some() || !self.problems.is_empty()
    }
}

/// A pack page, answered 422 when it shows a refusal.
fn shown<T: Template>(
    ctx: &PageContext,
    page: &T,
    refused: bool,
) -> Result<HttpResponse, AppError> {
    if refused {
        crate::web::forms::render_invalid(ctx, page)
    } else {
        render_page(ctx, page)
    }
}

#[derive(Template)]
#[template(path = "packs/event.html")]
struct EventPackPage {
    ctx: PageContext,
    event_id: i64,
    packs: EventPacks,
    refusal: Refusal,
    max_files: usize,
    max_mib: usize,
}

#[derive(Template)]
#[template(path = "packs/site.html")]
struct SitePacksPage {
    ctx: PageContext,
    versions: Vec<PackVersion>,
    refusal: Refusal,
    max_files: usize,
    max_mib: usize,
}

fn pack_path(event: i64) -> String {
    format!("{}/pack", event_path(event))
}

async fn event_page_with(
    ctx: PageContext,
    state: &web::Data<AppState>,
    user: &CurrentUser,
    event: i64,
    refusal: Refusal,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(user)).ok_or(AppError::Unauthorized)?;
    let packs = state
        .with_db(move |conn| Ok(packs::event_packs(conn, event, actor)?))
        .await?;
    let refused = refusal.refuses();
    let page = EventPackPage {
        ctx: ctx.clone(),
        event_id: event,
        packs,
        refusal,
        max_files: MAX_PACK_FILES,
        max_mib: MAX_PACK_BYTES / 1024 / 1024,
    };
    shown(&ctx, &page, refused)
}

#[get("/events/{id}/pack")]
async fn event_pack_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    event_page_with(ctx, &state, &user, path.into_inner(), Refusal::default()).await
}

/// Reads the upload and keeps it for `scope`; a refusal comes back with
/// every problem, and nothing is kept.
async fn upload(
    state: &web::Data<AppState>,
    user: &CurrentUser,
    scope: PackScope,
    form: CsrfUpload,
) -> Result<Result<packs::Uploaded, Refusal>, AppError> {
    let actor = actor_of(Some(user)).ok_or(AppError::Unauthorized)?;
    let name = form.field("name").to_owned();
    let files = match PackFiles::read(form.files) {
        Ok(files) => files,
        Err(problems) => {
            return Ok(Err(Refusal {
                problems: problems.into_iter().map(ProblemLine::of).collect(),
                error: None,
                name,
            }));
        }
    };
    let content = std::sync::Arc::clone(&state.content);
    let kept_name = name.clone();
    let uploaded = state
        .with_db(move |conn| {
            Ok(packs::upload(
                conn,
                &content,
                scope,
                actor,
                &kept_name,
                &files,
                now(),
            ))
        })
        .await?;
    Ok(match uploaded {
        Ok(uploaded) => Ok(uploaded),
        Err(PackError::Invalid(problems)) => Err(Refusal {
            problems: problems.into_iter().map(ProblemLine::of).collect(),
            error: None,
            name,
        }),
        Err(PackError::Refused(why)) => Err(Refusal {
            problems: Vec::new(),
            error: Some(why),
            name,
        }),
        Err(other) => return Err(other.into()),
    })
}

fn uploaded_words(uploaded: &packs::Uploaded) -> String {
    let version = &uploaded.version;
    let kept = if uploaded.already_kept {
        format!(
            "These files were uploaded before: version {} is kept.",
            version.short_hash()
        )
    } else {
        format!(
            "\u{201c}{}\u{201d} is checked and kept as version {}: {} stat cards and {} crew cards.",
            version.name,
            version.short_hash(),
            version.cards,
            version.crew_cards
        )
    };
    if uploaded.pinned {
        format!("{kept} The event now plays with it.")
    } else {
        kept
    }
}

#[post("/events/{id}/pack")]
async fn upload_event_pack(
    ctx: PageContext,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, AppError> {
    let event = path.into_inner();
    // Who may upload is known before the files are read.
    let actor = actor_of(Some(&user)).ok_or(AppError::Unauthorized)?;
    state
        .with_db(move |conn| Ok(packs::may_change(conn, event, actor)?))
        .await?;
    let form = CsrfUpload::from_request(&req, &mut payload.into_inner()).await?;
    match upload(&state, &user, PackScope::Event(event), form).await? {
        Ok(uploaded) => Ok(redirect_with_flash(
            &state,
            &pack_path(event),
            FlashLevel::Success,
            uploaded_words(&uploaded),
        )),
        Err(refusal) => event_page_with(ctx, &state, &user, event, refusal).await,
    }
}

#[derive(Debug, Deserialize)]
struct PinForm {
    /// A version's id; empty: the server's own cards.
    pack: String,
}

#[post("/events/{id}/pack/pin")]
async fn pin_event_pack(
    ctx: PageContext,
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<i64>,
    form: CsrfForm<PinForm>,
) -> Result<HttpResponse, AppError> {
    let event = path.into_inner();
    let actor = actor_of(Some(&user)).ok_or(AppError::Unauthorized)?;
    let pack = match form.pack.trim() {
        "" => None,
        id => Some(
            id.parse::<i64>()
                .map_err(|_| AppError::bad_request("No such pack version."))?,
        ),
    };
    let pinned = state
        .with_db(move |conn| Ok(packs::pin(conn, event, actor, pack)))
        .await?;
    match pinned {
        Ok(()) => Ok(redirect_with_flash(
            &state,
            &pack_path(event),
            FlashLevel::Success,
            if pack.is_some() {
                "The event now plays with that version."
            } else {
                "The event now plays with the server's own cards."
            },
        )),
        Err(PackError::Refused(why)) => {
            let refusal = Refusal {
                error: Some(why),
                ..Refusal::default()
            };
            event_page_with(ctx, &state, &user, event, refusal).await
        }
        Err(other) => Err(other.into()),
    }
}

async fn site_page_with(
    ctx: PageContext,
    state: &web::Data<AppState>,
    user: &CurrentUser,
    refusal: Refusal,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(user)).ok_or(AppError::Unauthorized)?;
    let versions = state
        .with_db(move |conn| Ok(packs::site_packs(conn, actor)?))
        .await?;
    let refused = refusal.refuses();
    let page = SitePacksPage {
        ctx: ctx.clone(),
        versions,
        refusal,
        max_files: MAX_PACK_FILES,
        max_mib: MAX_PACK_BYTES / 1024 / 1024,
    };
    shown(&ctx, &page, refused)
}

#[get("/admin/packs")]
async fn site_packs_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    user: CurrentUser,
    _admin: AdminUser,
) -> Result<HttpResponse, AppError> {
    site_page_with(ctx, &state, &user, Refusal::default()).await
}

#[post("/admin/packs")]
async fn upload_site_pack(
    ctx: PageContext,
    state: web::Data<AppState>,
    user: CurrentUser,
    // Before the upload is read: only a site admin sends one here.
    _admin: AdminUser,
    form: CsrfUpload,
) -> Result<HttpResponse, AppError> {
    match upload(&state, &user, PackScope::Site, form).await? {
        Ok(uploaded) => Ok(redirect_with_flash(
            &state,
            "/admin/packs",
            FlashLevel::Success,
            uploaded_words(&uploaded),
        )),
        Err(refusal) => site_page_with(ctx, &state, &user, refusal).await,
    }
}
