//! Content packs through the web: a site admin uploads one any event may
//! pin, an event's organiser one for that event. An upload is checked
//! whole against the server's cards (nothing of a pack with a problem is
//! kept), kept as a version named by its hash, and an event plays with the
//! version it pins. Games record the hashes they were made with
//! (`content::ContentStamp`).

use std::sync::Arc;

use chrono::NaiveDateTime;
use soulstone_engine::content::{Catalog, ContentError};

use crate::content::pack::PackFiles;
use crate::content::{ContentStamp, ServerContent};
use crate::db::packs::{self as db_packs, NewPack, PackSummaryRow};
use crate::db::{DbConnection, DbError, WriteTransaction};
use crate::events::{self, Actor, EventError};
use crate::systems::GameSystem;

/// Characters a pack's name may have.
pub const MAX_PACK_NAME_CHARS: usize = 80;

#[derive(Debug, thiserror::Error)]
pub enum PackError {
    #[error("not found")]
    NotFound,
    #[error("{0}")]
    Forbidden(String),
    /// The request cannot be done as asked; the message says why.
    #[error("{0}")]
    Refused(String),
    /// The pack's files have problems: every one, with its file, line and
    /// field. Nothing was kept.
    #[error("the pack has {} problem(s)", .0.len())]
    Invalid(Vec<ContentError>),
    #[error("stored pack is unreadable: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Event(#[from] EventError),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for PackError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Db(error.into())
    }
}

/// Where a pack is uploaded: for the site or for one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PackScope {
    Site,
    Event(i64),
}

/// A pack version as pages show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackVersion {
    pub id: i64,
    pub name: String,
    pub hash: String,
    pub cards: i32,
    pub crew_cards: i32,
    pub uploaded_at: NaiveDateTime,
    /// A site admin's (any event may pin it), else the event's own.
    pub site_wide: bool,
}

impl PackVersion {
    fn of(row: PackSummaryRow) -> Self {
        Self {
            id: row.id,
            name: row.name,
            hash: row.hash,
            cards: row.cards,
            crew_cards: row.crew_cards,
            uploaded_at: row.created_at,
            site_wide: row.event_id.is_none(),
        }
    }

    /// The first 12 hex digits of the hash, which tell versions apart on a
    /// page.
    pub fn short_hash(&self) -> &str {
        self.hash.get(..12).unwrap_or(&self.hash)
    }
}

/// What an upload did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uploaded {
    pub version: PackVersion,
    /// The same files were uploaded here before: that version is kept.
    pub already_kept: bool,
    /// The event now plays with it (an event's upload before its first
    /// round).
    pub pinned: bool,
}

/// A pack's name as it is kept: trimmed, 1 to [`MAX_PACK_NAME_CHARS`].
fn checked_name(name: &str) -> Result<String, PackError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(PackError::Refused("Give the pack a name.".into()));
    }
    if name.chars().count() > MAX_PACK_NAME_CHARS {
        return Err(PackError::Refused(format!(
            "A pack's name has at most {MAX_PACK_NAME_CHARS} characters."
        )));
    }
    Ok(name.to_owned())
}

/// Only an event's owner (or a site admin) changes its cards, and only an
/// event of the 4th or 3rd edition has packs.
fn owned_event(conn: &mut DbConnection, event: i64, actor: Actor) -> Result<String, PackError> {
    let (view, access) = events::load(conn, event, Some(actor))?;
    if !access.is_owner() {
        return Err(PackError::Forbidden(
            "Only the event's organiser may change the cards it plays with.".into(),
        ));
    }
    if !matches!(view.system, GameSystem::Malifaux4 | GameSystem::Malifaux3) {
        return Err(PackError::Refused(
            "Content packs hold 4th and 3rd edition cards; this event plays another game.".into(),
        ));
    }
    Ok(view.event.name)
}

/// Whether `actor` may upload and pin packs for `event` (asked before an
/// upload is read).
pub fn may_change(conn: &mut DbConnection, event: i64, actor: Actor) -> Result<(), PackError> {
    owned_event(conn, event, actor).map(|_| ())
}

/// Checks `files` against the server's cards and keeps them as a version
/// for `scope`; an event's upload is pinned while the event has no round.
pub fn upload(
    conn: &mut DbConnection,
    content: &ServerContent,
    scope: PackScope,
    actor: Actor,
    name: &str,
    files: &PackFiles,
    now: NaiveDateTime,
) -> Result<Uploaded, PackError> {
    let name = checked_name(name)?;
    match scope {
        PackScope::Site if !actor.is_admin => {
            return Err(PackError::Forbidden(
                "Only a site admin uploads packs for the whole site.".into(),
            ));
        }
        PackScope::Site => {}
        PackScope::Event(event) => {
            owned_event(conn, event, actor)?;
        }
    }
    content.with_pack(files).map_err(PackError::Invalid)?;
    let counted = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
    let cards = counted(files.cards.len());
    let crew_cards = counted(files.crew_cards.len());
    let hash = files.hash();
    let json = serde_json::to_string(files).map_err(|e| PackError::Corrupt(e.to_string()))?;
    let event = match scope {
        PackScope::Site => None,
        PackScope::Event(event) => Some(event),
    };
    conn.write_transaction(|conn| {
        let (row, already_kept) = match db_packs::pack_with_hash(conn, event, &hash)? {
            Some(row) => (row, true),
            None => {
                let id = db_packs::insert_pack(
                    conn,
                    &NewPack {
                        event_id: event,
                        uploaded_by: Some(actor.account_id),
                        name: &name,
                        hash: &hash,
                        files: &json,
                        cards,
                        crew_cards,
                        created_at: now,
                    },
                )?;
                let row = db_packs::find_pack(conn, id)?.ok_or(PackError::NotFound)?;
                (row, false)
            }
        };
        let pinned = match event {
            Some(event) if !db_packs::has_rounds(conn, event)? => {
                db_packs::pin_pack(conn, event, Some(row.id))?;
                true
            }
            _ => false,
        };
        Ok(Uploaded {
            version: PackVersion::of(row),
            already_kept,
            pinned,
        })
    })
}

