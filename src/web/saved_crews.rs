//! The crew lists a player keeps: saved from the builder, listed on
//! `/crews`, opened in the builder again, handed to a practice game, and
//! deleted after a confirmation. The rules are `crate::crews::saved`'s.

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use serde::Deserialize;

use crate::crews::saved::{self, SavedCrewError};
use crate::web::AppState;
use crate::web::crew_builder::{
    Saving, builder_href, invite_href, list_from_json, practice_href, render_builder,
};
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::packs::PageCards;
use crate::web::session::{CsrfForm, CurrentUser};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(saved_page)
        .service(save_crew)
        .service(delete_page)
        .service(delete_crew);
}

impl From<SavedCrewError> for AppError {
    fn from(error: SavedCrewError) -> Self {
        match error {
            SavedCrewError::Invalid(why) => AppError::BadRequest(why),
            SavedCrewError::NameTaken(_) | SavedCrewError::Full => {
                AppError::Conflict(error.to_string())
            }
            SavedCrewError::NotFound => AppError::NotFound,
            SavedCrewError::Db(db) => db.into(),
        }
    }
}

fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

struct SavedRow {
    id: i64,
    name: String,
    edition: &'static str,
    /// The event whose cards the list was written with: its id and name.
    cards: Option<(i64, String)>,
    leader: String,
    /// "42 of 50", or the first rule it breaks.
    standing: String,
    hires: bool,
    builder_href: String,
    practice_href: String,
    invite_href: String,
    saved_at: String,
}

#[derive(Template)]
#[template(path = "crews/saved.html")]
struct SavedPage {
    ctx: PageContext,
    rows: Vec<SavedRow>,
    max: i64,
}

#[get("/crews")]
async fn saved_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let account = user.id();
    let kept = state
        .with_db(move |conn| Ok(saved::saved_of(conn, account, None)?))
        .await?;
    // A list written with an event's cards is appraised with them.
    let mut events = std::collections::BTreeMap::new();
    for event in kept.iter().filter_map(|crew| crew.event) {
        if let std::collections::btree_map::Entry::Vacant(slot) = events.entry(event) {
            match PageCards::of(&state, &ctx, Some(event)).await {
                Ok(cards) => {
                    slot.insert(cards);
                }
                // An event the reader may no longer see: the list is
                // appraised with the server's cards.
                Err(AppError::NotFound | AppError::Forbidden(_)) => {}
                Err(other) => return Err(other),
            }
        }
    }
    let rows = kept
        .into_iter()
        .map(|crew| {
            let cards = crew.event.and_then(|id| events.get(&id));
            let event = cards.and_then(PageCards::event_id);
            let catalog = cards.map_or(&state.catalog, |cards| &cards.catalog);
            let appraisal = crew.list.appraise(catalog);
            let hires = appraisal.errors.is_empty();
            SavedRow {
                id: crew.id,
                cards: cards
                    .and_then(|c| c.event.as_ref())
                    .map(|e| (e.id, e.name.clone())),
                edition: crew.list.edition.name(),
                leader: crew.list.leader.clone(),
                standing: match appraisal.errors.first() {
                    None => format!("{} of {}", appraisal.crew.spent, crew.list.size),
                    Some(broken) => broken.to_string(),
                },
                hires,
                builder_href: builder_href(&crew.list, event),
                practice_href: practice_href(&crew.list, event),
                invite_href: invite_href(&crew.list),
                saved_at: crew.saved_at.format("%Y-%m-%d %H:%M UTC").to_string(),
                name: crew.name,
            }
        })
        .collect();
    render_page(
        &ctx,
        &SavedPage {
            ctx: ctx.clone(),
            rows,
            max: saved::MAX_SAVED_CREWS,
        },
    )
}

#[derive(Debug, Deserialize)]
struct SaveForm {
    /// The builder's list, as JSON.
    list: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    replace: Option<String>,
    /// The event whose cards the builder wrote with.
    #[serde(default)]
    event: Option<i64>,
}

/// Saves the builder's list. A refusal shows the builder again with the
/// list, the name and the reason, so nothing written is lost.
#[post("/crews")]
async fn save_crew(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<SaveForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.0;
    let list = list_from_json(&form.list)
        .ok_or_else(|| AppError::bad_request("The list to save could not be read."))?;
    // The event's cards, which also checks the event may be seen.
    let cards = PageCards::of(&state, &ctx, form.event).await?;
    let account = user.id();
    let replace = form.replace.is_some();
    let (name, to_save, event) = (form.name.clone(), list.clone(), cards.event_id());
    let saved = state
        .with_db(move |conn| {
            Ok(saved::save(
                conn,
                account,
                &name,
                &to_save,
                event,
                replace,
                now(),
            ))
        })
        .await?;
    match saved {
        Ok(_) => Ok(redirect_with_flash(
            &state,
            "/crews",
            FlashLevel::Success,
            format!("Saved \"{}\".", form.name.trim()),
        )),
        Err(SavedCrewError::Db(db)) => Err(db.into()),
        Err(refused) => {
            let edition = list.edition;
            let request = crate::crews::builder::Request {
                carried: Some(list),
                ..Default::default()
            };
            let saving = Saving {
                name: form.name,
                replace,
            };
            render_builder(
                &ctx,
                &cards,
                edition,
                &request,
                vec![refused.to_string()],
                saving,
            )
        }
    }
}

#[derive(Template)]
#[template(path = "crews/delete.html")]
struct DeletePage {
    ctx: PageContext,
    id: i64,
    name: String,
    leader: String,
}

#[get("/crews/{id}/delete")]
async fn delete_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let (account, id) = (user.id(), path.into_inner());
    let crew = state
        .with_db(move |conn| Ok(saved::saved(conn, account, id)?))
        .await?;
    render_page(
        &ctx,
        &DeletePage {
            ctx: ctx.clone(),
            id: crew.id,
            name: crew.name,
            leader: crew.list.leader,
        },
    )
}

#[post("/crews/{id}/delete")]
async fn delete_crew(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let (account, id) = (user.id(), path.into_inner());
    state
        .with_db(move |conn| Ok(saved::delete(conn, account, id)?))
        .await?;
    Ok(redirect_with_flash(
        &state,
        "/crews",
        FlashLevel::Success,
        "The list was deleted.",
    ))
}
