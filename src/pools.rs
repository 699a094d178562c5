//! Strategy and scheme pools as a service: who may feature, create, edit,
//! clone and import a pool, and which pool a flip uses, over the database.
//! A pool that a running event uses cannot change (a copy is offered
//! instead); an edit checks that and writes in one transaction.

use crate::db::pools::{self as db_pools, PoolInsert};
use crate::db::{DbConnection, DbError, WriteTransaction, audit};
use crate::setup::pool::{Pool, is_reserved_pool_id, numbered_pool_ids};
use crate::systems::GameSystem;

pub use crate::db::pools::PoolRow;

#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("no such pool")]
    NotFound,
    #[error("{0}")]
    Forbidden(String),
    /// The pool cannot change as it stands (shipped, or in use).
    #[error("{0}")]
    Conflict(String),
    /// The pool's id is taken or reserved; the message says which.
    #[error("{0}")]
    IdRefused(String),
    /// What was asked for cannot be served (an unknown pool, another
    /// game's pool, a revision not kept); the message says what to do.
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for PoolError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Db(error.into())
    }
}

/// Who asks to change a pool, as the rules about pools need to know them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Editor {
    pub account_id: i64,
    pub is_admin: bool,
}

/// A pool as its page shows it: the row, the pool it holds, and the
/// running events that use it.
#[derive(Debug, Clone)]
pub struct FoundPool {
    pub row: PoolRow,
    pub pool: Pool,
    pub in_use_by: Vec<String>,
}

pub fn list(conn: &mut DbConnection) -> Result<Vec<PoolRow>, PoolError> {
    Ok(db_pools::list(conn)?)
}

/// The pools a setup may be flipped from, as the generator offers them:
/// (id, name, edition code).
pub fn choices(conn: &mut DbConnection) -> Result<Vec<(String, String, String)>, PoolError> {
    Ok(list(conn)?
        .into_iter()
        .map(|p| (p.slug, p.name, p.edition))
        .collect())
}

/// What the setup generator is asked for (its page or the API).
#[derive(Debug, Clone)]
pub struct SetupAsked {
    pub system: GameSystem,
    /// The pool's id (none: the system's featured pool).
    pub pool: Option<String>,
    /// The pool's revision a permalink pins.
    pub revision: Option<String>,
    pub size: crate::setup::EncounterSize,
    pub seed: u64,
}

/// The setup `asked` flips, from the pool (and revision) it names.
pub fn generate_setup(
    conn: &mut DbConnection,
    asked: &SetupAsked,
    now: chrono::NaiveDateTime,
) -> Result<crate::setup::Setup, PoolError> {
    let pool = for_flip(
        conn,
        asked.system,
        asked.pool.as_deref(),
        asked.revision.as_deref(),
        now,
    )?;
    crate::setup::generate(crate::setup::SetupRequest {
        system: asked.system,
        pool: pool.as_ref(),
        seed: asked.seed,
        encounter_size: asked.size,
    })
    .map_err(|e| PoolError::Invalid(e.to_string()))
}

pub fn find(conn: &mut DbConnection, slug: &str) -> Result<FoundPool, PoolError> {
    let row = db_pools::find_by_slug(conn, slug)?.ok_or(PoolError::NotFound)?;
    let pool = row.pool()?;
    let in_use_by = db_pools::running_events_using(conn, row.id)?;
    Ok(FoundPool {
        row,
        pool,
        in_use_by,
    })
}

/// The slug and name of the pool with this id, if there is one.
pub fn name_of(conn: &mut DbConnection, id: i64) -> Result<Option<(String, String)>, PoolError> {
    Ok(db_pools::find_by_id(conn, id)?.map(|row| (row.slug, row.name)))
}

/// Its author and the site admins may edit a pool; nobody edits a shipped one.
pub fn may_edit(editor: Option<Editor>, row: &PoolRow) -> bool {
    !row.shipped && editor.is_some_and(|e| e.is_admin || Some(e.account_id) == row.owner_account_id)
}

/// A pool this editor may change now: not shipped, theirs (or they are
/// an admin), and used by no running event.
pub fn editable(
    conn: &mut DbConnection,
    editor: Editor,
    slug: &str,
) -> Result<FoundPool, PoolError> {
    let found = find(conn, slug)?;
    if found.row.shipped {
        return Err(PoolError::Conflict(
            "Shipped pools cannot be edited. Clone it to make your own version.".into(),
        ));
    }
    if !may_edit(Some(editor), &found.row) {
        return Err(PoolError::Forbidden(
            "Only the pool's author or a site admin can edit it.".into(),
        ));
    }
    if !found.in_use_by.is_empty() {
        return Err(PoolError::Conflict(format!(
            "This pool is in use by a running event ({}), so it cannot change now. Clone it to make a new version.",
            found.in_use_by.join(", ")
        )));
    }
    Ok(found)
}

/// Saves a new version of an editable pool; its id stays (events refer to it).
pub fn update(
    conn: &mut DbConnection,
    editor: Editor,
    slug: &str,
    pool: &Pool,
    now: chrono::NaiveDateTime,
) -> Result<(), PoolError> {
    conn.write_transaction(|conn| {
        let found = editable(conn, editor, slug)?;
        db_pools::update_pool(conn, found.row.id, pool, now)?;
        Ok(())
    })
}

