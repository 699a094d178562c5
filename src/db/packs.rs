//! Content packs uploaded through the web, and the version an event pins.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{content_packs, events, rounds};
use super::{DbConnection, DbError};

/// A pack version without its files (what pages list).
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = content_packs)]
pub struct PackSummaryRow {
    pub id: i64,
    pub event_id: Option<i64>,
    pub uploaded_by: Option<i64>,
    pub name: String,
    pub hash: String,
    pub cards: i32,
    pub crew_cards: i32,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = content_packs)]
pub struct NewPack<'a> {
    pub event_id: Option<i64>,
    pub uploaded_by: Option<i64>,
    pub name: &'a str,
    pub hash: &'a str,
    pub files: &'a str,
    pub cards: i32,
    pub crew_cards: i32,
    pub created_at: NaiveDateTime,
}

pub fn insert_pack(conn: &mut DbConnection, pack: &NewPack<'_>) -> Result<i64, DbError> {
    Ok(diesel::insert_into(content_packs::table)
        .values(pack)
        .returning(content_packs::id)
        .get_result(conn)?)
}

/// The version of hash `hash` uploaded for `event` (for the site: none).
pub fn pack_with_hash(
    conn: &mut DbConnection,
    event: Option<i64>,
    hash: &str,
) -> Result<Option<PackSummaryRow>, DbError> {
    let query = content_packs::table
        .filter(content_packs::hash.eq(hash.to_owned()))
        .into_boxed();
    let query = match event {
        Some(event) => query.filter(content_packs::event_id.eq(event)),
        None => query.filter(content_packs::event_id.is_null()),
    };
    Ok(query
        .order(content_packs::id.asc())
        .select(PackSummaryRow::as_select())
        .first(conn)
        .optional()?)
}

/// The versions an event may pin: its own, then the site's, newest first.
pub fn packs_for_event(
    conn: &mut DbConnection,
    event: i64,
) -> Result<Vec<PackSummaryRow>, DbError> {
    Ok(content_packs::table
        .filter(
            content_packs::event_id
                .eq(event)
                .or(content_packs::event_id.is_null()),
        )
        .order((content_packs::event_id.is_null(), content_packs::id.desc()))
        .select(PackSummaryRow::as_select())
        .load(conn)?)
}

/// The site's versions, newest first.
pub fn site_packs(conn: &mut DbConnection) -> Result<Vec<PackSummaryRow>, DbError> {
    Ok(content_packs::table
        .filter(content_packs::event_id.is_null())
        .order(content_packs::id.desc())
        .select(PackSummaryRow::as_select())
        .load(conn)?)
}

pub fn find_pack(conn: &mut DbConnection, id: i64) -> Result<Option<PackSummaryRow>, DbError> {
    Ok(content_packs::table
        .find(id)
        .select(PackSummaryRow::as_select())
        .first(conn)
        .optional()?)
}

/// The files of the version of hash `hash` (the same files under any id).
pub fn files_with_hash(conn: &mut DbConnection, hash: &str) -> Result<Option<String>, DbError> {
    Ok(content_packs::table
        .filter(content_packs::hash.eq(hash.to_owned()))
        .select(content_packs::files)
        .first(conn)
        .optional()?)
}

/// The version `event` pins, if any.
pub fn pinned_pack(conn: &mut DbConnection, event: i64) -> Result<Option<PackSummaryRow>, DbError> {
    let pinned: Option<Option<i64>> = events::table
        .find(event)
        .select(events::content_pack_id)
        .first(conn)
        .optional()?;
    match pinned.flatten() {
        Some(id) => find_pack(conn, id),
        None => Ok(None),
    }
}

/// Pins `pack` (none: the server's own cards) for `event`; the event's
/// pages see the change.
pub fn pin_pack(conn: &mut DbConnection, event: i64, pack: Option<i64>) -> Result<(), DbError> {
    diesel::update(events::table.find(event))
        .set((
            events::content_pack_id.eq(pack),
            events::data_revision.eq(events::data_revision + 1),
        ))
        .execute(conn)?;
    Ok(())
}

/// Whether `event` has a round yet (its players' lists are then fixed
/// against the cards it pins).
pub fn has_rounds(conn: &mut DbConnection, event: i64) -> Result<bool, DbError> {
    let count: i64 = rounds::table
        .filter(rounds::event_id.eq(event))
        .count()
        .get_result(conn)?;
    Ok(count > 0)
}
