//! Strategy and scheme pools: the shipped ones are kept in step with the
//! files in `content/` at start-up; TOs add and edit their own.

use super::WriteTransaction;
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{events, pool_revisions, pools};
use super::{DbConnection, DbError};
use crate::setup::pool::Pool;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable)]
#[diesel(table_name = pools)]
pub struct PoolRow {
    pub id: i64,
    pub slug: String,
    pub edition: String,
    pub name: String,
    pub definition: String,
    pub shipped: bool,
    pub owner_account_id: Option<i64>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// Featured by a site admin: a candidate for the public default.
    pub featured: bool,
}

impl PoolRow {
    /// The revision of the current definition: a content hash.
    pub fn revision(&self) -> String {
        crate::setup::pool::revision_of(&self.definition)
    }

    /// The stored definition, validated again (it was valid when stored).
    pub fn pool(&self) -> Result<Pool, DbError> {
        Pool::parse_json(&self.definition).map_err(|err| {
            DbError::Migration(format!("stored pool {} is invalid: {err}", self.slug))
        })
    }
}

/// Inserts or refreshes the shipped pools. A TO's pool that holds a shipped
/// pool's id (made before the shipped namespace was kept) moves to
/// `my-<id>` (events refer to pools by row, so they keep theirs), so a
/// TO's pool never shadows a shipped one.
pub fn sync_shipped(
    conn: &mut DbConnection,
    shipped: &[Pool],
    now: NaiveDateTime,
) -> Result<(), DbError> {
    conn.write_transaction(|conn| {
        for pool in shipped {
            let definition = pool.to_json();
            let existing: Option<PoolRow> = pools::table
                .filter(pools::slug.eq(pool.id()))
                .select(PoolRow::as_select())
                .first(conn)
                .optional()?;
            match existing {
                Some(row) if row.shipped && row.definition != definition => {
                    diesel::update(pools::table.find(row.id))
                        .set((
                            pools::definition.eq(&definition),
                            pools::name.eq(pool.name()),
                            pools::updated_at.eq(now),
                        ))
                        .execute(conn)?;
                }
                Some(row) if row.shipped => {}
                Some(row) => {
                    let moved_to = format!("my-{}", row.slug);
                    let free = crate::setup::pool::numbered_pool_ids(&moved_to)
                        .find(|slug| {
                            pools::table
                                .filter(pools::slug.eq(slug))
                                .count()
                                .get_result::<i64>(conn)
                                .is_ok_and(|n| n == 0)
                        })
                        .ok_or_else(|| {
                            DbError::Migration(format!("no free id to move pool {} to", row.slug))
                        })?;
                    diesel::update(pools::table.find(row.id))
                        .set(pools::slug.eq(&free))
                        .execute(conn)?;
                    insert_shipped(conn, pool, &definition, now)?;
                }
                None => insert_shipped(conn, pool, &definition, now)?,
            }
        }
        Ok(())
    })
}