/// Saves a new pool under its own id, refusing a taken or reserved one.
pub fn create(
    conn: &mut DbConnection,
    owner: i64,
    pool: &Pool,
    now: chrono::NaiveDateTime,
) -> Result<(), PoolError> {
    match db_pools::insert_pool(conn, pool, owner, now)? {
        PoolInsert::Inserted(_) => Ok(()),
        PoolInsert::Reserved => Err(PoolError::IdRefused(format!(
            "Ids starting with {} are kept for the pools Soulstone ships; choose another than {:?}.",
            crate::setup::pool::SHIPPED_POOL_PREFIXES.join(", "),
            pool.id()
        ))),
        PoolInsert::Taken => Err(PoolError::IdRefused(format!(
            "A pool with the id {:?} exists already; choose another.",
            pool.id()
        ))),
    }
}

/// A pool from an imported file: JSON when it opens with a brace, TOML
/// otherwise; the problems joined when it does not read.
pub fn parse_import(text: &str) -> Result<Pool, String> {
    let parsed = if text.trim_start().starts_with('{') {
        Pool::parse_json(text)
    } else {
        Pool::parse_toml(text)
    };
    parsed.map_err(|error| error.problems.join(" · "))
}

/// Copies a pool for `owner` under the first free "-copy" id, and returns
/// that id. A copy of a shipped pool leaves the shipped namespace.
pub fn clone_pool(
    conn: &mut DbConnection,
    owner: i64,
    slug: &str,
    now: chrono::NaiveDateTime,
) -> Result<String, PoolError> {
    let found = find(conn, slug)?;
    let base = if is_reserved_pool_id(&found.row.slug) {
        format!("my-{}", found.row.slug)
    } else {
        found.row.slug.clone()
    };
    for id in numbered_pool_ids(&format!("{base}-copy")) {
        let mut def = found.pool.def().clone();
        def.id = id;
        def.name = format!("{} (copy)", def.name).chars().take(80).collect();
        let copy = Pool::from_def(def).map_err(|e| PoolError::Invalid(e.to_string()))?;
        if db_pools::insert_pool(conn, &copy, owner, now)?.inserted() {
            return Ok(copy.id().to_owned());
        }
    }
    Err(PoolError::Conflict(
        "Too many copies of this pool exist already.".into(),
    ))
}

/// A site admin features a pool (the public generator then offers it as
/// its edition's default) or stops featuring it; recorded in the audit log.
pub fn set_featured(
    conn: &mut DbConnection,
    editor: Editor,
    slug: &str,
    featured: bool,
    now: chrono::NaiveDateTime,
) -> Result<(), PoolError> {
    if !editor.is_admin {
        return Err(PoolError::Forbidden(
            "Only a site admin chooses which pools anonymous visitors flip with.".into(),
        ));
    }
    conn.write_transaction(|conn| {
        let row = db_pools::find_by_slug(conn, slug)?.ok_or(PoolError::NotFound)?;
        db_pools::set_featured(conn, row.id, featured)?;
        let action = if featured {
            "pool.featured"
        } else {
            "pool.unfeatured"
        };
        audit::record(conn, Some(editor.account_id), None, action, &row.slug, now)?;
        Ok(())
    })
}

/// The pool a flip uses: the one named (at the revision a permalink pins),
/// else the edition's public default. 4th edition flips without one until
/// a season is imported; other editions need one. A flip of the pool as
/// it is now keeps that revision, so its permalink reproduces it after the
/// pool is edited.
pub fn for_flip(
    conn: &mut DbConnection,
    system: GameSystem,
    slug: Option<&str>,
    revision: Option<&str>,
    now: chrono::NaiveDateTime,
) -> Result<Option<Pool>, PoolError> {
    if !system.uses_pools() {
        return Ok(None);
    }
    let row = match slug {
        Some(slug) => Some(
            db_pools::find_by_slug(conn, slug)?
                .ok_or_else(|| PoolError::Invalid(format!("There is no pool {slug:?}.")))?,
        ),
        None => db_pools::public_default(conn, system.code())?,
    };
    let Some(row) = row else {
        if system == GameSystem::Malifaux4 {
            return Ok(None);
        }
        return Err(PoolError::Invalid(format!(
            "There is no pool for {} yet. An organiser can add one under Pools.",
            system.name()
        )));
    };
    if row.edition != system.code() {
        let edition = row
            .edition
            .parse::<GameSystem>()
            .map(|s| s.name())
            .unwrap_or("another game");
        return Err(PoolError::Invalid(format!(
            "The pool {} is for {edition}, not {}: choose one of {}'s pools, or leave the pool empty for its default.",
            row.name,
            system.name(),
            system.name()
        )));
    }
    match revision {
        Some(revision) => db_pools::at_revision(conn, &row, revision)?
            .map(Some)
            .ok_or_else(|| {
                PoolError::Invalid(format!(
                    "This link names revision {revision} of the pool {}, which this server does not keep. Leave out the revision to flip with the pool as it is now.",
                    row.name
                ))
            }),
        None => {
            db_pools::keep_revision(conn, &row, now)?;
            Ok(Some(row.pool()?))
        }
    }
}
