//! Crew lists kept on players' accounts.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::saved_crews;
use super::{DbConnection, DbError};

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable)]
#[diesel(table_name = saved_crews)]
pub struct SavedCrewRow {
    pub id: i64,
    pub account_id: i64,
    pub name: String,
    pub edition: String,
    pub list_text: String,
    pub saved_at: NaiveDateTime,
    pub event_id: Option<i64>,
}

/// Takes the account's row for this write transaction, so that a rule that
/// counts the account's lists and then inserts holds when requests arrive
/// together. On PostgreSQL the row is locked until the transaction ends;
/// SQLite's write transactions already run one at a time.
pub fn lock_account(conn: &mut DbConnection, account: i64) -> Result<(), DbError> {
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE")
            .bind::<diesel::sql_types::BigInt, _>(account)
            .execute(pg)?;
    }
    Ok(())
}

/// `account`'s lists, by name; of one edition when `edition` is given.
pub fn saved_crews_of(
    conn: &mut DbConnection,
    account: i64,
    edition: Option<&str>,
) -> Result<Vec<SavedCrewRow>, DbError> {
    let mut query = saved_crews::table
        .filter(saved_crews::account_id.eq(account))
        .into_boxed();
    if let Some(edition) = edition {
        query = query.filter(saved_crews::edition.eq(edition.to_string()));
    }
    Ok(query
        .order((saved_crews::name.asc(), saved_crews::id.asc()))
        .select(SavedCrewRow::as_select())
        .load(conn)?)
}

/// One of `account`'s lists.
pub fn saved_crew(
    conn: &mut DbConnection,
    account: i64,
    id: i64,
) -> Result<Option<SavedCrewRow>, DbError> {
    Ok(saved_crews::table
        .filter(saved_crews::account_id.eq(account))
        .filter(saved_crews::id.eq(id))
        .select(SavedCrewRow::as_select())
        .first(conn)
        .optional()?)
}

/// The id of `account`'s list called `name`, if any.
pub fn saved_crew_named(
    conn: &mut DbConnection,
    account: i64,
    name: &str,
) -> Result<Option<i64>, DbError> {
    Ok(saved_crews::table
        .filter(saved_crews::account_id.eq(account))
        .filter(saved_crews::name.eq(name))
        .select(saved_crews::id)
        .first(conn)
        .optional()?)
}

pub fn count_saved_crews(conn: &mut DbConnection, account: i64) -> Result<i64, DbError> {
    Ok(saved_crews::table
        .filter(saved_crews::account_id.eq(account))
        .count()
        .get_result(conn)?)
}

pub struct NewSavedCrew<'a> {
    pub account: i64,
    pub name: &'a str,
    pub edition: &'a str,
    pub list_text: &'a str,
    pub saved_at: NaiveDateTime,
    /// The event whose cards the list was written with.
    pub event: Option<i64>,
}

pub fn insert_saved_crew(conn: &mut DbConnection, new: &NewSavedCrew<'_>) -> Result<i64, DbError> {
    Ok(diesel::insert_into(saved_crews::table)
        .values((
            saved_crews::account_id.eq(new.account),
            saved_crews::name.eq(new.name),
            saved_crews::edition.eq(new.edition),
            saved_crews::list_text.eq(new.list_text),
            saved_crews::saved_at.eq(new.saved_at),
            saved_crews::event_id.eq(new.event),
        ))
        .returning(saved_crews::id)
        .get_result(conn)?)
}

/// Writes `new` over the list `id` (the same account's, the same name).
pub fn replace_saved_crew(
    conn: &mut DbConnection,
    id: i64,
    new: &NewSavedCrew<'_>,
) -> Result<(), DbError> {
    diesel::update(
        saved_crews::table
            .filter(saved_crews::id.eq(id))
            .filter(saved_crews::account_id.eq(new.account)),
    )
    .set((
        saved_crews::edition.eq(new.edition),
        saved_crews::list_text.eq(new.list_text),
        saved_crews::saved_at.eq(new.saved_at),
        saved_crews::event_id.eq(new.event),
    ))
    .execute(conn)?;
    Ok(())
}

/// Deletes one of `account`'s lists; false when it has no such list.
pub fn delete_saved_crew(conn: &mut DbConnection, account: i64, id: i64) -> Result<bool, DbError> {
    let deleted = diesel::delete(
        saved_crews::table
            .filter(saved_crews::account_id.eq(account))
            .filter(saved_crews::id.eq(id)),
    )
    .execute(conn)?;
    Ok(deleted > 0)
}