/// What an event's pack page shows: the pinned version, every version it
/// may pin, and whether it may still change.
#[derive(Debug, Clone)]
pub struct EventPacks {
    pub event_name: String,
    pub pinned: Option<PackVersion>,
    pub versions: Vec<PackVersion>,
    /// The event has a round: its pack no longer changes.
    pub fixed: bool,
}

impl EventPacks {
    pub fn is_pinned(&self, id: &i64) -> bool {
        self.pinned.as_ref().is_some_and(|p| p.id == *id)
    }
}

pub fn event_packs(
    conn: &mut DbConnection,
    event: i64,
    actor: Actor,
) -> Result<EventPacks, PackError> {
    let event_name = owned_event(conn, event, actor)?;
    Ok(EventPacks {
        event_name,
        pinned: db_packs::pinned_pack(conn, event)?.map(PackVersion::of),
        versions: db_packs::packs_for_event(conn, event)?
            .into_iter()
            .map(PackVersion::of)
            .collect(),
        fixed: db_packs::has_rounds(conn, event)?,
    })
}

/// The site's versions, for a site admin.
pub fn site_packs(conn: &mut DbConnection, actor: Actor) -> Result<Vec<PackVersion>, PackError> {
    if !actor.is_admin {
        return Err(PackError::Forbidden(
            "Only a site admin sees the site's packs.".into(),
        ));
    }
    Ok(db_packs::site_packs(conn)?
        .into_iter()
        .map(PackVersion::of)
        .collect())
}

/// Pins version `pack` for `event` (none: the server's own cards), until
/// its first round: the players' lists are checked against the cards it
/// pins, so they do not change under them.
pub fn pin(
    conn: &mut DbConnection,
    event: i64,
    actor: Actor,
    pack: Option<i64>,
) -> Result<(), PackError> {
    owned_event(conn, event, actor)?;
    conn.write_transaction(|conn| {
        if db_packs::has_rounds(conn, event)? {
            return Err(PackError::Refused(
                "The event has begun its rounds: the cards it plays with no longer change.".into(),
            ));
        }
        if let Some(id) = pack {
            let row = db_packs::find_pack(conn, id)?.ok_or(PackError::NotFound)?;
            if row.event_id.is_some_and(|own| own != event) {
                return Err(PackError::NotFound);
            }
        }
        db_packs::pin_pack(conn, event, pack)?;
        Ok(())
    })
}

/// The cards an event plays with: the server's, with its pinned pack on
/// top, and the hashes that name them.
#[derive(Clone)]
pub struct EventCards {
    pub event_id: i64,
    pub event_name: String,
    pub pack: Option<PackVersion>,
    pub catalog: Arc<Catalog>,
    pub stamp: ContentStamp,
}

/// The cards event `event` plays with, for anyone who may see the event.
pub fn event_cards(
    conn: &mut DbConnection,
    content: &ServerContent,
    event: i64,
    actor: Option<Actor>,
) -> Result<EventCards, PackError> {
    let (view, _) = events::load(conn, event, actor)?;
    let pinned = db_packs::pinned_pack(conn, event)?;
    let (catalog, stamp) = event_content(conn, content, pinned.as_ref())?;
    Ok(EventCards {
        event_id: event,
        event_name: view.event.name,
        pack: pinned.map(PackVersion::of),
        catalog,
        stamp,
    })
}

/// The cards a game that may count in league `league` is played with: the
/// league's (its pinned pack on top of the server's), or the server's for a
/// casual game, or when the league is gone (the invitation then refuses
/// the game by the league's own rule).
pub fn league_cards(
    conn: &mut DbConnection,
    content: &ServerContent,
    league: Option<i64>,
    actor: Actor,
) -> Result<(Arc<Catalog>, ContentStamp), PackError> {
    let server = || (Arc::clone(&content.catalog), content.stamp());
    let Some(league) = league else {
        return Ok(server());
    };
    match event_cards(conn, content, league, Some(actor)) {
        Ok(cards) => Ok((cards.catalog, cards.stamp)),
        Err(PackError::NotFound | PackError::Event(EventError::NotFound)) => Ok(server()),
        Err(other) => Err(other),
    }
}

/// The catalog with `pinned` on top (none: the server's) and its stamp.
fn event_content(
    conn: &mut DbConnection,
    content: &ServerContent,
    pinned: Option<&PackSummaryRow>,
) -> Result<(Arc<Catalog>, ContentStamp), PackError> {
    let Some(pinned) = pinned else {
        return Ok((Arc::clone(&content.catalog), content.stamp()));
    };
    let catalog = content
        .catalog_with(&pinned.hash, || {
            db_packs::files_with_hash(conn, &pinned.hash)
                .ok()
                .flatten()
                .and_then(|json| serde_json::from_str(&json).ok())
        })
        .map_err(PackError::Corrupt)?;
    Ok((catalog, content.stamp_with(&pinned.hash)))
}
