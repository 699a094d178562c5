//! Crew lists players keep on their account: saved from the builder under
//! a name, listed, opened again, brought to a game or an event, and
//! deleted. An account keeps a bounded number of lists, a rule that holds
//! when two saves arrive together (the account's row is taken first).

use chrono::NaiveDateTime;
use soulstone_engine::Edition;
use soulstone_engine::content::crew::CrewList;

use crate::db::crews::{self as db_crews, NewSavedCrew, SavedCrewRow};
use crate::db::{DbConnection, DbError, WriteTransaction};

/// Lists one account keeps at most.
pub const MAX_SAVED_CREWS: i64 = 50;

/// Characters a list's name may have.
pub const MAX_NAME_CHARS: usize = 80;

#[derive(Debug, thiserror::Error)]
pub enum SavedCrewError {
    /// The name or the list cannot be kept as given; the message says why.
    #[error("{0}")]
    Invalid(String),
    /// The account already has a list of that name and replacing it was
    /// not asked for.
    #[error(
        "You already keep a list called \"{0}\". Tick \"replace it\" to save over it, or choose another name."
    )]
    NameTaken(String),
    #[error(
        "You keep {MAX_SAVED_CREWS} lists, the most an account may; delete one to save another."
    )]
    Full,
    #[error("no such list")]
    NotFound,
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for SavedCrewError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Db(error.into())
    }
}

/// A kept list, read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedCrew {
    pub id: i64,
    pub name: String,
    pub list: CrewList,
    pub saved_at: NaiveDateTime,
    /// The event whose cards (its pinned pack) the list was written with;
    /// none for the server's own cards.
    pub event: Option<i64>,
}

impl SavedCrew {
    fn of(row: SavedCrewRow) -> Result<Self, SavedCrewError> {
        // Saved lists were read when saved; one that no longer reads means
        // the format moved on without them, which is a bug to report.
        let list = CrewList::parse(&row.list_text).map_err(|problem| {
            SavedCrewError::Db(DbError::Query(diesel::result::Error::DeserializationError(
                format!("saved crew {}: {problem}", row.id).into(),
            )))
        })?;
        Ok(Self {
            id: row.id,
            name: row.name,
            list,
            saved_at: row.saved_at,
            event: row.event_id,
        })
    }
}

/// A name as it is kept: trimmed, 1 to [`MAX_NAME_CHARS`] characters.
pub fn checked_name(name: &str) -> Result<String, SavedCrewError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(SavedCrewError::Invalid("Give the list a name.".into()));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(SavedCrewError::Invalid(format!(
            "A list's name is {MAX_NAME_CHARS} characters at most."
        )));
    }
    Ok(name.to_string())
}

/// Keeps `list` on `account` under `name`, written with the cards of
/// `event` (none: the server's). A list the rules would not hire may be
/// kept (a draft); an existing name is written over only when `replace`
/// says so. Returns the list's id.
pub fn save(
    conn: &mut DbConnection,
    account: i64,
    name: &str,
    list: &CrewList,
    event: Option<i64>,
    replace: bool,
    now: NaiveDateTime,
) -> Result<i64, SavedCrewError> {
    let name = checked_name(name)?;
    if list.models.len() > soulstone_engine::content::crew::MAX_LIST_MODELS {
        return Err(SavedCrewError::Invalid("That list is far too long.".into()));
    }
    let text = list.to_text();
    conn.write_transaction(|conn| {
        db_crews::lock_account(conn, account)?;
        let new = NewSavedCrew {
            account,
            name: &name,
            edition: list.edition.code(),
            list_text: &text,
            saved_at: now,
            event,
        };
        match db_crews::saved_crew_named(conn, account, &name)? {
            Some(id) if replace => {
                db_crews::replace_saved_crew(conn, id, &new)?;
                Ok(id)
            }
            Some(_) => Err(SavedCrewError::NameTaken(name.clone())),
            None => {
                if db_crews::count_saved_crews(conn, account)? >= MAX_SAVED_CREWS {
                    return Err(SavedCrewError::Full);
                }
                Ok(db_crews::insert_saved_crew(conn, &new)?)
            }
        }
    })
}

/// `account`'s lists by name; only those of `edition` when given.
pub fn saved_of(
    conn: &mut DbConnection,
    account: i64,
    edition: Option<Edition>,
) -> Result<Vec<SavedCrew>, SavedCrewError> {
    db_crews::saved_crews_of(conn, account, edition.map(Edition::code))?
        .into_iter()
        .map(SavedCrew::of)
        .collect()
}

/// One of `account`'s lists (another account's is not found).
pub fn saved(conn: &mut DbConnection, account: i64, id: i64) -> Result<SavedCrew, SavedCrewError> {
    db_crews::saved_crew(conn, account, id)?
        .ok_or(SavedCrewError::NotFound)
        .and_then(SavedCrew::of)
}

/// Deletes one of `account`'s lists.
pub fn delete(conn: &mut DbConnection, account: i64, id: i64) -> Result<(), SavedCrewError> {
    if db_crews::delete_saved_crew(conn, account, id)? {
        Ok(())
    } else {
        Err(SavedCrewError::NotFound)
    }
}