fn insert_shipped(
    conn: &mut DbConnection,
    pool: &Pool,
    definition: &str,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::insert_into(pools::table)
        .values((
            pools::slug.eq(pool.id()),
            pools::edition.eq(pool.edition().code()),
            pools::name.eq(pool.name()),
            pools::definition.eq(definition),
            pools::shipped.eq(true),
            pools::created_at.eq(now),
            pools::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// What inserting a TO's pool did.
#[derive(Debug)]
pub enum PoolInsert {
    Inserted(Box<PoolRow>),
    /// Another pool has the id.
    Taken,
    /// The id is in the shipped pools' namespace.
    Reserved,
}

impl PoolInsert {
    pub fn inserted(&self) -> bool {
        matches!(self, PoolInsert::Inserted(_))
    }
}

/// Inserts a TO's pool, unless its id is taken or kept for shipped pools.
pub fn insert_pool(
    conn: &mut DbConnection,
    pool: &Pool,
    owner: i64,
    now: NaiveDateTime,
) -> Result<PoolInsert, DbError> {
    if crate::setup::pool::is_reserved_pool_id(pool.id()) {
        return Ok(PoolInsert::Reserved);
    }
    let result = conn
        .write_transaction(|conn| {
            diesel::insert_into(pools::table)
                .values((
                    pools::slug.eq(pool.id()),
                    pools::edition.eq(pool.edition().code()),
                    pools::name.eq(pool.name()),
                    pools::definition.eq(pool.to_json()),
                    pools::shipped.eq(false),
                    pools::owner_account_id.eq(Some(owner)),
                    pools::created_at.eq(now),
                    pools::updated_at.eq(now),
                ))
                .returning(pools::all_columns)
                .get_result::<PoolRow>(conn)
        })
        .map_err(DbError::from);
    match result {
        Ok(row) => Ok(PoolInsert::Inserted(Box::new(row))),
        Err(err) if err.is_unique_violation() => Ok(PoolInsert::Taken),
        Err(err) => Err(err),
    }
}

pub fn update_pool(
    conn: &mut DbConnection,
    id: i64,
    pool: &Pool,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::update(pools::table.find(id))
        .set((
            pools::name.eq(pool.name()),
            pools::edition.eq(pool.edition().code()),
            pools::definition.eq(pool.to_json()),
            pools::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn find_by_slug(conn: &mut DbConnection, slug: &str) -> Result<Option<PoolRow>, DbError> {
    Ok(pools::table
        .filter(pools::slug.eq(slug))
        .select(PoolRow::as_select())
        .first(conn)
        .optional()?)
}

pub fn find_by_id(conn: &mut DbConnection, id: i64) -> Result<Option<PoolRow>, DbError> {
    Ok(pools::table
        .find(id)
        .select(PoolRow::as_select())
        .first(conn)
        .optional()?)
}

/// All pools, shipped first, then by edition and name.
pub fn list(conn: &mut DbConnection) -> Result<Vec<PoolRow>, DbError> {
    Ok(pools::table
        .order((
            pools::shipped.desc(),
            pools::edition.asc(),
            pools::slug.asc(),
        ))
        .select(PoolRow::as_select())
        .load(conn)?)
}

/// The names of running events that use a pool (editing it is refused then).
pub fn running_events_using(conn: &mut DbConnection, pool_id: i64) -> Result<Vec<String>, DbError> {
    Ok(events::table
        .filter(events::pool_id.eq(pool_id))
        .filter(events::status.eq("running"))
        .select(events::name)
        .load(conn)?)
}

/// Keeps the pool's current definition among its revisions (once): called
/// whenever a definition is stored or a setup is flipped with it.
pub fn keep_revision(
    conn: &mut DbConnection,
    row: &PoolRow,
    now: NaiveDateTime,
) -> Result<String, DbError> {
    let revision = row.revision();
    let known: i64 = pool_revisions::table
        .filter(pool_revisions::pool_id.eq(row.id))
        .filter(pool_revisions::revision.eq(&revision))
        .count()
        .get_result(conn)?;
    if known == 0 {
        let inserted = conn.write_transaction(|conn| {
            diesel::insert_into(pool_revisions::table)
                .values((
                    pool_revisions::pool_id.eq(row.id),
                    pool_revisions::revision.eq(&revision),
                    pool_revisions::definition.eq(&row.definition),
                    pool_revisions::created_at.eq(now),
                ))
                .execute(conn)
        });
        match inserted.map_err(DbError::from) {
            Ok(_) => {}
            // Kept at the same moment by another request: the same row.
            Err(err) if err.is_unique_violation() => {}
            Err(err) => return Err(err),
        }
    }
    Ok(revision)
}

/// A pool as it was at `revision`, if that revision was kept.
pub fn at_revision(
    conn: &mut DbConnection,
    row: &PoolRow,
    revision: &str,
) -> Result<Option<Pool>, DbError> {
    if row.revision() == revision {
        return row.pool().map(Some);
    }
    let definition: Option<String> = pool_revisions::table
        .filter(pool_revisions::pool_id.eq(row.id))
        .filter(pool_revisions::revision.eq(revision))
        .select(pool_revisions::definition)
        .first(conn)
        .optional()?;
    definition
        .map(|d| {
            Pool::parse_json(&d).map_err(|err| {
                DbError::Migration(format!(
                    "stored revision {revision} of {} is invalid: {err}",
                    row.slug
                ))
            })
        })
        .transpose()
}

/// Features a pool (or stops featuring it): a site admin's choice.
pub fn set_featured(conn: &mut DbConnection, id: i64, featured: bool) -> Result<(), DbError> {
    diesel::update(pools::table.find(id))
        .set(pools::featured.eq(featured))
        .execute(conn)?;
    Ok(())
}

/// The public default for an edition: the newest pool an admin featured,
/// else the newest shipped one; never a pool only its owner vouches for.
pub fn public_default(conn: &mut DbConnection, edition: &str) -> Result<Option<PoolRow>, DbError> {
    Ok(pools::table
        .filter(pools::edition.eq(edition))
        .filter(pools::featured.eq(true).or(pools::shipped.eq(true)))
        .order((
            pools::featured.desc(),
            pools::updated_at.desc(),
            pools::id.desc(),
        ))
        .select(PoolRow::as_select())
        .first(conn)
        .optional()?)
}
